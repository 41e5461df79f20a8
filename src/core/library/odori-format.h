/* odori-format.h: detect a file's format by content and load any motion
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-motion.h"

G_BEGIN_DECLS

#define ODORI_FORMAT_ERROR (odori_format_error_quark ())

typedef enum
{
  ODORI_FORMAT_ERROR_UNKNOWN,   /* content matches no format Odori reads */
} OdoriFormatError;

typedef enum
{
  ODORI_FORMAT_UNKNOWN,
  ODORI_FORMAT_BVA,
  ODORI_FORMAT_BVH,
  ODORI_FORMAT_INDEX,   /* motion.dat */
  ODORI_FORMAT_SCORE,   /* DDS */
  ODORI_FORMAT_BULGE,   /* bulge_types (odori-bulge.h) */
  ODORI_FORMAT_JOINTS,       /* NI_JOINTS_TEXT_FILE (odori-joints.h) */
  ODORI_FORMAT_SENSOR_CSV,   /* the suit's CSV export (odori-sensor-csv.h) */
  ODORI_FORMAT_KBS,          /* Kinect bone setting XML (odori-kbs.h) */
  ODORI_FORMAT_KST,          /* its Shift_JIS text predecessor (odori-kbs.h) */
} OdoriFormat;

GQuark        odori_format_error_quark (void);
/* Looks at the start of the (decoded) text. */
OdoriFormat   odori_format_detect      (const char  *data,
                                        gsize        len);
OdoriFormat   odori_format_detect_file (const char  *path,
                                        GError     **error);
const char   *odori_format_to_string   (OdoriFormat  format);
/* Loads a motion file of any readable format. Captures (NI_JOINTS_TEXT_FILE, sensor CSV)
 * are imported with the default options (odori_capture_import(): 30 fps, automatic up
 * axis and rotations, no KBS), so show files may be captures. */
OdoriMotion  *odori_format_load_motion (const char  *path,
                                        GPtrArray   *warnings,
                                        GError     **error);

G_END_DECLS
