/* test-stream.c: the streamed BVA and BVH readers give what the whole-file readers give
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * odori_bva_load () and odori_bvh_load () read a file through one reused buffer
 * (OdoriLineStream, ODORI_STREAM_BLOCK bytes), odori_*_load_text () the whole text in
 * memory. For files of several blocks (lines across block ends, lines longer than a block,
 * CRLF and CR line ends, no final line end, a BOM, Shift_JIS or UTF-8 names across a block
 * end, a NUL or invalid bytes after a parse error) every motion must be bit for bit the
 * same, and every error and warning word for word, on one thread and on two.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-format.h"
#include "odori-reader.h"
#include "odori-text-private.h"
#include "test-corpus.h"

static char *tmp_dir;

static char *
write_tmp (const char *name,
           GString    *content)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  FILE *f = g_fopen (path, "wb");

  /* no fsync: these are scratch files */
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (content->str, 1, content->len, f), ==, content->len);
  g_assert_cmpint (fclose (f), ==, 0);
  return path;
}

typedef OdoriMotion *(*LoadText) (OdoriTextFile *, GPtrArray *, GError **);
typedef OdoriMotion *(*LoadPath) (const char *, GPtrArray *, GError **);

/* The whole-file reader on one thread: the reference. */
static OdoriMotion *
load_whole (const char *path,
            LoadText    load_text,
            GPtrArray  *warnings,
            GError    **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  OdoriMotion *motion;

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  odori_text_set_test_load_threads (1);
  motion = load_text (file, warnings, error);
  odori_text_set_test_load_threads (0);
  return motion;
}

static void
assert_same_warnings (GPtrArray *a,
                      GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      g_autofree char *x = odori_diagnostic_to_string (a->pdata[i]);
      g_autofree char *y = odori_diagnostic_to_string (b->pdata[i]);

      g_assert_cmpstr (x, ==, y);
    }
}

static void
assert_same_motion (const OdoriMotion *a,
                    const OdoriMotion *b)
{
  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  g_assert_cmpuint (a->n_segments, ==, b->n_segments);
  g_assert_cmpfloat (a->frame_time, ==, b->frame_time);
  for (guint s = 0; s < a->n_segments; s++)
    g_assert_cmpstr (a->segments[s].name, ==, b->segments[s].name);
  g_assert_true (memcmp (a->transforms, b->transforms,
                         sizeof *a->transforms * a->n_frames * a->n_segments) == 0);
}

/* Streams PATH on THREADS threads with LOAD and through odori_format_load_motion (),
 * and checks both against the whole-file reader. Returns the reference's error message
 * (NULL when it loads). */
static char *
check_same (const char *path,
            LoadText    load_text,
            LoadPath    load,
            guint       threads)
{
  g_autoptr(GPtrArray) ref_warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_diagnostic_free);
  g_autoptr(GError) ref_error = NULL;
  g_autoptr(OdoriMotion) ref = load_whole (path, load_text, ref_warnings, &ref_error);

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_diagnostic_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriMotion) motion = NULL;

      odori_text_set_test_load_threads (threads);
      motion = k == 0 ? load (path, warnings, &error)
                      : odori_format_load_motion (path, warnings, &error);
      odori_text_set_test_load_threads (0);
      if (ref == NULL)
        {
          g_assert_null (motion);
          g_assert_nonnull (error);
          g_assert_cmpstr (error->message, ==, ref_error->message);
          g_assert_true (k == 1 || error->domain == ref_error->domain);
          g_assert_true (k == 1 || error->code == ref_error->code);
        }
      else
        {
          g_assert_no_error (error);
          assert_same_motion (motion, ref);
          assert_same_warnings (warnings, ref_warnings);
        }
    }
  return ref_error != NULL ? g_strdup (ref_error->message) : NULL;
}

/* Generators */

static const char *eols[] = { "\n", "\r\n", "\r" };

/* A BVA of N_SEG segments of N_FRAMES frames each (the last segment SHORT frames shorter),
 * lines ended by EOL, the last one without an end when NO_FINAL_EOL. */
static GString *
gen_bva (guint       n_seg,
         guint       n_frames,
         guint       shorter,
         const char *eol,
         gboolean    bom,
         gboolean    no_final_eol)
{
  GString *s = g_string_new (bom ? "\xEF\xBB\xBF" : "");
  GRand   *rand = g_rand_new_with_seed (n_seg * 1000 + n_frames);

  for (guint k = 0; k < n_seg; k++)
    {
      guint frames = k + 1 == n_seg ? n_frames - shorter : n_frames;

      g_string_append_printf (s, "Segment: Seg%u%sFrames: %u%sFrame Time: 0.008333%s", k, eol,
                              frames, eol, eol);
      g_string_append_printf (s, "XTRAN YTRAN ZTRAN XROT YROT ZROT XSCALE YSCALE ZSCALE%s", eol);
      g_string_append_printf (s, "INCHES INCHES INCHES DEGREES DEGREES DEGREES PERCENT PERCENT PERCENT%s", eol);
      for (guint f = 0; f < frames; f++)
        {
          for (guint v = 0; v < 9; v++)
            {
              char   buf[G_ASCII_DTOSTR_BUF_SIZE];
              double x = g_rand_double_range (rand, -200, 200);

              /* short and long decimals, exponents, a sign, a bare integer */
              switch (g_rand_int_range (rand, 0, 5))
                {
                case 0:
                  g_ascii_formatd (buf, sizeof buf, "%.6f", x);
                  break;
                case 1:
                  g_ascii_formatd (buf, sizeof buf, "%.17g", x);
                  break;
                case 2:
                  g_ascii_formatd (buf, sizeof buf, "%.3e", x);
                  break;
                case 3:
                  g_snprintf (buf, sizeof buf, "%d", (int) x);
                  break;
                default:
                  g_ascii_formatd (buf, sizeof buf, "%.2f", x);
                }
              g_string_append (s, buf);
              g_string_append (s, v < 8 ? (f % 7 ? " " : "\t ") : "");
            }
          g_string_append (s, eol);
        }
    }
  if (no_final_eol)
    g_string_truncate (s, s->len - strlen (eol));
  g_rand_free (rand);
  return s;
}

/* A BVH of a chain of N_JOINTS joints and N_FRAMES frames. */
static GString *
gen_bvh (guint       n_joints,
         guint       n_frames,
         const char *eol,
         gboolean    bom,
         gboolean    no_final_eol)
{
  GString *s = g_string_new (bom ? "\xEF\xBB\xBF" : "");
  GRand   *rand = g_rand_new_with_seed (n_joints * 7 + n_frames);
  guint    n_values = 6 + 3 * (n_joints - 1);

  g_string_append_printf (s, "HIERARCHY%s", eol);
  for (guint j = 0; j < n_joints; j++)
    {
      g_string_append_printf (s, "%s J%u%s{%s  OFFSET 0 %u 0%s", j == 0 ? "ROOT" : "JOINT", j, eol,
                              eol, j == 0 ? 0 : 5, eol);
      g_string_append_printf (s, "  CHANNELS %s%s", j == 0 ? "6 Xposition Yposition Zposition "
                                                             "Zrotation Xrotation Yrotation"
                                                           : "3 Zrotation Xrotation Yrotation",
                              eol);
    }
  g_string_append_printf (s, "End Site%s{%s OFFSET 0 3 0%s}%s", eol, eol, eol, eol);
  for (guint j = 0; j < n_joints; j++)
    g_string_append_printf (s, "}%s", eol);
  g_string_append_printf (s, "MOTION%sFrames: %u%sFrame Time: 0.008333%s", eol, n_frames, eol, eol);
  for (guint f = 0; f < n_frames; f++)
    {
      for (guint v = 0; v < n_values; v++)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (buf, sizeof buf, v % 3 ? "%.6f" : "%.15g",
                           g_rand_double_range (rand, -170, 170));
          g_string_append (s, buf);
          g_string_append (s, v + 1 < n_values ? " " : "");
        }
      g_string_append (s, eol);
    }
  if (no_final_eol)
    g_string_truncate (s, s->len - strlen (eol));
  g_rand_free (rand);
  return s;
}

/* Tests */

/* Files of several blocks, with every line end, with and without a BOM and a final line
 * end, and a short last segment (its warning): on one thread and on two (where the
 * parallel streamed reader must have taken the file). */
static void
test_bva_blocks (void)
{
  for (guint e = 0; e < G_N_ELEMENTS (eols); e++)
    for (guint v = 0; v < 4; v++)
      {
        g_autoptr(GString) text = gen_bva (5, 9000, v == 3 ? 10 : 0, eols[e], v & 1, v & 2);
        g_autofree char *path = write_tmp ("blocks.bva", text);
        guint            before = odori_text_get_test_parallel_loads ();
        g_autofree char *error1 = NULL, *error2 = NULL;

        g_assert_cmpuint (text->len, >, 3 * ODORI_STREAM_BLOCK);
        error1 = check_same (path, odori_bva_load_text, odori_bva_load, 1);
        g_assert_null (error1);
        g_assert_cmpuint (odori_text_get_test_parallel_loads (), ==, before);
        error2 = check_same (path, odori_bva_load_text, odori_bva_load, 2);
        g_assert_null (error2);
        /* CR line ends stay sequential in the streamed reader; the others are parallel
         * (twice: odori_bva_load and odori_format_load_motion) */
        if (e != 2)
          g_assert_cmpuint (odori_text_get_test_parallel_loads (), ==, before + 2);
      }
}

static void
test_bvh_blocks (void)
{
  for (guint e = 0; e < G_N_ELEMENTS (eols); e++)
    for (guint v = 0; v < 4; v++)
      {
        g_autoptr(GString) text = gen_bvh (18, 7000, eols[e], v & 1, v & 2);
        g_autofree char *path = write_tmp ("blocks.bvh", text);
        guint            before = odori_text_get_test_parallel_loads ();
        g_autofree char *error1 = NULL, *error2 = NULL;

        g_assert_cmpuint (text->len, >, 3 * ODORI_STREAM_BLOCK);
        error1 = check_same (path, odori_bvh_load_text, odori_bvh_load, 1);
        g_assert_null (error1);
        error2 = check_same (path, odori_bvh_load_text, odori_bvh_load, 2);
        g_assert_null (error2);
        g_assert_cmpuint (odori_text_get_test_parallel_loads (), ==, before + 2);
      }
}

/* A line longer than three blocks: blanks inside a valid frame line, and too many values
 * in another (the error counts them all). */
static void
test_huge_lines (void)
{
  g_autoptr(GString) bva = gen_bva (2, 20, 0, "\n", FALSE, FALSE);
  g_autoptr(GString) bvh = gen_bvh (3, 30, "\r\n", FALSE, FALSE);
  g_autofree char *bva_path = NULL, *bvh_path = NULL, *error = NULL;
  const char      *frames = strstr (bva->str, "PERCENT\n") + 8;
  gsize            at = frames - bva->str;

  /* 3.5 blocks of blanks at the start of the first frame line */
  {
    GString *blanks = g_string_new (NULL);

    for (gsize i = 0; i < ODORI_STREAM_BLOCK * 7 / 2; i++)
      g_string_append_c (blanks, i % 3 ? ' ' : '\t');
    g_string_insert_len (bva, at, blanks->str, blanks->len);
    g_string_free (blanks, TRUE);
  }
  bva_path = write_tmp ("huge.bva", bva);
  error = check_same (bva_path, odori_bva_load_text, odori_bva_load, 1);
  g_assert_null (error);

  /* the fourth frame line of the BVH (12 values) gets 400 000 more */
  {
    const char *p = strstr (bvh->str, "Frame Time:");
    GString    *extra = g_string_new (NULL);

    for (guint i = 0; i < 5; i++)
      p = strchr (p, '\n') + 1;
    for (guint i = 0; i < 400000; i++)
      g_string_append (extra, " 1.5");
    g_string_insert_len (bvh, p - bvh->str - 2, extra->str, extra->len);
    g_string_free (extra, TRUE);
  }
  g_assert_cmpuint (bvh->len, >, 1 * ODORI_STREAM_BLOCK);
  bvh_path = write_tmp ("huge.bvh", bvh);
  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autofree char *message = check_same (bvh_path, odori_bvh_load_text, odori_bvh_load, threads);

      g_assert_nonnull (strstr (message, "huge.bvh:"));
      g_assert_nonnull (strstr (message, "frame 4: expected 12 channel values, got 400012"));
    }
}

/* A segment name whose bytes straddle the end of the first block: in Shift_JIS (the
 * streamed reader hands the file to the whole-file reader, which decodes it) and in UTF-8
 * (a three-byte character cut by the block end is checked whole). */
static void
test_names_across_blocks (void)
{
  /* 舞踊 in Shift_JIS and in UTF-8 */
  static const char *names[] = { "\x95\x91\x97\x78", "\xE8\x88\x9E\xE8\xB8\x8A" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    for (gsize shift = 0; shift < 6; shift++)
      {
        /* most of the first block (11,000 frames to 1 MiB) */
        g_autoptr(GString) text = gen_bva (1, (guint) (11000 * (ODORI_STREAM_BLOCK >> 10) / 1024), 0, "\n",
                                            FALSE, FALSE);
        g_autoptr(GString) second = gen_bva (1, 40, 0, "\n", FALSE, FALSE);
        g_autoptr(GString) pad = g_string_new (NULL);
        g_autofree char *path = NULL, *message = NULL;
        g_autoptr(OdoriMotion) motion = NULL;
        gsize header;

        g_assert_cmpuint (text->len, <, ODORI_STREAM_BLOCK - 64);
        /* blank lines up to where the name must start: "Segment: " + name across the end */
        header = ODORI_STREAM_BLOCK - strlen ("Segment: ") - 1 - shift - text->len;
        while (pad->len < header)
          g_string_append (pad, pad->len + 1 == header ? "\n" : " ");
        g_string_append (text, pad->str);
        g_string_append (text, "Segment: ");
        g_string_append (text, names[n]);
        g_string_append (text, strchr (second->str, '\n'));
        g_assert_cmpuint (text->len, >, ODORI_STREAM_BLOCK);
        path = write_tmp ("names.bva", text);
        for (guint threads = 1; threads <= 2; threads++)
          {
            message = check_same (path, odori_bva_load_text, odori_bva_load, threads);
            g_assert_null (message);
          }
        motion = odori_bva_load (path, NULL, NULL);
        g_assert_nonnull (motion);
        g_assert_cmpstr (motion->segments[1].name, ==, "舞踊");
      }
}

/* The whole-file reader checks the file before parsing it: a NUL, or bytes neither UTF-8
 * nor Shift_JIS, far after a parse error are the error, in the streamed reader too. */
static void
test_late_bad_bytes (void)
{
  static const char *bad[] = { "\0", "\xFF\xFF", "\x81" };

  for (guint b = 0; b < G_N_ELEMENTS (bad); b++)
    for (guint fmt = 0; fmt < 2; fmt++)
      {
        g_autoptr(GString) text = fmt == 0 ? gen_bva (3, 9000, 0, "\n", FALSE, FALSE)
                                            : gen_bvh (18, 7000, "\n", FALSE, FALSE);
        g_autofree char *path = NULL, *message = NULL, *message2 = NULL;
        char            *line2 = strchr (text->str, '\n') + 1;

        /* a parse error on the second line */
        *line2 = '@';
        /* the bad bytes in the third block */
        g_string_insert_len (text, 2 * ODORI_STREAM_BLOCK + 100, bad[b], b == 0 ? 1 : strlen (bad[b]));
        path = write_tmp (fmt == 0 ? "late.bva" : "late.bvh", text);
        message = check_same (path, fmt == 0 ? odori_bva_load_text : odori_bvh_load_text,
                              fmt == 0 ? odori_bva_load : odori_bvh_load, 1);
        message2 = check_same (path, fmt == 0 ? odori_bva_load_text : odori_bvh_load_text,
                               fmt == 0 ? odori_bva_load : odori_bvh_load, 2);
        g_assert_nonnull (message);
        g_assert_cmpstr (message, ==, message2);
        if (b == 0)
          g_assert_nonnull (strstr (message, "a NUL byte"));
        else
          g_assert_nonnull (strstr (message, "neither UTF-8 nor Shift_JIS"));
      }
}

/* The stream's lines are the line reader's, for random text of every kind of line end. */
static void
test_lines_match_reader (void)
{
  GRand             *rand = g_rand_new_with_seed (21);
  static const char *pieces[] = { "a", " ", "\r", "\n", "\r\n", "\xE3\x80\x80", "1.25", "\xC3\xA9" };

  for (guint round = 0; round < 40; round++)
    {
      g_autoptr(GString) text = g_string_new (round % 5 == 0 ? "\xEF\xBB\xBF" : "");
      gsize            len = round < 30 ? (gsize) g_rand_int_range (rand, 0, 300) : 3 * ODORI_STREAM_BLOCK;
      g_autofree char *path = NULL;
      g_autoptr(OdoriTextFile) file = NULL;
      g_autoptr(GError) error = NULL;
      OdoriLineReader reader;
      OdoriLineStream stream;
      gboolean        more;

      while (text->len < len)
        {
          guint k = g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces));

          /* long runs without a line end, sometimes */
          if (round >= 30 && g_rand_int_range (rand, 0, 1000) == 0)
            for (guint i = 0; i < ODORI_STREAM_BLOCK / 3; i++)
              g_string_append_c (text, 'x');
          else
            g_string_append (text, pieces[k]);
        }
      path = write_tmp ("lines.txt", text);
      file = odori_text_file_open (path, &error);
      g_assert_no_error (error);
      odori_line_reader_init (&reader, file);
      g_assert_true (odori_line_stream_open (&stream, path, &error));
      g_assert_no_error (error);
      do
        {
          more = odori_line_reader_next (&reader);
          g_assert_cmpint (odori_line_stream_next (&stream), ==, more);
          if (more)
            {
              g_assert_cmpuint (stream.lineno, ==, reader.lineno);
              g_assert_cmpuint (stream.len, ==, reader.len);
              g_assert_true (memcmp (stream.line, reader.line, reader.len) == 0);
              g_assert_cmpuint (odori_line_stream_remaining (&stream), ==,
                                odori_line_reader_remaining (&reader));
            }
        }
      while (more);
      g_assert_true (odori_line_stream_finish (&stream));
      g_assert_false (odori_line_stream_fallback (&stream));
      odori_line_stream_clear (&stream);
    }
  g_rand_free (rand);
}

/* Buffers of a few bytes (the testing hook): every line crosses block ends, the BOM and
 * CRLF pairs are cut, lines outgrow the buffer many times. */
static void
test_small_blocks (void)
{
  for (guint e = 0; e < G_N_ELEMENTS (eols); e++)
    {
      g_autoptr(GString) bva = gen_bva (3, 30, 2, eols[e], e != 1, e == 2);
      g_autoptr(GString) bvh = gen_bvh (3, 20, eols[e], e == 1, e != 2);
      g_autofree char *bva_path = write_tmp ("small.bva", bva);
      g_autofree char *bvh_path = write_tmp ("small.bvh", bvh);

      for (gsize block = 4; block < 80; block += 5)
        for (guint threads = 1; threads <= 3; threads += 2)
          {
            g_autofree char *m1 = NULL, *m2 = NULL;

            odori_line_stream_set_test_block (block);
            m1 = check_same (bva_path, odori_bva_load_text, odori_bva_load, threads);
            m2 = check_same (bvh_path, odori_bvh_load_text, odori_bvh_load, threads);
            odori_line_stream_set_test_block (0);
            g_assert_null (m1);
            g_assert_null (m2);
          }
    }
}

/* odori_parse_channel_value () is odori_parse_double () made fast: the same verdict, the
 * same end and the same double, bit for bit, on two million random decimals (short and
 * long, signs, exponents, a point without digits, garbage after), each parsed where the
 * buffer ends right after it and where more text follows. */
static void
test_channel_values (void)
{
  GRand            *rand = g_rand_new_with_seed (2126);
  static const char tails[] = " \t\n,e.x-";
  char              buf[128];

  for (guint i = 0; i < 2000000; i++)
    {
      guint n_int = g_rand_int_range (rand, 0, 12), n_frac = g_rand_int_range (rand, 0, 12);
      gsize len = 0;

      memset (buf, 0, sizeof buf);
      if (g_rand_int_range (rand, 0, 3) == 0)
        buf[len++] = g_rand_boolean (rand) ? '-' : '+';
      for (guint k = 0; k < n_int; k++)
        buf[len++] = '0' + g_rand_int_range (rand, 0, 10);
      if (n_frac > 0 || g_rand_int_range (rand, 0, 8) == 0)
        buf[len++] = '.';
      for (guint k = 0; k < n_frac; k++)
        buf[len++] = '0' + g_rand_int_range (rand, 0, 10);
      if (g_rand_int_range (rand, 0, 10) == 0)
        len += g_snprintf (buf + len, 8, "e%d", g_rand_int_range (rand, -30, 30));
      for (guint with_tail = 0; with_tail < 2; with_tail++)
        {
          gsize       end = len + with_tail;
          const char *p1 = buf, *p2 = buf;
          double      x1 = 0, x2 = 0;
          gboolean    ok1, ok2;

          if (with_tail)
            buf[len] = tails[g_rand_int_range (rand, 0, sizeof tails - 1)];
          ok1 = odori_parse_double (&p1, buf + end, &x1);
          ok2 = odori_parse_channel_value (&p2, buf + end, buf + sizeof buf, &x2);
          g_assert_cmpint (ok1, ==, ok2);
          g_assert_true (p1 == p2);
          if (ok1)
            g_assert_true (memcmp (&x1, &x2, sizeof x1) == 0);
        }
    }
  g_rand_free (rand);
}

/* The token loop odori_parse_channel_line () stands for. */
static guint
channel_line_by_tokens (const char **p,
                        const char  *end,
                        const char  *limit,
                        double      *values,
                        guint        max)
{
  const char *s = *p;
  guint       n = 0;

  for (;;)
    {
      const char *t;

      s = odori_skip_blanks (s, end);
      if (s >= end || n == max)
        break;
      t = s;
      if (!odori_parse_channel_value (&t, end, limit, &values[n]) ||
          (t < end && odori_blank_len (t, end) == 0))
        break;
      n++;
      s = t;
    }
  *p = s;
  return n;
}

/* odori_parse_channel_line () reads a line as its token loop does: the same count, the
 * same end and the same doubles, bit for bit, on random lines of random numbers (short,
 * long, signs, exponents, garbage) between random blanks (ASCII and U+3000), where the
 * buffer ends right after the line and where more numbers follow it. */
static void
test_channel_lines (void)
{
  GRand             *rand = g_rand_new_with_seed (2127);
  static const char *blanks[] = { " ", "\t", "  ", "\r", "\xe3\x80\x80", " \t " };
  static const char *odd[] = { "1e5", "-2.5E-3", "x", "1.2.3", "--4", "+7", ".", "-", "12345678",
                               "0.123456789", "1,5", "nan", "\xc3\xa9", "5.", "-.25" };
  enum
  {
    SIZE = 1024
  };
  char *buf = g_malloc (SIZE);
  guint fast_lines = 0;

  for (guint i = 0; i < 100000; i++)
    {
      guint       tokens = g_rand_int_range (rand, 0, 60), max = g_rand_int_range (rand, 0, 64);
      gsize       start = g_rand_int_range (rand, 0, 16), len = start;
      double      v1[64], v2[64];
      const char *p1, *p2, *end, *limit;
      guint       n1, n2;

      /* what follows the line: numbers and blanks, as the next line would be */
      for (gsize k = 0; k < SIZE; k++)
        buf[k] = "0123456789. \n-"[g_rand_int_range (rand, 0, 15)];
      if (g_rand_boolean (rand))
        len += g_snprintf (buf + len, 8, "%s", blanks[g_rand_int_range (rand, 0, 6)]);
      for (guint t = 0; t < tokens && len < 760; t++)
        {
          if (g_rand_int_range (rand, 0, 200) == 0)
            {
              /* longer than the line parser's window */
              for (guint k = g_rand_int_range (rand, 60, 80); k > 0; k--)
                buf[len++] = '0' + g_rand_int_range (rand, 0, 10);
            }
          else if (g_rand_int_range (rand, 0, 40) == 0)
            len += g_snprintf (buf + len, 16, "%s", odd[g_rand_int_range (rand, 0, G_N_ELEMENTS (odd))]);
          else
            {
              guint n_int = g_rand_int_range (rand, 0, 9), n_frac = g_rand_int_range (rand, 0, 9);

              if (g_rand_int_range (rand, 0, 3) == 0)
                buf[len++] = g_rand_int_range (rand, 0, 8) == 0 ? '+' : '-';
              for (guint k = 0; k < n_int; k++)
                buf[len++] = '0' + g_rand_int_range (rand, 0, 10);
              if (n_frac > 0 || n_int == 0)
                buf[len++] = '.';
              for (guint k = 0; k < n_frac; k++)
                buf[len++] = '0' + g_rand_int_range (rand, 0, 10);
            }
          if (t + 1 < tokens || g_rand_boolean (rand))
            len += g_snprintf (buf + len, 8, "%s",
                               g_rand_int_range (rand, 0, 4) == 0 ? blanks[g_rand_int_range (rand, 0, 6)]
                                                                  : " ");
        }
      end = buf + len;
      /* the buffer ends at the line's end, a little after it, or far after it */
      switch (g_rand_int_range (rand, 0, 3))
        {
        case 0:
          limit = end;
          break;
        case 1:
          limit = MIN (end + g_rand_int_range (rand, 0, 80), buf + SIZE);
          break;
        default:
          limit = buf + SIZE;
          break;
        }
      p1 = p2 = buf + start;
      n1 = channel_line_by_tokens (&p1, end, limit, v1, max);
      n2 = odori_parse_channel_line (&p2, end, limit, v2, max);
      g_assert_cmpuint (n1, ==, n2);
      g_assert_cmpint (p1 - buf, ==, p2 - buf);
      g_assert_true (memcmp (v1, v2, n1 * sizeof (double)) == 0);
      fast_lines += p2 == end && n2 > 8;
    }
  /* most lines were read whole, not stopped at their first odd token */
  g_assert_cmpuint (fast_lines, >, 10000);
  g_free (buf);
  g_rand_free (rand);
}

/* Every real clip of the corpus (with its whole-file parallel reader too) and every fuzz
 * regression seed of both formats. */
static void
test_corpus_and_seeds (void)
{
  static const char *clips[] = {
    "bva-motionx/08_01.vpm",
    "bva-motionx/OneSegment.vpm",
    "bvh-cmu-131/131_01.bvh",
    "bvh-cmu-salsa/60_10_scaled.bvh",
    "bvh-cmu-salsa/61_10_scaled.bvh",
    "bvh-cmu-cgspeed/12_03.bvh",
    "bvh-fair-zup/zombie.bvh",
    "bvh-rokoko/jesse_dance.bvh",
  };
  static const char *seed_dirs[] = { "bva", "bvh" };

  for (guint d = 0; d < G_N_ELEMENTS (seed_dirs); d++)
    {
      g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fuzz", "regressions",
                                                         seed_dirs[d], NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *name;
      guint       n = 0;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir_path, name, NULL);

          for (guint threads = 1; threads <= 2; threads++)
            g_free (d == 0 ? check_same (path, odori_bva_load_text, odori_bva_load, threads)
                           : check_same (path, odori_bvh_load_text, odori_bvh_load, threads));
          n++;
        }
      g_assert_cmpuint (n, >, 0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (clips); i++)
    {
      g_autofree char *path = odori_test_corpus_file (clips[i]);
      gboolean         bva = g_str_has_prefix (clips[i], "bva");

      if (path == NULL)
        continue;
      for (guint threads = 1; threads <= 2; threads++)
        {
          g_autofree char *message = bva ? check_same (path, odori_bva_load_text, odori_bva_load, threads)
                                         : check_same (path, odori_bvh_load_text, odori_bvh_load, threads);

          g_assert_null (message);
        }
    }
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-stream-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/stream/lines-match-reader", test_lines_match_reader);
  g_test_add_func ("/stream/bva/blocks", test_bva_blocks);
  g_test_add_func ("/stream/bvh/blocks", test_bvh_blocks);
  g_test_add_func ("/stream/huge-lines", test_huge_lines);
  g_test_add_func ("/stream/names-across-blocks", test_names_across_blocks);
  g_test_add_func ("/stream/late-bad-bytes", test_late_bad_bytes);
  g_test_add_func ("/stream/corpus-and-seeds", test_corpus_and_seeds);
  g_test_add_func ("/stream/channel-values", test_channel_values);
  g_test_add_func ("/stream/channel-lines", test_channel_lines);
  g_test_add_func ("/stream/small-blocks", test_small_blocks);

  ret = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmp_dir, name, NULL);

        g_unlink (p);
      }
    g_rmdir (tmp_dir);
  }
  return ret;
}
