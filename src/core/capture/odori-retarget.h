/* odori-retarget.h: captures (Kinect joints, suit CSV) become show files (FORMATS.md §4-6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The import pipeline: a reader (odori-joints.h, odori-sensor-csv.h) gives an
 * OdoriCapture: frames resampled to a uniform rate, in the file's axes, lengths in
 * centimetres. odori_capture_orient() turns it to Odori's axes (Y up, right-handed).
 * odori_retarget() computes the rotations (from the joint positions the OpenRDB way, or
 * from the file's own rotations) and names the segments (the capture's own names, or the
 * target bones of a KBS/KST). odori_capture_import() does all of it, and smoothing.
 * docs/formats.md states every convention.
 */
#pragma once

#include "odori-capture.h"
#include "odori-smooth.h"

G_BEGIN_DECLS

/* Reads an NI_JOINTS_TEXT_FILE or a sensor CSV (by content) with OPTIONS (fps, Euler
 * order, CSV unit; nullable for the defaults). Not yet oriented. */
OdoriCapture  *odori_capture_load          (const char               *path,
                                            const OdoriImportOptions *options,
                                            GPtrArray                *warnings,
                                            GError                  **error);
/* Resolves UP (AUTO: from the head and feet, else the format's usual axis: Z for NI,
 * Y for the suit) and turns positions and rotations so that it becomes +Y. */
void           odori_capture_orient        (OdoriCapture             *capture,
                                            OdoriUpAxis               up,
                                            GPtrArray                *warnings);
/* The result motion from an oriented capture (rotations, KBS mapping; no smoothing). */
OdoriMotion   *odori_retarget              (const OdoriCapture       *capture,
                                            const OdoriImportOptions *options,
                                            GPtrArray                *warnings,
                                            GError                  **error);
/* The whole pipeline: load, orient, retarget, smooth (REPORT nullable). OPTIONS nullable
 * means the defaults: 30 fps, automatic up axis, automatic rotations, no KBS. */
OdoriMotion   *odori_capture_import        (const char               *path,
                                            const OdoriImportOptions *options,
                                            OdoriSmoothReport        *report,
                                            GPtrArray                *warnings,
                                            GError                  **error);

/* The segment of a KBS-mapped result that carries JOINT's bone sits at the bone's start:
 * the pivot joint (TOP_OF_JOINT and TORSO: themselves). For tests and docs. */
OdoriKinectJoint odori_kinect_joint_pivot  (OdoriKinectJoint          joint);

G_END_DECLS
