/* odori-window-video.c: the window's Export Video: a small dialog for the size, view and
 * frame rate, the file dialog (.webm), the video made in the background with the export
 * bar's progress and Cancel, and the toast when it is done
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The video shares the export bar with Export… (one export at a time: each disables the
 * other) and its cancellable, so the bar's Cancel and closing the window stop it. The
 * worker owns the headless GL context it draws with; the window's own GL is untouched.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-bulge.h"
#include "odori-file-dialog.h"
#include "odori-paths.h"
#include "odori-video.h"
#include "odori-window-private.h"

/* The choices of the dialog, kept per window for the next time. */
typedef struct
{
  guint size; /* index in sizes[] */
  guint fps;  /* index in rates[] */
  int   view; /* OdoriView, -1: the viewport's */
} VideoChoice;

#define VIDEO_CHOICE_KEY "odori-video-choice"

static const struct
{
  int width, height;
} sizes[] = {
  { 640, 360 },
  { 1280, 720 },
  { 1920, 1080 },
};

/* 0: the dance's own rate */
static const int rates[] = { 0, 24, 25, 30, 60 };

static const OdoriView views[] = {
  ODORI_VIEW_FRONT,
  ODORI_VIEW_BACK,
  ODORI_VIEW_LEFT,
  ODORI_VIEW_RIGHT,
  ODORI_VIEW_TOP,
  ODORI_VIEW_MIRROR,
  ODORI_VIEW_THREE_QUARTER,
};

static VideoChoice *
get_choice (OdoriWindow *self)
{
  VideoChoice *choice = g_object_get_data (G_OBJECT (self), VIDEO_CHOICE_KEY);

  if (choice == NULL)
    {
      choice = g_new0 (VideoChoice, 1);
      choice->size = 1;
      choice->view = -1;
      g_object_set_data_full (G_OBJECT (self), VIDEO_CHOICE_KEY, choice, g_free);
    }
  return choice;
}

/* The view the viewport shows (win.view's state). */
static OdoriView
current_view (OdoriWindow *self)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "view");
  OdoriView view = ODORI_VIEW_THREE_QUARTER;

  if (state != NULL && g_variant_is_of_type (state, G_VARIANT_TYPE_STRING))
    odori_view_from_string (g_variant_get_string (state, NULL), &view);
  return view;
}

static gboolean
current_show_skin (OdoriWindow *self)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "show-skin");

  return state == NULL || !g_variant_is_of_type (state, G_VARIANT_TYPE_BOOLEAN) || g_variant_get_boolean (state);
}

/* Odori's bulge catalogue, loaded once (NULL when there is none). */
static OdoriBulgeSet *
default_bulges (void)
{
  static OdoriBulgeSet *bulges;
  static gboolean       tried;

  if (!tried)
    {
      g_autofree char *path = odori_find_data_file ("bulge_types");

      tried = TRUE;
      if (path != NULL)
        bulges = odori_bulge_set_load (path, NULL);
    }
  return bulges;
}

static void
video_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OdoriWindow *self = g_task_get_source_object (task);
  OdoriVideo  *video = ODORI_VIDEO (source);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_path_get_basename (odori_video_get_path (video));

  if (!odori_video_run_finish (video, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: %s is a file name */
          g_autofree char *title = g_strdup_printf (_ ("Cannot export the video “%s”"), name);

          _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
        }
      g_task_return_error (task, g_steal_pointer (&error));
    }
  else
    {
      _odori_window_show_exported_toast (self, odori_video_get_path (video));
      g_task_return_boolean (task, TRUE);
    }

  g_clear_object (&self->video);
  _odori_window_export_bar_end (self);
}

void
_odori_window_export_video (OdoriWindow        *self,
                            GFile              *file,
                            int                 width,
                            int                 height,
                            OdoriView           view,
                            int                 fps,
                            GAsyncReadyCallback callback,
                            gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(OdoriMotion) copy = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  OdoriScore      *score;
  OdoriMotion     *motion;
  const char      *music;

  g_return_if_fail (ODORI_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, _odori_window_export_video);
  motion = odori_document_get_motion (self->document);
  path = g_file_get_path (file);
  if (self->export != NULL || self->video != NULL || motion == NULL || path == NULL)
    {
      const char *why = self->export != NULL || self->video != NULL
                            ? _ ("An export is already running.")
                        : motion == NULL ? _ ("The score does not compose: there is nothing to export.")
                                         : _ ("Only local files can be written.");

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, _ ("Cannot export"), why, NULL);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", why);
      return;
    }

  /* The worker draws a snapshot: edits meanwhile don't reach the video half-way. */
  copy = odori_motion_copy (motion);
  self->video = odori_video_new (copy, path);
  odori_video_set_size (self->video, width, height);
  odori_video_set_view (self->video, view);
  odori_video_set_fps (self->video, fps, 1);
  odori_video_set_show_skin (self->video, current_show_skin (self));
  odori_video_set_bulges (self->video, default_bulges ());
  score = odori_document_get_score (self->document);
  music = odori_session_get_music_path (self->session);
  if (music != NULL && score != NULL)
    odori_video_set_music (self->video, music, score->music.offset);

  name = g_path_get_basename (path);
  /* Translators: %s is a file name */
  label = g_strdup_printf (_ ("Exporting the video “%s”…"), name);
  _odori_window_export_bar_begin (self, label);
  odori_video_run_async (self->video, self->export_cancellable, video_done_cb, g_steal_pointer (&task));
}

/* The dialogs -------------------------------------------------------------------------- */

static void
on_video_file_chosen_cb (GFile      *chosen,
                         const char *filter_name,
                         gpointer    user_data)
{
  OdoriWindow *self = user_data;
  VideoChoice *choice = get_choice (self);
  g_autoptr(GFile) file = g_object_ref (chosen);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *lower = path != NULL ? g_ascii_strdown (path, -1) : NULL;

  if (lower != NULL && !g_str_has_suffix (lower, ".webm"))
    {
      g_autofree char *with_ext = g_strconcat (path, ".webm", NULL);

      g_clear_object (&file);
      file = g_file_new_for_path (with_ext);
    }
  _odori_window_export_video (self, file, sizes[choice->size].width, sizes[choice->size].height,
                              choice->view >= 0 ? (OdoriView) choice->view : current_view (self), rates[choice->fps],
                              NULL, NULL);
}

static void
choose_video_file (OdoriWindow *self)
{
  OdoriFileDialog *dialog = odori_file_dialog_new (GTK_WINDOW (self), _ ("Export a Video of the Dance"), TRUE,
                                                   _ ("_Export"));
  g_autofree char *name = _odori_window_suggested_name (self, ".webm");
  const char      *path = odori_document_get_path (self->document);
  const char      *videos = g_get_user_special_dir (G_USER_DIRECTORY_VIDEOS);
  g_autofree char *dir = NULL;
  g_autoptr(GFile) folder = NULL;

  odori_file_dialog_add_filter (dialog, _ ("WebM Video"), (const char *[]){ "*.webm", "*.WEBM", NULL });
  /* beside the score; a score without a home goes to Videos */
  if (path != NULL)
    dir = g_path_get_dirname (path);
  else if (videos != NULL && g_file_test (videos, G_FILE_TEST_IS_DIR))
    dir = g_strdup (videos);
  else
    dir = g_strdup (g_get_home_dir ());
  folder = g_file_new_for_path (dir);
  odori_file_dialog_set_folder (dialog, folder);
  odori_file_dialog_set_current_name (dialog, name);
  odori_file_dialog_present (dialog, on_video_file_chosen_cb, self);
}

static void
on_video_options_continue_cb (GtkButton *button,
                              GtkWindow *dialog)
{
  OdoriWindow *self = ODORI_WINDOW (gtk_window_get_transient_for (dialog));
  VideoChoice *choice = get_choice (self);
  AdwComboRow *size_row = g_object_get_data (G_OBJECT (dialog), "size-row");
  AdwComboRow *view_row = g_object_get_data (G_OBJECT (dialog), "view-row");
  AdwComboRow *fps_row = g_object_get_data (G_OBJECT (dialog), "fps-row");

  choice->size = MIN (adw_combo_row_get_selected (size_row), G_N_ELEMENTS (sizes) - 1);
  choice->fps = MIN (adw_combo_row_get_selected (fps_row), G_N_ELEMENTS (rates) - 1);
  choice->view = views[MIN (adw_combo_row_get_selected (view_row), G_N_ELEMENTS (views) - 1)];
  gtk_window_destroy (dialog);
  choose_video_file (self);
}

static AdwComboRow *
add_combo_row (AdwPreferencesGroup *group,
               const char          *title,
               const char *const   *items,
               guint                selected)
{
  AdwComboRow *row = ADW_COMBO_ROW (adw_combo_row_new ());
  g_autoptr(GtkStringList) model = gtk_string_list_new (items);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_combo_row_set_model (row, G_LIST_MODEL (model));
  adw_combo_row_set_selected (row, selected);
  adw_preferences_group_add (group, GTK_WIDGET (row));
  return row;
}

/* Size, view and frame rate, then the file. */
static void
show_video_options (OdoriWindow *self)
{
  VideoChoice        *choice = get_choice (self);
  OdoriMotion        *motion = odori_document_get_motion (self->document);
  GtkWindow          *dialog = GTK_WINDOW (gtk_window_new ());
  GtkWidget          *header = gtk_header_bar_new ();
  GtkWidget          *cancel = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  GtkWidget          *next = gtk_button_new_with_mnemonic (_ ("_Choose File…"));
  GtkWidget          *group = adw_preferences_group_new ();
  GtkWidget          *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char    *own_rate = NULL;
  g_autofree char    *size_hd = g_strdup_printf (_ ("%d × %d (HD)"), 1280, 720);
  g_autofree char    *size_small = g_strdup_printf ("%d × %d", 640, 360);
  g_autofree char    *size_full = g_strdup_printf (_ ("%d × %d (Full HD)"), 1920, 1080);
  OdoriView           view = choice->view >= 0 ? (OdoriView) choice->view : current_view (self);
  guint               view_index = 0;
  AdwComboRow        *row;
  GtkEventController *shortcuts;

  if (motion != NULL && motion->frame_time > 0)
    {
      char rate[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (rate, sizeof rate, "%.4g", 1.0 / motion->frame_time);
      /* Translators: %s is a number of frames a second, like 30 */
      own_rate = g_strdup_printf (_ ("%s (the dance’s)"), rate);
    }
  else
    own_rate = g_strdup (_ ("The dance’s"));
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (views[i] == view)
      view_index = i;

  gtk_window_set_title (dialog, _ ("Export Video"));
  gtk_window_set_modal (dialog, TRUE);
  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (dialog, TRUE);
  gtk_window_set_default_size (dialog, 440, -1);
  gtk_window_set_resizable (dialog, FALSE);
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), next);
  gtk_widget_add_css_class (next, "suggested-action");
  gtk_window_set_titlebar (dialog, header);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), dialog);
  g_signal_connect (next, "clicked", G_CALLBACK (on_video_options_continue_cb), dialog);

  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         odori_session_get_music_path (self->session) != NULL
                                             ? _ ("The whole dance as WebM, with the score’s music.")
                                             : _ ("The whole dance as WebM."));
  row = add_combo_row (ADW_PREFERENCES_GROUP (group), _ ("_Size"),
                       (const char *const[]){ size_small, size_hd, size_full, NULL }, choice->size);
  g_object_set_data (G_OBJECT (dialog), "size-row", row);
  row = add_combo_row (ADW_PREFERENCES_GROUP (group), _ ("_View"),
                       (const char *const[]){ C_ ("view", "Front"), C_ ("view", "Back"), C_ ("view", "Left"),
                                              C_ ("view", "Right"), C_ ("view", "Top"), C_ ("view", "Mirror"),
                                              C_ ("view", "Three Quarter"), NULL },
                       view_index);
  g_object_set_data (G_OBJECT (dialog), "view-row", row);
  row = add_combo_row (ADW_PREFERENCES_GROUP (group), _ ("_Frame Rate"),
                       (const char *const[]){ own_rate, "24", "25", "30", "60", NULL }, choice->fps);
  g_object_set_data (G_OBJECT (dialog), "fps-row", row);

  gtk_widget_set_margin_top (group, 18);
  gtk_widget_set_margin_bottom (group, 18);
  gtk_widget_set_margin_start (group, 18);
  gtk_widget_set_margin_end (group, 18);
  gtk_box_append (GTK_BOX (box), group);
  gtk_window_set_child (dialog, box);
  gtk_window_set_default_widget (dialog, next);
  /* Escape closes it, as every dialog */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (GTK_WIDGET (dialog), shortcuts);
  gtk_window_present (dialog);
}

static void
export_video_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  show_video_options (user_data);
}

static const GActionEntry video_entries[] = {
  { "export-video", export_video_action },
};

void
_odori_window_video_actions_init (OdoriWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), video_entries, G_N_ELEMENTS (video_entries), self);
}
