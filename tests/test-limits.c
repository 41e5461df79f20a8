/* test-limits.c: hostile sizes are refused quickly, with a clear error and bounded memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each case runs in a fresh subprocess (g_test_trap_subprocess), so that the peak
 * resident size it reaches (getrusage ru_maxrss) belongs to that case alone: the growth
 * over the subprocess's start is asserted to stay below a bound (3x the input for the
 * 100 MB lines, a few MB for tiny files that announce huge counts). That is a memory
 * bound, not a timing; a quadratic reader would hit meson's timeout instead.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "odori-bulge.h"
#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-index.h"
#include "odori-joints.h"
#include "odori-kbs.h"
#include "odori-score.h"
#include "odori-sensor-csv.h"
#include "odori-skeleton.h"

#define MB        (1024 * 1024)
#define LONG_LINE ((gsize) 100 * MB)

static char *tmp_dir;

/* Helpers */

static gsize
peak_rss (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  return (gsize) usage.ru_maxrss * 1024; /* Linux reports kilobytes */
}

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

static void
write_all (int         fd,
           const char *data,
           gsize       len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      data += n;
      len -= n;
    }
}

/* A file HEAD + SIZE bytes made of PATTERN repeated + TAIL, written in 1 MB pieces so
 * that the test itself never holds the whole line in memory. */
static char *
write_long_line_file (const char *name,
                      const char *head,
                      const char *pattern,
                      gsize       size,
                      const char *tail)
{
  char            *path = g_build_filename (tmp_dir, name, NULL);
  gsize            plen = strlen (pattern);
  gsize            chunk_len = (MB / plen) * plen;
  g_autofree char *chunk = g_malloc (chunk_len);
  int              fd;

  for (gsize i = 0; i < chunk_len; i += plen)
    memcpy (chunk + i, pattern, plen);

  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  write_all (fd, head, strlen (head));
  for (gsize done = 0; done < size; done += chunk_len)
    write_all (fd, chunk, MIN (chunk_len, size - done));
  write_all (fd, tail, strlen (tail));
  g_assert_cmpint (close (fd), ==, 0);
  return path;
}

/* The message of a refused hostile input: starts with "PATH:LINE: " and stays short
 * (a reader that quotes the offending text must cut it). */
static void
assert_clear_message (const GError *error,
                      const char   *path,
                      guint         line)
{
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);

  g_printerr ("# %s\n", error->message);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_cmpuint (strlen (error->message), <, 1000);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

/* AddressSanitizer keeps freed blocks in its quarantine (256 MiB by default) instead of
 * reusing them: a buffer that grows by doubling leaves its smaller copies there. */
#if defined(__SANITIZE_ADDRESS__)
#define QUARANTINE_BYTES ((gsize) 256 << 20)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QUARANTINE_BYTES ((gsize) 256 << 20)
#endif
#endif
#ifndef QUARANTINE_BYTES
#define QUARANTINE_BYTES ((gsize) 0)
#endif

static void
assert_growth_below (gsize before,
                     gsize bound)
{
  gsize after = peak_rss ();
  gsize growth = after > before ? after - before : 0;

  /* Under ASan: its quarantine, and its shadow memory (an eighth of what is mapped). */
  if (QUARANTINE_BYTES > 0)
    bound += QUARANTINE_BYTES + bound / 8;
  /* On stderr: g_test_message() is silent in a subprocess. */
  g_printerr ("# %s: peak RSS grew by %" G_GSIZE_FORMAT " kB (bound %" G_GSIZE_FORMAT " kB)\n",
              g_test_get_path (), growth / 1024, bound / 1024);
  g_assert_cmpuint (growth, <, bound);
}

/* Runs the current test's body (when in the subprocess) or spawns it and asserts that it
 * passed. Returns TRUE in the subprocess. */
static gboolean
in_subprocess (void)
{
  if (g_test_subprocess ())
    return TRUE;
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  return FALSE;
}

/* Billions of frames announced by a small file */

static void
test_bva_frames_4e9 (void)
{
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;

  if (!in_subprocess ())
    return;

  path = write_tmp ("billions.bva",
                    "Segment:\tHips\n"
                    "Frames:\t4000000000\n"
                    "Frame Time:\t0.033333\n"
                    "XTRAN\tYTRAN\tZTRAN\n"
                    "INCHES\tINCHES\tINCHES\n"
                    "1 2 3\n"
                    "4 5 6\n",
                    -1);
  before = peak_rss ();
  motion = odori_bva_load (path, NULL, &error);
  g_assert_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_TRUNCATED);
  g_assert_null (motion);
  assert_clear_message (error, path, 7);
  g_assert_nonnull (strstr (error->message, "2 of the 4000000000 frames"));
  assert_growth_below (before, 8 * MB);
}

/* Several segments announcing 4e9 frames each: the total is bounded by the file size
 * before anything is allocated. */
static void
test_bva_frames_4e9_many_segments (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;

  if (!in_subprocess ())
    return;

  for (int i = 0; i < 50; i++)
    g_string_append_printf (text, "Segment:\tS%d\nFrames:\t4000000000\nFrame Time:\t0.01\n"
                                  "XTRAN\nINCHES\n1\n",
                            i);
  path = write_tmp ("billions-many.bva", text->str, text->len);
  before = peak_rss ();
  motion = odori_bva_load (path, NULL, &error);
  g_assert_null (motion);
  g_assert_nonnull (error);
  g_assert_true (error->domain == ODORI_BVA_ERROR);
  g_assert_true (error->code == ODORI_BVA_ERROR_TRUNCATED || error->code == ODORI_BVA_ERROR_COUNT);
  g_assert_nonnull (strstr (error->message, "4000000000"));
  assert_growth_below (before, 8 * MB);
}

static void
test_bvh_frames_4e9 (void)
{
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;

  if (!in_subprocess ())
    return;

  path = write_tmp ("billions.bvh",
                    "HIERARCHY\n"
                    "ROOT Hips\n"
                    "{\n"
                    "  OFFSET 0 0 0\n"
                    "  CHANNELS 3 Xposition Yposition Zposition\n"
                    "  End Site\n"
                    "  {\n"
                    "    OFFSET 0 1 0\n"
                    "  }\n"
                    "}\n"
                    "MOTION\n"
                    "Frames: 4000000000\n"
                    "Frame Time: 0.033333\n"
                    "1 2 3\n"
                    "4 5 6\n",
                    -1);
  before = peak_rss ();
  motion = odori_bvh_load (path, NULL, &error);
  g_assert_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED);
  g_assert_null (motion);
  assert_clear_message (error, path, 15);
  g_assert_nonnull (strstr (error->message, "4000000000"));
  assert_growth_below (before, 8 * MB);
}

/* Beyond 32 bits: not a count at all. */
static void
test_bvh_frames_2e19 (void)
{
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;

  path = write_tmp ("huge.bvh",
                    "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n"
                    "  CHANNELS 3 Xposition Yposition Zposition\n}\n"
                    "MOTION\nFrames: 20000000000000000000\nFrame Time: 0.033333\n1 2 3\n",
                    -1);
  motion = odori_bvh_load (path, NULL, &error);
  g_assert_null (motion);
  g_assert_nonnull (error);
  g_assert_true (error->domain == ODORI_BVH_ERROR);
  assert_clear_message (error, path, 8);
}

/* Names up to 1024 bytes load; one byte more is refused, quoting nothing of it. */
static void
test_name_limit (void)
{
  for (guint len = 1023; len <= 1025; len++)
    {
      g_autofree char *name = g_strnfill (len, 'n');
      g_autofree char *bva = g_strdup_printf ("Segment:\t%s\nFrames:\t1\nFrame Time:\t0.01\n"
                                              "XTRAN\nINCHES\n1\n",
                                              name);
      g_autofree char *bvh = g_strdup_printf ("HIERARCHY\nROOT %s\n{\n  OFFSET 0 0 0\n"
                                              "  CHANNELS 1 Xposition\n}\nMOTION\nFrames: 1\n"
                                              "Frame Time: 0.01\n1\n",
                                              name);
      g_autofree char *bva_path = write_tmp ("name.bva", bva, -1);
      g_autofree char *bvh_path = write_tmp ("name.bvh", bvh, -1);
      g_autoptr(OdoriMotion) from_bva = NULL;
      g_autoptr(OdoriMotion) from_bvh = NULL;
      g_autoptr(GError) bva_error = NULL;
      g_autoptr(GError) bvh_error = NULL;

      from_bva = odori_bva_load (bva_path, NULL, &bva_error);
      from_bvh = odori_bvh_load (bvh_path, NULL, &bvh_error);
      if (len <= 1024)
        {
          g_assert_no_error (bva_error);
          g_assert_no_error (bvh_error);
          g_assert_cmpstr (from_bva->segments[0].name, ==, name);
          g_assert_cmpstr (from_bvh->segments[0].name, ==, name);
        }
      else
        {
          g_assert_error (bva_error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX);
          g_assert_error (bvh_error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX);
          assert_clear_message (bva_error, bva_path, 1);
          assert_clear_message (bvh_error, bvh_path, 2);
          g_assert_nonnull (strstr (bva_error->message, "1025 bytes"));
          g_assert_nonnull (strstr (bvh_error->message, "1025 bytes"));
        }
    }
}

/* Values beyond 1e15 (what BVA holds): a BVH whose offsets add up beyond it, a CSV cell
 * (found by fuzz-bvh and fuzz-sensor-csv: the BVH's BVA export did not load; a float
 * quaternion component became inf). */
static void
test_value_range (void)
{
  g_autofree char *bvh_path = write_tmp ("far.bvh",
                                         "HIERARCHY\nROOT a\n{\n  OFFSET 0 0 0\n"
                                         "  CHANNELS 3 Xposition Yposition Zposition\n"
                                         "  JOINT b\n  {\n    OFFSET 0 0 900000000000000\n"
                                         "    End Site\n    {\n      OFFSET 0 0 1\n    }\n"
                                         "  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.01\n"
                                         "0 0 0\n0 0 200000000000000\n",
                                         -1);
  g_autofree char *csv_path = write_tmp ("far.csv",
                                         "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,"
                                         "Quaternion:Hip-Y,Quaternion:Hip-Z\n"
                                         "0,1,0,0,0\n0.01,0.9,1e49,0.1,0\n",
                                         -1);
  g_autoptr(OdoriMotion) motion = NULL;
  OdoriCapture *capture;
  g_autoptr(GError) error = NULL;

  motion = odori_bvh_load (bvh_path, NULL, &error);
  g_assert_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_NUMBER);
  g_assert_null (motion);
  /* Frame 1 holds (9e14 is within); frame 2 moves b to 1.1e15. */
  assert_clear_message (error, bvh_path, 19);
  g_assert_nonnull (strstr (error->message, "frame 2: joint \"b\""));
  g_clear_error (&error);

  capture = odori_sensor_csv_load (csv_path, NULL, NULL, &error);
  g_assert_error (error, ODORI_SENSOR_CSV_ERROR, ODORI_SENSOR_CSV_ERROR_NUMBER);
  g_assert_null (capture);
  assert_clear_message (error, csv_path, 3);
  g_assert_nonnull (strstr (error->message, "out of range"));
}

/* 100 MB lines */

typedef struct
{
  const char *name;
  const char *head;
  const char *pattern;
  const char *tail;
  guint       line; /* line of the error, 0 if the file may load */
} LongLine;

static void
check_long_line (const LongLine *c,
                 gpointer (*load) (const char *path, GError **error),
                 void (*unref) (gpointer),
                 GQuark domain)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  gpointer result;
  gsize    before;
  gint64   start;

  if (!in_subprocess ())
    return;

  path = write_long_line_file (c->name, c->head, c->pattern, LONG_LINE, c->tail);
  before = peak_rss ();
  start = g_get_monotonic_time ();
  result = load (path, &error);
  g_printerr ("# %s: %.2f s\n", c->name, (g_get_monotonic_time () - start) / 1e6);
  if (c->line == 0 && result != NULL)
    unref (result);
  else
    {
      g_assert_null (result);
      g_assert_nonnull (error);
      g_assert_true (error->domain == domain || error->domain == ODORI_TEXT_ERROR);
      if (c->line > 0)
        assert_clear_message (error, path, c->line);
    }
  assert_growth_below (before, 3 * LONG_LINE);
  g_unlink (path);
}

static gpointer
load_bva (const char *path,
          GError    **error)
{
  return odori_bva_load (path, NULL, error);
}

static gpointer
load_bvh (const char *path,
          GError    **error)
{
  return odori_bvh_load (path, NULL, error);
}

static gpointer
load_index (const char *path,
            GError    **error)
{
  return odori_index_load (path, error);
}

static gpointer
load_score (const char *path,
            GError    **error)
{
  return odori_score_load (path, error);
}

static gpointer
load_skeleton (const char *path,
               GError    **error)
{
  return odori_skeleton_load (path, error);
}

#define BVA_HEAD "Segment:\tHips\nFrames:\t2\nFrame Time:\t0.01\nXTRAN\tYTRAN\tZTRAN\n" \
                 "INCHES\tINCHES\tINCHES\n"

static const LongLine bva_lines[] = {
  /* 50 million values on a frame line of 3 */
  { "values.bva", BVA_HEAD, "1 ", "\n1 2 3\n", 6 },
  /* One number 100 MB long */
  { "digits.bva", BVA_HEAD, "1", " 2 3\n1 2 3\n", 6 },
  /* A segment name of 100 MB (names are limited to 1024 bytes) */
  { "name.bva", "Segment:\t", "n", "\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\nINCHES\n1\n", 1 },
  /* No line end at all */
  { "oneline.bva", "", "x", "", 1 },
};

static void
test_bva_long_line (gconstpointer data)
{
  check_long_line (data, load_bva, (void (*) (gpointer)) odori_motion_unref, ODORI_BVA_ERROR);
}

#define BVH_HEAD "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n"       \
                 "  CHANNELS 3 Xposition Yposition Zposition\n}\n" \
                 "MOTION\nFrames: 2\nFrame Time: 0.01\n"

static const LongLine bvh_lines[] = {
  { "values.bvh", BVH_HEAD, "1 ", "\n1 2 3\n", 10 },
  { "digits.bvh", BVH_HEAD, "1", " 2 3\n1 2 3\n", 10 },
  /* A joint name of 100 MB (names are limited to 1024 bytes) */
  { "name.bvh", "HIERARCHY\nROOT ", "n",
    "\n{\n  OFFSET 0 0 0\n  CHANNELS 1 Xposition\n}\nMOTION\nFrames: 1\nFrame Time: 0.01\n1\n",
    2 },
  /* A hierarchy line of 100 MB of tokens */
  { "tokens.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0 ", "0 ", "\n}\n", 4 },
  { "oneline.bvh", "", "x", "", 1 },
};

static void
test_bvh_long_line (gconstpointer data)
{
  check_long_line (data, load_bvh, (void (*) (gpointer)) odori_motion_unref, ODORI_BVH_ERROR);
}

/* motion.dat and DDS lines are limited to 64 KiB. */
static const LongLine index_lines[] = {
  /* A description of 100 MB */
  { "exp.dat", "begin class name=\"c\" code=\"c\"\n"
               "begin show name=\"s\" code=\"S\" file=\"s.bva\"\n"
               "motion name=\"m\" code=\"A1\" frame=1-2 exp=\"",
    "e",
    "\"\nend show\nend class\n", 3 },
  /* A map of 50 million sensors */
  { "map.dat", "define part name=\"p\" code=\"P\" map=\"", "s,", "\"\n", 1 },
  /* 100 MB of garbage on one line */
  { "garbage.dat", "# index\n", "x", "\n", 2 },
  { "oneline.dat", "", "=", "", 1 },
};

static void
test_index_long_line (gconstpointer data)
{
  check_long_line (data, load_index, (void (*) (gpointer)) odori_index_unref, ODORI_INDEX_ERROR);
}

static const LongLine score_lines[] = {
  /* A symbol of 100 MB */
  { "symbol.dds", "# Title: t\n# Author: a\n# Date: d\nHD: Body,Head\n1: ", "A", "\n", 5 },
  /* A part header with 50 million sensors */
  { "sensors.dds", "# Title: t\n# Author: a\n# Date: d\nHD: ", "s,", "s\n1: A1\n", 4 },
  /* A start frame of 100 MB of digits */
  { "start.dds", "# Title: t\n# Author: a\n# Date: d\nHD: Body\n", "9", ": A1\n", 5 },
  { "oneline.dds", "", "x", "", 1 },
};

static void
test_score_long_line (gconstpointer data)
{
  check_long_line (data, load_score, (void (*) (gpointer)) odori_score_unref, ODORI_SCORE_ERROR);
}

static gpointer
load_joints (const char *path,
             GError    **error)
{
  return odori_joints_load (path, NULL, NULL, error);
}

static gpointer
load_sensor_csv (const char *path,
                 GError    **error)
{
  return odori_sensor_csv_load (path, NULL, NULL, error);
}

static gpointer
load_kbs (const char *path,
          GError    **error)
{
  return odori_kbs_load (path, NULL, error);
}

static gpointer
load_bulge (const char *path,
            GError    **error)
{
  return odori_bulge_set_load (path, error);
}

#define JOINTS_FRAME " PELVIS 0 0 1 0 0 0 1\n TORSO 0 0 1.2 0 0 0 1\n"

static const LongLine joints_lines[] = {
  /* A joint line with 50 million numbers */
  { "values.txt", "NI_JOINTS_TEXT_FILE\n100\n PELVIS ", "1 ", "\n", 3 },
  /* A frame time of 100 MB of digits */
  { "time.txt", "NI_JOINTS_TEXT_FILE\n", "9", "\n" JOINTS_FRAME, 2 },
  /* A joint name of 100 MB */
  { "name.txt", "NI_JOINTS_TEXT_FILE\n100\n ", "N", " 0 0 1 0 0 0 1\n", 3 },
  /* A comment line of 100 MB between two frames: may load */
  { "comment.txt", "NI_JOINTS_TEXT_FILE\n100\n" JOINTS_FRAME, "c",
    "\n133\n" JOINTS_FRAME "166\n" JOINTS_FRAME, 0 },
  { "oneline.txt", "", "x", "", 1 },
};

static void
test_joints_long_line (gconstpointer data)
{
  check_long_line (data, load_joints, (void (*) (gpointer)) odori_capture_free,
                   ODORI_JOINTS_ERROR);
}

#define CSV_HEADER "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z"

static const LongLine csv_lines[] = {
  /* A header of 50 million columns (at most 10000) */
  { "columns.csv", CSV_HEADER, ",x", "\n0,1,0,0,0\n0.01,1,0,0,0\n", 1 },
  /* A data row of 50 million cells: those beyond the header's columns are ignored */
  { "cells.csv", CSV_HEADER "\n0,1,0,0,0", ",1", "\n", 0 },
  /* One cell of 100 MB of digits */
  { "digits.csv", CSV_HEADER "\n0,1,0,0,0\n0.01,", "1", ",0,0,0\n", 3 },
  /* A quoted header cell of 100 MB (column names are at most 1024 bytes) */
  { "quoted.csv", "\"", "q", "\",Quaternion:Hip-W\n0,1\n", 1 },
  { "oneline.csv", "", "x", "", 0 },
};

static void
test_sensor_csv_long_line (gconstpointer data)
{
  check_long_line (data, load_sensor_csv, (void (*) (gpointer)) odori_capture_free,
                   ODORI_SENSOR_CSV_ERROR);
}

/* KBS and KST files are refused beyond 1 MB, before parsing. */
static const LongLine kbs_lines[] = {
  { "bone.kbs", "<?xml version=\"1.0\"?>\n<KBS><FileInfo><kind>KinectBoneSettingFile</kind>"
                "</FileInfo><SKEL_TORSO><RDBBone>",
    "b", "</RDBBone></SKEL_TORSO></KBS>\n", 1 },
  { "bone.kst", "Rps2Qua:ConvSettingFile:ver1001:type01\r\n01SKEL_TORSO, \"", "b",
    "\", \"twist\"\r\n", 1 },
};

static void
test_kbs_long_line (gconstpointer data)
{
  check_long_line (data, load_kbs, (void (*) (gpointer)) odori_kbs_unref, ODORI_KBS_ERROR);
}

#define BULGE_SECTION "    angle: 0\n        0 0 0\n        1 1 0\n"

/* bulge_types lines are at most 64 KiB: a longer one is logged and skipped, and leaves
 * out the definition it is in (no complete definition left: ODORI_BULGE_ERROR_EMPTY). */
static const LongLine bulge_lines[] = {
  /* A bulge name of 100 MB */
  { "name.bulge", "bulge: \"", "n", "\" code: 1\n" BULGE_SECTION, 1 },
  /* A keypoint line of 50 million numbers */
  { "keypoint.bulge", "bulge: \"a\" code: 1\n    angle: 0\n        0 0 0\n        ", "1 ",
    "\n        1 1 0\n", 4 },
  /* 100 MB of garbage between two good definitions: both load */
  { "garbage.bulge", "bulge: \"a\" code: 1\n" BULGE_SECTION, "g",
    "\nbulge: \"b\" code: 2\n" BULGE_SECTION, 0 },
  { "oneline.bulge", "", "x", "", 1 },
};

static void
test_bulge_long_line (gconstpointer data)
{
  check_long_line (data, load_bulge, (void (*) (gpointer)) odori_bulge_set_unref,
                   ODORI_BULGE_ERROR);
}

/* The skeleton reader stops reading at 4 MB. */
static const LongLine skeleton_lines[] = {
  { "name.xml", "<odori-skeleton version=\"1\"><bone name=\"", "n", "\"/></odori-skeleton>\n",
    1 },
};

static void
test_skeleton_long_line (gconstpointer data)
{
  check_long_line (data, load_skeleton, (void (*) (gpointer)) odori_skeleton_unref,
                   ODORI_SKELETON_ERROR);
}

/* Deep nesting */

static void
test_bvh_deep (void)
{
  const guint depth = 100000;
  g_autoptr(GString) text = g_string_new ("HIERARCHY\nROOT j0\n{\n  OFFSET 0 0 0\n"
                                           "  CHANNELS 1 Xrotation\n");
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;

  if (!in_subprocess ())
    return;

  for (guint i = 1; i < depth; i++)
    g_string_append_printf (text, "JOINT j%u\n{\nOFFSET 0 1 0\nCHANNELS 1 Xrotation\n", i);
  for (guint i = 0; i < depth; i++)
    g_string_append (text, "}\n");
  g_string_append (text, "MOTION\nFrames: 0\nFrame Time: 0.01\n");
  path = write_tmp ("deep.bvh", text->str, text->len);

  before = peak_rss ();
  motion = odori_bvh_load (path, NULL, &error);
  g_assert_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TOO_DEEP);
  g_assert_null (motion);
  /* Joint jN starts on line 2 + 4 N; j256 would open the 257th level. */
  assert_clear_message (error, path, 2 + 4 * 256);
  g_assert_nonnull (strstr (error->message, "\"j256\""));
  assert_growth_below (before, 16 * MB);
}

/* Braces alone, without joints. */
static void
test_bvh_deep_braces (void)
{
  g_autoptr(GString) text = g_string_new ("HIERARCHY\nROOT j0\n");
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append (text, "{\n");
  path = write_tmp ("braces.bvh", text->str, text->len);
  motion = odori_bvh_load (path, NULL, &error);
  g_assert_null (motion);
  g_assert_nonnull (error);
  g_assert_true (error->domain == ODORI_BVH_ERROR);
  assert_clear_message (error, path, 4);
}

static void
test_skeleton_deep (void)
{
  g_autoptr(GString) text = g_string_new ("<odori-skeleton version=\"1\">");
  g_autofree char *path = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;

  if (!in_subprocess ())
    return;

  for (guint i = 0; i < 100000; i++)
    g_string_append (text, "<b>");
  for (guint i = 0; i < 100000; i++)
    g_string_append (text, "</b>");
  g_string_append (text, "</odori-skeleton>\n");
  path = write_tmp ("deep.xml", text->str, text->len);
  before = peak_rss ();
  skeleton = odori_skeleton_load (path, &error);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_null (skeleton);
  assert_clear_message (error, path, 1);
  assert_growth_below (before, 64 * MB);
}

/* XML bombs */

static const char billion_laughs[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE odori-skeleton [\n"
    " <!ENTITY lol \"lol\">\n"
    " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
    " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
    " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
    " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
    " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
    " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
    " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
    " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
    " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
    "]>\n"
    "<odori-skeleton version=\"1\"><bone name=\"&lol9;\"/></odori-skeleton>\n";

static void
test_skeleton_billion_laughs (void)
{
  g_autofree char *path = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(GError) error = NULL;
  gsize before;

  if (!in_subprocess ())
    return;

  path = write_tmp ("bomb.xml", billion_laughs, -1);
  before = peak_rss ();
  skeleton = odori_skeleton_load (path, &error);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_null (skeleton);
  /* Refused at the DOCTYPE, before any declaration is read. */
  assert_clear_message (error, path, 2);
  g_assert_nonnull (strstr (error->message, "entity"));
  assert_growth_below (before, 16 * MB);
}

/* One big entity referenced many times (quadratic blowup): refused the same way. */
static void
test_skeleton_quadratic_blowup (void)
{
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n"
                                           "<!DOCTYPE odori-skeleton [<!ENTITY a \"");
  g_autofree char *path = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < 50000; i++)
    g_string_append_c (text, 'a');
  g_string_append (text, "\">]>\n<odori-skeleton version=\"1\"><bone name=\"");
  for (int i = 0; i < 50000; i++)
    g_string_append (text, "&a;");
  g_string_append (text, "\"/></odori-skeleton>\n");
  path = write_tmp ("quadratic.xml", text->str, text->len);
  skeleton = odori_skeleton_load (path, &error);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_null (skeleton);
  assert_clear_message (error, path, 2);
}

/* An external entity would read a local file or the network: refused. */
static void
test_skeleton_external_entity (void)
{
  g_autofree char *secret = write_tmp ("secret.txt", "top secret", -1);
  g_autofree char *text = g_strdup_printf ("<?xml version=\"1.0\"?>\n"
                                           "<!DOCTYPE odori-skeleton [\n"
                                           "<!ENTITY xxe SYSTEM \"file://%s\">]>\n"
                                           "<odori-skeleton version=\"1\">"
                                           "<bone name=\"&xxe;\"/></odori-skeleton>\n",
                                           secret);
  g_autofree char *path = write_tmp ("xxe.xml", text, -1);
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(GError) error = NULL;

  skeleton = odori_skeleton_load (path, &error);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_null (skeleton);
  g_assert_null (strstr (error->message, "top secret"));
  assert_clear_message (error, path, 2);
}

/* The billion laughs and an external entity in a KBS: refused before any expansion. */
static void
test_kbs_xml_bomb (void)
{
  g_autofree char *xml = NULL;
  g_autofree char *path = NULL;
  g_autofree char *secret = write_tmp ("kbs-secret.txt", "top secret", -1);
  g_autofree char *xxe = g_strdup_printf ("<?xml version=\"1.0\"?>\n"
                                          "<!DOCTYPE KBS [<!ENTITY x SYSTEM \"file://%s\">]>\n"
                                          "<KBS><FileInfo><kind>KinectBoneSettingFile</kind>"
                                          "</FileInfo><SKEL_TORSO><RDBBone>&x;</RDBBone>"
                                          "</SKEL_TORSO></KBS>\n",
                                          secret);
  g_autofree char *xxe_path = write_tmp ("xxe.kbs", xxe, -1);
  g_autoptr(OdoriKbs) kbs = NULL;
  g_autoptr(GError) error = NULL;
  char *body;
  gsize before;

  if (!in_subprocess ())
    return;

  /* The skeleton's bomb, with the KBS root and a bone named &lol9; (3 GB expanded). */
  xml = g_strdup (billion_laughs);
  body = strstr (xml, "<odori-skeleton version");
  g_assert_nonnull (body);
  *body = '\0';
  path = g_strconcat (tmp_dir, "/bomb.kbs", NULL);
  {
    g_autofree char *text = g_strconcat (xml, "<KBS><FileInfo><kind>KinectBoneSettingFile"
                                              "</kind></FileInfo><SKEL_TORSO><RDBBone>&lol9;"
                                              "</RDBBone></SKEL_TORSO></KBS>\n",
                                         NULL);

    g_assert_true (g_file_set_contents (path, text, -1, NULL));
  }

  before = peak_rss ();
  kbs = odori_kbs_load (path, NULL, &error);
  g_assert_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_DTD);
  g_assert_null (kbs);
  assert_clear_message (error, path, 2);
  assert_growth_below (before, 16 * MB);
  g_clear_error (&error);

  kbs = odori_kbs_load (xxe_path, NULL, &error);
  g_assert_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_DTD);
  g_assert_null (kbs);
  g_assert_null (strstr (error->message, "top secret"));
  assert_clear_message (error, xxe_path, 2);
}

/* A file over the text layer's limit is refused from its size alone (sparse: no disk). */
static void
test_text_too_large (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "sparse.bva", NULL);
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  g_assert_cmpint (fd, >=, 0);
  if (ftruncate (fd, (off_t) 9 << 30) != 0)
    {
      close (fd);
      g_test_skip ("cannot make a sparse 9 GB file here");
      return;
    }
  close (fd);
  motion = odori_bva_load (path, NULL, &error);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_TOO_LARGE);
  g_assert_null (motion);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_unlink (path);
}

/* NUL bytes (binary data, UTF-16) are refused by the text layer with the position: C
 * strings would otherwise cut names at them (found by fuzz-bva, fuzz-index, fuzz-score). */
static void
test_text_nul (void)
{
  static const char data[] = "Segment:\tA\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\nINCHES\n1\0 2\n";
  g_autofree char  *path = write_tmp ("nul.bva", data, sizeof data - 1);
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;

  motion = odori_bva_load (path, NULL, &error);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING);
  g_assert_null (motion);
  assert_clear_message (error, path, 6);
  g_assert_nonnull (strstr (error->message, "column 2"));
}

static void
add_long_line_tests (const char     *reader,
                     const LongLine *cases,
                     gsize           n,
                     GTestDataFunc   func)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("/limits/%s/100mb-line/%s", reader, cases[i].name);

      g_test_add_data_func (name, &cases[i], func);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("odori-limits-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/limits/bva/frames-4e9", test_bva_frames_4e9);
  g_test_add_func ("/limits/bva/frames-4e9-many-segments", test_bva_frames_4e9_many_segments);
  g_test_add_func ("/limits/bvh/frames-4e9", test_bvh_frames_4e9);
  g_test_add_func ("/limits/bvh/frames-2e19", test_bvh_frames_2e19);
  add_long_line_tests ("bva", bva_lines, G_N_ELEMENTS (bva_lines), test_bva_long_line);
  add_long_line_tests ("bvh", bvh_lines, G_N_ELEMENTS (bvh_lines), test_bvh_long_line);
  add_long_line_tests ("index", index_lines, G_N_ELEMENTS (index_lines), test_index_long_line);
  add_long_line_tests ("score", score_lines, G_N_ELEMENTS (score_lines), test_score_long_line);
  add_long_line_tests ("skeleton", skeleton_lines, G_N_ELEMENTS (skeleton_lines),
                       test_skeleton_long_line);
  add_long_line_tests ("joints", joints_lines, G_N_ELEMENTS (joints_lines),
                       test_joints_long_line);
  add_long_line_tests ("sensor-csv", csv_lines, G_N_ELEMENTS (csv_lines),
                       test_sensor_csv_long_line);
  add_long_line_tests ("kbs", kbs_lines, G_N_ELEMENTS (kbs_lines), test_kbs_long_line);
  add_long_line_tests ("bulge", bulge_lines, G_N_ELEMENTS (bulge_lines), test_bulge_long_line);
  g_test_add_func ("/limits/kbs/xml-bomb", test_kbs_xml_bomb);
  g_test_add_func ("/limits/names/1024-bytes", test_name_limit);
  g_test_add_func ("/limits/values/1e15", test_value_range);
  g_test_add_func ("/limits/bvh/nested-100000", test_bvh_deep);
  g_test_add_func ("/limits/bvh/braces-100000", test_bvh_deep_braces);
  g_test_add_func ("/limits/skeleton/nested-100000", test_skeleton_deep);
  g_test_add_func ("/limits/skeleton/billion-laughs", test_skeleton_billion_laughs);
  g_test_add_func ("/limits/skeleton/quadratic-blowup", test_skeleton_quadratic_blowup);
  g_test_add_func ("/limits/skeleton/external-entity", test_skeleton_external_entity);
  g_test_add_func ("/limits/text/too-large", test_text_too_large);
  g_test_add_func ("/limits/text/nul-byte", test_text_nul);

  ret = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmp_dir, name, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
