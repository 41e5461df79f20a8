/* test-app-timeline.c: the timeline editor, driven through its actions and synthesized
 * gestures: moves (with snapping), undo and redo, drops from the library, delete, copy,
 * paste, tracks, the inspector, zoom and scrubbing, the viewport following an edit, and
 * saving a score that `odori-cli` checks and recomposes to what the window showed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"

#include "odori-bva.h"
#include "odori-library-model.h"
#include "odori-sample.h"
#include "odori-score-edit.h"
#include "odori-timeline-private.h"
#ifdef ODORI_HAVE_RENDER
#include "odori-viewport.h"
#endif

/* The sample's tracks (sample.dds): BD HD LA RA LL RL. */
enum { BD, HD, LA, RA, LL, RL };

static OdoriWindow *
new_timeline_window (void)
{
  OdoriWindow *window = new_sample_window ();

  WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (window->timeline)) > 400 &&
              gtk_widget_get_height (GTK_WIDGET (window->timeline)) > 100, 15000);
  odori_session_set_playing (window->session, FALSE);
  odori_session_set_frame (window->session, 1);
  /* A known zoom: 2 pixels per frame, from frame 1. */
  odori_timeline_set_pixels_per_frame (window->timeline, 2.0, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (window->timeline)), 0);
  return window;
}

static char *
score_text (OdoriDocument *doc)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  gsize len;
  const char *data;

  odori_score_write (odori_document_get_score (doc), out);
  g_assert_true (odori_output_commit (out, NULL));
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

static OdoriScorePart *
track (OdoriDocument *doc,
       guint          t)
{
  return g_ptr_array_index (odori_document_get_score (doc)->parts, t);
}

static OdoriScoreSymbol *
symbol_at (OdoriDocument *doc,
           guint          t,
           guint          start)
{
  OdoriScorePart *part = track (doc, t);
  int i = odori_score_part_find_symbol (part, start);

  return i >= 0 ? &g_array_index (part->symbols, OdoriScoreSymbol, i) : NULL;
}

static const char *
sym_name (OdoriDocument *doc,
          guint          t,
          guint          start)
{
  OdoriScoreSymbol *s = symbol_at (doc, t, start);

  return s != NULL ? s->symbol : NULL;
}

static double
x_of (OdoriWindow *window,
      double       frame)
{
  return odori_timeline_x_for_frame (window->timeline, frame);
}

static double
y_of (OdoriWindow *window,
      guint        t)
{
  return odori_timeline_y_for_track (window->timeline, t);
}

/* Press on X, Y, drag through STEPS points to X + DX, release. */
static void
drag (OdoriWindow     *window,
      double           x,
      double           y,
      double           dx,
      guint            steps,
      GdkModifierType  state)
{
  _odori_timeline_pointer_press (window->timeline, x, y, state);
  for (guint i = 1; i <= steps; i++)
    {
      _odori_timeline_pointer_drag (window->timeline, x + dx * i / steps, y, state);
      g_main_context_iteration (NULL, FALSE);
    }
  _odori_timeline_pointer_release (window->timeline, x + dx, y);
}

/* A drag moves a block; the score changes; one undo restores it exactly (the same text,
 * the same source lines); redo moves it again. */
static void
test_move_undo_redo (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *text = NULL;
  guint line;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  before = score_text (doc);
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_nonnull (symbol_at (doc, HD, 82));
  g_assert_cmpstr (sym_name (doc, HD, 82), ==, "C2");
  line = symbol_at (doc, HD, 82)->line;
  g_assert_cmpuint (line, >, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo"));

  /* C2 on HD, 82 → 122, in many small steps, Shift held (no snapping). */
  drag (window, x_of (window, 100), y_of (window, HD), 40 * 2.0, 12, GDK_SHIFT_MASK);
  g_assert_null (symbol_at (doc, HD, 82));
  g_assert_nonnull (symbol_at (doc, HD, 122));
  g_assert_cmpstr (sym_name (doc, HD, 122), ==, "C2");
  g_assert_cmpuint (symbol_at (doc, HD, 122)->line, ==, line);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 122));
  /* Dragging scrubbed: the playhead is at the moved symbol's start. */
  g_assert_cmpuint (odori_session_get_frame (odori_window_get_session (window)), ==, 122);
  /* One undo step for the whole drag; the title shows unsaved work. */
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Move");
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "• "));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo"));
  after = score_text (doc);
  g_assert_cmpstr (after, !=, before);

  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, before);
  g_assert_cmpuint (symbol_at (doc, HD, 82)->line, ==, line);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 82));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "redo"));
  /* Back at the saved state: nothing unsaved any more. */
  g_assert_false (odori_document_get_dirty (doc));

  g_action_group_activate_action (G_ACTION_GROUP (window), "redo", NULL);
  g_free (text);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, after);
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "redo"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The composed dance follows each step of a drag (incrementally), and a cancelled drag
 * (Escape) puts everything back. */
static void
test_drag_is_live_and_cancels (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  g_autoptr(OdoriMotion) original = NULL;
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  before = score_text (doc);
  original = odori_motion_copy (odori_document_get_motion (doc));

  _odori_timeline_pointer_press (window->timeline, x_of (window, 100), y_of (window, HD), GDK_SHIFT_MASK);
  _odori_timeline_pointer_drag (window->timeline, x_of (window, 100) + 60, y_of (window, HD), GDK_SHIFT_MASK);
  g_assert_nonnull (symbol_at (doc, HD, 112));
  g_assert_false (odori_motion_equal (original, odori_document_get_motion (doc), 1e-4, 1e-3, NULL));
  _odori_timeline_pointer_cancel (window->timeline);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, before);
  g_assert_true (odori_motion_equal (original, odori_document_get_motion (doc), 1e-5, 1e-4, NULL));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 0);
  g_assert_false (odori_document_get_dirty (doc));

  /* A drag released where it began records nothing and leaves the score clean. */
  _odori_timeline_pointer_press (window->timeline, x_of (window, 100), y_of (window, HD), GDK_SHIFT_MASK);
  _odori_timeline_pointer_drag (window->timeline, x_of (window, 100) + 60, y_of (window, HD), GDK_SHIFT_MASK);
  g_assert_nonnull (symbol_at (doc, HD, 112));
  _odori_timeline_pointer_drag (window->timeline, x_of (window, 100), y_of (window, HD), GDK_SHIFT_MASK);
  _odori_timeline_pointer_release (window->timeline, x_of (window, 100), y_of (window, HD));
  g_free (text);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, before);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 0);
  g_assert_false (odori_document_get_dirty (doc));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Snapping: to another track's block end, to the playhead; Shift moves freely; the
 * toggle turns it off. */
static void
test_snapping (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  g_assert_true (odori_timeline_get_snap (window->timeline));

  /* C2 (HD, 82) dragged to start at 154: snaps 2 frames back to 152, where S1 ends on
   * BD and LL (151 frames from 1). The threshold is 8 px, 4 frames at 2 px per frame. */
  drag (window, x_of (window, 100), y_of (window, HD), (154 - 82) * 2.0, 6, 0);
  g_assert_nonnull (symbol_at (doc, HD, 152));
  g_assert_cmpstr (sym_name (doc, HD, 152), ==, "C2");

  /* The playhead: at 300, C2 dragged to start at 297 lands on 300. */
  odori_session_set_frame (odori_window_get_session (window), 300);
  drag (window, x_of (window, 160), y_of (window, HD), (297 - 152) * 2.0, 5, 0);
  g_assert_nonnull (symbol_at (doc, HD, 300));

  /* Shift: exactly where the pointer says, one frame off the playhead. */
  drag (window, x_of (window, 310), y_of (window, HD), 1 * 2.0 + 6 * 2.0, 3, GDK_SHIFT_MASK);
  g_assert_nonnull (symbol_at (doc, HD, 307));

  /* Snapping off (the toolbar toggle): no pull to 300 either. */
  gtk_toggle_button_set_active (window->snap_button, FALSE);
  g_assert_false (odori_timeline_get_snap (window->timeline));
  drag (window, x_of (window, 310), y_of (window, HD), -5 * 2.0, 3, 0);
  g_assert_nonnull (symbol_at (doc, HD, 302));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 4);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The library item for SYMBOL in the window's library. */
static OdoriLibraryItem *
find_item (OdoriIndex *index,
           const char *symbol)
{
  g_autoptr(GListModel) classes = odori_library_model_new (index);

  for (guint c = 0; c < g_list_model_get_n_items (classes); c++)
    {
      g_autoptr(OdoriLibraryItem) klass = g_list_model_get_item (classes, c);
      GListModel *shows = odori_library_item_get_children (klass);

      for (guint s = 0; s < g_list_model_get_n_items (shows); s++)
        {
          g_autoptr(OdoriLibraryItem) show = g_list_model_get_item (shows, s);
          GListModel *motions = odori_library_item_get_children (show);

          for (guint m = 0; m < g_list_model_get_n_items (motions); m++)
            {
              g_autoptr(OdoriLibraryItem) motion = g_list_model_get_item (motions, m);
              g_autofree char *sym = odori_library_item_dup_symbol (motion);

              if (g_strcmp0 (sym, symbol) == 0)
                return g_steal_pointer (&motion);
            }
        }
    }
  g_assert_not_reached ();
  return NULL;
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  g_assert_not_reached ();
  return NULL;
}

/* What the library's drag carries (the item) dropped on the timeline's drop target. */
static gboolean
emit_drop (OdoriWindow      *window,
           OdoriLibraryItem *item,
           double            x,
           double            y)
{
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (window->timeline));
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  g_value_init (&value, ODORI_TYPE_LIBRARY_ITEM);
  g_value_set_object (&value, item);
  g_signal_emit_by_name (target, "drop", &value, x, y, &accepted);
  g_value_unset (&value);
  return accepted;
}

/* A drop from the library inserts the motion's symbol at the frame under the pointer,
 * on the track under it; it is one undo step. */
static void
test_drop_inserts_under_pointer (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  g_autoptr(OdoriLibraryItem) wave = NULL;
  g_autoptr(OdoriLibraryItem) pose = NULL;
  guint n_before;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  wave = find_item (odori_document_get_index (doc), "W2");
  pose = find_item (odori_document_get_index (doc), "MW.K1");
  n_before = track (doc, RA)->symbols->len;
  odori_timeline_set_snap (window->timeline, FALSE);

  /* Frame 640 (after the dance: the score grows), in the middle of a frame's pixels. */
  g_assert_true (emit_drop (window, wave, x_of (window, 640) + 1, y_of (window, RA)));
  g_assert_cmpuint (track (doc, RA)->symbols->len, ==, n_before + 1);
  g_assert_nonnull (symbol_at (doc, RA, 640));
  g_assert_cmpstr (sym_name (doc, RA, 640), ==, "W2");
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (window)), ==, 640 + 119 - 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, RA, 640));
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Insert");

  /* With snapping, a drop 3 frames after W2's end (759) starts right at it. */
  odori_timeline_set_snap (window->timeline, TRUE);
  g_assert_true (emit_drop (window, pose, x_of (window, 762) + 1, y_of (window, RA)));
  g_assert_nonnull (symbol_at (doc, RA, 759));
  g_assert_cmpstr (sym_name (doc, RA, 759), ==, "MW.K1");

  /* Not on a track: refused, with a reason. */
  {
    g_autofree char *why = NULL;
    gulong id = g_signal_connect (window->timeline, "refused", G_CALLBACK (refused_cb), &why);

    g_assert_false (emit_drop (window, pose, x_of (window, 100), 5));
    g_assert_nonnull (why);
    g_assert_nonnull (strstr (why, "track"));
    g_signal_handler_disconnect (window->timeline, id);
  }

  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_cmpuint (track (doc, RA)->symbols->len, ==, n_before);
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (window)), ==, 630);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A library whose show ARMS holds the arms (and the chest) only: its motion goes on an
 * arm track, and is refused on a leg track with a reason naming the missing sensor. */
static char *
write_arms_library (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = test_path ("arms-library");
  g_autofree char *te = g_build_filename (dir, "te.bva", NULL);
  g_autofree char *arms = g_build_filename (dir, "arms.bva", NULL);
  g_autofree char *dat = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *text = NULL;
  g_autoptr(OdoriMotion) full = NULL;
  g_autoptr(OdoriMotion) part = NULL;
  static const char *keep[] = { "Chest", "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
                                "RightCollar", "RightUpArm", "RightLowArm", "RightHand" };
  gsize len;

  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  full = odori_bva_load (te, NULL, &error);
  g_assert_no_error (error);
  part = odori_motion_new (G_N_ELEMENTS (keep), 81, full->frame_time, &error);
  g_assert_no_error (error);
  for (guint s = 0; s < G_N_ELEMENTS (keep); s++)
    {
      int from = odori_motion_find_segment (full, keep[s]);

      g_assert_cmpint (from, >=, 0);
      odori_motion_set_segment_name (part, s, keep[s]);
      for (guint f = 0; f < 81; f++)
        *odori_motion_get (part, f, s) = *odori_motion_get (full, f, from);
    }
  g_assert_true (odori_bva_save (part, arms, &error));
  g_assert_no_error (error);

  g_file_get_contents (dat, &text, &len, &error);
  g_assert_no_error (error);
  {
    g_autofree char *more = g_strconcat (text,
                                         "\nbegin class name=\"Arms\" code=\"arms\"\n"
                                         "  begin show name=\"Arms only\" code=\"ARMS\" file=\"arms.bva\"\n"
                                         "    motion name=\"Arm clap\" code=\"A9\" frame=1-81\n"
                                         "  end show\n"
                                         "end class\n", NULL);

    write_text (dat, more);
  }
  return g_steal_pointer (&dat);
}

static void
test_drop_refused_on_wrong_part (void)
{
  g_autofree char *dat = write_arms_library ();
  g_autoptr(GFile) file = g_file_new_for_path (dat);
  g_autoptr(OdoriLibraryItem) arms = NULL;
  g_autofree char *why = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScore *score;
  int ll, la;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  /* The window is untouched: the library starts a new, empty score. */
  g_assert_true (odori_window_open_library (window, file));
  score = odori_document_get_score (doc);
  ll = odori_score_find_part_index (score, "LL");
  la = odori_score_find_part_index (score, "LA");
  g_assert_cmpint (ll, >=, 0);
  g_assert_cmpint (la, >=, 0);
  odori_timeline_set_pixels_per_frame (window->timeline, 2.0, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (window->timeline)), 0);
  arms = find_item (odori_document_get_index (doc), "A9");
  g_signal_connect (window->timeline, "refused", G_CALLBACK (refused_cb), &why);

  g_assert_false (emit_drop (window, arms, x_of (window, 10), y_of (window, ll)));
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, "LL"));
  g_assert_nonnull (strstr (why, "LeftUpLeg"));
  g_assert_cmpuint (track (doc, ll)->symbols->len, ==, 0);
  g_assert_false (odori_document_get_dirty (doc));
  /* The window says so too. */
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->error_message), "LeftUpLeg"));

  /* On the left arm it is at home. */
  g_assert_true (emit_drop (window, arms, x_of (window, 10), y_of (window, la)));
  g_assert_nonnull (symbol_at (doc, la, 10));
  g_assert_null (odori_document_get_compose_error (doc));
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (window)), ==, 90);
  g_signal_handlers_disconnect_by_data (window->timeline, &why);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Delete, cut, copy and paste at the playhead, duplicate: by the timeline's own
 * actions (its key bindings) and the window's (buttons, menu). */
static void
test_delete_copy_paste (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  GtkWidget *tl;
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;
  guint n_la, n_ra;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  tl = GTK_WIDGET (window->timeline);
  before = score_text (doc);
  n_la = track (doc, LA)->symbols->len;
  n_ra = track (doc, RA)->symbols->len;

  /* Delete W1 of LA (193). */
  g_assert_true (odori_timeline_select (window->timeline, LA, 193, ODORI_TIMELINE_SELECT_REPLACE));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "delete"));
  g_assert_true (gtk_widget_activate_action (tl, "timeline.delete", NULL));
  g_assert_null (symbol_at (doc, LA, 193));
  g_assert_cmpuint (track (doc, LA)->symbols->len, ==, n_la - 1);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 0);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, before);

  /* Copy C1 of LA and C2 of RA (offset 81), paste at 700: they land at 700 and 781. */
  g_assert_true (odori_timeline_select (window->timeline, LA, 1, ODORI_TIMELINE_SELECT_REPLACE));
  g_assert_true (odori_timeline_select (window->timeline, RA, 82, ODORI_TIMELINE_SELECT_ADD));
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 2);
  g_assert_true (gtk_widget_activate_action (tl, "timeline.copy", NULL));
  g_assert_true (odori_timeline_can_paste (window->timeline));
  odori_session_set_frame (odori_window_get_session (window), 600);
  g_assert_true (gtk_widget_activate_action (tl, "timeline.paste", NULL));
  g_assert_cmpstr (sym_name (doc, LA, 600), ==, "C1");
  g_assert_cmpstr (sym_name (doc, RA, 681), ==, "C2");
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 2);
  g_assert_true (odori_timeline_is_selected (window->timeline, RA, 681));

  /* Duplicate the pasted pair: right after it (C2 ends at 681 + 111). */
  g_assert_true (gtk_widget_activate_action (tl, "timeline.duplicate", NULL));
  g_assert_cmpstr (sym_name (doc, LA, 792), ==, "C1");
  g_assert_cmpstr (sym_name (doc, RA, 873), ==, "C2");

  /* Cut through the window action (the toolbar button): gone, and pastable. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "cut", NULL);
  g_assert_null (symbol_at (doc, LA, 792));
  g_assert_null (symbol_at (doc, RA, 873));
  odori_session_set_frame (odori_window_get_session (window), 750);
  g_assert_cmpuint (odori_session_get_frame (odori_window_get_session (window)), ==, 750);
  g_action_group_activate_action (G_ACTION_GROUP (window), "paste", NULL);
  g_assert_cmpstr (sym_name (doc, LA, 750), ==, "C1");
  g_assert_cmpstr (sym_name (doc, RA, 831), ==, "C2");

  /* A single track's copy pastes on the focused track. */
  g_assert_true (odori_timeline_select (window->timeline, LA, 1, ODORI_TIMELINE_SELECT_REPLACE));
  g_assert_true (gtk_widget_activate_action (tl, "timeline.copy", NULL));
  g_assert_true (gtk_widget_activate_action (tl, "timeline.focus-track", "i", 1));
  g_assert_cmpint (odori_timeline_get_focus (window->timeline, NULL), ==, RA);
  odori_session_set_frame (odori_window_get_session (window), 900);
  g_assert_cmpuint (odori_session_get_frame (odori_window_get_session (window)), ==, 900);
  g_assert_true (gtk_widget_activate_action (tl, "timeline.paste", NULL));
  g_assert_cmpstr (sym_name (doc, RA, 900), ==, "C1");

  /* Every step undoes back to the start. */
  while (odori_undo_get_can_undo (window->undo))
    odori_undo_undo (window->undo);
  g_free (text);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, before);
  g_assert_cmpuint (track (doc, RA)->symbols->len, ==, n_ra);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Keyboard: tracks and symbols are focused and selected with keys, nudged a frame at a
 * time, and the accessible description names what has the focus. */
static void
test_keyboard_and_accessible (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  GtkWidget *tl;
  g_autofree char *desc = NULL;
  guint start;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  tl = GTK_WIDGET (window->timeline);
  gtk_widget_grab_focus (tl);
  g_assert_true (gtk_widget_has_focus (tl));
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (tl)), ==, GTK_ACCESSIBLE_ROLE_GROUP);

  /* Down twice: LA; the symbol under the playhead (frame 100: C2 at 82) with Alt+Right. */
  odori_session_set_frame (odori_window_get_session (window), 100);
  gtk_widget_activate_action (tl, "timeline.focus-track", "i", 1);
  gtk_widget_activate_action (tl, "timeline.focus-track", "i", 1);
  g_assert_cmpint (odori_timeline_get_focus (window->timeline, &start), ==, LA);
  gtk_widget_activate_action (tl, "timeline.select-at-playhead", NULL);
  g_assert_cmpint (odori_timeline_get_focus (window->timeline, &start), ==, LA);
  g_assert_cmpuint (start, ==, 82);
  g_assert_true (odori_timeline_is_selected (window->timeline, LA, 82));
  gtk_widget_activate_action (tl, "timeline.focus-symbol", "(ib)", 1, FALSE);
  odori_timeline_get_focus (window->timeline, &start);
  g_assert_cmpuint (start, ==, 193);
  g_assert_false (odori_timeline_is_selected (window->timeline, LA, 82));
  gtk_widget_activate_action (tl, "timeline.focus-symbol", "(ib)", -1, TRUE);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 2);

  desc = odori_timeline_dup_focus_description (window->timeline);
  g_test_message ("%s", desc);
  g_assert_nonnull (strstr (desc, "Track 3 of 6: LA"));
  g_assert_nonnull (strstr (desc, "Left arm"));
  g_assert_nonnull (strstr (desc, "C2"));
  g_assert_nonnull (strstr (desc, "frames 82 to 192"));
  g_assert_nonnull (strstr (desc, "selected"));
  g_assert_nonnull (strstr (desc, "2 symbols selected"));

  /* Ctrl+Right nudges the selection one frame, Ctrl+Shift+Right one second. */
  gtk_widget_activate_action (tl, "timeline.unselect-all", NULL);
  odori_timeline_select (window->timeline, LA, 82, ODORI_TIMELINE_SELECT_REPLACE);
  gtk_widget_activate_action (tl, "timeline.nudge", "i", 1);
  g_assert_nonnull (symbol_at (doc, LA, 83));
  gtk_widget_activate_action (tl, "timeline.nudge-seconds", "i", 1);
  g_assert_nonnull (symbol_at (doc, LA, 113));
  g_assert_true (odori_timeline_is_selected (window->timeline, LA, 113));

  /* Select all, then nothing. */
  gtk_widget_activate_action (tl, "timeline.select-all", NULL);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 33);
  gtk_widget_activate_action (tl, "timeline.unselect-all", NULL);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Click, Ctrl-click, Shift-click and the rubber band select; clicking the ruler moves
 * the shared current frame, and so does dragging the playhead. */
static void
test_pointer_selection_and_scrub (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  OdoriTimeline *tl;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  session = odori_window_get_session (window);
  tl = window->timeline;

  _odori_timeline_pointer_press (tl, x_of (window, 20), y_of (window, BD), 0);
  _odori_timeline_pointer_release (tl, x_of (window, 20), y_of (window, BD));
  g_assert_true (odori_timeline_is_selected (tl, BD, 1));
  g_assert_cmpuint (odori_timeline_get_n_selected (tl), ==, 1);
  _odori_timeline_pointer_press (tl, x_of (window, 200), y_of (window, HD), GDK_CONTROL_MASK);
  _odori_timeline_pointer_release (tl, x_of (window, 200), y_of (window, HD));
  g_assert_cmpuint (odori_timeline_get_n_selected (tl), ==, 2);
  /* Shift-click on HD from W1 (193) to T1 (334) takes the range. */
  _odori_timeline_pointer_press (tl, x_of (window, 340), y_of (window, HD), GDK_SHIFT_MASK);
  _odori_timeline_pointer_release (tl, x_of (window, 340), y_of (window, HD));
  g_assert_true (odori_timeline_is_selected (tl, HD, 193));
  g_assert_true (odori_timeline_is_selected (tl, HD, 334));
  g_assert_cmpuint (odori_timeline_get_n_selected (tl), ==, 3);

  /* A click on empty lane space (where S1 of BD holds its last pose) clears; a band
   * from there down to HD, frames 160 to 200, catches W1 of BD, C2 and W1 of HD. */
  _odori_timeline_pointer_press (tl, x_of (window, 170), y_of (window, BD), 0);
  g_assert_cmpuint (odori_timeline_get_n_selected (tl), ==, 0);
  _odori_timeline_pointer_release (tl, x_of (window, 170), y_of (window, BD));
  odori_session_set_frame (session, 300);
  _odori_timeline_pointer_press (tl, x_of (window, 160), y_of (window, BD), 0);
  _odori_timeline_pointer_drag (tl, x_of (window, 200), y_of (window, HD), 0);
  _odori_timeline_pointer_release (tl, x_of (window, 200), y_of (window, HD));
  g_assert_cmpuint (odori_timeline_get_n_selected (tl), ==, 3);
  g_assert_true (odori_timeline_is_selected (tl, BD, 193));
  g_assert_true (odori_timeline_is_selected (tl, HD, 82));
  g_assert_true (odori_timeline_is_selected (tl, HD, 193));
  /* With Ctrl the band adds to what was selected. */
  _odori_timeline_pointer_press (tl, x_of (window, 180), y_of (window, LL), GDK_CONTROL_MASK);
  _odori_timeline_pointer_drag (tl, x_of (window, 140), y_of (window, RL), GDK_CONTROL_MASK);
  _odori_timeline_pointer_release (tl, x_of (window, 140), y_of (window, RL));
  g_assert_cmpuint (odori_timeline_get_n_selected (tl), ==, 5);
  g_assert_true (odori_timeline_is_selected (tl, LL, 1));

  /* The ruler: a click puts the playhead there, a drag scrubs. */
  _odori_timeline_pointer_press (tl, x_of (window, 250) + 1, 10, 0);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 250);
  _odori_timeline_pointer_drag (tl, x_of (window, 260) + 1, 10, 0);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 260);
  _odori_timeline_pointer_release (tl, x_of (window, 260) + 1, 10);
  /* The playhead line itself is grabbed in the lanes. */
  _odori_timeline_pointer_press (tl, x_of (window, 260.5), y_of (window, LL), 0);
  _odori_timeline_pointer_drag (tl, x_of (window, 280) + 1, y_of (window, LL), 0);
  _odori_timeline_pointer_release (tl, x_of (window, 280) + 1, y_of (window, LL));
  g_assert_cmpuint (odori_session_get_frame (session), ==, 280);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Zoom: Ctrl+scroll about the pointer keeps the frame under it; Ctrl+0 fits the whole
 * dance; plain scrolling is the scrolled window's. During playback the view follows. */
static void
test_zoom_and_follow (void)
{
  OdoriWindow *window;
  OdoriTimeline *tl;
  GtkAdjustment *h;
  double before, x;
  guint frame;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  tl = window->timeline;
  h = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (tl));
  x = 400;
  frame = odori_timeline_frame_at_x (tl, x);
  before = odori_timeline_get_pixels_per_frame (tl);
  g_assert_false (_odori_timeline_scroll (tl, x, 1, 0));
  g_assert_true (_odori_timeline_scroll (tl, x, -2, GDK_CONTROL_MASK));
  g_assert_cmpfloat (odori_timeline_get_pixels_per_frame (tl), >, before * 1.4);
  g_assert_cmpuint (odori_timeline_frame_at_x (tl, x), ==, frame);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tl), "timeline.zoom-out", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tl), "timeline.zoom-fit", NULL));
  /* The whole dance (630 frames) is in view. */
  g_assert_cmpfloat (gtk_adjustment_get_value (h), ==, 0);
  g_assert_cmpfloat (odori_timeline_x_for_frame (tl, 631), <=, gtk_widget_get_width (GTK_WIDGET (tl)));
  g_assert_cmpfloat (odori_timeline_x_for_frame (tl, 631), >, gtk_widget_get_width (GTK_WIDGET (tl)) * 0.8);

  /* Zoomed in, playing: the view pages along with the playhead. */
  odori_timeline_set_pixels_per_frame (tl, 10, 0);
  gtk_adjustment_set_value (h, 0);
  odori_session_set_playing (window->session, TRUE);
  odori_session_set_frame (window->session, 400);
  g_assert_cmpfloat (gtk_adjustment_get_value (h), >, 0);
  x = odori_timeline_x_for_frame (tl, 400);
  g_assert_cmpfloat (x, >, 150);
  g_assert_cmpfloat (x, <, gtk_widget_get_width (GTK_WIDGET (tl)));
  odori_session_set_playing (window->session, FALSE);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Tracks: removing one keeps its symbols in the undo step; the Add Track menu lists
 * the parts without a track and puts one back where the library orders it. */
static void
test_tracks (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;
  OdoriScore *score;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  score = odori_document_get_score (doc);
  before = score_text (doc);
  g_assert_cmpuint (g_menu_model_get_n_items (G_MENU_MODEL (window->add_track_section)), ==, 1);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "no-track"));

  g_assert_true (odori_timeline_remove_track (window->timeline, LA, NULL));
  g_assert_cmpuint (score->parts->len, ==, 5);
  g_assert_cmpint (odori_score_find_part_index (score, "LA"), ==, -1);
  g_assert_null (odori_document_get_compose_error (doc));
  g_assert_cmpuint (g_menu_model_get_n_items (G_MENU_MODEL (window->add_track_section)), ==, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  text = score_text (doc);
  g_assert_cmpstr (text, ==, before);

  /* Remove RL, then add it again from the menu: an empty track at the end. */
  g_assert_true (odori_timeline_remove_track (window->timeline, RL, NULL));
  g_action_group_activate_action (G_ACTION_GROUP (window), "add-track", g_variant_new_string ("RL"));
  g_assert_cmpint (odori_score_find_part_index (score, "RL"), ==, RL);
  g_assert_cmpuint (track (doc, RL)->symbols->len, ==, 0);
  g_assert_null (odori_document_get_compose_error (doc));
  /* A second RL is refused. */
  g_assert_false (odori_timeline_add_track (window->timeline, "RL", NULL));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The inspector: the start frame of the selected symbol and the score's blend; each
 * change one undo step; a start on another symbol's is refused and shown. */
static void
test_inspector (void)
{
  OdoriWindow *window;
  OdoriDocument *doc;
  GtkSpinButton *start_spin, *blend_spin;
  g_autoptr(OdoriMotion) before = NULL;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  doc = window->document;
  start_spin = odori_inspector_get_start_spin (window->inspector);
  blend_spin = odori_inspector_get_blend_spin (window->inspector);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (start_spin)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (blend_spin), ==, 6);

  odori_timeline_select (window->timeline, LL, 193, ODORI_TIMELINE_SELECT_REPLACE);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (start_spin)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (start_spin), ==, 193);
  gtk_spin_button_set_value (start_spin, 200);
  g_assert_nonnull (symbol_at (doc, LL, 200));
  g_assert_true (odori_timeline_is_selected (window->timeline, LL, 200));
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Change Start");

  /* Onto T1's start (334): refused, the spin shows the truth again. */
  gtk_spin_button_set_value (start_spin, 334);
  g_assert_nonnull (symbol_at (doc, LL, 200));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (start_spin), ==, 200);
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->error_message), "334"));

  before = odori_motion_copy (odori_document_get_motion (doc));
  gtk_spin_button_set_value (blend_spin, 20);
  g_assert_cmpint (odori_document_get_score (doc)->blend, ==, 20);
  g_assert_false (odori_motion_equal (before, odori_document_get_motion (doc), 1e-4, 1e-3, NULL));
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_cmpint (odori_document_get_score (doc)->blend, ==, 6);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (blend_spin), ==, 6);
  g_assert_true (odori_motion_equal (before, odori_document_get_motion (doc), 1e-5, 1e-4, NULL));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Seams: the timeline has the composer's report, with the figures in a tooltip. */
static void
test_seams (void)
{
  OdoriWindow *window;
  guint n;
  double jump, clip;
  const char *from;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  n = _odori_timeline_refresh_seams (window->timeline);
  g_assert_cmpuint (n, ==, odori_document_get_seams (window->document)->len);
  /* the composer's report itself, not a copy */
  g_assert_true (window->timeline->seams == odori_document_get_seams (window->document));
  g_assert_cmpuint (n, >, 20);
  g_assert_true (odori_timeline_get_seam (window->timeline, HD, 82, &jump, &clip, &from));
  g_assert_cmpstr (from, ==, "C1");
  g_assert_cmpfloat (jump, >, 0);
  g_assert_cmpfloat (clip, >, 0);
  g_assert_false (odori_timeline_get_seam (window->timeline, HD, 1, NULL, NULL, NULL));
  gtk_window_destroy (GTK_WINDOW (window));
}

#ifdef ODORI_HAVE_RENDER
static guint8 *
grab_viewport (OdoriViewport *viewport,
               int           *width,
               int           *height)
{
  g_autoptr(GdkTexture) texture = NULL;
  guint before = odori_viewport_get_n_renders (viewport);
  guint8 *pixels;

  gtk_gl_area_queue_render (GTK_GL_AREA (viewport));
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) > before, 15000);
  texture = odori_render_widget (GTK_WIDGET (viewport));
  g_assert_nonnull (texture);
  *width = gdk_texture_get_width (texture);
  *height = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}
#endif

/* The viewport's read-back changes after an edit: the arms' motion under the playhead
 * is deleted, and the figure drawn is another. */
static void
test_viewport_follows_edit (void)
{
#ifdef ODORI_HAVE_RENDER
  OdoriWindow *window;
  OdoriViewport *viewport;
  g_autofree guint8 *a = NULL;
  g_autofree guint8 *b = NULL;
  int w, h, w2, h2;
  guint differ = 0;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  g_assert_true (ODORI_IS_VIEWPORT (window->viewport));
  viewport = ODORI_VIEWPORT (window->viewport);
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) >= 1, 15000);
  /* Frame 250: W1 (both arms up, swaying) on the arms. */
  odori_session_set_frame (window->session, 250);
  a = grab_viewport (viewport, &w, &h);
  /* Without W1 the arms hold C2's last pose (claps to the right). */
  odori_timeline_select (window->timeline, LA, 193, ODORI_TIMELINE_SELECT_REPLACE);
  odori_timeline_select (window->timeline, RA, 193, ODORI_TIMELINE_SELECT_ADD);
  g_assert_true (odori_timeline_delete_selection (window->timeline));
  g_assert_cmpuint (odori_session_get_frame (window->session), ==, 250);
  b = grab_viewport (viewport, &w2, &h2);
  g_assert_cmpint (w, ==, w2);
  g_assert_cmpint (h, ==, h2);
  for (gsize i = 0; i < (gsize) w * h; i++)
    if (ABS (a[i * 4] - b[i * 4]) + ABS (a[i * 4 + 1] - b[i * 4 + 1]) + ABS (a[i * 4 + 2] - b[i * 4 + 2]) > 60)
      differ++;
  g_test_message ("%u pixels changed", differ);
  g_assert_cmpuint (differ, >, 200);
  gtk_window_destroy (GTK_WINDOW (window));
#else
  g_test_skip ("built without the renderer");
#endif
}

static int
run_cli (const char * const *argv,
         char              **out)
{
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, NULL, &status, &error);
  g_assert_no_error (error);
  return g_spawn_check_wait_status (status, NULL) ? 0 : 1;
}

/* Edits, then Save: `odori-cli check` accepts the file, and `odori-cli compose` makes
 * of it, byte for byte, the dance the window exports (what it showed). */
static void
test_save_checks_and_recomposes (void)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autofree char *dds = test_path ("edited.dds");
  g_autofree char *cli_bva = test_path ("edited-cli.bva");
  g_autofree char *win_bva = test_path ("edited-window.bva");
  g_autofree char *index = sample_path ("motion.dat");
  g_autoptr(GFile) dds_file = g_file_new_for_path (dds);
  g_autoptr(GFile) win_file = g_file_new_for_path (win_bva);
  g_autoptr(OdoriLibraryItem) hello = NULL;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;
  g_autofree char *check_out = NULL;
  ExportResult r = { 0 };
  OdoriWindow *window;
  OdoriDocument *doc;

  SKIP_WITHOUT_DISPLAY ();
  g_assert_nonnull (cli);

  window = new_timeline_window ();
  doc = window->document;
  hello = find_item (odori_document_get_index (doc), "W2");
  odori_timeline_set_snap (window->timeline, FALSE);
  /* A drop, a move of the root track (root offsets change after it), a delete. */
  g_assert_true (emit_drop (window, hello, x_of (window, 560) + 1, y_of (window, RA)));
  /* The view went along to show the new symbol: back to the start. */
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (window->timeline)), 0);
  drag (window, x_of (window, 200), y_of (window, BD), 15 * 2.0, 4, GDK_SHIFT_MASK);
  g_assert_nonnull (symbol_at (doc, BD, 208));
  odori_timeline_select (window->timeline, LL, 334, ODORI_TIMELINE_SELECT_REPLACE);
  g_assert_true (odori_timeline_delete_selection (window->timeline));
  g_assert_true (odori_document_get_dirty (doc));

  g_assert_true (odori_window_save_to (window, dds_file));
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_false (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "• "));

  {
    const char *check[] = { cli, "check", index, dds, NULL };
    const char *compose[] = { cli, "compose", dds, "-o", cli_bva, NULL };

    g_assert_cmpint (run_cli (check, &check_out), ==, 0);
    g_test_message ("%s", check_out);
    g_assert_cmpint (run_cli (compose, NULL), ==, 0);
  }
  odori_window_export (window, win_file, export_cb, &r);
  WAIT_UNTIL (r.done, 60000);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  a = read_bytes (cli_bva);
  b = read_bytes (win_bva);
  g_assert_cmpuint (g_bytes_get_size (a), >, 100000);
  g_assert_true (g_bytes_equal (a, b));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Opening another score empties the undo stack and the selection. */
static void
test_new_score_clears_history (void)
{
  g_autofree char *sample_dds = sample_path ("sample.dds");
  g_autoptr(GFile) file = g_file_new_for_path (sample_dds);
  OdoriWindow *window;

  SKIP_WITHOUT_DISPLAY ();

  window = new_timeline_window ();
  odori_timeline_select (window->timeline, LA, 1, ODORI_TIMELINE_SELECT_REPLACE);
  g_assert_true (odori_timeline_move_selection (window->timeline, 2, NULL));
  g_assert_true (odori_undo_get_can_undo (window->undo));
  odori_autosave_discard (odori_application_get_autosave (test_app), window->document);
  g_assert_true (odori_document_open_score (window->document, sample_dds, NULL, NULL));
  g_assert_false (odori_undo_get_can_undo (window->undo));
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/timeline/move-undo-redo", test_move_undo_redo);
  g_test_add_func ("/timeline/drag-is-live-and-cancels", test_drag_is_live_and_cancels);
  g_test_add_func ("/timeline/snapping", test_snapping);
  g_test_add_func ("/timeline/drop-inserts-under-pointer", test_drop_inserts_under_pointer);
  g_test_add_func ("/timeline/drop-refused-on-wrong-part", test_drop_refused_on_wrong_part);
  g_test_add_func ("/timeline/delete-copy-paste", test_delete_copy_paste);
  g_test_add_func ("/timeline/keyboard-and-accessible", test_keyboard_and_accessible);
  g_test_add_func ("/timeline/pointer-selection-and-scrub", test_pointer_selection_and_scrub);
  g_test_add_func ("/timeline/zoom-and-follow", test_zoom_and_follow);
  g_test_add_func ("/timeline/tracks", test_tracks);
  g_test_add_func ("/timeline/inspector", test_inspector);
  g_test_add_func ("/timeline/seams", test_seams);
  g_test_add_func ("/timeline/viewport-follows-edit", test_viewport_follows_edit);
  g_test_add_func ("/timeline/save-checks-and-recomposes", test_save_checks_and_recomposes);
  g_test_add_func ("/timeline/new-score-clears-history", test_new_score_clears_history);
  return app_test_finish (g_test_run ());
}
