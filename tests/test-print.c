/* test-print.c: the printed score: PDFs of the sample and of a score with music, Japanese
 * names and modifiers, read back with poppler-utils (pdftotext, pdfinfo, pdfimages,
 * pdftoppm) as a user's tools read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-beat-grid.h"
#include "odori-headless.h"
#include "odori-index.h"
#include "odori-print.h"
#include "odori-sample.h"
#include "odori-score.h"

static char *tmp_dir;

/* The sample symbols (each code appears in the sample score) */
static const char *sample_codes[] = { "C1", "C2", "W1", "S1", "S3", "T1", "MW.K1", "TE.K1", "R1" };

/* A poppler tool's output (stdout), or NULL when it is not installed (a failure under CI
 * or ODORI_TOOLS_REQUIRED). */
static char *
run_tool (const char *tool,
          ...)
{
  g_autofree char *path = g_find_program_in_path (tool);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  char       *out = NULL;
  int         status = 0;
  const char *arg;
  va_list     args;

  if (path == NULL)
    {
      if (g_getenv ("CI") != NULL || g_getenv ("ODORI_TOOLS_REQUIRED") != NULL)
        g_error ("%s is missing (Debian's poppler-utils, build-aux/deps)", tool);
      return NULL;
    }
  g_ptr_array_add (argv, path);
  va_start (args, tool);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", tool, err);
  return out;
}

static gboolean
have_poppler (void)
{
  g_autofree char *path = g_find_program_in_path ("pdftotext");

  if (path == NULL && (g_getenv ("CI") != NULL || g_getenv ("ODORI_TOOLS_REQUIRED") != NULL))
    g_error ("pdftotext is missing (Debian's poppler-utils, build-aux/deps)");
  if (path == NULL)
    g_test_skip ("pdftotext is not installed (Debian's poppler-utils)");
  return path != NULL;
}

static char *
pdf_text (const char *pdf)
{
  return run_tool ("pdftotext", "-enc", "UTF-8", pdf, "-", NULL);
}

static guint
pdf_pages (const char *pdf)
{
  g_autofree char *info = run_tool ("pdfinfo", pdf, NULL);
  const char      *line = strstr (info, "Pages:");

  g_assert_nonnull (line);
  return (guint) g_ascii_strtoull (line + 6 + strspn (line + 6, " "), NULL, 10);
}

/* The images in the PDF (pdfimages -list: two header lines, then one per image). */
static guint
pdf_images (const char *pdf)
{
  g_autofree char *list = run_tool ("pdfimages", "-list", pdf, NULL);
  g_auto (GStrv) lines = g_strsplit (list, "\n", -1);
  guint n = 0;

  for (guint i = 2; lines[i] != NULL; i++)
    if (*g_strstrip (lines[i]) != '\0')
      n++;
  return n;
}

/* odori-cli (ODORI_CLI) with ARGS; its exit status. */
static int
run_cli (char **err,
         ...)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  const char      *arg;
  int              status = 0;
  va_list          args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, err);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, &out, err, &status, &error));
  g_assert_no_error (error);
  return g_spawn_check_wait_status (status, NULL) ? 0 : WEXITSTATUS (status);
}

/* The sample library in DIR, one motion renamed (our own Japanese name). */
static char *
write_library (const char *name)
{
  g_autofree char *dir = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *dat = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;

  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (dat, &text, NULL, &error));
  s = g_string_new (text);
  g_assert_cmpuint (g_string_replace (s, "name=\"左右拍手 Side clap\"", "name=\"左右の手拍子 試し\"", 1), ==, 1);
  g_assert_true (g_file_set_contents (dat, s->str, s->len, &error));
  return g_steal_pointer (&dir);
}

/* A score of SECTIONS sections of 600 frames (20 s at 30 fps) with music at 120 beats per
 * minute, the downbeat half a second in (bars start at frames 16, 76, 136…), and every
 * kind of modifier. */
static char *
write_music_score (const char *dir,
                   const char *name,
                   guint       sections)
{
  static const struct
  {
    const char *header;
    const char *symbols[4]; /* "START SYMBOL MODS" with START within the section */
  } parts[] = {
    { "BD: Hips,Chest,Neck", { "1 S1 mirror", "193 W1 speed=0.5", "455 MW.K1", NULL } },
    { "HD: Neck,Head", { "1 C1 repeat=3", "300 C2 in=10 out=60", "455 MW.K1", NULL } },
    { "LA: Chest,LeftCollar,LeftUpArm,LeftLowArm,LeftHand", { "1 C1", "82 C2 mirror repeat=2", "455 TE.K1", NULL } },
    { "RA: Chest,RightCollar,RightUpArm,RightLowArm,RightHand", { "1 C1", "82 C2", "455 TE.K1 blend=8", NULL } },
    { "LL: Hips,LeftUpLeg,LeftLowLeg,LeftFoot", { "1 S1", "193 S3 speed=2", "455 R1", NULL } },
    { "RL: Hips,RightUpLeg,RightLowLeg,RightFoot", { "1 S1", "193 S3", "455 R1", NULL } },
  };
  g_autoptr(GString) s = g_string_new ("# Title: 稽古の譜 (Practice)\n"
                                        "# Author: 踊り手 花子\n"
                                        "# Date: 2026/12/01\n"
                                        "# Index: motion.dat\n"
                                        "# Tempo: 120\n"
                                        "# Downbeat: 0.5\n"
                                        "# Meter: 4\n");
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      g_string_append_printf (s, "%s\n", parts[p].header);
      for (guint k = 0; k < sections; k++)
        for (guint i = 0; parts[p].symbols[i] != NULL; i++)
          {
            g_auto (GStrv) f = g_strsplit (parts[p].symbols[i], " ", 2);

            g_string_append_printf (s, "%u: %s\n", (guint) g_ascii_strtoull (f[0], NULL, 10) + 600 * k, f[1]);
          }
    }
  g_assert_true (g_file_set_contents (path, s->str, s->len, &error));
  return g_steal_pointer (&path);
}

static OdoriPrint *
print_for (const char *score_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = odori_score_load (score_path, &error);
  g_autoptr(OdoriIndex) index = NULL;
  g_autofree char *index_path = NULL;

  g_assert_no_error (error);
  index_path = odori_score_dup_index_path (score);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  return odori_print_new (score, index, NULL);
}

/* odori-cli print of the built-in sample: title, every code, the Japanese names; the
 * paper sizes; thumbnails as images; page 1 as PNG. */
static void
test_cli_sample (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "sample", NULL);
  g_autofree char *score = g_build_filename (dir, "sample.dds", NULL);
  g_autofree char *pdf = g_build_filename (tmp_dir, "sample.pdf", NULL);
  g_autofree char *letter = g_build_filename (tmp_dir, "sample-letter.pdf", NULL);
  g_autofree char *bare = g_build_filename (tmp_dir, "sample-bare.pdf", NULL);
  g_autofree char *png_root = g_build_filename (tmp_dir, "sample-page", NULL);
  g_autofree char *png = g_build_filename (tmp_dir, "sample-page-1.png", NULL);
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autofree char *info = NULL;
  g_autofree char *ppm = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *rgba = NULL;
  int                width = 0, height = 0;
  gsize              inked = 0;

  if (!have_poppler ())
    return;
  g_assert_cmpint (run_cli (NULL, "sample", dir, NULL), ==, 0);
  g_assert_cmpint (run_cli (&err, "print", score, "-o", pdf, NULL), ==, 0);
  text = pdf_text (pdf);
  g_assert_nonnull (strstr (text, "春の小品 (Spring Sketch)"));
  g_assert_nonnull (strstr (text, "2026/11/29"));
  for (guint i = 0; i < G_N_ELEMENTS (sample_codes); i++)
    if (strstr (text, sample_codes[i]) == NULL)
      g_error ("symbol %s is not in the printed sample", sample_codes[i]);
  for (guint i = 0; i < 4; i++)
    {
      static const char *names[] = { "拍手", "ステップタッチ", "屈伸", "右腕" };

      if (strstr (text, names[i]) == NULL)
        g_error ("the name %s is not in the printed sample", names[i]);
    }
  info = run_tool ("pdfinfo", pdf, NULL);
  g_assert_nonnull (strstr (info, "595.276 x 841.89"));
  g_assert_cmpuint (pdf_images (pdf), >=, 5);

  g_assert_cmpint (run_cli (NULL, "print", score, "--paper", "letter", "--landscape", "-o", letter, NULL), ==, 0);
  g_clear_pointer (&info, g_free);
  info = run_tool ("pdfinfo", letter, NULL);
  g_assert_nonnull (strstr (info, "792 x 612"));

  g_assert_cmpint (run_cli (NULL, "print", score, "--no-thumbnails", "-o", bare, NULL), ==, 0);
  g_assert_cmpuint (pdf_images (bare), ==, 0);

  /* Usage errors */
  g_assert_cmpint (run_cli (NULL, "print", score, "--paper", "a5", "-o", pdf, NULL), ==, 2);
  g_assert_cmpint (run_cli (NULL, "print", score, "-o", png, NULL), ==, 2);
  g_assert_cmpint (run_cli (NULL, "print", score, NULL), ==, 2);

  /* Page 1 as a choreographer sees it (docs/screenshots/printed-score.png is one) */
  ppm = run_tool ("pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", pdf, png_root, NULL);
  rgba = odori_png_read_rgba (png, &width, &height, &error);
  g_assert_no_error (error);
  /* A4 at 80 dots per inch, rounded up by pdftoppm */
  g_assert_cmpint (ABS (width - 661), <=, 1);
  g_assert_cmpint (ABS (height - 935), <=, 1);
  for (gsize i = 0; i < (gsize) width * height; i++)
    if (rgba[4 * i] < 200 || rgba[4 * i + 1] < 200 || rgba[4 * i + 2] < 200)
      inked++;
  /* Blocks, rows and thumbnails: well above a page of text only */
  g_assert_cmpuint (inked, >, (gsize) width * height / 50);
}

/* A score with music, Japanese names and modifiers, through the API: the text, the
 * modifiers, page breaks on bars, and pages growing with the score. */
static void
test_music_mods (void)
{
  g_autofree char *dir = write_library ("music");
  g_autofree char *short_score = write_music_score (dir, "short.dds", 1);
  g_autofree char *long_score = write_music_score (dir, "long.dds", 4);
  g_autofree char *pdf = g_build_filename (tmp_dir, "music.pdf", NULL);
  g_autoptr(OdoriPrint) print = print_for (long_score);
  g_autoptr(OdoriPrint) short_print = print_for (short_score);
  g_autoptr(OdoriScore) score = odori_score_load (long_score, NULL);
  g_autoptr(OdoriBeatGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  double           width, height;
  guint            n_pages, n_short, bar_pages = 0;

  if (!have_poppler ())
    return;
  g_assert_cmpstr (odori_print_get_title (print), ==, "稽古の譜 (Practice)");
  odori_paper_get_size (ODORI_PAPER_A4, FALSE, &width, &height);
  g_assert_true (odori_print_write_pdf (print, pdf, width, height, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (odori_print_get_fraction (print), ==, 1);

  text = pdf_text (pdf);
  g_assert_nonnull (strstr (text, "稽古の譜 (Practice)"));
  g_assert_nonnull (strstr (text, "踊り手 花子"));
  g_assert_nonnull (strstr (text, "左右の手拍子 試し"));
  g_assert_nonnull (strstr (text, "拍手"));
  for (guint i = 0; i < G_N_ELEMENTS (sample_codes); i++)
    if (i != 5 && strstr (text, sample_codes[i]) == NULL) /* T1 is not in this score */
      g_error ("symbol %s is not in the printed score", sample_codes[i]);
  g_assert_nonnull (strstr (text, "⇋"));
  g_assert_nonnull (strstr (text, "speed 0.5"));
  g_assert_nonnull (strstr (text, "3 times"));
  g_assert_nonnull (strstr (text, "frames 10–60"));
  g_assert_nonnull (strstr (text, "120 beats per minute, 4 beats a bar"));

  /* Page breaks on bars: every page's first frame is frame 1 or a bar's first beat */
  grid = odori_beat_grid_new_for_music (&score->music, NULL, 1.0 / 30);
  n_pages = pdf_pages (pdf);
  g_assert_cmpuint (odori_print_paginate (print, width, height), ==, n_pages);
  for (guint p = 0; p < n_pages; p++)
    {
      guint             first, last;
      OdoriBeatPosition pos;

      if (!odori_print_get_page_frames (print, p, &first, &last))
        continue;
      g_assert_cmpuint (first, <=, last);
      if (first == 1)
        continue;
      g_assert_true (odori_beat_grid_position (grid, first, &pos));
      g_assert_cmpint (pos.frames_after, ==, 0);
      g_assert_cmpuint (pos.beat_in_bar, ==, 1);
      g_assert_cmpint ((first - 16) % 60, ==, 0);
      bar_pages++;
    }
  g_assert_cmpuint (bar_pages, >=, 2);

  /* Longer score, more pages (the same paper) */
  g_assert_true (odori_print_prepare (short_print, NULL, &error));
  g_assert_no_error (error);
  n_short = odori_print_paginate (short_print, width, height);
  g_assert_cmpuint (n_short, >=, 1);
  g_assert_cmpuint (n_pages, >=, n_short + 2);
  /* Landscape lays more time on a row: no more pages than portrait plus the legend */
  odori_paper_get_size (ODORI_PAPER_A4, TRUE, &width, &height);
  g_assert_cmpuint (odori_print_paginate (print, width, height), >=, 1);
}

static void
write_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GError **error = user_data;

  odori_print_write_pdf_finish (ODORI_PRINT (source), result, error);
  if (*error == NULL)
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NONE, "done");
}

/* Async writes the file; a cancelled one leaves no file; an unwritable target fails
 * with the path in its message. */
static void
test_async_cancel (void)
{
  g_autofree char *dir = write_library ("async");
  g_autofree char *score = write_music_score (dir, "a.dds", 1);
  g_autofree char *pdf = g_build_filename (tmp_dir, "async.pdf", NULL);
  g_autofree char *cancelled_pdf = g_build_filename (tmp_dir, "cancelled.pdf", NULL);
  g_autoptr(OdoriPrint) print = print_for (score);
  g_autoptr(OdoriPrint) print2 = print_for (score);
  g_autoptr(OdoriPrint) print3 = print_for (score);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  double width, height;

  odori_paper_get_size (ODORI_PAPER_LETTER, FALSE, &width, &height);
  odori_print_write_pdf_async (print, pdf, width, height, NULL, write_done_cb, &error);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NONE);
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpfloat (odori_print_get_fraction (print), ==, 1);
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  g_assert_false (odori_print_write_pdf (print2, cancelled_pdf, width, height, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_file_test (cancelled_pdf, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  g_assert_false (odori_print_write_pdf (print3, "/nonexistent-dir/x.pdf", width, height, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir"));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-print-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/share/print/cli-sample", test_cli_sample);
  g_test_add_func ("/share/print/music-modifiers", test_music_mods);
  g_test_add_func ("/share/print/async-cancel", test_async_cancel);
  status = g_test_run ();
  if (status == 0)
    {
      g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", tmp_dir);

      (void) !system (rm);
    }
  g_free (tmp_dir);
  return status;
}
