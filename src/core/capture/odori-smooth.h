/* odori-smooth.h: motion smoothing ("motion 平滑化", FORMATS.md §6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A Gaussian filter over time on every segment's rotation (quaternion-safe: each sample
 * is sign-aligned with the frame being filtered, and the weighted sum renormalised) and
 * position. STRENGTH is the window's half-width in frames (σ = STRENGTH / 2); near the
 * ends the window shrinks symmetrically, so the first and last frames stay where they are
 * and motion at constant speed is left unchanged.
 */
#pragma once

#include "odori-motion.h"

G_BEGIN_DECLS

typedef enum
{
  ODORI_SMOOTH_ROTATIONS = 1 << 0,
  ODORI_SMOOTH_POSITIONS = 1 << 1,
  ODORI_SMOOTH_ALL       = ODORI_SMOOTH_ROTATIONS | ODORI_SMOOTH_POSITIONS,
} OdoriSmoothFlags;

/* What a smoothing pass changed. Segment indices are -1 when nothing changed. */
typedef struct
{
  guint  strength;
  double max_rotation_deg;     /* the largest correction of a rotation, in degrees */
  double mean_rotation_deg;    /* over all segment-frames */
  int    max_rotation_segment;
  guint  max_rotation_frame;   /* 0-based */
  double max_position;         /* the largest correction of a position (motion's unit) */
  double mean_position;
  int    max_position_segment;
  guint  max_position_frame;
  double jitter_before_deg;    /* odori_smooth_jitter() before and after */
  double jitter_after_deg;
} OdoriSmoothReport;

/* Smooths MOTION in place. STRENGTH 0 changes nothing (the report is still filled). */
void     odori_smooth_motion     (OdoriMotion        *motion,
                                  guint               strength,
                                  OdoriSmoothFlags    flags,
                                  OdoriSmoothReport  *report);
/* Jitter: the mean, over segments and inner frames, of the angle between a frame's
 * rotation and the halfway slerp of its two neighbours (degrees); *POSITION_JITTER
 * (nullable) gets the same for positions (distance to the neighbours' midpoint). */
double   odori_smooth_jitter     (const OdoriMotion  *motion,
                                  double             *position_jitter);
/* One line for people: "largest correction 1.93° (L_ELBOW, frame 57), 0.41 cm; jitter
 * 0.84° → 0.12°" (frames 1-based). */
char    *odori_smooth_report_to_string (const OdoriSmoothReport *report,
                                        const OdoriMotion       *motion);

G_END_DECLS
