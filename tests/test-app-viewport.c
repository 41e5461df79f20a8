/* test-app-viewport.c: the viewport draws the figure where the dance is, and the view
 * presets (mirror included) reach the camera
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"

#include "odori-viewport.h"

typedef struct
{
  guint8 *pixels;   /* B, G, R, A (GDK_MEMORY_DEFAULT, little-endian ARGB32) */
  int     width;
  int     height;
} Image;

static void
image_clear (Image *image)
{
  g_clear_pointer (&image->pixels, g_free);
}

static void
grab (GtkWidget *widget,
      Image     *image)
{
  g_autoptr(GdkTexture) texture = odori_render_widget (widget);

  g_assert_nonnull (texture);
  image->width = gdk_texture_get_width (texture);
  image->height = gdk_texture_get_height (texture);
  g_free (image->pixels);
  image->pixels = g_malloc ((gsize) image->width * image->height * 4);
  gdk_texture_download (texture, image->pixels, (gsize) image->width * 4);
}

static const guint8 *
pixel (const Image *image,
       int          x,
       int          y)
{
  x = CLAMP (x, 0, image->width - 1);
  y = CLAMP (y, 0, image->height - 1);
  return image->pixels + ((gsize) y * image->width + x) * 4;
}

static int
difference (const guint8 *a,
            const guint8 *b)
{
  return ABS (a[0] - b[0]) + ABS (a[1] - b[1]) + ABS (a[2] - b[2]);
}

/* Pixels within R of (X, Y) that differ clearly from the background sample BG. */
static guint
count_figure_pixels (const Image  *image,
                     float         x,
                     float         y,
                     int           r,
                     const guint8 *bg)
{
  guint n = 0;

  for (int dy = -r; dy <= r; dy++)
    for (int dx = -r; dx <= r; dx++)
      if (difference (pixel (image, (int) x + dx, (int) y + dy), bg) > 60)
        n++;
  return n;
}

static void
project_segment (OdoriViewport *viewport,
                 OdoriSession  *session,
                 const char    *name,
                 float          xy[2])
{
  OdoriMotion *motion = odori_session_get_display_motion (session);
  int s = odori_motion_find_segment (motion, name);
  const OdoriTransform *t;

  g_assert_cmpint (s, >=, 0);
  t = odori_motion_get (motion, odori_session_get_frame (session) - 1, s);
  g_assert_true (odori_viewport_project (viewport, t->position, xy));
}

static void
wait_for_render (OdoriViewport *viewport)
{
  guint before = odori_viewport_get_n_renders (viewport);

  gtk_gl_area_queue_render (GTK_GL_AREA (viewport));
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) > before, 15000);
}

/* The read-back shows the figure: skin pixels where the hips, chest and head project,
 * the background in the corners. */
static void
test_readback_shows_figure (void)
{
  static const char *segments[] = { "Hips", "Chest", "Head", "LeftUpLeg" };
  OdoriWindow *window;
  OdoriSession *session;
  OdoriViewport *viewport;
  Image image = { 0 };
  const guint8 *bg;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  g_assert_true (ODORI_IS_VIEWPORT (window->viewport));
  viewport = ODORI_VIEWPORT (window->viewport);
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) >= 1, 15000);
  g_assert_null (gtk_gl_area_get_error (GTK_GL_AREA (viewport)));
  odori_session_set_frame (session, 100);
  wait_for_render (viewport);

  grab (GTK_WIDGET (viewport), &image);
  g_assert_cmpint (image.width, ==, gtk_widget_get_width (GTK_WIDGET (viewport)));
  g_assert_cmpint (image.height, >, 100);
  bg = pixel (&image, 3, 3);
  /* The top corners are both background. */
  g_assert_cmpint (difference (bg, pixel (&image, image.width - 4, 3)), <, 30);

  for (guint i = 0; i < G_N_ELEMENTS (segments); i++)
    {
      float xy[2];
      guint n;

      project_segment (viewport, session, segments[i], xy);
      g_test_message ("%s at %.0f,%.0f", segments[i], xy[0], xy[1]);
      g_assert_cmpfloat (xy[0], >, 0);
      g_assert_cmpfloat (xy[0], <, image.width);
      g_assert_cmpfloat (xy[1], >, 0);
      g_assert_cmpfloat (xy[1], <, image.height);
      n = count_figure_pixels (&image, xy[0], xy[1], 4, bg);
      g_assert_cmpuint (n, >=, 40);
    }
  /* Far from the figure (the top corner band) there is none. */
  g_assert_cmpuint (count_figure_pixels (&image, 10, 10, 4, bg), ==, 0);
  image_clear (&image);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* On GSK's cairo renderer (software GL, as here) the viewport reads its frame back
 * itself: the picture is GtkGLArea's own, the right way up and in the right colours. */
static void
test_read_back_matches_gl_area (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  OdoriViewport *viewport;
  Image ours = { 0 }, theirs = { 0 };
  guint64 total = 0;
  int worst = 0;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  viewport = ODORI_VIEWPORT (window->viewport);
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) >= 1, 15000);
  g_assert_true (GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (window))));
  g_assert_true (odori_viewport_get_read_back (viewport));
  odori_session_set_frame (session, 210);
  wait_for_render (viewport);
  grab (GTK_WIDGET (viewport), &ours);

  odori_viewport_set_read_back (viewport, FALSE);
  wait_for_render (viewport);
  grab (GTK_WIDGET (viewport), &theirs);
  g_assert_cmpint (ours.width, ==, theirs.width);
  g_assert_cmpint (ours.height, ==, theirs.height);
  for (int y = 0; y < ours.height; y++)
    for (int x = 0; x < ours.width; x++)
      {
        int d = difference (pixel (&ours, x, y), pixel (&theirs, x, y));

        total += (guint64) d;
        worst = MAX (worst, d);
      }
  g_test_message ("read back vs GtkGLArea: largest difference %d, mean %.3f", worst,
                  (double) total / ((double) ours.width * ours.height));
  /* the same GL frame both ways: at most rounding */
  g_assert_cmpint (worst, <=, 3);
  /* and the figure is there, not a blank frame */
  {
    float xy[2];

    project_segment (viewport, session, "Chest", xy);
    g_assert_cmpuint (count_figure_pixels (&ours, xy[0], xy[1], 4, pixel (&ours, 3, 3)), >=, 40);
  }
  image_clear (&ours);
  image_clear (&theirs);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Front view: the dancer's left hand is on the right of the picture; in the mirror
 * view, as in a studio mirror, on the left. */
static void
test_mirror_view (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  OdoriViewport *viewport;
  OdoriMotion *motion;
  float hips[2], left[2];
  guint best_frame = 1;
  float best = -1;
  int l, r;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  viewport = ODORI_VIEWPORT (window->viewport);
  motion = odori_session_get_display_motion (session);
  l = odori_motion_find_segment (motion, "LeftHand");
  r = odori_motion_find_segment (motion, "RightHand");
  /* The frame where the hands are widest apart. */
  for (guint f = 0; f < motion->n_frames; f++)
    {
      float d = fabsf (odori_motion_get (motion, f, l)->position[0] - odori_motion_get (motion, f, r)->position[0]);

      if (d > best)
        {
          best = d;
          best_frame = f + 1;
        }
    }
  odori_session_set_frame (session, best_frame);
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) >= 1, 15000);

  g_action_group_activate_action (G_ACTION_GROUP (window), "view", g_variant_new_string ("front"));
  wait_for_render (viewport);
  project_segment (viewport, session, "Hips", hips);
  project_segment (viewport, session, "LeftHand", left);
  g_assert_cmpfloat (left[0], >, hips[0] + 10);

  g_action_group_activate_action (G_ACTION_GROUP (window), "view", g_variant_new_string ("mirror"));
  wait_for_render (viewport);
  project_segment (viewport, session, "Hips", hips);
  project_segment (viewport, session, "LeftHand", left);
  g_assert_cmpfloat (left[0], <, hips[0] - 10);
  g_assert_cmpstr (g_variant_get_string (g_action_group_get_action_state (G_ACTION_GROUP (window), "view"), NULL),
                   ==, "mirror");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Orbit, zoom and frame-all move the camera and frame-all brings the figure back. */
static void
test_camera_moves (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  OdoriViewport *viewport;
  float a[2], b[2], c[2];

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  viewport = ODORI_VIEWPORT (window->viewport);
  WAIT_UNTIL (odori_viewport_get_n_renders (viewport) >= 1, 15000);
  wait_for_render (viewport);
  project_segment (viewport, session, "Head", a);

  odori_viewport_zoom (viewport, 0.25);
  odori_viewport_pan (viewport, 300, 0);
  wait_for_render (viewport);
  project_segment (viewport, session, "Head", b);
  g_assert_cmpfloat (fabsf (a[0] - b[0]) + fabsf (a[1] - b[1]), >, 20);

  g_action_group_activate_action (G_ACTION_GROUP (window), "frame-all", NULL);
  wait_for_render (viewport);
  project_segment (viewport, session, "Head", c);
  g_assert_cmpfloat (fabsf (a[0] - c[0]) + fabsf (a[1] - c[1]), <, 2);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/viewport/readback-shows-figure", test_readback_shows_figure);
  g_test_add_func ("/app/viewport/read-back-matches-gl-area", test_read_back_matches_gl_area);
  g_test_add_func ("/app/viewport/mirror-view", test_mirror_view);
  g_test_add_func ("/app/viewport/camera-moves", test_camera_moves);
  return app_test_finish (g_test_run ());
}
