/* odori-import-dialog.h: Import Capture, a capture becomes a show of the library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"

G_BEGIN_DECLS

#define ODORI_TYPE_IMPORT_DIALOG (odori_import_dialog_get_type ())

G_DECLARE_FINAL_TYPE (OdoriImportDialog, odori_import_dialog, ODORI, IMPORT_DIALOG, GtkWindow)

GtkWindow *odori_import_dialog_new (GtkWindow     *parent,
                                    OdoriDocument *document);

G_END_DECLS
