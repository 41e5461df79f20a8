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

/* What the reader accepts is in range (DESIGN.md "Symbol modifiers"). */
static void
check_mods (const OdoriSymbolMods *mods)
{
  if (mods->speed != 0 && !(mods->speed >= ODORI_SPEED_MIN && mods->speed <= ODORI_SPEED_MAX))
    fuzz_fail ("speed %g was accepted", mods->speed);
  if (mods->repeat > ODORI_REPEAT_MAX || mods->blend > ODORI_BLEND_MAX)
    fuzz_fail ("repeat %u or blend %u was accepted", mods->repeat, mods->blend);
  if (mods->in > 0 && mods->out > 0 && mods->in > mods->out)
    fuzz_fail ("in=%u out=%u was accepted", mods->in, mods->out);
  if (odori_symbol_mods_length (mods, 1 + mods->out) < 1)
    fuzz_fail ("a symbol of no length");
}

/* Every symbol reads back with its modifiers. */
static void
check_same_symbols (OdoriScore *a,
                    OdoriScore *b)
{
  for (guint i = 0; i < a->parts->len; i++)
    {
      OdoriScorePart *pa = g_ptr_array_index (a->parts, i);
      OdoriScorePart *pb = g_ptr_array_index (b->parts, i);

      for (guint j = 0; j < pa->symbols->len && j < pb->symbols->len; j++)
        {
          OdoriScoreSymbol *sa = &g_array_index (pa->symbols, OdoriScoreSymbol, j);
          OdoriScoreSymbol *sb = &g_array_index (pb->symbols, OdoriScoreSymbol, j);

          if (sa->start != sb->start || !odori_symbol_mods_equal (&sa->mods, &sb->mods))
            fuzz_fail ("symbol %s at %u changed when written and read again", sa->symbol,
                       sa->start);
        }
    }
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
          check_mods (&sym->mods);
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
  check_same_symbols (score, reread);
  if (reread->foot_lock != score->foot_lock)
    fuzz_fail ("# FootLock: %d became %d", score->foot_lock, reread->foot_lock);
  if (!odori_score_music_equal (&score->music, &reread->music))
    fuzz_fail ("the music lines changed when written and read again");
  return 0;
}
