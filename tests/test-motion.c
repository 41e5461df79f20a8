/* test-motion.c: the motion model and rotation helpers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "odori-motion.h"
#include "odori-text.h"

static void
rotate (const float q[4],
        const float v[3],
        float       out[3])
{
  versor qq = { q[0], q[1], q[2], q[3] };
  vec3 vv = { v[0], v[1], v[2] };

  glm_quat_rotatev (qq, vv, out);
}

/* R = Rz·Rx·Ry for "ZXY": Y rotated first, so +X under (Z 90, X 0, Y 90) goes
 * X --Ry(90)--> -Z --Rz(90)--> -Z. And +Y under (Z 90, X 90, Y 0): Y --Rx--> Z --Rz--> Z. */
static void
test_euler_order_known (void)
{
  const double a1[3] = { 90, 0, 90 };
  const double a2[3] = { 90, 90, 0 };
  const double a3[3] = { 0, 90, 0 };
  const float x[3] = { 1, 0, 0 }, y[3] = { 0, 1, 0 };
  float q[4], v[3];

  odori_euler_to_quat ("ZXY", a1, q);
  rotate (q, x, v);
  g_assert_cmpfloat_with_epsilon (v[0], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (v[1], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (v[2], -1, 1e-6);

  odori_euler_to_quat ("ZXY", a2, q);
  rotate (q, y, v);
  g_assert_cmpfloat_with_epsilon (v[0], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (v[1], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (v[2], 1, 1e-6);

  /* a pure X rotation of 90 takes +Y to +Z (right-handed) */
  odori_euler_to_quat ("ZXY", a3, q);
  rotate (q, y, v);
  g_assert_cmpfloat_with_epsilon (v[2], 1, 1e-6);
}

/* Euler → quaternion → Euler gives the same rotation for every order, and the
 * angles themselves away from gimbal lock. */
static void
test_euler_round_trip (void)
{
  const char *orders[] = { "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX" };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
    for (guint i = 0; i < 2000; i++)
      {
        double a[3] = { g_rand_double_range (rand, -179, 179),
                        g_rand_double_range (rand, -85, 85),
                        g_rand_double_range (rand, -179, 179) };
        double b[3];
        float q[4], q2[4];

        odori_euler_to_quat (orders[o], a, q);
        odori_quat_to_euler (orders[o], q, NULL, b);
        for (int n = 0; n < 3; n++)
          g_assert_cmpfloat_with_epsilon (a[n], b[n], 2e-3);
        odori_euler_to_quat (orders[o], b, q2);
        g_assert_cmpfloat (odori_quat_angle_deg (q, q2), <, 1e-3);
      }
  g_rand_free (rand);
}

/* Near the previous frame: a rotation just past 180 stays continuous, and gimbal lock
 * still reproduces the rotation. */
static void
test_euler_continuity (void)
{
  double prev[3] = { 179, 10, -179 };
  double a[3] = { -179, 10, 179 };  /* same as 181, 10, -181 */
  double out[3];
  float q[4], q2[4];
  const double lock[3] = { 30, 90, 20 };

  odori_euler_to_quat ("ZXY", a, q);
  odori_quat_to_euler ("ZXY", q, prev, out);
  g_assert_cmpfloat_with_epsilon (out[0], 181, 1e-3);
  g_assert_cmpfloat_with_epsilon (out[1], 10, 1e-3);
  g_assert_cmpfloat_with_epsilon (out[2], -181, 1e-3);

  odori_euler_to_quat ("ZXY", lock, q);
  odori_quat_to_euler ("ZXY", q, lock, out);
  odori_euler_to_quat ("ZXY", out, q2);
  g_assert_cmpfloat (odori_quat_angle_deg (q, q2), <, 0.05);
}

/* Near gimbal lock (within a hundredth of a degree of 90) the middle angle keeps full
 * precision: asin of a float-derived sine would lose ~0.02 degrees there. */
static void
test_euler_near_lock (void)
{
  const double cases[][3] = { { 0, 90.008745582, 0 }, { 30, 90.01, -50 }, { -12, 89.995, 7 } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      float q[4], q2[4];
      double out[3];

      odori_euler_to_quat ("ZXY", cases[i], q);
      odori_quat_to_euler ("ZXY", q, cases[i], out);
      odori_euler_to_quat ("ZXY", out, q2);
      g_assert_cmpfloat (odori_quat_angle_deg (q, q2), <, 1e-3);
    }
}

static void
test_quat_angle (void)
{
  float a[4] = { 0, 0, 0, 1 };
  float b[4], c[4];
  const double r[3] = { 0, 0, 30 };

  odori_euler_to_quat ("ZXY", r, b);
  g_assert_cmpfloat_with_epsilon (odori_quat_angle_deg (a, b), 30, 1e-4);
  for (int i = 0; i < 4; i++)
    c[i] = -b[i];
  g_assert_cmpfloat_with_epsilon (odori_quat_angle_deg (b, c), 0, 1e-6);
}

static void
test_motion_alloc (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = odori_motion_new (3, 10, 1.0 / 30, &error);
  OdoriMotion *huge;
  g_autoptr(OdoriMotion) copy = NULL;
  g_autofree char *why = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 10);
  g_assert_cmpfloat (odori_motion_get (m, 9, 2)->rotation[3], ==, 1);
  g_assert_cmpfloat (odori_motion_get (m, 9, 2)->scale[0], ==, 100);
  odori_motion_set_segment_name (m, 0, "Hips");
  odori_motion_set_segment_name (m, 1, "Chest");
  odori_motion_set_segment_name (m, 2, "Head");
  g_assert_cmpint (odori_motion_find_segment (m, "Head"), ==, 2);
  g_assert_cmpint (odori_motion_find_segment (m, "Foot"), ==, -1);
  /* the layout is frame-major in one block */
  g_assert_true (odori_motion_get (m, 1, 0) == m->transforms + 3);

  odori_motion_get (m, 9, 1)->position[0] = 5;
  g_assert_true (odori_motion_resize (m, 12, NULL));
  g_assert_cmpfloat (odori_motion_get (m, 11, 1)->position[0], ==, 5);

  copy = odori_motion_copy (m);
  g_assert_true (odori_motion_equal (m, copy, 0, 0, NULL));
  odori_motion_get (copy, 4, 2)->position[1] = 0.5;
  g_assert_false (odori_motion_equal (m, copy, 0.1, 0.1, &why));
  g_assert_nonnull (strstr (why, "frame 5 segment Head"));

  huge = odori_motion_new (1000, 2000000000u, 0.01, &error);
  g_assert_null (huge);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_TOO_LARGE);
}

static void
test_units (void)
{
  OdoriUnit u;

  g_assert_true (odori_unit_from_string ("centimeters", 11, &u));
  g_assert_cmpint (u, ==, ODORI_UNIT_CENTIMETERS);
  g_assert_false (odori_unit_from_string ("FURLONGS", 8, &u));
  g_assert_cmpstr (odori_unit_to_string (ODORI_UNIT_RADIANS), ==, "RADIANS");
  g_assert_cmpstr (odori_field_to_string (ODORI_FIELD_ZSCALE), ==, "ZSCALE");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/motion/euler/known", test_euler_order_known);
  g_test_add_func ("/motion/euler/round-trip", test_euler_round_trip);
  g_test_add_func ("/motion/euler/continuity", test_euler_continuity);
  g_test_add_func ("/motion/euler/near-lock", test_euler_near_lock);
  g_test_add_func ("/motion/quat-angle", test_quat_angle);
  g_test_add_func ("/motion/alloc", test_motion_alloc);
  g_test_add_func ("/motion/units", test_units);

  return g_test_run ();
}
