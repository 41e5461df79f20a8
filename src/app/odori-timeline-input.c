/* odori-timeline-input.c: the timeline's pointer, drops and keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One GtkGestureDrag serves click, move, rubber band and scrubbing; a move is applied
 * live (unrecorded) as the pointer goes and recorded as one undo step at the end. Keys
 * are widget actions with class bindings.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-library-model.h"
#include "odori-score-edit.h"
#include "odori-debug.h"
#include "odori-timeline-private.h"

/* ---------------------------------------------------------------------------------- */
/* Pointer: click, move, rubber band, scrub                                           */

static void
drag_item_clear (DragItem *item)
{
  g_clear_pointer (&item->symbol, g_free);
}

/* The frame for a click at X in the ruler: on a tick when the pointer is within a few
 * pixels of one, so the playhead (and a paste at it) lands on the frame the ruler's
 * label names. Below a pixel per frame, the pixel under the pointer spans several
 * frames and would otherwise round a frame or two past the tick. */
static guint
ruler_frame_at_x (OdoriTimeline *self,
                  double         x)
{
  double exact = _odori_timeline_frame_at_x_exact (self, x);
  guint tick = MAX (_odori_timeline_ruler_tick (self), 1);
  double nearest = round ((exact - 1) / tick) * tick + 1;
  OdoriBeatGrid *grid = _odori_timeline_beat_grid (self);
  gint64 beat, at;

  /* A beat first (its count is what the ruler shows there). */
  if (grid != NULL && odori_beat_grid_nearest_beat (grid, exact, &beat) &&
      (at = odori_beat_grid_beat_frame (grid, beat)) >= 1 && at <= G_MAXUINT &&
      fabs (odori_timeline_x_for_frame (self, (double) at) - x) <= RULER_SNAP_PX)
    return (guint) at;
  if (nearest >= 1 && fabs (odori_timeline_x_for_frame (self, nearest) - x) <= RULER_SNAP_PX)
    return (guint) nearest;
  return odori_timeline_frame_at_x (self, x);
}

static void
seek (OdoriTimeline *self,
      double         x)
{
  if (self->session == NULL)
    return;
  odori_session_stop_preview (self->session);
  /* With music, a snippet of it plays at each new frame. */
  odori_session_scrub (self->session, ruler_frame_at_x (self, x));
}

static void
set_focus (OdoriTimeline *self,
           int            track,
           guint          start)
{
  self->focus_part = track;
  self->focus_start = start;
  _odori_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Shift-click: the symbols of the focused track from the focused one to START. */
static void
select_range (OdoriTimeline *self,
              guint          track,
              guint          start)
{
  OdoriScorePart *part = _odori_timeline_get_part (self, track);
  guint from = self->focus_start, lo, hi;

  if ((int) track != self->focus_part || from == 0)
    {
      _odori_timeline_sel_add (self, track, start);
      return;
    }
  lo = MIN (from, start);
  hi = MAX (from, start);
  for (guint i = odori_score_part_lower_bound (part, lo); i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *s = _odori_timeline_symbol_at_index (part, i);

      if (s->start > hi)
        break;
      _odori_timeline_sel_add (self, track, s->start);
    }
}

void
_odori_timeline_pointer_press (OdoriTimeline   *self,
                               double           x,
                               double           y,
                               GdkModifierType  state)
{
  OdoriScoreSymbol *s;
  int track;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  self->mode = MODE_NONE;
  self->nudge_edit = NULL;
  self->press_x = self->pointer_x = x;
  self->press_y = y;
  self->press_state = state;
  if (self->document == NULL)
    return;

  if (y < RULER_HEIGHT && x >= HEADER_WIDTH)
    {
      double handle;
      gint64 beat;

      /* The downbeat handle, in the ruler's row of beats. */
      if (y >= RULER_HEIGHT / 2 && self->undo != NULL && _odori_timeline_downbeat_x (self, &handle) &&
          fabs (x - handle) <= DOWNBEAT_PX)
        {
          _odori_timeline_downbeat_begin (self, x);
          return;
        }
      /* A beat mark of a beat list, there too. */
      if (y >= RULER_HEIGHT / 2 && self->undo != NULL && _odori_timeline_beat_mark_at (self, x, &beat))
        {
          _odori_timeline_beat_begin (self, x, beat);
          return;
        }
      self->mode = MODE_SCRUB;
      seek (self, x);
      return;
    }
  track = odori_timeline_track_at_y (self, y);
  if (track < 0)
    return;
  if (x < HEADER_WIDTH)
    {
      set_focus (self, track, 0);
      return;
    }
  /* The playhead line is grabbed anywhere along it. */
  if (self->session != NULL &&
      fabs (x - odori_timeline_x_for_frame (self, odori_session_get_frame (self->session) + 0.5)) <= 3 &&
      odori_session_get_preview (self->session) == NULL)
    {
      self->mode = MODE_SCRUB;
      return;
    }

  /* An edge or the blend handle: the block selected alone, shaped by the drag. */
  self->shape_edge = _odori_timeline_edge_at (self, x, y, &s);
  if (self->shape_edge != EDGE_NONE)
    {
      self->press_part = track;
      self->press_start = s->start;
      self->press_was_selected = _odori_timeline_sel_contains (self, track, s->start);
      if (!self->press_was_selected || self->n_selected > 1)
        {
          _odori_timeline_sel_clear (self);
          _odori_timeline_sel_add (self, track, s->start);
        }
      self->focus_part = track;
      self->focus_start = s->start;
      self->mode = MODE_PRESS_EDGE;
      _odori_timeline_selection_changed (self);
      return;
    }

  s = _odori_timeline_symbol_under (self, track, x);
  if (s != NULL)
    {
      self->press_part = track;
      self->press_start = s->start;
      self->press_was_selected = _odori_timeline_sel_contains (self, track, s->start);
      if (state & GDK_CONTROL_MASK)
        {
          if (self->press_was_selected)
            _odori_timeline_sel_remove (self, track, s->start);
          else
            _odori_timeline_sel_add (self, track, s->start);
        }
      else if (state & GDK_SHIFT_MASK)
        select_range (self, track, s->start);
      else if (!self->press_was_selected)
        {
          _odori_timeline_sel_clear (self);
          _odori_timeline_sel_add (self, track, s->start);
        }
      self->focus_part = track;
      self->focus_start = s->start;
      self->mode = MODE_PRESS_BLOCK;
      _odori_timeline_selection_changed (self);
      return;
    }

  /* Empty lane: a rubber band, adding to the selection with Shift or Ctrl. */
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  if (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK))
    self->band_base = _odori_timeline_sel_copy (self);
  else if (self->n_selected > 0)
    {
      _odori_timeline_sel_clear (self);
      _odori_timeline_selection_changed (self);
    }
  self->band_x0 = self->band_x1 = x + _odori_timeline_hvalue (self);
  self->band_y0 = self->band_y1 = y + _odori_timeline_vvalue (self);
  self->focus_part = track;
  self->focus_start = 0;
  self->mode = MODE_BAND;
  _odori_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
begin_move (OdoriTimeline *self)
{
  g_clear_pointer (&self->drag_items, g_array_unref);
  self->drag_items = g_array_new (FALSE, TRUE, sizeof (DragItem));
  g_array_set_clear_func (self->drag_items, (GDestroyNotify) drag_item_clear);
  self->drag_min_start = G_MAXUINT;
  self->drag_primary = 0;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));
          DragItem item = { t, 0, NULL, 0, 0 };

          if (s == NULL)
            continue;
          item.start = s->start;
          item.symbol = g_strdup (s->symbol);
          item.line = s->line;
          item.n = _odori_timeline_symbol_length (self, s);
          item.mods = s->mods;
          if (t == self->press_part && s->start == self->press_start)
            self->drag_primary = self->drag_items->len;
          self->drag_min_start = MIN (self->drag_min_start, s->start);
          g_array_append_val (self->drag_items, item);
        }
    }
  g_clear_pointer (&self->snap_frames, g_array_unref);
  self->snap_frames = _odori_timeline_collect_snap_frames (self, TRUE);
  self->drag_delta = 0;
  self->drag_track_delta = 0;
  g_clear_pointer (&self->drag_refusal, g_free);
  self->drag_frame0 = self->session ? odori_session_get_frame (self->session) : 1;
  if (self->session != NULL)
    odori_session_set_playing (self->session, FALSE);
  self->mode = MODE_MOVE;
}

/* The drag's edit from the items at FROM frames (and FROM_TRACKS tracks) off their
 * origin to TO (TO_TRACKS): a move along the tracks keeps each symbol's line; a move
 * across them takes it off one track and puts it on another. */
static OdoriScoreEdit *
drag_edit (OdoriTimeline *self,
           int            from,
           int            from_tracks,
           int            to,
           int            to_tracks)
{
  OdoriScoreEdit *edit = odori_score_edit_new (_("Move"));

  for (guint i = 0; i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);
      OdoriScoreSymbol s = { (guint) ((int) item->start + from), item->symbol, item->line, item->mods };

      if (from_tracks == to_tracks)
        odori_score_edit_move_symbol (edit, (guint) ((int) item->part + from_tracks), &s,
                                      (guint) ((int) item->start + to));
      else
        {
          if (from_tracks != 0)
            s.line = 0;
          odori_score_edit_remove_symbol (edit, (guint) ((int) item->part + from_tracks), &s);
          odori_score_edit_add_symbol_full (edit, (guint) ((int) item->part + to_tracks),
                                            (guint) ((int) item->start + to), item->symbol, &item->mods);
        }
    }
  return edit;
}

/* Whether every item can land DELTA frames and TRACKS tracks off its origin (no unmoved
 * symbol there). */
static gboolean
move_fits (OdoriTimeline *self,
           int            delta,
           int            tracks)
{
  for (guint i = 0; i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);
      guint at = (guint) ((int) item->start + delta);
      guint part = (guint) ((int) item->part + tracks);

      /* The selection is where the items are now: a selected symbol there moves too. */
      if (_odori_timeline_find_symbol (self, part, at) != NULL &&
          !_odori_timeline_sel_contains (self, part, at))
        return FALSE;
    }
  return TRUE;
}

/* The selection (and the focus) follow the dragged items to DELTA, TRACKS. */
static void
sel_follow (OdoriTimeline *self,
            int            delta,
            int            tracks)
{
  DragItem *primary = &g_array_index (self->drag_items, DragItem, self->drag_primary);

  _odori_timeline_sel_clear (self);
  for (guint i = 0; i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);

      _odori_timeline_sel_add (self, (guint) ((int) item->part + tracks), (guint) ((int) item->start + delta));
    }
  self->focus_part = (int) primary->part + tracks;
  self->focus_start = (guint) ((int) primary->start + delta);
}

/* Puts the dragged symbols DELTA frames and TRACKS tracks off their origin, live. */
static void
move_to (OdoriTimeline *self,
         int            delta,
         int            tracks)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  DragItem *primary;

  if ((delta == self->drag_delta && tracks == self->drag_track_delta) || !move_fits (self, delta, tracks))
    return;
  edit = drag_edit (self, self->drag_delta, self->drag_track_delta, delta, tracks);
  if (!odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL))
    return;
  self->drag_delta = delta;
  self->drag_track_delta = tracks;
  sel_follow (self, delta, tracks);
  /* Dragging scrubs: the viewport shows the moved symbol's first frame. */
  primary = &g_array_index (self->drag_items, DragItem, self->drag_primary);
  if (self->session != NULL)
    odori_session_set_frame (self->session, (guint) ((int) primary->start + delta));
  /* The inspector shows the dragged block where it is now. */
  _odori_timeline_selection_changed (self);
}

/* The tracks the pointer at Y asks the items to move by, when every item can go there;
 * else the current offset, with the reason kept for the user. */
static int
drag_tracks (OdoriTimeline *self,
             double         y)
{
  int n = (int) _odori_timeline_n_parts (self);
  int under = odori_timeline_track_at_y (self, y);
  int tracks, lo = 0, hi = 0;

  if (under < 0)
    return self->drag_track_delta;
  for (guint i = 0; i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);

      lo = i == 0 ? (int) item->part : MIN (lo, (int) item->part);
      hi = i == 0 ? (int) item->part : MAX (hi, (int) item->part);
    }
  tracks = CLAMP (under - (int) self->press_part, -lo, n - 1 - hi);
  g_clear_pointer (&self->drag_refusal, g_free);
  self->drag_refused_part = -1;
  for (guint i = 0; tracks != 0 && i < self->drag_items->len; i++)
    {
      DragItem *item = &g_array_index (self->drag_items, DragItem, i);
      OdoriScorePart *part = _odori_timeline_get_part (self, (guint) ((int) item->part + tracks));
      g_autoptr(GError) why = NULL;

      if (!odori_document_check_symbol (self->document, part, item->symbol, &why))
        {
          self->drag_refusal = g_strdup (why->message);
          self->drag_refused_part = under;
          return self->drag_track_delta;
        }
    }
  return tracks;
}

static void
update_move (OdoriTimeline   *self,
             double           x,
             double           y,
             GdkModifierType  state)
{
  DragItem *primary;
  int delta, tracks;

  if (self->drag_items->len == 0)
    return;
  primary = &g_array_index (self->drag_items, DragItem, self->drag_primary);
  delta = (int) lround ((x - self->press_x) / self->ppf);
  /* Snapping (Shift held: free). */
  if (self->snap && !(state & GDK_SHIFT_MASK))
    {
      guint start = (guint) MAX ((int) primary->start + delta, 1);

      delta = (int) _odori_timeline_snap_start (self, self->snap_frames, start,
                                                primary->n) - (int) primary->start;
    }
  delta = MAX (delta, 1 - (int) self->drag_min_start);
  tracks = drag_tracks (self, y);
  move_to (self, delta, tracks);
  /* A track that cannot drive the symbols is no place to drop them. */
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->drag_refusal != NULL ? "not-allowed" : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
end_move (OdoriTimeline *self)
{
  g_autofree char *refusal = g_steal_pointer (&self->drag_refusal);

  self->drag_refused_part = -1;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), NULL);
  /* Back where it began (or cancelled): nothing recorded, the dirty mark as it was. */
  odori_undo_push_applied (self->undo, self->drag_delta != 0 || self->drag_track_delta != 0
                                       ? drag_edit (self, 0, 0, self->drag_delta, self->drag_track_delta)
                                       : NULL);
  self->nudge_edit = NULL;
  g_clear_pointer (&self->drag_items, g_array_unref);
  g_clear_pointer (&self->snap_frames, g_array_unref);
  _odori_timeline_selection_changed (self);
  /* Released over a track that could not take it: say why. */
  if (refusal != NULL)
    _odori_timeline_emit_refused (self, refusal);
}

/* ---------------------------------------------------------------------------------- */
/* Shaping a block: its edges trim it (Ctrl: change its speed), its ramp is its blend  */

static guint
shape_score_blend (OdoriTimeline         *self,
                   const OdoriSymbolMods *mods)
{
  return mods->has_blend ? mods->blend : (guint) MAX (_odori_timeline_blend_frames (self), 0);
}

Edge
_odori_timeline_edge_at (OdoriTimeline     *self,
                         double             x,
                         double             y,
                         OdoriScoreSymbol **symbol)
{
  OdoriScorePart *part;
  OdoriScoreSymbol *s;
  double x0, x1, top, zone;
  guint end;
  int track, i;

  if (symbol != NULL)
    *symbol = NULL;
  track = odori_timeline_track_at_y (self, y);
  if (self->document == NULL || track < 0 || x < HEADER_WIDTH ||
      (s = _odori_timeline_symbol_under (self, track, x)) == NULL)
    return EDGE_NONE;
  if (symbol != NULL)
    *symbol = s;
  part = _odori_timeline_get_part (self, track);
  i = odori_score_part_find_symbol (part, s->start);
  end = _odori_timeline_symbol_end (self, s);
  if (i >= 0 && (guint) i + 1 < part->symbols->len)
    end = MIN (end, _odori_timeline_symbol_at_index (part, i + 1)->start);
  x0 = odori_timeline_x_for_frame (self, s->start);
  x1 = odori_timeline_x_for_frame (self, end);
  top = _odori_timeline_row_top (self, track) + BLOCK_INSET;
  /* A block a few pixels wide is for moving: no edges. */
  if (x1 - x0 < 3 * EDGE_PX)
    return EDGE_NONE;
  zone = EDGE_PX;
  /* The blend handle sits on the top edge where the ramp ends (the first symbol of a
   * track blends from nothing: it has none unless the score gives it its own). */
  if ((i > 0 || s->mods.has_blend) && x1 - x0 >= 3 * EDGE_PX && y <= top + BLEND_KNOB_H)
    {
      double bx = MIN (odori_timeline_x_for_frame (self, s->start + shape_score_blend (self, &s->mods)), x1);

      if (fabs (x - bx) <= BLEND_KNOB_PX)
        return EDGE_BLEND;
    }
  if (x - x0 <= zone)
    return EDGE_LEFT;
  if (x1 - x <= zone)
    return EDGE_RIGHT;
  return EDGE_NONE;
}

/* The speed at which N clip frames last M frames: the shortest decimal that does. */
static double
nice_speed (guint n,
            guint m)
{
  double exact = CLAMP ((double) n / MAX (m, 1), ODORI_SPEED_MIN, ODORI_SPEED_MAX);

  for (int digits = 1; digits <= 4; digits++)
    {
      double scale = pow (10, digits);
      double s = CLAMP (round (exact * scale) / scale, ODORI_SPEED_MIN, ODORI_SPEED_MAX);
      OdoriSymbolMods mods = { .speed = s };

      if (odori_symbol_mods_copy_frames (&mods, n) == m)
        return s;
    }
  return exact;
}

/* The symbol's speed when its N' trimmed frames, repeated, are to last LENGTH frames
 * (kept as it was when that is what it gives). */
static void
shape_speed (OdoriTimeline   *self,
             OdoriSymbolMods *mods,
             int              length)
{
  guint r = odori_symbol_mods_get_repeat (mods);
  guint trimmed = odori_symbol_mods_trim (mods, self->shape_n, NULL, NULL);
  guint m = (guint) MAX (lround ((double) MAX (length, 1) / r), 1);
  double speed;

  if (m == odori_symbol_mods_copy_frames (&self->shape_orig.mods, self->shape_n))
    return;
  speed = nice_speed (trimmed, m);
  mods->speed = speed == 1.0 ? 0 : speed;
}

/* Where the block's first frame is after IN moved from A to A2 (SPEED clip frames a
 * frame): the motion's later part stays where it was. */
static int
shape_left_start (OdoriTimeline *self,
                  guint          a,
                  guint          a2,
                  double         speed)
{
  return (int) self->shape_orig.start + (int) lround (((double) a2 - a) / speed);
}

/* The block the pointer at X makes of the one pressed: *START and *MODS. FALSE where it
 * cannot go (before frame 1 or the previous symbol). */
static gboolean
shape_target (OdoriTimeline   *self,
              double           x,
              GdkModifierType  state,
              guint           *start,
              OdoriSymbolMods *mods)
{
  const OdoriScoreSymbol *o = &self->shape_orig;
  int d = (int) lround ((x - self->press_x) / self->ppf);
  int lo = (int) MAX (self->shape_prev + 1, 1);
  guint a, b, n = self->shape_n, r = odori_symbol_mods_get_repeat (&o->mods);
  double speed = odori_symbol_mods_get_speed (&o->mods);
  int length = (int) odori_symbol_mods_length (&o->mods, n);

  *start = o->start;
  *mods = o->mods;
  if (d == 0)
    return TRUE;
  odori_symbol_mods_trim (&o->mods, n, &a, &b);
  switch (self->shape_edge)
    {
    case EDGE_BLEND:
      {
        int blend = CLAMP ((int) shape_score_blend (self, &o->mods) + d, 0, ODORI_BLEND_MAX);

        mods->has_blend = TRUE;
        mods->blend = (guint) blend;
        return TRUE;
      }
    case EDGE_RIGHT:
      if (state & GDK_CONTROL_MASK)
        shape_speed (self, mods, (int) self->shape_end - (int) o->start + d);
      else
        {
          double per_copy = (double) MAX ((int) self->shape_end - (int) o->start + d, 1) / r;
          int out = (int) a + (int) lround (per_copy * speed) - 1;

          out = CLAMP (out, (int) a, (int) n);
          if ((guint) out != b)
            mods->out = (guint) out == n ? 0 : (guint) out;
        }
      return TRUE;
    case EDGE_LEFT:
      if (state & GDK_CONTROL_MASK)
        {
          /* The end stays: the start follows the edge. */
          int end = (int) o->start + length;

          shape_speed (self, mods, length - d);
          *start = (guint) MAX (end - (int) odori_symbol_mods_length (mods, n), 1);
          return end - (int) odori_symbol_mods_length (mods, n) >= lo;
        }
      else
        {
          int a2 = CLAMP ((int) a + (int) lround (d * speed), 1, (int) b);

          while (shape_left_start (self, a, (guint) a2, speed) < lo && a2 < (int) b)
            a2++;
          if (shape_left_start (self, a, (guint) a2, speed) < lo)
            return FALSE;
          if ((guint) a2 != a)
            mods->in = a2 == 1 ? 0 : (guint) a2;
          *start = (guint) shape_left_start (self, a, (guint) a2, speed);
          return TRUE;
        }
    case EDGE_NONE:
    default:
      return FALSE;
    }
}

static void
shape_select (OdoriTimeline *self,
              guint          start)
{
  _odori_timeline_sel_clear (self);
  _odori_timeline_sel_add (self, self->shape_part, start);
  self->focus_part = (int) self->shape_part;
  self->focus_start = start;
  _odori_timeline_selection_changed (self);
}

/* The block as it is now (START, MODS) replaced by itself at NEW_START with NEW_MODS. */
static OdoriScoreEdit *
shape_edit (OdoriTimeline         *self,
            const char            *label,
            guint                  start,
            const OdoriSymbolMods *mods,
            guint                  new_start,
            const OdoriSymbolMods *new_mods)
{
  OdoriScoreEdit *edit = odori_score_edit_new (label);
  OdoriScoreSymbol now = { start, self->shape_orig.symbol, self->shape_orig.line, *mods };

  odori_score_edit_replace_symbol (edit, self->shape_part, &now, self->shape_part, new_start, new_mods);
  return edit;
}

static gboolean
begin_shape (OdoriTimeline *self)
{
  OdoriScorePart *part = _odori_timeline_get_part (self, self->press_part);
  OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, self->press_part, self->press_start);
  int i;

  if (s == NULL || part == NULL)
    return FALSE;
  g_clear_pointer (&self->shape_orig.symbol, g_free);
  self->shape_orig = *s;
  self->shape_orig.symbol = g_strdup (s->symbol);
  self->shape_part = self->press_part;
  self->shape_start = s->start;
  self->shape_mods = s->mods;
  self->shape_n = _odori_timeline_sym_info (self, s->symbol)->n;
  i = odori_score_part_find_symbol (part, s->start);
  self->shape_prev = i > 0 ? _odori_timeline_symbol_at_index (part, i - 1)->start : 0;
  self->shape_end = _odori_timeline_symbol_end (self, s);
  if ((guint) i + 1 < part->symbols->len)
    self->shape_end = MIN (self->shape_end, _odori_timeline_symbol_at_index (part, i + 1)->start);
  if (self->session != NULL)
    odori_session_set_playing (self->session, FALSE);
  self->mode = MODE_SHAPE;
  return TRUE;
}

static void
update_shape (OdoriTimeline   *self,
              double           x,
              GdkModifierType  state)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  OdoriSymbolMods mods;
  guint start;

  if (!shape_target (self, x, state, &start, &mods) ||
      (start == self->shape_start && odori_symbol_mods_equal (&mods, &self->shape_mods)))
    return;
  edit = shape_edit (self, "", self->shape_start, &self->shape_mods, start, &mods);
  /* Onto another symbol's start: it stays where it was. */
  if (!odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL))
    return;
  self->shape_start = start;
  self->shape_mods = mods;
  shape_select (self, start);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
end_shape (OdoriTimeline *self)
{
  const OdoriScoreSymbol *o = &self->shape_orig;
  const char *label;

  if (self->shape_start == o->start && odori_symbol_mods_equal (&self->shape_mods, &o->mods))
    odori_undo_push_applied (self->undo, NULL);
  else
    {
      if (self->shape_edge == EDGE_BLEND)
        label = _("Change Blend");
      else if (self->shape_mods.speed != o->mods.speed)
        label = _("Change Speed");
      else
        label = _("Trim");
      odori_undo_push_applied (self->undo, shape_edit (self, label, o->start, &o->mods, self->shape_start,
                                                       &self->shape_mods));
    }
  self->nudge_edit = NULL;
  g_clear_pointer (&self->shape_orig.symbol, g_free);
  _odori_timeline_selection_changed (self);
}

/* Escape: the block back as it was, nothing recorded. */
static void
cancel_shape (OdoriTimeline *self)
{
  const OdoriScoreSymbol *o = &self->shape_orig;

  if (self->shape_start != o->start || !odori_symbol_mods_equal (&self->shape_mods, &o->mods))
    {
      g_autoptr(OdoriScoreEdit) edit = shape_edit (self, "", self->shape_start, &self->shape_mods, o->start,
                                                   &o->mods);

      if (odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL))
        {
          self->shape_start = o->start;
          self->shape_mods = o->mods;
          shape_select (self, o->start);
        }
    }
  end_shape (self);
}

/* The pointer over an edge or a blend handle shows what a drag there does. */
static void
update_cursor (OdoriTimeline *self,
               double         x,
               double         y)
{
  static const char *names[] = { NULL, "ew-resize", "ew-resize", "col-resize" };
  double handle;
  gint64 beat;
  Edge edge;

  if (self->mode != MODE_NONE)
    return;
  if (y < RULER_HEIGHT && y >= RULER_HEIGHT / 2 &&
      ((_odori_timeline_downbeat_x (self, &handle) && fabs (x - handle) <= DOWNBEAT_PX) ||
       (x >= HEADER_WIDTH && _odori_timeline_beat_mark_at (self, x, &beat))))
    {
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "col-resize");
      return;
    }
  edge = _odori_timeline_edge_at (self, x, y, NULL);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), names[edge]);
}

static void
update_band (OdoriTimeline *self,
             double         x,
             double         y)
{
  double fx0, fx1, ry0, ry1;

  self->band_x1 = x + _odori_timeline_hvalue (self);
  self->band_y1 = y + _odori_timeline_vvalue (self);
  /* In content coordinates: frames and rows. */
  fx0 = 1 + (MIN (self->band_x0, self->band_x1) - HEADER_WIDTH) / self->ppf;
  fx1 = 1 + (MAX (self->band_x0, self->band_x1) - HEADER_WIDTH) / self->ppf;
  ry0 = (MIN (self->band_y0, self->band_y1) - TRACKS_TOP (self)) / ROW_HEIGHT;
  ry1 = (MAX (self->band_y0, self->band_y1) - TRACKS_TOP (self)) / ROW_HEIGHT;

  _odori_timeline_sel_clear (self);
  if (self->band_base != NULL)
    for (guint t = 0; t < self->band_base->len; t++)
      {
        GArray *a = g_ptr_array_index (self->band_base, t);

        for (guint i = 0; i < a->len; i++)
          _odori_timeline_sel_add (self, t, g_array_index (a, guint, i));
      }
  for (int t = MAX ((int) floor (ry0), 0); t <= (int) floor (ry1) &&
       t < (int) _odori_timeline_n_parts (self); t++)
    {
      OdoriScorePart *part = _odori_timeline_get_part (self, t);
      guint i = odori_score_part_lower_bound (part, (guint) MAX (floor (fx0), 1));

      if (i > 0)
        i--;
      for (; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_symbol_at_index (part, i);
          guint end = _odori_timeline_symbol_end (self, s);

          if (i + 1 < part->symbols->len)
            end = MIN (end, _odori_timeline_symbol_at_index (part, i + 1)->start);
          if (s->start > fx1)
            break;
          if (end > fx0)
            _odori_timeline_sel_add (self, t, s->start);
        }
    }
  _odori_timeline_selection_changed (self);
}

void
_odori_timeline_pointer_drag (OdoriTimeline   *self,
                              double           x,
                              double           y,
                              GdkModifierType  state)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  self->pointer_x = x;
  switch (self->mode)
    {
    case MODE_SCRUB:
      seek (self, x);
      break;
    case MODE_PRESS_BLOCK:
      if (hypot (x - self->press_x, y - self->press_y) < DRAG_THRESHOLD ||
          !_odori_timeline_sel_contains (self, self->press_part, self->press_start))
        break;
      begin_move (self);
      G_GNUC_FALLTHROUGH;
    case MODE_MOVE:
      update_move (self, x, y, state);
      break;
    case MODE_BAND:
      update_band (self, x, y);
      break;
    case MODE_PRESS_EDGE:
      if (fabs (x - self->press_x) < 1 || !begin_shape (self))
        break;
      G_GNUC_FALLTHROUGH;
    case MODE_SHAPE:
      update_shape (self, x, state);
      break;
    case MODE_DOWNBEAT:
      _odori_timeline_downbeat_update (self, x);
      break;
    case MODE_BEAT:
      _odori_timeline_beat_update (self, x);
      break;
    case MODE_NONE:
    default:
      break;
    }
}

void
_odori_timeline_pointer_release (OdoriTimeline *self,
                                 double         x,
                                 double         y)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  switch (self->mode)
    {
    case MODE_MOVE:
      end_move (self);
      break;
    case MODE_SHAPE:
      end_shape (self);
      break;
    case MODE_DOWNBEAT:
      _odori_timeline_downbeat_end (self, FALSE);
      break;
    case MODE_BEAT:
      _odori_timeline_beat_end (self, FALSE);
      break;
    case MODE_PRESS_EDGE:
    case MODE_PRESS_BLOCK:
      /* A plain click on a block of a larger selection selects that block alone. */
      if (self->press_was_selected && !(self->press_state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) &&
          self->n_selected > 1)
        odori_timeline_select (self, self->press_part, self->press_start, ODORI_TIMELINE_SELECT_REPLACE);
      break;
    case MODE_BAND:
    case MODE_SCRUB:
    case MODE_NONE:
    default:
      break;
    }
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  self->mode = MODE_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_odori_timeline_pointer_cancel (OdoriTimeline *self)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->mode == MODE_MOVE && (self->drag_delta != 0 || self->drag_track_delta != 0))
    {
      g_autoptr(OdoriScoreEdit) edit = drag_edit (self, self->drag_delta, self->drag_track_delta, 0, 0);

      if (odori_undo_apply_unrecorded (self->undo, edit, TRUE, NULL))
        sel_follow (self, 0, 0);
      if (self->session != NULL)
        odori_session_set_frame (self->session, self->drag_frame0);
      self->drag_delta = 0;
      self->drag_track_delta = 0;
    }
  if (self->mode == MODE_MOVE)
    g_clear_pointer (&self->drag_refusal, g_free);
  if (self->mode == MODE_MOVE)
    end_move (self);
  if (self->mode == MODE_SHAPE)
    cancel_shape (self);
  if (self->mode == MODE_DOWNBEAT)
    _odori_timeline_downbeat_end (self, TRUE);
  if (self->mode == MODE_BEAT)
    _odori_timeline_beat_end (self, TRUE);
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  self->mode = MODE_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
_odori_timeline_context_click (OdoriTimeline *self,
                               double         x,
                               double         y)
{
  OdoriScoreSymbol *s;
  int track;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  track = odori_timeline_track_at_y (self, y);
  if (self->document == NULL || self->mode != MODE_NONE || track < 0 || x < HEADER_WIDTH ||
      (s = _odori_timeline_symbol_under (self, track, x)) == NULL)
    return FALSE;
  if (!_odori_timeline_sel_contains (self, track, s->start))
    odori_timeline_select (self, track, s->start, ODORI_TIMELINE_SELECT_REPLACE);
  set_focus (self, track, s->start);
  if (self->context_menu != NULL)
    {
      gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                                   &(GdkRectangle) { (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->context_menu));
    }
  return TRUE;
}

gboolean
_odori_timeline_scroll (OdoriTimeline   *self,
                        double           x,
                        double           dy,
                        GdkModifierType  state)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (!(state & GDK_CONTROL_MASK) || dy == 0)
    return FALSE;
  odori_timeline_set_pixels_per_frame (self, self->ppf * pow (1.2, -dy), x);
  return TRUE;
}

/* No tooltip over what was just dropped or moved: it would cover the tracks. */
static void
quiet_tooltip (OdoriTimeline *self,
               double         x,
               double         y)
{
  self->tooltip_quiet = TRUE;
  self->quiet_x = x;
  self->quiet_y = y;
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

static void
on_context_pressed_cb (GtkGestureClick *gesture,
                       int              n_press,
                       double           x,
                       double           y,
                       OdoriTimeline   *self)
{
  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  if (_odori_timeline_context_click (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_drag_begin_cb (GtkGestureDrag *gesture,
                  double          x,
                  double          y,
                  OdoriTimeline  *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  /* A tooltip popping up under a resting pointer after a click would cover the
   * tracks below (and take the next click): none until the pointer moves on. */
  quiet_tooltip (self, x, y);
  _odori_timeline_pointer_press (self, x, y, state);
  if (self->mode == MODE_NONE)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
  else
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_drag_update_cb (GtkGestureDrag *gesture,
                   double          dx,
                   double          dy,
                   OdoriTimeline  *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  gint64 t0 = g_get_monotonic_time ();
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  _odori_timeline_pointer_drag (self, x + dx, y + dy, state);
  odori_debug_span ("drag-step", t0);
}

static void
on_drag_end_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                OdoriTimeline  *self)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  if (MODE_IS_LIVE (self->mode))
    quiet_tooltip (self, x + dx, y + dy);
  _odori_timeline_pointer_release (self, x + dx, y + dy);
}

static void
on_drag_cancel_cb (GtkGesture       *gesture,
                   GdkEventSequence *sequence,
                   OdoriTimeline    *self)
{
  _odori_timeline_pointer_cancel (self);
}

static gboolean
on_scroll_cb (GtkEventControllerScroll *controller,
              double                    dx,
              double                    dy,
              OdoriTimeline            *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  return _odori_timeline_scroll (self, self->pointer_x, dy, state);
}

static void
on_motion_cb (GtkEventControllerMotion *controller,
              double                    x,
              double                    y,
              OdoriTimeline            *self)
{
  self->pointer_x = x;
  if (self->tooltip_quiet && hypot (x - self->quiet_x, y - self->quiet_y) > 24)
    self->tooltip_quiet = FALSE;
  update_cursor (self, x, y);
}


/* Drops from the library browser */

static char *
symbol_from_value (const GValue *value)
{
  if (value == NULL)
    return NULL;
  if (G_VALUE_HOLDS (value, ODORI_TYPE_LIBRARY_ITEM))
    {
      OdoriLibraryItem *item = g_value_get_object (value);

      return item != NULL ? odori_library_item_dup_symbol (item) : NULL;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_STRING))
    return g_strdup (g_value_get_string (value));
  return NULL;
}

void
_odori_timeline_drop_hover (OdoriTimeline *self,
                            const char    *symbol,
                            double         x,
                            double         y)
{
  g_autoptr(GError) why = NULL;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  g_clear_pointer (&self->drop_symbol, g_free);
  g_clear_pointer (&self->drop_refusal, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (symbol == NULL || self->document == NULL)
    return;
  self->drop_symbol = g_strdup (symbol);
  self->drop_part = odori_timeline_track_at_y (self, y);
  self->drop_frame = odori_timeline_frame_at_x (self, x);
  if (self->snap)
    {
      g_autoptr(GArray) frames = _odori_timeline_collect_snap_frames (self, FALSE);

      self->drop_frame = _odori_timeline_snap_start (self, frames, self->drop_frame,
                                                     _odori_timeline_sym_info (self, symbol)->n);
    }
  why = self->drop_part >= 0 && x >= HEADER_WIDTH
        ? _odori_timeline_check_placement (self, self->drop_part, self->drop_frame, symbol)
        : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Drop the motion on a track"));
  if (why != NULL)
    self->drop_refusal = g_strdup (why->message);
}

static GdkDragAction
on_drop_motion_cb (GtkDropTarget *target,
                   double         x,
                   double         y,
                   OdoriTimeline *self)
{
  g_autofree char *symbol = symbol_from_value (gtk_drop_target_get_value (target));

  self->pointer_x = x;
  _odori_timeline_drop_hover (self, symbol, x, y);
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  /* A refused place still takes the drop, so that the release can say why (the ghost
   * says it already). */
  if (self->drop_symbol == NULL)
    return 0;
  return gdk_drop_get_actions (gtk_drop_target_get_current_drop (target)) & GDK_ACTION_COPY ? GDK_ACTION_COPY
                                                                                             : GDK_ACTION_MOVE;
}

static void
on_drop_leave_cb (GtkDropTarget *target,
                  OdoriTimeline *self)
{
  _odori_timeline_drop_hover (self, NULL, 0, 0);
}

/* Whether a drop is the Shift one: GTK's drag turns Shift into the move action (the
 * library offers copy and move), so a drop offering only a move had Shift held. */
static gboolean
drop_is_shifted (GtkDropTarget *target)
{
  GdkDrop *drop = gtk_drop_target_get_current_drop (target);

  return drop != NULL && (gdk_drop_get_actions (drop) & (GDK_ACTION_COPY | GDK_ACTION_MOVE)) == GDK_ACTION_MOVE;
}

static gboolean
on_drop_cb (GtkDropTarget *target,
            const GValue  *value,
            double         x,
            double         y,
            OdoriTimeline *self)
{
  g_autofree char *symbol = symbol_from_value (value);
  g_autoptr(GError) error = NULL;

  _odori_timeline_drop_hover (self, NULL, 0, 0);
  quiet_tooltip (self, x, y);
  if (symbol == NULL)
    return FALSE;
  if (drop_is_shifted (target))
    return _odori_timeline_drop_everywhere (self, symbol, x, &error);
  return odori_timeline_drop (self, symbol, x, y, &error);
}

/* ---------------------------------------------------------------------------------- */
/* Keyboard                                                                           */

static void
focus_symbol_at_playhead (OdoriTimeline *self,
                          gboolean       select)
{
  OdoriScorePart *part = self->focus_part >= 0 ? _odori_timeline_get_part (self, self->focus_part) : NULL;
  guint i;

  self->focus_start = 0;
  if (part != NULL && self->session != NULL)
    {
      i = odori_score_part_lower_bound (part, odori_session_get_frame (self->session) + 1);
      if (i > 0)
        self->focus_start = _odori_timeline_symbol_at_index (part, i - 1)->start;
      else if (part->symbols->len > 0)
        self->focus_start = _odori_timeline_symbol_at_index (part, 0)->start;
    }
  if (select && self->focus_start != 0)
    {
      _odori_timeline_sel_clear (self);
      _odori_timeline_sel_add (self, self->focus_part, self->focus_start);
    }
  if (self->focus_start != 0)
    odori_timeline_scroll_to (self, self->focus_part, self->focus_start);
  _odori_timeline_selection_changed (self);
}

static void
focus_track_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  int n = (int) _odori_timeline_n_parts (self);

  if (n == 0)
    return;
  self->focus_part = CLAMP (self->focus_part + g_variant_get_int32 (param), 0, n - 1);
  odori_timeline_scroll_to (self, self->focus_part, self->focus_start ? self->focus_start : 1);
  focus_symbol_at_playhead (self, FALSE);
}

static void
focus_symbol_action (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  OdoriScorePart *part;
  int delta;
  gboolean extend;
  int i;

  g_variant_get (param, "(ib)", &delta, &extend);
  if (self->focus_part < 0 || (part = _odori_timeline_get_part (self, self->focus_part)) == NULL ||
      part->symbols->len == 0)
    return;
  if (self->focus_start == 0)
    {
      focus_symbol_at_playhead (self, !extend);
      if (extend && self->focus_start != 0)
        odori_timeline_select (self, self->focus_part, self->focus_start, ODORI_TIMELINE_SELECT_ADD);
      return;
    }
  i = odori_score_part_find_symbol (part, self->focus_start);
  i = CLAMP (i + delta, 0, (int) part->symbols->len - 1);
  odori_timeline_select (self, self->focus_part, _odori_timeline_symbol_at_index (part, i)->start,
                         extend ? ODORI_TIMELINE_SELECT_ADD : ODORI_TIMELINE_SELECT_REPLACE);
  odori_timeline_scroll_to (self, self->focus_part, self->focus_start);
}

static void
select_at_playhead_action (GtkWidget  *widget,
                           const char *name,
                           GVariant   *param)
{
  focus_symbol_at_playhead (ODORI_TIMELINE (widget), TRUE);
}

static void
toggle_focused_action (GtkWidget  *widget,
                       const char *name,
                       GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (self->focus_part >= 0 && self->focus_start != 0)
    odori_timeline_select (self, self->focus_part, self->focus_start, ODORI_TIMELINE_SELECT_TOGGLE);
}

static void
nudge_action (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);
  int delta = g_variant_get_int32 (param);

  if (g_str_equal (name, "timeline.nudge-seconds"))
    delta *= (int) _odori_timeline_fps (self);
  _odori_timeline_nudge (self, delta);
}

static void
edit_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (g_str_equal (name, "timeline.delete"))
    odori_timeline_delete_selection (self);
  else if (g_str_equal (name, "timeline.copy"))
    odori_timeline_copy_selection (self);
  else if (g_str_equal (name, "timeline.cut"))
    odori_timeline_cut_selection (self);
  else if (g_str_equal (name, "timeline.paste"))
    odori_timeline_paste (self, NULL);
  else if (g_str_equal (name, "timeline.duplicate"))
    odori_timeline_duplicate_selection (self, NULL);
  else if (g_str_equal (name, "timeline.select-all"))
    odori_timeline_select_all (self);
  else if (g_str_equal (name, "timeline.unselect-all"))
    odori_timeline_unselect_all (self);
  else if (g_str_equal (name, "timeline.remove-track") && self->focus_part >= 0)
    odori_timeline_remove_track (self, self->focus_part, NULL);
}

static void
mirror_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  odori_timeline_mirror_selection (ODORI_TIMELINE (widget), NULL);
}

static void
repeat_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  odori_timeline_change_repeat (ODORI_TIMELINE (widget), g_variant_get_int32 (param), NULL);
}

static void
zoom_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (g_str_equal (name, "timeline.zoom-in"))
    odori_timeline_zoom (self, 1.5);
  else if (g_str_equal (name, "timeline.zoom-out"))
    odori_timeline_zoom (self, 1 / 1.5);
  else
    odori_timeline_zoom_fit (self);
}

/* Escape empties the selection; with nothing selected it goes on to the window (back
 * to the dance from a preview). */
static gboolean
escape_cb (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (MODE_IS_LIVE (self->mode))
    {
      _odori_timeline_pointer_cancel (self);
      return TRUE;
    }
  if (odori_timeline_cancel_detect (self))
    return TRUE;
  if (self->n_selected == 0)
    return FALSE;
  odori_timeline_unselect_all (self);
  return TRUE;
}

/* The keyboard: widget actions and their bindings (called from class_init). */
void
_odori_timeline_class_init_input (GtkWidgetClass *widget_class)
{
  static const char *edit_actions[] = {
    "timeline.delete", "timeline.copy", "timeline.cut", "timeline.paste", "timeline.duplicate",
    "timeline.select-all", "timeline.unselect-all", "timeline.remove-track",
  };

  for (guint i = 0; i < G_N_ELEMENTS (edit_actions); i++)
    gtk_widget_class_install_action (widget_class, edit_actions[i], NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "timeline.focus-track", "i", focus_track_action);
  gtk_widget_class_install_action (widget_class, "timeline.focus-symbol", "(ib)", focus_symbol_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-at-playhead", NULL,
                                   select_at_playhead_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-focused", NULL, toggle_focused_action);
  gtk_widget_class_install_action (widget_class, "timeline.nudge", "i", nudge_action);
  gtk_widget_class_install_action (widget_class, "timeline.nudge-seconds", "i", nudge_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_property_action (widget_class, "timeline.snap", "snap");
  gtk_widget_class_install_action (widget_class, "timeline.mirror", NULL, mirror_action);
  gtk_widget_class_install_action (widget_class, "timeline.repeat", "i", repeat_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "timeline.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "timeline.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "timeline.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "timeline.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK, "timeline.cut", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "timeline.paste", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "timeline.duplicate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "timeline.select-all",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.unselect-all", NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_cb, NULL);
  /* Shift (move freely) or Ctrl may be held during a drag: Escape still cancels it. */
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, GDK_SHIFT_MASK, escape_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, GDK_CONTROL_MASK, escape_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                escape_cb, NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.focus-track", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.focus-track", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "timeline.focus-symbol",
                                       "(ib)", -1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "timeline.focus-symbol",
                                       "(ib)", 1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK | GDK_SHIFT_MASK,
                                       "timeline.focus-symbol", "(ib)", -1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK | GDK_SHIFT_MASK,
                                       "timeline.focus-symbol", "(ib)", 1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.select-at-playhead", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.select-at-playhead",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, GDK_CONTROL_MASK,
                                       "timeline.toggle-focused", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK, "timeline.nudge", "i",
                                       -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK, "timeline.nudge", "i",
                                       1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.nudge-seconds", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.nudge-seconds", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "timeline.zoom-in",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK,
                                       "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-fit", NULL);
  /* Modifiers of the selection: M mirrors, + and − change the repeat count ("=" is "+"
   * without Shift on many layouts). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "timeline.mirror", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.repeat", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.repeat", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.repeat", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.repeat", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.repeat", "i", -1);
}

/* The pointer, scrolling and drops: the controllers (called from init). */
void
_odori_timeline_init_input (OdoriTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *context = gtk_gesture_click_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  /* Move too: a drag source offers it when Shift is held (the drop on every track). */
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY | GDK_ACTION_MOVE);
  GType drop_types[] = { ODORI_TYPE_LIBRARY_ITEM, G_TYPE_STRING };

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end_cb), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (on_drag_cancel_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
  g_signal_connect (context, "pressed", G_CALLBACK (on_context_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (context));

  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion_cb), self);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion_cb), self);
  gtk_widget_add_controller (widget, motion);

  gtk_drop_target_set_gtypes (drop, drop_types, G_N_ELEMENTS (drop_types));
  gtk_drop_target_set_preload (drop, TRUE);
  g_signal_connect (drop, "motion", G_CALLBACK (on_drop_motion_cb), self);
  g_signal_connect (drop, "enter", G_CALLBACK (on_drop_motion_cb), self);
  g_signal_connect (drop, "leave", G_CALLBACK (on_drop_leave_cb), self);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drop));
}
