/* odori-file-dialog.c: choosing a file to open or a place to save
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one place that uses GtkFileChooserNative (deprecated in GTK 4.10) with a response
 * callback (GTE 43.2 editor-window-actions.c); the API follows GtkFileDialog's, so the
 * port to it touches this file only.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-file-dialog.h"

struct _OdoriFileDialog
{
  GtkFileChooserNative *native;
  OdoriFileDialogFunc   func;
  gpointer              user_data;
};

OdoriFileDialog *
odori_file_dialog_new (GtkWindow  *parent,
                       const char *title,
                       gboolean    save,
                       const char *accept_label)
{
  OdoriFileDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  self = g_new0 (OdoriFileDialog, 1);
  self->native = gtk_file_chooser_native_new (title, parent,
                                              save ? GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
                                              accept_label, _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->native), TRUE);
  return self;
}

void
odori_file_dialog_add_filter (OdoriFileDialog   *self,
                              const char        *name,
                              const char *const *patterns)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL && patterns != NULL);

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    if (strchr (patterns[i], '/') != NULL)
      gtk_file_filter_add_mime_type (filter, patterns[i]);
    else
      gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->native), filter);
}

void
odori_file_dialog_set_folder (OdoriFileDialog *self,
                              GFile           *folder)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (G_IS_FILE (folder));

  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->native), folder, NULL);
}

void
odori_file_dialog_set_current_name (OdoriFileDialog *self,
                                    const char      *name)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL);

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->native), name);
}

static void
on_response_cb (GtkNativeDialog *native,
                int              response,
                OdoriFileDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        self->func (file, filter ? gtk_file_filter_get_name (filter) : NULL, self->user_data);
    }
  g_object_unref (self->native);
  g_free (self);
}

void
odori_file_dialog_present (OdoriFileDialog    *self,
                           OdoriFileDialogFunc func,
                           gpointer            user_data)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (func != NULL);

  self->func = func;
  self->user_data = user_data;
  g_signal_connect (self->native, "response", G_CALLBACK (on_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->native));
}
