/* test-app-playback.c: playback advances the shared frame at the score's rate, pauses,
 * steps, loops or stops, and follows the speed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"

static void
activate (OdoriWindow *window,
          const char  *action,
          GVariant    *param)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, param);
}

/* /app/playback/advances */
static void
test_advances (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  gint64 start;
  double seconds;
  guint frame;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 1);

  start = g_get_monotonic_time ();
  activate (window, "play-pause", NULL);
  g_assert_true (odori_document_get_playing (doc));
  /* generous: under ASan on a loaded 2-core machine a frame can take a second */
  WAIT_UNTIL (odori_document_get_frame (doc) >= 16, 60000);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  /* 15 frames at 30 per second take half a second, not much less. */
  g_assert_cmpfloat (seconds, >, 0.4);

  /* Pause: the frame stays. */
  activate (window, "play-pause", NULL);
  g_assert_false (odori_document_get_playing (doc));
  frame = odori_document_get_frame (doc);
  pump (200);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, frame);

  /* The play button says what it does. */
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (window->play_button)), ==, "media-playback-start-symbolic");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Arrows step one frame (and pause), Home and End jump. */
static void
test_step (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  guint n;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  n = odori_document_get_n_frames (doc);
  odori_document_set_frame (doc, 50);
  activate (window, "step-forward", NULL);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 51);
  activate (window, "step-back", NULL);
  activate (window, "step-back", NULL);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 49);
  activate (window, "last-frame", NULL);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, n);
  activate (window, "step-forward", NULL);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, n);
  activate (window, "first-frame", NULL);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 1);
  activate (window, "step-back", NULL);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 1);

  /* Stepping while playing pauses. */
  activate (window, "play-pause", NULL);
  activate (window, "step-forward", NULL);
  g_assert_false (odori_document_get_playing (doc));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* With loop on, playback wraps to the start; with loop off it stops on the last frame. */
static void
test_loop (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  guint n;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  n = odori_document_get_n_frames (doc);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);

  g_assert_true (odori_document_get_loop (doc));
  odori_document_set_frame (doc, n - 4);
  activate (window, "play-pause", NULL);
  WAIT_UNTIL (odori_document_get_frame (doc) < n / 2, 10000);
  g_assert_true (odori_document_get_playing (doc));
  activate (window, "play-pause", NULL);

  /* L turns looping off (the setting, shared by every window). */
  activate (window, "loop", NULL);
  g_assert_false (odori_document_get_loop (doc));
  odori_document_set_frame (doc, n - 4);
  activate (window, "play-pause", NULL);
  WAIT_UNTIL (!odori_document_get_playing (doc), 10000);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, n);
  activate (window, "loop", NULL);
  g_assert_true (odori_document_get_loop (doc));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Speed from 0.25x to 2x: the menu's radio action, [ and ], and the tick's arithmetic. */
static void
test_speed (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  g_autoptr(GVariant) state = NULL;
  double ft;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  activate (window, "speed", g_variant_new_double (0.5));
  g_assert_cmpfloat (odori_document_get_speed (doc), ==, 0.5);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "speed");
  g_assert_cmpfloat (g_variant_get_double (state), ==, 0.5);
  g_assert_cmpstr (gtk_menu_button_get_label (window->speed_button), ==, "0.5×");
  activate (window, "slower", NULL);
  g_assert_cmpfloat (odori_document_get_speed (doc), ==, 0.25);
  activate (window, "slower", NULL);
  g_assert_cmpfloat (odori_document_get_speed (doc), ==, 0.25);
  activate (window, "faster", NULL);
  activate (window, "faster", NULL);
  activate (window, "faster", NULL);
  g_assert_cmpfloat (odori_document_get_speed (doc), ==, 1.0);
  activate (window, "speed", g_variant_new_double (5.0));
  g_assert_cmpfloat (odori_document_get_speed (doc), ==, 2.0);

  /* The tick: one second of frame-clock time at speed S moves S seconds of frames. */
  ft = odori_document_get_frame_time (doc);
  odori_document_set_frame (doc, 1);
  activate (window, "speed", g_variant_new_double (0.5));
  odori_document_set_playing (doc, TRUE);
  odori_document_tick (doc, 1000000000);          /* anchors */
  odori_document_tick (doc, 1000000000 + 1000000);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 1 + (guint) (0.5 / ft));
  odori_document_tick (doc, 1000000000 + 2000000);
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 1 + (guint) (1.0 / ft));
  g_assert_cmpuint (odori_document_get_frame (doc), ==, 31);
  odori_document_set_playing (doc, FALSE);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/playback/advances", test_advances);
  g_test_add_func ("/app/playback/step", test_step);
  g_test_add_func ("/app/playback/loop", test_loop);
  g_test_add_func ("/app/playback/speed", test_speed);
  return app_test_finish (g_test_run ());
}
