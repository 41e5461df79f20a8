/* odori-file-dialog.h: choosing a file to open or a place to save
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _OdoriFileDialog OdoriFileDialog;

/* FILE was chosen with the filter FILTER_NAME showing (NULL: none). Not called when the
 * dialog is cancelled. */
typedef void (*OdoriFileDialogFunc) (GFile      *file,
                                     const char *filter_name,
                                     gpointer    user_data);

OdoriFileDialog *odori_file_dialog_new (GtkWindow  *parent,
                                        const char *title,
                                        gboolean    save,
                                        const char *accept_label);
/* A filter named NAME showing the files that match one of PATTERNS (NULL-terminated):
 * glob patterns, or MIME types (those holding a '/'). */
void odori_file_dialog_add_filter (OdoriFileDialog   *self,
                                   const char        *name,
                                   const char *const *patterns);
void odori_file_dialog_set_folder (OdoriFileDialog *self,
                                   GFile           *folder);
void odori_file_dialog_set_current_name (OdoriFileDialog *self,
                                         const char      *name);
/* Shows the dialog, modal; it frees itself once answered. */
void odori_file_dialog_present (OdoriFileDialog    *self,
                                OdoriFileDialogFunc func,
                                gpointer            user_data);

G_END_DECLS
