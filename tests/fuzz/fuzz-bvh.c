/* fuzz-bvh.c: libFuzzer target for the BVH reader (and the BVH and BVA writers)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "fuzz-common.h"
#include "odori-bva.h"
#include "odori-bvh.h"

#define NAME "fuzz.bvh"

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
  g_autoptr(OdoriTextFile) again = NULL;
  g_autoptr(OdoriTextFile) as_bva = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriMotion) reread = NULL;
  g_autoptr(OdoriMotion) from_bva = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(OdoriOutput) bva_out = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;

  odori_bvh_sniff ((const char *) data, size);

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    {
      fuzz_check_stream (odori_bvh_load, NAME, data, size, NULL, error->message, 0);
      return 0;
    }

  motion = odori_bvh_load_text (file, warnings, &error);
  fuzz_check_parallel (odori_bvh_load_text, file, motion, error ? error->message : NULL, warnings->len);
  fuzz_check_stream (odori_bvh_load, NAME, data, size, motion, error ? error->message : NULL,
                     warnings->len);
  if (motion == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("a motion and an error: %s", error->message);
  fuzz_note ("loaded");
  fuzz_check_diagnostics (warnings);
  if (!motion->has_hierarchy)
    fuzz_fail ("a BVH motion without its hierarchy");
  for (guint i = 0; i < motion->n_segments; i++)
    if (motion->segments[i].parent >= (int) i || motion->segments[i].n_channels > 6)
      fuzz_fail ("segment %u: parent %d, %u channels", i, motion->segments[i].parent,
                 motion->segments[i].n_channels);

  /* BVH → BVH keeps the hierarchy and the frame count. */
  out = odori_output_new_memory (odori_text_file_get_encoding (file));
  odori_bvh_write (motion, NULL, out);
  again = fuzz_reopen ("fuzz-again.bvh", out);
  reread = odori_bvh_load_text (again, NULL, &error);
  if (reread == NULL)
    fuzz_fail ("what the BVH writer wrote does not load: %s", error->message);
  if (reread->n_frames != motion->n_frames || reread->n_segments != motion->n_segments)
    fuzz_fail ("write and read again: %u x %u became %u x %u", motion->n_frames,
               motion->n_segments, reread->n_frames, reread->n_segments);

  /* BVH → BVA (global transforms) loads as BVA. */
  bva_out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  odori_bva_write (motion, bva_out);
  as_bva = fuzz_reopen ("fuzz-again.bva", bva_out);
  from_bva = odori_bva_load_text (as_bva, NULL, &error);
  if (from_bva == NULL && motion->n_segments > 0)
    fuzz_fail ("the BVA written from a BVH does not load: %s", error->message);
  return 0;
}
