/* odori-import-dialog.c: Import Capture, a capture becomes a show of the library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-import-dialog.h"

struct _OdoriImportDialog
{
  GtkWindow      parent_instance;

  OdoriDocument *document;
};

G_DEFINE_FINAL_TYPE (OdoriImportDialog, odori_import_dialog, GTK_TYPE_WINDOW)

static void
odori_import_dialog_dispose (GObject *object)
{
  OdoriImportDialog *self = ODORI_IMPORT_DIALOG (object);

  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_import_dialog_parent_class)->dispose (object);
}

static void
odori_import_dialog_class_init (OdoriImportDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = odori_import_dialog_dispose;
}

static void
odori_import_dialog_init (OdoriImportDialog *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Import Capture"));
}

GtkWindow *
odori_import_dialog_new (GtkWindow     *parent,
                         OdoriDocument *document)
{
  OdoriImportDialog *self;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (document), NULL);

  self = g_object_new (ODORI_TYPE_IMPORT_DIALOG,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
  self->document = g_object_ref (document);
  return GTK_WINDOW (self);
}
