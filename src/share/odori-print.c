/* odori-print.c: a score laid out on pages (title, a staff system of body-part rows over a
 * time ruler, pose thumbnails, the legend), drawn with cairo and Pango
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "odori-beat-grid.h"
#include "odori-beats.h"
#include "odori-bulge.h"
#include "odori-compose.h"
#include "odori-headless.h"
#include "odori-paths.h"
#include "odori-print.h"
#include "odori-renderer.h"
#include "odori-share.h"
#include "odori-skeleton.h"
#include "odori-text.h"

/* Layout, in points */
#define MARGIN      36.0
#define GUTTER      76.0 /* the part names left of the rows */
#define RULER_H     26.0
#define ROW_H       50.0
#define SYSTEM_GAP  18.0
#define FOOTER_H    18.0
#define BLOCK_INSET 3.0
#define LEGEND_GAP  4.0
/* Wanted width of a typical (median) block: room for a thumbnail and a label */
#define BLOCK_TARGET 118.0

/* Thumbnails: pixels drawn, and their size on the page (the row's height) */
#define THUMB_PX_W 105
#define THUMB_PX_H 140
#define THUMB_H    (ROW_H - 2 * BLOCK_INSET - 4)
#define THUMB_W    (THUMB_H * THUMB_PX_W / THUMB_PX_H)
#define THUMB_ZOOM 1.3f

#define FONT "Sans"

#define N_COLORS 8
static const double palette[N_COLORS][3] = {
  { 0.21, 0.52, 0.89 }, /* blue */
  { 0.90, 0.42, 0.05 }, /* orange */
  { 0.15, 0.62, 0.40 }, /* green */
  { 0.57, 0.27, 0.68 }, /* purple */
  { 0.78, 0.16, 0.22 }, /* red */
  { 0.11, 0.55, 0.62 }, /* teal */
  { 0.60, 0.42, 0.20 }, /* brown */
  { 0.80, 0.27, 0.56 }, /* pink */
};
static const double unresolved[3] = { 0.55, 0.55, 0.55 };

/* A symbol of the score as the index describes it */
typedef struct
{
  char *symbol; /* as written: "CODE" or "SHOW.CODE" */
  char *name;   /* NULL when the index has none (or the symbol is unknown) */
  char *exp;
  char *show_name;
  char *show_code;
  char *show_path;
  guint first;
  guint last;
  guint n;     /* output frames of the clip (prepare) */
  int   color; /* show number, -1 unresolved */
} Sym;

/* A symbol placed on a row */
typedef struct
{
  guint            part;
  guint            start;
  guint            end;      /* exclusive: after the symbol's own frames */
  guint            vis_end;  /* exclusive: the next symbol's start cuts it */
  guint            hold_end; /* exclusive: held until the next symbol (or the dance end) */
  OdoriSymbolMods  mods;
  Sym             *sym;
  cairo_surface_t *thumb; /* owned by the thumbnail table */
} Block;

typedef struct
{
  char  *code;
  char  *name; /* the index's name, or NULL */
  char **map;  /* the index's sensors, or NULL */
} Part;

typedef struct
{
  guint  first; /* first frame */
  guint  end;   /* exclusive */
  double ppf;   /* points per frame */
} System;

typedef enum
{
  ITEM_HEADER,
  ITEM_SYSTEM,
  ITEM_LEGEND_HEAD,
  ITEM_LEGEND_ROW,
} ItemKind;

typedef struct
{
  ItemKind kind;
  guint    index; /* system or legend row */
  double   y;
  double   height;
} Item;

typedef struct
{
  GArray *items; /* Item */
} Page;

struct _OdoriPrint
{
  GObject parent_instance;

  OdoriScore       *score; /* a copy */
  OdoriIndex       *index; /* for composing only */
  OdoriMotion      *motion;
  OdoriMotionCache *cache;
  gboolean          thumbnails;
  char             *title;
  char             *file_name;

  GPtrArray  *syms;      /* Sym*, in order of first use */
  GHashTable *sym_table; /* symbol → Sym* */
  GPtrArray  *parts;     /* Part* */

  /* prepare */
  gboolean       prepared;
  double         frame_time;
  guint          dance_end; /* last frame */
  GArray        *blocks;    /* Block, part by part, in start order */
  GHashTable    *thumbs;    /* "frame part" → cairo_surface_t* */
  OdoriBeatGrid *grid;
  GPtrArray     *legend;   /* Sym*, sorted by symbol */
  gint           permille; /* atomic */
  double         fraction_scale;

  /* paginate */
  double        width;
  double        height;
  GArray       *systems; /* System */
  GPtrArray    *pages;   /* Page* */
  PangoContext *measure;
};

G_DEFINE_FINAL_TYPE (OdoriPrint, odori_print, G_TYPE_OBJECT)

static void
sym_free (gpointer data)
{
  Sym *s = data;

  g_free (s->symbol);
  g_free (s->name);
  g_free (s->exp);
  g_free (s->show_name);
  g_free (s->show_code);
  g_free (s->show_path);
  g_free (s);
}

static void
part_free (gpointer data)
{
  Part *p = data;

  g_free (p->code);
  g_free (p->name);
  g_strfreev (p->map);
  g_free (p);
}

static void
page_free (gpointer data)
{
  Page *page = data;

  g_array_unref (page->items);
  g_free (page);
}

static void
odori_print_finalize (GObject *object)
{
  OdoriPrint *self = ODORI_PRINT (object);

  g_clear_pointer (&self->score, odori_score_unref);
  g_clear_pointer (&self->index, odori_index_unref);
  g_clear_pointer (&self->motion, odori_motion_unref);
  g_clear_pointer (&self->cache, odori_motion_cache_unref);
  g_free (self->title);
  g_free (self->file_name);
  g_clear_pointer (&self->syms, g_ptr_array_unref);
  g_clear_pointer (&self->sym_table, g_hash_table_unref);
  g_clear_pointer (&self->parts, g_ptr_array_unref);
  g_clear_pointer (&self->blocks, g_array_unref);
  g_clear_pointer (&self->thumbs, g_hash_table_unref);
  g_clear_pointer (&self->grid, odori_beat_grid_unref);
  g_clear_pointer (&self->legend, g_ptr_array_unref);
  g_clear_pointer (&self->systems, g_array_unref);
  g_clear_pointer (&self->pages, g_ptr_array_unref);
  g_clear_object (&self->measure);
  G_OBJECT_CLASS (odori_print_parent_class)->finalize (object);
}

static void
odori_print_class_init (OdoriPrintClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_print_finalize;
}

static void
odori_print_init (OdoriPrint *self)
{
  self->thumbnails = TRUE;
  self->fraction_scale = 1;
  self->syms = g_ptr_array_new_with_free_func (sym_free);
  self->sym_table = g_hash_table_new (g_str_hash, g_str_equal);
  self->parts = g_ptr_array_new_with_free_func (part_free);
  self->blocks = g_array_new (FALSE, TRUE, sizeof (Block));
  self->thumbs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) cairo_surface_destroy);
  self->legend = g_ptr_array_new ();
  self->systems = g_array_new (FALSE, TRUE, sizeof (System));
  self->pages = g_ptr_array_new_with_free_func (page_free);
}

gboolean
odori_paper_from_string (const char *text,
                         OdoriPaper *paper)
{
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (paper != NULL, FALSE);

  if (g_ascii_strcasecmp (text, "a4") == 0)
    *paper = ODORI_PAPER_A4;
  else if (g_ascii_strcasecmp (text, "letter") == 0)
    *paper = ODORI_PAPER_LETTER;
  else
    return FALSE;
  return TRUE;
}

void
odori_paper_get_size (OdoriPaper paper,
                      gboolean   landscape,
                      double    *width,
                      double    *height)
{
  /* A4 is 210 x 297 mm, Letter 8.5 x 11 inches */
  double w = paper == ODORI_PAPER_LETTER ? 612 : 595.276;
  double h = paper == ODORI_PAPER_LETTER ? 792 : 841.89;

  g_return_if_fail (width != NULL && height != NULL);

  *width = landscape ? h : w;
  *height = landscape ? w : h;
}

/* The score's lines the layout reads: header, music and parts (not its warnings). */
static OdoriScore *
copy_score (OdoriScore *score)
{
  OdoriScore *copy = odori_score_new ();

  copy->path = g_strdup (score->path);
  copy->title = g_strdup (score->title);
  copy->author = g_strdup (score->author);
  copy->date = g_strdup (score->date);
  copy->index_path = g_strdup (score->index_path);
  copy->frame_time = score->frame_time;
  copy->blend = score->blend;
  copy->foot_lock = score->foot_lock;
  copy->encoding = score->encoding;
  for (guint i = 0; i < score->header_lines->len; i++)
    g_ptr_array_add (copy->header_lines, g_strdup (g_ptr_array_index (score->header_lines, i)));
  for (guint i = 0; i < score->parts->len; i++)
    g_ptr_array_add (copy->parts, odori_score_part_copy (g_ptr_array_index (score->parts, i)));
  if (odori_score_music_is_set (&score->music) && odori_score_music_is_valid (&score->music))
    odori_score_set_music (copy, &score->music);
  return copy;
}

/* The show's number in the index (classes in order, their shows in order): its colour,
 * as the timeline colours by show. */
static int
show_number (OdoriIndex     *index,
             OdoriIndexShow *show)
{
  int n = 0;

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++, n++)
        if (g_ptr_array_index (klass->shows, s) == show)
          return n;
    }
  return n;
}

static void
add_sym (OdoriPrint *self,
         const char *symbol)
{
  OdoriIndexMotion *im;
  Sym              *s;

  if (g_hash_table_contains (self->sym_table, symbol))
    return;
  s = g_new0 (Sym, 1);
  s->symbol = g_strdup (symbol);
  s->color = -1;
  s->first = s->last = 1;
  im = self->index != NULL ? odori_index_lookup (self->index, symbol, NULL) : NULL;
  if (im != NULL)
    {
      s->name = g_strdup (im->name);
      s->exp = g_strdup (im->exp);
      s->first = im->first;
      s->last = im->last;
      if (im->show != NULL)
        {
          s->show_name = g_strdup (im->show->name);
          s->show_code = g_strdup (im->show->code);
          s->show_path = odori_index_show_path (self->index, im->show);
          s->color = show_number (self->index, im->show);
        }
    }
  g_ptr_array_add (self->syms, s);
  g_hash_table_insert (self->sym_table, s->symbol, s);
}

OdoriPrint *
odori_print_new (OdoriScore  *score,
                 OdoriIndex  *index,
                 OdoriMotion *motion)
{
  OdoriPrint      *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (score != NULL, NULL);

  title = g_strdup (score->title);
  self = g_object_new (ODORI_TYPE_PRINT, NULL);
  self->score = copy_score (score);
  self->index = index != NULL ? odori_index_ref (index) : NULL;
  self->motion = motion != NULL ? odori_motion_ref (motion) : NULL;

  if (score->path != NULL)
    self->file_name = g_path_get_basename (score->path);
  if (score->title != NULL && *g_strstrip (title) != '\0')
    self->title = g_steal_pointer (&title);
  else if (self->file_name != NULL)
    self->title = g_strdup (self->file_name);
  else
    self->title = g_strdup (_ ("Untitled"));

  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *sp = g_ptr_array_index (score->parts, i);
      OdoriIndexPart *ip = index != NULL ? odori_index_find_part (index, sp->code) : NULL;
      Part           *p = g_new0 (Part, 1);

      p->code = g_strdup (sp->code);
      if (ip != NULL)
        {
          p->name = g_strdup (ip->name);
          p->map = g_strdupv (ip->map);
        }
      else
        p->map = g_strdupv (sp->sensors);
      g_ptr_array_add (self->parts, p);
      for (guint k = 0; k < sp->symbols->len; k++)
        add_sym (self, g_array_index (sp->symbols, OdoriScoreSymbol, k).symbol);
    }
  return self;
}

void
odori_print_set_motion_cache (OdoriPrint       *self,
                              OdoriMotionCache *cache)
{
  g_return_if_fail (ODORI_IS_PRINT (self));

  if (cache != NULL)
    odori_motion_cache_ref (cache);
  g_clear_pointer (&self->cache, odori_motion_cache_unref);
  self->cache = cache;
}

void
odori_print_set_thumbnails (OdoriPrint *self,
                            gboolean    thumbnails)
{
  g_return_if_fail (ODORI_IS_PRINT (self));
  self->thumbnails = !!thumbnails;
}

const char *
odori_print_get_title (OdoriPrint *self)
{
  g_return_val_if_fail (ODORI_IS_PRINT (self), NULL);
  return self->title;
}

double
odori_print_get_fraction (OdoriPrint *self)
{
  g_return_val_if_fail (ODORI_IS_PRINT (self), 0);
  return g_atomic_int_get (&self->permille) / 1000.0;
}

static void
set_fraction (OdoriPrint *self,
              double      fraction)
{
  g_atomic_int_set (&self->permille, (gint) lround (CLAMP (fraction, 0, 1) * 1000));
}

/* ---------------------------------------------------------------------------------- */
/* Prepare */

static int
compare_sym_code (gconstpointer a,
                  gconstpointer b)
{
  const Sym *x = *(Sym *const *) a, *y = *(Sym *const *) b;

  return g_utf8_collate (x->symbol, y->symbol);
}

static void
build_blocks (OdoriPrint *self)
{
  guint end = self->motion != NULL ? self->motion->n_frames : 1;

  g_array_set_size (self->blocks, 0);
  for (guint p = 0; p < self->score->parts->len; p++)
    {
      OdoriScorePart *sp = g_ptr_array_index (self->score->parts, p);

      for (guint k = 0; k < sp->symbols->len; k++)
        {
          OdoriScoreSymbol *s = &g_array_index (sp->symbols, OdoriScoreSymbol, k);
          Block             b = { 0 };
          guint64           e;

          b.part = p;
          b.start = s->start;
          b.mods = s->mods;
          b.sym = g_hash_table_lookup (self->sym_table, s->symbol);
          e = (guint64) s->start + odori_symbol_mods_length (&s->mods, b.sym->n);
          b.end = (guint) MIN (e, (guint64) G_MAXUINT - 1);
          end = MAX (end, b.end - 1);
          g_array_append_val (self->blocks, b);
        }
    }
  self->dance_end = MAX (end, 1);
  /* Cut by the next symbol of the part; held until it */
  for (guint i = 0; i < self->blocks->len; i++)
    {
      Block *b = &g_array_index (self->blocks, Block, i);
      Block *next = i + 1 < self->blocks->len ? &g_array_index (self->blocks, Block, i + 1) : NULL;

      if (next != NULL && next->part == b->part)
        {
          b->vis_end = MIN (b->end, next->start);
          b->hold_end = next->start;
        }
      else
        {
          b->vis_end = b->end;
          b->hold_end = MAX (b->end, self->dance_end + 1);
        }
    }
}

/* Counts each clip's output frames at the score's rate, as the composer does. */
static void
count_clip_frames (OdoriPrint *self)
{
  for (guint i = 0; i < self->syms->len; i++)
    {
      Sym *s = g_ptr_array_index (self->syms, i);
      g_autoptr(OdoriMotion) show = NULL;
      OdoriIndexMotion im = { 0 };

      if (s->show_path != NULL)
        show = odori_motion_cache_load (self->cache, s->show_path, NULL);
      im.first = s->first;
      im.last = s->last;
      s->n = s->color >= 0 ? odori_compose_clip_frames (&im, show, self->frame_time)
                           : (guint) MAX (1, lround (1.0 / self->frame_time));
    }
}

static void
load_grid (OdoriPrint *self)
{
  g_autoptr(GArray) beats = NULL;
  g_autofree char *beats_path = NULL;

  if (!odori_score_music_has_grid (&self->score->music))
    return;
  beats_path = odori_score_dup_beats_path (self->score);
  if (beats_path != NULL)
    beats = odori_beats_load (beats_path, NULL);
  self->grid = odori_beat_grid_new_for_music (&self->score->music, beats, self->frame_time);
}

/* Top-down RGBA (opaque) into a cairo image. */
static cairo_surface_t *
rgba_to_surface (const guint8 *rgba,
                 int           width,
                 int           height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  guint8          *data = cairo_image_surface_get_data (surface);
  int              stride = cairo_image_surface_get_stride (surface);

  cairo_surface_flush (surface);
  for (int y = 0; y < height; y++)
    {
      guint32      *row = (guint32 *) (gpointer) (data + (gsize) y * stride);
      const guint8 *src = rgba + (gsize) y * width * 4;

      for (int x = 0; x < width; x++, src += 4)
        row[x] = 0xff000000u | ((guint32) src[0] << 16) | ((guint32) src[1] << 8) | src[2];
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

static char *
thumb_key (guint frame,
           guint part)
{
  return g_strdup_printf ("%u %u", frame, part);
}

/* Draws the pose at each symbol's start, its body part tinted, in a GL context of this
 * thread (made and freed here). */
static gboolean
render_thumbnails (OdoriPrint   *self,
                   GCancellable *cancellable,
                   GError      **error)
{
  static const float tint[4] = { 0.95f, 0.45f, 0.20f, 0.85f };
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  g_autoptr(OdoriHeadless) headless = NULL;
  g_autoptr(OdoriRenderer) renderer = NULL;
  g_autofree char   *bulge_path = NULL;
  g_autofree guint8 *pixels = NULL;

  if (self->motion == NULL || self->motion->n_frames == 0 || self->motion->n_segments == 0 || self->blocks->len == 0)
    return TRUE;

  headless = odori_headless_new (THUMB_PX_W, THUMB_PX_H, error);
  if (headless == NULL)
    return FALSE;
  if (!odori_headless_set_samples (headless, 4, error))
    return FALSE;
  renderer = odori_renderer_new (error);
  if (renderer == NULL)
    return FALSE;
  skeleton = odori_skeleton_for_motion (self->motion);
  bulge_path = odori_find_data_file ("bulge_types");
  if (bulge_path != NULL)
    bulges = odori_bulge_set_load (bulge_path, NULL);
  odori_renderer_set_motion (renderer, self->motion, skeleton);
  odori_renderer_set_bulges (renderer, bulges);
  odori_renderer_set_show_skin (renderer, TRUE);
  odori_renderer_set_show_bulges (renderer, bulges != NULL);
  odori_renderer_set_view (renderer, ODORI_VIEW_FRONT);
  pixels = g_malloc ((gsize) THUMB_PX_W * THUMB_PX_H * 4);
  /* The camera fits every frame of the dance at the first draw; a little closer then,
   * for a figure that fills a thumbnail (a dancer who travels far may leave it). */
  if (!odori_renderer_draw (renderer, THUMB_PX_W, THUMB_PX_H, error))
    return FALSE;
  odori_renderer_zoom (renderer, THUMB_ZOOM);

  for (guint i = 0; i < self->blocks->len; i++)
    {
      Block           *b = &g_array_index (self->blocks, Block, i);
      Part            *part = g_ptr_array_index (self->parts, b->part);
      g_autofree char *key = thumb_key (b->start, b->part);
      cairo_surface_t *surface = g_hash_table_lookup (self->thumbs, key);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (surface == NULL)
        {
          odori_renderer_set_frame (renderer, b->start - 1);
          odori_renderer_set_highlight (renderer, (const char *const *) part->map, tint);
          if (!odori_renderer_draw (renderer, THUMB_PX_W, THUMB_PX_H, error))
            return FALSE;
          odori_headless_read_into (headless, pixels);
          surface = rgba_to_surface (pixels, THUMB_PX_W, THUMB_PX_H);
          g_hash_table_insert (self->thumbs, g_steal_pointer (&key), surface);
        }
      b->thumb = surface;
      set_fraction (self, self->fraction_scale * (0.2 + 0.8 * (i + 1.0) / self->blocks->len));
    }
  return TRUE;
}

gboolean
odori_print_prepare (OdoriPrint   *self,
                     GCancellable *cancellable,
                     GError      **error)
{
  g_return_val_if_fail (ODORI_IS_PRINT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->prepared)
    return TRUE;
  set_fraction (self, 0);
  if (self->cache == NULL)
    self->cache = odori_motion_cache_new ();

  if (self->motion == NULL && self->index != NULL)
    {
      g_autoptr(OdoriComposer) composer = NULL;
      OdoriMotion *motion;

      composer = odori_composer_new_with_cache (self->score, self->index, self->cache, error);
      if (composer == NULL)
        return FALSE;
      motion = odori_composer_compose (composer, error);
      if (motion == NULL)
        return FALSE;
      self->motion = odori_motion_ref (motion);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  set_fraction (self, self->fraction_scale * 0.15);

  if (self->score->frame_time > 0)
    self->frame_time = self->score->frame_time;
  else if (self->motion != NULL && self->motion->frame_time > 0)
    self->frame_time = self->motion->frame_time;
  else
    self->frame_time = 1.0 / 30;

  count_clip_frames (self);
  build_blocks (self);
  load_grid (self);
  g_ptr_array_set_size (self->legend, 0);
  for (guint i = 0; i < self->syms->len; i++)
    g_ptr_array_add (self->legend, g_ptr_array_index (self->syms, i));
  g_ptr_array_sort (self->legend, compare_sym_code);
  set_fraction (self, self->fraction_scale * 0.2);

  if (self->thumbnails && !render_thumbnails (self, cancellable, error))
    {
      g_hash_table_remove_all (self->thumbs);
      for (guint i = 0; i < self->blocks->len; i++)
        g_array_index (self->blocks, Block, i).thumb = NULL;
      return FALSE;
    }
  set_fraction (self, self->fraction_scale);
  self->prepared = TRUE;
  return TRUE;
}

static void
prepare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;

  if (odori_print_prepare (source, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
odori_print_prepare_async (OdoriPrint         *self,
                           GCancellable       *cancellable,
                           GAsyncReadyCallback callback,
                           gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ODORI_IS_PRINT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, odori_print_prepare_async);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, prepare_thread);
}

gboolean
odori_print_prepare_finish (OdoriPrint   *self,
                            GAsyncResult *result,
                            GError      **error)
{
  g_return_val_if_fail (ODORI_IS_PRINT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---------------------------------------------------------------------------------- */
/* Text */

static void
setup_context (PangoContext *context)
{
  cairo_font_options_t *options = cairo_font_options_create ();

  /* Metrics independent of the device, so that pages measured once draw alike on a PDF
   * and on a printer's context. */
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options (context, options);
  pango_cairo_context_set_resolution (context, 72);
  cairo_font_options_destroy (options);
}

static PangoContext *
measure_context (OdoriPrint *self)
{
  if (self->measure == NULL)
    {
      self->measure = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      setup_context (self->measure);
    }
  return self->measure;
}

typedef enum
{
  TEXT_ELLIPSIZE = 1 << 0,
  TEXT_WRAP = 1 << 1,
  TEXT_CENTER = 1 << 2,
  TEXT_RIGHT = 1 << 3,
  TEXT_MARKUP = 1 << 4,
} TextFlags;

/* A layout of TEXT in FONT (Pango description) WIDTH points wide (<= 0: unbounded). */
static PangoLayout *
make_layout (PangoContext *context,
             const char   *font,
             const char   *text,
             double        width,
             TextFlags     flags)
{
  PangoLayout          *layout = pango_layout_new (context);
  PangoFontDescription *desc = pango_font_description_from_string (font);

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  if (flags & TEXT_MARKUP)
    pango_layout_set_markup (layout, text, -1);
  else
    pango_layout_set_text (layout, text, -1);
  if (width > 0)
    {
      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      if (flags & TEXT_WRAP)
        pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      else
        pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  if (flags & TEXT_CENTER)
    pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  else if (flags & TEXT_RIGHT)
    pango_layout_set_alignment (layout, PANGO_ALIGN_RIGHT);
  return layout;
}

static double
layout_height (PangoLayout *layout)
{
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  return (double) logical.height / PANGO_SCALE;
}

static double
layout_width (PangoLayout *layout)
{
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  return (double) logical.width / PANGO_SCALE;
}

typedef struct
{
  cairo_t      *cr;
  PangoContext *context;
} Draw;

/* Draws TEXT with its top left at X, Y; returns its height. */
static double
text_at (Draw       *d,
         double      x,
         double      y,
         double      width,
         const char *font,
         const char *text,
         TextFlags   flags,
         double      gray)
{
  g_autoptr(PangoLayout) layout = make_layout (d->context, font, text, width, flags);

  cairo_set_source_rgb (d->cr, gray, gray, gray);
  cairo_move_to (d->cr, x, y);
  pango_cairo_show_layout (d->cr, layout);
  return layout_height (layout);
}

/* ---------------------------------------------------------------------------------- */
/* Layout */

static double
content_width (OdoriPrint *self)
{
  return MAX (self->width - 2 * MARGIN - GUTTER, 40);
}

static double
system_height (OdoriPrint *self)
{
  return RULER_H + ROW_H * MAX (self->parts->len, 1);
}

/* The median length (frames) of the blocks as shown. */
static double
median_block (OdoriPrint *self)
{
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (guint));
  guint m;

  for (guint i = 0; i < self->blocks->len; i++)
    {
      Block *b = &g_array_index (self->blocks, Block, i);
      guint  len = b->vis_end > b->start ? b->vis_end - b->start : 1;

      g_array_append_val (lengths, len);
    }
  if (lengths->len == 0)
    return 1.0 / self->frame_time;
  for (guint i = 1; i < lengths->len; i++) /* insertion sort: a score has few symbols */
    for (guint j = i; j > 0 && g_array_index (lengths, guint, j - 1) > g_array_index (lengths, guint, j); j--)
      {
        guint t = g_array_index (lengths, guint, j);

        g_array_index (lengths, guint, j) = g_array_index (lengths, guint, j - 1);
        g_array_index (lengths, guint, j - 1) = t;
      }
  m = g_array_index (lengths, guint, lengths->len / 2);
  return MAX (m, 1);
}

/* Where systems may break: bar starts when the score has music, else whole seconds;
 * from frame 1 to the frame after the dance. */
static GArray *
break_frames (OdoriPrint *self,
              double     *unit_frames)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint));
  guint   end = self->dance_end + 1;
  guint   f = 1;
  gint64  k0, k1;

  g_array_append_val (frames, f);
  if (self->grid != NULL && odori_beat_grid_beats_in_frames (self->grid, 1, end, &k0, &k1) && k1 - k0 < 200000)
    {
      *unit_frames = odori_beat_grid_get_frames_per_beat (self->grid) * odori_beat_grid_get_meter (self->grid);
      for (gint64 k = k0; k <= k1; k++)
        {
          gint64 bf = odori_beat_grid_beat_frame (self->grid, k);

          if (odori_beat_grid_beat_in_bar (self->grid, k) != 1 || bf <= g_array_index (frames, guint, frames->len - 1) || bf >= end)
            continue;
          f = (guint) bf;
          g_array_append_val (frames, f);
        }
    }
  else
    {
      *unit_frames = 1.0 / self->frame_time;
      for (guint64 s = 1;; s++)
        {
          guint64 sf = 1 + (guint64) llround (s / self->frame_time);

          if (sf >= end)
            break;
          if (sf <= g_array_index (frames, guint, frames->len - 1))
            continue;
          f = (guint) sf;
          g_array_append_val (frames, f);
        }
    }
  g_array_append_val (frames, end);
  return frames;
}

static void
build_systems (OdoriPrint *self)
{
  g_autoptr(GArray) breaks = NULL;
  double width = content_width (self), unit = 1, ppf, units;
  guint  i = 0;

  g_array_set_size (self->systems, 0);
  breaks = break_frames (self, &unit);
  unit = MAX (unit, 1e-3);

  /* A typical block about BLOCK_TARGET wide, a second 12 to 200 points */
  ppf = BLOCK_TARGET / median_block (self);
  ppf = CLAMP (ppf, 12 * self->frame_time, 200 * self->frame_time);
  /* Whole bars (seconds) fill a system */
  units = MAX (1, floor (width / (unit * ppf)));
  ppf = width / (units * unit);

  while (i + 1 < breaks->len)
    {
      System sys = { 0 };
      guint  j = i + 1;

      sys.first = g_array_index (breaks, guint, i);
      /* As many units as fit (a little slack for rounded frames) */
      while (j + 1 < breaks->len && (g_array_index (breaks, guint, j + 1) - sys.first) * ppf <= width + 0.5 * unit * ppf)
        j++;
      sys.end = g_array_index (breaks, guint, j);
      sys.ppf = MIN (ppf, width / MAX (sys.end - sys.first, 1));
      g_array_append_val (self->systems, sys);
      i = j;
    }
}

#define HEADER_H 62.0

static const char *legend_font = FONT " 8";
static const char *legend_code_font = FONT " Bold 8";

/* Column x offsets and widths of the legend (from the left margin). */
static void
legend_columns (OdoriPrint *self,
                double      x[4],
                double      w[4])
{
  double total = self->width - 2 * MARGIN;

  w[0] = 90;
  w[1] = MIN (150, total * 0.24);
  w[3] = MIN (130, total * 0.2);
  w[2] = MAX (total - w[0] - w[1] - w[3] - 18, 60);
  x[0] = 0;
  x[1] = x[0] + w[0] + 6;
  x[2] = x[1] + w[1] + 6;
  x[3] = x[2] + w[2] + 6;
}

static char *
sym_show_text (const Sym *s)
{
  if (s->show_name != NULL && s->show_code != NULL && g_strcmp0 (s->show_name, s->show_code) != 0)
    return g_strdup_printf ("%s (%s)", s->show_name, s->show_code);
  return g_strdup (s->show_name != NULL ? s->show_name : s->show_code != NULL ? s->show_code
                                                                              : "");
}

static double
legend_row_height (OdoriPrint   *self,
                   PangoContext *context,
                   const Sym    *s)
{
  double           x[4], w[4], h = 0;
  g_autofree char *show = sym_show_text (s);
  const char      *texts[4] = { s->symbol, s->name ? s->name : "", s->exp ? s->exp : "", show };

  legend_columns (self, x, w);
  for (guint c = 0; c < 4; c++)
    {
      g_autoptr(PangoLayout) layout = make_layout (context, c == 0 ? legend_code_font : legend_font,
                                                    texts[c], c == 0 ? w[c] - 12 : w[c], TEXT_WRAP);

      h = MAX (h, layout_height (layout));
    }
  return h + LEGEND_GAP;
}

static Page *
new_page (OdoriPrint *self)
{
  Page *page = g_new0 (Page, 1);

  page->items = g_array_new (FALSE, TRUE, sizeof (Item));
  g_ptr_array_add (self->pages, page);
  return page;
}

guint
odori_print_paginate (OdoriPrint *self,
                      double      width,
                      double      height)
{
  PangoContext *context;
  double        top = MARGIN, bottom, y, legend_head_h = 30;
  Page         *page;
  Item          item = { 0 };

  g_return_val_if_fail (ODORI_IS_PRINT (self), 0);
  g_return_val_if_fail (self->prepared, 0);
  g_return_val_if_fail (width > 0 && height > 0, 0);

  self->width = MAX (width, 4 * MARGIN + GUTTER);
  self->height = MAX (height, 4 * MARGIN + FOOTER_H);
  bottom = self->height - MARGIN - FOOTER_H;
  context = measure_context (self);
  g_ptr_array_set_size (self->pages, 0);
  build_systems (self);

  page = new_page (self);
  item.kind = ITEM_HEADER;
  item.y = top;
  item.height = HEADER_H;
  g_array_append_val (page->items, item);
  y = top + item.height;

  for (guint i = 0; i < self->systems->len; i++)
    {
      double h = system_height (self);

      /* A system taller than a page stays on its own page and runs over */
      if (y + h > bottom && y > top)
        {
          page = new_page (self);
          y = top;
        }
      item.kind = ITEM_SYSTEM;
      item.index = i;
      item.y = y;
      item.height = h;
      g_array_append_val (page->items, item);
      y += h + SYSTEM_GAP;
    }

  /* The legend: its heading stays with its first row */
  for (guint i = 0; i < self->legend->len; i++)
    {
      double h = legend_row_height (self, context, g_ptr_array_index (self->legend, i));
      double need = h + (i == 0 ? legend_head_h : 0);

      if (y + need > bottom && y > top)
        {
          page = new_page (self);
          y = top;
        }
      if (i == 0)
        {
          item.kind = ITEM_LEGEND_HEAD;
          item.index = 0;
          item.y = y;
          item.height = legend_head_h;
          g_array_append_val (page->items, item);
          y += legend_head_h;
        }
      item.kind = ITEM_LEGEND_ROW;
      item.index = i;
      item.y = y;
      item.height = h;
      g_array_append_val (page->items, item);
      y += h;
    }
  return self->pages->len;
}

gboolean
odori_print_get_page_frames (OdoriPrint *self,
                             guint       page_nr,
                             guint      *first,
                             guint      *last)
{
  Page    *page;
  gboolean found = FALSE;

  g_return_val_if_fail (ODORI_IS_PRINT (self), FALSE);
  g_return_val_if_fail (page_nr < self->pages->len, FALSE);

  page = g_ptr_array_index (self->pages, page_nr);
  for (guint i = 0; i < page->items->len; i++)
    {
      Item   *item = &g_array_index (page->items, Item, i);
      System *sys;

      if (item->kind != ITEM_SYSTEM)
        continue;
      sys = &g_array_index (self->systems, System, item->index);
      if (!found && first != NULL)
        *first = sys->first;
      if (last != NULL)
        *last = sys->end - 1;
      found = TRUE;
    }
  return found;
}

/* ---------------------------------------------------------------------------------- */
/* Drawing */

static void
sym_rgb (const Sym *s,
         double     rgb[3])
{
  const double *c = s == NULL || s->color < 0 ? unresolved : palette[s->color % N_COLORS];

  rgb[0] = c[0];
  rgb[1] = c[1];
  rgb[2] = c[2];
}

static void
draw_header (OdoriPrint *self,
             Draw       *d,
             double      y)
{
  GString         *line = g_string_new (NULL);
  GString         *info = g_string_new (NULL);
  double           x = MARGIN, w = self->width - 2 * MARGIN;
  double           seconds = self->dance_end * self->frame_time;
  g_autofree char *fps = g_strdup_printf ("%.3g", 1.0 / self->frame_time);
  int              min = (int) (seconds / 60);

  y += text_at (d, x, y, w, FONT " Bold 20", self->title, TEXT_ELLIPSIZE, 0.05);
  if (self->score->author != NULL && *self->score->author != '\0')
    g_string_append (line, self->score->author);
  if (self->score->date != NULL && *self->score->date != '\0')
    {
      if (line->len > 0)
        g_string_append (line, " · ");
      g_string_append (line, self->score->date);
    }
  if (line->len > 0)
    y += text_at (d, x, y + 2, w, FONT " 11", line->str, TEXT_ELLIPSIZE, 0.15) + 2;

  /* "1:23 · 30 frames per second · 4 body parts · 120 beats per minute, 4 beats a bar" */
  g_string_append_printf (info, _ ("%d:%02d long"), min, (int) (seconds - min * 60.0));
  g_string_append (info, " · ");
  g_string_append_printf (info, _ ("%s frames per second"), fps);
  g_string_append (info, " · ");
  g_string_append_printf (info, ngettext ("%u body part", "%u body parts", self->parts->len),
                          self->parts->len);
  if (self->grid != NULL)
    {
      g_autofree char *bpm = g_strdup_printf ("%.4g", odori_beat_grid_get_tempo (self->grid));

      g_string_append (info, " · ");
      g_string_append_printf (info, _ ("%s beats per minute, %u beats a bar"), bpm,
                              odori_beat_grid_get_meter (self->grid));
    }
  text_at (d, x, y + 4, w, FONT " 8.5", info->str, TEXT_ELLIPSIZE, 0.35);
  g_string_free (line, TRUE);
  g_string_free (info, TRUE);
}

static double
frame_x (const System *sys,
         double        x0,
         double        frame)
{
  return x0 + (frame - sys->first) * sys->ppf;
}

/* The ruler: bars and counts with music, else seconds. Vertical lines go down to
 * BOTTOM through the rows. */
static void
draw_ruler (OdoriPrint   *self,
            Draw         *d,
            const System *sys,
            double        x0,
            double        y,
            double        bottom)
{
  cairo_t *cr = d->cr;
  double   x_end = frame_x (sys, x0, sys->end);
  gint64   k0, k1;

  cairo_set_line_width (cr, 0.6);
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_move_to (cr, x0, y + RULER_H - 0.5);
  cairo_line_to (cr, x_end, y + RULER_H - 0.5);
  cairo_stroke (cr);

  if (self->grid != NULL && odori_beat_grid_beats_in_frames (self->grid, sys->first, sys->end - 1, &k0, &k1))
    {
      double beat_pt = odori_beat_grid_get_frames_per_beat (self->grid) * sys->ppf;

      for (gint64 k = k0; k <= k1; k++)
        {
          double   x = frame_x (sys, x0, odori_beat_grid_beat_frame (self->grid, k));
          gboolean bar = odori_beat_grid_beat_in_bar (self->grid, k) == 1;

          if (bar)
            {
              g_autofree char *label = g_strdup_printf ("%" G_GINT64_FORMAT, odori_beat_grid_beat_bar (self->grid, k));

              cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
              cairo_set_line_width (cr, 0.9);
              cairo_move_to (cr, x, y + 2);
              cairo_line_to (cr, x, y + RULER_H);
              cairo_stroke (cr);
              cairo_set_source_rgb (cr, 0.75, 0.75, 0.78);
              cairo_set_line_width (cr, 0.5);
              cairo_move_to (cr, x, y + RULER_H);
              cairo_line_to (cr, x, bottom);
              cairo_stroke (cr);
              text_at (d, x + 2, y + 1, 0, FONT " Bold 8", label, 0, 0.1);
            }
          else if (beat_pt >= 3)
            {
              cairo_set_source_rgb (cr, 0.45, 0.45, 0.45);
              cairo_set_line_width (cr, 0.5);
              cairo_move_to (cr, x, y + RULER_H - 5);
              cairo_line_to (cr, x, y + RULER_H);
              cairo_stroke (cr);
            }
          if (beat_pt >= 9)
            {
              g_autofree char *count = g_strdup_printf ("%u", odori_beat_grid_beat_count (self->grid, k));

              text_at (d, x + 1.5, y + RULER_H - 11, 0, FONT " 6", count, 0, 0.4);
            }
        }
    }
  else
    {
      double fps = 1.0 / self->frame_time;
      double sec_pt = fps * sys->ppf;
      guint  step = sec_pt >= 34 ? 1 : sec_pt >= 17 ? 2
                                   : sec_pt >= 7    ? 5
                                   : sec_pt >= 3.4  ? 10
                                                    : 30;
      double s0 = ceil ((sys->first - 1) * self->frame_time - 1e-9);

      for (double s = s0; 1 + s * fps < sys->end; s++)
        {
          double   x = frame_x (sys, x0, 1 + s * fps);
          gboolean major = fmod (s, step) < 0.5;

          cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
          cairo_set_line_width (cr, major ? 0.8 : 0.4);
          cairo_move_to (cr, x, y + RULER_H - (major ? 10 : 4));
          cairo_line_to (cr, x, y + RULER_H);
          cairo_stroke (cr);
          if (major)
            {
              g_autofree char *label = g_strdup_printf ("%d:%02d", (int) (s / 60), (int) fmod (s, 60));

              cairo_set_source_rgb (cr, 0.82, 0.82, 0.85);
              cairo_set_line_width (cr, 0.4);
              cairo_move_to (cr, x, y + RULER_H);
              cairo_line_to (cr, x, bottom);
              cairo_stroke (cr);
              text_at (d, x + 2, y + 3, 0, FONT " 7.5", label, 0, 0.2);
            }
        }
    }
}

/* The modifiers in words: "⇋ · speed 0.5 · 3 times · frames 10–60 · blend 8". */
static char *
mods_text (const OdoriSymbolMods *mods)
{
  GString *s = g_string_new (NULL);

  if (mods->mirror)
    g_string_append (s, "⇋");
  if (mods->speed > 0)
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE];

      if (s->len > 0)
        g_string_append (s, " · ");
      g_ascii_formatd (num, sizeof num, "%.3g", mods->speed);
      g_string_append_printf (s, _ ("speed %s"), num);
    }
  if (mods->repeat > 1)
    {
      if (s->len > 0)
        g_string_append (s, " · ");
      g_string_append_printf (s, ngettext ("%u time", "%u times", mods->repeat), mods->repeat);
    }
  if (mods->in > 0 || mods->out > 0)
    {
      g_autofree char *in = mods->in > 0 ? g_strdup_printf ("%u", mods->in) : g_strdup ("1");
      g_autofree char *out = mods->out > 0 ? g_strdup_printf ("%u", mods->out) : g_strdup (_ ("end"));

      if (s->len > 0)
        g_string_append (s, " · ");
      g_string_append_printf (s, _ ("frames %s–%s"), in, out);
    }
  if (mods->has_blend)
    {
      if (s->len > 0)
        g_string_append (s, " · ");
      g_string_append_printf (s, _ ("blend %u"), mods->blend);
    }
  return g_string_free (s, FALSE);
}

static void
draw_block (OdoriPrint   *self,
            Draw         *d,
            const System *sys,
            const Block  *b,
            double        x0,
            double        y)
{
  cairo_t *cr = d->cr;
  double   rgb[3];
  guint    from = MAX (b->start, sys->first), to = MIN (b->vis_end, sys->end);
  double   bx0 = frame_x (sys, x0, from), bx1 = frame_x (sys, x0, to);
  double   top = y + BLOCK_INSET, h = ROW_H - 2 * BLOCK_INSET;
  gboolean starts_here = b->start >= sys->first;
  double   tx;

  sym_rgb (b->sym, rgb);

  /* Held after its frames: a line at mid-height to the next symbol */
  if (b->hold_end > b->end && b->end < sys->end && b->hold_end > sys->first)
    {
      double hx0 = frame_x (sys, x0, MAX (b->end, sys->first));
      double hx1 = frame_x (sys, x0, MIN (b->hold_end, sys->end));

      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.55);
      cairo_rectangle (cr, hx0, y + ROW_H / 2 - 1.2, hx1 - hx0, 2.4);
      cairo_fill (cr);
    }
  if (to <= from)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, bx0, top, bx1 - bx0, h);
  cairo_set_source_rgb (cr, 1 - 0.2 * (1 - rgb[0]), 1 - 0.2 * (1 - rgb[1]), 1 - 0.2 * (1 - rgb[2]));
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, 0.7);
  cairo_stroke_preserve (cr);
  cairo_clip (cr);
  if (starts_here)
    {
      cairo_rectangle (cr, bx0, top, 2.5, h);
      cairo_fill (cr);
    }

  /* A repeated symbol: a line where each copy after the first begins */
  if (b->mods.repeat > 1)
    {
      guint m = odori_symbol_mods_copy_frames (&b->mods, b->sym->n);

      if (m * sys->ppf >= 3)
        for (guint k = 1; k < b->mods.repeat; k++)
          {
            guint64 f = b->start + (guint64) k * m;
            double  x;

            if (f >= to)
              break;
            if (f <= from)
              continue;
            x = frame_x (sys, x0, f);
            cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
            cairo_set_line_width (cr, 0.6);
            cairo_set_dash (cr, (double[]){ 2, 1.5 }, 2, 0);
            cairo_move_to (cr, x, top + 2);
            cairo_line_to (cr, x, top + h - 2);
            cairo_stroke (cr);
            cairo_set_dash (cr, NULL, 0, 0);
          }
    }
  /* Cut short by the next symbol: a notch */
  if (b->vis_end < b->end && b->vis_end <= sys->end)
    {
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_move_to (cr, bx1, top);
      cairo_line_to (cr, bx1 - 5, top);
      cairo_line_to (cr, bx1, top + 5);
      cairo_close_path (cr);
      cairo_fill (cr);
    }

  tx = bx0 + (starts_here ? 5 : 3);
  if (starts_here && b->thumb != NULL)
    {
      g_autoptr (PangoLayout) code = make_layout (d->context, FONT " Bold 8.5", b->sym->symbol, 0, 0);
      /* A narrow block: a narrower thumbnail beside the code, or the code alone */
      double tw = MIN (THUMB_W, bx1 - tx - 2 - layout_width (code) - 6);

      if (tw >= 12)
        {
          double scale = tw / THUMB_PX_W;
          double th = THUMB_PX_H * scale;

          cairo_save (cr);
          cairo_translate (cr, tx, top + (h - th) / 2);
          cairo_scale (cr, scale, scale);
          cairo_set_source_surface (cr, b->thumb, 0, 0);
          cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_GOOD);
          cairo_paint (cr);
          cairo_restore (cr);
          cairo_set_source_rgba (cr, 0, 0, 0, 0.35);
          cairo_set_line_width (cr, 0.4);
          cairo_rectangle (cr, tx, top + (h - th) / 2, tw, th);
          cairo_stroke (cr);
          tx += tw + 4;
        }
    }

  if (bx1 - tx - 2 >= 10)
    {
      double           w = bx1 - tx - 2, ty = top + 3;
      g_autofree char *mods = mods_text (&b->mods);
      g_autofree char *code = starts_here ? g_strdup (b->sym->symbol)
                                          : g_strdup_printf ("… %s", b->sym->symbol);

      ty += text_at (d, tx, ty, w, FONT " Bold 8.5", code, TEXT_ELLIPSIZE, 0.05);
      if (b->sym->name != NULL && *b->sym->name != '\0')
        ty += text_at (d, tx, ty, w, FONT " 7.5", b->sym->name, TEXT_ELLIPSIZE, 0.2);
      if (*mods != '\0' && starts_here)
        {
          g_autoptr(PangoLayout) layout = make_layout (d->context, FONT " Bold 7", mods, w, TEXT_ELLIPSIZE);

          cairo_set_source_rgb (cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6);
          cairo_move_to (cr, tx, MAX (ty, top + h - 3 - layout_height (layout)));
          pango_cairo_show_layout (cr, layout);
        }
    }
  cairo_restore (cr);
}

static void
draw_system (OdoriPrint *self,
             Draw       *d,
             guint       index,
             double      y)
{
  const System *sys = &g_array_index (self->systems, System, index);
  cairo_t      *cr = d->cr;
  double        x0 = MARGIN + GUTTER, x_end = frame_x (sys, x0, sys->end);
  double        rows_top = y + RULER_H, bottom = rows_top + ROW_H * self->parts->len;

  /* Rows: a light band every other, the part's name left of it */
  for (guint p = 0; p < self->parts->len; p++)
    {
      Part  *part = g_ptr_array_index (self->parts, p);
      double ry = rows_top + p * ROW_H;
      double ty = ry + 8;

      if (p % 2 == 1)
        {
          cairo_set_source_rgb (cr, 0.96, 0.96, 0.97);
          cairo_rectangle (cr, x0, ry, x_end - x0, ROW_H);
          cairo_fill (cr);
        }
      cairo_set_source_rgb (cr, 0.8, 0.8, 0.82);
      cairo_set_line_width (cr, 0.4);
      cairo_move_to (cr, MARGIN, ry + ROW_H);
      cairo_line_to (cr, x_end, ry + ROW_H);
      cairo_stroke (cr);
      ty += text_at (d, MARGIN, ty, GUTTER - 6, FONT " Bold 8.5",
                     part->name != NULL ? part->name : part->code, TEXT_WRAP, 0.05);
      if (part->name != NULL && g_strcmp0 (part->name, part->code) != 0)
        text_at (d, MARGIN, ty + 1, GUTTER - 6, FONT " 7", part->code, TEXT_ELLIPSIZE, 0.4);
    }
  draw_ruler (self, d, sys, x0, y, bottom);
  /* The system's frames, at the left under the ruler's corner */
  {
    g_autofree char *frames = g_strdup_printf (_ ("frame %u"), sys->first);

    text_at (d, MARGIN, y + 8, GUTTER - 6, FONT " 7", frames, TEXT_ELLIPSIZE, 0.45);
  }

  for (guint i = 0; i < self->blocks->len; i++)
    {
      const Block *b = &g_array_index (self->blocks, Block, i);

      if (b->start >= sys->end || MAX (b->vis_end, b->hold_end) <= sys->first)
        continue;
      draw_block (self, d, sys, b, x0, rows_top + b->part * ROW_H);
    }
  /* The system's edges */
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_set_line_width (cr, 0.8);
  cairo_move_to (cr, x0, y + 2);
  cairo_line_to (cr, x0, bottom);
  cairo_move_to (cr, x_end, y + 2);
  cairo_line_to (cr, x_end, bottom);
  cairo_stroke (cr);
}

static void
draw_legend_head (OdoriPrint *self,
                  Draw       *d,
                  double      y)
{
  double      x[4], w[4];
  const char *heads[4] = { _ ("Symbol"), _ ("Name"), _ ("Description"), _ ("Show") };

  legend_columns (self, x, w);
  text_at (d, MARGIN, y + 2, 0, FONT " Bold 12", _ ("Symbols used"), 0, 0.05);
  for (guint c = 0; c < 4; c++)
    text_at (d, MARGIN + x[c], y + 18, w[c], FONT " Bold 7.5", heads[c], TEXT_ELLIPSIZE, 0.35);
  cairo_set_source_rgb (d->cr, 0.5, 0.5, 0.5);
  cairo_set_line_width (d->cr, 0.5);
  cairo_move_to (d->cr, MARGIN, y + 28.5);
  cairo_line_to (d->cr, self->width - MARGIN, y + 28.5);
  cairo_stroke (d->cr);
}

static void
draw_legend_row (OdoriPrint *self,
                 Draw       *d,
                 guint       index,
                 double      y)
{
  const Sym       *s = g_ptr_array_index (self->legend, index);
  g_autofree char *show = sym_show_text (s);
  const char      *texts[4] = { s->symbol, s->name ? s->name : "", s->exp ? s->exp : "", show };
  double           x[4], w[4], rgb[3];

  legend_columns (self, x, w);
  sym_rgb (s, rgb);
  cairo_set_source_rgb (d->cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (d->cr, MARGIN, y + 2, 8, 8);
  cairo_fill (d->cr);
  for (guint c = 0; c < 4; c++)
    text_at (d, MARGIN + x[c] + (c == 0 ? 12 : 0), y + 1, c == 0 ? w[c] - 12 : w[c],
             c == 0 ? legend_code_font : legend_font, texts[c], TEXT_WRAP, c == 2 ? 0.25 : 0.05);
}

static void
draw_footer (OdoriPrint *self,
             Draw       *d,
             guint       page_nr)
{
  g_autofree char *number = g_strdup_printf (_ ("Page %u of %u"), page_nr + 1, self->pages->len);
  double           y = self->height - MARGIN - 10, w = self->width - 2 * MARGIN;

  text_at (d, MARGIN, y, w / 2, FONT " 7.5", self->title, TEXT_ELLIPSIZE, 0.45);
  text_at (d, MARGIN + w / 2, y, w / 2, FONT " 7.5", number, TEXT_RIGHT, 0.45);
}

void
odori_print_draw_page (OdoriPrint *self,
                       cairo_t    *cr,
                       guint       page_nr)
{
  Page *page;
  Draw  d;

  g_return_if_fail (ODORI_IS_PRINT (self));
  g_return_if_fail (cr != NULL);
  g_return_if_fail (page_nr < self->pages->len);

  page = g_ptr_array_index (self->pages, page_nr);
  d.cr = cr;
  d.context = pango_cairo_create_context (cr);
  setup_context (d.context);
  cairo_save (cr);
  for (guint i = 0; i < page->items->len; i++)
    {
      Item *item = &g_array_index (page->items, Item, i);

      switch (item->kind)
        {
        case ITEM_HEADER:
          draw_header (self, &d, item->y);
          break;
        case ITEM_SYSTEM:
          draw_system (self, &d, item->index, item->y);
          break;
        case ITEM_LEGEND_HEAD:
          draw_legend_head (self, &d, item->y);
          break;
        case ITEM_LEGEND_ROW:
          draw_legend_row (self, &d, item->index, item->y);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  draw_footer (self, &d, page_nr);
  cairo_restore (cr);
  g_object_unref (d.context);
}

/* ---------------------------------------------------------------------------------- */
/* PDF */

static cairo_status_t
write_output_cb (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  odori_output_write (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
odori_print_write_pdf (OdoriPrint   *self,
                       const char   *path,
                       double        width,
                       double        height,
                       GCancellable *cancellable,
                       GError      **error)
{
  g_autoptr(OdoriOutput) out = NULL;
  cairo_surface_t *surface;
  cairo_t         *cr;
  cairo_status_t   status;
  guint            n_pages;

  g_return_val_if_fail (ODORI_IS_PRINT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  self->fraction_scale = 0.8;
  if (!odori_print_prepare (self, cancellable, error))
    return FALSE;
  n_pages = odori_print_paginate (self, width, height);

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  surface = cairo_pdf_surface_create_for_stream (write_output_cb, out, self->width, self->height);
  {
    g_autofree char *creator = g_strdup_printf ("Odori %s", PACKAGE_VERSION);

    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, self->title);
    if (self->score->author != NULL)
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_AUTHOR, self->score->author);
    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, creator);
  }
  cr = cairo_create (surface);
  for (guint p = 0; p < n_pages; p++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        break;
      odori_print_draw_page (self, cr, p);
      cairo_show_page (cr);
      set_fraction (self, 0.8 + 0.2 * (p + 1.0) / n_pages);
    }
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      odori_output_abort (out);
      return FALSE;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      odori_output_abort (out);
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: the PDF could not be made: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }
  if (!odori_output_commit (out, error))
    return FALSE;
  set_fraction (self, 1);
  return TRUE;
}

typedef struct
{
  char  *path;
  double width;
  double height;
} WriteData;

static void
write_data_free (gpointer data)
{
  WriteData *w = data;

  g_free (w->path);
  g_free (w);
}

static void
write_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  WriteData *w = task_data;
  GError    *error = NULL;

  if (odori_print_write_pdf (source, w->path, w->width, w->height, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
odori_print_write_pdf_async (OdoriPrint         *self,
                             const char         *path,
                             double              width,
                             double              height,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  WriteData *w;

  g_return_if_fail (ODORI_IS_PRINT (self));
  g_return_if_fail (path != NULL);

  w = g_new0 (WriteData, 1);
  w->path = g_strdup (path);
  w->width = width;
  w->height = height;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, odori_print_write_pdf_async);
  g_task_set_task_data (task, w, write_data_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, write_thread);
}

gboolean
odori_print_write_pdf_finish (OdoriPrint   *self,
                              GAsyncResult *result,
                              GError      **error)
{
  g_return_val_if_fail (ODORI_IS_PRINT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
