/* test-skeleton.c: skeletons from naming schemes, inference, and the XML description
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <libxml/parser.h>

#include "odori-skeleton.h"
#include "odori-text.h"

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

/* Parents come before children, and each bone's parent is in range. */
static void
assert_well_ordered (const OdoriSkeleton *skeleton)
{
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      g_assert_cmpint (skeleton->bones[b].parent, <, (int) b);
      g_assert_cmpint (skeleton->bones[b].parent, >=, -1);
      g_assert_cmpfloat (skeleton->bones[b].length, >, 0);
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
  g_assert_cmpfloat_with_epsilon (skeleton->bones[odori_skeleton_find (skeleton, "Hat")].length,
                                  0.5 * 4.0, 1e-5);
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
  g_assert_cmpfloat_with_epsilon (skeleton->bones[2].length, 1.5, 1e-6);  /* End Site */
  g_assert_cmpfloat_with_epsilon (skeleton->bones[3].length, 2.5, 1e-6);  /* leaf: half */

  /* A broken hierarchy (a cycle) is not trusted: inference instead. */
  motion->segments[0].parent = 3;
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

/* Hand-written files: optional radius and bulge, comments, a DOCTYPE without entities. */
static void
test_xml_minimal (void)
{
  g_autofree char *path = write_tmp ("min.xml",
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE odori-skeleton>\n"
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
    ODORI_SKELETON_ERROR_XML, 3, "entity" },
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

/* The external entity is refused at its declaration, and libxml2 never even asks for
 * the file (our loader counts); an external DTD subset is not fetched either. */
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
  g_autofree char *prefix = g_strdup_printf ("%s:3: ", path);
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
  g_assert_no_error (error);
  g_assert_nonnull (skeleton);
  g_assert_cmpstr (skeleton->bones[0].name, ==, "a");

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
  prefix = g_strdup_printf ("%s:3: ", path);

  start = g_get_monotonic_time ();
  skeleton = odori_skeleton_load (path, &error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_null (skeleton);
  g_assert_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_nonnull (strstr (error->message, "entity declarations are not allowed"));
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
  g_test_add_func ("/skeleton/hierarchy", test_hierarchy);
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
