/* test-index.c: motion.dat, the dance-symbol index table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "odori-index-files.h"
#include "odori-index.h"

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
      (void) index;
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

  tmp_dir = g_dir_make_tmp ("odori-test-index-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/index/diagnostic-to-string", test_diagnostic_to_string);
  g_test_add_func ("/index/load-seed", test_load_seed);
  g_test_add_func ("/index/load-rich", test_load_rich);
  g_test_add_func ("/index/write-canonical", test_write_canonical);
  g_test_add_func ("/index/round-trip", test_round_trip);
  g_test_add_func ("/index/line-ends", test_line_ends);
  g_test_add_func ("/index/shift-jis", test_shift_jis);
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

  ret = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
