/* odori-session.h: what a window shows of its document, and how it plays
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The view state over one OdoriDocument (like SysprofSession): the playhead, playback
 * (playing, loop, speed and the frame clock's anchor), and the motion previewed alone
 * from the library. Widgets observe it; the document knows nothing of it. An edit of
 * the document ("changed") ends the preview, so the viewport shows the edit's result.
 */
#pragma once

#include <gio/gio.h>

#include "odori-document.h"
#include "odori-music-player.h"

G_BEGIN_DECLS

#define ODORI_TYPE_SESSION (odori_session_get_type ())

G_DECLARE_FINAL_TYPE (OdoriSession, odori_session, ODORI, SESSION, GObject)

OdoriSession      *odori_session_new                    (OdoriDocument      *document);
OdoriDocument     *odori_session_get_document           (OdoriSession       *self);

/* What the viewport shows: the previewed motion, else the composed dance (or, when the
 * score does not compose, the library's first pose: odori_document_get_shown_motion ()). */
OdoriMotion       *odori_session_get_display_motion     (OdoriSession       *self);
OdoriSkeleton     *odori_session_get_display_skeleton   (OdoriSession       *self);
OdoriIndexMotion  *odori_session_get_preview            (OdoriSession       *self);
gboolean           odori_session_preview                (OdoriSession       *self,
                                                         OdoriIndexMotion   *motion,
                                                         GError            **error);
void               odori_session_stop_preview           (OdoriSession       *self);
/* Seconds per frame of the display motion (1/30 when there is none). */
double             odori_session_get_frame_time         (OdoriSession       *self);

/* The playhead: 1-based frame of the display motion. */
guint              odori_session_get_frame              (OdoriSession       *self);
void               odori_session_set_frame              (OdoriSession       *self,
                                                         guint               frame);
guint              odori_session_get_n_frames           (OdoriSession       *self);
void               odori_session_step                   (OdoriSession       *self,
                                                         int                 delta);
gboolean           odori_session_get_playing            (OdoriSession       *self);
void               odori_session_set_playing            (OdoriSession       *self,
                                                         gboolean            playing);
gboolean           odori_session_get_loop               (OdoriSession       *self);
void               odori_session_set_loop               (OdoriSession       *self,
                                                         gboolean            loop);
double             odori_session_get_speed              (OdoriSession       *self);
void               odori_session_set_speed              (OdoriSession       *self,
                                                         double              speed);
/* The score's music ("music": its absolute path, or NULL) and its player (NULL without
 * music, or when GStreamer cannot play). While music that plays is set, playback follows
 * the player's position; without, the frame clock. */
OdoriMusicPlayer  *odori_session_get_music_player       (OdoriSession       *self);
const char        *odori_session_get_music_path         (OdoriSession       *self);
/* Seconds of music at (fractional) output FRAME, and back: "# MusicOffset:" at frame 1. */
double             odori_session_music_time_for_frame   (OdoriSession       *self,
                                                         double              frame);
double             odori_session_frame_for_music_time   (OdoriSession       *self,
                                                         double              music_time);
/* Moves the playhead as odori_session_set_frame () does and, while paused, plays a
 * snippet (80 ms) of the music at the new frame: scrubbing the ruler. */
void               odori_session_scrub                  (OdoriSession       *self,
                                                         guint               frame);
/* Advances playback to monotonic time TIME_US (a frame clock's time). */
void               odori_session_tick                   (OdoriSession       *self,
                                                         gint64              time_us);

G_END_DECLS
