/* fuzz-index.c: libFuzzer target for the motion.dat reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "fuzz-common.h"
#include "odori-index.h"

#define NAME "motion.dat"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static guint
count_motions (OdoriIndex *index)
{
  guint n = 0;

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          n += show->motions->len;
        }
    }
  return n;
}

/* Every motion is found by its qualified symbol; a bare code finds it or is ambiguous. */
static void
check_lookups (OdoriIndex *index)
{
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow  *show = g_ptr_array_index (klass->shows, s);
          g_autofree char *path = odori_index_show_path (index, show);

          if (path == NULL || !g_path_is_absolute (path))
            fuzz_fail ("show %s: no absolute path", show->code);
          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *motion = g_ptr_array_index (show->motions, m);
              g_autofree char  *symbol = g_strconcat (show->code, ".", motion->code, NULL);
              g_autoptr(GError) error = NULL;
              OdoriIndexMotion *found;

              if (motion->show != show || show->klass != klass)
                fuzz_fail ("back pointers are wrong");
              if (motion->first > motion->last)
                fuzz_fail ("a range %u-%u was accepted", motion->first, motion->last);
              /* Two shows may share a code (with a warning): then SHOW.CODE is ambiguous. */
              found = odori_index_lookup (index, symbol, &error);
              if (found == NULL && !g_error_matches (error, ODORI_INDEX_ERROR,
                                                     ODORI_INDEX_ERROR_AMBIGUOUS))
                fuzz_fail ("%s not found: %s", symbol, error->message);
              g_clear_error (&error);
              found = odori_index_lookup (index, motion->code, &error);
              if (found == NULL && !g_error_matches (error, ODORI_INDEX_ERROR,
                                                     ODORI_INDEX_ERROR_AMBIGUOUS))
                fuzz_fail ("bare %s not found: %s", motion->code, error->message);
            }
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(OdoriTextFile) again = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriIndex) reread = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GError) error = NULL;

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    return 0;

  index = odori_index_load_text (file, &error);
  if (index == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("an index and an error: %s", error->message);
  fuzz_note ("loaded");
  fuzz_check_diagnostics (index->warnings);

  check_lookups (index);

  out = odori_output_new_memory (index->encoding);
  odori_index_write (index, out);
  again = fuzz_reopen (NAME, out);
  reread = odori_index_load_text (again, &error);
  if (reread == NULL)
    fuzz_fail ("what the motion.dat writer wrote does not load: %s", error->message);
  if (reread->parts->len != index->parts->len || count_motions (reread) != count_motions (index))
    fuzz_fail ("write and read again: %u parts and %u motions became %u and %u",
               index->parts->len, count_motions (index), reread->parts->len,
               count_motions (reread));
  return 0;
}
