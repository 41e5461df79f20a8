/* fuzz-capture.h: what the capture targets (NI joints text, sensor CSV) check
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture that loads goes through the rest of the import: orientation, retargeting
 * (rotations from positions, or the file's), and BVA writing; each step may refuse it
 * with an error, but a motion that comes out must be finite and written and read again.
 */
#pragma once

#include <math.h>

#include "fuzz-common.h"
#include "odori-bva.h"
#include "odori-retarget.h"

static inline void
fuzz_check_motion (const OdoriMotion *motion)
{
  for (gsize i = 0; i < (gsize) motion->n_frames * motion->n_segments; i++)
    {
      const OdoriTransform *t = &motion->transforms[i];

      for (int k = 0; k < 3; k++)
        if (!isfinite (t->position[k]) || !isfinite (t->scale[k]))
          fuzz_fail ("a non-finite position or scale in transform %" G_GSIZE_FORMAT, i);
      for (int k = 0; k < 4; k++)
        if (!isfinite (t->rotation[k]))
          fuzz_fail ("a non-finite rotation in transform %" G_GSIZE_FORMAT, i);
    }
}

static inline void
fuzz_check_capture (OdoriCapture *capture,
                    GPtrArray    *warnings)
{
  OdoriImportOptions options;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = NULL;

  if (capture->motion == NULL)
    fuzz_fail ("a capture without a motion");
  if (capture->motion->n_frames == 0 || capture->motion->n_segments == 0)
    fuzz_fail ("a capture of %u frames x %u segments loaded without an error",
               capture->motion->n_frames, capture->motion->n_segments);
  fuzz_check_motion (capture->motion);
  fuzz_check_diagnostics (warnings);

  /* Reading resamples: a few bytes may give tens of thousands of frames (two frame
   * times minutes apart), which the import then handles in time linear in them. The
   * rest of the import runs on the smaller captures, or the fuzzer would spend its time
   * there (30 executions a second instead of thousands). */
  if ((gsize) capture->motion->n_frames * capture->motion->n_segments > 4096)
    return;

  odori_import_options_init (&options);
  odori_capture_orient (capture, ODORI_UP_AUTO, warnings);
  fuzz_check_motion (capture->motion);

  for (int source = ODORI_ROTATIONS_AUTO; source <= ODORI_ROTATIONS_FILE; source++)
    {
      g_autoptr(OdoriMotion) result = NULL;
      g_autoptr(GError) local_error = NULL;

      options.rotations = source;
      result = odori_retarget (capture, &options, warnings, &local_error);
      if (result == NULL)
        {
          if (local_error == NULL)
            fuzz_fail ("retargeting gave NULL without an error");
          continue;
        }
      fuzz_check_motion (result);
      fuzz_check_diagnostics (warnings);
      if (motion == NULL)
        motion = g_steal_pointer (&result);
    }

  if (motion != NULL)
    {
      g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
      g_autoptr(OdoriTextFile) again = NULL;
      g_autoptr(OdoriMotion) reread = NULL;

      odori_bva_write (motion, out);
      again = fuzz_reopen ("fuzz-import.bva", out);
      reread = odori_bva_load_text (again, NULL, &error);
      if (reread == NULL)
        fuzz_fail ("the BVA written from an import does not load: %s", error->message);
      if (reread->n_frames != motion->n_frames || reread->n_segments != motion->n_segments)
        fuzz_fail ("import written and read again: %u x %u became %u x %u", motion->n_frames,
                   motion->n_segments, reread->n_frames, reread->n_segments);
    }
}
