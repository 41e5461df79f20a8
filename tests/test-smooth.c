/* test-smooth.c: quaternion-safe motion smoothing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "odori-smooth.h"

#define N_FRAMES 240
#define FPS 30.0

/* A deterministic pseudo-random number in [-1, 1]. */
static double
noise (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return ((*state >> 8) / (double) (1u << 24)) * 2.0 - 1.0;
}

/* A clean motion: segment s turns about a tilted axis by 40°·sin(ω t + s) and moves along
 * a slow curve (positions in cm). */
static void
clean_pose (guint  frame,
            guint  seg,
            float  pos[3],
            float  rot[4])
{
  double t = frame / FPS;
  double angle = glm_rad (40.0 * sin (1.3 * t + seg));
  vec3 axis = { 0.3f, 1.0f, 0.2f * seg };

  glm_quatv (rot, (float) angle, axis);
  pos[0] = (float) (50.0 * sin (0.4 * t + seg));
  pos[1] = (float) (100.0 + 10.0 * seg + 5.0 * cos (0.7 * t));
  pos[2] = (float) (30.0 * t);
}

static OdoriMotion *
make_motion (guint    n_segments,
             gboolean jitter,
             gboolean flip_signs)
{
  OdoriMotion *m = odori_motion_new (n_segments, N_FRAMES, 1.0 / FPS, NULL);
  guint32 state = 12345;

  g_assert_nonnull (m);
  for (guint f = 0; f < N_FRAMES; f++)
    for (guint s = 0; s < n_segments; s++)
      {
        OdoriTransform *t = odori_motion_get (m, f, s);

        clean_pose (f, s, t->position, t->rotation);
        if (jitter)
          {
            versor j, out;
            vec3 axis = { (float) noise (&state), (float) noise (&state), (float) noise (&state) };

            glm_quatv (j, (float) glm_rad (3.0 * noise (&state)), axis);
            glm_quat_mul (j, t->rotation, out);
            glm_quat_copy (out, t->rotation);
            for (int k = 0; k < 3; k++)
              t->position[k] += (float) (0.8 * noise (&state));
          }
        if (flip_signs && f % 2 == 1)
          glm_vec4_negate (t->rotation);
      }
  return m;
}

/* Largest and mean rotation difference (degrees) between M and the clean motion, inner
 * frames. */
static void
error_vs_clean (const OdoriMotion *m,
                double            *max_deg,
                double            *mean_deg,
                double            *max_pos)
{
  double sum = 0;
  guint n = 0;

  *max_deg = *mean_deg = *max_pos = 0;
  for (guint f = 5; f + 5 < m->n_frames; f++)
    for (guint s = 0; s < m->n_segments; s++)
      {
        float pos[3], rot[4];
        const OdoriTransform *t = odori_motion_get (m, f, s);
        double a, d = 0;

        clean_pose (f, s, pos, rot);
        a = odori_quat_angle_deg (rot, t->rotation);
        for (int k = 0; k < 3; k++)
          d += (pos[k] - t->position[k]) * (pos[k] - t->position[k]);
        *max_deg = MAX (*max_deg, a);
        *max_pos = MAX (*max_pos, sqrt (d));
        sum += a;
        n++;
      }
  *mean_deg = sum / n;
}

static void
test_reduces_jitter (void)
{
  g_autoptr(OdoriMotion) m = make_motion (3, TRUE, FALSE);
  OdoriSmoothReport report;
  double max_before, mean_before, pos_before, max_after, mean_after, pos_after;
  double jitter_before, jitter_after, pj_before, pj_after;

  error_vs_clean (m, &max_before, &mean_before, &pos_before);
  jitter_before = odori_smooth_jitter (m, &pj_before);
  odori_smooth_motion (m, 4, ODORI_SMOOTH_ALL, &report);
  error_vs_clean (m, &max_after, &mean_after, &pos_after);
  jitter_after = odori_smooth_jitter (m, &pj_after);

  g_test_message ("jitter %.3f -> %.3f deg, error vs clean: mean %.3f -> %.3f deg, max %.3f -> %.3f deg",
                  jitter_before, jitter_after, mean_before, mean_after, max_before, max_after);
  /* the jitter mostly goes, and the result is closer to the clean motion */
  g_assert_cmpfloat (jitter_after, <, 0.25 * jitter_before);
  g_assert_cmpfloat (pj_after, <, 0.25 * pj_before);
  g_assert_cmpfloat (mean_after, <, 0.5 * mean_before);
  g_assert_cmpfloat (pos_after, <, pos_before);
  /* the report says so */
  g_assert_cmpuint (report.strength, ==, 4);
  g_assert_cmpfloat_with_epsilon (report.jitter_before_deg, jitter_before, 1e-9);
  g_assert_cmpfloat_with_epsilon (report.jitter_after_deg, jitter_after, 1e-9);
  g_assert_cmpfloat (report.max_rotation_deg, >, 0.5);
  g_assert_cmpfloat (report.max_rotation_deg, <, 6.0);
  g_assert_cmpfloat (report.mean_rotation_deg, >, 0.1);
  g_assert_cmpfloat (report.mean_rotation_deg, <=, report.max_rotation_deg);
  g_assert_cmpint (report.max_rotation_segment, >=, 0);
  g_assert_cmpint (report.max_rotation_segment, <, 3);
  g_assert_cmpuint (report.max_rotation_frame, <, N_FRAMES);
  g_assert_cmpfloat (report.max_position, >, 0.1);
  g_assert_cmpfloat (report.max_position, <, 3.0);
}

static void
test_clean_nearly_unchanged (void)
{
  g_autoptr(OdoriMotion) m = make_motion (3, FALSE, FALSE);
  g_autoptr(OdoriMotion) orig = odori_motion_copy (m);
  OdoriSmoothReport report;
  g_autofree char *why = NULL;

  odori_smooth_motion (m, 4, ODORI_SMOOTH_ALL, &report);
  g_test_message ("clean motion: largest correction %.4f deg, %.4f cm", report.max_rotation_deg,
                  report.max_position);
  /* A Gaussian of σ frames moves a curve by about σ²/2 × its acceleration per frame²:
   * 40° at 1.3 rad/s is 0.075°/frame², σ = 2, so about 0.15° at the turning points. */
  g_assert_cmpfloat (report.max_rotation_deg, <, 0.2);
  g_assert_cmpfloat (report.mean_rotation_deg, <, 0.1);
  g_assert_cmpfloat (report.max_position, <, 0.05);
  g_assert_true (odori_motion_equal (m, orig, 0.05, 0.2, &why));
}

static void
test_linear_unchanged (void)
{
  g_autoptr(OdoriMotion) m = odori_motion_new (1, 60, 1.0 / FPS, NULL);
  OdoriSmoothReport report;

  for (guint f = 0; f < 60; f++)
    {
      OdoriTransform *t = odori_motion_get (m, f, 0);

      glm_quatv (t->rotation, glm_rad (2.0f * f), (vec3) { 0, 1, 0 });
      t->position[0] = 3.0f * f;
      t->position[1] = 100.0f - 0.5f * f;
      t->position[2] = 7.0f;
    }
  odori_smooth_motion (m, 6, ODORI_SMOOTH_ALL, &report);
  g_assert_cmpfloat (report.max_rotation_deg, <, 0.01);
  g_assert_cmpfloat (report.max_position, <, 1e-3);
  /* the ends stay exactly */
  g_assert_cmpfloat (odori_motion_get (m, 0, 0)->position[0], ==, 0.0f);
  g_assert_cmpfloat (odori_motion_get (m, 59, 0)->position[0], ==, 177.0f);
}

static void
test_sign_safe (void)
{
  g_autoptr(OdoriMotion) m = make_motion (2, TRUE, TRUE);
  g_autoptr(OdoriMotion) same = make_motion (2, TRUE, FALSE);
  OdoriSmoothReport report, report_same;

  /* q and −q alternate: the same rotations, so smoothing must give what it gives on the
   * sign-continuous motion, and never collapse towards zero */
  odori_smooth_motion (m, 5, ODORI_SMOOTH_ROTATIONS, &report);
  odori_smooth_motion (same, 5, ODORI_SMOOTH_ROTATIONS, &report_same);
  g_assert_cmpfloat_with_epsilon (report.max_rotation_deg, report_same.max_rotation_deg, 1e-3);
  g_assert_cmpfloat (report.max_position, ==, 0.0);
  for (guint f = 0; f < m->n_frames; f++)
    for (guint s = 0; s < m->n_segments; s++)
      {
        const float *q = odori_motion_get (m, f, s)->rotation;

        g_assert_cmpfloat_with_epsilon (glm_quat_norm ((float *) q), 1.0, 1e-5);
        g_assert_cmpfloat (odori_quat_angle_deg (q, odori_motion_get (same, f, s)->rotation), <, 1e-3);
      }
}

static void
test_flags_and_zero (void)
{
  g_autoptr(OdoriMotion) m = make_motion (2, TRUE, FALSE);
  g_autoptr(OdoriMotion) orig = odori_motion_copy (m);
  OdoriSmoothReport report;

  odori_smooth_motion (m, 0, ODORI_SMOOTH_ALL, &report);
  g_assert_true (odori_motion_equal (m, orig, 0, 0, NULL));
  g_assert_cmpfloat (report.max_rotation_deg, ==, 0.0);
  g_assert_cmpint (report.max_rotation_segment, ==, -1);

  /* positions only: rotations untouched */
  odori_smooth_motion (m, 3, ODORI_SMOOTH_POSITIONS, &report);
  g_assert_cmpfloat (report.max_rotation_deg, ==, 0.0);
  g_assert_cmpfloat (report.max_position, >, 0.1);
  for (guint f = 0; f < m->n_frames; f++)
    g_assert_cmpmem (odori_motion_get (m, f, 1)->rotation, 16,
                     odori_motion_get (orig, f, 1)->rotation, 16);
}

static void
test_report_string (void)
{
  g_autoptr(OdoriMotion) m = make_motion (2, TRUE, FALSE);
  OdoriSmoothReport report;
  g_autofree char *text = NULL;

  odori_motion_set_segment_name (m, 0, "Hips");
  odori_motion_set_segment_name (m, 1, "LeftUpArm");
  for (guint s = 0; s < 2; s++)
    m->segments[s].units[0] = ODORI_UNIT_CENTIMETERS;
  odori_smooth_motion (m, 3, ODORI_SMOOTH_ALL, &report);
  text = odori_smooth_report_to_string (&report, m);
  g_assert_true (g_str_has_prefix (text, "smoothing 3: largest correction "));
  g_assert_nonnull (strstr (text, report.max_rotation_segment == 0 ? "(Hips, frame " : "(LeftUpArm, frame "));
  g_assert_nonnull (strstr (text, " cm"));
  g_assert_nonnull (strstr (text, "jitter"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/smooth/reduces-jitter", test_reduces_jitter);
  g_test_add_func ("/smooth/clean-nearly-unchanged", test_clean_nearly_unchanged);
  g_test_add_func ("/smooth/linear-unchanged", test_linear_unchanged);
  g_test_add_func ("/smooth/sign-safe", test_sign_safe);
  g_test_add_func ("/smooth/flags-and-zero", test_flags_and_zero);
  g_test_add_func ("/smooth/report-string", test_report_string);
  return g_test_run ();
}
