/* odori-inspector.c: the selected symbol's start frame and the score's blend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A composite widget (ui/odori-inspector.ui) beside the timeline. It follows the
 * timeline's selection and the document; its spin buttons make edits through the
 * timeline (a start frame) or the undo stack (the blend), so each change is one undo
 * step like any other.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-inspector.h"
#include "odori-score-edit.h"

struct _OdoriInspector
{
  GtkBox          parent_instance;

  OdoriTimeline  *timeline;
  GSignalGroup   *timeline_signals;
  GSignalGroup   *document_signals;
  gboolean        syncing;

  /* Template children */
  GtkLabel       *title_label;
  GtkLabel       *details_label;
  GtkLabel       *start_label;
  GtkSpinButton  *start_spin;
  GtkAdjustment  *start_adjustment;
  GtkSpinButton  *blend_spin;
  GtkAdjustment  *blend_adjustment;
  GtkLabel       *blend_note;
  GtkLabel       *seam_label;
};

G_DEFINE_FINAL_TYPE (OdoriInspector, odori_inspector, GTK_TYPE_BOX)

static OdoriDocument *
get_document (OdoriInspector *self)
{
  return self->timeline ? odori_timeline_get_document (self->timeline) : NULL;
}

static void
sync_symbol (OdoriInspector *self,
             OdoriScore     *score)
{
  OdoriDocument *doc = get_document (self);
  OdoriIndex *index = odori_document_get_index (doc);
  guint track = 0, start = 0, n = self->timeline ? odori_timeline_get_n_selected (self->timeline) : 0;
  gboolean one = self->timeline && odori_timeline_get_selected_symbol (self->timeline, &track, &start);
  OdoriScorePart *part = one && track < score->parts->len ? g_ptr_array_index (score->parts, track) : NULL;
  int i = part ? odori_score_part_find_symbol (part, start) : -1;
  OdoriScoreSymbol *symbol = i >= 0 ? &g_array_index (part->symbols, OdoriScoreSymbol, i) : NULL;
  OdoriIndexMotion *motion = symbol && index ? odori_index_lookup (index, symbol->symbol, NULL) : NULL;
  g_autofree char *title = NULL;
  g_autofree char *details = NULL;
  g_autofree char *seam_text = NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->start_spin), symbol != NULL);
  /* Nothing selected: no start frame at all, rather than a stale greyed one. */
  gtk_widget_set_visible (GTK_WIDGET (self->start_label), symbol != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->start_spin), symbol != NULL);
  if (symbol == NULL)
    {
      if (n > 1)
        title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u symbol selected", "%u symbols selected",
                                              n), n);
      else
        title = g_strdup (_("No symbol selected"));
      gtk_label_set_text (self->title_label, title);
      if (n > 1)
        gtk_label_set_text (self->details_label, _("Drag them, or nudge them with Ctrl+Left and Ctrl+Right."));
      else
        gtk_label_set_text (self->details_label, _("Drag a motion from the library onto a track, or click a block."));
      gtk_label_set_text (self->seam_label, "");
      return;
    }

  title = g_strdup_printf ("%s  %s", symbol->symbol, motion && motion->name ? motion->name : "");
  gtk_label_set_text (self->title_label, title);
  if (motion != NULL)
    /* Translators: inspector details: track, show (code), frames in the show file, description */
    details = g_strdup_printf (_("Track %s · show %s (%s), frames %u–%u of its file\n%s"),
                               part->code, motion->show->name ? motion->show->name : motion->show->code,
                               motion->show->code, motion->first, motion->last, motion->exp ? motion->exp : "");
  else
    details = g_strdup_printf (_("Track %s · “%s” is not in the library"), part->code, symbol->symbol);
  gtk_label_set_text (self->details_label, details);
  gtk_adjustment_set_value (self->start_adjustment, symbol->start);

  /* The seam into this symbol, from the composer's report (as the timeline has it). */
  {
    double jump, clip;
    const char *from;

    if (odori_timeline_get_seam (self->timeline, track, symbol->start, &jump, &clip, &from))
      {
        const OdoriSeam seam = { .jump_deg = jump, .clip_max_deg = clip };

        /* Translators: inspector seam line: the jump and the clips' own largest step */
        seam_text = g_strdup_printf (_("Seam from %s: jump %.1f°, clips %.1f°%s"), from, jump, clip,
                                     odori_seam_rank (&seam) == ODORI_SEAM_ROUGH ? _(" — <b>rough</b>") : "");
      }
  }
  gtk_label_set_markup (self->seam_label, seam_text ? seam_text : "");
}

static void
sync_all (OdoriInspector *self)
{
  OdoriDocument *doc = get_document (self);
  OdoriScore *score = doc ? odori_document_get_score (doc) : NULL;
  int preference = self->timeline ? odori_timeline_get_default_blend (self->timeline) : 0;

  self->syncing = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self), score != NULL);
  if (score != NULL)
    {
      sync_symbol (self, score);
      gtk_adjustment_set_value (self->blend_adjustment, score->blend >= 0 ? score->blend : preference);
      gtk_label_set_text (self->blend_note, score->blend >= 0
                                            ? _("Saved in the score (“# Blend:”).")
                                            : _("From Preferences: the score has no blend of its own yet."));
    }
  self->syncing = FALSE;
}

static void
on_start_changed_cb (OdoriInspector *self)
{
  guint track, start, value;

  if (self->syncing || self->timeline == NULL ||
      !odori_timeline_get_selected_symbol (self->timeline, &track, &start))
    return;
  value = (guint) gtk_adjustment_get_value (self->start_adjustment);
  if (!odori_timeline_set_symbol_start (self->timeline, track, start, value, NULL))
    sync_all (self);
}

static void
on_blend_changed_cb (OdoriInspector *self)
{
  OdoriDocument *doc = get_document (self);
  OdoriScore *score = doc ? odori_document_get_score (doc) : NULL;
  OdoriScoreEdit *edit;
  int value;

  if (self->syncing || score == NULL)
    return;
  value = (int) gtk_adjustment_get_value (self->blend_adjustment);
  if (value == score->blend)
    return;
  edit = odori_score_edit_new (_("Change Blend"));
  odori_score_edit_set_blend (edit, score->blend, value);
  if (!odori_undo_apply (odori_timeline_get_undo (self->timeline), edit, NULL))
    sync_all (self);
}

static void
odori_inspector_dispose (GObject *object)
{
  OdoriInspector *self = ODORI_INSPECTOR (object);

  g_clear_object (&self->timeline_signals);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->timeline);
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_INSPECTOR);
  G_OBJECT_CLASS (odori_inspector_parent_class)->dispose (object);
}

static void
odori_inspector_class_init (OdoriInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_inspector_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, details_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, start_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, start_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, start_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, blend_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, blend_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, blend_note);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, seam_label);
  gtk_widget_class_set_css_name (widget_class, "odori-inspector");
}

static void
odori_inspector_init (OdoriInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->timeline_signals = g_signal_group_new (ODORI_TYPE_TIMELINE);
  g_signal_group_connect_object (self->timeline_signals, "selection-changed",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->timeline_signals, "seams-changed",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "changed",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->start_adjustment, "value-changed",
                           G_CALLBACK (on_start_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->blend_adjustment, "value-changed",
                           G_CALLBACK (on_blend_changed_cb), self, G_CONNECT_SWAPPED);
  sync_all (self);
}

GtkWidget *
odori_inspector_new (void)
{
  return g_object_new (ODORI_TYPE_INSPECTOR, NULL);
}

void
odori_inspector_set_timeline (OdoriInspector *self,
                              OdoriTimeline  *timeline)
{
  g_return_if_fail (ODORI_IS_INSPECTOR (self));
  g_return_if_fail (timeline == NULL || ODORI_IS_TIMELINE (timeline));

  if (!g_set_object (&self->timeline, timeline))
    return;
  g_signal_group_set_target (self->timeline_signals, timeline);
  g_signal_group_set_target (self->document_signals, get_document (self));
  sync_all (self);
}

GtkSpinButton *
odori_inspector_get_start_spin (OdoriInspector *self)
{
  g_return_val_if_fail (ODORI_IS_INSPECTOR (self), NULL);
  return self->start_spin;
}

GtkSpinButton *
odori_inspector_get_blend_spin (OdoriInspector *self)
{
  g_return_val_if_fail (ODORI_IS_INSPECTOR (self), NULL);
  return self->blend_spin;
}
