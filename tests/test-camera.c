/* test-camera.c: the renderer's camera as plain math, without a display or GL context
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "odori-camera.h"

#define W 640
#define H 480

static const OdoriView all_views[] = {
  ODORI_VIEW_FRONT,
  ODORI_VIEW_BACK,
  ODORI_VIEW_LEFT,
  ODORI_VIEW_RIGHT,
  ODORI_VIEW_TOP,
  ODORI_VIEW_MIRROR,
  ODORI_VIEW_THREE_QUARTER,
};

/* A camera on VIEW looking at TARGET from DISTANCE, updated for a W x H viewport. */
static void
camera_at (OdoriCamera *camera,
           OdoriView    view,
           const vec3   target,
           float        distance)
{
  odori_camera_init (camera);
  odori_camera_set_view (camera, view);
  glm_vec3_copy ((float *) target, camera->target);
  camera->distance = distance;
  odori_camera_update (camera, W, H, NULL, NULL, 1.f);
}

static float
eye_distance (OdoriCamera *camera)
{
  vec3 eye;

  odori_camera_get_eye (camera, eye);
  return glm_vec3_distance (eye, camera->target);
}

static void
test_view_names (void)
{
  static const char *names[] = {
    "front",
    "back",
    "left",
    "right",
    "top",
    "mirror",
    "three-quarter",
  };
  OdoriView v;

  g_assert_cmpuint (G_N_ELEMENTS (names), ==, G_N_ELEMENTS (all_views));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (odori_view_from_string (names[i], &v));
      g_assert_cmpint (v, ==, all_views[i]);
      g_assert_cmpstr (odori_view_to_string (v), ==, names[i]);
    }
  g_assert_true (odori_view_from_string ("Three-Quarter", &v));
  g_assert_cmpint (v, ==, ODORI_VIEW_THREE_QUARTER);
  v = ODORI_VIEW_TOP;
  g_assert_false (odori_view_from_string ("side", &v));
  g_assert_false (odori_view_from_string ("", &v));
  g_assert_cmpint (v, ==, ODORI_VIEW_TOP);
}

/* The target and any point between it and the eye land in the middle of the image; the
 * world's +X is on the right from the front and on the left in the mirror. */
static void
test_front_centre (void)
{
  const vec3  target = { 1.f, 2.f, -3.f };
  OdoriCamera camera;
  vec3        eye, p;
  float       win[2], right[2];

  camera_at (&camera, ODORI_VIEW_FRONT, target, 5.f);
  odori_camera_get_eye (&camera, eye);
  g_assert_cmpfloat_with_epsilon (eye[0], 1.f, 1e-5);
  g_assert_cmpfloat_with_epsilon (eye[1], 2.f, 1e-5);
  g_assert_cmpfloat_with_epsilon (eye[2], 2.f, 1e-5); /* front: from +Z */

  odori_camera_project (&camera, target, win);
  g_assert_cmpfloat_with_epsilon (win[0], W / 2.f, 1e-2);
  g_assert_cmpfloat_with_epsilon (win[1], H / 2.f, 1e-2);
  glm_vec3_lerp (eye, (float *) target, 0.5f, p);
  odori_camera_project (&camera, p, win);
  g_assert_cmpfloat_with_epsilon (win[0], W / 2.f, 1e-2);
  g_assert_cmpfloat_with_epsilon (win[1], H / 2.f, 1e-2);

  glm_vec3_add ((float *) target, (vec3){ 0.5f, 0.5f, 0.f }, p);
  odori_camera_project (&camera, p, right);
  g_assert_cmpfloat (right[0], >, W / 2.f + 10.f);
  g_assert_cmpfloat (right[1], <, H / 2.f - 10.f); /* +Y is up the image */

  camera_at (&camera, ODORI_VIEW_MIRROR, target, 5.f);
  g_assert_true (camera.mirror);
  odori_camera_project (&camera, p, win);
  g_assert_cmpfloat_with_epsilon (win[0], W - right[0], 1e-2);
  g_assert_cmpfloat_with_epsilon (win[1], right[1], 1e-2);
}

/* From the top, the dancer's front (+Z) is at the bottom of the image. */
static void
test_top (void)
{
  const vec3  target = { 0.f, 0.f, 0.f };
  OdoriCamera camera;
  float       win[2];

  camera_at (&camera, ODORI_VIEW_TOP, target, 8.f);
  odori_camera_project (&camera, (vec3){ 0.f, 0.f, 1.f }, win);
  g_assert_cmpfloat_with_epsilon (win[0], W / 2.f, 1e-2);
  g_assert_cmpfloat (win[1], >, H / 2.f + 10.f);
  odori_camera_project (&camera, (vec3){ 0.f, 3.f, 0.f }, win);
  g_assert_cmpfloat_with_epsilon (win[0], W / 2.f, 1e-2);
  g_assert_cmpfloat_with_epsilon (win[1], H / 2.f, 1e-2);
}

static void
test_orbit (void)
{
  static const struct
  {
    float yaw, pitch;
  } steps[] = {
    { 30.f, 0.f },
    { 0.f, 20.f },
    { -75.f, -40.f },
    { 400.f, 10.f },
    { 12.5f, -3.f },
  };
  const vec3  target = { 0.3f, 1.1f, -0.7f };
  OdoriCamera camera;

  camera_at (&camera, ODORI_VIEW_THREE_QUARTER, target, 4.f);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      vec3 before, after;

      odori_camera_get_eye (&camera, before);
      odori_camera_orbit (&camera, steps[i].yaw, steps[i].pitch);
      odori_camera_get_eye (&camera, after);
      g_assert_cmpfloat_with_epsilon (eye_distance (&camera), 4.f, 1e-4);
      g_assert_cmpfloat (glm_vec3_distance (before, after), >, 0.01f);
      g_assert_cmpfloat_with_epsilon (glm_vec3_distance (camera.target, (float *) target), 0.f, 1e-6);
    }

  /* pitch stops short of below and at straight above; junk moves nothing */
  odori_camera_orbit (&camera, 0.f, 500.f);
  g_assert_cmpfloat (camera.pitch, ==, 90.f);
  odori_camera_orbit (&camera, 0.f, -500.f);
  g_assert_cmpfloat (camera.pitch, ==, -89.f);
  odori_camera_orbit (&camera, NAN, 10.f);
  odori_camera_orbit (&camera, 10.f, INFINITY);
  g_assert_cmpfloat (camera.pitch, ==, -89.f);

  /* in the mirror, a drag turns the flipped image the same way on screen */
  {
    OdoriCamera front, mirror;

    camera_at (&front, ODORI_VIEW_FRONT, target, 4.f);
    camera_at (&mirror, ODORI_VIEW_MIRROR, target, 4.f);
    odori_camera_orbit (&front, 20.f, 0.f);
    odori_camera_orbit (&mirror, 20.f, 0.f);
    g_assert_cmpfloat_with_epsilon (front.yaw, -mirror.yaw, 1e-5);
  }
}

static void
test_zoom (void)
{
  static const float closer[] = { 1.1f, 1.5f, 2.f, 1.01f, 3.f };
  static const float ignored[] = { 0.f, -2.f, NAN, INFINITY };
  const vec3         target = { 0.f, 1.f, 0.f };
  OdoriCamera        camera;
  float              last;

  camera_at (&camera, ODORI_VIEW_FRONT, target, 10.f);
  last = eye_distance (&camera);
  for (guint i = 0; i < G_N_ELEMENTS (closer); i++)
    {
      odori_camera_zoom (&camera, closer[i]);
      g_assert_cmpfloat (eye_distance (&camera), <, last);
      g_assert_cmpfloat_with_epsilon (eye_distance (&camera), last / closer[i], 1e-4);
      last = eye_distance (&camera);
    }
  for (guint i = 0; i < G_N_ELEMENTS (closer); i++)
    {
      odori_camera_zoom (&camera, 1.f / closer[i]);
      g_assert_cmpfloat (eye_distance (&camera), >, last);
      last = eye_distance (&camera);
    }
  g_assert_cmpfloat_with_epsilon (last, 10.f, 1e-3);
  for (guint i = 0; i < G_N_ELEMENTS (ignored); i++)
    {
      odori_camera_zoom (&camera, ignored[i]);
      g_assert_cmpfloat (camera.distance, ==, last);
    }
  /* never through the target */
  odori_camera_zoom (&camera, 1e9f);
  g_assert_cmpfloat (camera.distance, >, 0.f);
}

/* A drag by (dx, dy) pixels moves the point under the pointer by as much on screen. */
static void
test_pan (void)
{
  const vec3 target = { 0.f, 1.f, 0.f };

  for (guint i = 0; i < G_N_ELEMENTS (all_views); i++)
    {
      OdoriCamera camera;
      float       win[2];

      camera_at (&camera, all_views[i], target, 6.f);
      odori_camera_pan (&camera, 40.f, -25.f);
      odori_camera_update (&camera, W, H, NULL, NULL, 1.f);
      odori_camera_project (&camera, target, win);
      g_assert_cmpfloat_with_epsilon (win[0], W / 2.f + 40.f, 0.05);
      g_assert_cmpfloat_with_epsilon (win[1], H / 2.f - 25.f, 0.05);
      g_assert_cmpfloat_with_epsilon (eye_distance (&camera), 6.f, 1e-4);
    }
}

/* Fitting a box puts its eight corners inside the image, the outermost near the edge. */
static void
test_fit (void)
{
  static const struct
  {
    vec3 lo, hi;
  } boxes[] = {
    { { -0.3f, 0.f, -0.2f }, { 0.3f, 1.8f, 0.2f } }, /* a dancer */
    { { -4.f, 0.f, -1.f }, { 6.f, 1.f, 3.f } },      /* a wide travelling dance */
    { { 10.f, 5.f, 10.f }, { 10.1f, 5.1f, 10.1f } }, /* small and far from the origin */
  };
  static const int sizes[][2] = { { 640, 480 }, { 300, 900 }, { 1920, 400 } };

  for (guint v = 0; v < G_N_ELEMENTS (all_views); v++)
    for (guint b = 0; b < G_N_ELEMENTS (boxes); b++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          int         w = sizes[s][0], h = sizes[s][1];
          OdoriCamera camera;
          float       reach = 0.f;

          odori_camera_init (&camera);
          odori_camera_set_view (&camera, all_views[v]);
          g_assert_true (camera.fit_pending);
          odori_camera_update (&camera, w, h, NULL, NULL, 1.f);
          g_assert_true (camera.fit_pending); /* no bounds yet: the fit waits */
          odori_camera_update (&camera, w, h, boxes[b].lo, boxes[b].hi, 1.f);
          g_assert_false (camera.fit_pending);

          for (int k = 0; k < 8; k++)
            {
              vec3 p = { (k & 1) ? boxes[b].hi[0] : boxes[b].lo[0],
                         (k & 2) ? boxes[b].hi[1] : boxes[b].lo[1],
                         (k & 4) ? boxes[b].hi[2] : boxes[b].lo[2] };
              float win[2];

              odori_camera_project (&camera, p, win);
              g_assert_cmpfloat (win[0], >=, 0.f);
              g_assert_cmpfloat (win[0], <=, w);
              g_assert_cmpfloat (win[1], >=, 0.f);
              g_assert_cmpfloat (win[1], <=, h);
              reach = MAX (reach, fabsf (win[0] - w / 2.f) / (w / 2.f));
              reach = MAX (reach, fabsf (win[1] - h / 2.f) / (h / 2.f));
            }
          /* tight: the box fills the image but for a margin */
          g_assert_cmpfloat (reach, >, 0.8f);
          g_assert_cmpfloat (reach, <, 0.99f);
        }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/camera/view-names", test_view_names);
  g_test_add_func ("/render/camera/front-centre", test_front_centre);
  g_test_add_func ("/render/camera/top", test_top);
  g_test_add_func ("/render/camera/orbit", test_orbit);
  g_test_add_func ("/render/camera/zoom", test_zoom);
  g_test_add_func ("/render/camera/pan", test_pan);
  g_test_add_func ("/render/camera/fit", test_fit);

  return g_test_run ();
}
