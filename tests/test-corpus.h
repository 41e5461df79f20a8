/* test-corpus.h: the shared corpus files a test reads, or a skip when they are missing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The corpus (real BVH, BVA/VPM and KST files) is not in the repository: it lives in
 * ../shared/corpus beside a clone in the project's workplace, and tests/meson.build
 * points ODORI_CORPUS_DIR at it. On a fresh clone without it, a test that needs a corpus
 * file skips with one line naming the file; with ODORI_CORPUS_REQUIRED=1 it fails
 * instead, so a run that must cover the corpus cannot pass without it. Whatever a test
 * can make itself (an excerpt of a seed's example, a file written by the test) it makes
 * itself and does not come through here.
 *
 * A test asks for its files first, before it allocates anything:
 *
 *   g_autofree char *path = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
 *
 *   if (path == NULL)
 *     return;
 */
#pragma once

#include <glib.h>

/* ODORI_CORPUS_REQUIRED=1: a missing corpus file fails the test instead of skipping it. */
static inline gboolean
odori_test_corpus_required (void)
{
  return g_strcmp0 (g_getenv ("ODORI_CORPUS_REQUIRED"), "1") == 0;
}

/* The path of RELATIVE (e.g. "bvh-cmu-131/131_01.bvh") in $ODORI_CORPUS_DIR, to free;
 * NULL when ODORI_CORPUS_DIR is unset or the file is missing, the test then skipped (or
 * failed, under ODORI_CORPUS_REQUIRED=1) with a message naming the file. */
static inline char *
odori_test_corpus_file (const char *relative)
{
  const char      *dir = g_getenv ("ODORI_CORPUS_DIR");
  g_autofree char *path = NULL;

  if (dir != NULL && dir[0] != '\0')
    {
      path = g_build_filename (dir, relative, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  if (odori_test_corpus_required ())
    {
      if (path != NULL)
        g_test_fail_printf ("needs the shared corpus file ../shared/corpus/%s: %s is missing "
                            "(ODORI_CORPUS_REQUIRED=1)",
                            relative, path);
      else
        g_test_fail_printf ("needs the shared corpus file ../shared/corpus/%s: ODORI_CORPUS_DIR "
                            "is not set (ODORI_CORPUS_REQUIRED=1)",
                            relative);
    }
  else
    g_test_skip_printf ("needs the shared corpus file ../shared/corpus/%s (not in the "
                        "repository; present beside a clone in the project's workplace)",
                        relative);
  return NULL;
}
