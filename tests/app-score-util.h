/* app-score-util.h: what the timeline's GUI tests share: a score as its DDS text, and a
 * library with a show that holds the arms only (a track that cannot drive it refuses it)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Include after app-test-util.h (test_home).
 */
#pragma once

#include "odori-bva.h"
#include "odori-document.h"
#include "odori-sample.h"
#include "odori-score.h"

/* The score of DOC as the DDS writer writes it. */
G_GNUC_UNUSED static char *
score_text (OdoriDocument *doc)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  gsize       len;
  const char *data;

  odori_score_write (odori_document_get_score (doc), out);
  g_assert_true (odori_output_commit (out, NULL));
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* A library whose show ARMS holds the arms (and the chest) only, symbol A9: the sample
 * library plus that show. Returns its motion.dat. */
G_GNUC_UNUSED static char *
write_arms_library (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (test_home, "arms-library", NULL);
  g_autofree char *te = g_build_filename (dir, "te.bva", NULL);
  g_autofree char *arms = g_build_filename (dir, "arms.bva", NULL);
  g_autofree char *dat = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *text = NULL;
  g_autofree char *more = NULL;
  g_autoptr(OdoriMotion) full = NULL;
  g_autoptr(OdoriMotion) part = NULL;
  static const char *keep[] = { "Chest", "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
                                "RightCollar", "RightUpArm", "RightLowArm", "RightHand" };

  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  full = odori_bva_load (te, NULL, &error);
  g_assert_no_error (error);
  part = odori_motion_new (G_N_ELEMENTS (keep), 81, full->frame_time, &error);
  g_assert_no_error (error);
  for (guint s = 0; s < G_N_ELEMENTS (keep); s++)
    {
      int from = odori_motion_find_segment (full, keep[s]);

      odori_motion_set_segment_name (part, s, keep[s]);
      for (guint f = 0; f < 81; f++)
        *odori_motion_get (part, f, s) = *odori_motion_get (full, f, from);
    }
  g_assert_true (odori_bva_save (part, arms, &error));
  g_assert_true (g_file_get_contents (dat, &text, NULL, &error));
  more = g_strconcat (text,
                      "\nbegin class name=\"Arms\" code=\"arms\"\n"
                      "  begin show name=\"Arms only\" code=\"ARMS\" file=\"arms.bva\"\n"
                      "    motion name=\"Arm clap\" code=\"A9\" frame=1-81\n"
                      "  end show\n"
                      "end class\n",
                      NULL);
  g_assert_true (g_file_set_contents (dat, more, -1, &error));
  return g_steal_pointer (&dat);
}
