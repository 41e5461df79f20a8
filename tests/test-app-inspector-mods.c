/* test-app-inspector-mods.c: the inspector's symbol modifiers and the score's foot lock
 * under real key and pointer events (xdotool through the X server, app-input-util.h),
 * issue 18: mirror, speed, in, out, repeat and an own blend of the selected symbol, each
 * one undo step that Ctrl+Z takes back exactly; spin buttons that commit on Enter or on
 * leaving them, never on a key; two symbols that differ show mixed fields and a change
 * sets all; the foot lock switch; a new score has its feet locked; the fields fit at
 * 800×600.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"
#include "app-score-util.h"

#include <glib/gi18n.h>

#include "odori-inspector.h"

/* The sample's tracks (sample.dds): BD HD LA RA LL RL. LA: C1 at 1 (81 frames), C2 at 82
 * (111 frames), W1 at 193 (141 frames). */
enum
{
  BD,
  HD,
  LA,
  RA,
  LL,
  RL
};

static OdoriWindow *
shown_window (int width,
              int height)
{
  OdoriWindow *window = new_sample_window ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)) &&
                  gtk_widget_get_width (GTK_WIDGET (window->timeline)) > 300,
              15000);
  pump (300);
  odori_session_set_playing (window->session, FALSE);
  odori_session_set_frame (window->session, 1);
  odori_timeline_set_pixels_per_frame (window->timeline, 1.5, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (window->timeline)), 0);
  pump (100);
  return window;
}

static GtkWidget *
child (OdoriWindow *window,
       const char  *id)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (window->inspector), ODORI_TYPE_INSPECTOR, id);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static OdoriScoreSymbol *
symbol_at (OdoriWindow *window,
           guint        t,
           guint        start)
{
  OdoriScorePart *part = g_ptr_array_index (odori_document_get_score (window->document)->parts, t);
  int             i = odori_score_part_find_symbol (part, start);

  g_assert_cmpint (i, >=, 0);
  return &g_array_index (part->symbols, OdoriScoreSymbol, i);
}

/* Clicks the middle of block START of track T: it alone is selected (Ctrl: added). */
static void
click_block (OdoriWindow *window,
             guint        t,
             guint        start,
             gboolean     ctrl)
{
  GtkWidget *tl = GTK_WIDGET (window->timeline);
  double     x = odori_timeline_x_for_frame (window->timeline, start + 30);
  double     y = odori_timeline_y_for_track (window->timeline, t);

  if (ctrl)
    xdotool ((const char *[]){ "keydown", "ctrl", NULL });
  input_click (tl, x, y, 1, 1);
  if (ctrl)
    xdotool ((const char *[]){ "keyup", "ctrl", NULL });
  pump (150);
  g_assert_true (odori_timeline_is_selected (window->timeline, t, start));
}

/* WIDGET is whole in the view of the scrolled window it is in. */
static gboolean
in_view (GtkWidget *widget)
{
  GtkWidget      *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t r, view;

  if (!gtk_widget_compute_bounds (widget, scroller, &r))
    return FALSE;
  view = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (scroller), gtk_widget_get_height (scroller));
  return r.origin.x >= -0.5 && r.origin.y >= -0.5 && r.origin.x + r.size.width <= view.size.width + 0.5 &&
         r.origin.y + r.size.height <= view.size.height + 0.5;
}

/* Focuses WIDGET, which scrolls the inspector to it. */
static void
focus_in_view (GtkWidget *widget)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (
      GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW)));
  double last = -1;

  g_assert_true (gtk_widget_grab_focus (widget));
  WAIT_UNTIL (in_view (widget), 3000);
  /* (the view may still be gliding there) */
  for (guint i = 0; i < 30 && gtk_adjustment_get_value (v) != last; i++)
    {
      last = gtk_adjustment_get_value (v);
      pump (100);
    }
  if (!in_view (widget))
    g_error ("%s (%s) is not in view", G_OBJECT_TYPE_NAME (widget), gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)));
}

/* Brings WIDGET into the inspector's view (focusing it scrolls there) and clicks it. */
static void
click_widget (GtkWidget *widget)
{
  focus_in_view (widget);
  input_click (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0, 1, 1);
}

static const char *
spin_text (GtkWidget *spin)
{
  return gtk_editable_get_text (GTK_EDITABLE (spin));
}

/* Focuses SPIN, selects its text and types TEXT key by key, then KEY ("Return", "Tab"
 * or NULL: none, the field keeps the focus). */
static void
type_into (GtkWidget  *spin,
           const char *text,
           const char *key)
{
  focus_in_view (spin);
  input_key (spin, "ctrl+a");
  for (const char *c = text; *c != '\0'; c++)
    {
      char name[2] = { *c, '\0' };

      input_key (spin, *c == '.' ? "period" : name);
    }
  for (guint i = 0; i < 50 && !g_str_equal (spin_text (spin), text); i++)
    pump (100);
  g_assert_cmpstr (spin_text (spin), ==, text);
  if (key != NULL)
    input_key (spin, key);
}

/* Waits for the undo stack to have STEPS steps (GTK may still have events to handle). */
#define WAIT_STEPS(window, n)                                         \
  G_STMT_START                                                        \
  {                                                                   \
    guint n_ = (n);                                                   \
                                                                      \
    WAIT_UNTIL (odori_undo_get_n_steps ((window)->undo) == n_, 5000); \
  }                                                                   \
  G_STMT_END

/* With ODORI_TEST_SHOTS=DIR, writes WINDOW as DIR/NAME.png. */
static void
shot (OdoriWindow *window,
      const char  *name)
{
  const char *dir = g_getenv ("ODORI_TEST_SHOTS");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file = NULL;

  if (dir == NULL)
    return;
  pump (300);
  texture = odori_render_widget (GTK_WIDGET (window));
  g_assert_nonnull (texture);
  file = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, file));
  g_test_message ("wrote %s", file);
}

static gboolean
score_is (OdoriWindow *window,
          const char  *text)
{
  g_autofree char *now = score_text (window->document);

  return g_str_equal (now, text);
}

/* Takes back the last step with a real Ctrl+Z (with the focus where it is) and asserts
 * the score is TEXT again. */
static void
undo_to (OdoriWindow *window,
         const char  *text)
{
  g_autofree char *now = NULL;

  input_key (GTK_WIDGET (window), "ctrl+z");
  for (guint i = 0; i < 50 && !score_is (window, text); i++)
    pump (100);
  now = score_text (window->document);
  g_assert_cmpstr (now, ==, text);
}

/* /inspector-mods/one-symbol: every modifier of one selected symbol set with real keys
 * and clicks; typing alone changes nothing, Enter or leaving the field does; each is one
 * undo step, shown in the length, and Ctrl+Z walks back through them exactly. */
static void
test_one_symbol (void)
{
  OdoriWindow      *window;
  OdoriScoreSymbol *s;
  GtkWidget        *speed, *in, *out, *repeat, *mirror, *own, *own_spin;
  GtkLabel         *length;
  GPtrArray        *texts = g_ptr_array_new_with_free_func (g_free);
  guint             steps;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window (1100, 720);
  speed = child (window, "speed_spin");
  in = child (window, "in_spin");
  out = child (window, "out_spin");
  repeat = child (window, "repeat_spin");
  mirror = child (window, "mirror_check");
  own = child (window, "own_blend_check");
  own_spin = child (window, "own_blend_spin");
  length = GTK_LABEL (child (window, "length_label"));

  /* Nothing selected: no fields. */
  g_assert_false (gtk_widget_get_visible (speed) && gtk_widget_is_drawable (speed));
  click_block (window, LA, 82, FALSE);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 1);
  g_assert_true (gtk_widget_is_drawable (child (window, "symbol_grid")));
  g_assert_cmpstr (spin_text (speed), ==, "1.00");
  g_assert_cmpstr (spin_text (in), ==, "1");
  g_assert_cmpstr (spin_text (out), ==, "111");
  g_assert_cmpstr (spin_text (repeat), ==, "1");
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (out))), ==, 111);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (mirror)));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (own)));
  g_assert_false (gtk_widget_get_sensitive (own_spin));
  g_assert_cmpstr (spin_text (own_spin), ==, "6"); /* the score's */
  g_assert_cmpstr (gtk_label_get_text (length), ==, "Length: 111 frames (3.70 s)");
  g_ptr_array_add (texts, score_text (window->document));
  steps = odori_undo_get_n_steps (window->undo);

  /* Mirror: a click. */
  click_widget (mirror);
  WAIT_STEPS (window, ++steps);
  s = symbol_at (window, LA, 82);
  g_assert_true (s->mods.mirror);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Mirror");
  g_ptr_array_add (texts, score_text (window->document));

  /* Speed: typing is not a change, Enter is. */
  type_into (speed, "0.5", NULL);
  g_assert_cmpfloat (symbol_at (window, LA, 82)->mods.speed, ==, 0);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, steps);
  input_key (speed, "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpfloat_with_epsilon (symbol_at (window, LA, 82)->mods.speed, 0.5, 1e-9);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Change Speed");
  g_assert_cmpstr (spin_text (speed), ==, "0.50");
  g_assert_cmpstr (gtk_label_get_text (length), ==, "Length: 222 frames (7.40 s)");
  g_ptr_array_add (texts, score_text (window->document));

  /* In and out, within the clip's 111 frames: out above it is its end (no out=). */
  type_into (in, "11", "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.in, ==, 11);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Trim");
  g_ptr_array_add (texts, score_text (window->document));
  type_into (out, "60", "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.out, ==, 60);
  g_assert_cmpstr (gtk_label_get_text (length), ==, "Length: 100 frames (3.33 s)");
  g_ptr_array_add (texts, score_text (window->document));
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (in))), ==, 60);
  type_into (out, "9999", "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.out, ==, 0);
  g_assert_cmpstr (spin_text (out), ==, "111");
  g_ptr_array_add (texts, score_text (window->document));
  type_into (out, "60", "Return");
  WAIT_STEPS (window, ++steps);
  g_ptr_array_add (texts, score_text (window->document));

  /* Repeat: leaving the field (Tab) commits too. */
  type_into (repeat, "3", NULL);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.repeat, ==, 0);
  input_key (repeat, "Tab");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.repeat, ==, 3);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Repeat");
  g_assert_cmpstr (gtk_label_get_text (length), ==, "Length: 3 × 100 = 300 frames (10.00 s)");
  g_ptr_array_add (texts, score_text (window->document));

  /* Own blend: the check takes the score's 6, the spin sets another. */
  click_widget (own);
  WAIT_STEPS (window, ++steps);
  s = symbol_at (window, LA, 82);
  g_assert_true (s->mods.has_blend);
  g_assert_cmpuint (s->mods.blend, ==, 6);
  g_assert_true (gtk_widget_get_sensitive (own_spin));
  g_ptr_array_add (texts, score_text (window->document));
  type_into (own_spin, "12", "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.blend, ==, 12);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Change Blend");
  g_ptr_array_add (texts, score_text (window->document));
  g_assert_nonnull (strstr (g_ptr_array_index (texts, texts->len - 1),
                            "\n82: C2 mirror speed=0.5 in=11 out=60 repeat=3 blend=12\n"));
  /* the block stays selected, as the inspector shows it */
  g_assert_true (odori_timeline_is_selected (window->timeline, LA, 82));
  g_assert_cmpint (odori_document_get_score (window->document)->blend, ==, 6);
  gtk_widget_grab_focus (own_spin);
  shot (window, "inspector-modifiers");

  /* Ctrl+Z (the focus still in a field) walks back one step at a time, exactly. */
  for (guint i = texts->len - 1; i > 0; i--)
    undo_to (window, g_ptr_array_index (texts, i - 1));
  g_assert_cmpstr (spin_text (speed), ==, "1.00");
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (mirror)));
  g_assert_false (odori_document_get_dirty (window->document));
  g_ptr_array_unref (texts);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /inspector-mods/mixed: two symbols whose modifiers differ show those fields mixed (an
 * empty spin, an inconsistent check) and the others as they are; a change sets it on
 * both in one step; an empty mixed field left alone changes nothing. */
static void
test_mixed (void)
{
  OdoriWindow     *window;
  GtkWidget       *speed, *repeat, *mirror, *start;
  g_autofree char *before = NULL;
  g_autofree char *one = NULL;
  guint            steps;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window (1100, 720);
  speed = child (window, "speed_spin");
  repeat = child (window, "repeat_spin");
  mirror = child (window, "mirror_check");
  start = GTK_WIDGET (odori_inspector_get_start_spin (window->inspector));
  before = score_text (window->document);

  /* C2 at 82: mirrored at half speed; W1 at 193 as it is. */
  click_block (window, LA, 82, FALSE);
  click_widget (mirror);
  WAIT_STEPS (window, 1);
  type_into (speed, "0.5", "Return");
  WAIT_STEPS (window, 2);
  steps = 2;
  one = score_text (window->document);

  click_block (window, LA, 193, TRUE);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 2);
  g_assert_false (gtk_widget_get_visible (start));
  g_assert_cmpstr (spin_text (speed), ==, "");
  g_assert_true (gtk_check_button_get_inconsistent (GTK_CHECK_BUTTON (mirror)));
  g_assert_cmpstr (spin_text (repeat), ==, "1");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (window, "length_label"))), "222"));

  /* An empty mixed field, entered and left: nothing. */
  g_assert_true (gtk_widget_grab_focus (speed));
  pump (100);
  input_key (speed, "Return");
  input_key (speed, "Tab");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, steps);
  g_assert_cmpstr (spin_text (speed), ==, "");

  /* A click on the mixed check mirrors both. */
  click_widget (mirror);
  WAIT_STEPS (window, ++steps);
  g_assert_true (symbol_at (window, LA, 82)->mods.mirror);
  g_assert_true (symbol_at (window, LA, 193)->mods.mirror);
  g_assert_false (gtk_check_button_get_inconsistent (GTK_CHECK_BUTTON (mirror)));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (mirror)));

  /* 0.5, the first one's value (the spin's hidden one), typed: both at 0.5. */
  type_into (speed, "0.5", "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpfloat_with_epsilon (symbol_at (window, LA, 82)->mods.speed, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (symbol_at (window, LA, 193)->mods.speed, 0.5, 1e-9);
  g_assert_cmpstr (spin_text (speed), ==, "0.50");

  /* Repeat on both, one step. */
  type_into (repeat, "2", "Return");
  WAIT_STEPS (window, ++steps);
  g_assert_cmpuint (symbol_at (window, LA, 82)->mods.repeat, ==, 2);
  g_assert_cmpuint (symbol_at (window, LA, 193)->mods.repeat, ==, 2);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (window, "length_label"))), "to"));

  /* Three Ctrl+Z: as before the two were selected together; two more, as it began. */
  input_key (GTK_WIDGET (window), "ctrl+z");
  input_key (GTK_WIDGET (window), "ctrl+z");
  undo_to (window, one);
  input_key (GTK_WIDGET (window), "ctrl+z");
  undo_to (window, before);
  g_assert_false (odori_undo_get_can_undo (window->undo));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /inspector-mods/foot-lock: the switch sets "# FootLock: on" in one undo step and
 * Ctrl+Z takes it back to no line at all; a new score (Ctrl+N) starts with it on and
 * is saved so. */
static void
test_foot_lock (void)
{
  OdoriWindow     *window;
  GtkWidget       *lock;
  OdoriScore      *score;
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = test_path ("new.dds");
  g_autofree char *saved = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window (1100, 720);
  lock = child (window, "foot_lock_switch");
  score = odori_document_get_score (window->document);
  before = score_text (window->document);
  g_assert_cmpint (score->foot_lock, ==, -1);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (lock)));

  /* The keyboard: Enter on the focused switch (Space plays the dance, wherever the
   * focus is). */
  focus_in_view (lock);
  input_key (lock, "Return");
  WAIT_STEPS (window, 1);
  g_assert_cmpint (score->foot_lock, ==, 1);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (lock)));
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Foot Lock");
  text = score_text (window->document);
  g_assert_nonnull (strstr (text, "# FootLock: on\n"));
  g_clear_pointer (&text, g_free);
  /* A click: off, written so. */
  click_widget (lock);
  WAIT_STEPS (window, 2);
  g_assert_cmpint (score->foot_lock, ==, 0);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (lock)));
  text = score_text (window->document);
  g_assert_nonnull (strstr (text, "# FootLock: off\n"));
  input_key (GTK_WIDGET (window), "ctrl+z");
  WAIT_UNTIL (score->foot_lock == 1, 5000);
  undo_to (window, before);
  g_assert_cmpint (score->foot_lock, ==, -1);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (lock)));
  g_assert_false (odori_document_get_dirty (window->document));

  /* File ▸ New on the untouched sample: here, feet locked. */
  input_key (GTK_WIDGET (window), "ctrl+n");
  score = odori_document_get_score (window->document);
  g_assert_false (odori_document_get_is_sample (window->document));
  g_assert_cmpint (score->foot_lock, ==, 1);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (lock)));
  g_assert_true (odori_document_save (window->document, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (saved, "\n# FootLock: on\n"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* WIDGET is whole inside the window and inside the inspector's scrolled window. */
static void
assert_shown_whole (GtkWidget   *widget,
                    GtkWidget   *scroller,
                    OdoriWindow *window)
{
  graphene_rect_t r, view;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &r));
  g_assert_true (gtk_widget_compute_bounds (scroller, GTK_WIDGET (window), &view));
  if (g_test_verbose ())
    g_test_message ("%s: %.0f,%.0f %.0f×%.0f in %.0f,%.0f %.0f×%.0f", G_OBJECT_TYPE_NAME (widget), r.origin.x,
                    r.origin.y, r.size.width, r.size.height, view.origin.x, view.origin.y, view.size.width,
                    view.size.height);
  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_cmpfloat (r.origin.x, >=, view.origin.x);
  g_assert_cmpfloat (r.origin.y, >=, view.origin.y - 0.5);
  g_assert_cmpfloat (r.origin.x + r.size.width, <=, view.origin.x + view.size.width + 0.5);
  g_assert_cmpfloat (r.origin.y + r.size.height, <=, view.origin.y + view.size.height + 0.5);
  g_assert_cmpfloat (view.origin.x + view.size.width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpfloat (view.origin.y + view.size.height, <=, gtk_widget_get_height (GTK_WIDGET (window)));
}

/* /inspector-mods/small-window: at 800×600 the inspector scrolls, never sideways: each
 * of its fields, focused (as Tab would), is scrolled to and shown whole, and none is narrower
 * than a number needs. */
static void
test_small_window (void)
{
  OdoriWindow *window;
  GtkWidget   *scroller;
  const char  *ids[] = { "start_spin", "speed_spin", "in_spin", "out_spin", "repeat_spin", "mirror_check",
                         "own_blend_check", "own_blend_spin", "blend_spin", "foot_lock_switch" };

  SKIP_WITHOUT_DISPLAY ();
  window = shown_window (800, 600);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (window->inspector), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scroller);
  click_block (window, LA, 82, FALSE);
  pump (300);
  /* nothing wider than the view: no label or field cut at the right */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->inspector)), <=, gtk_widget_get_width (scroller));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      GtkWidget *w = child (window, ids[i]);

      /* (the own blend, off, is shown greyed beside its check, just scrolled to) */
      if (gtk_widget_get_sensitive (w))
        focus_in_view (w);
      assert_shown_whole (w, scroller, window);
      if (GTK_IS_SPIN_BUTTON (w))
        g_assert_cmpint (gtk_widget_get_width (w), >=, 90);
    }

  /* For docs/screenshots: the symbol shaped (set here, not through the fields), the
   * inspector at its top and then at the length. */
  {
    OdoriSymbolMods mods = { .in = 11, .out = 60, .speed = 0.5, .repeat = 3, .mirror = TRUE, .has_blend = TRUE, .blend = 12 };
    OdoriScoreEdit *edit = odori_score_edit_new ("Shape");

    odori_score_edit_replace_symbol (edit, LA, symbol_at (window, LA, 82), LA, 82, &mods);
    g_assert_true (odori_undo_apply (window->undo, edit, NULL));
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 0);
    pump (200);
    shot (window, "inspector-800x600-top");
    focus_in_view (child (window, "own_blend_spin"));
    {
      GtkAdjustment  *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
      graphene_rect_t r;

      g_assert_true (gtk_widget_compute_bounds (child (window, "seam_label"), GTK_WIDGET (window->inspector), &r));
      gtk_adjustment_clamp_page (v, r.origin.y + r.size.height - gtk_adjustment_get_page_size (v), r.origin.y + r.size.height);
    }
    shot (window, "inspector-800x600-length");
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  /* (the pictures in another language: ODORI_TEST_LOCALEDIR=build/po LANGUAGE=ja) */
  if (g_getenv ("ODORI_TEST_LOCALEDIR") != NULL)
    {
      bindtextdomain (GETTEXT_PACKAGE, g_getenv ("ODORI_TEST_LOCALEDIR"));
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }
  if (have_display && !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    g_error ("the inspector tests send X events: run under an X server (xvfb-run)");
  g_test_add_func ("/inspector-mods/one-symbol", test_one_symbol);
  g_test_add_func ("/inspector-mods/mixed", test_mixed);
  g_test_add_func ("/inspector-mods/foot-lock", test_foot_lock);
  g_test_add_func ("/inspector-mods/small-window", test_small_window);
  return app_test_finish (g_test_run ());
}
