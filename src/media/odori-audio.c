/* odori-audio.c: OdoriAudio, a music file decoded by GStreamer to mono float samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * uridecodebin ! audioconvert ! audioresample ! appsink (native float, 1 channel,
 * ODORI_AUDIO_RATE), pulled in the calling thread with a short timeout so that a
 * cancellation or a bus error is seen within tens of milliseconds.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/audio/audio.h>
#include <gst/gst.h>

#include "odori-media-private.h"

struct _OdoriAudio
{
  gatomicrefcount ref_count;
  guint           rate;
  gsize           n_samples;
  float          *samples;
};

G_DEFINE_BOXED_TYPE (OdoriAudio, odori_audio, odori_audio_ref, odori_audio_unref)

OdoriAudio *
odori_audio_new_take (float *samples,
                      gsize  n_samples,
                      guint  rate)
{
  OdoriAudio *audio;

  g_return_val_if_fail (rate > 0, NULL);
  g_return_val_if_fail (samples != NULL || n_samples == 0, NULL);
  audio = g_new0 (OdoriAudio, 1);
  g_atomic_ref_count_init (&audio->ref_count);
  audio->samples = samples;
  audio->n_samples = n_samples;
  audio->rate = rate;
  return audio;
}

OdoriAudio *
odori_audio_ref (OdoriAudio *audio)
{
  g_return_val_if_fail (audio != NULL, NULL);
  g_atomic_ref_count_inc (&audio->ref_count);
  return audio;
}

void
odori_audio_unref (OdoriAudio *audio)
{
  g_return_if_fail (audio != NULL);
  if (g_atomic_ref_count_dec (&audio->ref_count))
    {
      g_free (audio->samples);
      g_free (audio);
    }
}

guint
odori_audio_get_rate (const OdoriAudio *audio)
{
  g_return_val_if_fail (audio != NULL, 0);
  return audio->rate;
}

gsize
odori_audio_get_n_samples (const OdoriAudio *audio)
{
  g_return_val_if_fail (audio != NULL, 0);
  return audio->n_samples;
}

const float *
odori_audio_get_samples (const OdoriAudio *audio,
                         gsize            *n_samples)
{
  g_return_val_if_fail (audio != NULL, NULL);
  if (n_samples != NULL)
    *n_samples = audio->n_samples;
  return audio->samples;
}

double
odori_audio_get_duration (const OdoriAudio *audio)
{
  g_return_val_if_fail (audio != NULL, 0);
  return (double) audio->n_samples / audio->rate;
}

static gboolean
ensure_gst (GError **error)
{
  static gsize once = 0;
  static char *failure = NULL;

  if (g_once_init_enter (&once))
    {
      GError *local = NULL;

      if (!gst_init_check (NULL, NULL, &local))
        {
          failure = g_strdup (local != NULL ? local->message : "gst_init_check");
          g_clear_error (&local);
        }
      g_once_init_leave (&once, 1);
    }
  if (failure != NULL)
    {
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_AUDIO,
                   _("GStreamer cannot start: %s"), failure);
      return FALSE;
    }
  return TRUE;
}

/* A readable regular file, or NOT_FOUND naming it. */
static gboolean
check_file (const char *path,
            GError    **error)
{
  g_autofree char *display = g_filename_display_name (path);
  GStatBuf         st;
  int              saved;

  if (g_stat (path, &st) != 0 || g_access (path, R_OK) != 0)
    {
      saved = errno;
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_FOUND,
                   _("Cannot open the music file “%s”: %s"), display, g_strerror (saved));
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_FOUND,
                   _("Cannot open the music file “%s”: it is not a file"), display);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  GstElement *convert;
  gint        linked;   /* an audio pad reached audioconvert */
  gint        no_audio; /* all pads are out and none was audio */
} Links;

static void
pad_added_cb (GstElement *decodebin,
              GstPad     *pad,
              gpointer    user_data)
{
  Links *links = user_data;
  g_autoptr(GstCaps) caps = gst_pad_get_current_caps (pad);
  g_autoptr(GstPad) sink = NULL;
  const char *name;

  if (caps == NULL)
    caps = gst_pad_query_caps (pad, NULL);
  if (caps == NULL || gst_caps_is_empty (caps))
    return;
  name = gst_structure_get_name (gst_caps_get_structure (caps, 0));
  if (!g_str_has_prefix (name, "audio/x-raw"))
    return;
  sink = gst_element_get_static_pad (links->convert, "sink");
  if (!gst_pad_is_linked (sink) && GST_PAD_LINK_SUCCESSFUL (gst_pad_link (pad, sink)))
    g_atomic_int_set (&links->linked, 1);
}

static void
no_more_pads_cb (GstElement *decodebin,
                 gpointer    user_data)
{
  Links *links = user_data;

  if (!g_atomic_int_get (&links->linked))
    g_atomic_int_set (&links->no_audio, 1);
}

static GstElement *
make_pipeline (const char  *uri,
               Links       *links,
               GstAppSink **sink_out,
               GError     **error)
{
  GstElement *pipeline = gst_pipeline_new ("odori-audio-decode");
  GstElement *decode = gst_element_factory_make ("uridecodebin", NULL);
  GstElement *convert = gst_element_factory_make ("audioconvert", NULL);
  GstElement *resample = gst_element_factory_make ("audioresample", NULL);
  GstElement *sink = gst_element_factory_make ("appsink", NULL);
  g_autoptr(GstCaps) caps = NULL;
  g_autoptr(GstCaps) raw_audio = gst_caps_new_empty_simple ("audio/x-raw");

  if (decode == NULL || convert == NULL || resample == NULL || sink == NULL)
    {
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_AUDIO,
                   _("GStreamer lacks one of uridecodebin, audioconvert, audioresample, appsink "
                      "(gstreamer1.0-plugins-base)"));
      g_clear_pointer (&decode, gst_object_unref);
      g_clear_pointer (&convert, gst_object_unref);
      g_clear_pointer (&resample, gst_object_unref);
      g_clear_pointer (&sink, gst_object_unref);
      gst_object_unref (pipeline);
      return NULL;
    }
  caps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING, GST_AUDIO_NE (F32), "layout",
                              G_TYPE_STRING, "interleaved", "channels", G_TYPE_INT, 1, "rate",
                              G_TYPE_INT, ODORI_AUDIO_RATE, NULL);
  /* video streams stay undecoded: only audio is worth the work */
  g_object_set (decode, "uri", uri, "caps", raw_audio, NULL);
  g_object_set (sink, "caps", caps, "sync", FALSE, "max-buffers", 64, NULL);
  gst_bin_add_many (GST_BIN (pipeline), decode, convert, resample, sink, NULL);
  gst_element_link_many (convert, resample, sink, NULL);
  links->convert = convert;
  g_signal_connect (decode, "pad-added", G_CALLBACK (pad_added_cb), links);
  g_signal_connect (decode, "no-more-pads", G_CALLBACK (no_more_pads_cb), links);
  *sink_out = GST_APP_SINK (sink);
  return pipeline;
}

static void
set_gst_error (GError    **error,
               const char *path,
               GstMessage *message,
               int         code)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autoptr(GError) gst_error = NULL;
  g_autofree char *debug = NULL;

  gst_message_parse_error (message, &gst_error, &debug);
  g_debug ("%s: %s (%s)", display, gst_error->message, debug != NULL ? debug : "");
  g_set_error (error, ODORI_MEDIA_ERROR, code, _("Cannot decode the music file “%s”: %s"),
               display, gst_error->message);
}

static gboolean
append_sample (GstSample *sample,
               GArray    *out)
{
  GstBuffer *buffer = gst_sample_get_buffer (sample);
  GstMapInfo map;

  if (buffer == NULL || !gst_buffer_map (buffer, &map, GST_MAP_READ))
    return FALSE;
  g_array_append_vals (out, map.data, map.size / sizeof (float));
  gst_buffer_unmap (buffer, &map);
  return TRUE;
}

/* Pulls until end of stream, an error, or cancellation; returns the samples or NULL. */
static GArray *
pull_all (GstElement    *pipeline,
          GstAppSink    *sink,
          Links         *links,
          const char    *path,
          GCancellable  *cancellable,
          OdoriProgress *progress,
          GError       **error)
{
  g_autoptr(GstBus) bus = gst_element_get_bus (pipeline);
  g_autoptr(GArray) out = g_array_sized_new (FALSE, FALSE, sizeof (float), ODORI_AUDIO_RATE * 60);
  gint64 expected = 0;

  for (;;)
    {
      g_autoptr(GstMessage) message = NULL;
      GstSample *sample;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      message = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      if (message != NULL)
        {
          set_gst_error (error, path, message,
                         out->len > 0 ? ODORI_MEDIA_ERROR_DECODE : ODORI_MEDIA_ERROR_NOT_AUDIO);
          return NULL;
        }
      sample = gst_app_sink_try_pull_sample (sink, 40 * GST_MSECOND);
      if (sample != NULL)
        {
          append_sample (sample, out);
          gst_sample_unref (sample);
          if (expected <= 0)
            {
              gint64 duration = 0;

              if (gst_element_query_duration (pipeline, GST_FORMAT_TIME, &duration) && duration > 0)
                expected = gst_util_uint64_scale (duration, ODORI_AUDIO_RATE, GST_SECOND);
            }
          if (expected > 0)
            _odori_progress_set (progress, MIN (0.99, (double) out->len / expected));
          continue;
        }
      if (gst_app_sink_is_eos (sink))
        break;
      if (g_atomic_int_get (&links->no_audio))
        {
          g_autofree char *display = g_filename_display_name (path);

          g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_AUDIO,
                       _("Cannot decode the music file “%s”: it has no audio stream"), display);
          return NULL;
        }
    }
  if (out->len == 0)
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_AUDIO,
                   _("Cannot decode the music file “%s”: it has no audio stream"), display);
      return NULL;
    }
  return g_steal_pointer (&out);
}

OdoriAudio *
_odori_audio_decode (const char    *path,
                     GCancellable  *cancellable,
                     OdoriProgress *progress,
                     GError       **error)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GArray) samples = NULL;
  GstElement *pipeline;
  GstAppSink *sink = NULL;
  Links       links = { 0 };
  gsize       n;

  if (!check_file (path, error) || !ensure_gst (error))
    return NULL;
  file = g_file_new_for_path (path);
  uri = g_file_get_uri (file);
  pipeline = make_pipeline (uri, &links, &sink, error);
  if (pipeline == NULL)
    return NULL;
  _odori_progress_set (progress, 0.0);
  /* a failure to start is posted on the bus, where pull_all() finds it */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  samples = pull_all (pipeline, sink, &links, path, cancellable, progress, error);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  if (samples == NULL)
    return NULL;
  _odori_progress_set (progress, 1.0);
  n = samples->len;
  return odori_audio_new_take ((float *) (void *) g_array_free (g_steal_pointer (&samples), FALSE), n,
                               ODORI_AUDIO_RATE);
}

OdoriAudio *
odori_audio_decode (const char            *path,
                    GCancellable          *cancellable,
                    OdoriMediaProgressFunc progress,
                    gpointer               progress_data,
                    GError               **error)
{
  return _odori_media_run_sync (path, (OdoriMediaJobFunc) _odori_audio_decode, cancellable, progress,
                                progress_data, error);
}

void
odori_audio_decode_async (const char            *path,
                          GCancellable          *cancellable,
                          OdoriMediaProgressFunc progress,
                          gpointer               progress_data,
                          GAsyncReadyCallback    callback,
                          gpointer               user_data)
{
  g_return_if_fail (path != NULL);
  _odori_media_run_async (path, (OdoriMediaJobFunc) _odori_audio_decode,
                          (GDestroyNotify) odori_audio_unref, odori_audio_decode_async,
                          cancellable, progress, progress_data, callback, user_data);
}

OdoriAudio *
odori_audio_decode_finish (GAsyncResult *result,
                           GError      **error)
{
  return _odori_media_run_finish (result, odori_audio_decode_async, error);
}
