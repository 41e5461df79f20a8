/* odori-timeline.c: the timeline editor, one track per body part
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn in snapshot with append_color, append_linear_gradient, append_border and
 * append_layout (sysprof-time-ruler.c), only what is in view: each track's symbols are
 * sorted by start, so the visible ones are found by binary search, and blocks narrower
 * than a few pixels are merged into one rectangle per run, which keeps a 10,000-symbol
 * score as cheap to draw as a short one. Input comes through controllers
 * (sysprof-time-scrubber.c, gcal-week-grid.c): one GtkGestureDrag for click, move,
 * rubber band and scrubbing, a scroll controller for Ctrl+scroll zoom, a drop target
 * for the library browser. Keys are widget actions with class bindings.
 *
 * Accessibility (GTK 4.8): per-symbol accessible children do not exist in 4.8, so the
 * widget (role group, multi-selectable) carries a description naming the focused
 * track and symbol and the selection, updated as focus and selection move.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-library-model.h"
#include "odori-score-edit.h"
#include "odori-timeline-private.h"

#define HEADER_WIDTH    156
#define RULER_HEIGHT    28
#define ROW_HEIGHT      34
#define BLOCK_INSET     4
#define SNAP_PX         8.0
#define DRAG_THRESHOLD  4.0
#define MIN_PPF         0.0005
#define MAX_PPF         48.0
#define TINY_BLOCK_PX   3.0
#define N_COLORS        8

typedef struct
{
  OdoriIndexMotion *motion;     /* NULL: the symbol does not resolve */
  guint             n;          /* length in score frames, >= 1 */
  guint             show_no;
  guint             class_no;
  PangoLayout      *code_layout;
  PangoLayout      *full_layout;
  int               code_w;
  int               full_w;
} SymInfo;

typedef struct
{
  guint  part;
  guint  frame;
  double jump;
  double clip;
  char  *from;
  char  *to;
} Seam;

typedef struct
{
  guint  part;
  guint  start;      /* where it was when the drag began */
  char  *symbol;
  guint  line;
  guint  n;
} DragItem;

typedef struct
{
  char  *code;       /* the track it was copied from */
  guint  offset;     /* frames after the first copied start */
  char  *symbol;
} ClipItem;

typedef enum
{
  MODE_NONE,
  MODE_SCRUB,
  MODE_PRESS_BLOCK,
  MODE_MOVE,
  MODE_BAND,
} Mode;

struct _OdoriTimeline
{
  GtkWidget             parent_instance;

  OdoriUndo            *undo;
  OdoriDocument        *document;
  GSignalGroup         *document_signals;
  GSignalGroup         *undo_signals;
  OdoriScore           *score;          /* the score shown (a ref, to notice another) */
  guint                 shown_parts;
  OdoriIndex           *index;          /* the index the cache was built for */
  GHashTable           *symbols;        /* char* → SymInfo* */
  double                cache_frame_time;

  GtkAdjustment        *hadjustment;
  GtkAdjustment        *vadjustment;
  guint                 hscroll_policy : 1;
  guint                 vscroll_policy : 1;
  double                ppf;            /* pixels per frame */
  gboolean              fit_pending;
  gboolean              auto_fit;       /* fitted, not zoomed by hand: refit on resize */
  int                   fit_width;

  OdoriTimeUnits        units;
  OdoriTimelineColorBy  color_by;
  gboolean              snap;
  int                   default_blend;  /* the preference, for scores without "# Blend:" */

  /* Selection: per track, the sorted starts of its selected symbols */
  GPtrArray            *selection;      /* GArray<guint>* */
  guint                 n_selected;
  int                   focus_part;
  guint                 focus_start;    /* 0: the track itself */
  char                 *a11y_description;

  /* Pointer */
  Mode                  mode;
  double                press_x;
  double                press_y;
  double                pointer_x;
  GdkModifierType       press_state;
  guint                 press_part;
  guint                 press_start;
  gboolean              press_was_selected;
  GArray               *drag_items;     /* DragItem */
  guint                 drag_primary;
  int                   drag_delta;
  guint                 drag_min_start;
  guint                 drag_frame0;    /* the playhead before the drag */
  GArray               *snap_frames;    /* guint, sorted */
  double                band_x0, band_y0, band_x1, band_y1;
  GPtrArray            *band_base;      /* selection before an additive band */

  /* A drop hovering */
  char                 *drop_symbol;
  int                   drop_part;
  guint                 drop_frame;
  char                 *drop_refusal;

  /* Seams as last reported */
  GArray               *seams;          /* Seam */
  guint                 seams_idle;
};

static void odori_timeline_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (OdoriTimeline, odori_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, odori_timeline_scrollable_init))

enum {
  PROP_0,
  PROP_UNDO,
  PROP_TIME_UNITS,
  PROP_SNAP,
  PROP_COLOR_BY,
  PROP_PIXELS_PER_FRAME,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  SELECTION_CHANGED,
  SEAMS_CHANGED,
  REFUSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* What was copied, shared by the windows of the process. */
static GPtrArray *clip_items;
static GdkContentProvider *clip_provider;

static const GdkRGBA palette[N_COLORS] = {
  { 0.21f, 0.52f, 0.89f, 1 },   /* blue */
  { 0.90f, 0.42f, 0.05f, 1 },   /* orange */
  { 0.15f, 0.62f, 0.40f, 1 },   /* green */
  { 0.57f, 0.27f, 0.68f, 1 },   /* purple */
  { 0.78f, 0.16f, 0.22f, 1 },   /* red */
  { 0.11f, 0.55f, 0.62f, 1 },   /* teal */
  { 0.60f, 0.42f, 0.20f, 1 },   /* brown */
  { 0.80f, 0.27f, 0.56f, 1 },   /* pink */
};
static const GdkRGBA unresolved_color = { 0.55f, 0.55f, 0.55f, 1 };
static const GdkRGBA accent = { 0.21f, 0.52f, 0.89f, 1 };
static const GdkRGBA playhead_color = { 0.89f, 0.11f, 0.14f, 1 };

static void update_accessible     (OdoriTimeline *self);
static void update_adjustments    (OdoriTimeline *self);
static void selection_changed     (OdoriTimeline *self);

/* ---------------------------------------------------------------------------------- */
/* Score access                                                                       */

static OdoriScore *
get_score (OdoriTimeline *self)
{
  return self->document != NULL ? odori_document_get_score (self->document) : NULL;
}

static guint
n_parts (OdoriTimeline *self)
{
  OdoriScore *score = get_score (self);

  return score != NULL ? score->parts->len : 0;
}

static OdoriScorePart *
get_part (OdoriTimeline *self,
          guint          track)
{
  OdoriScore *score = get_score (self);

  if (score == NULL || track >= score->parts->len)
    return NULL;
  return g_ptr_array_index (score->parts, track);
}

static OdoriScoreSymbol *
symbol_at_index (OdoriScorePart *part,
                 guint           i)
{
  return &g_array_index (part->symbols, OdoriScoreSymbol, i);
}

static OdoriScoreSymbol *
find_symbol (OdoriTimeline *self,
             guint          track,
             guint          start)
{
  OdoriScorePart *part = get_part (self, track);
  int i = part != NULL ? odori_score_part_find_symbol (part, start) : -1;

  return i >= 0 ? symbol_at_index (part, i) : NULL;
}

static double
frame_time (OdoriTimeline *self)
{
  OdoriMotion *motion = self->document ? odori_document_get_motion (self->document) : NULL;
  OdoriScore *score = get_score (self);

  if (motion != NULL && motion->frame_time > 0)
    return motion->frame_time;
  if (score != NULL && score->frame_time > 0)
    return score->frame_time;
  return 1.0 / 30;
}

static guint
fps (OdoriTimeline *self)
{
  return MAX ((guint) lround (1.0 / frame_time (self)), 1);
}

static int
blend_frames (OdoriTimeline *self)
{
  OdoriScore *score = get_score (self);

  if (score == NULL)
    return 0;
  return score->blend >= 0 ? score->blend : self->default_blend;
}

/* ---------------------------------------------------------------------------------- */
/* Symbol cache: length, colour and labels per symbol string                          */

static void
sym_info_free (SymInfo *info)
{
  g_clear_object (&info->code_layout);
  g_clear_object (&info->full_layout);
  g_free (info);
}

static void
number_show (OdoriIndex     *index,
             OdoriIndexShow *show,
             guint          *show_no,
             guint          *class_no)
{
  guint s = 0;

  *show_no = *class_no = 0;
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint i = 0; i < klass->shows->len; i++, s++)
        if (g_ptr_array_index (klass->shows, i) == show)
          {
            *show_no = s;
            *class_no = c;
            return;
          }
    }
}

static void
drop_cache (OdoriTimeline *self)
{
  g_hash_table_remove_all (self->symbols);
  self->index = self->document ? odori_document_get_index (self->document) : NULL;
  self->cache_frame_time = frame_time (self);
}

static SymInfo *
sym_info (OdoriTimeline *self,
          const char    *symbol)
{
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  SymInfo *info;

  if (index != self->index || fabs (frame_time (self) - self->cache_frame_time) > 1e-12)
    drop_cache (self);
  info = g_hash_table_lookup (self->symbols, symbol);
  if (info != NULL)
    return info;

  info = g_new0 (SymInfo, 1);
  info->n = fps (self);
  if (index != NULL)
    info->motion = odori_index_lookup (index, symbol, NULL);
  if (info->motion != NULL)
    {
      OdoriMotion *show = odori_document_load_show (self->document, info->motion->show, NULL);
      double n = info->motion->last - info->motion->first + 1;

      /* As the composer resamples a clip of another frame rate. */
      if (show != NULL && show->frame_time > 0 && fabs (show->frame_time - frame_time (self)) > 1e-9)
        n = round (n * show->frame_time / frame_time (self));
      info->n = MAX ((guint) n, 1);
      number_show (index, info->motion->show, &info->show_no, &info->class_no);
    }
  g_hash_table_insert (self->symbols, g_strdup (symbol), info);
  return info;
}

static void
sym_info_layouts (OdoriTimeline *self,
                  const char    *symbol,
                  SymInfo       *info)
{
  g_autofree char *code = NULL;
  g_autofree char *full = NULL;

  if (info->code_layout != NULL)
    return;
  code = g_markup_printf_escaped ("<b>%s</b>", symbol);
  info->code_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_markup (info->code_layout, code, -1);
  pango_layout_get_pixel_size (info->code_layout, &info->code_w, NULL);
  if (info->motion != NULL && info->motion->name != NULL)
    full = g_markup_printf_escaped ("<b>%s</b>  %s", symbol, info->motion->name);
  else
    full = g_strdup (code);
  info->full_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_markup (info->full_layout, full, -1);
  pango_layout_get_pixel_size (info->full_layout, &info->full_w, NULL);
}

static const GdkRGBA *
sym_color (OdoriTimeline *self,
           SymInfo       *info)
{
  if (info->motion == NULL)
    return &unresolved_color;
  return &palette[(self->color_by == ODORI_TIMELINE_COLOR_BY_CLASS ? info->class_no : info->show_no) % N_COLORS];
}

/* The frame after the symbol's own motion (exclusive end), and where it stops being
 * shown: the next symbol's start cuts it. */
static guint
symbol_end (OdoriTimeline    *self,
            OdoriScoreSymbol *s)
{
  return s->start + sym_info (self, s->symbol)->n;
}

/* The last frame of the dance: the composed motion's, or the end of the furthest block. */
static guint
dance_end (OdoriTimeline *self)
{
  OdoriScore *score = get_score (self);
  OdoriMotion *motion = self->document ? odori_document_get_motion (self->document) : NULL;
  guint end = motion != NULL ? motion->n_frames : 1;

  for (guint p = 0; score != NULL && p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);

      if (part->symbols->len > 0)
        end = MAX (end, symbol_end (self, symbol_at_index (part, part->symbols->len - 1)) - 1);
    }
  return MAX (end, 1);
}

/* Frames the view spans: the dance and room after it to drop more. */
static guint
extent_frames (OdoriTimeline *self)
{
  guint end = dance_end (self);

  return end + MAX (10 * fps (self), end / 10);
}

/* ---------------------------------------------------------------------------------- */
/* Geometry                                                                           */

static double
hvalue (OdoriTimeline *self)
{
  return self->hadjustment ? gtk_adjustment_get_value (self->hadjustment) : 0;
}

static double
vvalue (OdoriTimeline *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

double
odori_timeline_x_for_frame (OdoriTimeline *self,
                            double         frame)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return HEADER_WIDTH + (frame - 1) * self->ppf - hvalue (self);
}

static double
frame_at_x_exact (OdoriTimeline *self,
                  double         x)
{
  return 1 + (x - HEADER_WIDTH + hvalue (self)) / self->ppf;
}

guint
odori_timeline_frame_at_x (OdoriTimeline *self,
                           double         x)
{
  double f;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 1);

  f = floor (frame_at_x_exact (self, x));
  return (guint) CLAMP (f, 1, G_MAXINT);
}

int
odori_timeline_track_at_y (OdoriTimeline *self,
                           double         y)
{
  double row;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), -1);

  if (y < RULER_HEIGHT)
    return -1;
  row = floor ((y - RULER_HEIGHT + vvalue (self)) / ROW_HEIGHT);
  if (row < 0 || row >= n_parts (self))
    return -1;
  return (int) row;
}

double
odori_timeline_y_for_track (OdoriTimeline *self,
                            guint          track)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return RULER_HEIGHT + track * ROW_HEIGHT - vvalue (self) + ROW_HEIGHT / 2.0;
}

static double
row_top (OdoriTimeline *self,
         guint          track)
{
  return RULER_HEIGHT + track * ROW_HEIGHT - vvalue (self);
}

/* The symbol shown under X on TRACK (its block, not its hold). */
static OdoriScoreSymbol *
symbol_under (OdoriTimeline *self,
              guint          track,
              double         x)
{
  OdoriScorePart *part = get_part (self, track);
  double f = frame_at_x_exact (self, x);
  guint i;

  if (part == NULL || f < 1)
    return NULL;
  i = odori_score_part_lower_bound (part, (guint) floor (f) + 1);
  if (i == 0)
    return NULL;
  {
    OdoriScoreSymbol *s = symbol_at_index (part, i - 1);
    guint end = symbol_end (self, s);

    if (i < part->symbols->len)
      end = MIN (end, symbol_at_index (part, i)->start);
    /* Very short blocks stay clickable: at least four pixels wide. */
    if (f < end || x <= odori_timeline_x_for_frame (self, s->start) + 4)
      return s;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------- */
/* Scrolling and zoom                                                                 */

static void
update_adjustments (OdoriTimeline *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double page, upper;

  if (self->hadjustment != NULL)
    {
      page = MAX (width - HEADER_WIDTH, 1);
      upper = MAX (extent_frames (self) * self->ppf, page);
      gtk_adjustment_configure (self->hadjustment,
                                CLAMP (gtk_adjustment_get_value (self->hadjustment), 0, upper - page),
                                0, upper, page * 0.1, page * 0.9, page);
    }
  if (self->vadjustment != NULL)
    {
      page = MAX (height - RULER_HEIGHT, 1);
      upper = MAX (n_parts (self) * ROW_HEIGHT + 4.0, page);
      gtk_adjustment_configure (self->vadjustment,
                                CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, upper - page),
                                0, upper, ROW_HEIGHT, page * 0.9, page);
    }
}

double
odori_timeline_get_pixels_per_frame (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 1);
  return self->ppf;
}

void
odori_timeline_set_pixels_per_frame (OdoriTimeline *self,
                                     double         pixels_per_frame,
                                     double         anchor_x)
{
  double frame;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  pixels_per_frame = CLAMP (pixels_per_frame, MIN_PPF, MAX_PPF);
  if (pixels_per_frame == self->ppf)
    return;
  anchor_x = MAX (anchor_x, HEADER_WIDTH);
  frame = frame_at_x_exact (self, anchor_x);
  self->ppf = pixels_per_frame;
  self->fit_pending = FALSE;
  self->auto_fit = FALSE;
  update_adjustments (self);
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, (frame - 1) * self->ppf - (anchor_x - HEADER_WIDTH));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PIXELS_PER_FRAME]);
}

/* Keyboard and button zoom keep the playhead in place when it is in view. */
void
odori_timeline_zoom (OdoriTimeline *self,
                     double         factor)
{
  double x;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  x = self->document ? odori_timeline_x_for_frame (self, odori_document_get_frame (self->document)) : HEADER_WIDTH;
  if (x < HEADER_WIDTH || x > gtk_widget_get_width (GTK_WIDGET (self)))
    x = HEADER_WIDTH;
  odori_timeline_set_pixels_per_frame (self, self->ppf * factor, x);
}

void
odori_timeline_zoom_fit (OdoriTimeline *self)
{
  int width;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (width <= HEADER_WIDTH)
    {
      /* Not laid out yet: fit once there is a size. */
      self->fit_pending = TRUE;
      return;
    }
  /* A short or empty score shows twenty seconds: room to drop motions. */
  odori_timeline_set_pixels_per_frame (self, (width - HEADER_WIDTH - 24.0) / MAX (dance_end (self) + 1, 20 * fps (self)),
                                       HEADER_WIDTH);
  self->fit_pending = FALSE;
  self->auto_fit = TRUE;
  self->fit_width = width;
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, 0);
}

void
odori_timeline_scroll_to (OdoriTimeline *self,
                          guint          track,
                          guint          frame)
{
  int width, height;
  double x, y;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  x = odori_timeline_x_for_frame (self, frame);
  if (self->hadjustment != NULL && (x < HEADER_WIDTH + 8 || x > width - 24))
    gtk_adjustment_set_value (self->hadjustment, hvalue (self) + x - HEADER_WIDTH - (width - HEADER_WIDTH) * 0.1);
  y = row_top (self, track);
  if (self->vadjustment != NULL && y < RULER_HEIGHT)
    gtk_adjustment_set_value (self->vadjustment, vvalue (self) + y - RULER_HEIGHT);
  else if (self->vadjustment != NULL && y + ROW_HEIGHT > height)
    gtk_adjustment_set_value (self->vadjustment, vvalue (self) + y + ROW_HEIGHT - height);
}

/* ---------------------------------------------------------------------------------- */
/* Selection                                                                          */

static GArray *
sel_track (OdoriTimeline *self,
           guint          track)
{
  while (self->selection->len <= track)
    g_ptr_array_add (self->selection, g_array_new (FALSE, FALSE, sizeof (guint)));
  return g_ptr_array_index (self->selection, track);
}

static guint
uint_lower_bound (GArray *array,
                  guint   value)
{
  guint lo = 0, hi = array->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (array, guint, mid) < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
sel_contains (OdoriTimeline *self,
              guint          track,
              guint          start)
{
  GArray *a;
  guint i;

  if (track >= self->selection->len)
    return FALSE;
  a = g_ptr_array_index (self->selection, track);
  i = uint_lower_bound (a, start);
  return i < a->len && g_array_index (a, guint, i) == start;
}

static void
sel_add (OdoriTimeline *self,
         guint          track,
         guint          start)
{
  GArray *a = sel_track (self, track);
  guint i = uint_lower_bound (a, start);

  if (i < a->len && g_array_index (a, guint, i) == start)
    return;
  g_array_insert_val (a, i, start);
  self->n_selected++;
}

static void
sel_remove (OdoriTimeline *self,
            guint          track,
            guint          start)
{
  GArray *a;
  guint i;

  if (track >= self->selection->len)
    return;
  a = g_ptr_array_index (self->selection, track);
  i = uint_lower_bound (a, start);
  if (i < a->len && g_array_index (a, guint, i) == start)
    {
      g_array_remove_index (a, i);
      self->n_selected--;
    }
}

static void
sel_clear (OdoriTimeline *self)
{
  g_ptr_array_set_size (self->selection, 0);
  self->n_selected = 0;
}

static GPtrArray *
sel_copy (OdoriTimeline *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);
      GArray *c = g_array_sized_new (FALSE, FALSE, sizeof (guint), a->len);

      g_array_append_vals (c, a->data, a->len);
      g_ptr_array_add (copy, c);
    }
  return copy;
}

/* Drops selected starts that no longer hold a symbol (the score changed). */
static void
sel_validate (OdoriTimeline *self)
{
  guint n = n_parts (self);

  if (self->selection->len > n)
    g_ptr_array_set_size (self->selection, n);
  self->n_selected = 0;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);
      OdoriScorePart *part = get_part (self, t);

      for (guint i = a->len; i-- > 0;)
        if (odori_score_part_find_symbol (part, g_array_index (a, guint, i)) < 0)
          g_array_remove_index (a, i);
      self->n_selected += a->len;
    }
  if (self->focus_part >= (int) n)
    self->focus_part = n > 0 ? (int) n - 1 : -1;
  if (self->focus_part < 0 && n > 0)
    self->focus_part = 0;
  if (self->focus_part < 0 || (self->focus_start != 0 && find_symbol (self, self->focus_part, self->focus_start) == NULL))
    self->focus_start = 0;
}

static void
selection_changed (OdoriTimeline *self)
{
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

guint
odori_timeline_get_n_selected (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return self->n_selected;
}

gboolean
odori_timeline_is_selected (OdoriTimeline *self,
                            guint          track,
                            guint          start)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  return sel_contains (self, track, start);
}

gboolean
odori_timeline_select (OdoriTimeline           *self,
                       guint                    track,
                       guint                    start,
                       OdoriTimelineSelectMode  mode)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (find_symbol (self, track, start) == NULL)
    return FALSE;
  switch (mode)
    {
    case ODORI_TIMELINE_SELECT_REPLACE:
      sel_clear (self);
      sel_add (self, track, start);
      break;
    case ODORI_TIMELINE_SELECT_ADD:
      sel_add (self, track, start);
      break;
    case ODORI_TIMELINE_SELECT_TOGGLE:
    default:
      if (sel_contains (self, track, start))
        sel_remove (self, track, start);
      else
        sel_add (self, track, start);
      break;
    }
  self->focus_part = track;
  self->focus_start = start;
  selection_changed (self);
  return TRUE;
}

void
odori_timeline_select_all (OdoriTimeline *self)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  sel_clear (self);
  for (guint t = 0; t < n_parts (self); t++)
    {
      OdoriScorePart *part = get_part (self, t);
      GArray *a = sel_track (self, t);

      for (guint i = 0; i < part->symbols->len; i++)
        g_array_append_val (a, symbol_at_index (part, i)->start);
      self->n_selected += a->len;
    }
  selection_changed (self);
}

void
odori_timeline_unselect_all (OdoriTimeline *self)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->n_selected == 0)
    return;
  sel_clear (self);
  selection_changed (self);
}

int
odori_timeline_get_focus (OdoriTimeline *self,
                          guint         *start)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), -1);

  if (start != NULL)
    *start = self->focus_start;
  return self->focus_part;
}

gboolean
odori_timeline_get_selected_symbol (OdoriTimeline *self,
                                    guint         *track,
                                    guint         *start)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected != 1)
    return FALSE;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      if (a->len == 1)
        {
          if (track != NULL)
            *track = t;
          if (start != NULL)
            *start = g_array_index (a, guint, 0);
          return TRUE;
        }
    }
  return FALSE;
}

/* ---------------------------------------------------------------------------------- */
/* Edits                                                                              */

static gboolean
refuse (OdoriTimeline  *self,
        GError         *why,
        GError        **error)
{
  g_signal_emit (self, signals[REFUSED], 0, why->message);
  g_propagate_error (error, why);
  return FALSE;
}

static gboolean
refuse_literal (OdoriTimeline  *self,
                GError        **error,
                const char     *message)
{
  return refuse (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, message), error);
}

static gboolean
apply_edit (OdoriTimeline   *self,
            OdoriScoreEdit  *edit,
            GError         **error)
{
  GError *local_error = NULL;

  if (self->undo == NULL)
    {
      odori_score_edit_free (edit);
      return refuse_literal (self, error, _("There is no score to edit"));
    }
  if (!odori_undo_apply (self->undo, edit, &local_error))
    return refuse (self, local_error, error);
  return TRUE;
}

gboolean
odori_timeline_move_selection (OdoriTimeline  *self,
                               int             delta,
                               GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  guint lowest = G_MAXUINT;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_selected == 0 || delta == 0)
    return TRUE;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      if (a->len > 0)
        lowest = MIN (lowest, g_array_index (a, guint, 0));
    }
  if ((gint64) lowest + delta < 1)
    {
      if (lowest == 1)
        return refuse_literal (self, error, _("The selection already starts at frame 1"));
      delta = 1 - (int) lowest;
    }
  edit = odori_score_edit_new (_("Move"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_move_symbol (edit, t, s, (guint) ((gint64) s->start + delta));
        }
    }
  return apply_edit (self, g_steal_pointer (&edit), error);
}

gboolean
odori_timeline_set_symbol_start (OdoriTimeline  *self,
                                 guint           track,
                                 guint           start,
                                 guint           new_start,
                                 GError        **error)
{
  OdoriScoreSymbol *s;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  s = find_symbol (self, track, start);
  if (s == NULL)
    return refuse_literal (self, error, _("There is no symbol there"));
  if (new_start == start)
    return TRUE;
  edit = odori_score_edit_new (_("Change Start"));
  odori_score_edit_move_symbol (edit, track, s, new_start);
  return apply_edit (self, edit, error);
}

/* Whether SYMBOL may go on TRACK at START; on refusal, a GError to show. */
static GError *
check_placement (OdoriTimeline *self,
                 guint          track,
                 guint          start,
                 const char    *symbol)
{
  OdoriScorePart *part = get_part (self, track);
  GError *error = NULL;

  if (part == NULL)
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Drop the motion on a track"));
  if (!odori_document_check_symbol (self->document, part, symbol, &error))
    return error;
  if (odori_score_part_find_symbol (part, start) >= 0)
    return g_error_new (G_IO_ERROR, G_IO_ERROR_EXISTS,
                        _("Track %s already has a symbol at frame %u"), part->code, start);
  return NULL;
}

gboolean
odori_timeline_insert (OdoriTimeline  *self,
                       guint           track,
                       guint           start,
                       const char     *symbol,
                       GError        **error)
{
  GError *why;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->document == NULL)
    return refuse_literal (self, error, _("There is no score to edit"));
  why = check_placement (self, track, MAX (start, 1), symbol);
  if (why != NULL)
    return refuse (self, why, error);
  edit = odori_score_edit_new (_("Insert"));
  odori_score_edit_add_symbol (edit, track, MAX (start, 1), symbol);
  return apply_edit (self, edit, error);
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint ua = *(const guint *) a, ub = *(const guint *) b;

  return (ua > ub) - (ua < ub);
}

/* Snap candidates: starts and ends of the blocks (but the selected ones when
 * SKIP_SELECTED, they are what moves), and the playhead. */
static GArray *
collect_snap_frames (OdoriTimeline *self,
                     gboolean       skip_selected)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint));
  guint playhead = self->document ? odori_document_get_frame (self->document) : 1;

  g_array_append_val (frames, playhead);
  for (guint t = 0; t < n_parts (self); t++)
    {
      OdoriScorePart *part = get_part (self, t);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = symbol_at_index (part, i);
          guint end;

          if (skip_selected && sel_contains (self, t, s->start))
            continue;
          end = symbol_end (self, s);
          g_array_append_val (frames, s->start);
          g_array_append_val (frames, end);
        }
    }
  g_array_sort (frames, compare_uint);
  return frames;
}

/* The candidate nearest to FRAME within THRESHOLD frames, or FALSE. */
static gboolean
nearest_snap (GArray *frames,
              double  frame,
              double  threshold,
              guint  *found)
{
  guint i = uint_lower_bound (frames, (guint) MAX (ceil (frame), 0));
  double best = threshold + 1;

  for (guint k = (i > 0 ? i - 1 : 0); k <= i && k < frames->len; k++)
    {
      double d = fabs (g_array_index (frames, guint, k) - frame);

      if (d <= threshold && d < best)
        {
          best = d;
          *found = g_array_index (frames, guint, k);
        }
    }
  return best <= threshold;
}

/* START (and the end START + N) snapped to FRAMES when either is close. */
static guint
snap_start (OdoriTimeline *self,
            GArray        *frames,
            guint          start,
            guint          n)
{
  double threshold = SNAP_PX / self->ppf;
  guint at_start = 0, at_end = 0;
  gboolean s = nearest_snap (frames, start, threshold, &at_start);
  gboolean e = nearest_snap (frames, (double) start + n, threshold, &at_end);

  if (s && (!e || fabs ((double) at_start - start) <= fabs ((double) at_end - (start + n))))
    return MAX (at_start, 1);
  if (e && at_end > n)
    return at_end - n;
  return start;
}

gboolean
odori_timeline_drop (OdoriTimeline  *self,
                     const char     *symbol,
                     double          x,
                     double          y,
                     GError        **error)
{
  int track;
  guint start;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  track = odori_timeline_track_at_y (self, y);
  if (track < 0 || x < HEADER_WIDTH || self->document == NULL)
    return refuse_literal (self, error, _("Drop the motion on a track, at the frame where it should start"));
  start = odori_timeline_frame_at_x (self, x);
  if (self->snap)
    {
      g_autoptr(GArray) frames = collect_snap_frames (self, FALSE);

      start = snap_start (self, frames, start, sym_info (self, symbol)->n);
    }
  if (!odori_timeline_insert (self, track, start, symbol, error))
    return FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return TRUE;
}

gboolean
odori_timeline_delete_selection (OdoriTimeline *self)
{
  g_autoptr(GError) error = NULL;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected == 0)
    return FALSE;
  edit = odori_score_edit_new (_("Delete"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_remove_symbol (edit, t, s);
        }
    }
  return apply_edit (self, edit, &error);
}

static void
clip_item_free (ClipItem *item)
{
  g_free (item->code);
  g_free (item->symbol);
  g_free (item);
}

static guint
selection_first_start (OdoriTimeline *self)
{
  guint first = G_MAXUINT;

  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      if (a->len > 0)
        first = MIN (first, g_array_index (a, guint, 0));
    }
  return first;
}

/* The clipboard also gets the symbols as text, one "CODE<TAB>OFFSET<TAB>SYMBOL" line
 * each after an "odori-symbols" line, so they paste into another Odori. */
static char *
clip_items_to_text (GPtrArray *items)
{
  GString *text = g_string_new ("odori-symbols\n");

  for (guint i = 0; i < items->len; i++)
    {
      ClipItem *item = g_ptr_array_index (items, i);

      g_string_append_printf (text, "%s\t%u\t%s\n", item->code, item->offset, item->symbol);
    }
  return g_string_free (text, FALSE);
}

static GPtrArray *
clip_items_from_text (const char *text)
{
  g_auto(GStrv) lines = NULL;
  GPtrArray *items;

  if (text == NULL || !g_str_has_prefix (text, "odori-symbols\n"))
    return NULL;
  items = g_ptr_array_new_with_free_func ((GDestroyNotify) clip_item_free);
  lines = g_strsplit (text, "\n", 100001);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "\t", 3);
      guint64 offset;
      ClipItem *item;

      if (g_strv_length (fields) != 3 || fields[0][0] == '\0' || fields[2][0] == '\0' ||
          !g_ascii_string_to_unsigned (fields[1], 10, 0, G_MAXINT, &offset, NULL))
        continue;
      item = g_new0 (ClipItem, 1);
      item->code = g_strdup (fields[0]);
      item->offset = (guint) offset;
      item->symbol = g_strdup (fields[2]);
      g_ptr_array_add (items, item);
    }
  return items;
}

gboolean
odori_timeline_copy_selection (OdoriTimeline *self)
{
  g_autofree char *text = NULL;
  guint first;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected == 0)
    return FALSE;
  first = selection_first_start (self);
  g_clear_pointer (&clip_items, g_ptr_array_unref);
  clip_items = g_ptr_array_new_with_free_func ((GDestroyNotify) clip_item_free);
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));
          ClipItem *item;

          if (s == NULL)
            continue;
          item = g_new0 (ClipItem, 1);
          item->code = g_strdup (get_part (self, t)->code);
          item->offset = s->start - first;
          item->symbol = g_strdup (s->symbol);
          g_ptr_array_add (clip_items, item);
        }
    }
  text = clip_items_to_text (clip_items);
  g_clear_object (&clip_provider);
  clip_provider = gdk_content_provider_new_typed (G_TYPE_STRING, text);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (self)), clip_provider);
  return TRUE;
}

gboolean
odori_timeline_cut_selection (OdoriTimeline *self)
{
  g_autoptr(GError) error = NULL;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (!odori_timeline_copy_selection (self))
    return FALSE;
  edit = odori_score_edit_new (_("Cut"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_remove_symbol (edit, t, s);
        }
    }
  return apply_edit (self, edit, &error);
}

gboolean
odori_timeline_can_paste (OdoriTimeline *self)
{
  GdkClipboard *clipboard;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));
  if (clip_provider != NULL && gdk_clipboard_get_content (clipboard) == clip_provider)
    return clip_items != NULL && clip_items->len > 0;
  return !gdk_clipboard_is_local (clipboard) &&
         gdk_content_formats_contain_gtype (gdk_clipboard_get_formats (clipboard), G_TYPE_STRING);
}

/* The first free start at or after START on PART, not taken by the edit either. */
static guint
free_start (OdoriScorePart *part,
            GArray         *taken,
            guint           track,
            guint           start)
{
  for (;; start++)
    {
      gboolean used = odori_score_part_find_symbol (part, start) >= 0;

      for (guint i = 0; !used && i < taken->len; i++)
        {
          const OdoriScoreEditSymbol *s = &g_array_index (taken, OdoriScoreEditSymbol, i);

          used = s->part == track && s->start == start;
        }
      if (!used)
        return start;
    }
}

static gboolean
paste_items (OdoriTimeline  *self,
             GPtrArray      *items,
             GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  OdoriScore *score = get_score (self);
  guint at;
  gboolean one_track = TRUE;

  if (items == NULL || items->len == 0 || score == NULL)
    return refuse_literal (self, error, _("The clipboard holds no dance symbols"));
  for (guint i = 1; i < items->len; i++)
    one_track = one_track && g_strcmp0 (((ClipItem *) g_ptr_array_index (items, i))->code,
                                        ((ClipItem *) g_ptr_array_index (items, 0))->code) == 0;

  at = odori_document_get_frame (self->document);
  edit = odori_score_edit_new (_("Paste"));
  for (guint i = 0; i < items->len; i++)
    {
      ClipItem *item = g_ptr_array_index (items, i);
      int track = one_track && self->focus_part >= 0 ? self->focus_part : odori_score_find_part_index (score, item->code);
      OdoriScorePart *part;
      GError *why = NULL;
      guint start;

      if (track < 0)
        continue;
      part = get_part (self, track);
      if (!odori_document_check_symbol (self->document, part, item->symbol, &why))
        return refuse (self, why, error);
      start = free_start (part, odori_score_edit_get_added (edit), track, at + item->offset);
      odori_score_edit_add_symbol (edit, track, start, item->symbol);
    }
  if (odori_score_edit_get_added (edit)->len == 0)
    return refuse_literal (self, error, _("None of the copied tracks is in this score"));
  return apply_edit (self, g_steal_pointer (&edit), error);
}

static void
paste_text_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(OdoriTimeline) self = user_data;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  g_autoptr(GPtrArray) items = clip_items_from_text (text);
  g_autoptr(GError) error = NULL;

  if (self->document != NULL)
    paste_items (self, items, &error);
}

gboolean
odori_timeline_paste (OdoriTimeline  *self,
                      GError        **error)
{
  GdkClipboard *clipboard;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));
  if (clip_provider != NULL && gdk_clipboard_get_content (clipboard) == clip_provider)
    return paste_items (self, clip_items, error);
  /* Text from elsewhere (another Odori): read it, then paste. */
  gdk_clipboard_read_text_async (clipboard, NULL, paste_text_cb, g_object_ref (self));
  return TRUE;
}

gboolean
odori_timeline_duplicate_selection (OdoriTimeline  *self,
                                    GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  guint first, end = 0, shift;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_selected == 0)
    return FALSE;
  first = selection_first_start (self);
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            end = MAX (end, symbol_end (self, s));
        }
    }
  /* The copies follow the selection; further on while any would land on a start. */
  for (shift = end - first;; shift++)
    {
      gboolean clear = TRUE;

      for (guint t = 0; clear && t < self->selection->len; t++)
        {
          GArray *a = g_ptr_array_index (self->selection, t);

          for (guint i = 0; clear && i < a->len; i++)
            clear = find_symbol (self, t, g_array_index (a, guint, i) + shift) == NULL;
        }
      if (clear)
        break;
    }
  edit = odori_score_edit_new (_("Duplicate"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_add_symbol (edit, t, s->start + shift, s->symbol);
        }
    }
  return apply_edit (self, g_steal_pointer (&edit), error);
}

gboolean
odori_timeline_add_track (OdoriTimeline  *self,
                          const char     *code,
                          GError        **error)
{
  OdoriScore *score = get_score (self);
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  OdoriIndexPart *ipart;
  OdoriScoreEdit *edit;
  guint order = 0, position = 0;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ipart = index != NULL ? odori_index_find_part (index, code) : NULL;
  if (score == NULL || ipart == NULL)
    return refuse (self, g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                      _("The library has no body part %s"), code), error);
  if (odori_score_find_part_index (score, code) >= 0)
    return refuse (self, g_error_new (G_IO_ERROR, G_IO_ERROR_EXISTS,
                                      _("The score already has a track %s"), code), error);
  /* Where the library's order of parts puts it. */
  while (g_ptr_array_index (index->parts, order) != ipart)
    order++;
  for (guint t = 0; t < score->parts->len; t++)
    {
      OdoriIndexPart *other = odori_index_find_part (index, get_part (self, t)->code);
      guint other_order = 0;

      while (other != NULL && g_ptr_array_index (index->parts, other_order) != other)
        other_order++;
      if (other == NULL || other_order < order)
        position = t + 1;
    }
  edit = odori_score_edit_new (_("Add Track"));
  odori_score_edit_insert_part (edit, position, ipart->code, (const char * const *) ipart->map);
  return apply_edit (self, edit, error);
}

gboolean
odori_timeline_remove_track (OdoriTimeline  *self,
                             guint           track,
                             GError        **error)
{
  OdoriScorePart *part;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  part = get_part (self, track);
  if (part == NULL)
    return refuse_literal (self, error, _("There is no such track"));
  if (n_parts (self) == 1)
    return refuse_literal (self, error, _("A score needs at least one track"));
  edit = odori_score_edit_new (_("Remove Track"));
  odori_score_edit_remove_part (edit, track, part);
  return apply_edit (self, edit, error);
}

/* After a recorded edit (or its undo): what it put in becomes the selection. */
static void
on_edit_done_cb (OdoriTimeline  *self,
                 OdoriScoreEdit *edit,
                 gboolean        forward)
{
  int position = odori_score_edit_get_part_position (edit);
  GArray *now = forward ? odori_score_edit_get_added (edit) : odori_score_edit_get_removed (edit);
  GArray *gone = forward ? odori_score_edit_get_removed (edit) : odori_score_edit_get_added (edit);

  sel_validate (self);
  if (position >= 0)
    {
      sel_clear (self);
      self->focus_part = MIN (position, (int) n_parts (self) - 1);
      self->focus_start = 0;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  else if (now->len > 0)
    {
      const OdoriScoreEditSymbol *first = &g_array_index (now, OdoriScoreEditSymbol, 0);

      sel_clear (self);
      for (guint i = 0; i < now->len; i++)
        {
          const OdoriScoreEditSymbol *s = &g_array_index (now, OdoriScoreEditSymbol, i);

          sel_add (self, s->part, s->start);
        }
      self->focus_part = first->part;
      self->focus_start = first->start;
      odori_timeline_scroll_to (self, first->part, first->start);
    }
  else if (gone->len > 0)
    {
      /* Deleted: the focus goes to what follows on the track. */
      const OdoriScoreEditSymbol *first = &g_array_index (gone, OdoriScoreEditSymbol, 0);
      OdoriScorePart *part = get_part (self, first->part);
      guint i = part ? odori_score_part_lower_bound (part, first->start) : 0;

      sel_clear (self);
      self->focus_part = first->part;
      self->focus_start = part && i < part->symbols->len ? symbol_at_index (part, i)->start : 0;
    }
  selection_changed (self);
}

/* ---------------------------------------------------------------------------------- */
/* Pointer: click, move, rubber band, scrub                                           */

static void
drag_item_clear (DragItem *item)
{
  g_clear_pointer (&item->symbol, g_free);
}

static void
seek (OdoriTimeline *self,
      double         x)
{
  if (self->document == NULL)
    return;
  odori_document_stop_preview (self->document);
  odori_document_set_frame (self->document, odori_timeline_frame_at_x (self, x));
}

static void
set_focus (OdoriTimeline *self,
           int            track,
           guint          start)
{
  self->focus_part = track;
  self->focus_start = start;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Shift-click: the symbols of the focused track from the focused one to START. */
static void
select_range (OdoriTimeline *self,
              guint          track,
              guint          start)
{
  OdoriScorePart *part = get_part (self, track);
  guint from = self->focus_start, lo, hi;

  if ((int) track != self->focus_part || from == 0)
    {
      sel_add (self, track, start);
      return;
    }
  lo = MIN (from, start);
  hi = MAX (from, start);
  for (guint i = odori_score_part_lower_bound (part, lo); i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *s = symbol_at_index (part, i);

      if (s->start > hi)
        break;
      sel_add (self, track, s->start);
    }
}

void
_odori_timeline_pointer_press (OdoriTimeline   *self,
                               double           x,
                               double           y,
                               GdkModifierType  state)
{
  OdoriScoreSymbol *s;
  int track;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  self->mode = MODE_NONE;
  self->press_x = self->pointer_x = x;
  self->press_y = y;
  self->press_state = state;
  if (self->document == NULL)
    return;

  if (y < RULER_HEIGHT && x >= HEADER_WIDTH)
    {
      self->mode = MODE_SCRUB;
      seek (self, x);
      return;
    }
  track = odori_timeline_track_at_y (self, y);
  if (track < 0)
    return;
  if (x < HEADER_WIDTH)
    {
      set_focus (self, track, 0);
      return;
    }
  /* The playhead line is grabbed anywhere along it. */
  if (fabs (x - odori_timeline_x_for_frame (self, odori_document_get_frame (self->document) + 0.5)) <= 3 &&
      odori_document_get_preview (self->document) == NULL)
    {
      self->mode = MODE_SCRUB;
      return;
    }

  s = symbol_under (self, track, x);
  if (s != NULL)
    {
      self->press_part = track;
      self->press_start = s->start;
      self->press_was_selected = sel_contains (self, track, s->start);
      if (state & GDK_CONTROL_MASK)
        {
          if (self->press_was_selected)
            sel_remove (self, track, s->start);
          else
            sel_add (self, track, s->start);
        }
      else if (state & GDK_SHIFT_MASK)
        select_range (self, track, s->start);
      else if (!self->press_was_selected)
        {
          sel_clear (self);
          sel_add (self, track, s->start);
        }
      self->focus_part = track;
      self->focus_start = s->start;
      self->mode = MODE_PRESS_BLOCK;
      selection_changed (self);
      return;
    }

  /* Empty lane: a rubber band, adding to the selection with Shift or Ctrl. */
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  if (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK))
    self->band_base = sel_copy (self);
  else if (self->n_selected > 0)
    {
      sel_clear (self);
      selection_changed (self);
    }
  self->band_x0 = self->band_x1 = x + hvalue (self);
  self->band_y0 = self->band_y1 = y + vvalue (self);
  self->focus_part = track;
  self->focus_start = 0;
  self->mode = MODE_BAND;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
begin_move (OdoriTimeline *self)
{
  g_clear_pointer (&self->drag_items, g_array_unref);
  self->drag_items = g_array_new (FALSE, TRUE, sizeof (DragItem));
  g_array_set_clear_func (self->drag_items, (GDestroyNotify) drag_item_clear);
  self->drag_min_start = G_MAXUINT;
  self->drag_primary = 0;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = find_symbol (self, t, g_array_index (a, guint, i));
          DragItem item = { t, 0, NULL, 0, 0 };

          if (s == NULL)
            continue;
          item.start = s->start;
          item.symbol = g_strdup (s->symbol);
          item.line = s->line;
          item.n = sym_info (self, s->symbol)->n;
          if (t == self->press_part && s->start == self->press_start)
            self->drag_primary = self->drag_items->len;
          self->drag_min_start = MIN (self->drag_min_start, s->start);
          g_array_append_val (self->drag_items, item);
        }
    }
  g_clear_pointer (&self->snap_frames, g_array_unref);
  self->snap_frames = collect_snap_frames (self, TRUE);
  self->drag_delta = 0;
  self->drag_frame0 = odori_document_get_frame (self->document);
  odori_document_set_playing (self->document, FALSE);
  self->mode = MODE_MOVE;
}

/* The drag's edit from the items at FROM frames off their origin to TO. */
static OdoriScoreEdit *
drag_edit (OdoriTimeline *self,
           int            from,
           int            to)
{
  OdoriScoreEdit *edit = odori_score_edit_new (_("Move"));

  for (guint i = 0; i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);
      OdoriScoreSymbol s = { (guint) ((int) item->start + from), item->symbol, item->line };

      odori_score_edit_move_symbol (edit, item->part, &s, (guint) ((int) item->start + to));
    }
  return edit;
}

/* Whether every item can land DELTA frames off its origin (no unmoved symbol there). */
static gboolean
move_fits (OdoriTimeline *self,
           int            delta)
{
  for (guint i = 0; i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);
      guint at = (guint) ((int) item->start + delta);

      /* The selection is where the items are now: a selected symbol there moves too. */
      if (find_symbol (self, item->part, at) != NULL && !sel_contains (self, item->part, at))
        return FALSE;
    }
  return TRUE;
}

static void
sel_shift (OdoriTimeline *self,
           int            by)
{
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        g_array_index (a, guint, i) = (guint) ((int) g_array_index (a, guint, i) + by);
    }
  if (self->focus_start != 0 && sel_contains (self, self->focus_part, (guint) ((int) self->focus_start + by)))
    self->focus_start = (guint) ((int) self->focus_start + by);
}

/* Puts the dragged symbols DELTA frames off their origin, live. */
static void
move_to (OdoriTimeline *self,
         int            delta)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  DragItem *primary;

  if (delta == self->drag_delta || !move_fits (self, delta))
    return;
  edit = drag_edit (self, self->drag_delta, delta);
  if (!odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL))
    return;
  sel_shift (self, delta - self->drag_delta);
  self->drag_delta = delta;
  /* Dragging scrubs: the viewport shows the moved symbol's first frame. */
  primary = &g_array_index (self->drag_items, DragItem, self->drag_primary);
  odori_document_set_frame (self->document, (guint) ((int) primary->start + delta));
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_move (OdoriTimeline   *self,
             double           x,
             GdkModifierType  state)
{
  DragItem *primary;
  int delta;

  if (self->drag_items->len == 0)
    return;
  primary = &g_array_index (self->drag_items, DragItem, self->drag_primary);
  delta = (int) lround ((x - self->press_x) / self->ppf);
  /* Snapping (Shift held: free). */
  if (self->snap && !(state & GDK_SHIFT_MASK))
    {
      guint start = (guint) MAX ((int) primary->start + delta, 1);

      delta = (int) snap_start (self, self->snap_frames, start, primary->n) - (int) primary->start;
    }
  delta = MAX (delta, 1 - (int) self->drag_min_start);
  move_to (self, delta);
}

static void
end_move (OdoriTimeline *self)
{
  if (self->drag_delta != 0)
    odori_undo_push_applied (self->undo, drag_edit (self, 0, self->drag_delta));
  g_clear_pointer (&self->drag_items, g_array_unref);
  g_clear_pointer (&self->snap_frames, g_array_unref);
  selection_changed (self);
}

static void
update_band (OdoriTimeline *self,
             double         x,
             double         y)
{
  double fx0, fx1, ry0, ry1;

  self->band_x1 = x + hvalue (self);
  self->band_y1 = y + vvalue (self);
  /* In content coordinates: frames and rows. */
  fx0 = 1 + (MIN (self->band_x0, self->band_x1) - HEADER_WIDTH) / self->ppf;
  fx1 = 1 + (MAX (self->band_x0, self->band_x1) - HEADER_WIDTH) / self->ppf;
  ry0 = (MIN (self->band_y0, self->band_y1) - RULER_HEIGHT) / ROW_HEIGHT;
  ry1 = (MAX (self->band_y0, self->band_y1) - RULER_HEIGHT) / ROW_HEIGHT;

  sel_clear (self);
  if (self->band_base != NULL)
    for (guint t = 0; t < self->band_base->len; t++)
      {
        GArray *a = g_ptr_array_index (self->band_base, t);

        for (guint i = 0; i < a->len; i++)
          sel_add (self, t, g_array_index (a, guint, i));
      }
  for (int t = MAX ((int) floor (ry0), 0); t <= (int) floor (ry1) && t < (int) n_parts (self); t++)
    {
      OdoriScorePart *part = get_part (self, t);
      guint i = odori_score_part_lower_bound (part, (guint) MAX (floor (fx0), 1));

      if (i > 0)
        i--;
      for (; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = symbol_at_index (part, i);
          guint end = symbol_end (self, s);

          if (i + 1 < part->symbols->len)
            end = MIN (end, symbol_at_index (part, i + 1)->start);
          if (s->start > fx1)
            break;
          if (end > fx0)
            sel_add (self, t, s->start);
        }
    }
  selection_changed (self);
}

void
_odori_timeline_pointer_drag (OdoriTimeline   *self,
                              double           x,
                              double           y,
                              GdkModifierType  state)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  self->pointer_x = x;
  switch (self->mode)
    {
    case MODE_SCRUB:
      seek (self, x);
      break;
    case MODE_PRESS_BLOCK:
      if (fabs (x - self->press_x) < DRAG_THRESHOLD || !sel_contains (self, self->press_part, self->press_start))
        break;
      begin_move (self);
      G_GNUC_FALLTHROUGH;
    case MODE_MOVE:
      update_move (self, x, state);
      break;
    case MODE_BAND:
      update_band (self, x, y);
      break;
    case MODE_NONE:
    default:
      break;
    }
}

void
_odori_timeline_pointer_release (OdoriTimeline *self,
                                 double         x,
                                 double         y)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  switch (self->mode)
    {
    case MODE_MOVE:
      end_move (self);
      break;
    case MODE_PRESS_BLOCK:
      /* A plain click on a block of a larger selection selects that block alone. */
      if (self->press_was_selected && !(self->press_state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) &&
          self->n_selected > 1)
        odori_timeline_select (self, self->press_part, self->press_start, ODORI_TIMELINE_SELECT_REPLACE);
      break;
    case MODE_BAND:
    case MODE_SCRUB:
    case MODE_NONE:
    default:
      break;
    }
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  self->mode = MODE_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_odori_timeline_pointer_cancel (OdoriTimeline *self)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->mode == MODE_MOVE && self->drag_delta != 0)
    {
      g_autoptr(OdoriScoreEdit) edit = drag_edit (self, self->drag_delta, 0);

      if (odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL))
        sel_shift (self, -self->drag_delta);
      odori_document_set_frame (self->document, self->drag_frame0);
      self->drag_delta = 0;
    }
  if (self->mode == MODE_MOVE)
    end_move (self);
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  self->mode = MODE_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
_odori_timeline_scroll (OdoriTimeline   *self,
                        double           x,
                        double           dy,
                        GdkModifierType  state)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (!(state & GDK_CONTROL_MASK) || dy == 0)
    return FALSE;
  odori_timeline_set_pixels_per_frame (self, self->ppf * pow (1.2, -dy), x);
  return TRUE;
}

static void
on_drag_begin_cb (GtkGestureDrag *gesture,
                  double          x,
                  double          y,
                  OdoriTimeline  *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  _odori_timeline_pointer_press (self, x, y, state);
  if (self->mode == MODE_NONE)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
  else
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_drag_update_cb (GtkGestureDrag *gesture,
                   double          dx,
                   double          dy,
                   OdoriTimeline  *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  _odori_timeline_pointer_drag (self, x + dx, y + dy, state);
}

static void
on_drag_end_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                OdoriTimeline  *self)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  _odori_timeline_pointer_release (self, x + dx, y + dy);
}

static void
on_drag_cancel_cb (GtkGesture       *gesture,
                   GdkEventSequence *sequence,
                   OdoriTimeline    *self)
{
  _odori_timeline_pointer_cancel (self);
}

static gboolean
on_scroll_cb (GtkEventControllerScroll *controller,
              double                    dx,
              double                    dy,
              OdoriTimeline            *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  return _odori_timeline_scroll (self, self->pointer_x, dy, state);
}

static void
on_motion_cb (GtkEventControllerMotion *controller,
              double                    x,
              double                    y,
              OdoriTimeline            *self)
{
  self->pointer_x = x;
}

/* Drops from the library browser */

static char *
symbol_from_value (const GValue *value)
{
  if (value == NULL)
    return NULL;
  if (G_VALUE_HOLDS (value, ODORI_TYPE_LIBRARY_ITEM))
    {
      OdoriLibraryItem *item = g_value_get_object (value);

      return item != NULL ? odori_library_item_dup_symbol (item) : NULL;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_STRING))
    return g_strdup (g_value_get_string (value));
  return NULL;
}

void
_odori_timeline_drop_hover (OdoriTimeline *self,
                            const char    *symbol,
                            double         x,
                            double         y)
{
  g_autoptr(GError) why = NULL;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  g_clear_pointer (&self->drop_symbol, g_free);
  g_clear_pointer (&self->drop_refusal, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (symbol == NULL || self->document == NULL)
    return;
  self->drop_symbol = g_strdup (symbol);
  self->drop_part = odori_timeline_track_at_y (self, y);
  self->drop_frame = odori_timeline_frame_at_x (self, x);
  if (self->snap)
    {
      g_autoptr(GArray) frames = collect_snap_frames (self, FALSE);

      self->drop_frame = snap_start (self, frames, self->drop_frame, sym_info (self, symbol)->n);
    }
  why = self->drop_part >= 0 && x >= HEADER_WIDTH
        ? check_placement (self, self->drop_part, self->drop_frame, symbol)
        : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Drop the motion on a track"));
  if (why != NULL)
    self->drop_refusal = g_strdup (why->message);
}

static GdkDragAction
on_drop_motion_cb (GtkDropTarget *target,
                   double         x,
                   double         y,
                   OdoriTimeline *self)
{
  g_autofree char *symbol = symbol_from_value (gtk_drop_target_get_value (target));

  self->pointer_x = x;
  _odori_timeline_drop_hover (self, symbol, x, y);
  return self->drop_symbol != NULL && self->drop_refusal == NULL ? GDK_ACTION_COPY : 0;
}

static void
on_drop_leave_cb (GtkDropTarget *target,
                  OdoriTimeline *self)
{
  _odori_timeline_drop_hover (self, NULL, 0, 0);
}

static gboolean
on_drop_cb (GtkDropTarget *target,
            const GValue  *value,
            double         x,
            double         y,
            OdoriTimeline *self)
{
  g_autofree char *symbol = symbol_from_value (value);
  g_autoptr(GError) error = NULL;

  _odori_timeline_drop_hover (self, NULL, 0, 0);
  if (symbol == NULL)
    return FALSE;
  return odori_timeline_drop (self, symbol, x, y, &error);
}

/* ---------------------------------------------------------------------------------- */
/* Drawing                                                                            */

typedef struct
{
  GdkRGBA fg;
  GdkRGBA dim;
  GdkRGBA lane;
  GdkRGBA lane_alt;
  GdkRGBA header_bg;
  GdkRGBA line;
  double  frame_time;
  guint   fps;
  guint   f0;         /* first and last frame in view */
  guint   f1;
  guint   end;        /* last frame of the dance */
  int     blend;
  int     width;
  int     height;
  gboolean focused;
} Paint;

static void
get_color (GtkWidget  *widget,
           const char *name,
           GdkRGBA    *rgba,
           const char *fallback)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, rgba))
    gdk_rgba_parse (rgba, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
paint_init (OdoriTimeline *self,
            Paint         *paint)
{
  GtkWidget *widget = GTK_WIDGET (self);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &paint->fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  get_color (widget, "theme_bg_color", &paint->header_bg, "#f6f5f4");
  paint->dim = paint->fg;
  paint->dim.alpha = 0.6f;
  paint->lane = paint->fg;
  paint->lane.alpha = 0.035f;
  paint->lane_alt = paint->fg;
  paint->lane_alt.alpha = 0.07f;
  paint->line = paint->fg;
  paint->line.alpha = 0.18f;
  paint->frame_time = frame_time (self);
  paint->fps = fps (self);
  paint->width = gtk_widget_get_width (widget);
  paint->height = gtk_widget_get_height (widget);
  paint->f0 = (guint) MAX (floor (frame_at_x_exact (self, HEADER_WIDTH)), 1);
  paint->f1 = (guint) MAX (ceil (frame_at_x_exact (self, paint->width)) + 1, 1);
  paint->end = dance_end (self);
  paint->blend = blend_frames (self);
  paint->focused = gtk_widget_has_focus (widget);
}

static void
rect (GtkSnapshot   *snapshot,
      const GdkRGBA *color,
      double         x,
      double         y,
      double         w,
      double         h)
{
  if (w <= 0 || h <= 0)
    return;
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT ((float) x, (float) y, (float) w, (float) h));
}

static void
outline (GtkSnapshot   *snapshot,
         const GdkRGBA *color,
         double         x,
         double         y,
         double         w,
         double         h,
         float          width)
{
  GskRoundedRect r;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  if (w <= 2 * width || h <= 2 * width)
    return;
  gsk_rounded_rect_init_from_rect (&r, &GRAPHENE_RECT_INIT ((float) x, (float) y, (float) w, (float) h), 0);
  gtk_snapshot_append_border (snapshot, &r, widths, colors);
}

static void
layout_at (GtkSnapshot   *snapshot,
           PangoLayout   *layout,
           double         x,
           double         y_middle,
           const GdkRGBA *color)
{
  int h;

  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) round (y_middle - h / 2.0)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
text_at (OdoriTimeline *self,
         GtkSnapshot   *snapshot,
         const char    *markup,
         double         x,
         double         y_middle,
         double         max_width,
         const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = NULL;

  if (max_width < 8)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  layout_at (snapshot, layout, x, y_middle, color);
}

static void
lighten (GdkRGBA *c,
         float    by)
{
  c->red += (1 - c->red) * by;
  c->green += (1 - c->green) * by;
  c->blue += (1 - c->blue) * by;
}

/* One block: the symbol's motion from X0 to X1, its hold to X2. */
static void
snapshot_block (OdoriTimeline    *self,
                GtkSnapshot      *snapshot,
                const Paint      *paint,
                OdoriScoreSymbol *s,
                SymInfo          *info,
                SymInfo          *prev,
                guint             track,
                double            y,
                guint             vis_end,
                guint             hold_end)
{
  static const GdkRGBA white = { 1, 1, 1, 1 };
  static const GdkRGBA shade = { 0, 0, 0, 0.25f };
  GdkRGBA color = *sym_color (self, info);
  gboolean selected = sel_contains (self, track, s->start);
  double x0 = odori_timeline_x_for_frame (self, s->start);
  double x1 = odori_timeline_x_for_frame (self, vis_end);
  double top = y + BLOCK_INSET, h = ROW_HEIGHT - 2 * BLOCK_INSET;
  guint end = s->start + info->n;

  /* Held: after its last frame the symbol holds that pose until the next one. */
  if (hold_end > end)
    {
      GdkRGBA hold = color;
      double hx = odori_timeline_x_for_frame (self, end);

      hold.alpha = 0.4f;
      rect (snapshot, &hold, hx, y + ROW_HEIGHT / 2.0 - 2, odori_timeline_x_for_frame (self, hold_end) - hx, 4);
      rect (snapshot, &hold, hx, y + ROW_HEIGHT / 2.0 - 6, 1, 12);
    }

  if (selected)
    lighten (&color, 0.18f);
  rect (snapshot, &color, x0, top, x1 - x0, h);
  /* A darker edge where it starts, so back-to-back blocks stay apart. */
  rect (snapshot, &shade, x0, top, 1.5, h);

  /* Blended in: the outgoing symbol fades across the first frames. */
  if (prev != NULL && paint->blend > 0)
    {
      GdkRGBA from = *sym_color (self, prev);
      GdkRGBA to = from;
      double bx = odori_timeline_x_for_frame (self, MIN (s->start + (guint) paint->blend, vis_end));
      GskColorStop stops[2];

      from.alpha = 0.95f;
      to.alpha = 0;
      stops[0] = (GskColorStop) { 0, from };
      stops[1] = (GskColorStop) { 1, to };
      if (bx - x0 >= 1)
        gtk_snapshot_append_linear_gradient (snapshot,
                                             &GRAPHENE_RECT_INIT ((float) x0, (float) top, (float) (bx - x0), (float) h),
                                             &GRAPHENE_POINT_INIT ((float) x0, 0), &GRAPHENE_POINT_INIT ((float) bx, 0),
                                             stops, 2);
    }
  /* Cut short by the next symbol: a notch at the cut. */
  if (vis_end < end)
    rect (snapshot, &shade, x1 - 3, top, 3, h);

  if (selected)
    outline (snapshot, &white, x0, top, x1 - x0, h, 2);
  if (paint->focused && (int) track == self->focus_part && s->start == self->focus_start)
    outline (snapshot, &paint->fg, x0 - 2, top - 2, x1 - x0 + 4, h + 4, 1);

  /* The label: code and name, or the code, when it fits. */
  if (x1 - x0 >= 18)
    {
      double room = x1 - x0 - 10;
      double lx = MAX (x0, HEADER_WIDTH - 2.0) + 5;

      sym_info_layouts (self, s->symbol, info);
      if (info->full_w <= room && lx + info->full_w <= x1 - 4)
        layout_at (snapshot, info->full_layout, lx, y + ROW_HEIGHT / 2.0, &white);
      else if (x0 + 5 + info->code_w <= x1 - 3 || room >= 14)
        {
          gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT ((float) x0, (float) top, (float) (x1 - x0 - 2), (float) h));
          layout_at (snapshot, info->code_layout, lx, y + ROW_HEIGHT / 2.0, &white);
          gtk_snapshot_pop (snapshot);
        }
    }
}

typedef struct
{
  double  x0;
  double  x1;
  GdkRGBA color;
  gboolean open;
} Run;

static void
run_flush (GtkSnapshot *snapshot,
           Run         *run,
           double       top,
           double       h)
{
  if (run->open)
    rect (snapshot, &run->color, run->x0, top, MAX (run->x1 - run->x0, 1), h);
  run->open = FALSE;
}

static void
snapshot_track (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint,
                guint          track,
                double         y)
{
  OdoriScorePart *part = get_part (self, track);
  Run run = { 0 };
  guint i = odori_score_part_lower_bound (part, paint->f0);
  double top = y + BLOCK_INSET, h = ROW_HEIGHT - 2 * BLOCK_INSET;
  SymInfo *prev = NULL;

  if (i > 0)
    {
      i--;
      if (i > 0)
        prev = sym_info (self, symbol_at_index (part, i - 1)->symbol);
    }
  for (; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *s = symbol_at_index (part, i);
      SymInfo *info;
      guint next, end, vis_end;
      double x0, x1;

      if (s->start > paint->f1)
        break;
      info = sym_info (self, s->symbol);
      next = i + 1 < part->symbols->len ? symbol_at_index (part, i + 1)->start : 0;
      end = s->start + info->n;
      vis_end = next != 0 ? MIN (end, next) : end;
      x0 = odori_timeline_x_for_frame (self, s->start);
      x1 = odori_timeline_x_for_frame (self, vis_end);

      if (x1 - x0 < TINY_BLOCK_PX)
        {
          /* Too small to draw one by one: one rectangle per run of them. */
          GdkRGBA color = sel_contains (self, track, s->start) ? accent : *sym_color (self, info);

          if (run.open && x0 <= run.x1 + 1 && gdk_rgba_equal (&color, &run.color))
            run.x1 = MAX (run.x1, x1);
          else
            {
              run_flush (snapshot, &run, top, h);
              run = (Run) { x0, x1, color, TRUE };
            }
          prev = info;
          continue;
        }
      run_flush (snapshot, &run, top, h);
      snapshot_block (self, snapshot, paint, s, info, i > 0 ? prev : NULL, track, y, vis_end,
                      next != 0 ? next : paint->end + 1);
      prev = info;
    }
  run_flush (snapshot, &run, top, h);
}

static int
seam_rank (const Seam *seam)
{
  /* The CLI's rule: a jump above twice the clips' largest step is rough. */
  if (seam->jump > 2 * MAX (seam->clip, 0.5))
    return 2;
  if (seam->jump > 1.25 * MAX (seam->clip, 0.5))
    return 1;
  return 0;
}

static void
snapshot_seams (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint,
                guint          t0,
                guint          t1)
{
  static const GdkRGBA colors[3] = {
    { 0.18f, 0.65f, 0.35f, 1 },
    { 0.93f, 0.65f, 0.10f, 1 },
    { 0.88f, 0.11f, 0.14f, 1 },
  };

  for (guint k = 0; k < self->seams->len; k++)
    {
      const Seam *seam = &g_array_index (self->seams, Seam, k);
      int rank;
      double x, y;

      if (seam->part < t0 || seam->part > t1 || seam->frame < paint->f0 || seam->frame > paint->f1)
        continue;
      /* Stale until the next report: only where a symbol still starts. */
      if (find_symbol (self, seam->part, seam->frame) == NULL)
        continue;
      rank = seam_rank (seam);
      x = odori_timeline_x_for_frame (self, seam->frame);
      y = row_top (self, seam->part);
      if (rank == 2)
        {
          GdkRGBA line = colors[2];

          line.alpha = 0.7f;
          rect (snapshot, &line, x - 1, y + 1, 2, ROW_HEIGHT - 2);
        }
      rect (snapshot, &colors[rank], x - 4, y + 1, 8, 5);
    }
}

static void
snapshot_drop_ghost (OdoriTimeline *self,
                     GtkSnapshot   *snapshot,
                     const Paint   *paint)
{
  SymInfo *info;
  GdkRGBA color;
  double x0, x1, y;

  if (self->drop_symbol == NULL || self->drop_part < 0)
    return;
  info = sym_info (self, self->drop_symbol);
  color = self->drop_refusal != NULL ? playhead_color : *sym_color (self, info);
  color.alpha = 0.45f;
  x0 = odori_timeline_x_for_frame (self, self->drop_frame);
  x1 = odori_timeline_x_for_frame (self, self->drop_frame + info->n);
  y = row_top (self, self->drop_part);
  rect (snapshot, &color, x0, y + BLOCK_INSET, MAX (x1 - x0, 3), ROW_HEIGHT - 2 * BLOCK_INSET);
  outline (snapshot, &paint->fg, x0, y + BLOCK_INSET, MAX (x1 - x0, 3), ROW_HEIGHT - 2 * BLOCK_INSET, 1);
  if (self->drop_refusal != NULL)
    {
      g_autofree char *markup = g_markup_escape_text (self->drop_refusal, -1);

      text_at (self, snapshot, markup, x0 + 6, y + ROW_HEIGHT / 2.0, paint->width - x0 - 12, &paint->fg);
    }
}

static void
snapshot_lanes (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint)
{
  guint n = n_parts (self);
  int t0 = (int) floor (vvalue (self) / ROW_HEIGHT);
  int t1 = (int) floor ((vvalue (self) + paint->height - RULER_HEIGHT) / ROW_HEIGHT);
  double end_x = odori_timeline_x_for_frame (self, paint->end + 1);

  t0 = CLAMP (t0, 0, (int) n);
  t1 = MIN (t1, (int) n - 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, RULER_HEIGHT,
                                                         (float) (paint->width - HEADER_WIDTH),
                                                         (float) (paint->height - RULER_HEIGHT)));
  for (int t = t0; t <= t1; t++)
    {
      double y = row_top (self, t);
      GdkRGBA lane = t % 2 ? paint->lane_alt : paint->lane;

      if (t == self->focus_part)
        {
          lane = accent;
          lane.alpha = paint->focused ? 0.14f : 0.08f;
        }
      rect (snapshot, &lane, HEADER_WIDTH, y, paint->width - HEADER_WIDTH, ROW_HEIGHT);
      if (self->drop_symbol != NULL && t == self->drop_part)
        {
          GdkRGBA hover = self->drop_refusal ? playhead_color : accent;

          hover.alpha = 0.12f;
          rect (snapshot, &hover, HEADER_WIDTH, y, paint->width - HEADER_WIDTH, ROW_HEIGHT);
        }
      snapshot_track (self, snapshot, paint, t, y);
    }
  if (t0 <= t1)
    snapshot_seams (self, snapshot, paint, t0, t1);
  /* Where the dance ends. */
  if (end_x > HEADER_WIDTH && end_x < paint->width)
    rect (snapshot, &paint->line, end_x, RULER_HEIGHT, 1, MIN (paint->height, row_top (self, n)) - RULER_HEIGHT);
  snapshot_drop_ghost (self, snapshot, paint);

  if (self->mode == MODE_BAND)
    {
      GdkRGBA fill = accent, edge = accent;
      double x = MIN (self->band_x0, self->band_x1) - hvalue (self);
      double y = MIN (self->band_y0, self->band_y1) - vvalue (self);
      double w = fabs (self->band_x1 - self->band_x0), h = fabs (self->band_y1 - self->band_y0);

      fill.alpha = 0.18f;
      rect (snapshot, &fill, x, y, w, h);
      outline (snapshot, &edge, x, y, w, h, 1);
    }
  gtk_snapshot_pop (snapshot);
}

static char *
ruler_label (OdoriTimeline *self,
             guint          frame,
             guint          step,
             const Paint   *paint)
{
  double seconds = (frame - 1) * paint->frame_time;
  g_autofree char *time = NULL;

  if (step < paint->fps && self->units != ODORI_TIME_UNITS_FRAMES)
    time = g_strdup_printf (_("%.2f s"), seconds);
  else if (seconds >= 60)
    time = g_strdup_printf ("%d:%02d", (int) (seconds + 1e-6) / 60, (int) (seconds + 1e-6) % 60);
  else
    time = g_strdup_printf (_("%.0f s"), seconds);

  switch (self->units)
    {
    case ODORI_TIME_UNITS_FRAMES:
      return g_strdup_printf ("%u", frame);
    case ODORI_TIME_UNITS_SECONDS:
      return g_steal_pointer (&time);
    case ODORI_TIME_UNITS_BOTH:
    default:
      /* Translators: ruler label, "time · frame number" */
      return g_strdup_printf (_("%s · %u"), time, frame);
    }
}

/* Frames between labelled ticks. Counting in seconds: whole seconds (1, 2, 5, 10 …), or
 * round numbers of frames inside a second when zoomed in. Counting in frames: 1, 2, 5,
 * 10, 20 … frames. */
static guint
ruler_step (OdoriTimeline *self,
            const Paint   *paint,
            double         min_gap)
{
  static const guint frame_steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
                                       20000, 50000, 100000, 200000, 500000 };
  static const guint second_steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200 };

  if (self->units != ODORI_TIME_UNITS_FRAMES)
    {
      for (guint i = 0; i < G_N_ELEMENTS (frame_steps) && frame_steps[i] < paint->fps; i++)
        if (frame_steps[i] * self->ppf >= min_gap)
          return frame_steps[i];
      for (guint i = 0; i < G_N_ELEMENTS (second_steps); i++)
        if (second_steps[i] * paint->fps * self->ppf >= min_gap)
          return second_steps[i] * paint->fps;
      return second_steps[G_N_ELEMENTS (second_steps) - 1] * paint->fps;
    }
  for (guint i = 0; i < G_N_ELEMENTS (frame_steps); i++)
    if (frame_steps[i] * self->ppf >= min_gap)
      return frame_steps[i];
  return frame_steps[G_N_ELEMENTS (frame_steps) - 1];
}

static void
snapshot_ruler (OdoriTimeline *self,
                GtkSnapshot   *snapshot,
                const Paint   *paint)
{
  double min_gap = self->units == ODORI_TIME_UNITS_BOTH ? 110 : 70;
  guint step = ruler_step (self, paint, min_gap);
  guint minor = step % 5 == 0 && step / 5 * self->ppf >= 6 ? step / 5 : step % 2 == 0 && step / 2 * self->ppf >= 6 ? step / 2 : step;
  GdkRGBA tick = paint->fg;
  guint first;

  rect (snapshot, &paint->header_bg, 0, 0, paint->width, RULER_HEIGHT);
  rect (snapshot, &paint->line, 0, RULER_HEIGHT - 1, paint->width, 1);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, 0, (float) (paint->width - HEADER_WIDTH), RULER_HEIGHT));
  tick.alpha = 0.45f;
  first = paint->f0 > minor ? (paint->f0 - 1) / minor * minor + 1 : 1;
  for (guint f = first; f <= paint->f1 + step; f += minor)
    {
      double x = odori_timeline_x_for_frame (self, f);
      gboolean major = (f - 1) % step == 0;

      rect (snapshot, &tick, x, major ? 14 : 21, 1, RULER_HEIGHT - (major ? 14 : 21));
      if (major)
        {
          g_autofree char *label = ruler_label (self, f, step, paint);
          g_autofree char *markup = g_markup_printf_escaped ("<small>%s</small>", label);

          text_at (self, snapshot, markup, x + 3, 8, min_gap - 8, &paint->dim);
        }
      if (f > G_MAXUINT - minor)
        break;
    }
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_header (OdoriTimeline *self,
                 GtkSnapshot   *snapshot,
                 const Paint   *paint)
{
  OdoriIndex *index = odori_document_get_index (self->document);
  guint n = n_parts (self);

  rect (snapshot, &paint->header_bg, 0, RULER_HEIGHT, HEADER_WIDTH, paint->height - RULER_HEIGHT);
  rect (snapshot, &paint->line, HEADER_WIDTH - 1, 0, 1, paint->height);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, HEADER_WIDTH - 1, (float) (paint->height - RULER_HEIGHT)));
  for (guint t = 0; t < n; t++)
    {
      OdoriScorePart *part = get_part (self, t);
      OdoriIndexPart *ipart = index ? odori_index_find_part (index, part->code) : NULL;
      double y = row_top (self, t);
      g_autofree char *markup = NULL;

      if (y + ROW_HEIGHT < RULER_HEIGHT)
        continue;
      if (y > paint->height)
        break;
      if ((int) t == self->focus_part)
        {
          GdkRGBA focus = accent;

          focus.alpha = paint->focused ? 0.22f : 0.12f;
          rect (snapshot, &focus, 0, y, HEADER_WIDTH - 1, ROW_HEIGHT);
        }
      rect (snapshot, &paint->line, 0, y + ROW_HEIGHT - 1, HEADER_WIDTH - 1, 1);
      markup = g_markup_printf_escaped ("<b>%s</b>  <span alpha=\"65%%\">%s</span>", part->code,
                                        ipart && ipart->name ? ipart->name : "");
      text_at (self, snapshot, markup, 10, y + ROW_HEIGHT / 2.0, HEADER_WIDTH - 16, &paint->fg);
    }
  gtk_snapshot_pop (snapshot);
}

static void
snapshot_playhead (OdoriTimeline *self,
                   GtkSnapshot   *snapshot,
                   const Paint   *paint)
{
  double x;

  if (odori_document_get_preview (self->document) != NULL)
    return;
  x = odori_timeline_x_for_frame (self, odori_document_get_frame (self->document) + 0.5);
  if (x < HEADER_WIDTH || x > paint->width)
    return;
  rect (snapshot, &playhead_color, x - 1, 0, 2, MIN (paint->height, row_top (self, n_parts (self)) + 4));
  rect (snapshot, &playhead_color, x - 5, 0, 10, 9);
}

static void
odori_timeline_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  Paint paint;

  if (get_score (self) == NULL)
    return;
  paint_init (self, &paint);
  snapshot_lanes (self, snapshot, &paint);
  snapshot_ruler (self, snapshot, &paint);
  snapshot_header (self, snapshot, &paint);
  snapshot_playhead (self, snapshot, &paint);
}

/* ---------------------------------------------------------------------------------- */
/* Tooltips                                                                           */

static const Seam *
seam_at (OdoriTimeline *self,
         guint          track,
         double         x,
         double         y)
{
  double top = row_top (self, track);

  if (y > top + 10)
    return NULL;
  for (guint k = 0; k < self->seams->len; k++)
    {
      const Seam *seam = &g_array_index (self->seams, Seam, k);

      if (seam->part == track && fabs (odori_timeline_x_for_frame (self, seam->frame) - x) <= 5 &&
          find_symbol (self, track, seam->frame) != NULL)
        return seam;
    }
  return NULL;
}

static char *
seam_markup (OdoriTimeline *self,
             const Seam    *seam)
{
  static const char *verdicts[] = { N_("smooth"), N_("noticeable"), N_("rough") };
  OdoriScorePart *part = get_part (self, seam->part);
  g_autofree char *from = g_markup_escape_text (seam->from ? seam->from : "", -1);
  g_autofree char *to = g_markup_escape_text (seam->to ? seam->to : "", -1);

  /* Translators: a seam tooltip: track, frame, symbols, then the figures */
  return g_strdup_printf (_("<b>Seam on %s at frame %u</b>: %s → %s\n"
                            "Jump %.1f° against %.1f° inside the clips (%.1f×): %s"),
                          part->code, seam->frame, from, to, seam->jump, seam->clip,
                          seam->jump / MAX (seam->clip, 0.01), _(verdicts[seam_rank (seam)]));
}

static char *
symbol_markup (OdoriTimeline    *self,
               guint             track,
               OdoriScoreSymbol *s)
{
  SymInfo *info = sym_info (self, s->symbol);
  OdoriScorePart *part = get_part (self, track);
  GString *text = g_string_new (NULL);
  g_autofree char *code = g_markup_escape_text (s->symbol, -1);
  guint end = s->start + info->n - 1;

  g_string_append_printf (text, "<b>%s</b>", code);
  if (info->motion != NULL)
    {
      OdoriIndexMotion *m = info->motion;
      g_autofree char *name = g_markup_escape_text (m->name ? m->name : "", -1);
      g_autofree char *show = g_markup_escape_text (m->show->name ? m->show->name : m->show->code, -1);
      g_autofree char *klass = g_markup_escape_text (m->show->klass && m->show->klass->name ? m->show->klass->name : "", -1);

      g_string_append_printf (text, " %s\n", name);
      /* Translators: tooltip line: show and class of a motion */
      g_string_append_printf (text, _("Show %s (%s) · %s\n"), show, m->show->code, klass);
    }
  else
    g_string_append_printf (text, "\n%s\n", _("Not in the library: this symbol does not compose"));
  g_string_append_printf (text, _("Track %s · frames %u–%u (%u frames, %.2f s)"),
                          part->code, s->start, end, info->n, info->n * frame_time (self));
  if (info->motion != NULL && info->motion->exp != NULL)
    {
      g_autofree char *exp = g_markup_escape_text (info->motion->exp, -1);

      g_string_append_printf (text, "\n<i>%s</i>", exp);
    }
  return g_string_free (text, FALSE);
}

static gboolean
odori_timeline_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard,
                              GtkTooltip *tooltip)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  g_autofree char *markup = NULL;
  OdoriScoreSymbol *s;
  const Seam *seam;
  int track;

  if (get_score (self) == NULL || self->mode != MODE_NONE)
    return FALSE;
  if (keyboard)
    {
      if (self->focus_part < 0 || (s = find_symbol (self, self->focus_part, self->focus_start)) == NULL)
        return FALSE;
      markup = symbol_markup (self, self->focus_part, s);
      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }
  if (y < RULER_HEIGHT)
    {
      gtk_tooltip_set_text (tooltip, _("Click or drag to move the playhead"));
      return TRUE;
    }
  track = odori_timeline_track_at_y (self, y);
  if (track < 0)
    return FALSE;
  if (x < HEADER_WIDTH)
    {
      OdoriScorePart *part = get_part (self, track);
      OdoriIndex *index = odori_document_get_index (self->document);
      OdoriIndexPart *ipart = index ? odori_index_find_part (index, part->code) : NULL;
      g_autofree char *sensors = part->sensors ? g_strjoinv (", ", part->sensors) : g_strdup ("");
      g_autofree char *name = g_markup_escape_text (ipart && ipart->name ? ipart->name : part->code, -1);
      g_autofree char *escaped = g_markup_escape_text (sensors, -1);

      /* Translators: track header tooltip: name, code, sensors */
      markup = g_strdup_printf (_("<b>%s</b> (%s)\nSensors: %s"), name, part->code, escaped);
    }
  else if ((seam = seam_at (self, track, x, y)) != NULL)
    markup = seam_markup (self, seam);
  else if ((s = symbol_under (self, track, x)) != NULL)
    markup = symbol_markup (self, track, s);
  else
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* Accessibility                                                                      */

char *
odori_timeline_dup_focus_description (OdoriTimeline *self)
{
  OdoriIndex *index;
  OdoriScorePart *part;
  OdoriIndexPart *ipart;
  GString *text;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);

  if (get_score (self) == NULL || self->focus_part < 0 || (part = get_part (self, self->focus_part)) == NULL)
    return g_strdup (_("No tracks"));
  index = odori_document_get_index (self->document);
  ipart = index ? odori_index_find_part (index, part->code) : NULL;
  text = g_string_new (NULL);
  /* Translators: "Track 3 of 6: LA 左腕 Left arm, 5 symbols." */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Track %u of %u: %s %s, %u symbol.",
                                             "Track %u of %u: %s %s, %u symbols.", part->symbols->len),
                          self->focus_part + 1, n_parts (self), part->code,
                          ipart && ipart->name ? ipart->name : "", part->symbols->len);
  if (self->focus_start != 0)
    {
      int i = odori_score_part_find_symbol (part, self->focus_start);

      if (i >= 0)
        {
          OdoriScoreSymbol *s = symbol_at_index (part, i);
          SymInfo *info = sym_info (self, s->symbol);

          g_string_append_c (text, ' ');
          /* Translators: "Symbol 2 of 5: C2 左右拍手 Side clap, frames 82 to 192" */
          g_string_append_printf (text, _("Symbol %d of %u: %s %s, frames %u to %u"), i + 1,
                                  part->symbols->len, s->symbol,
                                  info->motion && info->motion->name ? info->motion->name : "",
                                  s->start, s->start + info->n - 1);
          if (sel_contains (self, self->focus_part, s->start))
            g_string_append (text, _(", selected"));
          g_string_append_c (text, '.');
        }
    }
  g_string_append_c (text, ' ');
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u symbol selected.", "%u symbols selected.",
                                             self->n_selected), self->n_selected);
  return g_string_free (text, FALSE);
}

static void
update_accessible (OdoriTimeline *self)
{
  g_autofree char *text = odori_timeline_dup_focus_description (self);

  if (g_strcmp0 (text, self->a11y_description) == 0)
    return;
  g_free (self->a11y_description);
  self->a11y_description = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->a11y_description,
                                  -1);
}

/* ---------------------------------------------------------------------------------- */
/* Keyboard                                                                           */

static void
focus_symbol_at_playhead (OdoriTimeline *self,
                          gboolean       select)
{
  OdoriScorePart *part = self->focus_part >= 0 ? get_part (self, self->focus_part) : NULL;
  guint i;

  self->focus_start = 0;
  if (part != NULL && self->document != NULL)
    {
      i = odori_score_part_lower_bound (part, odori_document_get_frame (self->document) + 1);
      if (i > 0)
        self->focus_start = symbol_at_index (part, i - 1)->start;
      else if (part->symbols->len > 0)
        self->focus_start = symbol_at_index (part, 0)->start;
    }
  if (select && self->focus_start != 0)
    {
      sel_clear (self);
      sel_add (self, self->focus_part, self->focus_start);
    }
  if (self->focus_start != 0)
    odori_timeline_scroll_to (self, self->focus_part, self->focus_start);
  selection_changed (self);
}

static void
focus_track_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  int n = (int) n_parts (self);

  if (n == 0)
    return;
  self->focus_part = CLAMP (self->focus_part + g_variant_get_int32 (param), 0, n - 1);
  odori_timeline_scroll_to (self, self->focus_part, self->focus_start ? self->focus_start : 1);
  focus_symbol_at_playhead (self, FALSE);
}

static void
focus_symbol_action (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  OdoriScorePart *part;
  int delta;
  gboolean extend;
  int i;

  g_variant_get (param, "(ib)", &delta, &extend);
  if (self->focus_part < 0 || (part = get_part (self, self->focus_part)) == NULL || part->symbols->len == 0)
    return;
  if (self->focus_start == 0)
    {
      focus_symbol_at_playhead (self, !extend);
      if (extend && self->focus_start != 0)
        odori_timeline_select (self, self->focus_part, self->focus_start, ODORI_TIMELINE_SELECT_ADD);
      return;
    }
  i = odori_score_part_find_symbol (part, self->focus_start);
  i = CLAMP (i + delta, 0, (int) part->symbols->len - 1);
  odori_timeline_select (self, self->focus_part, symbol_at_index (part, i)->start,
                         extend ? ODORI_TIMELINE_SELECT_ADD : ODORI_TIMELINE_SELECT_REPLACE);
  odori_timeline_scroll_to (self, self->focus_part, self->focus_start);
}

static void
select_at_playhead_action (GtkWidget  *widget,
                           const char *name,
                           GVariant   *param)
{
  focus_symbol_at_playhead (ODORI_TIMELINE (widget), TRUE);
}

static void
toggle_focused_action (GtkWidget  *widget,
                       const char *name,
                       GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (self->focus_part >= 0 && self->focus_start != 0)
    odori_timeline_select (self, self->focus_part, self->focus_start, ODORI_TIMELINE_SELECT_TOGGLE);
}

static void
nudge_action (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  int delta = g_variant_get_int32 (param);

  if (g_str_equal (name, "timeline.nudge-seconds"))
    delta *= (int) fps (self);
  odori_timeline_move_selection (self, delta, NULL);
}

static void
edit_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (g_str_equal (name, "timeline.delete"))
    odori_timeline_delete_selection (self);
  else if (g_str_equal (name, "timeline.copy"))
    odori_timeline_copy_selection (self);
  else if (g_str_equal (name, "timeline.cut"))
    odori_timeline_cut_selection (self);
  else if (g_str_equal (name, "timeline.paste"))
    odori_timeline_paste (self, NULL);
  else if (g_str_equal (name, "timeline.duplicate"))
    odori_timeline_duplicate_selection (self, NULL);
  else if (g_str_equal (name, "timeline.select-all"))
    odori_timeline_select_all (self);
  else if (g_str_equal (name, "timeline.unselect-all"))
    odori_timeline_unselect_all (self);
  else if (g_str_equal (name, "timeline.remove-track") && self->focus_part >= 0)
    odori_timeline_remove_track (self, self->focus_part, NULL);
}

static void
zoom_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (g_str_equal (name, "timeline.zoom-in"))
    odori_timeline_zoom (self, 1.5);
  else if (g_str_equal (name, "timeline.zoom-out"))
    odori_timeline_zoom (self, 1 / 1.5);
  else
    odori_timeline_zoom_fit (self);
}

/* Escape empties the selection; with nothing selected it goes on to the window (back
 * to the dance from a preview). */
static gboolean
escape_cb (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (self->mode == MODE_MOVE)
    {
      _odori_timeline_pointer_cancel (self);
      return TRUE;
    }
  if (self->n_selected == 0)
    return FALSE;
  odori_timeline_unselect_all (self);
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* Following the document                                                             */

static void
seam_clear (Seam *seam)
{
  g_clear_pointer (&seam->from, g_free);
  g_clear_pointer (&seam->to, g_free);
}

guint
_odori_timeline_refresh_seams (OdoriTimeline *self)
{
  GArray *seams;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);

  g_clear_handle_id (&self->seams_idle, g_source_remove);
  g_array_set_size (self->seams, 0);
  seams = self->document ? odori_document_get_seams (self->document) : NULL;
  for (guint k = 0; seams != NULL && k < seams->len; k++)
    {
      const OdoriSeam *from = &g_array_index (seams, OdoriSeam, k);
      Seam seam = { from->part, from->frame, from->jump_deg, from->clip_max_deg,
                    g_strdup (from->from), g_strdup (from->to) };

      g_array_append_val (self->seams, seam);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SEAMS_CHANGED], 0);
  return self->seams->len;
}

gboolean
odori_timeline_get_seam (OdoriTimeline  *self,
                         guint           track,
                         guint           start,
                         double         *jump,
                         double         *clip,
                         const char    **from)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  for (guint k = 0; k < self->seams->len; k++)
    {
      const Seam *seam = &g_array_index (self->seams, Seam, k);

      if (seam->part == track && seam->frame == start)
        {
          if (jump != NULL)
            *jump = seam->jump;
          if (clip != NULL)
            *clip = seam->clip;
          if (from != NULL)
            *from = seam->from;
          return TRUE;
        }
    }
  return FALSE;
}

/* The seam report costs a pass over the dance: it is asked for once things settle,
 * not at every step of a drag. */
static gboolean
seams_idle_cb (gpointer data)
{
  OdoriTimeline *self = data;

  self->seams_idle = 0;
  if (self->mode != MODE_MOVE)
    _odori_timeline_refresh_seams (self);
  else
    self->seams_idle = g_timeout_add_full (G_PRIORITY_LOW, 150, seams_idle_cb, self, NULL);
  return G_SOURCE_REMOVE;
}

static void
on_motion_changed_cb (OdoriTimeline *self)
{
  if (self->seams_idle == 0)
    self->seams_idle = g_timeout_add_full (G_PRIORITY_LOW, 100, seams_idle_cb, self, NULL);
  update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_score_changed_cb (OdoriTimeline *self)
{
  OdoriScore *score = get_score (self);
  guint n = n_parts (self);

  if (score != self->score)
    {
      /* Another score: nothing of the old one's view carries over. */
      g_clear_pointer (&self->score, odori_score_unref);
      self->score = score ? odori_score_ref (score) : NULL;
      sel_clear (self);
      self->focus_part = n > 0 ? 0 : -1;
      self->focus_start = 0;
      drop_cache (self);
      g_array_set_size (self->seams, 0);
      odori_timeline_zoom_fit (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      selection_changed (self);
    }
  else if (self->mode != MODE_MOVE)
    sel_validate (self);
  if (n != self->shown_parts)
    {
      self->shown_parts = n;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  update_adjustments (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_index_changed_cb (OdoriTimeline *self)
{
  drop_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* During playback the view follows the playhead a page at a time. */
static void
on_frame_changed_cb (OdoriTimeline *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double x;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->document == NULL || !odori_document_get_playing (self->document) || self->mode != MODE_NONE ||
      self->hadjustment == NULL)
    return;
  x = odori_timeline_x_for_frame (self, odori_document_get_frame (self->document));
  if (x < HEADER_WIDTH || x > width - 16)
    gtk_adjustment_set_value (self->hadjustment, hvalue (self) + x - HEADER_WIDTH - (width - HEADER_WIDTH) * 0.05);
}

static void
on_queue_draw_cb (OdoriTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------------------- */
/* GtkWidget, GtkScrollable, GObject                                                  */

static void
odori_timeline_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = HEADER_WIDTH + 120;
      *natural = HEADER_WIDTH + 720;
    }
  else
    {
      *minimum = RULER_HEIGHT + ROW_HEIGHT;
      *natural = RULER_HEIGHT + MAX (n_parts (self), 1) * ROW_HEIGHT + 4;
    }
}

static void
odori_timeline_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if ((self->fit_pending || (self->auto_fit && width != self->fit_width)) && width > HEADER_WIDTH)
    odori_timeline_zoom_fit (self);
  update_adjustments (self);
}

static void
odori_timeline_system_setting_changed (GtkWidget       *widget,
                                       GtkSystemSetting setting)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  /* Fonts changed: the cached labels go. */
  drop_cache (self);
  GTK_WIDGET_CLASS (odori_timeline_parent_class)->system_setting_changed (widget, setting);
}

static gboolean
odori_timeline_focus (GtkWidget        *widget,
                      GtkDirectionType  direction)
{
  /* One tab stop: arrows move inside. */
  if (gtk_widget_is_focus (widget))
    return FALSE;
  return gtk_widget_grab_focus (widget);
}

static void
set_adjustment (OdoriTimeline  *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment)
{
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_object_unref (*slot);
    }
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (on_queue_draw_cb), self);
  update_adjustments (self);
}

static void
odori_timeline_dispose (GObject *object)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  g_clear_handle_id (&self->seams_idle, g_source_remove);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->undo_signals);
  g_clear_object (&self->undo);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_timeline_parent_class)->dispose (object);
}

static void
odori_timeline_finalize (GObject *object)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  g_clear_pointer (&self->score, odori_score_unref);
  g_clear_pointer (&self->symbols, g_hash_table_unref);
  g_clear_pointer (&self->selection, g_ptr_array_unref);
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  g_clear_pointer (&self->drag_items, g_array_unref);
  g_clear_pointer (&self->snap_frames, g_array_unref);
  g_clear_pointer (&self->seams, g_array_unref);
  g_free (self->drop_symbol);
  g_free (self->drop_refusal);
  g_free (self->a11y_description);
  G_OBJECT_CLASS (odori_timeline_parent_class)->finalize (object);
}

static void
odori_timeline_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_UNDO:
      g_value_set_object (value, self->undo);
      break;
    case PROP_TIME_UNITS:
      g_value_set_int (value, self->units);
      break;
    case PROP_SNAP:
      g_value_set_boolean (value, self->snap);
      break;
    case PROP_COLOR_BY:
      g_value_set_string (value, self->color_by == ODORI_TIMELINE_COLOR_BY_CLASS ? "class" : "show");
      break;
    case PROP_PIXELS_PER_FRAME:
      g_value_set_double (value, self->ppf);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_timeline_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_UNDO:
      odori_timeline_set_undo (self, g_value_get_object (value));
      break;
    case PROP_TIME_UNITS:
      odori_timeline_set_time_units (self, g_value_get_int (value));
      break;
    case PROP_SNAP:
      odori_timeline_set_snap (self, g_value_get_boolean (value));
      break;
    case PROP_COLOR_BY:
      odori_timeline_set_color_by (self, g_strcmp0 (g_value_get_string (value), "class") == 0
                                         ? ODORI_TIMELINE_COLOR_BY_CLASS : ODORI_TIMELINE_COLOR_BY_SHOW);
      break;
    case PROP_PIXELS_PER_FRAME:
      odori_timeline_set_pixels_per_frame (self, g_value_get_double (value), HEADER_WIDTH);
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_timeline_scrollable_init (GtkScrollableInterface *iface)
{
}

static void
odori_timeline_class_init (OdoriTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *edit_actions[] = {
    "timeline.delete", "timeline.copy", "timeline.cut", "timeline.paste", "timeline.duplicate",
    "timeline.select-all", "timeline.unselect-all", "timeline.remove-track",
  };

  object_class->dispose = odori_timeline_dispose;
  object_class->finalize = odori_timeline_finalize;
  object_class->get_property = odori_timeline_get_property;
  object_class->set_property = odori_timeline_set_property;
  widget_class->snapshot = odori_timeline_snapshot;
  widget_class->measure = odori_timeline_measure;
  widget_class->size_allocate = odori_timeline_size_allocate;
  widget_class->query_tooltip = odori_timeline_query_tooltip;
  widget_class->system_setting_changed = odori_timeline_system_setting_changed;
  widget_class->focus = odori_timeline_focus;

  properties[PROP_UNDO] =
    g_param_spec_object ("undo", NULL, NULL, ODORI_TYPE_UNDO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME_UNITS] =
    g_param_spec_int ("time-units", NULL, NULL, 0, 2, ODORI_TIME_UNITS_BOTH,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNAP] =
    g_param_spec_boolean ("snap", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_BY] =
    g_param_spec_string ("color-by", NULL, NULL, "show",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PIXELS_PER_FRAME] =
    g_param_spec_double ("pixels-per-frame", NULL, NULL, MIN_PPF, MAX_PPF, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed",
                                             G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST,
                                             0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
  signals[SEAMS_CHANGED] = g_signal_new ("seams-changed",
                                         G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
  /* An edit was refused; the message says why, in the user's words. */
  signals[REFUSED] = g_signal_new ("refused",
                                   G_TYPE_FROM_CLASS (klass),
                                   G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_STRING);

  for (guint i = 0; i < G_N_ELEMENTS (edit_actions); i++)
    gtk_widget_class_install_action (widget_class, edit_actions[i], NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "timeline.focus-track", "i", focus_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.focus-symbol", "(ib)", focus_symbol_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-at-playhead", NULL, select_at_playhead_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-focused", NULL, toggle_focused_action);
  gtk_widget_class_install_action (widget_class, "timeline.nudge", "i", nudge_action);
  gtk_widget_class_install_action (widget_class, "timeline.nudge-seconds", "i", nudge_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.snap", "snap");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "timeline.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "timeline.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "timeline.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "timeline.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK, "timeline.cut", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "timeline.paste", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "timeline.duplicate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "timeline.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.unselect-all", NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_cb, NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.focus-track", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.focus-track", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "timeline.focus-symbol", "(ib)", -1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "timeline.focus-symbol", "(ib)", 1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK | GDK_SHIFT_MASK,
                                       "timeline.focus-symbol", "(ib)", -1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK | GDK_SHIFT_MASK,
                                       "timeline.focus-symbol", "(ib)", 1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.select-at-playhead", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.select-at-playhead", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, GDK_CONTROL_MASK, "timeline.toggle-focused", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK, "timeline.nudge", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK, "timeline.nudge", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.nudge-seconds", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.nudge-seconds", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-fit", NULL);

  gtk_widget_class_set_css_name (widget_class, "odori-timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
odori_timeline_init (OdoriTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  GType drop_types[] = { ODORI_TYPE_LIBRARY_ITEM, G_TYPE_STRING };

  self->ppf = 1.0;
  self->snap = TRUE;
  self->units = ODORI_TIME_UNITS_BOTH;
  self->focus_part = -1;
  self->fit_pending = TRUE;
  self->symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) sym_info_free);
  self->selection = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->seams = g_array_new (FALSE, TRUE, sizeof (Seam));
  g_array_set_clear_func (self->seams, (GDestroyNotify) seam_clear);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end_cb), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (on_drag_cancel_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion_cb), self);
  gtk_widget_add_controller (widget, motion);

  gtk_drop_target_set_gtypes (drop, drop_types, G_N_ELEMENTS (drop_types));
  gtk_drop_target_set_preload (drop, TRUE);
  g_signal_connect (drop, "motion", G_CALLBACK (on_drop_motion_cb), self);
  g_signal_connect (drop, "enter", G_CALLBACK (on_drop_motion_cb), self);
  g_signal_connect (drop, "leave", G_CALLBACK (on_drop_leave_cb), self);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drop));

  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::frame",
                                 G_CALLBACK (on_frame_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::previewing",
                                 G_CALLBACK (on_queue_draw_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "motion-changed",
                                 G_CALLBACK (on_motion_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::index",
                                 G_CALLBACK (on_index_changed_cb), self, G_CONNECT_SWAPPED);
  self->undo_signals = g_signal_group_new (ODORI_TYPE_UNDO);
  g_signal_group_connect_object (self->undo_signals, "edit-done",
                                 G_CALLBACK (on_edit_done_cb), self, G_CONNECT_SWAPPED);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_ROLE_DESCRIPTION, _("timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_MULTI_SELECTABLE, TRUE,
                                  GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS,
                                  "Up Down Alt+Left Alt+Right Control+Left Control+Right Delete Control+C Control+X Control+V Control+D",
                                  -1);
  update_accessible (self);
}

GtkWidget *
odori_timeline_new (void)
{
  return g_object_new (ODORI_TYPE_TIMELINE, NULL);
}

void
odori_timeline_set_undo (OdoriTimeline *self,
                         OdoriUndo     *undo)
{
  OdoriDocument *document;

  g_return_if_fail (ODORI_IS_TIMELINE (self));
  g_return_if_fail (undo == NULL || ODORI_IS_UNDO (undo));

  if (!g_set_object (&self->undo, undo))
    return;
  document = undo ? odori_undo_get_document (undo) : NULL;
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->undo_signals, undo);
  g_signal_group_set_target (self->document_signals, self->document);
  on_score_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNDO]);
}

OdoriUndo *
odori_timeline_get_undo (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);
  return self->undo;
}

OdoriDocument *
odori_timeline_get_document (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);
  return self->document;
}

void
odori_timeline_set_time_units (OdoriTimeline  *self,
                               OdoriTimeUnits  units)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->units == units)
    return;
  self->units = units;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UNITS]);
}

void
odori_timeline_set_default_blend (OdoriTimeline *self,
                                  int            blend)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  self->default_blend = MAX (blend, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
odori_timeline_get_default_blend (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return self->default_blend;
}

gboolean
odori_timeline_get_snap (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  return self->snap;
}

void
odori_timeline_set_snap (OdoriTimeline *self,
                         gboolean       snap)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  snap = !!snap;
  if (self->snap == snap)
    return;
  self->snap = snap;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAP]);
}

void
odori_timeline_set_color_by (OdoriTimeline        *self,
                             OdoriTimelineColorBy  color_by)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->color_by == color_by)
    return;
  self->color_by = color_by;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_BY]);
}
