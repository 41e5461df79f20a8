/* test-skeleton.c: skeletons from naming schemes, inference, and the XML description
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <libxml/parser.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-skeleton.h"
#include "odori-text.h"
#include "test-corpus.h"

static char *tmp_dir;

/* Helpers */

typedef struct
{
  const char *name;
  float       x, y, z;
} NamedPoint;

/* A one-frame motion with these names and frame-0 positions. */
static OdoriMotion *
motion_from_points (const NamedPoint *points,
                    guint             n)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (n, 1, 1.0 / 30, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < n; s++)
    {
      OdoriTransform *xf = odori_motion_get (motion, 0, s);

      odori_motion_set_segment_name (motion, s, points[s].name);
      xf->position[0] = points[s].x;
      xf->position[1] = points[s].y;
      xf->position[2] = points[s].z;
    }
  return motion;
}

static OdoriMotion *
motion_from_names (const char * const *names)
{
  guint n = g_strv_length ((char **) names);
  g_autofree NamedPoint *points = g_new0 (NamedPoint, n);

  /* Distinct positions along a diagonal: irrelevant to tables, but not all equal. */
  for (guint s = 0; s < n; s++)
    points[s] = (NamedPoint) { names[s], (float) s, (float) (2 * s), 0 };
  return motion_from_points (points, n);
}

static const char *
parent_name (const OdoriSkeleton *skeleton,
             const char          *name)
{
  int b = odori_skeleton_find (skeleton, name);

  g_assert_cmpint (b, >=, 0);
  if (skeleton->bones[b].parent < 0)
    return "";
  return skeleton->bones[skeleton->bones[b].parent].name;
}

static int
uf (int *up,
    int  x)
{
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

/* Eyes and end twigs carry no body: radius 0. */
static gboolean
is_twig (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return g_str_has_suffix (lower, "end") || g_str_has_suffix (lower, "nub") ||
         g_str_has_suffix (lower, "site") || strstr (lower, "eye") != NULL ||
         strstr (lower, "headtop") != NULL;
}

/* Parents come before children, and each bone's parent is in range. */
static void
assert_well_ordered (const OdoriSkeleton *skeleton)
{
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      g_assert_cmpint (skeleton->bones[b].parent, <, (int) b);
      g_assert_cmpint (skeleton->bones[b].parent, >=, -1);
      g_assert_cmpfloat (skeleton->bones[b].length, >, 0);
      if (skeleton->bones[b].parent >= 0 && is_twig (skeleton->bones[b].name))
        g_assert_cmpfloat (skeleton->bones[b].radius, ==, 0);
      else
        g_assert_cmpfloat (skeleton->bones[b].radius, >, 0);
    }
}

typedef struct
{
  const char *child;
  const char *parent;
} Link;

static void
assert_links (const OdoriSkeleton *skeleton,
              const Link          *links,
              guint                n)
{
  for (guint i = 0; i < n; i++)
    {
      if (g_strcmp0 (parent_name (skeleton, links[i].child), links[i].parent) != 0)
        g_error ("%s: parent %s, expected %s", links[i].child,
                 parent_name (skeleton, links[i].child), links[i].parent);
    }
}

static int
bulge_of (const OdoriSkeleton *skeleton,
          const char          *name)
{
  int b = odori_skeleton_find (skeleton, name);

  g_assert_cmpint (b, >=, 0);
  return skeleton->bones[b].bulge_code;
}

static char *
write_tmp (const char *name,
           const char *content,
           gssize      len)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, content, len, &error);
  g_assert_no_error (error);
  return path;
}

/* Naming schemes */

static const char *biovision_names[] = {
  "Hips", "Chest", "Neck", "Head",
  "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
  "RightCollar", "RightUpArm", "RightLowArm", "RightHand",
  "LeftUpLeg", "LeftLowLeg", "LeftFoot",
  "RightUpLeg", "RightLowLeg", "RightFoot",
  NULL
};

static void
test_biovision (void)
{
  static const Link links[] = {
    { "Hips", "" }, { "Chest", "Hips" }, { "Neck", "Chest" }, { "Head", "Neck" },
    { "LeftCollar", "Chest" }, { "LeftUpArm", "LeftCollar" }, { "LeftLowArm", "LeftUpArm" },
    { "LeftHand", "LeftLowArm" }, { "RightCollar", "Chest" }, { "RightUpArm", "RightCollar" },
    { "RightLowArm", "RightUpArm" }, { "RightHand", "RightLowArm" },
    { "LeftUpLeg", "Hips" }, { "LeftLowLeg", "LeftUpLeg" }, { "LeftFoot", "LeftLowLeg" },
    { "RightUpLeg", "Hips" }, { "RightLowLeg", "RightUpLeg" }, { "RightFoot", "RightLowLeg" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (biovision_names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_BIOVISION);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (skeleton->scheme), ==, "biovision");
  g_assert_cmpuint (skeleton->n_bones, ==, 18);
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "LeftUpArm"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "RightLowArm"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "RightUpLeg"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "LeftLowLeg"), ==, 4);
  g_assert_cmpint (bulge_of (skeleton, "Head"), ==, -1);
  g_assert_cmpint (bulge_of (skeleton, "LeftHand"), ==, -1);
  g_assert_cmpint (odori_skeleton_find (skeleton, "Nope"), ==, -1);
}

/* Missing table entries are skipped over (Head hangs from Chest without a Neck);
 * namespaced and differently cased names match; an unknown segment is attached to the
 * nearest known one at frame 0. */
static void
test_biovision_partial (void)
{
  static const NamedPoint points[] = {
    { "steve:Hips", 0, 40, 0 },
    { "steve:chest", 0, 55, 0 },
    { "steve:Head", 0, 68, 0 },
    { "steve:LeftUpArm", 8, 60, 0 },
    { "steve:LeftLowArm", 8, 48, 0 },
    { "steve:LeftHand", 8, 38, 0 },
    { "Bracelet", 8.5, 40, 0 },     /* next to the left hand */
    { "Hat", 0, 72, 0 },            /* above the head */
  };
  static const Link links[] = {
    { "steve:Hips", "" }, { "steve:chest", "steve:Hips" }, { "steve:Head", "steve:chest" },
    { "steve:LeftUpArm", "steve:chest" }, { "steve:LeftLowArm", "steve:LeftUpArm" },
    { "steve:LeftHand", "steve:LeftLowArm" }, { "Bracelet", "steve:LeftHand" },
    { "Hat", "steve:Head" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_points (points, G_N_ELEMENTS (points));
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_BIOVISION);
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  /* Lengths: to the farthest child; a leaf gets half its parent's. */
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "steve:LeftLowArm")].length,
                                  10.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "steve:Hips")].length,
                                  15.0, 1e-5);
  /* the head is a head, 1.7 × the chest's 13, whatever hangs from it; the hat, a leaf,
   * half of that */
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "steve:Head")].length,
                                  1.7 * 13.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "Hat")].length,
                                  0.5 * 1.7 * 13.0, 1e-5);
}

static void
test_suit (void)
{
  static const char *names[] = {
    "Hip", "Spine", "Head", "LeftShoulder", "LeftUpperArm", "LeftForearm", "LeftHand",
    "RightShoulder", "RightUpperArm", "RightForearm", "RightHand", "LeftUpperLeg",
    "LeftLowerLeg", "LeftFoot", "RightUpperLeg", "RightLowerLeg", "RightFoot", NULL
  };
  static const Link links[] = {
    { "Hip", "" }, { "Spine", "Hip" }, { "Head", "Spine" }, { "LeftShoulder", "Spine" },
    { "LeftUpperArm", "LeftShoulder" }, { "LeftForearm", "LeftUpperArm" },
    { "LeftHand", "LeftForearm" }, { "RightShoulder", "Spine" },
    { "RightUpperArm", "RightShoulder" }, { "RightForearm", "RightUpperArm" },
    { "RightHand", "RightForearm" }, { "LeftUpperLeg", "Hip" },
    { "LeftLowerLeg", "LeftUpperLeg" }, { "LeftFoot", "LeftLowerLeg" },
    { "RightUpperLeg", "Hip" }, { "RightLowerLeg", "RightUpperLeg" },
    { "RightFoot", "RightLowerLeg" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_SUIT17);
  g_assert_cmpuint (skeleton->n_bones, ==, 17);
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "LeftUpperArm"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "LeftForearm"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "RightUpperLeg"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "RightLowerLeg"), ==, 4);
}

static void
test_ni (void)
{
  static const char *names[] = {
    "PELVIS", "TORSO", "NECK", "HEAD", "L_SHLDR", "L_ELBOW", "L_HAND", "R_SHLDR",
    "R_ELBOW", "R_HAND", "L_HIP", "L_KNEE", "L_FOOT", "R_HIP", "R_KNEE", "R_FOOT", NULL
  };
  static const Link links[] = {
    { "PELVIS", "" }, { "TORSO", "PELVIS" }, { "NECK", "TORSO" }, { "HEAD", "NECK" },
    { "L_SHLDR", "NECK" }, { "L_ELBOW", "L_SHLDR" }, { "L_HAND", "L_ELBOW" },
    { "R_SHLDR", "NECK" }, { "R_ELBOW", "R_SHLDR" }, { "R_HAND", "R_ELBOW" },
    { "L_HIP", "PELVIS" }, { "L_KNEE", "L_HIP" }, { "L_FOOT", "L_KNEE" },
    { "R_HIP", "PELVIS" }, { "R_KNEE", "R_HIP" }, { "R_FOOT", "R_KNEE" },
  };
  static const char *extra_names[] = {
    "PELVIS", "WAIST", "TORSO", "CHEST", "NECK", "HEAD", "SKULL", "L_COLLAR", "L_SHLDR",
    "L_ELBOW", "L_WRIST", "L_HAND", "L_FNGRTIP", "L_HIP", "L_KNEE", "L_ANKLE", "L_FOOT",
    "L_TOE", NULL
  };
  static const Link extra_links[] = {
    { "WAIST", "PELVIS" }, { "TORSO", "WAIST" }, { "CHEST", "TORSO" }, { "NECK", "CHEST" },
    { "SKULL", "HEAD" }, { "L_COLLAR", "CHEST" }, { "L_SHLDR", "L_COLLAR" },
    { "L_WRIST", "L_ELBOW" }, { "L_HAND", "L_WRIST" }, { "L_FNGRTIP", "L_HAND" },
    { "L_ANKLE", "L_KNEE" }, { "L_FOOT", "L_ANKLE" }, { "L_TOE", "L_FOOT" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriMotion) extra = motion_from_names (extra_names);
  g_autoptr(OdoriSkeleton) extra_skeleton = odori_skeleton_for_motion (extra);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_NI);
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "L_SHLDR"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "R_ELBOW"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "L_HIP"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "R_KNEE"), ==, 4);

  g_assert_cmpint (extra_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_NI);
  assert_well_ordered (extra_skeleton);
  assert_links (extra_skeleton, extra_links, G_N_ELEMENTS (extra_links));
}

static void
test_cmu (void)
{
  static const char *names[] = {
    "Hips", "LHipJoint", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
    "RHipJoint", "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase",
    "LowerBack", "Spine", "Spine1", "Neck", "Neck1", "Head",
    "LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "LeftFingerBase",
    "LeftHandIndex1", "LThumb",
    "RightShoulder", "RightArm", "RightForeArm", "RightHand", "RightFingerBase",
    "RightHandIndex1", "RThumb", NULL
  };
  static const Link links[] = {
    { "Hips", "" }, { "LHipJoint", "Hips" }, { "LeftUpLeg", "LHipJoint" },
    { "LeftLeg", "LeftUpLeg" }, { "LeftFoot", "LeftLeg" }, { "LeftToeBase", "LeftFoot" },
    { "RightUpLeg", "RHipJoint" }, { "LowerBack", "Hips" }, { "Spine", "LowerBack" },
    { "Spine1", "Spine" }, { "Neck", "Spine1" }, { "Neck1", "Neck" }, { "Head", "Neck1" },
    { "LeftShoulder", "Spine1" }, { "LeftArm", "LeftShoulder" },
    { "LeftForeArm", "LeftArm" }, { "LeftHand", "LeftForeArm" },
    { "LThumb", "LeftHand" }, { "RightHandIndex1", "RightFingerBase" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_CMU);
  g_assert_cmpuint (skeleton->n_bones, ==, 31);
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "LeftArm"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "RightForeArm"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "LeftUpLeg"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "RightLeg"), ==, 4);
  g_assert_cmpint (bulge_of (skeleton, "LeftShoulder"), ==, -1);
}

/* A table that knows fewer than half the names, or a motion without the table's root,
 * falls back to inference. */
static void
test_table_threshold (void)
{
  static const char *few[] = {
    "Hips", "Chest", "Head", "m1", "m2", "m3", "m4", "m5", NULL
  };
  static const char *rootless[] = {
    "Chest", "Neck", "Head", "LeftUpArm", "LeftLowArm", "LeftHand", NULL
  };
  static const char *half[] = {
    "Hips", "Chest", "Head", "m1", "m2", "m3", NULL
  };
  g_autoptr(OdoriMotion) m_few = motion_from_names (few);
  g_autoptr(OdoriMotion) m_rootless = motion_from_names (rootless);
  g_autoptr(OdoriMotion) m_half = motion_from_names (half);
  g_autoptr(OdoriSkeleton) s_few = odori_skeleton_for_motion (m_few);
  g_autoptr(OdoriSkeleton) s_rootless = odori_skeleton_for_motion (m_rootless);
  g_autoptr(OdoriSkeleton) s_half = odori_skeleton_for_motion (m_half);

  g_assert_cmpint (s_few->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  g_assert_cmpint (s_rootless->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  g_assert_cmpint (s_half->scheme, ==, ODORI_SKELETON_SCHEME_BIOVISION);
  g_assert_cmpuint (s_few->n_bones, ==, 8);
  assert_well_ordered (s_few);
  assert_well_ordered (s_rootless);
  assert_well_ordered (s_half);
}

/* Inference */

static void
test_infer_star (void)
{
  static const NamedPoint points[] = {
    { "a", 1, 0, 0 }, { "b", -1, 0, 0 }, { "centre", 0, 0, 0 }, { "c", 0, 1, 0 },
    { "d", 0, -1, 0 }, { "e", 0, 0, 1 }, { "f", 0, 0, -1 },
  };
  g_autoptr(OdoriMotion) motion = motion_from_points (points, G_N_ELEMENTS (points));
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  assert_well_ordered (skeleton);
  g_assert_cmpstr (skeleton->bones[0].name, ==, "centre");
  g_assert_cmpint (skeleton->bones[0].parent, ==, -1);
  for (guint i = 0; i < G_N_ELEMENTS (points); i++)
    if (strcmp (points[i].name, "centre") != 0)
      g_assert_cmpstr (parent_name (skeleton, points[i].name), ==, "centre");
  /* Children in segment order after the root. */
  g_assert_cmpstr (skeleton->bones[1].name, ==, "a");
  g_assert_cmpstr (skeleton->bones[6].name, ==, "f");
  g_assert_cmpfloat_with_epsilon (skeleton->bones[0].length, 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[1].length, 0.5, 1e-6);
  /* The root has more than two children: a torso radius. */
  g_assert_cmpfloat (skeleton->bones[0].radius, >, skeleton->bones[1].radius);
  g_assert_cmpint (skeleton->bones[0].bulge_code, ==, -1);
}

static void
test_infer_chain (void)
{
  /* Shuffled: the tree must not depend on the segment order. */
  static const NamedPoint points[] = {
    { "p3", 3, 0, 0 }, { "p0", 0, 0, 0 }, { "p4", 4.5, 0, 0 }, { "p1", 1, 0, 0 },
    { "p2", 2, 0, 0 },
  };
  static const Link links[] = {
    { "p2", "" }, { "p1", "p2" }, { "p0", "p1" }, { "p3", "p2" }, { "p4", "p3" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_points (points, G_N_ELEMENTS (points));
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_infer (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "p3")].length,
                                  1.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "p4")].length,
                                  0.75, 1e-6);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "p0")].length,
                                  0.5, 1e-6);
}

/* One segment, and a motion without frames: still a skeleton. */
static void
test_infer_degenerate (void)
{
  static const NamedPoint one[] = { { "only", 3, 4, 5 } };
  g_autoptr(OdoriMotion) m_one = motion_from_points (one, 1);
  g_autoptr(OdoriSkeleton) s_one = odori_skeleton_for_motion (m_one);
  g_autoptr(OdoriMotion) m_empty = odori_motion_new (3, 0, 0.01, NULL);
  g_autoptr(OdoriSkeleton) s_empty = NULL;
  g_autoptr(OdoriMotion) m_none = odori_motion_new (0, 5, 0.01, NULL);

  g_assert_cmpuint (s_one->n_bones, ==, 1);
  g_assert_cmpint (s_one->bones[0].parent, ==, -1);
  g_assert_cmpfloat (s_one->bones[0].length, >, 0);

  odori_motion_set_segment_name (m_empty, 0, "x");
  odori_motion_set_segment_name (m_empty, 1, "y");
  odori_motion_set_segment_name (m_empty, 2, "z");
  s_empty = odori_skeleton_for_motion (m_empty);
  g_assert_cmpuint (s_empty->n_bones, ==, 3);
  assert_well_ordered (s_empty);

  g_assert_null (odori_skeleton_for_motion (m_none));
}

static void
test_hierarchy (void)
{
  g_autoptr(OdoriMotion) motion = odori_motion_new (4, 1, 0.01, NULL);
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  static const char *names[] = { "root", "spine", "lleg", "head" };
  static const int parents[] = { -1, 0, 0, 1 };
  static const float offsets[][3] = { { 0, 0, 0 }, { 0, 3, 4 }, { 1, -2, 0 }, { 0, 2, 0 } };

  for (guint s = 0; s < 4; s++)
    {
      odori_motion_set_segment_name (motion, s, names[s]);
      motion->segments[s].parent = parents[s];
      memcpy (motion->segments[s].offset, offsets[s], sizeof offsets[s]);
    }
  motion->segments[3].has_end_site = TRUE;
  motion->segments[3].end_site[1] = 1.5f;
  motion->has_hierarchy = TRUE;

  skeleton = odori_skeleton_for_motion (motion);
  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_HIERARCHY);
  assert_well_ordered (skeleton);
  /* Depth first: root, spine, head, lleg. */
  g_assert_cmpstr (skeleton->bones[0].name, ==, "root");
  g_assert_cmpstr (skeleton->bones[1].name, ==, "spine");
  g_assert_cmpstr (skeleton->bones[2].name, ==, "head");
  g_assert_cmpstr (skeleton->bones[3].name, ==, "lleg");
  g_assert_cmpstr (parent_name (skeleton, "head"), ==, "spine");
  g_assert_cmpstr (parent_name (skeleton, "lleg"), ==, "root");
  g_assert_cmpfloat_with_epsilon (skeleton->bones[0].length, 5.0, 1e-6);  /* |(0,3,4)| */
  g_assert_cmpfloat_with_epsilon (skeleton->bones[1].length, 2.0, 1e-6);
  /* a head is a head whatever its End Site says: 1.7 × its parent's length */
  g_assert_cmpfloat_with_epsilon (skeleton->bones[2].length, 1.7 * 2.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[2].radius, 0.5 * 1.7 * 2.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[3].length, 2.5, 1e-6);  /* leaf: half */

  /* A broken hierarchy (a cycle) is not trusted: the motion is treated as a BVA (these
   * names are enough for the _L/_R table: Root, Spine, Head). */
  motion->segments[0].parent = 3;
  g_clear_pointer (&skeleton, odori_skeleton_unref);
  skeleton = odori_skeleton_for_motion (motion);
  g_assert_cmpint (skeleton->scheme, !=, ODORI_SKELETON_SCHEME_HIERARCHY);
  g_assert_cmpstr (odori_skeleton_source_to_string (skeleton->scheme), ==, "table");
  assert_well_ordered (skeleton);
  motion->segments[0].parent = -1;
  motion->has_hierarchy = FALSE;
  odori_motion_set_segment_name (motion, 0, "base");
  odori_motion_set_segment_name (motion, 1, "mid");
  odori_motion_set_segment_name (motion, 2, "side");
  odori_motion_set_segment_name (motion, 3, "top");
  g_clear_pointer (&skeleton, odori_skeleton_unref);
  skeleton = odori_skeleton_for_motion (motion);
  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  assert_well_ordered (skeleton);
}

/* XML */

static void
assert_skeletons_equal (const OdoriSkeleton *a,
                        const OdoriSkeleton *b)
{
  g_assert_cmpuint (a->n_bones, ==, b->n_bones);
  for (guint i = 0; i < a->n_bones; i++)
    {
      g_assert_cmpstr (a->bones[i].name, ==, b->bones[i].name);
      g_assert_cmpint (a->bones[i].parent, ==, b->bones[i].parent);
      g_assert_cmpfloat (a->bones[i].length, ==, b->bones[i].length);
      g_assert_cmpfloat (a->bones[i].radius, ==, b->bones[i].radius);
      g_assert_cmpint (a->bones[i].bulge_code, ==, b->bones[i].bulge_code);
    }
}

static void
test_xml_round_trip (void)
{
  static const char *names[] = {
    "Hips", "Chest", "Neck", "Head", "LeftUpArm", "LeftLowArm", "LeftHand", "LeftUpLeg",
    "LeftLowLeg", "LeftFoot", "Prop<&\"'>", "踊り", NULL
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriSkeleton) loaded = NULL;
  g_autoptr(OdoriSkeleton) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "round.xml", NULL);
  g_autofree char *path2 = g_build_filename (tmp_dir, "round2.xml", NULL);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;

  /* An odd length survives exactly. */
  skeleton->bones[1].length = 12.345678f;
  skeleton->bones[2].radius = 1e-7f;
  g_assert_true (odori_skeleton_save (skeleton, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<odori-skeleton version=\"1\" scheme=\"biovision\">"));
  g_assert_nonnull (strstr (text, "<bone name=\"Hips\" parent=\"\" length="));
  g_assert_nonnull (strstr (text, "bulge=\"1\""));

  loaded = odori_skeleton_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  g_assert_cmpint (loaded->scheme, ==, ODORI_SKELETON_SCHEME_FILE);
  assert_skeletons_equal (skeleton, loaded);

  g_assert_true (odori_skeleton_save (loaded, path2, &error));
  again = odori_skeleton_load (path2, &error);
  g_assert_no_error (error);
  assert_skeletons_equal (skeleton, again);
  g_assert_true (g_file_get_contents (path2, &text2, NULL, NULL));
  g_assert_nonnull (strstr (text2, "scheme=\"file\""));
}

/* Hand-written files: optional radius and bulge, comments. */
static void
test_xml_minimal (void)
{
  g_autofree char *path = write_tmp ("min.xml",
    "<?xml version=\"1.0\"?>\n"
    "<!-- two bones -->\n"
    "<odori-skeleton version=\"1\">\n"
    "  <bone name=\"a\" length=\" 2.5 \"/>\n"
    "  <bone name=\"b\" parent=\"a\" length=\"1e1\" radius=\".5\" bulge=\"7\"/>\n"
    "</odori-skeleton>\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (skeleton->n_bones, ==, 2);
  g_assert_cmpint (skeleton->bones[0].parent, ==, -1);
  g_assert_cmpfloat (skeleton->bones[0].length, ==, 2.5f);
  g_assert_cmpfloat (skeleton->bones[0].radius, >, 0);
  g_assert_cmpint (skeleton->bones[0].bulge_code, ==, -1);
  g_assert_cmpint (skeleton->bones[1].parent, ==, 0);
  g_assert_cmpfloat (skeleton->bones[1].length, ==, 10.0f);
  g_assert_cmpfloat (skeleton->bones[1].radius, ==, 0.5f);
  g_assert_cmpint (skeleton->bones[1].bulge_code, ==, 7);
}

typedef struct
{
  const char *name;
  const char *content;
  int         code;
  guint       line;
  const char *needle;   /* in the message */
} BadCase;

static const BadCase bad_cases[] = {
  { "wrong-root",
    "<?xml version=\"1.0\"?>\n<skeleton version=\"1\">\n<bone name=\"a\" length=\"1\"/>\n"
    "</skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "<odori-skeleton>" },
  { "missing-parent",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\"/>\n"
    "<bone name=\"b\" parent=\"zz\" length=\"1\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 3, "\"zz\"" },
  { "later-parent",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\"/>\n"
    "<bone name=\"b\" parent=\"c\" length=\"1\"/>\n<bone name=\"c\" parent=\"a\" length=\"1\"/>\n"
    "</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 3, "before it" },
  { "duplicate",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\"/>\n"
    "<bone name=\"b\" parent=\"a\" length=\"1\"/>\n\n<bone name=\"a\" length=\"1\"/>\n"
    "</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 5, "second bone named \"a\"" },
  { "missing-name",
    "<odori-skeleton version=\"1\">\n<bone length=\"1\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "name" },
  { "empty-name",
    "<odori-skeleton version=\"1\">\n<bone name=\"\" length=\"1\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "name" },
  /* libxml2 numbers an element by the line its start tag ends on. */
  { "bad-length",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\"\n length=\"1,5\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 3, "\"1,5\"" },
  { "nan-length",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"NaN\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "finite" },
  { "negative-radius",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\" radius=\"-2\"/>\n"
    "</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "radius" },
  { "missing-length",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "length" },
  { "bad-bulge",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\" bulge=\"x\"/>\n"
    "</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "bulge" },
  { "unknown-element",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\"/>\n<muscle/>\n"
    "</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 3, "<muscle>" },
  { "unknown-attribute",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\" colour=\"red\"/>\n"
    "</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 2, "colour" },
  { "version",
    "<odori-skeleton version=\"2\">\n<bone name=\"a\" length=\"1\"/>\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 1, "version" },
  { "no-bones",
    "<odori-skeleton version=\"1\">\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_INVALID, 1, "no <bone>" },
  { "not-well-formed",
    "<odori-skeleton version=\"1\">\n<bone name=\"a\" length=\"1\">\n\n</odori-skeleton>\n",
    ODORI_SKELETON_ERROR_XML, 4, "not well-formed" },
  { "empty",
    "",
    ODORI_SKELETON_ERROR_XML, 1, "not well-formed" },
  { "internal-entity",
    "<?xml version=\"1.0\"?>\n<!DOCTYPE odori-skeleton [\n<!ENTITY n \"Hips\">\n]>\n"
    "<odori-skeleton version=\"1\"><bone name=\"&n;\" length=\"1\"/></odori-skeleton>\n",
    ODORI_SKELETON_ERROR_XML, 2, "entity" },
  /* Any DOCTYPE is refused at its line, even one that declares nothing (as in a KBS). */
  { "doctype",
    "<?xml version=\"1.0\"?>\n<!DOCTYPE odori-skeleton>\n"
    "<odori-skeleton version=\"1\"><bone name=\"a\" length=\"1\"/></odori-skeleton>\n",
    ODORI_SKELETON_ERROR_XML, 2, "DOCTYPE" },
};

static void
test_xml_bad (gconstpointer data)
{
  const BadCase *bad = data;
  g_autofree char *name = g_strconcat (bad->name, ".xml", NULL);
  g_autofree char *path = write_tmp (name, bad->content, -1);
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, bad->line);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_load (path, &error);

  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, bad->code);
  g_test_message ("%s", error->message);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("message \"%s\" does not start with \"%s\"", error->message, prefix);
  g_assert_nonnull (strstr (error->message, bad->needle));
}

static guint entity_loader_calls;

static xmlParserInputPtr
counting_entity_loader (const char       *url,
                        const char       *id,
                        xmlParserCtxtPtr  ctxt)
{
  entity_loader_calls++;
  return NULL;
}

/* The external entity is refused at its DOCTYPE, and libxml2 never even asks for the file
 * (our loader counts); a DOCTYPE naming an external DTD subset is refused too, unfetched. */
static void
test_xml_external_entity (void)
{
  g_autofree char *secret = write_tmp ("secret.txt", "TOPSECRET", -1);
  g_autofree char *content = g_strdup_printf (
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE x [\n"
    "<!ENTITY e SYSTEM \"file://%s\">\n"
    "]>\n"
    "<odori-skeleton version=\"1\"><bone name=\"&e;\" length=\"1\"/></odori-skeleton>\n",
    secret);
  g_autofree char *path = write_tmp ("xxe.xml", content, -1);
  g_autofree char *passwd = write_tmp ("xxe-passwd.xml",
    "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n"
    "<odori-skeleton version=\"1\"><bone name=\"&e;\" length=\"1\"/></odori-skeleton>\n", -1);
  g_autofree char *dtd_content = g_strdup_printf (
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE odori-skeleton SYSTEM \"file://%s\">\n"
    "<odori-skeleton version=\"1\"><bone name=\"a\" length=\"1\"/></odori-skeleton>\n",
    secret);
  g_autofree char *dtd = write_tmp ("dtd.xml", dtd_content, -1);
  g_autofree char *prefix = g_strdup_printf ("%s:2: ", path);
  g_autofree char *dtd_prefix = g_strdup_printf ("%s:2: ", dtd);
  g_autofree char *passwd_prefix = g_strdup_printf ("%s:1: ", passwd);
  xmlExternalEntityLoader old = xmlGetExternalEntityLoader ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;

  xmlSetExternalEntityLoader (counting_entity_loader);

  skeleton = odori_skeleton_load (path, &error);
  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_nonnull (strstr (error->message, "entity"));
  g_assert_null (strstr (error->message, "TOPSECRET"));
  g_clear_error (&error);

  skeleton = odori_skeleton_load (passwd, &error);
  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_true (g_str_has_prefix (error->message, passwd_prefix));
  g_assert_null (strstr (error->message, "root:"));
  g_clear_error (&error);

  skeleton = odori_skeleton_load (dtd, &error);
  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_true (g_str_has_prefix (error->message, dtd_prefix));
  g_assert_nonnull (strstr (error->message, "DOCTYPE"));
  g_assert_null (strstr (error->message, "TOPSECRET"));
  g_clear_error (&error);

  g_assert_cmpuint (entity_loader_calls, ==, 0);
  xmlSetExternalEntityLoader (old);
}

static void
test_xml_billion_laughs (void)
{
  GString *doc = g_string_new ("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
                               "<!ENTITY lol \"lol\">\n");
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  gint64 start;

  for (int i = 1; i <= 9; i++)
    {
      g_string_append_printf (doc, "<!ENTITY lol%d \"", i);
      for (int k = 0; k < 10; k++)
        g_string_append_printf (doc, i == 1 ? "&lol;" : "&lol%d;", i - 1);
      g_string_append (doc, "\">\n");
    }
  g_string_append (doc, "]>\n<odori-skeleton version=\"1\"><bone name=\"&lol9;\" "
                        "length=\"1\"/></odori-skeleton>\n");
  path = write_tmp ("lol.xml", doc->str, doc->len);
  g_string_free (doc, TRUE);
  prefix = g_strdup_printf ("%s:2: ", path);

  start = g_get_monotonic_time ();
  skeleton = odori_skeleton_load (path, &error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_nonnull (strstr (error->message, "entity declaration"));
}

static void
test_xml_too_large (void)
{
  gsize len = 4 * 1024 * 1024 + 100;
  g_autofree char *content = g_malloc (len);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  static const char head[] = "<odori-skeleton version=\"1\"><!-- ";

  memset (content, ' ', len);
  memcpy (content, head, strlen (head));
  path = write_tmp ("big.xml", content, len);
  skeleton = odori_skeleton_load (path, &error);
  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "too large"));
}

static void
test_xml_missing_file (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "no-such.xml", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_load (path, &error);

  g_assert_null (skeleton);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, path));
}

/* Saving refuses what could not be read back; a failed save leaves the old file. */
static void
test_xml_save_refused (void)
{
  static const char *names[] = { "Hips", "Chest", "Head", NULL };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autofree char *path = write_tmp ("keep.xml", "previous", -1);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_free (skeleton->bones[2].name);
  skeleton->bones[2].name = g_strdup ("Hips");
  g_assert_false (odori_skeleton_save (skeleton, path, &error));
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID);
  g_clear_error (&error);

  g_free (skeleton->bones[2].name);
  skeleton->bones[2].name = g_strdup ("bell\a");
  g_assert_false (odori_skeleton_save (skeleton, path, &error));
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "previous");
}

/* Whole-motion inference */

/* A joint of a generated figure: its parent (an earlier joint, -1 for the root), its
 * offset in the parent's frame, and its local rotation on frame f, AMP·sin(FREQ·f)
 * degrees about AXIS: the identity on frame 0. */
typedef struct
{
  const char *name;
  int         parent;
  float       offset[3];
  float       axis[3];
  float       amp_deg;
  float       freq;
} FkJoint;

/* Global transforms by forward kinematics; the root also walks, bobs and turns. */
static OdoriMotion *
motion_from_fk (const FkJoint *joints,
                guint          n,
                guint          n_frames)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (n, n_frames, 1.0 / 30, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < n; s++)
    odori_motion_set_segment_name (motion, s, joints[s].name);
  for (guint f = 0; f < n_frames; f++)
    for (guint s = 0; s < n; s++)
      {
        const FkJoint *j = &joints[s];
        OdoriTransform *xf = odori_motion_get (motion, f, s);
        versor local;
        vec3 axis;

        glm_vec3_normalize_to ((float *) j->axis, axis);
        glm_quatv (local, glm_rad (j->amp_deg * sinf (j->freq * f)), axis);
        if (j->parent < 0)
          {
            glm_quat_copy (local, xf->rotation);
            xf->position[0] = j->offset[0] + 0.4f * f;
            xf->position[1] = j->offset[1] + 2.0f * sinf (0.3f * f);
            xf->position[2] = j->offset[2];
          }
        else
          {
            const OdoriTransform *p = odori_motion_get (motion, f, j->parent);
            vec3 rotated;

            g_assert_cmpint (j->parent, <, (int) s);
            glm_quat_mul ((float *) p->rotation, local, xf->rotation);
            glm_quat_normalize (xf->rotation);
            glm_quat_rotatev ((float *) p->rotation, (float *) j->offset, rotated);
            glm_vec3_add ((float *) p->position, rotated, xf->position);
          }
      }
  return motion;
}

/* MOTION with its segments in another order: segment i of the copy is segment ORDER[i]
 * of MOTION (names and transforms; no hierarchy). */
static OdoriMotion *
permuted_motion (const OdoriMotion *motion,
                 const guint       *order)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *copy = odori_motion_new (motion->n_segments, motion->n_frames,
                                        motion->frame_time, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < motion->n_segments; i++)
    {
      odori_motion_set_segment_name (copy, i, motion->segments[order[i]].name);
      for (guint f = 0; f < motion->n_frames; f++)
        *odori_motion_get (copy, f, i) = *odori_motion_get (motion, f, order[i]);
    }
  return copy;
}

/* A random permutation of 0 … N−1 (Fisher–Yates). */
static guint *
shuffled_order (guint  n,
                GRand *rand)
{
  guint *order = g_new (guint, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint i = n; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      guint t = order[i - 1];

      order[i - 1] = order[j];
      order[j] = t;
    }
  return order;
}

/* Both skeletons give every segment of MOTION the same parent, by name. */
static void
assert_same_parents (const OdoriMotion   *motion,
                     const OdoriSkeleton *a,
                     const OdoriSkeleton *b)
{
  for (guint s = 0; s < motion->n_segments; s++)
    g_assert_cmpstr (parent_name (a, motion->segments[s].name), ==,
                     parent_name (b, motion->segments[s].name));
}

/* A figure whose hands hang at its hips on frame 0: there, each hand is nearer to the
 * top of the other leg's thigh (3.2) and to the hub (6.1) than to its own forearm's joint
 * (8). No naming scheme knows these names. */
static const FkJoint figure[] = {
  { "hub", -1, { 0, 40, 0 }, { 0, 1, 0 }, 30, 0.11f },
  { "back", 0, { 0, 10, 0 }, { 1, 0, 0.3f }, 20, 0.23f },
  { "crown", 1, { 0, 8, 0 }, { 0.2f, 1, 0 }, 35, 0.31f },
  { "arm_a1", 1, { 6, 6, 0 }, { 0, 0, 1 }, 60, 0.17f },
  { "arm_a2", 3, { 0, -9, 0 }, { 1, 0, 0 }, 70, 0.29f },
  { "arm_a3", 4, { 0, -8, 0 }, { 0, 1, 1 }, 40, 0.37f },
  { "arm_b1", 1, { -6, 6, 0 }, { 0, 0, 1 }, 55, 0.19f },
  { "arm_b2", 6, { 0, -9, 0 }, { 1, 0, 0 }, 65, 0.27f },
  { "arm_b3", 7, { 0, -8, 0 }, { 0, 1, 1 }, 45, 0.41f },
  { "leg_a1", 0, { 3, -2, 0 }, { 1, 0, 0 }, 40, 0.13f },
  { "leg_a2", 9, { 0, -12, 0 }, { 1, 0, 0 }, 50, 0.21f },
  { "leg_a3", 10, { 0, -11, 0 }, { 1, 0, 0.5f }, 30, 0.33f },
  { "leg_b1", 0, { -3, -2, 0 }, { 1, 0, 0 }, 40, 0.15f },
  { "leg_b2", 12, { 0, -12, 0 }, { 1, 0, 0 }, 50, 0.25f },
  { "leg_b3", 13, { 0, -11, 0 }, { 1, 0, 0.5f }, 30, 0.35f },
};

static void
assert_figure (const OdoriSkeleton *skeleton)
{
  assert_well_ordered (skeleton);
  g_assert_cmpuint (skeleton->n_bones, ==, G_N_ELEMENTS (figure));
  for (guint s = 0; s < G_N_ELEMENTS (figure); s++)
    {
      const char *want = figure[s].parent >= 0 ? figure[figure[s].parent].name : "";

      if (g_strcmp0 (parent_name (skeleton, figure[s].name), want) != 0)
        g_error ("%s: parent %s, expected %s", figure[s].name,
                 parent_name (skeleton, figure[s].name), want);
    }
}

/* The parent is the segment in whose frame the child keeps a constant offset over the
 * whole motion, not the nearest one on frame 0; the tree does not depend on the order
 * of the segments. */
static void
test_infer_whole_motion (void)
{
  g_autoptr(OdoriMotion) motion = motion_from_fk (figure, G_N_ELEMENTS (figure), 150);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriSkeleton) inferred = odori_skeleton_infer (motion);
  g_autoptr(GRand) rand = g_rand_new_with_seed (131);
  const float *hand = odori_motion_get (motion, 0, 5)->position;

  /* The trap: on frame 0 the hand is nearer to the thigh and the hub than to its elbow. */
  g_assert_cmpfloat (glm_vec3_distance ((float *) hand, odori_motion_get (motion, 0, 9)->position),
                     <, glm_vec3_distance ((float *) hand, odori_motion_get (motion, 0, 4)->position));
  g_assert_cmpfloat (glm_vec3_distance ((float *) hand, odori_motion_get (motion, 0, 0)->position),
                     <, glm_vec3_distance ((float *) hand, odori_motion_get (motion, 0, 4)->position));

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  g_assert_cmpstr (odori_skeleton_source_to_string (skeleton->scheme), ==, "inferred");
  g_assert_cmpuint (skeleton->n_sticks, ==, 0);
  g_assert_null (skeleton->sticks);
  assert_figure (skeleton);
  assert_figure (inferred);
  g_assert_cmpstr (skeleton->bones[0].name, ==, "hub");

  for (guint trial = 0; trial < 6; trial++)
    {
      g_autofree guint *order = shuffled_order (motion->n_segments, rand);
      g_autoptr(OdoriMotion) shuffled = permuted_motion (motion, order);
      g_autoptr(OdoriSkeleton) again = odori_skeleton_for_motion (shuffled);

      assert_figure (again);
      assert_same_parents (motion, skeleton, again);
    }

  /* Frames sampled over a long motion (more than the samples) find the same tree. */
  {
    g_autoptr(OdoriMotion) longer = motion_from_fk (figure, G_N_ELEMENTS (figure), 1000);
    g_autoptr(OdoriSkeleton) again = odori_skeleton_for_motion (longer);

    assert_figure (again);
  }
}

/* Segments a table does not know are attached by the same whole-motion cost: a bracelet
 * on the forearm, next to the hand on frame 0, goes on the forearm. */
static void
test_table_unknown_by_motion (void)
{
  static const FkJoint joints[] = {
    { "Hips", -1, { 0, 40, 0 }, { 0, 1, 0 }, 25, 0.12f },
    { "Chest", 0, { 0, 10, 0 }, { 1, 0, 0 }, 20, 0.21f },
    { "Neck", 1, { 0, 8, 0 }, { 1, 0, 0 }, 25, 0.33f },
    { "Head", 2, { 0, 4, 0 }, { 0, 1, 0 }, 40, 0.27f },
    { "LeftCollar", 1, { 2, 7, 0 }, { 0, 0, 1 }, 15, 0.18f },
    { "LeftUpArm", 4, { 4, 0, 0 }, { 0, 0, 1 }, 60, 0.16f },
    { "LeftLowArm", 5, { 0, -9, 0 }, { 1, 0, 0 }, 70, 0.29f },
    { "LeftHand", 6, { 0, -8, 0 }, { 1, 0, 1 }, 60, 0.43f },
    { "RightCollar", 1, { -2, 7, 0 }, { 0, 0, 1 }, 15, 0.19f },
    { "RightUpArm", 8, { -4, 0, 0 }, { 0, 0, 1 }, 60, 0.17f },
    { "RightLowArm", 9, { 0, -9, 0 }, { 1, 0, 0 }, 70, 0.31f },
    { "RightHand", 10, { 0, -8, 0 }, { 1, 0, 1 }, 60, 0.41f },
    { "LeftUpLeg", 0, { 3, -2, 0 }, { 1, 0, 0 }, 40, 0.13f },
    { "LeftLowLeg", 12, { 0, -12, 0 }, { 1, 0, 0 }, 50, 0.22f },
    { "LeftFoot", 13, { 0, -11, 0 }, { 1, 0, 0 }, 30, 0.34f },
    { "RightUpLeg", 0, { -3, -2, 0 }, { 1, 0, 0 }, 40, 0.14f },
    { "RightLowLeg", 15, { 0, -12, 0 }, { 1, 0, 0 }, 50, 0.24f },
    { "RightFoot", 16, { 0, -11, 0 }, { 1, 0, 0 }, 30, 0.36f },
    { "Bracelet", 6, { 0, -6, 0.5f }, { 0, 1, 0 }, 0, 0 },
  };
  g_autoptr(OdoriMotion) motion = motion_from_fk (joints, G_N_ELEMENTS (joints), 90);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  const float *bracelet = odori_motion_get (motion, 0, 18)->position;

  g_assert_cmpfloat (glm_vec3_distance ((float *) bracelet, odori_motion_get (motion, 0, 7)->position),
                     <, glm_vec3_distance ((float *) bracelet, odori_motion_get (motion, 0, 6)->position));
  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_BIOVISION);
  g_assert_cmpstr (odori_skeleton_source_to_string (skeleton->scheme), ==, "table");
  assert_well_ordered (skeleton);
  for (guint s = 0; s < G_N_ELEMENTS (joints); s++)
    g_assert_cmpstr (parent_name (skeleton, joints[s].name), ==,
                     joints[s].parent >= 0 ? joints[joints[s].parent].name : "");
}

/* Marker sets */

/* Two rigid bodies with three markers each, moving and turning each its own way; every
 * rotation is the identity, as in optical-marker BVA files. */
static OdoriMotion *
make_marker_motion (guint n_frames)
{
  static const char *names[] = { "m:A1", "m:B1", "m:A2", "m:B2", "m:A3", "m:B3" };
  static const float local[][3] = {
    { 0, 0, 0 }, { 0, 0, 0 }, { 4, 0, 0 }, { 0, 0, 5 }, { 0, 3, 0 }, { 3, 1, 0 },
  };
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (6, n_frames, 1.0 / 60, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < 6; s++)
    odori_motion_set_segment_name (motion, s, names[s]);
  for (guint f = 0; f < n_frames; f++)
    {
      versor qa, qb;
      vec3 ca = { 0.5f * f, 30, 0 }, cb = { 10, 20 + 3 * sinf (0.2f * f), 0.3f * f };

      glm_quatv (qa, 0.05f * f, (vec3) { 0, 1, 0 });
      glm_quatv (qb, 0.07f * f, (vec3) { 1, 0, 0 });
      for (guint s = 0; s < 6; s++)
        {
          OdoriTransform *xf = odori_motion_get (motion, f, s);
          vec3 d;

          glm_quat_rotatev (s % 2 == 0 ? qa : qb, (float *) local[s], d);
          glm_vec3_add (s % 2 == 0 ? ca : cb, d, xf->position);
        }
    }
  return motion;
}

/* Every rotation the identity: no tree, markers (roots of length 0) with sticks between
 * the markers whose distance stays constant; the BVH writer still writes it, each marker
 * a ROOT of its own, and reading that back gives the markers' paths. */
static void
test_markers (void)
{
  g_autoptr(OdoriMotion) motion = make_marker_motion (60);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriMotion) one = make_marker_motion (1);
  g_autoptr(OdoriSkeleton) one_skeleton = odori_skeleton_for_motion (one);
  g_autoptr(OdoriMotion) still = make_marker_motion (1);
  g_autoptr(OdoriSkeleton) still_skeleton = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "markers.bvh", NULL);
  g_autoptr(OdoriMotion) back = NULL;
  g_autoptr(GError) error = NULL;
  guint within = 0, across = 0;

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_MARKERS);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (skeleton->scheme), ==, "markers");
  g_assert_cmpstr (odori_skeleton_source_to_string (skeleton->scheme), ==, "markers");
  g_assert_cmpuint (skeleton->n_bones, ==, 6);
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      /* In segment order. */
      g_assert_cmpstr (skeleton->bones[b].name, ==, motion->segments[b].name);
      g_assert_cmpint (skeleton->bones[b].parent, ==, -1);
      g_assert_cmpfloat (skeleton->bones[b].length, ==, 0);
      g_assert_cmpfloat (skeleton->bones[b].radius, >, 0);
      g_assert_cmpint (skeleton->bones[b].bulge_code, ==, -1);
    }
  /* three sticks in each body, and one joining the two bodies into one figure */
  g_assert_cmpuint (skeleton->n_sticks, ==, 7);
  for (guint i = 0; i < skeleton->n_sticks; i++)
    {
      const OdoriStick *stick = &skeleton->sticks[i];
      const char *a = skeleton->bones[stick->a].name, *b = skeleton->bones[stick->b].name;

      g_assert_cmpint (stick->a, <, stick->b);
      if (i > 0)
        g_assert_true (stick->a > skeleton->sticks[i - 1].a ||
                       (stick->a == skeleton->sticks[i - 1].a &&
                        stick->b > skeleton->sticks[i - 1].b));
      g_assert_true (stick->join == (a[2] != b[2]));
      if (a[2] != b[2])
        {
          across++;
          continue;
        }
      within++;
      g_assert_cmpfloat_with_epsilon (stick->length,
                                      glm_vec3_distance (odori_motion_get (motion, 0, stick->a)->position,
                                                         odori_motion_get (motion, 0, stick->b)->position),
                                      1e-3);
    }
  g_assert_cmpuint (within, ==, 6);
  g_assert_cmpuint (across, ==, 1);

  /* One frame, or a motion that stands still, cannot tell markers from a posed skeleton. */
  g_assert_cmpint (one_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
  g_assert_true (odori_motion_resize (still, 30, NULL));
  still_skeleton = odori_skeleton_for_motion (still);
  g_assert_cmpint (still_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);

  /* Written as BVH, read back: six roots, the same paths. */
  g_assert_true (odori_bvh_save (motion, skeleton, path, &error));
  g_assert_no_error (error);
  back = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->n_segments, ==, 6);
  for (guint s = 0; s < 6; s++)
    {
      int t = odori_motion_find_segment (back, motion->segments[s].name);

      g_assert_cmpint (t, >=, 0);
      g_assert_cmpint (back->segments[t].parent, ==, -1);
      for (guint f = 0; f < motion->n_frames; f++)
        g_assert_cmpfloat (glm_vec3_distance (odori_motion_get (motion, f, s)->position,
                                              odori_motion_get (back, f, t)->position),
                           <, 1e-3);
    }
}

/* Naming schemes found in real files */

static void
test_cmu_joints (void)
{
  static const char *names[] = {
    "Hips", "LHipJoint", "LeftHip", "LeftKnee", "LeftAnkle", "LeftToe", "RHipJoint",
    "RightHip", "RightKnee", "RightAnkle", "RightToe", "lowerback", "Chest", "Chest2",
    "lowerneck", "Neck", "Head", "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist",
    "lhand", "LFingers", "LThumb", "RightCollar", "RightShoulder", "RightElbow",
    "RightWrist", "rhand", "RFingers", "RThumb", NULL
  };
  static const Link links[] = {
    { "Hips", "" }, { "LeftHip", "LHipJoint" }, { "LeftKnee", "LeftHip" },
    { "RightToe", "RightAnkle" }, { "lowerback", "Hips" }, { "Chest", "lowerback" },
    { "Chest2", "Chest" }, { "lowerneck", "Chest2" }, { "Neck", "lowerneck" },
    { "LeftCollar", "Chest2" }, { "LeftShoulder", "LeftCollar" },
    { "LeftWrist", "LeftElbow" }, { "lhand", "LeftWrist" }, { "LFingers", "lhand" },
    { "LThumb", "LeftWrist" }, { "RFingers", "rhand" }, { "RThumb", "RightWrist" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_CMU_JOINTS);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (skeleton->scheme), ==, "cmu-joints");
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "LeftShoulder"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "RightElbow"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "LeftHip"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "RightKnee"), ==, 4);
}

static void
test_mixamo (void)
{
  static const char *names[] = {
    "mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2",
    "mixamorig:Neck", "mixamorig:Head", "mixamorig:HeadTop_End",
    "mixamorig:LeftShoulder", "mixamorig:LeftArm", "mixamorig:LeftForeArm",
    "mixamorig:LeftHand", "mixamorig:LeftHandThumb1", "mixamorig:LeftHandThumb2",
    "mixamorig:LeftHandIndex1", "mixamorig:LeftHandIndex2", "mixamorig:LeftHandIndex3",
    "mixamorig:LeftHandIndex4", "mixamorig:RightShoulder", "mixamorig:RightArm",
    "mixamorig:RightForeArm", "mixamorig:RightHand", "mixamorig:LeftUpLeg",
    "mixamorig:LeftLeg", "mixamorig:LeftFoot", "mixamorig:LeftToeBase",
    "mixamorig:LeftToe_End", "mixamorig:RightUpLeg", "mixamorig:RightLeg",
    "mixamorig:RightFoot", "mixamorig:RightToeBase", NULL
  };
  static const Link links[] = {
    { "mixamorig:Hips", "" }, { "mixamorig:Spine2", "mixamorig:Spine1" },
    { "mixamorig:Neck", "mixamorig:Spine2" }, { "mixamorig:HeadTop_End", "mixamorig:Head" },
    { "mixamorig:LeftShoulder", "mixamorig:Spine2" },
    { "mixamorig:LeftHandIndex1", "mixamorig:LeftHand" },
    { "mixamorig:LeftHandIndex4", "mixamorig:LeftHandIndex3" },
    { "mixamorig:LeftUpLeg", "mixamorig:Hips" },
    { "mixamorig:LeftToe_End", "mixamorig:LeftToeBase" },
  };
  /* Meta's AnimatedDrawings captures: Mixamo's names with a Spine3 and hand ends. */
  static const char *fair[] = {
    "Hips", "Spine", "Spine1", "Spine2", "Spine3", "Neck", "Head", "LeftShoulder", "LeftArm",
    "LeftForeArm", "LeftHand", "LeftHandEnd", "LeftHandThumb1", "RightShoulder",
    "RightArm", "RightForeArm", "RightHand", "RightHandEnd", "RightHandThumb1",
    "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", NULL
  };
  static const Link fair_links[] = {
    { "Neck", "Spine3" }, { "RightShoulder", "Spine3" }, { "LeftHandEnd", "LeftHand" },
    { "RightHandThumb1", "RightHand" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriMotion) fair_motion = motion_from_names (fair);
  g_autoptr(OdoriSkeleton) fair_skeleton = odori_skeleton_for_motion (fair_motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_MIXAMO);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (skeleton->scheme), ==, "mixamo");
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "mixamorig:LeftArm"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "mixamorig:RightForeArm"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "mixamorig:RightUpLeg"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "mixamorig:LeftLeg"), ==, 4);

  g_assert_cmpint (fair_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_MIXAMO);
  assert_links (fair_skeleton, fair_links, G_N_ELEMENTS (fair_links));
}

static void
test_rokoko (void)
{
  static const char *names[] = {
    "Hips", "Spine", "Spine1", "Spine2", "LeftShoulder", "LeftArm", "LeftForeArm",
    "LeftHand", "LeftInHandIndex", "LeftHandIndex1", "LeftHandIndex2", "LeftHandIndex3",
    "LeftInHandMiddle", "LeftHandMiddle1", "LeftHandMiddle2", "LeftHandMiddle3",
    "LeftHandThumb1", "LeftHandThumb2", "LeftHandThumb3", "Neck", "Head", "RightShoulder",
    "RightArm", "RightForeArm", "RightHand", "RightInHandPinky", "RightHandPinky1",
    "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RightUpLeg", "RightLeg",
    "RightFoot", "RightToeBase", NULL
  };
  static const Link links[] = {
    { "Neck", "Spine2" }, { "LeftShoulder", "Spine2" }, { "Head", "Neck" },
    { "LeftInHandIndex", "LeftHand" }, { "LeftHandIndex1", "LeftInHandIndex" },
    { "LeftHandThumb1", "LeftHand" }, { "RightHandPinky1", "RightInHandPinky" },
    { "RightToeBase", "RightFoot" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_ROKOKO);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (skeleton->scheme), ==, "rokoko");
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "LeftArm"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "RightLeg"), ==, 4);
}

/* DAZ / Poser (l and r prefixes), as the CMU salsa files use them, and a DAZ Genesis
 * pelvis. */
static void
test_daz (void)
{
  static const char *names[] = {
    "hip", "abdomen", "chest", "neck", "head", "leftEye", "rightEye", "rCollar", "rShldr",
    "rForeArm", "rHand", "rThumb1", "rThumb2", "rIndex1", "rIndex2", "lCollar", "lShldr",
    "lForeArm", "lHand", "lMid1", "lMid2", "rButtock", "rThigh", "rShin", "rFoot",
    "lButtock", "lThigh", "lShin", "lFoot", NULL
  };
  static const Link links[] = {
    { "hip", "" }, { "abdomen", "hip" }, { "chest", "abdomen" }, { "leftEye", "head" },
    { "rCollar", "chest" }, { "rShldr", "rCollar" }, { "rThumb2", "rThumb1" },
    { "rIndex1", "rHand" }, { "lMid2", "lMid1" }, { "rButtock", "hip" },
    { "rThigh", "rButtock" }, { "lFoot", "lShin" },
  };
  static const char *genesis[] = {
    "hip", "pelvis", "abdomen", "abdomen2", "chest", "neck", "head", "lThigh", "lShin",
    "lFoot", "lToe", "rThigh", "rShin", "rFoot", "rToe", NULL
  };
  static const Link genesis_links[] = {
    { "pelvis", "hip" }, { "abdomen2", "abdomen" }, { "chest", "abdomen2" },
    { "lThigh", "pelvis" }, { "rToe", "rFoot" },
  };
  g_autoptr(OdoriMotion) motion = motion_from_names (names);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriMotion) genesis_motion = motion_from_names (genesis);
  g_autoptr(OdoriSkeleton) genesis_skeleton = odori_skeleton_for_motion (genesis_motion);

  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_DAZ);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (skeleton->scheme), ==, "daz");
  assert_well_ordered (skeleton);
  assert_links (skeleton, links, G_N_ELEMENTS (links));
  g_assert_cmpint (bulge_of (skeleton, "lShldr"), ==, 1);
  g_assert_cmpint (bulge_of (skeleton, "rForeArm"), ==, 2);
  g_assert_cmpint (bulge_of (skeleton, "lThigh"), ==, 3);
  g_assert_cmpint (bulge_of (skeleton, "rShin"), ==, 4);

  g_assert_cmpint (genesis_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_DAZ);
  assert_links (genesis_skeleton, genesis_links, G_N_ELEMENTS (genesis_links));
}

/* _L / _R suffixes: MakeHuman's skeleton (a Root above the hips and the spine, "__"
 * helper joints), and a Blender-style set without a Root (the table's root is optional
 * when the names it knows hang from one joint). */
static void
test_lr_suffix (void)
{
  static const char *makehuman[] = {
    "Root", "Spine1", "Spine2", "Spine3", "Neck", "Head", "__Clavicle_L", "Clavicle_L",
    "UpArm_L", "LoArm_L", "Hand_L", "__Index1_L", "Index1_L", "Index2_L", "Middle1_L",
    "__Clavicle_R", "Clavicle_R", "UpArm_R", "LoArm_R", "Hand_R", "Hips", "__UpLeg_L",
    "UpLeg_L", "LoLeg_L", "Foot_L", "Toe_L", "__UpLeg_R", "UpLeg_R", "LoLeg_R", "Foot_R",
    NULL
  };
  static const Link makehuman_links[] = {
    { "Root", "" }, { "Spine1", "Root" }, { "Hips", "Root" }, { "Neck", "Spine3" },
    { "__Clavicle_L", "Spine3" }, { "Clavicle_L", "__Clavicle_L" },
    { "UpArm_L", "Clavicle_L" }, { "Index1_L", "__Index1_L" }, { "Middle1_L", "Hand_L" },
    { "UpLeg_R", "__UpLeg_R" }, { "__UpLeg_R", "Hips" }, { "Foot_R", "LoLeg_R" },
  };
  static const char *blender[] = {
    "Hips", "Spine", "Chest", "Neck", "Head", "Shoulder_L", "UpperArm_L", "ForeArm_L",
    "Hand_L", "Shoulder_R", "UpperArm_R", "ForeArm_R", "Hand_R", "Thigh_L", "Shin_L",
    "Foot_L", "Thigh_R", "Shin_R", "Foot_R", NULL
  };
  static const Link blender_links[] = {
    { "Hips", "" }, { "Spine", "Hips" }, { "Chest", "Spine" }, { "Neck", "Chest" },
    { "Shoulder_L", "Chest" }, { "UpperArm_L", "Shoulder_L" }, { "Hand_R", "ForeArm_R" },
    { "Thigh_L", "Hips" }, { "Shin_R", "Thigh_R" },
  };
  g_autoptr(OdoriMotion) mh = motion_from_names (makehuman);
  g_autoptr(OdoriSkeleton) mh_skeleton = odori_skeleton_for_motion (mh);
  g_autoptr(OdoriMotion) bl = motion_from_names (blender);
  g_autoptr(OdoriSkeleton) bl_skeleton = odori_skeleton_for_motion (bl);

  g_assert_cmpint (mh_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_LR_SUFFIX);
  g_assert_cmpstr (odori_skeleton_scheme_to_string (mh_skeleton->scheme), ==, "lr-suffix");
  assert_well_ordered (mh_skeleton);
  assert_links (mh_skeleton, makehuman_links, G_N_ELEMENTS (makehuman_links));
  g_assert_cmpint (bulge_of (mh_skeleton, "UpArm_L"), ==, 1);
  g_assert_cmpint (bulge_of (mh_skeleton, "LoArm_R"), ==, 2);
  g_assert_cmpint (bulge_of (mh_skeleton, "UpLeg_L"), ==, 3);
  g_assert_cmpint (bulge_of (mh_skeleton, "LoLeg_R"), ==, 4);

  g_assert_cmpint (bl_skeleton->scheme, ==, ODORI_SKELETON_SCHEME_LR_SUFFIX);
  assert_well_ordered (bl_skeleton);
  assert_links (bl_skeleton, blender_links, G_N_ELEMENTS (blender_links));
  g_assert_cmpint (bulge_of (bl_skeleton, "UpperArm_R"), ==, 1);
  g_assert_cmpint (bulge_of (bl_skeleton, "Shin_L"), ==, 4);
}

static void
test_source_strings (void)
{
  static const struct
  {
    OdoriSkeletonScheme scheme;
    const char         *name;
    const char         *source;
  } cases[] = {
    { ODORI_SKELETON_SCHEME_HIERARCHY, "hierarchy", "file" },
    { ODORI_SKELETON_SCHEME_BIOVISION, "biovision", "table" },
    { ODORI_SKELETON_SCHEME_SUIT17, "suit17", "table" },
    { ODORI_SKELETON_SCHEME_NI, "ni", "table" },
    { ODORI_SKELETON_SCHEME_CMU, "cmu", "table" },
    { ODORI_SKELETON_SCHEME_INFERRED, "inferred", "inferred" },
    { ODORI_SKELETON_SCHEME_FILE, "file", "saved" },
    { ODORI_SKELETON_SCHEME_MARKERS, "markers", "markers" },
    { ODORI_SKELETON_SCHEME_CMU_JOINTS, "cmu-joints", "table" },
    { ODORI_SKELETON_SCHEME_MIXAMO, "mixamo", "table" },
    { ODORI_SKELETON_SCHEME_ROKOKO, "rokoko", "table" },
    { ODORI_SKELETON_SCHEME_DAZ, "daz", "table" },
    { ODORI_SKELETON_SCHEME_LR_SUFFIX, "lr-suffix", "table" },
  };
  g_autofree char *path = write_tmp ("source.xml",
                                     "<odori-skeleton version=\"1\"><bone name=\"a\" parent=\"\" "
                                     "length=\"1\"/></odori-skeleton>", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) saved = odori_skeleton_load (path, &error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpstr (odori_skeleton_scheme_to_string (cases[i].scheme), ==, cases[i].name);
      g_assert_cmpstr (odori_skeleton_source_to_string (cases[i].scheme), ==, cases[i].source);
    }
  g_assert_no_error (error);
  g_assert_cmpstr (odori_skeleton_source_to_string (saved->scheme), ==, "saved");
  g_assert_cmpuint (saved->n_sticks, ==, 0);
}

/* Real captures (the shared corpus) */

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The corpus's BVH files, relative to its folder, sorted; NULL (the test skipped) when
 * the corpus is missing. */
static GPtrArray *
corpus_bvh_files (void)
{
  g_autofree char *probe = odori_test_corpus_file ("PROVENANCE.md");
  g_autofree char *root = NULL;
  g_autoptr(GDir) dir = NULL;
  GPtrArray *files;
  const char *name;

  if (probe == NULL)
    return NULL;
  root = g_path_get_dirname (probe);
  dir = g_dir_open (root, 0, NULL);
  g_assert_nonnull (dir);
  files = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sub = g_build_filename (root, name, NULL);
      g_autoptr(GDir) subdir = g_dir_open (sub, 0, NULL);
      const char *file;

      while (subdir != NULL && (file = g_dir_read_name (subdir)) != NULL)
        {
          g_autofree char *lower = g_ascii_strdown (file, -1);

          if (g_str_has_suffix (lower, ".bvh"))
            g_ptr_array_add (files, g_build_filename (name, file, NULL));
        }
    }
  g_ptr_array_sort (files, compare_paths);
  g_assert_cmpuint (files->len, >, 0);
  return files;
}

/* The BVH file RELATIVE of the corpus (as *BVH) and the same motion through BVA, which
 * has no hierarchy (returned). */
static OdoriMotion *
corpus_motion_without_hierarchy (const char   *relative,
                                 OdoriMotion **bvh)
{
  const char *dir = g_getenv ("ODORI_CORPUS_DIR");
  g_autofree char *path = g_build_filename (dir, relative, NULL);
  g_autofree char *base = g_path_get_basename (relative);
  g_autofree char *bva_name = g_strconcat (base, ".bva", NULL);
  g_autofree char *bva_path = g_build_filename (tmp_dir, bva_name, NULL);
  g_autoptr(GError) error = NULL;
  OdoriMotion *bva;

  *bvh = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true ((*bvh)->has_hierarchy);
  g_assert_true (odori_bva_save (*bvh, bva_path, &error));
  g_assert_no_error (error);
  bva = odori_bva_load (bva_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (bva->has_hierarchy);
  g_assert_cmpuint (bva->n_segments, ==, (*bvh)->n_segments);
  g_unlink (bva_path);
  return bva;
}

static const char *
file_parent_name (const OdoriMotion *bvh,
                  guint              s)
{
  int p = bvh->segments[s].parent;

  return p >= 0 ? bvh->segments[p].name : "";
}

/* Each corpus BVH, converted to BVA (no hierarchy): odori_skeleton_for_motion() gives
 * every joint the parent the BVH file gives it, whatever the order of the segments. */
static void
test_corpus_parents (void)
{
  g_autoptr(GPtrArray) files = corpus_bvh_files ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (1310);
  guint total_wrong = 0;

  if (files == NULL)
    return;
  for (guint i = 0; i < files->len; i++)
    {
      const char *relative = g_ptr_array_index (files, i);
      g_autoptr(OdoriMotion) bvh = NULL;
      g_autoptr(OdoriMotion) bva = corpus_motion_without_hierarchy (relative, &bvh);
      g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (bva);
      g_autofree guint *order = shuffled_order (bva->n_segments, rand);
      g_autoptr(OdoriMotion) shuffled = permuted_motion (bva, order);
      g_autoptr(OdoriSkeleton) again = odori_skeleton_for_motion (shuffled);
      g_autoptr(GString) wrong = g_string_new (NULL);
      guint n_wrong = 0;

      assert_well_ordered (skeleton);
      g_assert_cmpuint (skeleton->n_bones, ==, bvh->n_segments);
      for (guint s = 0; s < bvh->n_segments; s++)
        {
          const char *want = file_parent_name (bvh, s);
          const char *got = parent_name (skeleton, bvh->segments[s].name);

          if (strcmp (want, got) != 0)
            {
              n_wrong++;
              g_string_append_printf (wrong, " %s (%s, not %s)", bvh->segments[s].name, got, want);
            }
        }
      assert_same_parents (bva, skeleton, again);
      g_test_message ("%s: %u joints, skeleton from %s %s, %u wrong parents%s", relative,
                      bvh->n_segments, odori_skeleton_source_to_string (skeleton->scheme),
                      odori_skeleton_scheme_to_string (skeleton->scheme), n_wrong, wrong->str);
      if (n_wrong > 0)
        g_printerr ("%s: %u wrong parents:%s\n", relative, n_wrong, wrong->str);
      total_wrong += n_wrong;
    }
  g_assert_cmpuint (total_wrong, ==, 0);
}

/* Union-find over segments. */
static guint
group_of (guint *group,
          guint  s)
{
  while (group[s] != s)
    s = group[s] = group[group[s]];
  return s;
}

/* Joint C's offset in P's frame over frames sampled as the skeleton samples them (64
 * spread evenly): its RMS deviation from the mean, and the largest angle between C's
 * rotation relative to P and its first value (degrees); the largest distance from P. */
static void
pair_variation (const OdoriMotion *motion,
                guint              p,
                guint              c,
                double            *offset_rms,
                double            *angle,
                double            *max_distance)
{
  guint k = MIN (motion->n_frames, 64);
  double sum[3] = { 0, 0, 0 }, sum2 = 0, mean2 = 0;
  versor first = GLM_QUAT_IDENTITY_INIT;

  *angle = *max_distance = 0;
  for (guint j = 0; j < k; j++)
    {
      guint f = k > 1 ? (guint) ((guint64) j * (motion->n_frames - 1) / (k - 1)) : 0;
      const OdoriTransform *tp = odori_motion_get (motion, f, p);
      const OdoriTransform *tc = odori_motion_get (motion, f, c);
      versor inv, rel;
      vec3 d, o;

      glm_quat_conjugate ((float *) tp->rotation, inv);
      glm_vec3_sub ((float *) tc->position, (float *) tp->position, d);
      glm_quat_rotatev (inv, d, o);
      for (int a = 0; a < 3; a++)
        {
          sum[a] += o[a];
          sum2 += (double) o[a] * o[a];
        }
      glm_quat_mul (inv, (float *) tc->rotation, rel);
      if (j == 0)
        glm_quat_copy (rel, first);
      *angle = MAX (*angle, odori_quat_angle_deg (first, rel));
      *max_distance = MAX (*max_distance, glm_vec3_norm (d));
    }
  for (int a = 0; a < 3; a++)
    mean2 += (sum[a] / k) * (sum[a] / k);
  *offset_rms = sqrt (MAX (sum2 / k - mean2, 0));
}

static int
compare_edges (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The edges between groups of a tree given by PARENT (segment indices, -1 for a root),
 * sorted: (group of the parent, or -1) × n + group of the child, for each segment whose
 * parent is in another group. */
static GArray *
group_edges (const int *parent,
             guint     *group,
             guint      n)
{
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint s = 0; s < n; s++)
    {
      gint64 gs = group_of (group, s);
      gint64 gp = parent[s] >= 0 ? (gint64) group_of (group, parent[s]) : -1;

      if (gp != gs)
        {
          gint64 edge = gp * n + gs;

          g_array_append_val (edges, edge);
        }
    }
  g_array_sort (edges, compare_edges);
  return edges;
}

/* Inference alone (odori_skeleton_infer(), names ignored) on each corpus BVH converted to
 * BVA. The file's tree is found except where the motion itself cannot tell trees apart:
 * joints that never move against their parent (the same relative rotation on every
 * sampled frame: CMU's LHipJoint, fingers in captures without finger tracking, Poser's
 * buttocks) or sit on it (zero-length bones: a CMU wrist, its lhand and its thumb) form
 * one rigid group, and any tree inside a group, hung from any of its members, gives the
 * same global transforms. So the test asks for exactly this: every segment keeps a
 * constant offset in its inferred parent's frame (RMS deviation under 1e-3 of the
 * figure's height, as a true parent gives), and the tree between groups is the file's. */
static void
test_corpus_infer (void)
{
  g_autoptr(GPtrArray) files = corpus_bvh_files ();

  if (files == NULL)
    return;
  for (guint i = 0; i < files->len; i++)
    {
      const char *relative = g_ptr_array_index (files, i);
      g_autoptr(OdoriMotion) bvh = NULL;
      g_autoptr(OdoriMotion) bva = corpus_motion_without_hierarchy (relative, &bvh);
      g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_infer (bva);
      guint n = bva->n_segments, n_wrong = 0, n_groups = 0;
      g_autofree guint *group = g_new (guint, n);
      g_autofree int *file_parent = g_new (int, n);
      g_autofree int *found_parent = g_new (int, n);
      g_autoptr(GArray) file_edges = NULL;
      g_autoptr(GArray) found_edges = NULL;
      double lo = INFINITY, hi = -INFINITY, height;

      g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_INFERRED);
      assert_well_ordered (skeleton);
      for (guint s = 0; s < n; s++)
        {
          lo = MIN (lo, odori_motion_get (bva, 0, s)->position[1]);
          hi = MAX (hi, odori_motion_get (bva, 0, s)->position[1]);
        }
      /* Z-up files lie down in Y: the largest extent is the height. */
      height = hi - lo;
      for (guint s = 0; s < n; s++)
        for (int a = 0; a < 3; a += 2)
          {
            double l = INFINITY, h = -INFINITY;

            for (guint t = 0; t < n; t++)
              {
                l = MIN (l, odori_motion_get (bva, 0, t)->position[a]);
                h = MAX (h, odori_motion_get (bva, 0, t)->position[a]);
              }
            height = MAX (height, h - l);
          }

      for (guint s = 0; s < n; s++)
        {
          int b = odori_skeleton_find (skeleton, bva->segments[s].name);
          int pb = skeleton->bones[b].parent;

          group[s] = s;
          file_parent[s] = bvh->segments[s].parent;
          found_parent[s] = pb >= 0 ? odori_motion_find_segment (bva, skeleton->bones[pb].name) : -1;
          g_assert_cmpint (odori_motion_find_segment (bva, bvh->segments[s].name), ==, s);
        }
      for (guint s = 0; s < n; s++)
        if (file_parent[s] >= 0)
          {
            double rms, angle, dist;

            pair_variation (bva, file_parent[s], s, &rms, &angle, &dist);
            g_assert_cmpfloat (rms, <, 1e-4 * height);
            if (angle < 0.1 || dist < 1e-4 * height)
              group[group_of (group, s)] = group_of (group, file_parent[s]);
          }
      for (guint s = 0; s < n; s++)
        {
          n_groups += group_of (group, s) == s;
          if (found_parent[s] == file_parent[s])
            continue;
          n_wrong++;
          if (found_parent[s] >= 0)
            {
              double rms, angle, dist;

              pair_variation (bva, found_parent[s], s, &rms, &angle, &dist);
              if (!(rms < 1e-3 * height))
                g_error ("%s: %s hangs from %s, whose frame does not hold it (%g)", relative,
                         bva->segments[s].name, bva->segments[found_parent[s]].name, rms);
            }
        }
      file_edges = group_edges (file_parent, group, n);
      found_edges = group_edges (found_parent, group, n);
      g_assert_cmpuint (found_edges->len, ==, file_edges->len);
      g_assert_cmpmem (found_edges->data, found_edges->len * sizeof (gint64), file_edges->data,
                       file_edges->len * sizeof (gint64));
      g_test_message ("%s: inference alone: %u of %u parents differ from the file's, all "
                      "inside the %u groups the motion cannot take apart", relative, n_wrong,
                      n, n_groups);
    }
}

/* The optical-marker BVA of the corpus (41 markers, every rotation zero): a marker set,
 * with sticks only where the distance stays nearly constant over the whole take. */
static void
test_corpus_markers (void)
{
  g_autofree char *path = odori_test_corpus_file ("bva-motionx/08_01.vpm");
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint *per_marker = NULL;
  g_autofree int *up = g_new (int, 41);
  gboolean head = FALSE;
  guint n_joins = 0, n_pieces = 0;

  if (path == NULL)
    return;
  motion = odori_bva_load (path, NULL, &error);
  g_assert_no_error (error);
  skeleton = odori_skeleton_for_motion (motion);
  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_MARKERS);
  g_assert_cmpuint (skeleton->n_bones, ==, 41);
  per_marker = g_new0 (guint, skeleton->n_bones);
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      up[b] = (int) b;
      g_assert_cmpint (skeleton->bones[b].parent, ==, -1);
      g_assert_cmpfloat (skeleton->bones[b].length, ==, 0);
      g_assert_cmpfloat (skeleton->bones[b].radius, >, 0);
    }
  g_assert_cmpuint (skeleton->n_sticks, >=, 30);
  for (guint i = 0; i < skeleton->n_sticks; i++)
    {
      const OdoriStick *stick = &skeleton->sticks[i];
      const char *a = skeleton->bones[stick->a].name, *b = skeleton->bones[stick->b].name;
      int sa = odori_motion_find_segment (motion, a), sb = odori_motion_find_segment (motion, b);
      double sum = 0, sum2 = 0, mean, sd;

      /* Over every frame, not only the sampled ones. */
      for (guint f = 0; f < motion->n_frames; f++)
        {
          double d = glm_vec3_distance (odori_motion_get (motion, f, sa)->position,
                                        odori_motion_get (motion, f, sb)->position);

          sum += d;
          sum2 += d * d;
        }
      mean = sum / motion->n_frames;
      sd = sqrt (MAX (sum2 / motion->n_frames - mean * mean, 0));
      up[uf (up, stick->a)] = uf (up, stick->b);
      if (stick->join)
        {
          n_joins++;
          continue;
        }
      g_assert_cmpfloat (sd, <, 0.025 * mean);
      g_assert_cmpfloat_with_epsilon (stick->length, mean, 0.01 * mean);
      per_marker[stick->a]++;
      per_marker[stick->b]++;
      head = head || (g_str_equal (a, "steve:LFHD") && g_str_equal (b, "steve:RFHD")) ||
             (g_str_equal (b, "steve:LFHD") && g_str_equal (a, "steve:RFHD"));
      /* Never from the head to a foot. */
      g_assert_false (g_str_has_suffix (a, "FHD") && g_str_has_suffix (b, "TOE"));
      g_assert_false (g_str_has_suffix (b, "FHD") && g_str_has_suffix (a, "TOE"));
    }
  g_assert_true (head);
  for (guint b = 0; b < skeleton->n_bones; b++)
    g_assert_cmpuint (per_marker[b], <=, 4);
  /* rigid pieces joined into one figure */
  for (guint b = 0; b < skeleton->n_bones; b++)
    n_pieces += uf (up, b) == (int) b;
  g_assert_cmpuint (n_pieces, ==, 1);
  g_assert_cmpuint (n_joins, >=, 1);
  g_assert_cmpuint (n_joins, <=, 14);  /* about one a body part: head, torso, limbs */
}

/* DESIGN.md "Skeleton for display": no torso-thick skin on a bodiless reference root on
 * the ground below the hips, nor on eyes and end twigs; a head is a head whatever hangs
 * from it. */
static void
test_bodiless_joints (void)
{
  static const NamedPoint points[] = {
    { "Reference", 0, 0, 0 },
    { "Hips", 0, 40, 0 },
    { "Spine", 0, 50, 0 },
    { "Neck", 0, 62, 0 },
    { "Head", 0, 66, 0 },
    { "LeftEye", 1, 69, 2 },
    { "HeadTop_End", 0, 74, 0 },
    { "LeftUpLeg", 4, 38, 0 },
    { "LeftLeg", 4, 20, 0 },
    { "LeftFoot", 4, 3, 0 },
  };
  static const int parents[] = { -1, 0, 1, 2, 3, 4, 4, 1, 7, 8 };
  g_autoptr(OdoriMotion) motion = motion_from_points (points, G_N_ELEMENTS (points));
  g_autoptr(OdoriSkeleton) skeleton = NULL;

  for (guint s = 0; s < G_N_ELEMENTS (points); s++)
    {
      motion->segments[s].parent = parents[s];
      for (int i = 0; i < 3; i++)
        motion->segments[s].offset[i] =
          (&points[s].x)[i] - (parents[s] >= 0 ? (&points[parents[s]].x)[i] : 0.f);
    }
  motion->has_hierarchy = TRUE;
  skeleton = odori_skeleton_for_motion (motion);
  g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_HIERARCHY);
  g_assert_cmpfloat (skeleton->bones[odori_skeleton_find (skeleton, "Reference")].radius, ==, 0);
  g_assert_cmpfloat (skeleton->bones[odori_skeleton_find (skeleton, "LeftEye")].radius, ==, 0);
  g_assert_cmpfloat (skeleton->bones[odori_skeleton_find (skeleton, "HeadTop_End")].radius, ==, 0);
  g_assert_cmpfloat (skeleton->bones[odori_skeleton_find (skeleton, "Hips")].radius, >, 0);
  /* the head: 1.7 × the neck's 4, radius half of that, though eyes and a twig hang from it */
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "Head")].length,
                                  1.7 * 4.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "Head")].radius,
                                  0.5 * 1.7 * 4.0, 1e-5);
  g_assert_true (odori_skeleton_is_head_name ("mixamorig:Head"));
  g_assert_false (odori_skeleton_is_head_name ("HeadTop_End"));

  /* a root named as the hips keeps its body */
  odori_motion_set_segment_name (motion, 0, "Pelvis");
  g_clear_pointer (&skeleton, odori_skeleton_unref);
  skeleton = odori_skeleton_for_motion (motion);
  g_assert_cmpfloat (skeleton->bones[odori_skeleton_find (skeleton, "Pelvis")].radius, >, 0);
}

static void
remove_tmp_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-skeleton-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/skeleton/table/biovision", test_biovision);
  g_test_add_func ("/skeleton/table/biovision-partial", test_biovision_partial);
  g_test_add_func ("/skeleton/table/suit", test_suit);
  g_test_add_func ("/skeleton/table/ni", test_ni);
  g_test_add_func ("/skeleton/table/cmu", test_cmu);
  g_test_add_func ("/skeleton/table/threshold", test_table_threshold);
  g_test_add_func ("/skeleton/infer/star", test_infer_star);
  g_test_add_func ("/skeleton/infer/chain", test_infer_chain);
  g_test_add_func ("/skeleton/infer/degenerate", test_infer_degenerate);
  g_test_add_func ("/skeleton/infer/whole-motion", test_infer_whole_motion);
  g_test_add_func ("/skeleton/table/unknown-by-motion", test_table_unknown_by_motion);
  g_test_add_func ("/skeleton/table/cmu-joints", test_cmu_joints);
  g_test_add_func ("/skeleton/table/mixamo", test_mixamo);
  g_test_add_func ("/skeleton/table/rokoko", test_rokoko);
  g_test_add_func ("/skeleton/table/daz", test_daz);
  g_test_add_func ("/skeleton/table/lr-suffix", test_lr_suffix);
  g_test_add_func ("/skeleton/markers", test_markers);
  g_test_add_func ("/skeleton/source-strings", test_source_strings);
  g_test_add_func ("/skeleton/corpus/parents", test_corpus_parents);
  g_test_add_func ("/skeleton/corpus/infer", test_corpus_infer);
  g_test_add_func ("/skeleton/corpus/markers", test_corpus_markers);
  g_test_add_func ("/skeleton/hierarchy", test_hierarchy);
  g_test_add_func ("/skeleton/bodiless-joints", test_bodiless_joints);
  g_test_add_func ("/skeleton/xml/round-trip", test_xml_round_trip);
  g_test_add_func ("/skeleton/xml/minimal", test_xml_minimal);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *test_path = g_strdup_printf ("/skeleton/xml/bad/%s", bad_cases[i].name);

      g_test_add_data_func (test_path, &bad_cases[i], test_xml_bad);
    }
  g_test_add_func ("/skeleton/xml/bad/external-entity", test_xml_external_entity);
  g_test_add_func ("/skeleton/xml/bad/billion-laughs", test_xml_billion_laughs);
  g_test_add_func ("/skeleton/xml/bad/too-large", test_xml_too_large);
  g_test_add_func ("/skeleton/xml/bad/missing-file", test_xml_missing_file);
  g_test_add_func ("/skeleton/xml/save-refused", test_xml_save_refused);

  ret = g_test_run ();
  remove_tmp_dir ();
  g_free (tmp_dir);
  return ret;
}
