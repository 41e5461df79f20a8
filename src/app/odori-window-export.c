/* odori-window-export.c: the window's Export: the file dialog, the export in the
 * background with its progress bar and Cancel, and the toast when it is done
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-file-dialog.h"
#include "odori-format.h"
#include "odori-gltf.h"
#include "odori-import-dialog.h"
#include "odori-message-dialog.h"
#include "odori-window-private.h"

/* Export */

/* The running export is an OdoriExport (BVA, BVH) or an OdoriGltfExport (.glb). */
static double
export_fraction (GObject *export)
{
  return ODORI_IS_GLTF_EXPORT (export) ? odori_gltf_export_get_fraction (ODORI_GLTF_EXPORT (export))
                                       : odori_export_get_fraction (ODORI_EXPORT (export));
}

static const char *
export_path (GObject *export)
{
  return ODORI_IS_GLTF_EXPORT (export) ? odori_gltf_export_get_path (ODORI_GLTF_EXPORT (export))
                                       : odori_export_get_path (ODORI_EXPORT (export));
}

/* The export bar's progress, ten times a second, for whatever runs on it: an export, a
 * video or the poses of Print…. */
static gboolean
export_poll_cb (gpointer data)
{
  OdoriWindow *self = data;

  if (self->export != NULL)
    gtk_progress_bar_set_fraction (self->export_progress, export_fraction (self->export));
  else if (self->video != NULL)
    gtk_progress_bar_set_fraction (self->export_progress, odori_video_get_fraction (self->video));
  else if (self->printing != NULL)
    gtk_progress_bar_set_fraction (self->export_progress, odori_print_get_fraction (self->printing));
  return G_SOURCE_CONTINUE;
}

static void
on_export_folder_shown_cb (GObject      *source,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(OdoriWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot open the folder"), error->message, NULL);
}

/* "Open Folder" of the export toast: the folder the file was written to, in the
 * desktop's file manager (GtkFileLauncher is GTK 4.10). */
static void
open_export_folder_cb (AdwToast    *toast,
                       OdoriWindow *self)
{
  const char *dir = g_object_get_data (G_OBJECT (toast), "odori-folder");
  g_autoptr(GFile) folder = NULL;
  g_autofree char *uri = NULL;

  if (dir == NULL)
    return;
  folder = g_file_new_for_path (dir);
  uri = g_file_get_uri (folder);
  gtk_show_uri_full (GTK_WINDOW (self), uri, GDK_CURRENT_TIME, NULL, on_export_folder_shown_cb, g_object_ref (self));
}

void
_odori_window_export_bar_begin (OdoriWindow *self,
                                const char  *label)
{
  self->export_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->export_label, label);
  gtk_progress_bar_set_fraction (self->export_progress, 0);
  gtk_revealer_set_reveal_child (self->export_revealer, TRUE);
  self->export_poll_id = g_timeout_add (100, export_poll_cb, self);
  _odori_window_update_actions (self);
}

void
_odori_window_export_bar_end (OdoriWindow *self)
{
  g_clear_handle_id (&self->export_poll_id, g_source_remove);
  g_clear_object (&self->export_cancellable);
  /* the window may have been closed meanwhile */
  if (self->export_revealer == NULL || self->document == NULL)
    return;
  gtk_revealer_set_reveal_child (self->export_revealer, FALSE);
  _odori_window_update_actions (self);
}

/* An export that ended well says so, for a few seconds, with a way to the file. */
void
_odori_window_show_exported_toast (OdoriWindow *self,
                                   const char  *path)
{
  g_autofree char *name = g_path_get_basename (path);
  /* Translators: %s is a file name */
  g_autofree char *title = g_strdup_printf (_("Exported “%s”"), name);
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_button_label (toast, _("Open Folder"));
  adw_toast_set_timeout (toast, 8);
  g_object_set_data_full (G_OBJECT (toast), "odori-folder", g_path_get_dirname (path), g_free);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (open_export_folder_cb), self, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OdoriWindow *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  gboolean ok = ODORI_IS_GLTF_EXPORT (source)
                  ? odori_gltf_export_run_finish (ODORI_GLTF_EXPORT (source), result, &error)
                  : odori_export_run_finish (ODORI_EXPORT (source), result, &error);

  if (!ok)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *name = g_path_get_basename (export_path (source));
          g_autofree char *title = g_strdup_printf (_("Cannot export “%s”"), name);

          _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
        }
      g_task_return_error (task, g_steal_pointer (&error));
    }
  else
    {
      _odori_window_show_exported_toast (self, export_path (source));
      g_task_return_boolean (task, TRUE);
    }

  g_clear_object (&self->export);
  _odori_window_export_bar_end (self);
}

void
odori_window_export (OdoriWindow         *self,
                     GFile               *file,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(OdoriMotion) copy = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  OdoriMotion *motion;

  g_return_if_fail (ODORI_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, odori_window_export);
  motion = odori_document_get_motion (self->document);
  path = g_file_get_path (file);
  if (self->export != NULL || motion == NULL || path == NULL)
    {
      const char *why = self->export != NULL ? _("An export is already running.")
                        : motion == NULL ? _("The score does not compose: there is nothing to export.")
                        : _("Only local files can be written.");

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot export"), why, NULL);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", why);
      return;
    }

  /* The worker writes a snapshot: edits meanwhile don't reach the file half-way. */
  copy = odori_motion_copy (motion);
  if (odori_gltf_path_is_glb (path))
    self->export = G_OBJECT (odori_gltf_export_new (copy, path));
  else
    self->export = G_OBJECT (odori_export_new (copy, path));
  name = g_path_get_basename (path);
  /* Translators: %s is a file name */
  label = g_strdup_printf (_("Exporting “%s”…"), name);
  _odori_window_export_bar_begin (self, label);
  if (ODORI_IS_GLTF_EXPORT (self->export))
    odori_gltf_export_run_async (ODORI_GLTF_EXPORT (self->export), self->export_cancellable, export_done_cb,
                                 g_steal_pointer (&task));
  else
    odori_export_run_async (ODORI_EXPORT (self->export), self->export_cancellable, export_done_cb,
                            g_steal_pointer (&task));
}

gboolean
odori_window_export_finish (OdoriWindow   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_export_chosen_cb (GFile      *chosen,
                     const char *filter_name,
                     gpointer    user_data)
{
  OdoriWindow *self = user_data;
  g_autoptr(GFile) file = g_object_ref (chosen);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *lower = path ? g_ascii_strdown (path, -1) : NULL;

  /* No extension: the filter chosen decides. */
  if (lower != NULL && !g_str_has_suffix (lower, ".bva") && !g_str_has_suffix (lower, ".vpm") &&
      !g_str_has_suffix (lower, ".bvh") && !g_str_has_suffix (lower, ".glb"))
    {
      gboolean bva = g_strcmp0 (filter_name, _("BVA (Biovision Animation)")) == 0;
      gboolean glb = g_strcmp0 (filter_name, _("glTF binary (.glb), with the skin")) == 0;
      g_autofree char *with_ext = g_strconcat (path, bva ? ".bva" : glb ? ".glb" : ".bvh", NULL);

      g_clear_object (&file);
      file = g_file_new_for_path (with_ext);
    }
  odori_window_export (self, file, NULL, NULL);
}

static void
export_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  OdoriWindow *self = user_data;
  OdoriFileDialog *dialog =
    odori_file_dialog_new (GTK_WINDOW (self), _("Export the Composed Dance"), TRUE, _("_Export"));
  g_autofree char *name = _odori_window_suggested_name (self, ".bvh");
  const char *path = odori_document_get_path (self->document);
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autofree char *dir = NULL;
  g_autoptr(GFile) folder = NULL;

  /* BVH beside the score (what other tools read); a score without a home (the sample, a
   * new one) exports to Documents, not into the library's folder. The first filter is
   * the one shown. */
  odori_file_dialog_add_filter (dialog, _("BVH (Biovision Hierarchy)"),
                                (const char *[]) { "*.bvh", "*.BVH", NULL });
  odori_file_dialog_add_filter (dialog, _("BVA (Biovision Animation)"),
                                (const char *[]) { "*.bva", "*.BVA", "*.vpm", "*.VPM", NULL });
  odori_file_dialog_add_filter (dialog, _("glTF binary (.glb), with the skin"),
                                (const char *[]) { "*.glb", "*.GLB", NULL });
  if (path != NULL)
    dir = g_path_get_dirname (path);
  else if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    dir = g_strdup (documents);
  else
    dir = g_strdup (g_get_home_dir ());
  folder = g_file_new_for_path (dir);
  odori_file_dialog_set_folder (dialog, folder);
  odori_file_dialog_set_current_name (dialog, name);
  odori_file_dialog_present (dialog, on_export_chosen_cb, self);
}

static void
cancel_export_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  OdoriWindow *self = user_data;

  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
}

static const GActionEntry export_entries[] = {
  { "export", export_action },
  { "cancel-export", cancel_export_action },
};

void
_odori_window_export_actions_init (OdoriWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), export_entries, G_N_ELEMENTS (export_entries), self);
}
