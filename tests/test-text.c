/* test-text.c: decoding, line reader, numbers, atomic output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-reader.h"
#include "odori-text.h"

static double
parse_one (const char *s)
{
  const char *p = s;
  double v = -12345;

  g_assert_true (odori_parse_double (&p, s + strlen (s), &v));
  g_assert_cmpint (p - s, ==, (int) strlen (s));
  return v;
}

static void
test_parse_forms (void)
{
  const char *forms[] = { "1", "-0.5", ".5", "1e-3", "+2.", "0.0083333", ".0083333", "-180.000000",
                          "123456.789012", "1E+5", "0", "-0", "00012.5000", "5e0" };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      double expected = g_ascii_strtod (forms[i], NULL);
      double got = parse_one (forms[i]);

      g_assert_true (memcmp (&expected, &got, sizeof got) == 0 || (expected == 0 && got == 0));
    }
}

static void
test_parse_rejects (void)
{
  const char *bad[] = { "nan", "NaN", "inf", "-inf", "Infinity", "", "-", ".", "e5", "abc", "+.e1" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *p = bad[i];
      double v = 42;

      g_assert_false (odori_parse_double (&p, bad[i] + strlen (bad[i]), &v));
      g_assert_true (p == bad[i]);
      g_assert_cmpfloat (v, ==, 42);
    }
  g_assert_true (odori_looks_non_finite ("nan", "nan" + 3));
  g_assert_true (odori_looks_non_finite ("-INF", "-INF" + 4));
  g_assert_false (odori_looks_non_finite ("12", "12" + 2));
}

/* The parser stops at END even when the bytes after it are digits. */
static void
test_parse_stops_at_end (void)
{
  const char *s = "12.3456";
  const char *p = s;
  double v;

  g_assert_true (odori_parse_double (&p, s + 4, &v));
  g_assert_cmpfloat (v, ==, 12.3);
  g_assert_true (p == s + 4);
}

/* Bit-exact with strtod in the C locale over a million random ordinary decimals, and
 * over long mantissas and big exponents that take the slow path. */
static void
test_parse_bit_exact (void)
{
  GRand *rand = g_rand_new_with_seed (1998);
  char buf[64];

  for (guint i = 0; i < 1000000; i++)
    {
      int decimals = g_rand_int_range (rand, 0, 10);
      double x = g_rand_double_range (rand, -100000, 100000);
      double expected, got;

      g_snprintf (buf, sizeof buf, "%.*f", decimals, x);
      for (char *c = buf; *c; c++)
        if (*c == ',')
          *c = '.';
      expected = g_ascii_strtod (buf, NULL);
      got = parse_one (buf);
      if (memcmp (&expected, &got, sizeof got) != 0 && !(expected == 0 && got == 0))
        g_error ("%s: got %.17g, strtod %.17g", buf, got, expected);
    }

  for (guint i = 0; i < 20000; i++)
    {
      double x = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -300, 300));
      double expected, got;

      g_snprintf (buf, sizeof buf, "%.*e", g_rand_int_range (rand, 0, 25), x);
      for (char *c = buf; *c; c++)
        if (*c == ',')
          *c = '.';
      expected = g_ascii_strtod (buf, NULL);
      got = parse_one (buf);
      if (memcmp (&expected, &got, sizeof got) != 0)
        g_error ("%s: got %.17g, strtod %.17g", buf, got, expected);
    }
  g_rand_free (rand);
}

/* odori_parse_double_ahead agrees with odori_parse_double bit for bit, stops at the same
 * byte, and fails where it fails: random decimals of every width, odd forms, numbers cut
 * by END with digits after it, and numbers near the end of the readable buffer. */
static void
check_ahead (const char *buf,
             gsize       len,
             gsize       end_at)
{
  const char *p1 = buf, *p2 = buf;
  double v1 = -7, v2 = -7;
  gboolean ok1 = odori_parse_double (&p1, buf + end_at, &v1);
  gboolean ok2 = odori_parse_double_ahead (&p2, buf + end_at, buf + len, &v2);

  if (ok1 != ok2 || p1 != p2 || memcmp (&v1, &v2, sizeof v1) != 0)
    g_error ("\"%.*s\" (end %zu): %d %.17g +%td, ahead %d %.17g +%td", (int) len, buf,
             end_at, ok1, v1, p1 - buf, ok2, v2, p2 - buf);
}

static void
test_parse_ahead (void)
{
  static const char *forms[] = {
    "0", "-0", "+1", ".5", "-.5", "5.", "-", "+", ".", "-.", "1e5", "1.5E-3", "1e", "12345678",
    "123456789", "1.12345678", "0.000000", "-27.510646", "100.000000", "99999999.9",
    "1234567.1234567", "1x", "1.x", "--1", "+-1", "0x10", "nan", "  1", "1..2", "7.5.",
  };
  GRand *rand = g_rand_new_with_seed (2026);
  char buf[96];

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      gsize n = strlen (forms[i]);

      /* followed by a blank, by a line end, by digits beyond END, and at the buffer's end */
      memset (buf, ' ', sizeof buf);
      memcpy (buf, forms[i], n);
      check_ahead (buf, sizeof buf, n + 1);
      buf[n] = '\n';
      check_ahead (buf, sizeof buf, n);
      memset (buf + n, '7', 16);
      for (gsize cut = 0; cut <= n; cut++)
        check_ahead (buf, sizeof buf, cut);
      check_ahead (buf, n, n);
    }
  for (guint i = 0; i < 300000; i++)
    {
      int decimals = g_rand_int_range (rand, 0, 10);
      double x = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, 0, 10));
      int n;

      memset (buf, g_rand_boolean (rand) ? ' ' : '3', sizeof buf);
      n = g_snprintf (buf, 40, "%.*f", decimals, x);
      for (char *c = buf; *c; c++)
        if (*c == ',')
          *c = '.';
      buf[n] = g_rand_boolean (rand) ? ' ' : '9';
      check_ahead (buf, sizeof buf, n);
      check_ahead (buf, n + g_rand_int_range (rand, 0, 30), n);
    }
  g_rand_free (rand);
}

static void
test_parse_int (void)
{
  const char *s = "-42x";
  const char *p = s;
  gint64 v;

  g_assert_true (odori_parse_int (&p, s + 4, &v));
  g_assert_cmpint (v, ==, -42);
  g_assert_cmpint (*p, ==, 'x');
  s = "99999999999999999999999";
  p = s;
  g_assert_false (odori_parse_int (&p, s + strlen (s), &v));
}

static void
test_format_fixed (void)
{
  struct { double x; guint d; const char *want; } cases[] = {
    { 0, 6, "0.000000" },
    { -0.0, 6, "0.000000" },
    { -0.0000001, 6, "0.000000" },
    { 1.5, 0, "2" },
    { -180, 6, "-180.000000" },
    { 0.0083333, 7, "0.0083333" },
    { 123456.7890125, 3, "123456.789" },
    { -2.0000005, 6, "-2.000001" },
    { 1e20, 2, "100000000000000000000.00" },
  };
  char buf[48];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize n = odori_format_fixed (buf, cases[i].x, cases[i].d);

      buf[n] = '\0';
      g_assert_cmpstr (buf, ==, cases[i].want);
    }
}

/* Against printf's %.6f: equal except where x·10⁶ lies within a rounding error of a
 * tie, and always within half a unit of the last place. */
static void
test_format_fixed_random (void)
{
  GRand *rand = g_rand_new_with_seed (29);
  char mine[48], ref[64];
  guint differ = 0;

  for (guint i = 0; i < 200000; i++)
    {
      double x = g_rand_double_range (rand, -5000, 5000);
      gsize n = odori_format_fixed (mine, x, 6);
      double back;

      mine[n] = '\0';
      g_snprintf (ref, sizeof ref, "%.6f", x);
      for (char *c = ref; *c; c++)
        if (*c == ',')
          *c = '.';
      if (strcmp (mine, ref) != 0)
        differ++;
      back = g_ascii_strtod (mine, NULL);
      g_assert_cmpfloat (fabs (back - x), <=, 0.5e-6 + 1e-12 * fabs (x));
    }
  g_assert_cmpuint (differ, <, 20);
  g_rand_free (rand);
}

static void
test_format_locale (void)
{
  char buf[48];
  gsize n;
  g_autofree char *d = NULL;

  if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
    g_error ("the de_DE.UTF-8 locale is not installed (build-aux/test installs it)");
  n = odori_format_fixed (buf, -1.25, 3);
  buf[n] = '\0';
  g_assert_cmpstr (buf, ==, "-1.250");
  n = odori_format_fixed (buf, 3e19, 1);
  buf[n] = '\0';
  g_assert_cmpstr (buf, ==, "30000000000000000000.0");
  d = odori_format_double (0.25);
  g_assert_cmpstr (d, ==, "0.25");
  g_free (d);
  d = odori_format_double (0.033333);
  g_assert_cmpstr (d, ==, "0.033333");
  g_free (d);
  d = odori_format_double (1.0 / 3.0);
  g_assert_cmpfloat (g_ascii_strtod (d, NULL), ==, 1.0 / 3.0);
  g_assert_cmpfloat (parse_one ("3.5"), ==, 3.5);
  setlocale (LC_ALL, "C");
}

static char *
write_tmp (const char *name,
           const char *data,
           gssize      len)
{
  static char *dir = NULL;
  char *path;

  if (dir == NULL)
    dir = g_dir_make_tmp ("odori-text-XXXXXX", NULL);
  path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  return path;
}

static void
test_decode_utf8_and_bom (void)
{
  g_autofree char *p1 = write_tmp ("plain.txt", "踊り\n", -1);
  g_autofree char *p2 = write_tmp ("bom.txt", "\xEF\xBB\xBF踊り\n", -1);
  g_autoptr(OdoriTextFile) f1 = odori_text_file_open (p1, NULL);
  g_autoptr(OdoriTextFile) f2 = odori_text_file_open (p2, NULL);
  gsize len;
  const char *d;

  g_assert_nonnull (f1);
  g_assert_nonnull (f2);
  g_assert_cmpint (odori_text_file_get_encoding (f1), ==, ODORI_ENCODING_UTF8);
  g_assert_cmpint (odori_text_file_get_encoding (f2), ==, ODORI_ENCODING_UTF8_BOM);
  d = odori_text_file_get_data (f2, &len);
  g_assert_cmpuint (len, ==, strlen ("踊り\n"));
  g_assert_true (memcmp (d, "踊り\n", len) == 0);
}

static void
test_decode_shift_jis (void)
{
  const char *utf8 = "# Title: 新しい踊り\r\n# Author: 湯川 崇\r\n①Ⅱ\r\n";  /* ① Ⅱ are CP932 only */
  gsize sjis_len;
  g_autofree char *sjis = g_convert (utf8, -1, "CP932", "UTF-8", NULL, &sjis_len, NULL);
  g_autofree char *path = write_tmp ("sjis.dds", sjis, sjis_len);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) f = odori_text_file_open (path, &error);
  g_autofree char *back = NULL;
  gsize len, back_len;
  const char *d;

  g_assert_no_error (error);
  g_assert_cmpint (odori_text_file_get_encoding (f), ==, ODORI_ENCODING_SHIFT_JIS);
  d = odori_text_file_get_data (f, &len);
  g_assert_cmpuint (len, ==, strlen (utf8));
  g_assert_true (memcmp (d, utf8, len) == 0);

  back = odori_text_encode (utf8, -1, ODORI_ENCODING_SHIFT_JIS, &back_len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back_len, ==, sjis_len);
  g_assert_true (memcmp (back, sjis, sjis_len) == 0);
}

static void
test_decode_invalid (void)
{
  /* 0x81 0x20: a lead byte with an invalid trail byte, on line 2 */
  g_autofree char *path = write_tmp ("bad.dat", "ok\nab\x81\x20z\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) f = odori_text_file_open (path, &error);
  g_autofree char *want = g_strdup_printf ("%s:2:", path);

  g_assert_null (f);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING);
  g_assert_true (g_str_has_prefix (error->message, want));
}

static void
test_open_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) f = odori_text_file_open ("/nonexistent/odori/x.bva", &error);

  g_assert_null (f);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/odori/x.bva"));
}

/* odori_read_limited () reads a whole file up to the caller's limit, and one byte more to
 * tell a larger file, growing its buffer past the first block. */
static void
test_read_limited (void)
{
  const gsize      size = 200000;
  g_autofree char *content = g_malloc (size);
  g_autofree char *dir = g_dir_make_tmp ("odori-text-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "data", NULL);
  static const gsize limits[] = { 0, 4, 65536, 150000, 199999, 200000, 1 << 20 };

  g_assert_nonnull (dir);
  for (gsize i = 0; i < size; i++)
    content[i] = (char) ('a' + i % 26);
  g_assert_true (g_file_set_contents (path, content, size, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize len = 12345;
      g_autofree char *data = odori_read_limited (path, limits[i], &len, &error);

      g_assert_no_error (error);
      g_assert_nonnull (data);
      g_assert_cmpuint (len, ==, MIN (size, limits[i] + 1));
      g_assert_true (memcmp (data, content, len) == 0);
      g_assert_cmpint (data[len], ==, '\0');
    }

  {
    g_autoptr(GError) error = NULL;
    gsize len = 0;
    g_autofree char *data = odori_read_limited (dir, 100, &len, &error);

    /* a folder is not a regular file */
    g_assert_null (data);
    g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  }
  {
    g_autoptr(GError) error = NULL;
    gsize len = 0;
    g_autofree char *data = odori_read_limited ("/nonexistent/odori/x.xml", 100, &len, &error);

    g_assert_null (data);
    g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  }
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
check_lines (const char  *text,
             const char **want,
             guint        n_want)
{
  g_autoptr(OdoriTextFile) f = odori_text_file_new_from_data ("mem", text, strlen (text), NULL);
  OdoriLineReader r;
  guint n = 0;

  odori_line_reader_init (&r, f);
  while (odori_line_reader_next (&r))
    {
      g_assert_cmpuint (n, <, n_want);
      g_assert_cmpuint (r.lineno, ==, n + 1);
      g_assert_cmpuint (r.len, ==, strlen (want[n]));
      g_assert_true (memcmp (r.line, want[n], r.len) == 0);
      n++;
    }
  g_assert_cmpuint (n, ==, n_want);
  g_assert_cmpuint (odori_line_reader_remaining (&r), ==, 0);
}

static void
test_line_reader (void)
{
  const char *lf[] = { "a", "bb", "ccc", "dddd", "", "last" };
  const char *cr[] = { "a", "bb", "", "ccc" };
  const char *crlf_first[] = { "a", "b\rc" };

  /* LF and CRLF mixed */
  check_lines ("a\nbb\r\nccc\r\ndddd\n\nlast", lf, G_N_ELEMENTS (lf));
  /* old Mac: CR only */
  check_lines ("a\rbb\r\rccc\r", cr, G_N_ELEMENTS (cr));
  /* a stray CR inside a line of an LF file stays in the line */
  check_lines ("a\r\nb\rc\n", crlf_first, G_N_ELEMENTS (crlf_first));
}

/* A mapped file larger than the release step reads back every line correctly. */
static void
test_line_reader_large (void)
{
  GString *s = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(OdoriTextFile) f = NULL;
  OdoriLineReader r;
  guint n = 0;

  while (s->len < (40u << 20))
    g_string_append_printf (s, "%08u 0.123456 -1.5\r\n", n++);
  path = write_tmp ("large.txt", s->str, s->len);
  f = odori_text_file_open (path, NULL);
  g_assert_nonnull (f);
  odori_line_reader_init (&r, f);
  for (guint i = 0; i < n; i++)
    {
      char want[16];

      g_assert_true (odori_line_reader_next (&r));
      g_snprintf (want, sizeof want, "%08u", i);
      g_assert_true (memcmp (r.line, want, 8) == 0);
      g_assert_cmpuint (r.len, ==, 22);
    }
  g_assert_false (odori_line_reader_next (&r));
  g_string_free (s, TRUE);
}

static void
test_output_atomic (void)
{
  g_autofree char *path = write_tmp ("keep.txt", "previous contents\n", -1);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  OdoriOutput *out;
  GString *big = g_string_new (NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  GDir *d;
  const char *name;

  for (int i = 0; i < 100000; i++)
    g_string_append (big, "0123456789");

  /* fails after 4096 bytes: the old file must stay as it was, no temp file left */
  out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);
  g_assert_no_error (error);
  odori_output_set_fail_after (out, 4096);
  odori_output_write (out, big->str, big->len);
  g_assert_false (odori_output_commit (out, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  odori_output_free (out);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "previous contents\n");

  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)))
    g_assert_false (g_str_has_prefix (name, ".keep.txt."));
  g_dir_close (d);

  /* success replaces it */
  out = odori_output_new (path, ODORI_ENCODING_SHIFT_JIS, &error);
  odori_output_text (out, "舞踊 ");
  odori_output_fixed (out, 1.5, 2);
  g_assert_true (odori_output_commit (out, &error));
  odori_output_free (out);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "\x95\x91\x97\x78 1.50");

  /* a directory that does not exist */
  out = odori_output_new ("/nonexistent/odori/out.bva", ODORI_ENCODING_UTF8, &error);
  g_assert_null (out);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_string_free (big, TRUE);
}

static void
test_output_unmappable (void)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_SHIFT_JIS);
  g_autoptr(GError) error = NULL;

  odori_output_text (out, "emoji 😀");
  g_assert_false (odori_output_commit (out, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_UNMAPPABLE);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text/parse/forms", test_parse_forms);
  g_test_add_func ("/text/parse/rejects", test_parse_rejects);
  g_test_add_func ("/text/parse/stops-at-end", test_parse_stops_at_end);
  g_test_add_func ("/text/parse/bit-exact", test_parse_bit_exact);
  g_test_add_func ("/text/parse/ahead", test_parse_ahead);
  g_test_add_func ("/text/parse/int", test_parse_int);
  g_test_add_func ("/text/format/fixed", test_format_fixed);
  g_test_add_func ("/text/format/fixed-random", test_format_fixed_random);
  g_test_add_func ("/text/format/locale", test_format_locale);
  g_test_add_func ("/text/decode/utf8-bom", test_decode_utf8_and_bom);
  g_test_add_func ("/text/decode/shift-jis", test_decode_shift_jis);
  g_test_add_func ("/text/decode/invalid", test_decode_invalid);
  g_test_add_func ("/text/open/missing", test_open_missing);
  g_test_add_func ("/text/read-limited", test_read_limited);
  g_test_add_func ("/text/lines/ends", test_line_reader);
  g_test_add_func ("/text/lines/large", test_line_reader_large);
  g_test_add_func ("/text/output/atomic", test_output_atomic);
  g_test_add_func ("/text/output/unmappable", test_output_unmappable);

  return g_test_run ();
}
