/* bench-parse.c: parsing throughput and peak memory, next to a strtod baseline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-parse gen-bva FILE MB     write a ~MB megabyte BVA (deterministic)
 *   bench-parse gen-bvh FILE MB     write a ~MB megabyte BVH
 *   bench-parse odori FILE          parse FILE with Odori's reader
 *   bench-parse strtod FILE         the naive C loop: strtod over every number
 *   bench-parse newline FILE        the limit: count newlines in the mapped file
 *
 * Each measuring mode prints one line "mode bytes seconds MB/s maxrss_kb values" and is
 * meant to run in its own process so that maxrss is its own.
 */
#include "config.h"

#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "odori-format.h"
#include "odori-text.h"

static const char *names[] = {
  "Hips", "Chest", "Neck", "Head", "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
  "RightCollar", "RightUpArm", "RightLowArm", "RightHand", "LeftUpLeg", "LeftLowLeg",
  "LeftFoot", "RightUpLeg", "RightLowLeg", "RightFoot",
};
#define N_SEG G_N_ELEMENTS (names)

static double
value (guint frame,
       guint seg,
       guint k)
{
  return 40.0 * sin (frame * 0.013 + seg * 0.7 + k * 1.3) + (k < 3 ? 10.0 * seg : 0.0);
}

static int
gen_bva (const char *path,
         guint       mb)
{
  /* one frame line of 9 values is about 95 bytes */
  guint frames = (guint) ((guint64) mb * 1000000 / (N_SEG * 95));
  g_autoptr(GError) error = NULL;
  OdoriOutput *out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);

  if (out == NULL)
    g_error ("%s", error->message);
  for (guint s = 0; s < N_SEG; s++)
    {
      odori_output_printf (out, "Segment:\t%s\nFrames:\t%u\nFrame Time:\t0.008333\n", names[s], frames);
      odori_output_text (out, "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"
                              "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n");
      for (guint f = 0; f < frames; f++)
        {
          for (guint k = 0; k < 6; k++)
            {
              odori_output_fixed (out, value (f, s, k), 6);
              odori_output_char (out, ' ');
            }
          odori_output_text (out, "100.000000 100.000000 100.000000\n");
        }
    }
  if (!odori_output_commit (out, &error))
    g_error ("%s", error->message);
  odori_output_free (out);
  return 0;
}

static int
gen_bvh (const char *path,
         guint       mb)
{
  /* 18 joints: root 6 channels, others 3: 57 values of ~10 bytes a frame */
  guint frames = (guint) ((guint64) mb * 1000000 / 570);
  g_autoptr(GError) error = NULL;
  OdoriOutput *out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);
  guint n_values = 6 + 3 * (N_SEG - 1);

  if (out == NULL)
    g_error ("%s", error->message);
  odori_output_text (out, "HIERARCHY\n");
  /* a simple chain keeps the generator short; the reader does the same work per joint */
  for (guint s = 0; s < N_SEG; s++)
    {
      odori_output_printf (out, "%*s%s %s\n%*s{\n", (int) s, "", s == 0 ? "ROOT" : "JOINT", names[s], (int) s, "");
      odori_output_printf (out, "%*s  OFFSET 0.000000 %u.000000 0.000000\n", (int) s, "", s == 0 ? 0 : 5);
      if (s == 0)
        odori_output_printf (out, "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n");
      else
        odori_output_printf (out, "%*s  CHANNELS 3 Zrotation Xrotation Yrotation\n", (int) s, "");
    }
  odori_output_printf (out, "%*sEnd Site\n%*s{\n%*s  OFFSET 0.000000 3.000000 0.000000\n%*s}\n",
                       (int) N_SEG, "", (int) N_SEG, "", (int) N_SEG, "", (int) N_SEG, "");
  for (guint s = N_SEG; s > 0; s--)
    odori_output_printf (out, "%*s}\n", (int) s - 1, "");
  odori_output_printf (out, "MOTION\nFrames: %u\nFrame Time: 0.008333\n", frames);
  for (guint f = 0; f < frames; f++)
    {
      for (guint v = 0; v < n_values; v++)
        {
          odori_output_fixed (out, value (f, v / 3, v % 3), 6);
          odori_output_char (out, v + 1 < n_values ? ' ' : '\n');
        }
    }
  if (!odori_output_commit (out, &error))
    g_error ("%s", error->message);
  odori_output_free (out);
  return 0;
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static long
maxrss_kb (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static gsize
file_size (const char *path)
{
  struct stat st;

  if (stat (path, &st) != 0)
    g_error ("cannot stat %s", path);
  return st.st_size;
}

static void
report (const char *mode,
        const char *path,
        double      seconds,
        guint64     values)
{
  gsize bytes = file_size (path);

  printf ("%s %zu %.6f %.1f %ld %" G_GUINT64_FORMAT "\n", mode, bytes, seconds,
          bytes / 1e6 / seconds, maxrss_kb (), values);
}

static int
run_odori (const char *path)
{
  g_autoptr(GError) error = NULL;
  double t0 = now ();
  g_autoptr(OdoriMotion) motion = odori_format_load_motion (path, NULL, &error);
  double t1 = now ();

  if (motion == NULL)
    g_error ("%s", error->message);
  report ("odori", path, t1 - t0, (guint64) motion->n_frames * motion->n_segments * 9);
  return 0;
}

static const char *
map_file (const char *path,
          gsize      *len)
{
  int fd = open (path, O_RDONLY);
  void *map;

  *len = file_size (path);
  map = mmap (NULL, *len + 1, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    g_error ("cannot map %s", path);
  return map;
}

/* What a C programmer writes first: skip anything that cannot start a number, strtod
 * the rest. Header words are skipped the same way. */
static int
run_strtod (const char *path)
{
  gsize len;
  double t0 = now ();
  const char *p = map_file (path, &len);
  const char *end = p + len;
  double sum = 0;
  guint64 values = 0;

  while (p < end)
    {
      char *next;
      double v;

      if (!(g_ascii_isdigit (*p) || *p == '-' || *p == '.'))
        {
          p++;
          continue;
        }
      v = strtod (p, &next);
      if (next == p)
        {
          p++;
          continue;
        }
      sum += v;
      values++;
      p = next;
    }
  report ("strtod", path, now () - t0, values);
  if (sum == 1.2345)
    printf ("unlikely\n");
  return 0;
}

static int
run_newline (const char *path)
{
  gsize len;
  double t0 = now ();
  const char *p = map_file (path, &len);
  const char *end = p + len;
  guint64 lines = 0;

  while ((p = memchr (p, '\n', end - p)) != NULL)
    {
      lines++;
      p++;
    }
  report ("newline", path, now () - t0, lines);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C");

  if (argc == 4 && strcmp (argv[1], "gen-bva") == 0)
    return gen_bva (argv[2], atoi (argv[3]));
  if (argc == 4 && strcmp (argv[1], "gen-bvh") == 0)
    return gen_bvh (argv[2], atoi (argv[3]));
  if (argc == 3 && strcmp (argv[1], "odori") == 0)
    return run_odori (argv[2]);
  if (argc == 3 && strcmp (argv[1], "strtod") == 0)
    return run_strtod (argv[2]);
  if (argc == 3 && strcmp (argv[1], "newline") == 0)
    return run_newline (argv[2]);

  fprintf (stderr, "usage: bench-parse gen-bva|gen-bvh FILE MB | odori|strtod|newline FILE\n");
  return 2;
}
