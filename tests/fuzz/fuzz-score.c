/* fuzz-score.c: libFuzzer target for the DDS (dance score) reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "fuzz-common.h"
#include "odori-score.h"

#define NAME "fuzz.dds"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static guint
count_symbols (OdoriScore *score)
{
  guint n = 0;

  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, i);

      for (guint j = 0; j < part->symbols->len; j++)
        {
          OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, j);

          if (sym->start == 0)
            fuzz_fail ("start frame 0 was accepted");
          if (j > 0 && g_array_index (part->symbols, OdoriScoreSymbol, j - 1).start >= sym->start)
            fuzz_fail ("symbols of part %s are not in start order", part->code);
        }
      n += part->symbols->len;
    }
  return n;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(OdoriTextFile) again = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriScore) reread = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GError) error = NULL;

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    return 0;

  score = odori_score_load_text (file, &error);
  if (score == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("a score and an error: %s", error->message);
  fuzz_note ("loaded");
  fuzz_check_diagnostics (score->warnings);

  out = odori_output_new_memory (score->encoding);
  odori_score_write (score, out);
  again = fuzz_reopen (NAME, out);
  reread = odori_score_load_text (again, &error);
  if (reread == NULL)
    fuzz_fail ("what the DDS writer wrote does not load: %s", error->message);
  if (reread->parts->len != score->parts->len || count_symbols (reread) != count_symbols (score))
    fuzz_fail ("write and read again: %u parts and %u symbols became %u and %u",
               score->parts->len, count_symbols (score), reread->parts->len,
               count_symbols (reread));
  return 0;
}
