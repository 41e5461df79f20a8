/* test-video.c: the dance as a WebM video (odori-cli render --video and OdoriVideo),
 * checked with the tools people use: gst-discoverer-1.0 for the streams, GStreamer's own
 * decoders for a frame (against odori-cli render --frame) and for the music's clicks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sample library (odori-cli sample) gives the dance; the music is a click track the
 * test writes itself (music-test-util.h). Suite 'share': no display (headless EGL).
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/gst.h>

#include "music-test-util.h"
#include "odori-compose.h"
#include "odori-headless.h"
#include "odori-index.h"
#include "odori-score.h"
#include "odori-share.h"
#include "odori-video.h"

#define CLICK_BPM   120.0
#define CLICK_FIRST 0.25

static char *libdir;

static int
run (char      **out,
     char      **err,
     const char *first,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("ODORI_CLI");
  int         status = 0;
  va_list     args;

  g_assert_nonnull (cli);
  g_clear_pointer (out, g_free);
  g_clear_pointer (err, g_free);
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, err,
                               &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static char *
lib_file (const char *name)
{
  return g_build_filename (libdir, name, NULL);
}

/* The sample score with the click track as its music at OFFSET (a new file NAME). */
static char *
score_with_music (const char *name,
                  const char *offset)
{
  g_autofree char *sample = lib_file ("sample.dds");
  g_autofree char *text = NULL;
  g_autofree char *path = lib_file (name);
  g_autofree char *music = lib_file ("clicks.wav");
  g_autoptr(GString) out = NULL;
  g_autoptr(GError) error = NULL;
  const char *blend;

  if (!g_file_test (music, G_FILE_TEST_EXISTS))
    music_test_write_clicks (music, 30, CLICK_BPM, CLICK_FIRST);
  g_assert_true (g_file_get_contents (sample, &text, NULL, &error));
  blend = strstr (text, "# Blend:");
  g_assert_nonnull (blend);
  blend = strchr (blend, '\n') + 1;
  out = g_string_new_len (text, blend - text);
  g_string_append_printf (out, "# Music: clicks.wav\n# MusicOffset: %s\n", offset);
  g_string_append (out, blend);
  g_assert_true (g_file_set_contents (path, out->str, out->len, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* gst-discoverer-1.0 -v, or NULL (the test then fails when the CI says it must be there,
 * else skips). */
static char *
discover (const char *path)
{
  g_autofree char *tool = g_find_program_in_path ("gst-discoverer-1.0");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (tool == NULL)
    {
      if (g_getenv ("CI") != NULL || g_getenv ("ODORI_TOOLS_REQUIRED") != NULL)
        g_error ("gst-discoverer-1.0 is missing (Debian's gstreamer1.0-plugins-base-apps, build-aux/deps)");
      return NULL;
    }
  const char *argv[] = { tool, "-v", path, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&out);
}

/* "Duration: 0:00:21.000000000" in seconds. */
static double
discovered_duration (const char *report)
{
  const char *at = strstr (report, "Duration: ");
  guint       h, m;
  double      s;

  g_assert_nonnull (at);
  g_assert_cmpint (sscanf (at, "Duration: %u:%u:", &h, &m), ==, 2);
  at += strlen ("Duration: ");
  at = strchr (strchr (at, ':') + 1, ':') + 1;
  s = g_ascii_strtod (at, NULL);
  return h * 3600.0 + m * 60.0 + s;
}

/* Decodes video frame FRAME (0-based, by its timestamp at FPS) as RGBA. */
static guint8 *
decode_frame (const char *path,
              guint       frame,
              int         fps_n,
              int         fps_d,
              int        *width,
              int        *height)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *description =
      g_strdup_printf ("uridecodebin uri=%s caps=video/x-raw ! videoconvert ! video/x-raw,format=RGBA ! "
                       "appsink name=sink sync=false",
                       uri);
  g_autoptr(GError) error = NULL;
  g_autoptr(GstElement) pipeline = gst_object_ref_sink (gst_parse_launch (description, &error));
  g_autoptr(GstElement) sink = NULL;
  guint8 *pixels = NULL;

  g_assert_no_error (error);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (;;)
    {
      g_autoptr(GstSample) sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
      GstBuffer    *buffer;
      GstStructure *s;
      GstMapInfo    map;
      guint64       index;

      g_assert_nonnull (sample); /* the frame must come before the end */
      buffer = gst_sample_get_buffer (sample);
      index = gst_util_uint64_scale_round (GST_BUFFER_PTS (buffer), fps_n, GST_SECOND * (guint64) fps_d);
      if (index < frame)
        continue;
      g_assert_cmpuint (index, ==, frame);
      s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
      g_assert_true (gst_structure_get_int (s, "width", width));
      g_assert_true (gst_structure_get_int (s, "height", height));
      g_assert_true (gst_buffer_map (buffer, &map, GST_MAP_READ));
      g_assert_cmpuint (map.size, ==, (gsize) *width * *height * 4);
      pixels = g_memdup2 (map.data, map.size);
      gst_buffer_unmap (buffer, &map);
      break;
    }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  return pixels;
}

static double
psnr (const guint8 *a,
      const guint8 *b,
      gsize         n_pixels)
{
  double sum = 0;

  for (gsize i = 0; i < n_pixels; i++)
    for (int c = 0; c < 3; c++)
      {
        double d = (double) a[4 * i + c] - b[4 * i + c];
        sum += d * d;
      }
  sum /= n_pixels * 3.0;
  return sum == 0 ? 99 : 10 * log10 (255.0 * 255.0 / sum);
}

/* The audio of PATH, mono at 48 kHz, from time 0. */
static GArray *
decode_audio (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *description =
      g_strdup_printf ("uridecodebin uri=%s caps=audio/x-raw ! audioconvert ! audioresample ! "
                       "audio/x-raw,format=F32LE,channels=1,rate=48000 ! appsink name=sink sync=false",
                       uri);
  g_autoptr(GError) error = NULL;
  g_autoptr(GstElement) pipeline = gst_object_ref_sink (gst_parse_launch (description, &error));
  g_autoptr(GstElement) sink = NULL;
  GArray  *out = g_array_new (FALSE, TRUE, sizeof (float));
  gboolean first = TRUE;

  g_assert_no_error (error);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (;;)
    {
      g_autoptr(GstSample) sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
      GstBuffer *buffer;
      GstMapInfo map;

      if (sample == NULL)
        break;
      buffer = gst_sample_get_buffer (sample);
      if (first && GST_BUFFER_PTS_IS_VALID (buffer))
        g_array_set_size (out, gst_util_uint64_scale_round (GST_BUFFER_PTS (buffer), 48000, GST_SECOND));
      first = FALSE;
      g_assert_true (gst_buffer_map (buffer, &map, GST_MAP_READ));
      g_array_append_vals (out, map.data, map.size / sizeof (float));
      gst_buffer_unmap (buffer, &map);
    }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  return out;
}

/* Every click of the decoded AUDIO is where the music puts it: music time t plays at
 * t - OFFSET (± 30 ms), and nothing else sounds. */
static void
check_clicks (GArray *audio,
              double  offset,
              double  duration)
{
  const float *x = (const float *) (void *) audio->data;
  double       period = 60.0 / CLICK_BPM;
  guint        found = 0, expected = 0;
  gsize        last_loud = 0;
  gboolean     any_loud = FALSE;
  double       worst = 0;

  for (double t = CLICK_FIRST; t - offset < duration - 0.05; t += period)
    if (t - offset >= 0.02)
      expected++;
  for (gsize i = 0; i < audio->len; i++)
    {
      if (fabs (x[i]) <= 0.2)
        continue;
      /* a click's onset: loud after 100 ms without anything loud */
      if (!any_loud || i - last_loud > 4800)
        {
          double at = (double) i / 48000;
          double k = round ((at + offset - CLICK_FIRST) / period);
          double want = CLICK_FIRST + k * period - offset;

          if (fabs (at - want) > 0.030)
            g_error ("a click at %.4f s in the video, the music puts the nearest at %.4f s", at, want);
          worst = MAX (worst, fabs (at - want));
          found++;
        }
      last_loud = i;
      any_loud = TRUE;
    }
  {
    float peak = 0;

    for (gsize i = 0; i < audio->len; i++)
      peak = MAX (peak, fabsf (x[i]));
    g_test_message ("%u clicks found, %u expected; %u samples, peak %.3f; farthest from the music's time: %.1f ms",
                    found, expected, audio->len, peak, worst * 1000);
  }
  g_assert_cmpuint (found, ==, expected);
}

/* The sample with its music: streams, duration and frame rate as gst-discoverer-1.0
 * reports them, the middle frame against odori-cli render --frame, the clicks in time. */
static void
check_video (const char *offset_text,
             double      offset,
             const char *size,
             const char *fps)
{
  g_autofree char   *score = NULL;
  g_autofree char   *name = g_strdup_printf ("music%s.dds", offset_text);
  g_autofree char   *video = NULL;
  g_autofree char   *png = NULL;
  g_autofree char   *decoded_png = NULL;
  g_autofree char   *out = NULL;
  g_autofree char   *err = NULL;
  g_autofree char   *report = NULL;
  g_autofree guint8 *decoded = NULL;
  g_autofree guint8 *drawn = NULL;
  g_autofree char   *frame_arg = NULL;
  g_autoptr(GArray) audio = NULL;
  g_autoptr(GError) error = NULL;
  int    width, height, w2, h2, fps_n = 30;
  guint  n_frames = 630, middle; /* the sample: 630 frames at 30 a second */
  double value, duration;

  score = score_with_music (name, offset_text);
  video = g_build_filename (libdir, "out", "dance.webm", NULL);
  g_assert_cmpint (g_mkdir_with_parents (libdir, 0755), ==, 0);
  {
    g_autofree char *out_dir = g_path_get_dirname (video);

    g_assert_cmpint (g_mkdir_with_parents (out_dir, 0755), ==, 0);
  }
  g_unlink (video);
  if (fps != NULL)
    g_assert_cmpint (run (&out, &err, "render", score, "--video", video, "--size", size, "--fps", fps, NULL), ==, 0);
  else
    g_assert_cmpint (run (&out, &err, "render", score, "--video", video, "--size", size, NULL), ==, 0);
  g_test_message ("%s", out);
  g_assert_true (g_file_test (video, G_FILE_TEST_IS_REGULAR));
  if (fps != NULL)
    {
      fps_n = atoi (fps);
      n_frames = (guint) round (630 / 30.0 * fps_n);
    }
  duration = n_frames / (double) fps_n;

  report = discover (video);
  if (report == NULL)
    {
      g_test_skip ("gst-discoverer-1.0 is not installed (gstreamer1.0-plugins-base-apps)");
      return;
    }
  g_assert_nonnull (strstr (report, "video/x-vp9"));
  g_assert_nonnull (strstr (report, "audio/x-opus"));
  g_assert_nonnull (strstr (report, "container #0: video/webm"));
  {
    g_autofree char *rate = g_strdup_printf ("framerate=(fraction)%d/1", fps_n);
    g_autofree char *dims = g_strdup_printf ("width=(int)%d, height=(int)%d", atoi (size), atoi (strchr (size, 'x') + 1));

    g_assert_nonnull (strstr (report, rate));
    g_assert_nonnull (strstr (report, dims));
  }
  value = discovered_duration (report);
  g_test_message ("discovered duration %.4f s, the dance lasts %.4f s", value, duration);
  g_assert_cmpfloat (fabs (value - duration), <, 0.5 / fps_n + 0.001);

  /* the middle frame, decoded, against the same frame drawn by odori-cli render */
  middle = n_frames / 2;
  decoded = decode_frame (video, middle, fps_n, 1, &width, &height);
  decoded_png = g_build_filename (libdir, "out", "middle-decoded.png", NULL);
  g_assert_true (odori_png_write_rgba (decoded_png, decoded, width, height, &error));
  png = g_build_filename (libdir, "out", "middle.png", NULL);
  /* video frame k shows motion frame round (k / fps · 30) + 1 */
  frame_arg = g_strdup_printf ("%u", (guint) floor (middle * 30.0 / fps_n + 0.5) + 1);
  g_assert_cmpint (run (&out, &err, "render", score, "--frame", frame_arg, "--size", size, "-o", png, NULL), ==, 0);
  drawn = odori_png_read_rgba (png, &w2, &h2, &error);
  g_assert_no_error (error);
  g_assert_cmpint (w2, ==, width);
  g_assert_cmpint (h2, ==, height);
  value = psnr (decoded, drawn, (gsize) width * height);
  g_test_message ("video frame %u against odori-cli render --frame %s: PSNR %.2f dB (%s)", middle, frame_arg, value,
                  decoded_png);
  g_assert_cmpfloat (value, >=, 30);

  audio = decode_audio (video);
  g_assert_cmpfloat (fabs (audio->len / 48000.0 - duration), <, 0.05);
  check_clicks (audio, offset, duration);
}

static void
test_video_music (void)
{
  check_video ("0.5", 0.5, "320x240", NULL);
}

static void
test_video_music_late (void)
{
  /* the music starts 1.5 s into the dance; 10 frames a second resampled from 30 */
  check_video ("-1.5", -1.5, "160x120", "10");
}

/* Cancelling leaves no file behind (neither the target nor a temporary one), and an
 * existing target is untouched. */
static void
cancel_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GError **error = user_data;

  g_assert_false (odori_video_run_finish (ODORI_VIDEO (source), result, error));
}

static void
test_video_cancel (void)
{
  g_autofree char *score_path = lib_file ("sample.dds");
  g_autofree char *index_path = lib_file ("motion.dat");
  g_autofree char *dir = g_build_filename (libdir, "cancel", NULL);
  g_autofree char *target = g_build_filename (dir, "dance.webm", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = odori_score_load (score_path, &error);
  g_autoptr(OdoriIndex) index = odori_index_load (index_path, &error);
  g_autoptr(OdoriComposer) composer = odori_composer_new (score, index, &error);
  g_autoptr(OdoriVideo) video = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GDir) listing = NULL;
  GError      *result = NULL;
  OdoriMotion *motion;
  double       seen = 0;
  const char  *entry;
  guint        n = 0;

  g_assert_no_error (error);
  motion = odori_composer_compose (composer, &error);
  g_assert_no_error (error);
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_set_contents (target, "old", -1, &error));

  video = odori_video_new (motion, target);
  odori_video_set_size (video, 160, 120);
  odori_video_run_async (video, cancellable, cancel_cb, &result);
  while (result == NULL)
    {
      g_main_context_iteration (NULL, FALSE);
      if (!g_cancellable_is_cancelled (cancellable) && odori_video_get_fraction (video) >= 0.2)
        {
          seen = odori_video_get_fraction (video);
          g_cancellable_cancel (cancellable);
        }
      g_usleep (2000);
    }
  g_test_message ("cancelled at %.3f", seen);
  g_assert_cmpfloat (seen, >, 0);
  g_assert_error (result, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&result);

  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((entry = g_dir_read_name (listing)) != NULL)
    {
      g_assert_cmpstr (entry, ==, "dance.webm");
      n++;
    }
  g_assert_cmpuint (n, ==, 1);
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (target, &text, NULL, &error));
    g_assert_cmpstr (text, ==, "old");
  }

  /* and a wrong size is refused before anything is written */
  odori_video_set_size (video, 161, 120);
  g_assert_false (odori_video_run (video, NULL, &error));
  g_assert_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED);
}

/* The frame mapping: the default rate is the motion's (at most 60), other rates show the
 * nearest motion frame. */
static void
test_video_rate (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = odori_motion_new (1, 121, 1 / 120.0, &error);
  g_autoptr(OdoriVideo) video = NULL;
  int n, d;

  g_assert_no_error (error);
  video = odori_video_new (motion, "/nonexistent/x.webm");
  odori_video_get_fps (video, &n, &d);
  g_assert_cmpint (n, ==, 60);
  g_assert_cmpint (d, ==, 1);
  g_assert_cmpuint (odori_video_get_n_frames (video), ==, 61);
  g_assert_cmpuint (odori_video_get_motion_frame (video, 60), ==, 120);
  odori_video_set_fps (video, 25, 1);
  g_assert_cmpuint (odori_video_get_n_frames (video), ==, 25);
  /* video frame 7 is at 0.28 s: motion frame 33.6 → 34 */
  g_assert_cmpuint (odori_video_get_motion_frame (video, 7), ==, 34);
  odori_video_set_fps (video, 30000, 1001);
  odori_video_get_fps (video, &n, &d);
  g_assert_cmpint (n, ==, 30000);
  g_assert_cmpint (d, ==, 1001);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int              status;

  g_test_init (&argc, &argv, NULL);
  gst_init (&argc, &argv);
  libdir = g_build_filename (g_get_tmp_dir (), "odori-test-video-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (libdir));
  if (run (&out, &err, "sample", libdir, NULL) != 0)
    g_error ("odori-cli sample failed: %s", err);

  g_test_add_func ("/share/video/rate", test_video_rate);
  g_test_add_func ("/share/video/music", test_video_music);
  g_test_add_func ("/share/video/music-late", test_video_music_late);
  g_test_add_func ("/share/video/cancel", test_video_cancel);
  status = g_test_run ();
  if (status == 0 && g_getenv ("ODORI_TEST_KEEP") == NULL)
    {
      g_autofree char *rm_out = NULL;
      const char      *argv_rm[] = { "rm", "-rf", libdir, NULL };

      g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &rm_out, NULL, NULL, NULL);
    }
  else
    g_printerr ("# the test's files are in %s\n", libdir);
  return status;
}
