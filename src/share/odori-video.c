/* odori-video.c: a composed dance as a WebM video (VP9, with the score's music as Opus)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One worker thread does everything in order: it makes the headless GL context (which
 * is then its own), draws frame k, reads it back into a GstBuffer stamped k / fps and
 * pushes it into the video appsrc; then it pushes the music up to the end of that frame
 * into the audio appsrc. Keeping the two streams level that way lets webmmux interleave
 * them with small queues, and memory stays bounded by the encoder's lag. The music comes
 * from its own decoding pipeline (pulled from an appsink), counted in samples from the
 * file's first one (as OdoriAudio counts them for the waveform and the beats): video
 * sample p plays music sample p + offset · 48000, silence where there is no music (before
 * it starts, after it ends), and the audio stops where the dance does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/audio/audio.h>
#include <gst/gst.h>

#include "odori-headless.h"
#include "odori-media.h"
#include "odori-renderer.h"
#include "odori-share.h"
#include "odori-skeleton.h"
#include "odori-video.h"

/* Opus works at 48 kHz; stereo keeps a stereo recording's image. */
#define AUDIO_RATE     48000
#define AUDIO_CHANNELS 2
#define AUDIO_CHUNK    4096 /* frames of audio per buffer pushed */

struct _OdoriVideo
{
  GObject parent_instance;

  OdoriMotion   *motion;
  char          *path;
  int            width, height;
  OdoriView      view;
  OdoriUpAxis    up;
  int            samples;
  gboolean       show_skin;
  OdoriBulgeSet *bulges;
  int            fps_n, fps_d; /* as asked; 0: the default */
  char          *music_path;
  double         music_offset;
  gint           permille; /* atomic */
};

G_DEFINE_FINAL_TYPE (OdoriVideo, odori_video, G_TYPE_OBJECT)

static void
odori_video_finalize (GObject *object)
{
  OdoriVideo *self = ODORI_VIDEO (object);

  g_clear_pointer (&self->motion, odori_motion_unref);
  g_clear_pointer (&self->bulges, odori_bulge_set_unref);
  g_free (self->path);
  g_free (self->music_path);
  G_OBJECT_CLASS (odori_video_parent_class)->finalize (object);
}

static void
odori_video_class_init (OdoriVideoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_video_finalize;
}

static void
odori_video_init (OdoriVideo *self)
{
  self->width = ODORI_VIDEO_DEFAULT_WIDTH;
  self->height = ODORI_VIDEO_DEFAULT_HEIGHT;
  self->view = ODORI_VIEW_FRONT;
  self->up = ODORI_UP_AUTO;
  self->samples = 4;
  self->show_skin = TRUE;
  self->fps_d = 1;
}

OdoriVideo *
odori_video_new (OdoriMotion *motion,
                 const char  *path)
{
  OdoriVideo *self;

  g_return_val_if_fail (motion != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (ODORI_TYPE_VIDEO, NULL);
  self->motion = odori_motion_ref (motion);
  self->path = g_strdup (path);
  return self;
}

const char *
odori_video_get_path (OdoriVideo *self)
{
  g_return_val_if_fail (ODORI_IS_VIDEO (self), NULL);
  return self->path;
}

void
odori_video_set_size (OdoriVideo *self,
                      int         width,
                      int         height)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  self->width = width;
  self->height = height;
}

void
odori_video_set_view (OdoriVideo *self,
                      OdoriView   view)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  self->view = view;
}

void
odori_video_set_up_axis (OdoriVideo *self,
                         OdoriUpAxis up)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  self->up = up;
}

void
odori_video_set_samples (OdoriVideo *self,
                         int         samples)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  g_return_if_fail (samples >= 1);
  self->samples = samples;
}

void
odori_video_set_show_skin (OdoriVideo *self,
                           gboolean    show)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  self->show_skin = !!show;
}

void
odori_video_set_bulges (OdoriVideo    *self,
                        OdoriBulgeSet *bulges)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  if (bulges != NULL)
    odori_bulge_set_ref (bulges);
  g_clear_pointer (&self->bulges, odori_bulge_set_unref);
  self->bulges = bulges;
}

void
odori_video_set_fps (OdoriVideo *self,
                     int         fps_n,
                     int         fps_d)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  g_return_if_fail (fps_n >= 0 && fps_d >= 1);
  self->fps_n = fps_n;
  self->fps_d = fps_d;
}

void
odori_video_set_music (OdoriVideo *self,
                       const char *music_path,
                       double      offset)
{
  g_return_if_fail (ODORI_IS_VIDEO (self));
  g_return_if_fail (isfinite (offset));
  g_free (self->music_path);
  self->music_path = g_strdup (music_path);
  self->music_offset = offset;
}

double
odori_video_get_fraction (OdoriVideo *self)
{
  g_return_val_if_fail (ODORI_IS_VIDEO (self), 0);
  return g_atomic_int_get (&self->permille) / 1000.0;
}

static void
set_fraction (OdoriVideo *self,
              double      fraction)
{
  g_atomic_int_set (&self->permille, (gint) lround (CLAMP (fraction, 0, 1) * 1000));
}

/* Frame rate and frames ------------------------------------------------------------- */

/* The motion's rate as a fraction: whole (30/1), NTSC-like (30000/1001), else the
 * nearest fraction GStreamer finds. */
static void
motion_rate (const OdoriMotion *motion,
             int               *n,
             int               *d)
{
  double rate = motion->frame_time > 0 && isfinite (motion->frame_time) ? 1.0 / motion->frame_time : 30;
  double whole = round (rate), ntsc = round (rate * 1.001);

  if (whole >= 1 && whole <= 1000 && fabs (rate - whole) <= 1e-4 * rate)
    {
      *n = (int) whole;
      *d = 1;
    }
  else if (ntsc >= 1 && ntsc <= 1000 && fabs (rate * 1.001 - ntsc) <= 1e-4 * rate)
    {
      *n = (int) ntsc * 1000;
      *d = 1001;
    }
  else
    gst_util_double_to_fraction (CLAMP (rate, 0.01, 1000), n, d);
}

/* The rate the video has, and STEP: the motion frames per video frame when the rate is
 * the default (an exact fraction of the motion's), else 0. */
static void
video_rate (OdoriVideo *self,
            int        *n,
            int        *d,
            guint      *step)
{
  int mn, md;

  if (self->fps_n > 0)
    {
      *n = self->fps_n;
      *d = self->fps_d;
      *step = 0;
      return;
    }
  motion_rate (self->motion, &mn, &md);
  *step = 1;
  while ((double) mn / (md * (double) *step) > ODORI_VIDEO_DEFAULT_MAX_FPS + 1e-9)
    (*step)++;
  gst_util_fraction_multiply (mn, md, 1, *step, n, d);
}

void
odori_video_get_fps (OdoriVideo *self,
                     int        *fps_n,
                     int        *fps_d)
{
  guint step;

  g_return_if_fail (ODORI_IS_VIDEO (self));
  video_rate (self, fps_n, fps_d, &step);
}

guint
odori_video_get_n_frames (OdoriVideo *self)
{
  const OdoriMotion *motion;
  int                n, d;
  guint              step;
  double             frames;

  g_return_val_if_fail (ODORI_IS_VIDEO (self), 0);
  motion = self->motion;
  if (motion->n_frames == 0)
    return 0;
  video_rate (self, &n, &d, &step);
  if (step > 0)
    return (motion->n_frames - 1) / step + 1;
  /* the dance lasts n_frames frame times; as many video frames as fit, rounded */
  frames = floor (motion->n_frames * motion->frame_time * n / d + 0.5);
  return (guint) CLAMP (frames, 1, G_MAXINT);
}

guint
odori_video_get_motion_frame (OdoriVideo *self,
                              guint       frame)
{
  const OdoriMotion *motion;
  int                n, d;
  guint              step;
  double             at;

  g_return_val_if_fail (ODORI_IS_VIDEO (self), 0);
  motion = self->motion;
  if (motion->n_frames == 0)
    return 0;
  video_rate (self, &n, &d, &step);
  if (step > 0)
    at = (double) frame * step;
  else
    at = floor ((double) frame * d / ((double) n * motion->frame_time) + 0.5);
  return (guint) MIN (at, motion->n_frames - 1.0);
}

/* Errors ---------------------------------------------------------------------------- */

static gboolean
check_elements (const char *const *names,
                GError           **error)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr(GstElementFactory) factory = gst_element_factory_find (names[i]);

      if (factory == NULL)
        {
          g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_UNSUPPORTED,
                       _ ("Cannot make a video: GStreamer lacks the element “%s” (Debian's "
                          "gstreamer1.0-plugins-base and gstreamer1.0-plugins-good have it)"),
                       names[i]);
          return FALSE;
        }
    }
  return TRUE;
}

static void
set_bus_error (GError    **error,
               const char *path,
               GstMessage *message)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autoptr(GError) gst_error = NULL;
  g_autofree char *debug = NULL;

  gst_message_parse_error (message, &gst_error, &debug);
  g_debug ("%s: %s (%s)", display, gst_error->message, debug != NULL ? debug : "");
  g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED, _ ("Cannot write the video “%s”: %s"),
               display, gst_error->message);
}

/* The music ------------------------------------------------------------------------- */

typedef struct
{
  const char *path;
  GstElement *pipeline;
  GstAppSink *sink;
  GstElement *convert;
  gint        linked;   /* atomic: an audio pad reached audioconvert */
  gint        no_audio; /* atomic: all pads are out and none was audio */
  GstSample  *sample;   /* being read */
  gsize       used;     /* frames of SAMPLE already read */
  gint64      skip;     /* frames still to drop at the start (a positive offset) */
  gboolean    eos;
  gboolean    any; /* a sample came */
} Music;

static void
music_pad_added_cb (GstElement *decodebin,
                    GstPad     *pad,
                    gpointer    user_data)
{
  Music *music = user_data;
  g_autoptr(GstCaps) caps = gst_pad_get_current_caps (pad);
  g_autoptr(GstPad) sink = NULL;

  if (caps == NULL)
    caps = gst_pad_query_caps (pad, NULL);
  if (caps == NULL || gst_caps_is_empty (caps) ||
      !g_str_has_prefix (gst_structure_get_name (gst_caps_get_structure (caps, 0)), "audio/x-raw"))
    return;
  sink = gst_element_get_static_pad (music->convert, "sink");
  if (!gst_pad_is_linked (sink) && GST_PAD_LINK_SUCCESSFUL (gst_pad_link (pad, sink)))
    g_atomic_int_set (&music->linked, 1);
}

static void
music_no_more_pads_cb (GstElement *decodebin,
                       gpointer    user_data)
{
  Music *music = user_data;

  if (!g_atomic_int_get (&music->linked))
    g_atomic_int_set (&music->no_audio, 1);
}

static void
music_clear (Music *music)
{
  if (music->pipeline != NULL)
    {
      gst_element_set_state (music->pipeline, GST_STATE_NULL);
      g_clear_pointer (&music->pipeline, gst_object_unref);
    }
  g_clear_pointer (&music->sample, gst_sample_unref);
}

static gboolean
music_start (Music      *music,
             const char *path,
             double      offset,
             GError    **error)
{
  static const char *const names[] = { "uridecodebin", "audioconvert", "audioresample", "appsink", NULL };
  g_autofree char         *display = g_filename_display_name (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr(GstCaps) caps = NULL;
  g_autoptr(GstCaps) raw_audio = gst_caps_new_empty_simple ("audio/x-raw");
  GstElement *decode, *resample, *sink;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_FOUND,
                   _ ("Cannot read the music file “%s”: it does not exist"), display);
      return FALSE;
    }
  if (!check_elements (names, error))
    return FALSE;
  music->path = path;
  music->pipeline = gst_object_ref_sink (gst_pipeline_new ("odori-video-music"));
  decode = gst_element_factory_make ("uridecodebin", NULL);
  music->convert = gst_element_factory_make ("audioconvert", NULL);
  resample = gst_element_factory_make ("audioresample", NULL);
  sink = gst_element_factory_make ("appsink", NULL);
  caps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING, GST_AUDIO_NE (F32), "layout",
                              G_TYPE_STRING, "interleaved", "channels", G_TYPE_INT, AUDIO_CHANNELS,
                              "rate", G_TYPE_INT, AUDIO_RATE, NULL);
  g_object_set (decode, "uri", uri, "caps", raw_audio, NULL);
  g_object_set (sink, "caps", caps, "sync", FALSE, "max-buffers", 16, NULL);
  gst_bin_add_many (GST_BIN (music->pipeline), decode, music->convert, resample, sink, NULL);
  gst_element_link_many (music->convert, resample, sink, NULL);
  g_signal_connect (decode, "pad-added", G_CALLBACK (music_pad_added_cb), music);
  g_signal_connect (decode, "no-more-pads", G_CALLBACK (music_no_more_pads_cb), music);
  music->sink = GST_APP_SINK (sink);
  /* music time = video time + offset: a positive offset drops the music's start, a
   * negative one comes as silence before it */
  music->skip = offset > 0 ? llround (offset * AUDIO_RATE) : 0;
  /* a failure to start is posted on the bus, where music_next() finds it */
  gst_element_set_state (music->pipeline, GST_STATE_PLAYING);
  return TRUE;
}

/* Makes music->sample a sample with frames left to read, or sets music->eos. */
static gboolean
music_next (Music        *music,
            GCancellable *cancellable,
            GError      **error)
{
  g_autoptr(GstBus) bus = gst_element_get_bus (music->pipeline);

  while (!music->eos)
    {
      g_autoptr(GstMessage) message = NULL;
      GstBuffer *buffer;

      if (music->sample != NULL)
        {
          buffer = gst_sample_get_buffer (music->sample);
          if (buffer != NULL && music->used < gst_buffer_get_size (buffer) / (sizeof (float) * AUDIO_CHANNELS))
            return TRUE;
          g_clear_pointer (&music->sample, gst_sample_unref);
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      message = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      if (message != NULL)
        {
          g_autofree char *display = g_filename_display_name (music->path);
          g_autoptr(GError) gst_error = NULL;

          gst_message_parse_error (message, &gst_error, NULL);
          g_set_error (error, ODORI_MEDIA_ERROR,
                       music->any ? ODORI_MEDIA_ERROR_DECODE : ODORI_MEDIA_ERROR_NOT_AUDIO,
                       _ ("Cannot decode the music file “%s”: %s"), display, gst_error->message);
          return FALSE;
        }
      music->sample = gst_app_sink_try_pull_sample (music->sink, 40 * GST_MSECOND);
      music->used = 0;
      if (music->sample != NULL)
        {
          music->any = TRUE;
          continue;
        }
      if (gst_app_sink_is_eos (music->sink))
        music->eos = TRUE;
      else if (g_atomic_int_get (&music->no_audio))
        {
          g_autofree char *display = g_filename_display_name (music->path);

          g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NOT_AUDIO,
                       _ ("Cannot decode the music file “%s”: it has no audio stream"), display);
          return FALSE;
        }
    }
  return TRUE;
}

/* Fills OUT with N frames of the music from where it is (silence after its end). */
static gboolean
music_read (Music        *music,
            float        *out,
            gsize         n,
            GCancellable *cancellable,
            GError      **error)
{
  while (n > 0)
    {
      GstBuffer *buffer;
      GstMapInfo map;
      gsize      have, take;

      if (!music_next (music, cancellable, error))
        return FALSE;
      if (music->eos)
        {
          memset (out, 0, n * AUDIO_CHANNELS * sizeof (float));
          return TRUE;
        }
      buffer = gst_sample_get_buffer (music->sample);
      if (!gst_buffer_map (buffer, &map, GST_MAP_READ))
        {
          g_clear_pointer (&music->sample, gst_sample_unref);
          continue;
        }
      have = map.size / (sizeof (float) * AUDIO_CHANNELS) - music->used;
      if (music->skip > 0)
        {
          take = (gsize) MIN ((gint64) have, music->skip);
          music->skip -= take;
        }
      else
        {
          take = MIN (have, n);
          memcpy (out, map.data + music->used * AUDIO_CHANNELS * sizeof (float),
                  take * AUDIO_CHANNELS * sizeof (float));
          out += take * AUDIO_CHANNELS;
          n -= take;
        }
      music->used += take;
      gst_buffer_unmap (buffer, &map);
    }
  return TRUE;
}

/* The run ----------------------------------------------------------------------------- */

typedef struct
{
  OdoriVideo *self;
  GstElement *pipeline;
  GstAppSrc  *video_src;
  GstAppSrc  *audio_src; /* NULL: no music */
  Music       music;
  gint64      lead;      /* frames of silence before the music (a negative offset) */
  guint64     audio_pos; /* frames of audio pushed */
  char       *tmp_path;
  int         fps_n, fps_d;
} Run;

static void
run_clear (Run *run)
{
  if (run->pipeline != NULL)
    {
      gst_element_set_state (run->pipeline, GST_STATE_NULL);
      g_clear_pointer (&run->pipeline, gst_object_unref);
    }
  gst_clear_object (&run->video_src);
  gst_clear_object (&run->audio_src);
  music_clear (&run->music);
  if (run->tmp_path != NULL)
    {
      g_unlink (run->tmp_path);
      g_clear_pointer (&run->tmp_path, g_free);
    }
}

/* A temporary file beside PATH (so that the rename is atomic), closed, with the
 * permissions a new file gets under the umask. */
static char *
make_temporary (const char *path,
                GError    **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmpl = g_strdup_printf ("%s%s.%s.XXXXXX", dir, G_DIR_SEPARATOR_S, base);
  int              fd = g_mkstemp_full (tmpl, O_WRONLY | O_CLOEXEC, 0666);
  mode_t           mask;

  if (fd < 0)
    {
      int              saved = errno;
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _ ("Cannot write “%s”: %s"), display,
                   g_strerror (saved));
      return NULL;
    }
  mask = umask (0);
  umask (mask);
  if (fchmod (fd, 0666 & ~mask) != 0)
    g_debug ("%s: fchmod: %s", tmpl, g_strerror (errno));
  close (fd);
  return g_steal_pointer (&tmpl);
}

/* A target bitrate for VP9 at realtime speed: 0.1 bit per pixel and frame (2.8 Mbit/s
 * at 1280x720 and 30 frames a second), enough for a figure on a plain floor, within
 * 150 kbit/s and 16 Mbit/s. */
static guint
video_bitrate (int width,
               int height,
               int fps_n,
               int fps_d)
{
  double bits = 0.1 * width * height * fps_n / (double) fps_d;

  return (guint) CLAMP (bits, 150000, 16000000);
}

static gboolean
build_pipeline (Run     *run,
                GError **error)
{
  static const char *const video_names[] = { "appsrc", "videoconvert", "vp9enc", "queue", "webmmux", "filesink", NULL };
  static const char *const audio_names[] = { "audioconvert", "audioresample", "opusenc", NULL };
  OdoriVideo              *self = run->self;
  gboolean                 with_music = self->music_path != NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GstCaps) video_caps = NULL;
  g_autoptr(GstElement) encoder = NULL;
  g_autoptr(GstElement) sink = NULL;
  const char *description;

  if (!check_elements (video_names, error) || (with_music && !check_elements (audio_names, error)))
    return FALSE;
  /* Unbounded queues before the muxer: the worker keeps both streams level, so what
   * they hold is bounded by the encoders' lag. */
  description = with_music
                    ? "appsrc name=video ! videoconvert ! vp9enc name=encoder ! "
                      "queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! webmmux name=mux ! "
                      "filesink name=sink "
                      "appsrc name=audio ! audioconvert ! audioresample ! opusenc bitrate=128000 ! "
                      "queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! mux."
                    : "appsrc name=video ! videoconvert ! vp9enc name=encoder ! "
                      "queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! webmmux name=mux ! "
                      "filesink name=sink";
  run->pipeline = gst_parse_launch (description, &parse_error);
  if (run->pipeline != NULL)
    gst_object_ref_sink (run->pipeline);
  if (run->pipeline == NULL || parse_error != NULL)
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_UNSUPPORTED, _ ("Cannot make a video: %s"),
                   parse_error != NULL ? parse_error->message : "gst_parse_launch");
      return FALSE;
    }
  run->video_src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (run->pipeline), "video"));
  encoder = gst_bin_get_by_name (GST_BIN (run->pipeline), "encoder");
  sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");

  video_caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA", "width", G_TYPE_INT,
                                    self->width, "height", G_TYPE_INT, self->height, "framerate",
                                    GST_TYPE_FRACTION, run->fps_n, run->fps_d, "pixel-aspect-ratio",
                                    GST_TYPE_FRACTION, 1, 1, NULL);
  /* at most a few frames wait for the encoder: the renderer is held back, not memory */
  g_object_set (run->video_src, "caps", video_caps, "format", GST_FORMAT_TIME, "block", TRUE, "max-bytes",
                (guint64) self->width * self->height * 4 * 3, NULL);
  /* Realtime on two cores: deadline 1 (realtime) and cpu-used 8 are libvpx's fastest,
   * row-mt spreads a frame over both threads; no lag (nothing to look ahead for in a
   * realtime encode); a keyframe every 2 s so players seek quickly. */
  g_object_set (encoder, "deadline", (gint64) 1, "cpu-used", 8, "threads", 2, "row-mt", TRUE, "lag-in-frames", 0,
                "target-bitrate", video_bitrate (self->width, self->height, run->fps_n, run->fps_d),
                "keyframe-max-dist", MAX (1, 2 * run->fps_n / run->fps_d), NULL);
  g_object_set (sink, "location", run->tmp_path, NULL);
  if (with_music)
    {
      g_autoptr(GstCaps) audio_caps = NULL;

      run->audio_src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (run->pipeline), "audio"));
      audio_caps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING, GST_AUDIO_NE (F32), "layout",
                                        G_TYPE_STRING, "interleaved", "channels", G_TYPE_INT, AUDIO_CHANNELS,
                                        "rate", G_TYPE_INT, AUDIO_RATE, NULL);
      g_object_set (run->audio_src, "caps", audio_caps, "format", GST_FORMAT_TIME, "block", FALSE,
                    "max-bytes", (guint64) 0, NULL);
    }
  return TRUE;
}

static gboolean
check_bus (Run     *run,
           GError **error)
{
  g_autoptr(GstBus) bus = gst_element_get_bus (run->pipeline);
  g_autoptr(GstMessage) message = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (message == NULL)
    return TRUE;
  set_bus_error (error, run->self->path, message);
  return FALSE;
}

static GstClockTime
video_time (Run    *run,
            guint64 frame)
{
  return gst_util_uint64_scale (frame, GST_SECOND * (guint64) run->fps_d, run->fps_n);
}

/* Pushes the audio up to video time END (silence, then the music). */
static gboolean
push_audio (Run          *run,
            GstClockTime  end,
            GCancellable *cancellable,
            GError      **error)
{
  guint64 target = gst_util_uint64_scale (end, AUDIO_RATE, GST_SECOND);

  while (run->audio_pos < target)
    {
      gsize      n = (gsize) MIN (target - run->audio_pos, AUDIO_CHUNK);
      GstBuffer *buffer = gst_buffer_new_allocate (NULL, n * AUDIO_CHANNELS * sizeof (float), NULL);
      GstMapInfo map;
      float     *out;
      gsize      silent = 0;

      gst_buffer_map (buffer, &map, GST_MAP_WRITE);
      out = (float *) (void *) map.data;
      if ((gint64) run->audio_pos < run->lead)
        {
          silent = (gsize) MIN ((guint64) (run->lead - (gint64) run->audio_pos), n);
          memset (out, 0, silent * AUDIO_CHANNELS * sizeof (float));
        }
      if (silent < n && !music_read (&run->music, out + silent * AUDIO_CHANNELS, n - silent, cancellable, error))
        {
          gst_buffer_unmap (buffer, &map);
          gst_buffer_unref (buffer);
          return FALSE;
        }
      gst_buffer_unmap (buffer, &map);
      GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (run->audio_pos, GST_SECOND, AUDIO_RATE);
      GST_BUFFER_DURATION (buffer) =
          gst_util_uint64_scale (run->audio_pos + n, GST_SECOND, AUDIO_RATE) - GST_BUFFER_PTS (buffer);
      run->audio_pos += n;
      if (gst_app_src_push_buffer (run->audio_src, buffer) != GST_FLOW_OK)
        {
          if (check_bus (run, error))
            g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                         _ ("Cannot write the video “%s”: the audio encoder stopped"), run->self->path);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
wait_for_end (Run          *run,
              GCancellable *cancellable,
              GError      **error)
{
  g_autoptr(GstBus) bus = gst_element_get_bus (run->pipeline);

  for (;;)
    {
      g_autoptr(GstMessage) message = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      message = gst_bus_timed_pop_filtered (bus, 50 * GST_MSECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
      if (message == NULL)
        continue;
      if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_EOS)
        return TRUE;
      set_bus_error (error, run->self->path, message);
      return FALSE;
    }
}

static gboolean
check_settings (OdoriVideo *self,
                GError    **error)
{
  g_autofree char *display = g_filename_display_name (self->path);

  if (self->width < 16 || self->height < 16 || self->width > ODORI_VIDEO_MAX_SIDE ||
      self->height > ODORI_VIDEO_MAX_SIDE || self->width % 2 != 0 || self->height % 2 != 0)
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: a video is 16 to %d pixels wide and high, each an even number (not %dx%d)"), display,
                   ODORI_VIDEO_MAX_SIDE, self->width, self->height);
      return FALSE;
    }
  if (self->motion->n_frames == 0 || self->motion->n_segments == 0)
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: the dance has no frames to draw"), display);
      return FALSE;
    }
  if (self->fps_n > 0 && (self->fps_n / (double) self->fps_d > 240 || self->fps_n / (double) self->fps_d < 1))
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: a video has 1 to 240 frames a second"), display);
      return FALSE;
    }
  return TRUE;
}

/* Draws and pushes every frame, with the audio beside it. */
static gboolean
render_all (Run          *run,
            GCancellable *cancellable,
            GError      **error)
{
  OdoriVideo *self = run->self;
  g_autoptr(OdoriHeadless) headless = NULL;
  g_autoptr(OdoriRenderer) renderer = NULL;
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (self->motion);
  guint n_frames = odori_video_get_n_frames (self);
  gsize frame_bytes = (gsize) self->width * self->height * 4;

  /* made here: the GL context belongs to the thread that renders */
  headless = odori_headless_new (self->width, self->height, error);
  if (headless == NULL || !odori_headless_set_samples (headless, self->samples, error))
    return FALSE;
  renderer = odori_renderer_new (error);
  if (renderer == NULL)
    return FALSE;
  odori_renderer_set_up_axis (renderer, self->up);
  odori_renderer_set_motion (renderer, self->motion, skeleton);
  odori_renderer_set_bulges (renderer, self->bulges);
  odori_renderer_set_show_skin (renderer, self->show_skin);
  odori_renderer_set_show_bulges (renderer, self->show_skin && self->bulges != NULL);
  odori_renderer_set_view (renderer, self->view);

  for (guint k = 0; k < n_frames; k++)
    {
      GstBuffer *buffer;
      GstMapInfo map;

      if (g_cancellable_set_error_if_cancelled (cancellable, error) || !check_bus (run, error))
        return FALSE;
      odori_renderer_set_frame (renderer, odori_video_get_motion_frame (self, k));
      if (!odori_renderer_draw (renderer, self->width, self->height, error))
        return FALSE;
      buffer = gst_buffer_new_allocate (NULL, frame_bytes, NULL);
      gst_buffer_map (buffer, &map, GST_MAP_WRITE);
      odori_headless_read_into (headless, map.data);
      gst_buffer_unmap (buffer, &map);
      GST_BUFFER_PTS (buffer) = video_time (run, k);
      GST_BUFFER_DURATION (buffer) = video_time (run, k + 1) - video_time (run, k);
      if (gst_app_src_push_buffer (run->video_src, buffer) != GST_FLOW_OK)
        {
          if (check_bus (run, error))
            g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                         _ ("Cannot write the video “%s”: the video encoder stopped"), self->path);
          return FALSE;
        }
      if (run->audio_src != NULL && !push_audio (run, video_time (run, k + 1), cancellable, error))
        return FALSE;
      set_fraction (self, 0.97 * (k + 1) / n_frames);
    }
  return TRUE;
}

gboolean
odori_video_run (OdoriVideo   *self,
                 GCancellable *cancellable,
                 GError      **error)
{
  Run      run = { .self = self };
  gboolean ok = FALSE;
  guint    step;

  g_return_val_if_fail (ODORI_IS_VIDEO (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  set_fraction (self, 0);
  if (!check_settings (self, error))
    return FALSE;
  if (!gst_is_initialized ())
    {
      g_autoptr(GError) init_error = NULL;

      if (!gst_init_check (NULL, NULL, &init_error))
        {
          g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_UNSUPPORTED,
                       _ ("Cannot make a video: GStreamer does not start: %s"), init_error->message);
          return FALSE;
        }
    }
  video_rate (self, &run.fps_n, &run.fps_d, &step);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  run.tmp_path = make_temporary (self->path, error);
  if (run.tmp_path == NULL)
    return FALSE;
  if (!build_pipeline (&run, error))
    goto out;
  if (self->music_path != NULL)
    {
      if (!music_start (&run.music, self->music_path, self->music_offset, error))
        goto out;
      run.lead = self->music_offset < 0 ? llround (-self->music_offset * AUDIO_RATE) : 0;
    }
  gst_element_set_state (run.pipeline, GST_STATE_PLAYING);
  if (!render_all (&run, cancellable, error))
    goto out;
  gst_app_src_end_of_stream (run.video_src);
  if (run.audio_src != NULL)
    gst_app_src_end_of_stream (run.audio_src);
  if (!wait_for_end (&run, cancellable, error))
    goto out;
  gst_element_set_state (run.pipeline, GST_STATE_NULL);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  if (g_rename (run.tmp_path, self->path) != 0)
    {
      int              saved = errno;
      g_autofree char *display = g_filename_display_name (self->path);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _ ("Cannot write “%s”: %s"), display,
                   g_strerror (saved));
      goto out;
    }
  g_clear_pointer (&run.tmp_path, g_free);
  set_fraction (self, 1);
  ok = TRUE;

out:
  run_clear (&run);
  return ok;
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  GError *error = NULL;

  if (odori_video_run (source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
odori_video_run_async (OdoriVideo         *self,
                       GCancellable       *cancellable,
                       GAsyncReadyCallback callback,
                       gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ODORI_IS_VIDEO (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, odori_video_run_async);
  /* as OdoriExport: the worker removes its temporary file itself, and a cancel that
   * comes after the rename is too late to be reported */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, run_thread);
}

gboolean
odori_video_run_finish (OdoriVideo   *self,
                        GAsyncResult *result,
                        GError      **error)
{
  g_return_val_if_fail (ODORI_IS_VIDEO (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
