/* odori-timeline-edit.c: the timeline's edits, clipboard and tracks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each edit is an OdoriScoreEdit handed to the window's OdoriUndo: one undo step, the
 * dance recomposed incrementally. Refusals go out through the "refused" signal with a
 * reason in the user's words.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-score-edit.h"
#include "odori-timeline-private.h"

/* What was copied, shared by the windows of the process. */
static GPtrArray *clip_items;
static GdkContentProvider *clip_provider;

/* ---------------------------------------------------------------------------------- */
/* Edits                                                                              */

static gboolean
refuse (OdoriTimeline  *self,
        GError         *why,
        GError        **error)
{
  _odori_timeline_emit_refused (self, why->message);
  g_propagate_error (error, why);
  return FALSE;
}

static gboolean
refuse_literal (OdoriTimeline  *self,
                GError        **error,
                const char     *message)
{
  return refuse (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, message), error);
}

static gboolean
apply_edit (OdoriTimeline   *self,
            OdoriScoreEdit  *edit,
            GError         **error)
{
  GError *local_error = NULL;

  if (self->undo == NULL)
    {
      odori_score_edit_free (edit);
      return refuse_literal (self, error, _("There is no score to edit"));
    }
  if (!odori_undo_apply (self->undo, edit, &local_error))
    return refuse (self, local_error, error);
  return TRUE;
}

gboolean
odori_timeline_move_selection (OdoriTimeline  *self,
                               int             delta,
                               GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  guint lowest = G_MAXUINT;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_selected == 0 || delta == 0)
    return TRUE;
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      if (a->len > 0)
        lowest = MIN (lowest, g_array_index (a, guint, 0));
    }
  if ((gint64) lowest + delta < 1)
    {
      if (lowest == 1)
        return refuse_literal (self, error, _("The selection already starts at frame 1"));
      delta = 1 - (int) lowest;
    }
  edit = odori_score_edit_new (_("Move"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_move_symbol (edit, t, s, (guint) ((gint64) s->start + delta));
        }
    }
  return apply_edit (self, g_steal_pointer (&edit), error);
}

static gboolean
sel_equal (GPtrArray *a,
           GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;
  for (guint t = 0; t < a->len; t++)
    {
      GArray *x = g_ptr_array_index (a, t), *y = g_ptr_array_index (b, t);

      if (x->len != y->len || (x->len > 0 && memcmp (x->data, y->data, x->len * sizeof (guint)) != 0))
        return FALSE;
    }
  return TRUE;
}

static guint selection_first_start (OdoriTimeline *self);

/* A nudge continuing a run (the same selection, nothing else done since) takes the
 * run's step back and records the whole run again as one move. */
gboolean
_odori_timeline_nudge (OdoriTimeline *self,
                       int            delta)
{
  gboolean merge, ok;
  int total = delta;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected == 0 || self->undo == NULL)
    return FALSE;
  merge = self->nudge_edit != NULL && sel_equal (self->nudge_sel, self->selection) &&
          odori_undo_get_can_undo (self->undo) && !odori_undo_get_can_redo (self->undo);
  self->nudging = TRUE;
  if (merge)
    {
      total = (int) selection_first_start (self) - (int) self->nudge_origin + delta;
      merge = odori_undo_undo (self->undo);
    }
  if (!merge)
    self->nudge_origin = selection_first_start (self);
  self->nudge_edit = NULL;
  ok = total != 0 && odori_timeline_move_selection (self, total, NULL);
  if (!ok && merge && total != 0)
    /* Refused: the run's earlier nudges stay (back at the start, there is no step). */
    odori_undo_redo (self->undo);
  self->nudging = FALSE;
  g_clear_pointer (&self->nudge_sel, g_ptr_array_unref);
  if (self->nudge_edit != NULL)
    self->nudge_sel = _odori_timeline_sel_copy (self);
  return ok;
}

gboolean
odori_timeline_set_symbol_start (OdoriTimeline  *self,
                                 guint           track,
                                 guint           start,
                                 guint           new_start,
                                 GError        **error)
{
  OdoriScoreSymbol *s;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  s = _odori_timeline_find_symbol (self, track, start);
  if (s == NULL)
    return refuse_literal (self, error, _("There is no symbol there"));
  if (new_start == start)
    return TRUE;
  edit = odori_score_edit_new (_("Change Start"));
  odori_score_edit_move_symbol (edit, track, s, new_start);
  return apply_edit (self, edit, error);
}

/* Whether SYMBOL may go on TRACK at START; on refusal, a GError to show. */
GError *
_odori_timeline_check_placement (OdoriTimeline *self,
                                 guint          track,
                                 guint          start,
                                 const char    *symbol)
{
  OdoriScorePart *part = _odori_timeline_get_part (self, track);
  GError *error = NULL;

  if (part == NULL)
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Drop the motion on a track"));
  if (!odori_document_check_symbol (self->document, part, symbol, &error))
    return error;
  if (odori_score_part_find_symbol (part, start) >= 0)
    return g_error_new (G_IO_ERROR, G_IO_ERROR_EXISTS,
                        _("Track %s already has a symbol at frame %u"), part->code, start);
  return NULL;
}

gboolean
odori_timeline_insert (OdoriTimeline  *self,
                       guint           track,
                       guint           start,
                       const char     *symbol,
                       GError        **error)
{
  GError *why;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->document == NULL)
    return refuse_literal (self, error, _("There is no score to edit"));
  why = _odori_timeline_check_placement (self, track, MAX (start, 1), symbol);
  if (why != NULL)
    return refuse (self, why, error);
  edit = odori_score_edit_new (_("Insert"));
  odori_score_edit_add_symbol (edit, track, MAX (start, 1), symbol);
  return apply_edit (self, edit, error);
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint ua = *(const guint *) a, ub = *(const guint *) b;

  return (ua > ub) - (ua < ub);
}

/* Snap candidates: starts and ends of the blocks (but the selected ones when
 * SKIP_SELECTED, they are what moves), and the playhead. */
GArray *
_odori_timeline_collect_snap_frames (OdoriTimeline *self,
                                     gboolean       skip_selected)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint));
  guint playhead = self->session ? odori_session_get_frame (self->session) : 1;

  g_array_append_val (frames, playhead);
  for (guint t = 0; t < _odori_timeline_n_parts (self); t++)
    {
      OdoriScorePart *part = _odori_timeline_get_part (self, t);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_symbol_at_index (part, i);
          guint end;

          if (skip_selected && _odori_timeline_sel_contains (self, t, s->start))
            continue;
          end = _odori_timeline_symbol_end (self, s);
          g_array_append_val (frames, s->start);
          g_array_append_val (frames, end);
        }
    }
  g_array_sort (frames, compare_uint);
  return frames;
}

/* The candidate nearest to FRAME within THRESHOLD frames, or FALSE. */
static gboolean
nearest_snap (GArray *frames,
              double  frame,
              double  threshold,
              guint  *found)
{
  guint i = _odori_timeline_uint_lower_bound (frames, (guint) MAX (ceil (frame), 0));
  double best = threshold + 1;

  for (guint k = (i > 0 ? i - 1 : 0); k <= i && k < frames->len; k++)
    {
      double d = fabs (g_array_index (frames, guint, k) - frame);

      if (d <= threshold && d < best)
        {
          best = d;
          *found = g_array_index (frames, guint, k);
        }
    }
  return best <= threshold;
}

/* START (and the end START + N) snapped to FRAMES when either is close, and START to a
 * beat of the grid within BEAT_SNAP_PX. */
guint
_odori_timeline_snap_start (OdoriTimeline *self,
                            GArray        *frames,
                            guint          start,
                            guint          n)
{
  double threshold = SNAP_PX / self->ppf;
  guint at_start = 0, at_end = 0, at_beat = 0, snapped = start;
  gboolean any = TRUE;
  gboolean s = nearest_snap (frames, start, threshold, &at_start);
  gboolean e = nearest_snap (frames, (double) start + n, threshold, &at_end);

  if (s && (!e || fabs ((double) at_start - start) <= fabs ((double) at_end - (start + n))))
    snapped = MAX (at_start, 1);
  else if (e && at_end > n)
    snapped = at_end - n;
  else
    any = FALSE;
  /* With a beat grid the start goes to a beat, unless another block's edge or the
   * playhead is nearer. */
  if (_odori_timeline_snap_to_beat (self, start, &at_beat) &&
      (!any || fabs ((double) at_beat - start) <= fabs ((double) snapped - start)))
    snapped = at_beat;
  return snapped;
}

gboolean
odori_timeline_drop (OdoriTimeline  *self,
                     const char     *symbol,
                     double          x,
                     double          y,
                     GError        **error)
{
  int track;
  guint start;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  track = odori_timeline_track_at_y (self, y);
  if (track < 0 || x < HEADER_WIDTH || self->document == NULL)
    return refuse_literal (self, error, _("Drop the motion on a track, at the frame where it should start"));
  start = odori_timeline_frame_at_x (self, x);
  if (self->snap)
    {
      g_autoptr(GArray) frames = _odori_timeline_collect_snap_frames (self, FALSE);

      start = _odori_timeline_snap_start (self, frames, start, _odori_timeline_sym_info (self, symbol)->n);
    }
  if (!odori_timeline_insert (self, track, start, symbol, error))
    return FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return TRUE;
}

gboolean
_odori_timeline_drop_everywhere (OdoriTimeline  *self,
                                 const char     *symbol,
                                 double          x,
                                 GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  g_autoptr(GError) first_refusal = NULL;
  guint start;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);

  if (x < HEADER_WIDTH || self->document == NULL || _odori_timeline_n_parts (self) == 0)
    return refuse_literal (self, error, _("Drop the motion on a track, at the frame where it should start"));
  start = odori_timeline_frame_at_x (self, x);
  if (self->snap)
    {
      g_autoptr(GArray) frames = _odori_timeline_collect_snap_frames (self, FALSE);

      start = _odori_timeline_snap_start (self, frames, start, _odori_timeline_sym_info (self, symbol)->n);
    }
  edit = odori_score_edit_new (_("Insert"));
  for (guint t = 0; t < _odori_timeline_n_parts (self); t++)
    {
      GError *why = _odori_timeline_check_placement (self, t, start, symbol);

      if (why == NULL)
        odori_score_edit_add_symbol (edit, t, start, symbol);
      else if (first_refusal == NULL)
        first_refusal = why;
      else
        g_error_free (why);
    }
  if (odori_score_edit_get_added (edit)->len == 0)
    return refuse (self, g_steal_pointer (&first_refusal), error);
  if (!apply_edit (self, g_steal_pointer (&edit), error))
    return FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return TRUE;
}

gboolean
odori_timeline_delete_selection (OdoriTimeline *self)
{
  g_autoptr(GError) error = NULL;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected == 0)
    return FALSE;
  edit = odori_score_edit_new (_("Delete"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_remove_symbol (edit, t, s);
        }
    }
  return apply_edit (self, edit, &error);
}

static void
clip_item_free (ClipItem *item)
{
  g_free (item->code);
  g_free (item->symbol);
  g_free (item);
}

static guint
selection_first_start (OdoriTimeline *self)
{
  guint first = G_MAXUINT;

  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      if (a->len > 0)
        first = MIN (first, g_array_index (a, guint, 0));
    }
  return first;
}

/* The clipboard also gets the symbols as text, one "CODE<TAB>OFFSET<TAB>SYMBOL" line
 * each after an "odori-symbols" line, so they paste into another Odori. SYMBOL carries
 * its modifiers as a score writes them ("C1 mirror repeat=2"). */
static char *
clip_items_to_text (GPtrArray *items)
{
  GString *text = g_string_new ("odori-symbols\n");

  for (guint i = 0; i < items->len; i++)
    {
      ClipItem *item = g_ptr_array_index (items, i);
      g_autofree char *mods = odori_symbol_mods_to_string (&item->mods);

      g_string_append_printf (text, "%s\t%u\t%s%s\n", item->code, item->offset, item->symbol, mods);
    }
  return g_string_free (text, FALSE);
}

/* "SYMBOL [MODIFIER…]" into ITEM; FALSE when a modifier does not read. */
static gboolean
parse_clip_symbol (const char *text,
                   ClipItem   *item)
{
  g_auto(GStrv) tokens = g_strsplit_set (text, " \t", -1);
  guint seen = 0;

  for (guint i = 0; tokens[i] != NULL; i++)
    {
      g_autofree char *message = NULL;

      if (tokens[i][0] == '\0')
        continue;
      if (item->symbol == NULL)
        item->symbol = g_strdup (tokens[i]);
      else if (!odori_symbol_mods_parse_token (&item->mods, tokens[i], strlen (tokens[i]), &seen, &message))
        return FALSE;
    }
  return item->symbol != NULL;
}

static GPtrArray *
clip_items_from_text (const char *text)
{
  g_auto(GStrv) lines = NULL;
  GPtrArray *items;

  if (text == NULL || !g_str_has_prefix (text, "odori-symbols\n"))
    return NULL;
  items = g_ptr_array_new_with_free_func ((GDestroyNotify) clip_item_free);
  lines = g_strsplit (text, "\n", 100001);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "\t", 3);
      guint64 offset;
      ClipItem *item;

      if (g_strv_length (fields) != 3 || fields[0][0] == '\0' || fields[2][0] == '\0' ||
          !g_ascii_string_to_unsigned (fields[1], 10, 0, G_MAXINT, &offset, NULL))
        continue;
      item = g_new0 (ClipItem, 1);
      item->code = g_strdup (fields[0]);
      item->offset = (guint) offset;
      if (!parse_clip_symbol (fields[2], item))
        {
          clip_item_free (item);
          continue;
        }
      g_ptr_array_add (items, item);
    }
  return items;
}

gboolean
odori_timeline_copy_selection (OdoriTimeline *self)
{
  g_autofree char *text = NULL;
  guint first;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (self->n_selected == 0)
    return FALSE;
  first = selection_first_start (self);
  g_clear_pointer (&clip_items, g_ptr_array_unref);
  clip_items = g_ptr_array_new_with_free_func ((GDestroyNotify) clip_item_free);
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));
          ClipItem *item;

          if (s == NULL)
            continue;
          item = g_new0 (ClipItem, 1);
          item->code = g_strdup (_odori_timeline_get_part (self, t)->code);
          item->offset = s->start - first;
          item->symbol = g_strdup (s->symbol);
          item->mods = s->mods;
          g_ptr_array_add (clip_items, item);
        }
    }
  text = clip_items_to_text (clip_items);
  g_clear_object (&clip_provider);
  clip_provider = gdk_content_provider_new_typed (G_TYPE_STRING, text);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (self)), clip_provider);
  return TRUE;
}

gboolean
odori_timeline_cut_selection (OdoriTimeline *self)
{
  g_autoptr(GError) error = NULL;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  if (!odori_timeline_copy_selection (self))
    return FALSE;
  edit = odori_score_edit_new (_("Cut"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_remove_symbol (edit, t, s);
        }
    }
  return apply_edit (self, edit, &error);
}

gboolean
odori_timeline_can_paste (OdoriTimeline *self)
{
  GdkClipboard *clipboard;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);

  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));
  if (clip_provider != NULL && gdk_clipboard_get_content (clipboard) == clip_provider)
    return clip_items != NULL && clip_items->len > 0;
  return !gdk_clipboard_is_local (clipboard) &&
         gdk_content_formats_contain_gtype (gdk_clipboard_get_formats (clipboard), G_TYPE_STRING);
}

/* The first free start at or after START on PART, not taken by the edit either. */
static guint
free_start (OdoriScorePart *part,
            GArray         *taken,
            guint           track,
            guint           start)
{
  for (;; start++)
    {
      gboolean used = odori_score_part_find_symbol (part, start) >= 0;

      for (guint i = 0; !used && i < taken->len; i++)
        {
          const OdoriScoreEditSymbol *s = &g_array_index (taken, OdoriScoreEditSymbol, i);

          used = s->part == track && s->start == start;
        }
      if (!used)
        return start;
    }
}

static gboolean
paste_items (OdoriTimeline  *self,
             GPtrArray      *items,
             GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  OdoriScore *score = _odori_timeline_get_score (self);
  guint at;
  gboolean one_track = TRUE;

  if (items == NULL || items->len == 0 || score == NULL)
    return refuse_literal (self, error, _("The clipboard holds no dance symbols"));
  for (guint i = 1; i < items->len; i++)
    one_track = one_track && g_strcmp0 (((ClipItem *) g_ptr_array_index (items, i))->code,
                                        ((ClipItem *) g_ptr_array_index (items, 0))->code) == 0;

  at = self->session ? odori_session_get_frame (self->session) : 1;
  edit = odori_score_edit_new (_("Paste"));
  for (guint i = 0; i < items->len; i++)
    {
      ClipItem *item = g_ptr_array_index (items, i);
      int track = one_track && self->focus_part >= 0 ? self->focus_part
                                                     : odori_score_find_part_index (score, item->code);
      OdoriScorePart *part;
      GError *why = NULL;
      guint start;

      if (track < 0)
        continue;
      part = _odori_timeline_get_part (self, track);
      if (!odori_document_check_symbol (self->document, part, item->symbol, &why))
        return refuse (self, why, error);
      start = free_start (part, odori_score_edit_get_added (edit), track, at + item->offset);
      odori_score_edit_add_symbol_full (edit, track, start, item->symbol, &item->mods);
    }
  if (odori_score_edit_get_added (edit)->len == 0)
    return refuse_literal (self, error, _("None of the copied tracks is in this score"));
  return apply_edit (self, g_steal_pointer (&edit), error);
}

static void
paste_text_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(OdoriTimeline) self = user_data;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  g_autoptr(GPtrArray) items = clip_items_from_text (text);
  g_autoptr(GError) error = NULL;

  if (self->document != NULL)
    paste_items (self, items, &error);
}

gboolean
odori_timeline_paste (OdoriTimeline  *self,
                      GError        **error)
{
  GdkClipboard *clipboard;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));
  if (clip_provider != NULL && gdk_clipboard_get_content (clipboard) == clip_provider)
    return paste_items (self, clip_items, error);
  /* Text from elsewhere (another Odori): read it, then paste. */
  gdk_clipboard_read_text_async (clipboard, NULL, paste_text_cb, g_object_ref (self));
  return TRUE;
}

gboolean
odori_timeline_duplicate_selection (OdoriTimeline  *self,
                                    GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = NULL;
  guint first, end = 0, shift;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_selected == 0)
    return FALSE;
  first = selection_first_start (self);
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            end = MAX (end, _odori_timeline_symbol_end (self, s));
        }
    }
  /* The copies follow the selection; further on while any would land on a start. */
  for (shift = end - first;; shift++)
    {
      gboolean clear = TRUE;

      for (guint t = 0; clear && t < self->selection->len; t++)
        {
          GArray *a = g_ptr_array_index (self->selection, t);

          for (guint i = 0; clear && i < a->len; i++)
            clear = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i) + shift) == NULL;
        }
      if (clear)
        break;
    }
  edit = odori_score_edit_new (_("Duplicate"));
  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));

          if (s != NULL)
            odori_score_edit_add_symbol_full (edit, t, s->start + shift, s->symbol, &s->mods);
        }
    }
  return apply_edit (self, g_steal_pointer (&edit), error);
}

/* ---------------------------------------------------------------------------------- */
/* Modifiers of the selection                                                         */

/* Replaces each selected symbol by itself with the modifiers CHANGE gives (FALSE from
 * CHANGE: this one stays), as one step called LABEL; REFUSAL when none changes. */
static gboolean
change_selected_mods (OdoriTimeline  *self,
                      const char     *label,
                      gboolean      (*change) (OdoriSymbolMods *mods,
                                               gpointer         data),
                      gpointer        data,
                      const char     *refusal,
                      GError        **error)
{
  g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new (label);

  for (guint t = 0; t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));
          OdoriSymbolMods mods;

          if (s == NULL)
            continue;
          mods = s->mods;
          if (change (&mods, data) && !odori_symbol_mods_equal (&mods, &s->mods))
            odori_score_edit_replace_symbol (edit, t, s, t, s->start, &mods);
        }
    }
  if (odori_score_edit_is_empty (edit))
    return refuse_literal (self, error, refusal);
  return apply_edit (self, g_steal_pointer (&edit), error);
}

static gboolean
set_mirror (OdoriSymbolMods *mods,
            gpointer         data)
{
  mods->mirror = GPOINTER_TO_INT (data);
  return TRUE;
}

static gboolean
add_repeat (OdoriSymbolMods *mods,
            gpointer         data)
{
  int r = (int) odori_symbol_mods_get_repeat (mods) + GPOINTER_TO_INT (data);

  r = CLAMP (r, 1, ODORI_REPEAT_MAX);
  /* Once is no modifier at all (unless the score wrote it so and it stays once). */
  if ((guint) r != odori_symbol_mods_get_repeat (mods))
    mods->repeat = r > 1 ? (guint) r : 0;
  return TRUE;
}

gboolean
odori_timeline_mirror_selection (OdoriTimeline  *self,
                                 GError        **error)
{
  gboolean all = TRUE;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_selected == 0)
    return refuse_literal (self, error, _("Select the symbols to mirror first"));
  /* Mirrored all: back; else every one mirrored (as Bold on a mixed text). */
  for (guint t = 0; all && t < self->selection->len; t++)
    {
      GArray *a = g_ptr_array_index (self->selection, t);

      for (guint i = 0; all && i < a->len; i++)
        {
          OdoriScoreSymbol *s = _odori_timeline_find_symbol (self, t, g_array_index (a, guint, i));

          all = s == NULL || s->mods.mirror;
        }
    }
  return change_selected_mods (self, _("Mirror"), set_mirror, GINT_TO_POINTER (!all),
                               _("Select the symbols to mirror first"), error);
}

gboolean
odori_timeline_change_repeat (OdoriTimeline  *self,
                              int             delta,
                              GError        **error)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_selected == 0)
    return refuse_literal (self, error, _("Select the symbols to repeat first"));
  if (delta == 0)
    return TRUE;
  return change_selected_mods (self, _("Repeat"), add_repeat, GINT_TO_POINTER (CLAMP (delta, -ODORI_REPEAT_MAX, ODORI_REPEAT_MAX)),
                               delta > 0 ? _("The selection already repeats 1000 times")
                                         : _("The selection already plays once"),
                               error);
}

gboolean
odori_timeline_add_track (OdoriTimeline  *self,
                          const char     *code,
                          GError        **error)
{
  OdoriScore *score = _odori_timeline_get_score (self);
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  OdoriIndexPart *ipart;
  OdoriScoreEdit *edit;
  guint order = 0, position = 0;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ipart = index != NULL ? odori_index_find_part (index, code) : NULL;
  if (score == NULL || ipart == NULL)
    return refuse (self, g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                      _("The library has no body part %s"), code), error);
  if (odori_score_find_part_index (score, code) >= 0)
    return refuse (self, g_error_new (G_IO_ERROR, G_IO_ERROR_EXISTS,
                                      _("The score already has a track %s"), code), error);
  /* Where the library's order of parts puts it. */
  while (g_ptr_array_index (index->parts, order) != ipart)
    order++;
  for (guint t = 0; t < score->parts->len; t++)
    {
      OdoriIndexPart *other = odori_index_find_part (index, _odori_timeline_get_part (self, t)->code);
      guint other_order = 0;

      while (other != NULL && g_ptr_array_index (index->parts, other_order) != other)
        other_order++;
      if (other == NULL || other_order < order)
        position = t + 1;
    }
  edit = odori_score_edit_new (_("Add Track"));
  odori_score_edit_insert_part (edit, position, ipart->code, (const char * const *) ipart->map);
  return apply_edit (self, edit, error);
}

gboolean
odori_timeline_remove_track (OdoriTimeline  *self,
                             guint           track,
                             GError        **error)
{
  OdoriScorePart *part;
  OdoriScoreEdit *edit;

  g_return_val_if_fail (ODORI_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  part = _odori_timeline_get_part (self, track);
  if (part == NULL)
    return refuse_literal (self, error, _("There is no such track"));
  if (_odori_timeline_n_parts (self) == 1)
    return refuse_literal (self, error, _("A score needs at least one track"));
  edit = odori_score_edit_new (_("Remove Track"));
  odori_score_edit_remove_part (edit, track, part);
  return apply_edit (self, edit, error);
}

/* After a recorded edit (or its undo): what it put in becomes the selection. */
void
_odori_timeline_on_edit_done (OdoriTimeline  *self,
                              OdoriScoreEdit *edit,
                              gboolean        forward)
{
  int position = odori_score_edit_get_part_position (edit);
  GArray *now = forward ? odori_score_edit_get_added (edit) : odori_score_edit_get_removed (edit);
  GArray *gone = forward ? odori_score_edit_get_removed (edit) : odori_score_edit_get_added (edit);

  /* Any other step ends a run of nudges. */
  if (!self->nudging)
    self->nudge_edit = NULL;
  else if (forward)
    self->nudge_edit = edit;
  _odori_timeline_sel_validate (self);
  if (position >= 0)
    {
      _odori_timeline_sel_clear (self);
      self->focus_part = MIN (position, (int) _odori_timeline_n_parts (self) - 1);
      self->focus_start = 0;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  else if (now->len > 0)
    {
      const OdoriScoreEditSymbol *first = &g_array_index (now, OdoriScoreEditSymbol, 0);

      _odori_timeline_sel_clear (self);
      for (guint i = 0; i < now->len; i++)
        {
          const OdoriScoreEditSymbol *s = &g_array_index (now, OdoriScoreEditSymbol, i);

          _odori_timeline_sel_add (self, s->part, s->start);
        }
      self->focus_part = first->part;
      self->focus_start = first->start;
      odori_timeline_scroll_to (self, first->part, first->start);
    }
  else if (gone->len > 0)
    {
      /* Deleted: the focus goes to what follows on the track. */
      const OdoriScoreEditSymbol *first = &g_array_index (gone, OdoriScoreEditSymbol, 0);
      OdoriScorePart *part = _odori_timeline_get_part (self, first->part);
      guint i = part ? odori_score_part_lower_bound (part, first->start) : 0;

      _odori_timeline_sel_clear (self);
      self->focus_part = first->part;
      self->focus_start = 0;
      if (part != NULL && i < part->symbols->len)
        self->focus_start = _odori_timeline_symbol_at_index (part, i)->start;
    }
  _odori_timeline_selection_changed (self);
}
