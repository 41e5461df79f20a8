/* fuzz-sensor-csv.c: libFuzzer target for the suit's CSV export reader (and the import)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "fuzz-capture.h"
#include "odori-sensor-csv.h"

#define NAME "fuzz.csv"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  OdoriCapture *capture;

  odori_sensor_csv_sniff ((const char *) data, size);

  capture = odori_sensor_csv_load_data (NAME, (const char *) data, size, NULL, warnings,
                                        &error);
  if (capture == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("a capture and an error: %s", error->message);
  fuzz_note ("loaded");

  fuzz_check_capture (capture, warnings);
  odori_capture_free (capture);
  return 0;
}
