/* bench-music.c: decoding music and computing its peaks, next to reading the file's bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes MINUTES (default 3) of 44.1 kHz 16-bit stereo WAV (a tone with clicks) into a
 * temporary folder, then takes the median of RUNS runs of:
 *   - the baseline: reading the WAV file's bytes (g_file_get_contents, page cache warm);
 *   - odori_audio_decode () + odori_waveform_new_from_audio ();
 *   - odori_waveform_load () from a warm cache (no decoding);
 * and prints each per minute of music and the ratio of decode + peaks to the baseline.
 *   bench-music [MINUTES]
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "odori-media.h"

#define RUNS 5

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
write_wav (const char *path,
           double      minutes)
{
  guint32 n = (guint32) (minutes * 60 * 44100);
  gsize   size = 44 + 4 * (gsize) n;
  guint8 *data = g_malloc (size);
  guint8  header[44] = "RIFF....WAVEfmt ";
  gint16 *pcm = (gint16 *) (void *) (data + 44);
  guint32 v;

  memcpy (data, header, 16);
  v = GUINT32_TO_LE (36 + 4 * n), memcpy (data + 4, &v, 4);
  v = GUINT32_TO_LE (16), memcpy (data + 16, &v, 4);
  data[20] = 1, data[21] = 0, data[22] = 2, data[23] = 0;
  v = GUINT32_TO_LE (44100), memcpy (data + 24, &v, 4);
  v = GUINT32_TO_LE (44100 * 4), memcpy (data + 28, &v, 4);
  data[32] = 4, data[33] = 0, data[34] = 16, data[35] = 0;
  memcpy (data + 36, "data", 4);
  v = GUINT32_TO_LE (4 * n), memcpy (data + 40, &v, 4);
  for (guint32 i = 0; i < n; i++)
    {
      double t = i / 44100.0, beat = fmod (t, 0.5);
      double x = 0.3 * sin (2 * G_PI * 220 * t) + (beat < 0.02 ? 0.5 * exp (-beat / 0.004) : 0);
      gint16 s = GINT16_TO_LE ((gint16) lround (x * 32767));

      pcm[2 * i] = s;
      pcm[2 * i + 1] = s;
    }
  if (!g_file_set_contents (path, (const char *) data, size, NULL))
    g_error ("cannot write %s", path);
  g_free (data);
}

static double
run_read (const char *path)
{
  gint64 t0 = g_get_monotonic_time ();
  char  *data = NULL;
  gsize  len = 0;

  if (!g_file_get_contents (path, &data, &len, NULL))
    g_error ("cannot read %s", path);
  g_free (data);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
run_decode (const char *path)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriAudio) audio = odori_audio_decode (path, NULL, NULL, NULL, &error);
  g_autoptr(OdoriWaveform) w = NULL;

  if (audio == NULL)
    g_error ("%s", error->message);
  w = odori_waveform_new_from_audio (audio);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
run_cached (const char *path)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriWaveform) w = odori_waveform_load (path, NULL, NULL, NULL, &error);

  if (w == NULL || !odori_waveform_get_from_cache (w))
    g_error ("the cached open decoded");
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
median_of (double (*run) (const char *),
           const char *path)
{
  double times[RUNS];

  for (guint i = 0; i < RUNS; i++)
    times[i] = run (path);
  qsort (times, RUNS, sizeof (double), compare_double);
  return times[RUNS / 2];
}

int
main (int   argc,
      char *argv[])
{
  double           minutes = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 3.0;
  g_autofree char *dir = g_dir_make_tmp ("odori-bench-music-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autofree char *wav = g_build_filename (dir, "music.wav", NULL);
  g_autoptr(OdoriWaveform) first = NULL;
  double read, decode, cached;

  if (dir == NULL || minutes <= 0 || minutes > 60)
    return 2;
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gst_init (&argc, &argv);
  write_wav (wav, minutes);
  run_read (wav);
  first = odori_waveform_load (wav, NULL, NULL, NULL, NULL); /* writes the cache */
  read = median_of (run_read, wav) / minutes;
  decode = median_of (run_decode, wav) / minutes;
  cached = median_of (run_cached, wav) / minutes;
  printf ("music: %.1f min of 44.1 kHz 16-bit stereo WAV, median of %d runs, per minute of music:\n",
          minutes, RUNS);
  printf ("  reading the WAV's bytes      %8.2f ms\n", 1000 * read);
  printf ("  decode + peaks (22050 Hz)    %8.2f ms  (%.1f x reading)\n", 1000 * decode, decode / read);
  printf ("  peaks from the cache         %8.3f ms\n", 1000 * cached);
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL);
  }
  return 0;
}
