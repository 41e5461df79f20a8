/* test-score-edit.c: score edits apply, refuse and revert exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "odori-score-edit.h"

static const char score_text[] =
  "# Title: t\n"
  "# Author: a\n"
  "# Date: d\n"
  "# Blend: 4\n"
  "BD: Hips,Chest\n"
  "1: A1\n"
  "100: A2\n"
  "200: A3\n"
  "LA: Chest,LeftHand\n"
  "1: B1\n"
  "50: B2\n";

static OdoriScore *
load (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = NULL;
  OdoriScore *score;

  file = odori_text_file_new_from_data ("t.dds", score_text, strlen (score_text), &error);
  g_assert_no_error (error);
  score = odori_score_load_text (file, &error);
  g_assert_no_error (error);
  return score;
}

static char *
to_text (OdoriScore *score)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  gsize len;
  const char *data;

  odori_score_write (score, out);
  g_assert_true (odori_output_commit (out, NULL));
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

static OdoriScoreSymbol *
sym (OdoriScore *score,
     guint       part,
     guint       i)
{
  OdoriScorePart *p = g_ptr_array_index (score->parts, part);

  return &g_array_index (p->symbols, OdoriScoreSymbol, i);
}

/* Two symbols of one track move past each other in one edit; revert gives the same
 * text and the same source lines back. */
static void
test_move_and_revert (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = load ();
  g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Move");
  g_autofree char *before = to_text (score);
  g_autofree char *after = NULL;
  g_autofree char *reverted = NULL;
  guint line_a2 = sym (score, 0, 1)->line;

  g_assert_cmpuint (line_a2, ==, 7);
  /* A2 100 → 200 and A3 200 → 300: A2 lands where A3 was. */
  odori_score_edit_move_symbol (edit, 0, sym (score, 0, 2), 300);
  odori_score_edit_move_symbol (edit, 0, sym (score, 0, 1), 200);
  g_assert_true (odori_score_edit_apply (edit, score, &error));
  g_assert_no_error (error);
  after = to_text (score);
  g_assert_nonnull (strstr (after, "BD: Hips,Chest\n1: A1\n200: A2\n300: A3\n"));
  g_assert_cmpuint (sym (score, 0, 1)->line, ==, line_a2);

  g_assert_true (odori_score_edit_revert (edit, score, &error));
  g_assert_no_error (error);
  reverted = to_text (score);
  g_assert_cmpstr (reverted, ==, before);
  g_assert_cmpuint (sym (score, 0, 1)->line, ==, line_a2);
  g_assert_cmpuint (sym (score, 0, 1)->start, ==, 100);

  /* And again forward. */
  g_assert_true (odori_score_edit_apply (edit, score, &error));
  g_free (reverted);
  reverted = to_text (score);
  g_assert_cmpstr (reverted, ==, after);
}

/* A landing on another symbol's start is refused and nothing changes. */
static void
test_occupied_is_atomic (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = load ();
  g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Move");
  g_autofree char *before = to_text (score);
  g_autofree char *after = NULL;

  odori_score_edit_move_symbol (edit, 1, sym (score, 1, 1), 60);   /* fine */
  odori_score_edit_move_symbol (edit, 0, sym (score, 0, 1), 200);  /* A3 stays at 200 */
  g_assert_false (odori_score_edit_apply (edit, score, &error));
  g_assert_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_OCCUPIED);
  g_assert_nonnull (strstr (error->message, "BD"));
  g_assert_nonnull (strstr (error->message, "200"));
  after = to_text (score);
  g_assert_cmpstr (after, ==, before);
}

static void
test_bad_edits (void)
{
  g_autoptr(OdoriScore) score = load ();
  g_autofree char *before = to_text (score);
  OdoriScoreSymbol ghost = { 77, (char *) "A1", 0 };
  struct { OdoriScoreEditError code; } cases[] = {
    { ODORI_SCORE_EDIT_ERROR_NO_SYMBOL },
    { ODORI_SCORE_EDIT_ERROR_START },
    { ODORI_SCORE_EDIT_ERROR_PART },
    { ODORI_SCORE_EDIT_ERROR_OCCUPIED },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("x");
      g_autofree char *after = NULL;

      switch (cases[i].code)
        {
        case ODORI_SCORE_EDIT_ERROR_NO_SYMBOL:
          odori_score_edit_remove_symbol (edit, 0, &ghost);
          break;
        case ODORI_SCORE_EDIT_ERROR_START:
          odori_score_edit_add_symbol (edit, 0, 0, "A1");
          break;
        case ODORI_SCORE_EDIT_ERROR_PART:
          odori_score_edit_add_symbol (edit, 5, 10, "A1");
          break;
        case ODORI_SCORE_EDIT_ERROR_OCCUPIED:
          odori_score_edit_add_symbol (edit, 1, 10, "B1");
          odori_score_edit_add_symbol (edit, 1, 10, "B2");
          break;
        }
      g_assert_false (odori_score_edit_apply (edit, score, &error));
      g_assert_error (error, ODORI_SCORE_EDIT_ERROR, (int) cases[i].code);
      after = to_text (score);
      g_assert_cmpstr (after, ==, before);
    }
}

static void
test_blend_and_parts (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = load ();
  g_autoptr(OdoriScoreEdit) blend = odori_score_edit_new ("Blend");
  g_autoptr(OdoriScoreEdit) add = odori_score_edit_new ("Add track");
  g_autoptr(OdoriScoreEdit) remove = odori_score_edit_new ("Remove track");
  g_autofree char *before = to_text (score);
  g_autofree char *text = NULL;
  const char *sensors[] = { "Neck", "Head", NULL };

  odori_score_edit_set_blend (blend, score->blend, -1);
  g_assert_true (odori_score_edit_apply (blend, score, &error));
  g_assert_cmpint (score->blend, ==, -1);
  g_assert_true (odori_score_edit_revert (blend, score, &error));
  g_assert_cmpint (score->blend, ==, 4);

  odori_score_edit_insert_part (add, 1, "HD", sensors);
  g_assert_cmpint (odori_score_edit_get_part_position (add), ==, 1);
  g_assert_true (odori_score_edit_apply (add, score, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (score->parts->len, ==, 3);
  g_assert_cmpint (odori_score_find_part_index (score, "HD"), ==, 1);
  /* The same track twice is refused. */
  g_assert_false (odori_score_edit_apply (add, score, &error));
  g_assert_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_PART);
  g_clear_error (&error);
  g_assert_true (odori_score_edit_revert (add, score, &error));
  text = to_text (score);
  g_assert_cmpstr (text, ==, before);

  /* Removing LA keeps a copy with its symbols: revert puts them back. */
  odori_score_edit_remove_part (remove, 1, g_ptr_array_index (score->parts, 1));
  g_assert_true (odori_score_edit_apply (remove, score, &error));
  g_assert_cmpuint (score->parts->len, ==, 1);
  g_assert_true (odori_score_edit_revert (remove, score, &error));
  g_free (text);
  text = to_text (score);
  g_assert_cmpstr (text, ==, before);
  g_assert_cmpuint (sym (score, 1, 1)->line, ==, 11);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/score-edit/move-and-revert", test_move_and_revert);
  g_test_add_func ("/score-edit/occupied-is-atomic", test_occupied_is_atomic);
  g_test_add_func ("/score-edit/bad-edits", test_bad_edits);
  g_test_add_func ("/score-edit/blend-and-parts", test_blend_and_parts);
  return g_test_run ();
}
