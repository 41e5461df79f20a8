/* odori-foot-lock.c: feet that stay planted, the foot lock of a composed motion
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules (docs/composition.md, "Foot locking"):
 * - Legs: a bone whose display-skeleton table calls it a thigh (bulge code 3), its child
 *   calf (4) and the calf's first child, the foot; segments are positioned at their
 *   joints (hip, knee, ankle). Whatever else hangs below the thigh moves rigidly with the
 *   bone it hangs from.
 * - Up: the coordinate axis nearest the mean hip-above-ankle direction (Y for a composed
 *   motion; Z for a Z-up capture). "Horizontal" is perpendicular to it.
 * - Floor: the 2nd percentile of every ankle's height over the motion. A leg's scale L is
 *   its mean thigh plus calf length.
 * - Contact: the ankle within 0.1 L of the floor and moving slower than 0.75 L per second
 *   (central difference); the per-frame flags go through a majority (median) filter of
 *   about 0.15 s (an odd number of frames, at least 3), and runs shorter than 0.1 s (at
 *   least 2 frames) are dropped.
 * - Plant: the ankle's horizontal position at the contact's first frame. During the
 *   contact the ankle's target is the plant at the ankle's own height (a heel that rises
 *   as the contact ends is not a slide); after it, the correction (plant minus ankle,
 *   horizontal) at its last frame fades linearly to nothing over 0.1 s (fewer frames
 *   when the same foot's next contact begins sooner). A correction is zero at a
 *   contact's first frame, so it needs no fade in.
 * - Two-bone IK: the hip stays, the knee keeps its bend plane (the plane of hip, knee
 *   and ankle; a straight leg keeps the last bent frame's), the reach is clamped to
 *   [|thigh − calf|, max (0.98 (thigh + calf), the leg's own hip-ankle distance)] so the
 *   knee never straightens further than the motion itself had it. Thigh and calf turn by
 *   rotations that take their bone and the bend normal to the new ones, so the knee's
 *   own rotation changes about its hinge only; the foot keeps its world rotation.
 * - Root: where a plant is out of reach, the whole body moves down (along −up) by what
 *   the farthest plant needs; that need is widened by a moving maximum and smoothed by a
 *   moving mean over 0.1 s each side, so the drop fades in and out and is never less
 *   than needed. A foot not in contact keeps its world position through the drop.
 * - Thigh and calf lengths (hip-knee and knee-ankle distances) are those of the frame
 *   before locking; every other bone moves rigidly.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "odori-foot-lock.h"
#include "odori-skeleton.h"

/* The display skeleton tables' (placeholder) bulge codes, odori-skeleton.c: they mark the
 * thighs and calves of every known naming scheme. */
#define THIGH_BULGE 3
#define CALF_BULGE  4

#define FLOOR_PERCENTILE    0.02
#define CONTACT_HEIGHT      0.10 /* of L, above the floor */
#define CONTACT_SPEED       0.75 /* L per second */
#define MEDIAN_SECONDS      0.15
#define MIN_CONTACT_SECONDS 0.10
#define BLEND_SECONDS       0.10
#define REACH_CLAMP         0.98

typedef struct
{
  int     hip, knee, ankle; /* segments */
  GArray *thigh_group;      /* int: segments moving with the thigh */
  GArray *shin_group;       /* ... with the calf */
  GArray *foot_group;       /* ... with the foot (translated only) */
  double  scale;            /* L: mean thigh + calf length, of the last apply */
  double  n[3];             /* the bend normal of the last bent frame */
} Leg;

struct _OdoriFootLock
{
  guint   n_segments;
  char  **names; /* the segment names the lock was made for */
  Leg    *legs;
  guint   n_legs;
  GArray *contacts; /* OdoriFootContact */
  double  up[3];
  double  max_drop;
  double *steps; /* per leg and frame: the ankle's horizontal travel from the frame
                  * before inside a contact, before [0] and after [1] locking */
  guint n_steps; /* frames they cover */
  /* What odori_foot_lock_update () needs of the last apply: */
  gboolean valid;
  guint    n_frames;    /* the frames and frame time it locked */
  double   frame_time;
  guint    n_changed;   /* what it returned */
  float   *joints;      /* per frame and leg: the hip, knee and ankle positions it read */
  double  *corr;        /* its corrections (fill_corrections ()) */
  double  *drop;        /* and drops (fill_drops ()) */
};

/* Small vector helpers, in double */

static inline void
load3 (const float f[3],
       double      d[3])
{
  d[0] = f[0], d[1] = f[1], d[2] = f[2];
}

static inline double
dot3 (const double a[3],
      const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void
sub3 (const double a[3],
      const double b[3],
      double       out[3])
{
  out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}

static inline void
cross3 (const double a[3],
        const double b[3],
        double       out[3])
{
  double c[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };

  memcpy (out, c, sizeof c);
}

static inline double
norm3 (const double a[3])
{
  return sqrt (dot3 (a, a));
}

/* Scales A to unit length; FALSE (A unchanged) when it is shorter than EPS. */
static inline gboolean
normalize3 (double a[3],
            double eps)
{
  double n = norm3 (a);

  if (!(n > eps))
    return FALSE;
  a[0] /= n, a[1] /= n, a[2] /= n;
  return TRUE;
}

/* A minus its component along unit U. */
static inline void
reject3 (const double a[3],
         const double u[3],
         double       out[3])
{
  double k = dot3 (a, u);

  out[0] = a[0] - k * u[0], out[1] = a[1] - k * u[1], out[2] = a[2] - k * u[2];
}

static inline gboolean
finite3 (const float p[3])
{
  return isfinite (p[0]) && isfinite (p[1]) && isfinite (p[2]);
}

/* Set-up */

static void
leg_clear (Leg *leg)
{
  g_clear_pointer (&leg->thigh_group, g_array_unref);
  g_clear_pointer (&leg->shin_group, g_array_unref);
  g_clear_pointer (&leg->foot_group, g_array_unref);
}

void
odori_foot_lock_free (OdoriFootLock *self)
{
  if (self == NULL)
    return;
  for (guint l = 0; l < self->n_legs; l++)
    leg_clear (&self->legs[l]);
  g_free (self->legs);
  g_strfreev (self->names);
  g_clear_pointer (&self->contacts, g_array_unref);
  g_free (self->steps);
  g_free (self->joints);
  g_free (self->corr);
  g_free (self->drop);
  g_free (self);
}

static gboolean
bone_is_under (const OdoriSkeleton *skeleton,
               int                  bone,
               int                  ancestor)
{
  for (int b = bone; b >= 0; b = skeleton->bones[b].parent)
    if (b == ancestor)
      return TRUE;
  return FALSE;
}

static int
first_child (const OdoriSkeleton *skeleton,
             int                  bone,
             int                  bulge)
{
  for (guint b = bone + 1; b < skeleton->n_bones; b++)
    if (skeleton->bones[b].parent == bone && (bulge == 0 || skeleton->bones[b].bulge_code == bulge))
      return b;
  return -1;
}

/* The leg hanging from THIGH, or FALSE. */
static gboolean
leg_init (Leg                 *leg,
          const OdoriSkeleton *skeleton,
          const int           *seg_of_bone,
          int                  thigh)
{
  int calf = first_child (skeleton, thigh, CALF_BULGE);
  int foot = calf >= 0 ? first_child (skeleton, calf, 0) : -1;

  if (foot < 0 || seg_of_bone[thigh] < 0 || seg_of_bone[calf] < 0 || seg_of_bone[foot] < 0)
    return FALSE;
  leg->hip = seg_of_bone[thigh];
  leg->knee = seg_of_bone[calf];
  leg->ankle = seg_of_bone[foot];
  leg->thigh_group = g_array_new (FALSE, FALSE, sizeof (int));
  leg->shin_group = g_array_new (FALSE, FALSE, sizeof (int));
  leg->foot_group = g_array_new (FALSE, FALSE, sizeof (int));
  for (guint b = thigh + 1; b < skeleton->n_bones; b++)
    {
      int s = seg_of_bone[b];

      if (s < 0 || (int) b == calf || (int) b == foot || !bone_is_under (skeleton, b, thigh))
        continue;
      if (bone_is_under (skeleton, b, foot))
        g_array_append_val (leg->foot_group, s);
      else if (bone_is_under (skeleton, b, calf))
        g_array_append_val (leg->shin_group, s);
      else
        g_array_append_val (leg->thigh_group, s);
    }
  return TRUE;
}

/**
 * odori_foot_lock_new:
 * @motion: a motion whose segment names say which are legs
 *
 * Returns: (transfer full) (nullable): a foot lock for motions with MOTION's segments,
 *   or %NULL when MOTION has no leg that can be locked
 */
OdoriFootLock *
odori_foot_lock_new (const OdoriMotion *motion)
{
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autofree int *seg_of_bone = NULL;
  g_autoptr(OdoriFootLock) self = NULL;

  g_return_val_if_fail (motion != NULL, NULL);

  if (motion->n_segments == 0)
    return NULL;
  skeleton = odori_skeleton_for_motion (motion);
  if (skeleton == NULL || skeleton->scheme == ODORI_SKELETON_SCHEME_MARKERS)
    return NULL;
  seg_of_bone = g_new (int, skeleton->n_bones);
  for (guint b = 0; b < skeleton->n_bones; b++)
    seg_of_bone[b] = odori_motion_find_segment (motion, skeleton->bones[b].name);

  self = g_new0 (OdoriFootLock, 1);
  self->legs = g_new0 (Leg, 2);
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      if (skeleton->bones[b].bulge_code != THIGH_BULGE)
        continue;
      if (self->n_legs > 0 && self->n_legs % 2 == 0)
        self->legs = g_renew (Leg, self->legs, self->n_legs + 2);
      memset (&self->legs[self->n_legs], 0, sizeof (Leg));
      if (leg_init (&self->legs[self->n_legs], skeleton, seg_of_bone, b))
        self->n_legs++;
    }
  if (self->n_legs == 0)
    return NULL;
  self->n_segments = motion->n_segments;
  self->names = g_new0 (char *, motion->n_segments + 1);
  for (guint s = 0; s < motion->n_segments; s++)
    self->names[s] = g_strdup (motion->segments[s].name ? motion->segments[s].name : "");
  self->contacts = g_array_new (FALSE, FALSE, sizeof (OdoriFootContact));
  self->up[1] = 1;
  return g_steal_pointer (&self);
}

gboolean
odori_foot_lock_matches (const OdoriFootLock *self,
                         const OdoriMotion   *motion)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (motion != NULL, FALSE);

  if (motion->n_segments != self->n_segments)
    return FALSE;
  for (guint s = 0; s < motion->n_segments; s++)
    if (g_strcmp0 (motion->segments[s].name ? motion->segments[s].name : "", self->names[s]) != 0)
      return FALSE;
  return TRUE;
}

guint
odori_foot_lock_get_n_legs (const OdoriFootLock *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_legs;
}

const char *
odori_foot_lock_get_leg_name (const OdoriFootLock *self,
                              guint                leg)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (leg < self->n_legs, NULL);

  return self->names[self->legs[leg].ankle];
}

GArray *
odori_foot_lock_get_contacts (OdoriFootLock *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->contacts;
}

double
odori_foot_lock_get_max_drop (const OdoriFootLock *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_drop;
}

/* Analysis */

/* A segment's world position (a composed motion may keep root offsets apart), by value:
 * seg_pos (...).v lives to the end of the expression that reads it. */
typedef struct
{
  float v[3];
} Pos;

static inline Pos
seg_pos (const OdoriMotion *motion,
         guint              frame,
         int                seg)
{
  Pos p;

  odori_motion_get_world_position (motion, frame, seg, p.v);
  return p;
}

/* The coordinate axis nearest the mean hip-above-ankle direction, signed. */
static void
find_up (OdoriFootLock     *self,
         const OdoriMotion *motion)
{
  double sum[3] = { 0, 0, 0 };
  guint  step = MAX (motion->n_frames / 256, 1);
  int    best = 1;

  for (guint f = 0; f < motion->n_frames; f += step)
    for (guint l = 0; l < self->n_legs; l++)
      {
        const Pos    at_h = seg_pos (motion, f, self->legs[l].hip);
        const float *h = at_h.v;
        const Pos    at_a = seg_pos (motion, f, self->legs[l].ankle);
        const float *a = at_a.v;

        if (finite3 (h) && finite3 (a))
          for (int i = 0; i < 3; i++)
            sum[i] += (double) h[i] - a[i];
      }
  for (int i = 0; i < 3; i++)
    if (fabs (sum[i]) > fabs (sum[best]))
      best = i;
  memset (self->up, 0, sizeof self->up);
  self->up[best] = sum[best] < 0 ? -1 : 1;
}

static double
leg_scale (const Leg         *leg,
           const OdoriMotion *motion)
{
  guint  step = MAX (motion->n_frames / 256, 1), n = 0;
  double sum = 0;

  for (guint f = 0; f < motion->n_frames; f += step)
    {
      double h[3], k[3], a[3], d1[3], d2[3];

      if (!finite3 (seg_pos (motion, f, leg->hip).v) || !finite3 (seg_pos (motion, f, leg->knee).v) ||
          !finite3 (seg_pos (motion, f, leg->ankle).v))
        continue;
      load3 (seg_pos (motion, f, leg->hip).v, h);
      load3 (seg_pos (motion, f, leg->knee).v, k);
      load3 (seg_pos (motion, f, leg->ankle).v, a);
      sub3 (k, h, d1);
      sub3 (a, k, d2);
      sum += norm3 (d1) + norm3 (d2);
      n++;
    }
  return n > 0 ? sum / n : 0;
}

/* The K-th smallest of V[0..N-1] (reorders V). */
static double
select_kth (double *v,
            gsize   n,
            gsize   k)
{
  gsize lo = 0, hi = n - 1;

  while (lo < hi)
    {
      double pivot = v[lo + (hi - lo) / 2];
      gsize  i = lo, j = hi;

      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              double t = v[i];

              v[i] = v[j], v[j] = t;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        break;
    }
  return v[k];
}

static double
find_floor (OdoriFootLock     *self,
            const OdoriMotion *motion)
{
  g_autofree double *h = g_new (double, (gsize) motion->n_frames * self->n_legs);
  gsize              n = 0;

  for (guint l = 0; l < self->n_legs; l++)
    for (guint f = 0; f < motion->n_frames; f++)
      {
        const Pos    at_a = seg_pos (motion, f, self->legs[l].ankle);
        const float *a = at_a.v;
        double       p[3];

        if (!finite3 (a))
          continue;
        load3 (a, p);
        h[n++] = dot3 (p, self->up);
      }
  if (n == 0)
    return 0;
  return select_kth (h, n, (gsize) (FLOOR_PERCENTILE * (n - 1)));
}

static guint
seconds_to_frames (const OdoriMotion *motion,
                   double             seconds)
{
  double ft = motion->frame_time > 0 ? motion->frame_time : 1.0 / 30;

  return (guint) MIN (lround (seconds / ft), 100000);
}

/* Contact flags of leg L, before filtering, into RAW. */
static void
raw_contacts (OdoriFootLock     *self,
              const OdoriMotion *motion,
              const Leg         *leg,
              double             floor,
              guint8            *raw)
{
  double ft = motion->frame_time > 0 ? motion->frame_time : 1.0 / 30;
  double max_height = CONTACT_HEIGHT * leg->scale;
  double max_speed = CONTACT_SPEED * leg->scale;
  guint  n = motion->n_frames;

  for (guint f = 0; f < n; f++)
    {
      guint        f0 = f > 0 ? f - 1 : f, f1 = f + 1 < n ? f + 1 : f;
      const Pos    at_a = seg_pos (motion, f, leg->ankle);
      const float *a = at_a.v;
      const Pos    at_a0 = seg_pos (motion, f0, leg->ankle);
      const float *a0 = at_a0.v;
      const Pos    at_a1 = seg_pos (motion, f1, leg->ankle);
      const float *a1 = at_a1.v;
      double       p[3], p0[3], p1[3], v[3];

      raw[f] = 0;
      if (!finite3 (a) || !finite3 (a0) || !finite3 (a1) || f1 == f0)
        continue;
      load3 (a, p);
      load3 (a0, p0);
      load3 (a1, p1);
      sub3 (p1, p0, v);
      raw[f] = dot3 (p, self->up) - floor <= max_height && norm3 (v) / ((f1 - f0) * ft) <= max_speed;
    }
}

/* A majority filter of odd width W over RAW into OUT. */
static void
median_filter (const guint8 *raw,
               guint         n,
               guint         w,
               guint8       *out)
{
  guint half = w / 2, count = 0;

  /* the window [f - half, f + half], clipped; a running count of set flags */
  for (guint f = 0; f < MIN (half, n); f++)
    count += raw[f];
  for (guint f = 0; f < n; f++)
    {
      guint lo = f >= half ? f - half : 0, hi = MIN (f + half, n - 1);

      if (f + half < n)
        count += raw[f + half];
      out[f] = 2 * count > hi - lo + 1;
      if (f >= half)
        count -= raw[f - half];
    }
}

static void
detect_contacts (OdoriFootLock     *self,
                 const OdoriMotion *motion,
                 double             floor)
{
  guint              n = motion->n_frames;
  guint              w = MAX (seconds_to_frames (motion, MEDIAN_SECONDS) | 1, 3);
  guint              min_len = MAX (seconds_to_frames (motion, MIN_CONTACT_SECONDS), 2);
  g_autofree guint8 *raw = g_new (guint8, n);
  g_autofree guint8 *flag = g_new (guint8, n);

  g_array_set_size (self->contacts, 0);
  for (guint l = 0; l < self->n_legs; l++)
    {
      raw_contacts (self, motion, &self->legs[l], floor, raw);
      median_filter (raw, n, w, flag);
      for (guint f = 0; f < n;)
        {
          guint e = f;

          if (!flag[f])
            {
              f++;
              continue;
            }
          while (e + 1 < n && flag[e + 1])
            e++;
          if (e - f + 1 >= min_len)
            {
              OdoriFootContact c = { .leg = l, .first = f, .last = e };

              g_array_append_val (self->contacts, c);
            }
          f = e + 1;
        }
    }
}

/* Corrections: CORR[(leg * n + f) * 3 ..] the ankle's target minus its position. */
static void
fill_corrections (OdoriFootLock     *self,
                  const OdoriMotion *motion,
                  double            *corr)
{
  guint n = motion->n_frames;
  guint ramp = MAX (seconds_to_frames (motion, BLEND_SECONDS), 1);

  memset (corr, 0, sizeof (double) * 3 * n * self->n_legs);
  for (guint i = 0; i < self->contacts->len; i++)
    {
      const OdoriFootContact *c = &g_array_index (self->contacts, OdoriFootContact, i);
      const OdoriFootContact *next = i + 1 < self->contacts->len ? c + 1 : NULL;
      const Leg              *leg = &self->legs[c->leg];
      double                 *lc = corr + (gsize) c->leg * n * 3;
      double                  plant[3], last[3] = { 0, 0, 0 };
      guint                   r, end;

      load3 (seg_pos (motion, c->first, leg->ankle).v, plant);
      for (guint f = c->first; f <= c->last; f++)
        {
          double a[3], d[3];

          /* horizontally: a heel that rises at the contact's end is not a slide */
          load3 (seg_pos (motion, f, leg->ankle).v, a);
          sub3 (plant, a, d);
          reject3 (d, self->up, lc + (gsize) f * 3);
        }
      memcpy (last, lc + (gsize) c->last * 3, sizeof last);
      end = next != NULL && next->leg == c->leg ? next->first : n;
      r = MIN (ramp, end - c->last - 1);
      for (guint k = 1; k <= r; k++)
        for (int i3 = 0; i3 < 3; i3++)
          lc[(gsize) (c->last + k) * 3 + i3] = last[i3] * (1.0 - (double) k / (r + 1));
    }
}

/* The reach limits of a leg whose hip-ankle distance is D0 before locking. */
static void
reach_limits (double  l1,
              double  l2,
              double  d0,
              double *rmin,
              double *rmax)
{
  *rmax = MAX (REACH_CLAMP * (l1 + l2), MIN (d0, (l1 + l2) * (1 - 1e-9)));
  *rmin = MIN (MAX (fabs (l1 - l2) * (1 + 1e-6), 1e-6 * (l1 + l2)), *rmax);
}

/* How far the body must move down so that TARGET is within the reach of the hip at H. */
static double
needed_drop (const double up[3],
             const double h[3],
             const double target[3],
             double       rmax)
{
  double d[3], horizontal[3], hz, v;

  sub3 (h, target, d);
  v = dot3 (d, up);
  reject3 (d, up, horizontal);
  hz = norm3 (horizontal);
  if (hz >= rmax)
    return MAX (v, 0); /* out of reach anyway: as near as it gets */
  return MAX (v - sqrt (rmax * rmax - hz * hz), 0);
}

/* The drop of each frame into DROP: what the plants need, widened and smoothed. */
static void
fill_drops (OdoriFootLock     *self,
            const OdoriMotion *motion,
            const double      *corr,
            double            *drop)
{
  guint              n = motion->n_frames;
  guint              r = MAX (seconds_to_frames (motion, BLEND_SECONDS), 1);
  g_autofree double *need = g_new0 (double, n);
  g_autofree double *wide = NULL;
  gboolean           any = FALSE;
  double             sum = 0;

  for (guint l = 0; l < self->n_legs; l++)
    {
      const Leg    *leg = &self->legs[l];
      const double *lc = corr + (gsize) l * n * 3;

      for (guint f = 0; f < n; f++)
        {
          const double *c = lc + (gsize) f * 3;
          double        h[3], k[3], a[3], t[3], d1[3], d2[3], d0[3], rmin, rmax;

          if (c[0] == 0 && c[1] == 0 && c[2] == 0)
            continue;
          load3 (seg_pos (motion, f, leg->hip).v, h);
          load3 (seg_pos (motion, f, leg->knee).v, k);
          load3 (seg_pos (motion, f, leg->ankle).v, a);
          sub3 (k, h, d1);
          sub3 (a, k, d2);
          sub3 (a, h, d0);
          reach_limits (norm3 (d1), norm3 (d2), norm3 (d0), &rmin, &rmax);
          for (int i = 0; i < 3; i++)
            t[i] = a[i] + c[i];
          need[f] = MAX (need[f], needed_drop (self->up, h, t, rmax));
          any = any || need[f] > 0;
        }
    }
  memset (drop, 0, sizeof (double) * n);
  if (!any)
    return;

  /* a moving maximum, then a moving mean of the same radius: never below the need */
  wide = g_new (double, n);
  for (guint f = 0; f < n; f++)
    {
      double m = 0;

      for (guint g = f >= r ? f - r : 0; g <= MIN (f + r, n - 1); g++)
        m = MAX (m, need[g]);
      wide[f] = m;
    }
  for (guint f = 0; f < MIN (r, n); f++)
    sum += wide[f];
  for (guint f = 0; f < n; f++)
    {
      guint lo = f >= r ? f - r : 0, hi = MIN (f + r, n - 1);

      if (f + r < n)
        sum += wide[f + r];
      drop[f] = sum / (hi - lo + 1);
      if (f >= r)
        sum -= wide[f - r];
    }
  /* the running sum can leave rounding dust where there is no drop */
  for (guint f = 0; f < n; f++)
    if (drop[f] < 1e-12 * self->legs[0].scale)
      drop[f] = 0;
}

/* Solving */

/* The rotation taking the orthonormal frame (A, N, A × N) to (B, M, B × M). */
static void
frame_rotation (const double a[3],
                const double n[3],
                const double b[3],
                const double m[3],
                float        q[4])
{
  double        an[3], bm[3];
  const double *e0[3] = { a, n, an }, *e1[3] = { b, m, bm };
  mat3          r;

  cross3 (a, n, an);
  cross3 (b, m, bm);
  /* R = E1 · E0ᵀ; cglm is column-major: r[col][row] */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[j][i] = (float) (e1[0][i] * e0[0][j] + e1[1][i] * e0[1][j] + e1[2][i] * e0[2][j]);
  glm_mat3_quat (r, q);
  glm_quat_normalize (q);
}

static void
turn_about (OdoriTransform *t,
            const float     q[4],
            const double    pivot_from[3],
            const double    pivot_to[3])
{
  float v[3], w[3], r[4];

  for (int i = 0; i < 3; i++)
    v[i] = (float) (t->position[i] - pivot_from[i]);
  odori_quat_rotate (q, v, w);
  for (int i = 0; i < 3; i++)
    t->position[i] = (float) (pivot_to[i] + w[i]);
  odori_quat_mul (q, t->rotation, r);
  glm_quat_normalize (r);
  memcpy (t->rotation, r, sizeof r);
}

/* The bend normal of leg LEG at frame F of MOTION, into leg->n when the knee is bent
 * (returns whether it is). */
static gboolean
update_normal (Leg               *leg,
               const OdoriMotion *motion,
               guint              f)
{
  double h[3], k[3], a[3], u[3], kv[3], perp[3], n[3];

  if (!finite3 (seg_pos (motion, f, leg->hip).v) || !finite3 (seg_pos (motion, f, leg->knee).v) ||
      !finite3 (seg_pos (motion, f, leg->ankle).v))
    return FALSE;
  load3 (seg_pos (motion, f, leg->hip).v, h);
  load3 (seg_pos (motion, f, leg->knee).v, k);
  load3 (seg_pos (motion, f, leg->ankle).v, a);
  sub3 (a, h, u);
  sub3 (k, h, kv);
  if (!normalize3 (u, 1e-9 * leg->scale))
    return FALSE;
  reject3 (kv, u, perp);
  if (!normalize3 (perp, 1e-3 * norm3 (kv)))
    return FALSE;
  cross3 (u, perp, n);
  memcpy (leg->n, n, sizeof n);
  return TRUE;
}

static void
initial_normal (Leg               *leg,
                const OdoriMotion *motion)
{
  float x[3];

  leg->n[0] = leg->n[1] = leg->n[2] = 0;
  for (guint f = 0; f < motion->n_frames; f++)
    {
      update_normal (leg, motion, f);
      if (leg->n[0] != 0 || leg->n[1] != 0 || leg->n[2] != 0)
        return;
    }
  /* never bent: the thigh's own X axis */
  odori_quat_rotate (odori_motion_get (motion, 0, leg->hip)->rotation, (float[3]){ 1, 0, 0 }, x);
  load3 (x, leg->n);
}

/* Moves the ankle of LEG in frame F of DEST towards TARGET (its hip, knee and ankle as
 * they are in DEST, lengths kept). */
static void
solve_leg (Leg         *leg,
           OdoriMotion *dest,
           guint        f,
           const double target[3])
{
  OdoriTransform *th = odori_motion_get (dest, f, leg->hip);
  OdoriTransform *tk = odori_motion_get (dest, f, leg->knee);
  OdoriTransform *ta = odori_motion_get (dest, f, leg->ankle);
  double          h[3], k0[3], a0[3], t0[3], s0[3], d[3], u[3], n[3], n0[3], nt[3], ns[3], v[3];
  double          k[3], a[3], t1[3], s1[3], shift[3];
  double          l1, l2, d0, dist, rmin, rmax, x, y;
  float           q1[4], q2[4];

  if (!finite3 (th->position) || !finite3 (tk->position) || !finite3 (ta->position))
    return;
  load3 (th->position, h);
  load3 (tk->position, k0);
  load3 (ta->position, a0);
  sub3 (k0, h, t0);
  sub3 (a0, k0, s0);
  sub3 (a0, h, d);
  l1 = norm3 (t0);
  l2 = norm3 (s0);
  d0 = norm3 (d);
  if (!normalize3 (t0, 1e-9) || !normalize3 (s0, 1e-9))
    return;
  reach_limits (l1, l2, d0, &rmin, &rmax);

  sub3 (target, h, u);
  dist = norm3 (u);
  if (!normalize3 (u, 1e-9 * (l1 + l2)))
    {
      memcpy (u, d, sizeof u);
      if (!normalize3 (u, 1e-12))
        return;
    }
  dist = CLAMP (dist, rmin, rmax);

  /* the bend plane: the new normal is the old one made perpendicular to the new reach */
  memcpy (n, leg->n, sizeof n);
  reject3 (n, u, n0);
  if (!normalize3 (n0, 1e-6))
    return;
  cross3 (n0, u, v);
  x = (l1 * l1 - l2 * l2 + dist * dist) / (2 * dist);
  y = sqrt (MAX (l1 * l1 - x * x, 0));
  for (int i = 0; i < 3; i++)
    {
      k[i] = h[i] + x * u[i] + y * v[i];
      a[i] = h[i] + dist * u[i];
      t1[i] = (k[i] - h[i]) / l1;
      s1[i] = (a[i] - k[i]) / l2;
    }

  /* the old frames: the normal made exactly perpendicular to each old bone */
  reject3 (n, t0, nt);
  reject3 (n, s0, ns);
  if (!normalize3 (nt, 1e-6) || !normalize3 (ns, 1e-6))
    return;
  {
    double n1[3], n2[3];

    reject3 (n0, t1, n1);
    reject3 (n0, s1, n2);
    if (!normalize3 (n1, 1e-6) || !normalize3 (n2, 1e-6))
      return;
    frame_rotation (t0, nt, t1, n1, q1);
    frame_rotation (s0, ns, s1, n2, q2);
  }

  for (guint i = 0; i < leg->thigh_group->len; i++)
    turn_about (odori_motion_get (dest, f, g_array_index (leg->thigh_group, int, i)), q1, h, h);
  for (guint i = 0; i < leg->shin_group->len; i++)
    turn_about (odori_motion_get (dest, f, g_array_index (leg->shin_group, int, i)), q2, k0, k);
  turn_about (th, q1, h, h);
  turn_about (tk, q2, k0, k);
  sub3 (a, a0, shift);
  for (guint i = 0; i < leg->foot_group->len; i++)
    {
      OdoriTransform *t = odori_motion_get (dest, f, g_array_index (leg->foot_group, int, i));

      for (int j = 0; j < 3; j++)
        t->position[j] = (float) (t->position[j] + shift[j]);
    }
  for (int j = 0; j < 3; j++)
    {
      tk->position[j] = (float) k[j];
      ta->position[j] = (float) a[j];
    }
}

double
odori_foot_lock_travel (const OdoriFootLock *self,
                        const OdoriMotion   *motion,
                        guint                leg,
                        guint                first,
                        guint                last)
{
  double sum = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (motion != NULL, 0);
  g_return_val_if_fail (leg < self->n_legs, 0);

  for (guint f = first + 1; f <= last && f < motion->n_frames; f++)
    {
      const Pos    at_p = seg_pos (motion, f, self->legs[leg].ankle);
      const float *p = at_p.v;
      const Pos    at_q = seg_pos (motion, f - 1, self->legs[leg].ankle);
      const float *q = at_q.v;
      double       a[3], b[3], d[3], h[3];

      if (!finite3 (p) || !finite3 (q))
        continue;
      load3 (p, a);
      load3 (q, b);
      sub3 (a, b, d);
      reject3 (d, self->up, h);
      sum += norm3 (h);
    }
  return sum;
}

static void
report_contacts (OdoriFootLock     *self,
                 const OdoriMotion *src,
                 const OdoriMotion *dest,
                 const double      *drop)
{
  for (guint i = 0; i < self->contacts->len; i++)
    {
      OdoriFootContact *c = &g_array_index (self->contacts, OdoriFootContact, i);
      const Leg        *leg = &self->legs[c->leg];
      double            plant[3], plant_up;

      c->slide_before = odori_foot_lock_travel (self, src, c->leg, c->first, c->last);
      c->slide_after = odori_foot_lock_travel (self, dest, c->leg, c->first, c->last);
      c->max_drop = c->max_miss = 0;
      load3 (seg_pos (src, c->first, leg->ankle).v, plant);
      plant_up = dot3 (plant, self->up);
      for (guint f = c->first; f <= c->last; f++)
        {
          double a[3], d[3], b[3], rise;

          /* the plant at the height the ankle had before locking */
          load3 (seg_pos (dest, f, leg->ankle).v, a);
          load3 (seg_pos (src, f, leg->ankle).v, b);
          rise = dot3 (b, self->up) - plant_up;
          sub3 (a, plant, d);
          for (int k = 0; k < 3; k++)
            d[k] -= rise * self->up[k];
          c->max_drop = MAX (c->max_drop, drop[f]);
          c->max_miss = MAX (c->max_miss, norm3 (d));
        }
    }
}

static double
horizontal_step (const OdoriFootLock *self,
                 const OdoriMotion   *motion,
                 int                  seg,
                 guint                f)
{
  const Pos    at_p = seg_pos (motion, f, seg);
  const float *p = at_p.v;
  const Pos    at_q = seg_pos (motion, f - 1, seg);
  const float *q = at_q.v;
  double       a[3], b[3], d[3], h[3];

  if (!finite3 (p) || !finite3 (q))
    return 0;
  load3 (p, a);
  load3 (q, b);
  sub3 (a, b, d);
  reject3 (d, self->up, h);
  return norm3 (h);
}

static void
fill_steps (OdoriFootLock     *self,
            const OdoriMotion *src,
            const OdoriMotion *dest)
{
  guint n = src->n_frames;

  self->n_steps = n;
  self->steps = g_renew (double, self->steps, (gsize) 2 * n * self->n_legs);
  memset (self->steps, 0, sizeof (double) * 2 * n * self->n_legs);
  for (guint i = 0; i < self->contacts->len; i++)
    {
      const OdoriFootContact *c = &g_array_index (self->contacts, OdoriFootContact, i);
      double                 *st = self->steps + (gsize) 2 * n * c->leg;

      for (guint f = c->first + 1; f <= c->last; f++)
        {
          st[2 * f] = horizontal_step (self, src, self->legs[c->leg].ankle, f);
          st[2 * f + 1] = horizontal_step (self, dest, self->legs[c->leg].ankle, f);
        }
    }
}

static gboolean
frame_is_corrected (const OdoriFootLock *self,
                    const double        *corr,
                    const double        *drop,
                    guint                n,
                    guint                f)
{
  if (drop[f] != 0)
    return TRUE;
  for (guint l = 0; l < self->n_legs; l++)
    {
      const double *c = corr + ((gsize) l * n + f) * 3;

      if (c[0] != 0 || c[1] != 0 || c[2] != 0)
        return TRUE;
    }
  return FALSE;
}

/* Locks frame F of DEST (a copy of SRC's frame F) with the corrections and drops CORR
 * and DROP; the legs' bend normals are those of frame F. Returns whether it changed. */
static gboolean
lock_frame (OdoriFootLock     *self,
            const OdoriMotion *src,
            OdoriMotion       *dest,
            const double      *corr,
            const double      *drop,
            guint              f)
{
  guint n = src->n_frames;

  if (!frame_is_corrected (self, corr, drop, n, f))
    return FALSE;
  if (drop[f] != 0)
    for (guint s = 0; s < dest->n_segments; s++)
      {
        float *p = odori_motion_get (dest, f, s)->position;

        for (int i = 0; i < 3; i++)
          p[i] = (float) (p[i] - drop[f] * self->up[i]);
      }
  for (guint l = 0; l < self->n_legs; l++)
    {
      const double *c = corr + ((gsize) l * n + f) * 3;
      double        target[3];

      if (drop[f] == 0 && c[0] == 0 && c[1] == 0 && c[2] == 0)
        continue;
      load3 (seg_pos (src, f, self->legs[l].ankle).v, target);
      for (int i = 0; i < 3; i++)
        target[i] += c[i];
      solve_leg (&self->legs[l], dest, f, target);
    }
  return TRUE;
}

/* The hip, knee and ankle positions of every leg at frame F of MOTION into J (9 floats
 * a leg). */
static void
read_joints (const OdoriFootLock *self,
             const OdoriMotion   *motion,
             guint                f,
             float               *j)
{
  for (guint l = 0; l < self->n_legs; l++)
    {
      memcpy (j + l * 9, seg_pos (motion, f, self->legs[l].hip).v, sizeof (float) * 3);
      memcpy (j + l * 9 + 3, seg_pos (motion, f, self->legs[l].knee).v, sizeof (float) * 3);
      memcpy (j + l * 9 + 6, seg_pos (motion, f, self->legs[l].ankle).v, sizeof (float) * 3);
    }
}

/* Frames [FROM, TO) of SRC's world transforms into DEST (which keeps no root offsets). */
static void
copy_world (const OdoriMotion *src,
            OdoriMotion       *dest,
            guint              from,
            guint              to)
{
  gsize frame = sizeof (OdoriTransform) * src->n_segments;

  if (src->root_offsets == NULL)
    {
      memcpy (odori_motion_get (dest, from, 0), odori_motion_get (src, from, 0), frame * (to - from));
      return;
    }
  for (guint f = from; f < to; f++)
    odori_motion_get_frame (src, f, odori_motion_get (dest, f, 0));
}

guint
odori_foot_lock_apply (OdoriFootLock     *self,
                       const OdoriMotion *src,
                       OdoriMotion       *dest)
{
  double *corr, *drop;
  guint   n, changed = 0;
  double  floor;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (src != NULL && dest != NULL && src != dest, 0);
  g_return_val_if_fail (src->n_segments == self->n_segments, 0);
  g_return_val_if_fail (dest->n_segments == src->n_segments && dest->n_frames == src->n_frames, 0);

  n = src->n_frames;
  copy_world (src, dest, 0, n);
  g_array_set_size (self->contacts, 0);
  self->max_drop = 0;
  self->n_steps = 0;
  self->valid = FALSE;
  if (n < 3)
    return 0;

  find_up (self, src);
  for (guint l = 0; l < self->n_legs; l++)
    self->legs[l].scale = leg_scale (&self->legs[l], src);
  floor = find_floor (self, src);
  detect_contacts (self, src, floor);

  corr = self->corr = g_renew (double, self->corr, (gsize) 3 * n * self->n_legs);
  drop = self->drop = g_renew (double, self->drop, n);
  fill_corrections (self, src, corr);
  fill_drops (self, src, corr, drop);

  for (guint l = 0; l < self->n_legs; l++)
    initial_normal (&self->legs[l], src);
  self->joints = g_renew (float, self->joints, (gsize) 9 * n * self->n_legs);
  for (guint f = 0; f < n; f++)
    {
      read_joints (self, src, f, self->joints + (gsize) 9 * self->n_legs * f);
      for (guint l = 0; l < self->n_legs; l++)
        update_normal (&self->legs[l], src, f);
      if (!lock_frame (self, src, dest, corr, drop, f))
        continue;
      changed++;
      self->max_drop = MAX (self->max_drop, drop[f]);
    }
  report_contacts (self, src, dest, drop);
  fill_steps (self, src, dest);
  self->valid = TRUE;
  self->n_frames = n;
  self->frame_time = src->frame_time;
  self->n_changed = changed;
  return changed;
}

guint
odori_foot_lock_update (OdoriFootLock     *self,
                        const OdoriMotion *src,
                        OdoriMotion       *dest,
                        guint              first,
                        guint              last)
{
  guint  n;
  gsize  stride;
  float *j;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (src != NULL && dest != NULL && src != dest, 0);
  g_return_val_if_fail (src->n_segments == self->n_segments, 0);
  g_return_val_if_fail (dest->n_segments == src->n_segments && dest->n_frames == src->n_frames, 0);

  n = src->n_frames;
  if (!self->valid || n != self->n_frames || src->frame_time != self->frame_time)
    return odori_foot_lock_apply (self, src, dest);
  if (first > last)
    return self->n_changed;
  if (last >= n)
    return odori_foot_lock_apply (self, src, dest);

  /* Everything the lock finds (up, floor, leg scales, contacts, corrections, drops, bend
   * normals) comes from the legs' hip, knee and ankle positions: while those stay, the
   * changed frames are locked again alone, each exactly as the full lock did. */
  stride = (gsize) 9 * self->n_legs;
  j = g_newa (float, stride);
  for (guint f = first; f <= last; f++)
    {
      read_joints (self, src, f, j);
      if (memcmp (j, self->joints + stride * f, sizeof (float) * stride) != 0)
        return odori_foot_lock_apply (self, src, dest);
    }

  copy_world (src, dest, first, last + 1);
  for (guint l = 0; l < self->n_legs; l++)
    {
      /* the bend normal as it was before FIRST: that of the last bent frame */
      gboolean found = FALSE;

      for (guint f = first; f > 0 && !found; f--)
        found = update_normal (&self->legs[l], src, f - 1);
      if (!found)
        initial_normal (&self->legs[l], src);
    }
  for (guint f = first; f <= last; f++)
    {
      for (guint l = 0; l < self->n_legs; l++)
        update_normal (&self->legs[l], src, f);
      lock_frame (self, src, dest, self->corr, self->drop, f);
    }
  /* the contacts' report reads the legs' joints only: it stays */
  return self->n_changed;
}

guint
odori_foot_lock_get_slide (OdoriFootLock     *self,
                           const char *const *sensors,
                           guint              first,
                           guint              last,
                           double            *before,
                           double            *after)
{
  guint count = 0;

  g_return_val_if_fail (self != NULL, 0);

  if (before)
    *before = 0;
  if (after)
    *after = 0;
  for (guint i = 0; i < self->contacts->len; i++)
    {
      const OdoriFootContact *c = &g_array_index (self->contacts, OdoriFootContact, i);
      const Leg              *leg = &self->legs[c->leg];

      if (c->last < first || c->first > last)
        continue;
      if (sensors != NULL && !g_strv_contains (sensors, self->names[leg->ankle]) &&
          !g_strv_contains (sensors, self->names[leg->knee]) &&
          !g_strv_contains (sensors, self->names[leg->hip]))
        continue;
      count++;
      /* the travel from frame f - 1 to f counts when f - 1 is in the window */
      for (guint f = MAX (c->first, first) + 1; f <= MIN (c->last, last) + 1 && f <= c->last; f++)
        {
          const double *st = self->steps + (gsize) 2 * (self->n_steps * c->leg + f);

          if (before)
            *before += st[0];
          if (after)
            *after += st[1];
        }
    }
  return count;
}
