/* odori-timeline.c: the timeline editor, one track per body part
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The state (selection, focus, zoom and scrolling as a GtkScrollable), the geometry,
 * the symbol cache, the document followed through GSignalGroups (sysprof-time-ruler.c),
 * accessibility and the GObject. The other aspects have their own files (see
 * odori-timeline-private.h): edits, input (controllers and keys) and drawing.
 *
 * Accessibility (GTK 4.8): per-symbol accessible children do not exist in 4.8, so the
 * widget (role group, multi-selectable) carries a description naming the focused
 * track and symbol and the selection, updated as focus and selection move.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-timeline-private.h"

static void odori_timeline_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (OdoriTimeline, odori_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, odori_timeline_scrollable_init))

enum {
  PROP_0,
  PROP_UNDO,
  PROP_TIME_UNITS,
  PROP_SNAP,
  PROP_COLOR_BY,
  PROP_PIXELS_PER_FRAME,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  SELECTION_CHANGED,
  SEAMS_CHANGED,
  REFUSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ---------------------------------------------------------------------------------- */
/* Score access                                                                       */

OdoriScore *
_odori_timeline_get_score (OdoriTimeline *self)
{
  return self->document != NULL ? odori_document_get_score (self->document) : NULL;
}

guint
_odori_timeline_n_parts (OdoriTimeline *self)
{
  OdoriScore *score = _odori_timeline_get_score (self);

  return score != NULL ? score->parts->len : 0;
}

OdoriScorePart *
_odori_timeline_get_part (OdoriTimeline *self,
                          guint          track)
{
  OdoriScore *score = _odori_timeline_get_score (self);

  if (score == NULL || track >= score->parts->len)
    return NULL;
  return g_ptr_array_index (score->parts, track);
}

OdoriScoreSymbol *
_odori_timeline_symbol_at_index (OdoriScorePart *part,
                                 guint           i)
{
  return &g_array_index (part->symbols, OdoriScoreSymbol, i);
}

OdoriScoreSymbol *
_odori_timeline_find_symbol (OdoriTimeline *self,
                             guint          track,
                             guint          start)
{
  OdoriScorePart *part = _odori_timeline_get_part (self, track);
  int i = part != NULL ? odori_score_part_find_symbol (part, start) : -1;

  return i >= 0 ? _odori_timeline_symbol_at_index (part, i) : NULL;
}

double
_odori_timeline_frame_time (OdoriTimeline *self)
{
  OdoriMotion *motion = self->document ? odori_document_get_motion (self->document) : NULL;
  OdoriScore *score = _odori_timeline_get_score (self);

  if (motion != NULL && motion->frame_time > 0)
    return motion->frame_time;
  if (score != NULL && score->frame_time > 0)
    return score->frame_time;
  return 1.0 / 30;
}

guint
_odori_timeline_fps (OdoriTimeline *self)
{
  return MAX ((guint) lround (1.0 / _odori_timeline_frame_time (self)), 1);
}

int
_odori_timeline_blend_frames (OdoriTimeline *self)
{
  OdoriScore *score = _odori_timeline_get_score (self);

  if (score == NULL)
    return 0;
  return score->blend >= 0 ? score->blend : self->default_blend;
}

/* ---------------------------------------------------------------------------------- */
/* Symbol cache: length, colour and labels per symbol string                          */

static void
sym_info_free (SymInfo *info)
{
  g_clear_object (&info->code_layout);
  g_clear_object (&info->full_layout);
  g_free (info);
}

static void
number_show (OdoriIndex     *index,
             OdoriIndexShow *show,
             guint          *show_no,
             guint          *class_no)
{
  guint s = 0;

  *show_no = *class_no = 0;
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint i = 0; i < klass->shows->len; i++, s++)
        if (g_ptr_array_index (klass->shows, i) == show)
          {
            *show_no = s;
            *class_no = c;
            return;
          }
    }
}

static void
drop_cache (OdoriTimeline *self)
{
  g_hash_table_remove_all (self->symbols);
  self->index = self->document ? odori_document_get_index (self->document) : NULL;
  self->cache_frame_time = _odori_timeline_frame_time (self);
}

SymInfo *
_odori_timeline_sym_info (OdoriTimeline *self,
                          const char    *symbol)
{
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  SymInfo *info;

  if (index != self->index || fabs (_odori_timeline_frame_time (self) - self->cache_frame_time) > 1e-12)
    drop_cache (self);
  info = g_hash_table_lookup (self->symbols, symbol);
  if (info != NULL)
    return info;

  info = g_new0 (SymInfo, 1);
  info->n = _odori_timeline_fps (self);
  if (index != NULL)
    info->motion = odori_index_lookup (index, symbol, NULL);
  if (info->motion != NULL)
    {
      OdoriMotion *show = odori_document_load_show (self->document, info->motion->show, NULL);

      info->n = odori_compose_clip_frames (info->motion, show, _odori_timeline_frame_time (self));
      number_show (index, info->motion->show, &info->show_no, &info->class_no);
    }
  g_hash_table_insert (self->symbols, g_strdup (symbol), info);
  return info;
}

/* The frame after the symbol's own motion (exclusive end), and where it stops being
 * shown: the next symbol's start cuts it. */
guint
_odori_timeline_symbol_end (OdoriTimeline    *self,
                            OdoriScoreSymbol *s)
{
  return s->start + _odori_timeline_symbol_length (self, s);
}

/* r · m (DESIGN.md "Symbol modifiers"): the clip's frames trimmed, played at its speed,
 * repeated. */
guint
_odori_timeline_symbol_length (OdoriTimeline    *self,
                               OdoriScoreSymbol *s)
{
  guint n = _odori_timeline_sym_info (self, s->symbol)->n;

  return odori_symbol_mods_length (&s->mods, n);
}

/* The last frame of the dance: the composed motion's, or the end of the furthest block. */
guint
_odori_timeline_dance_end (OdoriTimeline *self)
{
  OdoriScore *score = _odori_timeline_get_score (self);
  OdoriMotion *motion = self->document ? odori_document_get_motion (self->document) : NULL;
  guint end = motion != NULL ? motion->n_frames : 1;

  for (guint p = 0; score != NULL && p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);

      if (part->symbols->len > 0)
        {
          OdoriScoreSymbol *last = _odori_timeline_symbol_at_index (part, part->symbols->len - 1);

          end = MAX (end, _odori_timeline_symbol_end (self, last) - 1);
        }
    }
  return MAX (end, 1);
}

/* Frames the view spans: the dance and room after it to drop more. */
static guint
extent_frames (OdoriTimeline *self)
{
  guint end = _odori_timeline_dance_end (self);

  return end + MAX (10 * _odori_timeline_fps (self), end / 10);
}

/* ---------------------------------------------------------------------------------- */
/* Geometry                                                                           */

double
_odori_timeline_hvalue (OdoriTimeline *self)
{
  return self->hadjustment ? gtk_adjustment_get_value (self->hadjustment) : 0;
}

double
_odori_timeline_vvalue (OdoriTimeline *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

double
odori_timeline_x_for_frame (OdoriTimeline *self,
                            double         frame)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return HEADER_WIDTH + (frame - 1) * self->ppf - _odori_timeline_hvalue (self);
}

double
_odori_timeline_frame_at_x_exact (OdoriTimeline *self,
                                  double         x)
{
  return 1 + (x - HEADER_WIDTH + _odori_timeline_hvalue (self)) / self->ppf;
}

guint
odori_timeline_frame_at_x (OdoriTimeline *self,
                           double         x)
{
  double f;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 1);

  f = floor (_odori_timeline_frame_at_x_exact (self, x));
  return (guint) CLAMP (f, 1, G_MAXINT);
}

int
odori_timeline_track_at_y (OdoriTimeline *self,
                           double         y)
{
  double row;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), -1);

  if (y < TRACKS_TOP (self))
    return -1;
  row = floor ((y - TRACKS_TOP (self) + _odori_timeline_vvalue (self)) / ROW_HEIGHT);
  if (row < 0 || row >= _odori_timeline_n_parts (self))
    return -1;
  return (int) row;
}

double
odori_timeline_y_for_track (OdoriTimeline *self,
                            guint          track)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return TRACKS_TOP (self) + track * ROW_HEIGHT - _odori_timeline_vvalue (self) + ROW_HEIGHT / 2.0;
}

double
_odori_timeline_row_top (OdoriTimeline *self,
                         guint          track)
{
  return TRACKS_TOP (self) + track * ROW_HEIGHT - _odori_timeline_vvalue (self);
}

/* The symbol shown under X on TRACK (its block, not its hold). */
OdoriScoreSymbol *
_odori_timeline_symbol_under (OdoriTimeline *self,
                              guint          track,
                              double         x)
{
  OdoriScorePart *part = _odori_timeline_get_part (self, track);
  double f = _odori_timeline_frame_at_x_exact (self, x);
  guint i;

  if (part == NULL || f < 1)
    return NULL;
  i = odori_score_part_lower_bound (part, (guint) floor (f) + 1);
  if (i == 0)
    return NULL;
  {
    OdoriScoreSymbol *s = _odori_timeline_symbol_at_index (part, i - 1);
    guint end = _odori_timeline_symbol_end (self, s);

    if (i < part->symbols->len)
      end = MIN (end, _odori_timeline_symbol_at_index (part, i)->start);
    /* Very short blocks stay clickable: at least four pixels wide. */
    if (f < end || x <= odori_timeline_x_for_frame (self, s->start) + 4)
      return s;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------- */
/* Scrolling and zoom                                                                 */

static void
update_adjustments (OdoriTimeline *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double page, upper;

  if (self->hadjustment != NULL)
    {
      page = MAX (width - HEADER_WIDTH, 1);
      upper = MAX (extent_frames (self) * self->ppf, page);
      gtk_adjustment_configure (self->hadjustment,
                                CLAMP (gtk_adjustment_get_value (self->hadjustment), 0, upper - page),
                                0, upper, page * 0.1, page * 0.9, page);
    }
  if (self->vadjustment != NULL)
    {
      page = MAX (height - TRACKS_TOP (self), 1);
      upper = MAX (_odori_timeline_n_parts (self) * ROW_HEIGHT + 4.0, page);
      gtk_adjustment_configure (self->vadjustment,
                                CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, upper - page),
                                0, upper, ROW_HEIGHT, page * 0.9, page);
    }
}

double
odori_timeline_get_pixels_per_frame (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 1);
  return self->ppf;
}

void
odori_timeline_set_pixels_per_frame (OdoriTimeline *self,
                                     double         pixels_per_frame,
                                     double         anchor_x)
{
  double frame;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  pixels_per_frame = CLAMP (pixels_per_frame, MIN_PPF, MAX_PPF);
  if (pixels_per_frame == self->ppf)
    return;
  anchor_x = MAX (anchor_x, HEADER_WIDTH);
  frame = _odori_timeline_frame_at_x_exact (self, anchor_x);
  self->ppf = pixels_per_frame;
  self->fit_pending = FALSE;
  self->auto_fit = FALSE;
  update_adjustments (self);
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, (frame - 1) * self->ppf - (anchor_x - HEADER_WIDTH));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PIXELS_PER_FRAME]);
}

/* Keyboard and button zoom keep the playhead in place when it is in view. */
void
odori_timeline_zoom (OdoriTimeline *self,
                     double         factor)
{
  double x;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  x = self->session ? odori_timeline_x_for_frame (self,
                                                  odori_session_get_frame (self->session)) : HEADER_WIDTH;
  if (x < HEADER_WIDTH || x > gtk_widget_get_width (GTK_WIDGET (self)))
    x = HEADER_WIDTH;
  odori_timeline_set_pixels_per_frame (self, self->ppf * factor, x);
}

void
odori_timeline_zoom_fit (OdoriTimeline *self)
{
  guint frames;
  int width;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (width <= HEADER_WIDTH)
    {
      /* Not laid out yet: fit once there is a size. */
      self->fit_pending = TRUE;
      return;
    }
  /* A short or empty score shows twenty seconds: room to drop motions. */
  frames = MAX (_odori_timeline_dance_end (self) + 1, 20 * _odori_timeline_fps (self));
  odori_timeline_set_pixels_per_frame (self, (width - HEADER_WIDTH - 24.0) / frames, HEADER_WIDTH);
  self->fit_pending = FALSE;
  self->auto_fit = TRUE;
  self->fit_width = width;
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, 0);
}

void
odori_timeline_scroll_to (OdoriTimeline *self,
                          guint          track,
                          guint          frame)
{
  int width, height;
  double x, y;

  g_return_if_fail (ODORI_IS_TIMELINE (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  x = odori_timeline_x_for_frame (self, frame);
  if (self->hadjustment != NULL && (x < HEADER_WIDTH + 8 || x > width - 24))
    gtk_adjustment_set_value (self->hadjustment,
                              _odori_timeline_hvalue (self) + x - HEADER_WIDTH - (width - HEADER_WIDTH) * 0.1);
  y = _odori_timeline_row_top (self, track);
  if (self->vadjustment != NULL && y < TRACKS_TOP (self))
    gtk_adjustment_set_value (self->vadjustment, _odori_timeline_vvalue (self) + y - TRACKS_TOP (self));
  else if (self->vadjustment != NULL && y + ROW_HEIGHT > height)
    gtk_adjustment_set_value (self->vadjustment, _odori_timeline_vvalue (self) + y + ROW_HEIGHT - height);
}

/* ---------------------------------------------------------------------------------- */
/* Selection                                                                          */

static GArray *
sel_track (OdoriTimeline *self,
           guint          track)
{
  while (self->selection->len <= track)
    g_ptr_array_add (self->selection, g_array_new (FALSE, FALSE, sizeof (guint)));
  return g_ptr_array_index (self->selection, track);
}

guint
_odori_timeline_uint_lower_bound (GArray *array,
                                  guint   value)
{
  guint lo = 0, hi = array->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (array, guint, mid) < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
_odori_timeline_sel_contains (OdoriTimeline *self,
                              guint          track,
                              guint          start)
{
  GArray *a;
  guint i;

  if (track >= self->selection->len)
    return FALSE;
  a = g_ptr_array_index (self->selection, track);
  i = _odori_timeline_uint_lower_bound (a, start);
  return i < a->len && g_array_index (a, guint, i) == start;
}

void
_odori_timeline_sel_add (OdoriTimeline *self,
                         guint          track,
                         guint          start)
{
  GArray *a = sel_track (self, track);
  guint i = _odori_timeline_uint_lower_bound (a, start);

  if (i < a->len && g_array_index (a, guint, i) == start)
    return;
  g_array_insert_val (a, i, start);
  self->n_selected++;
}

void
_odori_timeline_sel_remove (OdoriTimeline *self,
                            guint          track,
                            guint          start)
{
  GArray *a;
  guint i;

  if (track >= self->selection->len)
    return;
  a = g_ptr_array_index (self->selection, track);
  i = _odori_timeline_uint_lower_bound (a, start);
  if (i < a->len && g_array_index (a, guint, i) == start)
    {
      g_array_remove_index (a, i);
      self->n_selected--;
    }
}

void
_odori_timeline_sel_clear (OdoriTimeline *self)
{
  g_ptr_array_set_size (self->selection, 0);
  self->n_selected = 0;
}

GPtrArray *
_odori_timeline_sel_copy (OdoriTimeline *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);
      GArray *c = g_array_sized_new (FALSE, FALSE, sizeof (guint), a->len);

      g_array_append_vals (c, a->data, a->len);
      g_ptr_array_add (copy, c);
    }
  return copy;
}

/* Drops selected starts that no longer hold a symbol (the score changed). */
void
_odori_timeline_sel_validate (OdoriTimeline *self)
{
  guint n = _odori_timeline_n_parts (self);

  if (self->selection->len > n)
    g_ptr_array_set_size (self->selection, n);
  self->n_selected = 0;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);
      OdoriScorePart *part = _odori_timeline_get_part (self, t);

      for (guint i = a->len; i-- > 0;)
        if (odori_score_part_find_symbol (part, g_array_index (a, guint, i)) < 0)
          g_array_remove_index (a, i);
      self->n_selected += a->len;
    }
  if (self->focus_part >= (int) n)
    self->focus_part = n > 0 ? (int) n - 1 : -1;
  if (self->focus_part < 0 && n > 0)
    self->focus_part = 0;
  if (self->focus_part < 0 ||
      (self->focus_start != 0 && _odori_timeline_find_symbol (self, self->focus_part, self->focus_start) == NULL))
    self->focus_start = 0;
}

void
_odori_timeline_emit_refused (OdoriTimeline *self,
                              const char    *message)
{
  g_signal_emit (self, signals[REFUSED], 0, message);
}

void
_odori_timeline_selection_changed (OdoriTimeline *self)
{
  _odori_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

gboolean
odori_timeline_is_dragging_blocks (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  return self->mode == MODE_MOVE || self->mode == MODE_SHAPE;
}

guint
odori_timeline_get_n_selected (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return self->n_selected;
}

gboolean
odori_timeline_is_selected (OdoriTimeline *self,
                            guint          track,
                            guint          start)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  return _odori_timeline_sel_contains (self, track, start);
}

gboolean
odori_timeline_select (OdoriTimeline           *self,
                       guint                    track,
                       guint                    start,
                       OdoriTimelineSelectMode  mode)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (_odori_timeline_find_symbol (self, track, start) == NULL)
    return FALSE;
  switch (mode)
    {
    case ODORI_TIMELINE_SELECT_REPLACE:
      _odori_timeline_sel_clear (self);
      _odori_timeline_sel_add (self, track, start);
      break;
    case ODORI_TIMELINE_SELECT_ADD:
      _odori_timeline_sel_add (self, track, start);
      break;
    case ODORI_TIMELINE_SELECT_TOGGLE:
    default:
      if (_odori_timeline_sel_contains (self, track, start))
        _odori_timeline_sel_remove (self, track, start);
      else
        _odori_timeline_sel_add (self, track, start);
      break;
    }
  self->focus_part = track;
  self->focus_start = start;
  _odori_timeline_selection_changed (self);
  return TRUE;
}

void
odori_timeline_select_all (OdoriTimeline *self)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  _odori_timeline_sel_clear (self);
  for (guint t = 0; t < _odori_timeline_n_parts (self); t++)
    {
      OdoriScorePart *part = _odori_timeline_get_part (self, t);
      GArray *a = sel_track (self, t);

      for (guint i = 0; i < part->symbols->len; i++)
        g_array_append_val (a, _odori_timeline_symbol_at_index (part, i)->start);
      self->n_selected += a->len;
    }
  _odori_timeline_selection_changed (self);
}

void
odori_timeline_unselect_all (OdoriTimeline *self)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->n_selected == 0)
    return;
  _odori_timeline_sel_clear (self);
  _odori_timeline_selection_changed (self);
}

int
odori_timeline_get_focus (OdoriTimeline *self,
                          guint         *start)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), -1);

  if (start != NULL)
    *start = self->focus_start;
  return self->focus_part;
}

gboolean
odori_timeline_get_selected_symbol (OdoriTimeline *self,
                                    guint         *track,
                                    guint         *start)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected != 1)
    return FALSE;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      if (a->len == 1)
        {
          if (track != NULL)
            *track = t;
          if (start != NULL)
            *start = g_array_index (a, guint, 0);
          return TRUE;
        }
    }
  return FALSE;
}

/* ---------------------------------------------------------------------------------- */
/* Accessibility                                                                      */

/**
 * odori_timeline_set_context_menu:
 * @model: (nullable): what a right click on a block offers
 *
 * The menu a right click on a block pops up (the block selected first).
 */
void
odori_timeline_set_context_menu (OdoriTimeline *self,
                                 GMenuModel    *model)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));
  g_return_if_fail (model == NULL || G_IS_MENU_MODEL (model));

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  if (model == NULL)
    return;
  self->context_menu = gtk_popover_menu_new_from_model (model);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
}

/* The lane under the ruler */

static void
update_lane_height (OdoriTimeline *self)
{
  int height = 0;

  if (self->lane != NULL && gtk_widget_get_visible (self->lane))
    gtk_widget_measure (self->lane, GTK_ORIENTATION_VERTICAL, -1, NULL, &height, NULL, NULL);
  if (height == self->lane_height)
    return;
  self->lane_height = height;
  update_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * odori_timeline_set_lane:
 * @lane: (nullable) (transfer none): a widget to show under the ruler
 *
 * Hosts LANE between the ruler and the tracks, as wide as the timeline; the tracks
 * start below it while it is visible (odori_timeline_get_tracks_top()).
 */
void
odori_timeline_set_lane (OdoriTimeline *self,
                         GtkWidget     *lane)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));
  g_return_if_fail (lane == NULL || (GTK_IS_WIDGET (lane) && gtk_widget_get_parent (lane) == NULL));

  if (self->lane == lane)
    return;
  if (self->lane != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->lane, self);
      g_clear_pointer (&self->lane, gtk_widget_unparent);
    }
  if (lane != NULL)
    {
      self->lane = lane;
      /* Under the context menu's popover, which is a surface of its own anyway. */
      gtk_widget_set_parent (lane, GTK_WIDGET (self));
      g_signal_connect_swapped (lane, "notify::visible", G_CALLBACK (update_lane_height), self);
    }
  update_lane_height (self);
}

/**
 * odori_timeline_get_lane:
 *
 * Returns: (transfer none) (nullable): the lane under the ruler
 */
GtkWidget *
odori_timeline_get_lane (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);
  return self->lane;
}

double
odori_timeline_get_tracks_top (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), RULER_HEIGHT);
  return TRACKS_TOP (self);
}

char *
odori_timeline_dup_focus_description (OdoriTimeline *self)
{
  OdoriIndex *index;
  OdoriScorePart *part;
  OdoriIndexPart *ipart;
  GString *text;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);

  if (_odori_timeline_get_score (self) == NULL || self->focus_part < 0 ||
      (part = _odori_timeline_get_part (self, self->focus_part)) == NULL)
    return g_strdup (_("No tracks"));
  index = odori_document_get_index (self->document);
  ipart = index ? odori_index_find_part (index, part->code) : NULL;
  text = g_string_new (NULL);
  /* Translators: "Track 3 of 6: LA 左腕 Left arm, 5 symbols." */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "Track %u of %u: %s %s, %u symbol.",
                                             "Track %u of %u: %s %s, %u symbols.", part->symbols->len),
                          self->focus_part + 1, _odori_timeline_n_parts (self), part->code,
                          ipart && ipart->name ? ipart->name : "", part->symbols->len);
  if (self->focus_start != 0)
    {
      int i = odori_score_part_find_symbol (part, self->focus_start);

      if (i >= 0)
        {
          OdoriScoreSymbol *s = _odori_timeline_symbol_at_index (part, i);
          SymInfo *info = _odori_timeline_sym_info (self, s->symbol);
          guint length = _odori_timeline_symbol_length (self, s);

          g_string_append_c (text, ' ');
          /* Translators: "Symbol 2 of 5: C2 左右拍手 Side clap, frames 82 to 192" */
          g_string_append_printf (text, _("Symbol %d of %u: %s %s, frames %u to %u"), i + 1,
                                  part->symbols->len, s->symbol,
                                  info->motion && info->motion->name ? info->motion->name : "",
                                  s->start, s->start + length - 1);
          if (_odori_timeline_sel_contains (self, self->focus_part, s->start))
            g_string_append (text, _(", selected"));
          g_string_append_c (text, '.');
        }
    }
  g_string_append_c (text, ' ');
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u symbol selected.", "%u symbols selected.",
                                             self->n_selected), self->n_selected);
  return g_string_free (text, FALSE);
}

void
_odori_timeline_update_accessible (OdoriTimeline *self)
{
  g_autofree char *text = odori_timeline_dup_focus_description (self);

  if (g_strcmp0 (text, self->a11y_description) == 0)
    return;
  g_free (self->a11y_description);
  self->a11y_description = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->a11y_description,
                                  -1);
}

/* ---------------------------------------------------------------------------------- */
/* Following the document                                                             */

guint
_odori_timeline_refresh_seams (OdoriTimeline *self)
{
  GArray *seams;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);

  g_clear_handle_id (&self->seams_idle, g_source_remove);
  seams = self->document ? odori_document_get_seams (self->document) : NULL;
  g_clear_pointer (&self->seams, g_array_unref);
  self->seams = seams != NULL ? g_array_ref (seams) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SEAMS_CHANGED], 0);
  return _odori_timeline_n_seams (self);
}

guint
_odori_timeline_n_seams (OdoriTimeline *self)
{
  return self->seams != NULL ? self->seams->len : 0;
}

gboolean
odori_timeline_get_seam (OdoriTimeline  *self,
                         guint           track,
                         guint           start,
                         double         *jump,
                         double         *clip,
                         const char    **from)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  for (guint k = 0; k < _odori_timeline_n_seams (self); k++)
    {
      const OdoriSeam *seam = &g_array_index (self->seams, OdoriSeam, k);

      if (seam->part == track && seam->frame == start)
        {
          if (jump != NULL)
            *jump = seam->jump_deg;
          if (clip != NULL)
            *clip = seam->clip_max_deg;
          if (from != NULL)
            *from = seam->from;
          return TRUE;
        }
    }
  return FALSE;
}

/* The seam report costs a pass over the dance: it is asked for once things settle,
 * not at every step of a drag. */
static gboolean
seams_idle_cb (gpointer data)
{
  OdoriTimeline *self = data;

  self->seams_idle = 0;
  if (!MODE_IS_LIVE (self->mode))
    _odori_timeline_refresh_seams (self);
  else
    self->seams_idle = g_timeout_add_full (G_PRIORITY_LOW, 150, seams_idle_cb, self, NULL);
  return G_SOURCE_REMOVE;
}

static void
on_motion_changed_cb (OdoriTimeline *self)
{
  if (self->seams_idle == 0)
    self->seams_idle = g_timeout_add_full (G_PRIORITY_LOW, 100, seams_idle_cb, self, NULL);
  update_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_score_changed_cb (OdoriTimeline *self)
{
  OdoriScore *score = _odori_timeline_get_score (self);
  guint n = _odori_timeline_n_parts (self);

  if (score != self->score)
    {
      /* Another score: nothing of the old one's view carries over. */
      g_clear_pointer (&self->score, odori_score_unref);
      self->score = score ? odori_score_ref (score) : NULL;
      _odori_timeline_sel_clear (self);
      self->focus_part = n > 0 ? 0 : -1;
      self->focus_start = 0;
      drop_cache (self);
      g_clear_pointer (&self->seams, g_array_unref);
      odori_timeline_zoom_fit (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      _odori_timeline_selection_changed (self);
    }
  else if (!MODE_IS_LIVE (self->mode))
    _odori_timeline_sel_validate (self);
  if (n != self->shown_parts)
    {
      self->shown_parts = n;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  update_adjustments (self);
  _odori_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_index_changed_cb (OdoriTimeline *self)
{
  drop_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* During playback the view follows the playhead a page at a time. */
static void
on_frame_changed_cb (OdoriTimeline *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double x;

  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->session == NULL || !odori_session_get_playing (self->session) || self->mode != MODE_NONE ||
      self->hadjustment == NULL)
    return;
  x = odori_timeline_x_for_frame (self, odori_session_get_frame (self->session));
  if (x < HEADER_WIDTH || x > width - 16)
    gtk_adjustment_set_value (self->hadjustment,
                              _odori_timeline_hvalue (self) + x - HEADER_WIDTH - (width - HEADER_WIDTH) * 0.05);
}

static void
on_queue_draw_cb (OdoriTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---------------------------------------------------------------------------------- */
/* GtkWidget, GtkScrollable, GObject                                                  */

static void
odori_timeline_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = HEADER_WIDTH + 120;
      *natural = HEADER_WIDTH + 720;
    }
  else
    {
      *minimum = RULER_HEIGHT + self->lane_height + ROW_HEIGHT;
      *natural = RULER_HEIGHT + self->lane_height + MAX (_odori_timeline_n_parts (self), 1) * ROW_HEIGHT + 4;
    }
}

static void
odori_timeline_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  if ((self->fit_pending || (self->auto_fit && width != self->fit_width)) && width > HEADER_WIDTH)
    odori_timeline_zoom_fit (self);
  update_adjustments (self);
  /* The lane under the ruler: it does not scroll up and down with the tracks. */
  if (self->lane != NULL && gtk_widget_get_visible (self->lane))
    gtk_widget_size_allocate (self->lane,
                              &(GtkAllocation) { 0, RULER_HEIGHT, width,
                                                 MIN (self->lane_height, MAX (height - RULER_HEIGHT, 0)) },
                              -1);
  if (self->context_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
}

static void
odori_timeline_system_setting_changed (GtkWidget        *widget,
                                       GtkSystemSetting  setting)
{
  OdoriTimeline *self = ODORI_TIMELINE (widget);

  /* Fonts changed: the cached labels go. */
  drop_cache (self);
  GTK_WIDGET_CLASS (odori_timeline_parent_class)->system_setting_changed (widget, setting);
}

static gboolean
odori_timeline_focus (GtkWidget        *widget,
                      GtkDirectionType  direction)
{
  /* One tab stop: arrows move inside. */
  if (gtk_widget_is_focus (widget))
    return FALSE;
  return gtk_widget_grab_focus (widget);
}

static void
set_adjustment (OdoriTimeline  *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment)
{
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_object_unref (*slot);
    }
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (on_queue_draw_cb), self);
  update_adjustments (self);
}

static void
odori_timeline_dispose (GObject *object)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  g_clear_handle_id (&self->seams_idle, g_source_remove);
  odori_timeline_cancel_detect (self);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  odori_timeline_set_lane (self, NULL);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->undo_signals);
  g_clear_object (&self->undo);
  g_clear_object (&self->document);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (odori_timeline_parent_class)->dispose (object);
}

static void
odori_timeline_finalize (GObject *object)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  g_clear_pointer (&self->score, odori_score_unref);
  g_clear_pointer (&self->symbols, g_hash_table_unref);
  g_clear_pointer (&self->selection, g_ptr_array_unref);
  g_clear_pointer (&self->band_base, g_ptr_array_unref);
  g_clear_pointer (&self->nudge_sel, g_ptr_array_unref);
  g_free (self->drag_refusal);
  g_free (self->shape_orig.symbol);
  g_clear_pointer (&self->drag_items, g_array_unref);
  g_clear_pointer (&self->snap_frames, g_array_unref);
  g_clear_pointer (&self->seams, g_array_unref);
  g_free (self->drop_symbol);
  g_free (self->drop_refusal);
  g_free (self->a11y_description);
  _odori_timeline_beats_finalize (self);
  G_OBJECT_CLASS (odori_timeline_parent_class)->finalize (object);
}

static void
odori_timeline_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_UNDO:
      g_value_set_object (value, self->undo);
      break;
    case PROP_TIME_UNITS:
      g_value_set_int (value, self->units);
      break;
    case PROP_SNAP:
      g_value_set_boolean (value, self->snap);
      break;
    case PROP_COLOR_BY:
      g_value_set_string (value, self->color_by == ODORI_TIMELINE_COLOR_BY_CLASS ? "class" : "show");
      break;
    case PROP_PIXELS_PER_FRAME:
      g_value_set_double (value, self->ppf);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_timeline_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  OdoriTimeline *self = ODORI_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_UNDO:
      odori_timeline_set_undo (self, g_value_get_object (value));
      break;
    case PROP_TIME_UNITS:
      odori_timeline_set_time_units (self, g_value_get_int (value));
      break;
    case PROP_SNAP:
      odori_timeline_set_snap (self, g_value_get_boolean (value));
      break;
    case PROP_COLOR_BY:
      odori_timeline_set_color_by (self, g_strcmp0 (g_value_get_string (value), "class") == 0
                                         ? ODORI_TIMELINE_COLOR_BY_CLASS : ODORI_TIMELINE_COLOR_BY_SHOW);
      break;
    case PROP_PIXELS_PER_FRAME:
      odori_timeline_set_pixels_per_frame (self, g_value_get_double (value), HEADER_WIDTH);
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_timeline_scrollable_init (GtkScrollableInterface *iface)
{
}

static void
odori_timeline_class_init (OdoriTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_timeline_dispose;
  object_class->finalize = odori_timeline_finalize;
  object_class->get_property = odori_timeline_get_property;
  object_class->set_property = odori_timeline_set_property;
  widget_class->snapshot = _odori_timeline_snapshot;
  widget_class->measure = odori_timeline_measure;
  widget_class->size_allocate = odori_timeline_size_allocate;
  widget_class->query_tooltip = _odori_timeline_query_tooltip;
  widget_class->system_setting_changed = odori_timeline_system_setting_changed;
  widget_class->focus = odori_timeline_focus;

  properties[PROP_UNDO] =
    g_param_spec_object ("undo", NULL, NULL, ODORI_TYPE_UNDO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME_UNITS] =
    g_param_spec_int ("time-units", NULL, NULL, 0, 2, ODORI_TIME_UNITS_BOTH,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNAP] =
    g_param_spec_boolean ("snap", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOR_BY] =
    g_param_spec_string ("color-by", NULL, NULL, "show",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PIXELS_PER_FRAME] =
    g_param_spec_double ("pixels-per-frame", NULL, NULL, MIN_PPF, MAX_PPF, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed",
                                             G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST,
                                             0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
  signals[SEAMS_CHANGED] = g_signal_new ("seams-changed",
                                         G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
  /* An edit was refused; the message says why, in the user's words. */
  signals[REFUSED] = g_signal_new ("refused",
                                   G_TYPE_FROM_CLASS (klass),
                                   G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_STRING);


  _odori_timeline_class_init_input (widget_class);

  gtk_widget_class_set_css_name (widget_class, "odori-timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
odori_timeline_init (OdoriTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->ppf = 1.0;
  self->snap = TRUE;
  self->units = ODORI_TIME_UNITS_BOTH;
  self->focus_part = -1;
  self->drag_refused_part = -1;
  self->fit_pending = TRUE;
  self->symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) sym_info_free);
  self->selection = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  _odori_timeline_init_input (self);


  self->session_signals = g_signal_group_new (ODORI_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::frame",
                                 G_CALLBACK (on_frame_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::previewing",
                                 G_CALLBACK (on_queue_draw_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "motion-changed",
                                 G_CALLBACK (on_motion_changed_cb), self, G_CONNECT_SWAPPED);
  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "changed",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::index",
                                 G_CALLBACK (on_index_changed_cb), self, G_CONNECT_SWAPPED);
  self->undo_signals = g_signal_group_new (ODORI_TYPE_UNDO);
  g_signal_group_connect_object (self->undo_signals, "edit-done",
                                 G_CALLBACK (_odori_timeline_on_edit_done), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->undo_signals, "edit-done",
                                 G_CALLBACK (_odori_timeline_beats_edit_done), self, G_CONNECT_SWAPPED);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_ROLE_DESCRIPTION, _("timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_MULTI_SELECTABLE, TRUE,
                                  GTK_ACCESSIBLE_PROPERTY_KEY_SHORTCUTS,
                                  "Up Down Alt+Left Alt+Right Control+Left Control+Right Delete Control+C Control+X Control+V Control+D",
                                  -1);
  _odori_timeline_update_accessible (self);
}

GtkWidget *
odori_timeline_new (void)
{
  return g_object_new (ODORI_TYPE_TIMELINE, NULL);
}

void
odori_timeline_set_undo (OdoriTimeline *self,
                         OdoriUndo     *undo)
{
  OdoriDocument *document;

  g_return_if_fail (ODORI_IS_TIMELINE (self));
  g_return_if_fail (undo == NULL || ODORI_IS_UNDO (undo));

  if (!g_set_object (&self->undo, undo))
    return;
  document = undo ? odori_undo_get_document (undo) : NULL;
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->undo_signals, undo);
  g_signal_group_set_target (self->document_signals, self->document);
  on_score_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNDO]);
}

/**
 * odori_timeline_set_session:
 * @session: (nullable): the playhead the timeline shows and moves, and the preview
 */
void
odori_timeline_set_session (OdoriTimeline *self,
                            OdoriSession  *session)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));
  g_return_if_fail (session == NULL || ODORI_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;
  g_signal_group_set_target (self->session_signals, session);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

OdoriUndo *
odori_timeline_get_undo (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);
  return self->undo;
}

OdoriDocument *
odori_timeline_get_document (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), NULL);
  return self->document;
}

void
odori_timeline_set_time_units (OdoriTimeline  *self,
                               OdoriTimeUnits  units)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->units == units)
    return;
  self->units = units;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UNITS]);
}

void
odori_timeline_set_default_blend (OdoriTimeline *self,
                                  int            blend)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  self->default_blend = MAX (blend, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
odori_timeline_get_default_blend (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 0);
  return self->default_blend;
}

guint
odori_timeline_get_clip_frames (OdoriTimeline *self,
                                const char    *symbol)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 1);
  g_return_val_if_fail (symbol != NULL, 1);
  return _odori_timeline_sym_info (self, symbol)->n;
}

double
odori_timeline_get_frame_time (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), 1.0 / 30);
  return _odori_timeline_frame_time (self);
}

gboolean
odori_timeline_get_snap (OdoriTimeline *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  return self->snap;
}

void
odori_timeline_set_snap (OdoriTimeline *self,
                         gboolean       snap)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  snap = !!snap;
  if (self->snap == snap)
    return;
  self->snap = snap;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAP]);
}

void
odori_timeline_set_color_by (OdoriTimeline        *self,
                             OdoriTimelineColorBy  color_by)
{
  g_return_if_fail (ODORI_IS_TIMELINE (self));

  if (self->color_by == color_by)
    return;
  self->color_by = color_by;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_BY]);
}
