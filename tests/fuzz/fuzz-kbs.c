/* fuzz-kbs.c: libFuzzer target for the KBS (XML) and KST (text) bone setting readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One reader takes both formats (by content); the build makes two targets of this file,
 * fuzz-kbs and fuzz-kst (-DFUZZ_KST), that differ in their seeds and dictionary.
 */
#include "config.h"

#include <string.h>

#include "fuzz-common.h"
#include "odori-kbs.h"

#ifdef FUZZ_KST
#define NAME "ConvSetting3.kst"
#else
#define NAME "fuzz.kbs"
#endif

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
  g_autoptr(OdoriKbs) kbs = NULL;
  g_autoptr(OdoriKbs) reread = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  OdoriEncoding encoding;
  const char   *written;
  gsize         written_len;

  odori_kbs_sniff ((const char *) data, size);

  kbs = odori_kbs_load_data (NAME, (const char *) data, size, warnings, &error);
  if (kbs == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("a bone setting and an error: %s", error->message);
  fuzz_note ("loaded");
  fuzz_check_diagnostics (warnings);

  for (int j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    if (kbs->joints[j].bone != NULL && odori_kbs_find_bone (kbs, kbs->joints[j].bone) < 0)
      fuzz_fail ("the bone of joint %d is not found by name", j);

  /* Saved as KBS in the file's encoding, it reads back to the same mapping. */
  encoding = kbs->encoding == ODORI_ENCODING_SHIFT_JIS ? ODORI_ENCODING_SHIFT_JIS
                                                       : ODORI_ENCODING_UTF8;
  out = odori_output_new_memory (encoding);
  if (!odori_kbs_write (kbs, encoding, out, &error))
    {
      if (!g_error_matches (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_UNMAPPABLE))
        fuzz_fail ("cannot write a bone setting that loaded: %s", error->message);
      return 0;
    }
  bytes = fuzz_output_bytes (out);
  written = g_bytes_get_data (bytes, &written_len);
  reread = odori_kbs_load_data ("fuzz-again.kbs", written, written_len, NULL, &error);
  if (reread == NULL)
    fuzz_fail ("what the KBS writer wrote does not load: %s", error->message);
  for (int j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      if (g_strcmp0 (reread->joints[j].bone, kbs->joints[j].bone) != 0)
        fuzz_fail ("joint %d: bone \"%s\" became \"%s\"", j, kbs->joints[j].bone,
                   reread->joints[j].bone);
      if (kbs->joints[j].bone != NULL && reread->joints[j].twist != kbs->joints[j].twist)
        fuzz_fail ("joint %d: the twist flag changed", j);
    }
  return 0;
}
