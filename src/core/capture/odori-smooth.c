/* odori-smooth.c: motion smoothing (FORMATS.md §6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - The filter is a Gaussian of σ = strength / 2 frames truncated at ±strength frames; at
 *   frame i the half-width is min(strength, i, n − 1 − i), so the window is always
 *   symmetric: the end frames are kept, and a motion whose positions change linearly (or
 *   whose rotation turns at a constant rate about a fixed axis, to first order) is not
 *   changed.
 * - Rotations: the samples of the window are first made sign-continuous along time, then
 *   each is flipped to the hemisphere of the frame being filtered, weighted, summed and
 *   renormalised (a normalised weighted mean, exact enough for the small spreads of a
 *   smoothing window).
 * - The report gives the largest and mean correction (angle between the rotation before
 *   and after, distance between the positions) with the segment and frame where the
 *   largest happened, and the jitter before and after.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-smooth.h"

typedef float Quat[4];
typedef float Vec3[3];

/* Gaussian weights w[0..radius] (w[k] for offset ±k), σ = radius / 2. */
static double *
make_weights (guint radius)
{
  double *w = g_new (double, radius + 1);
  double sigma = MAX (radius / 2.0, 0.5);

  for (guint k = 0; k <= radius; k++)
    w[k] = exp (-0.5 * (k / sigma) * (k / sigma));
  return w;
}

static void
smooth_segment (OdoriMotion        *motion,
                guint               seg,
                guint               radius,
                const double       *w,
                OdoriSmoothFlags    flags,
                Quat               *rot,
                Vec3               *pos,
                OdoriSmoothReport  *report,
                double             *sum_rot,
                double             *sum_pos)
{
  guint n = motion->n_frames;

  /* Copy out, sign-continuous along time. */
  for (guint f = 0; f < n; f++)
    {
      const OdoriTransform *t = odori_motion_get (motion, f, seg);

      memcpy (rot[f], t->rotation, sizeof rot[f]);
      memcpy (pos[f], t->position, sizeof pos[f]);
      if (f > 0 && odori_quat_dot (rot[f], rot[f - 1]) < 0)
        for (int k = 0; k < 4; k++)
          rot[f][k] = -rot[f][k];
    }

  for (guint f = 0; f < n; f++)
    {
      OdoriTransform *t = odori_motion_get (motion, f, seg);
      guint r = MIN (radius, MIN (f, n - 1 - f));
      double q[4] = { 0, 0, 0, 0 }, p[3] = { 0, 0, 0 }, wsum = 0;
      float before[4], after[4];
      double angle, dist = 0;

      for (int k = -(int) r; k <= (int) r; k++)
        {
          const float *s = rot[f + k];
          double wk = w[ABS (k)];
          double sign = odori_quat_dot (s, rot[f]) < 0 ? -1.0 : 1.0;

          for (int c = 0; c < 4; c++)
            q[c] += wk * sign * s[c];
          for (int c = 0; c < 3; c++)
            p[c] += wk * pos[f + k][c];
          wsum += wk;
        }

      memcpy (before, t->rotation, sizeof before);
      if (flags & ODORI_SMOOTH_ROTATIONS)
        {
          double norm = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

          if (norm > 1e-12)
            for (int c = 0; c < 4; c++)
              t->rotation[c] = (float) (q[c] / norm);
        }
      if (flags & ODORI_SMOOTH_POSITIONS)
        for (int c = 0; c < 3; c++)
          {
            float v = (float) (p[c] / wsum);

            dist += ((double) v - pos[f][c]) * ((double) v - pos[f][c]);
            t->position[c] = v;
          }
      dist = sqrt (dist);
      memcpy (after, t->rotation, sizeof after);
      angle = odori_quat_angle_deg (before, after);

      *sum_rot += angle;
      *sum_pos += dist;
      if (angle > report->max_rotation_deg)
        {
          report->max_rotation_deg = angle;
          report->max_rotation_segment = seg;
          report->max_rotation_frame = f;
        }
      if (dist > report->max_position)
        {
          report->max_position = dist;
          report->max_position_segment = seg;
          report->max_position_frame = f;
        }
    }
}

void
odori_smooth_motion (OdoriMotion       *motion,
                     guint              strength,
                     OdoriSmoothFlags   flags,
                     OdoriSmoothReport *report)
{
  OdoriSmoothReport local;
  g_autofree double *w = NULL;
  g_autofree Quat *rot = NULL;
  g_autofree Vec3 *pos = NULL;
  double sum_rot = 0, sum_pos = 0;
  gsize cells;

  g_return_if_fail (motion != NULL);

  if (report == NULL)
    report = &local;
  memset (report, 0, sizeof *report);
  report->strength = strength;
  report->max_rotation_segment = -1;
  report->max_position_segment = -1;
  report->jitter_before_deg = odori_smooth_jitter (motion, NULL);
  report->jitter_after_deg = report->jitter_before_deg;
  if (strength == 0 || motion->n_frames < 3 || motion->n_segments == 0 || flags == 0)
    return;

  /* More than half the motion on each side would only add frames that get no weight. */
  strength = MIN (strength, motion->n_frames);
  w = make_weights (strength);
  rot = g_new (Quat, motion->n_frames);
  pos = g_new (Vec3, motion->n_frames);
  for (guint s = 0; s < motion->n_segments; s++)
    smooth_segment (motion, s, strength, w, flags, rot, pos, report, &sum_rot, &sum_pos);

  cells = (gsize) motion->n_frames * motion->n_segments;
  report->mean_rotation_deg = sum_rot / cells;
  report->mean_position = sum_pos / cells;
  report->jitter_after_deg = odori_smooth_jitter (motion, NULL);
}

double
odori_smooth_jitter (const OdoriMotion *motion,
                     double            *position_jitter)
{
  double sum_rot = 0, sum_pos = 0;
  gsize count = 0;

  g_return_val_if_fail (motion != NULL, 0);

  for (guint s = 0; s < motion->n_segments; s++)
    for (guint f = 1; f + 1 < motion->n_frames; f++)
      {
        const OdoriTransform *a = odori_motion_get (motion, f - 1, s);
        const OdoriTransform *b = odori_motion_get (motion, f, s);
        const OdoriTransform *c = odori_motion_get (motion, f + 1, s);
        float mid[4];
        double d = 0;

        odori_quat_slerp (a->rotation, c->rotation, 0.5f, mid);
        sum_rot += odori_quat_angle_deg (mid, b->rotation);
        for (int k = 0; k < 3; k++)
          {
            double m = 0.5 * ((double) a->position[k] + c->position[k]) - b->position[k];
            d += m * m;
          }
        sum_pos += sqrt (d);
        count++;
      }
  if (position_jitter != NULL)
    *position_jitter = count ? sum_pos / count : 0;
  return count ? sum_rot / count : 0;
}

static const char *
unit_symbol (const OdoriMotion *motion,
             int                segment)
{
  const OdoriSegment *seg;

  if (segment < 0 || (guint) segment >= motion->n_segments)
    return "";
  seg = &motion->segments[segment];
  for (guint f = 0; f < seg->n_fields; f++)
    if (seg->fields[f] == ODORI_FIELD_XTRAN)
      switch (seg->units[f])
        {
        case ODORI_UNIT_INCHES: return " in";
        case ODORI_UNIT_CENTIMETERS: return " cm";
        case ODORI_UNIT_MILLIMETERS: return " mm";
        case ODORI_UNIT_METERS: return " m";
        default: return "";
        }
  return "";
}

char *
odori_smooth_report_to_string (const OdoriSmoothReport *report,
                               const OdoriMotion       *motion)
{
  GString *s;

  g_return_val_if_fail (report != NULL, NULL);
  g_return_val_if_fail (motion != NULL, NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, _("smoothing %u: largest correction %.2f°"), report->strength,
                          report->max_rotation_deg);
  if (report->max_rotation_segment >= 0 && (guint) report->max_rotation_segment < motion->n_segments)
    g_string_append_printf (s, _(" (%s, frame %u)"),
                            motion->segments[report->max_rotation_segment].name,
                            report->max_rotation_frame + 1);
  g_string_append_printf (s, _(", mean %.3f°; positions up to %.3f%s"), report->mean_rotation_deg,
                          report->max_position,
                          unit_symbol (motion, report->max_position_segment));
  if (report->max_position_segment >= 0 && (guint) report->max_position_segment < motion->n_segments)
    g_string_append_printf (s, _(" (%s, frame %u)"),
                            motion->segments[report->max_position_segment].name,
                            report->max_position_frame + 1);
  g_string_append_printf (s, _("; jitter %.3f° → %.3f°"), report->jitter_before_deg,
                          report->jitter_after_deg);
  return g_string_free (s, FALSE);
}
