/* fuzz-replay.c: runs a fuzz target's checks on saved inputs, without libFuzzer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Linked with one fuzz-NAME.c, this is an ordinary program (any compiler, any build):
 * `replay-NAME DIR...` feeds every file under each DIR to LLVMFuzzerTestOneInput and
 * prints one TAP line per file. The test suite runs it on tests/fuzz/regressions/NAME/,
 * where every input the fuzzers ever crashed on is kept: a crash, a hang (meson's
 * timeout), a sanitizer report or a fuzz_fail() there fails the suite.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "fuzz-common.h"

static void
collect (const char *path,
         GPtrArray  *files)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_ptr_array_add (files, g_strdup (path));
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  for (guint i = 0; i < names->len; i++)
    collect (g_ptr_array_index (names, i), files);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    collect (argv[i], files);
  g_ptr_array_sort (files, compare_paths);

  printf ("1..%u\n", files->len);
  fflush (stdout);
  for (guint i = 0; i < files->len; i++)
    {
      const char      *path = g_ptr_array_index (files, i);
      g_autofree char *data = NULL;
      gsize            len = 0;
      g_autoptr(GError) error = NULL;

      if (!g_file_get_contents (path, &data, &len, &error))
        {
          printf ("not ok %u - %s: %s\n", i + 1, path, error->message);
          return 1;
        }
      /* A crash ends the program here: the TAP plan is then unfinished and the test
       * fails. */
      LLVMFuzzerTestOneInput ((const uint8_t *) data, len);
      printf ("ok %u - %s\n", i + 1, path);
      fflush (stdout);
    }
  return 0;
}
