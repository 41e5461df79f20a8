/* odori-joints.h: NI_JOINTS_TEXT_FILE reader (Rinions / OpenNI captures, FORMATS.md §4)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-capture.h"
#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_JOINTS_ERROR (odori_joints_error_quark ())

typedef enum
{
  ODORI_JOINTS_ERROR_HEADER,           /* line 1 is not NI_JOINTS_TEXT_FILE */
  ODORI_JOINTS_ERROR_NO_FRAME_TIME,    /* a joint data line before any frame time line */
  ODORI_JOINTS_ERROR_SYNTAX,           /* a frame time or joint line of the wrong shape */
  ODORI_JOINTS_ERROR_NUMBER,           /* not a number */
  ODORI_JOINTS_ERROR_NOT_FINITE,       /* nan or inf */
  ODORI_JOINTS_ERROR_ZERO_QUATERNION,  /* a quaternion of length 0 */
  ODORI_JOINTS_ERROR_EMPTY,            /* no frame time line, or no joint data */
} OdoriJointsError;

GQuark         odori_joints_error_quark  (void);

/* TRUE if the first line is NI_JOINTS_TEXT_FILE. */
gboolean       odori_joints_sniff        (const char               *data,
                                          gsize                     len);
/* The joint names of FORMATS.md §4, the standard ones and the recorders' extras. */
gboolean       odori_joints_is_known     (const char               *name);

/* Reads the file: times unwrapped (a smaller time adds 60000 ms), frames resampled to
 * OPTIONS->fps (linear positions, slerp rotations), metres → centimetres, the file's
 * axes kept. OPTIONS nullable for the defaults. */
OdoriCapture  *odori_joints_load         (const char               *path,
                                          const OdoriImportOptions *options,
                                          GPtrArray                *warnings,
                                          GError                  **error);
OdoriCapture  *odori_joints_load_text    (OdoriTextFile            *file,
                                          const OdoriImportOptions *options,
                                          GPtrArray                *warnings,
                                          GError                  **error);

G_END_DECLS
