/* test-app-timeline-input.c: the timeline and its inspector under real pointer and key
 * events (xdotool through the X server, app-input-util.h): a drag that changes nothing
 * changes nothing, a run of nudges is one undo step, the time scale stays when the
 * selection changes, a refused drop says why after the release, moves across tracks,
 * a Shift drop on every track, the block context menu.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"
#include "app-score-util.h"

#include "odori-bva.h"
#include "odori-library-model.h"
#include "odori-library-view.h"
#include "odori-sample.h"
#include "odori-timeline-private.h"

/* The sample's tracks (sample.dds): BD HD LA RA LL RL. */
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
shown_timeline_window (void)
{
  OdoriWindow *window = new_sample_window ();

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)) &&
                  gtk_widget_get_width (GTK_WIDGET (window->timeline)) > 400,
              15000);
  pump (300);
  odori_session_set_playing (window->session, FALSE);
  odori_session_set_frame (window->session, 1);
  odori_timeline_set_pixels_per_frame (window->timeline, 2.0, 0);
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

static OdoriScoreSymbol *
symbol_at (OdoriWindow *window,
           guint        t,
           guint        start)
{
  OdoriScorePart *part = g_ptr_array_index (odori_document_get_score (window->document)->parts, t);
  int             i = odori_score_part_find_symbol (part, start);

  return i >= 0 ? &g_array_index (part->symbols, OdoriScoreSymbol, i) : NULL;
}

static gboolean
title_marked (OdoriWindow *window)
{
  return strstr (gtk_label_get_text (window->title_label), "•") != NULL;
}

/* Holds the left button at (X0, Y0) of FROM and moves in STEPS to (X1, Y1) of TO,
 * without releasing it. */
static void
press_and_move (GtkWidget *from,
                double     x0,
                double     y0,
                GtkWidget *to,
                double     x1,
                double     y1,
                guint      steps)
{
  int wx0, wy0, wx1, wy1;

  input_window_point (from, x0, y0, &wx0, &wy0);
  input_window_point (to, x1, y1, &wx1, &wy1);
  input_move (from, x0, y0);
  xdotool ((const char *[]){ "mousedown", "1", NULL });
  pump (60);
  for (guint i = 1; i <= steps; i++)
    {
      GtkWidget       *root = GTK_WIDGET (gtk_widget_get_root (from));
      double           t = (double) i / steps;
      graphene_point_t p;

      /* In the window's space, less the surface transform input_move adds back. */
      g_assert_true (gtk_widget_compute_point (from, root, &GRAPHENE_POINT_INIT ((float) x0, (float) y0), &p));
      input_move (root, p.x + t * (wx1 - wx0), p.y + t * (wy1 - wy0));
    }
}

/* Escape while the button is held (input_key's --clearmodifiers would let it go). */
static void
press_escape (GtkWidget *widget)
{
  g_autofree char *wid = input_window_id (widget);

  xdotool ((const char *[]){ "windowfocus", "--sync", wid, "key", "Escape", NULL });
  pump (150);
}

static void
release (void)
{
  xdotool ((const char *[]){ "mouseup", "1", NULL });
  pump (300);
}

/* With ODORI_TEST_SHOTS=DIR, writes WINDOW as DIR/NAME.png (the states fixed, for
 * docs/screenshots). */
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
  pump (200);
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

/* Issue 17, item 2: a drag cancelled with Escape, or brought back where it began,
 * changes nothing: no "•", nothing to undo, not dirty (closing asks nothing). Undo back
 * to the saved state clears the mark. */
static void
test_drag_that_changes_nothing (void)
{
  OdoriWindow     *window;
  GtkWidget       *tl;
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  before = score_text (window->document);
  g_assert_false (title_marked (window));

  /* Escape during the drag. */
  press_and_move (tl, x_of (window, 100), y_of (window, HD), tl, x_of (window, 100) + 60, y_of (window, HD), 5);
  press_escape (tl);
  release ();
  g_assert_null (symbol_at (window, HD, 112));
  g_assert_false (odori_document_get_dirty (window->document));
  /* With Shift held (moving freely). */
  input_drag_full (tl, x_of (window, 100), y_of (window, HD), x_of (window, 100) + 60, y_of (window, HD), 6,
                   "shift", TRUE);
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
  g_assert_false (odori_document_get_dirty (window->document));
  g_assert_false (odori_undo_get_can_undo (window->undo));
  g_assert_false (title_marked (window));

  /* With Ctrl held, onto another track (the monkey test found it moved anyway). */
  input_drag_full (tl, x_of (window, 100), y_of (window, HD), 40, y_of (window, HD) + 120, 8, "ctrl", TRUE);
  g_free (text);
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
  g_assert_false (odori_document_get_dirty (window->document));
  g_assert_false (title_marked (window));

  /* Out and back. */
  press_and_move (tl, x_of (window, 100), y_of (window, HD), tl, x_of (window, 100) + 60, y_of (window, HD), 5);
  g_assert_nonnull (symbol_at (window, HD, 112));
  g_assert_true (title_marked (window));
  press_and_move (tl, x_of (window, 100) + 60, y_of (window, HD), tl, x_of (window, 100), y_of (window, HD), 5);
  release ();
  g_free (text);
  text = score_text (window->document);
  g_assert_cmpstr (text, ==, before);
  g_assert_false (odori_document_get_dirty (window->document));
  g_assert_false (odori_undo_get_can_undo (window->undo));
  g_assert_false (title_marked (window));

  /* A real move, then Ctrl+Z: back at the saved state, no mark. */
  input_drag_full (tl, x_of (window, 100), y_of (window, HD), x_of (window, 100) + 60, y_of (window, HD), 6,
                   "shift", FALSE);
  g_assert_nonnull (symbol_at (window, HD, 112));
  g_assert_true (title_marked (window));
  input_key (tl, "ctrl+z");
  g_assert_nonnull (symbol_at (window, HD, 82));
  g_assert_false (odori_document_get_dirty (window->document));
  g_assert_false (title_marked (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Item 2: Ctrl+Right three times on one selection is one undo step; another
 * selection starts a new one. */
static void
test_nudges_merge (void)
{
  OdoriWindow *window;
  GtkWidget   *tl;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);

  input_click (tl, x_of (window, 100), y_of (window, HD), 1, 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 82));
  input_key (tl, "ctrl+Right");
  input_key (tl, "ctrl+Right");
  input_key (tl, "ctrl+Right");
  g_assert_nonnull (symbol_at (window, HD, 85));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  input_key (tl, "ctrl+Left");
  g_assert_nonnull (symbol_at (window, HD, 84));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);

  /* Another block (the next one on the track, Alt+Right): a new step. */
  input_key (tl, "alt+Right");
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 193));
  input_key (tl, "ctrl+Right");
  g_assert_nonnull (symbol_at (window, HD, 194));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 2);

  /* Undo twice: everything back where it was, clean. */
  input_key (tl, "ctrl+z");
  input_key (tl, "ctrl+z");
  g_assert_nonnull (symbol_at (window, HD, 82));
  g_assert_false (odori_document_get_dirty (window->document));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The motion of the sample with the longest description, and where one of its
 * symbols is. */
static gboolean
longest_description (OdoriWindow *window,
                     guint       *track,
                     guint       *start)
{
  OdoriScore *score = odori_document_get_score (window->document);
  OdoriIndex *index = odori_document_get_index (window->document);
  gsize       best = 0;

  for (guint t = 0; t < score->parts->len; t++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, t);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, i);
          OdoriIndexMotion *m = odori_index_lookup (index, s->symbol, NULL);
          gsize             len = m && m->exp ? strlen (m->exp) : 0;

          if (len > best && x_of (window, s->start) + 12 < gtk_widget_get_width (GTK_WIDGET (window->timeline)))
            {
              best = len;
              *track = t;
              *start = s->start;
            }
        }
    }
  return best > 0;
}

/* Item 4 and 9: the inspector keeps its width, so the timeline keeps its scale,
 * whatever is selected and during a drag; with nothing selected it shows no stale
 * start frame; during a drag it shows the dragged block. */
static void
test_inspector_keeps_scale (void)
{
  OdoriWindow *window;
  GtkWidget   *tl;
  GtkWidget   *start_spin;
  GtkLabel    *title;
  guint        track = 0, start = 0;
  int          width;
  double       x300;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  start_spin = GTK_WIDGET (odori_inspector_get_start_spin (window->inspector));
  title = GTK_LABEL (gtk_widget_get_first_child (GTK_WIDGET (window->inspector)));
  g_assert_true (longest_description (window, &track, &start));

  /* Nothing selected. */
  input_click (tl, x_of (window, 170), y_of (window, BD), 1, 1);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 0);
  pump (200);
  width = gtk_widget_get_width (tl);
  x300 = x_of (window, 300);
  g_assert_false (gtk_widget_get_visible (start_spin) && !gtk_widget_get_sensitive (start_spin));

  /* The longest description. */
  input_click (tl, x_of (window, start) + 6, y_of (window, track), 1, 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, track, start));
  pump (200);
  g_test_message ("width %d -> %d, inspector %d", width, gtk_widget_get_width (tl),
                  gtk_widget_get_width (GTK_WIDGET (window->inspector)));
  g_assert_cmpint (gtk_widget_get_width (tl), ==, width);
  g_assert_cmpfloat_with_epsilon (x_of (window, 300), x300, 0.01);
  g_assert_true (gtk_widget_get_visible (start_spin) && gtk_widget_get_sensitive (start_spin));

  /* During a drag of it: the same scale, the block in the inspector. */
  press_and_move (tl, x_of (window, start) + 6, y_of (window, track), tl, x_of (window, start) + 46,
                  y_of (window, track), 5);
  pump (200);
  g_assert_cmpint (gtk_widget_get_width (tl), ==, width);
  g_assert_null (strstr (gtk_label_get_text (title), "No symbol"));
  shot (window, "timeline-inspector-during-drag");
  g_assert_true (gtk_widget_get_visible (start_spin) && gtk_widget_get_sensitive (start_spin));
  press_escape (tl);
  release ();
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A label of WIDGET's tree whose text contains TEXT. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Item 3 and 9: a real drag and drop of the arms-only motion from the library onto a
 * leg track: refused, and the reason is in the window's bar after the release. With
 * Shift, it goes on every track that can take it (the arms and the body), as one step. */
static void
test_drop_from_library (void)
{
  g_autofree char *dat = write_arms_library ();
  g_autoptr(GFile) file = g_file_new_for_path (dat);
  g_autofree char *why = NULL;
  OdoriWindow     *window;
  OdoriScore      *score;
  GtkWidget       *tl, *row;
  int              ll, placed = 0;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  g_assert_true (odori_window_open_library (window, file));
  odori_timeline_set_pixels_per_frame (window->timeline, 2.0, 0);
  odori_library_view_set_search (window->library_view, "Arm clap");
  pump (500);
  score = odori_document_get_score (window->document);
  ll = odori_score_find_part_index (score, "LL");
  row = find_label (GTK_WIDGET (window->library_view), "Arm clap");
  g_assert_nonnull (row);
  g_signal_connect (window->timeline, "refused", G_CALLBACK (refused_cb), &why);

  press_and_move (row, 10, 5, tl, x_of (window, 10), y_of (window, ll), 10);
  pump (300);
  shot (window, "timeline-drop-refused-hover");
  release ();
  shot (window, "timeline-drop-refused-said");
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, "LeftUpLeg"));
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->error_message), "LeftUpLeg"));
  g_assert_false (odori_document_get_dirty (window->document));

  /* With Shift: every track that can take it, in one step. */
  xdotool ((const char *[]){ "keydown", "shift", NULL });
  press_and_move (row, 10, 5, tl, x_of (window, 10), y_of (window, ll), 10);
  pump (300);
  release ();
  xdotool ((const char *[]){ "keyup", "shift", NULL });
  pump (200);
  score = odori_document_get_score (window->document);
  for (guint t = 0; t < score->parts->len; t++)
    placed += ((OdoriScorePart *) g_ptr_array_index (score->parts, t))->symbols->len > 0;
  g_test_message ("placed on %d tracks", placed);
  g_assert_cmpint (placed, >=, 2);
  g_assert_cmpuint (((OdoriScorePart *) g_ptr_array_index (score->parts, ll))->symbols->len, ==, 0);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_signal_handlers_disconnect_by_data (window->timeline, &why);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether the timeline would show a tooltip at X, Y (GTK asks it so). */
static gboolean
ask_tooltip (GtkWidget *widget,
             double     x,
             double     y)
{
  g_autoptr(GObject) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);

  return GTK_WIDGET_GET_CLASS (widget)->query_tooltip (widget, (int) x, (int) y, FALSE, GTK_TOOLTIP (tooltip));
}

/* Item 9: a block dragged from one track to another; onto a track that cannot drive it,
 * refused with the reason. */
static void
test_move_across_tracks (void)
{
  OdoriWindow    *window;
  GtkWidget      *tl;
  OdoriScorePart *la;
  guint           n_la;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  la = g_ptr_array_index (odori_document_get_score (window->document)->parts, LA);
  n_la = la->symbols->len;

  /* C2 of HD (82) down to LA, 18 frames on (Shift: no snapping); 100 is no start there. */
  input_drag_full (tl, x_of (window, 90), y_of (window, HD), x_of (window, 108), y_of (window, LA), 10,
                   "shift", FALSE);
  g_assert_null (symbol_at (window, HD, 82));
  g_assert_nonnull (symbol_at (window, LA, 100));
  g_assert_cmpuint (la->symbols->len, ==, n_la + 1);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  /* No tooltip over the block just moved (it would cover the tracks below) until the
   * pointer moves on. */
  g_assert_false (ask_tooltip (tl, x_of (window, 118), y_of (window, LA)));
  input_move (tl, x_of (window, 118), y_of (window, RL));
  input_move (tl, x_of (window, 118), y_of (window, LA));
  g_assert_true (ask_tooltip (tl, x_of (window, 118), y_of (window, LA)));
  input_key (tl, "ctrl+z");
  g_assert_nonnull (symbol_at (window, HD, 82));
  g_assert_null (symbol_at (window, LA, 100));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Item 9: a right click on a block selects it and offers Cut, Copy, Delete… */
static void
test_context_menu (void)
{
  OdoriWindow *window;
  GtkWidget   *tl, *item;
  g_autoptr(GListModel) toplevels = NULL;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);

  input_click (tl, x_of (window, 100), y_of (window, HD), 3, 1);
  pump (300);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 82));
  item = find_label (tl, "Delete");
  g_assert_nonnull (item);
  g_assert_nonnull (find_label (tl, "Cut"));
  g_assert_nonnull (find_label (tl, "Copy"));
  input_click (item, 10, gtk_widget_get_height (item) / 2.0, 1, 1);
  g_assert_null (symbol_at (window, HD, 82));
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Delete");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Item 9: a click in the ruler next to a tick (below a pixel per frame, where a pixel
 * spans frames) puts the playhead on the tick's frame, and a paste lands there, not a
 * frame or more later. */
static void
test_ruler_snaps_and_paste (void)
{
  OdoriWindow *window;
  GtkWidget   *tl;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  odori_timeline_zoom_fit (window->timeline);
  shot (window, "timeline-fitted");
  odori_timeline_set_pixels_per_frame (window->timeline, 0.4, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (tl)), 0);
  pump (100);
  /* At 0.4 px per frame the ruler has ticks every 60 frames (2 s), labels every 10 s. */
  g_assert_cmpuint (_odori_timeline_ruler_tick (window->timeline), ==, 60);

  input_click (tl, x_of (window, 301) + 2, 10, 1, 1);
  g_assert_cmpuint (odori_session_get_frame (window->session), ==, 301);
  input_click (tl, x_of (window, 241) - 1, 10, 1, 1);
  g_assert_cmpuint (odori_session_get_frame (window->session), ==, 241);

  /* Copy C2 of HD (82), put the playhead on 301 by the ruler, paste: at 301. */
  input_click (tl, x_of (window, 90), y_of (window, HD), 1, 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, HD, 82));
  input_key (tl, "ctrl+c");
  input_click (tl, x_of (window, 301) + 2, 10, 1, 1);
  input_key (tl, "ctrl+v");
  g_assert_nonnull (symbol_at (window, HD, 301));
  g_assert_cmpstr (symbol_at (window, HD, 301)->symbol, ==, "C2");
  shot (window, "timeline-ruler-snapped-paste");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The order in which colour nodes of COLOR (and WIDTH, or any with 0) are drawn: the
 * index (in drawing order among all colour nodes) of the last one, or -1. */
static void
walk_colors (GskRenderNode *node,
             const GdkRGBA *color,
             float          width,
             int           *counter,
             int           *last)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_COLOR_NODE:
      {
        const GdkRGBA  *c = gsk_color_node_get_color (node);
        graphene_rect_t bounds;

        gsk_render_node_get_bounds (node, &bounds);
        if (gdk_rgba_equal (c, color) && (width == 0 || G_APPROX_VALUE (bounds.size.width, width, 0.01)))
          *last = *counter;
        (*counter)++;
      }
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk_colors (gsk_container_node_get_child (node, i), color, width, counter, last);
      break;
    case GSK_CLIP_NODE:
      walk_colors (gsk_clip_node_get_child (node), color, width, counter, last);
      break;
    case GSK_TRANSFORM_NODE:
      walk_colors (gsk_transform_node_get_child (node), color, width, counter, last);
      break;
    default:
      break;
    }
}

static int
last_color (GskRenderNode *node,
            const GdkRGBA *color,
            float          width)
{
  int counter = 0, last = -1;

  walk_colors (node, color, width, &counter, &last);
  return last;
}

/* Counts the texts drawn in the ruler (y < RULER_HEIGHT) that begin left of WIDTH
 * and end past it, cut by the edge; DX, DY: the translation so far. */
static void
walk_text (GskRenderNode *node,
           double         dx,
           double         dy,
           double         width,
           guint         *n_cut,
           guint         *n_shown)
{
  graphene_rect_t bounds;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      gsk_render_node_get_bounds (node, &bounds);
      if (bounds.origin.y + dy < RULER_HEIGHT && bounds.origin.x + dx < width)
        {
          (*n_shown)++;
          if (bounds.origin.x + dx + bounds.size.width > width + 0.5)
            (*n_cut)++;
        }
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk_text (gsk_container_node_get_child (node, i), dx, dy, width, n_cut, n_shown);
      break;
    case GSK_CLIP_NODE:
      walk_text (gsk_clip_node_get_child (node), dx, dy, width, n_cut, n_shown);
      break;
    case GSK_TRANSFORM_NODE:
      {
        GskTransform *t = gsk_transform_node_get_transform (node);
        float         tx = 0, ty = 0;

        if (gsk_transform_get_category (t) >= GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          gsk_transform_to_translate (t, &tx, &ty);
        walk_text (gsk_transform_node_get_child (node), dx + tx, dy + ty, width, n_cut, n_shown);
      }
      break;
    default:
      break;
    }
}

/* Item 9: with a labelled tick a few pixels from the right edge ("20 s · 601"), the
 * label is not cut: no ruler text reaches past the timeline's edge. */
static void
test_last_ruler_label (void)
{
  OdoriWindow *window;
  GtkWidget   *tl;
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  guint n_cut = 0, n_shown = 0;
  int   width;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  width = gtk_widget_get_width (tl);
  /* 2 px per frame: labels every 60 frames; frame 601 at 20 px from the right edge
   * (scrolled there by a real key: End puts the playhead on the last frame, and the view
   * follows it). */
  input_key (tl, "End");
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (tl)),
                            HEADER_WIDTH + 600 * 2.0 - (width - 20));
  pump (100);
  g_assert_cmpfloat_with_epsilon (x_of (window, 601), width - 20, 0.5);
  GTK_WIDGET_GET_CLASS (tl)->snapshot (tl, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  walk_text (node, 0, 0, width, &n_cut, &n_shown);
  g_test_message ("%u ruler labels shown, %u cut", n_shown, n_cut);
  g_assert_cmpuint (n_shown, >, 0);
  g_assert_cmpuint (n_cut, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Item 9: with the playhead on a seam (put there by a click in the ruler), the seam's
 * mark is drawn after (above) the playhead line. */
static void
test_seam_above_playhead (void)
{
  static const GdkRGBA playhead = { 0.89f, 0.11f, 0.14f, 1 };
  static const GdkRGBA green = { 0.18f, 0.65f, 0.35f, 1 };
  static const GdkRGBA amber = { 0.93f, 0.65f, 0.10f, 1 };
  OdoriWindow         *window;
  GtkWidget           *tl;
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  int line, mark;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_timeline_window ();
  tl = GTK_WIDGET (window->timeline);
  g_assert_cmpuint (_odori_timeline_refresh_seams (window->timeline), >, 0);
  /* C2 starts on HD at 82: a seam there. The playhead line is at the middle of its
   * frame, the mark 8 pixels wide around the frame's start: they overlap at 2 px per
   * frame. */
  input_click (tl, x_of (window, 82) + 1, 10, 1, 1);
  g_assert_cmpuint (odori_session_get_frame (window->session), ==, 82);
  GTK_WIDGET_GET_CLASS (tl)->snapshot (tl, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  line = last_color (node, &playhead, 2);
  mark = MAX (last_color (node, &green, 8), last_color (node, &amber, 8));
  g_assert_cmpint (line, >=, 0);
  g_assert_cmpint (mark, >, line);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/timeline-input/drag-that-changes-nothing", test_drag_that_changes_nothing);
  g_test_add_func ("/timeline-input/nudges-merge", test_nudges_merge);
  g_test_add_func ("/timeline-input/inspector-keeps-scale", test_inspector_keeps_scale);
  g_test_add_func ("/timeline-input/drop-from-library", test_drop_from_library);
  g_test_add_func ("/timeline-input/move-across-tracks", test_move_across_tracks);
  g_test_add_func ("/timeline-input/context-menu", test_context_menu);
  g_test_add_func ("/timeline-input/ruler-snaps-and-paste", test_ruler_snaps_and_paste);
  g_test_add_func ("/timeline-input/seam-above-playhead", test_seam_above_playhead);
  g_test_add_func ("/timeline-input/last-ruler-label", test_last_ruler_label);
  return app_test_finish (g_test_run ());
}
