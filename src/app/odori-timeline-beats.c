/* odori-timeline-beats.c: the timeline's beat grid, tap tempo, the downbeat handle,
 * the meter and Detect Tempo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The grid (DESIGN.md "Music") comes from the score's music lines and the dance's frame
 * time, and from the "# Beats:" file when there is one; it is rebuilt when any of them
 * changes, and the file is read again when its path changes (or Detect Tempo wrote it).
 *
 * Each change of the music lines made here is one undo step: a tapping run (taps less
 * than TAP_PAUSE_US apart, nothing else done between them) takes its step back at each
 * tap and records it again from the lines before the run; a downbeat drag is applied
 * live and recorded at its end (Escape puts it back); the meter and a detection are one
 * step each. A .beats file Detect Tempo writes stays on disk: undo takes the "# Beats:"
 * line away, not the file.
 *
 * A beat mark of a beat list is dragged on the timeline's copy of the list alone (live,
 * nothing written; Escape puts it back) and recorded at its end as one step that
 * carries the list before and after (odori_score_edit_set_beats ()): the document
 * writes the list the step leaves into the .beats file, at the step, its undo and its
 * redo, and the grid reads the file again.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-beats.h"
#include "odori-media.h"
#include "odori-timeline-private.h"

/* Detected beats whose intervals spread more than this (their standard deviation over
 * their mean) are no steady pulse: they go to a .beats file. */
#define UNSTEADY_SPREAD 0.03

/* ---------------------------------------------------------------------------------- */
/* The grid                                                                           */

static void
grid_clear (OdoriTimeline *self)
{
  g_clear_pointer (&self->grid, odori_beat_grid_unref);
  odori_score_music_clear (&self->grid_music);
  self->grid_valid = FALSE;
}

OdoriBeatGrid *
_odori_timeline_beat_grid (OdoriTimeline *self)
{
  OdoriScore      *score = _odori_timeline_get_score (self);
  double           frame_time = _odori_timeline_frame_time (self);
  g_autofree char *beats_path = NULL;

  if (score == NULL || !odori_score_music_has_grid (&score->music))
    {
      grid_clear (self);
      return NULL;
    }
  beats_path = score->music.beats_path != NULL ? odori_score_dup_beats_path (score) : NULL;
  if (g_strcmp0 (beats_path, self->grid_beats_path) != 0)
    {
      g_clear_pointer (&self->grid_beats, g_array_unref);
      g_free (self->grid_beats_path);
      self->grid_beats_path = g_steal_pointer (&beats_path);
      if (self->grid_beats_path != NULL)
        {
          g_autoptr(GError) error = NULL;

          self->grid_beats = odori_beats_load (self->grid_beats_path, &error);
          if (self->grid_beats == NULL)
            g_debug ("%s: %s", self->grid_beats_path, error->message);
        }
      self->grid_valid = FALSE;
    }
  if (self->grid_valid && self->grid_frame_time == frame_time &&
      odori_score_music_equal (&self->grid_music, &score->music))
    return self->grid;
  grid_clear (self);
  odori_score_music_copy (&score->music, &self->grid_music);
  self->grid_frame_time = frame_time;
  self->grid = odori_beat_grid_new_for_music (&score->music, self->grid_beats, frame_time);
  self->grid_valid = TRUE;
  return self->grid;
}

OdoriBeatGrid *
odori_timeline_get_beat_grid (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);
  return _odori_timeline_beat_grid (self);
}

gboolean
odori_timeline_cancel_detect (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->detect_cancellable == NULL)
    return FALSE;
  g_cancellable_cancel (self->detect_cancellable);
  return TRUE;
}

void
_odori_timeline_beats_finalize (OdoriTimeline *self)
{
  grid_clear (self);
  g_clear_pointer (&self->grid_beats, g_array_unref);
  g_clear_pointer (&self->grid_beats_path, g_free);
  odori_score_music_clear (&self->tap_before);
  odori_score_music_clear (&self->downbeat_before);
  g_clear_pointer (&self->beat_before, g_array_unref);
}

gboolean
_odori_timeline_snap_to_beat (OdoriTimeline *self,
                              double         start,
                              guint         *frame)
{
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);
  gint64         beat, at;

  if (grid == NULL || !odori_beat_grid_nearest_beat (grid, start, &beat))
    return FALSE;
  at = odori_beat_grid_beat_frame (grid, beat);
  if (at < 1 || at > G_MAXUINT || fabs ((double) at - start) * self->ppf > BEAT_SNAP_PX)
    return FALSE;
  *frame = (guint) at;
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* Changing the music lines                                                           */

static gboolean
apply_music (OdoriTimeline         *self,
             const char            *label,
             const OdoriScoreMusic *before,
             const OdoriScoreMusic *after,
             GError               **error)
{
  g_autoptr(GError) local = NULL;
  OdoriScoreEdit *edit;

  if (odori_score_music_equal (before, after))
    return TRUE;
  edit = odori_score_edit_new (label);
  odori_score_edit_set_music (edit, before, after);
  if (!odori_undo_apply (self->undo, edit, &local))
    {
      _odori_timeline_emit_refused (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

static double
round_to (double x,
          double unit)
{
  return round (x / unit) * unit;
}

gboolean
odori_timeline_set_meter (OdoriTimeline *self,
                          guint          meter,
                          GError       **error)
{
  OdoriScore     *score;
  OdoriScoreMusic after = { 0 };
  gboolean        ok;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (meter >= 1 && meter <= ODORI_METER_MAX, FALSE);

  score = _odori_timeline_get_score (self);
  if (score == NULL || self->undo == NULL)
    return FALSE;
  odori_score_music_copy (&score->music, &after);
  after.meter = meter;
  ok = apply_music (self, _ ("Set Meter"), &score->music, &after, error);
  odori_score_music_clear (&after);
  return ok;
}

guint
odori_timeline_get_meter (OdoriTimeline *self)
{
  OdoriScore *score;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), ODORI_METER_DEFAULT);
  score = _odori_timeline_get_score (self);
  return score != NULL && score->music.meter > 0 ? score->music.meter : ODORI_METER_DEFAULT;
}

/* ---------------------------------------------------------------------------------- */
/* Tap tempo                                                                          */

void
_odori_timeline_beats_edit_done (OdoriTimeline  *self,
                                 OdoriScoreEdit *edit,
                                 gboolean        forward)
{
  /* A step that moved a beat wrote the .beats file: read it again. */
  if (odori_score_edit_get_sets_beats (edit))
    {
      g_clear_pointer (&self->grid_beats_path, g_free);
      g_clear_pointer (&self->grid_beats, g_array_unref);
      self->grid_valid = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  /* Any other step (an undo of the run's too) ends a tapping run. */
  if (!self->tapping)
    {
      self->tap_edit = NULL;
      self->n_taps = 0;
    }
  else if (forward)
    self->tap_edit = edit;
}

void
_odori_timeline_tap (OdoriTimeline *self,
                     gint64         time)
{
  OdoriScore     *score = _odori_timeline_get_score (self);
  OdoriScoreMusic after = { 0 };
  OdoriScoreEdit *edit;
  gboolean        merge;
  double          interval, tempo;

  if (score == NULL || self->undo == NULL)
    return;
  /* A pause, a step done since the run's last tap, or a tap back in time: a new run. */
  if (self->n_taps > 0 &&
      (time - self->taps[self->n_taps - 1] > TAP_PAUSE_US || time <= self->taps[self->n_taps - 1] ||
       (self->n_taps >= 2 && self->tap_edit == NULL)))
    self->n_taps = 0;
  if (self->n_taps == 0)
    {
      self->tap_edit = NULL;
      odori_score_music_clear (&self->tap_before);
      odori_score_music_copy (&score->music, &self->tap_before);
    }
  if (self->n_taps == TAP_MAX + 1)
    {
      memmove (self->taps, self->taps + 1, TAP_MAX * sizeof (gint64));
      self->n_taps--;
    }
  self->taps[self->n_taps++] = time;
  if (self->n_taps < 2)
    return;
  interval = (double) (self->taps[self->n_taps - 1] - self->taps[0]) / (self->n_taps - 1);
  tempo = round_to (60.0 * G_USEC_PER_SEC / interval, 0.01);
  if (!(tempo > 0) || tempo > ODORI_TEMPO_MAX)
    return;

  odori_score_music_copy (&self->tap_before, &after);
  after.tempo = tempo;
  /* A tapped tempo is the grid: a beat list would hide it. */
  g_clear_pointer (&after.beats_path, g_free);
  merge = self->tap_edit != NULL && odori_undo_get_can_undo (self->undo) && !odori_undo_get_can_redo (self->undo);
  self->tapping = TRUE;
  if (merge)
    merge = odori_undo_undo (self->undo);
  self->tap_edit = NULL;
  if (!odori_score_music_equal (&score->music, &after))
    {
      edit = odori_score_edit_new (_ ("Tap Tempo"));
      odori_score_edit_set_music (edit, &score->music, &after);
      if (!odori_undo_apply (self->undo, edit, NULL) && merge)
        odori_undo_redo (self->undo);
    }
  self->tapping = FALSE;
  odori_score_music_clear (&after);
}

gboolean
odori_timeline_tap_tempo (OdoriTimeline *self,
                          guint32        event_time)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (_odori_timeline_get_score (self) == NULL || self->undo == NULL)
    return FALSE;
  /* The key event's own time (the X server's, in ms), not when it is handled: events
   * that queue up while the window is busy keep their spacing. */
  _odori_timeline_tap (self, event_time != GDK_CURRENT_TIME ? (gint64) event_time * 1000 : g_get_monotonic_time ());
  return TRUE;
}

/* ---------------------------------------------------------------------------------- */
/* The downbeat handle                                                                */

gboolean
_odori_timeline_downbeat_x (OdoriTimeline *self,
                            double        *x)
{
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);

  if (grid == NULL || odori_beat_grid_is_list (grid))
    return FALSE;
  *x = odori_timeline_x_for_frame (self, (double) odori_beat_grid_beat_frame (grid, 0));
  return TRUE;
}

void
_odori_timeline_downbeat_begin (OdoriTimeline *self,
                                double         x)
{
  OdoriScore *score = _odori_timeline_get_score (self);
  double      handle = x;

  _odori_timeline_downbeat_x (self, &handle);
  odori_score_music_clear (&self->downbeat_before);
  odori_score_music_copy (&score->music, &self->downbeat_before);
  self->downbeat_grab = x - handle;
  self->mode = MODE_DOWNBEAT;
}

/* The music lines as they are and as the drag wants them (live, unrecorded). */
static void
downbeat_apply (OdoriTimeline         *self,
                const OdoriScoreMusic *to)
{
  OdoriScore *score = _odori_timeline_get_score (self);
  g_autoptr(OdoriScoreEdit) edit = NULL;

  if (odori_score_music_equal (&score->music, to))
    return;
  edit = odori_score_edit_new (_ ("Move Downbeat"));
  odori_score_edit_set_music (edit, &score->music, to);
  odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL);
}

void
_odori_timeline_downbeat_update (OdoriTimeline *self,
                                 double         x)
{
  OdoriBeatGrid  *grid = _odori_timeline_beat_grid (self);
  OdoriScoreMusic after = { 0 };
  double          frame, downbeat;

  if (self->mode != MODE_DOWNBEAT || grid == NULL)
    return;
  /* On a frame (so that beat 0 is where the handle was let go), to the millisecond. */
  frame = round (_odori_timeline_frame_at_x_exact (self, x - self->downbeat_grab));
  downbeat = round_to (odori_beat_grid_frame_to_time (grid, frame), 0.001);
  downbeat = CLAMP (downbeat, -ODORI_MUSIC_SECONDS_MAX, ODORI_MUSIC_SECONDS_MAX);
  odori_score_music_copy (&self->downbeat_before, &after);
  after.has_downbeat = TRUE;
  after.downbeat = downbeat;
  downbeat_apply (self, &after);
  odori_score_music_clear (&after);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_odori_timeline_downbeat_end (OdoriTimeline *self,
                              gboolean       cancel)
{
  OdoriScore     *score = _odori_timeline_get_score (self);
  OdoriScoreEdit *edit = NULL;

  if (self->mode != MODE_DOWNBEAT)
    return;
  if (cancel)
    downbeat_apply (self, &self->downbeat_before);
  else if (!odori_score_music_equal (&score->music, &self->downbeat_before))
    {
      edit = odori_score_edit_new (_ ("Move Downbeat"));
      odori_score_edit_set_music (edit, &self->downbeat_before, &score->music);
    }
  odori_undo_push_applied (self->undo, edit);
  odori_score_music_clear (&self->downbeat_before);
  self->mode = MODE_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------------------- */
/* The beat marks of a beat list                                                      */

static GArray *
times_copy (GArray *times)
{
  GArray *copy = g_array_sized_new (FALSE, FALSE, sizeof (double), times->len);

  g_array_append_vals (copy, times->data, times->len);
  return copy;
}

gboolean
_odori_timeline_beat_mark_at (OdoriTimeline *self,
                              double         x,
                              gint64        *beat)
{
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);
  gint64         k;
  double         at;

  if (grid == NULL || !odori_beat_grid_is_list (grid) || self->grid_beats == NULL ||
      !odori_beat_grid_nearest_beat (grid, _odori_timeline_frame_at_x_exact (self, x), &k) || k < 0 ||
      k >= (gint64) self->grid_beats->len)
    return FALSE;
  at = odori_timeline_x_for_frame (self, (double) odori_beat_grid_beat_frame (grid, k));
  if (fabs (x - at) > DOWNBEAT_PX)
    return FALSE;
  *beat = k;
  return TRUE;
}

void
_odori_timeline_beat_begin (OdoriTimeline *self,
                            double         x,
                            gint64         beat)
{
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);

  if (grid == NULL || self->grid_beats == NULL || beat < 0 || beat >= (gint64) self->grid_beats->len)
    return;
  g_clear_pointer (&self->beat_before, g_array_unref);
  self->beat_before = times_copy (self->grid_beats);
  self->beat_drag = beat;
  self->beat_grab = x - odori_timeline_x_for_frame (self, (double) odori_beat_grid_beat_frame (grid, beat));
  self->mode = MODE_BEAT;
}

/* The dragged list set to TIMES (as long), the grid built again from it. */
static void
beat_set (OdoriTimeline *self,
          GArray        *times)
{
  if (self->grid_beats == NULL || self->grid_beats->len != times->len)
    return;
  memcpy (self->grid_beats->data, times->data, times->len * sizeof (double));
  self->grid_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_odori_timeline_beat_update (OdoriTimeline *self,
                             double         x)
{
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);
  const double  *before;
  guint          n, k;
  double         time, lo, hi;

  if (self->mode != MODE_BEAT || grid == NULL || self->beat_before == NULL || self->grid_beats == NULL ||
      self->grid_beats->len != self->beat_before->len)
    return;
  before = (const double *) (void *) self->beat_before->data;
  n = self->beat_before->len;
  k = (guint) self->beat_drag;
  /* To the millisecond, strictly between its neighbours (the list stays increasing). */
  time = round_to (odori_beat_grid_frame_to_time (grid, _odori_timeline_frame_at_x_exact (self, x - self->beat_grab)),
                   0.001);
  lo = k > 0 ? before[k - 1] + 0.001 : 0;
  hi = k + 1 < n ? before[k + 1] - 0.001 : ODORI_BEATS_TIME_MAX;
  if (!isfinite (time) || lo > hi)
    time = before[k];
  time = CLAMP (time, lo, hi);
  if (g_array_index (self->grid_beats, double, k) == time)
    return;
  g_array_index (self->grid_beats, double, k) = time;
  self->grid_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_odori_timeline_beat_end (OdoriTimeline *self,
                          gboolean       cancel)
{
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;
  OdoriScoreEdit *edit;

  if (self->mode != MODE_BEAT)
    return;
  self->mode = MODE_NONE;
  before = g_steal_pointer (&self->beat_before);
  if (before == NULL || self->grid_beats == NULL)
    return;
  after = times_copy (self->grid_beats);
  /* Put back, then (not cancelled) recorded: the step writes the file and the grid reads
   * it again. */
  beat_set (self, before);
  if (cancel || self->undo == NULL)
    return;
  edit = odori_score_edit_new (_ ("Move Beat"));
  odori_score_edit_set_beats (edit, before, after);
  if (!odori_undo_apply (self->undo, edit, &error))
    {
      g_autofree char *message = g_strdup_printf (_ ("The beats could not be saved: %s"), error->message);

      _odori_timeline_emit_refused (self, message);
    }
}

/* ---------------------------------------------------------------------------------- */
/* Detect Tempo                                                                       */

/* The spread of the intervals between TIMES: their standard deviation over their mean. */
static double
interval_spread (const double *times,
                 guint         n)
{
  double sum = 0, sum2 = 0, mean;

  if (n < 3)
    return 0;
  for (guint i = 1; i < n; i++)
    sum += times[i] - times[i - 1];
  mean = sum / (n - 1);
  for (guint i = 1; i < n; i++)
    sum2 += (times[i] - times[i - 1] - mean) * (times[i] - times[i - 1] - mean);
  return mean > 0 ? sqrt (sum2 / (n - 1)) / mean : 0;
}

/* Where a score's detected beats go: beside it, named after it ("dance.beats"). */
static char *
beats_file_for (OdoriScore *score)
{
  g_autofree char *base = g_path_get_basename (score->path);
  char            *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_strconcat (base, ".beats", NULL);
}

static void
detect_progress_cb (double   fraction,
                    gpointer user_data)
{
  OdoriTimeline *self = user_data;

  self->detect_progress = CLAMP (fraction, 0, 1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
detect_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(OdoriTimeline) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriBeatTrack) track = odori_beat_track_detect_file_finish (result, &error);
  OdoriScore     *score = _odori_timeline_get_score (self);
  OdoriScoreMusic after = { 0 };
  const double   *times;
  guint           n = 0;

  g_clear_object (&self->detect_cancellable);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (track == NULL)
    {
      g_autofree char *message = g_strdup_printf (_ ("No tempo found: %s"), error->message);

      _odori_timeline_emit_refused (self, message);
      return;
    }
  if (score == NULL || self->undo == NULL)
    return;
  times = odori_beat_track_get_times (track, &n);
  odori_score_music_copy (&score->music, &after);
  after.tempo = CLAMP (round_to (odori_beat_track_get_tempo (track), 0.001), 0.001, ODORI_TEMPO_MAX);
  after.has_downbeat = TRUE;
  after.downbeat = CLAMP (round_to (odori_beat_track_get_downbeat (track), 0.001), -ODORI_MUSIC_SECONDS_MAX,
                          ODORI_MUSIC_SECONDS_MAX);
  g_clear_pointer (&after.beats_path, g_free);
  if (interval_spread (times, n) > UNSTEADY_SPREAD && score->path != NULL)
    {
      /* No steady pulse: the beats as found, in a file beside the score. */
      g_autofree char *name = beats_file_for (score);
      g_autofree char *dir = g_path_get_dirname (score->path);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (!odori_beats_save (times, n, path, &error))
        {
          g_autofree char *message = g_strdup_printf (_ ("The beats could not be saved: %s"), error->message);

          _odori_timeline_emit_refused (self, message);
          odori_score_music_clear (&after);
          return;
        }
      after.beats_path = g_steal_pointer (&name);
      /* The file may be new, or rewritten under the same name: read it again. */
      g_clear_pointer (&self->grid_beats_path, g_free);
      g_clear_pointer (&self->grid_beats, g_array_unref);
    }
  apply_music (self, _ ("Detect Tempo"), &score->music, &after, NULL);
  odori_score_music_clear (&after);
}

gboolean
odori_timeline_detect_tempo (OdoriTimeline *self,
                             GError       **error)
{
  OdoriScore      *score;
  g_autofree char *path = NULL;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  score = _odori_timeline_get_score (self);
  if (score == NULL || self->undo == NULL || (path = odori_score_dup_music_path (score)) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("The score has no music"));
      _odori_timeline_emit_refused (self, _ ("The score has no music"));
      return FALSE;
    }
  if (self->detect_cancellable != NULL)
    return TRUE;
  self->detect_cancellable = g_cancellable_new ();
  self->detect_progress = 0;
  odori_beat_track_detect_file_async (path, self->detect_cancellable, detect_progress_cb, self, detect_done_cb,
                                      g_object_ref (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

gboolean
odori_timeline_get_detecting (OdoriTimeline *self,
                              double        *progress)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (progress != NULL)
    *progress = self->detect_progress;
  return self->detect_cancellable != NULL;
}
