/* test-app-music.c: the score's music in the window (issue #19)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Open Music through the primary menu and the file chooser with real events, Remove
 * Music and Undo; the music lane's waveform drawn (a screenshot under Xvfb, written to
 * the build directory as music-lane.png); the offset dragged with the mouse, undone and
 * cancelled with Escape; the lane's place, under the ruler and above the tracks, as it
 * scrolls; playback following the music; a score whose music is missing.
 * The music plays into "fakesink sync=true" (ODORI_AUDIO_SINK).
 */
#include "config.h"

#include <math.h>

#include "app-input-util.h"
#include "music-test-util.h"
#include "odori-music-lane.h"
#include "odori-timeline-private.h"

static char *music_path;

/* The first GtkLabel under WIDGET whose text is TEXT. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0 &&
      gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
file_chooser_window (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER (l->data) && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static OdoriScore *
score_of (OdoriWindow *window)
{
  return odori_document_get_score (odori_window_get_document (window));
}

static OdoriMusicLane *
lane_of (OdoriWindow *window)
{
  return odori_timeline_pane_get_music_lane (window->timeline_pane);
}

/* The score as it would be saved. */
static char *
score_text (OdoriWindow *window)
{
  g_autofree char *path = test_path ("copy.dds");
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (odori_document_save_copy (odori_window_get_document (window), path, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_unlink (path);
  return text;
}

/* "# MusicOffset:"'s value in the saved score, or NAN without the line. */
static double
saved_offset (OdoriWindow *window)
{
  g_autofree char *text = score_text (window);
  const char      *line = strstr (text, "# MusicOffset:");

  return line != NULL ? g_ascii_strtod (line + strlen ("# MusicOffset:"), NULL) : NAN;
}

static void
wait_waveform (OdoriWindow *window)
{
  OdoriMusicLane *lane = lane_of (window);

  WAIT_UNTIL (odori_music_lane_get_waveform (lane) != NULL, 20000);
  g_assert_cmpfloat (odori_music_lane_get_progress (lane), <, 0);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (lane)), 2000);
  pump (200);
}

static OdoriWindow *
sample_with_music (void)
{
  OdoriWindow *window = new_sample_window ();

  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-music-file",
                                  g_variant_new_string (music_path));
  g_assert_cmpstr (odori_session_get_music_path (odori_window_get_session (window)), ==, music_path);
  wait_waveform (window);
  return window;
}

/* Primary menu → Open Music… → the file chooser, all by real events; then Undo. */
static void
test_open_menu (void)
{
  OdoriWindow     *window;
  OdoriMusicLane  *lane;
  GtkWidget       *popover, *item, *chooser;
  g_autofree char *text = NULL;

  SKIP_WITHOUT_DISPLAY ();
  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  lane = lane_of (window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (lane)));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "remove-music"));
  pump (500);

  input_click (GTK_WIDGET (window->primary_menu_button),
               gtk_widget_get_width (GTK_WIDGET (window->primary_menu_button)) / 2.0,
               gtk_widget_get_height (GTK_WIDGET (window->primary_menu_button)) / 2.0, 1, 1);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (window->primary_menu_button));
  WAIT_UNTIL (popover != NULL && gtk_widget_get_mapped (popover), 3000);
  WAIT_UNTIL ((item = find_label (popover, "Open Music…")) != NULL, 3000);
  pump (300);
  input_click (item, gtk_widget_get_width (item) / 2.0, gtk_widget_get_height (item) / 2.0, 1, 1);
  WAIT_UNTIL ((chooser = file_chooser_window ()) != NULL, 5000);
  pump (500);
  /* The location entry: type the path, Enter opens it. */
  input_key (chooser, "ctrl+l");
  input_type (chooser, music_path);
  input_key (chooser, "Return");
  WAIT_UNTIL (score_of (window)->music.path != NULL, 5000);

  /* The sample has no file of its own: the path is kept absolute. */
  g_assert_cmpstr (score_of (window)->music.path, ==, music_path);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Open Music");
  text = score_text (window);
  g_assert_nonnull (strstr (text, "# Music: "));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (lane)));
  wait_waveform (window);
  g_assert_cmpuint (odori_music_lane_get_n_columns (lane), >, 100);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "remove-music"));

  /* Undo (Ctrl+Z, a real key) takes it away again. */
  input_key (GTK_WIDGET (window), "ctrl+z");
  WAIT_UNTIL (score_of (window)->music.path == NULL, 3000);
  g_assert_null (odori_session_get_music_path (odori_window_get_session (window)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (lane)));
  g_clear_pointer (&text, g_free);
  text = score_text (window);
  g_assert_null (strstr (text, "# Music:"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Remove Music is one step; undo brings the music and its offset back. */
static void
test_remove (void)
{
  OdoriWindow *window;
  guint        steps;

  SKIP_WITHOUT_DISPLAY ();
  window = sample_with_music ();
  steps = odori_undo_get_n_steps (window->undo);
  g_action_group_activate_action (G_ACTION_GROUP (window), "remove-music", NULL);
  g_assert_false (odori_score_music_is_set (&score_of (window)->music));
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, steps + 1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (lane_of (window))));
  g_assert_true (odori_undo_undo (window->undo));
  g_assert_cmpstr (score_of (window)->music.path, ==, music_path);
  /* the cache: the waveform is back at once */
  wait_waveform (window);
  g_assert_true (odori_waveform_get_from_cache (odori_music_lane_get_waveform (lane_of (window))));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether the pixel at X, Y of PIXELS (B G R A, little endian) is the waveform's blue. */
static gboolean
is_blue (const guchar *pixels,
         int           stride,
         int           x,
         int           y)
{
  const guchar *p = pixels + (gsize) y * stride + 4 * x;

  return p[0] > 150 && p[2] < 120;
}

/* How many rows of column X, Y0 to Y1, are clearly bluer than they are red: a click of
 * the waveform is a tall column (the silence between clicks a line a pixel or two
 * high). */
static int
blue_rows (const guchar *pixels,
           int           stride,
           int           x,
           int           y0,
           int           y1)
{
  int n = 0;

  for (int y = y0; y < y1; y++)
    {
      const guchar *p = pixels + (gsize) y * stride + 4 * x;

      n += p[0] > p[2] + 60;
    }
  return n;
}

/* The waveform is drawn: a screenshot of the window to look at, and its pixels. With the
 * clicks' tempo set, each beat mark of the ruler stands right above a click of the
 * lane. */
static void
test_screenshot (void)
{
  OdoriWindow    *window;
  OdoriMusicLane *lane;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           "music-lane.png", NULL);
  g_autofree guchar *pixels = NULL;
  g_autoptr(GError) error = NULL;
  graphene_point_t   origin, timeline_origin;
  int                width, height, stride, blue = 0;
  double             ppf;
  OdoriScoreMusic    music = { 0 };
  OdoriScoreEdit    *edit;
  OdoriBeatGrid     *grid;
  guint              aligned = 0, counted = 0;
  double             playhead_x;

  SKIP_WITHOUT_DISPLAY ();
  window = sample_with_music ();
  lane = lane_of (window);
  /* The clicks' tempo: 120 bpm from 0.5 s (main ()). */
  odori_score_music_copy (&score_of (window)->music, &music);
  music.tempo = 120;
  music.has_downbeat = TRUE;
  music.downbeat = 0.5;
  edit = odori_score_edit_new ("Tempo");
  odori_score_edit_set_music (edit, &score_of (window)->music, &music);
  g_assert_true (odori_undo_apply (window->undo, edit, &error));
  g_assert_no_error (error);
  odori_score_music_clear (&music);
  odori_session_set_frame (odori_window_get_session (window), 150);
  pump (300);
  ppf = odori_timeline_get_pixels_per_frame (window->timeline);
  g_assert_cmpuint (odori_music_lane_get_n_columns (lane), >, 100);
  /* Zoomed in 8×, the lane follows the timeline. */
  odori_timeline_zoom (window->timeline, 8);
  pump (300);
  g_assert_cmpfloat (fabs (odori_timeline_get_pixels_per_frame (window->timeline) - 8 * ppf), <, 1e-6);
  g_assert_cmpuint (odori_music_lane_get_n_columns (lane), >, 100);
  odori_timeline_zoom_fit (window->timeline);
  pump (300);

  texture = odori_render_widget (GTK_WIDGET (window));
  g_assert_nonnull (texture);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
  g_printerr ("# screenshot: %s\n", png);

  /* The lane's clicks are blue columns at the beats: count blue pixels in its row. */
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  stride = width * 4;
  pixels = g_malloc ((gsize) stride * height);
  gdk_texture_download (texture, pixels, stride);
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (lane), GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (0, 0), &origin));
  for (int y = (int) origin.y; y < (int) origin.y + gtk_widget_get_height (GTK_WIDGET (lane)) && y < height; y++)
    for (int x = (int) origin.x + 160; x < MIN ((int) origin.x + gtk_widget_get_width (GTK_WIDGET (lane)), width); x++)
      if (is_blue (pixels, stride, x, y))
        blue++;
  g_assert_cmpint (blue, >, 200);

  /* Beats 0 to 20 (0.5 s to 10.5 s): the ruler's mark of each (at its frame) has a click
   * column of the lane within two pixels. */
  grid = odori_timeline_get_beat_grid (window->timeline);
  g_assert_nonnull (grid);
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (window->timeline), GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (0, 0), &timeline_origin));
  playhead_x = timeline_origin.x +
               odori_timeline_x_for_frame (window->timeline,
                                           odori_session_get_frame (odori_window_get_session (window)) + 0.5);
  for (gint64 k = 0; k <= 20; k++)
    {
      double   x = timeline_origin.x +
                 odori_timeline_x_for_frame (window->timeline, (double) odori_beat_grid_beat_frame (grid, k));
      int      y0 = (int) origin.y + 1, y1 = MIN ((int) origin.y + gtk_widget_get_height (GTK_WIDGET (lane)) - 1, height);
      gboolean found = FALSE;

      if (x < timeline_origin.x + HEADER_WIDTH + 2 || x + 2 >= MIN (width, timeline_origin.x +
                                                                   gtk_widget_get_width (GTK_WIDGET (lane))))
        continue;
      /* the playhead's red line hides the click under it */
      if (fabs (x - playhead_x) < 4)
        continue;
      counted++;
      for (int dx = -2; dx <= 2 && !found; dx++)
        found = blue_rows (pixels, stride, (int) round (x) + dx, y0, y1) >= 8;
      if (!found)
        g_test_message ("beat %" G_GINT64_FORMAT ": no click in the lane under x %.1f", k, x);
      aligned += found;
    }
  g_printerr ("# screenshot: %u of %u beat marks in view stand above a click\n", aligned, counted);
  g_assert_cmpuint (counted, >=, 15);
  g_assert_cmpuint (aligned, ==, counted);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Dragging the lane with the mouse sets "# MusicOffset:" live; one undo step; Escape
 * cancels. */
static void
test_offset_drag (void)
{
  OdoriWindow    *window;
  OdoriMusicLane *lane;
  GtkWidget      *w;
  double          ppf, ft, y, x0, before;
  guint           steps;

  SKIP_WITHOUT_DISPLAY ();
  window = sample_with_music ();
  lane = lane_of (window);
  w = GTK_WIDGET (lane);
  ppf = odori_timeline_get_pixels_per_frame (window->timeline);
  ft = odori_session_get_frame_time (odori_window_get_session (window));
  y = gtk_widget_get_height (w) / 2.0;
  x0 = 300;
  g_assert_true (isnan (saved_offset (window)));
  steps = odori_undo_get_n_steps (window->undo);

  input_drag (w, x0, y, x0 + 60, y);
  /* The music moved 60 px later: less of it has passed at frame 1. */
  g_assert_cmpfloat (fabs (saved_offset (window) - (-60 / ppf * ft)), <, 1.5 / ppf * ft + 0.001);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, steps + 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Move Music");
  /* the waveform moved with it */
  g_assert_cmpfloat (fabs (odori_music_lane_x_for_time (lane, score_of (window)->music.offset) -
                           odori_timeline_x_for_frame (window->timeline, 1)),
                     <, 1.0);

  input_key (GTK_WIDGET (window), "ctrl+z");
  g_assert_cmpfloat (score_of (window)->music.offset, ==, 0);
  g_assert_true (isnan (saved_offset (window)));

  /* Escape while dragging: nothing changes, nothing is recorded. */
  before = score_of (window)->music.offset;
  steps = odori_undo_get_n_steps (window->undo);
  input_drag_full (w, x0, y, x0 - 80, y, 8, NULL, TRUE);
  g_assert_cmpfloat (score_of (window)->music.offset, ==, before);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, steps);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* WIDGET's bounds in the timeline's coordinates. */
static graphene_rect_t
bounds_in (GtkWidget     *widget,
           OdoriTimeline *timeline)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (timeline), &bounds));
  return bounds;
}

/* The lane sits under the ruler and the tracks start under it; without music there is
 * no gap; it scrolls sideways with the tracks and stays put when they scroll up and
 * down; a real drag at its place in the timeline moves the music. */
static void
test_lane_place (void)
{
  OdoriWindow    *window;
  OdoriTimeline  *timeline;
  OdoriMusicLane *lane;
  GtkWidget      *w, *scroller;
  GtkAdjustment  *vadj = NULL, *hadj = NULL;
  graphene_rect_t bounds;
  graphene_point_t lane_top, timeline_top;
  double          lane_h, ppf, ft, before, y;
  guint           steps;

  SKIP_WITHOUT_DISPLAY ();
  window = sample_with_music ();
  timeline = window->timeline;
  lane = lane_of (window);
  w = GTK_WIDGET (lane);
  g_assert_true (gtk_widget_get_parent (w) == GTK_WIDGET (timeline));

  /* Ruler (0 to RULER_HEIGHT), the lane, then the first track. */
  bounds = bounds_in (w, timeline);
  lane_h = bounds.size.height;
  g_assert_cmpfloat (bounds.origin.y, ==, RULER_HEIGHT);
  g_assert_cmpfloat (lane_h, ==, ODORI_MUSIC_LANE_HEIGHT);
  g_assert_cmpfloat (bounds.origin.x, ==, 0);
  g_assert_cmpfloat (bounds.size.width, ==, gtk_widget_get_width (GTK_WIDGET (timeline)));
  g_assert_cmpfloat (odori_timeline_get_tracks_top (timeline), ==, RULER_HEIGHT + lane_h);
  g_assert_cmpfloat (odori_timeline_y_for_track (timeline, 0) - ROW_HEIGHT / 2.0, ==,
                     bounds.origin.y + bounds.size.height);
  g_assert_cmpint (odori_timeline_track_at_y (timeline, RULER_HEIGHT + lane_h - 1), ==, -1);
  g_assert_cmpint (odori_timeline_track_at_y (timeline, RULER_HEIGHT + lane_h + 1), ==, 0);
  /* In the window, too: the lane's top is the timeline's top plus the ruler. */
  g_assert_true (gtk_widget_compute_point (w, GTK_WIDGET (window), &GRAPHENE_POINT_INIT (0, 0), &lane_top));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (timeline), GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (0, 0), &timeline_top));
  g_assert_cmpfloat (lane_top.y - timeline_top.y, ==, RULER_HEIGHT);
  /* What the pointer finds there is the lane, under the ruler: the ruler is not. */
  g_assert_true (gtk_widget_pick (GTK_WIDGET (timeline), 400, RULER_HEIGHT + lane_h / 2, GTK_PICK_DEFAULT) == w);
  g_assert_true (gtk_widget_pick (GTK_WIDGET (timeline), 400, RULER_HEIGHT / 2.0, GTK_PICK_DEFAULT) ==
                 GTK_WIDGET (timeline));

  /* A real drag at the lane's place in the timeline moves the music, one step. */
  ppf = odori_timeline_get_pixels_per_frame (timeline);
  ft = odori_session_get_frame_time (odori_window_get_session (window));
  steps = odori_undo_get_n_steps (window->undo);
  y = RULER_HEIGHT + lane_h / 2;
  input_drag (GTK_WIDGET (timeline), 320, y, 370, y);
  g_assert_cmpfloat (fabs (score_of (window)->music.offset - (-50 / ppf * ft)), <, 1.5 / ppf * ft + 0.001);
  g_assert_cmpuint (odori_undo_get_n_steps (window->undo), ==, steps + 1);
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Move Music");
  /* A drag on the ruler above it scrubs: the music stays. */
  before = score_of (window)->music.offset;
  input_drag (GTK_WIDGET (timeline), 320, RULER_HEIGHT / 4.0, 400, RULER_HEIGHT / 4.0);
  g_assert_cmpfloat (score_of (window)->music.offset, ==, before);
  g_assert_cmpuint (odori_timeline_frame_at_x (timeline, 400), ==,
                    odori_session_get_frame (odori_window_get_session (window)));
  input_key (GTK_WIDGET (window), "ctrl+z");
  g_assert_cmpfloat (score_of (window)->music.offset, ==, 0);

  /* Sideways, the lane scrolls with the tracks: the music's start stays on frame 1. */
  odori_timeline_zoom (timeline, 8);
  g_object_get (timeline, "hadjustment", &hadj, "vadjustment", &vadj, NULL);
  gtk_adjustment_set_value (hadj, 200);
  pump (200);
  g_assert_cmpfloat (gtk_adjustment_get_value (hadj), ==, 200);
  g_assert_cmpfloat (fabs (odori_music_lane_x_for_time (lane, 0) - odori_timeline_x_for_frame (timeline, 1)), <, 1e-6);
  g_assert_cmpfloat (odori_timeline_x_for_frame (timeline, 1), ==, HEADER_WIDTH - 200);
  g_assert_cmpuint (odori_music_lane_get_n_columns (lane), >, 100);

  /* Up and down, it stays under the ruler while the tracks move under it. */
  scroller = gtk_widget_get_parent (GTK_WIDGET (timeline));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 150);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 150);
  WAIT_UNTIL (gtk_adjustment_get_upper (vadj) > gtk_adjustment_get_page_size (vadj) + ROW_HEIGHT, 3000);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (vadj), ==,
                     gtk_widget_get_height (GTK_WIDGET (timeline)) - RULER_HEIGHT - lane_h);
  gtk_adjustment_set_value (vadj, ROW_HEIGHT);
  pump (200);
  bounds = bounds_in (w, timeline);
  g_assert_cmpfloat (bounds.origin.y, ==, RULER_HEIGHT);
  g_assert_cmpfloat (odori_timeline_y_for_track (timeline, 1) - ROW_HEIGHT / 2.0, ==, RULER_HEIGHT + lane_h);
  g_assert_cmpint (odori_timeline_track_at_y (timeline, RULER_HEIGHT + lane_h + 1), ==, 1);
  g_assert_true (gtk_widget_pick (GTK_WIDGET (timeline), 400, RULER_HEIGHT + lane_h / 2, GTK_PICK_DEFAULT) == w);
  gtk_adjustment_set_value (vadj, 0);
  g_clear_object (&hadj);
  g_clear_object (&vadj);

  /* Without music: no lane, no gap. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "remove-music", NULL);
  g_assert_false (gtk_widget_get_visible (w));
  g_assert_cmpfloat (odori_timeline_get_tracks_top (timeline), ==, RULER_HEIGHT);
  g_assert_cmpfloat (odori_timeline_y_for_track (timeline, 0), ==, RULER_HEIGHT + ROW_HEIGHT / 2.0);
  g_assert_cmpint (odori_timeline_track_at_y (timeline, RULER_HEIGHT + 1), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Playing in the window: each time the frame clock moves the playhead, it is within a
 * frame of the music's position. */
typedef struct
{
  OdoriMusicPlayer *player;
  guint             compared;
  double            max_error;
} FrameCheck;

static void
on_frame_cb (OdoriSession *session,
             GParamSpec   *pspec,
             FrameCheck   *check)
{
  double position, extrapolated;

  if (odori_music_player_get_position (check->player, g_get_monotonic_time (), &extrapolated) &&
      odori_music_player_query_position (check->player, &position))
    {
      double frame = odori_session_frame_for_music_time (session, position);

      check->compared++;
      check->max_error = MAX (check->max_error, fabs (frame - odori_session_get_frame (session)));
    }
}

static void
test_playback (void)
{
  OdoriWindow  *window;
  OdoriSession *session;
  FrameCheck    check = { 0 };
  gulong        id;

  SKIP_WITHOUT_DISPLAY ();
  window = sample_with_music ();
  session = odori_window_get_session (window);
  check.player = odori_session_get_music_player (session);
  g_assert_nonnull (check.player);
  odori_session_set_frame (session, 1);
  id = g_signal_connect (session, "notify::frame", G_CALLBACK (on_frame_cb), &check);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.play-pause", NULL);
  g_assert_true (odori_session_get_playing (session));
  pump (3000);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.play-pause", NULL);
  g_signal_handler_disconnect (session, id);
  g_printerr ("# window playback: %u playhead moves compared, max |playhead - music| %.2f frames\n",
              check.compared, check.max_error);
  /* The playhead moved on the music's clock, many times (30 fps dance for 3 s). */
  g_assert_cmpuint (check.compared, >=, 20);
  g_assert_cmpfloat (check.max_error, <=, 1.0);
  g_assert_false (odori_music_player_get_playing (check.player));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A score whose music is gone opens anyway, says so, and plays without it. */
static void
test_missing (void)
{
  OdoriWindow     *window, *again;
  g_autofree char *gone = test_path ("gone.wav");
  g_autofree char *score = sample_path ("with-gone-music.dds");
  g_autoptr(GFile) file = g_file_new_for_path (score);
  g_autofree char *index = sample_path ("motion.dat");
  g_autoptr(GFile) library = g_file_new_for_path (index);
  g_autoptr(GError) error = NULL;
  const char *message;

  SKIP_WITHOUT_DISPLAY ();
  music_test_write_clicks (gone, 2, 120, 0);
  window = new_sample_window ();
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-music-file", g_variant_new_string (gone));
  g_assert_true (odori_document_save_copy (odori_window_get_document (window), score, NULL, &error));
  g_assert_no_error (error);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (gone);

  again = odori_window_new (GTK_APPLICATION (test_app));
  gtk_window_present (GTK_WINDOW (again));
  if (!odori_window_open_score (again, file, library))
    g_error ("%s: %s", gtk_label_get_text (again->error_title), gtk_label_get_text (again->error_message));
  g_assert_nonnull (score_of (again));
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (again)), >, 1);
  WAIT_UNTIL (gtk_info_bar_get_revealed (again->error_bar), 5000);
  message = gtk_label_get_text (again->error_message);
  g_assert_nonnull (strstr (gtk_label_get_text (again->error_title), "gone.wav"));
  g_assert_nonnull (strstr (message, "gone.wav"));
  g_assert_nonnull (strstr (message, "without music"));
  g_printerr ("# missing music: %s / %s\n", gtk_label_get_text (again->error_title), message);
  /* It plays, by the frame clock. */
  odori_session_set_playing (odori_window_get_session (again), TRUE);
  WAIT_UNTIL (odori_session_get_frame (odori_window_get_session (again)) > 5, 5000);
  odori_session_set_playing (odori_window_get_session (again), FALSE);
  gtk_window_destroy (GTK_WINDOW (again));
  g_unlink (score);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_setenv ("ODORI_AUDIO_SINK", "fakesink sync=true", TRUE);
  app_test_init (&argc, &argv);
  music_path = test_path ("clicks.wav");
  music_test_write_clicks (music_path, 40, 120, 0.5);

  g_test_add_func ("/app-music/open-menu", test_open_menu);
  g_test_add_func ("/app-music/remove", test_remove);
  g_test_add_func ("/app-music/screenshot", test_screenshot);
  g_test_add_func ("/app-music/offset-drag", test_offset_drag);
  g_test_add_func ("/app-music/lane-place", test_lane_place);
  g_test_add_func ("/app-music/playback", test_playback);
  g_test_add_func ("/app-music/missing", test_missing);
  ret = g_test_run ();
  g_free (music_path);
  return app_test_finish (ret);
}
