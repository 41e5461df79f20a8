/* odori-compose.c: one job, a score becomes one motion (the Dance Converter's job), with
 * the seam report and its rule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How it works. Every score part gets, per output frame, a FrameDesc: which clip and
 * clip frame it samples (two of them with a weight inside a blend), and the root offset
 * of each. Descriptors are integer bookkeeping and cheap; transforms are not. An edit
 * recomputes the descriptors of every part, compares them with the previous ones, and
 * recomputes transforms only for the frames whose descriptor changed (or whose anchor,
 * driven by another part, changed). A full compose is the same with every frame dirty.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-compose-private.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-foot-lock.h"
#include "odori-motion-cache.h"

G_DEFINE_QUARK (odori-compose-error-quark, odori_compose_error)

typedef struct
{
  OdoriMotion *motion;  /* the clip's frames at the score's frame time, every segment: */
  guint        first;   /* from this frame of MOTION on (the show itself when it needs no */
  guint        n;       /* resampling nor unit change: a 1-hour capture is not copied) */
  int         *seg;     /* output sensor index -> clip segment, -1 when absent */
  char        *file;    /* the show's file as the index writes it, for messages */
  guint        mark;    /* a derived clip: the last recompose whose symbols used it */
} Clip;

typedef struct
{
  guint       start;    /* 1-based output frame */
  Clip       *clip;
  const char *symbol;   /* borrowed from the score */
  float       d[3];     /* root offset (translation in X and Z) */
  float       yaw;      /* root offset (heading), radians */
  int         blend;    /* the blend into it: -1 the score's; a repeat's copy 0 */
  guint       span;     /* frames it adds to the score's length from START (a symbol's
                         * first copy: r·m; later copies: m) */
} Placed;

typedef struct
{
  Clip  *clip;
  guint  j;             /* 0-based frame of the clip */
  float  d[3];
  float  yaw;
} Sample;

typedef struct
{
  Sample a;             /* the playing (or, inside a blend, outgoing) symbol */
  Sample b;             /* the incoming symbol inside a blend, else zeroed */
  float  w;             /* weight of b */
} FrameDesc;

typedef struct
{
  OdoriScorePart *spart;
  int             anchor;        /* output sensor index of map[0] */
  int             anchor_owner;  /* part driving the anchor, -1 when this part does */
  GArray         *world;         /* int: sensors driven in world space */
  GArray         *rel;           /* int: sensors driven relative to the anchor */
  GArray         *placed;        /* Placed */
  GArray         *prev_placed;   /* Placed, as of the last compose (for diffing) */
  FrameDesc      *desc;          /* n_desc frames, or NULL when it uses the root's */
  guint8         *dirty;
} Part;

struct _OdoriComposer
{
  OdoriScore     *score;
  OdoriIndex     *index;
  OdoriMotionCache *cache;      /* where show files come from, or NULL */
  GHashTable     *files;        /* absolute path -> OdoriMotion (NULL when unreadable) */
  GHashTable     *file_errors;  /* absolute path -> message */
  GHashTable     *clips;        /* "path\nfirst\nlast" -> Clip */
  GHashTable     *symbol_clips; /* symbol -> Clip, a cache over index lookups */
  GHashTable     *derived;      /* "base\nin\nout\nspeed\nmirror" -> Clip: modified clips */
  guint           generation;   /* recomposes so far, for Clip.mark */
  GPtrArray      *sensors;      /* output sensor names */
  GHashTable     *sensor_index; /* name -> index + 1 */
  Part           *parts;
  guint           n_parts;
  guint          *order;        /* dependency order */
  int             root;         /* root part */
  int             root_sensor;  /* the root part's first world-space sensor */
  GArray         *unnamed;      /* int: sensors no part names */
  Clip           *hold_clip;    /* first frame of the index's first show */
  double          frame_time;
  int             blend_override;
  int             blend;
  OdoriRootMatch  match;
  guint           n_frames;
  guint           n_desc;       /* frames the stored descriptors cover */
  char           *plan_key;     /* parts and sensors, to notice structural edits */
  char           *reference;    /* the reference skeleton's show file, or NULL */
  OdoriMotion    *out;
  /* For updates (odori_composer_set_incremental ()): out keeps its root offsets apart
   * (OdoriMotion.root_offsets), so that a frame whose offsets alone changed is done by
   * writing its offset, the transforms left as they are. */
  gboolean        keep_offsets;
  guint8         *follows;      /* per sensor: moves with the root offset */
  FrameDesc      *scratch;      /* descriptors of an update, reused (DESC_BLOCK frames) */
  GPtrArray      *spare_desc;   /* the last plan's descriptor buffers, for the next plan's
                                 * first recompose (fresh pages cost more than the work) */
  guint           changed_from; /* the output frames (1-based) the last recompose wrote; */
  guint           changed_to;   /* none when changed_from > changed_to */
  gboolean        changed_all;  /* it wrote every frame (a full compose) */
  guint64         n_shifted;    /* segment-frames it shifted instead of recomputing */
  guint           lock_from;    /* frames written since the last foot lock (1-based), */
  guint           lock_to;      /* none when lock_from > lock_to, */
  gboolean        lock_all;     /* or every frame */
  GArray         *seams;
  gboolean        seams_valid;
  int             foot_lock_override; /* -1: the score's "# FootLock:" */
  OdoriFootLock  *foot_lock;    /* the legs of out, or NULL */
  OdoriMotion    *locked;       /* out with the feet locked, when foot locking is on */
};

/* Rotation helpers */

static void
yaw_quat (float yaw,
          float q[4])
{
  glm_quatv (q, yaw, (vec3) { 0, 1, 0 });
}

static float
heading (const float q[4])
{
  float v[3];

  odori_quat_rotate (q, (float[3]) { 0, 0, 1 }, v);
  return atan2f (v[0], v[2]);
}

/* Set-up */

static void
clip_free (gpointer data)
{
  Clip *clip = data;

  odori_motion_unref (clip->motion);
  g_free (clip->seg);
  g_free (clip->file);
  g_free (clip);
}

static void
part_clear (Part *part)
{
  g_clear_pointer (&part->world, g_array_unref);
  g_clear_pointer (&part->rel, g_array_unref);
  g_clear_pointer (&part->placed, g_array_unref);
  g_clear_pointer (&part->prev_placed, g_array_unref);
  g_clear_pointer (&part->desc, g_free);
  g_clear_pointer (&part->dirty, g_free);
}

static void
free_plan (OdoriComposer *self)
{
  for (guint p = 0; p < self->n_parts; p++)
    {
      if (self->parts[p].desc != NULL)
        g_ptr_array_add (self->spare_desc, g_steal_pointer (&self->parts[p].desc));
      part_clear (&self->parts[p]);
    }
  g_clear_pointer (&self->parts, g_free);
  g_clear_pointer (&self->order, g_free);
  g_clear_pointer (&self->unnamed, g_array_unref);
  self->n_parts = 0;
  self->n_desc = 0;
}

void
odori_composer_free (OdoriComposer *self)
{
  if (self == NULL)
    return;
  free_plan (self);
  g_clear_pointer (&self->spare_desc, g_ptr_array_unref);
  g_clear_pointer (&self->score, odori_score_unref);
  g_clear_pointer (&self->index, odori_index_unref);
  g_clear_pointer (&self->files, g_hash_table_unref);
  g_clear_pointer (&self->cache, odori_motion_cache_unref);
  g_clear_pointer (&self->file_errors, g_hash_table_unref);
  g_clear_pointer (&self->symbol_clips, g_hash_table_unref);
  g_clear_pointer (&self->derived, g_hash_table_unref);
  g_clear_pointer (&self->clips, g_hash_table_unref);
  g_clear_pointer (&self->sensors, g_ptr_array_unref);
  g_clear_pointer (&self->sensor_index, g_hash_table_unref);
  g_clear_pointer (&self->out, odori_motion_unref);
  g_clear_pointer (&self->follows, g_free);
  g_clear_pointer (&self->scratch, g_free);
  g_clear_pointer (&self->seams, g_array_unref);
  g_clear_pointer (&self->foot_lock, odori_foot_lock_free);
  g_clear_pointer (&self->locked, odori_motion_unref);
  g_free (self->plan_key);
  g_free (self->reference);
  g_free (self);
}

void
odori_seam_clear (OdoriSeam *seam)
{
  g_clear_pointer (&seam->from, g_free);
  g_clear_pointer (&seam->to, g_free);
}

/* Below this, a clip's largest step counts as this: a seam between still clips is rough
 * only when its jump is, in degrees, above twice this. */
#define SEAM_FLOOR_DEG 0.5

/**
 * odori_seam_rank:
 * @seam: a seam of the report
 *
 * Returns: %ODORI_SEAM_ROUGH when the jump is above twice the clips' largest step,
 *   %ODORI_SEAM_NOTICEABLE above 1.25 times, else %ODORI_SEAM_SMOOTH; the step is taken
 *   as at least 0.5°
 */
OdoriSeamRank
odori_seam_rank (const OdoriSeam *seam)
{
  double step;

  g_return_val_if_fail (seam != NULL, ODORI_SEAM_SMOOTH);

  step = MAX (seam->clip_max_deg, SEAM_FLOOR_DEG);
  if (seam->jump_deg > 2 * step)
    return ODORI_SEAM_ROUGH;
  if (seam->jump_deg > 1.25 * step)
    return ODORI_SEAM_NOTICEABLE;
  return ODORI_SEAM_SMOOTH;
}

static const char *
score_name (OdoriComposer *self)
{
  return self->score->path ? self->score->path : "score";
}

static int
sensor_lookup (OdoriComposer *self,
               const char    *name)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (self->sensor_index, name)) - 1;
}

static int
sensor_add (OdoriComposer *self,
            const char    *name)
{
  int i = sensor_lookup (self, name);

  if (i >= 0)
    return i;
  g_ptr_array_add (self->sensors, g_strdup (name));
  i = self->sensors->len - 1;
  g_hash_table_insert (self->sensor_index, g_strdup (name), GINT_TO_POINTER (i + 1));
  return i;
}

/* self->files holds NULL for a show file that failed to load. */
static void
motion_unref_nullable (gpointer motion)
{
  if (motion != NULL)
    odori_motion_unref (motion);
}

/* Loads (once) the show file at PATH. */
static OdoriMotion *
load_file (OdoriComposer *self,
           const char    *path)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion;

  if (g_hash_table_contains (self->files, path))
    return g_hash_table_lookup (self->files, path);

  if (self->cache != NULL)
    motion = odori_motion_cache_load (self->cache, path, &error);
  else
    motion = odori_format_load_motion (path, NULL, &error);
  g_hash_table_insert (self->files, g_strdup (path), motion);
  if (motion == NULL)
    g_hash_table_insert (self->file_errors, g_strdup (path), g_strdup (error->message));
  return motion;
}

static OdoriIndexShow *first_show (OdoriIndex *index);

/* The show file of SYM, or NULL if the index does not know it. */
static char *
symbol_show_path (OdoriComposer    *self,
                  OdoriScoreSymbol *sym)
{
  OdoriIndexMotion *im = odori_index_lookup (self->index, sym->symbol, NULL);

  return im != NULL ? odori_index_show_path (self->index, im->show) : NULL;
}

/* The reference skeleton's file (DESIGN.md, "Composition"): the show file of the root
 * track's first symbol; else of the first symbol in score order; else the index's first
 * show (the one a root track without symbols holds). ROOT is the root part's index, or -1
 * when it is not known yet. */
static char *
reference_show_path (OdoriComposer *self,
                     int            root)
{
  OdoriScore *score = self->score;
  OdoriIndexShow *show;

  if (root >= 0 && (guint) root < score->parts->len)
    {
      OdoriScorePart *spart = g_ptr_array_index (score->parts, root);

      for (guint i = 0; i < spart->symbols->len; i++)
        {
          char *path = symbol_show_path (self, &g_array_index (spart->symbols, OdoriScoreSymbol, i));

          if (path != NULL)
            return path;
        }
    }
  for (guint p = 0; p < score->parts->len; p++)
    {
      OdoriScorePart *spart = g_ptr_array_index (score->parts, p);

      for (guint i = 0; i < spart->symbols->len; i++)
        {
          char *path = symbol_show_path (self, &g_array_index (spart->symbols, OdoriScoreSymbol, i));

          if (path != NULL)
            return path;
        }
    }
  show = first_show (self->index);
  return show != NULL ? odori_index_show_path (self->index, show) : NULL;
}

/* The output's sensors start with the reference skeleton's, in its file's order; a
 * sensor that only another show file has is never written, so a foreign show added to
 * the library cannot change the scores that do not use it. */
static void
collect_sensors (OdoriComposer *self,
                 const char    *reference)
{
  OdoriMotion *motion = reference != NULL ? load_file (self, reference) : NULL;

  for (guint k = 0; motion != NULL && k < motion->n_segments; k++)
    sensor_add (self, motion->segments[k].name);
}

static OdoriIndexShow *
first_show (OdoriIndex *index)
{
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      if (klass->shows->len > 0)
        return g_ptr_array_index (klass->shows, 0);
    }
  return NULL;
}

static double
inches_per (OdoriUnit unit)
{
  switch (unit)
    {
    case ODORI_UNIT_CENTIMETERS: return 1.0 / 2.54;
    case ODORI_UNIT_MILLIMETERS: return 1.0 / 25.4;
    case ODORI_UNIT_METERS: return 100.0 / 2.54;
    case ODORI_UNIT_INCHES:
    default: return 1.0;
    }
}

/* The composed motion is in BVA's usual units (inches, scale in percent) so that clips
 * from files in other units mix: BVA lengths are converted, BVH (which states no unit)
 * keeps its numbers, and BVH's scale factor 1 becomes 100 percent. */
static void
normalise_units (OdoriMotion *motion)
{
  for (guint s = 0; s < motion->n_segments; s++)
    {
      OdoriSegment *seg = &motion->segments[s];
      double pos_factor = 1.0, scale_factor = 1.0;

      if (seg->n_fields == 0)
        scale_factor = 100.0;
      else
        for (guint f = 0; f < seg->n_fields; f++)
          if (seg->fields[f] == ODORI_FIELD_XTRAN)
            pos_factor = inches_per (seg->units[f]);
      if (pos_factor == 1.0 && scale_factor == 1.0)
        continue;
      for (guint fr = 0; fr < motion->n_frames; fr++)
        {
          OdoriTransform *t = odori_motion_get (motion, fr, s);

          for (int k = 0; k < 3; k++)
            {
              t->position[k] *= (float) pos_factor;
              t->scale[k] *= (float) scale_factor;
            }
        }
    }
}

/* TRUE when normalise_units() would change nothing. */
static gboolean
units_canonical (const OdoriMotion *motion)
{
  for (guint s = 0; s < motion->n_segments; s++)
    {
      const OdoriSegment *seg = &motion->segments[s];

      if (seg->n_fields == 0)
        return FALSE;
      for (guint f = 0; f < seg->n_fields; f++)
        if (seg->fields[f] == ODORI_FIELD_XTRAN && inches_per (seg->units[f]) != 1.0)
          return FALSE;
    }
  return TRUE;
}

static inline OdoriTransform *
clip_get (const Clip *clip,
          guint       j,
          int         seg)
{
  return odori_motion_get (clip->motion, clip->first + j, seg);
}

/* The one rule for a clip's length: FIRST..LAST of MOTION as resampled to FRAME_TIME. */
static guint
clip_frames (const OdoriMotion *motion,
             guint              first,
             guint              last,
             double             frame_time)
{
  return odori_motion_resample_n_frames (motion, last - first + 1, frame_time);
}

guint
odori_compose_clip_frames (const OdoriIndexMotion *im,
                           const OdoriMotion      *show,
                           double                  frame_time)
{
  g_return_val_if_fail (im != NULL, 1);
  g_return_val_if_fail (frame_time > 0, 1);

  if (im->first > im->last)
    return 1;
  if (show == NULL)
    return im->last - im->first + 1;
  return clip_frames (show, im->first, im->last, frame_time);
}

static Clip *
get_clip (OdoriComposer *self,
          const char    *path,
          OdoriMotion   *motion,
          guint          first,
          guint          last,
          GError       **error)
{
  g_autofree char *key = g_strdup_printf ("%s\n%u\n%u", path, first, last);
  Clip *clip = g_hash_table_lookup (self->clips, key);

  if (clip != NULL)
    return clip;

  clip = g_new0 (Clip, 1);
  clip->n = clip_frames (motion, first, last, self->frame_time);
  if (fabs (motion->frame_time - self->frame_time) <= 1e-9 * self->frame_time &&
      units_canonical (motion))
    {
      /* the show's own frames */
      clip->motion = odori_motion_ref (motion);
      clip->first = first - 1;
    }
  else
    {
      clip->motion = odori_motion_resample (motion, first, last, self->frame_time, error);
      if (clip->motion == NULL)
        {
          g_free (clip);
          return NULL;
        }
      g_assert (clip->motion->n_frames == clip->n);
      normalise_units (clip->motion);
    }
  clip->seg = g_new (int, MAX (self->sensors->len, 1));
  for (guint s = 0; s < self->sensors->len; s++)
    clip->seg[s] = odori_motion_find_segment (motion, g_ptr_array_index (self->sensors, s));
  g_hash_table_insert (self->clips, g_steal_pointer (&key), clip);
  return clip;
}

/* Symbol modifiers (DESIGN.md "Symbol modifiers", docs/composition.md) */

/* Name pairs that mirroring swaps: as prefixes, then as suffixes. */
static const char *const mirror_prefixes[][2] = {
  { "Left", "Right" }, { "L", "R" }, { "l_", "r_" }, { "左", "右" },
};
static const char *const mirror_suffixes[][2] = {
  { "Left", "Right" }, { "L", "R" }, { "_l", "_r" }, { "左", "右" },
};

/* The segment of MOTION that mirrors segment K: the first name the rules make of K's
 * name (after a "namespace:" prefix, as in "mixamorig:LeftArm") that MOTION has; K
 * itself when there is none. */
static int
mirror_segment (const OdoriMotion *motion,
                guint              k)
{
  const char *name = motion->segments[k].name;
  const char *colon = name ? strrchr (name, ':') : NULL;
  const char *base = colon ? colon + 1 : name;
  gsize ns = base - (name ? name : base);
  gsize len;

  if (name == NULL)
    return k;
  len = strlen (base);
  for (int suffix = 0; suffix < 2; suffix++)
    for (guint i = 0; i < G_N_ELEMENTS (mirror_prefixes); i++)
      for (int dir = 0; dir < 2; dir++)
        {
          const char *from = suffix ? mirror_suffixes[i][dir] : mirror_prefixes[i][dir];
          const char *to = suffix ? mirror_suffixes[i][!dir] : mirror_prefixes[i][!dir];
          gsize n = strlen (from);
          g_autofree char *other = NULL;
          int found;

          if (len <= n)
            continue;
          if (!suffix && strncmp (base, from, n) == 0)
            other = g_strdup_printf ("%.*s%s%s", (int) ns, name, to, base + n);
          else if (suffix && strcmp (base + len - n, from) == 0)
            other = g_strdup_printf ("%.*s%.*s%s", (int) ns, name, (int) (len - n), base, to);
          else
            continue;
          found = odori_motion_find_segment (motion, other);
          if (found >= 0 && (guint) found != k)
            return found;
        }
  return k;
}

/* BASE as MODS shape it, before repeats: frames in..out, played at the speed (slerp /
 * lerp between the two nearest frames), mirrored. Cached (one clip for every copy and
 * every symbol with the same shape); BASE itself when they change nothing. */
static Clip *
derive_clip (OdoriComposer         *self,
             Clip                  *base,
             const OdoriSymbolMods *mods,
             GError               **error)
{
  guint a, b;
  guint n_trim = odori_symbol_mods_trim (mods, base->n, &a, &b);
  guint m = odori_symbol_mods_copy_frames (mods, base->n);
  double speed = odori_symbol_mods_get_speed (mods);
  gboolean mirror = mods->mirror != FALSE;
  const OdoriMotion *src = base->motion;
  g_autofree char *key = NULL;
  g_autofree int *from_seg = NULL;
  g_autofree guint8 *used = NULL;
  Clip *clip;

  if (n_trim == base->n && speed == 1.0 && !mirror)
    return base;
  key = g_strdup_printf ("%p\n%u\n%u\n%.17g\n%d", (void *) base, a, b, speed, mirror);
  clip = g_hash_table_lookup (self->derived, key);
  if (clip != NULL)
    return clip;

  clip = g_new0 (Clip, 1);
  clip->seg = g_memdup2 (base->seg, sizeof (int) * MAX (self->sensors->len, 1));
  clip->file = g_strdup (base->file);
  if (speed == 1.0 && !mirror)
    {
      /* a trim alone is a window on the same frames */
      clip->motion = odori_motion_ref (base->motion);
      clip->first = base->first + a - 1;
      clip->n = n_trim;
      g_hash_table_insert (self->derived, g_steal_pointer (&key), clip);
      return clip;
    }

  clip->motion = odori_motion_new (src->n_segments, m, self->frame_time, error);
  if (clip->motion == NULL)
    {
      g_free (clip->seg);
      g_free (clip->file);
      g_free (clip);
      return NULL;
    }
  clip->first = 0;
  clip->n = m;
  /* only the segments the output uses are computed; each reads its mirror's data */
  used = g_new0 (guint8, MAX (src->n_segments, 1));
  from_seg = g_new (int, MAX (src->n_segments, 1));
  for (guint s = 0; s < self->sensors->len; s++)
    if (base->seg[s] >= 0)
      used[base->seg[s]] = 1;
  for (guint k = 0; k < src->n_segments; k++)
    {
      odori_motion_set_segment_name (clip->motion, k, src->segments[k].name);
      from_seg[k] = mirror && used[k] ? mirror_segment (src, k) : (int) k;
    }

  for (guint j = 0; j < m; j++)
    {
      double t = MIN (j * speed, (double) (n_trim - 1));
      guint i0 = (guint) floor (t);
      guint i1 = MIN (i0 + 1, n_trim - 1);
      float u = (float) (t - i0);
      guint f0 = base->first + a - 1 + i0, f1 = base->first + a - 1 + i1;

      for (guint k = 0; k < src->n_segments; k++)
        {
          const OdoriTransform *ta, *tb;
          OdoriTransform *out = odori_motion_get (clip->motion, j, k);

          if (!used[k])
            continue;
          ta = odori_motion_get (src, f0, from_seg[k]);
          tb = odori_motion_get (src, f1, from_seg[k]);
          if (u == 0 || i0 == i1)
            *out = *ta;
          else
            {
              for (int c = 0; c < 3; c++)
                {
                  out->position[c] = ta->position[c] + u * (tb->position[c] - ta->position[c]);
                  out->scale[c] = ta->scale[c] + u * (tb->scale[c] - ta->scale[c]);
                }
              odori_quat_slerp (ta->rotation, tb->rotation, u, out->rotation);
            }
          if (mirror)
            {
              /* through the sagittal plane: p = (−x, y, z), (w, x, y, z) -> (w, x, −y, −z) */
              out->position[0] = -out->position[0];
              out->rotation[1] = -out->rotation[1];
              out->rotation[2] = -out->rotation[2];
            }
        }
    }
  g_hash_table_insert (self->derived, g_steal_pointer (&key), clip);
  return clip;
}

/* Derived clips no symbol plays any more (after edits) are dropped. Every descriptor and
 * every remembered symbol refers to the clips of the current symbols only, so a freed
 * clip's address can never be mistaken for a live one. */
static void
prune_derived (OdoriComposer *self)
{
  GHashTableIter iter;
  Clip *clip;

  if (g_hash_table_size (self->derived) == 0)
    return;
  self->generation++;
  for (guint p = 0; p < self->n_parts; p++)
    {
      GArray *placed = self->parts[p].placed;

      for (guint i = 0; i < placed->len; i++)
        g_array_index (placed, Placed, i).clip->mark = self->generation;
    }
  g_hash_table_iter_init (&iter, self->derived);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &clip))
    if (clip->mark != self->generation)
      g_hash_table_iter_remove (&iter);
}

/* Parts, their sensors and the reference skeleton's file: what build_plan () depends
 * on. ROOT: the root part of the current plan (the part lists decide it). */
static char *
make_plan_key (OdoriComposer *self,
               int            root)
{
  OdoriScore *score = self->score;
  g_autofree char *reference = reference_show_path (self, root);
  GString *key = g_string_new (NULL);

  for (guint p = 0; p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);

      g_string_append_printf (key, "%s:", part->code);
      for (guint s = 0; part->sensors && part->sensors[s]; s++)
        g_string_append_printf (key, "%s,", part->sensors[s]);
      g_string_append_c (key, '\n');
    }
  g_string_append_printf (key, "reference:%s\n", reference ? reference : "");
  return g_string_free (key, FALSE);
}

static void
int_array_add (GArray *array,
               int     value)
{
  g_array_append_val (array, value);
}

/* Anchors, driven sensors, dependency order, the root part, and sensors in no part. */
static gboolean
build_parts (OdoriComposer *self,
             GError       **error)
{
  OdoriScore *score = self->score;
  guint n = score->parts->len;
  g_autofree int *owner = NULL;
  g_autofree int *first_namer = NULL;
  g_autofree guint *indegree = NULL;
  guint n_sorted = 0;

  if (n == 0)
    {
      g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_NO_PARTS,
                   _("%s:1: the score has no parts"), score_name (self));
      return FALSE;
    }

  self->n_parts = n;
  self->parts = g_new0 (Part, n);
  for (guint p = 0; p < n; p++)
    {
      OdoriScorePart *spart = g_ptr_array_index (score->parts, p);
      Part *part = &self->parts[p];

      part->spart = spart;
      part->world = g_array_new (FALSE, FALSE, sizeof (int));
      part->rel = g_array_new (FALSE, FALSE, sizeof (int));
      part->placed = g_array_new (FALSE, TRUE, sizeof (Placed));
      part->prev_placed = g_array_new (FALSE, TRUE, sizeof (Placed));
      part->anchor = -1;
      part->anchor_owner = -1;
      for (guint s = 0; spart->sensors && spart->sensors[s]; s++)
        sensor_add (self, spart->sensors[s]);
    }

  owner = g_new (int, self->sensors->len);
  first_namer = g_new (int, self->sensors->len);
  for (guint s = 0; s < self->sensors->len; s++)
    owner[s] = first_namer[s] = -1;

#define DRIVE(p, s, world_space)                                                         \
  G_STMT_START {                                                                         \
    if (owner[s] >= 0 && owner[s] != (int) (p))                                          \
      {                                                                                  \
        g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_DOUBLE_DRIVEN,      \
                     _("%s:%u: sensor \"%s\" of part %s is already driven by part %s"),  \
                     score_name (self), self->parts[p].spart->line,                      \
                     (char *) g_ptr_array_index (self->sensors, s),                      \
                     self->parts[p].spart->code, self->parts[owner[s]].spart->code);     \
        return FALSE;                                                                    \
      }                                                                                  \
    if (owner[s] < 0)                                                                    \
      {                                                                                  \
        owner[s] = (p);                                                                  \
        int_array_add ((world_space) ? self->parts[p].world : self->parts[p].rel, (s));  \
      }                                                                                  \
  } G_STMT_END

  /* Driven sensors first: map[1..], or map[0] of a one-sensor part. */
  for (guint p = 0; p < n; p++)
    {
      OdoriScorePart *spart = self->parts[p].spart;
      guint len = spart->sensors ? g_strv_length (spart->sensors) : 0;

      if (len == 0)
        continue;
      self->parts[p].anchor = sensor_lookup (self, spart->sensors[0]);
      if (first_namer[self->parts[p].anchor] < 0)
        first_namer[self->parts[p].anchor] = p;
      if (len == 1)
        DRIVE (p, self->parts[p].anchor, TRUE);
      for (guint s = 1; s < len; s++)
        {
          int idx = sensor_lookup (self, spart->sensors[s]);

          if (first_namer[idx] < 0)
            first_namer[idx] = p;
          DRIVE (p, idx, FALSE);
        }
    }

  /* A sensor that is only ever an anchor: the first part naming it drives it in world
   * space. */
  for (guint p = 0; p < n; p++)
    {
      int a = self->parts[p].anchor;

      if (a >= 0 && owner[a] < 0)
        DRIVE ((guint) first_namer[a], a, TRUE);
    }
#undef DRIVE

  for (guint p = 0; p < n; p++)
    {
      int a = self->parts[p].anchor;

      if (a >= 0 && owner[a] != (int) p)
        self->parts[p].anchor_owner = owner[a];
    }

  /* Dependency order (Kahn), stable in score order. */
  indegree = g_new0 (guint, n);
  for (guint p = 0; p < n; p++)
    if (self->parts[p].anchor_owner >= 0)
      indegree[p] = 1;
  self->order = g_new (guint, n);
  while (n_sorted < n)
    {
      gboolean progress = FALSE;

      for (guint p = 0; p < n; p++)
        {
          gboolean taken = FALSE;

          for (guint k = 0; k < n_sorted; k++)
            taken |= self->order[k] == p;
          if (taken)
            continue;
          if (self->parts[p].anchor_owner < 0 ||
              indegree[self->parts[p].anchor_owner] == G_MAXUINT)
            {
              self->order[n_sorted++] = p;
              indegree[p] = G_MAXUINT;  /* marks "placed" */
              progress = TRUE;
            }
        }
      if (!progress)
        {
          for (guint p = 0; p < n; p++)
            if (indegree[p] != G_MAXUINT)
              {
                g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_CYCLE,
                             _("%s:%u: the anchor of part %s (\"%s\") depends on itself through other parts"),
                             score_name (self), self->parts[p].spart->line,
                             self->parts[p].spart->code,
                             (char *) g_ptr_array_index (self->sensors, self->parts[p].anchor));
                return FALSE;
              }
        }
    }

  self->root = -1;
  for (guint p = 0; p < n && self->root < 0; p++)
    if (self->parts[p].world->len > 0)
      self->root = p;
  g_assert (self->root >= 0);
  self->root_sensor = g_array_index (self->parts[self->root].world, int, 0);

  self->unnamed = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint s = 0; s < self->sensors->len; s++)
    if (owner[s] < 0)
      int_array_add (self->unnamed, s);
  return TRUE;
}

/* A score sensor must exist in the clip's file (cached clips are checked per part: one
 * symbol may be used on tracks with different sensors). IDX: the output index of each of
 * the part's sensors (-1 when it has none), looked up once per part (sensors_of ()). */
static gboolean
check_sensors (OdoriComposer    *self,
               OdoriScorePart   *spart,
               const int        *idx,
               OdoriScoreSymbol *sym,
               Clip             *clip,
               GError          **error)
{
  for (guint s = 0; spart->sensors && spart->sensors[s]; s++)
    {
      if (idx[s] < 0 || clip->seg[idx[s]] < 0)
        {
          g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_MISSING_SENSOR,
                       _("%s:%u: sensor \"%s\" of part %s is not in %s (symbol %s)"),
                       score_name (self), sym->line, spart->sensors[s], spart->code,
                       clip->file, sym->symbol);
          return FALSE;
        }
    }
  return TRUE;
}

/* The output index of each of SPART's sensors, -1 for a name no part maps, in IDX
 * (resized to them): check_sensors () runs for every symbol at every edit, and looking
 * the names up there was more than half of a root-track move's update. */
static const int *
sensors_of (OdoriComposer  *self,
            OdoriScorePart *spart,
            GArray         *idx)
{
  g_array_set_size (idx, 0);
  for (guint s = 0; spart->sensors && spart->sensors[s]; s++)
    {
      int i = sensor_lookup (self, spart->sensors[s]);

      g_array_append_val (idx, i);
    }
  return (const int *) (gpointer) idx->data;
}

static Clip *
resolve_symbol (OdoriComposer    *self,
                OdoriScorePart   *spart,
                const int        *idx,
                OdoriScoreSymbol *sym,
                GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = NULL;
  OdoriIndexMotion *im;
  OdoriMotion *motion;
  Clip *clip;

  im = odori_index_lookup (self->index, sym->symbol, &local_error);
  if (im == NULL)
    {
      g_set_error (error, ODORI_COMPOSE_ERROR,
                   g_error_matches (local_error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_AMBIGUOUS)
                     ? ODORI_COMPOSE_ERROR_AMBIGUOUS : ODORI_COMPOSE_ERROR_UNKNOWN_SYMBOL,
                   "%s:%u: %s", score_name (self), sym->line, local_error->message);
      return NULL;
    }
  path = odori_index_show_path (self->index, im->show);
  motion = load_file (self, path);
  if (motion == NULL)
    {
      g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_FILE,
                   "%s:%u: symbol %s: %s", score_name (self), sym->line, sym->symbol,
                   (char *) g_hash_table_lookup (self->file_errors, path));
      return NULL;
    }
  if (im->first < 1 || im->first > im->last || im->last > motion->n_frames)
    {
      g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_RANGE,
                   _("%s:%u: symbol %s: frames %u-%u are beyond the %u frames of %s"),
                   score_name (self), sym->line, sym->symbol, im->first, im->last,
                   motion->n_frames, im->show->file);
      return NULL;
    }
  clip = get_clip (self, path, motion, im->first, im->last, error);
  if (clip == NULL)
    return NULL;
  if (clip->file == NULL)
    clip->file = g_strdup (im->show->file);
  if (!check_sensors (self, spart, idx, sym, clip, error))
    return NULL;
  return clip;
}

/* Places SYM, whose motion is CLIP, on PART: its modifiers shape the clip, and each
 * repeat is one more placed copy (a switch, blend 0) until NEXT_START cuts them. */
static gboolean
place_symbol (OdoriComposer    *self,
              Part             *part,
              OdoriScoreSymbol *sym,
              Clip             *clip,
              guint             next_start,
              GError          **error)
{
  const OdoriSymbolMods *mods = &sym->mods;
  Placed placed = { 0 };
  guint m, r, span;
  Clip *shaped = clip;

  if (odori_symbol_mods_is_none (mods))
    {
      /* the common case, kept cheap: every edit places every symbol again */
      placed.start = sym->start;
      placed.symbol = sym->symbol;
      placed.clip = clip;
      placed.blend = -1;
      placed.span = clip->n;
      g_array_append_val (part->placed, placed);
      return TRUE;
    }
  else
    {
      if (mods->in > clip->n || mods->out > clip->n)
        {
          gboolean in = mods->in > clip->n;

          g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_RANGE,
                       /* Translators: "score.dds:12: symbol A1: out=60 is beyond its
                        * motion, which lasts 40 frames" */
                       _("%s:%u: symbol %s: %s=%u is beyond its motion, which lasts %u frames"),
                       score_name (self), sym->line, sym->symbol, in ? "in" : "out",
                       in ? mods->in : mods->out, clip->n);
          return FALSE;
        }
      shaped = derive_clip (self, clip, mods, error);
      if (shaped == NULL)
        {
          g_prefix_error (error, "%s:%u: symbol %s: ", score_name (self), sym->line, sym->symbol);
          return FALSE;
        }
    }
  m = odori_symbol_mods_copy_frames (mods, clip->n);
  r = odori_symbol_mods_get_repeat (mods);
  span = odori_symbol_mods_length (mods, clip->n);
  g_assert (shaped->n == m);

  placed.symbol = sym->symbol;
  placed.clip = shaped;
  for (guint k = 0; k < r; k++)
    {
      guint64 start = sym->start + (guint64) k * m;

      /* a copy that would start at or after the next symbol is not played */
      if (k > 0 && (start >= next_start || start > G_MAXINT))
        break;
      placed.start = (guint) start;
      placed.blend = k > 0 ? 0 : mods->has_blend ? (int) mods->blend : -1;
      placed.span = k > 0 ? m : span;
      g_array_append_val (part->placed, placed);
    }
  return TRUE;
}

/* Resolves every symbol into a clip; checks sensors and ranges. */
static gboolean
place_symbols (OdoriComposer *self,
               GError       **error)
{
  g_autoptr(GArray) idx_array = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint p = 0; p < self->n_parts; p++)
    {
      Part *part = &self->parts[p];
      OdoriScorePart *spart = part->spart;
      const int      *idx = sensors_of (self, spart, idx_array);

      g_array_set_size (part->placed, 0);
      for (guint i = 0; i < spart->symbols->len; i++)
        {
          OdoriScoreSymbol *sym = &g_array_index (spart->symbols, OdoriScoreSymbol, i);
          Clip *clip = g_hash_table_lookup (self->symbol_clips, sym->symbol);

          if (clip == NULL)
            {
              clip = resolve_symbol (self, spart, idx, sym, error);
              if (clip == NULL)
                return FALSE;
              g_hash_table_insert (self->symbol_clips, g_strdup (sym->symbol), clip);
            }
          else if (!check_sensors (self, spart, idx, sym, clip, error))
            return FALSE;
          if (!place_symbol (self, part, sym, clip, i + 1 < spart->symbols->len
                             ? g_array_index (spart->symbols, OdoriScoreSymbol, i + 1).start
                             : G_MAXUINT, error))
            return FALSE;
        }
    }

  /* A root part without symbols holds the first frame of the index's first show. */
  if (self->parts[self->root].placed->len == 0)
    {
      Placed placed = { .start = 1, .symbol = NULL, .blend = -1, .span = 1 };

      placed.clip = self->hold_clip;
      if (placed.clip == NULL)
        {
          g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_EMPTY_INDEX,
                       _("%s:%u: part %s has no symbols and the index has no readable show to hold"),
                       score_name (self), self->parts[self->root].spart->line,
                       self->parts[self->root].spart->code);
          return FALSE;
        }
      g_array_append_val (self->parts[self->root].placed, placed);
    }
  return TRUE;
}

static double
choose_frame_time (OdoriComposer *self)
{
  if (self->score->frame_time > 0)
    return self->score->frame_time;

  for (guint p = 0; p < self->score->parts->len; p++)
    {
      OdoriScorePart *spart = g_ptr_array_index (self->score->parts, p);

      for (guint i = 0; i < spart->symbols->len; i++)
        {
          OdoriScoreSymbol *sym = &g_array_index (spart->symbols, OdoriScoreSymbol, i);
          OdoriIndexMotion *im = odori_index_lookup (self->index, sym->symbol, NULL);
          g_autofree char *path = NULL;
          OdoriMotion *motion;

          if (im == NULL)
            continue;
          path = odori_index_show_path (self->index, im->show);
          motion = load_file (self, path);
          if (motion != NULL && motion->frame_time > 0)
            return motion->frame_time;
        }
    }
  {
    OdoriIndexShow *show = first_show (self->index);
    g_autofree char *path = show ? odori_index_show_path (self->index, show) : NULL;
    OdoriMotion *motion = path ? load_file (self, path) : NULL;

    if (motion != NULL && motion->frame_time > 0)
      return motion->frame_time;
  }
  return 1.0 / 30.0;
}

static gboolean
build_plan (OdoriComposer *self,
            GError       **error)
{
  g_autofree char *reference = NULL;
  g_autoptr(OdoriMotion) old_out = g_steal_pointer (&self->out);
  g_autoptr(GPtrArray) old_sensors = g_ptr_array_new_with_free_func (g_free);
  double          old_frame_time = self->frame_time;
  OdoriIndexShow *show;
  int root;

  for (guint s = 0; s < self->sensors->len; s++)
    g_ptr_array_add (old_sensors, g_strdup (g_ptr_array_index (self->sensors, s)));
  free_plan (self);
  g_hash_table_remove_all (self->symbol_clips);
  g_hash_table_remove_all (self->derived);
  g_hash_table_remove_all (self->clips);
  g_ptr_array_set_size (self->sensors, 0);
  g_hash_table_remove_all (self->sensor_index);
  self->hold_clip = NULL;

  self->frame_time = choose_frame_time (self);
  /* The root part follows from the parts' sensor lists alone: a first pass over the
   * parts finds it, and with it the reference skeleton whose sensors come first. */
  if (!build_parts (self, error))
    return FALSE;
  root = self->root;
  free_plan (self);
  g_ptr_array_set_size (self->sensors, 0);
  g_hash_table_remove_all (self->sensor_index);
  reference = reference_show_path (self, root);
  collect_sensors (self, reference);
  g_free (self->reference);
  self->reference = g_strdup (reference);
  if (!build_parts (self, error))
    return FALSE;
  /* The same sensors at the same rate (the root track's first symbol moved past one
   * from another show of the same skeleton, say): the output keeps its memory, rewritten
   * whole by the recompose that follows. A fresh one would cost its pages' first touch,
   * some 400 ms per 100 MiB on a virtual machine, in the middle of a drag. */
  if (old_out != NULL && old_frame_time == self->frame_time && old_sensors->len == self->sensors->len)
    {
      gboolean same = TRUE;

      for (guint s = 0; s < old_sensors->len && same; s++)
        same = strcmp (g_ptr_array_index (old_sensors, s), g_ptr_array_index (self->sensors, s)) == 0;
      if (same)
        self->out = g_steal_pointer (&old_out);
    }
  show = first_show (self->index);
  if (show != NULL)
    {
      g_autofree char *path = odori_index_show_path (self->index, show);
      OdoriMotion *motion = load_file (self, path);

      if (motion != NULL && motion->n_frames > 0)
        self->hold_clip = get_clip (self, path, motion, 1, 1, NULL);
    }

  g_free (self->plan_key);
  self->plan_key = make_plan_key (self, self->root);
  return TRUE;
}

OdoriComposer *
odori_composer_new (OdoriScore  *score,
                    OdoriIndex  *index,
                    GError     **error)
{
  return odori_composer_new_with_cache (score, index, NULL, error);
}

OdoriComposer *
odori_composer_new_with_cache (OdoriScore        *score,
                               OdoriIndex        *index,
                               OdoriMotionCache  *cache,
                               GError           **error)
{
  g_autoptr(OdoriComposer) self = NULL;

  g_return_val_if_fail (score != NULL, NULL);
  g_return_val_if_fail (index != NULL, NULL);

  self = g_new0 (OdoriComposer, 1);
  self->keep_offsets = TRUE; /* odori_composer_set_incremental () */
  self->cache = cache ? odori_motion_cache_ref (cache) : NULL;
  self->score = odori_score_ref (score);
  self->index = odori_index_ref (index);
  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, motion_unref_nullable);
  self->file_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->clips = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, clip_free);
  self->symbol_clips = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->derived = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, clip_free);
  self->sensors = g_ptr_array_new_with_free_func (g_free);
  self->sensor_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->spare_desc = g_ptr_array_new_with_free_func (g_free);
  self->blend_override = -1;
  self->foot_lock_override = -1;
  self->lock_from = G_MAXUINT;
  self->match = ODORI_ROOT_MATCH_POSITION;
  self->seams = g_array_new (FALSE, TRUE, sizeof (OdoriSeam));
  g_array_set_clear_func (self->seams, (GDestroyNotify) odori_seam_clear);

  if (!build_plan (self, error) || !place_symbols (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

const char *
odori_composer_get_reference (OdoriComposer *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->reference;
}

void
odori_composer_check_sensor_sets (OdoriComposer *self,
                                  GPtrArray     *diags)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  OdoriMotion *ref;

  g_return_if_fail (self != NULL);
  g_return_if_fail (diags != NULL);

  ref = self->reference != NULL ? g_hash_table_lookup (self->files, self->reference) : NULL;
  if (ref == NULL)
    return;
  g_hash_table_add (seen, g_strdup (self->reference));
  for (guint p = 0; p < self->score->parts->len; p++)
    {
      OdoriScorePart *spart = g_ptr_array_index (self->score->parts, p);

      for (guint i = 0; i < spart->symbols->len; i++)
        {
          OdoriScoreSymbol *sym = &g_array_index (spart->symbols, OdoriScoreSymbol, i);
          g_autofree char *path = symbol_show_path (self, sym);
          g_autoptr(GString) extra = g_string_new (NULL);
          g_autoptr(GString) lacking = g_string_new (NULL);
          guint n_extra = 0, n_lacking = 0;
          OdoriMotion *motion;

          if (path == NULL || g_hash_table_contains (seen, path))
            continue;
          motion = g_hash_table_lookup (self->files, path);
          g_hash_table_add (seen, g_strdup (path));
          if (motion == NULL)
            continue;
          for (guint k = 0; k < motion->n_segments; k++)
            if (odori_motion_find_segment (ref, motion->segments[k].name) < 0 && n_extra++ < 8)
              g_string_append_printf (extra, "%s%s", extra->len ? ", " : "", motion->segments[k].name);
          for (guint k = 0; k < ref->n_segments; k++)
            if (odori_motion_find_segment (motion, ref->segments[k].name) < 0 && n_lacking++ < 8)
              g_string_append_printf (lacking, "%s%s", lacking->len ? ", " : "", ref->segments[k].name);
          if (n_extra == 0 && n_lacking == 0)
            continue;
          g_ptr_array_add (diags, odori_diagnostic_new (
            self->score->path, sym->line, FALSE,
            _("symbol %s: its show file %s has other sensors than the score's reference skeleton "
              "(%s): %u of its sensors are not composed (%s%s), %u of the reference's it lacks "
              "(%s%s)"),
            sym->symbol, path, self->reference, n_extra, extra->str, n_extra > 8 ? ", …" : "",
            n_lacking, lacking->str, n_lacking > 8 ? ", …" : ""));
        }
    }
}

void
odori_composer_set_blend (OdoriComposer *self,
                          int            blend)
{
  g_return_if_fail (self != NULL);
  self->blend_override = blend;
}

void
odori_composer_set_foot_lock (OdoriComposer *self,
                              int            on)
{
  g_return_if_fail (self != NULL);
  self->foot_lock_override = on < 0 ? -1 : on > 0;
}

OdoriFootLock *
odori_composer_get_foot_lock (OdoriComposer *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->locked != NULL ? self->foot_lock : NULL;
}

void
odori_composer_set_incremental (OdoriComposer *self,
                                gboolean       incremental)
{
  g_return_if_fail (self != NULL);
  self->keep_offsets = incremental != FALSE;
}

guint64
odori_composer_get_n_shifted (OdoriComposer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_shifted;
}

void
odori_composer_set_root_match (OdoriComposer  *self,
                               OdoriRootMatch  match)
{
  g_return_if_fail (self != NULL);
  self->match = match;
}

double
odori_composer_get_frame_time (OdoriComposer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->frame_time;
}

/* Descriptors */

/* The sensor in world space as the sample plays it, turned by its heading offset but
 * without its translation offset (sample_world () adds it). */
static void
sample_base (const Sample   *sample,
             int             sensor,
             OdoriTransform *out)
{
  const OdoriTransform *t;
  int seg = sample->clip->seg[sensor];

  if (seg < 0)
    {
      static const OdoriTransform identity = { { 0, 0, 0 }, { 0, 0, 0, 1 }, { 100, 100, 100 } };
      *out = identity;
      return;
    }
  t = clip_get (sample->clip, sample->j, seg);
  if (sample->yaw != 0)
    {
      float q[4];

      yaw_quat (sample->yaw, q);
      odori_quat_rotate (q, t->position, out->position);
      odori_quat_mul (q, t->rotation, out->rotation);
    }
  else
    {
      memcpy (out->position, t->position, sizeof out->position);
      memcpy (out->rotation, t->rotation, sizeof out->rotation);
    }
  memcpy (out->scale, t->scale, sizeof out->scale);
}

static void
sample_world (const Sample   *sample,
              int             sensor,
              OdoriTransform *out)
{
  sample_base (sample, sensor, out);
  for (int k = 0; k < 3; k++)
    out->position[k] += sample->d[k];
}

/* Root offsets: each switch puts the incoming clip's first frame (X, Z; with FULL also
 * the heading) where the outgoing clip is at the switch. */
static void
compute_root_offsets (OdoriComposer *self,
                      GArray        *placed)
{
  for (guint i = 0; i < placed->len; i++)
    {
      Placed *cur = &g_array_index (placed, Placed, i);
      Placed *prev;
      Sample out_s = { 0 }, in_s = { 0 };
      OdoriTransform t_out, t_in;
      float q[4], rotated[3];

      memset (cur->d, 0, sizeof cur->d);
      cur->yaw = 0;
      if (i == 0 || self->match == ODORI_ROOT_MATCH_NONE)
        continue;

      prev = &g_array_index (placed, Placed, i - 1);
      out_s.clip = prev->clip;
      out_s.j = MIN (cur->start - prev->start, prev->clip->n - 1);
      memcpy (out_s.d, prev->d, sizeof out_s.d);
      out_s.yaw = prev->yaw;
      sample_world (&out_s, self->root_sensor, &t_out);

      in_s.clip = cur->clip;
      sample_world (&in_s, self->root_sensor, &t_in);

      if (self->match == ODORI_ROOT_MATCH_FULL)
        {
          float h = heading (t_out.rotation) - heading (t_in.rotation);

          cur->yaw = atan2f (sinf (h), cosf (h));
        }
      yaw_quat (cur->yaw, q);
      odori_quat_rotate (q, t_in.position, rotated);
      cur->d[0] = t_out.position[0] - rotated[0];
      cur->d[2] = t_out.position[2] - rotated[2];
    }
}

static inline void
set_sample (Sample       *s,
            const Placed *p,
            guint         j)
{
  s->clip = p->clip;
  s->j = j;
  memcpy (s->d, p->d, sizeof s->d);
  s->yaw = p->yaw;
}

/* The blend into P: its own, else the score's BLEND. */
static inline int
placed_blend (const Placed *p,
              int           blend)
{
  return p->blend >= 0 ? p->blend : blend;
}

/* Frames of descriptors an update computes at a time. */
#define DESC_BLOCK 256

/* Descriptors of output frames FROM..TO (1-based, inclusive) into desc[f - FROM]. */
static void
compute_desc (GArray    *placed,
              guint      from,
              guint      to,
              int        blend,
              FrameDesc *desc)
{
  guint m = placed->len;
  guint i = 0;
  guint lo = 0, hi = m;

  if (from > to)
    return;
  memset (desc, 0, (gsize) (to - from + 1) * sizeof (FrameDesc));

  /* the last symbol starting at or before FROM (or the first one) */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (placed, Placed, mid).start <= from)
        lo = mid + 1;
      else
        hi = mid;
    }
  i = lo > 0 ? lo - 1 : 0;

  for (guint f = from; f <= to; f++)
    {
      FrameDesc    *d = &desc[f - from];
      const Placed *cur;

      while (i + 1 < m && g_array_index (placed, Placed, i + 1).start <= f)
        i++;
      cur = &g_array_index (placed, Placed, i);

      if (f < cur->start)
        {
          set_sample (&d->a, cur, 0);  /* before the first symbol: its first frame holds */
          continue;
        }
      set_sample (&d->a, cur, MIN (f - cur->start, cur->clip->n - 1));
      if (i > 0 && (int) (f - cur->start) < placed_blend (cur, blend))
        {
          const Placed *prev = &g_array_index (placed, Placed, i - 1);
          float t = (float) (f - cur->start + 1) / (float) (placed_blend (cur, blend) + 1);

          d->b = d->a;
          set_sample (&d->a, prev, MIN (f - prev->start, prev->clip->n - 1));
          d->w = t * t * (3 - 2 * t);
        }
    }
}

static gboolean
placed_equal (const Placed *a,
              const Placed *b)
{
  return a->start == b->start && a->clip == b->clip && a->yaw == b->yaw &&
         a->blend == b->blend && a->span == b->span && memcmp (a->d, b->d, sizeof a->d) == 0;
}

/* The output frames whose descriptor may differ between the OLD and NEW symbol lists:
 * frames before the first differing symbol, and frames after the last differing one
 * once the following symbol has played past the blend, sample the same clips at the
 * same frames. Returns FALSE when the lists are equal. */
static gboolean
changed_range (GArray *old,
               GArray *new,
               int     blend,
               guint   n_frames,
               guint  *from,
               guint  *to)
{
  guint m_old = old->len, m_new = new->len;
  guint k = 0, t = 0;
  guint lo, hi;

  while (k < m_old && k < m_new &&
         placed_equal (&g_array_index (old, Placed, k), &g_array_index (new, Placed, k)))
    k++;
  if (k == m_old && k == m_new)
    return FALSE;
  while (t < m_old - k && t < m_new - k &&
         placed_equal (&g_array_index (old, Placed, m_old - 1 - t),
                       &g_array_index (new, Placed, m_new - 1 - t)))
    t++;

  if (k == 0)
    lo = 1;
  else
    {
      lo = G_MAXUINT;
      if (k < m_old)
        lo = MIN (lo, g_array_index (old, Placed, k).start);
      if (k < m_new)
        lo = MIN (lo, g_array_index (new, Placed, k).start);
      if (lo == G_MAXUINT)
        lo = 1;
    }
  if (t == 0)
    hi = n_frames;
  else
    {
      const Placed *first_same = &g_array_index (new, Placed, m_new - t);

      hi = first_same->start + MAX (placed_blend (first_same, blend), 0);
    }
  *from = MAX (lo, 1);
  *to = MIN (hi, n_frames);
  return *from <= *to;
}

static guint
score_length (OdoriComposer *self)
{
  guint len = 1;

  for (guint p = 0; p < self->n_parts; p++)
    {
      GArray *placed = self->parts[p].placed;

      for (guint i = 0; i < placed->len; i++)
        {
          Placed *pl = &g_array_index (placed, Placed, i);
          len = MAX (len, pl->start + pl->span - 1);
        }
    }
  return len;
}

/* The composed dance cannot be made N frames long (ERROR says why): says it again as
 * FILE:LINE of the symbol that ends last, which made it that long. */
static void
name_longest_symbol (OdoriComposer  *self,
                     guint           n,
                     GError        **error)
{
  const OdoriScoreSymbol *last = NULL;

  for (guint p = 0; p < self->n_parts && last == NULL; p++)
    {
      OdoriScorePart *spart = self->parts[p].spart;
      GArray *placed = self->parts[p].placed;

      for (guint i = 0; i < placed->len && last == NULL; i++)
        {
          Placed *pl = &g_array_index (placed, Placed, i);

          if (pl->start + pl->span - 1 != n)
            continue;
          for (guint s = 0; s < spart->symbols->len; s++)
            if (g_array_index (spart->symbols, OdoriScoreSymbol, s).start == pl->start)
              last = &g_array_index (spart->symbols, OdoriScoreSymbol, s);
        }
    }
  if (last == NULL || error == NULL || *error == NULL)
    return;
  g_prefix_error (error,
                  /* Translators: "wrong.dds:15: symbol W1 at frame 2147483647 makes the dance
                   * 2147483787 frames long: " then why that is too long */
                  _("%s:%u: symbol %s at frame %u makes the dance %u frames long: "),
                  score_name (self), last->line, last->symbol, last->start, n);
}

/* Transforms */

static void
blend_transform (const OdoriTransform *a,
                 const OdoriTransform *b,
                 float                 w,
                 OdoriTransform       *out)
{
  for (int k = 0; k < 3; k++)
    {
      out->position[k] = a->position[k] + w * (b->position[k] - a->position[k]);
      out->scale[k] = a->scale[k] + w * (b->scale[k] - a->scale[k]);
    }
  odori_quat_slerp (a->rotation, b->rotation, w, out->rotation);
}

/* The sensor relative to the anchor in the sample's clip. A sensor missing from the
 * clip (a track that borrows the root's clips, or a sensor in no part) takes its
 * relative pose from the hold clip, else stays on the anchor. */
static void
sample_relative (OdoriComposer *self,
                 const Sample  *sample,
                 int            anchor,
                 int            sensor,
                 OdoriTransform *rel)
{
  const Clip *clip = sample->clip;
  guint j = sample->j;
  const OdoriTransform *ta, *ts;
  float inv[4], diff[3];

  if (clip->seg[sensor] < 0 || clip->seg[anchor] < 0)
    {
      clip = self->hold_clip;
      j = 0;
      if (clip == NULL || clip->seg[sensor] < 0 || clip->seg[anchor] < 0)
        {
          static const OdoriTransform identity = { { 0, 0, 0 }, { 0, 0, 0, 1 }, { 100, 100, 100 } };
          *rel = identity;
          return;
        }
    }
  ta = clip_get (clip, j, clip->seg[anchor]);
  ts = clip_get (clip, j, clip->seg[sensor]);
  odori_quat_conj (ta->rotation, inv);
  odori_quat_mul (inv, ts->rotation, rel->rotation);
  for (int k = 0; k < 3; k++)
    diff[k] = ts->position[k] - ta->position[k];
  odori_quat_rotate (inv, diff, rel->position);
  memcpy (rel->scale, ts->scale, sizeof rel->scale);
}

/* The root offset of a frame: its sample's, or inside a blend the two samples' mixed by
 * the blend's weight (positions are mixed before it is added, so that an edit that moves
 * the offsets alone changes the offset alone: see self->keep_offsets). */
static inline void
desc_offset (const FrameDesc *d,
             float            off[3])
{
  if (d->w > 0)
    for (int k = 0; k < 3; k++)
      off[k] = d->a.d[k] + d->w * (d->b.d[k] - d->a.d[k]);
  else
    memcpy (off, d->a.d, sizeof (float) * 3);
}

static void
compose_world (OdoriComposer   *self,
               const FrameDesc *d,
               GArray          *sensors,
               guint            frame)
{
  float off[3];

  desc_offset (d, off);
  for (guint k = 0; k < sensors->len; k++)
    {
      int s = g_array_index (sensors, int, k);
      OdoriTransform *out = odori_motion_get (self->out, frame, s);

      if (d->w > 0)
        {
          OdoriTransform ta, tb;

          sample_base (&d->a, s, &ta);
          sample_base (&d->b, s, &tb);
          blend_transform (&ta, &tb, d->w, out);
        }
      else
        sample_base (&d->a, s, out);
      if (self->out->root_offsets == NULL)
        for (int c = 0; c < 3; c++)
          out->position[c] += off[c];
    }
}

static void
mat3_from_quat (const float q[4],
                float       m[3][3])
{
  float x = q[0], y = q[1], z = q[2], w = q[3];

  m[0][0] = 1 - 2 * (y * y + z * z);
  m[0][1] = 2 * (x * y - z * w);
  m[0][2] = 2 * (x * z + y * w);
  m[1][0] = 2 * (x * y + z * w);
  m[1][1] = 1 - 2 * (x * x + z * z);
  m[1][2] = 2 * (y * z - x * w);
  m[2][0] = 2 * (x * z - y * w);
  m[2][1] = 2 * (y * z + x * w);
  m[2][2] = 1 - 2 * (x * x + y * y);
}

/* The common case, no blend: R_out(s) = M · R_src(s) and
 * p_out(s) = p_out(a) + M · (p_src(s) − p_src(a)) with M = R_out(a) · R_src(a)⁻¹,
 * computed once per frame; M as a matrix makes each position 9 multiply-adds. */
static gboolean
compose_relative_fast (OdoriComposer        *self,
                       const Sample         *sample,
                       const OdoriTransform *a,
                       int                   anchor,
                       GArray               *sensors,
                       guint                 frame)
{
  const Clip *clip = sample->clip;
  const OdoriTransform *src_a;
  float inv[4], q[4], m[3][3];

  if (clip->seg[anchor] < 0)
    return FALSE;
  src_a = clip_get (clip, sample->j, clip->seg[anchor]);
  odori_quat_conj (src_a->rotation, inv);
  odori_quat_mul (a->rotation, inv, q);
  mat3_from_quat (q, m);

  for (guint k = 0; k < sensors->len; k++)
    {
      int s = g_array_index (sensors, int, k);
      OdoriTransform *out = odori_motion_get (self->out, frame, s);
      const OdoriTransform *src;
      float d[3], r[3];

      if (s == anchor)
        continue;
      if (clip->seg[s] < 0)
        {
          /* borrowed from the hold clip: the general path */
          OdoriTransform rel;
          float rotated[3];

          sample_relative (self, sample, anchor, s, &rel);
          odori_quat_mul (a->rotation, rel.rotation, out->rotation);
          odori_quat_rotate (a->rotation, rel.position, rotated);
          for (int c = 0; c < 3; c++)
            out->position[c] = a->position[c] + rotated[c];
          memcpy (out->scale, rel.scale, sizeof out->scale);
          continue;
        }
      src = clip_get (clip, sample->j, clip->seg[s]);
      odori_quat_mul (q, src->rotation, out->rotation);
      for (int c = 0; c < 3; c++)
        d[c] = src->position[c] - src_a->position[c];
      for (int c = 0; c < 3; c++)
        r[c] = m[c][0] * d[0] + m[c][1] * d[1] + m[c][2] * d[2];
      for (int c = 0; c < 3; c++)
        out->position[c] = a->position[c] + r[c];
      memcpy (out->scale, src->scale, sizeof out->scale);
    }
  return TRUE;
}

static void
compose_relative (OdoriComposer   *self,
                  const FrameDesc *d,
                  int              anchor,
                  GArray          *sensors,
                  guint            frame)
{
  const OdoriTransform *a = odori_motion_get (self->out, frame, anchor);

  if (d->w == 0 && compose_relative_fast (self, &d->a, a, anchor, sensors, frame))
    return;

  for (guint k = 0; k < sensors->len; k++)
    {
      int s = g_array_index (sensors, int, k);
      OdoriTransform *out = odori_motion_get (self->out, frame, s);
      OdoriTransform rel;
      float rotated[3];

      if (s == anchor)
        continue;
      if (d->w > 0)
        {
          OdoriTransform ra, rb;

          sample_relative (self, &d->a, anchor, s, &ra);
          sample_relative (self, &d->b, anchor, s, &rb);
          blend_transform (&ra, &rb, d->w, &rel);
        }
      else
        sample_relative (self, &d->a, anchor, s, &rel);

      odori_quat_mul (a->rotation, rel.rotation, out->rotation);
      odori_quat_rotate (a->rotation, rel.position, rotated);
      for (int c = 0; c < 3; c++)
        out->position[c] = a->position[c] + rotated[c];
      memcpy (out->scale, rel.scale, sizeof out->scale);
    }
}

/* What an update does with a frame of a part (Part.dirty). */
enum
{
  CLEAN = 0,
  SHIFT = 1, /* only its root offset changed, or its anchor's: the transforms stay,
              * the frame's root offset is written again */
  REDO = 2,  /* sampled and re-attached again */
};

/* Whether two descriptors sample the same clips at the same frames, headings and weight:
 * if so, they differ at most in their root offsets (translations). */
static inline gboolean
same_samples (const FrameDesc *x,
              const FrameDesc *y)
{
  return x->a.clip == y->a.clip && x->a.j == y->a.j && x->a.yaw == y->a.yaw &&
         x->b.clip == y->b.clip && x->b.j == y->b.j && x->b.yaw == y->b.yaw && x->w == y->w;
}

static const FrameDesc *
part_desc (OdoriComposer *self,
           guint          p)
{
  return self->parts[p].desc ? self->parts[p].desc : self->parts[self->root].desc;
}

/* Output frames [FROM, TO) (0-based) of a recompose, with what they did. */
typedef struct
{
  OdoriComposer *self;
  guint          from;
  guint          to;
  guint64        computed;
  guint64        shifted;
} FrameRange;

static gint test_threads = 0;
static gint parallel_runs = 0;

void
odori_composer_set_test_threads (guint n)
{
  g_atomic_int_set (&test_threads, (gint) MIN (n, 64));
}

guint
odori_composer_get_test_parallel_runs (void)
{
  return (guint) g_atomic_int_get (&parallel_runs);
}

/* Threads for WORK segment-frames: one below what a thread's start (some 50 us) would
 * not pay for, else a thread a core up to 4 (the work is mostly memory traffic). */
static guint
compose_threads (guint64 work)
{
  const guint64 min_work = 100000;
  gint          n = g_atomic_int_get (&test_threads);

  if (n > 0)
    return (guint) n;
  if (work < min_work)
    return 1;
  return CLAMP (g_get_num_processors (), 1, 4);
}

/* Frames a block of compose_frames () (its parts' transforms stay in the cache). */
#define COMPOSE_BLOCK 256

/* The sum of N marks: a SHIFT counts 1, a REDO 2 (vectorised by the compiler). */
static inline guint
sum_marks (const guint8 *d,
           guint         n)
{
  guint sum = 0;

  for (guint i = 0; i < n; i++)
    sum += d[i];
  return sum;
}

/* Block by block of frames, and in a block part by part in dependency order: tracks
 * without symbols follow the root; every part follows its anchor's owner. The marks
 * are combined a block at a time (byte arrays) and only the REDO frames are looked at
 * one by one, so that a root move, whose later frames are all SHIFT (they keep their
 * transforms: only their root offsets are written again), does not test every part of
 * every later frame. */
static gpointer
compose_frames (gpointer data)
{
  FrameRange    *range = data;
  OdoriComposer *self = range->self;
  Part          *root = &self->parts[self->root];
  guint64        computed = 0, shifted = 0;

  for (guint b = range->from; b < range->to; b += COMPOSE_BLOCK)
    {
      guint  n = MIN (COMPOSE_BLOCK, range->to - b);
      guint8 root_own[COMPOSE_BLOCK];

      memcpy (root_own, root->dirty + b, n);
      for (guint k = 0; k < self->n_parts; k++)
        {
          guint            p = self->order[k];
          Part            *part = &self->parts[p];
          guint8          *d = part->dirty + b;
          guint            per = part->world->len + part->rel->len;
          const FrameDesc *desc;
          const guint8    *redo, *end = d + n;
          guint            sum, n_redo = 0;

          if (part->placed->len == 0)
            for (guint i = 0; i < n; i++)
              d[i] = MAX (d[i], root_own[i]);
          if (part->anchor_owner >= 0)
            {
              const guint8 *o = self->parts[part->anchor_owner].dirty + b;

              for (guint i = 0; i < n; i++)
                d[i] = MAX (d[i], o[i]);
            }
          sum = sum_marks (d, n);
          if (sum == 0)
            continue;
          desc = part_desc (self, p) + b;
          for (redo = memchr (d, REDO, n); redo != NULL; redo = memchr (redo + 1, REDO, end - redo - 1))
            {
              guint i = (guint) (redo - d);

              compose_world (self, desc + i, part->world, b + i);
              if (part->rel->len > 0)
                compose_relative (self, desc + i, part->anchor, part->rel, b + i);
              n_redo++;
            }
          /* a SHIFT keeps the transforms: out keeps the offsets apart (SHIFT is never
           * marked otherwise) */
          computed += (guint64) n_redo * per;
          shifted += (guint64) (sum - 2 * n_redo) * per;
        }

      for (guint i = 0; i < n; i++)
        {
          guint f = b + i;

          if (root->dirty[f] != CLEAN && self->out->root_offsets != NULL)
            desc_offset (&root->desc[f], self->out->root_offsets + (gsize) f * 3);
          if (self->unnamed->len == 0)
            continue;
          if (root->dirty[f] == SHIFT)
            shifted += self->unnamed->len;
          else if (root->dirty[f] == REDO)
            {
              compose_relative (self, &root->desc[f], self->root_sensor, self->unnamed, f);
              computed += self->unnamed->len;
            }
        }
    }
  range->computed = computed;
  range->shifted = shifted;
  return NULL;
}

/* Which sensors move with the root offset: the root track's world-space ones, those of
 * tracks without symbols (they follow the root track), those placed relative to one of
 * these, and the sensors no track names. Other tracks' world-space sensors never have
 * an offset (compute_root_offsets () is the root track's alone). */
static void
compute_follows (OdoriComposer *self)
{
  guint n = MAX (self->sensors->len, 1);

  self->follows = g_renew (guint8, self->follows, n);
  memset (self->follows, 0, n);
  for (guint p = 0; p < self->n_parts; p++)
    {
      Part *part = &self->parts[p];

      if ((int) p == self->root || part->placed->len == 0)
        for (guint k = 0; k < part->world->len; k++)
          self->follows[g_array_index (part->world, int, k)] = 1;
    }
  for (guint k = 0; k < self->n_parts; k++)
    {
      Part *part = &self->parts[self->order[k]];

      for (guint i = 0; i < part->rel->len; i++)
        self->follows[g_array_index (part->rel, int, i)] = part->anchor >= 0 && self->follows[part->anchor];
    }
  for (guint i = 0; i < self->unnamed->len; i++)
    self->follows[g_array_index (self->unnamed, int, i)] = self->root_sensor >= 0 && self->follows[self->root_sensor];
}

/* Recomputes the descriptors that may have changed, marks the frames whose descriptor
 * did change (or whose anchor did), and recomputes those. Returns segment-frames
 * computed. FORCE marks everything dirty. */
static guint64
recompose (OdoriComposer *self,
           gboolean       force,
           GError       **error)
{
  guint n = score_length (self);
  guint old_n = self->n_desc;
  int blend = self->blend_override >= 0 ? self->blend_override : MAX (self->score->blend, 0);
  guint64 computed = 0, shifted = 0, redo = 0; /* redo: segment-frames marked REDO */
  guint   glo = G_MAXUINT, ghi = 0;

  if (blend != self->blend)
    force = TRUE;
  self->blend = blend;
  if (self->out != NULL && (self->out->root_offsets != NULL) != self->keep_offsets)
    force = TRUE; /* offsets kept apart or added in: every frame is made again */

  if (self->out == NULL)
    {
      self->out = odori_motion_new (self->sensors->len, n, self->frame_time, error);
      if (self->out == NULL)
        {
          name_longest_symbol (self, n, error);
          return 0;
        }
      for (guint s = 0; s < self->sensors->len; s++)
        odori_motion_set_segment_name (self->out, s, g_ptr_array_index (self->sensors, s));
      force = TRUE;
    }
  else if (self->out->n_frames != n && !odori_motion_resize (self->out, n, error))
    {
      name_longest_symbol (self, n, error);
      return 0;
    }
  self->n_frames = n;
  if (self->keep_offsets)
    {
      compute_follows (self);
      odori_motion_set_root_offsets (self->out, self->follows);
    }
  else
    odori_motion_set_root_offsets (self->out, NULL);

  /* Descriptors of the parts with their own symbols (the root always has some). */
  for (guint p = 0; p < self->n_parts; p++)
    {
      Part *part = &self->parts[p];
      FrameDesc *fresh;
      guint from = 1, to = n;
      guint      per = part->world->len + part->rel->len;

      part->dirty = g_realloc (part->dirty, MAX (n, 1));
      memset (part->dirty, 0, n);
      if (part->placed->len == 0)
        {
          g_clear_pointer (&part->desc, g_free);
          if (part->prev_placed->len > 0)
            {
              /* emptied: from now on it follows the root, on every frame */
              memset (part->dirty, REDO, n);
              glo = 1;
              ghi = n;
              redo += (guint64) n * per;
            }
          continue;
        }
      if ((int) p == self->root)
        compute_root_offsets (self, part->placed);

      if (force || part->desc == NULL)
        {
          /* reuse the buffer (or one of the last plan's, after a structural edit): fresh
           * pages would cost more in faults than the work */
          if (part->desc == NULL && self->spare_desc->len > 0)
            part->desc = g_ptr_array_steal_index_fast (self->spare_desc, self->spare_desc->len - 1);
          if (part->desc == NULL || n != old_n)
            part->desc = g_renew (FrameDesc, part->desc, n);
          compute_desc (part->placed, 1, n, blend, part->desc);
          memset (part->dirty, REDO, n);
          glo = 1;
          ghi = n;
          redo += (guint64) n * per;
          continue;
        }

      if (n != old_n)
        part->desc = g_renew (FrameDesc, part->desc, n);
      if (!changed_range (part->prev_placed, part->placed, blend, n, &from, &to))
        from = n + 1, to = n;
      if (n > old_n)
        {
          /* new frames at the end: the last symbol holds there */
          from = MIN (from, old_n + 1);
          to = n;
        }
      if (from > to)
        continue;

      /* a block at a time, into a buffer that stays in the cache (a root move compares
       * every later frame's descriptor) */
      if (self->scratch == NULL)
        self->scratch = g_new (FrameDesc, DESC_BLOCK);
      fresh = self->scratch;
      for (guint b = from; b <= to; b += DESC_BLOCK)
        {
          guint e = MIN (to, b + DESC_BLOCK - 1);

          compute_desc (part->placed, b, e, blend, fresh);
          for (guint f = b - 1; f < e; f++)
            {
              const FrameDesc *x = &fresh[f - (b - 1)];

              if (f < old_n && memcmp (x, &part->desc[f], sizeof (FrameDesc)) == 0)
                continue;
              part->dirty[f] = f < old_n && self->keep_offsets && same_samples (x, &part->desc[f])
                                   ? SHIFT
                                   : REDO;
              redo += part->dirty[f] == REDO ? per : 0;
              part->desc[f] = *x;
              glo = MIN (glo, f + 1);
              ghi = MAX (ghi, f + 1);
            }
        }
    }
  g_ptr_array_set_size (self->spare_desc, 0);
  self->n_desc = n;
  if (glo <= ghi)
    {
      /* Frames are independent of each other: a long range is split between threads
       * (each writes its own frames of out and the dirty marks). A shifted frame costs
       * its offset alone, a few bytes of marks: some sixteenth of a segment-frame's work
       * (tracks that follow the root redo with it: not counted). */
      guint                  n_threads = compose_threads (redo + (ghi - glo + 1) / 16);
      g_autofree FrameRange *ranges = g_new0 (FrameRange, n_threads);
      guint                  step = (ghi - glo + 1) / n_threads;

      for (guint t = 0; t < n_threads; t++)
        {
          ranges[t].self = self;
          ranges[t].from = glo - 1 + t * step;
          ranges[t].to = t + 1 < n_threads ? glo - 1 + (t + 1) * step : ghi;
        }
      if (n_threads > 1)
        g_atomic_int_inc (&parallel_runs);
      odori_run_parallel (compose_frames, ranges, sizeof *ranges, n_threads);
      for (guint t = 0; t < n_threads; t++)
        {
          computed += ranges[t].computed;
          shifted += ranges[t].shifted;
        }
      self->seams_valid = FALSE;
    }

  for (guint p = 0; p < self->n_parts; p++)
    {
      Part *part = &self->parts[p];

      g_array_set_size (part->prev_placed, 0);
      g_array_append_vals (part->prev_placed, part->placed->data, part->placed->len);
    }
  prune_derived (self);
  self->changed_from = glo;
  self->changed_to = ghi;
  self->changed_all = glo == 1 && ghi == n && force;
  self->n_shifted = shifted;
  if (force || n != old_n)
    self->lock_all = TRUE;
  else if (glo <= ghi)
    {
      self->lock_from = MIN (self->lock_from, glo);
      self->lock_to = MAX (self->lock_to, ghi);
    }
  return computed;
}

/* What compose and update return: the composed motion, or with foot locking on a copy
 * of it with the feet locked. The frames written since the last lock are relocked alone
 * when they left the legs' joints where they were (odori_foot_lock_update ()), else the
 * whole motion: either way an update equals a full compose. */
static OdoriMotion *
foot_lock_result (OdoriComposer *self,
                  GError       **error)
{
  int on = self->foot_lock_override >= 0 ? self->foot_lock_override : self->score->foot_lock > 0;
  gboolean whole = self->lock_all;
  guint from = self->lock_from, to = self->lock_to;

  self->lock_all = FALSE;
  self->lock_from = G_MAXUINT;
  self->lock_to = 0;
  if (on && (self->foot_lock == NULL || !odori_foot_lock_matches (self->foot_lock, self->out)))
    {
      g_clear_pointer (&self->foot_lock, odori_foot_lock_free);
      self->foot_lock = odori_foot_lock_new (self->out);
      whole = TRUE;
    }
  if (!on || self->foot_lock == NULL)
    {
      g_clear_pointer (&self->locked, odori_motion_unref);
      return self->out;
    }
  if (self->locked != NULL && !odori_foot_lock_matches (self->foot_lock, self->locked))
    g_clear_pointer (&self->locked, odori_motion_unref);
  if (self->locked == NULL)
    {
      self->locked = odori_motion_copy (self->out);
      whole = TRUE;
    }
  else if (self->locked->n_frames != self->out->n_frames)
    {
      whole = TRUE;
      if (!odori_motion_resize (self->locked, self->out->n_frames, error))
        {
          g_clear_pointer (&self->locked, odori_motion_unref);
          return NULL;
        }
    }
  self->locked->frame_time = self->out->frame_time;
  if (whole)
    odori_foot_lock_apply (self->foot_lock, self->out, self->locked);
  else
    odori_foot_lock_update (self->foot_lock, self->out, self->locked,
                            from <= to ? from - 1 : 1, from <= to ? to - 1 : 0);
  return self->locked;
}

OdoriMotion *
odori_composer_compose (OdoriComposer  *self,
                        GError        **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  recompose (self, TRUE, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return foot_lock_result (self, error);
}

OdoriMotion *
odori_composer_update (OdoriComposer  *self,
                       guint64        *n_recomputed,
                       GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *key = NULL;
  gboolean force = FALSE;
  guint64 computed;

  g_return_val_if_fail (self != NULL, NULL);

  key = make_plan_key (self, self->root);
  if (g_strcmp0 (key, self->plan_key) != 0 || self->out == NULL)
    {
      if (!build_plan (self, error))
        return NULL;
      force = TRUE;
    }
  if (!place_symbols (self, error))
    return NULL;

  computed = recompose (self, force, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (n_recomputed)
    *n_recomputed = computed;
  return foot_lock_result (self, error);
}

/* Seams */

/* The rotation of S as the part sees it: world rotation for world-space sensors,
 * anchor-relative otherwise. */
static void
part_rotation (const OdoriMotion *motion,
               guint              frame,
               int                anchor_seg,
               int                seg,
               gboolean           world,
               float              q[4])
{
  const OdoriTransform *t = odori_motion_get (motion, frame, seg);

  if (world || anchor_seg < 0)
    {
      memcpy (q, t->rotation, sizeof (float) * 4);
      return;
    }
  {
    float inv[4];

    odori_quat_conj (odori_motion_get (motion, frame, anchor_seg)->rotation, inv);
    odori_quat_mul (inv, t->rotation, q);
  }
}

static double
max_step (const OdoriMotion *motion,
          const int         *seg_map,
          const Part        *part,
          guint              from,
          guint              to)
{
  double best = 0;

  for (guint f = from + 1; f <= to && f < motion->n_frames; f++)
    for (int pass = 0; pass < 2; pass++)
      {
        GArray *sensors = pass == 0 ? part->world : part->rel;

        for (guint k = 0; k < sensors->len; k++)
          {
            int s = g_array_index (sensors, int, k);
            int seg = seg_map ? seg_map[s] : s;
            int aseg = part->anchor < 0 ? -1 : seg_map ? seg_map[part->anchor] : part->anchor;
            float q0[4], q1[4];

            if (seg < 0)
              continue;
            part_rotation (motion, f - 1, aseg, seg, pass == 0, q0);
            part_rotation (motion, f, aseg, seg, pass == 0, q1);
            best = MAX (best, odori_quat_angle_deg (q0, q1));
          }
      }
  return best;
}

static void
compute_seams (OdoriComposer *self)
{
  g_array_set_size (self->seams, 0);

  for (guint p = 0; p < self->n_parts; p++)
    {
      Part *part = &self->parts[p];

      for (guint i = 1; i < part->placed->len; i++)
        {
          Placed *prev = &g_array_index (part->placed, Placed, i - 1);
          Placed *cur = &g_array_index (part->placed, Placed, i);
          Placed *next = i + 1 < part->placed->len ? &g_array_index (part->placed, Placed, i + 1) : NULL;
          guint prev_end = MIN (cur->start - prev->start, prev->clip->n - 1);
          guint cur_end = next ? MIN (next->start - cur->start, cur->clip->n - 1) : cur->clip->n - 1;
          /* output frames (0-based) from the frame before the switch to the blend's end */
          guint from = cur->start >= 2 ? cur->start - 2 : 0;
          guint to = MIN (cur->start - 1 + (guint) MAX (placed_blend (cur, self->blend), 1),
                          self->n_frames - 1);
          OdoriSeam seam = { 0 };

          seam.part = p;
          seam.frame = cur->start;
          seam.from = g_strdup (prev->symbol);
          seam.to = g_strdup (cur->symbol);
          seam.jump_deg = max_step (self->out, NULL, part, from, to);
          seam.clip_max_deg = MAX (max_step (prev->clip->motion, prev->clip->seg, part,
                                             prev->clip->first, prev->clip->first + prev_end),
                                   max_step (cur->clip->motion, cur->clip->seg, part,
                                             cur->clip->first, cur->clip->first + cur_end));
          g_array_append_val (self->seams, seam);
        }
    }
  self->seams_valid = TRUE;
}

GArray *
odori_composer_get_seams (OdoriComposer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (!self->seams_valid && self->out != NULL)
    compute_seams (self);
  return self->seams;
}
