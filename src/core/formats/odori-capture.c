/* odori-capture.c: a capture as read, the import options, frame planning for readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-capture.h"

G_DEFINE_QUARK (odori-retarget-error-quark, odori_retarget_error)


/* Resampled frames × segments allowed per input byte, and at least this many cells. A real
 * capture holds about 1 kB per frame of 16 joints (0.02 cells per byte), so this leaves room
 * for 200-fold upsampling and long pauses, while a file of a few kB with absurd times can
 * never ask for millions of frames. */
#define CELLS_PER_BYTE 4.0
#define MIN_CELL_BUDGET ((double) (1 << 16))

/* Options and small API */

void
odori_import_options_init (OdoriImportOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->fps = ODORI_IMPORT_DEFAULT_FPS;
  options->up = ODORI_UP_AUTO;
  options->rotations = ODORI_ROTATIONS_AUTO;
  options->kbs = NULL;
  options->symmetry = FALSE;
  options->smooth = 0;
  g_strlcpy (options->euler_order, "ZXY", sizeof options->euler_order);
  options->csv_unit = ODORI_UNIT_UNKNOWN;
}

static const char *up_names[] = {
  [ODORI_UP_AUTO] = "auto", [ODORI_UP_X] = "x", [ODORI_UP_Y] = "y", [ODORI_UP_Z] = "z",
  [ODORI_UP_NEG_X] = "-x", [ODORI_UP_NEG_Y] = "-y", [ODORI_UP_NEG_Z] = "-z",
};

const char *
odori_up_axis_to_string (OdoriUpAxis up)
{
  g_return_val_if_fail ((guint) up < G_N_ELEMENTS (up_names), NULL);
  return up_names[up];
}

gboolean
odori_up_axis_from_string (const char  *s,
                           OdoriUpAxis *up)
{
  g_return_val_if_fail (s != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (up_names); i++)
    if (g_ascii_strcasecmp (s, up_names[i]) == 0 ||
        (s[0] == '+' && g_ascii_strcasecmp (s + 1, up_names[i]) == 0 && i != ODORI_UP_AUTO))
      {
        if (up != NULL)
          *up = i;
        return TRUE;
      }
  return FALSE;
}

static const char *source_names[] = {
  [ODORI_ROTATIONS_AUTO] = "auto",
  [ODORI_ROTATIONS_POSITIONS] = "positions",
  [ODORI_ROTATIONS_FILE] = "file",
};

const char *
odori_rotation_source_to_string (OdoriRotationSource source)
{
  g_return_val_if_fail ((guint) source < G_N_ELEMENTS (source_names), NULL);
  return source_names[source];
}

gboolean
odori_rotation_source_from_string (const char          *s,
                                   OdoriRotationSource *source)
{
  g_return_val_if_fail (s != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (source_names); i++)
    if (g_ascii_strcasecmp (s, source_names[i]) == 0)
      {
        if (source != NULL)
          *source = i;
        return TRUE;
      }
  return FALSE;
}

OdoriCapture *
odori_capture_new (OdoriCaptureKind  kind,
                   OdoriMotion      *motion)
{
  OdoriCapture *capture;

  g_return_val_if_fail (motion != NULL, NULL);

  capture = g_new0 (OdoriCapture, 1);
  capture->kind = kind;
  capture->motion = motion;
  capture->has_position = g_new (gboolean, MAX (motion->n_segments, 1));
  for (guint s = 0; s < motion->n_segments; s++)
    capture->has_position[s] = TRUE;
  capture->n_source_frames = motion->n_frames;
  capture->up = ODORI_UP_AUTO;
  return capture;
}

void
odori_capture_free (OdoriCapture *capture)
{
  if (capture == NULL)
    return;
  g_clear_pointer (&capture->motion, odori_motion_unref);
  g_free (capture->has_position);
  g_free (capture);
}

void
odori_capture_set_units (OdoriMotion *motion,
                         OdoriUnit    length_unit)
{
  g_return_if_fail (motion != NULL);

  for (guint s = 0; s < motion->n_segments; s++)
    {
      OdoriSegment *seg = &motion->segments[s];

      seg->n_fields = ODORI_N_FIELDS;
      for (guint f = 0; f < ODORI_N_FIELDS; f++)
        {
          seg->fields[f] = f;
          seg->units[f] = f < 3 ? length_unit : f < 6 ? ODORI_UNIT_DEGREES : ODORI_UNIT_PERCENT;
        }
    }
}

gboolean
odori_capture_plan_frames (const char    *path,
                           const double  *times,
                           guint          n,
                           double         fps,
                           guint          n_segments,
                           gsize          input_bytes,
                           guint         *n_out,
                           double        *frame_time,
                           gboolean      *resample,
                           GError       **error)
{
  double duration, rate, frames, budget;

  g_return_val_if_fail (times != NULL && n > 0, FALSE);
  g_return_val_if_fail (fps >= 0, FALSE);

  duration = times[n - 1] - times[0];
  rate = fps > 0 ? fps : ODORI_IMPORT_DEFAULT_FPS;
  if (fps == 0 && n >= 2 && duration > 0)
    {
      double mean = duration / (n - 1);
      gboolean regular = TRUE;

      for (guint i = 1; i < n && regular; i++)
        regular = fabs (times[i] - times[i - 1] - mean) <= 0.05 * mean;
      if (regular)
        {
          *n_out = n;
          *frame_time = mean;
          *resample = FALSE;
          return TRUE;
        }
    }
  if (n == 1 || !(duration > 0))
    {
      *n_out = 1;
      *frame_time = 1.0 / rate;
      *resample = FALSE;
      return TRUE;
    }

  frames = floor (duration * rate + 1e-6) + 1;
  budget = MAX (CELLS_PER_BYTE * input_bytes, MIN_CELL_BUDGET);
  if (!(frames * MAX (n_segments, 1) <= budget) || frames > G_MAXUINT / 2)
    {
      g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_TOO_LONG,
                   _("%s:1: the frame times span %.1f s: resampling %u frames at %g fps would "
                     "make %.0f frames of %u segments, far more than the file holds (check "
                     "the times, or choose a lower rate)"),
                   path, duration, n, rate, frames, n_segments);
      return FALSE;
    }
  *n_out = (guint) frames;
  *frame_time = 1.0 / rate;
  *resample = TRUE;
  return TRUE;
}

void
odori_up_axis_rotation (OdoriUpAxis up,
                        float       r[4])
{
  float u[3] = { 0, 0, 0 };
  int axis;

  if (up == ODORI_UP_AUTO || up == ODORI_UP_Y)
    {
      glm_quat_identity (r);
      return;
    }
  axis = (up - ODORI_UP_X) % 3;
  if (up == ODORI_UP_NEG_Y)
    {
      glm_quatv (r, GLM_PIf, (vec3) { 1, 0, 0 });
      return;
    }
  u[axis] = up >= ODORI_UP_NEG_X ? -1.0f : 1.0f;
  odori_quat_between (u, (float[3]) { 0, 1, 0 }, r);
}

