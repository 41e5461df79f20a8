/* test-app-video.c: Export Video in the window: the menu item (F10 and a click), the
 * options dialog (Escape, Enter), the file dialog, the video made in the background with
 * the export bar, and its Cancel button clicked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"

/* The shown toplevel titled TITLE, or NULL. */
static GtkWindow *
toplevel_titled (const char *title)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (gtk_widget_get_visible (l->data) && g_strcmp0 (gtk_window_get_title (l->data), title) == 0)
      return l->data;
  return NULL;
}

/* With ODORI_SCREENSHOT_DIR set, WIDGET's window as NAME there (to look at). */
static void
screenshot (GtkWidget  *widget,
            const char *name)
{
  const char *dir = g_getenv ("ODORI_SCREENSHOT_DIR");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  pump (300);
  texture = odori_render_widget (widget);
  path = g_build_filename (dir, name, NULL);
  g_assert_nonnull (texture);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("wrote %s", path);
}

static void
set_flag_cb (gboolean *flag)
{
  *flag = TRUE;
}

typedef struct
{
  gboolean done;
  gboolean ok;
  GError  *error;
} VideoResult;

static void
video_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  VideoResult *r = data;

  r->ok = g_task_propagate_boolean (G_TASK (result), &r->error);
  r->done = TRUE;
}

static gboolean
is_webm (const char *path)
{
  g_autofree char *data = NULL;
  gsize            len = 0;

  return g_file_get_contents (path, &data, &len, NULL) && len > 4 && memcmp (data, "\x1a\x45\xdf\xa3", 4) == 0;
}

/* F10, a click on Export Video…: the dialog, with the viewport's view chosen; Escape
 * closes it; again, Enter goes on to the file dialog; a path typed there and Enter start
 * the video, and a click on the export bar's Cancel stops it without a file. */
static void
test_menu_dialog_cancel (void)
{
  g_autofree char *out = test_path ("from-menu.webm");
  OdoriWindow     *window;
  GtkPopover      *popover;
  GtkWidget       *item, *cancel;
  GtkWindow       *dialog, *chooser;
  AdwComboRow     *size_row, *view_row;
  gboolean         cancelled = FALSE;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  WAIT_UNTIL (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-video"), 10000);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "view", g_variant_new_string ("left"));

  input_key (GTK_WIDGET (window), "F10");
  popover = gtk_menu_button_get_popover (window->primary_menu_button);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)), 3000);
  /* the model button shows its label without the mnemonic's underscore */
  item = find_widget_by_property (GTK_WIDGET (popover), "GtkModelButton", "text", "Export Video…");
  g_assert_nonnull (item);
  click_center (item);
  WAIT_UNTIL (toplevel_titled ("Export Video") != NULL, 5000);
  dialog = toplevel_titled ("Export Video");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)), 3000);
  size_row = g_object_get_data (G_OBJECT (dialog), "size-row");
  view_row = g_object_get_data (G_OBJECT (dialog), "view-row");
  g_assert_cmpuint (adw_combo_row_get_selected (size_row), ==, 1); /* 1280 × 720 */
  g_assert_cmpuint (adw_combo_row_get_selected (view_row), ==, 2); /* left, as the viewport */
  screenshot (GTK_WIDGET (dialog), "video-dialog.png");

  input_key (GTK_WIDGET (dialog), "Escape");
  WAIT_UNTIL (toplevel_titled ("Export Video") == NULL, 3000);

  g_action_group_activate_action (G_ACTION_GROUP (window), "export-video", NULL);
  WAIT_UNTIL (toplevel_titled ("Export Video") != NULL, 5000);
  dialog = toplevel_titled ("Export Video");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)), 3000);
  size_row = g_object_get_data (G_OBJECT (dialog), "size-row");
  adw_combo_row_set_selected (size_row, 0); /* 640 × 360 */
  input_key (GTK_WIDGET (dialog), "Return");
  WAIT_UNTIL (toplevel_titled ("Export a Video of the Dance") != NULL, 5000);
  chooser = toplevel_titled ("Export a Video of the Dance");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (chooser)), 5000);
  pump (300);
  /* the name field has the focus with the suggested name selected: replace it by a
   * whole path, without the extension (the dialog adds it) */
  input_key (GTK_WIDGET (chooser), "ctrl+a");
  {
    g_autofree char *typed = test_path ("from-menu");

    input_type (GTK_WIDGET (chooser), typed);
  }
  input_key (GTK_WIDGET (chooser), "Return");
  WAIT_UNTIL (window->video != NULL, 5000);
  g_assert_true (gtk_revealer_get_reveal_child (window->export_revealer));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-video"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "cancel-export"));
  g_assert_cmpstr (odori_video_get_path (window->video), ==, out);

  /* the bar's Cancel, clicked once the video is under way */
  WAIT_UNTIL (window->video == NULL || odori_video_get_fraction (window->video) >= 0.05, 60000);
  g_assert_nonnull (window->video);
  cancel = find_widget_by_property (GTK_WIDGET (window->export_revealer), "GtkButton", "action-name", "win.cancel-export");
  g_assert_nonnull (cancel);
  WAIT_UNTIL (gtk_widget_get_mapped (cancel), 3000);
  g_signal_connect_swapped (window->export_cancellable, "cancelled", G_CALLBACK (set_flag_cb), &cancelled);
  /* the pointer enters the window first: after the dialogs closed, GTK takes the first
   * press as entering otherwise */
  input_move (GTK_WIDGET (window), 600, 300);
  click_center (cancel);
  WAIT_UNTIL (cancelled, 5000);
  WAIT_UNTIL (window->video == NULL, 30000);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-video"));
  WAIT_UNTIL (!gtk_revealer_get_reveal_child (window->export_revealer), 3000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A whole video made by the window's worker (its own GL context beside GTK's): a WebM
 * file, the bar gone, the actions back. */
static void
test_export_video (void)
{
  g_autofree char *out = test_path ("window.webm");
  g_autoptr(GFile) file = g_file_new_for_path (out);
  OdoriWindow *window;
  VideoResult  r = { 0 };

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  WAIT_UNTIL (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-video"), 10000);
  _odori_window_export_video (window, file, 160, 120, ODORI_VIEW_FRONT, 10, video_cb, &r);
  g_assert_true (gtk_revealer_get_reveal_child (window->export_revealer));
  /* the viewport keeps drawing meanwhile */
  odori_session_set_playing (odori_window_get_session (window), TRUE);
  WAIT_UNTIL (r.done, 120000);
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_true (is_webm (out));
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_null (window->video);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/video/menu-dialog-cancel", test_menu_dialog_cancel);
  g_test_add_func ("/app/video/export", test_export_video);
  return app_test_finish (g_test_run ());
}
