/* test-motion.c: the motion model and rotation helpers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-motion.h"
#include "odori-sample.h"
#include "odori-skeleton.h"
#include "odori-skin.h"
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

/* Root offsets (OdoriMotion.root_offsets), as an editing composer keeps them: every reader
 * of world transforms sees the stored position plus the frame's offset for the segments
 * that follow the root, and gives what it gives for the same motion with the offsets
 * added in (odori_motion_copy ()). The motion is the sample library's te.bva, with
 * travelling offsets taken out of the stored positions of all segments but the arms. */
static GBytes *
written (const OdoriMotion *m,
         gboolean           bvh)
{
  OdoriOutput *out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  if (bvh)
    odori_bvh_write (m, NULL, out);
  else
    odori_bva_write (m, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  bytes = odori_output_steal_bytes (out);
  odori_output_free (out);
  return bytes;
}

static void
test_root_offsets (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-motion-XXXXXX", &error);
  g_autofree char *te = NULL;
  g_autoptr(OdoriMotion) src = NULL;
  g_autoptr(OdoriMotion) flat = NULL;
  g_autoptr(OdoriMotion) again = NULL;
  g_autoptr(OdoriMotion) part = NULL;
  g_autoptr(OdoriSkeleton) sk_off = NULL;
  g_autoptr(OdoriSkeleton) sk_flat = NULL;
  g_autoptr(OdoriSkin) skin = NULL;
  g_autofree guint8         *follows = NULL;
  g_autofree OdoriTransform *buf = NULL;
  OdoriMotion               *m;
  guint                      n_seg, n_vert;
  int                        arm;

  g_assert_no_error (error);
  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  te = g_build_filename (dir, "te.bva", NULL);
  src = odori_bva_load (te, NULL, &error);
  g_assert_no_error (error);
  m = odori_motion_copy (src);
  n_seg = m->n_segments;
  g_assert_null (m->root_offsets);
  arm = odori_motion_find_segment (m, "LeftUpArm");
  g_assert_cmpint (arm, >=, 0);

  follows = g_new0 (guint8, n_seg);
  for (guint s = 0; s < n_seg; s++)
    follows[s] = strstr (m->segments[s].name, "Arm") == NULL && strstr (m->segments[s].name, "Hand") == NULL;
  odori_motion_set_root_offsets (m, follows);
  g_assert_nonnull (m->root_offsets);
  for (guint f = 0; f < m->n_frames; f++)
    {
      float off[3] = { 1.5f * f, 0.25f, -2.0f * f };

      memcpy (m->root_offsets + f * 3, off, sizeof off);
      for (guint s = 0; s < n_seg; s++)
        if (follows[s])
          for (int k = 0; k < 3; k++)
            odori_motion_get (m, f, s)->position[k] -= off[k];
    }

  /* world transforms: stored plus offset where the segment follows */
  {
    OdoriTransform w;
    float          p[3];
    guint          f = m->n_frames - 1, hips = odori_motion_find_segment (m, "Hips");

    odori_motion_get_world (m, f, hips, &w);
    odori_motion_get_world_position (m, f, hips, p);
    g_assert_cmpfloat (w.position[0], ==, odori_motion_get (m, f, hips)->position[0] + m->root_offsets[f * 3]);
    g_assert_cmpmem (p, sizeof p, w.position, sizeof p);
    g_assert_cmpfloat_with_epsilon (w.position[2], odori_motion_get (src, f, hips)->position[2], 1e-3);
    odori_motion_get_world (m, f, arm, &w);
    g_assert_cmpmem (&w, sizeof w, odori_motion_get (m, f, arm), sizeof w);
    g_assert_true (odori_motion_world (m, f, hips, &w) == &w);
  }

  flat = odori_motion_copy (m);
  g_assert_null (flat->root_offsets);
  g_assert_true (odori_motion_equal (m, flat, 0, 0, NULL));
  g_assert_true (odori_motion_equal (flat, src, 1e-3, 1e-3, NULL));
  /* the stored transforms alone are not the world: a reader that forgets the offsets
   * is caught by the comparisons below */
  g_assert_true (memcmp (odori_motion_get (m, 10, 0), odori_motion_get (flat, 10, 0),
                         n_seg * sizeof (OdoriTransform)) != 0);
  buf = g_new (OdoriTransform, n_seg);
  for (guint f = 0; f < m->n_frames; f += 7)
    g_assert_cmpmem (odori_motion_get_frame (m, f, buf), n_seg * sizeof (OdoriTransform),
                     odori_motion_get (flat, f, 0), n_seg * sizeof (OdoriTransform));
  g_assert_true (odori_motion_get_frame (flat, 3, buf) == odori_motion_get (flat, 3, 0));

  /* writers, the skeleton and the skin read the world */
  for (int bvh = 0; bvh < 2; bvh++)
    {
      g_autoptr(GBytes) a = written (m, bvh);
      g_autoptr(GBytes) b = written (flat, bvh);

      g_assert_true (g_bytes_equal (a, b));
    }
  sk_off = odori_skeleton_for_motion (m);
  sk_flat = odori_skeleton_for_motion (flat);
  g_assert_nonnull (sk_off);
  g_assert_cmpuint (sk_off->n_bones, ==, sk_flat->n_bones);
  for (guint b = 0; b < sk_off->n_bones; b++)
    g_assert_cmpfloat (sk_off->bones[b].length, ==, sk_flat->bones[b].length);
  skin = odori_skin_new (sk_flat, NULL, 6, 8);
  n_vert = odori_skin_get_n_vertices (skin);
  {
    g_autofree float *pa = g_new (float, n_vert * 3), *na = g_new (float, n_vert * 3);
    g_autofree float *pb = g_new (float, n_vert * 3), *nb = g_new (float, n_vert * 3);
    guint             f = m->n_frames / 2;

    odori_skin_pose (skin, m, f, FALSE, pa, na);
    odori_skin_pose (skin, flat, f, FALSE, pb, nb);
    g_assert_cmpmem (pa, n_vert * 3 * sizeof (float), pb, n_vert * 3 * sizeof (float));
    g_assert_cmpmem (na, n_vert * 3 * sizeof (float), nb, n_vert * 3 * sizeof (float));
  }

  /* resampling reads the world; resizing carries the offsets on */
  part = odori_motion_resample (m, 11, 20, m->frame_time, &error);
  g_assert_no_error (error);
  g_assert_null (part->root_offsets);
  g_assert_cmpmem (odori_motion_get (part, 0, 0), 10 * n_seg * sizeof (OdoriTransform),
                   odori_motion_get (flat, 10, 0), 10 * n_seg * sizeof (OdoriTransform));
  g_clear_pointer (&part, odori_motion_unref);
  part = odori_motion_resample (m, 1, m->n_frames, m->frame_time / 2, &error);
  g_assert_no_error (error);
  again = odori_motion_resample (flat, 1, flat->n_frames, flat->frame_time / 2, &error);
  g_assert_no_error (error);
  g_assert_true (odori_motion_equal (part, again, 0, 0, NULL));
  {
    guint n = m->n_frames;

    g_assert_true (odori_motion_resize (m, n + 5, &error));
    g_assert_cmpfloat (m->root_offsets[(n + 4) * 3], ==, m->root_offsets[(n - 1) * 3]);
    g_assert_true (odori_motion_resize (m, n - 5, &error));
    g_assert_cmpfloat (m->root_offsets[(n - 6) * 3], ==, 1.5f * (n - 6));
  }
  odori_motion_set_root_offsets (m, NULL);
  g_assert_null (m->root_offsets);
  g_assert_null (m->follows_root);
  odori_motion_unref (m);

  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_remove (path);
      }
    g_rmdir (dir);
  }
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
  g_test_add_func ("/motion/root-offsets", test_root_offsets);

  return g_test_run ();
}
