/* compose-util.h: a score composed to BVA bytes, for tests that compare compositions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-compose.h"
#include "odori-index.h"
#include "odori-score.h"

/* Composes SCORE_PATH against its own index ("# Index:"), writes the BVA to OUT_PATH (then
 * removes it) and returns what the writer wrote. */
static inline GBytes *
odori_test_compose_bva (const char *score_path,
                        const char *out_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = odori_score_load (score_path, &error);
  g_autofree char *index_path = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autofree char *bytes = NULL;
  OdoriMotion *motion;
  gsize len = 0;

  g_assert_no_error (error);
  index_path = odori_score_dup_index_path (score);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  motion = odori_composer_compose (composer, &error);
  g_assert_no_error (error);
  g_assert_true (odori_bva_save (motion, out_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out_path, &bytes, &len, NULL));
  g_unlink (out_path);
  return g_bytes_new_take (g_steal_pointer (&bytes), len);
}
