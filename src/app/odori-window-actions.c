/* odori-window-actions.c: the window's actions: files, playback, view, editing, closing
 * (Export is odori-window-export.c; Import and the library's shows odori-window-library.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * File dialogs go through odori-file-dialog.c, questions through odori-message-dialog.c,
 * the bars above the content through OdoriInfoBar. Every action is reachable by keyboard: Ctrl accelerators
 * are set by the application, bare keys (Space, arrows, Home/End, F, L, [ ]) are
 * bindings of the window class, so a focused text entry or button takes them first.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-file-dialog.h"
#include "odori-format.h"
#include "odori-import-dialog.h"
#include "odori-message-dialog.h"
#include "odori-score-properties.h"
#include "odori-window-private.h"
#ifdef ODORI_HAVE_RENDER
#include "odori-viewport.h"
#endif

#define MAX_RECENT 10

static const double speeds[] = { 0.25, 0.5, 0.75, 1.0, 1.5, 2.0 };

void
_odori_window_set_action_enabled (OdoriWindow *self,
                                  const char  *name,
                                  gboolean     enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  if (G_IS_SIMPLE_ACTION (action))
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}


void
_odori_window_update_actions (OdoriWindow *self)
{
  OdoriDocument *doc = self->document;
  gboolean has_score = odori_document_get_score (doc) != NULL;
  gboolean has_motion = odori_document_get_motion (doc) != NULL;
  gboolean exporting = self->export != NULL || self->video != NULL || self->printing != NULL;
  gboolean playable = odori_session_get_n_frames (self->session) > 1;
  GAction *speed;

  _odori_window_set_action_enabled (self, "save", has_score);
  _odori_window_set_action_enabled (self, "new-score", odori_document_get_index (doc) != NULL);
  _odori_window_set_action_enabled (self, "score-properties", has_score);
  _odori_window_set_action_enabled (self, "save-as", has_score);
  _odori_window_set_action_enabled (self, "export", has_motion && !exporting);
  _odori_window_set_action_enabled (self, "export-video", has_motion && !exporting);
  _odori_window_set_action_enabled (self, "cancel-export", exporting);
  _odori_window_set_action_enabled (self, "cancel-open", self->open_cancellable != NULL);
  _odori_window_set_action_enabled (self, "stop-preview", odori_session_get_preview (self->session) != NULL);
  _odori_window_set_action_enabled (self, "import-capture", odori_document_get_index (doc) != NULL);
  _odori_window_set_action_enabled (self, "remove-show", odori_document_get_index (doc) != NULL &&
                                           odori_document_get_index (doc)->path != NULL);
  _odori_window_set_action_enabled (self, "rename-show", odori_document_get_index (doc) != NULL &&
                                           odori_document_get_index (doc)->path != NULL);
  _odori_window_set_action_enabled (self, "undo-remove-show",
                      g_object_get_data (G_OBJECT (self), REMOVED_SHOW_KEY) != NULL);
  _odori_window_set_action_enabled (self, "play-pause", playable);
  _odori_window_set_action_enabled (self, "step-forward", playable);
  _odori_window_set_action_enabled (self, "step-back", playable);
  _odori_window_set_action_enabled (self, "first-frame", playable);
  _odori_window_set_action_enabled (self, "last-frame", playable);
  if (self->undo != NULL && self->timeline != NULL)
    {
      gboolean selected = odori_timeline_get_n_selected (self->timeline) > 0;

      _odori_window_set_action_enabled (self, "undo", odori_undo_get_can_undo (self->undo));
      _odori_window_set_action_enabled (self, "redo", odori_undo_get_can_redo (self->undo));
      _odori_window_set_action_enabled (self, "cut", selected);
      _odori_window_set_action_enabled (self, "copy", selected);
      _odori_window_set_action_enabled (self, "delete", selected);
      _odori_window_set_action_enabled (self, "duplicate", selected);
      _odori_window_set_action_enabled (self, "paste", has_score && odori_timeline_can_paste (self->timeline));
      _odori_window_set_action_enabled (self, "select-all", has_score);
      _odori_window_set_action_enabled (self, "tap-tempo", has_score);
      _odori_window_set_action_enabled (self, "detect-tempo",
                                        has_score && odori_document_get_score (doc)->music.path != NULL);
      _odori_window_set_action_enabled (self, "remove-track", has_score && odori_document_get_score (doc)->parts->len > 1);
    }

  if (self->music_lane != NULL)
    _odori_window_music_update_actions (self);
  speed = g_action_map_lookup_action (G_ACTION_MAP (self), "speed");
  if (speed != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (speed), g_variant_new_double (odori_session_get_speed (self->session)));
}

/* File choosers */

static void
add_all_files_filter (OdoriFileDialog *dialog)
{
  odori_file_dialog_add_filter (dialog, _("All files"), (const char *[]) { "*", NULL });
}

/* Starts in the directory of the score, else of the library. */
static void
set_start_folder (OdoriWindow     *self,
                  OdoriFileDialog *dialog)
{
  const char *path = odori_document_get_path (self->document);
  OdoriIndex *index = odori_document_get_index (self->document);
  g_autofree char *dir = NULL;
  g_autoptr(GFile) folder = NULL;

  if (path != NULL)
    dir = g_path_get_dirname (path);
  else if (index != NULL && index->path != NULL && !odori_document_get_is_sample (self->document))
    dir = g_path_get_dirname (index->path);
  else
    dir = g_strdup (g_get_home_dir ());
  folder = g_file_new_for_path (dir);
  odori_file_dialog_set_folder (dialog, folder);
}

/* A file name from the score's title: what a choreographer would type. */
char *
_odori_window_suggested_name (OdoriWindow *self,
                              const char  *extension)
{
  const char *path = odori_document_get_path (self->document);
  g_autofree char *base = NULL;
  char *dot;

  if (path != NULL)
    base = g_path_get_basename (path);
  else
    base = odori_document_dup_title (self->document);
  g_strdelimit (base, G_DIR_SEPARATOR_S ":", '-');
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_strconcat (base, extension, NULL);
}

/* Open: by what the file holds */

/* The open in a new window (this window has unsaved work) ended: on failure the new
 * window goes, and the window the user asked in says why. TASK: the routing's. */
static void
on_opened_in_new_window_cb (GObject      *source,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OdoriWindow *self = g_task_get_source_object (task);
  OdoriWindow *window = ODORI_WINDOW (source);
  GFile *file = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (odori_window_open_finish (window, result, &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* The new window only existed for this score: say it in the window the user asked */
  gtk_window_destroy (GTK_WINDOW (window));
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->document != NULL)
    {
      g_autofree char *title = _odori_window_open_error_title (file, FALSE);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
    }
  g_task_return_error (task, g_steal_pointer (&error));
}

static void
on_opened_here_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (odori_window_open_finish (ODORI_WINDOW (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Work in this window is never replaced: a score with changes stays, the new one gets
 * its own window. Both read in the background with a progress bar. */
static void
open_score_here_or_new (OdoriWindow *self,
                        GFile       *file,
                        GTask       *task)
{
  if (odori_document_get_dirty (self->document))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      OdoriWindow *window = odori_application_new_window (ODORI_APPLICATION (app));

      gtk_window_present (GTK_WINDOW (window));
      odori_window_open_async (window, file, NULL, on_opened_in_new_window_cb, task);
    }
  else
    odori_window_open_async (self, file, NULL, on_opened_here_cb, task);
}

/* Worker thread: what FILE (the task data) holds. */
static void
detect_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  g_autofree char *path = g_file_get_path (task_data);
  GError *error = NULL;
  OdoriFormat format;

  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s",
                               _("Only local files can be opened."));
      return;
    }
  format = odori_format_detect_file (path, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, format);
}

static void
on_detected_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OdoriWindow *self = g_task_get_source_object (task);
  GFile *file = g_task_get_task_data (task);
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;
  OdoriFormat format = (OdoriFormat) g_task_propagate_int (G_TASK (result), &error);

  if (self->document == NULL)
    {
      /* the window was closed meanwhile */
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("The window was closed"));
      return;
    }
  if (error == NULL)
    switch (format)
      {
      case ODORI_FORMAT_SCORE:
        open_score_here_or_new (self, file, g_steal_pointer (&task));
        return;
      case ODORI_FORMAT_INDEX:
        odori_window_open_async (self, NULL, file, on_opened_here_cb, g_steal_pointer (&task));
        return;
      case ODORI_FORMAT_BVA:
      case ODORI_FORMAT_BVH:
      case ODORI_FORMAT_JOINTS:
      case ODORI_FORMAT_SENSOR_CSV:
        /* A motion or a capture: previewed and offered for import, as `odori FILE` does. */
        _odori_window_import_file (self, path);
        g_task_return_boolean (task, TRUE);
        return;
      case ODORI_FORMAT_BULGE:
      case ODORI_FORMAT_KBS:
      case ODORI_FORMAT_KST:
      case ODORI_FORMAT_UNKNOWN:
      default:
        g_set_error (&error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                     /* Translators: the second %s is a format: "bulge_types", "kbs"… */
                     _("%s:1: a %s file: Open takes a dance score, a motion library "
                       "(motion.dat), or a motion or capture to import (BVA, BVH, "
                       "NI_JOINTS_TEXT_FILE, sensor CSV)"),
                     path, odori_format_to_string (format));
        break;
      }
  {
    g_autofree char *title = _odori_window_open_error_title (file, FALSE);

    _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
  }
  g_task_return_error (task, g_steal_pointer (&error));
}

void
odori_window_open_file_async (OdoriWindow         *self,
                              GFile               *file,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;
  g_autoptr(GTask) detect = NULL;

  g_return_if_fail (ODORI_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, odori_window_open_file_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  detect = g_task_new (self, NULL, on_detected_cb, task);
  g_task_set_task_data (detect, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (detect, detect_thread);
}

gboolean
odori_window_open_file_finish (OdoriWindow   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_open_chosen_cb (GFile      *file,
                   const char *filter_name,
                   gpointer    user_data)
{
  odori_window_open_file_async (user_data, file, NULL, NULL);
}

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  OdoriWindow *self = user_data;
  OdoriFileDialog *dialog = odori_file_dialog_new (GTK_WINDOW (self), _("Open"), FALSE, _("_Open"));

  /* Open decides by content: the filters only sort the list. */
  odori_file_dialog_add_filter (dialog, _("Dance scores"),
                                (const char *[]) { "application/x-odori-score", "*.dds", "*.DDS", NULL });
  odori_file_dialog_add_filter (dialog, _("Everything Odori opens"),
                                (const char *[]) { "*.dds", "*.DDS", "*.dat", "*.DAT", "*.bva", "*.BVA",
                                                   "*.vpm", "*.VPM", "*.bvh", "*.BVH", "*.txt", "*.TXT",
                                                   "*.csv", "*.CSV", NULL });
  odori_file_dialog_add_filter (dialog, _("Motion libraries (motion.dat)"),
                                (const char *[]) { "*.dat", "*.DAT", NULL });
  odori_file_dialog_add_filter (dialog, _("Motions and captures to import"),
                                (const char *[]) { "*.bva", "*.BVA", "*.vpm", "*.VPM", "*.bvh", "*.BVH",
                                                   "*.txt", "*.TXT", "*.csv", "*.CSV", NULL });
  add_all_files_filter (dialog);
  set_start_folder (self, dialog);
  odori_file_dialog_present (dialog, on_open_chosen_cb, self);
}

static void
open_recent_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;
  g_autoptr(GFile) file = g_file_new_for_path (g_variant_get_string (param, NULL));

  odori_window_open_file_async (self, file, NULL, NULL);
}

/* New Score: an empty score for this window's library, here when nothing would be lost,
 * else in a new window. */
static void
new_score_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  OdoriWindow *self = user_data;
  OdoriWindow *window = self;
  g_autoptr(GError) error = NULL;

  if (!odori_document_get_untouched (self->document))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      window = odori_application_new_window (ODORI_APPLICATION (app));
    }
  if (!odori_document_new_score (window->document, odori_document_get_index (self->document), &error))
    {
      if (window != self)
        gtk_window_destroy (GTK_WINDOW (window));
      _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot start a new score"), error->message, NULL);
      return;
    }
  _odori_window_hide_error (window);
  odori_session_set_frame (window->session, 1);
  gtk_window_present (GTK_WINDOW (window));
}

/* Score Properties: the title and author, one undoable edit. */
static void
score_properties_action (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  OdoriWindow *self = user_data;

  if (odori_document_get_score (self->document) == NULL)
    return;
  gtk_window_present (odori_score_properties_new (GTK_WINDOW (self), self->undo));
}

static void
open_sample_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;

  if (odori_document_get_dirty (self->document))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      OdoriWindow *window = odori_application_new_window (ODORI_APPLICATION (app));

      odori_window_load_sample (window);
      gtk_window_present (GTK_WINDOW (window));
      return;
    }
  odori_window_load_sample (self);
}

static void
on_open_library_chosen_cb (GFile      *file,
                           const char *filter_name,
                           gpointer    user_data)
{
  odori_window_open_async (user_data, NULL, file, NULL, NULL);
}

static void
open_library_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  OdoriWindow *self = user_data;
  OdoriFileDialog *dialog = odori_file_dialog_new (GTK_WINDOW (self), _("Open Motion Library"), FALSE, _("_Open"));

  odori_file_dialog_add_filter (dialog, _("Motion libraries (motion.dat)"),
                                (const char *[]) { "*.dat", "*.DAT", NULL });
  add_all_files_filter (dialog);
  set_start_folder (self, dialog);
  odori_file_dialog_present (dialog, on_open_library_chosen_cb, self);
}

/* Save */

static void save_as (OdoriWindow *self,
                     gboolean     close_after);

static void
save_chosen (OdoriWindow *self,
             GFile       *file,
             gboolean     close_after)
{
  if (odori_window_save_to (self, file) && close_after)
    {
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
}

static void
on_save_as_chosen_cb (GFile      *file,
                      const char *filter_name,
                      gpointer    user_data)
{
  save_chosen (user_data, file, FALSE);
}

static void
on_save_as_then_close_chosen_cb (GFile      *file,
                                 const char *filter_name,
                                 gpointer    user_data)
{
  save_chosen (user_data, file, TRUE);
}

static void
save_as (OdoriWindow *self,
         gboolean     close_after)
{
  OdoriFileDialog *dialog = odori_file_dialog_new (GTK_WINDOW (self), _("Save Score"), TRUE, _("_Save"));
  g_autofree char *name = _odori_window_suggested_name (self, ".dds");

  odori_file_dialog_add_filter (dialog, _("Dance scores"), (const char *[]) { "*.dds", "*.DDS", NULL });
  set_start_folder (self, dialog);
  odori_file_dialog_set_current_name (dialog, name);
  odori_file_dialog_present (dialog, close_after ? on_save_as_then_close_chosen_cb : on_save_as_chosen_cb, self);
}

/* Saves in place when the score has a home, else asks where. TRUE if saved now. */
static gboolean
save (OdoriWindow *self,
      gboolean     close_after)
{
  const char *path = odori_document_get_path (self->document);
  g_autoptr(GFile) file = NULL;

  if (path == NULL || odori_document_get_is_sample (self->document))
    {
      save_as (self, close_after);
      return FALSE;
    }
  file = g_file_new_for_path (path);
  return odori_window_save_to (self, file);
}

static void
save_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  save (user_data, FALSE);
}

static void
save_as_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  save_as (user_data, FALSE);
}

static void
cancel_open_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;

  if (self->open_cancellable != NULL)
    g_cancellable_cancel (self->open_cancellable);
}

/* Playback */

static void
play_pause_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  OdoriWindow *self = user_data;

  odori_session_set_playing (self->session, !odori_session_get_playing (self->session));
}

static void
step_forward_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  odori_session_step (ODORI_WINDOW (user_data)->session, 1);
}

static void
step_back_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  odori_session_step (ODORI_WINDOW (user_data)->session, -1);
}

static void
first_frame_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;

  odori_session_set_playing (self->session, FALSE);
  odori_session_set_frame (self->session, 1);
}

static void
last_frame_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  OdoriWindow *self = user_data;

  odori_session_set_playing (self->session, FALSE);
  odori_session_set_frame (self->session, odori_session_get_n_frames (self->session));
}

static void
change_speed (OdoriWindow *self,
              int          direction)
{
  double speed = odori_session_get_speed (self->session);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (speeds) && speeds[i] < speed - 1e-9; i++)
    ;
  if (direction < 0 && i > 0)
    i--;
  else if (direction > 0 && i + 1 < G_N_ELEMENTS (speeds) && speeds[i] <= speed + 1e-9)
    i++;
  i = MIN (i, G_N_ELEMENTS (speeds) - 1);
  g_settings_set_double (self->settings, "playback-speed", speeds[i]);
}

static void
slower_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  change_speed (user_data, -1);
}

static void
faster_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  change_speed (user_data, 1);
}

static void
speed_change_state (GSimpleAction *action,
                    GVariant      *value,
                    gpointer       user_data)
{
  OdoriWindow *self = user_data;

  g_settings_set_double (self->settings, "playback-speed", CLAMP (g_variant_get_double (value), 0.25, 2.0));
}

/* Boolean settings as stateful actions (not g_settings_create_action(): those outlive
 * a destroyed window while the settings object lives, and then notify a freed window). */
static void
setting_change_state (GSimpleAction *action,
                      GVariant      *value,
                      gpointer       user_data)
{
  OdoriWindow *self = user_data;

  g_settings_set_boolean (self->settings, g_action_get_name (G_ACTION (action)), g_variant_get_boolean (value));
}

void
_odori_window_sync_setting_actions (OdoriWindow *self)
{
  static const char *keys[] = { "loop", "show-skin" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), keys[i]);

      if (action != NULL)
        g_simple_action_set_state (G_SIMPLE_ACTION (action),
                                   g_variant_new_boolean (g_settings_get_boolean (self->settings, keys[i])));
    }
}

/* Viewport */

static void
view_change_state (GSimpleAction *action,
                   GVariant      *value,
                   gpointer       user_data)
{
  OdoriWindow *self = user_data;
  OdoriView view;

  if (!odori_view_from_string (g_variant_get_string (value, NULL), &view))
    return;
  g_simple_action_set_state (action, value);
#ifdef ODORI_HAVE_RENDER
  if (self->viewport != NULL)
    odori_viewport_set_view (ODORI_VIEWPORT (self->viewport), view);
#else
  (void) self;
#endif
}

static void
frame_all_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
#ifdef ODORI_HAVE_RENDER
  OdoriWindow *self = user_data;

  if (self->viewport != NULL)
    odori_viewport_frame_all (ODORI_VIEWPORT (self->viewport));
#endif
}

static void
stop_preview_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  odori_session_stop_preview (ODORI_WINDOW (user_data)->session);
}

static void
focus_search_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  odori_library_view_focus_search (ODORI_WINDOW (user_data)->library_view);
}

static void
close_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  gtk_window_close (GTK_WINDOW (user_data));
}

/* Editing: the window's actions hand over to the timeline (its own bindings work when
 * it has the focus; these serve the menu, the buttons and Ctrl+Z anywhere). */

static void
undo_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  odori_undo_undo (ODORI_WINDOW (user_data)->undo);
}

static void
redo_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  odori_undo_redo (ODORI_WINDOW (user_data)->undo);
}

static void
timeline_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  OdoriWindow *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  g_autofree char *target = g_strconcat ("timeline.", name, NULL);

  gtk_widget_activate_action (GTK_WIDGET (self->timeline), target, NULL);
  _odori_window_update_actions (self);
}

/* Music: T taps the tempo (wherever the focus is, as the other bare keys); Detect Tempo
 * runs the beat tracker (the timeline shows its progress, Escape there cancels it). */
static void
tap_tempo_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  odori_timeline_tap_tempo (ODORI_WINDOW (user_data)->timeline, GDK_CURRENT_TIME);
}

static void
detect_tempo_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  odori_timeline_detect_tempo (ODORI_WINDOW (user_data)->timeline, NULL);
}

static void
add_track_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  OdoriWindow *self = user_data;

  odori_timeline_add_track (self->timeline, g_variant_get_string (param, NULL), NULL);
}

static void
color_by_change_state (GSimpleAction *action,
                       GVariant      *value,
                       gpointer       user_data)
{
  OdoriWindow *self = user_data;
  const char *by = g_variant_get_string (value, NULL);

  g_simple_action_set_state (action, value);
  odori_timeline_set_color_by (self->timeline, g_str_equal (by, "class") ? ODORI_TIMELINE_COLOR_BY_CLASS
                                                                         : ODORI_TIMELINE_COLOR_BY_SHOW);
}

/* Recent scores */

static void
rebuild_recent_menu (OdoriWindow *self)
{
  g_auto(GStrv) recent = g_settings_get_strv (self->settings, "recent-files");

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (recent[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (base, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (recent[i]));
      g_menu_append_item (self->recent_menu, item);
    }
  if (recent[0] == NULL)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent scores"), "win.no-recent");

      g_menu_append_item (self->recent_menu, item);
    }
}

void
_odori_window_add_recent (OdoriWindow *self,
                          const char  *path)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) recent = NULL;
  g_autofree char *uri = NULL;
  guint n = 1;

  if (path == NULL)
    return;
  old = g_settings_get_strv (self->settings, "recent-files");
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, path);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    if (g_strcmp0 (old[i], path) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) recent);

  uri = g_filename_to_uri (path, NULL, NULL);
  if (uri != NULL)
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

/* Closing: unsaved work asks first */

static void
on_close_dialog_response_cb (GtkWindow *dialog,
                             int        response,
                             gpointer   user_data)
{
  OdoriWindow *self = user_data;

  self->close_dialog = NULL;
  /* The window may be gone before the dialog is finalized: let go of it first. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));

  switch (response)
    {
    case GTK_RESPONSE_ACCEPT:
      if (save (self, TRUE))
        {
          self->close_confirmed = TRUE;
          gtk_window_close (GTK_WINDOW (self));
        }
      break;
    case GTK_RESPONSE_REJECT:
      _odori_window_discard_autosave (self);
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    default:
      /* Cancel: nothing happens, the work stays open. */
      break;
    }
}

static void
ask_before_closing (OdoriWindow *self)
{
  g_autofree char *title = odori_document_dup_title (self->document);
  g_autofree char *heading = NULL;
  GtkWindow *dialog;

  if (self->close_dialog != NULL)
    {
      gtk_window_present (self->close_dialog);
      return;
    }
  heading = g_strdup_printf (_("Save changes to “%s” before closing?"), title);
  dialog = odori_message_dialog_new (GTK_WINDOW (self), heading,
                                     _("If you don’t save, the changes since the last save are lost."));
  odori_message_dialog_add_response (dialog, GTK_RESPONSE_REJECT, _("_Discard"), ODORI_RESPONSE_DESTRUCTIVE);
  odori_message_dialog_add_response (dialog, GTK_RESPONSE_CANCEL, _("_Cancel"), ODORI_RESPONSE_DEFAULT);
  odori_message_dialog_add_response (dialog, GTK_RESPONSE_ACCEPT, _("_Save"), ODORI_RESPONSE_DEFAULT);
  odori_message_dialog_set_default_response (dialog, GTK_RESPONSE_ACCEPT);
  self->close_dialog = dialog;
  odori_message_dialog_present (dialog, on_close_dialog_response_cb, self);
}

static void
save_window_state (OdoriWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
}

/* TRUE: the close is held (a question is shown). */
gboolean
_odori_window_close_request (OdoriWindow *self)
{
  if (odori_document_get_dirty (self->document) && !self->close_confirmed)
    {
      ask_before_closing (self);
      return TRUE;
    }
  if (!odori_document_get_dirty (self->document))
    _odori_window_discard_autosave (self);
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  save_window_state (self);
  return FALSE;
}

/* Setup */

static const GActionEntry entries[] = {
  { "open", open_action },
  { "new-score", new_score_action },
  { "score-properties", score_properties_action },
  { "open-recent", open_recent_action, "s" },
  { "open-sample", open_sample_action },
  { "open-library", open_library_action },
  { "save", save_action },
  { "save-as", save_as_action },
  { "cancel-open", cancel_open_action },
  { "play-pause", play_pause_action },
  { "step-forward", step_forward_action },
  { "step-back", step_back_action },
  { "first-frame", first_frame_action },
  { "last-frame", last_frame_action },
  { "slower", slower_action },
  { "faster", faster_action },
  { "speed", NULL, "d", "1.0", speed_change_state },
  { "loop", NULL, NULL, "true", setting_change_state },
  { "show-skin", NULL, NULL, "true", setting_change_state },
  { "view", NULL, "s", "'three-quarter'", view_change_state },
  { "frame-all", frame_all_action },
  { "stop-preview", stop_preview_action },
  { "focus-search", focus_search_action },
  { "close", close_action },
  { "undo", undo_action },
  { "redo", redo_action },
  { "cut", timeline_action },
  { "copy", timeline_action },
  { "paste", timeline_action },
  { "delete", timeline_action },
  { "duplicate", timeline_action },
  { "select-all", timeline_action },
  { "remove-track", timeline_action },
  { "zoom-in", timeline_action },
  { "zoom-out", timeline_action },
  { "zoom-fit", timeline_action },
  { "add-track", add_track_action, "s" },
  { "tap-tempo", tap_tempo_action },
  { "detect-tempo", detect_tempo_action },
  { "color-by", NULL, "s", "'show'", color_by_change_state },
};

/* The bare keys of the window (README, docs/shortcuts.md). */
static const struct { guint key; const char *action; const char *target; } bare_keys[] = {
    { GDK_KEY_space, "win.play-pause", NULL },
    { GDK_KEY_Right, "win.step-forward", NULL },
    { GDK_KEY_Left, "win.step-back", NULL },
    { GDK_KEY_Home, "win.first-frame", NULL },
    { GDK_KEY_End, "win.last-frame", NULL },
    { GDK_KEY_bracketleft, "win.slower", NULL },
    { GDK_KEY_bracketright, "win.faster", NULL },
    { GDK_KEY_l, "win.loop", NULL },
    { GDK_KEY_f, "win.frame-all", NULL },
    { GDK_KEY_s, "win.show-skin", NULL },
    { GDK_KEY_t, "win.tap-tempo", NULL },
    { GDK_KEY_Escape, "win.stop-preview", NULL },
    { GDK_KEY_1, "win.view", "front" },
    { GDK_KEY_2, "win.view", "mirror" },
    { GDK_KEY_3, "win.view", "back" },
    { GDK_KEY_4, "win.view", "left" },
    { GDK_KEY_5, "win.view", "right" },
    { GDK_KEY_6, "win.view", "top" },
    { GDK_KEY_7, "win.view", "three-quarter" },
};

void
_odori_window_class_actions_init (OdoriWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* Bindings too: they list the keys for the shortcuts window and docs/shortcuts.md. */
  for (guint i = 0; i < G_N_ELEMENTS (bare_keys); i++)
    gtk_widget_class_add_binding_action (widget_class, bare_keys[i].key, 0, bare_keys[i].action,
                                         bare_keys[i].target ? "s" : NULL, bare_keys[i].target);
}

/* A text field (an entry, a spin button, the search) takes the keys it types. */
static gboolean
focus_types_text (OdoriWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  return focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus));
}

/* The window's bare keys, before any focused widget sees them (capture phase): GTK's own
 * bindings would otherwise win, Space activating the focused button, arrows moving the
 * focus or the list's selection (into the Blend field, say). Escape stays a binding: a
 * focused widget (a drag, a popover) may need it first. */
static gboolean
bare_key_pressed_cb (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     OdoriWindow           *self)
{
  guint key = gdk_keyval_to_lower (keyval);

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK | GDK_META_MASK)) != 0 ||
      keyval == GDK_KEY_Escape || focus_types_text (self))
    return GDK_EVENT_PROPAGATE;
  if (key == GDK_KEY_KP_Space)
    key = GDK_KEY_space;
  /* T: the tempo is measured between the key events' own times. */
  if (key == GDK_KEY_t && odori_document_get_score (self->document) != NULL)
    return odori_timeline_tap_tempo (self->timeline,
                                     gtk_event_controller_get_current_event_time (GTK_EVENT_CONTROLLER (controller)))
           ? GDK_EVENT_STOP : GDK_EVENT_PROPAGATE;
  for (guint i = 0; i < G_N_ELEMENTS (bare_keys); i++)
    if (bare_keys[i].key == key)
      {
        if (!gtk_widget_activate_action (GTK_WIDGET (self), bare_keys[i].action,
                                         bare_keys[i].target ? "s" : NULL, bare_keys[i].target))
          return GDK_EVENT_PROPAGATE;
        return GDK_EVENT_STOP;
      }
  return GDK_EVENT_PROPAGATE;
}

void
_odori_window_actions_init (OdoriWindow *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();
  g_autoptr(GPropertyAction) show_library = NULL;

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (bare_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  _odori_window_export_actions_init (self);
  _odori_window_video_actions_init (self);
  _odori_window_print_actions_init (self);
  _odori_window_library_actions_init (self);
  _odori_window_music_init (self);
  /* F9 and the header's toggle: the library beside (or, in a narrow window, over) the
   * dance, or folded away. */
  show_library = g_property_action_new ("show-library", self->library_flap, "reveal-flap");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (show_library));
  _odori_window_sync_setting_actions (self);
  g_signal_connect_object (self->settings, "changed::recent-files",
                           G_CALLBACK (rebuild_recent_menu), self, G_CONNECT_SWAPPED);
  rebuild_recent_menu (self);
  _odori_window_update_actions (self);
}
