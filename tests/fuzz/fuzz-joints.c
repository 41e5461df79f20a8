/* fuzz-joints.c: libFuzzer target for the NI_JOINTS_TEXT_FILE reader (and the import)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "fuzz-capture.h"
#include "odori-joints.h"

#define NAME "fuzz-joints.txt"

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
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  OdoriCapture *capture;

  odori_joints_sniff ((const char *) data, size);

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    return 0;

  capture = odori_joints_load_text (file, NULL, warnings, &error);
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
