/* test-bulge.c: the bulge_types reader and writer (FORMATS.md §7)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "odori-bulge.h"
#include "odori-format.h"
#include "odori-skeleton.h"
#include "odori-text.h"

static char *tmp_dir;

/* The seed's example, as the seed prints it: typographic quotes, trailing blanks. */
static const char seed_example[] =
  "bulge: \xE2\x80\x9CGeneric\xE2\x80\x9D code: 5 \n"
  "    angle: 0 \n"
  "        0.000000 0.000000 0.008335 \n"
  "        0.500000 0.500000 0.250000 \n"
  "        1.000000 1.000000 0.000000 \n"
  "\n"
  "    angle: 180 \n"
  "        0.000000 0.000000 0.000000 \n"
  "        1.000000 1.000000 0.000000\n";

/* A complete definition to put next to broken ones (so the file is never empty). */
static const char good_def[] =
  "bulge: \"Good\" code: 9\n"
  "    angle: 0\n"
  "        0 0 0\n"
  "        1 1 0\n";

/* Helpers */

static OdoriBulgeSet *
load_string (const char  *text,
             GError     **error)
{
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("test.bulge", text,
                                                                 strlen (text), error);

  if (file == NULL)
    return NULL;
  return odori_bulge_set_load_text (file, error);
}

static OdoriBulgeSet *
load_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  OdoriBulgeSet *set = load_string (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (set);
  return set;
}

static char *
default_file (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "bulge_types", NULL);
}

static const OdoriBulge *
bulge_at (OdoriBulgeSet *set,
          guint          i)
{
  g_assert_cmpuint (i, <, set->bulges->len);
  return g_ptr_array_index (set->bulges, i);
}

static const OdoriBulgeSection *
section_at (const OdoriBulge *bulge,
            guint             i)
{
  g_assert_cmpuint (i, <, bulge->sections->len);
  return &g_array_index (bulge->sections, OdoriBulgeSection, i);
}

static const OdoriBulgeKey *
key_at (const OdoriBulgeSection *section,
        guint                    i)
{
  g_assert_cmpuint (i, <, section->keys->len);
  return &g_array_index (section->keys, OdoriBulgeKey, i);
}

/* Asserts that the log has an entry at LINE whose message holds NEEDLE. */
static const OdoriDiagnostic *
assert_logged (OdoriBulgeSet *set,
               guint          line,
               const char    *needle)
{
  for (guint i = 0; i < set->log->len; i++)
    {
      const OdoriDiagnostic *diag = g_ptr_array_index (set->log, i);

      if (diag->line == line && strstr (diag->message, needle) != NULL)
        {
          g_assert_cmpstr (diag->file, ==, "test.bulge");
          return diag;
        }
    }
  for (guint i = 0; i < set->log->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (set->log, i));
      g_test_message ("log: %s", text);
    }
  g_error ("no log entry at line %u containing \"%s\"", line, needle);
  return NULL;
}

static void
assert_sets_equal (OdoriBulgeSet *a,
                   OdoriBulgeSet *b)
{
  g_assert_cmpuint (a->bulges->len, ==, b->bulges->len);
  for (guint i = 0; i < a->bulges->len; i++)
    {
      const OdoriBulge *ba = bulge_at (a, i), *bb = bulge_at (b, i);

      g_assert_cmpstr (ba->name, ==, bb->name);
      g_assert_cmpint (ba->code, ==, bb->code);
      g_assert_cmpuint (ba->sections->len, ==, bb->sections->len);
      for (guint s = 0; s < ba->sections->len; s++)
        {
          const OdoriBulgeSection *sa = section_at (ba, s), *sb = section_at (bb, s);

          g_assert_cmpint (sa->angle, ==, sb->angle);
          g_assert_cmpuint (sa->keys->len, ==, sb->keys->len);
          for (guint k = 0; k < sa->keys->len; k++)
            {
              /* bit-exact, not approximately */
              g_assert_true (key_at (sa, k)->u == key_at (sb, k)->u);
              g_assert_true (key_at (sa, k)->v == key_at (sb, k)->v);
              g_assert_true (key_at (sa, k)->w == key_at (sb, k)->w);
            }
        }
    }
}

static char *
read_back (OdoriBulgeSet *set,
           const char    *name,
           OdoriBulgeSet **out)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (odori_bulge_set_save (set, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  *out = odori_bulge_set_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*out);
  return text;
}

/* Reading */

static void
test_seed_example (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (seed_example);
  const OdoriBulge *bulge;
  const OdoriBulgeSection *front, *back;

  g_assert_cmpuint (set->bulges->len, ==, 1);
  g_assert_cmpuint (set->log->len, ==, 0);
  bulge = bulge_at (set, 0);
  g_assert_cmpstr (bulge->name, ==, "Generic");
  g_assert_cmpint (bulge->code, ==, 5);
  g_assert_cmpuint (bulge->line, ==, 1);
  g_assert_cmpuint (bulge->sections->len, ==, 2);
  front = section_at (bulge, 0);
  back = section_at (bulge, 1);
  g_assert_cmpint (front->angle, ==, 0);
  g_assert_cmpint (back->angle, ==, 180);
  g_assert_cmpuint (front->keys->len, ==, 3);
  g_assert_cmpuint (back->keys->len, ==, 2);
  g_assert_cmpfloat (key_at (front, 0)->w, ==, 0.008335f);
  g_assert_cmpfloat (key_at (front, 1)->u, ==, 0.5f);
  g_assert_cmpfloat (key_at (front, 1)->v, ==, 0.5f);
  g_assert_cmpfloat (key_at (front, 1)->w, ==, 0.25f);
  g_assert_cmpfloat (key_at (front, 2)->u, ==, 1.f);
  g_assert_cmpfloat (key_at (back, 1)->w, ==, 0.f);
  g_assert_true (odori_bulge_set_find (set, 5) == bulge);
  g_assert_null (odori_bulge_set_find (set, 4));
}

static void
test_quotes (void)
{
  /* straight, curly both ways, curly closed by the left mark, spaces in names, blanks
   * before the colons, keywords in capitals */
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "bulge: \"Straight one\" code: 1\n angle: 0\n  0 0 0\n  1 1 0\n"
    "bulge: \xE2\x80\x9C" "Curly\xE2\x80\x9D code: 2\n angle: 0\n  0 0 0\n  1 1 0\n"
    "bulge: \xE2\x80\x9D" "Right-right\xE2\x80\x9D code: 3\n angle: 0\n  0 0 0\n  1 1 0\n"
    "bulge: \xE2\x80\x9C" "Left-left\xE2\x80\x9C code: 4\n angle: 0\n  0 0 0\n  1 1 0\n"
    "BULGE : \"Caps\"  CODE :7\n ANGLE :90\n  0 0 0\n  1 1 0\n");

  g_assert_cmpuint (set->bulges->len, ==, 5);
  g_assert_cmpuint (set->log->len, ==, 0);
  g_assert_cmpstr (bulge_at (set, 0)->name, ==, "Straight one");
  g_assert_cmpstr (bulge_at (set, 1)->name, ==, "Curly");
  g_assert_cmpstr (bulge_at (set, 2)->name, ==, "Right-right");
  g_assert_cmpstr (bulge_at (set, 3)->name, ==, "Left-left");
  g_assert_cmpstr (bulge_at (set, 4)->name, ==, "Caps");
  g_assert_cmpint (bulge_at (set, 4)->code, ==, 7);
  g_assert_cmpint (section_at (bulge_at (set, 4), 0)->angle, ==, 90);
}

static void
test_reused_code (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "bulge: \"A\" code: 3\n angle: 0\n  0 0 0\n  1 1 0\n"        /* lines 1-4 */
    "bulge: \"B\" code: 3\n angle: 0\n  0 0 0\n  1 1 0\n"        /* 5-8 */
    "bulge: \"C\" code: 10\n angle: 0\n  0 0 0\n  1 1 0\n"       /* 9-12 */
    "bulge: \"D\" code: 3\n angle: 0\n  0 0 0\n  1 1 0\n"        /* 13-16 */
    "bulge: \"E\" code: 11\n angle: 0\n  0 0 0\n  1 1 0\n");     /* 17-20 */

  g_assert_cmpuint (set->bulges->len, ==, 5);
  /* the first keeps it; later ones get new codes above every code in the file */
  g_assert_cmpint (bulge_at (set, 0)->code, ==, 3);
  g_assert_cmpint (bulge_at (set, 1)->code, ==, 12);
  g_assert_cmpint (bulge_at (set, 2)->code, ==, 10);
  g_assert_cmpint (bulge_at (set, 3)->code, ==, 13);
  g_assert_cmpint (bulge_at (set, 4)->code, ==, 11);
  g_assert_cmpuint (set->log->len, ==, 2);
  g_assert_false (assert_logged (set, 5, "code 3 is already used by \"A\" (line 1)")->is_error);
  assert_logged (set, 5, "new code 12");
  assert_logged (set, 13, "new code 13");
  g_assert_cmpstr (odori_bulge_set_find (set, 3)->name, ==, "A");
  g_assert_cmpstr (odori_bulge_set_find (set, 13)->name, ==, "D");
}

static void
test_reused_code_at_max (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "bulge: \"A\" code: 2147483647\n angle: 0\n  0 0 0\n  1 1 0\n"
    "bulge: \"B\" code: 2147483647\n angle: 0\n  0 0 0\n  1 1 0\n"
    "bulge: \"C\" code: 0\n angle: 0\n  0 0 0\n  1 1 0\n");

  /* no code above the highest: the lowest free one */
  g_assert_cmpint (bulge_at (set, 1)->code, ==, 1);
  assert_logged (set, 5, "new code 1");
}

typedef struct
{
  const char *name;
  const char *text;      /* appended after good_def (4 lines), so lines count from 5 */
  guint       line;
  const char *message;   /* a part of the log message */
} BadCase;

static const BadCase bad_cases[] = {
  /* initialisation */
  { "no-quotes", "bulge: Biceps code: 1\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "expected a name in double quotes after \"bulge:\", got \"Biceps code: 1\"" },
  { "no-closing-quote", "bulge: \"Biceps code: 1\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "closing quote is missing" },
  { "no-closing-curly", "bulge: \xE2\x80\x9C" "Biceps code: 1\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "closing quote is missing" },
  { "quote-in-name",
    "bulge: \xE2\x80\x9C" "Big \"B\"\xE2\x80\x9D code: 1\n angle: 0\n 0 0 0\n 1 1 0\n",
    5, "cannot hold a double quote" },
  { "no-colon", "bulge \"B\" code: 1\n angle: 0\n 0 0 0\n 1 1 0\n", 5, "expected \"bulge:" },
  { "no-code", "bulge: \"B\"\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "expected \"code: ID\" after the name" },
  { "code-word-only", "bulge: \"B\" code:\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "expected an integer code from 0 to 2147483647, got \"\"" },
  { "negative-code", "bulge: \"B\" code: -1\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "bulge \"B\" left out: expected an integer code from 0 to 2147483647, got -1" },
  { "code-not-integer", "bulge: \"B\" code: 1.5\n angle: 0\n 0 0 0\n 1 1 0\n", 5, "got \"1.5\"" },
  { "code-text", "bulge: \"B\" code: abc\n angle: 0\n 0 0 0\n 1 1 0\n", 5, "got \"abc\"" },
  { "code-too-large", "bulge: \"B\" code: 99999999999999999999999\n angle: 0\n 0 0 0\n 1 1 0\n",
    5, "got 99999999999999999999999" },
  { "code-then-text", "bulge: \"B\" code: 1 extra\n angle: 0\n 0 0 0\n 1 1 0\n", 5,
    "unexpected text after the code: \"extra\"" },
  /* sections */
  { "no-section", "bulge: \"B\" code: 1\n\n", 5, "no section" },
  { "angle-too-large", "bulge: \"B\" code: 1\n angle: 400\n 0 0 0\n 1 1 0\n", 6,
    "expected an integer angle from 0 to 360, got 400" },
  { "angle-negative", "bulge: \"B\" code: 1\n angle: -1\n 0 0 0\n 1 1 0\n", 6, "got -1" },
  { "angle-not-integer", "bulge: \"B\" code: 1\n angle: 45.5\n 0 0 0\n 1 1 0\n", 6,
    "got \"45.5\"" },
  { "angle-nan", "bulge: \"B\" code: 1\n angle: nan\n 0 0 0\n 1 1 0\n", 6, "got \"nan\"" },
  { "angle-no-colon", "bulge: \"B\" code: 1\n angle 0\n 0 0 0\n 1 1 0\n", 6,
    "expected \"angle: A\"" },
  { "keys-before-angle", "bulge: \"B\" code: 1\n 0 0 0\n angle: 0\n 0 0 0\n 1 1 0\n", 6,
    "expected \"angle: A\" before the keypoints, got \"0 0 0\"" },
  /* keypoints */
  { "one-keypoint", "bulge: \"B\" code: 1\n angle: 90\n 0 0 0\n", 6,
    "the section at angle 90 has 1 keypoint; it needs at least two" },
  { "no-keypoint", "bulge: \"B\" code: 1\n angle: 90\n angle: 0\n 0 0 0\n 1 1 0\n", 6,
    "has 0 keypoints" },
  { "first-u-not-0", "bulge: \"B\" code: 1\n angle: 0\n 0.1 0.1 0\n 1 1 0\n", 7,
    "must start with a keypoint at U = 0, got U = 0.1" },
  { "last-u-not-1", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 0\n 0.9 0.9 0\n", 9,
    "must end with a keypoint at U = 1, got U = 0.9" },
  { "u-not-increasing", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 0\n 0.5 0.6 0\n 1 1 0\n",
    9, "U must be greater than the previous keypoint's (0.5), got 0.5" },
  { "v-not-increasing", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 0\n 0.6 0.4 0\n 1 1 0\n",
    9, "V must be greater than the previous keypoint's (0.5), got 0.4" },
  { "u-above-1", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 1.5 0.5 0\n", 8,
    "U must be between 0 and 1, got 1.5" },
  { "v-below-0", "bulge: \"B\" code: 1\n angle: 0\n 0 -0.1 0\n 1 1 0\n", 7,
    "V must be between 0 and 1, got -0.1" },
  { "w-above", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 0.7\n 1 1 0\n", 8,
    "W must be between -0.5 and 0.5, got 0.7" },
  { "w-below", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 -0.6\n 1 1 0\n", 8,
    "W must be between -0.5 and 0.5, got -0.6" },
  { "w-nan", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 nan\n 1 1 0\n", 8,
    "W must be a finite number, got \"nan\"" },
  { "u-inf", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n -inf 0.5 0\n 1 1 0\n", 8,
    "U must be a finite number, got \"-inf\"" },
  { "two-numbers", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5\n 1 1 0\n", 8,
    "expected three numbers \"U V W\", got \"0.5 0.5\"" },
  { "four-numbers", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 0.5 0 0\n 1 1 0\n", 8,
    "expected three numbers" },
  { "garbage", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0.5 x 0\n 1 1 0\n", 8,
    "expected a number for V, got \"x\"" },
  { "comma-decimal", "bulge: \"B\" code: 1\n angle: 0\n 0 0 0\n 0,5 0,5 0\n 1 1 0\n", 8,
    "expected a number for U, got \"0,5\"" },
};

static void
test_bad_case (gconstpointer data)
{
  const BadCase *c = data;
  g_autofree char *text = g_strconcat (good_def, c->text, NULL);
  g_autoptr(OdoriBulgeSet) set = load_ok (text);
  const OdoriDiagnostic *diag;

  /* left out, logged with its line, the rest of the file still read */
  g_assert_cmpuint (set->bulges->len, ==, 1);
  g_assert_cmpstr (bulge_at (set, 0)->name, ==, "Good");
  diag = assert_logged (set, c->line, c->message);
  g_assert_true (diag->is_error);
  g_assert_true (g_str_has_prefix (diag->message, "bulge \"B\" left out: ") ||
                 g_str_has_prefix (diag->message, "the bulge definition at line 5 left out: "));
}

static void
test_incomplete_in_the_middle (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "# a catalogue\n"                                               /* 1 */
    "bulge: \"First\" code: 1\n angle: 0\n  0 0 0\n  1 1 0\n"       /* 2-5 */
    "bulge: \"Broken\" code: 2\n angle: 0\n  0 0 0\n  0.5 0.5 0.9\n  0.7 0.6 0.8\n" /* 6-10 */
    "  1 1 0\n"                                                     /* 11 */
    "bulge: \"Last\" code: 3\n angle: 180\n  0 0 0\n  1 1 0.1\n");  /* 12-15 */

  g_assert_cmpuint (set->bulges->len, ==, 2);
  g_assert_cmpstr (bulge_at (set, 0)->name, ==, "First");
  g_assert_cmpstr (bulge_at (set, 1)->name, ==, "Last");
  g_assert_cmpuint (bulge_at (set, 1)->line, ==, 12);
  g_assert_cmpfloat (key_at (section_at (bulge_at (set, 1), 0), 1)->w, ==, 0.1f);
  /* every problem of the broken one, each with its own line */
  g_assert_cmpuint (set->log->len, ==, 2);
  assert_logged (set, 9, "bulge \"Broken\" left out: W must be between -0.5 and 0.5, got 0.9");
  assert_logged (set, 10, "got 0.8");
  g_assert_null (odori_bulge_set_find (set, 2));
}

static void
test_sections_sorted_and_duplicates (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "bulge: \"S\" code: 1\n"                    /* 1 */
    " angle: 270\n  0 0 0\n  1 1 0.3\n"        /* 2-4 */
    " angle: 0\n  0 0 0.1\n  1 1 0\n"          /* 5-7 */
    " angle: 360\n  0 0 0\n  1 1 0\n"          /* 8-10 */
    " angle: 270\n  0 0 0\n  0.5 2 2\n");      /* 11-13: ignored, even its bad values */
  const OdoriBulge *bulge;

  g_assert_cmpuint (set->bulges->len, ==, 1);
  bulge = bulge_at (set, 0);
  g_assert_cmpuint (bulge->sections->len, ==, 3);
  g_assert_cmpint (section_at (bulge, 0)->angle, ==, 0);
  g_assert_cmpint (section_at (bulge, 1)->angle, ==, 270);
  g_assert_cmpint (section_at (bulge, 2)->angle, ==, 360);
  g_assert_cmpfloat (key_at (section_at (bulge, 1), 1)->w, ==, 0.3f);
  g_assert_cmpuint (set->log->len, ==, 1);
  g_assert_false (assert_logged (set, 11, "second section at angle 270 is ignored (the first "
                                          "is at line 2)")->is_error);
}

static void
test_name_outside_ascii (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "bulge: \"\xE5\xA4\xA7\xE8\x83\xB8\xE7\xAD\x8B\" code: 6\n angle: 0\n  0 0 0\n  1 1 0\n");

  /* kept, with a warning */
  g_assert_cmpuint (set->bulges->len, ==, 1);
  g_assert_cmpstr (bulge_at (set, 0)->name, ==, "大胸筋");
  g_assert_false (assert_logged (set, 1, "outside ASCII 32-126")->is_error);
}

static void
test_stray_lines (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "Alias bulge definitions\n"      /* 1: logged */
    "version 2\n"                    /* 2: same run, not logged again */
    "\n"
    "angle: 0\n"                     /* 4: a new run */
    "bulge: \"A\" code: 1\n angle: 0\n  0 0 0\n  1 1 0\n");

  g_assert_cmpuint (set->bulges->len, ==, 1);
  g_assert_cmpuint (set->log->len, ==, 2);
  g_assert_false (assert_logged (set, 1, "got \"Alias bulge definitions\"; ignored")->is_error);
  assert_logged (set, 4, "got \"angle: 0\"");
}

static void
test_empty (void)
{
  static const char * const empty_texts[] = { "", "\n\n", "# only a comment\n" };

  for (guint i = 0; i < G_N_ELEMENTS (empty_texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriBulgeSet) set = load_string (empty_texts[i], &error);

      g_assert_null (set);
      g_assert_error (error, ODORI_BULGE_ERROR, ODORI_BULGE_ERROR_EMPTY);
      g_assert_true (g_str_has_prefix (error->message, "test.bulge:1: no bulge definition"));
    }
}

static void
test_only_incomplete (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriBulgeSet) set = load_string (
    "# header\n"
    "bulge: \"A\" code: 1\n angle: 0\n  0 0 0\n"
    "bulge: \"B\" code: 2\n angle: 0\n  0 0 0.9\n  1 1 0\n", &error);

  g_assert_null (set);
  g_assert_error (error, ODORI_BULGE_ERROR, ODORI_BULGE_ERROR_EMPTY);
  /* FILE:LINE of the first problem, and what it is */
  g_assert_true (g_str_has_prefix (error->message, "test.bulge:3: no complete bulge definition"));
  g_assert_nonnull (strstr (error->message, "has 1 keypoint"));
}

static void
test_log_is_bounded (void)
{
  g_autoptr(GString) text = g_string_new (good_def);
  g_autoptr(OdoriBulgeSet) set = NULL;

  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (text, "bulge: \"X%u\" code: 1\n", i);
  set = load_ok (text->str);
  g_assert_cmpuint (set->bulges->len, ==, 1);
  g_assert_cmpuint (set->log->len, ==, 1001);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (set->log, 1000))->message,
                            "too many problems"));
}

static void
test_io_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "does-not-exist", NULL);
  g_autoptr(OdoriBulgeSet) set = odori_bulge_set_load (path, &error);

  g_assert_null (set);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
}

/* Every prefix of the default file reads without crashing (and keeps only complete
 * definitions). */
static void
test_truncations (void)
{
  g_autofree char *path = default_file ();
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  for (gsize n = 0; n <= len; n++)
    {
      g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("cut", data, n, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriBulgeSet) set = odori_bulge_set_load_text (file, &error);

      g_assert_true ((set != NULL) != (error != NULL));
      for (guint i = 0; set != NULL && i < set->bulges->len; i++)
        {
          const OdoriBulge *bulge = bulge_at (set, i);

          for (guint s = 0; s < bulge->sections->len; s++)
            {
              const OdoriBulgeSection *section = section_at (bulge, s);

              g_assert_cmpuint (section->keys->len, >=, 2);
              g_assert_cmpfloat (key_at (section, 0)->u, ==, 0.f);
              g_assert_cmpfloat (key_at (section, section->keys->len - 1)->u, ==, 1.f);
            }
        }
    }
}

/* Random damage to the default file (bytes replaced, lines cut or doubled): the reader
 * never crashes, and whatever it keeps follows the rules. */
static void
test_mutations (void)
{
  static const char * const junk[] = { "\"", "\xE2\x80\x9C", "nan", "-", "9999999999", ":",
                                       "\n", "angle: ", "bulge: \"", " 0 0 ", "\xff", "1e309" };
  g_autofree char *path = default_file ();
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(GString) text = g_string_new_len (data, len);
      g_autoptr(OdoriTextFile) file = NULL;
      g_autoptr(OdoriBulgeSet) set = NULL;
      g_autoptr(GError) error = NULL;
      guint n_edits = g_test_rand_int_range (1, 8);

      for (guint e = 0; e < n_edits; e++)
        {
          gsize at = text->len > 0 ? (gsize) g_test_rand_int_range (0, text->len) : 0;
          gsize cut = g_test_rand_int_range (1, 40);
          const char *piece = junk[g_test_rand_int_range (0, G_N_ELEMENTS (junk))];

          if (g_test_rand_bit ())
            g_string_erase (text, at, MIN (text->len - at, cut));
          g_string_insert (text, at, piece);
        }
      file = odori_text_file_new_from_data ("mutant", text->str, text->len, &error);
      if (file == NULL)
        continue;  /* not decodable: the text layer's business */
      set = odori_bulge_set_load_text (file, &error);
      g_assert_true ((set != NULL) != (error != NULL));
      for (guint i = 0; set != NULL && i < set->bulges->len; i++)
        {
          const OdoriBulge *bulge = bulge_at (set, i);

          g_assert_cmpint (bulge->code, >=, 0);
          g_assert_cmpuint (bulge->sections->len, >=, 1);
          for (guint s = 0; s < bulge->sections->len; s++)
            {
              const OdoriBulgeSection *section = section_at (bulge, s);

              g_assert_cmpint (section->angle, >=, 0);
              g_assert_cmpint (section->angle, <=, 360);
              g_assert_cmpuint (section->keys->len, >=, 2);
              for (guint k = 1; k < section->keys->len; k++)
                {
                  g_assert_cmpfloat (key_at (section, k)->u, >, key_at (section, k - 1)->u);
                  g_assert_cmpfloat (key_at (section, k)->v, >, key_at (section, k - 1)->v);
                  g_assert_cmpfloat (fabsf (key_at (section, k)->w), <=, 0.5f);
                }
            }
          for (guint j = 0; j < i; j++)
            g_assert_cmpint (bulge->code, !=, bulge_at (set, j)->code);
        }
    }
}

/* Writing */

static void
test_round_trip_default (void)
{
  g_autofree char *path = default_file ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriBulgeSet) set = odori_bulge_set_load (path, &error);
  g_autoptr(OdoriBulgeSet) back = NULL;
  g_autoptr(OdoriBulgeSet) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;

  g_assert_no_error (error);
  text = read_back (set, "default.bulge", &back);
  assert_sets_equal (set, back);
  g_assert_cmpuint (back->log->len, ==, 0);
  /* the seed's layout, and the comments kept before the first definition */
  g_assert_true (g_str_has_prefix (text, "# bulge_types: Odori's default"));
  g_assert_nonnull (strstr (text, "bulge: \"Generic\" code: 5\n    angle: 0\n"
                                  "        0.000000 0.000000 0.008335\n"));
  /* a second round changes nothing */
  text2 = read_back (back, "default2.bulge", &again);
  g_assert_cmpstr (text, ==, text2);
}

static void
test_round_trip_seed (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (seed_example);
  g_autoptr(OdoriBulgeSet) back = NULL;
  g_autofree char *text = read_back (set, "seed.bulge", &back);

  assert_sets_equal (set, back);
  /* straight quotes on writing */
  g_assert_cmpstr (text, ==,
                   "bulge: \"Generic\" code: 5\n"
                   "    angle: 0\n"
                   "        0.000000 0.000000 0.008335\n"
                   "        0.500000 0.500000 0.250000\n"
                   "        1.000000 1.000000 0.000000\n"
                   "\n"
                   "    angle: 180\n"
                   "        0.000000 0.000000 0.000000\n"
                   "        1.000000 1.000000 0.000000\n");
}

static void
test_round_trip_comments (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "# top\n"
    "bulge: \"A\" code: 1\n angle: 0\n  0 0 0\n  # inside A\n  1 1 0\n"
    "# before the broken one\n"
    "bulge: \"Broken\" code: 2\n"
    "# before B\n"
    "bulge: \"B\" code: 3\n angle: 0\n  0 0 0\n  1 1 0\n"
    "# the end\n");
  g_autoptr(OdoriBulgeSet) back = NULL;
  g_autofree char *text = read_back (set, "comments.bulge", &back);

  assert_sets_equal (set, back);
  g_assert_cmpstr (text, ==,
                   "# top\n"
                   "bulge: \"A\" code: 1\n"
                   "    angle: 0\n"
                   "        0.000000 0.000000 0.000000\n"
                   "        1.000000 1.000000 0.000000\n"
                   "\n"
                   "# inside A\n"
                   "# before the broken one\n"
                   "# before B\n"
                   "bulge: \"B\" code: 3\n"
                   "    angle: 0\n"
                   "        0.000000 0.000000 0.000000\n"
                   "        1.000000 1.000000 0.000000\n"
                   "# the end\n");
}

static void
test_round_trip_precision (void)
{
  g_autoptr(OdoriBulgeSet) set = odori_bulge_set_new ();
  g_autoptr(OdoriBulgeSet) back = NULL;
  g_autofree char *text = NULL;
  OdoriBulge *bulge = g_new0 (OdoriBulge, 1);
  OdoriBulgeSection section = { 45, g_array_new (FALSE, FALSE, sizeof (OdoriBulgeKey)) };
  const OdoriBulgeKey keys[] = {
    { 0.f, 0.f, 1.f / 3 },
    { 1.f / 3, 0.1234567f, -1e-7f },
    { 0.7f, 2.f / 3, 0.4999999f },
    { 1.f, 1.f, -0.5f },
  };

  g_array_append_vals (section.keys, keys, G_N_ELEMENTS (keys));
  bulge->name = g_strdup ("Made \"in\" memory");
  bulge->code = 42;
  bulge->sections = g_array_new (FALSE, FALSE, sizeof (OdoriBulgeSection));
  g_array_append_val (bulge->sections, section);
  g_ptr_array_add (set->bulges, bulge);

  text = read_back (set, "precision.bulge", &back);
  /* a double quote in a name cannot be written: it becomes a single quote */
  g_assert_cmpstr (bulge_at (back, 0)->name, ==, "Made 'in' memory");
  g_free (bulge->name);
  bulge->name = g_strdup ("Made 'in' memory");
  assert_sets_equal (set, back);
  g_assert_nonnull (strstr (text, "        0.000000 0.000000 0.33333334\n"));
}

static void
test_keeps_encoding (void)
{
  /* Shift_JIS: a Japanese comment and name */
  static const char sjis[] =
    "# \x83\x6f\x83\x8b\x83\x57\x92\xe8\x8b\x60\n"     /* バルジ定義 */
    "bulge: \"\x93\xf1\x93\xaa\x8b\xd8\" code: 1\n"      /* 二頭筋 */
    "    angle: 0\n"
    "        0.000000 0.000000 0.000000\n"
    "        1.000000 1.000000 0.000000\n";
  g_autofree char *path = g_build_filename (tmp_dir, "sjis.bulge", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriBulgeSet) set = NULL;
  g_autoptr(OdoriBulgeSet) back = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (path, sjis, -1, NULL));
  set = odori_bulge_set_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (bulge_at (set, 0)->name, ==, "二頭筋");
  text = read_back (set, "sjis-out.bulge", &back);
  g_assert_cmpstr (text, ==, sjis);
  assert_sets_equal (set, back);
}

static void
test_save_error (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (seed_example);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "no-such-dir", "x.bulge", NULL);

  g_assert_false (odori_bulge_set_save (set, path, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
}

/* Evaluation */

static void
test_eval (void)
{
  g_autoptr(OdoriBulgeSet) set = load_ok (
    "bulge: \"E\" code: 1\n"
    " angle: 90\n  0 0 0\n  0.5 0.25 0.4\n  1 1 0\n"
    " angle: 270\n  0 0 0\n  1 1 0\n"
    "bulge: \"One\" code: 2\n"
    " angle: 0\n  0 0 0.1\n  1 1 -0.1\n");
  const OdoriBulge *e = bulge_at (set, 0), *one = bulge_at (set, 1);
  float v, w;

  /* on a section: piecewise linear over U */
  odori_bulge_eval (e, 0.5f, 90, &v, &w);
  g_assert_cmpfloat_with_epsilon (v, 0.25f, 1e-6);
  g_assert_cmpfloat_with_epsilon (w, 0.4f, 1e-6);
  odori_bulge_eval (e, 0.25f, 90, &v, &w);
  g_assert_cmpfloat_with_epsilon (v, 0.125f, 1e-6);
  g_assert_cmpfloat_with_epsilon (w, 0.2f, 1e-6);
  odori_bulge_eval (e, 0.75f, 90, &v, &w);
  g_assert_cmpfloat_with_epsilon (v, 0.625f, 1e-6);
  g_assert_cmpfloat_with_epsilon (w, 0.2f, 1e-6);
  odori_bulge_eval (e, 0.5f, 270, &v, &w);
  g_assert_cmpfloat_with_epsilon (v, 0.5f, 1e-6);
  g_assert_cmpfloat_with_epsilon (w, 0.f, 1e-6);
  /* between sections, by angle: 135 is a quarter of the way from 90 to 270 */
  odori_bulge_eval (e, 0.5f, 135, &v, &w);
  g_assert_cmpfloat_with_epsilon (w, 0.3f, 1e-6);
  g_assert_cmpfloat_with_epsilon (v, 0.25f + 0.25f * 0.25f, 1e-6);
  /* wrapping at 360: 0 is half way from 270 to 90; -45 is 315, a quarter from 270 */
  odori_bulge_eval (e, 0.5f, 0, &v, &w);
  g_assert_cmpfloat_with_epsilon (w, 0.2f, 1e-6);
  odori_bulge_eval (e, 0.5f, -45, &v, &w);
  g_assert_cmpfloat_with_epsilon (w, 0.1f, 1e-6);
  odori_bulge_eval (e, 0.5f, 360 + 90, &v, &w);
  g_assert_cmpfloat_with_epsilon (w, 0.4f, 1e-6);
  /* U clamped */
  odori_bulge_eval (e, 1.5f, 90, &v, &w);
  g_assert_cmpfloat (v, ==, 1.f);
  g_assert_cmpfloat (w, ==, 0.f);
  /* one section applies all round */
  for (int a = 0; a < 360; a += 45)
    {
      odori_bulge_eval (one, 0.25f, a, &v, &w);
      g_assert_cmpfloat_with_epsilon (w, 0.05f, 1e-6);
      g_assert_cmpfloat_with_epsilon (v, 0.25f, 1e-6);
    }
}

/* The shipped file and the skeletons' codes */

static void
test_default_file (void)
{
  static const struct { int code; const char *name; } expected[] = {
    { 1, "Biceps" }, { 2, "Forearm" }, { 3, "Thigh" }, { 4, "Calf" }, { 5, "Generic" },
    { 6, "Chest" },
  };
  static const struct { const char *segment; const char *bulge; } uses[] = {
    { "LeftUpArm", "Biceps" }, { "RightLowArm", "Forearm" }, { "LeftUpLeg", "Thigh" },
    { "RightLowLeg", "Calf" },
  };
  static const char * const biovision[] = {
    "Hips", "Chest", "Neck", "Head", "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
    "RightCollar", "RightUpArm", "RightLowArm", "RightHand", "LeftUpLeg", "LeftLowLeg",
    "LeftFoot", "RightUpLeg", "RightLowLeg", "RightFoot", NULL,
  };
  g_autofree char *path = default_file ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriBulgeSet) set = odori_bulge_set_load (path, &error);
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (set->log->len, ==, 0);
  g_assert_cmpuint (set->bulges->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const OdoriBulge *bulge = odori_bulge_set_find (set, expected[i].code);

      g_assert_nonnull (bulge);
      g_assert_cmpstr (bulge->name, ==, expected[i].name);
    }
  g_assert_cmpint (odori_format_detect_file (path, NULL), ==, ODORI_FORMAT_BULGE);

  /* the codes the built-in Biovision table gives the sample's bones */
  motion = odori_motion_new (g_strv_length ((char **) biovision), 1, 1.0 / 30, &error);
  g_assert_no_error (error);
  for (guint s = 0; biovision[s] != NULL; s++)
    {
      odori_motion_set_segment_name (motion, s, biovision[s]);
      odori_motion_get (motion, 0, s)->position[1] = (float) s;
    }
  skeleton = odori_skeleton_for_motion (motion);
  g_assert_nonnull (skeleton);
  for (guint i = 0; i < G_N_ELEMENTS (uses); i++)
    {
      int b = odori_skeleton_find (skeleton, uses[i].segment);
      const OdoriBulge *bulge;

      g_assert_cmpint (b, >=, 0);
      bulge = odori_bulge_set_find (set, skeleton->bones[b].bulge_code);
      g_assert_nonnull (bulge);
      g_assert_cmpstr (bulge->name, ==, uses[i].bulge);
    }
}

static void
test_detect (void)
{
  static const struct { const char *text; OdoriFormat format; } cases[] = {
    { "bulge: \"A\" code: 1\n", ODORI_FORMAT_BULGE },
    { "# catalogue\n\n  bulge:\"A\" code: 1\n", ODORI_FORMAT_BULGE },
    { "Bulge \"A\" code: 1\n", ODORI_FORMAT_BULGE },
    { "bulges: 1, 2\n", ODORI_FORMAT_SCORE },   /* a "KEY: value" line, not ours */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (odori_format_detect (cases[i].text, strlen (cases[i].text)), ==,
                     cases[i].format);
  g_assert_cmpstr (odori_format_to_string (ODORI_FORMAT_BULGE), ==, "bulge_types");
}

/* odori-cli info --json */
static void
test_cli_info (void)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autofree char *path = g_build_filename (tmp_dir, "info.bulge", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status = 0;
  JsonObject *root, *bulge, *section, *log;
  JsonArray *keys;

  if (cli == NULL)
    {
      g_test_skip ("ODORI_CLI is not set");
      return;
    }
  g_assert_true (g_file_set_contents (path,
    "bulge: \xE2\x80\x9CGeneric\xE2\x80\x9D code: 5\n"
    "    angle: 0\n        0 0 0.008335\n        0.5 0.5 0.25\n        1 1 0\n"
    "bulge: \"Bad\" code: 6\n    angle: 400\n        0 0 0\n        1 1 0\n", -1, NULL));
  {
    const char *argv[] = { cli, "info", "--json", path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "bulge_types");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "bulges")), ==, 1);
  bulge = json_array_get_object_element (json_object_get_array_member (root, "bulges"), 0);
  g_assert_cmpstr (json_object_get_string_member (bulge, "name"), ==, "Generic");
  g_assert_cmpint (json_object_get_int_member (bulge, "code"), ==, 5);
  section = json_array_get_object_element (json_object_get_array_member (bulge, "sections"), 0);
  g_assert_cmpint (json_object_get_int_member (section, "angle"), ==, 0);
  keys = json_object_get_array_member (section, "keypoints");
  g_assert_cmpuint (json_array_get_length (keys), ==, 3);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (
                                    json_array_get_array_element (keys, 1), 2), 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_array_get_double_element (
                                    json_array_get_array_element (keys, 0), 2), 0.008335, 1e-9);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "log")), ==, 1);
  log = json_array_get_object_element (json_object_get_array_member (root, "log"), 0);
  g_assert_cmpint (json_object_get_int_member (log, "line"), ==, 7);
  g_assert_cmpstr (json_object_get_string_member (log, "message"), ==,
                   "bulge \"Bad\" left out: expected an integer angle from 0 to 360, got 400");
}

static void
remove_tmp_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (tmp_dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-bulge-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/bulge/load/seed-example", test_seed_example);
  g_test_add_func ("/bulge/load/quotes", test_quotes);
  g_test_add_func ("/bulge/load/reused-code", test_reused_code);
  g_test_add_func ("/bulge/load/reused-code-at-max", test_reused_code_at_max);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/bulge/load/bad/%s", bad_cases[i].name);
      g_test_add_data_func (path, &bad_cases[i], test_bad_case);
    }
  g_test_add_func ("/bulge/load/incomplete-in-the-middle", test_incomplete_in_the_middle);
  g_test_add_func ("/bulge/load/sections-sorted", test_sections_sorted_and_duplicates);
  g_test_add_func ("/bulge/load/name-outside-ascii", test_name_outside_ascii);
  g_test_add_func ("/bulge/load/stray-lines", test_stray_lines);
  g_test_add_func ("/bulge/load/empty", test_empty);
  g_test_add_func ("/bulge/load/only-incomplete", test_only_incomplete);
  g_test_add_func ("/bulge/load/log-bounded", test_log_is_bounded);
  g_test_add_func ("/bulge/load/io-error", test_io_error);
  g_test_add_func ("/bulge/load/truncations", test_truncations);
  g_test_add_func ("/bulge/load/mutations", test_mutations);
  g_test_add_func ("/bulge/save/round-trip-default", test_round_trip_default);
  g_test_add_func ("/bulge/save/round-trip-seed", test_round_trip_seed);
  g_test_add_func ("/bulge/save/round-trip-comments", test_round_trip_comments);
  g_test_add_func ("/bulge/save/round-trip-precision", test_round_trip_precision);
  g_test_add_func ("/bulge/save/keeps-encoding", test_keeps_encoding);
  g_test_add_func ("/bulge/save/error", test_save_error);
  g_test_add_func ("/bulge/eval", test_eval);
  g_test_add_func ("/bulge/default-file", test_default_file);
  g_test_add_func ("/bulge/detect", test_detect);
  g_test_add_func ("/bulge/cli-info", test_cli_info);

  status = g_test_run ();
  remove_tmp_dir ();
  g_free (tmp_dir);
  return status;
}
