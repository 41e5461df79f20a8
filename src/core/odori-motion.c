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
  g_free (motion);
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
  return copy;
}

static double
quat_dot (const float a[4],
          const float b[4])
{
  return (double) a[0] * b[0] + (double) a[1] * b[1] + (double) a[2] * b[2] + (double) a[3] * b[3];
}

void
odori_quat_between (const float a[3],
                    const float b[3],
                    float       out[4])
{
  float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  float n;

  if (d < -1.0f + 1e-6f)
    {
      /* a half turn about any axis orthogonal to A: cross A with its least aligned axis */
      float e[3] = { 0, 0, 0 };
      int k = fabsf (a[0]) <= fabsf (a[1]) ? (fabsf (a[0]) <= fabsf (a[2]) ? 0 : 2)
                                           : (fabsf (a[1]) <= fabsf (a[2]) ? 1 : 2);

      e[k] = 1;
      out[0] = a[1] * e[2] - a[2] * e[1];
      out[1] = a[2] * e[0] - a[0] * e[2];
      out[2] = a[0] * e[1] - a[1] * e[0];
      out[3] = 0;
    }
  else
    {
      out[0] = a[1] * b[2] - a[2] * b[1];
      out[1] = a[2] * b[0] - a[0] * b[2];
      out[2] = a[0] * b[1] - a[1] * b[0];
      out[3] = 1.0f + d;
    }
  n = sqrtf (out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
  for (int i = 0; i < 4; i++)
    out[i] /= n;
}

double
odori_quat_angle_deg (const float a[4],
                      const float b[4])
{
  double na = sqrt (quat_dot (a, a));
  double nb = sqrt (quat_dot (b, b));
  double d;

  if (na == 0 || nb == 0)
    return 180.0;
  d = fabs (quat_dot (a, b)) / (na * nb);
  if (d > 1)
    d = 1;
  /* 2·acos(d) loses precision near d = 1; the half-chord form does not. */
  {
    double dx = 0, sx = 0;
    double sign = quat_dot (a, b) < 0 ? -1 : 1;

    for (int i = 0; i < 4; i++)
      {
        double u = a[i] / na, v = sign * b[i] / nb;
        dx += (u - v) * (u - v);
        sx += (u + v) * (u + v);
      }
    return 4.0 * atan2 (sqrt (dx), sqrt (sx)) * (180.0 / G_PI);
  }
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
        const OdoriTransform *ta = odori_motion_get (a, f, s);
        const OdoriTransform *tb = odori_motion_get (b, f, s);
        double angle;

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

/* Euler angles. */

static int
axis_index (char c)
{
  switch (c)
    {
    case 'X': case 'x': return 0;
    case 'Y': case 'y': return 1;
    case 'Z': case 'z': return 2;
    default: return -1;
    }
}

static gboolean
parse_order (const char *order,
             int         axes[3])
{
  if (order == NULL || strlen (order) != 3)
    return FALSE;
  for (int i = 0; i < 3; i++)
    if ((axes[i] = axis_index (order[i])) < 0)
      return FALSE;
  return axes[0] != axes[1] && axes[1] != axes[2] && axes[0] != axes[2];
}

void
odori_euler_to_quat (const char   *order,
                     const double  angles_deg[3],
                     float         q[4])
{
  double acc[4] = { 0, 0, 0, 1 };
  int axes[3];

  if (!parse_order (order, axes))
    {
      g_critical ("invalid rotation order %s", order ? order : "(null)");
      q[0] = q[1] = q[2] = 0;
      q[3] = 1;
      return;
    }

  /* acc = acc · r_i for each axis rotation, in double: r_i has one non-zero vector
   * component, so the product is a handful of multiply-adds (this runs once per segment
   * per frame in every reader). Zero angles are skipped. */
  for (int i = 0; i < 3; i++)
    {
      double half = angles_deg[i] * (G_PI / 360.0);
      double s, c, x = acc[0], y = acc[1], z = acc[2], w = acc[3];
      float sf, cf;

      if (half == 0)
        continue;
      /* the result is stored as float: float sine and cosine are precise enough and
       * twice as fast (this is a tenth of a big BVA's parse) */
      sf = sinf ((float) half);
      cf = cosf ((float) half);
      s = sf;
      c = cf;
      switch (axes[i])
        {
        case 0: /* (x,y,z,w)·(s,0,0,c) */
          acc[0] = w * s + x * c;
          acc[1] = y * c + z * s;
          acc[2] = z * c - y * s;
          acc[3] = w * c - x * s;
          break;
        case 1: /* ·(0,s,0,c) */
          acc[0] = x * c - z * s;
          acc[1] = w * s + y * c;
          acc[2] = z * c + x * s;
          acc[3] = w * c - y * s;
          break;
        default: /* ·(0,0,s,c) */
          acc[0] = x * c + y * s;
          acc[1] = y * c - x * s;
          acc[2] = w * s + z * c;
          acc[3] = w * c - z * s;
          break;
        }
    }
  for (int i = 0; i < 4; i++)
    q[i] = (float) acc[i];
}

/* Rotation matrix of a unit quaternion, in double: extracting angles near +-90 degrees
 * from a float matrix would lose a hundredth of a degree in asin. */
static void
quat_to_mat3d (const float q[4],
               double      m[3][3])
{
  double x = q[0], y = q[1], z = q[2], w = q[3];
  double n = sqrt (x * x + y * y + z * z + w * w);

  if (n > 0)
    {
      x /= n;
      y /= n;
      z /= n;
      w /= n;
    }
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

static void
axis_rotation (int    axis,
               double rad,
               double m[3][3])
{
  int a = (axis + 1) % 3, b = (axis + 2) % 3;
  double c = cos (rad), s = sin (rad);

  memset (m, 0, sizeof (double) * 9);
  m[axis][axis] = 1;
  m[a][a] = c;
  m[b][b] = c;
  m[b][a] = s;
  m[a][b] = -s;
}

static void
mat3d_mul (double a[3][3],
           double b[3][3],
           double out[3][3])
{
  double r[3][3];

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  memcpy (out, r, sizeof r);
}

static double
wrap_near (double angle,
           double target)
{
  return angle + 360.0 * round ((target - angle) / 360.0);
}

void
odori_quat_to_euler (const char   *order,
                     const float   q[4],
                     const double *prev_deg,
                     double        angles_deg[3])
{
  int axes[3], i, j, k;
  double m[3][3], s, sin2, a1, a2, a3;
  const double to_deg = 180.0 / G_PI;
  double prev_copy[3];

  /* ANGLES_DEG may be PREV_DEG itself */
  if (prev_deg != NULL)
    {
      memcpy (prev_copy, prev_deg, sizeof prev_copy);
      prev_deg = prev_copy;
    }

  if (!parse_order (order, axes))
    {
      g_critical ("invalid rotation order %s", order ? order : "(null)");
      angles_deg[0] = angles_deg[1] = angles_deg[2] = 0;
      return;
    }
  i = axes[0];
  j = axes[1];
  k = axes[2];
  /* +1 for the cyclic orders XYZ, YZX, ZXY. */
  s = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;

  quat_to_mat3d (q, m);
  sin2 = CLAMP (s * m[i][k], -1.0, 1.0);
  /* atan2 of sine and cosine keeps full precision near ±90°, where asin loses it */
  a2 = atan2 (sin2, hypot (m[i][i], m[i][j]));

  if (hypot (m[i][i], m[i][j]) > 1e-9)
    {
      a1 = atan2 (-s * m[j][k], m[k][k]);
      a3 = atan2 (-s * m[i][j], m[i][i]);
    }
  else
    {
      /* Gimbal lock: only a1 ± a3 is defined. Keep a3 where it was and solve a1 from
       * R · R_k(a3)ᵀ · R_j(a2)ᵀ = R_i(a1). */
      double rk[3][3], rj[3][3], rest[3][3];
      int c1 = (i + 1) % 3, c2 = (i + 2) % 3;

      a3 = prev_deg ? prev_deg[2] / to_deg : 0.0;
      axis_rotation (k, -a3, rk);
      axis_rotation (j, -a2, rj);
      mat3d_mul (m, rk, rest);
      mat3d_mul (rest, rj, rest);
      a1 = atan2 (rest[c2][c1], rest[c1][c1]);
    }

  angles_deg[0] = a1 * to_deg;
  angles_deg[1] = a2 * to_deg;
  angles_deg[2] = a3 * to_deg;

  if (prev_deg != NULL)
    {
      /* Two angle triples give every rotation; take the one nearer the previous frame,
       * each angle moved by whole turns towards it. */
      double alt[3] = { angles_deg[0] + 180.0, 180.0 - angles_deg[1], angles_deg[2] + 180.0 };
      double d0 = 0, d1 = 0;

      for (int n = 0; n < 3; n++)
        {
          angles_deg[n] = wrap_near (angles_deg[n], prev_deg[n]);
          alt[n] = wrap_near (alt[n], prev_deg[n]);
          d0 += fabs (angles_deg[n] - prev_deg[n]);
          d1 += fabs (alt[n] - prev_deg[n]);
        }
      if (d1 < d0)
        memcpy (angles_deg, alt, sizeof alt);
    }
}
