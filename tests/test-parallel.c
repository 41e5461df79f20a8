/* test-parallel.c: the BVA and BVH readers on several threads read exactly what the
 * sequential readers read, and fail exactly as they do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Files of 1 MiB and more are parsed on several threads (odori_text_load_threads); the
 * tests force the thread count so that small files take that path too, and count the
 * loads the parallel path finished (odori_text_get_test_parallel_loads) to prove which
 * path a file took.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-text-private.h"

typedef OdoriMotion *(*LoadFunc) (OdoriTextFile *, GPtrArray *, GError **);

typedef struct
{
  OdoriMotion *motion;
  char        *error;    /* the message, or NULL */
  char        *warnings; /* every warning, one a line */
  gboolean     parallel; /* the parallel path finished the load */
} Result;

static void
result_clear (Result *r)
{
  g_clear_pointer (&r->motion, odori_motion_unref);
  g_clear_pointer (&r->error, g_free);
  g_clear_pointer (&r->warnings, g_free);
}

static Result
load_with (LoadFunc    load,
           const char *text,
           guint       n_threads)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(GString) w = g_string_new (NULL);
  Result r = { 0 };
  guint  before;

  file = odori_text_file_new_from_data ("test.txt", text, strlen (text), &error);
  g_assert_no_error (error);
  odori_text_set_test_load_threads (n_threads);
  before = odori_text_get_test_parallel_loads ();
  r.motion = load (file, warnings, &error);
  r.parallel = odori_text_get_test_parallel_loads () > before;
  odori_text_set_test_load_threads (0);
  if (error != NULL)
    r.error = g_strdup (error->message);
  g_assert_true ((r.motion == NULL) == (error != NULL));
  for (guint i = 0; i < warnings->len; i++)
    {
      g_autofree char *s = odori_diagnostic_to_string (g_ptr_array_index (warnings, i));

      g_string_append_printf (w, "%s\n", s);
    }
  r.warnings = g_string_free (g_steal_pointer (&w), FALSE);
  return r;
}

static void
assert_same_motion (const OdoriMotion *a,
                    const OdoriMotion *b)
{
  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  g_assert_cmpuint (a->n_segments, ==, b->n_segments);
  g_assert_cmpfloat (a->frame_time, ==, b->frame_time);
  g_assert_cmpint (a->has_hierarchy, ==, b->has_hierarchy);
  for (guint s = 0; s < a->n_segments; s++)
    {
      g_assert_cmpstr (a->segments[s].name, ==, b->segments[s].name);
      g_assert_cmpuint (a->segments[s].n_fields, ==, b->segments[s].n_fields);
      g_assert_cmpmem (a->segments[s].fields, sizeof a->segments[s].fields,
                       b->segments[s].fields, sizeof b->segments[s].fields);
      g_assert_cmpmem (a->segments[s].units, sizeof a->segments[s].units,
                       b->segments[s].units, sizeof b->segments[s].units);
      g_assert_cmpint (a->segments[s].parent, ==, b->segments[s].parent);
    }
  /* bit for bit: the same code computes every transform */
  g_assert_cmpmem (a->transforms, sizeof (OdoriTransform) * a->n_frames * a->n_segments,
                   b->transforms, sizeof (OdoriTransform) * b->n_frames * b->n_segments);
}

/* Loads TEXT on one thread and on 2, 3 and 7, and checks every load against the first.
 * EXPECT_PARALLEL: whether the parallel path should finish the load (FALSE for files it
 * hands back to the sequential reader). Returns the sequential result. */
static Result
check_same (LoadFunc    load,
            const char *text,
            gboolean    expect_parallel)
{
  static const guint threads[] = { 2, 3, 7 };
  Result             seq = load_with (load, text, 1);

  g_assert_false (seq.parallel);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      Result par = load_with (load, text, threads[i]);

      g_test_message ("%u threads: %s", threads[i], par.error ? par.error : "loaded");
      g_assert_cmpint (par.parallel, ==, expect_parallel);
      g_assert_cmpstr (par.error, ==, seq.error);
      g_assert_cmpstr (par.warnings, ==, seq.warnings);
      if (seq.motion != NULL)
        assert_same_motion (seq.motion, par.motion);
      result_clear (&par);
    }
  return seq;
}

/* BVA */

static const char *seg_names[] = { "Hips", "Chest", "Head", "LeftArm", "RightArm" };

/* A BVA of the segments above, N_FRAMES frames each (FRAMES[s] when given), values that
 * differ per segment, frame and column. */
static char *
make_bva (guint        n_frames,
          const guint *frames,
          const char  *eol)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < G_N_ELEMENTS (seg_names); k++)
    {
      guint n = frames ? frames[k] : n_frames;

      g_string_append_printf (s, "Segment: %s%sFrames: %u%sFrame Time: 0.033333%s"
                                 "XTRAN YTRAN ZTRAN XROT YROT ZROT XSCALE YSCALE ZSCALE%s"
                                 "INCHES INCHES INCHES DEGREES DEGREES DEGREES PERCENT PERCENT "
                                 "PERCENT%s",
                              seg_names[k], eol, n, eol, eol, eol, eol);
      for (guint f = 0; f < n; f++)
        g_string_append_printf (s, "%u.%06u %d.25 -%u.5 %u.125 %u.0625 -%u.75 100 100 100%s",
                                k, f % 1000000, (int) f - 40, f % 17, (f * 7 + k) % 360,
                                (f * 13) % 180, (f * 3 + k) % 90, eol);
    }
  return g_string_free (s, FALSE);
}

static void
test_bva_valid (void)
{
  static const guint uneven[] = { 40, 3, 0, 40, 17 };
  g_autofree char   *lf = make_bva (40, NULL, "\n");
  g_autofree char   *crlf = make_bva (40, NULL, "\r\n");
  g_autofree char   *cr = make_bva (40, NULL, "\r");
  g_autofree char   *short_segs = make_bva (0, uneven, "\n");
  g_autofree char   *blanks = NULL;
  Result             r;

  r = check_same (odori_bva_load_text, lf, TRUE);
  g_assert_cmpuint (r.motion->n_frames, ==, 40);
  g_assert_cmpuint (r.motion->n_segments, ==, 5);
  result_clear (&r);
  r = check_same (odori_bva_load_text, crlf, TRUE);
  result_clear (&r);
  r = check_same (odori_bva_load_text, cr, TRUE);
  g_assert_cmpuint (r.motion->n_frames, ==, 40);
  result_clear (&r);

  /* short segments: warnings with the header's line number, computed afterwards */
  r = check_same (odori_bva_load_text, short_segs, TRUE);
  g_assert_nonnull (strstr (r.warnings, "test.txt:"));
  g_assert_nonnull (strstr (r.warnings, "\"Head\" has no frames"));
  result_clear (&r);

  /* blank lines between and inside blocks, and before the first segment */
  blanks = g_strconcat ("\n  \n", lf, NULL);
  {
    char            *p = strstr (blanks, "Segment: Head");
    g_autofree char *more = NULL;

    g_assert_nonnull (p);
    more = g_strdup_printf ("%.*s\n\t\n%s", (int) (p - blanks), blanks, p);
    r = check_same (odori_bva_load_text, more, TRUE);
    g_assert_cmpuint (r.motion->n_segments, ==, 5);
    result_clear (&r);
  }
  r = check_same (odori_bva_load_text, blanks, TRUE);
  result_clear (&r);
}

/* Replaces the first occurrence of FROM after the text AFTER in TEXT. */
static char *
replace_after (const char *text,
               const char *after,
               const char *from,
               const char *to)
{
  const char *a = strstr (text, after);
  const char *p;

  g_assert_nonnull (a);
  p = strstr (a, from);
  g_assert_nonnull (p);
  return g_strdup_printf ("%.*s%s%s", (int) (p - text), text, to, p + strlen (from));
}

/* A broken copy of a valid file: FROM replaced by TO after AFTER; the error says MESSAGE. */
typedef struct
{
  const char *after, *from, *to;
  const char *message;
} Breakage;

/* Each breakage of TEXT fails alike on one thread and on several, with the sequential
 * reader's line numbers. */
static void
check_breakages (LoadFunc        load,
                 const char     *text,
                 const Breakage *cases,
                 guint           n_cases)
{
  for (guint i = 0; i < n_cases; i++)
    {
      g_autofree char *bad = replace_after (text, cases[i].after, cases[i].from, cases[i].to);
      Result           r;

      g_test_message ("case %u: %s", i, cases[i].message);
      r = check_same (load, bad, FALSE);
      g_assert_nonnull (r.error);
      if (strstr (r.error, cases[i].message) == NULL)
        g_error ("case %u: \"%s\" does not say \"%s\"", i, r.error, cases[i].message);
      g_assert_true (g_str_has_prefix (r.error, "test.txt:"));
      g_assert_false (g_str_has_prefix (r.error, "test.txt:0:"));
      result_clear (&r);
    }
}

static void
test_bva_errors (void)
{
  g_autofree char      *lf = make_bva (40, NULL, "\n");
  static const Breakage cases[] = {
    /* a bad number in the last segment, the first, the middle */
    { "Segment: RightArm", "100 100 100\n", "100 1x0 100\n", "expected a number" },
    { "Segment: Hips", "100 100 100\n", "100 100 100 5\n", "expected 9 values" },
    { "Segment: Head", "-6.75", "nan", "not a finite number" },
    /* a frame line too few, in the first segment and in the last */
    { "Segment: Hips", "Frames: 40", "Frames: 41", "has only 40 frame lines" },
    { "Segment: RightArm", "Frames: 40", "Frames: 41", "the file ends after 40" },
    /* a frame line too many */
    { "Segment: Chest", "Frames: 40", "Frames: 39", "more frame lines than the 39" },
    /* headers */
    { "Segment: Head", "Frame Time: 0.033333", "Frame Time: 0.04", "all segments must share" },
    { "Segment: LeftArm", "Segment: LeftArm", "Segment: Chest", "already used" },
    { "Segment: Chest", "DEGREES DEGREES PERCENT", "DEGREES FEET PERCENT", "unit \"FEET\"" },
    { "Segment: Hips", "Frames: 40", "Frames: 4000000000", "says 4000000000" },
    /* text before the first segment */
    { "Segment: Hips", "Segment: Hips", "hello\nSegment: Hips", "expected \"Segment: NAME\"" },
    /* a header line where a frame line should be */
    { "Segment: Head", "2.000002", "Segment: Extra", "has only 2 frame lines" },
  };

  check_breakages (odori_bva_load_text, lf, cases, G_N_ELEMENTS (cases));

  /* A lone CR before a header, in a file of LF lines, is a blank (docs/formats.md), not a
   * line end: the header is read, and alike on one thread and on several (the parallel
   * reader hands such a file to the sequential one; fuzz-bva). */
  {
    g_autofree char *cr = replace_after (lf, "Segment: Chest", "Segment: LeftArm",
                                         "\rSegment: LeftArm");
    Result r = check_same (odori_bva_load_text, cr, FALSE);

    g_assert_null (r.error);
    g_assert_cmpuint (r.motion->n_segments, ==, G_N_ELEMENTS (seg_names));
    result_clear (&r);
  }
}

/* BVH */

static char *
make_bvh (guint       n_frames,
          const char *eol)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s,
                          "HIERARCHY%sROOT Hips%s{%s OFFSET 0 0 0%s"
                          " CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation%s"
                          " JOINT Chest%s {%s  OFFSET 0 10 0%s  CHANNELS 3 Zrotation Xrotation Yrotation%s"
                          "  JOINT Head%s  {%s   OFFSET 0 8 1%s   CHANNELS 3 Zrotation Xrotation Yrotation%s"
                          "   End Site%s   {%s    OFFSET 0 3 0%s   }%s  }%s }%s}%s"
                          "MOTION%sFrames: %u%sFrame Time: 0.008333%s",
                          eol, eol, eol, eol, eol, eol, eol, eol, eol, eol, eol, eol, eol, eol,
                          eol, eol, eol, eol, eol, eol, eol, n_frames, eol, eol);
  for (guint f = 0; f < n_frames; f++)
    g_string_append_printf (s, "%u.5 %d.25 -%u.125 %u.5 -%u.25 %u.75 %u 0.5 -1.5 %u.0625 %u %u.5%s",
                            f % 100, (int) f - 300, f % 7, (f * 7) % 360, (f * 3) % 90,
                            (f * 11) % 180, f % 45, (f * 5) % 90, f % 30, f % 12, eol);
  return g_string_free (s, FALSE);
}

static void
test_bvh_valid (void)
{
  g_autofree char *lf = make_bvh (600, "\n");
  g_autofree char *crlf = make_bvh (600, "\r\n");
  g_autofree char *cr = make_bvh (600, "\r");
  g_autofree char *trailing = g_strconcat (lf, "\n \n\t\n", NULL);
  g_autofree char *one = make_bvh (1, "\n");
  g_autofree char *none = make_bvh (0, "\n");
  Result           r;

  r = check_same (odori_bvh_load_text, lf, TRUE);
  g_assert_cmpuint (r.motion->n_frames, ==, 600);
  g_assert_cmpuint (r.motion->n_segments, ==, 3);
  result_clear (&r);
  r = check_same (odori_bvh_load_text, crlf, TRUE);
  result_clear (&r);
  r = check_same (odori_bvh_load_text, cr, TRUE);
  g_assert_cmpuint (r.motion->n_frames, ==, 600);
  result_clear (&r);
  r = check_same (odori_bvh_load_text, trailing, TRUE);
  result_clear (&r);
  /* too few lines to split: the sequential reader reads them */
  r = check_same (odori_bvh_load_text, one, FALSE);
  g_assert_cmpuint (r.motion->n_frames, ==, 1);
  result_clear (&r);
  r = check_same (odori_bvh_load_text, none, FALSE);
  g_assert_cmpuint (r.motion->n_frames, ==, 0);
  result_clear (&r);

  /* a blank line among the frames is tolerated, sequentially */
  {
    g_autofree char *blank = replace_after (lf, "Frame Time", "\n50.5 -150.25", "\n\n50.5 -150.25");

    r = check_same (odori_bvh_load_text, blank, FALSE);
    g_assert_cmpuint (r.motion->n_frames, ==, 600);
    result_clear (&r);
  }
}

static void
test_bvh_errors (void)
{
  g_autofree char      *lf = make_bvh (600, "\n");
  static const Breakage cases[] = {
    { "Frame Time", "\n50.5 ", "\n5x.5 ", "a channel value" },
    { "Frame Time", "\n99.5 ", "\n99.5 1 ", "expected 12 channel values, got 13" },
    { "Frame Time", "\n0.5 ", "\n", "frame 1: expected 12 channel values, got 11" },
    { "HIERARCHY", "Frames: 600", "Frames: 601", "the file ends after 600" },
    { "HIERARCHY", "Frames: 600", "Frames: 599", "600 frame lines follow" },
    { "Frame Time", "\n10.5 ", "\n1e300 ", "ends up at" },
  };

  check_breakages (odori_bvh_load_text, lf, cases, G_N_ELEMENTS (cases));
}

/* The NUL and ASCII checks of a file being opened, on several threads: the first NUL
 * wins wherever it is, and a non-ASCII byte in any part makes the file UTF-8 or Shift_JIS
 * as on one thread. */
static void
open_with (const char    *text,
           gsize          len,
           guint          n_threads,
           char         **message,
           OdoriEncoding *encoding,
           char         **data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = NULL;

  odori_text_set_test_load_threads (n_threads);
  file = odori_text_file_new_from_data ("scan.txt", text, len, &error);
  odori_text_set_test_load_threads (0);
  *message = error ? g_strdup (error->message) : NULL;
  *encoding = file ? odori_text_file_get_encoding (file) : ODORI_ENCODING_UTF8;
  if (file != NULL)
    {
      gsize       n;
      const char *d = odori_text_file_get_data (file, &n);

      *data = g_strndup (d, n);
    }
  else
    *data = NULL;
}

static void
test_scan (void)
{
  const gsize      len = 20000;
  g_autofree char *base = g_malloc (len);
  struct
  {
    gsize         at;
    const char   *bytes;
    gsize         n;
    const char   *message;
    OdoriEncoding encoding;
  } cases[] = {
    { 0, "", 0, NULL, ODORI_ENCODING_UTF8 },
    { 19990, "\0", 1, "NUL", 0 },
    { 7000, "\0", 1, "NUL", 0 },
    { 15000, "\xe8\x88\x9e", 3, NULL, ODORI_ENCODING_UTF8 },  /* UTF-8 */
    { 15000, "\x95\x91", 2, NULL, ODORI_ENCODING_SHIFT_JIS }, /* Shift_JIS */
  };

  for (gsize i = 0; i < len; i++)
    base[i] = i % 50 == 49 ? '\n' : "0123456789 .-"[i % 13];
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *text = g_memdup2 (base, len);
      g_autofree char *m1 = NULL, *d1 = NULL;
      OdoriEncoding    e1;

      memcpy (text + cases[c].at, cases[c].bytes, cases[c].n);
      /* a second NUL later must not win */
      if (cases[c].message != NULL)
        text[len - 3] = '\0';
      open_with (text, len, 1, &m1, &e1, &d1);
      if (cases[c].message != NULL)
        g_assert_nonnull (strstr (m1, cases[c].message));
      else
        {
          g_assert_null (m1);
          g_assert_cmpint (e1, ==, cases[c].encoding);
        }
      for (guint t = 2; t <= 5; t++)
        {
          g_autofree char *m2 = NULL, *d2 = NULL;
          OdoriEncoding    e2;

          open_with (text, len, t, &m2, &e2, &d2);
          g_assert_cmpstr (m2, ==, m1);
          g_assert_cmpint (e2, ==, e1);
          g_assert_cmpstr (d2, ==, d1);
        }
    }
}

/* Without forcing, only big files take the parallel path. */
static void
test_threads_by_size (void)
{
  if (g_getenv ("ODORI_LOAD_THREADS") == NULL)
    {
      g_assert_cmpuint (odori_text_load_threads (1000), ==, 1);
      g_assert_cmpuint (odori_text_load_threads (64u << 20), ==,
                        CLAMP (g_get_num_processors (), 1, 8));
    }
  odori_text_set_test_load_threads (3);
  g_assert_cmpuint (odori_text_load_threads (1000), ==, 3);
  odori_text_set_test_load_threads (0);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/bva/valid", test_bva_valid);
  g_test_add_func ("/parallel/bva/errors", test_bva_errors);
  g_test_add_func ("/parallel/bvh/valid", test_bvh_valid);
  g_test_add_func ("/parallel/bvh/errors", test_bvh_errors);
  g_test_add_func ("/parallel/scan", test_scan);
  g_test_add_func ("/parallel/threads-by-size", test_threads_by_size);
  return g_test_run ();
}
