/* test-app-beats.c: the timeline with a beat grid, under real pointer and key events
 * (xdotool, app-input-util.h): the ruler's counts at the beats' frames and its labels
 * never overlapping at any zoom, a dragged block snapping to a beat (and not with
 * Shift), T tapped at a known interval giving the tempo in one undo step, the downbeat
 * dragged on the ruler (undo and Escape put it back), a beat of a beat list dragged
 * (the .beats file follows; Ctrl+Z and Escape put it back), the meter, and the
 * inspector's bar and count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"

#include <math.h>

#include "odori-beats.h"
#include "odori-timeline-private.h"

#define TEMPO    120.0
#define DOWNBEAT 0.5
#define METER    4

/* Sets the music lines of WINDOW's score (one edit), then empties the undo stack. */
static void
set_music (OdoriWindow *window,
           double       tempo,
           double       downbeat,
           guint        meter)
{
  OdoriScore     *score = odori_document_get_score (window->document);
  OdoriScoreMusic after = { 0 };
  OdoriScoreEdit *edit = odori_score_edit_new ("Music");
  g_autoptr(GError) error = NULL;

  odori_score_music_copy (&score->music, &after);
  after.tempo = tempo;
  after.has_downbeat = TRUE;
  after.downbeat = downbeat;
  after.meter = meter;
  odori_score_edit_set_music (edit, &score->music, &after);
  g_assert_true (odori_undo_apply (window->undo, edit, &error));
  g_assert_no_error (error);
  odori_score_music_clear (&after);
  odori_undo_clear (window->undo);
}

static OdoriWindow *
shown_beats_window (double ppf)
{
  OdoriWindow *window = new_sample_window ();

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)) &&
                  gtk_widget_get_width (GTK_WIDGET (window->timeline)) > 400,
              15000);
  pump (300);
  set_music (window, TEMPO, DOWNBEAT, METER);
  odori_session_set_playing (window->session, FALSE);
  odori_session_set_frame (window->session, 1);
  odori_timeline_set_pixels_per_frame (window->timeline, ppf, 0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (window->timeline)), 0);
  pump (100);
  return window;
}

static OdoriScore *
score_of (OdoriWindow *window)
{
  return odori_document_get_score (window->document);
}

static double
x_of (OdoriWindow *window,
      double       frame)
{
  return odori_timeline_x_for_frame (window->timeline, frame);
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

/* The bounds of the text nodes whose top is in rows Y0..Y1 (graphene_rect_t). */
static void
walk_texts (GskRenderNode *node,
            double         dx,
            double         dy,
            double         y0,
            double         y1,
            GArray        *out)
{
  graphene_rect_t b;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      gsk_render_node_get_bounds (node, &b);
      b.origin.x += (float) dx;
      b.origin.y += (float) dy;
      if (b.origin.y + b.size.height / 2 >= y0 && b.origin.y + b.size.height / 2 <= y1)
        g_array_append_val (out, b);
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk_texts (gsk_container_node_get_child (node, i), dx, dy, y0, y1, out);
      break;
    case GSK_CLIP_NODE:
      walk_texts (gsk_clip_node_get_child (node), dx, dy, y0, y1, out);
      break;
    case GSK_TRANSFORM_NODE:
      {
        GskTransform *t = gsk_transform_node_get_transform (node);
        float         tx = 0, ty = 0;

        if (gsk_transform_get_category (t) >= GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          gsk_transform_to_translate (t, &tx, &ty);
        walk_texts (gsk_transform_node_get_child (node), dx + tx, dy + ty, y0, y1, out);
      }
      break;
    default:
      break;
    }
}

static int
compare_left (gconstpointer a,
              gconstpointer b)
{
  const graphene_rect_t *ra = a, *rb = b;

  return (ra->origin.x > rb->origin.x) - (ra->origin.x < rb->origin.x);
}

/* The labels of the ruler's row of beats, left to right. */
static GArray *
beat_labels (OdoriWindow *window)
{
  g_autoptr(GskRenderNode) node = timeline_node (window);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));

  walk_texts (node, 0, 0, RULER_HEIGHT / 2.0, RULER_HEIGHT, out);
  g_array_sort (out, compare_left);
  return out;
}

static void
assert_no_overlap (GArray *labels)
{
  for (guint i = 1; i < labels->len; i++)
    {
      graphene_rect_t *a = &g_array_index (labels, graphene_rect_t, i - 1);
      graphene_rect_t *b = &g_array_index (labels, graphene_rect_t, i);

      g_assert_cmpfloat (a->origin.x + a->size.width, <=, b->origin.x + 0.01);
    }
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

/* The grid follows the music lines: beat k at frame round ((0.5 + k/2) / frame time) + 1. */
static void
test_grid (void)
{
  OdoriWindow   *window;
  OdoriBeatGrid *grid;
  double         ft;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_beats_window (2.0);
  grid = odori_timeline_get_beat_grid (window->timeline);
  g_assert_nonnull (grid);
  ft = odori_timeline_get_frame_time (window->timeline);
  for (gint64 k = -2; k < 40; k++)
    g_assert_cmpint (odori_beat_grid_beat_frame (grid, k), ==,
                     (gint64) round ((DOWNBEAT + k * 60.0 / TEMPO) / ft) + 1);
  g_assert_cmpuint (odori_beat_grid_get_meter (grid), ==, METER);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Zoomed in, a count at every beat in view, right of its beat's frame; zoomed out, bar
 * numbers, never overlapping; at the widest zoom only a few labels. */
static void
test_ruler_counts (void)
{
  OdoriWindow   *window;
  OdoriBeatGrid *grid;
  g_autoptr(GArray) labels = NULL;
  int                 width;
  gint64              first, last;
  guint               expected = 0, found = 0;
  static const double zooms[] = { 4.0, 1.0, 0.5, 0.3, 0.1, 0.03, 0.01, 0.002, MIN_PPF };

  SKIP_WITHOUT_DISPLAY ();
  window = shown_beats_window (2.0);
  grid = odori_timeline_get_beat_grid (window->timeline);
  width = gtk_widget_get_width (GTK_WIDGET (window->timeline));
  labels = beat_labels (window);
  g_assert_true (odori_beat_grid_beats_in_frames (grid, 1, (gint64) _odori_timeline_frame_at_x_exact (window->timeline, width),
                                                  &first, &last));
  /* 15 frames a beat at 30 fps, 30 pixels: every beat is labelled. */
  for (gint64 k = first; k <= last; k++)
    {
      double x = x_of (window, (double) odori_beat_grid_beat_frame (grid, k));

      if (x + 2 < HEADER_WIDTH || x + 14 > width)
        continue;
      expected++;
      for (guint i = 0; i < labels->len; i++)
        {
          graphene_rect_t *r = &g_array_index (labels, graphene_rect_t, i);

          if (r->origin.x >= x + 1 && r->origin.x <= x + 5)
            {
              found++;
              break;
            }
        }
    }
  g_assert_cmpuint (expected, >=, 10);
  g_assert_cmpuint (found, ==, expected);
  assert_no_overlap (labels);
  g_clear_pointer (&labels, g_array_unref);

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      odori_timeline_set_pixels_per_frame (window->timeline, zooms[z], HEADER_WIDTH);
      labels = beat_labels (window);
      g_test_message ("ppf %g: %u labels", zooms[z], labels->len);
      if (zooms[z] == 0.3)
        shot (window, "beats-bars");
      g_assert_cmpuint (labels->len, >=, 1);
      g_assert_cmpuint (labels->len, <=, (guint) (width / 10));
      assert_no_overlap (labels);
      g_clear_pointer (&labels, g_array_unref);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A track with a symbol it can move to TARGET (a beat's frame + OFF): nothing else there,
 * and no other block's edge nor the playhead within snapping distance. */
static gboolean
find_move (OdoriWindow *window,
           int          off,
           guint       *track,
           guint       *start,
           guint       *target)
{
  OdoriBeatGrid *grid = odori_timeline_get_beat_grid (window->timeline);
  OdoriScore    *score = score_of (window);
  double         ppf = odori_timeline_get_pixels_per_frame (window->timeline);
  int            width = gtk_widget_get_width (GTK_WIDGET (window->timeline));
  double         near = (SNAP_PX + 2) / ppf;

  for (guint t = 0; t < score->parts->len; t++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, t);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, i);
          guint             n = _odori_timeline_symbol_length (window->timeline, s);

          if (x_of (window, s->start) < HEADER_WIDTH + 20 || x_of (window, s->start + n / 2.0) > width - 40 ||
              n * ppf < 30)
            continue;
          for (gint64 k = 1; k < 200; k++)
            {
              gint64   to = odori_beat_grid_beat_frame (grid, k) + off;
              gboolean clear = TRUE;

              if (to == s->start || labs ((long) (to - s->start)) * ppf < 20 ||
                  x_of (window, (double) to + n / 2.0) > width - 40 || x_of (window, (double) to) < HEADER_WIDTH + 20)
                continue;
              /* (nor the block's own edges where it was, for a drop beside it) */
              if (fabs ((double) to - 1) < near || fabs ((double) (s->start + n) - to) < near + 4 ||
                  fabs ((double) s->start - (double) (to + n)) < near + 4)
                continue;
              for (guint u = 0; u < score->parts->len && clear; u++)
                {
                  OdoriScorePart *p = g_ptr_array_index (score->parts, u);

                  for (guint j = 0; j < p->symbols->len && clear; j++)
                    {
                      OdoriScoreSymbol *o = &g_array_index (p->symbols, OdoriScoreSymbol, j);
                      guint             e = _odori_timeline_symbol_end (window->timeline, o);

                      if (o == s)
                        continue;
                      if (fabs ((double) o->start - to) < near + 1 || fabs ((double) e - to) < near + 1 ||
                          fabs ((double) o->start - (to + n)) < near + 1 || fabs ((double) e - (to + n)) < near + 1 ||
                          (u == t && o->start == (guint) to))
                        clear = FALSE;
                    }
                }
              if (clear)
                {
                  *track = t;
                  *start = s->start;
                  *target = (guint) to;
                  return TRUE;
                }
            }
        }
    }
  return FALSE;
}

/* A block dragged to 3 frames after a beat lands on the beat, as a drop there would;
 * with Shift it lands where the pointer put it. */
static void
test_snap_drag (void)
{
  OdoriWindow *window;
  GtkWidget   *tl;
  guint        track = 0, start = 0, target = 0, n;
  double       y, x0;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_beats_window (2.0);
  tl = GTK_WIDGET (window->timeline);
  g_assert_true (odori_timeline_get_snap (window->timeline));

  g_assert_true (find_move (window, 3, &track, &start, &target));
  n = _odori_timeline_symbol_length (window->timeline, _odori_timeline_find_symbol (window->timeline, track, start));
  y = odori_timeline_y_for_track (window->timeline, track);
  x0 = x_of (window, start + n / 2.0);
  input_drag_full (tl, x0, y, x0 + (target - (double) start) * 2.0, y, 8, NULL, FALSE);
  g_assert_null (_odori_timeline_find_symbol (window->timeline, track, start));
  g_assert_nonnull (_odori_timeline_find_symbol (window->timeline, track, target - 3));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);

  /* Back, then again with Shift: off the beat. */
  g_assert_true (odori_undo_undo (window->undo));
  pump (100);
  g_assert_nonnull (_odori_timeline_find_symbol (window->timeline, track, start));
  /* A drop hovering there snaps the same way. */
  {
    g_autofree char *symbol = g_strdup (_odori_timeline_find_symbol (window->timeline, track, start)->symbol);

    _odori_timeline_drop_hover (window->timeline, symbol, x_of (window, target + 0.2), y);
    g_assert_cmpuint (window->timeline->drop_frame, ==, target - 3);
    _odori_timeline_drop_hover (window->timeline, NULL, 0, 0);
  }

  input_click (tl, x0, y, 1, 1);
  input_drag_full (tl, x0, y, x0 + (target - (double) start) * 2.0, y, 8, "shift", FALSE);
  g_assert_nonnull (_odori_timeline_find_symbol (window->timeline, track, target));
  g_assert_null (_odori_timeline_find_symbol (window->timeline, track, target - 3));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* T six times, 400 ms apart: 150 beats a minute within 2 %, one undo step. */
/* The X server's times of the "t" presses the window receives (capture phase, before the
 * window's own shortcut handles them). */
static gboolean
record_tap (GtkEventControllerKey *controller,
            guint                  keyval,
            guint                  keycode,
            GdkModifierType        state,
            GArray                *times)
{
  if (keyval == GDK_KEY_t || keyval == GDK_KEY_T)
    {
      guint32 t = gtk_event_controller_get_current_event_time (GTK_EVENT_CONTROLLER (controller));

      g_array_append_val (times, t);
    }
  return FALSE;
}

/* The tempo the taps' own times give: the mean interval of the run, to 0.01 bpm. */
static double
expected_tempo (GArray *times,
                guint   first)
{
  guint32 t0 = g_array_index (times, guint32, first);
  guint32 t1 = g_array_index (times, guint32, times->len - 1);
  double  interval_ms = (double) (t1 - t0) / (times->len - 1 - first);

  return round (60000.0 / interval_ms * 100.0) / 100.0;
}

/* T tapped 6 times 400 ms apart by xdotool: the tempo is the one the key events' own times
 * give (exactly; the X server stamps them, so a loaded machine shifts them a little, hence
 * the loose bound around 150), and one undo step; a pause starts a second run. */
static void
test_tap_tempo (void)
{
  OdoriWindow        *window;
  g_autofree char    *wid = NULL;
  g_autoptr(GArray)   times = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkEventController *keys;
  double              tempo, expected;
  guint               first;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_beats_window (2.0);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (record_tap), times);
  gtk_widget_add_controller (GTK_WIDGET (window), keys);
  gtk_widget_grab_focus (GTK_WIDGET (window->timeline));
  pump (100);
  wid = input_window_id (GTK_WIDGET (window));
  xdotool ((const char *[]){ "windowfocus", "--sync", wid, "key", "--clearmodifiers", "--delay", "400",
                             "t", "t", "t", "t", "t", "t", NULL });
  WAIT_UNTIL (times->len == 6, 3000);
  pump (300);
  tempo = score_of (window)->music.tempo;
  expected = expected_tempo (times, 0);
  g_test_message ("tapped tempo %.3f, from the events' times %.3f", tempo, expected);
  g_assert_cmpfloat (fabs (tempo - expected), <=, 0.011);
  g_assert_cmpfloat (fabs (tempo - 150), <=, 20);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Tap Tempo");
  g_assert_cmpfloat (odori_beat_grid_get_tempo (odori_timeline_get_beat_grid (window->timeline)), ==, tempo);

  /* After a pause, another run: another step. */
  pump (2300);
  first = times->len;
  xdotool ((const char *[]){ "windowfocus", "--sync", wid, "key", "--clearmodifiers", "--delay", "300",
                             "t", "t", "t", "t", NULL });
  WAIT_UNTIL (times->len == first + 4, 3000);
  pump (300);
  g_assert_cmpfloat (fabs (score_of (window)->music.tempo - expected_tempo (times, first)), <=, 0.011);
  g_assert_cmpfloat (fabs (score_of (window)->music.tempo - 200), <=, 30);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 2);
  g_assert_true (odori_undo_undo (window->undo));
  g_assert_cmpfloat (score_of (window)->music.tempo, ==, tempo);
  g_assert_true (odori_undo_undo (window->undo));
  g_assert_cmpfloat (score_of (window)->music.tempo, ==, TEMPO);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The downbeat handle dragged 10 frames on: "# Downbeat:" 1/3 s later, one step, undo
 * puts it back; Escape during the drag leaves it. */
static void
test_downbeat_drag (void)
{
  OdoriWindow   *window;
  GtkWidget     *tl;
  OdoriBeatGrid *grid;
  double         ft, x, y = RULER_HEIGHT * 0.75;
  gint64         f0;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_beats_window (2.0);
  tl = GTK_WIDGET (window->timeline);
  ft = odori_timeline_get_frame_time (window->timeline);
  grid = odori_timeline_get_beat_grid (window->timeline);
  f0 = odori_beat_grid_beat_frame (grid, 0);
  x = x_of (window, (double) f0);

  input_drag_full (tl, x, y, x + 20, y, 6, NULL, TRUE);
  g_assert_cmpfloat (score_of (window)->music.downbeat, ==, DOWNBEAT);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 0);

  input_drag_full (tl, x, y, x + 20, y, 6, NULL, FALSE);
  g_assert_cmpfloat (fabs (score_of (window)->music.downbeat - round ((DOWNBEAT + 10 * ft) * 1000) / 1000), <, 1e-9);
  g_assert_cmpint (odori_beat_grid_beat_frame (odori_timeline_get_beat_grid (window->timeline), 0), ==, f0 + 10);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  /* The playhead stayed where it was: the drag was not a scrub. */
  g_assert_cmpuint (odori_session_get_frame (window->session), ==, 1);
  g_assert_true (odori_undo_undo (window->undo));
  g_assert_cmpfloat (score_of (window)->music.downbeat, ==, DOWNBEAT);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The times of the .beats file at PATH. */
static GArray *
beats_of (const char *path)
{
  g_autoptr(GError) error = NULL;
  GArray *times = odori_beats_load (path, &error);

  g_assert_no_error (error);
  return times;
}

/* A beat list (list.beats, beside the score saved as list.dds): beat 3's mark dragged
 * 10 frames on moves it in the file by as much, one step; Ctrl+Z puts the file back;
 * Escape during a drag leaves it; dragged far, it stops short of its neighbour. */
static void
test_beat_list_drag (void)
{
  OdoriWindow     *window;
  GtkWidget       *tl;
  OdoriBeatGrid   *grid;
  OdoriScoreMusic  after = { 0 };
  OdoriScoreEdit  *edit;
  g_autofree char *path = test_path ("list.dds");
  g_autofree char *beats = test_path ("list.beats");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) read = NULL;
  g_autoptr(GError) error = NULL;
  double           x, y = RULER_HEIGHT * 0.75, moved;
  gint64           f3;

  SKIP_WITHOUT_DISPLAY ();
  /* Beats 0.5 s apart, every other one 50 ms late: no steady pulse. */
  for (guint i = 0; i < 40; i++)
    {
      double t = 0.5 + i * 0.5 + (i % 2) * 0.05;

      g_array_append_val (times, t);
    }
  g_assert_true (odori_beats_save ((double *) times->data, times->len, beats, &error));
  window = shown_beats_window (2.0);
  tl = GTK_WIDGET (window->timeline);
  g_assert_true (odori_document_save (window->document, path, &error));
  g_assert_no_error (error);
  odori_score_music_copy (&score_of (window)->music, &after);
  after.beats_path = g_strdup ("list.beats");
  edit = odori_score_edit_new ("Music");
  odori_score_edit_set_music (edit, &score_of (window)->music, &after);
  g_assert_true (odori_undo_apply (window->undo, edit, &error));
  g_assert_no_error (error);
  odori_score_music_clear (&after);
  odori_undo_clear (window->undo);
  pump (100);
  grid = odori_timeline_get_beat_grid (window->timeline);
  g_assert_true (odori_beat_grid_is_list (grid));
  f3 = odori_beat_grid_beat_frame (grid, 3);
  moved = round (odori_beat_grid_frame_to_time (grid, (double) (f3 + 10)) * 1000) / 1000;
  x = x_of (window, (double) f3);
  g_assert_cmpfloat (x, >, HEADER_WIDTH + 20);

  /* Escape: nothing moved, nothing recorded. */
  input_drag_full (tl, x, y, x + 20, y, 6, NULL, TRUE);
  read = beats_of (beats);
  g_assert_cmpmem (read->data, read->len * sizeof (double), times->data, times->len * sizeof (double));
  g_clear_pointer (&read, g_array_unref);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 0);
  g_assert_cmpint (odori_beat_grid_beat_frame (odori_timeline_get_beat_grid (window->timeline), 3), ==, f3);

  /* Dragged: beat 3 ten frames later in the file and on the ruler, one step. */
  input_drag_full (tl, x, y, x + 20, y, 6, NULL, FALSE);
  read = beats_of (beats);
  g_assert_cmpuint (read->len, ==, times->len);
  g_test_message ("beat 3: %.3f -> %.3f", g_array_index (times, double, 3), g_array_index (read, double, 3));
  g_assert_cmpfloat (fabs (g_array_index (read, double, 3) - moved), <, 1e-9);
  for (guint i = 0; i < read->len; i++)
    if (i != 3)
      g_assert_cmpfloat (g_array_index (read, double, i), ==, g_array_index (times, double, i));
  g_clear_pointer (&read, g_array_unref);
  g_assert_cmpint (odori_beat_grid_beat_frame (odori_timeline_get_beat_grid (window->timeline), 3), ==, f3 + 10);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Move Beat");
  g_assert_cmpstr (score_of (window)->music.beats_path, ==, "list.beats");
  /* The playhead stayed where it was: the drag was not a scrub. */
  g_assert_cmpuint (odori_session_get_frame (window->session), ==, 1);

  /* Ctrl+Z: the file as it was. */
  input_key (GTK_WIDGET (window), "ctrl+z");
  pump (100);
  read = beats_of (beats);
  g_assert_cmpmem (read->data, read->len * sizeof (double), times->data, times->len * sizeof (double));
  g_clear_pointer (&read, g_array_unref);
  g_assert_cmpint (odori_beat_grid_beat_frame (odori_timeline_get_beat_grid (window->timeline), 3), ==, f3);

  /* Far to the right: just before beat 4. */
  input_drag_full (tl, x, y, x + 200, y, 8, NULL, FALSE);
  read = beats_of (beats);
  g_assert_cmpfloat (fabs (g_array_index (read, double, 3) - (g_array_index (times, double, 4) - 0.001)), <, 1e-9);
  g_clear_pointer (&read, g_array_unref);
  shot (window, "beats-list");
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkLabel *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The inspector shows the selected symbol's start in bars and counts, and its meter
 * field sets "# Meter:". */
static void
test_inspector (void)
{
  OdoriWindow      *window;
  OdoriScore       *score;
  OdoriScorePart   *part;
  OdoriScoreSymbol *s;
  g_autofree char  *expected = NULL;
  OdoriBeatPosition pos;

  SKIP_WITHOUT_DISPLAY ();
  window = shown_beats_window (2.0);
  score = score_of (window);
  part = g_ptr_array_index (score->parts, 0);
  g_assert_cmpuint (part->symbols->len, >, 1);
  s = &g_array_index (part->symbols, OdoriScoreSymbol, 1);
  g_assert_true (odori_timeline_select (window->timeline, 0, s->start, ODORI_TIMELINE_SELECT_REPLACE));
  pump (100);
  expected = odori_beat_grid_format_frame (odori_timeline_get_beat_grid (window->timeline), s->start);
  g_test_message ("start %u: %s", s->start, expected);
  g_assert_true (odori_beat_grid_position (odori_timeline_get_beat_grid (window->timeline), s->start, &pos));
  g_assert_nonnull (strstr (expected, "bar"));
  g_assert_nonnull (find_label (GTK_WIDGET (window->inspector), expected));

  /* Meter 3: the bar changes, the label follows. */
  g_assert_true (odori_timeline_set_meter (window->timeline, 3, NULL));
  pump (100);
  g_assert_cmpuint (score->music.meter, ==, 3);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_clear_pointer (&expected, g_free);
  expected = odori_beat_grid_format_frame (odori_timeline_get_beat_grid (window->timeline), s->start);
  g_assert_nonnull (find_label (GTK_WIDGET (window->inspector), expected));
  shot (window, "beats-grid");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Music for Detect Tempo: clicks (a decaying 2 kHz burst, 25 ms) at TIMES, as 16-bit
 * mono WAV at 44.1 kHz (as tests/test-music.c writes them). */
#define WAV_RATE 44100

static void
put_le (GByteArray *out,
        guint32     v,
        guint       bytes)
{
  for (guint i = 0; i < bytes; i++)
    {
      guint8 b = (v >> (8 * i)) & 0xff;

      g_byte_array_append (out, &b, 1);
    }
}

static void
write_clicks (const double *times,
              guint         n_times,
              double        seconds,
              const char   *path)
{
  guint n = (guint) (seconds * WAV_RATE);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (44 + 2 * n);
  g_autofree double *samples = g_new0 (double, n);
  g_autoptr(GError) error = NULL;

  for (guint k = 0; k < n_times; k++)
    for (guint i = (guint) (times[k] * WAV_RATE); i < n && i < (guint) ((times[k] + 0.025) * WAV_RATE); i++)
      {
        double dt = (double) i / WAV_RATE - times[k];

        samples[i] = 0.8 * exp (-dt / 0.005) * sin (2 * G_PI * 2000 * dt);
      }
  g_byte_array_append (out, (const guint8 *) "RIFF", 4);
  put_le (out, 36 + 2 * n, 4);
  g_byte_array_append (out, (const guint8 *) "WAVEfmt ", 8);
  put_le (out, 16, 4);
  put_le (out, 1, 2);
  put_le (out, 1, 2);
  put_le (out, WAV_RATE, 4);
  put_le (out, WAV_RATE * 2, 4);
  put_le (out, 2, 2);
  put_le (out, 16, 2);
  g_byte_array_append (out, (const guint8 *) "data", 4);
  put_le (out, 2 * n, 4);
  for (guint i = 0; i < n; i++)
    put_le (out, (guint16) (gint16) lround (samples[i] * 32767), 2);
  g_assert_true (g_file_set_contents (path, (const char *) out->data, out->len, &error));
}

/* The sample with MUSIC (in the test's home) opened, as Open Music does (an absolute
 * path), saved as dance.dds beside it: "# Music: MUSIC" (no tempo). */
static OdoriWindow *
window_with_music (const char *music)
{
  OdoriWindow     *window = shown_beats_window (0.5);
  OdoriScore      *score = score_of (window);
  g_autofree char *abs = test_path (music);
  OdoriScoreMusic  after = { .path = abs };
  OdoriScoreEdit  *edit = odori_score_edit_new ("Music");
  g_autofree char *path = test_path ("dance.dds");
  g_autoptr(GError) error = NULL;

  odori_score_edit_set_music (edit, &score->music, &after);
  g_assert_true (odori_undo_apply (window->undo, edit, &error));
  g_assert_no_error (error);
  g_assert_true (odori_document_save (window->document, path, &error));
  g_assert_no_error (error);
  odori_undo_clear (window->undo);
  g_assert_cmpstr (score->music.path, ==, music);
  g_assert_null (odori_timeline_get_beat_grid (window->timeline));
  return window;
}

static void
detect (OdoriWindow *window)
{
  double progress = -1;

  /* From the menu's action, as the user would. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.detect-tempo", NULL));
  g_assert_true (odori_timeline_get_detecting (window->timeline, &progress));
  WAIT_UNTIL (!odori_timeline_get_detecting (window->timeline, NULL), 60000);
  pump (100);
}

/* Clicks at 120 a minute from 0.5 s: tempo within 1 %, the downbeat on a click, one
 * step; clicks changing tempo: their times in dance.beats and "# Beats:". */
static void
test_detect_tempo (void)
{
  OdoriWindow     *window;
  OdoriScore      *score;
  g_autofree char *wav = test_path ("click.wav");
  g_autofree char *changes = test_path ("changes.wav");
  g_autofree char *beats = test_path ("dance.beats");
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) read = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *refusal = NULL;
  double           t, period, phase;

  SKIP_WITHOUT_DISPLAY ();
  for (t = 0.5; t < 20; t += 0.5)
    g_array_append_val (times, t);
  write_clicks ((double *) times->data, times->len, 20.5, wav);
  window = window_with_music ("click.wav");
  score = score_of (window);
  detect (window);
  g_test_message ("tempo %.3f downbeat %.3f", score->music.tempo, score->music.downbeat);
  g_assert_cmpfloat (fabs (score->music.tempo - 120), <=, 1.2);
  period = 60 / score->music.tempo;
  phase = fmod (fabs (score->music.downbeat - 0.5), period);
  g_assert_cmpfloat (MIN (phase, period - phase), <=, 0.02);
  g_assert_true (score->music.has_downbeat);
  g_assert_null (score->music.beats_path);
  g_assert_false (g_file_test (beats, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Detect Tempo");
  g_assert_nonnull (odori_timeline_get_beat_grid (window->timeline));
  gtk_window_destroy (GTK_WINDOW (window));

  /* 120 a minute for 16 s, then 96: no steady pulse. */
  g_array_set_size (times, 0);
  for (t = 0.5; t < 31; t += t < 16 ? 0.5 : 0.625)
    g_array_append_val (times, t);
  write_clicks ((double *) times->data, times->len, 31, changes);
  window = window_with_music ("changes.wav");
  score = score_of (window);
  g_signal_connect (window->timeline, "refused", G_CALLBACK (refused_cb), &refusal);
  detect (window);
  g_test_message ("tempo %.3f, refused: %s", score->music.tempo, refusal ? refusal : "no");
  g_assert_cmpstr (score->music.beats_path, ==, "dance.beats");
  read = odori_beats_load (beats, &error);
  g_assert_no_error (error);
  g_test_message ("%u beats detected of %u clicks", read->len, times->len);
  g_assert_cmpuint (read->len, >=, times->len / 2);
  g_assert_true (odori_beat_grid_is_list (odori_timeline_get_beat_grid (window->timeline)));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, 1);
  g_assert_true (odori_undo_undo (window->undo));
  g_assert_null (score->music.beats_path);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/beats/grid", test_grid);
  g_test_add_func ("/beats/ruler-counts", test_ruler_counts);
  g_test_add_func ("/beats/snap-drag", test_snap_drag);
  g_test_add_func ("/beats/tap-tempo", test_tap_tempo);
  g_test_add_func ("/beats/downbeat-drag", test_downbeat_drag);
  g_test_add_func ("/beats/beat-list-drag", test_beat_list_drag);
  g_test_add_func ("/beats/inspector", test_inspector);
  g_test_add_func ("/beats/detect-tempo", test_detect_tempo);
  return app_test_finish (g_test_run ());
}
