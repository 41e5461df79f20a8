/* fuzz-bva.c: libFuzzer target for the BVA reader (and the writers it feeds)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "fuzz-common.h"
#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-skeleton.h"

#define NAME "fuzz.bva"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

/* A motion Odori loaded must survive BVH export (with a skeleton chosen for it) and
 * load again as BVH with the same shape. */
static void
check_bvh_export (OdoriMotion *motion)
{
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(OdoriTextFile) again = NULL;
  g_autoptr(OdoriMotion) reread = NULL;
  g_autoptr(GError) error = NULL;

  if (motion->n_segments == 0)
    {
      if (skeleton != NULL)
        fuzz_fail ("a skeleton for a motion without segments");
      return;
    }
  if (skeleton == NULL)
    fuzz_fail ("no skeleton for a motion with %u segments", motion->n_segments);
  for (guint i = 0; i < skeleton->n_bones; i++)
    if (skeleton->bones[i].parent >= (int) i)
      fuzz_fail ("bone %u has parent %d (parents come first)", i, skeleton->bones[i].parent);

  out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  odori_bvh_write (motion, skeleton, out);
  again = fuzz_reopen ("fuzz-export.bvh", out);
  reread = odori_bvh_load_text (again, NULL, &error);
  if (reread == NULL)
    fuzz_fail ("the BVH written from a BVA does not load: %s", error->message);
  if (reread->n_frames != motion->n_frames)
    fuzz_fail ("BVH export: %u frames became %u", motion->n_frames, reread->n_frames);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(OdoriTextFile) again = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriMotion) reread = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;

  odori_bva_sniff ((const char *) data, size);

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    {
      fuzz_check_stream (odori_bva_load, NAME, data, size, NULL, error->message, 0);
      return 0;
    }

  motion = odori_bva_load_text (file, warnings, &error);
  fuzz_check_parallel (odori_bva_load_text, file, motion, error ? error->message : NULL, warnings->len);
  fuzz_check_stream (odori_bva_load, NAME, data, size, motion, error ? error->message : NULL,
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

  out = odori_output_new_memory (odori_text_file_get_encoding (file));
  odori_bva_write (motion, out);
  again = fuzz_reopen ("fuzz-again.bva", out);
  reread = odori_bva_load_text (again, NULL, &error);
  if (reread == NULL)
    fuzz_fail ("what the BVA writer wrote does not load: %s", error->message);
  if (reread->n_frames != motion->n_frames || reread->n_segments != motion->n_segments)
    fuzz_fail ("write and read again: %u x %u became %u x %u", motion->n_frames,
               motion->n_segments, reread->n_frames, reread->n_segments);

  check_bvh_export (motion);
  return 0;
}
