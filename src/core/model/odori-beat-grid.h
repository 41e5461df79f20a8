/* odori-beat-grid.h: where the beats of the music fall on the output frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DESIGN.md "Music": beat k (any integer) falls at music time t_k = Downbeat + k·60/Tempo
 * and at output frame round ((t_k − MusicOffset) / frame_time) + 1; its count is
 * (k mod 8) + 1 and its bar floor (k / meter) + 1 (bar 1 starts at the downbeat, the
 * beats before it are in bars 0, −1, …). A grid from a beat list (a .beats file) has the
 * list's beats only: beat k is its k-th time, from 0 (count 1, bar 1).
 *
 * Every frame is computed from k alone, never by adding beat lengths, so nothing drifts.
 * Frames never decrease with k (several beats may share a frame when beats are shorter
 * than frames); the searches below rely on that and cost O(log beats).
 *
 * A grid is immutable and ref-counted: the window builds a new one when the music lines
 * or the frame time change.
 */
#pragma once

#include <glib.h>

#include "odori-score.h"

G_BEGIN_DECLS

typedef struct _OdoriBeatGrid OdoriBeatGrid;

/* The beats a tempo grid has: k from −ODORI_BEAT_GRID_MAX_BEAT to +ODORI_BEAT_GRID_MAX_BEAT
 * (at 1000 beats per minute, more than two months of music either way). */
#define ODORI_BEAT_GRID_MAX_BEAT G_GINT64_CONSTANT (100000000)

/* Where a frame falls on a grid: the beat at or before it. */
typedef struct
{
  gint64 beat;         /* k */
  gint64 bar;          /* from 1; 0, −1… before the downbeat */
  guint  beat_in_bar;  /* 1 to meter */
  guint  count;        /* 1 to 8 */
  gint64 frames_after; /* the frame minus the beat's frame: 0 on the beat */
} OdoriBeatPosition;

/* TEMPO in (0, ODORI_TEMPO_MAX], |DOWNBEAT| and |OFFSET| at most ODORI_MUSIC_SECONDS_MAX,
 * METER 1 to ODORI_METER_MAX, FRAME_TIME > 0 (seconds per output frame). */
OdoriBeatGrid *odori_beat_grid_new (double tempo,
                                    double downbeat,
                                    guint  meter,
                                    double offset,
                                    double frame_time);
/* TIMES: N_TIMES beat times in seconds of music, finite and strictly increasing (as
 * odori_beats_load () reads them; copied). N_TIMES may be 0: a grid without beats. */
OdoriBeatGrid *odori_beat_grid_new_from_beats (const double *times,
                                               gsize         n_times,
                                               guint         meter,
                                               double        offset,
                                               double        frame_time);
/* The grid of a score's music: from BEATS (the times of its "# Beats:" file, or NULL
 * when it has none or it could not be read) if given, else from its tempo; NULL if MUSIC
 * has neither. Absent lines mean downbeat 0, meter 4, offset 0. */
OdoriBeatGrid *odori_beat_grid_new_for_music (const OdoriScoreMusic *music,
                                              GArray                *beats,
                                              double                 frame_time);
OdoriBeatGrid *odori_beat_grid_ref (OdoriBeatGrid *grid);
void           odori_beat_grid_unref (OdoriBeatGrid *grid);

/* Whether the grid is a beat list (else a tempo). */
gboolean odori_beat_grid_is_list (OdoriBeatGrid *grid);
/* The tempo; for a list, its mean tempo (0 with fewer than two beats). */
double odori_beat_grid_get_tempo (OdoriBeatGrid *grid);
guint  odori_beat_grid_get_meter (OdoriBeatGrid *grid);
double odori_beat_grid_get_offset (OdoriBeatGrid *grid);
double odori_beat_grid_get_frame_time (OdoriBeatGrid *grid);
/* Output frames per beat (for a list, the mean): for the ruler to choose what to draw. */
double odori_beat_grid_get_frames_per_beat (OdoriBeatGrid *grid);
/* The beats that exist: *FIRST to *LAST. FALSE for a list without beats. */
gboolean odori_beat_grid_get_beats (OdoriBeatGrid *grid,
                                    gint64        *first,
                                    gint64        *last);
gboolean odori_beat_grid_has_beat (OdoriBeatGrid *grid,
                                   gint64         beat);

/* Of beat K (which must exist): music time (seconds), output frame, count (1–8), bar
 * and place in the bar (1 to meter). */
double odori_beat_grid_beat_time (OdoriBeatGrid *grid,
                                  gint64         beat);
gint64 odori_beat_grid_beat_frame (OdoriBeatGrid *grid,
                                   gint64         beat);
guint  odori_beat_grid_beat_count (OdoriBeatGrid *grid,
                                   gint64         beat);
gint64 odori_beat_grid_beat_bar (OdoriBeatGrid *grid,
                                 gint64         beat);
guint  odori_beat_grid_beat_in_bar (OdoriBeatGrid *grid,
                                    gint64         beat);

/* Music time and output frame, both ways, unrounded: frame 1 is the music at OFFSET. */
double odori_beat_grid_time_to_frame (OdoriBeatGrid *grid,
                                      double         time);
double odori_beat_grid_frame_to_time (OdoriBeatGrid *grid,
                                      double         frame);

/* The beats whose frames are in [FIRST_FRAME, LAST_FRAME]: *FIRST_BEAT to *LAST_BEAT.
 * FALSE if none is. */
gboolean odori_beat_grid_beats_in_frames (OdoriBeatGrid *grid,
                                          gint64         first_frame,
                                          gint64         last_frame,
                                          gint64        *first_beat,
                                          gint64        *last_beat);
/* The beat whose frame is nearest to FRAME (fractional: a pointer position), for
 * snapping; at equal distance the earlier one. FALSE for a grid without beats. */
gboolean odori_beat_grid_nearest_beat (OdoriBeatGrid *grid,
                                       double         frame,
                                       gint64        *beat);
/* Where FRAME falls: the last beat whose frame is FRAME or before. FALSE before the
 * first beat (of a list). */
gboolean odori_beat_grid_position (OdoriBeatGrid     *grid,
                                   gint64             frame,
                                   OdoriBeatPosition *position);
/* FRAME as the inspector shows it: "bar 3 · count 5" on a beat, "bar 3 · count 5 +4"
 * four frames after it, "before the first beat" (translated). */
char *odori_beat_grid_format_frame (OdoriBeatGrid *grid,
                                    gint64         frame);

/* (K mod 8) + 1, the mathematical modulo (also for negative K). */
guint odori_beat_count (gint64 beat);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriBeatGrid, odori_beat_grid_unref)

G_END_DECLS
