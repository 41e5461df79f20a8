/* odori-sensor-csv.h: the inertial suit's CSV export (FORMATS.md §5)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-capture.h"

G_BEGIN_DECLS

#define ODORI_SENSOR_CSV_ERROR (odori_sensor_csv_error_quark ())

typedef enum
{
  ODORI_SENSOR_CSV_ERROR_HEADER,           /* no usable column, a duplicate or incomplete group */
  ODORI_SENSOR_CSV_ERROR_MISSING_CELL,     /* a row lacks a cell of a used column, or it is empty */
  ODORI_SENSOR_CSV_ERROR_NUMBER,           /* a cell of a used column is not a number */
  ODORI_SENSOR_CSV_ERROR_NOT_FINITE,       /* nan or inf */
  ODORI_SENSOR_CSV_ERROR_ZERO_QUATERNION,  /* a sensor's quaternion is (0, 0, 0, 0) */
  ODORI_SENSOR_CSV_ERROR_TIME,             /* a time before the previous row's */
  ODORI_SENSOR_CSV_ERROR_EMPTY,            /* no header or no data row */
} OdoriSensorCsvError;

GQuark         odori_sensor_csv_error_quark (void);

/* TRUE if the first non-empty line looks like the export's header: a cell named
 * Quaternion:…, Euler:… or Position:… (any separator, quoted or not). */
gboolean       odori_sensor_csv_sniff       (const char               *data,
                                             gsize                     len);

/* Columns are found by header name; see docs/formats.md. OPTIONS (nullable): fps,
 * euler_order, csv_unit. Rotations are global sensor orientations in the file's axes;
 * positions in centimetres (has_position FALSE for sensors without Position columns). */
OdoriCapture  *odori_sensor_csv_load        (const char               *path,
                                             const OdoriImportOptions *options,
                                             GPtrArray                *warnings,
                                             GError                  **error);
OdoriCapture  *odori_sensor_csv_load_data   (const char               *display_name,
                                             const char               *data,
                                             gsize                     len,
                                             const OdoriImportOptions *options,
                                             GPtrArray                *warnings,
                                             GError                  **error);

G_END_DECLS
