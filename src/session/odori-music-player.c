/* odori-music-player.c: the music of a score, played
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>

#include <gst/gst.h>

#include <glib/gi18n.h>

#include "odori-music-player.h"

/* How far the position is extrapolated past the pipeline's last new answer: beyond,
 * the pipeline has stalled (a device underrun) and the playhead waits for it. */
#define MAX_EXTRAPOLATION_US 250000

struct _OdoriMusicPlayer
{
  GObject parent_instance;

  GstElement *playbin;
  char       *path;
  GError     *error;
  double      duration;
  double      rate;
  gboolean    playing;
  gboolean    eos;

  /* The pipeline's last new answer to a position query, and when it came */
  gint64 last_query;
  double anchor_position;
  gint64 anchor_us;
};

G_DEFINE_FINAL_TYPE (OdoriMusicPlayer, odori_music_player, G_TYPE_OBJECT)

static void
fail (OdoriMusicPlayer *self,
      const char       *reason)
{
  g_clear_error (&self->error);
  /* Translators: the music could not be played; %s: the file, then GStreamer's reason */
  self->error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _ ("Cannot play “%s”: %s"),
                             self->path != NULL ? self->path : "", reason);
  self->playing = FALSE;
  gst_element_set_state (self->playbin, GST_STATE_NULL);
}

/* Reads what the pipeline posted since the last call. */
static void
drain_bus (OdoriMusicPlayer *self)
{
  g_autoptr(GstBus) bus = gst_element_get_bus (self->playbin);
  GstMessage *message;

  while ((message = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_EOS |
                                                   GST_MESSAGE_DURATION_CHANGED)) != NULL)
    {
      switch (GST_MESSAGE_TYPE (message))
        {
        case GST_MESSAGE_ERROR:
          {
            g_autoptr(GError) error = NULL;
            g_autofree char *debug = NULL;

            gst_message_parse_error (message, &error, &debug);
            if (self->path != NULL)
              fail (self, error != NULL ? error->message : "?");
          }
          break;
        case GST_MESSAGE_EOS:
          self->eos = TRUE;
          break;
        case GST_MESSAGE_DURATION_CHANGED:
          self->duration = -1;
          break;
        default:
          break;
        }
      gst_message_unref (message);
    }
}

static void
odori_music_player_finalize (GObject *object)
{
  OdoriMusicPlayer *self = ODORI_MUSIC_PLAYER (object);

  if (self->playbin != NULL)
    {
      gst_element_set_state (self->playbin, GST_STATE_NULL);
      gst_object_unref (self->playbin);
    }
  g_free (self->path);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (odori_music_player_parent_class)->finalize (object);
}

static void
odori_music_player_class_init (OdoriMusicPlayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_music_player_finalize;
}

static void
odori_music_player_init (OdoriMusicPlayer *self)
{
  self->duration = -1;
  self->rate = 1.0;
  self->last_query = -1;
}

OdoriMusicPlayer *
odori_music_player_new (GError **error)
{
  g_autoptr(OdoriMusicPlayer) self = NULL;
  const char *sink_description = g_getenv ("ODORI_AUDIO_SINK");
  GstElement *filter;
  GstElement *sink;
  GstElement *video_sink;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!gst_init_check (NULL, NULL, error))
    return NULL;
  self = g_object_new (ODORI_TYPE_MUSIC_PLAYER, NULL);
  self->playbin = gst_element_factory_make ("playbin", NULL);
  filter = gst_element_factory_make ("scaletempo", NULL);
  if (self->playbin == NULL || filter == NULL)
    {
      if (filter != NULL)
        gst_object_unref (gst_object_ref_sink (filter));
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: GStreamer elements (names not to translate) */
                   _ ("GStreamer’s playbin or scaletempo is missing"));
      return NULL;
    }
  gst_object_ref_sink (self->playbin);
  if (sink_description == NULL || *sink_description == '\0')
    sink_description = "autoaudiosink";
  sink = gst_parse_bin_from_description (sink_description, TRUE, error);
  if (sink == NULL)
    return NULL;
  video_sink = gst_element_factory_make ("fakesink", NULL);
  g_object_set (self->playbin, "audio-filter", filter, "audio-sink", sink, NULL);
  if (video_sink != NULL)
    g_object_set (self->playbin, "video-sink", video_sink, NULL);
  return g_steal_pointer (&self);
}

void
odori_music_player_set_path (OdoriMusicPlayer *self,
                             const char       *path)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (ODORI_IS_MUSIC_PLAYER (self));

  gst_element_set_state (self->playbin, GST_STATE_NULL);
  drain_bus (self);
  g_clear_error (&self->error);
  g_free (self->path);
  self->path = g_strdup (path);
  self->playing = FALSE;
  self->eos = FALSE;
  self->duration = -1;
  self->last_query = -1;
  if (path == NULL)
    return;
  uri = g_filename_to_uri (path, NULL, NULL);
  if (uri == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      fail (self, g_strerror (ENOENT));
      return;
    }
  g_object_set (self->playbin, "uri", uri, NULL);
  if (gst_element_set_state (self->playbin, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE)
    {
      drain_bus (self);
      if (self->error == NULL)
        fail (self, _ ("The music does not decode"));
    }
}

const char *
odori_music_player_get_path (OdoriMusicPlayer *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), NULL);
  return self->path;
}

gboolean
odori_music_player_get_ready (OdoriMusicPlayer *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), FALSE);
  drain_bus (self);
  return self->path != NULL && self->error == NULL;
}

const GError *
odori_music_player_get_error (OdoriMusicPlayer *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), NULL);
  drain_bus (self);
  return self->error;
}

double
odori_music_player_get_duration (OdoriMusicPlayer *self)
{
  gint64 duration;

  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), -1);

  drain_bus (self);
  if (self->duration < 0 && self->error == NULL && self->path != NULL &&
      gst_element_query_duration (self->playbin, GST_FORMAT_TIME, &duration) && duration >= 0)
    self->duration = duration / (double) GST_SECOND;
  return self->duration;
}

/* Waits (at most a second, once per file: the header is read in a few milliseconds)
 * until the music is prerolled: a seek needs it. */
static gboolean
wait_prerolled (OdoriMusicPlayer *self)
{
  GstState             state;
  GstStateChangeReturn ret;

  ret = gst_element_get_state (self->playbin, &state, NULL, GST_SECOND);
  drain_bus (self);
  /* The pipeline may say it failed before its streaming thread has posted why: the
   * music is not ready either way. */
  if (ret == GST_STATE_CHANGE_FAILURE && self->error == NULL)
    fail (self, _ ("The music does not decode"));
  if (self->error != NULL)
    return FALSE;
  return state >= GST_STATE_PAUSED;
}

gboolean
odori_music_player_play (OdoriMusicPlayer *self,
                         double            position,
                         double            rate)
{
  double duration;

  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), FALSE);

  drain_bus (self);
  if (self->path == NULL || self->error != NULL)
    return FALSE;
  if (self->playing)
    gst_element_set_state (self->playbin, GST_STATE_PAUSED);
  self->playing = FALSE;
  if (!wait_prerolled (self))
    return FALSE;
  duration = odori_music_player_get_duration (self);
  if (position < 0 || (duration >= 0 && position >= duration))
    return FALSE;
  self->rate = CLAMP (rate, 0.25, 2.0);
  if (!gst_element_seek (self->playbin, self->rate, GST_FORMAT_TIME,
                         GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE,
                         GST_SEEK_TYPE_SET, (gint64) (position * GST_SECOND),
                         GST_SEEK_TYPE_NONE, GST_CLOCK_TIME_NONE))
    return FALSE;
  self->eos = FALSE;
  self->last_query = -1;
  if (gst_element_set_state (self->playbin, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    {
      drain_bus (self);
      return FALSE;
    }
  self->playing = TRUE;
  return TRUE;
}

void
odori_music_player_pause (OdoriMusicPlayer *self)
{
  g_return_if_fail (ODORI_IS_MUSIC_PLAYER (self));

  if (!self->playing)
    return;
  self->playing = FALSE;
  gst_element_set_state (self->playbin, GST_STATE_PAUSED);
}

gboolean
odori_music_player_get_playing (OdoriMusicPlayer *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), FALSE);
  return self->playing;
}

gboolean
odori_music_player_get_eos (OdoriMusicPlayer *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), FALSE);
  drain_bus (self);
  return self->eos;
}

gboolean
odori_music_player_query_position (OdoriMusicPlayer *self,
                                   double           *position)
{
  gint64 value;

  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), FALSE);
  g_return_val_if_fail (position != NULL, FALSE);

  if (self->path == NULL || self->error != NULL ||
      !gst_element_query_position (self->playbin, GST_FORMAT_TIME, &value) || value < 0)
    return FALSE;
  *position = value / (double) GST_SECOND;
  return TRUE;
}

gboolean
odori_music_player_get_position (OdoriMusicPlayer *self,
                                 gint64            now_us,
                                 double           *position)
{
  GstState state;
  gint64   value;
  gint64   ahead;

  g_return_val_if_fail (ODORI_IS_MUSIC_PLAYER (self), FALSE);
  g_return_val_if_fail (position != NULL, FALSE);

  drain_bus (self);
  if (!self->playing || self->eos || self->error != NULL)
    return FALSE;
  /* Not before the pipeline plays (after a seek it prerolls again first). */
  if (gst_element_get_state (self->playbin, &state, NULL, 0) != GST_STATE_CHANGE_SUCCESS ||
      state != GST_STATE_PLAYING)
    return FALSE;
  if (!gst_element_query_position (self->playbin, GST_FORMAT_TIME, &value) || value < 0)
    return FALSE;
  if (value != self->last_query)
    {
      self->last_query = value;
      self->anchor_position = value / (double) GST_SECOND;
      self->anchor_us = now_us;
    }
  ahead = CLAMP (now_us - self->anchor_us, 0, MAX_EXTRAPOLATION_US);
  *position = self->anchor_position + ahead / 1e6 * self->rate;
  return TRUE;
}
