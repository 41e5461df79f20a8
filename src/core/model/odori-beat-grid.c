/* odori-beat-grid.c: where the beats of the music fall on the output frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-beat-grid.h"

/* Frames are computed in doubles and kept below 2^52 in magnitude, where every integer
 * is exact: a tiny frame time or a huge beat index saturates there instead of
 * overflowing, and frames still never decrease with k. */
#define FRAME_LIMIT 4503599627370496.0

struct _OdoriBeatGrid
{
  gatomicrefcount ref_count;
  double          tempo; /* beats per minute (a list: the mean, or 0) */
  double          downbeat;
  guint           meter;
  double          offset;
  double          frame_time;
  double         *times; /* a list's beat times, or NULL for a tempo grid */
  gsize           n_times;
  gint64          first; /* the beats that exist */
  gint64          last;
};

static gint64
floor_div (gint64 a,
           gint64 b)
{
  gint64 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

static gint64
floor_mod (gint64 a,
           gint64 b)
{
  return a - floor_div (a, b) * b;
}

guint
odori_beat_count (gint64 beat)
{
  return (guint) floor_mod (beat, 8) + 1;
}

static OdoriBeatGrid *
grid_new (guint  meter,
          double offset,
          double frame_time)
{
  OdoriBeatGrid *grid = g_new0 (OdoriBeatGrid, 1);

  g_atomic_ref_count_init (&grid->ref_count);
  grid->meter = meter;
  grid->offset = offset;
  grid->frame_time = frame_time;
  return grid;
}

/**
 * odori_beat_grid_new:
 * @tempo: beats per minute, in (0, %ODORI_TEMPO_MAX]
 * @downbeat: seconds into the music of beat 0 (counted 1)
 * @meter: beats per bar, 1 to %ODORI_METER_MAX
 * @offset: seconds of music at output frame 1
 * @frame_time: seconds per output frame, > 0
 *
 * Returns: (transfer full): a grid with a beat every 60 / @tempo seconds
 */
OdoriBeatGrid *
odori_beat_grid_new (double tempo,
                     double downbeat,
                     guint  meter,
                     double offset,
                     double frame_time)
{
  OdoriBeatGrid *grid;

  g_return_val_if_fail (tempo > 0 && tempo <= ODORI_TEMPO_MAX, NULL);
  g_return_val_if_fail (fabs (downbeat) <= ODORI_MUSIC_SECONDS_MAX, NULL);
  g_return_val_if_fail (meter >= 1 && meter <= ODORI_METER_MAX, NULL);
  g_return_val_if_fail (fabs (offset) <= ODORI_MUSIC_SECONDS_MAX, NULL);
  g_return_val_if_fail (frame_time > 0 && isfinite (frame_time), NULL);

  grid = grid_new (meter, offset, frame_time);
  grid->tempo = tempo;
  grid->downbeat = downbeat;
  grid->first = -ODORI_BEAT_GRID_MAX_BEAT;
  grid->last = ODORI_BEAT_GRID_MAX_BEAT;
  return grid;
}

/**
 * odori_beat_grid_new_from_beats:
 * @times: (array length=n_times): beat times in seconds of music, finite, increasing
 * @n_times: how many
 * @meter: beats per bar, 1 to %ODORI_METER_MAX
 * @offset: seconds of music at output frame 1
 * @frame_time: seconds per output frame, > 0
 *
 * Returns: (transfer full): a grid of exactly these beats (beat 0 is the first)
 */
OdoriBeatGrid *
odori_beat_grid_new_from_beats (const double *times,
                                gsize         n_times,
                                guint         meter,
                                double        offset,
                                double        frame_time)
{
  OdoriBeatGrid *grid;

  g_return_val_if_fail (times != NULL || n_times == 0, NULL);
  g_return_val_if_fail (n_times <= G_MAXINT32, NULL);
  g_return_val_if_fail (meter >= 1 && meter <= ODORI_METER_MAX, NULL);
  g_return_val_if_fail (fabs (offset) <= ODORI_MUSIC_SECONDS_MAX, NULL);
  g_return_val_if_fail (frame_time > 0 && isfinite (frame_time), NULL);
  for (gsize i = 0; i < n_times; i++)
    g_return_val_if_fail (isfinite (times[i]) && (i == 0 || times[i] > times[i - 1]), NULL);

  grid = grid_new (meter, offset, frame_time);
  grid->times = g_new (double, MAX (n_times, 1));
  if (n_times > 0)
    memcpy (grid->times, times, n_times * sizeof (double));
  grid->n_times = n_times;
  grid->first = 0;
  grid->last = (gint64) n_times - 1;
  if (n_times >= 2)
    grid->tempo = 60.0 * (double) (n_times - 1) / (times[n_times - 1] - times[0]);
  if (!isfinite (grid->tempo))
    grid->tempo = 0;
  return grid;
}

/**
 * odori_beat_grid_new_for_music:
 * @music: a score's music lines
 * @beats: (nullable) (element-type double): the times of its beats file
 * @frame_time: seconds per output frame, > 0
 *
 * Returns: (transfer full) (nullable): the grid of @beats, else of @music's tempo, or
 *   %NULL when there is neither
 */
OdoriBeatGrid *
odori_beat_grid_new_for_music (const OdoriScoreMusic *music,
                               GArray                *beats,
                               double                 frame_time)
{
  guint  meter;
  double offset;

  g_return_val_if_fail (music != NULL, NULL);
  g_return_val_if_fail (odori_score_music_is_valid (music), NULL);
  g_return_val_if_fail (beats == NULL || g_array_get_element_size (beats) == sizeof (double),
                        NULL);

  meter = music->meter > 0 ? music->meter : ODORI_METER_DEFAULT;
  offset = music->has_offset ? music->offset : 0;
  if (beats != NULL)
    return odori_beat_grid_new_from_beats ((const double *) beats->data, beats->len, meter,
                                           offset, frame_time);
  if (music->tempo > 0)
    return odori_beat_grid_new (music->tempo, music->has_downbeat ? music->downbeat : 0, meter,
                                offset, frame_time);
  return NULL;
}

OdoriBeatGrid *
odori_beat_grid_ref (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, NULL);

  g_atomic_ref_count_inc (&grid->ref_count);
  return grid;
}

void
odori_beat_grid_unref (OdoriBeatGrid *grid)
{
  g_return_if_fail (grid != NULL);

  if (!g_atomic_ref_count_dec (&grid->ref_count))
    return;
  g_free (grid->times);
  g_free (grid);
}

gboolean
odori_beat_grid_is_list (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, FALSE);
  return grid->times != NULL;
}

double
odori_beat_grid_get_tempo (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, 0);
  return grid->tempo;
}

guint
odori_beat_grid_get_meter (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, ODORI_METER_DEFAULT);
  return grid->meter;
}

double
odori_beat_grid_get_offset (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, 0);
  return grid->offset;
}

double
odori_beat_grid_get_frame_time (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, 0);
  return grid->frame_time;
}

double
odori_beat_grid_get_frames_per_beat (OdoriBeatGrid *grid)
{
  g_return_val_if_fail (grid != NULL, 0);

  if (grid->tempo <= 0)
    return 0;
  return 60.0 / grid->tempo / grid->frame_time;
}

gboolean
odori_beat_grid_get_beats (OdoriBeatGrid *grid,
                           gint64        *first,
                           gint64        *last)
{
  g_return_val_if_fail (grid != NULL, FALSE);

  if (first != NULL)
    *first = grid->first;
  if (last != NULL)
    *last = grid->last;
  return grid->first <= grid->last;
}

gboolean
odori_beat_grid_has_beat (OdoriBeatGrid *grid,
                          gint64         beat)
{
  g_return_val_if_fail (grid != NULL, FALSE);
  return beat >= grid->first && beat <= grid->last;
}

/* t_k: from k alone (k·60 is exact below 2^53, then one rounding in the division). */
static double
beat_time (OdoriBeatGrid *grid,
           gint64         beat)
{
  if (grid->times != NULL)
    return grid->times[beat];
  return grid->downbeat + (double) beat * 60.0 / grid->tempo;
}

static gint64
time_frame (OdoriBeatGrid *grid,
            double         time)
{
  double x = (time - grid->offset) / grid->frame_time;

  return (gint64) round (CLAMP (x, -FRAME_LIMIT, FRAME_LIMIT)) + 1;
}

static gint64
beat_frame (OdoriBeatGrid *grid,
            gint64         beat)
{
  return time_frame (grid, beat_time (grid, beat));
}

double
odori_beat_grid_beat_time (OdoriBeatGrid *grid,
                           gint64         beat)
{
  g_return_val_if_fail (grid != NULL, 0);
  g_return_val_if_fail (odori_beat_grid_has_beat (grid, beat), 0);

  return beat_time (grid, beat);
}

gint64
odori_beat_grid_beat_frame (OdoriBeatGrid *grid,
                            gint64         beat)
{
  g_return_val_if_fail (grid != NULL, 1);
  g_return_val_if_fail (odori_beat_grid_has_beat (grid, beat), 1);

  return beat_frame (grid, beat);
}

guint
odori_beat_grid_beat_count (OdoriBeatGrid *grid,
                            gint64         beat)
{
  g_return_val_if_fail (grid != NULL, 1);
  g_return_val_if_fail (odori_beat_grid_has_beat (grid, beat), 1);

  return odori_beat_count (beat);
}

gint64
odori_beat_grid_beat_bar (OdoriBeatGrid *grid,
                          gint64         beat)
{
  g_return_val_if_fail (grid != NULL, 1);
  g_return_val_if_fail (odori_beat_grid_has_beat (grid, beat), 1);

  return floor_div (beat, grid->meter) + 1;
}

guint
odori_beat_grid_beat_in_bar (OdoriBeatGrid *grid,
                             gint64         beat)
{
  g_return_val_if_fail (grid != NULL, 1);
  g_return_val_if_fail (odori_beat_grid_has_beat (grid, beat), 1);

  return (guint) floor_mod (beat, grid->meter) + 1;
}

double
odori_beat_grid_time_to_frame (OdoriBeatGrid *grid,
                               double         time)
{
  g_return_val_if_fail (grid != NULL, 1);
  return (time - grid->offset) / grid->frame_time + 1;
}

double
odori_beat_grid_frame_to_time (OdoriBeatGrid *grid,
                               double         frame)
{
  g_return_val_if_fail (grid != NULL, 0);
  return grid->offset + (frame - 1) * grid->frame_time;
}

/* The first beat whose frame is above FRAME (STRICT) or at least FRAME, grid->last + 1 if
 * none: a binary search, frames never decreasing with k. */
static gint64
search (OdoriBeatGrid *grid,
        double         frame,
        gboolean       strict)
{
  gint64 lo = grid->first, hi = grid->last + 1;

  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2;
      double f = (double) beat_frame (grid, mid);

      if (strict ? f > frame : f >= frame)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

gboolean
odori_beat_grid_beats_in_frames (OdoriBeatGrid *grid,
                                 gint64         first_frame,
                                 gint64         last_frame,
                                 gint64        *first_beat,
                                 gint64        *last_beat)
{
  gint64 a, b;

  g_return_val_if_fail (grid != NULL, FALSE);

  if (first_frame > last_frame)
    return FALSE;
  a = search (grid, (double) first_frame, FALSE);
  b = search (grid, (double) last_frame, TRUE) - 1;
  if (a > b)
    return FALSE;
  if (first_beat != NULL)
    *first_beat = a;
  if (last_beat != NULL)
    *last_beat = b;
  return TRUE;
}

gboolean
odori_beat_grid_nearest_beat (OdoriBeatGrid *grid,
                              double         frame,
                              gint64        *beat)
{
  gint64 after, before;

  g_return_val_if_fail (grid != NULL, FALSE);
  g_return_val_if_fail (!isnan (frame), FALSE);

  if (grid->first > grid->last)
    return FALSE;
  after = search (grid, frame, FALSE);
  if (after > grid->first)
    {
      double f_before = (double) beat_frame (grid, after - 1);

      /* the first of the beats on that frame */
      before = search (grid, f_before, FALSE);
      if (after > grid->last || frame - f_before <= (double) beat_frame (grid, after) - frame)
        after = before;
    }
  if (beat != NULL)
    *beat = after;
  return TRUE;
}

gboolean
odori_beat_grid_position (OdoriBeatGrid     *grid,
                          gint64             frame,
                          OdoriBeatPosition *position)
{
  gint64 k;

  g_return_val_if_fail (grid != NULL, FALSE);
  g_return_val_if_fail (position != NULL, FALSE);

  k = search (grid, (double) frame, TRUE) - 1;
  if (k < grid->first)
    return FALSE;
  position->beat = k;
  position->bar = floor_div (k, grid->meter) + 1;
  position->beat_in_bar = (guint) floor_mod (k, grid->meter) + 1;
  position->count = odori_beat_count (k);
  position->frames_after = frame - beat_frame (grid, k);
  return TRUE;
}

char *
odori_beat_grid_format_frame (OdoriBeatGrid *grid,
                              gint64         frame)
{
  OdoriBeatPosition pos;

  g_return_val_if_fail (grid != NULL, NULL);

  if (!odori_beat_grid_position (grid, frame, &pos))
    return g_strdup (_("before the first beat"));
  /* bars stay far below 2^31: at most ODORI_BEAT_GRID_MAX_BEAT beats */
  if (pos.frames_after == 0)
    return g_strdup_printf (_("bar %d · count %u"), (int) pos.bar, pos.count);
  /* TRANSLATORS: a frame between beats; "+%d": the frames after that beat */
  return g_strdup_printf (_("bar %d · count %u +%d"), (int) pos.bar, pos.count,
                          (int) MIN (pos.frames_after, G_MAXINT));
}
