/* odori-session.c: what a window shows of its document, and how it plays
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "odori-music-player.h"
#include "odori-session.h"

struct _OdoriSession
{
  GObject parent_instance;

  OdoriDocument *document;

  OdoriIndexMotion *preview;
  OdoriMotion      *preview_motion;
  OdoriSkeleton    *preview_skeleton;
  guint             dance_frame; /* the dance's playhead, kept while previewing */

  guint    frame;
  gboolean playing;
  gboolean loop;
  double   speed;
  gint64   anchor_time; /* -1: anchored again on the next tick */
  double   anchor_frame;

  /* The score's music (NULL until a score has music): while it plays, its clock leads */
  OdoriMusicPlayer *music;
  char             *music_path;    /* the absolute path it was loaded from */
  double            music_offset;  /* "# MusicOffset:" when it was last read */
  gboolean          music_started; /* the player was started for this run of playback */
  guint             snippet_id;    /* the end of a scrub's snippet of music */
};

/* What a scrub of the ruler plays of the music, in milliseconds. */
#define SNIPPET_MS 80

G_DEFINE_FINAL_TYPE (OdoriSession, odori_session, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_DISPLAY_MOTION,
  PROP_PREVIEWING,
  PROP_FRAME,
  PROP_N_FRAMES,
  PROP_PLAYING,
  PROP_LOOP,
  PROP_SPEED,
  PROP_MUSIC,
  N_PROPS
};

enum
{
  MOTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

static void set_frame_internal (OdoriSession *self,
                                guint         frame);
static void refresh_music (OdoriSession *self);
static gboolean music_active (OdoriSession *self);
static void stop_music (OdoriSession *self);

static void
notify (OdoriSession *self,
        guint         prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
display_changed (OdoriSession *self)
{
  guint n = odori_session_get_n_frames (self);

  notify (self, PROP_DISPLAY_MOTION);
  notify (self, PROP_N_FRAMES);
  g_signal_emit (self, signals[MOTION_CHANGED], 0);
  /* Frame 0: another score was opened (on_score_notify_cb ()). */
  if (self->frame == 0 || self->frame > MAX (n, 1))
    set_frame_internal (self, MAX (MIN (self->frame, n), 1));
}

static void
clear_preview (OdoriSession *self)
{
  self->preview = NULL;
  g_clear_pointer (&self->preview_motion, odori_motion_unref);
  g_clear_pointer (&self->preview_skeleton, odori_skeleton_unref);
}

/* Another score: playback stops, the preview ends and the playhead goes back to the
 * start (once the new composition is announced, on_motion_notify_cb ()). */
static void
on_score_notify_cb (OdoriSession *self)
{
  odori_session_set_playing (self, FALSE);
  clear_preview (self);
  notify (self, PROP_PREVIEWING);
  self->frame = 0;
  refresh_music (self);
}

/* The composition was replaced or recomputed (another score, another blend). */
static void
on_motion_notify_cb (OdoriSession *self)
{
  if (self->preview == NULL)
    display_changed (self);
}

/* Another library: the motion previewed was one of the old one's. */
static void
on_index_notify_cb (OdoriSession *self)
{
  odori_session_stop_preview (self);
}

/* An edit: the viewport shows its result, not a motion previewed alone. */
static void
on_changed_cb (OdoriSession *self)
{
  refresh_music (self);
  if (self->preview != NULL)
    odori_session_stop_preview (self);
  else
    display_changed (self);
}

static void
odori_session_dispose (GObject *object)
{
  OdoriSession *self = ODORI_SESSION (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_handle_id (&self->snippet_id, g_source_remove);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_session_parent_class)->dispose (object);
}

static void
odori_session_finalize (GObject *object)
{
  OdoriSession *self = ODORI_SESSION (object);

  clear_preview (self);
  g_clear_object (&self->music);
  g_free (self->music_path);
  G_OBJECT_CLASS (odori_session_parent_class)->finalize (object);
}

static void
odori_session_constructed (GObject *object)
{
  OdoriSession *self = ODORI_SESSION (object);

  G_OBJECT_CLASS (odori_session_parent_class)->constructed (object);
  g_assert (ODORI_IS_DOCUMENT (self->document));
  g_signal_connect_object (self->document, "notify::score", G_CALLBACK (on_score_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::motion", G_CALLBACK (on_motion_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::index", G_CALLBACK (on_index_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "changed", G_CALLBACK (on_changed_cb), self,
                           G_CONNECT_SWAPPED);
  refresh_music (self);
}

static void
odori_session_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  OdoriSession *self = ODORI_SESSION (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_DISPLAY_MOTION:
      g_value_set_boxed (value, odori_session_get_display_motion (self));
      break;
    case PROP_PREVIEWING:
      g_value_set_boolean (value, self->preview != NULL);
      break;
    case PROP_FRAME:
      g_value_set_uint (value, self->frame);
      break;
    case PROP_N_FRAMES:
      g_value_set_uint (value, odori_session_get_n_frames (self));
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    case PROP_MUSIC:
      g_value_set_string (value, self->music_path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_session_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  OdoriSession *self = ODORI_SESSION (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      self->document = g_value_dup_object (value);
      break;
    case PROP_FRAME:
      odori_session_set_frame (self, g_value_get_uint (value));
      break;
    case PROP_PLAYING:
      odori_session_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_LOOP:
      odori_session_set_loop (self, g_value_get_boolean (value));
      break;
    case PROP_SPEED:
      odori_session_set_speed (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_session_class_init (OdoriSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags   ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags   rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = odori_session_dispose;
  object_class->finalize = odori_session_finalize;
  object_class->constructed = odori_session_constructed;
  object_class->get_property = odori_session_get_property;
  object_class->set_property = odori_session_set_property;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                       G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_MOTION] = g_param_spec_boxed ("display-motion", NULL, NULL, ODORI_TYPE_MOTION, ro);
  properties[PROP_PREVIEWING] = g_param_spec_boolean ("previewing", NULL, NULL, FALSE, ro);
  properties[PROP_FRAME] = g_param_spec_uint ("frame", NULL, NULL, 1, G_MAXUINT, 1, rw);
  properties[PROP_N_FRAMES] = g_param_spec_uint ("n-frames", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, FALSE, rw);
  properties[PROP_LOOP] = g_param_spec_boolean ("loop", NULL, NULL, TRUE, rw);
  properties[PROP_SPEED] = g_param_spec_double ("speed", NULL, NULL, 0.25, 2.0, 1.0, rw);
  /* The absolute path of the score's music, or NULL. */
  properties[PROP_MUSIC] = g_param_spec_string ("music", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The display motion was replaced or recomputed in place. */
  signals[MOTION_CHANGED] = g_signal_new ("motion-changed",
                                          G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
}

static void
odori_session_init (OdoriSession *self)
{
  self->frame = 1;
  self->loop = TRUE;
  self->speed = 1.0;
  self->anchor_time = -1;
}

OdoriSession *
odori_session_new (OdoriDocument *document)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (document), NULL);
  return g_object_new (ODORI_TYPE_SESSION, "document", document, NULL);
}

OdoriDocument *
odori_session_get_document (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), NULL);
  return self->document;
}

OdoriMotion *
odori_session_get_display_motion (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), NULL);
  return self->preview != NULL ? self->preview_motion : odori_document_get_shown_motion (self->document);
}

OdoriSkeleton *
odori_session_get_display_skeleton (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), NULL);
  return self->preview != NULL ? self->preview_skeleton : odori_document_get_shown_skeleton (self->document);
}

OdoriIndexMotion *
odori_session_get_preview (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), NULL);
  return self->preview;
}

gboolean
odori_session_preview (OdoriSession     *self,
                       OdoriIndexMotion *motion,
                       GError          **error)
{
  OdoriMotion *show_motion;
  g_autoptr(OdoriMotion) clip = NULL;

  g_return_val_if_fail (ODORI_IS_SESSION (self), FALSE);
  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  show_motion = odori_document_load_show (self->document, motion->show, error);
  if (show_motion == NULL)
    return FALSE;
  clip = odori_motion_resample (show_motion, motion->first, motion->last,
                                show_motion->frame_time, error);
  if (clip == NULL)
    return FALSE;

  if (self->preview == NULL)
    self->dance_frame = self->frame;
  stop_music (self);
  clear_preview (self);
  self->preview = motion;
  self->preview_skeleton = odori_skeleton_for_motion (clip);
  self->preview_motion = g_steal_pointer (&clip);
  self->anchor_time = -1;
  notify (self, PROP_PREVIEWING);
  display_changed (self);
  set_frame_internal (self, 1);
  return TRUE;
}

void
odori_session_stop_preview (OdoriSession *self)
{
  g_return_if_fail (ODORI_IS_SESSION (self));

  if (self->preview == NULL)
    return;
  stop_music (self);
  clear_preview (self);
  self->anchor_time = -1;
  notify (self, PROP_PREVIEWING);
  display_changed (self);
  set_frame_internal (self, MIN (MAX (self->dance_frame, 1), MAX (odori_session_get_n_frames (self), 1)));
}

double
odori_session_get_frame_time (OdoriSession *self)
{
  OdoriMotion *motion;

  g_return_val_if_fail (ODORI_IS_SESSION (self), 1.0 / 30);

  motion = odori_session_get_display_motion (self);
  if (motion != NULL && motion->frame_time > 0)
    return motion->frame_time;
  return 1.0 / 30;
}

/* Playhead */

static void
set_frame_internal (OdoriSession *self,
                    guint         frame)
{
  guint n = MAX (odori_session_get_n_frames (self), 1);

  frame = CLAMP (frame, 1, n);
  if (self->frame == frame)
    return;
  self->frame = frame;
  notify (self, PROP_FRAME);
}

guint
odori_session_get_frame (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), 1);
  return self->frame;
}

void
odori_session_set_frame (OdoriSession *self,
                         guint         frame)
{
  g_return_if_fail (ODORI_IS_SESSION (self));

  stop_music (self);
  self->anchor_time = -1;
  set_frame_internal (self, frame);
}

guint
odori_session_get_n_frames (OdoriSession *self)
{
  OdoriMotion *motion;

  g_return_val_if_fail (ODORI_IS_SESSION (self), 0);

  motion = odori_session_get_display_motion (self);
  return motion != NULL ? motion->n_frames : 0;
}

void
odori_session_step (OdoriSession *self,
                    int           delta)
{
  gint64 frame;

  g_return_if_fail (ODORI_IS_SESSION (self));

  odori_session_set_playing (self, FALSE);
  frame = (gint64) self->frame + delta;
  odori_session_set_frame (self, (guint) CLAMP (frame, 1, G_MAXUINT));
}

gboolean
odori_session_get_playing (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), FALSE);
  return self->playing;
}

void
odori_session_set_playing (OdoriSession *self,
                           gboolean      playing)
{
  g_return_if_fail (ODORI_IS_SESSION (self));

  playing = !!playing && odori_session_get_n_frames (self) > 1;
  if (self->playing == playing)
    return;
  /* Play at the end starts again from the beginning. */
  if (playing && self->frame >= odori_session_get_n_frames (self))
    set_frame_internal (self, 1);
  self->playing = playing;
  self->anchor_time = -1;
  stop_music (self);
  notify (self, PROP_PLAYING);
}

gboolean
odori_session_get_loop (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), FALSE);
  return self->loop;
}

void
odori_session_set_loop (OdoriSession *self,
                        gboolean      loop)
{
  g_return_if_fail (ODORI_IS_SESSION (self));

  loop = !!loop;
  if (self->loop == loop)
    return;
  self->loop = loop;
  notify (self, PROP_LOOP);
}

double
odori_session_get_speed (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), 1.0);
  return self->speed;
}

void
odori_session_set_speed (OdoriSession *self,
                         double        speed)
{
  g_return_if_fail (ODORI_IS_SESSION (self));

  speed = CLAMP (speed, 0.25, 2.0);
  if (self->speed == speed)
    return;
  self->speed = speed;
  self->anchor_time = -1;
  stop_music (self);
  notify (self, PROP_SPEED);
}

void
odori_session_tick (OdoriSession *self,
                    gint64        time_us)
{
  double frame;
  double music_time;
  guint  n;

  g_return_if_fail (ODORI_IS_SESSION (self));

  if (!self->playing)
    return;
  n = odori_session_get_n_frames (self);
  /* The music leads once it plays; before (it starts, or the dance begins before the
   * music) and after its end, the frame clock does. */
  if (self->music_started &&
      odori_music_player_get_position (self->music, time_us, &music_time))
    {
      frame = odori_session_frame_for_music_time (self, music_time);
      if (frame < n + 1.0)
        {
          self->anchor_time = time_us;
          self->anchor_frame = frame;
          set_frame_internal (self, (guint) MAX (floor (frame + 0.5), 1));
          return;
        }
    }
  if (self->anchor_time < 0 || time_us < self->anchor_time)
    {
      self->anchor_time = time_us;
      self->anchor_frame = self->frame;
      return;
    }
  frame = self->anchor_frame +
          (time_us - self->anchor_time) / 1e6 * self->speed / odori_session_get_frame_time (self);
  if (frame >= n + 1.0)
    {
      if (!self->loop)
        {
          set_frame_internal (self, n);
          odori_session_set_playing (self, FALSE);
          return;
        }
      stop_music (self);
      frame = 1.0 + fmod (frame - 1.0, n);
      self->anchor_time = time_us;
      self->anchor_frame = frame;
    }
  set_frame_internal (self, (guint) frame);
  if (!self->music_started && music_active (self))
    {
      music_time = odori_session_music_time_for_frame (self, frame);
      if (music_time >= 0)
        self->music_started = odori_music_player_play (self->music, music_time, self->speed);
    }
}

/* Music */

static gboolean
music_active (OdoriSession *self)
{
  return self->music != NULL && self->preview == NULL && odori_music_player_get_ready (self->music);
}

/* Playback goes on by the frame clock from where it is; the music starts again on the
 * next tick (a seek, another speed, a pause, a loop). */
static void
stop_music (OdoriSession *self)
{
  g_clear_handle_id (&self->snippet_id, g_source_remove);
  if (self->music != NULL)
    odori_music_player_pause (self->music);
  if (self->music_started)
    self->anchor_time = -1;
  self->music_started = FALSE;
}

/* The score's music, its path or its offset changed (or not). */
static void
refresh_music (OdoriSession *self)
{
  OdoriScore      *score = odori_document_get_score (self->document);
  g_autofree char *path = score != NULL ? odori_score_dup_music_path (score) : NULL;
  double           offset = score != NULL ? score->music.offset : 0;

  if (g_strcmp0 (path, self->music_path) == 0)
    {
      if (offset != self->music_offset)
        stop_music (self);
      self->music_offset = offset;
      return;
    }
  stop_music (self);
  g_free (self->music_path);
  self->music_path = g_steal_pointer (&path);
  self->music_offset = offset;
  if (self->music_path != NULL && self->music == NULL)
    {
      g_autoptr(GError) error = NULL;

      self->music = odori_music_player_new (&error);
      if (self->music == NULL)
        g_debug ("No music playback: %s", error->message);
    }
  if (self->music != NULL)
    odori_music_player_set_path (self->music, self->music_path);
  notify (self, PROP_MUSIC);
}

OdoriMusicPlayer *
odori_session_get_music_player (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), NULL);
  return self->music_path != NULL ? self->music : NULL;
}

const char *
odori_session_get_music_path (OdoriSession *self)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), NULL);
  return self->music_path;
}

double
odori_session_music_time_for_frame (OdoriSession *self,
                                    double        frame)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), 0);
  return self->music_offset + (frame - 1) * odori_session_get_frame_time (self);
}

double
odori_session_frame_for_music_time (OdoriSession *self,
                                    double        music_time)
{
  g_return_val_if_fail (ODORI_IS_SESSION (self), 1);
  return 1 + (music_time - self->music_offset) / odori_session_get_frame_time (self);
}

static gboolean
snippet_end_cb (gpointer data)
{
  OdoriSession *self = data;

  self->snippet_id = 0;
  if (!self->playing && self->music != NULL)
    odori_music_player_pause (self->music);
  return G_SOURCE_REMOVE;
}

void
odori_session_scrub (OdoriSession *self,
                     guint         frame)
{
  guint  before;
  double music_time;

  g_return_if_fail (ODORI_IS_SESSION (self));

  before = self->frame;
  odori_session_set_frame (self, frame);
  if (self->playing || self->frame == before || !music_active (self))
    return;
  music_time = odori_session_music_time_for_frame (self, self->frame);
  if (music_time < 0 || !odori_music_player_play (self->music, music_time, 1.0))
    return;
  self->snippet_id = g_timeout_add (SNIPPET_MS, snippet_end_cb, self);
}
