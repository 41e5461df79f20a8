/* odori-motion.c: the motion model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <glib/gi18n-lib.h>

#include "odori-motion.h"
#include "odori-text.h"

/* The largest transform array we agree to allocate: 2^31 transforms (80 GiB) would be a
 * corrupt header, not a capture. A 1-hour 120 fps capture of 64 segments is 27.6 M. */
#define MAX_TRANSFORMS ((guint64) 1 << 31)

static const char *unit_names[] = {
  [ODORI_UNIT_INCHES] = "INCHES",
  [ODORI_UNIT_CENTIMETERS] = "CENTIMETERS",
  [ODORI_UNIT_MILLIMETERS] = "MILLIMETERS",
  [ODORI_UNIT_METERS] = "METERS",
  [ODORI_UNIT_DEGREES] = "DEGREES",
  [ODORI_UNIT_RADIANS] = "RADIANS",
  [ODORI_UNIT_PERCENT] = "PERCENT",
  [ODORI_UNIT_UNKNOWN] = "UNKNOWN",
};

static const char *field_names[] = {
  "XTRAN", "YTRAN", "ZTRAN", "XROT", "YROT", "ZROT", "XSCALE", "YSCALE", "ZSCALE",
};

const char *
odori_unit_to_string (OdoriUnit unit)
{
  g_return_val_if_fail (unit <= ODORI_UNIT_UNKNOWN, "UNKNOWN");
  return unit_names[unit];
}

gboolean
odori_unit_from_string (const char *s,
                        gsize       len,
                        OdoriUnit  *unit)
{
  for (guint i = 0; i < ODORI_UNIT_UNKNOWN; i++)
    if (strlen (unit_names[i]) == len && g_ascii_strncasecmp (s, unit_names[i], len) == 0)
      {
        *unit = i;
        return TRUE;
      }
  return FALSE;
}

const char *
odori_field_to_string (OdoriField field)
{
  g_return_val_if_fail (field < ODORI_N_FIELDS, "");
  return field_names[field];
}

static void
segment_init_defaults (OdoriSegment *seg)
{
  seg->n_fields = ODORI_N_FIELDS;
  for (guint f = 0; f < ODORI_N_FIELDS; f++)
    {
      seg->fields[f] = f;
      seg->units[f] = f < 3 ? ODORI_UNIT_INCHES : f < 6 ? ODORI_UNIT_DEGREES : ODORI_UNIT_PERCENT;
    }
  seg->parent = -1;
}

static const OdoriTransform identity_transform = {
  .position = { 0, 0, 0 },
  .rotation = { 0, 0, 0, 1 },
  .scale = { 100, 100, 100 },
};

/* Large motions are allocated 2 MiB-aligned and marked for transparent huge pages:
 * first-touch page faults dominated loading a long capture on the virtual machines we
 * measured (0.3 s of 0.5 s for 86 MB), and huge pages cut that thirtyfold. The memory
 * comes from posix_memalign, so g_free (free) releases it. */
static void *
alloc_big (gsize bytes)
{
  const gsize huge = 2u << 20;
  void *p = NULL;

  if (bytes < 4 * huge)
    return g_try_malloc (bytes);
  if (posix_memalign (&p, huge, bytes) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise (p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

static OdoriTransform *
alloc_transforms (guint    n_segments,
                  guint    n_frames,
                  gboolean identity,
                  GError **error)
{
  guint64 count = (guint64) n_segments * n_frames;
  OdoriTransform *t;

  if (count > MAX_TRANSFORMS)
    {
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_TOO_LARGE,
                   _("a motion of %u frames of %u segments is too large"), n_frames, n_segments);
      return NULL;
    }
  t = alloc_big (MAX (count, 1) * sizeof (OdoriTransform));
  if (t == NULL)
    {
      g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_TOO_LARGE,
                   _("not enough memory for %u frames of %u segments"), n_frames, n_segments);
      return NULL;
    }
  for (guint64 i = 0; identity && i < count; i++)
    t[i] = identity_transform;
  return t;
}

static OdoriMotion *
motion_new (guint     n_segments,
            guint     n_frames,
            double    frame_time,
            gboolean  identity,
            GError  **error)
{
  OdoriMotion *motion;
  OdoriTransform *transforms;

  transforms = alloc_transforms (n_segments, n_frames, identity, error);
  if (transforms == NULL)
    return NULL;

  motion = g_new0 (OdoriMotion, 1);
  g_atomic_ref_count_init (&motion->ref_count);
  motion->n_segments = n_segments;
  motion->n_frames = n_frames;
  motion->frame_time = frame_time;
  motion->transforms = transforms;
  motion->segments = g_new0 (OdoriSegment, MAX (n_segments, 1));
  for (guint s = 0; s < n_segments; s++)
    segment_init_defaults (&motion->segments[s]);
  return motion;
}

OdoriMotion *
odori_motion_new (guint    n_segments,
                  guint    n_frames,
                  double   frame_time,
                  GError **error)
{
  return motion_new (n_segments, n_frames, frame_time, TRUE, error);
}

void
odori_motion_set_rest (OdoriMotion *motion,
                       guint        segment)
{
  g_return_if_fail (motion != NULL && segment < motion->n_segments);
  for (guint f = 0; f < motion->n_frames; f++)
    *odori_motion_get (motion, f, segment) = identity_transform;
}

OdoriMotion *
odori_motion_new_unset (guint    n_segments,
                        guint    n_frames,
                        double   frame_time,
                        GError **error)
{
  return motion_new (n_segments, n_frames, frame_time, FALSE, error);
}

OdoriMotion *
odori_motion_ref (OdoriMotion *motion)
{
  g_return_val_if_fail (motion != NULL, NULL);
  g_atomic_ref_count_inc (&motion->ref_count);
  return motion;
}

void
odori_motion_unref (OdoriMotion *motion)
{
  g_return_if_fail (motion != NULL);

  if (!g_atomic_ref_count_dec (&motion->ref_count))
    return;
  for (guint s = 0; s < motion->n_segments; s++)
    g_free (motion->segments[s].name);
  g_free (motion->segments);
  g_free (motion->transforms);
  g_free (motion->path);
  g_free (motion->root_offsets);
  g_free (motion->follows_root);
  g_free (motion);
}

const OdoriTransform *
odori_motion_get_frame (const OdoriMotion *motion,
                        guint              frame,
                        OdoriTransform    *buf)
{
  const OdoriTransform *stored = odori_motion_get (motion, frame, 0);
  const float          *off;

  if (motion->root_offsets == NULL)
    return stored;
  off = motion->root_offsets + (gsize) frame * 3;
  memcpy (buf, stored, motion->n_segments * sizeof (OdoriTransform));
  for (guint s = 0; s < motion->n_segments; s++)
    if (motion->follows_root[s])
      for (int k = 0; k < 3; k++)
        buf[s].position[k] += off[k];
  return buf;
}

void
odori_motion_set_root_offsets (OdoriMotion  *motion,
                               const guint8 *follows)
{
  g_return_if_fail (motion != NULL);

  if (follows == NULL)
    {
      g_clear_pointer (&motion->root_offsets, g_free);
      g_clear_pointer (&motion->follows_root, g_free);
      return;
    }
  if (motion->root_offsets == NULL)
    motion->root_offsets = g_new0 (float, (gsize) MAX (motion->n_frames, 1) * 3);
  g_free (motion->follows_root);
  motion->follows_root = g_memdup2 (follows, MAX (motion->n_segments, 1));
}

void
odori_motion_set_segment_name (OdoriMotion *motion,
                               guint        segment,
                               const char  *name)
{
  g_return_if_fail (motion != NULL);
  g_return_if_fail (segment < motion->n_segments);

  g_free (motion->segments[segment].name);
  motion->segments[segment].name = g_strdup (name);
}

int
odori_motion_find_segment (const OdoriMotion *motion,
                           const char        *name)
{
  g_return_val_if_fail (motion != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint s = 0; s < motion->n_segments; s++)
    if (g_strcmp0 (motion->segments[s].name, name) == 0)
      return s;
  return -1;
}

gboolean
odori_motion_resize (OdoriMotion *motion,
                     guint        n_frames,
                     GError     **error)
{
  OdoriTransform *t;
  guint n_seg;

  g_return_val_if_fail (motion != NULL, FALSE);

  if (n_frames == motion->n_frames)
    return TRUE;

  n_seg = motion->n_segments;
  t = alloc_transforms (n_seg, n_frames, TRUE, error);
  if (t == NULL)
    return FALSE;

  for (guint f = 0; f < n_frames; f++)
    {
      guint src = motion->n_frames == 0 ? G_MAXUINT : MIN (f, motion->n_frames - 1);

      if (src != G_MAXUINT)
        memcpy (&t[(gsize) f * n_seg], &motion->transforms[(gsize) src * n_seg],
                n_seg * sizeof (OdoriTransform));
    }
  g_free (motion->transforms);
  motion->transforms = t;
  if (motion->root_offsets != NULL)
    {
      guint old = motion->n_frames;

      motion->root_offsets = g_renew (float, motion->root_offsets, (gsize) MAX (n_frames, 1) * 3);
      for (guint f = old; f < n_frames; f++)
        for (int k = 0; k < 3; k++)
          motion->root_offsets[(gsize) f * 3 + k] = old > 0 ? motion->root_offsets[(gsize) (old - 1) * 3 + k] : 0;
    }
  motion->n_frames = n_frames;
  return TRUE;
}

OdoriMotion *
odori_motion_copy (const OdoriMotion *motion)
{
  OdoriMotion *copy;

  g_return_val_if_fail (motion != NULL, NULL);

  copy = odori_motion_new (motion->n_segments, motion->n_frames, motion->frame_time, NULL);
  g_assert (copy != NULL);
  copy->has_hierarchy = motion->has_hierarchy;
  copy->path = g_strdup (motion->path);
  for (guint s = 0; s < motion->n_segments; s++)
    {
      copy->segments[s] = motion->segments[s];
      copy->segments[s].name = g_strdup (motion->segments[s].name);
    }
  memcpy (copy->transforms, motion->transforms,
          (gsize) motion->n_frames * motion->n_segments * sizeof (OdoriTransform));
  if (motion->root_offsets != NULL)
    for (guint f = 0; f < motion->n_frames; f++)
      for (guint s = 0; s < motion->n_segments; s++)
        if (motion->follows_root[s])
          for (int k = 0; k < 3; k++)
            odori_motion_get (copy, f, s)->position[k] += motion->root_offsets[(gsize) f * 3 + k];
  return copy;
}

gboolean
odori_motion_equal (const OdoriMotion *a,
                    const OdoriMotion *b,
                    double             pos_tol,
                    double             rot_tol_deg,
                    char             **why)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

#define DIFFER(...)                                  \
  G_STMT_START {                                     \
    if (why)                                         \
      *why = g_strdup_printf (__VA_ARGS__);          \
    return FALSE;                                    \
  } G_STMT_END

  if (a->n_segments != b->n_segments)
    DIFFER ("%u segments against %u", a->n_segments, b->n_segments);
  if (a->n_frames != b->n_frames)
    DIFFER ("%u frames against %u", a->n_frames, b->n_frames);
  if (fabs (a->frame_time - b->frame_time) > 1e-6 * MAX (fabs (a->frame_time), 1e-3))
    DIFFER ("frame time %g against %g", a->frame_time, b->frame_time);

  for (guint s = 0; s < a->n_segments; s++)
    if (g_strcmp0 (a->segments[s].name, b->segments[s].name) != 0)
      DIFFER ("segment %u is named %s against %s", s, a->segments[s].name, b->segments[s].name);

  for (guint f = 0; f < a->n_frames; f++)
    for (guint s = 0; s < a->n_segments; s++)
      {
        OdoriTransform        wa, wb;
        const OdoriTransform *ta = &wa, *tb = &wb;
        double angle;

        odori_motion_get_world (a, f, s, &wa);
        odori_motion_get_world (b, f, s, &wb);

        for (int i = 0; i < 3; i++)
          {
            if (fabs (ta->position[i] - tb->position[i]) > pos_tol)
              DIFFER ("frame %u segment %s: position %g against %g", f + 1,
                      a->segments[s].name, ta->position[i], tb->position[i]);
            if (fabs (ta->scale[i] - tb->scale[i]) > pos_tol)
              DIFFER ("frame %u segment %s: scale %g against %g", f + 1,
                      a->segments[s].name, ta->scale[i], tb->scale[i]);
          }
        angle = odori_quat_angle_deg (ta->rotation, tb->rotation);
        if (angle > rot_tol_deg)
          DIFFER ("frame %u segment %s: rotations differ by %g degrees", f + 1,
                  a->segments[s].name, angle);
      }
#undef DIFFER
  return TRUE;
}

guint
odori_motion_resample_n_frames (const OdoriMotion *motion,
                                guint              n_src,
                                double             frame_time)
{
  g_return_val_if_fail (motion != NULL, 1);
  g_return_val_if_fail (frame_time > 0, 1);

  if (motion->frame_time <= 0 || fabs (motion->frame_time - frame_time) <= 1e-9 * frame_time)
    return MAX (n_src, 1);
  return (guint) MAX (1.0, round (n_src * motion->frame_time / frame_time));
}

OdoriMotion *
odori_motion_resample (const OdoriMotion *motion,
                       guint              first,
                       guint              last,
                       double             frame_time,
                       GError           **error)
{
  OdoriMotion *clip;
  guint n_src, n, n_seg;
  gboolean same;

  g_return_val_if_fail (motion != NULL, NULL);
  g_return_val_if_fail (first >= 1 && first <= last && last <= motion->n_frames, NULL);
  g_return_val_if_fail (frame_time > 0, NULL);

  n_src = last - first + 1;
  n_seg = motion->n_segments;
  same = motion->frame_time <= 0 || fabs (motion->frame_time - frame_time) <= 1e-9 * frame_time;
  n = odori_motion_resample_n_frames (motion, n_src, frame_time);

  clip = odori_motion_new (n_seg, n, frame_time, error);
  if (clip == NULL)
    return NULL;
  for (guint s = 0; s < n_seg; s++)
    {
      g_free (clip->segments[s].name);
      clip->segments[s] = motion->segments[s];
      clip->segments[s].name = g_strdup (motion->segments[s].name);
    }
  clip->has_hierarchy = motion->has_hierarchy;

  if (same)
    {
      for (guint j = 0; j < n; j++)
        {
          const OdoriTransform *src = odori_motion_get_frame (motion, first - 1 + j, odori_motion_get (clip, j, 0));

          if (src != odori_motion_get (clip, j, 0))
            memcpy (odori_motion_get (clip, j, 0), src, n_seg * sizeof (OdoriTransform));
        }
      return clip;
    }

  for (guint j = 0; j < n; j++)
    {
      double x = j * frame_time / motion->frame_time;
      guint i0 = (guint) MIN (floor (x), (double) (n_src - 1));
      guint i1 = MIN (i0 + 1, n_src - 1);
      float u = (float) CLAMP (x - i0, 0.0, 1.0);

      for (guint s = 0; s < n_seg; s++)
        {
          OdoriTransform        wa, wb;
          const OdoriTransform *a = &wa, *b = &wb;
          OdoriTransform *t = odori_motion_get (clip, j, s);

          odori_motion_get_world (motion, first - 1 + i0, s, &wa);
          odori_motion_get_world (motion, first - 1 + i1, s, &wb);

          for (int k = 0; k < 3; k++)
            {
              t->position[k] = a->position[k] + u * (b->position[k] - a->position[k]);
              t->scale[k] = a->scale[k] + u * (b->scale[k] - a->scale[k]);
            }
          odori_quat_slerp (a->rotation, b->rotation, u, t->rotation);
        }
    }
  return clip;
}

/* Hierarchies */

/**
 * odori_forest_preorder:
 * @parent: (array length=n): the parent of each node, -1 for a root; no cycles
 * @n: the number of nodes
 * @order: (out caller-allocates) (array length=n): where the order is written
 *
 * Depth-first order of the forest given by @parent (segments of a hierarchy), roots and
 * children in index order. Iterative: a chain of thousands of markers costs no C stack.
 *
 * Returns: the number of nodes written to @order (@n when @parent has no cycle)
 */
guint
odori_forest_preorder (const int *parent,
                       guint      n,
                       guint     *order)
{
  g_autofree int *first_child = NULL;
  g_autofree int *next_sibling = NULL;
  guint k = 0;

  g_return_val_if_fail (parent != NULL || n == 0, 0);
  g_return_val_if_fail (order != NULL || n == 0, 0);

  first_child = g_new (int, MAX (n, 1));
  next_sibling = g_new (int, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    first_child[i] = next_sibling[i] = -1;
  for (guint i = n; i-- > 0;)
    if (parent[i] >= 0)
      {
        next_sibling[i] = first_child[parent[i]];
        first_child[parent[i]] = i;
      }

  for (guint r = 0; r < n; r++)
    {
      int v = r;

      if (parent[r] >= 0)
        continue;
      for (;;)
        {
          order[k++] = v;
          if (first_child[v] >= 0)
            {
              v = first_child[v];
              continue;
            }
          while (v != (int) r && next_sibling[v] < 0)
            v = parent[v];
          if (v == (int) r)
            break;
          v = next_sibling[v];
        }
    }
  return k;
}
