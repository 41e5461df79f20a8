/* odori-music-lane.c: the score's music as a lane under the timeline's ruler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Music time T is drawn at the x of fractional frame 1 + (T − MusicOffset) / frame_time
 * of the timeline, so the playhead at frame F stands on music time
 * MusicOffset + (F − 1) · frame_time, the time the player plays at that frame.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-music-lane.h"
#include "odori-score-edit.h"
#include "odori-timeline-private.h"

struct _OdoriMusicLane
{
  GtkWidget parent_instance;

  OdoriTimeline *timeline;
  GtkAdjustment *hadjustment;
  OdoriSession  *session;
  OdoriUndo     *undo;
  OdoriWaveform *waveform;
  char          *title;
  double         progress;
  guint          n_columns;

  /* An offset drag: the music lines at its start */
  gboolean            dragging;
  OdoriScoreMusic     drag_before;
  GtkEventController *escape;
};

G_DEFINE_FINAL_TYPE (OdoriMusicLane, odori_music_lane, GTK_TYPE_WIDGET)

static const GdkRGBA wave_color = { 0.21f, 0.52f, 0.89f, 0.9f };

static OdoriScore *
get_score (OdoriMusicLane *self)
{
  OdoriDocument *document = self->undo != NULL ? odori_undo_get_document (self->undo) : NULL;

  return document != NULL ? odori_document_get_score (document) : NULL;
}

static double
music_offset (OdoriMusicLane *self)
{
  OdoriScore *score = get_score (self);

  return score != NULL ? score->music.offset : 0;
}

static double
frame_time (OdoriMusicLane *self)
{
  return self->session != NULL ? odori_session_get_frame_time (self->session) : 1.0 / 30;
}

/* The lane's x of the timeline's X (both start at the same place in the pane, but do
 * not count on it). */
static double
lane_x (OdoriMusicLane *self,
        double          x)
{
  double lx = x, ly = 0;

  if (self->timeline != NULL &&
      !gtk_widget_translate_coordinates (GTK_WIDGET (self->timeline), GTK_WIDGET (self), x, 0, &lx, &ly))
    lx = x;
  return lx;
}

static double
header_width (OdoriMusicLane *self)
{
  return lane_x (self, HEADER_WIDTH);
}

double
odori_music_lane_x_for_time (OdoriMusicLane *self,
                             double          seconds)
{
  double frame;

  g_return_val_if_fail (ODORI_IS_MUSIC_LANE (self), 0);

  if (self->timeline == NULL)
    return 0;
  frame = 1 + (seconds - music_offset (self)) / frame_time (self);
  return lane_x (self, odori_timeline_x_for_frame (self->timeline, frame));
}

/* Music time at lane x X. */
static double
time_at_x (OdoriMusicLane *self,
           double          x,
           double          x1,
           double          ppf)
{
  return music_offset (self) + (x - x1) / ppf * frame_time (self);
}

static void
odori_music_lane_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  OdoriMusicLane  *self = ODORI_MUSIC_LANE (widget);
  int              width = gtk_widget_get_width (widget);
  int              height = gtk_widget_get_height (widget);
  double           header = header_width (self);
  double           mid = height / 2.0;
  double           ppf, x1;
  GdkRGBA          fg, line, bg;
  PangoLayout     *layout;
  g_autofree char *text = NULL;

  self->n_columns = 0;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  line = fg;
  line.alpha = 0.18f;
  bg = fg;
  bg.alpha = 0.05f;
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (0, height - 1, width, 1));
  if (self->timeline == NULL)
    return;
  ppf = odori_timeline_get_pixels_per_frame (self->timeline);
  x1 = lane_x (self, odori_timeline_x_for_frame (self->timeline, 1));

  if (self->waveform != NULL && ppf > 0)
    {
      double rate = odori_waveform_get_rate (self->waveform);
      gsize  n = odori_waveform_get_n_samples (self->waveform);

      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (header, 0, MAX (width - header, 0), height));
      for (int x = (int) floor (header); x < width; x++)
        {
          double t0 = time_at_x (self, x, x1, ppf);
          double t1 = time_at_x (self, x + 1, x1, ppf);
          double s0 = floor (t0 * rate);
          double s1 = ceil (t1 * rate);
          float  lo, hi;

          if (s1 <= 0 || s0 >= (double) n)
            continue;
          s0 = MAX (s0, 0);
          s1 = MIN (MAX (s1, s0 + 1), (double) n);
          if (!odori_waveform_get_peak (self->waveform, (gsize) s0, (gsize) s1, &lo, &hi))
            continue;
          self->n_columns++;
          lo = CLAMP (lo, -1.f, 1.f);
          hi = CLAMP (hi, -1.f, 1.f);
          gtk_snapshot_append_color (snapshot, &wave_color,
                                     &GRAPHENE_RECT_INIT (x, mid - hi * (mid - 2),
                                                          1, MAX ((hi - lo) * (mid - 2), 1)));
        }
      gtk_snapshot_pop (snapshot);
    }

  /* No playhead of its own: the timeline draws one line through the ruler, this lane
   * and the tracks, and the lane is not drawn again every frame while playing. */

  /* The header: what the lane is, and the loading */
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, header, height));
  gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (header - 1, 0, 1, height));
  if (self->progress >= 0)
    /* Translators: the music lane while its waveform is read, "song.ogg 42 %" */
    text = g_strdup_printf (_ ("%s\n%.0f %%"), self->title ? self->title : "", self->progress * 100);
  else
    /* Translators: the music lane's header above the music's file name */
    text = g_strdup_printf (_ ("Music\n%s"), self->title ? self->title : "");
  layout = gtk_widget_create_pango_layout (widget, text);
  pango_layout_set_width (layout, (int) (MAX (header - 12, 10) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (8, 4));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
  if (self->progress >= 0)
    {
      GdkRGBA bar = wave_color;

      gtk_snapshot_append_color (snapshot, &bar,
                                 &GRAPHENE_RECT_INIT (header, height - 4,
                                                      MAX (width - header, 0) * CLAMP (self->progress, 0, 1), 3));
    }
}

static void
odori_music_lane_measure (GtkWidget     *widget,
                          GtkOrientation orientation,
                          int            for_size,
                          int           *minimum,
                          int           *natural,
                          int           *minimum_baseline,
                          int           *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? ODORI_MUSIC_LANE_HEIGHT : 0;
}

/* Dragging the offset */

static void
apply_music (OdoriMusicLane        *self,
             const OdoriScoreMusic *to)
{
  OdoriScore *score = get_score (self);
  g_autoptr(OdoriScoreEdit) edit = NULL;

  if (score == NULL || odori_score_music_equal (&score->music, to))
    return;
  edit = odori_score_edit_new (_ ("Move Music"));
  odori_score_edit_set_music (edit, &score->music, to);
  odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL);
}

static void
end_drag (OdoriMusicLane *self,
          gboolean        cancel)
{
  OdoriScore     *score = get_score (self);
  OdoriScoreEdit *edit = NULL;

  if (!self->dragging)
    return;
  self->dragging = FALSE;
  if (self->escape != NULL)
    {
      GtkWidget *root = gtk_event_controller_get_widget (self->escape);

      gtk_widget_remove_controller (root, self->escape);
      self->escape = NULL;
    }
  if (score != NULL)
    {
      if (cancel)
        apply_music (self, &self->drag_before);
      else if (!odori_score_music_equal (&score->music, &self->drag_before))
        {
          edit = odori_score_edit_new (_ ("Move Music"));
          odori_score_edit_set_music (edit, &self->drag_before, &score->music);
        }
      odori_undo_push_applied (self->undo, edit);
    }
  odori_score_music_clear (&self->drag_before);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_escape_cb (GtkEventControllerKey *controller,
              guint                  keyval,
              guint                  keycode,
              GdkModifierType        state,
              OdoriMusicLane        *self)
{
  if (keyval != GDK_KEY_Escape || !self->dragging)
    return FALSE;
  end_drag (self, TRUE);
  return TRUE;
}

static void
on_drag_begin_cb (GtkGestureDrag *gesture,
                  double          x,
                  double          y,
                  OdoriMusicLane *self)
{
  OdoriScore *score = get_score (self);
  GtkRoot    *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (score == NULL || self->timeline == NULL || x < header_width (self) ||
      !odori_score_music_is_set (&score->music))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  odori_score_music_clear (&self->drag_before);
  odori_score_music_copy (&score->music, &self->drag_before);
  self->dragging = TRUE;
  /* Escape cancels, whatever has the keyboard focus. */
  if (root != NULL)
    {
      self->escape = gtk_event_controller_key_new ();
      gtk_event_controller_set_propagation_phase (self->escape, GTK_PHASE_CAPTURE);
      g_signal_connect (self->escape, "key-pressed", G_CALLBACK (on_escape_cb), self);
      gtk_widget_add_controller (GTK_WIDGET (root), self->escape);
    }
}

static void
on_drag_update_cb (GtkGestureDrag *gesture,
                   double          dx,
                   double          dy,
                   OdoriMusicLane *self)
{
  OdoriScoreMusic after = { 0 };
  double          ppf;
  double          offset;

  if (!self->dragging || self->timeline == NULL)
    return;
  ppf = odori_timeline_get_pixels_per_frame (self->timeline);
  if (ppf <= 0)
    return;
  /* The waveform follows the pointer: to the right, the music comes later, so less of
   * it has passed at frame 1. To the millisecond, as the file keeps it. */
  offset = round ((self->drag_before.offset - dx / ppf * frame_time (self)) * 1000) / 1000;
  offset = CLAMP (offset, -ODORI_MUSIC_SECONDS_MAX, ODORI_MUSIC_SECONDS_MAX);
  odori_score_music_copy (&self->drag_before, &after);
  after.has_offset = offset != 0 || self->drag_before.has_offset;
  after.offset = offset;
  apply_music (self, &after);
  odori_score_music_clear (&after);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                OdoriMusicLane *self)
{
  end_drag (self, FALSE);
}

static void
on_drag_cancel_cb (GtkGesture       *gesture,
                   GdkEventSequence *sequence,
                   OdoriMusicLane   *self)
{
  end_drag (self, TRUE);
}

/* GObject */

static void
on_queue_draw_cb (OdoriMusicLane *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_hadjustment (OdoriMusicLane *self,
                 GtkAdjustment  *adjustment)
{
  if (self->hadjustment == adjustment)
    return;
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  g_set_object (&self->hadjustment, adjustment);
  if (adjustment != NULL)
    g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (on_queue_draw_cb), self);
}

static void
on_hadjustment_notify_cb (OdoriMusicLane *self)
{
  GtkAdjustment *adjustment = NULL;

  if (self->timeline != NULL)
    g_object_get (self->timeline, "hadjustment", &adjustment, NULL);
  set_hadjustment (self, adjustment);
  g_clear_object (&adjustment);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
odori_music_lane_dispose (GObject *object)
{
  OdoriMusicLane *self = ODORI_MUSIC_LANE (object);

  end_drag (self, TRUE);
  odori_music_lane_set_timeline (self, NULL);
  odori_music_lane_set_session (self, NULL);
  g_clear_object (&self->undo);
  g_clear_pointer (&self->waveform, odori_waveform_unref);
  G_OBJECT_CLASS (odori_music_lane_parent_class)->dispose (object);
}

static void
odori_music_lane_finalize (GObject *object)
{
  OdoriMusicLane *self = ODORI_MUSIC_LANE (object);

  odori_score_music_clear (&self->drag_before);
  g_free (self->title);
  G_OBJECT_CLASS (odori_music_lane_parent_class)->finalize (object);
}

static void
odori_music_lane_class_init (OdoriMusicLaneClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_music_lane_dispose;
  object_class->finalize = odori_music_lane_finalize;
  widget_class->snapshot = odori_music_lane_snapshot;
  widget_class->measure = odori_music_lane_measure;
  gtk_widget_class_set_css_name (widget_class, "odori-music-lane");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
odori_music_lane_init (OdoriMusicLane *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->progress = -1;
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end_cb), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (on_drag_cancel_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "ew-resize");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _ ("The music: drag it sideways to move it against the dance (Escape cancels)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _ ("Music"), -1);
}

GtkWidget *
odori_music_lane_new (void)
{
  return g_object_new (ODORI_TYPE_MUSIC_LANE, NULL);
}

void
odori_music_lane_set_timeline (OdoriMusicLane *self,
                               OdoriTimeline  *timeline)
{
  g_return_if_fail (ODORI_IS_MUSIC_LANE (self));
  g_return_if_fail (timeline == NULL || ODORI_IS_TIMELINE (timeline));

  if (self->timeline == timeline)
    return;
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  set_hadjustment (self, NULL);
  g_set_object (&self->timeline, timeline);
  if (timeline != NULL)
    {
      g_signal_connect_swapped (timeline, "notify::pixels-per-frame", G_CALLBACK (on_queue_draw_cb), self);
      g_signal_connect_swapped (timeline, "notify::hadjustment", G_CALLBACK (on_hadjustment_notify_cb), self);
      on_hadjustment_notify_cb (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
odori_music_lane_set_session (OdoriMusicLane *self,
                              OdoriSession   *session)
{
  g_return_if_fail (ODORI_IS_MUSIC_LANE (self));
  g_return_if_fail (session == NULL || ODORI_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    g_signal_connect_swapped (session, "motion-changed", G_CALLBACK (on_queue_draw_cb), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
odori_music_lane_set_undo (OdoriMusicLane *self,
                           OdoriUndo      *undo)
{
  g_return_if_fail (ODORI_IS_MUSIC_LANE (self));
  g_return_if_fail (undo == NULL || ODORI_IS_UNDO (undo));

  end_drag (self, TRUE);
  g_set_object (&self->undo, undo);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
odori_music_lane_set_waveform (OdoriMusicLane *self,
                               OdoriWaveform  *waveform)
{
  g_return_if_fail (ODORI_IS_MUSIC_LANE (self));

  if (self->waveform == waveform)
    return;
  g_clear_pointer (&self->waveform, odori_waveform_unref);
  self->waveform = waveform != NULL ? odori_waveform_ref (waveform) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

OdoriWaveform *
odori_music_lane_get_waveform (OdoriMusicLane *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_LANE (self), NULL);
  return self->waveform;
}

void
odori_music_lane_set_title (OdoriMusicLane *self,
                            const char     *title)
{
  g_return_if_fail (ODORI_IS_MUSIC_LANE (self));

  g_free (self->title);
  self->title = g_strdup (title);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
odori_music_lane_set_progress (OdoriMusicLane *self,
                               double          fraction)
{
  g_return_if_fail (ODORI_IS_MUSIC_LANE (self));

  self->progress = fraction < 0 ? -1 : MIN (fraction, 1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
odori_music_lane_get_progress (OdoriMusicLane *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_LANE (self), -1);
  return self->progress;
}

guint
odori_music_lane_get_n_columns (OdoriMusicLane *self)
{
  g_return_val_if_fail (ODORI_IS_MUSIC_LANE (self), 0);
  return self->n_columns;
}
