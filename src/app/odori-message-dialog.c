/* odori-message-dialog.c: a modal question with a few answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one place that uses GtkMessageDialog (deprecated in GTK 4.10); the calls follow
 * AdwMessageDialog's (heading, body, responses with an appearance, a default), so a port
 * to it or to GtkAlertDialog touches this file only.
 */
#include "config.h"

#include "odori-message-dialog.h"

GtkWindow *
odori_message_dialog_new (GtkWindow  *parent,
                          const char *heading,
                          const char *body)
{
  GtkWidget *dialog;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (heading != NULL, NULL);

  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", heading);
  if (body != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", body);
  return GTK_WINDOW (dialog);
}

void
odori_message_dialog_add_response (GtkWindow              *dialog,
                                   int                     response,
                                   const char             *label,
                                   OdoriResponseAppearance appearance)
{
  GtkWidget *button;

  g_return_if_fail (GTK_IS_MESSAGE_DIALOG (dialog));
  g_return_if_fail (label != NULL);

  button = gtk_dialog_add_button (GTK_DIALOG (dialog), label, response);
  if (appearance == ODORI_RESPONSE_DESTRUCTIVE)
    gtk_widget_add_css_class (button, "destructive-action");
  else if (appearance == ODORI_RESPONSE_SUGGESTED)
    gtk_widget_add_css_class (button, "suggested-action");
}

void
odori_message_dialog_set_default_response (GtkWindow *dialog,
                                           int        response)
{
  g_return_if_fail (GTK_IS_MESSAGE_DIALOG (dialog));
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), response);
}

void
odori_message_dialog_present (GtkWindow             *dialog,
                              OdoriMessageDialogFunc func,
                              gpointer               owner)
{
  g_return_if_fail (GTK_IS_MESSAGE_DIALOG (dialog));
  g_return_if_fail (func != NULL);
  g_return_if_fail (G_IS_OBJECT (owner));

  g_signal_connect_object (dialog, "response", G_CALLBACK (func), owner, 0);
  gtk_window_present (dialog);
}
