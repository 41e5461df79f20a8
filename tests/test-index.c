/* test-index.c: motion.dat, the dance-symbol index table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "odori-index-files.h"
#include "odori-index.h"
#include "odori-text-private.h"

#include "test-corpus.h"

static char *tmp_dir;

/* The seed's example (dance-composer-file-spec.ja.txt); it is already in the canonical
 * layout, so writing it back gives the same bytes. */
#define SEED_EXAMPLE                                                                        \
  "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n"                                 \
  "\n"                                                                                      \
  "begin class name=\"舞踊\" code=\"dance\"\n"                                              \
  "  begin show name=\"基本の舞い\" code=\"BA\" file=\"kihon1.vpm\"\n"                      \
  "    motion name=\"上下屈伸１の足１\" code=\"A1\" "                                       \
  "exp=\"両足指先までつける(１の足)、両手下から横水平にあげる、踵あげ\" frame=1-118\n"      \
  "  end show\n"                                                                            \
  "end class\n"

#define SEED_EXP "両足指先までつける(１の足)、両手下から横水平にあげる、踵あげ"

/* Everything the reader accepts: comments, tabs, bare and curly-quoted values, `define
 * motion`, `frames=`, blanks around '=', an ideographic space, unknown parameters. */
static const char *rich_index =
  "# 舞踊符インデックステーブル\n"
  "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n"
  "define part name=\"左腕\" code=\"LA\" map=\"Body, LeftUpArm ,LeftLowArm,LeftHand\"\n"
  "define part code=RA map=Body,RightUpArm name=“右腕”\n"
  "\n"
  "begin class name=\"舞踊\" code=\"dance\"\n"
  "\tbegin show name=\"基本の舞い\" code=\"BA\" file=\"kihon1.vpm\"\n"
  "\t  motion name=\"上下屈伸１の足１\" code=\"A1\" exp=\"" SEED_EXP "\" frame=1-118\n"
  "\t  define motion name=\"上下屈伸１の足２\" code=\"A2\" frames=119-240 tempo=\"slow\"\n"
  "   # a comment inside a block\n"
  "\t  motion code=B3　name=\"a = b, c\" frame = 241-300\n"
  "\tend show\n"
  "  begin show name=\"応用\" code=\"OU\" file=\"oyo.bva\"\n"
  "    motion code=\"A1\" frame=1-50 exp=“say \"hai\"”\n"
  "    motion code=\"X.Y\" frame=\"1-10\"\n"
  "  end show\n"
  "end class   \n"
  "BEGIN CLASS name=\"体操\" code=\"gym\"\n"
  "  begin show name=\"X\" code=\"X\" file=\"x.bva\"\n"
  "    motion code=\"Y\" frame=5-6\n"
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

static OdoriIndex *
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
  return odori_index_load_text (file, error);
}

static OdoriIndex *
load_ok (const char *content)
{
  g_autoptr(GError) error = NULL;
  OdoriIndex *index = load_data ("motion.dat", content, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (index);
  return index;
}

static GBytes *
write_bytes (OdoriIndex *index)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (index->encoding);
  g_autoptr(GError) error = NULL;

  odori_index_write (index, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  return odori_output_steal_bytes (out);
}

static GBytes *write_preserving (OdoriIndex *index);

static char *
write_string (OdoriIndex *index)
{
  g_autoptr(GBytes) bytes = write_bytes (index);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_strndup (data, len);
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

static gboolean
strv_equal0 (char **a,
             char **b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strv_equal ((const char * const *) a, (const char * const *) b);
}

static gboolean
params_equal (GPtrArray *a,
              GPtrArray *b)
{
  guint na = a ? a->len : 0, nb = b ? b->len : 0;

  if (na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    {
      OdoriParam *pa = g_ptr_array_index (a, i), *pb = g_ptr_array_index (b, i);

      if (g_strcmp0 (pa->key, pb->key) != 0 || g_strcmp0 (pa->value, pb->value) != 0)
        return FALSE;
    }
  return TRUE;
}

#define CHECK(cond, ...)                          \
  G_STMT_START {                                  \
    if (!(cond))                                  \
      {                                           \
        *why = g_strdup_printf (__VA_ARGS__);     \
        return FALSE;                             \
      }                                           \
  } G_STMT_END

static gboolean
show_equal (OdoriIndexShow *a,
            OdoriIndexShow *b,
            char          **why)
{
  CHECK (g_strcmp0 (a->name, b->name) == 0 && g_strcmp0 (a->code, b->code) == 0 &&
         g_strcmp0 (a->file, b->file) == 0, "show %s differs", a->code);
  CHECK (params_equal (a->extra, b->extra), "extra parameters of show %s differ", a->code);
  CHECK (a->motions->len == b->motions->len, "show %s: %u vs %u motions",
         a->code, a->motions->len, b->motions->len);
  for (guint i = 0; i < a->motions->len; i++)
    {
      OdoriIndexMotion *ma = g_ptr_array_index (a->motions, i);
      OdoriIndexMotion *mb = g_ptr_array_index (b->motions, i);

      CHECK (g_strcmp0 (ma->name, mb->name) == 0 && g_strcmp0 (ma->code, mb->code) == 0 &&
             g_strcmp0 (ma->exp, mb->exp) == 0, "motion %s differs", ma->code);
      CHECK (ma->first == mb->first && ma->last == mb->last, "frames of motion %s differ",
             ma->code);
      CHECK (params_equal (ma->extra, mb->extra), "extra parameters of motion %s differ",
             ma->code);
      CHECK (ma->show == a && mb->show == b, "back pointer of motion %s", ma->code);
    }
  return TRUE;
}

/* Equal models: everything but line numbers, path and warnings. */
static gboolean
index_equal (OdoriIndex  *a,
             OdoriIndex  *b,
             char       **why)
{
  CHECK (a->encoding == b->encoding, "encodings differ");
  CHECK (a->comments->len == b->comments->len, "%u vs %u comments",
         a->comments->len, b->comments->len);
  for (guint i = 0; i < a->comments->len; i++)
    CHECK (g_strcmp0 (g_ptr_array_index (a->comments, i), g_ptr_array_index (b->comments, i)) == 0,
           "comment %u differs", i);

  CHECK (a->parts->len == b->parts->len, "%u vs %u parts", a->parts->len, b->parts->len);
  for (guint i = 0; i < a->parts->len; i++)
    {
      OdoriIndexPart *pa = g_ptr_array_index (a->parts, i);
      OdoriIndexPart *pb = g_ptr_array_index (b->parts, i);

      CHECK (g_strcmp0 (pa->name, pb->name) == 0 && g_strcmp0 (pa->code, pb->code) == 0,
             "part %u differs", i);
      CHECK (strv_equal0 (pa->map, pb->map), "map of part %s differs", pa->code);
      CHECK (params_equal (pa->extra, pb->extra), "extra parameters of part %s differ", pa->code);
    }

  CHECK (a->classes->len == b->classes->len, "%u vs %u classes",
         a->classes->len, b->classes->len);
  for (guint i = 0; i < a->classes->len; i++)
    {
      OdoriIndexClass *ca = g_ptr_array_index (a->classes, i);
      OdoriIndexClass *cb = g_ptr_array_index (b->classes, i);

      CHECK (g_strcmp0 (ca->name, cb->name) == 0 && g_strcmp0 (ca->code, cb->code) == 0 &&
             ca->implicit == cb->implicit, "class %u differs", i);
      CHECK (params_equal (ca->extra, cb->extra), "extra parameters of class %u differ", i);
      CHECK (ca->shows->len == cb->shows->len, "class %u: %u vs %u shows",
             i, ca->shows->len, cb->shows->len);
      for (guint j = 0; j < ca->shows->len; j++)
        {
          OdoriIndexShow *sa = g_ptr_array_index (ca->shows, j);
          OdoriIndexShow *sb = g_ptr_array_index (cb->shows, j);

          CHECK (sa->klass == ca && sb->klass == cb, "back pointer of show %s", sa->code);
          if (!show_equal (sa, sb, why))
            return FALSE;
        }
    }
  return TRUE;
}

static void
assert_index_equal (OdoriIndex *a,
                    OdoriIndex *b)
{
  g_autofree char *why = NULL;

  if (!index_equal (a, b, &why))
    g_error ("indexes differ: %s", why);
}

/* load → save → load is equal, and a second save is byte-identical. */
static void
assert_round_trip (OdoriIndex *index,
                   const char *name)
{
  g_autofree char *path1 = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *path2 = g_strconcat (path1, ".2", NULL);
  g_autoptr(OdoriIndex) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data1 = NULL;
  g_autofree char *data2 = NULL;
  gsize len1, len2;

  g_assert_true (odori_index_save (index, path1, &error));
  g_assert_no_error (error);
  back = odori_index_load (path1, &error);
  g_assert_no_error (error);
  assert_index_equal (index, back);

  g_assert_true (odori_index_save (back, path2, &error));
  g_assert_no_error (error);
  data1 = read_file (path1, &len1);
  data2 = read_file (path2, &len2);
  g_assert_cmpmem (data1, len1, data2, len2);
}

static OdoriIndexShow *
get_show (OdoriIndex *index,
          guint       klass,
          guint       show)
{
  OdoriIndexClass *c = g_ptr_array_index (index->classes, klass);

  return g_ptr_array_index (c->shows, show);
}

static OdoriIndexMotion *
get_motion (OdoriIndexShow *show,
            guint           i)
{
  return g_ptr_array_index (show->motions, i);
}

static gboolean
has_warning (OdoriIndex *index,
             guint       line,
             const char *text)
{
  for (guint i = 0; i < index->warnings->len; i++)
    {
      OdoriDiagnostic *d = g_ptr_array_index (index->warnings, i);

      if (d->line == line && !d->is_error && strstr (d->message, text) != NULL)
        return TRUE;
    }
  return FALSE;
}

static char *
replace_all (const char *s,
             const char *from,
             const char *to)
{
  g_auto(GStrv) pieces = g_strsplit (s, from, -1);

  return g_strjoinv (to, pieces);
}

/* Tests */

static void
test_diagnostic_to_string (void)
{
  g_autoptr(OdoriDiagnostic) a = odori_diagnostic_new ("motion.dat", 14, TRUE, "bad %s", "range");
  g_autoptr(OdoriDiagnostic) b = odori_diagnostic_new ("motion.dat", 0, FALSE, "no line");
  g_autoptr(OdoriDiagnostic) c = odori_diagnostic_new (NULL, 3, FALSE, "no file");
  g_autoptr(GPtrArray) list = odori_diagnostics_new ();
  g_autofree char *sa = odori_diagnostic_to_string (a);
  g_autofree char *sb = odori_diagnostic_to_string (b);
  g_autofree char *sc = odori_diagnostic_to_string (c);

  g_assert_cmpstr (sa, ==, "motion.dat:14: bad range");
  g_assert_true (a->is_error);
  g_assert_cmpstr (sb, ==, "motion.dat: no line");
  g_assert_false (b->is_error);
  g_assert_cmpstr (sc, ==, "no file");

  g_ptr_array_add (list, odori_diagnostic_new ("x", 1, FALSE, "freed with the array"));
  g_assert_cmpuint (list->len, ==, 1);
}

static void
test_load_seed (void)
{
  g_autoptr(OdoriIndex) index = load_ok (SEED_EXAMPLE);
  OdoriIndexPart *part;
  OdoriIndexClass *klass;
  OdoriIndexShow *show;
  OdoriIndexMotion *motion;
  g_autofree char *text = NULL;
  const char * const map[] = { "Body", "Head", NULL };

  g_assert_cmpstr (index->path, ==, "motion.dat");
  g_assert_cmpint (index->encoding, ==, ODORI_ENCODING_UTF8);
  g_assert_cmpuint (index->warnings->len, ==, 0);
  g_assert_cmpuint (index->comments->len, ==, 0);

  g_assert_cmpuint (index->parts->len, ==, 1);
  part = g_ptr_array_index (index->parts, 0);
  g_assert_cmpstr (part->name, ==, "頭");
  g_assert_cmpstr (part->code, ==, "HD");
  g_assert_true (g_strv_equal (map, (const char * const *) part->map));
  g_assert_cmpuint (part->line, ==, 1);
  g_assert_true (odori_index_find_part (index, "HD") == part);
  g_assert_null (odori_index_find_part (index, "LA"));

  g_assert_cmpuint (index->classes->len, ==, 1);
  klass = g_ptr_array_index (index->classes, 0);
  g_assert_cmpstr (klass->name, ==, "舞踊");
  g_assert_cmpstr (klass->code, ==, "dance");
  g_assert_false (klass->implicit);
  g_assert_cmpuint (klass->line, ==, 3);

  g_assert_cmpuint (klass->shows->len, ==, 1);
  show = g_ptr_array_index (klass->shows, 0);
  g_assert_cmpstr (show->name, ==, "基本の舞い");
  g_assert_cmpstr (show->code, ==, "BA");
  g_assert_cmpstr (show->file, ==, "kihon1.vpm");
  g_assert_cmpuint (show->line, ==, 4);
  g_assert_true (show->klass == klass);

  g_assert_cmpuint (show->motions->len, ==, 1);
  motion = get_motion (show, 0);
  g_assert_cmpstr (motion->name, ==, "上下屈伸１の足１");
  g_assert_cmpstr (motion->code, ==, "A1");
  g_assert_cmpstr (motion->exp, ==, SEED_EXP);
  g_assert_cmpuint (motion->first, ==, 1);
  g_assert_cmpuint (motion->last, ==, 118);
  g_assert_cmpuint (motion->line, ==, 5);
  g_assert_cmpuint (motion->extra->len, ==, 0);
  g_assert_true (motion->show == show);

  /* The seed's layout is the canonical one. */
  text = write_string (index);
  g_assert_cmpstr (text, ==, SEED_EXAMPLE);
}

static void
test_load_rich (void)
{
  g_autoptr(OdoriIndex) index = load_ok (rich_index);
  OdoriIndexPart *part;
  OdoriIndexShow *show;
  OdoriIndexMotion *motion;
  OdoriParam *param;
  const char * const la_map[] = { "Body", "LeftUpArm", "LeftLowArm", "LeftHand", NULL };

  g_assert_cmpuint (index->comments->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (index->comments, 0), ==, "# 舞踊符インデックステーブル");
  g_assert_cmpstr (g_ptr_array_index (index->comments, 1), ==, "# a comment inside a block");

  g_assert_cmpuint (index->parts->len, ==, 3);
  part = g_ptr_array_index (index->parts, 1);
  g_assert_true (g_strv_equal (la_map, (const char * const *) part->map));
  part = g_ptr_array_index (index->parts, 2);
  g_assert_cmpstr (part->name, ==, "右腕");
  g_assert_cmpstr (part->code, ==, "RA");
  g_assert_cmpstr (part->map[1], ==, "RightUpArm");

  g_assert_cmpuint (index->classes->len, ==, 2);
  show = get_show (index, 0, 0);
  g_assert_cmpuint (show->motions->len, ==, 3);
  motion = get_motion (show, 1);
  g_assert_cmpstr (motion->code, ==, "A2");
  g_assert_cmpuint (motion->first, ==, 119);
  g_assert_cmpuint (motion->last, ==, 240);
  g_assert_null (motion->exp);
  g_assert_cmpuint (motion->extra->len, ==, 1);
  param = g_ptr_array_index (motion->extra, 0);
  g_assert_cmpstr (param->key, ==, "tempo");
  g_assert_cmpstr (param->value, ==, "slow");
  g_assert_true (has_warning (index, 9, "\"tempo\""));

  motion = get_motion (show, 2);
  g_assert_cmpstr (motion->code, ==, "B3");
  g_assert_cmpstr (motion->name, ==, "a = b, c");
  g_assert_cmpuint (motion->first, ==, 241);
  g_assert_cmpuint (motion->last, ==, 300);
  g_assert_cmpuint (motion->line, ==, 11);

  show = get_show (index, 0, 1);
  g_assert_cmpstr (show->code, ==, "OU");
  g_assert_cmpstr (get_motion (show, 0)->exp, ==, "say \"hai\"");
  g_assert_cmpstr (get_motion (show, 1)->code, ==, "X.Y");
  g_assert_cmpuint (get_motion (show, 1)->last, ==, 10);

  show = get_show (index, 1, 0);
  g_assert_cmpstr (((OdoriIndexClass *) g_ptr_array_index (index->classes, 1))->code, ==, "gym");
  g_assert_cmpuint (get_motion (show, 0)->first, ==, 5);

  /* Only the unknown parameter was worth a warning. */
  g_assert_cmpuint (index->warnings->len, ==, 1);
}

static void
test_write_canonical (void)
{
  g_autoptr(OdoriIndex) index = load_ok (rich_index);
  g_autofree char *text = write_string (index);
  const char *expected =
    "# 舞踊符インデックステーブル\n"
    "# a comment inside a block\n"
    "\n"
    "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n"
    "define part name=\"左腕\" code=\"LA\" map=\"Body,LeftUpArm,LeftLowArm,LeftHand\"\n"
    "define part name=\"右腕\" code=\"RA\" map=\"Body,RightUpArm\"\n"
    "\n"
    "begin class name=\"舞踊\" code=\"dance\"\n"
    "  begin show name=\"基本の舞い\" code=\"BA\" file=\"kihon1.vpm\"\n"
    "    motion name=\"上下屈伸１の足１\" code=\"A1\" exp=\"" SEED_EXP "\" frame=1-118\n"
    "    motion name=\"上下屈伸１の足２\" code=\"A2\" frame=119-240 tempo=\"slow\"\n"
    "    motion name=\"a = b, c\" code=\"B3\" frame=241-300\n"
    "  end show\n"
    "  begin show name=\"応用\" code=\"OU\" file=\"oyo.bva\"\n"
    "    motion code=\"A1\" exp=“say \"hai\"” frame=1-50\n"
    "    motion code=\"X.Y\" frame=1-10\n"
    "  end show\n"
    "end class\n"
    "\n"
    "begin class name=\"体操\" code=\"gym\"\n"
    "  begin show name=\"X\" code=\"X\" file=\"x.bva\"\n"
    "    motion code=\"Y\" frame=5-6\n"
    "  end show\n"
    "end class\n";

  g_assert_cmpstr (text, ==, expected);
}

static void
test_round_trip (void)
{
  g_autoptr(OdoriIndex) seed = load_ok (SEED_EXAMPLE);
  g_autoptr(OdoriIndex) rich = load_ok (rich_index);

  assert_round_trip (seed, "seed-rt.dat");
  assert_round_trip (rich, "rich-rt.dat");
}

static void
test_line_ends (void)
{
  g_autoptr(OdoriIndex) lf = load_ok (rich_index);
  g_autofree char *crlf_text = replace_all (rich_index, "\n", "\r\n");
  g_autofree char *cr_text = replace_all (rich_index, "\n", "\r");
  g_autoptr(OdoriIndex) crlf = load_ok (crlf_text);
  g_autoptr(OdoriIndex) cr = load_ok (cr_text);

  assert_index_equal (lf, crlf);
  assert_index_equal (lf, cr);
  /* Same lines, so the same line numbers. */
  g_assert_cmpuint (get_motion (get_show (cr, 0, 0), 2)->line, ==, 11);
  g_assert_cmpuint (get_motion (get_show (crlf, 0, 0), 2)->line, ==, 11);
}

static void
test_shift_jis (void)
{
  g_autoptr(GError) error = NULL;
  gsize sjis_len = 0;
  g_autofree char *sjis = g_convert (SEED_EXAMPLE, -1, "CP932", "UTF-8", NULL, &sjis_len, &error);
  g_autofree char *path = NULL;
  g_autofree char *out_path = g_build_filename (tmp_dir, "sjis-out.dat", NULL);
  g_autofree char *written = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  OdoriIndexMotion *motion;
  gsize written_len;

  g_assert_no_error (error);
  g_assert_false (g_utf8_validate (sjis, sjis_len, NULL));
  path = write_tmp ("sjis.dat", sjis, sjis_len);

  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (index->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpstr (((OdoriIndexPart *) g_ptr_array_index (index->parts, 0))->name, ==, "頭");
  g_assert_cmpstr (get_show (index, 0, 0)->name, ==, "基本の舞い");
  motion = odori_index_lookup (index, "A1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (motion->exp, ==, SEED_EXP);

  /* Saved back as Shift_JIS, byte for byte. */
  g_assert_true (odori_index_save (index, out_path, &error));
  g_assert_no_error (error);
  written = read_file (out_path, &written_len);
  g_assert_cmpmem (written, written_len, sjis, sjis_len);
  assert_round_trip (index, "sjis-rt.dat");
}

/* Fuzzer find: Shift_JIS whose only bytes invalid as UTF-8 were an ideographic blank
 * (0x81 0x40, dropped by the canonical writer). The rest, E2 80 | 9C 65 (two kanji), is
 * valid UTF-8 ("“e"), so without a marker the written file would be read as other text. */
static void
test_shift_jis_looks_utf8 (void)
{
  const char       data[] = "define part\x81\x40name=X code=HD map=\xE2\x80\x9C\x65\n"
                            "begin show name=S code=S file=s.bva\n"
                            "  motion name=M code=M1 frame=1-2\n"
                            "end show\n";
  g_autofree char *path = write_tmp ("sjis-utf8.dat", data, sizeof data - 1);
  g_autofree char *out_path = g_build_filename (tmp_dir, "sjis-utf8-out.dat", NULL);
  g_autofree char *written = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriIndex) back = NULL;
  g_autoptr(GError) error = NULL;
  OdoriIndexPart *part;
  gsize           len;

  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (index->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  part = g_ptr_array_index (index->parts, 0);
  g_assert_cmpstr (part->map[0], !=, "\xE2\x80\x9C\x65");

  g_assert_true (odori_index_save (index, out_path, &error));
  g_assert_no_error (error);
  written = read_file (out_path, &len);
  g_assert_false (g_utf8_validate (written, len, NULL));
  back = odori_index_load (out_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpstr (((OdoriIndexPart *) g_ptr_array_index (back->parts, 0))->map[0], ==,
                   part->map[0]);
  /* Saved again, the marker is a comment like any other: not added twice. */
  assert_round_trip (back, "sjis-utf8-rt.dat");
  g_assert_cmpuint (back->comments->len, ==, 1);
}

static void
test_utf8_bom (void)
{
  g_autofree char *content = g_strconcat ("\xEF\xBB\xBF", SEED_EXAMPLE, NULL);
  g_autofree char *path = write_tmp ("bom.dat", content, -1);
  g_autofree char *out_path = g_build_filename (tmp_dir, "bom-out.dat", NULL);
  g_autofree char *written = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (index->encoding, ==, ODORI_ENCODING_UTF8_BOM);
  /* The BOM is not part of the first line. */
  g_assert_cmpstr (((OdoriIndexPart *) g_ptr_array_index (index->parts, 0))->code, ==, "HD");
  g_assert_cmpuint (index->warnings->len, ==, 0);

  g_assert_true (odori_index_save (index, out_path, &error));
  g_assert_no_error (error);
  written = read_file (out_path, &len);
  g_assert_cmpmem (written, len, content, strlen (content));
}

static void
test_bad_encoding (void)
{
  const char *cases[] = {
    "define part code=\"HD\" map=\"\x81\x20\"\n",
    "# \x80\ndefine part code=\"HD\" map=\"Body\"\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_tmp ("bad-encoding.dat", cases[i], -1);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriIndex) index = odori_index_load (path, &error);

      g_assert_null (index);
      g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING);
      g_assert_nonnull (strstr (error->message, "bad-encoding.dat"));
    }
}

static void
test_missing_file (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "no-such-index.dat", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = odori_index_load (path, &error);

  g_assert_null (index);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
}

typedef struct
{
  const char *name;
  const char *content;
  int         code;
  guint       line;
  const char *also;   /* must appear in the message too, or NULL */
} ErrorCase;

#define SHOW_OPEN "begin class code=c\n  begin show code=S file=f.bva\n"
#define SHOW_CLOSE "  end show\nend class\n"

static const ErrorCase error_cases[] = {
  { "no-construct", "define part code=HD map=Body\nhello world\n",
    ODORI_INDEX_ERROR_SYNTAX, 2, "got \"hello world\"" },
  { "begin-what", "begin stage code=x\n", ODORI_INDEX_ERROR_SYNTAX, 1, "\"stage" },
  { "define-what", "define show code=x\n", ODORI_INDEX_ERROR_SYNTAX, 1, "after \"define\"" },
  { "end-mismatch", SHOW_OPEN "    motion code=A frame=1-2\nend class\n",
    ODORI_INDEX_ERROR_UNBALANCED, 4, "opened at line 2" },
  { "end-without-begin", "# x\nend show\n", ODORI_INDEX_ERROR_UNBALANCED, 2, "end show" },
  { "end-extra-text", SHOW_OPEN "    motion code=A frame=1-2\n  end show now\n",
    ODORI_INDEX_ERROR_SYNTAX, 4, "\"now\"" },
  { "missing-end-show", SHOW_OPEN "    motion code=A frame=1-2\n",
    ODORI_INDEX_ERROR_UNBALANCED, 2, "end of the file (line 3)" },
  { "missing-end-class", "begin class code=c\n\n", ODORI_INDEX_ERROR_UNBALANCED, 1,
    "\"end class\"" },
  { "class-in-class", "begin class code=c\nbegin class code=d\n",
    ODORI_INDEX_ERROR_UNBALANCED, 2, "opened at line 1" },
  { "show-in-show", SHOW_OPEN "begin show code=T file=g\n", ODORI_INDEX_ERROR_UNBALANCED, 3,
    "opened at line 2" },
  { "range-syntax", SHOW_OPEN "    motion code=A frame=1..118\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_SYNTAX, 3, "expected frame range like 1-118, got \"1..118\"" },
  { "range-letters", SHOW_OPEN "    motion code=A frames=\"a-b\"\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_SYNTAX, 3, "got \"a-b\"" },
  { "range-overflow", SHOW_OPEN "    motion code=A frame=1-99999999999\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_SYNTAX, 3, "1-99999999999" },
  { "range-reversed", SHOW_OPEN "    motion code=A frame=118-1\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_RANGE, 3, "118-1" },
  { "range-zero", SHOW_OPEN "    motion code=A frame=0-10\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_RANGE, 3, "from 1" },
  { "duplicate-part", "define part code=HD map=Body\ndefine part code=\"HD\" map=Head\n",
    ODORI_INDEX_ERROR_DUPLICATE, 2, "line 1" },
  { "duplicate-motion", SHOW_OPEN "    motion code=A frame=1-2\n\n    motion code=A frame=3-4\n"
    SHOW_CLOSE, ODORI_INDEX_ERROR_DUPLICATE, 5, "line 3" },
  { "motion-outside-show", "begin class code=c\nmotion code=A frame=1-2\nend class\n",
    ODORI_INDEX_ERROR_SYNTAX, 2, "outside a show" },
  { "motion-at-top", "define motion code=A frame=1-2\n", ODORI_INDEX_ERROR_SYNTAX, 1,
    "outside a show" },
  { "part-without-code", "define part name=\"頭\" map=\"Body,Head\"\n",
    ODORI_INDEX_ERROR_MISSING, 1, "code=" },
  { "part-empty-code", "define part code=\"\" map=\"Body,Head\"\n",
    ODORI_INDEX_ERROR_MISSING, 1, "code=" },
  { "show-without-code", "begin class code=c\n  begin show file=f.bva\n",
    ODORI_INDEX_ERROR_MISSING, 2, "code=" },
  { "show-without-file", "begin class code=c\n  begin show code=S name=\"x\"\n",
    ODORI_INDEX_ERROR_MISSING, 2, "file=" },
  { "motion-without-code", SHOW_OPEN "    motion name=x frame=1-2\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_MISSING, 3, "code=" },
  { "motion-without-frame", SHOW_OPEN "    motion code=A1 exp=\"x\"\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_MISSING, 3, "frame=" },
  { "unterminated-quote", "define part name=\"頭 code=HD map=Body\n",
    ODORI_INDEX_ERROR_SYNTAX, 1, "unterminated" },
  { "unterminated-curly", "\ndefine part name=“頭 code=HD map=Body\n",
    ODORI_INDEX_ERROR_SYNTAX, 2, "unterminated" },
  { "no-equals", "define part code HD\n", ODORI_INDEX_ERROR_SYNTAX, 1, "got \"code\"" },
  { "no-value", "define part map=Body code=\n", ODORI_INDEX_ERROR_SYNTAX, 1, "code=" },
  { "param-twice", "define part code=HD code=LA map=Body\n", ODORI_INDEX_ERROR_SYNTAX, 1,
    "twice" },
  { "frame-and-frames", SHOW_OPEN "    motion code=A frame=1-2 frames=1-2\n" SHOW_CLOSE,
    ODORI_INDEX_ERROR_SYNTAX, 3, "both frame= and frames=" },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      const ErrorCase *c = &error_cases[i];
      g_autofree char *prefix = g_strdup_printf ("motion.dat:%u: ", c->line);
      g_autofree char *crlf = replace_all (c->content, "\n", "\r\n");
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) error_crlf = NULL;
      g_autoptr(OdoriIndex) index = load_data ("motion.dat", c->content, -1, &error);
      g_autoptr(OdoriIndex) index_crlf = load_data ("motion.dat", crlf, -1, &error_crlf);

      g_test_message ("case %s: %s", c->name, error ? error->message : "(no error)");
      g_assert_null (index);
      g_assert_error (error, ODORI_INDEX_ERROR, c->code);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      if (c->also != NULL)
        g_assert_nonnull (strstr (error->message, c->also));
      g_assert_null (index_crlf);
      g_assert_cmpstr (error_crlf->message, ==, error->message);
    }
}

static void
test_error_path_prefix (void)
{
  g_autofree char *path = write_tmp ("kihon.dat",
                                     SHOW_OPEN "    motion code=A frame=1..118\n" SHOW_CLOSE, -1);
  g_autofree char *expected = g_strdup_printf ("%s:3: expected frame range like 1-118, got \"1..118\"",
                                               path);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = odori_index_load (path, &error);

  g_assert_null (index);
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_part_after_begin (void)
{
  const char *content =
    SHOW_OPEN
    "    motion code=A frame=1-2\n"
    SHOW_CLOSE
    "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n";
  g_autoptr(OdoriIndex) index = load_ok (content);
  g_autofree char *text = NULL;

  g_assert_cmpuint (index->parts->len, ==, 1);
  g_assert_true (has_warning (index, 6, "after the first begin"));

  /* Written with the parts first. */
  text = write_string (index);
  g_assert_true (g_str_has_prefix (text, "define part name=\"頭\" code=\"HD\""));
  assert_round_trip (index, "part-after-begin.dat");
}

static void
test_implicit_class (void)
{
  const char *content =
    "define part code=HD map=Body,Head\n"
    "begin show name=\"基本の舞い\" code=BA file=kihon1.vpm\n"
    "  motion code=A1 frame=1-118\n"
    "end show\n"
    "begin show code=BB file=b.vpm\n"
    "  motion code=B1 frame=1-10\n"
    "end show\n"
    "begin class code=c\n"
    "  begin show code=CC file=c.vpm\n"
    "    motion code=C1 frame=1-10\n"
    "  end show\n"
    "end class\n"
    "begin show code=DD file=d.vpm\n"
    "  motion code=D1 frame=1-10\n"
    "end show\n";
  g_autoptr(OdoriIndex) index = load_ok (content);
  g_autoptr(OdoriIndex) back = NULL;
  g_autofree char *text = NULL;
  OdoriIndexClass *klass;

  g_assert_cmpuint (index->classes->len, ==, 3);
  klass = g_ptr_array_index (index->classes, 0);
  g_assert_true (klass->implicit);
  g_assert_cmpuint (klass->shows->len, ==, 2);
  g_assert_true (get_show (index, 0, 1)->klass == klass);
  g_assert_false (((OdoriIndexClass *) g_ptr_array_index (index->classes, 1))->implicit);
  g_assert_true (((OdoriIndexClass *) g_ptr_array_index (index->classes, 2))->implicit);
  g_assert_true (has_warning (index, 2, "outside any class"));
  g_assert_true (has_warning (index, 5, "outside any class"));
  g_assert_true (has_warning (index, 13, "outside any class"));

  text = write_string (index);
  g_assert_nonnull (strstr (text, "\n\nbegin show name=\"基本の舞い\" code=\"BA\" file=\"kihon1.vpm\"\n"
                                  "  motion code=\"A1\" frame=1-118\n"
                                  "end show\n"
                                  "begin show code=\"BB\""));
  g_assert_true (g_str_has_suffix (text, "\n\nbegin show code=\"DD\" file=\"d.vpm\"\n"
                                         "  motion code=\"D1\" frame=1-10\n"
                                         "end show\n"));
  g_assert_null (strstr (text, "begin class\n"));

  back = load_ok (text);
  assert_index_equal (index, back);
  assert_round_trip (index, "implicit.dat");
}

static void
test_unknown_parameters (void)
{
  const char *content =
    "define part code=HD map=Body,Head color=\"赤\"\n"
    "begin class code=c icon=star\n"
    "  begin show code=S file=s.bva bpm=120\n"
    "    motion code=A frame=1-2 x=1 y=\"a b\"\n"
    "  end show\n"
    "end class\n";
  g_autoptr(OdoriIndex) index = load_ok (content);
  g_autofree char *text = NULL;
  OdoriIndexPart *part = g_ptr_array_index (index->parts, 0);
  OdoriIndexMotion *motion = get_motion (get_show (index, 0, 0), 0);

  g_assert_cmpuint (index->warnings->len, ==, 5);
  g_assert_true (has_warning (index, 1, "\"color\""));
  g_assert_true (has_warning (index, 2, "\"icon\""));
  g_assert_true (has_warning (index, 3, "\"bpm\""));
  g_assert_true (has_warning (index, 4, "\"x\""));
  g_assert_true (has_warning (index, 4, "\"y\""));
  g_assert_cmpstr (((OdoriParam *) g_ptr_array_index (part->extra, 0))->value, ==, "赤");
  g_assert_cmpuint (motion->extra->len, ==, 2);
  g_assert_cmpstr (((OdoriParam *) g_ptr_array_index (motion->extra, 1))->value, ==, "a b");

  text = write_string (index);
  g_assert_nonnull (strstr (text, "define part code=\"HD\" map=\"Body,Head\" color=\"赤\"\n"));
  g_assert_nonnull (strstr (text, "begin class code=\"c\" icon=\"star\"\n"));
  g_assert_nonnull (strstr (text, "    motion code=\"A\" frame=1-2 x=\"1\" y=\"a b\"\n"));
  assert_round_trip (index, "unknown-params.dat");
}

static void
test_lookup (void)
{
  g_autoptr(OdoriIndex) index = load_ok (rich_index);
  OdoriIndexMotion *motion;
  g_autoptr(GError) error = NULL;

  motion = odori_index_lookup (index, "A2", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (motion->code, ==, "A2");
  g_assert_cmpstr (motion->show->code, ==, "BA");

  motion = odori_index_lookup (index, "BA.A1", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (motion->last, ==, 118);
  motion = odori_index_lookup (index, "OU.A1", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (motion->last, ==, 50);

  /* A bare code wins over SHOW.CODE: "X.Y" is OU's motion, not show X's motion Y. */
  motion = odori_index_lookup (index, "X.Y", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (motion->show->code, ==, "OU");
  motion = odori_index_lookup (index, "Y", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (motion->show->code, ==, "X");

  motion = odori_index_lookup (index, "A1", &error);
  g_assert_null (motion);
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_AMBIGUOUS);
  g_assert_nonnull (strstr (error->message, "BA.A1"));
  g_assert_nonnull (strstr (error->message, "OU.A1"));
  g_clear_error (&error);

  const char *unknown[] = { "ZZ", "BA.ZZ", "ZZ.A1", "X.Z", "BA.", ".A1", "", "BA.A1.A1" };
  for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
    {
      g_assert_null (odori_index_lookup (index, unknown[i], &error));
      g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNKNOWN_SYMBOL);
      g_assert_nonnull (strstr (error->message, unknown[i]));
      g_clear_error (&error);
    }
}

static void
test_show_path (void)
{
  g_autoptr(OdoriIndex) index = odori_index_new ();
  OdoriIndexShow show = { 0 };
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *expected = NULL;
  char *path;

  index->path = g_strdup ("/data/dance/motion.dat");
  show.file = (char *) "kihon1.vpm";
  path = odori_index_show_path (index, &show);
  g_assert_cmpstr (path, ==, "/data/dance/kihon1.vpm");
  g_free (path);

  show.file = (char *) "sub\\kihon2.vpm";
  path = odori_index_show_path (index, &show);
  g_assert_cmpstr (path, ==, "/data/dance/sub/kihon2.vpm");
  g_free (path);

  show.file = (char *) "../other/./k.bva";
  path = odori_index_show_path (index, &show);
  g_assert_cmpstr (path, ==, "/data/other/k.bva");
  g_free (path);

  show.file = (char *) "/abs/k.bvh";
  path = odori_index_show_path (index, &show);
  g_assert_cmpstr (path, ==, "/abs/k.bvh");
  g_free (path);

  /* Relative index path: relative to the current directory. */
  g_free (index->path);
  index->path = g_strdup ("lib/motion.dat");
  show.file = (char *) "k.bva";
  path = odori_index_show_path (index, &show);
  expected = g_build_filename (cwd, "lib", "k.bva", NULL);
  g_assert_cmpstr (path, ==, expected);
  g_free (path);
}

static char *
tiny_bva (guint n_frames)
{
  GString *s = g_string_new ("Segment:\tHip\n");

  g_string_append_printf (s, "Frames:\t%u\nFrame Time:\t0.033333\n", n_frames);
  g_string_append (s, "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"
                      "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n");
  for (guint i = 0; i < n_frames; i++)
    g_string_append_printf (s, "%u 0 0 0 0 0 100 100 100\n", i);
  return g_string_free (s, FALSE);
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

static void
test_check_files (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "check", NULL);
  g_autofree char *bva = tiny_bva (3);
  g_autofree char *bva_path = g_build_filename (dir, "tiny.bva", NULL);
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected_prefix = NULL;
  const OdoriDiagnostic *d;
  guint n_errors = 0;
  const char *content =
    "define part code=HD map=Body,Head\n"
    "begin class code=c\n"
    "  begin show code=T file=\"tiny.bva\"\n"
    "    motion code=OK frame=1-3\n"
    "    motion code=BAD frame=2-5\n"
    "  end show\n"
    "  begin show code=M file=\"missing.bva\"\n"
    "    motion code=A frame=1-1\n"
    "  end show\n"
    "  begin show code=U file=\"TINY.BVA\"\n"   /* the same file, named in another case */
    "    motion code=U1 frame=3-3\n"
    "  end show\n"
    "end class\n";

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (bva_path, bva, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (index_path, content, -1, &error);
  g_assert_no_error (error);

  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);

  g_assert_false (odori_index_check_files (index, diagnostics));
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const OdoriDiagnostic *diag = g_ptr_array_index (diagnostics, i);
      g_autofree char *s = odori_diagnostic_to_string (diag);

      g_test_message ("%s", s);
      n_errors += diag->is_error;
    }
  g_assert_cmpuint (n_errors, ==, 2);

  d = find_diagnostic (diagnostics, 5, "motion \"BAD\" frames 2-5 beyond the 3 frames of tiny.bva");
  g_assert_nonnull (d);
  g_assert_true (d->is_error);
  g_assert_cmpstr (d->file, ==, index_path);
  text = odori_diagnostic_to_string (d);
  expected_prefix = g_strdup_printf ("%s:5: ", index_path);
  g_assert_true (g_str_has_prefix (text, expected_prefix));

  d = find_diagnostic (diagnostics, 7, "missing.bva");
  g_assert_nonnull (d);
  g_assert_true (d->is_error);
  g_assert_cmpstr (d->file, ==, index_path);

  /* Nothing about the motions that fit. */
  g_assert_null (find_diagnostic (diagnostics, 4, ""));
  g_assert_null (find_diagnostic (diagnostics, 11, ""));
}

static void
test_check_files_ok (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "check-ok", NULL);
  g_autofree char *bva = tiny_bva (10);
  g_autofree char *bva_path = g_build_filename (dir, "k.bva", NULL);
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (bva_path, bva, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (index_path,
                       "begin class code=c\n"
                       "  begin show code=K file=k.bva\n"
                       "    motion code=A frame=1-10\n"
                       "    motion code=B frame=4-6\n"
                       "  end show\n"
                       "end class\n", -1, &error);
  g_assert_no_error (error);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);

  g_assert_true (odori_index_check_files (index, diagnostics));
  for (guint i = 0; i < diagnostics->len; i++)
    g_assert_false (((OdoriDiagnostic *) g_ptr_array_index (diagnostics, i))->is_error);
}

static void
test_check_files_corpus (void)
{
  g_autofree char *vpm = odori_test_corpus_file ("bva-motionx/08_01.vpm");
  g_autofree char *content = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  guint n_errors = 0;

  if (vpm == NULL)
    return;

  /* A real BVA file (277 frames, .vpm extension) named by an absolute path. */
  content = g_strdup_printf ("begin class code=c\n"
                             "  begin show code=K file=\"%s\"\n"
                             "    motion code=A0 frame=1-277\n"
                             "    motion code=A1 frame=1-500\n"
                             "  end show\n"
                             "end class\n", vpm);
  index_path = write_tmp ("corpus-motion.dat", content, -1);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);

  g_assert_false (odori_index_check_files (index, diagnostics));
  for (guint i = 0; i < diagnostics->len; i++)
    n_errors += ((OdoriDiagnostic *) g_ptr_array_index (diagnostics, i))->is_error;
  g_assert_cmpuint (n_errors, ==, 1);
  expected = g_strdup_printf ("motion \"A1\" frames 1-500 beyond the 277 frames of %s", vpm);
  g_assert_nonnull (find_diagnostic (diagnostics, 4, expected));
}

static void
test_save_unmappable (void)
{
  g_autoptr(OdoriIndex) index = load_ok (SEED_EXAMPLE);
  g_autofree char *path = g_build_filename (tmp_dir, "unmappable.dat", NULL);
  g_autoptr(GError) error = NULL;
  OdoriIndexPart *part = g_ptr_array_index (index->parts, 0);

  /* U+1F483 (dancer) has no Shift_JIS code. */
  g_free (part->name);
  part->name = g_strdup ("頭\xF0\x9F\x92\x83");
  index->encoding = ODORI_ENCODING_SHIFT_JIS;

  g_assert_false (odori_index_save (index, path, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_UNMAPPABLE);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
free_test_motion (OdoriIndexMotion *motion)
{
  g_free (motion->code);
  g_free (motion->exp);
  g_free (motion);
}

static void
free_test_show (OdoriIndexShow *show)
{
  g_free (show->code);
  g_free (show->file);
  g_ptr_array_unref (show->motions);
  g_free (show);
}

static void
test_build_in_memory (void)
{
  g_autoptr(OdoriIndex) index = odori_index_new ();
  g_autoptr(OdoriIndex) back = NULL;
  g_autofree char *text = NULL;
  OdoriIndexPart *part = g_new0 (OdoriIndexPart, 1);
  OdoriIndexClass *klass = g_new0 (OdoriIndexClass, 1);
  OdoriIndexShow *show = g_new0 (OdoriIndexShow, 1);
  OdoriIndexMotion *motion = g_new0 (OdoriIndexMotion, 1);
  const char *map[] = { "Body", "Head", NULL };

  /* The index frees parts and classes; the test frees the shows it made. */
  part->code = g_strdup ("HD");
  part->map = g_strdupv ((char **) map);
  g_ptr_array_add (index->parts, part);

  klass->code = g_strdup ("dance");
  klass->shows = g_ptr_array_new_with_free_func ((GDestroyNotify) free_test_show);
  g_ptr_array_add (index->classes, klass);
  show->code = g_strdup ("BA");
  show->file = g_strdup ("k.bva");
  show->motions = g_ptr_array_new_with_free_func ((GDestroyNotify) free_test_motion);
  show->klass = klass;
  g_ptr_array_add (klass->shows, show);
  motion->code = g_strdup ("A1");
  motion->exp = g_strdup ("line one\nline two");
  motion->first = 1;
  motion->last = 9;
  motion->show = show;
  g_ptr_array_add (show->motions, motion);

  text = write_string (index);
  g_assert_cmpstr (text, ==,
                   "define part code=\"HD\" map=\"Body,Head\"\n"
                   "\n"
                   "begin class code=\"dance\"\n"
                   "  begin show code=\"BA\" file=\"k.bva\"\n"
                   "    motion code=\"A1\" exp=\"line one line two\" frame=1-9\n"
                   "  end show\n"
                   "end class\n");
  back = load_ok (text);
  g_assert_cmpstr (odori_index_lookup (back, "BA.A1", NULL)->exp, ==, "line one line two");
}

/* Any prefix of a valid file, and any single byte changed, loads or fails cleanly. */
static void
test_garbage (void)
{
  gsize len = strlen (rich_index);
  g_autofree char *buf = g_malloc (len);
  const char bytes[] = { '"', '=', '\n', ' ', '-', '#', 'x', '\0', '\r', (char) 0xE2 };

  for (gsize cut = 0; cut <= len; cut += 7)
    {
      g_autoptr(OdoriIndex) index = load_data ("cut.dat", rich_index, cut, NULL);

      if (index != NULL)
        {
          g_autoptr(GBytes) same = write_preserving (index);

          g_assert_cmpmem (g_bytes_get_data (same, NULL), g_bytes_get_size (same), rich_index, cut);
        }
    }
  for (gsize pos = 0; pos < len; pos += 3)
    for (guint b = 0; b < G_N_ELEMENTS (bytes); b++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(OdoriIndex) index = NULL;

        memcpy (buf, rich_index, len);
        buf[pos] = bytes[b];
        index = load_data ("mutated.dat", buf, len, &error);
        g_assert_true ((index == NULL) != (error == NULL));
        if (index != NULL)
          {
            g_autoptr(GBytes) out = write_bytes (index);
            g_autoptr(GBytes) same = write_preserving (index);

            g_assert_nonnull (out);
            /* whatever reads is written back as it was */
            if (index->encoding == ODORI_ENCODING_UTF8)
              g_assert_cmpmem (g_bytes_get_data (same, NULL), g_bytes_get_size (same), buf, len);
          }
      }
}

/* Editing: the index as data, written back line for line */

static GBytes *
write_preserving (OdoriIndex *index)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (index->encoding);
  g_autoptr(GError) error = NULL;

  odori_index_write_preserving (index, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  return odori_output_steal_bytes (out);
}

static char *
preserving_string (OdoriIndex *index)
{
  g_autoptr(GBytes) bytes = write_preserving (index);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_strndup (data, len);
}

static void
assert_file_equals (const char *path,
                    const char *data,
                    gsize       len)
{
  gsize file_len;
  g_autofree char *file = read_file (path, &file_len);

  g_assert_cmpmem (file, file_len, data, len);
}

/* An unedited index is written back byte for byte: UTF-8 (LF, CRLF, CR, BOM, no final
 * line end) and Shift_JIS with CRLF, including a CP932 character that re-encoding would
 * change (0x8790 ≒ encodes back as 0x81E0). */
static void
test_preserve_unedited (void)
{
  g_autofree char *crlf = replace_all (rich_index, "\n", "\r\n");
  g_autofree char *cr = replace_all (rich_index, "\n", "\r");
  g_autofree char *bom = g_strconcat ("\xEF\xBB\xBF", crlf, NULL);
  g_autofree char *open_end = g_strndup (rich_index, strlen (rich_index) - 1);
  g_autofree char *sjis_utf8 = replace_all ("# 舞踊符 ≒ 索引\n" SEED_EXAMPLE "  # 終わり\n\n", "\n",
                                             "\r\n");
  g_autofree char *sjis = g_convert (sjis_utf8, -1, "CP932", "UTF-8", NULL, NULL, NULL);
  g_autofree char *sjis_nec = NULL;
  struct
  {
    const char *data;
    OdoriEncoding encoding;
  } cases[] = {
    { rich_index, ODORI_ENCODING_UTF8 },
    { crlf, ODORI_ENCODING_UTF8 },
    { cr, ODORI_ENCODING_UTF8 },
    { bom, ODORI_ENCODING_UTF8_BOM },
    { open_end, ODORI_ENCODING_UTF8 },
    { sjis, ODORI_ENCODING_SHIFT_JIS },
    { NULL, ODORI_ENCODING_SHIFT_JIS },
  };

  g_assert_nonnull (sjis);
  /* the ≒ of the comment as NEC row 13 (0x8790) instead of JIS row 2 (0x81E0) */
  sjis_nec = g_strdup (sjis);
  {
    char *c = strstr (sjis_nec, "\x81\xE0");

    g_assert_nonnull (c);
    c[0] = (char) 0x87;
    c[1] = (char) 0x90;
  }
  cases[G_N_ELEMENTS (cases) - 1].data = sjis_nec;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("unedited-%u.dat", i);
      g_autofree char *path = write_tmp (name, cases[i].data, -1);
      g_autofree char *backup = g_strconcat (path, "~", NULL);
      g_autoptr(OdoriIndex) index = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      gsize len = strlen (cases[i].data);

      index = odori_index_load (path, &error);
      g_assert_no_error (error);
      g_assert_cmpint (index->encoding, ==, cases[i].encoding);
      bytes = write_preserving (index);
      g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), cases[i].data, len);

      g_assert_true (odori_index_save_in_place (index, &error));
      g_assert_no_error (error);
      assert_file_equals (path, cases[i].data, len);
      assert_file_equals (backup, cases[i].data, len);
    }
}

/* Adding a class, shows and motions: new lines indented like their siblings, in the
 * file's line ends; every old line kept, comments included. */
static void
test_edit_add (void)
{
  g_autofree char *crlf = replace_all (rich_index, "\n", "\r\n");
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriIndex) back = NULL;
  g_autoptr(GError) error = NULL;
  OdoriIndexClass *dance, *klass;
  OdoriIndexShow *show;
  OdoriIndexMotion *motion;

  index = load_ok (crlf);
  dance = odori_index_find_class (index, "dance");
  g_assert_nonnull (dance);
  g_assert_null (odori_index_find_class (index, "nope"));

  /* into an existing class, whose shows are indented by a tab */
  show = odori_index_add_show (index, dance, "NS", "新しい", "new.bva", &error);
  g_assert_no_error (error);
  g_assert_true (show->klass == dance);
  motion = odori_index_add_motion (index, show, "M1", "一", NULL, 1, 20, &error);
  g_assert_no_error (error);
  g_assert_nonnull (motion);
  g_assert_nonnull (odori_index_add_motion (index, show, "M2", NULL, "説明", 21, 30, &error));
  g_assert_no_error (error);

  /* refused: a show code already there, a motion code already in the show, a bad range */
  g_assert_null (odori_index_add_show (index, dance, "BA", NULL, "x.bva", &error));
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE);
  g_clear_error (&error);
  g_assert_null (odori_index_add_motion (index, show, "M1", NULL, NULL, 1, 2, &error));
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE);
  g_clear_error (&error);
  g_assert_null (odori_index_add_motion (index, show, "M3", NULL, NULL, 5, 4, &error));
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_null (odori_index_add_class (index, "gym", NULL, &error));
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE);
  g_clear_error (&error);

  /* a new class at the end */
  klass = odori_index_add_class (index, "new", "新", &error);
  g_assert_no_error (error);
  show = odori_index_add_show (index, klass, "NN", NULL, "nn.bva", &error);
  g_assert_no_error (error);
  g_assert_nonnull (odori_index_add_motion (index, show, "A", NULL, NULL, 1, 5, &error));
  g_assert_no_error (error);

  text = preserving_string (index);
  {
    /* the dance class's new show sits right before its "end class   " line */
    const char *block = "\tbegin show name=\"新しい\" code=\"NS\" file=\"new.bva\"\r\n"
                        "\t  motion name=\"一\" code=\"M1\" frame=1-20\r\n"
                        "\t  motion code=\"M2\" exp=\"説明\" frame=21-30\r\n"
                        "\tend show\r\n"
                        "end class   \r\n";
    g_autofree char *with_show = replace_all (crlf, "end class   \r\n", block);

    expected = g_strconcat (with_show,
                            "begin class name=\"新\" code=\"new\"\r\n"
                            "  begin show code=\"NN\" file=\"nn.bva\"\r\n"
                            "    motion code=\"A\" frame=1-5\r\n"
                            "  end show\r\n"
                            "end class\r\n",
                            NULL);
  }
  g_assert_cmpstr (text, ==, expected);

  /* read back: the new entries, the same comments, line numbers as written */
  back = load_ok (text);
  g_assert_cmpuint (back->comments->len, ==, 2);
  g_assert_cmpuint (index->comments->len, ==, 2);
  g_assert_cmpuint (odori_index_lookup (back, "NS.M2", NULL)->first, ==, 21);
  g_assert_cmpstr (odori_index_lookup (back, "NS.M2", NULL)->exp, ==, "説明");
  g_assert_cmpstr (odori_index_find_show (back, "NN")->klass->code, ==, "new");
  g_assert_cmpuint (odori_index_find_show (index, "OU")->line, ==,
                    odori_index_find_show (back, "OU")->line);
  g_assert_cmpuint (odori_index_lookup (index, "NN.A", NULL)->line, ==,
                    odori_index_lookup (back, "NN.A", NULL)->line);
  g_assert_cmpuint (klass->line, ==, odori_index_find_class (back, "new")->line);
  assert_index_equal (index, back);
}

/* An implicit class takes a new show after its last one; an index built in memory is
 * edited and written in the canonical layout. */
static void
test_edit_implicit_and_memory (void)
{
  const char *content = "# bare shows\n"
                        "begin show code=BA file=ba.bva\n"
                        "\tmotion code=A1 frame=1-2\n"
                        "end show\n"
                        "begin class code=c\n"
                        "  begin show code=CC file=c.vpm\n"
                        "    motion code=C1 frame=1-10\n"
                        "  end show\n"
                        "end class";
  g_autoptr(OdoriIndex) index = load_ok (content);
  g_autoptr(OdoriIndex) memory = odori_index_new ();
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  OdoriIndexClass *implicit = g_ptr_array_index (index->classes, 0);
  OdoriIndexClass *klass;
  OdoriIndexShow *show;

  g_assert_true (implicit->implicit);
  show = odori_index_add_show (index, implicit, "BB", NULL, "bb.bva", &error);
  g_assert_no_error (error);
  g_assert_nonnull (odori_index_add_motion (index, show, "B1", NULL, NULL, 1, 3, &error));
  /* a class added to a file without a final line end: the new last line has none */
  klass = odori_index_add_class (index, "d", NULL, &error);
  g_assert_no_error (error);
  text = preserving_string (index);
  g_assert_cmpstr (text, ==,
                   "# bare shows\n"
                   "begin show code=BA file=ba.bva\n"
                   "\tmotion code=A1 frame=1-2\n"
                   "end show\n"
                   "begin show code=\"BB\" file=\"bb.bva\"\n"
                   "\tmotion code=\"B1\" frame=1-3\n"
                   "end show\n"
                   "begin class code=c\n"
                   "  begin show code=CC file=c.vpm\n"
                   "    motion code=C1 frame=1-10\n"
                   "  end show\n"
                   "end class\n"
                   "begin class code=\"d\"\n"
                   "end class");
  /* and removed again: the file as it was */
  odori_index_remove_class (index, klass);
  odori_index_remove_show (index, odori_index_find_show (index, "BB"));
  g_free (text);
  text = preserving_string (index);
  g_assert_cmpstr (text, ==, content);
  g_assert_cmpuint (index->classes->len, ==, 2);

  /* the implicit class goes with its last show */
  odori_index_remove_show (index, odori_index_find_show (index, "BA"));
  g_assert_cmpuint (index->classes->len, ==, 1);
  g_assert_cmpuint (odori_index_find_show (index, "CC")->line, ==, 3);
  g_assert_cmpuint (index->comments->len, ==, 1);

  klass = odori_index_add_class (memory, "k", NULL, &error);
  g_assert_no_error (error);
  show = odori_index_add_show (memory, klass, "S", "名", "s.bva", &error);
  g_assert_no_error (error);
  g_assert_nonnull (odori_index_add_motion (memory, show, "M", NULL, NULL, 1, 9, &error));
  g_assert_no_error (error);
  g_free (text);
  text = preserving_string (memory);
  g_assert_cmpstr (text, ==,
                   "begin class code=\"k\"\n"
                   "  begin show name=\"名\" code=\"S\" file=\"s.bva\"\n"
                   "    motion code=\"M\" frame=1-9\n"
                   "  end show\n"
                   "end class\n");
  odori_index_rename_show (memory, show, "別");
  g_assert_cmpstr (show->name, ==, "別");
  odori_index_remove_show (memory, show);
  g_assert_cmpuint (memory->classes->len, ==, 0);
}

/* Removing a show, a motion, a class; renaming a show: only their lines change. */
static void
test_edit_remove_rename (void)
{
  g_autofree char *crlf = replace_all (rich_index, "\n", "\r\n");
  g_autoptr(OdoriIndex) index = load_ok (crlf);
  g_autoptr(OdoriIndex) back = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  OdoriIndexShow *show;

  /* OU: its three lines go */
  show = odori_index_find_show (index, "OU");
  odori_index_remove_show (index, show);
  g_assert_null (odori_index_find_show (index, "OU"));
  g_assert_cmpuint (((OdoriIndexClass *) g_ptr_array_index (index->classes, 0))->shows->len, ==, 1);
  /* motion A2 of BA */
  odori_index_remove_motion (index, odori_index_lookup (index, "A2", NULL));
  /* X is all its class holds: the class goes with it */
  odori_index_remove_show (index, odori_index_find_show (index, "X"));
  g_assert_cmpuint (index->classes->len, ==, 1);
  /* BA renamed: its begin line is written anew, indent kept */
  show = odori_index_find_show (index, "BA");
  odori_index_rename_show (index, show, "新しい名前");

  text = preserving_string (index);
  expected = g_strconcat ("# 舞踊符インデックステーブル\r\n"
                          "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\r\n"
                          "define part name=\"左腕\" code=\"LA\" map=\"Body, LeftUpArm ,LeftLowArm,LeftHand\"\r\n"
                          "define part code=RA map=Body,RightUpArm name=“右腕”\r\n"
                          "\r\n"
                          "begin class name=\"舞踊\" code=\"dance\"\r\n"
                          "\tbegin show name=\"新しい名前\" code=\"BA\" file=\"kihon1.vpm\"\r\n"
                          "\t  motion name=\"上下屈伸１の足１\" code=\"A1\" exp=\"" SEED_EXP "\" frame=1-118\r\n"
                          "   # a comment inside a block\r\n"
                          "\t  motion code=B3　name=\"a = b, c\" frame = 241-300\r\n"
                          "\tend show\r\n"
                          "end class   \r\n",
                          NULL);
  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpuint (odori_index_lookup (index, "B3", NULL)->line, ==, 10);
  g_assert_cmpuint (show->line, ==, 7);
  back = load_ok (text);
  assert_index_equal (index, back);

  /* the last class removed: the parts and the comment stay */
  odori_index_remove_class (index, g_ptr_array_index (index->classes, 0));
  g_free (text);
  text = preserving_string (index);
  g_assert_true (g_str_has_suffix (text, "name=“右腕”\r\n\r\n"));
  g_assert_cmpuint (index->comments->len, ==, 1);
}

/* Blank lines are kept in runs (one entry for any number of them), written back as they
 * were, and counted in line numbers. */
static void
test_edit_blank_runs (void)
{
  const char *base = "\n\n  \n"
                     "begin class code=c\n"
                     "\n\t\n"
                     "  begin show code=S file=s.bva\n"
                     "\n"
                     "    motion code=A frame=1-2\n"
                     "  end show\n"
                     "　\n"
                     "end class\n"
                     "\n\n";
  const char *ends[] = { "\n", "\r\n", "\r" };

  for (guint e = 0; e < G_N_ELEMENTS (ends); e++)
    {
      g_autofree char *content = replace_all (base, "\n", ends[e]);
      g_autoptr(OdoriIndex) index = load_ok (content);
      g_autoptr(OdoriIndex) back = NULL;
      g_autofree char *text = preserving_string (index);
      g_autoptr(GError) error = NULL;
      OdoriIndexShow *show = odori_index_find_show (index, "S");

      g_assert_cmpstr (text, ==, content);
      /* 5 runs of blank lines and 5 constructs */
      g_assert_cmpuint (index->lines->len, ==, 10);
      g_assert_nonnull (odori_index_add_motion (index, show, "B", NULL, NULL, 3, 4, &error));
      g_assert_no_error (error);
      g_free (text);
      text = preserving_string (index);
      back = load_ok (text);
      g_assert_cmpuint (odori_index_lookup (index, "B", NULL)->line, ==, 10);
      g_assert_cmpuint (odori_index_lookup (back, "B", NULL)->line, ==, 10);
      g_assert_cmpuint (odori_index_lookup (index, "A", NULL)->line, ==,
                        odori_index_lookup (back, "A", NULL)->line);
      assert_index_equal (index, back);

      /* the class holds blank lines besides the show: it goes with it */
      odori_index_remove_show (index, show);
      g_assert_cmpuint (index->classes->len, ==, 0);
      g_free (text);
      text = preserving_string (index);
      {
        g_autofree char *expected = replace_all ("\n\n  \n\n\n", "\n", ends[e]);

        g_assert_cmpstr (text, ==, expected);
      }
    }

  /* a million blank lines cost one entry */
  {
    gsize n = 1000000;
    g_autofree char *big = g_malloc (n + 64);
    g_autoptr(OdoriIndex) index = NULL;

    memset (big, '\n', n);
    strcpy (big + n, "# end");
    index = load_ok (big);
    g_assert_cmpuint (index->lines->len, ==, 2);
    g_assert_cmpuint (index->comments->len, ==, 1);
  }
}

/* save_in_place keeps the previous file as PATH~; a failed write leaves both files as
 * they were, and no temporary file behind. */
static void
test_save_in_place_atomic (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "atomic", NULL);
  g_autofree char *path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *backup = g_build_filename (dir, "motion.dat~", NULL);
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GDir) listing = NULL;
  guint n_files = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0777), ==, 0);
  g_assert_true (g_file_set_contents (path, SEED_EXAMPLE, -1, &error));
  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  odori_index_rename_show (index, odori_index_find_show (index, "BA"), "改名された基本の舞い");
  edited = write_preserving (index);

  /* the backup's write fails: nothing changes */
  odori_output_set_test_fail_after (10);
  g_assert_false (odori_index_save_in_place (index, &error));
  odori_output_set_test_fail_after (G_MAXSIZE);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_clear_error (&error);
  assert_file_equals (path, SEED_EXAMPLE, strlen (SEED_EXAMPLE));
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));

  /* the new file's write fails (longer than the old): the old file and a whole backup */
  odori_output_set_test_fail_after (strlen (SEED_EXAMPLE));
  g_assert_false (odori_index_save_in_place (index, &error));
  odori_output_set_test_fail_after (G_MAXSIZE);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_clear_error (&error);
  assert_file_equals (path, SEED_EXAMPLE, strlen (SEED_EXAMPLE));
  assert_file_equals (backup, SEED_EXAMPLE, strlen (SEED_EXAMPLE));

  g_assert_true (odori_index_save_in_place (index, &error));
  g_assert_no_error (error);
  assert_file_equals (path, g_bytes_get_data (edited, NULL), g_bytes_get_size (edited));
  assert_file_equals (backup, SEED_EXAMPLE, strlen (SEED_EXAMPLE));

  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 2);
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

  tmp_dir = g_dir_make_tmp ("odori-test-index-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/index/diagnostic-to-string", test_diagnostic_to_string);
  g_test_add_func ("/index/load-seed", test_load_seed);
  g_test_add_func ("/index/load-rich", test_load_rich);
  g_test_add_func ("/index/write-canonical", test_write_canonical);
  g_test_add_func ("/index/round-trip", test_round_trip);
  g_test_add_func ("/index/line-ends", test_line_ends);
  g_test_add_func ("/index/shift-jis", test_shift_jis);
  g_test_add_func ("/index/shift-jis-looks-utf8", test_shift_jis_looks_utf8);
  g_test_add_func ("/index/utf8-bom", test_utf8_bom);
  g_test_add_func ("/index/bad-encoding", test_bad_encoding);
  g_test_add_func ("/index/missing-file", test_missing_file);
  g_test_add_func ("/index/errors", test_errors);
  g_test_add_func ("/index/error-path-prefix", test_error_path_prefix);
  g_test_add_func ("/index/part-after-begin", test_part_after_begin);
  g_test_add_func ("/index/implicit-class", test_implicit_class);
  g_test_add_func ("/index/unknown-parameters", test_unknown_parameters);
  g_test_add_func ("/index/lookup", test_lookup);
  g_test_add_func ("/index/show-path", test_show_path);
  g_test_add_func ("/index/check-files", test_check_files);
  g_test_add_func ("/index/check-files-ok", test_check_files_ok);
  g_test_add_func ("/index/check-files-corpus", test_check_files_corpus);
  g_test_add_func ("/index/save-unmappable", test_save_unmappable);
  g_test_add_func ("/index/build-in-memory", test_build_in_memory);
  g_test_add_func ("/index/garbage", test_garbage);
  g_test_add_func ("/index/preserve-unedited", test_preserve_unedited);
  g_test_add_func ("/index/edit-add", test_edit_add);
  g_test_add_func ("/index/edit-implicit-and-memory", test_edit_implicit_and_memory);
  g_test_add_func ("/index/edit-remove-rename", test_edit_remove_rename);
  g_test_add_func ("/index/edit-blank-runs", test_edit_blank_runs);
  g_test_add_func ("/index/save-in-place-atomic", test_save_in_place_atomic);

  ret = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
