/* fuzz-bulge.c: libFuzzer target for the bulge_types reader (and writer)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Saving (odori_bulge_set_save takes a path) goes to a private directory, in RAM when
 * /dev/shm exists, to check that what Odori writes loads again.
 */
#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "odori-bulge.h"

#define NAME "bulge_types"

static char *save_dir;
static char *save_path;

static void
cleanup (void)
{
  if (save_path != NULL)
    g_unlink (save_path);
  if (save_dir != NULL)
    g_rmdir (save_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char      *base = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();
  g_autofree char *tmpl = g_build_filename (base, "odori-fuzz-XXXXXX", NULL);

  fuzz_init ();
  save_dir = g_mkdtemp (g_steal_pointer (&tmpl));
  if (save_dir == NULL)
    fuzz_fail ("cannot make a temporary directory");
  save_path = g_build_filename (save_dir, NAME, NULL);
  atexit (cleanup);
  return 0;
}

static guint
count_sections (OdoriBulgeSet *set)
{
  guint n = 0;

  for (guint i = 0; i < set->bulges->len; i++)
    n += ((OdoriBulge *) g_ptr_array_index (set->bulges, i))->sections->len;
  return n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(OdoriBulgeSet) set = NULL;
  g_autoptr(OdoriBulgeSet) reread = NULL;
  g_autoptr(GError) error = NULL;

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    return 0;

  set = odori_bulge_set_load_text (file, &error);
  if (set == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("a bulge set and an error: %s", error->message);
  fuzz_note ("loaded");
  fuzz_check_diagnostics (set->log);

  for (guint i = 0; i < set->bulges->len; i++)
    {
      const OdoriBulge *bulge = g_ptr_array_index (set->bulges, i);

      if (odori_bulge_set_find (set, bulge->code) != bulge)
        fuzz_fail ("bulge code %d is not unique", bulge->code);
      if (bulge->sections->len == 0)
        fuzz_fail ("bulge %d has no section", bulge->code);
      for (float u = -0.25f; u <= 1.25f; u += 0.125f)
        for (float angle = -90; angle <= 450; angle += 45)
          {
            float v = NAN, w = NAN;

            odori_bulge_eval (bulge, u, angle, &v, &w);
            if (!isfinite (v) || !isfinite (w))
              fuzz_fail ("bulge %d at u=%g, %g degrees: v=%g w=%g", bulge->code, u, angle, v, w);
          }
    }

  if (!odori_bulge_set_save (set, save_path, &error))
    fuzz_fail ("cannot save a bulge set that loaded: %s", error->message);
  reread = odori_bulge_set_load (save_path, &error);
  if (reread == NULL)
    fuzz_fail ("what the bulge writer wrote does not load: %s", error->message);
  if (reread->bulges->len != set->bulges->len || count_sections (reread) != count_sections (set))
    fuzz_fail ("write and read again: %u bulges and %u sections became %u and %u",
               set->bulges->len, count_sections (set), reread->bulges->len,
               count_sections (reread));
  return 0;
}
