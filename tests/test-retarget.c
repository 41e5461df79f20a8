/* test-retarget.c: captures become show files: rotations from positions (OpenRDB), from
 * the file, KBS mapping, twist, symmetry, axes, and captures composed in a library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Synthetic captures come from a known skeleton motion: global rotations are analytic
 * functions of time, positions follow by forward kinematics, and the file's quaternions
 * are derived from the rotations in the file's own convention. The converted bone
 * directions are compared with the known ones.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-index.h"
#include "odori-joints.h"
#include "odori-kbs.h"
#include "odori-retarget.h"
#include "odori-score.h"
#include "odori-sensor-csv.h"
#include "odori-skeleton.h"

#include "seed-joints-example.h"
#include "test-corpus.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
write_tmp (const char *name,
           const char *content,
           gssize      len)
{
  char *path = tmp_path (name);

  g_assert_true (g_file_set_contents (path, content, len, NULL));
  return path;
}

/* Small math */

static void
rot (versor      out,
     double      deg,
     float       x,
     float       y,
     float       z)
{
  glm_quatv (out, glm_rad ((float) deg), (vec3) { x, y, z });
}

static void
mul (const versor a,
     const versor b,
     versor       out)
{
  glm_quat_mul ((float *) a, (float *) b, out);
}

static void
mul3 (const versor a,
      const versor b,
      const versor c,
      versor       out)
{
  versor t;

  mul (a, b, t);
  mul (t, c, out);
}

static void
inv (const versor q,
     versor       out)
{
  out[0] = -q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = q[3];
}

static void
rotate (const versor q,
        const double v[3],
        double       out[3])
{
  vec3 f = { (float) v[0], (float) v[1], (float) v[2] }, r;

  glm_quat_rotatev ((float *) q, f, r);
  for (int k = 0; k < 3; k++)
    out[k] = r[k];
}

static double
angle_between (const double a[3],
               const double b[3])
{
  double na = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  double nb = sqrt (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  double c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (na * nb);

  return glm_deg (acos (CLAMP (c, -1.0, 1.0)));
}

/* Z up (file) → Y up (Odori): (x, y, z) → (x, z, −y) */
static void
z_to_y (const double p[3],
        double       out[3])
{
  out[0] = p[0];
  out[1] = p[2];
  out[2] = -p[1];
}

static void
z_to_y_quat (const versor q,
             versor       out)
{
  versor r, rinv;

  glm_quatv (r, -GLM_PI_2f, (vec3) { 1, 0, 0 });
  inv (r, rinv);
  mul3 (r, q, rinv, out);
}

/* The twist of Q about unit AXIS, in degrees (swing-twist decomposition). */
static double
twist_deg (const versor q,
           const float  axis[3])
{
  float d = q[0] * axis[0] + q[1] * axis[1] + q[2] * axis[2];
  double a = 2 * atan2 (fabs (d), fabs (q[3]));

  return glm_deg (a);
}

/* The synthetic NI skeleton (file axes: Z up, facing +X, left +Y; metres) */

enum {
  NI_PELVIS, NI_TORSO, NI_NECK, NI_HEAD, NI_LSH, NI_LEL, NI_LHA, NI_RSH, NI_REL, NI_RHA,
  NI_LHIP, NI_LKNEE, NI_LFOOT, NI_RHIP, NI_RKNEE, NI_RFOOT, N_NI
};

static const char *ni_names[N_NI] = {
  "PELVIS", "TORSO", "NECK", "HEAD", "L_SHLDR", "L_ELBOW", "L_HAND", "R_SHLDR", "R_ELBOW",
  "R_HAND", "L_HIP", "L_KNEE", "L_FOOT", "R_HIP", "R_KNEE", "R_FOOT",
};

/* Kinect joint → NI joint (the joint's position) */
static const int kinect_ni[ODORI_KINECT_N_JOINTS] = {
  NI_PELVIS, NI_TORSO, NI_LHIP, NI_LKNEE, NI_LFOOT, NI_RHIP, NI_RKNEE, NI_RFOOT,
  NI_NECK, NI_HEAD, NI_LSH, NI_LEL, NI_LHA, NI_RSH, NI_REL, NI_RHA,
};

typedef struct
{
  double pos[N_NI][3];   /* metres, file axes */
  versor g[N_NI];        /* global rotations (rest: T-pose) */
  versor q[N_NI];        /* the file's quaternions (Rinions convention) */
} NiPose;

static void
ni_pose (double  t,
         NiPose *p)
{
  versor a, b;
  const double spine[3] = { 0, 0, 0.15 }, head[3] = { 0, 0, 0.19 };
  const double lsh[3] = { 0, 0.14, 0 }, rsh[3] = { 0, -0.14, 0 };
  const double lua[3] = { 0, 0.27, 0 }, rua[3] = { 0, -0.27, 0 };
  const double lfa[3] = { 0, 0.25, 0 }, rfa[3] = { 0, -0.25, 0 };
  const double lhip[3] = { 0, 0.08, 0 }, rhip[3] = { 0, -0.08, 0 };
  const double thigh[3] = { 0, 0, -0.44 }, shin[3] = { 0, 0, -0.42 };
  double v[3];

  rot (a, 30 * sin (0.7 * t), 0, 0, 1);
  rot (b, 6 * sin (1.3 * t), 0, 1, 0);
  mul (a, b, p->g[NI_PELVIS]);
  rot (a, 10 * sin (0.9 * t), 0, 1, 0);
  rot (b, 4 * sin (1.7 * t), 1, 0, 0);
  mul3 (p->g[NI_PELVIS], a, b, p->g[NI_TORSO]);
  rot (a, 8 * sin (1.1 * t), 1, 0, 0);
  rot (b, 15 * sin (0.8 * t), 0, 0, 1);
  mul3 (p->g[NI_TORSO], a, b, p->g[NI_NECK]);
  glm_quat_copy (p->g[NI_NECK], p->g[NI_HEAD]);

  rot (a, 20 * sin (t), 0, 0, 1);
  rot (b, -(60 + 30 * sin (1.5 * t)), 1, 0, 0);
  mul3 (p->g[NI_TORSO], a, b, p->g[NI_LSH]);
  rot (a, 40 + 30 * sin (2 * t), 0, 0, 1);
  rot (b, 25 * sin (1.2 * t), 0, 1, 0);  /* twist about the forearm */
  mul3 (p->g[NI_LSH], a, b, p->g[NI_LEL]);
  glm_quat_copy (p->g[NI_LEL], p->g[NI_LHA]);
  rot (a, -15 * sin (0.8 * t + 1), 0, 0, 1);
  rot (b, 55 + 25 * sin (1.2 * t + 1), 1, 0, 0);
  mul3 (p->g[NI_TORSO], a, b, p->g[NI_RSH]);
  rot (a, -(35 + 25 * sin (1.8 * t + 0.5)), 0, 0, 1);
  rot (b, -20 * sin (t), 0, 1, 0);
  mul3 (p->g[NI_RSH], a, b, p->g[NI_REL]);
  glm_quat_copy (p->g[NI_REL], p->g[NI_RHA]);

  rot (a, 25 * sin (1.4 * t), 0, 1, 0);
  rot (b, 5, 1, 0, 0);
  mul3 (p->g[NI_PELVIS], a, b, p->g[NI_LHIP]);
  rot (a, -(10 + 15 * (1 + sin (1.4 * t))), 0, 1, 0);
  mul (p->g[NI_LHIP], a, p->g[NI_LKNEE]);
  glm_quat_copy (p->g[NI_LKNEE], p->g[NI_LFOOT]);
  rot (a, -25 * sin (1.4 * t), 0, 1, 0);
  rot (b, -5, 1, 0, 0);
  mul3 (p->g[NI_PELVIS], a, b, p->g[NI_RHIP]);
  rot (a, -(10 + 15 * (1 - sin (1.4 * t))), 0, 1, 0);
  mul (p->g[NI_RHIP], a, p->g[NI_RKNEE]);
  glm_quat_copy (p->g[NI_RKNEE], p->g[NI_RFOOT]);

  /* positions */
  p->pos[NI_PELVIS][0] = 0.2 * sin (0.5 * t);
  p->pos[NI_PELVIS][1] = 0.1 * t;
  p->pos[NI_PELVIS][2] = 0.95 + 0.02 * sin (2 * t);
#define CHILD(c, parent, rotation, offset)                     \
  rotate (p->g[rotation], offset, v);                            \
  for (int k = 0; k < 3; k++)                                    \
    p->pos[c][k] = p->pos[parent][k] + v[k];
  CHILD (NI_TORSO, NI_PELVIS, NI_PELVIS, spine);
  CHILD (NI_NECK, NI_TORSO, NI_TORSO, spine);
  CHILD (NI_HEAD, NI_NECK, NI_NECK, head);
  CHILD (NI_LSH, NI_NECK, NI_NECK, lsh);
  CHILD (NI_LEL, NI_LSH, NI_LSH, lua);
  CHILD (NI_LHA, NI_LEL, NI_LEL, lfa);
  CHILD (NI_RSH, NI_NECK, NI_NECK, rsh);
  CHILD (NI_REL, NI_RSH, NI_RSH, rua);
  CHILD (NI_RHA, NI_REL, NI_REL, rfa);
  CHILD (NI_LHIP, NI_PELVIS, NI_PELVIS, lhip);
  CHILD (NI_LKNEE, NI_LHIP, NI_LHIP, thigh);
  CHILD (NI_LFOOT, NI_LKNEE, NI_LKNEE, shin);
  CHILD (NI_RHIP, NI_PELVIS, NI_PELVIS, rhip);
  CHILD (NI_RKNEE, NI_RHIP, NI_RHIP, thigh);
  CHILD (NI_RFOOT, NI_RKNEE, NI_RKNEE, shin);
#undef CHILD

  /* the file's quaternions: the spine chains, limbs accumulate in their anchor's frame */
  {
    const int limbs[4][4] = {
      { NI_TORSO, NI_LSH, NI_LEL, NI_LHA }, { NI_TORSO, NI_RSH, NI_REL, NI_RHA },
      { NI_PELVIS, NI_LHIP, NI_LKNEE, NI_LFOOT }, { NI_PELVIS, NI_RHIP, NI_RKNEE, NI_RFOOT },
    };
    versor ia;

    glm_quat_copy (p->g[NI_PELVIS], p->q[NI_PELVIS]);
    inv (p->g[NI_PELVIS], ia);
    mul (ia, p->g[NI_TORSO], p->q[NI_TORSO]);
    inv (p->g[NI_TORSO], ia);
    mul (ia, p->g[NI_NECK], p->q[NI_NECK]);
    inv (p->g[NI_NECK], ia);
    mul (ia, p->g[NI_HEAD], p->q[NI_HEAD]);
    for (int l = 0; l < 4; l++)
      {
        versor local[3], il;

        inv (p->g[limbs[l][0]], ia);
        for (int k = 0; k < 3; k++)
          mul (ia, p->g[limbs[l][k + 1]], local[k]);
        glm_quat_copy (local[0], p->q[limbs[l][1]]);
        for (int k = 1; k < 3; k++)
          {
            inv (local[k - 1], il);
            mul (local[k], il, p->q[limbs[l][k + 1]]);
          }
      }
  }
}

/* Writes an NI_JOINTS_TEXT_FILE of the synthetic motion at TIMES_MS (the recorder's
 * clock starts at CLOCK0 and wraps at 60000 ms). */
static char *
write_ni (const char   *name,
          const double *times_ms,
          guint         n,
          int           clock0)
{
  GString *s = g_string_new ("NI_JOINTS_TEXT_FILE\nsynthetic, 127.0.0.1\n");
  char *path;

  for (guint i = 0; i < n; i++)
    {
      NiPose p;

      ni_pose (times_ms[i] / 1000.0, &p);
      g_string_append_printf (s, "%d\n", ((int) times_ms[i] + clock0) % 60000);
      for (int j = 0; j < N_NI; j++)
        {
          versor q;

          glm_quat_normalize_to (p.q[j], q);
          g_string_append_printf (s, " %-10s %11.6f %11.6f %11.6f      %11.8f %11.8f %11.8f %11.8f\n",
                                  ni_names[j], p.pos[j][0], p.pos[j][1], p.pos[j][2],
                                  q[0], q[1], q[2], q[3]);
        }
    }
  path = write_tmp (name, s->str, s->len);
  g_string_free (s, TRUE);
  return path;
}

/* A KBS mapping every joint to "B_<JOINT>" (twist 1). */
static OdoriKbs *
identity_kbs (void)
{
  OdoriKbs *kbs = odori_kbs_new ();

  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      g_autofree char *bone = g_strdup_printf ("B_%s", odori_kinect_joint_to_string (j));

      odori_kbs_set_joint (kbs, j, bone, TRUE);
    }
  return kbs;
}

static const OdoriTransform *
seg (const OdoriMotion *m,
     guint              frame,
     const char        *name)
{
  int s = odori_motion_find_segment (m, name);

  if (s < 0)
    g_error ("no segment %s", name);
  return odori_motion_get (m, frame, s);
}

static const OdoriTransform *
bone (const OdoriMotion *m,
      guint              frame,
      OdoriKinectJoint   joint)
{
  g_autofree char *name = g_strdup_printf ("B_%s", odori_kinect_joint_to_string (joint));

  return seg (m, frame, name);
}

typedef struct
{
  double max_deg;
  double sum_deg;
  guint  n;
  double max_pos_cm;
} BoneError;

/* Every bone ending at a Kinect joint: its converted direction, R(frame) applied to its
 * calibration direction, against the known direction at that frame's time. The hip line
 * (TORSO's turn) is compared on the floor. Times in seconds. */
static void
measure_ni_bones (const OdoriMotion *m,
                  double             t0,
                  BoneError         *err)
{
  NiPose cal;

  memset (err, 0, sizeof *err);
  ni_pose (t0, &cal);
  for (guint f = 0; f < m->n_frames; f++)
    {
      NiPose now;
      double t = t0 + f * m->frame_time;

      ni_pose (t, &now);
      for (int k = ODORI_KINECT_TORSO; k < ODORI_KINECT_N_JOINTS; k++)
        {
          int pivot = odori_kinect_joint_pivot (k);
          int from = kinect_ni[pivot], to = kinect_ni[k];
          double d0f[3], dtf[3], d0[3], dt[3], pred[3], a, pv[3], pp[3];
          const OdoriTransform *tr = bone (m, f, k);
          versor q;

          if (k == ODORI_KINECT_TORSO)
            {
              from = NI_RHIP;
              to = NI_LHIP;
            }
          for (int c = 0; c < 3; c++)
            {
              d0f[c] = cal.pos[to][c] - cal.pos[from][c];
              dtf[c] = now.pos[to][c] - now.pos[from][c];
            }
          z_to_y (d0f, d0);
          z_to_y (dtf, dt);
          if (k == ODORI_KINECT_TORSO)
            d0[1] = dt[1] = 0;
          glm_quat_copy ((float *) tr->rotation, q);
          rotate (q, d0, pred);
          if (k == ODORI_KINECT_TORSO)
            pred[1] = 0;
          a = angle_between (pred, dt);
          if (g_getenv ("DEBUG_BONES") && a > 0.05)
            g_printerr ("frame %u joint %s: %.4f\n", f, odori_kinect_joint_to_string (k), a);
          err->max_deg = MAX (err->max_deg, a);
          err->sum_deg += a;
          err->n++;
          /* the segment sits at the bone's start (TORSO: at the torso) */
          z_to_y (now.pos[kinect_ni[pivot]], pp);
          for (int c = 0; c < 3; c++)
            pv[c] = tr->position[c] - 100 * pp[c];
          err->max_pos_cm = MAX (err->max_pos_cm, sqrt (pv[0] * pv[0] + pv[1] * pv[1] + pv[2] * pv[2]));
        }
    }
}

static OdoriMotion *
import_ok (const char               *path,
           const OdoriImportOptions *options,
           GPtrArray                *warnings)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *m = odori_capture_import (path, options, NULL, warnings, &error);

  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

/* Written as BVH with the NI skeleton table and read back, the native result puts every
 * joint where it was: each rotation carries its children. */
static void
check_bvh_round_trip (OdoriMotion *m,
                      const char  *name,
                      double       pos_tol_cm)
{
  g_autofree char *path = tmp_path (name);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (m);
  g_autoptr(OdoriMotion) back = NULL;
  g_autoptr(GError) error = NULL;
  double max_pos = 0, max_rot = 0;

  g_assert_true (odori_bvh_save (m, skeleton, path, &error));
  g_assert_no_error (error);
  back = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->n_frames, ==, m->n_frames);
  for (guint f = 0; f < m->n_frames; f++)
    for (guint s = 0; s < m->n_segments; s++)
      {
        const OdoriTransform *a = odori_motion_get (m, f, s);
        const OdoriTransform *b = seg (back, f, m->segments[s].name);
        double d = 0;

        for (int c = 0; c < 3; c++)
          d += (a->position[c] - b->position[c]) * (a->position[c] - b->position[c]);
        max_pos = MAX (max_pos, sqrt (d));
        max_rot = MAX (max_rot, odori_quat_angle_deg (a->rotation, b->rotation));
      }
  g_test_message ("%s written as BVH (%s skeleton) and read back: positions within %.4f cm, "
                  "rotations within %.4f deg", name, odori_skeleton_scheme_to_string (skeleton->scheme),
                  max_pos, max_rot);
  g_assert_cmpfloat (max_pos, <, pos_tol_cm);
  g_assert_cmpfloat (max_rot, <, 0.01);
}

/* Rotations from positions */

static void
test_positions_exact_times (void)
{
  double times[60];
  g_autofree char *path = NULL;
  g_autoptr(OdoriKbs) kbs = identity_kbs ();
  g_autoptr(OdoriMotion) m = NULL;
  OdoriImportOptions options;
  BoneError err;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 2000 + 40.0 * i;  /* 25 fps, regular */
  path = write_ni ("exact.txt", times, G_N_ELEMENTS (times), 0);
  odori_import_options_init (&options);
  options.fps = 0;  /* keep the file's frames: the result is at the known times */
  options.kbs = kbs;
  m = import_ok (path, &options, NULL);
  g_assert_cmpuint (m->n_frames, ==, 60);
  g_assert_cmpfloat_with_epsilon (m->frame_time, 0.040, 1e-9);
  g_assert_cmpuint (m->n_segments, ==, ODORI_KINECT_N_JOINTS);

  /* mapped bones carry their own hierarchy to BVH */
  g_assert_true (m->has_hierarchy);
  check_bvh_round_trip (m, "kbs-all.bvh", 0.01);
  measure_ni_bones (m, 2.0, &err);
  g_test_message ("bone-direction error, rotations from positions at the file's own times: "
                  "max %.4f deg, mean %.4f deg over %u bone-frames; positions within %.4f cm",
                  err.max_deg, err.sum_deg / err.n, err.n, err.max_pos_cm);
  g_assert_cmpfloat (err.max_deg, <, 0.05);
  g_assert_cmpfloat (err.max_pos_cm, <, 1e-3);
  /* calibration: identity at frame 1 */
  for (guint s = 0; s < m->n_segments; s++)
    g_assert_cmpfloat (fabs (odori_motion_get (m, 0, s)->rotation[3]), >, 1 - 1e-6);
}

static void
test_positions_irregular_wrapping (void)
{
  double times[90];
  g_autofree char *path = NULL;
  g_autoptr(OdoriKbs) kbs = identity_kbs ();
  g_autoptr(OdoriMotion) m = NULL;
  OdoriImportOptions options;
  BoneError err;
  guint32 state = 7;

  /* Kinect-like timing: 33 ms ± 12 ms, and the recorder's clock wraps in the middle */
  times[0] = 1000;
  for (guint i = 1; i < G_N_ELEMENTS (times); i++)
    {
      state = state * 1664525u + 1013904223u;
      times[i] = times[i - 1] + 21 + (state >> 8) % 25;
    }
  path = write_ni ("irregular.txt", times, G_N_ELEMENTS (times), 58000);
  odori_import_options_init (&options);  /* 30 fps */
  options.kbs = kbs;
  m = import_ok (path, &options, NULL);
  g_assert_cmpuint (m->n_frames, ==, (guint) floor ((times[89] - times[0]) * 0.03 + 1e-6) + 1);

  measure_ni_bones (m, 1.0, &err);
  g_test_message ("bone-direction error, rotations from positions, irregular times (21-45 ms, "
                  "clock wrap) resampled to 30 fps: max %.4f deg, mean %.4f deg over %u "
                  "bone-frames; positions within %.3f cm",
                  err.max_deg, err.sum_deg / err.n, err.n, err.max_pos_cm);
  g_assert_cmpfloat (err.max_deg, <, 1.0);
  g_assert_cmpfloat (err.sum_deg / err.n, <, 0.25);
  g_assert_cmpfloat (err.max_pos_cm, <, 0.5);
}

static void
test_native_segments (void)
{
  double times[20];
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  NiPose cal, now;
  OdoriImportOptions options;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 500 + 50.0 * i;
  path = write_ni ("native.txt", times, G_N_ELEMENTS (times), 0);
  odori_import_options_init (&options);
  options.fps = 0;
  m = import_ok (path, &options, NULL);
  g_assert_cmpuint (m->n_segments, ==, N_NI);
  ni_pose (0.5, &cal);
  ni_pose (0.5 + 19 * 0.05, &now);
  /* each joint sits where it is and turns like the part hanging from it: the forearm hangs
   * from the elbow, the shin from the knee */
  {
    const int pairs[][2] = { { NI_LEL, NI_LHA }, { NI_LKNEE, NI_LFOOT }, { NI_RSH, NI_REL },
                             { NI_TORSO, NI_NECK } };

    for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
      {
        const OdoriTransform *t = seg (m, 19, ni_names[pairs[i][0]]);
        double d0f[3], dtf[3], d0[3], dt[3], pred[3], p[3];
        versor q;

        for (int c = 0; c < 3; c++)
          {
            d0f[c] = cal.pos[pairs[i][1]][c] - cal.pos[pairs[i][0]][c];
            dtf[c] = now.pos[pairs[i][1]][c] - now.pos[pairs[i][0]][c];
          }
        z_to_y (d0f, d0);
        z_to_y (dtf, dt);
        glm_quat_copy ((float *) t->rotation, q);
        rotate (q, d0, pred);
        g_assert_cmpfloat (angle_between (pred, dt), <, 0.05);
        z_to_y (now.pos[pairs[i][0]], p);
        for (int c = 0; c < 3; c++)
          g_assert_cmpfloat_with_epsilon (t->position[c], 100 * p[c], 1e-3);
      }
  }
  g_assert_cmpint (m->segments[0].units[0], ==, ODORI_UNIT_CENTIMETERS);
  g_assert_cmpfloat (odori_motion_get (m, 3, 0)->scale[0], ==, 100.0f);
}

static void
test_native_bvh (void)
{
  double times[40];
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  OdoriImportOptions options;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 40.0 * i;
  path = write_ni ("native-bvh.txt", times, G_N_ELEMENTS (times), 0);
  odori_import_options_init (&options);
  options.fps = 0;
  m = import_ok (path, &options, NULL);
  check_bvh_round_trip (m, "native-positions.bvh", 0.01);
  g_clear_pointer (&m, odori_motion_unref);
  options.rotations = ODORI_ROTATIONS_FILE;
  m = import_ok (path, &options, NULL);
  check_bvh_round_trip (m, "native-file.bvh", 0.01);
}

/* Rotations from the file */

static void
test_file_rotations (void)
{
  double times[30];
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(OdoriMotion) mapped = NULL;
  g_autoptr(OdoriKbs) kbs = identity_kbs ();
  OdoriImportOptions options;
  double max = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 40.0 * i;
  path = write_ni ("file.txt", times, G_N_ELEMENTS (times), 0);
  odori_import_options_init (&options);
  options.fps = 0;
  options.rotations = ODORI_ROTATIONS_FILE;
  m = import_ok (path, &options, NULL);
  /* every joint's global rotation is the known one, turned to Y up */
  for (guint f = 0; f < m->n_frames; f++)
    {
      NiPose p;

      ni_pose (times[f] / 1000.0, &p);
      for (int j = 0; j < N_NI; j++)
        {
          versor expect;

          z_to_y_quat (p.g[j], expect);
          max = MAX (max, odori_quat_angle_deg (expect, seg (m, f, ni_names[j])->rotation));
        }
    }
  g_test_message ("rotations from the file: largest difference to the known rotations %.5f deg", max);
  g_assert_cmpfloat (max, <, 0.01);

  /* mapped: the bone ending at a joint turns like the file joint it hangs from */
  options.kbs = kbs;
  mapped = import_ok (path, &options, NULL);
  for (guint f = 0; f < mapped->n_frames; f += 7)
    {
      g_assert_cmpfloat (odori_quat_angle_deg (bone (mapped, f, ODORI_KINECT_LEFT_HAND)->rotation,
                                               seg (m, f, "L_ELBOW")->rotation), <, 1e-4);
      g_assert_cmpfloat (odori_quat_angle_deg (bone (mapped, f, ODORI_KINECT_LEFT_KNEE)->rotation,
                                               seg (m, f, "L_HIP")->rotation), <, 1e-4);
      g_assert_cmpfloat (odori_quat_angle_deg (bone (mapped, f, ODORI_KINECT_TORSO)->rotation,
                                               seg (m, f, "PELVIS")->rotation), <, 1e-4);
      /* TOP_OF_JOINT: at the pelvis, not turned */
      g_assert_cmpfloat (fabs (bone (mapped, f, ODORI_KINECT_TOP_OF_JOINT)->rotation[3]), >, 1 - 1e-6);
      g_assert_cmpmem (bone (mapped, f, ODORI_KINECT_TOP_OF_JOINT)->position, 12,
                       seg (m, f, "PELVIS")->position, 12);
    }
}

static void
test_seed_file_quaternions (void)
{
  /* The seed's frame 1: with its quaternions read as documented, every bone points along
   * a T-pose axis: spine up, arms out to the sides, legs down. */
  g_autofree char *text = g_strdup (seed_joints_example);
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  char *start, *end;
  OdoriImportOptions options;
  const struct { const char *from, *to; double rest[3]; } bones[] = {
    { "PELVIS", "TORSO", { 0, 1, 0 } }, { "TORSO", "NECK", { 0, 1, 0 } },
    { "NECK", "HEAD", { 0, 1, 0 } },
    { "L_SHLDR", "L_ELBOW", { 0, 0, -1 } }, { "L_ELBOW", "L_HAND", { 0, 0, -1 } },
    { "R_SHLDR", "R_ELBOW", { 0, 0, 1 } }, { "R_ELBOW", "R_HAND", { 0, 0, 1 } },
    { "L_HIP", "L_KNEE", { 0, -1, 0 } }, { "L_KNEE", "L_FOOT", { 0, -1, 0 } },
    { "R_HIP", "R_KNEE", { 0, -1, 0 } }, { "R_KNEE", "R_FOOT", { 0, -1, 0 } },
  };
  double max = 0;

  /* frame 1 only: the example up to frame 2's time */
  g_assert_true (g_str_has_prefix (text, "NI_JOINTS_TEXT_FILE\n"));
  start = text;
  end = strstr (start, "18864");
  g_assert_nonnull (end);
  *end = '\0';
  path = write_tmp ("seed1.txt", start, -1);
  odori_import_options_init (&options);
  options.rotations = ODORI_ROTATIONS_FILE;
  m = import_ok (path, &options, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bones); i++)
    {
      const OdoriTransform *a = seg (m, 0, bones[i].from);
      const OdoriTransform *b = seg (m, 0, bones[i].to);
      double d[3], pred[3];
      versor q;

      for (int c = 0; c < 3; c++)
        d[c] = b->position[c] - a->position[c];
      glm_quat_copy ((float *) a->rotation, q);
      rotate (q, bones[i].rest, pred);
      max = MAX (max, angle_between (pred, d));
    }
  g_test_message ("seed frame 1, file quaternions: bones off their T-pose axis by at most %.3f deg", max);
  g_assert_cmpfloat (max, <, 1.0);
}

/* KBS mapping, twist, symmetry */

static void
test_kbs_mapping (void)
{
  double times[10];
  g_autofree char *path = NULL;
  g_autoptr(OdoriKbs) kbs = odori_kbs_new ();
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  OdoriImportOptions options;
  NiPose p;
  double hip[3];

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 33.0 * i;
  path = write_ni ("kbs.txt", times, G_N_ELEMENTS (times), 0);
  odori_kbs_set_joint (kbs, ODORI_KINECT_TORSO, "Hips", TRUE);
  odori_kbs_set_joint (kbs, ODORI_KINECT_LEFT_KNEE, "LeftUpLeg", TRUE);
  odori_kbs_set_joint (kbs, ODORI_KINECT_LEFT_FOOT, "LeftLowLeg", TRUE);
  odori_kbs_set_joint (kbs, ODORI_KINECT_LEFT_ELBOW, "LeftUpArm", TRUE);
  odori_import_options_init (&options);
  options.kbs = kbs;
  m = import_ok (path, &options, warnings);

  g_assert_cmpuint (m->n_segments, ==, 4);
  g_assert_cmpstr (m->segments[0].name, ==, "Hips");
  g_assert_cmpstr (m->segments[1].name, ==, "LeftUpLeg");
  g_assert_cmpstr (m->segments[3].name, ==, "LeftUpArm");
  /* the thigh (ending at the knee) sits at the hip */
  ni_pose (0, &p);
  z_to_y (p.pos[NI_LHIP], hip);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (seg (m, 0, "LeftUpLeg")->position[c], 100 * hip[c], 1e-3);
  g_assert_cmpuint (warnings->len, ==, 0);
  /* the shin hangs from the thigh; the thigh and the upper arm, whose parent bones (the
   * hip, the shoulder) are not mapped, are roots of their own */
  g_assert_cmpint (m->segments[2].parent, ==, 1);
  g_assert_cmpint (m->segments[1].parent, ==, -1);
  g_assert_cmpint (m->segments[3].parent, ==, -1);
  g_assert_cmpint (m->segments[0].parent, ==, -1);
  check_bvh_round_trip (m, "kbs-some.bvh", 0.01);

  /* two joints on one bone, and a KBS mapping nothing */
  odori_kbs_set_joint (kbs, ODORI_KINECT_RIGHT_KNEE, "LeftUpLeg", TRUE);
  g_assert_null (odori_capture_import (path, &options, NULL, NULL, &error));
  g_assert_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_DUPLICATE_BONE);
  g_clear_error (&error);
  g_clear_pointer (&kbs, odori_kbs_unref);
  kbs = odori_kbs_new ();
  options.kbs = kbs;
  g_assert_null (odori_capture_import (path, &options, NULL, NULL, &error));
  g_assert_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_UNMAPPED);
}

static void
test_kst_corpus_mapping (void)
{
  /* the real KST maps the capture onto its Japanese bone names */
  g_autofree char *kst = odori_test_corpus_file ("kst-rokdebone2/my/ConvSetting3.kst");
  double times[5] = { 0, 33, 66, 100, 133 };
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) kbs = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  OdoriImportOptions options;

  if (kst == NULL)
    return;
  path = write_ni ("kst.txt", times, 5, 0);
  kbs = odori_kbs_load (kst, NULL, &error);
  g_assert_no_error (error);
  odori_import_options_init (&options);
  options.kbs = kbs;
  m = import_ok (path, &options, NULL);
  g_assert_cmpuint (m->n_segments, ==, 16);
  g_assert_cmpstr (m->segments[0].name, ==, "原点_X");
  g_assert_cmpint (odori_motion_find_segment (m, "ひじ_X+"), >=, 0);
  g_assert_cmpint (odori_motion_find_segment (m, "恥骨（全身の原点）_X"), ==, 1);
}

static void
test_twist (void)
{
  double times[40];
  g_autofree char *path = NULL;
  g_autoptr(OdoriKbs) kbs = identity_kbs ();
  g_autoptr(OdoriMotion) with = NULL;
  g_autoptr(OdoriMotion) without = NULL;
  g_autoptr(OdoriMotion) file_with = NULL;
  g_autoptr(OdoriMotion) file_without = NULL;
  OdoriImportOptions options;
  BoneError err;
  NiPose cal;
  double neck_dir[3], neck_f[3], fore[3], fore_f[3];
  float axis[3];
  double max_twist_with = 0, max_twist_without = 0, max_dir = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 50.0 * i;
  path = write_ni ("twist.txt", times, G_N_ELEMENTS (times), 0);
  odori_import_options_init (&options);
  options.fps = 0;
  options.kbs = kbs;
  with = import_ok (path, &options, NULL);
  odori_kbs_set_joint (kbs, ODORI_KINECT_NECK, "B_NECK", FALSE);
  without = import_ok (path, &options, NULL);

  /* positions: NECK's twist is the shoulders' turn about the calibration neck axis */
  ni_pose (0, &cal);
  for (int c = 0; c < 3; c++)
    neck_f[c] = cal.pos[NI_NECK][c] - cal.pos[NI_TORSO][c];
  z_to_y (neck_f, neck_dir);
  for (int c = 0; c < 3; c++)
    axis[c] = (float) (neck_dir[c] / sqrt (neck_dir[0] * neck_dir[0] + neck_dir[1] * neck_dir[1] +
                                           neck_dir[2] * neck_dir[2]));
  for (guint f = 0; f < with->n_frames; f++)
    {
      versor it, local;

      inv (bone (with, f, ODORI_KINECT_TORSO)->rotation, it);
      mul (it, bone (with, f, ODORI_KINECT_NECK)->rotation, local);
      max_twist_with = MAX (max_twist_with, twist_deg (local, axis));
      inv (bone (without, f, ODORI_KINECT_TORSO)->rotation, it);
      mul (it, bone (without, f, ODORI_KINECT_NECK)->rotation, local);
      max_twist_without = MAX (max_twist_without, twist_deg (local, axis));
    }
  g_test_message ("neck twist: %.2f deg with twist 1, %.4f deg with twist 0",
                  max_twist_with, max_twist_without);
  g_assert_cmpfloat (max_twist_with, >, 5);
  g_assert_cmpfloat (max_twist_without, <, 0.01);
  /* every bone still points where it should: the children are computed in the new frame */
  measure_ni_bones (without, 0, &err);
  g_assert_cmpfloat (err.max_deg, <, 0.05);

  /* the file's rotations: twist 0 on the forearm (LEFT_HAND) removes its turn about
   * itself and keeps its direction */
  odori_kbs_set_joint (kbs, ODORI_KINECT_NECK, "B_NECK", TRUE);
  options.rotations = ODORI_ROTATIONS_FILE;
  file_with = import_ok (path, &options, NULL);
  odori_kbs_set_joint (kbs, ODORI_KINECT_LEFT_HAND, "B_LEFT_HAND", FALSE);
  file_without = import_ok (path, &options, NULL);
  for (int c = 0; c < 3; c++)
    fore_f[c] = c == 1 ? 1 : 0;  /* the forearm's rest axis: +Y in the file */
  z_to_y (fore_f, fore);
  for (int c = 0; c < 3; c++)
    axis[c] = (float) fore[c];
  max_twist_with = max_twist_without = 0;
  for (guint f = 0; f < file_with->n_frames; f++)
    {
      versor ie, local;
      double a[3], b[3];

      inv (bone (file_with, f, ODORI_KINECT_LEFT_ELBOW)->rotation, ie);
      mul (ie, bone (file_with, f, ODORI_KINECT_LEFT_HAND)->rotation, local);
      max_twist_with = MAX (max_twist_with, twist_deg (local, axis));
      inv (bone (file_without, f, ODORI_KINECT_LEFT_ELBOW)->rotation, ie);
      mul (ie, bone (file_without, f, ODORI_KINECT_LEFT_HAND)->rotation, local);
      max_twist_without = MAX (max_twist_without, twist_deg (local, axis));
      rotate (bone (file_with, f, ODORI_KINECT_LEFT_HAND)->rotation, fore, a);
      rotate (bone (file_without, f, ODORI_KINECT_LEFT_HAND)->rotation, fore, b);
      max_dir = MAX (max_dir, angle_between (a, b));
    }
  g_test_message ("forearm twist (file rotations): %.2f deg with twist 1, %.4f deg with twist 0, "
                  "direction kept within %.4f deg", max_twist_with, max_twist_without, max_dir);
  g_assert_cmpfloat (max_twist_with, >, 5);
  g_assert_cmpfloat (max_twist_without, <, 0.01);
  g_assert_cmpfloat (max_dir, <, 0.01);
}

/* Two hand-made frames: frame 1 almost symmetric (the left forearm 10° off), frame 2 a
 * mirror-symmetric pose. */
static char *
write_symmetry_capture (void)
{
  const char *names[] = { "PELVIS", "TORSO", "NECK", "HEAD", "L_SHLDR", "L_ELBOW", "L_HAND",
                          "L_HIP", "L_KNEE", "L_FOOT" };
  double base[10][3] = {
    { 0, 0, 1 }, { 0, 0, 1.15 }, { 0, 0, 1.3 }, { 0, 0, 1.5 },
    { 0, 0.15, 1.3 }, { 0, 0.42, 1.3 }, { 0, 0.67, 1.3 },
    { 0, 0.08, 1 }, { 0, 0.09, 0.56 }, { 0, 0.1, 0.14 },
  };
  double pose[10][3];
  GString *s = g_string_new ("NI_JOINTS_TEXT_FILE\n");
  char *path;

  for (int frame = 0; frame < 2; frame++)
    {
      memcpy (pose, base, sizeof pose);
      if (frame == 0)
        {
          pose[6][1] = pose[5][1] + 0.25 * cos (glm_rad (10.0));
          pose[6][2] = pose[5][2] + 0.25 * sin (glm_rad (10.0));
        }
      else
        {
          const double ua[3] = { 0.3, 0.8, -0.5 }, fa[3] = { 0.6, 0.2, 0.3 };
          const double th[3] = { 0.4, 0.05, -1 }, sh[3] = { -0.3, 0, -1 };
          double n;

#define PLACE(child, parent, dir, len)                                           \
  n = sqrt (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);               \
  for (int c = 0; c < 3; c++)                                                    \
    pose[child][c] = pose[parent][c] + (len) * dir[c] / n;
          PLACE (5, 4, ua, 0.27);
          PLACE (6, 5, fa, 0.25);
          PLACE (8, 7, th, 0.44);
          PLACE (9, 8, sh, 0.42);
#undef PLACE
        }
      g_string_append_printf (s, "%d\n", 1000 + 33 * frame);
      for (int j = 0; j < 10; j++)
        {
          g_string_append_printf (s, " %s %.6f %.6f %.6f 0 0 0 1\n", names[j], pose[j][0],
                                  pose[j][1], pose[j][2]);
          /* the right side: the mirror image (y → −y) of the left, without frame 1's
           * perturbation */
          if (j >= 4)
            {
              const double *r = frame == 0 ? base[j] : pose[j];

              g_string_append_printf (s, " R_%s %.6f %.6f %.6f 0 0 0 1\n", names[j] + 2, r[0],
                                      -r[1], r[2]);
            }
        }
    }
  path = write_tmp ("symmetry.txt", s->str, s->len);
  g_string_free (s, TRUE);
  return path;
}

/* The largest angle between each right-side local rotation and the mirror image of its
 * left twin at frame 2 (Odori axes: the body's plane is z = 0). */
static double
mirror_mismatch (const OdoriMotion *m)
{
  const OdoriKinectJoint left[] = { ODORI_KINECT_LEFT_HIP, ODORI_KINECT_LEFT_KNEE,
                                    ODORI_KINECT_LEFT_FOOT, ODORI_KINECT_LEFT_SHOULDER,
                                    ODORI_KINECT_LEFT_ELBOW, ODORI_KINECT_LEFT_HAND };
  const OdoriKinectJoint right[] = { ODORI_KINECT_RIGHT_HIP, ODORI_KINECT_RIGHT_KNEE,
                                     ODORI_KINECT_RIGHT_FOOT, ODORI_KINECT_RIGHT_SHOULDER,
                                     ODORI_KINECT_RIGHT_ELBOW, ODORI_KINECT_RIGHT_HAND };
  double max = 0;

  for (guint i = 0; i < G_N_ELEMENTS (left); i++)
    {
      versor ipl, ipr, ll, lr, mirrored;

      inv (bone (m, 1, odori_kinect_joint_pivot (left[i]))->rotation, ipl);
      mul (ipl, bone (m, 1, left[i])->rotation, ll);
      inv (bone (m, 1, odori_kinect_joint_pivot (right[i]))->rotation, ipr);
      mul (ipr, bone (m, 1, right[i])->rotation, lr);
      /* reflection in z = 0: (x, y, z, w) → (−x, −y, z, w) */
      mirrored[0] = -ll[0];
      mirrored[1] = -ll[1];
      mirrored[2] = ll[2];
      mirrored[3] = ll[3];
      max = MAX (max, odori_quat_angle_deg (mirrored, lr));
    }
  return max;
}

static void
test_symmetry (void)
{
  g_autofree char *path = write_symmetry_capture ();
  g_autoptr(OdoriKbs) kbs = identity_kbs ();
  g_autoptr(OdoriMotion) plain = NULL;
  g_autoptr(OdoriMotion) sym = NULL;
  OdoriImportOptions options;
  double a, b;

  odori_import_options_init (&options);
  options.fps = 0;
  options.kbs = kbs;
  plain = import_ok (path, &options, NULL);
  options.symmetry = TRUE;
  sym = import_ok (path, &options, NULL);
  a = mirror_mismatch (plain);
  b = mirror_mismatch (sym);
  g_test_message ("left/right mismatch of a mirrored pose: %.3f deg plain, %.4f deg with symmetry", a, b);
  g_assert_cmpfloat (a, >, 5);
  g_assert_cmpfloat (b, <, 0.01);
}

/* Axes */

static void
test_up_axis (void)
{
  double times[3] = { 0, 33, 66 };
  g_autofree char *path = write_ni ("up.txt", times, 3, 0);
  g_autoptr(OdoriCapture) z = NULL;
  g_autoptr(OdoriCapture) x = NULL;
  g_autoptr(GError) error = NULL;
  NiPose p;
  double expect[3];

  ni_pose (0, &p);
  z = odori_capture_load (path, NULL, NULL, &error);
  g_assert_no_error (error);
  odori_capture_orient (z, ODORI_UP_AUTO, NULL);
  g_assert_cmpint (z->up, ==, ODORI_UP_Z);
  z_to_y (p.pos[NI_HEAD], expect);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (seg (z->motion, 0, "HEAD")->position[c], 100 * expect[c], 1e-3);

  /* forced X up: (x, y, z) → (−y, x, z) */
  x = odori_capture_load (path, NULL, NULL, &error);
  odori_capture_orient (x, ODORI_UP_X, NULL);
  g_assert_cmpfloat_with_epsilon (seg (x->motion, 0, "HEAD")->position[0], -100 * p.pos[NI_HEAD][1], 1e-3);
  g_assert_cmpfloat_with_epsilon (seg (x->motion, 0, "HEAD")->position[1], 100 * p.pos[NI_HEAD][0], 1e-3);
  g_assert_cmpfloat_with_epsilon (seg (x->motion, 0, "HEAD")->position[2], 100 * p.pos[NI_HEAD][2], 1e-3);

  g_assert_true (odori_up_axis_from_string ("-Z", NULL));
  g_assert_false (odori_up_axis_from_string ("w", NULL));
  g_assert_cmpstr (odori_up_axis_to_string (ODORI_UP_NEG_Y), ==, "-y");
}

/* The suit's CSV */

static const char *suit_names[] = {
  "Hip", "Spine", "Head", "LeftShoulder", "LeftUpperArm", "LeftForearm", "LeftHand",
  "RightShoulder", "RightUpperArm", "RightForearm", "RightHand", "LeftUpperLeg",
  "LeftLowerLeg", "LeftFoot", "RightUpperLeg", "RightLowerLeg", "RightFoot",
};
static const int suit_parent[] = { -1, 0, 1, 1, 3, 4, 5, 1, 7, 8, 9, 0, 11, 12, 0, 14, 15 };
static const double suit_offset[][3] = {
  { 0, 0, 0 }, { 0, 10, 0 }, { 0, 50, 0 }, { 3, 43, 0 }, { 15, 0, 0 }, { 28, 0, 0 },
  { 25, 0, 0 }, { -3, 43, 0 }, { -15, 0, 0 }, { -28, 0, 0 }, { -25, 0, 0 }, { 9, 0, 0 },
  { 0, -44, 0 }, { 0, -42, 0 }, { -9, 0, 0 }, { 0, -44, 0 }, { 0, -42, 0 },
};
#define N_SUIT 17

typedef struct
{
  double pos[N_SUIT][3];  /* cm, Y up */
  versor g[N_SUIT];
} SuitPose;

static void
suit_pose (double    t,
           SuitPose *p)
{
  versor local[N_SUIT], a, b;

  rot (a, 30 * sin (0.7 * t), 0, 1, 0);
  rot (b, 5 * sin (1.3 * t), 1, 0, 0);
  mul (a, b, local[0]);
  rot (local[1], 10 * sin (0.9 * t), 1, 0, 0);
  rot (a, 20 * sin (0.8 * t), 0, 1, 0);
  rot (b, 10 * sin (1.1 * t), 1, 0, 0);
  mul (a, b, local[2]);
  rot (local[3], 5 * sin (t), 0, 0, 1);
  rot (a, -(60 + 30 * sin (1.5 * t)), 0, 0, 1);
  rot (b, 20 * sin (t), 0, 1, 0);
  mul (a, b, local[4]);
  rot (a, 40 + 30 * sin (2 * t), 0, 1, 0);
  rot (b, 25 * sin (1.2 * t), 1, 0, 0);
  mul (a, b, local[5]);
  rot (local[6], 10 * sin (3 * t), 0, 0, 1);
  rot (local[7], -5 * sin (t + 1), 0, 0, 1);
  rot (local[8], 55 + 25 * sin (1.2 * t + 1), 0, 0, 1);
  rot (local[9], -(35 + 25 * sin (1.8 * t)), 0, 1, 0);
  rot (local[10], 0, 0, 0, 1);
  rot (local[11], 25 * sin (1.4 * t), 1, 0, 0);
  rot (local[12], 10 + 15 * (1 + sin (1.4 * t)), 1, 0, 0);
  rot (local[13], -10 * sin (2 * t), 1, 0, 0);
  rot (local[14], -25 * sin (1.4 * t), 1, 0, 0);
  rot (local[15], 10 + 15 * (1 - sin (1.4 * t)), 1, 0, 0);
  rot (local[16], 0, 1, 0, 0);

  for (int s = 0; s < N_SUIT; s++)
    {
      if (suit_parent[s] < 0)
        {
          glm_quat_copy (local[s], p->g[s]);
          p->pos[s][0] = 5 * sin (0.5 * t);
          p->pos[s][1] = 95 + 2 * sin (2 * t);
          p->pos[s][2] = 10 * t;
        }
      else
        {
          double v[3];

          mul (p->g[suit_parent[s]], local[s], p->g[s]);
          rotate (p->g[suit_parent[s]], suit_offset[s], v);
          for (int c = 0; c < 3; c++)
            p->pos[s][c] = p->pos[suit_parent[s]][c] + v[c];
        }
    }
}

typedef enum { CSV_QUAT, CSV_EULER, CSV_POSITIONS_ONLY } CsvKind;

static char *
write_suit_csv (const char   *name,
                const double *times,
                guint         n,
                CsvKind       kind,
                gboolean      positions)
{
  GString *s = g_string_new ("Time(Second)");
  double prev[N_SUIT][3];
  char *path;

  for (int i = 0; i < N_SUIT; i++)
    {
      if (positions)
        g_string_append_printf (s, ",Position:%s-X,Position:%s-Y,Position:%s-Z", suit_names[i],
                                suit_names[i], suit_names[i]);
      if (kind == CSV_QUAT)
        g_string_append_printf (s, ",Quaternion:%s-W,Quaternion:%s-X,Quaternion:%s-Y,Quaternion:%s-Z",
                                suit_names[i], suit_names[i], suit_names[i], suit_names[i]);
      else if (kind == CSV_EULER)
        g_string_append_printf (s, ",Euler:%s-X,Euler:%s-Y,Euler:%s-Z", suit_names[i],
                                suit_names[i], suit_names[i]);
    }
  g_string_append (s, "\r\n");
  for (guint f = 0; f < n; f++)
    {
      SuitPose p;

      suit_pose (times[f], &p);
      g_string_append_printf (s, "%.3f", times[f]);
      for (int i = 0; i < N_SUIT; i++)
        {
          if (positions)
            g_string_append_printf (s, ",%.4f,%.4f,%.4f", p.pos[i][0], p.pos[i][1], p.pos[i][2]);
          if (kind == CSV_QUAT)
            g_string_append_printf (s, ",%.7f,%.7f,%.7f,%.7f", p.g[i][3], p.g[i][0], p.g[i][1], p.g[i][2]);
          else if (kind == CSV_EULER)
            {
              double zxy[3];

              odori_quat_to_euler ("ZXY", p.g[i], f > 0 ? prev[i] : NULL, zxy);
              memcpy (prev[i], zxy, sizeof zxy);
              g_string_append_printf (s, ",%.5f,%.5f,%.5f", zxy[1], zxy[2], zxy[0]);
            }
        }
      g_string_append (s, "\r\n");
    }
  path = write_tmp (name, s->str, s->len);
  g_string_free (s, TRUE);
  return path;
}

static void
check_suit_rotations (const OdoriMotion *m,
                      const double      *times,
                      const char        *what)
{
  double max_rot = 0, max_dir = 0, sum_dir = 0;
  guint n = 0;
  SuitPose cal;

  suit_pose (times[0], &cal);
  for (guint f = 0; f < m->n_frames; f++)
    {
      SuitPose p;

      suit_pose (times[f], &p);
      for (int i = 0; i < N_SUIT; i++)
        {
          const OdoriTransform *t = seg (m, f, suit_names[i]);

          max_rot = MAX (max_rot, odori_quat_angle_deg (p.g[i], t->rotation));
          /* each bone: the parent's rotation carries the child's calibration offset */
          if (suit_parent[i] >= 0)
            {
              const OdoriTransform *par = seg (m, f, suit_names[suit_parent[i]]);
              versor q, ic;
              double d0[3], dt[3], pred[3];

              for (int c = 0; c < 3; c++)
                {
                  d0[c] = cal.pos[i][c] - cal.pos[suit_parent[i]][c];
                  dt[c] = p.pos[i][c] - p.pos[suit_parent[i]][c];
                }
              inv (seg (m, 0, suit_names[suit_parent[i]])->rotation, ic);
              mul (par->rotation, ic, q);
              rotate (q, d0, pred);
              max_dir = MAX (max_dir, angle_between (pred, dt));
              sum_dir += angle_between (pred, dt);
              n++;
            }
        }
    }
  g_test_message ("suit CSV (%s): rotations within %.4f deg; bone directions max %.4f deg, "
                  "mean %.4f deg", what, max_rot, max_dir, sum_dir / n);
  g_assert_cmpfloat (max_rot, <, 0.01);
  g_assert_cmpfloat (max_dir, <, 0.02);
}

static void
test_csv_file_rotations (void)
{
  double times[50];
  g_autofree char *quat = NULL;
  g_autofree char *euler = NULL;
  g_autofree char *bare = NULL;
  g_autoptr(OdoriMotion) a = NULL;
  g_autoptr(OdoriMotion) b = NULL;
  g_autoptr(OdoriMotion) c = NULL;
  OdoriImportOptions options;
  SuitPose p;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 0.01 * i;
  quat = write_suit_csv ("suit-quat.csv", times, 50, CSV_QUAT, TRUE);
  euler = write_suit_csv ("suit-euler.csv", times, 50, CSV_EULER, TRUE);
  bare = write_suit_csv ("suit-bare.csv", times, 50, CSV_QUAT, FALSE);
  odori_import_options_init (&options);
  options.fps = 0;  /* keep 100 fps */
  a = import_ok (quat, &options, NULL);
  b = import_ok (euler, &options, NULL);
  g_assert_cmpfloat_with_epsilon (a->frame_time, 0.01, 1e-9);
  check_suit_rotations (a, times, "quaternions");
  check_bvh_round_trip (a, "suit.bvh", 0.01);
  check_suit_rotations (b, times, "Euler ZXY");

  /* without Position columns: the default body places the sensors (same offsets here) */
  c = import_ok (bare, &options, NULL);
  suit_pose (times[10], &p);
  for (int ch = 0; ch < 3; ch++)
    g_assert_cmpfloat_with_epsilon (seg (c, 10, "LeftHand")->position[ch],
                                    p.pos[6][ch] - p.pos[0][ch] + (ch == 1 ? 95 : 0), 1e-2);
}

static void
test_csv_positions (void)
{
  double times[40];
  g_autofree char *path = NULL;
  g_autoptr(OdoriKbs) kbs = identity_kbs ();
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  OdoriImportOptions options;
  const int joint_sensor[ODORI_KINECT_N_JOINTS] = { 0, 1, 11, 12, 13, 14, 15, 16, 2, -1, 4, 5, 6, 8, 9, 10 };
  SuitPose cal;
  double max = 0, sum = 0;
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = 0.02 * i;
  path = write_suit_csv ("suit-pos.csv", times, 40, CSV_POSITIONS_ONLY, TRUE);
  odori_import_options_init (&options);
  options.fps = 0;
  options.kbs = kbs;  /* rotations: automatically from positions (the file has none) */
  m = import_ok (path, &options, warnings);
  suit_pose (0, &cal);
  for (guint f = 0; f < m->n_frames; f++)
    {
      SuitPose p;

      suit_pose (times[f], &p);
      for (int k = ODORI_KINECT_LEFT_HIP; k < ODORI_KINECT_N_JOINTS; k++)
        {
          int from = joint_sensor[odori_kinect_joint_pivot (k)], to = joint_sensor[k];
          double d0[3], dt[3], pred[3];

          if (to < 0)
            continue;
          for (int c = 0; c < 3; c++)
            {
              d0[c] = cal.pos[to][c] - cal.pos[from][c];
              dt[c] = p.pos[to][c] - p.pos[from][c];
            }
          rotate (bone (m, f, k)->rotation, d0, pred);
          max = MAX (max, angle_between (pred, dt));
          sum += angle_between (pred, dt);
          n++;
        }
    }
  g_test_message ("suit CSV, rotations from positions: bone directions max %.4f deg, mean %.4f deg",
                  max, sum / n);
  g_assert_cmpfloat (max, <, 0.05);
  /* HEAD has no suit joint: a warning names it */
  g_assert_cmpuint (warnings->len, >=, 1);
}

static void
test_errors (void)
{
  double times[3] = { 0, 0.01, 0.02 };
  g_autofree char *pos_only = write_suit_csv ("pos-only.csv", times, 3, CSV_POSITIONS_ONLY, TRUE);
  g_autofree char *quat_only = write_suit_csv ("quat-only.csv", times, 3, CSV_QUAT, FALSE);
  g_autofree char *bva = write_tmp ("not.bva", "Segment: Hips\nFrames: 0\n", -1);
  g_autoptr(GError) error = NULL;
  OdoriImportOptions options;

  odori_import_options_init (&options);
  options.rotations = ODORI_ROTATIONS_FILE;
  g_assert_null (odori_capture_import (pos_only, &options, NULL, NULL, &error));
  g_assert_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NO_ROTATIONS);
  g_clear_error (&error);
  options.rotations = ODORI_ROTATIONS_POSITIONS;
  g_assert_null (odori_capture_import (quat_only, &options, NULL, NULL, &error));
  g_assert_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NO_POSITIONS);
  g_assert_true (g_str_has_prefix (error->message, quat_only));
  g_clear_error (&error);
  g_assert_null (odori_capture_import (bva, NULL, NULL, NULL, &error));
  g_assert_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NOT_CAPTURE);
  g_clear_error (&error);

  /* automatic rotations never fail: positions of unknown sensors only give identity */
  {
    g_autofree char *points = write_tmp ("points.csv",
                                         "Time(Second),Position:Left Hand-X,Position:Left Hand-Y,"
                                         "Position:Left Hand-Z\n0,10,100,0\n0.04,12,100,0\n", -1);
    g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
    g_autoptr(OdoriMotion) m = NULL;

    odori_import_options_init (&options);
    m = odori_capture_import (points, &options, NULL, warnings, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (m->segments[0].name, ==, "Left Hand");
    g_assert_cmpfloat (odori_motion_get (m, 0, 0)->rotation[3], ==, 1.0f);
    g_assert_cmpfloat_with_epsilon (odori_motion_get (m, 1, 0)->position[0], 10 + 2 * (1.0 / 30) / 0.04, 1e-4);
    g_assert_cmpuint (warnings->len, >=, 1);
  }
}

/* A library whose shows are a BVA, a joints file and a CSV */

static const char *lib_index =
  "define part name=\"Body\" code=\"BD\" map=\"PELVIS,TORSO,NECK,HEAD,L_SHLDR,L_ELBOW,L_HAND,"
  "R_SHLDR,R_ELBOW,R_HAND,L_HIP,L_KNEE,L_FOOT,R_HIP,R_KNEE,R_FOOT\"\n"
  "define part name=\"Suit\" code=\"SU\" map=\"Hip,Spine,Head,LeftUpperArm,LeftForearm,LeftHand\"\n"
  "begin class name=\"Captures\" code=\"cap\"\n"
  "  begin show name=\"Studio\" code=\"BA\" file=\"studio.bva\"\n"
  "    motion name=\"stand\" code=\"B1\" frame=1-10\n"
  "  end show\n"
  "  begin show name=\"Kinect\" code=\"KI\" file=\"kinect.txt\"\n"
  "    motion name=\"wave\" code=\"K1\" frame=3-22\n"
  "  end show\n"
  "  begin show name=\"Suit\" code=\"SU\" file=\"suit.csv\"\n"
  "    motion name=\"walk\" code=\"S1\" frame=1-20\n"
  "  end show\n"
  "end class\n";

static const char *lib_score =
  "# Title: captures\n"
  "# Author: test\n"
  "# Date: 2026/01/01 00:00:00\n"
  "# Index: motion.dat\n"
  "BD: PELVIS,TORSO,NECK,HEAD,L_SHLDR,L_ELBOW,L_HAND,R_SHLDR,R_ELBOW,R_HAND,L_HIP,L_KNEE,"
  "L_FOOT,R_HIP,R_KNEE,R_FOOT\n"
  "1: B1\n"
  "11: K1\n"
  "SU: Hip,Spine,Head,LeftUpperArm,LeftForearm,LeftHand\n"
  "1: S1\n";

static void
write_studio_bva (const char *path)
{
  GString *s = g_string_new (NULL);

  for (int j = 0; j < N_NI; j++)
    {
      g_string_append_printf (s, "Segment: %s\nFrames: 10\nFrame Time: 0.033333\n"
                                 "XTRAN YTRAN ZTRAN XROT YROT ZROT XSCALE YSCALE ZSCALE\n"
                                 "INCHES INCHES INCHES DEGREES DEGREES DEGREES PERCENT PERCENT PERCENT\n",
                              ni_names[j]);
      for (int f = 1; f <= 10; f++)
        g_string_append_printf (s, "%d %d 0 0 0 0 100 100 100\n", 1000 + f, 10 * j);
    }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
}

static void
assert_same_transform (const OdoriTransform *composed,
                       const OdoriTransform *capture_cm)
{
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (composed->position[c], capture_cm->position[c] / 2.54, 2e-3);
  g_assert_cmpfloat (odori_quat_angle_deg (composed->rotation, capture_cm->rotation), <, 0.01);
}

static void
test_compose_library (void)
{
  g_autofree char *dir = tmp_path ("library");
  g_autofree char *index_path = NULL;
  g_autofree char *score_path = NULL;
  g_autofree char *bva = NULL;
  g_autofree char *kinect = NULL;
  g_autofree char *csv_tmp = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *csv_text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(OdoriMotion) cap = NULL;
  g_autoptr(OdoriMotion) suit = NULL;
  OdoriMotion *out;
  double ni_times[26], csv_times[21];
  gsize len;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  index_path = g_build_filename (dir, "motion.dat", NULL);
  score_path = g_build_filename (dir, "captures.dds", NULL);
  bva = g_build_filename (dir, "studio.bva", NULL);
  kinect = g_build_filename (dir, "kinect.txt", NULL);
  csv = g_build_filename (dir, "suit.csv", NULL);
  write_studio_bva (bva);
  g_assert_true (g_file_set_contents (index_path, lib_index, -1, NULL));
  g_assert_true (g_file_set_contents (score_path, lib_score, -1, NULL));
  /* a Kinect capture with its irregular clock, and a suit export at 30 fps */
  for (guint i = 0; i < G_N_ELEMENTS (ni_times); i++)
    ni_times[i] = 100 + 1000.0 * i / 30 + (i % 3 == 1 ? 6 : 0);
  {
    g_autofree char *k = write_ni ("kinect-src.txt", ni_times, G_N_ELEMENTS (ni_times), 0);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (k, &text, &len, NULL));
    g_assert_true (g_file_set_contents (kinect, text, len, NULL));
  }
  for (guint i = 0; i < G_N_ELEMENTS (csv_times); i++)
    csv_times[i] = i / 30.0;
  csv_tmp = write_suit_csv ("suit-src.csv", csv_times, G_N_ELEMENTS (csv_times), CSV_QUAT, TRUE);
  g_assert_true (g_file_get_contents (csv_tmp, &csv_text, &len, NULL));
  g_assert_true (g_file_set_contents (csv, csv_text, len, NULL));

  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  score = odori_score_load (score_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  odori_composer_set_root_match (composer, ODORI_ROOT_MATCH_NONE);
  out = odori_composer_compose (composer, &error);
  g_assert_no_error (error);

  /* what the show files hold, loaded as the composer loads them */
  cap = odori_format_load_motion (kinect, NULL, &error);
  g_assert_no_error (error);
  suit = odori_format_load_motion (csv, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (cap->frame_time, 1.0 / 30, 1e-9);

  g_assert_cmpuint (out->n_frames, ==, 30);
  /* frames 1-10: the BVA (inches) */
  g_assert_cmpfloat_with_epsilon (seg (out, 4, "L_ELBOW")->position[0], 1005, 1e-3);
  /* frames 11-30: the Kinect capture's frames 3-22, every sensor */
  for (guint f = 10; f < 30; f++)
    for (int j = 0; j < N_NI; j++)
      assert_same_transform (seg (out, f, ni_names[j]), seg (cap, f - 10 + 2, ni_names[j]));
  /* the suit track: the CSV's frames 1-20, then its last frame held */
  for (guint f = 0; f < 30; f++)
    for (int i = 0; i < 7; i++)
      if (i != 3)
        assert_same_transform (seg (out, f, suit_names[i]), seg (suit, MIN (f, 19), suit_names[i]));
}

/* The command line */

static int
run_cli (const char **args,
         char       **out)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, &err, &status, &error));
  g_assert_no_error (error);
  if (err != NULL && err[0] != '\0')
    {
      char *nl = strchr (err, '\n');

      if (nl != NULL)
        *nl = '\0';  /* the message; the usage text after it is not interesting */
      g_test_message ("stderr: %s", err);
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
test_cli_convert (void)
{
  double times[30];
  double csv_times[30];
  g_autofree char *txt = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *kbs_path = tmp_path ("cli.kbs");
  g_autofree char *out_bva = tmp_path ("cli-out.bva");
  g_autofree char *out_bvh = tmp_path ("cli-out.bvh");
  g_autofree char *csv_bva = tmp_path ("cli-csv.bva");
  g_autofree char *bva_text = NULL;
  g_autofree char *out = NULL;
  g_autoptr(OdoriKbs) kbs = odori_kbs_new ();
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 30; i++)
    {
      times[i] = 33.0 * i + (i % 2) * 5;
      csv_times[i] = 0.01 * i;
    }
  txt = write_ni ("cli.txt", times, 30, 59500);
  csv = write_suit_csv ("cli.csv", csv_times, 30, CSV_QUAT, FALSE);
  odori_kbs_set_joint (kbs, ODORI_KINECT_TORSO, "Hips", TRUE);
  odori_kbs_set_joint (kbs, ODORI_KINECT_LEFT_ELBOW, "LeftUpArm", TRUE);
  odori_kbs_set_joint (kbs, ODORI_KINECT_LEFT_HAND, "LeftLowArm", FALSE);
  g_assert_true (odori_kbs_save (kbs, kbs_path, ODORI_ENCODING_SHIFT_JIS, NULL));

  {
    const char *args[] = { "convert", txt, "-o", out_bva, "--fps", "30", "--up", "z", "--kbs",
                           kbs_path, "--rotations", "positions", "--smooth", "2", "--symmetry", NULL };

    g_assert_cmpint (run_cli (args, &out), ==, 0);
    g_assert_nonnull (strstr (out, "smoothing 2: largest correction"));
    g_clear_pointer (&out, g_free);
  }
  g_assert_true (g_file_get_contents (out_bva, &bva_text, NULL, NULL));
  g_assert_nonnull (strstr (bva_text, "Segment:\tHips"));
  g_assert_nonnull (strstr (bva_text, "CENTIMETERS"));
  m = odori_bva_load (out_bva, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 3);
  g_assert_cmpstr (m->segments[2].name, ==, "LeftLowArm");
  g_clear_pointer (&m, odori_motion_unref);

  {
    const char *args[] = { "convert", txt, "-o", out_bvh, "--rotations", "file", NULL };

    g_assert_cmpint (run_cli (args, &out), ==, 0);
    g_clear_pointer (&out, g_free);
  }
  m = odori_bvh_load (out_bvh, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, N_NI);
  g_clear_pointer (&m, odori_motion_unref);

  {
    const char *args[] = { "convert", csv, "-o", csv_bva, "--fps", "0", NULL };

    g_assert_cmpint (run_cli (args, &out), ==, 0);
    g_clear_pointer (&out, g_free);
  }
  m = odori_bva_load (csv_bva, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, N_SUIT);
  g_assert_cmpfloat_with_epsilon (m->frame_time, 0.01, 1e-6);

  /* info knows captures */
  {
    const char *args[] = { "info", "--json", txt, NULL };

    g_assert_cmpint (run_cli (args, &out), ==, 0);
    g_assert_nonnull (strstr (out, "\"format\" : \"joints\""));
    g_assert_nonnull (strstr (out, "\"up\" : \"z\""));
    g_clear_pointer (&out, g_free);
  }
  /* usage errors: capture options on a BVA, a bad axis */
  {
    const char *args[] = { "convert", csv_bva, "-o", out_bva, "--kbs", kbs_path, NULL };
    const char *args2[] = { "convert", txt, "-o", out_bva, "--up", "w", NULL };
    const char *args3[] = { "convert", txt, "-o", out_bva, "--rotations", "magic", NULL };

    g_assert_cmpint (run_cli (args, &out), ==, 2);
    g_clear_pointer (&out, g_free);
    g_assert_cmpint (run_cli (args2, &out), ==, 2);
    g_clear_pointer (&out, g_free);
    g_assert_cmpint (run_cli (args3, &out), ==, 2);
    g_clear_pointer (&out, g_free);
  }
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-test-retarget-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/retarget/positions/exact-times", test_positions_exact_times);
  g_test_add_func ("/retarget/positions/irregular-wrapping", test_positions_irregular_wrapping);
  g_test_add_func ("/retarget/positions/native-segments", test_native_segments);
  g_test_add_func ("/retarget/positions/native-bvh", test_native_bvh);
  g_test_add_func ("/retarget/file/rotations", test_file_rotations);
  g_test_add_func ("/retarget/file/seed-quaternions", test_seed_file_quaternions);
  g_test_add_func ("/retarget/kbs/mapping", test_kbs_mapping);
  g_test_add_func ("/retarget/kbs/kst-corpus", test_kst_corpus_mapping);
  g_test_add_func ("/retarget/twist", test_twist);
  g_test_add_func ("/retarget/symmetry", test_symmetry);
  g_test_add_func ("/retarget/up-axis", test_up_axis);
  g_test_add_func ("/retarget/csv/file-rotations", test_csv_file_rotations);
  g_test_add_func ("/retarget/csv/positions", test_csv_positions);
  g_test_add_func ("/retarget/errors", test_errors);
  g_test_add_func ("/retarget/compose-library", test_compose_library);
  g_test_add_func ("/retarget/cli-convert", test_cli_convert);

  ret = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
