/* test-app-keys.c: the transport keys under real key events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Keys are sent as X events by xdotool (XTEST, the window focused), so they go through
 * GTK's whole key handling: a focused button's Space, a list's arrows, a spin button's
 * digits. Calling an action directly cannot see a key that GTK gives to another widget
 * first. The README's promise: Space plays and pauses, ←/→ step a frame, Home/End jump,
 * 1–7 pick a view, wherever the focus is, except while typing in a text field.
 */
#include "app-input-util.h"
#include "odori-inspector.h"
#include "odori-library-view.h"

/* Sends KEY (an X keysym name: "space", "Right", "2") to WINDOW with xdotool. */
static void
send_key (OdoriWindow *window,
          const char  *key)
{
  input_key (GTK_WIDGET (window), key);
}

static OdoriWindow *
shown_window (void)
{
  OdoriWindow *window = new_sample_window ();

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (300);
  return window;
}

/* Space toggles playback once, whatever has the focus (a button included: GTK would
 * activate the focused button instead, or as well). */
static void
test_space (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  GtkWidget *focus[4];

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window ();
  session = odori_window_get_session (window);
  focus[0] = NULL;   /* as the window starts */
  focus[1] = window->play_button;
  focus[2] = GTK_WIDGET (window->snap_button);
  focus[3] = GTK_WIDGET (odori_library_view_get_list_view (window->library_view));

  for (guint i = 0; i < G_N_ELEMENTS (focus); i++)
    {
      gboolean before, snap = gtk_toggle_button_get_active (window->snap_button);

      if (focus[i] != NULL)
        g_assert_true (gtk_widget_grab_focus (focus[i]));
      before = odori_session_get_playing (session);
      send_key (window, "space");
      WAIT_UNTIL (odori_session_get_playing (session) != before, 5000);
      pump (200);   /* a second toggle (the focused button's) would come now */
      g_test_message ("focus %u: playing %d -> %d", i, before, odori_session_get_playing (session));
      g_assert_true (odori_session_get_playing (session) != before);
      /* the focused Snap button was not toggled by the same Space */
      g_assert_true (gtk_toggle_button_get_active (window->snap_button) == snap);
      odori_session_set_playing (session, FALSE);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ← and → step one frame from the viewport, the library list and the timeline; the
 * library's selection and the focus stay where they were. */
static void
test_arrows (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  GtkWidget *focus[3];

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window ();
  session = odori_window_get_session (window);
  focus[0] = window->viewport != NULL ? window->viewport : window->play_button;
  focus[1] = GTK_WIDGET (odori_library_view_get_list_view (window->library_view));
  focus[2] = GTK_WIDGET (window->timeline);

  for (guint i = 0; i < G_N_ELEMENTS (focus); i++)
    {
      guint frame;

      gtk_widget_set_focusable (focus[i], TRUE);
      g_assert_true (gtk_widget_grab_focus (focus[i]));
      odori_session_set_frame (session, 10);
      send_key (window, "Right");
      WAIT_UNTIL (odori_session_get_frame (session) != 10, 5000);
      frame = odori_session_get_frame (session);
      g_test_message ("focus %u: → gives frame %u", i, frame);
      g_assert_cmpuint (frame, ==, 11);
      send_key (window, "Left");
      WAIT_UNTIL (odori_session_get_frame (session) == 10, 5000);
      send_key (window, "Left");
      WAIT_UNTIL (odori_session_get_frame (session) == 9, 5000);
      /* the focus did not wander into another widget (the Blend field, say) */
      {
        GtkWidget *now = gtk_root_get_focus (GTK_ROOT (window));

        g_test_message ("focus %u is on %s", i, now ? G_OBJECT_TYPE_NAME (now) : "nothing");
        g_assert_true (now == focus[i] || (now != NULL && gtk_widget_is_ancestor (now, focus[i])));
      }
      send_key (window, "End");
      WAIT_UNTIL (odori_session_get_frame (session) > 100, 5000);
      send_key (window, "Home");
      WAIT_UNTIL (odori_session_get_frame (session) == 1, 5000);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* In a text field the keys type: Space and digits go into the search entry and the Blend
 * field, and playback does not start. */
static void
test_text_fields_type (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  GtkSpinButton *blend;
  GtkWidget *search;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window ();
  session = odori_window_get_session (window);

  odori_library_view_focus_search (window->library_view);
  search = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (search);
  g_assert_true (GTK_IS_EDITABLE (search));
  send_key (window, "space");
  send_key (window, "2");
  WAIT_UNTIL (g_str_equal (gtk_editable_get_text (GTK_EDITABLE (search)), " 2"), 5000);
  g_assert_false (odori_session_get_playing (session));

  blend = odori_inspector_get_blend_spin (window->inspector);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (blend)));
  send_key (window, "ctrl+a");
  send_key (window, "7");
  send_key (window, "Return");
  WAIT_UNTIL (gtk_spin_button_get_value_as_int (blend) == 7, 5000);
  g_assert_false (odori_session_get_playing (session));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  if (have_display && !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    g_error ("the key tests send X events: run under an X server (xvfb-run)");
  g_test_add_func ("/app/keys/space", test_space);
  g_test_add_func ("/app/keys/arrows", test_arrows);
  g_test_add_func ("/app/keys/text-fields-type", test_text_fields_type);
  return app_test_finish (g_test_run ());
}
