/* test-music.c: libodori-media on music the test makes itself: click tracks at known
 * tempi written as WAV, then encoded by GStreamer to Ogg Vorbis, FLAC, Opus and MP3 (each
 * where its encoder is installed); decoding, peaks, the peak cache, tempo and beats,
 * cancellation, errors and `odori-cli beats`. Suite 'media': no display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/audio/audio.h>
#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include "odori-media.h"

#define WAV_RATE 44100

static char *tmp_dir;

typedef struct
{
  const char *name;
  double      bpm;
  double      seconds;
  double      first; /* the first click (s) */
} Track;

static const Track tracks[] = {
  { "click120", 120.0, 24.0, 0.5 },
  { "click97", 97.0, 27.0, 0.75 },
};

typedef struct
{
  const char *ext;
  const char *encoder;   /* the factory that must exist */
  const char *pipeline;  /* after "filesrc ! wavparse ! audioconvert ! audioresample !" */
  gboolean    untrimmed; /* the file does not say how much priming to cut: MP3 */
} Format;

static const Format formats[] = {
  { "wav", NULL, NULL },
  { "flac", "flacenc", "flacenc ! filesink" },
  { "ogg", "vorbisenc", "vorbisenc ! oggmux ! filesink" },
  { "opus", "opusenc", "opusenc ! oggmux ! filesink" },
  { "mp3", "lamemp3enc", "lamemp3enc target=bitrate bitrate=192 ! xingmux ! filesink", TRUE },
};

/* The latency each encoder reported (s): its priming delay. Ogg (Vorbis granule
 * positions, Opus pre-skip) and FLAC let the decoder cut it; an MP3 without a LAME tag
 * does not, so its music starts this much late. */
static double encoder_latency[G_N_ELEMENTS (formats)];

static double
priming_delay (const Format *format)
{
  return format->untrimmed ? encoder_latency[format - formats] : 0;
}

/* A click: a decaying 2 kHz burst, 25 ms. */
static double
click_at (double dt)
{
  if (dt < 0 || dt > 0.025)
    return 0;
  return 0.8 * exp (-dt / 0.005) * sin (2 * G_PI * 2000 * dt);
}

static void
put_le (GByteArray *out,
        guint32     v,
        guint       bytes)
{
  for (guint i = 0; i < bytes; i++)
    {
      guint8 b = (v >> (8 * i)) & 0xff;
      g_byte_array_append (out, &b, 1);
    }
}

/* 16-bit stereo WAV at 44.1 kHz of TRACK (both channels alike). */
static void
write_clicks (const Track *track,
              const char  *path)
{
  guint n = (guint) (track->seconds * WAV_RATE);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (44 + 4 * n);
  double period = 60.0 / track->bpm;
  g_autoptr(GError) error = NULL;

  g_byte_array_append (out, (const guint8 *) "RIFF", 4);
  put_le (out, 36 + 4 * n, 4);
  g_byte_array_append (out, (const guint8 *) "WAVEfmt ", 8);
  put_le (out, 16, 4);
  put_le (out, 1, 2);
  put_le (out, 2, 2);
  put_le (out, WAV_RATE, 4);
  put_le (out, WAV_RATE * 4, 4);
  put_le (out, 4, 2);
  put_le (out, 16, 2);
  g_byte_array_append (out, (const guint8 *) "data", 4);
  put_le (out, 4 * n, 4);
  for (guint i = 0; i < n; i++)
    {
      double t = (double) i / WAV_RATE;
      double k = floor ((t - track->first) / period);
      double v = k < 0 ? 0 : click_at (t - (track->first + k * period));
      gint16 s = (gint16) lround (v * 32767);

      put_le (out, (guint16) s, 2);
      put_le (out, (guint16) s, 2);
    }
  g_assert_true (g_file_set_contents (path, (const char *) out->data, out->len, &error));
}

static gboolean
encoder_exists (const Format *format)
{
  g_autoptr(GstElementFactory) f = NULL;

  if (format->encoder == NULL)
    return TRUE;
  f = gst_element_factory_find (format->encoder);
  return f != NULL;
}

static double
encode (const char   *wav,
        const Format *format,
        const char   *out)
{
  g_autofree char *desc = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! audioconvert ! audioresample ! %s location=\"%s\"",
                                           wav, format->pipeline, out);
  g_autoptr(GError) error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error);
  double      latency = 0;
  g_autoptr(GstBus) bus = NULL;
  g_autoptr(GstMessage) msg = NULL;

  g_assert_no_error (error);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  {
    GstIterator *it = gst_bin_iterate_elements (GST_BIN (pipeline));
    GValue       v = G_VALUE_INIT;

    while (gst_iterator_next (it, &v) == GST_ITERATOR_OK)
      {
        GstElement *e = g_value_get_object (&v);

        if (GST_IS_AUDIO_ENCODER (e))
          {
            GstClockTime lo, hi;

            gst_audio_encoder_get_latency (GST_AUDIO_ENCODER (e), &lo, &hi);
            g_test_message ("%s reports a latency of %.3f ms", GST_OBJECT_NAME (e), lo / 1e6);
            latency = (double) lo / GST_SECOND;
          }
        g_value_reset (&v);
      }
    gst_iterator_free (it);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return latency;
}

/* The music file of TRACK in FORMAT, made once. */
static char *
music_path (const Track  *track,
            const Format *format)
{
  g_autofree char *wav_name = g_strconcat (track->name, ".wav", NULL);
  g_autofree char *wav = g_build_filename (tmp_dir, wav_name, NULL);
  g_autofree char *name = g_strconcat (track->name, ".", format->ext, NULL);
  char            *path = g_build_filename (tmp_dir, name, NULL);

  if (!g_file_test (wav, G_FILE_TEST_EXISTS))
    write_clicks (track, wav);
  if (format->encoder != NULL && !g_file_test (path, G_FILE_TEST_EXISTS))
    encoder_latency[format - formats] = encode (wav, format, path);
  return path;
}

static void
test_decode (gconstpointer data)
{
  const Format    *format = data;
  const Track     *track = &tracks[0];
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriAudio) audio = NULL;
  double duration;

  if (!encoder_exists (format))
    {
      g_test_skip ("no encoder");
      return;
    }
  path = music_path (track, format);
  audio = odori_audio_decode (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (odori_audio_get_rate (audio), ==, ODORI_AUDIO_RATE);
  duration = odori_audio_get_duration (audio);
  g_test_message ("%s: decoded %.4f s of %.4f s", format->ext, duration, track->seconds);
  /* WAV, FLAC, Vorbis and Opus are exact to a few samples; MP3 may pad a frame */
  g_assert_cmpfloat (fabs (duration - track->seconds - priming_delay (format)), <,
                     format->untrimmed ? 0.03 : 0.002);
}

static void
test_peaks (void)
{
  g_autofree char *path = music_path (&tracks[1], &formats[0]);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriAudio) audio = odori_audio_decode (path, NULL, NULL, NULL, &error);
  g_autoptr(OdoriWaveform) w = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  const float *s;
  gsize        n;
  float        lo, hi;

  g_assert_no_error (error);
  s = odori_audio_get_samples (audio, &n);
  w = odori_waveform_new_from_audio (audio);
  g_assert_cmpuint (odori_waveform_get_n_samples (w), ==, n);
  g_assert_false (odori_waveform_get_from_cache (w));
  for (guint trial = 0; trial < 2000; trial++)
    {
      gsize a = g_rand_int_range (rand, 0, (gint32) n);
      gsize len = trial % 3 == 0 ? g_rand_int_range (rand, 1, 300) : g_rand_int_range (rand, 1, (gint32) n);
      gsize b = MIN (n, a + len);
      gsize wa, wb;
      float blo = INFINITY, bhi = -INFINITY;

      if (trial % 2 == 0) /* aligned: exact */
        {
          a -= a % ODORI_WAVEFORM_BLOCK;
          b = b == n ? n : b - b % ODORI_WAVEFORM_BLOCK;
          if (b <= a)
            b = MIN (n, a + ODORI_WAVEFORM_BLOCK);
        }
      wa = a - a % ODORI_WAVEFORM_BLOCK;
      wb = MIN (n, (b + ODORI_WAVEFORM_BLOCK - 1) / ODORI_WAVEFORM_BLOCK * ODORI_WAVEFORM_BLOCK);
      for (gsize i = wa; i < wb; i++)
        {
          blo = MIN (blo, s[i]);
          bhi = MAX (bhi, s[i]);
        }
      g_assert_true (odori_waveform_get_peak (w, a, b, &lo, &hi));
      g_assert_cmpfloat (lo, ==, blo);
      g_assert_cmpfloat (hi, ==, bhi);
    }
  g_assert_true (odori_waveform_get_peak (w, 0, n, &lo, &hi));
  g_assert_cmpfloat (hi, >, 0.5);
  g_assert_cmpfloat (lo, <, -0.5);
  g_assert_false (odori_waveform_get_peak (w, n, n + 10, &lo, &hi));
  g_assert_false (odori_waveform_get_peak (w, 10, 10, &lo, &hi));
}

/* Detected beats against the clicks (less the priming DELAY of the file): tempo within
 * 1 %, every beat within 20 ms of a click, the downbeat on the first click, and nine in
 * ten clicks found. */
static void
check_beats (const Track    *track,
             const char     *label,
             double          delay,
             OdoriBeatTrack *beats)
{
  double               period = 60.0 / track->bpm;
  guint                n, matched = 0;
  guint                n_clicks = (guint) ceil ((track->seconds - track->first) / period);
  g_autofree gboolean *found = g_new0 (gboolean, n_clicks);
  const double        *t = odori_beat_track_get_times (beats, &n);
  double               tempo = odori_beat_track_get_tempo (beats), worst = 0, sum = 0;
  double               downbeat = odori_beat_track_get_downbeat (beats);

  for (guint i = 0; i < n; i++)
    {
      double k = round ((t[i] - delay - track->first) / period);
      double err = t[i] - delay - (track->first + k * period);

      sum += err;
      worst = MAX (worst, fabs (err));
      if (fabs (err) <= 0.020 && k >= 0 && k < n_clicks && !found[(guint) k])
        {
          found[(guint) k] = TRUE;
          matched++;
        }
    }
  g_test_message ("%s %s: tempo %.3f bpm (error %+.3f %%), downbeat %.3f s (first click %.3f s), "
                  "%u beats; less a priming delay of %.1f ms: mean error %+.1f ms, worst %.1f ms, "
                  "%u of %u clicks found",
                  track->name, label, tempo, 100 * (tempo - track->bpm) / track->bpm, downbeat,
                  track->first, n, 1000 * delay, 1000 * sum / MAX (n, 1), 1000 * worst, matched,
                  n_clicks);
  g_assert_cmpfloat (fabs (tempo - track->bpm) / track->bpm, <, 0.01);
  g_assert_cmpfloat (worst, <=, 0.020);
  g_assert_cmpuint (matched * 10, >=, n_clicks * 9);
  g_assert_cmpfloat (downbeat, ==, t[0]);
  g_assert_cmpfloat (fabs (downbeat - delay - track->first), <=, 0.020);
}

static void
test_beats (gconstpointer data)
{
  const Format *format = data;

  if (!encoder_exists (format))
    {
      g_test_skip ("no encoder");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (tracks); i++)
    {
      g_autofree char *path = music_path (&tracks[i], format);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriBeatTrack) beats = odori_beat_track_detect_file (path, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      check_beats (&tracks[i], format->ext, priming_delay (format), beats);
    }
}

static void
progress_cb (double   fraction,
             gpointer user_data)
{
  GArray *seen = user_data;

  g_array_append_val (seen, fraction);
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static OdoriWaveform *
load_async (const char *path,
            GArray     *seen)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  OdoriWaveform *w;

  odori_waveform_load_async (path, NULL, progress_cb, seen, load_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  w = odori_waveform_load_finish (result, &error);
  g_assert_no_error (error);
  return w;
}

static gint64
mtime_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
}

static void
assert_same_peaks (OdoriWaveform *a,
                   OdoriWaveform *b)
{
  gsize n = odori_waveform_get_n_samples (a);

  g_assert_cmpuint (odori_waveform_get_n_samples (b), ==, n);
  for (gsize s = 0; s < n; s += 1000)
    {
      float alo, ahi, blo, bhi;

      odori_waveform_get_peak (a, s, s + 3000, &alo, &ahi);
      odori_waveform_get_peak (b, s, s + 3000, &blo, &bhi);
      g_assert_cmpfloat (alo, ==, blo);
      g_assert_cmpfloat (ahi, ==, bhi);
    }
}

static void
test_cache (void)
{
  g_autofree char *path = music_path (&tracks[0], &formats[1]);
  g_autofree char *cache = odori_waveform_dup_cache_path (path);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(OdoriWaveform) first = NULL;
  g_autoptr(OdoriWaveform) second = NULL;
  g_autoptr(OdoriWaveform) third = NULL;
  g_autoptr(OdoriWaveform) fourth = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize            len;
  gint64           written, t0;

  g_assert_true (g_str_has_prefix (cache, tmp_dir));
  g_assert_true (strstr (cache, "/odori/waveforms/") != NULL);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));

  /* first open: decodes (with progress, in the caller's context) and writes the cache */
  first = load_async (path, seen);
  g_assert_false (odori_waveform_get_from_cache (first));
  g_assert_true (g_file_test (cache, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (seen->len, >=, 2);
  for (guint i = 1; i < seen->len; i++)
    g_assert_cmpfloat (g_array_index (seen, double, i), >=, g_array_index (seen, double, i - 1));
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);
  written = mtime_of (cache);

  /* second open: from the cache, nothing decoded, the file not rewritten */
  t0 = g_get_monotonic_time ();
  second = odori_waveform_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("cached open: %.2f ms", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_true (odori_waveform_get_from_cache (second));
  g_assert_cmpint (mtime_of (cache), ==, written);
  assert_same_peaks (first, second);

  /* a damaged cache (one byte of the peaks flipped, then cut short) is ignored and rewritten */
  g_assert_true (g_file_get_contents (cache, &data, &len, NULL));
  data[len / 2] ^= 0x40;
  g_assert_true (g_file_set_contents (cache, data, len, NULL));
  third = odori_waveform_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (odori_waveform_get_from_cache (third));
  assert_same_peaks (first, third);
  g_assert_true (g_file_set_contents (cache, data, len / 3, NULL));
  g_clear_pointer (&third, odori_waveform_unref);
  third = odori_waveform_load (path, NULL, NULL, NULL, &error);
  g_assert_false (odori_waveform_get_from_cache (third));
  fourth = odori_waveform_load (path, NULL, NULL, NULL, &error);
  g_assert_true (odori_waveform_get_from_cache (fourth));
  assert_same_peaks (first, fourth);
}

static void
cancel_progress_cb (double   fraction,
                    gpointer user_data)
{
  GCancellable *cancellable = user_data;

  if (fraction > 0.05 && !g_cancellable_is_cancelled (cancellable))
    g_cancellable_cancel (cancellable);
}

static void
test_cancel (void)
{
  /* 5 minutes of clicks: long enough that a whole decode takes far longer than a stop */
  const Track      long_track = { "long", 120.0, 300.0, 0.5 };
  g_autofree char *path = music_path (&long_track, &formats[1]);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriAudio) whole = NULL;
  OdoriAudio *audio;
  gint64      t0, full, stopped;

  t0 = g_get_monotonic_time ();
  whole = odori_audio_decode (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  full = g_get_monotonic_time () - t0;

  t0 = g_get_monotonic_time ();
  odori_audio_decode_async (path, cancellable, cancel_progress_cb, cancellable, load_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  audio = odori_audio_decode_finish (result, &error);
  stopped = g_get_monotonic_time () - t0;
  g_test_message ("whole decode %.0f ms; cancelled after 5 %%: returned after %.0f ms", full / 1000.0,
                  stopped / 1000.0);
  g_assert_null (audio);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (stopped, <, full / 2 + 100000);

  /* cancelled before it starts */
  g_clear_error (&error);
  audio = odori_audio_decode (path, cancellable, NULL, NULL, &error);
  g_assert_null (audio);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_errors (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "no-such-song.ogg", NULL);
  g_autofree char *text = g_build_filename (tmp_dir, "notes.mp3", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriAudio) audio = NULL;
  g_autoptr(OdoriWaveform) w = NULL;

  audio = odori_audio_decode (missing, NULL, NULL, NULL, &error);
  g_assert_null (audio);
  g_assert_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no-such-song.ogg"));
  g_test_message ("missing: %s", error->message);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (text, "These are not the notes you are looking for.\n", -1, NULL));
  w = odori_waveform_load (text, NULL, NULL, NULL, &error);
  g_assert_null (w);
  g_assert_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_AUDIO);
  g_assert_nonnull (strstr (error->message, "notes.mp3"));
  g_test_message ("not audio: %s", error->message);
  g_clear_error (&error);

  audio = odori_audio_decode (tmp_dir, NULL, NULL, NULL, &error);
  g_assert_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* ten seconds of silence have no tempo */
  {
    g_autoptr(OdoriAudio) silence = odori_audio_new_take (g_new0 (float, 10 * ODORI_AUDIO_RATE),
                                                           10 * ODORI_AUDIO_RATE, ODORI_AUDIO_RATE);
    g_autoptr(OdoriBeatTrack) none = odori_beat_track_detect (silence, NULL, &error);

    g_assert_null (none);
    g_assert_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NO_BEATS);
    g_test_message ("silence: %s", error->message);
  }
}

/* The async form: the same beats as the sync one, progress in this thread. */
static void
test_beats_async (void)
{
  g_autofree char *path = music_path (&tracks[1], &formats[2]);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriBeatTrack) sync = odori_beat_track_detect_file (path, NULL, NULL, NULL, &error);
  g_autoptr(OdoriBeatTrack) async = NULL;
  const double *a, *b;
  guint         na, nb;

  g_assert_no_error (error);
  odori_beat_track_detect_file_async (path, NULL, progress_cb, seen, load_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  async = odori_beat_track_detect_file_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seen->len, >=, 1);
  a = odori_beat_track_get_times (sync, &na);
  b = odori_beat_track_get_times (async, &nb);
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    g_assert_cmpfloat (a[i], ==, b[i]);
  g_assert_cmpfloat (odori_beat_track_get_tempo (sync), ==, odori_beat_track_get_tempo (async));
}

static char *
run_cli (const char *const *args,
         const char        *locale,
         int               *status)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("ODORI_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  env = g_environ_setenv (env, "LC_ALL", locale, TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, status, &error));
  g_assert_no_error (error);
  if (err != NULL && *err != '\0')
    g_test_message ("stderr: %s", err);
  return g_steal_pointer (&out);
}

static void
test_cli (void)
{
  g_autofree char *path = music_path (&tracks[0], &formats[0]);
  g_autofree char *missing = g_build_filename (tmp_dir, "gone.wav", NULL);
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray  *beats;
  int         status;

  if (g_getenv ("ODORI_CLI") == NULL)
    {
      g_test_skip ("ODORI_CLI is not set");
      return;
    }
  /* a comma-decimal locale must not change the numbers */
  text = run_cli ((const char *const[]){ "beats", path, NULL }, "de_DE.UTF-8", &status);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_test_message ("%.200s", text);
  g_assert_nonnull (strstr (text, "tempo 120.0"));
  g_assert_true (g_regex_match_simple ("^  [0-9]+\\.[0-9]{3}$", text, G_REGEX_MULTILINE, 0));
  g_assert_null (strstr (text, "0,5"));

  json = run_cli ((const char *const[]){ "beats", "--json", path, NULL }, "de_DE.UTF-8", &status);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "file"), ==, path);
  g_assert_cmpfloat (fabs (json_object_get_double_member (root, "tempo") - 120.0), <, 1.2);
  g_assert_cmpfloat (fabs (json_object_get_double_member (root, "duration") - 24.0), <, 0.01);
  beats = json_object_get_array_member (root, "beats");
  g_assert_cmpuint (json_array_get_length (beats), >=, 36);
  g_assert_cmpfloat (json_object_get_double_member (root, "downbeat"), ==,
                     json_array_get_double_element (beats, 0));

  g_free (run_cli ((const char *const[]){ "beats", missing, NULL }, "C.UTF-8", &status));
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_free (run_cli ((const char *const[]){ "beats", NULL }, "C.UTF-8", &status));
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 2);
}

/* `odori-cli check` decodes the score's music: a missing file is an error naming it; a
 * decodable one passes. */
static void
test_cli_check (void)
{
  g_autofree char *wav = music_path (&tracks[0], &formats[0]);
  g_autofree char *dir = g_build_filename (tmp_dir, "sample", NULL);
  g_autofree char *index = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *sample = g_build_filename (dir, "sample.dds", NULL);
  g_autofree char *good = g_build_filename (dir, "good.dds", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.dds", NULL);
  g_autofree char *score = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (g_getenv ("ODORI_CLI") == NULL)
    {
      g_test_skip ("ODORI_CLI is not set");
      return;
    }
  g_free (run_cli ((const char *const[]){ "sample", dir, NULL }, "C.UTF-8", &status));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (sample, &score, NULL, &error));
  g_assert_no_error (error);

  text = g_strdup_printf ("# Music: %s\n%s", wav, score);
  g_assert_true (g_file_set_contents (good, text, -1, &error));
  g_free (text);
  text = g_strdup_printf ("# Music: gone.ogg\n%s", score);
  g_assert_true (g_file_set_contents (bad, text, -1, &error));
  g_free (text);

  g_free (run_cli ((const char *const[]){ "check", index, good, NULL }, "C.UTF-8", &status));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  text = run_cli ((const char *const[]){ "check", "--json", index, bad, NULL }, "C.UTF-8", &status);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (text, "gone.ogg"));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache_home = NULL;
  int              status;

  tmp_dir = g_dir_make_tmp ("odori-music-XXXXXX", &error);
  g_assert_no_error (error);
  /* before anything asks GLib where the cache is */
  cache_home = g_build_filename (tmp_dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *decode = g_strdup_printf ("/media/decode/%s", formats[i].ext);
      g_autofree char *beats = g_strdup_printf ("/media/beats/%s", formats[i].ext);

      g_test_add_data_func (decode, &formats[i], test_decode);
      g_test_add_data_func (beats, &formats[i], test_beats);
    }
  g_test_add_func ("/media/peaks", test_peaks);
  g_test_add_func ("/media/cache", test_cache);
  g_test_add_func ("/media/beats-async", test_beats_async);
  g_test_add_func ("/media/cancel", test_cancel);
  g_test_add_func ("/media/errors", test_errors);
  g_test_add_func ("/media/cli", test_cli);
  g_test_add_func ("/media/cli-check", test_cli_check);
  status = g_test_run ();
  if (!g_getenv ("ODORI_KEEP_TMP"))
    {
      g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmp_dir);
      g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
    }
  g_free (tmp_dir);
  return status;
}
