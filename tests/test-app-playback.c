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
  OdoriSession *session;
  gint64 start;
  double seconds;
  guint frame;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1);

  start = g_get_monotonic_time ();
  activate (window, "play-pause", NULL);
  g_assert_true (odori_session_get_playing (session));
  /* generous: under ASan on a loaded 2-core machine a frame can take a second */
  WAIT_UNTIL (odori_session_get_frame (session) >= 16, 60000);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  /* 15 frames at 30 per second take half a second, not much less. */
  g_assert_cmpfloat (seconds, >, 0.4);

  /* Pause: the frame stays. */
  activate (window, "play-pause", NULL);
  g_assert_false (odori_session_get_playing (session));
  frame = odori_session_get_frame (session);
  pump (200);
  g_assert_cmpuint (odori_session_get_frame (session), ==, frame);

  /* The play button says what it does. */
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (window->play_button)), ==, "media-playback-start-symbolic");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Arrows step one frame (and pause), Home and End jump. */
static void
test_step (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  guint n;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  n = odori_session_get_n_frames (session);
  odori_session_set_frame (session, 50);
  activate (window, "step-forward", NULL);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 51);
  activate (window, "step-back", NULL);
  activate (window, "step-back", NULL);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 49);
  activate (window, "last-frame", NULL);
  g_assert_cmpuint (odori_session_get_frame (session), ==, n);
  activate (window, "step-forward", NULL);
  g_assert_cmpuint (odori_session_get_frame (session), ==, n);
  activate (window, "first-frame", NULL);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1);
  activate (window, "step-back", NULL);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1);

  /* Stepping while playing pauses. */
  activate (window, "play-pause", NULL);
  activate (window, "step-forward", NULL);
  g_assert_false (odori_session_get_playing (session));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* With loop on, playback wraps to the start; with loop off it stops on the last frame. */
static void
test_loop (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  guint n;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  n = odori_session_get_n_frames (session);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);

  g_assert_true (odori_session_get_loop (session));
  odori_session_set_frame (session, n - 4);
  activate (window, "play-pause", NULL);
  WAIT_UNTIL (odori_session_get_frame (session) < n / 2, 10000);
  g_assert_true (odori_session_get_playing (session));
  activate (window, "play-pause", NULL);

  /* L turns looping off (the setting, shared by every window). */
  activate (window, "loop", NULL);
  g_assert_false (odori_session_get_loop (session));
  odori_session_set_frame (session, n - 4);
  activate (window, "play-pause", NULL);
  WAIT_UNTIL (!odori_session_get_playing (session), 10000);
  g_assert_cmpuint (odori_session_get_frame (session), ==, n);
  activate (window, "loop", NULL);
  g_assert_true (odori_session_get_loop (session));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Speed from 0.25x to 2x: the menu's radio action, [ and ], and the tick's arithmetic. */
static void
test_speed (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  g_autoptr(GVariant) state = NULL;
  double ft;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  activate (window, "speed", g_variant_new_double (0.5));
  g_assert_cmpfloat (odori_session_get_speed (session), ==, 0.5);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "speed");
  g_assert_cmpfloat (g_variant_get_double (state), ==, 0.5);
  g_assert_cmpstr (gtk_menu_button_get_label (window->speed_button), ==, "0.5×");
  activate (window, "slower", NULL);
  g_assert_cmpfloat (odori_session_get_speed (session), ==, 0.25);
  activate (window, "slower", NULL);
  g_assert_cmpfloat (odori_session_get_speed (session), ==, 0.25);
  activate (window, "faster", NULL);
  activate (window, "faster", NULL);
  activate (window, "faster", NULL);
  g_assert_cmpfloat (odori_session_get_speed (session), ==, 1.0);
  activate (window, "speed", g_variant_new_double (5.0));
  g_assert_cmpfloat (odori_session_get_speed (session), ==, 2.0);

  /* The tick: one second of frame-clock time at speed S moves S seconds of frames. */
  ft = odori_session_get_frame_time (session);
  odori_session_set_frame (session, 1);
  activate (window, "speed", g_variant_new_double (0.5));
  odori_session_set_playing (session, TRUE);
  odori_session_tick (session, 1000000000);          /* anchors */
  odori_session_tick (session, 1000000000 + 1000000);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1 + (guint) (0.5 / ft));
  odori_session_tick (session, 1000000000 + 2000000);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1 + (guint) (1.0 / ft));
  g_assert_cmpuint (odori_session_get_frame (session), ==, 31);
  odori_session_set_playing (session, FALSE);
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
