/* odori-message-dialog.h: a modal question with a few answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  ODORI_RESPONSE_DEFAULT,
  ODORI_RESPONSE_SUGGESTED,
  ODORI_RESPONSE_DESTRUCTIVE,
} OdoriResponseAppearance;

/* The dialog was answered with RESPONSE (a GtkResponseType); FUNC destroys it. */
typedef void (*OdoriMessageDialogFunc) (GtkWindow *dialog,
                                        int        response,
                                        gpointer   user_data);

/* A question HEADING over BODY, modal to PARENT; answers are added next. */
GtkWindow *odori_message_dialog_new (GtkWindow  *parent,
                                     const char *heading,
                                     const char *body);
void       odori_message_dialog_add_response (GtkWindow              *dialog,
                                              int                     response,
                                              const char             *label,
                                              OdoriResponseAppearance appearance);
void       odori_message_dialog_set_default_response (GtkWindow *dialog,
                                                      int        response);
/* Shows DIALOG; FUNC gets the answer while OWNER (a GObject) lives. */
void odori_message_dialog_present (GtkWindow             *dialog,
                                   OdoriMessageDialogFunc func,
                                   gpointer               owner);

G_END_DECLS
