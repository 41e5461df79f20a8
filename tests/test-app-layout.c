/* test-app-layout.c: the window at 800×600 shows every control whole, and the library
 * folds away and back with F9 or the header's toggle (real key presses and clicks)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"

/* WIDGET's bounds in WINDOW's coordinates. */
static graphene_rect_t
bounds_in (GtkWidget   *widget,
           OdoriWindow *window)
{
  graphene_rect_t r;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &r));
  return r;
}

/* WIDGET is shown whole inside WINDOW: mapped, not cut by the window's right or bottom
 * edge (nor the left or top), and at least MIN_WIDTH pixels wide. */
static void
assert_whole (GtkWidget   *widget,
              OdoriWindow *window,
              int          min_width)
{
  graphene_rect_t r = bounds_in (widget, window);
  int             width = gtk_widget_get_width (GTK_WIDGET (window));
  int             height = gtk_widget_get_height (GTK_WIDGET (window));

  if (g_test_verbose ())
    g_test_message ("%s: %.0f,%.0f %.0f×%.0f in %d×%d", G_OBJECT_TYPE_NAME (widget), r.origin.x, r.origin.y,
                    r.size.width, r.size.height, width, height);
  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_cmpfloat (r.origin.x, >=, 0);
  g_assert_cmpfloat (r.origin.y, >=, 0);
  g_assert_cmpfloat (r.origin.x + r.size.width, <=, width);
  g_assert_cmpfloat (r.origin.y + r.size.height, <=, height);
  g_assert_cmpfloat (r.size.width, >=, min_width);
  g_assert_cmpfloat (r.size.height, >, 0);
}

/* Scrolls the scrolled window WIDGET is in (if any) so that WIDGET is in its view, as
 * focusing it would. */
static void
scroll_to (GtkWidget *widget)
{
  GtkWidget      *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment  *v;
  graphene_rect_t r;

  if (scroller == NULL ||
      !gtk_widget_compute_bounds (widget, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller)), &r))
    return;
  /* (the bounds are in the view's coordinates, the page in the content's) */
  v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  r.origin.y += gtk_adjustment_get_value (v);
  gtk_adjustment_clamp_page (v, r.origin.y, r.origin.y + r.size.height);
  pump (150);
}

/* Asserts every spin button under WIDGET whole inside WINDOW (scrolled to, in a
 * scrolled window); returns how many. */
static guint
assert_spins_whole (GtkWidget   *widget,
                    OdoriWindow *window)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_SPIN_BUTTON (c) && gtk_widget_is_visible (c))
      {
        scroll_to (c);
        assert_whole (c, window, 60);
        n++;
      }
    else
      n += assert_spins_whole (c, window);
  return n;
}

/* With ODORI_SCREENSHOT_DIR set, WINDOW as it is now goes to DIR/NAME (the picture in
 * docs/window.md of a state only keys reach). */
static void
maybe_screenshot (OdoriWindow *window,
                  const char  *name)
{
  const char *dir = g_getenv ("ODORI_SCREENSHOT_DIR");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  pump (300);
  texture = odori_render_widget (GTK_WIDGET (window));
  path = g_build_filename (dir, name, NULL);
  g_assert_nonnull (texture);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("wrote %s", path);
}

/* The library is on screen, whole (not sliding in): mapped and inside the window. */
static gboolean
library_shown (OdoriWindow *window)
{
  GtkWidget      *library = GTK_WIDGET (window->library_view);
  graphene_rect_t r;

  if (!gtk_widget_get_mapped (library) || !gtk_widget_get_child_visible (library) ||
      !gtk_widget_compute_bounds (library, GTK_WIDGET (window), &r))
    return FALSE;
  return r.origin.x >= 0 && r.size.width >= 200 && r.origin.x + r.size.width <= gtk_widget_get_width (GTK_WIDGET (window));
}

/* The library is folded away: not mapped, or wholly left of the window. */
static gboolean
library_hidden (OdoriWindow *window)
{
  GtkWidget      *library = GTK_WIDGET (window->library_view);
  graphene_rect_t r;

  if (!gtk_widget_get_mapped (library) || !gtk_widget_get_child_visible (library) ||
      !gtk_widget_compute_bounds (library, GTK_WIDGET (window), &r))
    return TRUE;
  return r.origin.x + r.size.width <= 0;
}

/* The header bar's library toggle (found by its action, so that this test also builds
 * on a window without one, and fails there). */
static GtkWidget *
find_toggle (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_ACTIONABLE (c) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (c)), "win.show-library") == 0)
        return c;
      if ((found = find_toggle (c)) != NULL)
        return found;
    }
  return NULL;
}

static OdoriWindow *
new_window (int width,
            int height)
{
  OdoriWindow *window = odori_window_new (GTK_APPLICATION (test_app));

  g_assert_true (odori_window_load_sample (window));
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (600);
  return window;
}

/* /app/layout/small-window: at 800×600 the library has folded away by itself, and the
 * transport bar, the slider, the frame counter, the timeline's tool bar, the timeline
 * and the inspector are all whole inside the window. F9 and the toggle bring the
 * library back over the dance and fold it again. */
static void
test_small_window (void)
{
  OdoriWindow *window;
  GtkWidget   *bar, *toggle;

  SKIP_WITHOUT_DISPLAY ();

  window = new_window (800, 600);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  /* (the library folds as the window maps: let it) */
  for (guint i = 0; i < 30 && !library_hidden (window); i++)
    pump (100);

  assert_whole (window->play_button, window, 16);
  assert_whole (GTK_WIDGET (window->frame_scale), window, 120);
  assert_whole (GTK_WIDGET (window->frame_label), window, 40);
  assert_whole (GTK_WIDGET (window->speed_button), window, 16);
  for (GtkWidget *c = gtk_widget_get_last_child (GTK_WIDGET (window->transport_bar)); c != NULL;
       c = gtk_widget_get_prev_sibling (c))
    if (gtk_widget_get_visible (c))
      assert_whole (c, window, 16);
  /* the tool bar: the pane's first child */
  bar = gtk_widget_get_first_child (GTK_WIDGET (window->timeline_pane));
  g_assert_nonnull (bar);
  for (GtkWidget *c = gtk_widget_get_first_child (bar); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_get_visible (c) && !GTK_IS_SEPARATOR (c) && !GTK_IS_LABEL (c))
      assert_whole (c, window, 16);
  /* (the inspector's view: it scrolls, never sideways, and is no wider than its view) */
  assert_whole (gtk_widget_get_ancestor (GTK_WIDGET (window->inspector), GTK_TYPE_SCROLLED_WINDOW), window, 150);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->inspector)), <=,
                   gtk_widget_get_width (gtk_widget_get_ancestor (GTK_WIDGET (window->inspector), GTK_TYPE_SCROLLED_WINDOW)));
  /* its fields (the modifiers, the blend), with symbols selected */
  odori_timeline_select_all (window->timeline);
  pump (200);
  g_assert_cmpuint (assert_spins_whole (GTK_WIDGET (window->inspector), window), >=, 1);
  g_assert_cmpfloat (bounds_in (GTK_WIDGET (window->timeline), window).size.width, >=, 200);
  /* ... which the library, folded by itself, left room for */
  g_assert_true (library_hidden (window));

  /* F9 (a real key press) shows the library over the dance, F9 folds it again. */
  input_key (GTK_WIDGET (window), "F9");
  WAIT_UNTIL (library_shown (window), 3000);
  assert_whole (GTK_WIDGET (window->library_view), window, 200);
  maybe_screenshot (window, "window-800x600-library.png");
  input_key (GTK_WIDGET (window), "F9");
  WAIT_UNTIL (library_hidden (window), 3000);

  /* So does a click on the header's toggle, which shows the state. */
  toggle = find_toggle (gtk_window_get_titlebar (GTK_WINDOW (window)));
  g_assert_nonnull (toggle);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  input_click (toggle, gtk_widget_get_width (toggle) / 2.0, gtk_widget_get_height (toggle) / 2.0, 1, 1);
  WAIT_UNTIL (library_shown (window), 3000);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  input_click (toggle, gtk_widget_get_width (toggle) / 2.0, gtk_widget_get_height (toggle) / 2.0, 1, 1);
  WAIT_UNTIL (library_hidden (window), 3000);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));

  /* The window cannot be made so narrow that the dance's controls are cut. */
  {
    int min_width;

    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    g_assert_cmpint (min_width, >=, gtk_widget_get_width (GTK_WIDGET (window->transport_bar)) - gtk_widget_get_width (GTK_WIDGET (window->frame_scale)));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/layout/wide-window: at 1200 pixels the library stands beside the dance; F9 folds
 * it away and gives its room to the dance, F9 brings it back. */
static void
test_wide_window (void)
{
  OdoriWindow *window;
  float        timeline_width;

  SKIP_WITHOUT_DISPLAY ();

  window = new_window (1200, 760);
  WAIT_UNTIL (library_shown (window), 3000);
  assert_whole (GTK_WIDGET (window->library_view), window, 240);
  /* beside, not over: the timeline starts right of the library */
  g_assert_cmpfloat (bounds_in (GTK_WIDGET (window->timeline_pane), window).origin.x, >=,
                     bounds_in (GTK_WIDGET (window->library_view), window).size.width);
  timeline_width = bounds_in (GTK_WIDGET (window->timeline_pane), window).size.width;

  input_key (GTK_WIDGET (window), "F9");
  WAIT_UNTIL (library_hidden (window), 3000);
  pump (300);
  g_assert_cmpfloat (bounds_in (GTK_WIDGET (window->timeline_pane), window).size.width, >, timeline_width + 200);
  input_key (GTK_WIDGET (window), "F9");
  WAIT_UNTIL (library_shown (window), 3000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* In the child of /app/layout/fonts (fontconfig told to see DejaVu only): a window,
 * and what it says about fonts, on stdout. */
static int
fonts_child (void)
{
  OdoriWindow *window = new_window (1000, 700);
  const char  *title = gtk_label_get_text (window->error_title);

  g_print ("has-japanese=%d revealed=%d type=%d title=%s\n", _odori_window_has_japanese_font (window),
           gtk_info_bar_get_revealed (window->error_bar), gtk_info_bar_get_message_type (window->error_bar),
           title ? title : "");
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

/* /app/layout/fonts: with a Japanese font (build-aux/deps installs one) the window says
 * nothing about fonts; without one (a child process whose fontconfig sees DejaVu only)
 * it warns that names show as boxes and what to install. */
static void
test_fonts (void)
{
  g_autofree char *conf = test_path ("fonts-no-cjk.conf");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) envp = NULL;
  g_autoptr(GError) error = NULL;
  const char  *argv[] = { NULL, "--fonts-child", NULL };
  OdoriWindow *window;
  int          status = 0;

  SKIP_WITHOUT_DISPLAY ();

  window = new_window (1000, 700);
  g_assert_true (_odori_window_has_japanese_font (window));
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  gtk_window_destroy (GTK_WINDOW (window));

  g_assert_true (g_file_set_contents (conf,
                                      "<?xml version=\"1.0\"?>\n"
                                      "<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n"
                                      "<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir></fontconfig>\n",
                                      -1, NULL));
  argv[0] = g_test_get_filename (G_TEST_BUILT, "test-app-layout", NULL);
  envp = g_get_environ ();
  envp = g_environ_setenv (envp, "FONTCONFIG_FILE", conf, TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("the child failed: %s", err);
  g_test_message ("child: %s", out);
  g_assert_nonnull (strstr (out, "has-japanese=0 revealed=1 type=1 title=No Japanese font is installed\n"));
}

int
main (int   argc,
      char *argv[])
{
  if (argc > 1 && g_strcmp0 (argv[argc - 1], "--fonts-child") == 0)
    {
      argv[--argc] = NULL;
      app_test_init (&argc, &argv);
      return app_test_finish (have_display ? fonts_child () : 1);
    }
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/layout/small-window", test_small_window);
  g_test_add_func ("/app/layout/wide-window", test_wide_window);
  g_test_add_func ("/app/layout/fonts", test_fonts);
  return app_test_finish (g_test_run ());
}
