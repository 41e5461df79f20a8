/* test-score.c: DDS, the Digital Dance Score
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-score.h"

static char *tmp_dir;

/* The seed's example (dance-composer-file-spec.ja.txt, FORMATS.md §2), in the layout
 * Odori writes: saving it gives the same bytes. */
#define SEED_SCORE                                    \
  "# Title: 新しい踊り\n"                             \
  "# Author: 湯川 崇\n"                               \
  "# Date: 1998/09/21 17:22:13\n"                     \
  "HD: Body,Head\n"                                   \
  "1: A1\n"                                           \
  "119: A2\n"                                         \
  "LA: Body,LeftUpArm,LeftLowArm,LeftHand\n"          \
  "1: B3\n"

/* Header lines in any order, extensions, unknown '#' lines, blanks around tokens,
 * symbols out of order, an empty part. */
static const char *rich_score =
  "# Title: 新しい踊り\n"                             /* 1 */
  "# Author: 湯川 崇\n"
  "# Index: ../lib/motion.dat\n"
  "# こんにちは、舞踊譜です\n"
  "# Date: 1998/09/21 17:22:13\n"                     /* 5 */
  "#FrameTime:0.033333\n"
  "  # Blend:  8  \n"
  "# Tool: Odori 0.1\n"
  "\n"
  "  HD :  Body , Head  \n"                           /* 10 */
  "119: A2\n"
  "1:\tA1\n"
  "LA: Body,LeftUpArm,LeftLowArm,LeftHand\n"
  "  1 : BA.A1   \n"
  "RA:\n"                                             /* 15 */
  "# the end\n";

static const char *rich_canonical =
  "# Title: 新しい踊り\n"
  "# Author: 湯川 崇\n"
  "# Date: 1998/09/21 17:22:13\n"
  "# Index: ../lib/motion.dat\n"
  "# FrameTime: 0.033333\n"
  "# Blend: 8\n"
  "# こんにちは、舞踊譜です\n"
  "# Tool: Odori 0.1\n"
  "# the end\n"
  "HD: Body,Head\n"
  "1: A1\n"
  "119: A2\n"
  "LA: Body,LeftUpArm,LeftLowArm,LeftHand\n"
  "1: BA.A1\n"
  "RA:\n";

static const char *test_index =
  "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n"
  "define part name=\"左腕\" code=\"LA\" map=\"Body,LeftUpArm,LeftLowArm,LeftHand\"\n"
  "begin class name=\"舞踊\" code=\"dance\"\n"
  "  begin show name=\"基本の舞い\" code=\"BA\" file=\"kihon1.vpm\"\n"
  "    motion code=\"A1\" frame=1-118\n"
  "    motion code=\"A2\" frame=119-240\n"
  "  end show\n"
  "  begin show code=\"OU\" file=\"oyo.vpm\"\n"
  "    motion code=\"A1\" frame=1-50\n"
  "    motion code=\"B3\" frame=1-20\n"
  "  end show\n"
  "end class\n";

/* Helpers */

static char *
write_tmp (const char *name,
           const char *content,
           gssize      len)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, content, len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
read_file (const char *path,
           gsize      *len)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  g_file_get_contents (path, &data, len, &error);
  g_assert_no_error (error);
  return data;
}

static OdoriScore *
load_data (const char  *name,
           const char  *content,
           gssize       len,
           GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  if (len < 0)
    len = strlen (content);
  file = odori_text_file_new_from_data (name, content, len, error);
  if (file == NULL)
    return NULL;
  return odori_score_load_text (file, error);
}

static OdoriScore *
load_ok (const char *content)
{
  g_autoptr(GError) error = NULL;
  OdoriScore *score = load_data ("dance.dds", content, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (score);
  return score;
}

static GBytes *
write_bytes (OdoriScore *score)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (score->encoding);
  g_autoptr(GError) error = NULL;

  odori_score_write (score, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  return odori_output_steal_bytes (out);
}

static char *
write_string (OdoriScore *score)
{
  g_autoptr(GBytes) bytes = write_bytes (score);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_strndup (data, len);
}

static OdoriIndex *
load_index (const char *content)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("motion.dat", content,
                                                                 strlen (content), &error);
  OdoriIndex *index;

  g_assert_no_error (error);
  index = odori_index_load_text (file, &error);
  g_assert_no_error (error);
  return index;
}

static char *
replace_all (const char *s,
             const char *from,
             const char *to)
{
  g_auto(GStrv) pieces = g_strsplit (s, from, -1);

  return g_strjoinv (to, pieces);
}

static OdoriScorePart *
get_part (OdoriScore *score,
          guint       i)
{
  return g_ptr_array_index (score->parts, i);
}

static OdoriScoreSymbol *
get_symbol (OdoriScorePart *part,
            guint           i)
{
  return &g_array_index (part->symbols, OdoriScoreSymbol, i);
}

static gboolean
strv_equal0 (char **a,
             char **b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strv_equal ((const char * const *) a, (const char * const *) b);
}

#define CHECK(cond, ...)                          \
  G_STMT_START {                                  \
    if (!(cond))                                  \
      {                                           \
        *why = g_strdup_printf (__VA_ARGS__);     \
        return FALSE;                             \
      }                                           \
  } G_STMT_END

/* Equal models: everything but line numbers, path and warnings. */
static gboolean
score_equal (OdoriScore  *a,
             OdoriScore  *b,
             char       **why)
{
  CHECK (a->encoding == b->encoding, "encodings differ");
  CHECK (g_strcmp0 (a->title, b->title) == 0, "titles differ");
  CHECK (g_strcmp0 (a->author, b->author) == 0, "authors differ");
  CHECK (g_strcmp0 (a->date, b->date) == 0, "dates differ");
  CHECK (g_strcmp0 (a->index_path, b->index_path) == 0, "index paths differ");
  CHECK (a->frame_time == b->frame_time, "frame times differ: %.17g vs %.17g",
         a->frame_time, b->frame_time);
  CHECK (a->blend == b->blend, "blends differ: %d vs %d", a->blend, b->blend);
  CHECK (a->header_lines->len == b->header_lines->len, "%u vs %u header lines",
         a->header_lines->len, b->header_lines->len);
  for (guint i = 0; i < a->header_lines->len; i++)
    CHECK (g_strcmp0 (g_ptr_array_index (a->header_lines, i),
                      g_ptr_array_index (b->header_lines, i)) == 0, "header line %u differs", i);

  CHECK (a->parts->len == b->parts->len, "%u vs %u parts", a->parts->len, b->parts->len);
  for (guint i = 0; i < a->parts->len; i++)
    {
      OdoriScorePart *pa = get_part (a, i), *pb = get_part (b, i);

      CHECK (g_strcmp0 (pa->code, pb->code) == 0, "part %u differs", i);
      CHECK (strv_equal0 (pa->sensors, pb->sensors), "sensors of part %s differ", pa->code);
      CHECK (pa->symbols->len == pb->symbols->len, "part %s: %u vs %u symbols",
             pa->code, pa->symbols->len, pb->symbols->len);
      for (guint j = 0; j < pa->symbols->len; j++)
        {
          OdoriScoreSymbol *sa = get_symbol (pa, j), *sb = get_symbol (pb, j);

          CHECK (sa->start == sb->start && g_strcmp0 (sa->symbol, sb->symbol) == 0,
                 "symbol %u of part %s differs", j, pa->code);
        }
    }
  return TRUE;
}

static void
assert_score_equal (OdoriScore *a,
                    OdoriScore *b)
{
  g_autofree char *why = NULL;

  if (!score_equal (a, b, &why))
    g_error ("scores differ: %s", why);
}

/* load → save → load is equal, and a second save is byte-identical. */
static void
assert_round_trip (OdoriScore *score,
                   const char *name)
{
  g_autofree char *path1 = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *path2 = g_strconcat (path1, ".2", NULL);
  g_autoptr(OdoriScore) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data1 = NULL;
  g_autofree char *data2 = NULL;
  gsize len1, len2;

  g_assert_true (odori_score_save (score, path1, &error));
  g_assert_no_error (error);
  back = odori_score_load (path1, &error);
  g_assert_no_error (error);
  assert_score_equal (score, back);

  g_assert_true (odori_score_save (back, path2, &error));
  g_assert_no_error (error);
  data1 = read_file (path1, &len1);
  data2 = read_file (path2, &len2);
  g_assert_cmpmem (data1, len1, data2, len2);
}

static const OdoriDiagnostic *
find_diagnostic (GPtrArray  *diagnostics,
                 guint       line,
                 const char *text)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const OdoriDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (d->line == line && strstr (d->message, text) != NULL)
        return d;
    }
  return NULL;
}

/* Tests */

static void
test_load_seed (void)
{
  g_autoptr(OdoriScore) score = load_ok (SEED_SCORE);
  g_autofree char *text = NULL;
  OdoriScorePart *part;
  const char * const hd[] = { "Body", "Head", NULL };
  const char * const la[] = { "Body", "LeftUpArm", "LeftLowArm", "LeftHand", NULL };

  g_assert_cmpstr (score->path, ==, "dance.dds");
  g_assert_cmpint (score->encoding, ==, ODORI_ENCODING_UTF8);
  g_assert_cmpstr (score->title, ==, "新しい踊り");
  g_assert_cmpstr (score->author, ==, "湯川 崇");
  g_assert_cmpstr (score->date, ==, "1998/09/21 17:22:13");
  g_assert_null (score->index_path);
  g_assert_cmpfloat (score->frame_time, ==, 0);
  g_assert_cmpint (score->blend, ==, -1);
  g_assert_cmpuint (score->header_lines->len, ==, 0);
  g_assert_cmpuint (score->warnings->len, ==, 0);

  g_assert_cmpuint (score->parts->len, ==, 2);
  part = get_part (score, 0);
  g_assert_cmpstr (part->code, ==, "HD");
  g_assert_true (g_strv_equal (hd, (const char * const *) part->sensors));
  g_assert_cmpuint (part->line, ==, 4);
  g_assert_cmpuint (part->symbols->len, ==, 2);
  g_assert_cmpuint (get_symbol (part, 0)->start, ==, 1);
  g_assert_cmpstr (get_symbol (part, 0)->symbol, ==, "A1");
  g_assert_cmpuint (get_symbol (part, 0)->line, ==, 5);
  g_assert_cmpuint (get_symbol (part, 1)->start, ==, 119);
  g_assert_cmpstr (get_symbol (part, 1)->symbol, ==, "A2");

  part = get_part (score, 1);
  g_assert_cmpstr (part->code, ==, "LA");
  g_assert_true (g_strv_equal (la, (const char * const *) part->sensors));
  g_assert_cmpuint (part->symbols->len, ==, 1);
  g_assert_cmpstr (get_symbol (part, 0)->symbol, ==, "B3");
  g_assert_cmpuint (get_symbol (part, 0)->line, ==, 8);

  text = write_string (score);
  g_assert_cmpstr (text, ==, SEED_SCORE);
}

static void
test_load_rich (void)
{
  g_autoptr(OdoriScore) score = load_ok (rich_score);
  OdoriScorePart *part;
  g_autofree char *text = NULL;

  g_assert_cmpstr (score->title, ==, "新しい踊り");
  g_assert_cmpstr (score->date, ==, "1998/09/21 17:22:13");
  g_assert_cmpstr (score->index_path, ==, "../lib/motion.dat");
  g_assert_cmpfloat (score->frame_time, ==, 0.033333);
  g_assert_cmpint (score->blend, ==, 8);
  g_assert_cmpuint (score->header_lines->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (score->header_lines, 0), ==, "# こんにちは、舞踊譜です");
  g_assert_cmpstr (g_ptr_array_index (score->header_lines, 1), ==, "# Tool: Odori 0.1");
  g_assert_cmpstr (g_ptr_array_index (score->header_lines, 2), ==, "# the end");
  g_assert_cmpuint (score->warnings->len, ==, 0);

  g_assert_cmpuint (score->parts->len, ==, 3);
  part = get_part (score, 0);
  g_assert_cmpstr (part->code, ==, "HD");
  g_assert_cmpstr (part->sensors[0], ==, "Body");
  g_assert_cmpstr (part->sensors[1], ==, "Head");
  g_assert_null (part->sensors[2]);
  /* Kept in start order, whatever the order in the file. */
  g_assert_cmpuint (get_symbol (part, 0)->start, ==, 1);
  g_assert_cmpstr (get_symbol (part, 0)->symbol, ==, "A1");
  g_assert_cmpuint (get_symbol (part, 0)->line, ==, 12);
  g_assert_cmpuint (get_symbol (part, 1)->start, ==, 119);
  g_assert_cmpuint (get_symbol (part, 1)->line, ==, 11);

  part = get_part (score, 1);
  g_assert_cmpstr (get_symbol (part, 0)->symbol, ==, "BA.A1");

  /* An empty part is allowed. */
  part = get_part (score, 2);
  g_assert_cmpstr (part->code, ==, "RA");
  g_assert_nonnull (part->sensors);
  g_assert_null (part->sensors[0]);
  g_assert_cmpuint (part->symbols->len, ==, 0);
  g_assert_cmpuint (part->line, ==, 15);

  text = write_string (score);
  g_assert_cmpstr (text, ==, rich_canonical);
}

static void
test_round_trip (void)
{
  g_autoptr(OdoriScore) seed = load_ok (SEED_SCORE);
  g_autoptr(OdoriScore) rich = load_ok (rich_score);
  g_autoptr(OdoriScore) bare = load_ok ("HD: Body\n1: A1\n");
  g_autofree char *text = NULL;

  assert_round_trip (seed, "seed-rt.dds");
  assert_round_trip (rich, "rich-rt.dds");

  /* Without a header the three header lines are still written (the original tools skip
   * three lines), and read back as unset. */
  text = write_string (bare);
  g_assert_cmpstr (text, ==, "# Title: \n# Author: \n# Date: \nHD: Body\n1: A1\n");
  g_assert_null (bare->title);
  assert_round_trip (bare, "bare-rt.dds");
}

static void
test_line_ends (void)
{
  g_autoptr(OdoriScore) lf = load_ok (rich_score);
  g_autofree char *crlf_text = replace_all (rich_score, "\n", "\r\n");
  g_autofree char *cr_text = replace_all (rich_score, "\n", "\r");
  g_autoptr(OdoriScore) crlf = load_ok (crlf_text);
  g_autoptr(OdoriScore) cr = load_ok (cr_text);

  assert_score_equal (lf, crlf);
  assert_score_equal (lf, cr);
  g_assert_cmpuint (get_symbol (get_part (cr, 0), 0)->line, ==, 12);
  g_assert_cmpuint (get_symbol (get_part (crlf, 0), 0)->line, ==, 12);
}

static void
test_shift_jis (void)
{
  g_autoptr(GError) error = NULL;
  gsize sjis_len = 0;
  g_autofree char *sjis = g_convert (SEED_SCORE, -1, "CP932", "UTF-8", NULL, &sjis_len, &error);
  g_autofree char *path = NULL;
  g_autofree char *out_path = g_build_filename (tmp_dir, "sjis-out.dds", NULL);
  g_autofree char *written = NULL;
  g_autoptr(OdoriScore) score = NULL;
  gsize written_len;

  g_assert_no_error (error);
  g_assert_false (g_utf8_validate (sjis, sjis_len, NULL));
  path = write_tmp ("sjis.dds", sjis, sjis_len);

  score = odori_score_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (score->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpstr (score->title, ==, "新しい踊り");
  g_assert_cmpstr (score->author, ==, "湯川 崇");
  g_assert_cmpuint (get_part (score, 0)->symbols->len, ==, 2);

  g_assert_true (odori_score_save (score, out_path, &error));
  g_assert_no_error (error);
  written = read_file (out_path, &written_len);
  g_assert_cmpmem (written, written_len, sjis, sjis_len);
  assert_round_trip (score, "sjis-rt.dds");
}

/* As for motion.dat: Shift_JIS whose only bytes invalid as UTF-8 are an ideographic blank
 * (dropped when written) must not be read back as UTF-8 ("\xE2\x80\x9C\x65" is two kanji
 * in CP932 and "“e" in UTF-8). */
static void
test_shift_jis_looks_utf8 (void)
{
  const char       data[] = "# Title: \xE2\x80\x9C\x65\n"
                            "HD: Body,Head\n"
                            "1:\x81\x40"
                            "A1\n";
  g_autofree char *path = write_tmp ("sjis-utf8.dds", data, sizeof data - 1);
  g_autofree char *out_path = g_build_filename (tmp_dir, "sjis-utf8-out.dds", NULL);
  g_autofree char *written = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriScore) back = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  score = odori_score_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (score->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpstr (score->title, !=, "\xE2\x80\x9C\x65");

  g_assert_true (odori_score_save (score, out_path, &error));
  g_assert_no_error (error);
  written = read_file (out_path, &len);
  g_assert_false (g_utf8_validate (written, len, NULL));
  back = odori_score_load (out_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpstr (back->title, ==, score->title);
  assert_round_trip (back, "sjis-utf8-rt.dds");
}

/* Symbol modifiers (FORMATS.md §2): read, written back byte for byte, refused with
 * line and column. */
static void
test_modifiers (void)
{
  static const char text[] = "# Title: \n"
                             "# Author: \n"
                             "# Date: \n"
                             "# Blend: 4\n"
                             "# FootLock: on\n"
                             "LA: Body,LeftUpArm\n"
                             "1: A1\n"
                             "120: TE.C1 mirror speed=0.5 in=10 out=60 repeat=2 blend=8\n"
                             "300: B2 speed=2\n"
                             "400: B3 in=3\n"
                             "500: B4 out=7 blend=0\n"
                             "600: B5 repeat=1\n";
  g_autoptr(OdoriScore) score = load_ok (text);
  g_autoptr(GBytes) bytes = NULL;
  OdoriScorePart *part = get_part (score, 0);
  const OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, 1);
  const OdoriScoreSymbol *plain = &g_array_index (part->symbols, OdoriScoreSymbol, 0);
  guint first, last;

  g_assert_cmpint (score->foot_lock, ==, 1);
  g_assert_cmpstr (sym->symbol, ==, "TE.C1");
  g_assert_true (sym->mods.mirror);
  g_assert_cmpfloat (sym->mods.speed, ==, 0.5);
  g_assert_cmpuint (sym->mods.in, ==, 10);
  g_assert_cmpuint (sym->mods.out, ==, 60);
  g_assert_cmpuint (sym->mods.repeat, ==, 2);
  g_assert_true (sym->mods.has_blend);
  g_assert_cmpuint (sym->mods.blend, ==, 8);
  g_assert_true (odori_symbol_mods_is_none (&plain->mods));
  g_assert_false (odori_symbol_mods_is_none (&sym->mods));

  /* Lengths (DESIGN.md): n' = 51 frames at speed 0.5 last 102, twice: 204. */
  g_assert_cmpuint (odori_symbol_mods_trim (&sym->mods, 100, &first, &last), ==, 51);
  g_assert_cmpuint (first, ==, 10);
  g_assert_cmpuint (last, ==, 60);
  g_assert_cmpuint (odori_symbol_mods_copy_frames (&sym->mods, 100), ==, 102);
  g_assert_cmpuint (odori_symbol_mods_length (&sym->mods, 100), ==, 204);
  /* out beyond a shorter clip is clamped; speed 2 of 5 frames: round (2.5) = 3. */
  g_assert_cmpuint (odori_symbol_mods_trim (&sym->mods, 40, NULL, NULL), ==, 31);
  sym = &g_array_index (part->symbols, OdoriScoreSymbol, 2);
  g_assert_cmpuint (odori_symbol_mods_copy_frames (&sym->mods, 5), ==, 3);
  g_assert_cmpuint (odori_symbol_mods_length (&plain->mods, 5), ==, 5);
  sym = &g_array_index (part->symbols, OdoriScoreSymbol, 4);
  g_assert_true (sym->mods.has_blend);
  g_assert_cmpuint (sym->mods.blend, ==, 0);

  bytes = write_bytes (score);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), text,
                   sizeof text - 1);
  assert_round_trip (score, "modifiers-rt.dds");
}

static void
test_modifier_errors (void)
{
  static const struct
  {
    const char *line;
    const char *message;
  } cases[] = {
    { "10: A1 mirorr", "dance.dds:3: column 8: unknown modifier \"mirorr\"" },
    { "10: A1 speed=0", "dance.dds:3: column 8: speed must be a number from 0.1 to 10" },
    { "10: A1 speed=11", "column 8: speed must be" },
    { "10: A1 speed=nan", "column 8: speed must be" },
    { "10: A1 speed=", "column 8: modifier \"speed\" needs a value" },
    { "10: A1 mirror speed=2 speed=3", "column 23: modifier \"speed\" given twice" },
    { "10: A1 in=0", "column 8: in must be a clip frame" },
    { "10: A1 in=9 out=3", "column 13: in=9 is after out=3" },
    { "10: A1 repeat=0", "column 8: repeat must be a count from 1 to 1000" },
    { "10: A1 repeat=1001", "repeat must be a count" },
    { "10: A1 blend=-1", "blend must be a frame count from 0 to 10000" },
    { "10: A1 blend=10001", "blend must be a frame count" },
    { "10: A1 mirror=1", "\"mirror\" takes no value" },
    { "10:\u3000踊り mirror x", "column 15: unknown modifier \"x\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("# Title: x\nLA: Body\n%s\n", cases[i].line);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriScore) score = load_data ("dance.dds", text, -1, &error);

      g_assert_null (score);
      g_assert_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MODIFIER);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("%s: got \"%s\", expected \"%s\"", cases[i].line, error->message,
                 cases[i].message);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriScore) score = load_data ("dance.dds", "# FootLock: maybe\n", -1, &error);

    g_assert_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_NUMBER);
    g_assert_nonnull (strstr (error->message, "dance.dds:1: \"# FootLock:\" must be on or off"));
  }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriScore) score = load_data ("dance.dds", "# Music: song\001.ogg\n", -1, &error);

    g_assert_null (score);
    g_assert_nonnull (strstr (error->message, "dance.dds:1: expected a file name after \"# Music:\""));
  }
}

static void
test_utf8_bom (void)
{
  g_autofree char *content = g_strconcat ("\xEF\xBB\xBF", SEED_SCORE, NULL);
  g_autofree char *path = write_tmp ("bom.dds", content, -1);
  g_autofree char *out_path = g_build_filename (tmp_dir, "bom-out.dds", NULL);
  g_autofree char *written = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  score = odori_score_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (score->encoding, ==, ODORI_ENCODING_UTF8_BOM);
  /* The BOM does not hide the first header line. */
  g_assert_cmpstr (score->title, ==, "新しい踊り");
  g_assert_cmpuint (score->header_lines->len, ==, 0);

  g_assert_true (odori_score_save (score, out_path, &error));
  g_assert_no_error (error);
  written = read_file (out_path, &len);
  g_assert_cmpmem (written, len, content, strlen (content));
}

static void
test_bad_encoding (void)
{
  const char *cases[] = {
    "# Title: \x81\x20\nHD: Body\n",
    "HD: Body\n1: A\x80\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_tmp ("bad-encoding.dds", cases[i], -1);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriScore) score = odori_score_load (path, &error);

      g_assert_null (score);
      g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING);
      g_assert_nonnull (strstr (error->message, "bad-encoding.dds"));
    }
}

typedef struct
{
  const char *name;
  const char *content;
  int         code;
  guint       line;
  const char *also;   /* must appear in the message too, or NULL */
} ErrorCase;

static const ErrorCase error_cases[] = {
  { "start-zero", "HD: Body,Head\n0: A1\n", ODORI_SCORE_ERROR_START, 2, "from 1" },
  { "start-zeros", "HD: Body,Head\n000: A1\n", ODORI_SCORE_ERROR_START, 2, "\"000\"" },
  { "start-negative", "HD: Body,Head\n1: A1\n-5: A2\n", ODORI_SCORE_ERROR_START, 3, "\"-5\"" },
  { "start-fraction", "HD: Body,Head\n1.5: A1\n", ODORI_SCORE_ERROR_START, 2, "\"1.5\"" },
  { "start-plus", "HD: Body,Head\n+3: A1\n", ODORI_SCORE_ERROR_START, 2, "\"+3\"" },
  { "start-huge", "HD: Body,Head\n99999999999999999999: A1\n", ODORI_SCORE_ERROR_START, 2,
    "too large" },
  { "duplicate-start", "HD: Body,Head\n1: A1\n119: A2\n\n119: A3\n",
    ODORI_SCORE_ERROR_DUPLICATE, 5, "line 3" },
  { "duplicate-part", "HD: Body,Head\n1: A1\nLA: Body\nHD: Body\n",
    ODORI_SCORE_ERROR_DUPLICATE, 4, "line 1" },
  { "no-part", "# Title: x\n1: A1\nHD: Body\n", ODORI_SCORE_ERROR_NO_PART, 2, "HD: Body,Head" },
  { "no-colon", "HD: Body\nhello\n", ODORI_SCORE_ERROR_SYNTAX, 2, "got \"hello\"" },
  { "empty-key", "HD: Body\n : A1\n", ODORI_SCORE_ERROR_SYNTAX, 2, NULL },
  { "empty-symbol", "HD: Body\n12:   \n", ODORI_SCORE_ERROR_SYNTAX, 2, "\"12:\"" },
  /* fuzz-score: "+\rI" was written back as "+ I", another part of the same score */
  { "control-in-code", "#\n+\rI: #\n+ I\f: #\n", ODORI_SCORE_ERROR_SYNTAX, 2, "control character" },
  { "frame-time-garbage", "# FrameTime: fast\n", ODORI_SCORE_ERROR_NUMBER, 1, "\"fast\"" },
  { "frame-time-trailing", "# Title: x\n# FrameTime: 0.03s\n", ODORI_SCORE_ERROR_NUMBER, 2,
    "\"0.03s\"" },
  { "frame-time-nan", "# FrameTime: nan\n", ODORI_SCORE_ERROR_NUMBER, 1, "not a finite" },
  { "frame-time-inf", "# FrameTime: -inf\n", ODORI_SCORE_ERROR_NUMBER, 1, "not a finite" },
  { "frame-time-zero", "# FrameTime: 0\n", ODORI_SCORE_ERROR_NUMBER, 1, "positive" },
  { "frame-time-negative", "# FrameTime: -0.03\n", ODORI_SCORE_ERROR_NUMBER, 1, "positive" },
  { "frame-time-empty", "# FrameTime:\n", ODORI_SCORE_ERROR_NUMBER, 1, NULL },
  { "blend-negative", "# Blend: -1\n", ODORI_SCORE_ERROR_NUMBER, 1, "\"-1\"" },
  { "blend-fraction", "# Blend: 2.5\n", ODORI_SCORE_ERROR_NUMBER, 1, "\"2.5\"" },
  { "blend-huge", "# Blend: 99999999999\n", ODORI_SCORE_ERROR_NUMBER, 1, NULL },
  { "blend-word", "HD: Body\n# Blend: some\n", ODORI_SCORE_ERROR_NUMBER, 2, "\"some\"" },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      const ErrorCase *c = &error_cases[i];
      g_autofree char *prefix = g_strdup_printf ("dance.dds:%u: ", c->line);
      g_autofree char *crlf = replace_all (c->content, "\n", "\r\n");
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) error_crlf = NULL;
      g_autoptr(OdoriScore) score = load_data ("dance.dds", c->content, -1, &error);
      g_autoptr(OdoriScore) score_crlf = load_data ("dance.dds", crlf, -1, &error_crlf);

      g_test_message ("case %s: %s", c->name, error ? error->message : "(no error)");
      g_assert_null (score);
      g_assert_error (error, ODORI_SCORE_ERROR, c->code);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      if (c->also != NULL)
        g_assert_nonnull (strstr (error->message, c->also));
      g_assert_null (score_crlf);
      g_assert_cmpstr (error_crlf->message, ==, error->message);
    }
}

static void
test_error_path_prefix (void)
{
  g_autofree char *path = write_tmp ("err.dds", "# Title: x\nHD: Body\n0: A1\n", -1);
  g_autofree char *prefix = g_strdup_printf ("%s:3: ", path);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = odori_score_load (path, &error);

  g_assert_null (score);
  g_assert_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_START);
  g_assert_true (g_str_has_prefix (error->message, prefix));
}

static void
test_header_lines (void)
{
  const char *content =
    "HD: Body\n"
    "1: A1\n"
    "# Title: first\n"
    "# note one\n"
    "# Title: second\n"
    "# Index:\n"
    "#\n"
    "# note two\n";
  g_autoptr(OdoriScore) score = load_ok (content);
  g_autofree char *text = NULL;

  /* Known keys are read anywhere; the last one wins with a warning. */
  g_assert_cmpstr (score->title, ==, "second");
  g_assert_null (score->index_path);
  g_assert_cmpuint (score->warnings->len, ==, 1);
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (score->warnings, 0))->line, ==, 5);
  g_assert_cmpuint (score->header_lines->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (score->header_lines, 0), ==, "# note one");
  g_assert_cmpstr (g_ptr_array_index (score->header_lines, 1), ==, "#");
  g_assert_cmpstr (g_ptr_array_index (score->header_lines, 2), ==, "# note two");

  text = write_string (score);
  g_assert_cmpstr (text, ==,
                   "# Title: second\n"
                   "# Author: \n"
                   "# Date: \n"
                   "# note one\n"
                   "#\n"
                   "# note two\n"
                   "HD: Body\n"
                   "1: A1\n");
  assert_round_trip (score, "header-lines.dds");
}

static void
test_frame_time_locale (void)
{
  g_autoptr(OdoriScore) score = NULL;
  g_autofree char *text = NULL;
  const char *old = setlocale (LC_NUMERIC, NULL);
  g_autofree char *saved = g_strdup (old);

  /* A decimal comma locale must change neither reading nor writing. */
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale (LC_NUMERIC, "fr_FR.UTF-8") == NULL)
    g_test_message ("no decimal-comma locale installed; testing in the C locale");

  score = load_ok ("# FrameTime: 0.0083333\n# Blend: 0\nHD: Body\n");
  g_assert_cmpfloat (score->frame_time, ==, 0.0083333);
  g_assert_cmpint (score->blend, ==, 0);
  text = write_string (score);
  g_assert_nonnull (strstr (text, "# FrameTime: 0.0083333\n# Blend: 0\n"));

  setlocale (LC_NUMERIC, saved);
}

static void
test_empty_sensor_items (void)
{
  g_autoptr(OdoriScore) score = load_ok ("HD: Body,,Head,\n");
  OdoriScorePart *part = get_part (score, 0);

  g_assert_cmpuint (g_strv_length (part->sensors), ==, 2);
  g_assert_cmpstr (part->sensors[1], ==, "Head");
  g_assert_cmpuint (score->warnings->len, ==, 1);
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (score->warnings, 0))->line, ==, 1);
}

static void
test_resolve (void)
{
  g_autoptr(OdoriIndex) index = load_index (test_index);
  g_autoptr(OdoriScore) score = load_ok ("HD: Body,Head\n"     /* 1 */
                                         "1: BA.A1\n"
                                         "119: A2\n"
                                         "200: A1\n"           /* ambiguous */
                                         "300: ZZ\n"           /* 5: unknown */
                                         "LA: Body,LeftHand\n" /* sensors differ */
                                         "1: B3\n"
                                         "XX: Body\n"          /* 8: unknown part */
                                         "1: OU.A1\n");
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();
  const OdoriDiagnostic *d;
  g_autofree char *text = NULL;

  g_assert_false (odori_score_resolve (score, index, diagnostics));
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *s = odori_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("%s", s);
    }
  g_assert_cmpuint (diagnostics->len, ==, 4);

  d = find_diagnostic (diagnostics, 4, "\"A1\"");
  g_assert_nonnull (d);
  g_assert_true (d->is_error);
  g_assert_nonnull (strstr (d->message, "BA.A1"));
  g_assert_nonnull (strstr (d->message, "OU.A1"));
  g_assert_cmpstr (d->file, ==, "dance.dds");
  text = odori_diagnostic_to_string (d);
  g_assert_true (g_str_has_prefix (text, "dance.dds:4: "));

  d = find_diagnostic (diagnostics, 5, "\"ZZ\"");
  g_assert_nonnull (d);
  g_assert_true (d->is_error);

  d = find_diagnostic (diagnostics, 6, "LA");
  g_assert_nonnull (d);
  g_assert_false (d->is_error);
  g_assert_nonnull (strstr (d->message, "Body,LeftHand"));
  g_assert_nonnull (strstr (d->message, "Body,LeftUpArm,LeftLowArm,LeftHand"));

  d = find_diagnostic (diagnostics, 8, "\"XX\"");
  g_assert_nonnull (d);
  g_assert_true (d->is_error);
}

static void
test_resolve_ok (void)
{
  g_autoptr(OdoriIndex) index = load_index (test_index);
  g_autoptr(OdoriScore) score = load_ok ("HD: Body,Head\n1: BA.A1\n119: A2\n200: OU.A1\n"
                                         "LA: Body,LeftUpArm,LeftLowArm,LeftHand\n1: B3\n");
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();

  g_assert_true (odori_score_resolve (score, index, diagnostics));
  g_assert_cmpuint (diagnostics->len, ==, 0);
}

static void
test_resolve_sensor_warning_only (void)
{
  g_autoptr(OdoriIndex) index = load_index (test_index);
  g_autoptr(OdoriScore) score = load_ok ("HD: Head,Body\n1: A2\n");
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();

  /* A differing sensor list is a warning: the score still resolves. */
  g_assert_true (odori_score_resolve (score, index, diagnostics));
  g_assert_cmpuint (diagnostics->len, ==, 1);
  g_assert_false (((OdoriDiagnostic *) g_ptr_array_index (diagnostics, 0))->is_error);
}

static void
test_index_path (void)
{
  g_autoptr(OdoriScore) score = odori_score_new ();
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *expected = NULL;
  char *path;

  g_assert_null (odori_score_dup_index_path (score));

  score->path = g_strdup ("/data/scores/new.dds");
  score->index_path = g_strdup ("../lib/motion.dat");
  path = odori_score_dup_index_path (score);
  g_assert_cmpstr (path, ==, "/data/lib/motion.dat");
  g_free (path);

  g_free (score->index_path);
  score->index_path = g_strdup ("lib\\motion.dat");
  path = odori_score_dup_index_path (score);
  g_assert_cmpstr (path, ==, "/data/scores/lib/motion.dat");
  g_free (path);

  g_free (score->index_path);
  score->index_path = g_strdup ("/abs/motion.dat");
  path = odori_score_dup_index_path (score);
  g_assert_cmpstr (path, ==, "/abs/motion.dat");
  g_free (path);

  g_free (score->path);
  score->path = g_strdup ("new.dds");
  g_free (score->index_path);
  score->index_path = g_strdup ("motion.dat");
  path = odori_score_dup_index_path (score);
  expected = g_build_filename (cwd, "motion.dat", NULL);
  g_assert_cmpstr (path, ==, expected);
  g_free (path);
}

static void
test_index_path_loaded (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "scores", NULL);
  g_autofree char *path = g_build_filename (dir, "a.dds", NULL);
  g_autofree char *expected = g_build_filename (tmp_dir, "lib", "motion.dat", NULL);
  g_autofree char *index_path = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, "# Index: ../lib/motion.dat\nHD: Body\n", -1, &error);
  g_assert_no_error (error);
  score = odori_score_load (path, &error);
  g_assert_no_error (error);
  index_path = odori_score_dup_index_path (score);
  g_assert_cmpstr (index_path, ==, expected);
}

static void
test_build (void)
{
  g_autoptr(OdoriScore) score = odori_score_new ();
  g_autoptr(OdoriScore) back = NULL;
  g_autofree char *text = NULL;
  const char * const sensors[] = { "Body", "Head", NULL };
  OdoriScorePart *part;

  score->title = g_strdup ("踊り\nof two lines");
  score->frame_time = 1.0 / 30;
  score->blend = 4;
  part = odori_score_add_part (score, "HD", sensors);
  g_assert_nonnull (part);
  g_assert_null (odori_score_add_part (score, "HD", NULL));
  g_assert_nonnull (odori_score_add_part (score, "LA", NULL));

  g_assert_true (odori_score_part_add_symbol (part, 119, "A2"));
  g_assert_true (odori_score_part_add_symbol (part, 1, "A1"));
  g_assert_true (odori_score_part_add_symbol (part, 60, "BA.B1"));
  g_assert_false (odori_score_part_add_symbol (part, 60, "A3"));
  g_assert_cmpuint (part->symbols->len, ==, 3);
  g_assert_cmpuint (get_symbol (part, 0)->start, ==, 1);
  g_assert_cmpuint (get_symbol (part, 1)->start, ==, 60);
  g_assert_cmpstr (get_symbol (part, 1)->symbol, ==, "BA.B1");
  g_assert_cmpuint (get_symbol (part, 2)->start, ==, 119);

  text = write_string (score);
  g_assert_cmpstr (text, ==,
                   "# Title: 踊り of two lines\n"
                   "# Author: \n"
                   "# Date: \n"
                   "# FrameTime: 0.03333333333333333\n"
                   "# Blend: 4\n"
                   "HD: Body,Head\n"
                   "1: A1\n"
                   "60: BA.B1\n"
                   "119: A2\n"
                   "LA:\n");
  back = load_ok (text);
  g_assert_cmpfloat (back->frame_time, ==, 1.0 / 30);
  g_assert_cmpint (back->blend, ==, 4);
  g_assert_cmpuint (back->parts->len, ==, 2);
}

static void
test_save_unmappable (void)
{
  g_autoptr(OdoriScore) score = load_ok (SEED_SCORE);
  g_autofree char *path = g_build_filename (tmp_dir, "unmappable.dds", NULL);
  g_autoptr(GError) error = NULL;

  g_free (score->title);
  score->title = g_strdup ("\xF0\x9F\x92\x83");  /* U+1F483: no Shift_JIS code */
  score->encoding = ODORI_ENCODING_SHIFT_JIS;

  g_assert_false (odori_score_save (score, path, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_UNMAPPABLE);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Any prefix of a valid file, and any single byte changed, loads or fails cleanly. */
static void
test_garbage (void)
{
  gsize len = strlen (rich_score);
  g_autofree char *buf = g_malloc (len);
  const char bytes[] = { ':', '#', '\n', ' ', '-', '0', 'x', '\0', '\r', ',', (char) 0xE3 };

  for (gsize cut = 0; cut <= len; cut++)
    {
      g_autoptr(OdoriScore) score = load_data ("cut.dds", rich_score, cut, NULL);
      (void) score;
    }
  for (gsize pos = 0; pos < len; pos++)
    for (guint b = 0; b < G_N_ELEMENTS (bytes); b++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(OdoriScore) score = NULL;

        memcpy (buf, rich_score, len);
        buf[pos] = bytes[b];
        score = load_data ("mutated.dds", buf, len, &error);
        g_assert_true ((score == NULL) != (error == NULL));
        if (score != NULL)
          {
            g_autoptr(GBytes) out = write_bytes (score);
            g_assert_nonnull (out);
          }
      }
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR))
          remove_tree (child);
        else
          g_unlink (child);
      }
  g_rmdir (path);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("odori-test-score-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/score/load-seed", test_load_seed);
  g_test_add_func ("/score/load-rich", test_load_rich);
  g_test_add_func ("/score/round-trip", test_round_trip);
  g_test_add_func ("/score/line-ends", test_line_ends);
  g_test_add_func ("/score/shift-jis", test_shift_jis);
  g_test_add_func ("/score/shift-jis-looks-utf8", test_shift_jis_looks_utf8);
  g_test_add_func ("/score/utf8-bom", test_utf8_bom);
  g_test_add_func ("/score/bad-encoding", test_bad_encoding);
  g_test_add_func ("/score/errors", test_errors);
  g_test_add_func ("/score/error-path-prefix", test_error_path_prefix);
  g_test_add_func ("/score/header-lines", test_header_lines);
  g_test_add_func ("/score/frame-time-locale", test_frame_time_locale);
  g_test_add_func ("/score/empty-sensor-items", test_empty_sensor_items);
  g_test_add_func ("/score/resolve", test_resolve);
  g_test_add_func ("/score/resolve-ok", test_resolve_ok);
  g_test_add_func ("/score/resolve-sensor-warning", test_resolve_sensor_warning_only);
  g_test_add_func ("/score/index-path", test_index_path);
  g_test_add_func ("/score/index-path-loaded", test_index_path_loaded);
  g_test_add_func ("/score/build", test_build);
  g_test_add_func ("/score/save-unmappable", test_save_unmappable);
  g_test_add_func ("/score/garbage", test_garbage);
  g_test_add_func ("/score/modifiers", test_modifiers);
  g_test_add_func ("/score/modifier-errors", test_modifier_errors);

  ret = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
