/* test-skin.c: skin tubes and their bulges, checked on vertex positions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bulge.h"
#include "odori-format.h"
#include "odori-sample.h"
#include "odori-skeleton.h"
#include "odori-skin.h"

#define RINGS 5   /* u = 0, 0.25, 0.5, 0.75, 1 */
#define SIDES 8   /* every 45 degrees */
#define UP_RADIUS 2.f
#define LOW_RADIUS 1.5f
#define UP_LENGTH 10.f
#define LOW_LENGTH 10.f

static char *tmp_dir;

/* Upper arm (code 1: bulges at the front only, a flat section at the back), forearm
 * (code 2: one section, all round), hand. */
static const char arm_bulges[] =
  "bulge: \"Front\" code: 1\n"
  "    angle: 0\n"
  "        0.00 0.0 0.00\n"
  "        0.25 0.2 0.10\n"
  "        0.50 0.4 0.25\n"
  "        1.00 1.0 0.00\n"
  "    angle: 180\n"
  "        0 0 0\n"
  "        1 1 0\n"
  "bulge: \"Round\" code: 2\n"
  "    angle: 0\n"
  "        0.0 0.0 0.0\n"
  "        0.5 0.5 0.2\n"
  "        1.0 1.0 0.0\n";

static const char arm_skeleton[] =
  "<odori-skeleton version=\"1\">\n"
  "  <bone name=\"UpArm\" parent=\"\" length=\"10\" radius=\"2\" bulge=\"1\"/>\n"
  "  <bone name=\"LowArm\" parent=\"UpArm\" length=\"10\" radius=\"1.5\" bulge=\"2\"/>\n"
  "  <bone name=\"Hand\" parent=\"LowArm\" length=\"4\" radius=\"1\" bulge=\"-1\"/>\n"
  "</odori-skeleton>\n";

enum { UP, LOW, HAND };

/* Helpers */

static OdoriSkeleton *
load_arm_skeleton (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "arm.xml", NULL);
  g_autoptr(GError) error = NULL;
  OdoriSkeleton *skeleton;

  g_assert_true (g_file_set_contents (path, arm_skeleton, -1, NULL));
  skeleton = odori_skeleton_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (skeleton->n_bones, ==, 3);
  return skeleton;
}

static OdoriBulgeSet *
load_arm_bulges (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("arm.bulge", arm_bulges,
                                                                 strlen (arm_bulges), &error);
  OdoriBulgeSet *set = odori_bulge_set_load_text (file, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (set->bulges->len, ==, 2);
  return set;
}

static void
quat_about_x (float  deg,
              float  q[4])
{
  glm_quatv (q, glm_rad (deg), (vec3) { 1, 0, 0 });
}

/* Frame FRAME of MOTION: the upper arm hangs down (-Y) from the origin with the identity
 * rotation (front +Z); the elbow bends the forearm ELBOW degrees toward the front, the
 * wrist the hand WRIST degrees more. */
static void
set_arm_pose (OdoriMotion *motion,
              guint        frame,
              float        elbow,
              float        wrist)
{
  OdoriTransform *up = odori_motion_get (motion, frame, UP);
  OdoriTransform *low = odori_motion_get (motion, frame, LOW);
  float e = glm_rad (elbow);

  memset (up->position, 0, sizeof up->position);
  glm_quat_identity (up->rotation);
  low->position[0] = 0;
  low->position[1] = -UP_LENGTH;
  low->position[2] = 0;
  quat_about_x (-elbow, low->rotation);
  if (motion->n_segments > HAND)
    {
      OdoriTransform *hand = odori_motion_get (motion, frame, HAND);

      hand->position[0] = 0;
      hand->position[1] = low->position[1] - LOW_LENGTH * cosf (e);
      hand->position[2] = LOW_LENGTH * sinf (e);
      quat_about_x (-(elbow + wrist), hand->rotation);
    }
}

static OdoriMotion *
arm_motion (guint n_segments,
            guint n_frames)
{
  static const char * const names[] = { "UpArm", "LowArm", "Hand" };
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (n_segments, n_frames, 1.0 / 30, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < n_segments; s++)
    odori_motion_set_segment_name (motion, s, names[s]);
  for (guint f = 0; f < n_frames; f++)
    set_arm_pose (motion, f, 0, 0);
  return motion;
}

typedef struct
{
  OdoriSkin *skin;
  guint      n;
  float     *positions;
  float     *normals;
} Posed;

static void
posed_clear (Posed *p)
{
  g_clear_pointer (&p->skin, odori_skin_free);
  g_clear_pointer (&p->positions, g_free);
  g_clear_pointer (&p->normals, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Posed, posed_clear)

static void
pose (Posed       *p,
      OdoriMotion *motion,
      guint        frame,
      gboolean     use_bulges)
{
  if (p->skin == NULL)
    {
      g_autoptr(OdoriSkeleton) skeleton = load_arm_skeleton ();
      g_autoptr(OdoriBulgeSet) bulges = load_arm_bulges ();

      p->skin = odori_skin_new (skeleton, bulges, RINGS, SIDES);
      p->n = odori_skin_get_n_vertices (p->skin);
      p->positions = g_new (float, 3 * p->n);
      p->normals = g_new (float, 3 * p->n);
    }
  odori_skin_pose (p->skin, motion, frame, use_bulges, p->positions, p->normals);
}

static guint
verts_per_bone (void)
{
  guint cap_rings = MAX (1, SIDES / 4);

  return RINGS * SIDES + 2 * (cap_rings * SIDES + 1);
}

static const float *
tube_vertex (const Posed *p,
             guint        bone,
             guint        ring,
             guint        side)
{
  return p->positions + 3 * (bone * verts_per_bone () + ring * SIDES + side);
}

/* Distance of P from the line through START along unit DIR, and its position along it. */
static float
radial_distance (const float *p,
                 const vec3   start,
                 const vec3   dir,
                 float       *along)
{
  vec3 rel, radial;

  glm_vec3_sub ((float *) p, (float *) start, rel);
  *along = glm_vec3_dot (rel, (float *) dir);
  glm_vec3_scale ((float *) dir, *along, radial);
  glm_vec3_sub (rel, radial, radial);
  return glm_vec3_norm (radial);
}

static void
assert_normals_unit (const Posed *p)
{
  for (guint v = 0; v < p->n; v++)
    {
      const float *n = p->normals + 3 * v;

      g_assert_true (isfinite (n[0]) && isfinite (n[1]) && isfinite (n[2]));
      g_assert_cmpfloat_with_epsilon (sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.f, 1e-5);
      g_assert_true (isfinite (p->positions[3 * v]) && isfinite (p->positions[3 * v + 1]) &&
                     isfinite (p->positions[3 * v + 2]));
    }
}

/* Topology */

static void
test_topology (void)
{
  g_autoptr(OdoriSkeleton) skeleton = load_arm_skeleton ();
  g_autoptr(OdoriSkin) skin = odori_skin_new (skeleton, NULL, RINGS, SIDES);
  guint n = odori_skin_get_n_vertices (skin), n_indices;
  const guint32 *indices = odori_skin_get_indices (skin, &n_indices);
  const guint16 *bones = odori_skin_get_vertex_bones (skin);
  g_autofree guint *used = g_new0 (guint, n);

  /* 5 rings of 8, two caps of 2 latitude rings and a pole, per bone */
  g_assert_cmpuint (n, ==, 3 * (5 * 8 + 2 * (2 * 8 + 1)));
  g_assert_cmpuint (n_indices % 3, ==, 0);
  g_assert_cmpuint (n_indices, ==, 3 * 8 * (6 * 4 + 2 * (6 * 2 + 3)));
  for (guint i = 0; i < n_indices; i++)
    {
      g_assert_cmpuint (indices[i], <, n);
      used[indices[i]]++;
    }
  for (guint v = 0; v < n; v++)
    {
      g_assert_cmpuint (used[v], >, 0);
      g_assert_cmpuint (bones[v], ==, v / verts_per_bone ());
    }
  /* a triangle never spans two bones */
  for (guint t = 0; t < n_indices; t += 3)
    {
      g_assert_cmpuint (bones[indices[t]], ==, bones[indices[t + 1]]);
      g_assert_cmpuint (bones[indices[t]], ==, bones[indices[t + 2]]);
    }
}

static void
test_bad_sizes (void)
{
  g_autoptr(OdoriSkeleton) skeleton = load_arm_skeleton ();

  g_test_expect_message ("Odori", G_LOG_LEVEL_CRITICAL, "*rings >= 2*");
  g_assert_null (odori_skin_new (skeleton, NULL, 1, 8));
  g_test_assert_expected_messages ();
  g_test_expect_message ("Odori", G_LOG_LEVEL_CRITICAL, "*sides >= 3*");
  g_assert_null (odori_skin_new (skeleton, NULL, 4, 2));
  g_test_assert_expected_messages ();
}

/* Shapes */

static void
test_straight_arm (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 1);
  g_auto(Posed) p = { 0 };
  const vec3 origin = { 0, 0, 0 }, down = { 0, -1, 0 };

  for (int use_bulges = 0; use_bulges <= 1; use_bulges++)
    {
      pose (&p, motion, 0, use_bulges);
      /* no bend, no bulge: radius r everywhere, rings evenly along the bone */
      for (guint i = 0; i < RINGS; i++)
        for (guint k = 0; k < SIDES; k++)
          {
            const float *v = tube_vertex (&p, UP, i, k);
            const float *w = tube_vertex (&p, LOW, i, k);
            double theta = 2 * G_PI * k / SIDES;
            vec3 low_start = { 0, -UP_LENGTH, 0 };
            float along;

            g_assert_cmpfloat_with_epsilon (radial_distance (v, origin, down, &along), UP_RADIUS,
                                            1e-5);
            g_assert_cmpfloat_with_epsilon (along, UP_LENGTH * i / (RINGS - 1), 1e-5);
            g_assert_cmpfloat_with_epsilon (radial_distance (w, low_start, down, &along),
                                            LOW_RADIUS, 1e-5);
            g_assert_cmpfloat_with_epsilon (along, LOW_LENGTH * i / (RINGS - 1), 1e-5);
            /* the frame: 0 degrees at the front (+Z), 90 at the bone's right (-X here) */
            g_assert_cmpfloat_with_epsilon (v[2], UP_RADIUS * cos (theta), 1e-5);
            g_assert_cmpfloat_with_epsilon (v[0], -UP_RADIUS * sin (theta), 1e-5);
            /* normals point straight out */
            g_assert_cmpfloat_with_epsilon (p.normals[(v - p.positions) + 2], cos (theta), 1e-5);
            g_assert_cmpfloat_with_epsilon (p.normals[(v - p.positions) + 1], 0, 1e-5);
          }
      assert_normals_unit (&p);
    }
  /* the hand, a leaf, continues the forearm for its bone length */
  {
    const float *tip = tube_vertex (&p, HAND, RINGS - 1, 0);

    g_assert_cmpfloat_with_epsilon (tip[1], -UP_LENGTH - LOW_LENGTH - 4.f, 1e-5);
    g_assert_cmpfloat_with_epsilon (tip[2], 1.f, 1e-5);
  }
}

static void
test_full_bend (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 1);
  g_autoptr(OdoriBulgeSet) bulges = load_arm_bulges ();
  const OdoriBulge *front = odori_bulge_set_find (bulges, 1);
  g_auto(Posed) p = { 0 };
  const vec3 origin = { 0, 0, 0 }, down = { 0, -1, 0 };

  set_arm_pose (motion, 0, 120, 0);
  pose (&p, motion, 0, TRUE);
  for (guint i = 0; i < RINGS; i++)
    {
      float u = (float) i / (RINGS - 1);

      for (guint k = 0; k < SIDES; k++)
        {
          const float *vtx = tube_vertex (&p, UP, i, k);
          float v, w, along, radius = radial_distance (vtx, origin, down, &along);

          /* the full profile: radius r (1 + 2 W(u)), moved along the bone to V(u) */
          odori_bulge_eval (front, u, 360.f * k / SIDES, &v, &w);
          g_assert_cmpfloat_with_epsilon (radius, UP_RADIUS * (1 + 2 * w), 1e-4);
          g_assert_cmpfloat_with_epsilon (along, UP_LENGTH * v, 1e-4);
        }
    }
  /* the same, by hand: at u = 0.5 the front is at 2 × (1 + 0.5) = 3, moved up to 0.4 */
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 0)[2], 3.f, 1e-4);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 0)[1], -4.f, 1e-4);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 1, 0)[2], 2.4f, 1e-4);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 1, 0)[1], -2.f, 1e-4);
  /* 90 degrees (the bone's right, -X) blends front and back half and half */
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 2)[0], -2.f * 1.25f, 1e-4);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 2)[1], -4.5f, 1e-4);
  /* the forearm's wrist is straight: no bulge there */
  for (guint i = 0; i < RINGS; i++)
    for (guint k = 0; k < SIDES; k++)
      {
        vec3 start = { 0, -UP_LENGTH, 0 }, dir = { 0, 0.5f, sqrtf (3) / 2 };
        float along;

        g_assert_cmpfloat_with_epsilon (radial_distance (tube_vertex (&p, LOW, i, k), start, dir,
                                                         &along), LOW_RADIUS, 1e-4);
      }
  assert_normals_unit (&p);

  /* without bulges the tubes stay round */
  pose (&p, motion, 0, FALSE);
  for (guint i = 0; i < RINGS; i++)
    for (guint k = 0; k < SIDES; k++)
      {
        float along;

        g_assert_cmpfloat_with_epsilon (radial_distance (tube_vertex (&p, UP, i, k), origin, down,
                                                         &along), UP_RADIUS, 1e-5);
      }
}

static void
test_half_bend (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 1);
  g_auto(Posed) p = { 0 };

  /* 60 degrees: activation 0.5 */
  set_arm_pose (motion, 0, 60, 0);
  pose (&p, motion, 0, TRUE);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 0)[2], 2.f * (1 + 0.25f), 1e-4);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 0)[1], -10.f * (0.5f - 0.05f), 1e-4);
  /* beyond 120 degrees the activation stays 1 */
  set_arm_pose (motion, 0, 150, 0);
  pose (&p, motion, 0, TRUE);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, UP, 2, 0)[2], 3.f, 1e-4);
}

static void
test_front_only (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 1);
  g_auto(Posed) p = { 0 };
  const vec3 origin = { 0, 0, 0 }, down = { 0, -1, 0 };
  gboolean front_grew = FALSE;

  set_arm_pose (motion, 0, 120, 0);
  pose (&p, motion, 0, TRUE);
  for (guint i = 0; i < RINGS; i++)
    {
      const float *front = tube_vertex (&p, UP, i, 0);
      const float *back = tube_vertex (&p, UP, i, SIDES / 2);
      float along;

      /* the back (180 degrees) stays at r, where it was */
      g_assert_cmpfloat_with_epsilon (radial_distance (back, origin, down, &along), UP_RADIUS,
                                      1e-5);
      g_assert_cmpfloat_with_epsilon (along, UP_LENGTH * i / (RINGS - 1), 1e-5);
      g_assert_cmpfloat_with_epsilon (back[2], -UP_RADIUS, 1e-5);
      if (front[2] > UP_RADIUS + 0.1f)
        front_grew = TRUE;
      g_assert_cmpfloat (front[2], >=, UP_RADIUS - 1e-5);
    }
  g_assert_true (front_grew);
}

/* The hand is a leaf: its direction follows the wrist's rotation, so the wrist's bend
 * drives the forearm's bulge. */
static void
test_leaf_bend_drives_bulge (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 1);
  g_auto(Posed) p = { 0 };
  const vec3 start = { 0, -UP_LENGTH, 0 }, down = { 0, -1, 0 };

  set_arm_pose (motion, 0, 0, 90);
  pose (&p, motion, 0, TRUE);
  /* activation 90 / 120 = 0.75, W = 0.2 at u = 0.5, all round: 1.5 × (1 + 0.3) */
  for (guint k = 0; k < SIDES; k++)
    {
      float along;

      g_assert_cmpfloat_with_epsilon (radial_distance (tube_vertex (&p, LOW, 2, k), start, down,
                                                       &along), 1.5f * 1.3f, 1e-4);
      g_assert_cmpfloat_with_epsilon (along, 5.f, 1e-4);
    }
  /* the hand points forward now: its tip is 4 in front of the wrist */
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, HAND, RINGS - 1, SIDES / 2)[2], 4.f, 1e-4);
}

static void
test_normals_and_winding (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 1);
  g_auto(Posed) p = { 0 };
  const guint32 *indices;
  const guint16 *bones;
  guint n_indices, checked = 0;

  for (int bent = 0; bent <= 1; bent++)
    {
      set_arm_pose (motion, 0, bent ? 120 : 0, 0);
      pose (&p, motion, 0, TRUE);
      assert_normals_unit (&p);
      indices = odori_skin_get_indices (p.skin, &n_indices);
      bones = odori_skin_get_vertex_bones (p.skin);

      /* outward normals and counter-clockwise triangles (seen from outside) on the upper
       * arm: both point away from the bone's axis segment */
      for (guint t = 0; t < n_indices; t += 3)
        {
          const float *a = p.positions + 3 * indices[t], *b = p.positions + 3 * indices[t + 1];
          const float *c = p.positions + 3 * indices[t + 2];
          vec3 ab, ac, face, centroid, out;
          float y;

          if (bones[indices[t]] != UP)
            continue;
          glm_vec3_sub ((float *) b, (float *) a, ab);
          glm_vec3_sub ((float *) c, (float *) a, ac);
          glm_vec3_cross (ab, ac, face);
          for (guint i = 0; i < 3; i++)
            centroid[i] = (a[i] + b[i] + c[i]) / 3;
          y = CLAMP (centroid[1], -UP_LENGTH, 0.f);
          glm_vec3_sub (centroid, (vec3) { 0, y, 0 }, out);
          g_assert_cmpfloat (glm_vec3_dot (face, out), >, 0);
          for (guint i = 0; i < 3; i++)
            {
              const float *v = p.positions + 3 * indices[t + i];
              const float *n = p.normals + 3 * indices[t + i];
              vec3 rel;

              glm_vec3_sub ((float *) v, (vec3) { 0, CLAMP (v[1], -UP_LENGTH, 0.f), 0 }, rel);
              g_assert_cmpfloat (glm_vec3_dot ((float *) n, rel), >, 0);
            }
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 100);
}

static void
test_deterministic (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (3, 3);
  g_auto(Posed) p = { 0 };
  g_auto(Posed) q = { 0 };
  g_autofree float *first_p = NULL;
  g_autofree float *first_n = NULL;

  set_arm_pose (motion, 0, 10, 5);
  set_arm_pose (motion, 1, 97.5f, 33);
  set_arm_pose (motion, 2, 130, -20);
  pose (&p, motion, 1, TRUE);
  first_p = g_memdup2 (p.positions, 3 * p.n * sizeof (float));
  first_n = g_memdup2 (p.normals, 3 * p.n * sizeof (float));
  pose (&p, motion, 0, TRUE);
  pose (&p, motion, 2, FALSE);
  pose (&p, motion, 1, TRUE);
  g_assert_cmpmem (first_p, 3 * p.n * sizeof (float), p.positions, 3 * p.n * sizeof (float));
  g_assert_cmpmem (first_n, 3 * p.n * sizeof (float), p.normals, 3 * p.n * sizeof (float));
  /* and a skin built anew gives the same bits */
  pose (&q, motion, 1, TRUE);
  g_assert_cmpmem (first_p, 3 * p.n * sizeof (float), q.positions, 3 * q.n * sizeof (float));
  g_assert_cmpmem (first_n, 3 * p.n * sizeof (float), q.normals, 3 * q.n * sizeof (float));
}

static void
test_missing_segment (void)
{
  g_autoptr(OdoriMotion) motion = arm_motion (2, 1);  /* no Hand */
  g_autoptr(OdoriMotion) full = arm_motion (3, 1);
  g_auto(Posed) p = { 0 };
  const float *first;

  set_arm_pose (motion, 0, 45, 0);
  pose (&p, motion, 0, TRUE);
  assert_normals_unit (&p);
  /* the hand collapses to one point, the forearm's end */
  first = p.positions + 3 * (HAND * verts_per_bone ());
  for (guint v = 1; v < verts_per_bone (); v++)
    g_assert_cmpmem (first, 3 * sizeof (float), first + 3 * v, 3 * sizeof (float));
  g_assert_cmpfloat_with_epsilon (first[2], LOW_LENGTH * sinf (glm_rad (45)), 1e-4);

  /* another motion with the hand, then the first again: names are matched anew */
  pose (&p, full, 0, TRUE);
  g_assert_cmpfloat_with_epsilon (tube_vertex (&p, HAND, 0, 0)[1], -UP_LENGTH - LOW_LENGTH, 1e-4);
  pose (&p, motion, 0, TRUE);
  g_assert_cmpmem (first, 3 * sizeof (float), first + 3, 3 * sizeof (float));
}

/* The sample library with the shipped bulges: every frame gives a sane mesh, and bent
 * elbows bulge the upper arms. */
static void
test_sample (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "sample", NULL);
  g_autofree char *bulge_path = g_test_build_filename (G_TEST_DIST, "..", "data", "bulge_types",
                                                       NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  const char *name;
  guint n_motions = 0;
  gboolean bulged = FALSE;

  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  bulges = odori_bulge_set_load (bulge_path, &error);
  g_assert_no_error (error);

  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(OdoriMotion) motion = NULL;
      g_autoptr(OdoriSkeleton) skeleton = NULL;
      g_autoptr(OdoriSkin) skin = NULL;
      g_autofree float *pos = NULL;
      g_autofree float *round_pos = NULL;
      g_autofree float *nrm = NULL;
      guint n;
      int up_arm;

      if (!g_str_has_suffix (name, ".bva"))
        continue;
      g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();

      motion = odori_format_load_motion (path, warnings, &error);
      g_assert_no_error (error);
      skeleton = odori_skeleton_for_motion (motion);
      up_arm = odori_skeleton_find (skeleton, "LeftUpArm");
      g_assert_cmpint (up_arm, >=, 0);
      g_assert_cmpint (skeleton->bones[up_arm].bulge_code, ==, 1);
      skin = odori_skin_new (skeleton, bulges, 6, 12);
      n = odori_skin_get_n_vertices (skin);
      pos = g_new (float, 3 * n);
      round_pos = g_new (float, 3 * n);
      nrm = g_new (float, 3 * n);
      for (guint f = 0; f < motion->n_frames; f += 5)
        {
          Posed p = { skin, n, pos, nrm };

          odori_skin_pose (skin, motion, f, TRUE, pos, nrm);
          assert_normals_unit (&p);
          odori_skin_pose (skin, motion, f, FALSE, round_pos, nrm);
          if (memcmp (pos, round_pos, 3 * n * sizeof (float)) != 0)
            bulged = TRUE;
        }
      n_motions++;
    }
  g_assert_cmpuint (n_motions, >=, 1);
  g_assert_true (bulged);
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
        g_remove (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-skin-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/skin/topology", test_topology);
  g_test_add_func ("/skin/bad-sizes", test_bad_sizes);
  g_test_add_func ("/skin/straight-arm", test_straight_arm);
  g_test_add_func ("/skin/full-bend", test_full_bend);
  g_test_add_func ("/skin/half-bend", test_half_bend);
  g_test_add_func ("/skin/front-only", test_front_only);
  g_test_add_func ("/skin/leaf-bend-drives-bulge", test_leaf_bend_drives_bulge);
  g_test_add_func ("/skin/normals-and-winding", test_normals_and_winding);
  g_test_add_func ("/skin/deterministic", test_deterministic);
  g_test_add_func ("/skin/missing-segment", test_missing_segment);
  g_test_add_func ("/skin/sample", test_sample);

  status = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
