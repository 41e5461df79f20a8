/* test-app-modifiers.c: shaping symbols in the timeline under real pointer and key events
 * (xdotool through the X server, app-input-util.h), issue 18: a block's edges trim it,
 * with Ctrl they change its speed, its ramp is its own blend, M mirrors, + and − change
 * the repeat count, a block goes to another track that can drive it. Each is one undo
 * step, and undoing it gives back the score exactly. Blocks are as long as r·m and draw
 * their repeats, their mirror and their blend.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"
#include "app-score-util.h"

#include "odori-bva.h"
#include "odori-sample.h"
#include "odori-timeline-private.h"

/* The sample's tracks (sample.dds): BD HD LA RA LL RL. HD: C1 at 1 (81 frames), C2 at 82
 * (111 frames), W1 at 193. */
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
shown_timeline_window (double ppf)
{
  OdoriWindow *window = new_sample_window ();

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)) &&
                  gtk_widget_get_width (GTK_WIDGET (window->timeline)) > 400,
              15000);
  pump (300);
  odori_session_set_playing (window->session, FALSE);
  odori_session_set_frame (window->session, 1);
  odori_timeline_set_pixels_per_frame (window->timeline, ppf, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (window->timeline)), 0);
  pump (100);
  return window;
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

/* The top of track T's blocks. */
static double
block_top (OdoriWindow *window,
           guint        t)
{
  return y_of (window, t) - ROW_HEIGHT / 2.0 + BLOCK_INSET;
}

static OdoriScoreSymbol *
symbol_at (OdoriWindow *window,
           guint        t,
           guint        start)
{
  OdoriScorePart *part = g_ptr_array_index (odori_document_get_score (window->document)->parts, t);
  int             i = odori_score_part_find_symbol (part, start);

  return i >= 0 ? &g_array_index (part->symbols, OdoriScoreSymbol, i) : NULL;
}

/* The modifiers of the symbol at START of track T as the score writes them. */
static char *
mods_of (OdoriWindow *window,
         guint        t,
         guint        start)
{
  OdoriScoreSymbol *s = symbol_at (window, t, start);

  g_assert_nonnull (s);
  return odori_symbol_mods_to_string (&s->mods);
}

/* Undoes with a real Ctrl+Z and checks the score is BEFORE again, byte for byte. */
static void
undo_restores (OdoriWindow *window,
               const char  *before)
{
  g_autofree char *text = NULL;

  input_key (GTK_WIDGET (window->timeline), "ctrl+z");
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
}

/* Drags with the left button held, from (X0, Y) to (X1, Y) of the timeline, MODIFIER
 * held, ESCAPE pressed before the release. */
static void
drag_x (OdoriWindow *window,
        double       x0,
        double       x1,
        double       y,
        const char  *modifier,
        gboolean     escape)
{
  input_drag_full (GTK_WIDGET (window->timeline), x0, y, x1, y, 8, modifier, escape);
}

/* The drawing: the timeline's render node. */
static GskRenderNode *
timeline_node (OdoriWindow *window)
{
  GtkWidget   *tl = GTK_WIDGET (window->timeline);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  pump (100);
  GTK_WIDGET_GET_CLASS (tl)->snapshot (tl, snapshot);
  return gtk_snapshot_free_to_node (snapshot);
}

/* Colour nodes of COLOR and WIDTH between X0 and X1 and rows Y0..Y1: their count, and
 * the left of the last one in *LEFT. */
static void
walk_marks (GskRenderNode *node,
            const GdkRGBA *color,
            float          width,
            double         x0,
            double         x1,
            double         y0,
            double         y1,
            guint         *count,
            double        *left)
{
  graphene_rect_t b;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_COLOR_NODE:
      gsk_render_node_get_bounds (node, &b);
      if (gdk_rgba_equal (gsk_color_node_get_color (node), color) &&
          G_APPROX_VALUE (b.size.width, width, 0.01) && b.origin.x >= x0 && b.origin.x <= x1 &&
          b.origin.y >= y0 && b.origin.y <= y1)
        {
          (*count)++;
          *left = b.origin.x;
        }
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk_marks (gsk_container_node_get_child (node, i), color, width, x0, x1, y0, y1, count, left);
      break;
    case GSK_CLIP_NODE:
      walk_marks (gsk_clip_node_get_child (node), color, width, x0, x1, y0, y1, count, left);
      break;
    default:
      break;
    }
}

/* Text nodes (translated to X, Y) between X0 and X1 in the rows Y0..Y1. */
static void
walk_texts (GskRenderNode *node,
            double         dx,
            double         dy,
            double         x0,
            double         x1,
            double         y0,
            double         y1,
            guint         *count)
{
  graphene_rect_t b;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      gsk_render_node_get_bounds (node, &b);
      if (b.origin.x + dx >= x0 && b.origin.x + dx <= x1 && b.origin.y + dy >= y0 && b.origin.y + dy <= y1)
        (*count)++;
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk_texts (gsk_container_node_get_child (node, i), dx, dy, x0, x1, y0, y1, count);
      break;
    case GSK_CLIP_NODE:
      walk_texts (gsk_clip_node_get_child (node), dx, dy, x0, x1, y0, y1, count);
      break;
    case GSK_TRANSFORM_NODE:
      {
        GskTransform *t = gsk_transform_node_get_transform (node);
        float         tx = 0, ty = 0;

        if (gsk_transform_get_category (t) >= GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          gsk_transform_to_translate (t, &tx, &ty);
        walk_texts (gsk_transform_node_get_child (node), dx + tx, dy + ty, x0, x1, y0, y1, count);
      }
      break;
    default:
      break;
    }
}

static const GdkRGBA repeat_mark = { 1, 1, 1, 0.85f };
static const GdkRGBA knob_edge = { 0, 0, 0, 0.55f };
static const GdkRGBA refused_tint = { 0.89f, 0.11f, 0.14f, 0.16f };

/* Repeat marks drawn on track T between frames F0 and F1. */
static guint
n_repeat_marks (OdoriWindow *window,
                guint        t,
                guint        f0,
                guint        f1)
{
  g_autoptr(GskRenderNode) node = timeline_node (window);
  guint  count = 0;
  double left = 0;

  walk_marks (node, &repeat_mark, 1, x_of (window, f0), x_of (window, f1), block_top (window, t),
              block_top (window, t) + ROW_HEIGHT, &count, &left);
  return count;
}

/* With ODORI_TEST_SHOTS=DIR, writes WINDOW as DIR/NAME.png. */
static void
shot (OdoriWindow *window,
      const char  *name)
{
  const char *dir = g_getenv ("ODORI_TEST_SHOTS");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *file = NULL;
  int              w = gtk_widget_get_width (GTK_WIDGET (window)), h = gtk_widget_get_height (GTK_WIDGET (window));

  if (dir == NULL)
    return;
  pump (300);
  paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, (float) w, (float) h));
  file = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, file));
}

/* The right edge trims the end (out=), the start stays; the left edge trims the start
 * (in=), the block's start moves with it and its end stays. Escape cancels. The pointer
 * over an edge is a resize cursor. */
static void
test_edge_trims (void)
{
  OdoriWindow     *window;
  GtkWidget       *tl;
  g_autofree char *before = NULL;
  g_autofree char *mods = NULL;
  g_autofree char *text = NULL;
  GdkCursor       *cursor;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (1.0);
  tl = GTK_WIDGET (window->timeline);
  before = score_text (window->document);

  input_move (tl, x_of (window, 193) - 2, y_of (window, HD));
  cursor = gtk_widget_get_cursor (tl);
  g_assert_nonnull (cursor);
  g_assert_cmpstr (gdk_cursor_get_name (cursor), ==, "ew-resize");
  input_move (tl, x_of (window, 140), y_of (window, HD));
  g_assert_null (gtk_widget_get_cursor (tl));

  /* Right edge of C2 (82, 111 frames), 30 frames in: out=81. */
  drag_x (window, x_of (window, 193) - 2, x_of (window, 163) - 2, y_of (window, HD), NULL, FALSE);
  mods = mods_of (window, HD, 82);
  g_assert_cmpstr (mods, ==, " out=81");
  g_assert_cmpuint (_odori_timeline_symbol_end (window->timeline, symbol_at (window, HD, 82)), ==, 163);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Trim");
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 82));
  undo_restores (window, before);

  /* Left edge of C2, 20 frames on: in=21, the block starts at 102 and still ends at 193
   * (each clip frame plays when it did). */
  drag_x (window, x_of (window, 82) + 2, x_of (window, 102) + 2, y_of (window, HD), NULL, FALSE);
  g_assert_null (symbol_at (window, HD, 82));
  g_clear_pointer (&mods, g_free);
  mods = mods_of (window, HD, 102);
  g_assert_cmpstr (mods, ==, " in=21");
  g_assert_cmpuint (_odori_timeline_symbol_end (window->timeline, symbol_at (window, HD, 102)), ==, 193);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 102));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  undo_restores (window, before);

  /* Escape during an edge drag: nothing changed, nothing recorded. */
  drag_x (window, x_of (window, 193) - 2, x_of (window, 150), y_of (window, HD), NULL, TRUE);
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
  g_assert_false (odori_undo_get_can_undo (window->undo));
  g_assert_false (odori_document_get_dirty (window->document));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* With Ctrl, the right edge changes the speed (the start stays), the left edge too (the
 * end stays); the trimmed clip is the same. */
static void
test_ctrl_edge_speed (void)
{
  OdoriWindow     *window;
  g_autofree char *before = NULL;
  g_autofree char *mods = NULL;
  g_autofree char *text = NULL;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (1.0);
  g_test_message ("timeline %d px wide", gtk_widget_get_width (GTK_WIDGET (window->timeline)));
  before = score_text (window->document);

  /* C2 of HD stretched to 222 frames: half speed. */
  drag_x (window, x_of (window, 193) - 2, x_of (window, 304) - 2, y_of (window, HD), "ctrl", FALSE);
  mods = mods_of (window, HD, 82);
  g_assert_cmpstr (mods, ==, " speed=0.5");
  g_assert_cmpuint (_odori_timeline_symbol_end (window->timeline, symbol_at (window, HD, 82)), ==, 82 + 222);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Change Speed");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  undo_restores (window, before);

  /* C2 of LA from its left edge, 37 frames on: 74 frames, speed 1.5, ending at 193. */
  drag_x (window, x_of (window, 82) + 2, x_of (window, 119) + 2, y_of (window, LA), "ctrl", FALSE);
  g_assert_null (symbol_at (window, LA, 82));
  g_clear_pointer (&mods, g_free);
  mods = mods_of (window, LA, 119);
  g_assert_cmpstr (mods, ==, " speed=1.5");
  g_assert_cmpuint (_odori_timeline_symbol_end (window->timeline, symbol_at (window, LA, 119)), ==, 193);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  undo_restores (window, before);

  /* Held Ctrl and Escape: cancelled. */
  drag_x (window, x_of (window, 193) - 2, x_of (window, 260), y_of (window, HD), "ctrl", TRUE);
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
  g_assert_false (odori_undo_get_can_undo (window->undo));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* M mirrors the selection and back; the mirror glyph is drawn before the code. */
static void
test_mirror_key (void)
{
  OdoriWindow     *window;
  GtkWidget       *tl;
  g_autofree char *before = NULL;
  g_autofree char *mods = NULL;
  guint            plain = 0, mirrored = 0;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (1.0);
  tl = GTK_WIDGET (window->timeline);
  before = score_text (window->document);
  {
    g_autoptr(GskRenderNode) node = timeline_node (window);

    walk_texts (node, 0, 0, x_of (window, 82), x_of (window, 193), block_top (window, HD),
                block_top (window, HD) + ROW_HEIGHT, &plain);
  }

  input_click (tl, x_of (window, 140), y_of (window, HD), 1, 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 82));
  input_key (tl, "m");
  mods = mods_of (window, HD, 82);
  g_assert_cmpstr (mods, ==, " mirror");
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Mirror");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  {
    g_autoptr(GskRenderNode) node = timeline_node (window);

    walk_texts (node, 0, 0, x_of (window, 82), x_of (window, 193), block_top (window, HD),
                block_top (window, HD) + ROW_HEIGHT, &mirrored);
  }
  g_assert_cmpuint (mirrored, ==, plain + 1);
  shot (window, "modifiers-mirror");

  /* Again: back to unmirrored, a second step. */
  input_key (tl, "m");
  g_clear_pointer (&mods, g_free);
  mods = mods_of (window, HD, 82);
  g_assert_cmpstr (mods, ==, "");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 2);
  input_key (tl, "ctrl+z");
  undo_restores (window, before);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* + (and =, KP_Add) and − (KP_Subtract) change the repeat count; the block is r times as
 * long, with a mark where each copy begins. */
static void
test_repeat_keys (void)
{
  static const struct
  {
    const char *key;
    const char *mods;
    guint       r;
  } steps[] = {
    { "plus", " repeat=2", 2 },
    { "equal", " repeat=3", 3 },
    { "KP_Add", " repeat=4", 4 },
    { "minus", " repeat=3", 3 },
    { "KP_Subtract", " repeat=2", 2 },
    { "minus", "", 1 },
  };
  OdoriWindow     *window;
  GtkWidget       *tl;
  g_autofree char *before = NULL;
  OdoriMotion     *motion;
  guint            n_frames;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (0.3);
  tl = GTK_WIDGET (window->timeline);
  before = score_text (window->document);
  motion = odori_document_get_motion (window->document);
  n_frames = motion ? motion->n_frames : 0;

  /* R1 of HD, the last symbol (530, 101 frames): its repeats make the dance longer. */
  input_click (tl, x_of (window, 580), y_of (window, HD), 1, 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 530));
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_autofree char *mods = NULL;
      guint            r = steps[i].r;

      input_key (tl, steps[i].key);
      mods = mods_of (window, HD, 530);
      g_test_message ("%s: %s", steps[i].key, mods);
      g_assert_cmpstr (mods, ==, steps[i].mods);
      g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, i + 1);
      g_assert_cmpuint (_odori_timeline_symbol_end (window->timeline, symbol_at (window, HD, 530)), ==,
                        530 + r * 101);
      g_assert_cmpuint (n_repeat_marks (window, HD, 531, 530 + 4 * 101), ==, r - 1);
      if (i == 0)
        {
          /* The composed dance, once the composer knows repeat=. */
          motion = odori_document_get_motion (window->document);
          g_test_message ("composed %u frames, before %u", motion ? motion->n_frames : 0, n_frames);
          g_assert_nonnull (motion);
          g_assert_cmpuint (motion->n_frames, ==, n_frames + 101);
        }
    }
  /* Once is the least. */
  input_key (tl, "minus");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, G_N_ELEMENTS (steps));
  for (guint i = 1; i < G_N_ELEMENTS (steps); i++)
    input_key (tl, "ctrl+z");
  undo_restores (window, before);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The blend ramp's handle dragged: the symbol's own blend=, one step. */
static void
test_blend_ramp (void)
{
  OdoriWindow     *window;
  g_autofree char *before = NULL;
  g_autofree char *mods = NULL;
  guint            count = 0;
  double           left = 0;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (2.0);
  before = score_text (window->document);

  /* C2 of HD blends from C1 over the score's 6 frames: the handle is at 88. */
  drag_x (window, x_of (window, 88), x_of (window, 108), block_top (window, HD) + 3, NULL, FALSE);
  mods = mods_of (window, HD, 82);
  g_assert_cmpstr (mods, ==, " blend=26");
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Change Blend");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  {
    g_autoptr(GskRenderNode) node = timeline_node (window);

    walk_marks (node, &knob_edge, 6, x_of (window, 82), x_of (window, 193), block_top (window, HD) - 2,
                block_top (window, HD) + 2, &count, &left);
  }
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpfloat_with_epsilon (left, x_of (window, 108) - 3, 0.5);
  undo_restores (window, before);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A block dragged to another track: with its modifiers when that track can drive it;
 * refused (the track tinted, nothing changed) when it cannot. */
static void
test_cross_track (void)
{
  g_autofree char *dat = write_arms_library ();
  g_autoptr(GFile) file = g_file_new_for_path (dat);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *mods = NULL;
  g_autofree char *text = NULL;
  g_autofree char *why = NULL;
  OdoriWindow     *window;
  GtkWidget       *tl;
  guint            count = 0;
  double           left = 0;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (0.3);
  tl = GTK_WIDGET (window->timeline);
  g_assert_true (odori_window_open_library (window, file));
  odori_timeline_set_pixels_per_frame (window->timeline, 0.3, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (tl)), 0);
  pump (300);
  g_signal_connect (window->timeline, "refused", G_CALLBACK (refused_cb), &why);

  /* The arms-only A9 on LA at 650, mirrored (M), then dragged to RA: it goes, mirrored. */
  g_assert_true (odori_timeline_insert (window->timeline, LA, 650, "A9", &error));
  g_assert_no_error (error);
  input_click (tl, x_of (window, 690), y_of (window, LA), 1, 1);
  input_key (tl, "m");
  before = score_text (window->document);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 2);
  input_drag_full (tl, x_of (window, 690), y_of (window, LA), x_of (window, 690), y_of (window, RA), 10, "shift",
                   FALSE);
  g_assert_null (symbol_at (window, LA, 650));
  mods = mods_of (window, RA, 650);
  g_assert_cmpstr (mods, ==, " mirror");
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 3);
  undo_restores (window, before);
  g_assert_nonnull (symbol_at (window, LA, 650));

  /* Onto the head's track (Neck, Head: not in the arms' show) it is refused: the track is tinted while the pointer is over it,
   * the release says why, the score is as it was. */
  input_move (tl, x_of (window, 690), y_of (window, LA));
  xdotool ((const char *[]){ "keydown", "shift", NULL });
  xdotool ((const char *[]){ "mousedown", "1", NULL });
  pump (60);
  for (guint i = 1; i <= 10; i++)
    input_move (tl, x_of (window, 690), y_of (window, LA) + i * (y_of (window, HD) - y_of (window, LA)) / 10);
  g_assert_nonnull (window->timeline->drag_refusal);
  {
    g_autoptr(GskRenderNode) node = timeline_node (window);

    walk_marks (node, &refused_tint, gtk_widget_get_width (tl) - HEADER_WIDTH, 0, HEADER_WIDTH + 1,
                y_of (window, HD) - ROW_HEIGHT, y_of (window, HD), &count, &left);
  }
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (gdk_cursor_get_name (gtk_widget_get_cursor (tl)), ==, "not-allowed");
  shot (window, "modifiers-refused");
  xdotool ((const char *[]){ "mouseup", "1", NULL });
  xdotool ((const char *[]){ "keyup", "shift", NULL });
  pump (300);
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, "Head"));
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
  /* Nothing recorded: the last step is still the mirror. */
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Mirror");
  g_signal_handlers_disconnect_by_data (window->timeline, &why);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A score with mirrored, repeated, trimmed, sped-up and blended blocks, for the eye
 * (ODORI_TEST_SHOTS=DIR writes DIR/modifiers-score.png); the lengths are r·m. */
static void
test_shaped_score (void)
{
  OdoriWindow *window;
  OdoriScore  *score;
  g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Shape");
  g_autoptr(GError) error = NULL;
  OdoriSymbolMods mirror = { .mirror = TRUE };
  OdoriSymbolMods repeat = { .out = 40, .repeat = 2, .mirror = TRUE };
  OdoriSymbolMods trim = { .in = 11, .out = 60 };
  OdoriSymbolMods fast = { .speed = 2, .has_blend = TRUE, .blend = 20 };

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window (1.0);
  score = odori_document_get_score (window->document);
  odori_score_edit_replace_symbol (edit, HD, symbol_at (window, HD, 82), HD, 82, &mirror);
  odori_score_edit_replace_symbol (edit, LA, symbol_at (window, LA, 82), LA, 82, &repeat);
  odori_score_edit_replace_symbol (edit, RA, symbol_at (window, RA, 82), RA, 82, &trim);
  odori_score_edit_replace_symbol (edit, BD, symbol_at (window, BD, 193), BD, 193, &fast);
  g_assert_true (odori_undo_apply (window->undo, g_steal_pointer (&edit), &error));
  g_assert_no_error (error);
  g_assert_true (odori_document_get_score (window->document) == score);
  g_assert_cmpuint (_odori_timeline_symbol_length (window->timeline, symbol_at (window, LA, 82)), ==, 2 * 40);
  g_assert_cmpuint (_odori_timeline_symbol_length (window->timeline, symbol_at (window, RA, 82)), ==, 50);
  g_assert_cmpuint (_odori_timeline_symbol_length (window->timeline, symbol_at (window, BD, 193)), ==, 71);
  /* LA's C2, its first 40 frames twice: a mark at 122. */
  g_assert_cmpuint (n_repeat_marks (window, LA, 83, 190), ==, 1);
  odori_timeline_select (window->timeline, LA, 82, ODORI_TIMELINE_SELECT_REPLACE);
  shot (window, "modifiers-score");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/modifiers/edge-trims", test_edge_trims);
  g_test_add_func ("/modifiers/ctrl-edge-speed", test_ctrl_edge_speed);
  g_test_add_func ("/modifiers/mirror-key", test_mirror_key);
  g_test_add_func ("/modifiers/repeat-keys", test_repeat_keys);
  g_test_add_func ("/modifiers/blend-ramp", test_blend_ramp);
  g_test_add_func ("/modifiers/cross-track", test_cross_track);
  g_test_add_func ("/modifiers/shaped-score", test_shaped_score);
  return app_test_finish (g_test_run ());
}
