/* test-app-window.c: the window opens on the sample, shows load errors in itself,
 * never closes over unsaved work, and can be driven by keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"

#include "odori-preferences-window.h"
#include "odori-renderer.h"

/* /app/window/opens-on-sample */
static void
test_opens_on_sample (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScore *score;

  SKIP_WITHOUT_DISPLAY ();

  window = odori_window_new (GTK_APPLICATION (test_app));
  doc = odori_window_get_document (window);
  g_assert_true (odori_window_load_sample (window));
  /* A first start shows dancing at once. */
  g_assert_true (odori_session_get_playing (odori_window_get_session (window)));
  gtk_window_present (GTK_WINDOW (window));

  score = odori_document_get_score (doc);
  g_assert_nonnull (score);
  g_assert_cmpstr (score->title, ==, "春の小品 (Spring Sketch)");
  g_assert_cmpuint (score->parts->len, ==, 6);
  g_assert_true (odori_document_get_is_sample (doc));
  g_assert_null (odori_document_get_path (doc));
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_null (odori_document_get_compose_error (doc));
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (window)), ==, odori_document_get_motion (doc)->n_frames);
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (window)), >, 500);

  /* The header says what is open; nothing went wrong. */
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "春の小品 (Spring Sketch)");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "春の小品 (Spring Sketch) — Odori");
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save"));

  /* The frame indicator follows the shared playhead. */
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  odori_session_set_frame (odori_window_get_session (window), 120);
  g_assert_cmpfloat (gtk_adjustment_get_value (window->frame_adjustment), ==, 120);
  g_assert_nonnull (strstr (gtk_inscription_get_text (window->frame_label), "120 /"));

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/window/software-renderer: on a software rasteriser (llvmpipe under Xvfb here) the
 * window's widgets are drawn by GSK's cairo renderer, which shows three times the frames
 * of its GL renderer there (docs/rendering.md); the viewport still draws with OpenGL. */
static void
test_software_renderer (void)
{
  OdoriWindow *window;
  g_autoptr(GdkGLContext) context = NULL;
  GskRenderer *renderer;
  gboolean software;

  SKIP_WITHOUT_DISPLAY ();

  context = gdk_display_create_gl_context (gdk_display_get_default (), NULL);
  g_assert_nonnull (context);
  g_assert_true (gdk_gl_context_realize (context, NULL));
  gdk_gl_context_make_current (context);
  software = odori_gl_is_software ();
  gdk_gl_context_clear_current ();
  g_test_message ("software GL: %d, GSK_RENDERER=%s", software, g_getenv ("GSK_RENDERER"));

  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (300);
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  g_assert_nonnull (renderer);
  if (software)
    {
      g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
      g_assert_cmpstr (G_OBJECT_TYPE_NAME (renderer), ==, "GskCairoRenderer");
    }
  else
    g_assert_cmpstr (G_OBJECT_TYPE_NAME (renderer), !=, "GskCairoRenderer");
  /* the viewport made its GL context and drew */
  g_assert_null (gtk_gl_area_get_error (GTK_GL_AREA (window->viewport)));
  g_assert_nonnull (gtk_gl_area_get_context (GTK_GL_AREA (window->viewport)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A broken library (motion.dat:4 has "frame=1..5"): the error shows in the window with
 * file and line, and the sample stays open and usable. */
static void
test_broken_index_shows_error (void)
{
  g_autofree char *dir = test_path ("broken");
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(GFile) file = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriIndex *index_before;
  OdoriScore *score_before;
  const char *message;

  SKIP_WITHOUT_DISPLAY ();

  g_mkdir_with_parents (dir, 0700);
  write_text (index_path,
              "define part name=\"Body\" code=\"BD\" map=\"Hips,Chest\"\n"
              "begin class name=\"c\" code=\"c\"\n"
              "  begin show name=\"s\" code=\"S\" file=\"x.bva\"\n"
              "    motion name=\"m\" code=\"A1\" frame=1..5\n"
              "  end show\n"
              "end class\n");
  window = new_sample_window ();
  doc = odori_window_get_document (window);
  index_before = odori_document_get_index (doc);
  score_before = odori_document_get_score (doc);

  file = g_file_new_for_path (index_path);
  g_assert_false (odori_window_open_library (window, file));

  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_cmpint (gtk_info_bar_get_message_type (window->error_bar), ==, GTK_MESSAGE_ERROR);
  g_assert_cmpstr (gtk_label_get_text (window->error_title), ==, "Cannot open the library “motion.dat”");
  message = gtk_label_get_text (window->error_message);
  expected = g_strconcat (index_path, ":4:", NULL);
  g_assert_true (g_str_has_prefix (message, expected));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->error_message)));

  /* The previous state stays usable. */
  g_assert_true (odori_document_get_index (doc) == index_before);
  g_assert_true (odori_document_get_score (doc) == score_before);
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_cmpuint (g_list_model_get_n_items (odori_library_view_get_rows (window->library_view)), ==, 20);

  /* Dismissing it hides it. */
  gtk_info_bar_response (window->error_bar, GTK_RESPONSE_CLOSE);
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A score with a syntax error on line 3 and one whose symbol is unknown. */
static void
test_broken_score_shows_error (void)
{
  g_autofree char *bad = test_path ("bad.dds");
  g_autofree char *unknown = test_path ("unknown.dds");
  g_autofree char *index = sample_path ("motion.dat");
  g_autofree char *text = NULL;
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(GFile) unknown_file = g_file_new_for_path (unknown);
  OdoriWindow *window;
  OdoriDocument *doc;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  text = g_strdup_printf ("# Title: bad\n# Index: %s\nBD: Hips,Chest,Neck\n0: S1\n", index);
  write_text (bad, text);
  g_assert_false (odori_window_open_score (window, bad_file, NULL));
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->error_message), "bad.dds:4:"));
  g_assert_true (odori_document_get_is_sample (doc));

  /* It reads but does not compose: it opens, and says why the dance is missing. */
  g_free (text);
  text = g_strdup_printf ("# Title: unknown\n# Index: %s\nBD: Hips,Chest,Neck\n1: ZZ9\n", index);
  write_text (unknown, text);
  g_assert_true (odori_window_open_score (window, unknown_file, NULL));
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_cmpstr (gtk_label_get_text (window->error_title), ==, "The score does not compose with its library");
  g_assert_nonnull (strstr (gtk_label_get_text (window->error_message), "ZZ9"));
  g_assert_null (odori_document_get_motion (doc));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->error_expander)));
  g_assert_nonnull (strstr (gtk_label_get_text (window->error_details), "unknown.dds:4:"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
edit_score (OdoriDocument *doc,
            guint          start)
{
  OdoriScore *score = odori_document_get_score (doc);
  OdoriScorePart *part = g_ptr_array_index (score->parts, 0);

  g_assert_true (odori_score_part_add_symbol (part, start, "B1"));
  odori_document_score_changed (doc);
}

/* A close with unsaved changes asks; Cancel keeps everything, Save writes the file and
 * closes, Discard closes leaving the file as it was saved. */
static void
test_unsaved_changes (void)
{
  g_autofree char *path = test_path ("dance.dds");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) after_cancel = NULL;
  g_autoptr(GBytes) after_save = NULL;
  g_autoptr(GBytes) after_discard = NULL;
  g_autoptr(GPtrArray) autosaves = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  gpointer weak;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  g_assert_true (odori_window_save_to (window, file));
  g_assert_false (odori_document_get_dirty (doc));
  saved = read_bytes (path);

  edit_score (doc, 640);
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (window->title_label), "• "));
  g_assert_true (odori_autosave_save (odori_application_get_autosave (test_app), doc, NULL));

  /* Close: a question, nothing closed, nothing written. */
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_nonnull (weak);
  g_assert_nonnull (window->close_dialog);
  g_assert_true (GTK_IS_MESSAGE_DIALOG (window->close_dialog));
  g_assert_true (gtk_window_get_transient_for (window->close_dialog) == GTK_WINDOW (window));

  gtk_dialog_response (GTK_DIALOG (window->close_dialog), GTK_RESPONSE_CANCEL);
  g_assert_null (window->close_dialog);
  g_assert_nonnull (weak);
  g_assert_true (odori_document_get_dirty (doc));
  after_cancel = read_bytes (path);
  g_assert_true (g_bytes_equal (saved, after_cancel));

  /* Quitting asks too. */
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "quit", NULL);
  g_assert_nonnull (weak);
  g_assert_nonnull (window->close_dialog);

  /* Save: the file gets the change, the window closes, the autosave goes. */
  gtk_dialog_response (GTK_DIALOG (window->close_dialog), GTK_RESPONSE_ACCEPT);
  WAIT_UNTIL (weak == NULL, 5000);
  after_save = read_bytes (path);
  g_assert_false (g_bytes_equal (saved, after_save));
  g_assert_nonnull (strstr (g_bytes_get_data (after_save, NULL), "640: B1"));
  autosaves = odori_autosave_list_orphans (odori_application_get_autosave (test_app));
  g_assert_cmpuint (autosaves->len, ==, 0);

  /* Discard: closes, the saved file stays as it was. */
  window = odori_window_new (GTK_APPLICATION (test_app));
  doc = odori_window_get_document (window);
  g_assert_true (odori_window_open_score (window, file, NULL));
  gtk_window_present (GTK_WINDOW (window));
  edit_score (doc, 700);
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_nonnull (weak);
  gtk_dialog_response (GTK_DIALOG (window->close_dialog), GTK_RESPONSE_REJECT);
  WAIT_UNTIL (weak == NULL, 5000);
  after_discard = read_bytes (path);
  g_assert_true (g_bytes_equal (after_save, after_discard));
}

/* A clean window closes at once. */
static void
test_clean_close (void)
{
  OdoriWindow *window;
  gpointer weak;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  WAIT_UNTIL (weak == NULL, 5000);
}

/* Every action has a key: Ctrl accelerators from the application, bare keys bound on
 * the window; and the bound key really acts. */
static void
test_keyboard (void)
{
  static const char *accel_actions[] = {
    "win.open", "win.save", "win.save-as", "win.export", "win.open-library",
    "win.import-capture", "win.focus-search", "win.close", "app.preferences", "app.quit",
  };
  static const struct { const char *trigger; const char *action; } bindings[] = {
    { "space", "win.play-pause" }, { "Right", "win.step-forward" }, { "Left", "win.step-back" },
    { "Home", "win.first-frame" }, { "End", "win.last-frame" }, { "l", "win.loop" },
    { "f", "win.frame-all" }, { "Escape", "win.stop-preview" }, { "bracketleft", "win.slower" },
    { "bracketright", "win.faster" }, { "2", "win.view" },
  };
  g_autoptr(GListModel) controllers = NULL;
  GtkShortcut *space = NULL;
  OdoriWindow *window;
  OdoriSession *session;
  guint found = 0;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  for (guint i = 0; i < G_N_ELEMENTS (accel_actions); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app), accel_actions[i]);

      g_assert_nonnull (accels[0]);
    }

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, c);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint s = 0; s < g_list_model_get_n_items (G_LIST_MODEL (controller)); s++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), s);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (!GTK_IS_NAMED_ACTION (action))
            continue;
          for (guint b = 0; b < G_N_ELEMENTS (bindings); b++)
            if (g_str_equal (trigger, bindings[b].trigger) &&
                g_str_equal (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), bindings[b].action))
              {
                found |= 1u << b;
                if (b == 0)
                  space = g_object_ref (shortcut);
              }
        }
    }
  g_assert_cmphex (found, ==, (1u << G_N_ELEMENTS (bindings)) - 1);

  /* Space plays, Space again pauses. */
  g_assert_nonnull (space);
  g_assert_false (odori_session_get_playing (session));
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (space), 0, GTK_WIDGET (window), NULL));
  g_assert_true (odori_session_get_playing (session));
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (space), 0, GTK_WIDGET (window), NULL));
  g_assert_false (odori_session_get_playing (session));
  g_object_unref (space);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
check_accessible_names (GtkWidget *widget,
                        guint     *n_checked)
{
  gboolean icon_only = FALSE;

  /* Hidden widgets are not presented (GtkInfoBar keeps a hidden close button). */
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_BUTTON (widget) && !GTK_IS_LINK_BUTTON (widget))
    icon_only = gtk_button_get_label (GTK_BUTTON (widget)) == NULL;
  else if (GTK_IS_MENU_BUTTON (widget))
    icon_only = gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)) == NULL &&
                gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)) != NULL;
  else if (GTK_IS_SCALE (widget) || GTK_IS_GL_AREA (widget) || GTK_IS_LIST_VIEW (widget) ||
           GTK_IS_PROGRESS_BAR (widget) || ODORI_IS_TIMELINE (widget))
    icon_only = TRUE;

  /* Buttons inside menu buttons, spin buttons and the window controls are GTK's own. */
  if (icon_only && gtk_widget_get_ancestor (widget, GTK_TYPE_MENU_BUTTON) == widget)
    icon_only = TRUE;
  else if (icon_only && (gtk_widget_get_ancestor (widget, GTK_TYPE_MENU_BUTTON) != NULL ||
                         gtk_widget_get_ancestor (widget, GTK_TYPE_SPIN_BUTTON) != NULL ||
                         gtk_widget_get_ancestor (widget, GTK_TYPE_WINDOW_CONTROLS) != NULL))
    icon_only = FALSE;

  if (icon_only)
    {
      if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
        g_error ("%s (icon %s, in %s) has no accessible name", G_OBJECT_TYPE_NAME (widget),
                 GTK_IS_BUTTON (widget) ? gtk_button_get_icon_name (GTK_BUTTON (widget)) : "-",
                 G_OBJECT_TYPE_NAME (gtk_widget_get_parent (gtk_widget_get_parent (widget))));
      (*n_checked)++;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    check_accessible_names (child, n_checked);
}

/* Icon-only buttons, the scale, the viewport, the list and the timeline have names. */
static void
test_accessible_names (void)
{
  OdoriWindow *window;
  guint n = 0;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  check_accessible_names (GTK_WIDGET (window), &n);
  g_assert_cmpuint (n, >=, 12);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Preferences reach every window at once: units shown, root matching, skin. */
static void
test_preferences (void)
{
  g_autoptr(GSettings) settings = odori_settings_new ();
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriMotion *motion;
  GtkWindow *prefs;
  GtkWidget *skin_switch = NULL;
  GList *stack = NULL;
  g_autoptr(OdoriMotion) copy = NULL;
  int hips;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  odori_session_set_frame (odori_window_get_session (window), 31);

  g_settings_set_enum (settings, "time-units", ODORI_TIME_UNITS_FRAMES);
  g_assert_cmpstr (gtk_inscription_get_text (window->frame_label), ==, "Frame 31 / 630");
  g_settings_set_enum (settings, "time-units", ODORI_TIME_UNITS_SECONDS);
  g_assert_cmpstr (gtk_inscription_get_text (window->frame_label), ==, "1.00 s / 21.00 s");
  g_settings_reset (settings, "time-units");

  /* The default blend applies to scores without "# Blend:" (the sample has one: drop it),
   * and changes the composed dance at once. */
  odori_document_get_score (doc)->blend = -1;
  odori_document_score_changed (doc);
  motion = odori_document_get_motion (doc);
  hips = odori_motion_find_segment (motion, "Hips");
  g_assert_cmpint (hips, >=, 0);
  copy = odori_motion_copy (motion);
  g_settings_set_int (settings, "default-blend", 12);
  g_assert_false (odori_motion_equal (copy, odori_document_get_motion (doc), 0.01, 0.1, NULL));
  g_settings_reset (settings, "default-blend");
  g_assert_true (odori_motion_equal (copy, odori_document_get_motion (doc), 1e-6, 1e-4, NULL));
  /* Root matching reaches the document too (the sample's clips all start at the
   * origin facing front, so the dance itself stays the same). */
  g_settings_set_string (settings, "root-match", "full");
  g_assert_true (odori_motion_equal (copy, odori_document_get_motion (doc), 0.01, 0.1, NULL));
  g_settings_reset (settings, "root-match");

  /* The Preferences window is bound to the same keys. */
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "preferences", NULL);
  prefs = NULL;
  {
    GList *toplevels = gtk_window_list_toplevels ();

    for (GList *l = toplevels; l != NULL; l = l->next)
      if (ODORI_IS_PREFERENCES_WINDOW (l->data))
        prefs = l->data;
    g_list_free (toplevels);
  }
  g_assert_nonnull (prefs);
  stack = g_list_prepend (stack, prefs);
  while (stack != NULL)
    {
      GtkWidget *w = stack->data;

      stack = g_list_delete_link (stack, stack);
      if (GTK_IS_SWITCH (w))
        skin_switch = w;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        stack = g_list_prepend (stack, c);
    }
  g_assert_nonnull (skin_switch);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (skin_switch)));
  gtk_switch_set_active (GTK_SWITCH (skin_switch), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "show-skin"));
  g_assert_false (g_variant_get_boolean (g_action_group_get_action_state (G_ACTION_GROUP (window), "show-skin")));
  g_settings_reset (settings, "show-skin");
  gtk_window_destroy (prefs);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first widget under WIDGET of TYPE (and, if LABEL is given, with that label). */
static GtkWidget *
find_widget (GtkWidget  *widget,
             GType       type,
             const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) &&
          (label == NULL || (GTK_IS_BUTTON (c) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (c)), label) == 0)))
        return c;
      if ((found = find_widget (c, type, label)) != NULL)
        return found;
    }
  return NULL;
}

/* /app/window/recover-focus: after a click on Recover, the keys are the window's again:
 * "2" shows the mirror view instead of typing into the library's search. */
static void
test_recover_focus (void)
{
  g_autoptr(GVariant) view = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScorePart *part;
  GtkWidget *recover, *search;

  SKIP_WITHOUT_DISPLAY ();

  /* Work left behind by a "crash". */
  window = new_sample_window ();
  doc = odori_window_get_document (window);
  part = g_ptr_array_index (odori_document_get_score (doc)->parts, 0);
  g_assert_true (odori_score_part_add_symbol (part, 660, "B2"));
  odori_document_score_changed (doc);
  g_assert_true (odori_autosave_save (odori_application_get_autosave (test_app), doc, NULL));
  gtk_window_destroy (GTK_WINDOW (window));

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  odori_window_offer_recovery (window);
  recover = find_widget (GTK_WIDGET (window->recover_bar), GTK_TYPE_BUTTON, "_Recover");
  g_assert_nonnull (recover);
  WAIT_UNTIL (gtk_widget_get_mapped (recover) && gtk_widget_get_height (recover) > 0, 3000);
  pump (300);
  input_click (recover, gtk_widget_get_width (recover) / 2.0, gtk_widget_get_height (recover) / 2.0, 1, 1);
  WAIT_UNTIL (odori_document_get_dirty (doc), 3000);
  pump (400);

  search = find_widget (GTK_WIDGET (window->library_view), GTK_TYPE_SEARCH_ENTRY, NULL);
  g_assert_nonnull (search);
  g_assert_false (gtk_widget_has_focus (search) || gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), search));
  input_key (GTK_WIDGET (window), "2");
  view = g_action_group_get_action_state (G_ACTION_GROUP (window), "view");
  g_assert_cmpstr (g_variant_get_string (view, NULL), ==, "mirror");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "");

  /* Leave no autosave for the tests after this one. */
  _odori_window_discard_autosave (window);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The label under WIDGET that reads TEXT, if any. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text) == 0)
        return c;
      if ((found = find_label (c, text)) != NULL)
        return found;
    }
  return NULL;
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  int *done = user_data;

  *done = odori_window_export_finish (ODORI_WINDOW (source), result, NULL) ? 1 : -1;
}

/* /app/window/export-toast: a finished export says so in a toast, "Exported “name”",
 * with an Open Folder button; nothing is said before it ends. */
static void
test_export_toast (void)
{
  g_autofree char *path = test_path ("toast.bvh");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  OdoriWindow *window;
  GtkWidget *overlay;
  int done = 0;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  overlay = gtk_window_get_child (GTK_WINDOW (window));
  odori_window_export (window, file, export_done_cb, &done);
  g_assert_null (find_label (overlay, "Exported “toast.bvh”"));
  WAIT_UNTIL (done != 0, 30000);
  g_assert_cmpint (done, ==, 1);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  WAIT_UNTIL (find_label (overlay, "Exported “toast.bvh”") != NULL, 3000);
  g_assert_true (gtk_widget_get_mapped (find_label (overlay, "Exported “toast.bvh”")));
  g_assert_nonnull (find_widget (overlay, GTK_TYPE_BUTTON, "Open Folder"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The file chooser the window has open (GTK's own dialog: the tests have no portal). */
static GtkFileChooser *
find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* not ours */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_FILE_CHOOSER (w);
    }
  return NULL;
}

/* /app/window/export-defaults: Export (Ctrl+E, a real key press) proposes a BVH file
 * named after the score, beside it; the sample proposes Documents (or home). */
/* The chooser's folder, once it has one: GTK 4.8's file chooser can answer NULL for a
 * moment after it is shown (seen under ASan in CI). Waits up to 5 s, then returns its
 * path (NULL if it never had a folder). */
static char *
chooser_folder_path (GtkFileChooser *chooser)
{
  g_autoptr(GFile) folder = NULL;
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC * WAIT_SCALE;

  while ((folder = gtk_file_chooser_get_current_folder (chooser)) == NULL && g_get_monotonic_time () < end)
    pump (50);
  return folder != NULL ? g_file_get_path (folder) : NULL;
}

static void
test_export_defaults (void)
{
  g_autofree char *dir = test_path ("scores");
  g_autofree char *score_path = g_build_filename (dir, "spring.dds", NULL);
  g_autoptr(GFile) score_file = g_file_new_for_path (score_path);
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  OdoriWindow *window;
  GtkFileChooser  *chooser;
  g_autofree char *folder_path = NULL;
  g_autofree char *name = NULL;

  SKIP_WITHOUT_DISPLAY ();

  g_mkdir_with_parents (dir, 0700);
  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);

  /* The sample: not its library's cache folder. */
  input_key (GTK_WIDGET (window), "ctrl+e");
  WAIT_UNTIL ((chooser = find_file_chooser ()) != NULL, 5000);
  folder_path = chooser_folder_path (chooser);
  if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    g_assert_cmpstr (folder_path, ==, documents);
  else
    g_assert_cmpstr (folder_path, ==, g_get_home_dir ());
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_true (g_str_has_suffix (name, ".bvh"));
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==, "BVH (Biovision Hierarchy)");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  WAIT_UNTIL (find_file_chooser () == NULL, 3000);
  g_clear_pointer (&folder_path, g_free);
  g_clear_pointer (&name, g_free);

  /* A saved score: beside it, its name with .bvh. */
  g_assert_true (odori_window_save_to (window, score_file));
  input_key (GTK_WIDGET (window), "ctrl+e");
  WAIT_UNTIL ((chooser = find_file_chooser ()) != NULL, 5000);
  folder_path = chooser_folder_path (chooser);
  g_assert_cmpstr (folder_path, ==, dir);
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_cmpstr (name, ==, "spring.bvh");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  WAIT_UNTIL (find_file_chooser () == NULL, 3000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/window/menu-accels: the main menu (F10, a real key) opens; its Edit Symbols
 * submenu (a real click) lists the timeline's keys beside its items. */
static void
test_menu_accels (void)
{
  static const char *accels[] = { "Ctrl+X", "Ctrl+C", "Ctrl+V", "Ctrl+D", "Delete", "Ctrl+A" };
  OdoriWindow *window;
  GtkWidget *popover, *edit;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  input_key (GTK_WIDGET (window), "F10");
  popover = GTK_WIDGET (gtk_menu_button_get_popover (window->primary_menu_button));
  WAIT_UNTIL (popover != NULL && gtk_widget_get_mapped (popover), 3000);
  edit = find_label (popover, "Edit Symbols");
  g_assert_nonnull (edit);
  pump (300);
  input_click (edit, gtk_widget_get_width (edit) / 2.0, gtk_widget_get_height (edit) / 2.0, 1, 1);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    {
      GtkWidget *label;

      WAIT_UNTIL ((label = find_label (popover, accels[i])) != NULL && gtk_widget_get_mapped (label), 3000);
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/window/about: About Odori (main menu, a real key and click) is libadwaita's
 * about window, with the name and version. */
static void
test_about (void)
{
  OdoriWindow *window;
  GtkWidget *popover, *item;
  GtkWindow *about = NULL;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  input_key (GTK_WIDGET (window), "F10");
  popover = GTK_WIDGET (gtk_menu_button_get_popover (window->primary_menu_button));
  WAIT_UNTIL (popover != NULL && gtk_widget_get_mapped (popover), 3000);
  item = find_label (popover, "About Odori");
  g_assert_nonnull (item);
  pump (300);
  input_click (item, gtk_widget_get_width (item) / 2.0, gtk_widget_get_height (item) / 2.0, 1, 1);
  for (guint tries = 0; tries < 30 && about == NULL; tries++)
    {
      GListModel *toplevels = gtk_window_get_toplevels (); /* not ours */

      for (guint i = 0; i < g_list_model_get_n_items (toplevels) && about == NULL; i++)
        {
          g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

          if (ADW_IS_ABOUT_WINDOW (w) && gtk_widget_get_mapped (GTK_WIDGET (w)))
            about = GTK_WINDOW (w);
        }
      pump (100);
    }
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_application_name (ADW_ABOUT_WINDOW (about)), ==, "Odori");
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, PACKAGE_VERSION);
  g_assert_true (gtk_window_get_transient_for (about) == GTK_WINDOW (window));
  gtk_window_destroy (about);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* GTK's test accessibility backend keeps what widgets tell assistive technologies
   * (with "none" nothing is kept), without needing an AT-SPI bus. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/window/opens-on-sample", test_opens_on_sample);
  g_test_add_func ("/app/window/broken-index-shows-error", test_broken_index_shows_error);
  g_test_add_func ("/app/window/broken-score-shows-error", test_broken_score_shows_error);
  g_test_add_func ("/app/window/unsaved-changes", test_unsaved_changes);
  g_test_add_func ("/app/window/clean-close", test_clean_close);
  g_test_add_func ("/app/window/keyboard", test_keyboard);
  g_test_add_func ("/app/window/accessible-names", test_accessible_names);
  g_test_add_func ("/app/window/preferences", test_preferences);
  g_test_add_func ("/app/window/recover-focus", test_recover_focus);
  g_test_add_func ("/app/window/export-toast", test_export_toast);
  g_test_add_func ("/app/window/export-defaults", test_export_defaults);
  g_test_add_func ("/app/window/menu-accels", test_menu_accels);
  g_test_add_func ("/app/window/about", test_about);
  g_test_add_func ("/app/window/software-renderer", test_software_renderer);
  return app_test_finish (g_test_run ());
}
