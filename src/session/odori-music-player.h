/* odori-music-player.h: the music of a score, played
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GStreamer playbin with scaletempo as its audio filter, so that speeds other than 1×
 * keep the pitch. The audio sink is the description in the environment variable
 * ODORI_AUDIO_SINK ("fakesink sync=true" in the tests: it keeps time without a device),
 * else autoaudiosink. No GTK and no bus watch: the bus is read on each call, so the
 * player works in any thread that owns it, with or without a main loop.
 *
 * Positions are seconds into the music. While playing, odori_music_player_get_position ()
 * extrapolates the pipeline's position between its updates with the monotonic clock, so
 * a playhead that follows it moves every frame.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ODORI_TYPE_MUSIC_PLAYER (odori_music_player_get_type ())

G_DECLARE_FINAL_TYPE (OdoriMusicPlayer, odori_music_player, ODORI, MUSIC_PLAYER, GObject)

/* NULL (with ERROR) when GStreamer, playbin, scaletempo or the sink is missing. */
OdoriMusicPlayer *odori_music_player_new (GError **error);
/* Loads the music at PATH (NULL: none) and prerolls it, paused. A file that does not
 * decode shows as odori_music_player_get_error () soon after. */
void        odori_music_player_set_path (OdoriMusicPlayer *self,
                                         const char       *path);
const char *odori_music_player_get_path (OdoriMusicPlayer *self);
/* Whether music is loaded and has not failed. */
gboolean odori_music_player_get_ready (OdoriMusicPlayer *self);
/* Why the music cannot play (NULL while it can). */
const GError *odori_music_player_get_error (OdoriMusicPlayer *self);
/* The duration in seconds, or -1 when not known yet. */
double odori_music_player_get_duration (OdoriMusicPlayer *self);
/* Plays from POSITION seconds at RATE (0.25 to 2: the pitch is kept). */
gboolean odori_music_player_play (OdoriMusicPlayer *self,
                                  double            position,
                                  double            rate);
void     odori_music_player_pause (OdoriMusicPlayer *self);
gboolean odori_music_player_get_playing (OdoriMusicPlayer *self);
/* Whether the music played to its end since the last play. */
gboolean odori_music_player_get_eos (OdoriMusicPlayer *self);
/* The position at monotonic time NOW_US (g_get_monotonic_time () or a frame clock's
 * time): FALSE while playing has not started yet (a seek or the sink prerolling), after
 * the end, or when paused. */
gboolean odori_music_player_get_position (OdoriMusicPlayer *self,
                                          gint64            now_us,
                                          double           *position);
/* The pipeline's own position right now, without extrapolation (what the tests compare
 * the playhead with); FALSE when it cannot tell. */
gboolean odori_music_player_query_position (OdoriMusicPlayer *self,
                                            double           *position);

G_END_DECLS
