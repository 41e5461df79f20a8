/* odori-score-properties.c: the score's title and author (the DDS header), and its date
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apply records one OdoriScoreEdit setting "# Title:" and "# Author:" and hands it to the
 * window's OdoriUndo, so the change is undoable and marks the score changed like any
 * other edit. The date is shown, not edited: Odori writes it when a score is made.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-score-properties.h"

struct _OdoriScoreProperties
{
  GtkWindow parent_instance;

  OdoriUndo *undo;

  GtkEntry  *title_entry;
  GtkEntry  *author_entry;
  GtkLabel  *date_label;
  GtkLabel  *error_label;
  GtkButton *apply_button;
};

G_DEFINE_FINAL_TYPE (OdoriScoreProperties, odori_score_properties, GTK_TYPE_WINDOW)

static void
on_apply_clicked_cb (OdoriScoreProperties *self)
{
  OdoriDocument *document = odori_undo_get_document (self->undo);
  OdoriScore    *score = odori_document_get_score (document);
  g_autoptr(OdoriScoreEdit) edit = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *author = NULL;

  if (score == NULL)
    {
      gtk_window_close (GTK_WINDOW (self));
      return;
    }
  /* A header value is one line. */
  title = g_strstrip (g_strdelimit (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->title_entry))), "\r\n", ' '));
  author = g_strstrip (g_strdelimit (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->author_entry))), "\r\n", ' '));
  edit = odori_score_edit_new (_ ("Score Properties"));
  odori_score_edit_set_header (edit, ODORI_SCORE_HEADER_TITLE, score->title, title);
  odori_score_edit_set_header (edit, ODORI_SCORE_HEADER_AUTHOR, score->author, author);
  if (!odori_score_edit_is_empty (edit) && !odori_undo_apply (self->undo, g_steal_pointer (&edit), &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return;
    }
  gtk_window_close (GTK_WINDOW (self));
}

static void
odori_score_properties_dispose (GObject *object)
{
  OdoriScoreProperties *self = ODORI_SCORE_PROPERTIES (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_SCORE_PROPERTIES);
  g_clear_object (&self->undo);
  G_OBJECT_CLASS (odori_score_properties_parent_class)->dispose (object);
}

static void
odori_score_properties_class_init (OdoriScorePropertiesClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_score_properties_dispose;

  odori_resources_ensure ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-score-properties.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriScoreProperties, title_entry);
  gtk_widget_class_bind_template_child (widget_class, OdoriScoreProperties, author_entry);
  gtk_widget_class_bind_template_child (widget_class, OdoriScoreProperties, date_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriScoreProperties, error_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriScoreProperties, apply_button);
  gtk_widget_class_bind_template_callback (widget_class, on_apply_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_close);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
odori_score_properties_init (OdoriScoreProperties *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWindow *
odori_score_properties_new (GtkWindow *parent,
                            OdoriUndo *undo)
{
  OdoriScoreProperties *self;
  OdoriScore           *score;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (ODORI_IS_UNDO (undo), NULL);

  self = g_object_new (ODORI_TYPE_SCORE_PROPERTIES, "transient-for", parent, NULL);
  self->undo = g_object_ref (undo);
  score = odori_document_get_score (odori_undo_get_document (undo));
  if (score != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->title_entry), score->title ? score->title : "");
      gtk_editable_set_text (GTK_EDITABLE (self->author_entry), score->author ? score->author : "");
      gtk_label_set_text (self->date_label, score->date && score->date[0] ? score->date : _ ("No date"));
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->title_entry));
  return GTK_WINDOW (self);
}
