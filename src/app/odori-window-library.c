/* odori-window-library.c: the window's library actions: Import Capture, and Remove and
 * Rename Show with their confirmation and Undo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-file-dialog.h"
#include "odori-format.h"
#include "odori-import-dialog.h"
#include "odori-message-dialog.h"
#include "odori-window-private.h"

/* Import */

/* The imported capture is selected in the library and played alone. */
static void
on_imported_cb (OdoriImportDialog *dialog,
                const char        *symbol,
                OdoriWindow       *self)
{
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *motion;

  odori_library_view_set_search (self->library_view, "");
  odori_library_view_select_symbol (self->library_view, symbol);
  motion = odori_index_lookup (odori_document_get_index (self->document), symbol, &error);
  if (motion != NULL && odori_session_preview (self->session, motion, NULL))
    odori_session_set_playing (self->session, TRUE);
}

static void
import_capture_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  OdoriWindow *self = user_data;
  GtkWindow *dialog = odori_import_dialog_new (GTK_WINDOW (self), self->document);

  g_signal_connect_object (dialog, "imported", G_CALLBACK (on_imported_cb), self, 0);
  gtk_window_present (dialog);
}

/* Import Capture with PATH already chosen: a capture or motion opened from the desktop. */
void
_odori_window_import_file (OdoriWindow *self,
                           const char  *path)
{
  GtkWindow *dialog;

  g_return_if_fail (ODORI_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  dialog = odori_import_dialog_new (GTK_WINDOW (self), self->document);
  g_signal_connect_object (dialog, "imported", G_CALLBACK (on_imported_cb), self, 0);
  odori_import_dialog_set_file (ODORI_IMPORT_DIALOG (dialog), path);
  gtk_window_present (dialog);
}


/* Remove Show, Rename Show */

/* What Undo needs: motion.dat before the removal (or renaming), and after it (Undo
 * refuses when the library changed since). Kept as the window's object data, with the
 * info bar; the last of the two library edits is the one undone. */
typedef struct
{
  char    *code;
  GBytes  *before;
  GBytes  *after;
  gboolean renamed;
} RemovedShow;

static void
removed_show_free (RemovedShow *removed)
{
  g_free (removed->code);
  g_clear_pointer (&removed->before, g_bytes_unref);
  g_clear_pointer (&removed->after, g_bytes_unref);
  g_free (removed);
}

/* The "Show removed — Undo" bar was closed: the removal stays. */
static void
on_removed_bar_closed_cb (OdoriWindow *self)
{
  g_object_set_data (G_OBJECT (self), REMOVED_SHOW_KEY, NULL);
  _odori_window_set_action_enabled (self, "undo-remove-show", FALSE);
}

static GBytes *
read_index_bytes (OdoriWindow  *self,
                  GError      **error)
{
  OdoriIndex *index = odori_document_get_index (self->document);
  char *data = NULL;
  gsize len = 0;

  if (index == NULL || index->path == NULL ||
      !g_file_get_contents (index->path, &data, &len, error))
    return NULL;
  return g_bytes_new_take (data, len);
}

/* A library edit of show CODE was done (motion.dat was BEFORE): offer its Undo in the bar
 * saying TEXT. */
static void
offer_library_undo (OdoriWindow *self,
                    const char  *code,
                    GBytes      *before,
                    gboolean     renamed,
                    const char  *text)
{
  RemovedShow *removed = g_new0 (RemovedShow, 1);

  removed->code = g_strdup (code);
  removed->before = g_bytes_ref (before);
  removed->after = read_index_bytes (self, NULL);
  removed->renamed = renamed;
  g_object_set_data_full (G_OBJECT (self), REMOVED_SHOW_KEY, removed, (GDestroyNotify) removed_show_free);
  _odori_window_set_action_enabled (self, "undo-remove-show", TRUE);
  odori_info_bar_show_removed (self->info_bar, text);
}

static void
remove_show (OdoriWindow *self,
             const char  *code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autofree char *text = NULL;

  if (!odori_document_remove_show (self->document, code, &before, &error))
    {
      _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot remove the show"), error->message, NULL);
      return;
    }
  text = g_strdup_printf (_("Show %s was removed from the library."), code);
  offer_library_undo (self, code, before, FALSE, text);
}

/* win.rename-show(("CODE", "NAME")): renames the show in motion.dat at once (the library
 * view asked for the name), with Undo in the bar. */
static void
rename_show_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;
  const char *code = NULL, *name = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autofree char *text = NULL;
  OdoriIndexShow *show;

  g_variant_get (param, "(&s&s)", &code, &name);
  if (!odori_document_rename_show (self->document, code, name, &before, &error))
    {
      _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot rename the show"), error->message, NULL);
      return;
    }
  show = odori_index_find_show (odori_document_get_index (self->document), code);
  /* Translators: "Show TE is now called “手の舞 Hand dance”." */
  text = g_strdup_printf (_("Show %s is now called “%s”."), code, show != NULL ? show->name : name);
  offer_library_undo (self, code, before, TRUE, text);
}

static void
on_remove_show_response_cb (GtkWindow *dialog,
                            int        response,
                            gpointer   user_data)
{
  OdoriWindow *self = user_data;
  g_autofree char *code = g_strdup (g_object_get_data (G_OBJECT (dialog), "show-code"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    remove_show (self, code);
}

/* win.remove-show("CODE"): asks, then removes the show from motion.dat. */
static void
remove_show_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;
  const char *code = g_variant_get_string (param, NULL);
  g_autofree char *heading = g_strdup_printf (_("Remove show %s from the library?"), code);
  guint uses = odori_document_count_show_uses (self->document, code);
  g_autofree char *body = NULL;
  GtkWindow *dialog;

  if (uses > 0)
    body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u block of this score uses it: the score will no longer "
                                         "compose until the show is back. Its motions leave motion.dat; "
                                         "the show file stays on disk.",
                                         "%u blocks of this score use it: the score will no longer "
                                         "compose until the show is back. Its motions leave motion.dat; "
                                         "the show file stays on disk.",
                                         uses),
                            uses);
  else
    body = g_strdup (_("Its motions leave motion.dat; the show file stays on disk. "
                       "Scores that use them no longer compose."));
  dialog = odori_message_dialog_new (GTK_WINDOW (self), heading, body);
  odori_message_dialog_add_response (dialog, GTK_RESPONSE_CANCEL, _("_Cancel"), ODORI_RESPONSE_DEFAULT);
  odori_message_dialog_add_response (dialog, GTK_RESPONSE_ACCEPT, _("_Remove"), ODORI_RESPONSE_DESTRUCTIVE);
  odori_message_dialog_set_default_response (dialog, GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "show-code", g_strdup (code), g_free);
  odori_message_dialog_present (dialog, on_remove_show_response_cb, self);
}

/* Puts motion.dat back as it was before the last Remove Show or Rename Show. */
static void
undo_remove_show_action (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  OdoriWindow *self = user_data;
  RemovedShow *removed = g_object_get_data (G_OBJECT (self), REMOVED_SHOW_KEY);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) now = NULL;
  const char *title;

  if (removed == NULL)
    return;
  title = removed->renamed ? _("Cannot undo the renaming") : _("Cannot undo the removal");
  now = read_index_bytes (self, &error);
  if (now == NULL || removed->after == NULL || !g_bytes_equal (now, removed->after))
    _odori_window_show_error (self, GTK_MESSAGE_ERROR, title,
                              error != NULL ? error->message
                              : removed->renamed ? _("The library’s motion.dat changed since the show was renamed.")
                                                 : _("The library’s motion.dat changed since the show was removed."),
                              NULL);
  else if (!odori_document_restore_index (self->document, removed->before, &error))
    _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
  odori_info_bar_hide_removed (self->info_bar);
  g_object_set_data (G_OBJECT (self), REMOVED_SHOW_KEY, NULL);
  g_simple_action_set_enabled (action, FALSE);
}

static const GActionEntry library_entries[] = {
  { "import-capture", import_capture_action },
  { "remove-show", remove_show_action, "s" },
  { "rename-show", rename_show_action, "(ss)" },
  { "undo-remove-show", undo_remove_show_action },
};

void
_odori_window_library_actions_init (OdoriWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), library_entries, G_N_ELEMENTS (library_entries), self);
  g_signal_connect_object (self->info_bar, "removed-closed",
                           G_CALLBACK (on_removed_bar_closed_cb), self, G_CONNECT_SWAPPED);
}
