/* odori-music-lane.h: the score's music as a lane under the timeline's ruler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A strip as wide as the timeline, in its frames (same pixels per frame and scroll): the
 * music's waveform (min/max per pixel column, at any zoom) shifted by "# MusicOffset:",
 * and the playhead. Dragging it sideways moves the music against the dance: the offset
 * follows live, is one undo step at the release, and Escape puts it back. While the
 * waveform loads, the lane shows how far it got.
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-media.h"
#include "odori-session.h"
#include "odori-timeline.h"
#include "odori-undo.h"

G_BEGIN_DECLS

/* The lane's height in pixels. */
#define ODORI_MUSIC_LANE_HEIGHT 44

#define ODORI_TYPE_MUSIC_LANE (odori_music_lane_get_type ())

G_DECLARE_FINAL_TYPE (OdoriMusicLane, odori_music_lane, ODORI, MUSIC_LANE, GtkWidget)

GtkWidget *odori_music_lane_new (void);
/* The timeline whose frames the lane follows. */
void odori_music_lane_set_timeline (OdoriMusicLane *self,
                                    OdoriTimeline  *timeline);
/* The playhead and the offset's frame time. */
void odori_music_lane_set_session (OdoriMusicLane *self,
                                   OdoriSession   *session);
/* The stack the offset drags are recorded in (its document is the one edited). */
void odori_music_lane_set_undo (OdoriMusicLane *self,
                                OdoriUndo      *undo);
/* The peaks drawn (NULL: none yet). */
void           odori_music_lane_set_waveform (OdoriMusicLane *self,
                                              OdoriWaveform  *waveform);
OdoriWaveform *odori_music_lane_get_waveform (OdoriMusicLane *self);
/* The music's name shown in the lane's header. */
void odori_music_lane_set_title (OdoriMusicLane *self,
                                 const char     *title);
/* FRACTION (0 to 1) of the waveform read so far; a negative value: not loading. */
void   odori_music_lane_set_progress (OdoriMusicLane *self,
                                      double          fraction);
double odori_music_lane_get_progress (OdoriMusicLane *self);
/* The x of music time SECONDS in the lane's coordinates. */
double odori_music_lane_x_for_time (OdoriMusicLane *self,
                                    double          seconds);
/* The pixel columns drawn with peaks in the last snapshot (for the tests). */
guint odori_music_lane_get_n_columns (OdoriMusicLane *self);

G_END_DECLS
