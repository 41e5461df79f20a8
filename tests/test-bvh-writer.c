/* test-bvh-writer.c: BVH writer (from a hierarchy, and from a skeleton for BVA motions)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bvh.h"
#include "odori-skeleton.h"

#include "test-corpus.h"

static char *tmp_dir;

/* Helpers */

static char *
write_tmp (const char *name,
           const char *content)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, content, -1, &error);
  g_assert_no_error (error);
  return path;
}

static char *
write_to_string (const OdoriMotion   *motion,
                 const OdoriSkeleton *skeleton)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize len;

  odori_bvh_write (motion, skeleton, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* Saves MOTION as BVH and reads it back. */
static OdoriMotion *
save_and_load (const OdoriMotion   *motion,
               const OdoriSkeleton *skeleton,
               const char          *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  OdoriMotion *loaded;

  g_assert_true (odori_bvh_save (motion, skeleton, path, &error));
  g_assert_no_error (error);
  loaded = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  return loaded;
}

/* odori_motion_equal on global transforms; the scale (BVA percent vs BVH's 1) is not
 * part of what BVH carries, so EXPECTED's is replaced by GOT's first. */
static void
assert_globals_equal (const OdoriMotion *expected,
                      const OdoriMotion *got,
                      double             pos_tol,
                      double             rot_tol_deg)
{
  g_autoptr(OdoriMotion) copy = odori_motion_copy (expected);
  g_autofree char *why = NULL;

  if (copy->n_frames == got->n_frames && copy->n_segments == got->n_segments)
    for (gsize i = 0; i < (gsize) copy->n_frames * copy->n_segments; i++)
      memcpy (copy->transforms[i].scale, got->transforms[i].scale, sizeof (float) * 3);
  if (!odori_motion_equal (copy, got, pos_tol, rot_tol_deg, &why))
    g_error ("motions differ: %s", why);
}

/* The same, for the segments of GOT found by name in EXPECTED. */
static void
assert_globals_by_name (const OdoriMotion *expected,
                        const OdoriMotion *got,
                        double             pos_tol,
                        double             rot_tol_deg)
{
  g_assert_cmpuint (expected->n_frames, ==, got->n_frames);
  for (guint s = 0; s < got->n_segments; s++)
    {
      int e = odori_motion_find_segment (expected, got->segments[s].name);

      g_assert_cmpint (e, >=, 0);
      for (guint f = 0; f < got->n_frames; f++)
        {
          const OdoriTransform *a = odori_motion_get (expected, f, e);
          const OdoriTransform *b = odori_motion_get (got, f, s);

          for (int i = 0; i < 3; i++)
            g_assert_cmpfloat_with_epsilon (a->position[i], b->position[i], pos_tol);
          g_assert_cmpfloat (odori_quat_angle_deg (a->rotation, b->rotation), <=, rot_tol_deg);
        }
    }
}

static guint
count_occurrences (const char *haystack,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* A rigid 3-segment motion in BVA style (global transforms only), made by forward
 * kinematics from known local rotations: Hips → Chest → Head. */

static const float chest_offset[3] = { 0.5f, 10.0f, -0.25f };
static const float head_offset[3] = { 0.0f, 8.0f, 1.0f };

static void
fk_child (const OdoriTransform *parent,
          const float           offset[3],
          const double          local_zxy[3],
          OdoriTransform       *child)
{
  versor local;
  vec3 rotated;

  odori_euler_to_quat ("ZXY", local_zxy, local);
  glm_quat_mul ((float *) parent->rotation, local, child->rotation);
  glm_quat_normalize (child->rotation);
  glm_quat_rotatev ((float *) parent->rotation, (float *) offset, rotated);
  glm_vec3_add ((float *) parent->position, rotated, child->position);
}

static OdoriMotion *
make_rigid_motion (guint n_frames)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (3, n_frames, 1.0 / 30, &error);

  g_assert_no_error (error);
  odori_motion_set_segment_name (motion, 0, "Hips");
  odori_motion_set_segment_name (motion, 1, "Chest");
  odori_motion_set_segment_name (motion, 2, "Head");
  for (guint f = 0; f < n_frames; f++)
    {
      OdoriTransform *hips = odori_motion_get (motion, f, 0);
      double t = f / (double) MAX (n_frames - 1, 1);
      /* The hips turn more than a full circle about Y, and pitch through 85 degrees. */
      double hips_zxy[3] = { 20 * sin (6 * t), 85 * t, -170 + 400 * t };
      double chest_zxy[3] = { 30 * t, -45 + 60 * t, 10 * cos (5 * t) };
      double head_zxy[3] = { -15 * t, 25 * sin (3 * t), 120 * t };

      odori_euler_to_quat ("ZXY", hips_zxy, hips->rotation);
      hips->position[0] = (float) (3 + 20 * t);
      hips->position[1] = (float) (40 + 2 * sin (9 * t));
      hips->position[2] = (float) (-5 * t);
      fk_child (hips, chest_offset, chest_zxy, odori_motion_get (motion, f, 1));
      fk_child (odori_motion_get (motion, f, 1), head_offset, head_zxy,
                odori_motion_get (motion, f, 2));
    }
  return motion;
}

static void
test_rigid_bva (void)
{
  g_autoptr(OdoriMotion) motion = make_rigid_motion (40);
  g_autoptr(OdoriMotion) loaded = save_and_load (motion, NULL, "rigid.bvh");
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  g_autoptr(OdoriMotion) loaded2 = save_and_load (motion, skeleton, "rigid2.bvh");
  static const OdoriChannel root_channels[] = {
    ODORI_CHANNEL_XPOSITION, ODORI_CHANNEL_YPOSITION, ODORI_CHANNEL_ZPOSITION,
    ODORI_CHANNEL_ZROTATION, ODORI_CHANNEL_XROTATION, ODORI_CHANNEL_YROTATION,
  };

  g_assert_true (loaded->has_hierarchy);
  g_assert_cmpfloat (loaded->frame_time, ==, 1.0 / 30);
  assert_globals_equal (motion, loaded, 1e-3, 0.01);
  assert_globals_equal (motion, loaded2, 1e-3, 0.01);

  /* The tree, the offsets from frame 0 and the channels. */
  g_assert_cmpint (loaded->segments[0].parent, ==, -1);
  g_assert_cmpint (loaded->segments[1].parent, ==, 0);
  g_assert_cmpint (loaded->segments[2].parent, ==, 1);
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpfloat_with_epsilon (loaded->segments[0].offset[i], 0, 1e-6);
      g_assert_cmpfloat_with_epsilon (loaded->segments[1].offset[i], chest_offset[i], 1e-4);
      g_assert_cmpfloat_with_epsilon (loaded->segments[2].offset[i], head_offset[i], 1e-4);
    }
  g_assert_cmpuint (loaded->segments[0].n_channels, ==, 6);
  g_assert_cmpmem (loaded->segments[0].channels, sizeof root_channels, root_channels,
                   sizeof root_channels);
  g_assert_cmpuint (loaded->segments[1].n_channels, ==, 3);
  g_assert_cmpmem (loaded->segments[1].channels, 3 * sizeof (OdoriChannel), root_channels + 3,
                   3 * sizeof (OdoriChannel));
  /* The leaf has an End Site along its bone (from Chest to Head), as long as the bone. */
  g_assert_false (loaded->segments[1].has_end_site);
  g_assert_true (loaded->segments[2].has_end_site);
  {
    const float *e = loaded->segments[2].end_site;
    float len = sqrtf (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    float dir_len = sqrtf (head_offset[0] * head_offset[0] + head_offset[1] * head_offset[1] +
                           head_offset[2] * head_offset[2]);
    int head = odori_skeleton_find (skeleton, "Head");
    float dot = 0;

    g_assert_cmpfloat_with_epsilon (len, skeleton->bones[head].length, 1e-4);
    /* The head's frame-0 rotation relative to the chest is not identity, so compare in
     * world space: R_head(0) · end_site is parallel to p_head(0) − p_chest(0). */
    {
      vec3 world, d;

      glm_quat_rotatev (odori_motion_get (motion, 0, 2)->rotation, (float *) e, world);
      glm_vec3_sub (odori_motion_get (motion, 0, 2)->position,
                    odori_motion_get (motion, 0, 1)->position, d);
      dot = glm_vec3_dot (world, d) / (len * dir_len);
    }
    g_assert_cmpfloat_with_epsilon (dot, 1.0, 1e-4);
  }
}

static void
test_text_layout (void)
{
  g_autoptr(OdoriMotion) motion = make_rigid_motion (4);
  g_autofree char *text = write_to_string (motion, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_lines = g_strv_length (lines);

  /* Offsets come out of float math: compare them to 1e-5. */
  g_assert_true (g_regex_match_simple ("^HIERARCHY\n"
                                       "ROOT Hips\n"
                                       "\\{\n"
                                       "\tOFFSET 0\\.000000 0\\.000000 0\\.000000\n"
                                       "\tCHANNELS 6 Xposition Yposition Zposition Zrotation "
                                       "Xrotation Yrotation\n"
                                       "\tJOINT Chest\n"
                                       "\t\\{\n"
                                       "\t\tOFFSET 0\\.50000\\d (10\\.00000\\d|9\\.99999\\d) "
                                       "-0\\.25000\\d\n"
                                       "\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
                                       "\t\tJOINT Head\n"
                                       "\t\t\\{\n",
                                       text, 0, 0));
  g_assert_nonnull (strstr (text, "\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET "));
  g_assert_nonnull (strstr (text, "\t\t\t}\n\t\t}\n\t}\n}\nMOTION\nFrames: 4\n"
                                  "Frame Time: 0.03333333333333333\n"));
  g_assert_null (strchr (text, '\r'));
  /* 4 frame lines of 12 values, and a final newline. */
  g_assert_cmpstr (lines[n_lines - 1], ==, "");
  for (guint i = n_lines - 5; i < n_lines - 1; i++)
    {
      g_auto(GStrv) values = g_strsplit (lines[i], " ", -1);

      g_assert_cmpuint (g_strv_length (values), ==, 12);
    }
  /* Frame 1: the root position as given, with 6 decimals. */
  g_assert_true (g_str_has_prefix (lines[n_lines - 5], "3.000000 40.000000 0.000000 "));
}

/* Euler angles follow the previous frame: the hips' Y rotation passes 180 degrees
 * without jumping. */
static void
test_no_flips (void)
{
  g_autoptr(OdoriMotion) motion = make_rigid_motion (40);
  g_autofree char *text = write_to_string (motion, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  double prev = NAN;
  guint frames = 0;
  gboolean past_180 = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) values = g_strsplit (lines[i], " ", -1);
      double y;

      if (g_strv_length (values) != 12 || !g_ascii_isdigit (values[0][0]))
        continue;
      y = g_ascii_strtod (values[5], NULL);
      if (!isnan (prev))
        g_assert_cmpfloat (fabs (y - prev), <, 20.0);
      if (fabs (y) > 180)
        past_180 = TRUE;
      prev = y;
      frames++;
    }
  g_assert_cmpuint (frames, ==, 40);
  g_assert_true (past_180);
}

/* A skeleton with a bone the motion lacks (Neck) and a motion segment the skeleton lacks
 * (Prop): Head hangs from Chest, Prop is not written. Two roots give two ROOT blocks. */
static void
test_skeleton_subset (void)
{
  g_autofree char *xml = write_tmp ("subset.xml",
    "<odori-skeleton version=\"1\">\n"
    "<bone name=\"Hips\" parent=\"\" length=\"10\"/>\n"
    "<bone name=\"Chest\" parent=\"Hips\" length=\"8\"/>\n"
    "<bone name=\"Neck\" parent=\"Chest\" length=\"2\"/>\n"
    "<bone name=\"Head\" parent=\"Neck\" length=\"3\"/>\n"
    "<bone name=\"Lamp\" parent=\"\" length=\"1\"/>\n"
    "</odori-skeleton>\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_load (xml, &error);
  g_autoptr(OdoriMotion) rigid = make_rigid_motion (10);
  g_autoptr(OdoriMotion) motion = odori_motion_new (5, 10, 1.0 / 30, NULL);
  g_autoptr(OdoriMotion) loaded = NULL;
  g_autofree char *text = NULL;
  static const char *names[] = { "Prop", "Hips", "Chest", "Head", "Lamp" };

  g_assert_no_error (error);
  for (guint s = 0; s < 5; s++)
    odori_motion_set_segment_name (motion, s, names[s]);
  for (guint f = 0; f < 10; f++)
    {
      OdoriTransform *lamp = odori_motion_get (motion, f, 4);
      double zxy[3] = { 0, 0, 10.0 * f };

      for (guint s = 0; s < 3; s++)
        *odori_motion_get (motion, f, s + 1) = *odori_motion_get (rigid, f, s);
      odori_motion_get (motion, f, 0)->position[0] = 1000;
      odori_euler_to_quat ("ZXY", zxy, lamp->rotation);
      lamp->position[0] = -50;
      lamp->position[1] = 3.0f * f;
    }

  text = write_to_string (motion, skeleton);
  g_assert_null (strstr (text, "Prop"));
  g_assert_null (strstr (text, "Neck"));
  g_assert_cmpuint (count_occurrences (text, "ROOT "), ==, 2);
  g_assert_nonnull (strstr (text, "\nROOT Lamp\n"));

  loaded = save_and_load (motion, skeleton, "subset.bvh");
  g_assert_cmpuint (loaded->n_segments, ==, 4);
  g_assert_cmpstr (loaded->segments[0].name, ==, "Hips");
  g_assert_cmpstr (loaded->segments[2].name, ==, "Head");
  g_assert_cmpint (loaded->segments[2].parent, ==, 1);
  g_assert_cmpstr (loaded->segments[3].name, ==, "Lamp");
  g_assert_cmpint (loaded->segments[3].parent, ==, -1);
  /* A lone root's End Site points up its own Y, as long as its bone. */
  g_assert_true (loaded->segments[3].has_end_site);
  g_assert_cmpfloat_with_epsilon (loaded->segments[3].end_site[1], 1.0, 1e-6);
  assert_globals_by_name (motion, loaded, 1e-3, 0.01);
}

/* A hierarchy with the odd cases: a root with an OFFSET and channels in another order,
 * a joint with position channels mixed in, a joint with two rotation channels, a leaf
 * without End Site (it gets one), a joint name with a blank. */
static const char odd_bvh[] =
  "HIERARCHY\n"
  "ROOT root\n"
  "{\n"
  "  OFFSET 1 2 3\n"
  "  CHANNELS 6 Yrotation Xposition Xrotation Yposition Zrotation Zposition\n"
  "  JOINT slider\n"
  "  {\n"
  "    OFFSET 0 5 0\n"
  "    CHANNELS 6 Xrotation Zposition Yrotation Xposition Zrotation Yposition\n"
  "    JOINT tip joint\n"
  "    {\n"
  "      OFFSET 0 3 0\n"
  "      CHANNELS 3 Xrotation Yrotation Zrotation\n"
  "    }\n"
  "  }\n"
  "  JOINT arm\n"
  "  {\n"
  "    OFFSET 2 0 0\n"
  "    CHANNELS 2 Zrotation Xrotation\n"
  "    End Site\n"
  "    {\n"
  "      OFFSET 1 0 0\n"
  "    }\n"
  "  }\n"
  "}\n"
  "MOTION\n"
  "Frames: 3\n"
  "Frame Time: 0.04\n"
  "10 1 20 2 30 3  5 0.5 -40 0.25 60 4.5  10 170 -20  80 -89\n"
  "-170 1.5 89.5 2.5 -179 3.5  -5 0.75 40 -0.25 -60 5  -100 10 200  -80 89.9\n"
  "0 0 0 0 0 0  0 0 0 0 0 0  0 0 0  0 0\n";

static void
test_hierarchy_odd (void)
{
  g_autofree char *path = write_tmp ("odd.bvh", odd_bvh);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = odori_bvh_load (path, NULL, &error);
  g_autoptr(OdoriMotion) loaded = NULL;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (motion);
  g_assert_false (motion->segments[2].has_end_site);

  text = write_to_string (motion, NULL);
  g_assert_nonnull (strstr (text, "\tCHANNELS 6 Yrotation Xposition Xrotation Yposition "
                                  "Zrotation Zposition\n"));
  g_assert_nonnull (strstr (text, "\tCHANNELS 2 Zrotation Xrotation\n"));
  g_assert_nonnull (strstr (text, "ROOT root\n{\n\tOFFSET 1.000000 2.000000 3.000000\n"));
  g_assert_nonnull (strstr (text, "\t\tJOINT tip joint\n"));
  g_assert_cmpuint (count_occurrences (text, "End Site"), ==, 2);

  loaded = save_and_load (motion, NULL, "odd-out.bvh");
  assert_globals_equal (motion, loaded, 1e-4, 0.01);
  for (guint s = 0; s < motion->n_segments; s++)
    {
      g_assert_cmpuint (loaded->segments[s].n_channels, ==, motion->segments[s].n_channels);
      g_assert_cmpmem (loaded->segments[s].channels,
                       loaded->segments[s].n_channels * sizeof (OdoriChannel),
                       motion->segments[s].channels,
                       motion->segments[s].n_channels * sizeof (OdoriChannel));
      g_assert_cmpint (loaded->segments[s].parent, ==, motion->segments[s].parent);
      for (int i = 0; i < 3; i++)
        g_assert_cmpfloat (loaded->segments[s].offset[i], ==, motion->segments[s].offset[i]);
    }
  /* The leaf without End Site got one: half its OFFSET. */
  g_assert_true (loaded->segments[2].has_end_site);
  g_assert_cmpfloat_with_epsilon (loaded->segments[2].end_site[1], 1.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (loaded->segments[3].end_site[0], 1.0, 1e-6);
}

/* Corpus: read → write → read gives the same global transforms, channel orders, offsets
 * and End Sites. */
static double
frame0_size (const OdoriMotion *motion)
{
  double size = 0;

  for (int i = 0; i < 3; i++)
    {
      double lo = INFINITY, hi = -INFINITY;

      for (guint s = 0; s < motion->n_segments; s++)
        {
          lo = MIN (lo, odori_motion_get (motion, 0, s)->position[i]);
          hi = MAX (hi, odori_motion_get (motion, 0, s)->position[i]);
        }
      size = MAX (size, hi - lo);
    }
  return size;
}

static void
check_corpus_round_trip (const char *relative,
                         const char *path,
                         const char *out_name)
{
  g_autofree char *original = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriMotion) loaded = NULL;
  double size;

  motion = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (motion->has_hierarchy);

  loaded = save_and_load (motion, NULL, out_name);
  size = frame0_size (motion);
  g_test_message ("%s: %u frames, %u joints, size %g", relative, motion->n_frames,
                  motion->n_segments, size);
  assert_globals_equal (motion, loaded, 1e-3 * size, 0.01);
  g_assert_cmpfloat (loaded->frame_time, ==, motion->frame_time);

  for (guint s = 0; s < motion->n_segments; s++)
    {
      const OdoriSegment *a = &motion->segments[s], *b = &loaded->segments[s];

      g_assert_cmpint (a->parent, ==, b->parent);
      g_assert_cmpuint (a->n_channels, ==, b->n_channels);
      g_assert_cmpmem (a->channels, a->n_channels * sizeof (OdoriChannel),
                       b->channels, b->n_channels * sizeof (OdoriChannel));
      g_assert_cmpint (a->has_end_site, ==, b->has_end_site);
      for (int i = 0; i < 3; i++)
        {
          g_assert_cmpfloat_with_epsilon (a->offset[i], b->offset[i], 1e-6 * MAX (size, 1));
          g_assert_cmpfloat_with_epsilon (a->end_site[i], b->end_site[i], 1e-6 * MAX (size, 1));
        }
    }

  g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
  text = write_to_string (motion, NULL);
  g_assert_cmpuint (count_occurrences (text, "End Site"), >, 0);
  g_assert_cmpuint (count_occurrences (text, "End Site"), ==,
                    count_occurrences (original, "End Site"));
}

/* The CHANNELS line that follows "ROOT NAME" or "JOINT NAME" in TEXT lists CHANNELS. */
static void
assert_joint_channels (const char *text,
                       const char *name,
                       const char *channels)
{
  g_autofree char *joint = g_strdup_printf (" %s\n", name);
  const char *p = strstr (text, joint);
  const char *line;

  g_assert_nonnull (p);
  line = strstr (p, "CHANNELS ");
  g_assert_nonnull (line);
  line = strchr (line + strlen ("CHANNELS "), ' ');
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line + 1, channels));
  g_assert_cmpint (line[1 + strlen (channels)], ==, '\n');
}

static void
test_corpus_cmu_131 (void)
{
  g_autofree char *path = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  int shoulder, hip;

  if (path == NULL)
    return;
  check_corpus_round_trip ("bvh-cmu-131/131_01.bvh", path, "131_01-out.bvh");
  if (g_test_failed ())
    return;
  motion = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  text = write_to_string (motion, NULL);
  /* ZXY on the arms, ZYX elsewhere, kept. */
  shoulder = odori_motion_find_segment (motion, "LeftShoulder");
  hip = odori_motion_find_segment (motion, "LeftHip");
  g_assert_cmpint (shoulder, >=, 0);
  g_assert_cmpint (hip, >=, 0);
  assert_joint_channels (text, "LeftShoulder", "Zrotation Xrotation Yrotation");
  assert_joint_channels (text, "RightWrist", "Zrotation Xrotation Yrotation");
  assert_joint_channels (text, "LeftHip", "Zrotation Yrotation Xrotation");
  assert_joint_channels (text, "Chest", "Zrotation Yrotation Xrotation");
  assert_joint_channels (text, "Hips", "Xposition Yposition Zposition Zrotation Yrotation "
                                       "Xrotation");
  g_assert_cmpint (motion->segments[shoulder].channels[1], ==, ODORI_CHANNEL_XROTATION);
  g_assert_cmpint (motion->segments[hip].channels[1], ==, ODORI_CHANNEL_YROTATION);
}

static void
test_corpus_salsa (void)
{
  g_autofree char *path = odori_test_corpus_file ("bvh-cmu-salsa/60_10_scaled.bvh");

  if (path == NULL)
    return;
  check_corpus_round_trip ("bvh-cmu-salsa/60_10_scaled.bvh", path, "60_10-out.bvh");
}

/* A motion without frames or segments still writes a well-formed file. */
static void
test_empty (void)
{
  g_autoptr(OdoriMotion) none = odori_motion_new (0, 3, 0.5, NULL);
  g_autoptr(OdoriMotion) no_frames = make_rigid_motion (0);
  g_autofree char *text_none = write_to_string (none, NULL);
  g_autofree char *text_nf = write_to_string (no_frames, NULL);

  g_assert_cmpstr (text_none, ==, "HIERARCHY\nMOTION\nFrames: 3\nFrame Time: 0.5\n\n\n\n");
  g_assert_true (g_str_has_prefix (text_nf, "HIERARCHY\nROOT Hips\n"));
  g_assert_true (g_str_has_suffix (text_nf, "MOTION\nFrames: 0\nFrame Time: 0.03333333333333333\n"));
}

static void
test_save_failure (void)
{
  g_autoptr(OdoriMotion) motion = make_rigid_motion (3);
  g_autofree char *path = g_build_filename (tmp_dir, "no-such-dir", "out.bvh", NULL);
  g_autofree char *keep = write_tmp ("keep.bvh", "previous");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (odori_bvh_save (motion, NULL, path, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* A successful save replaces the file whole. */
  g_assert_true (odori_bvh_save (motion, NULL, keep, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (keep, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "HIERARCHY\n"));
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
  tmp_dir = g_dir_make_tmp ("odori-bvh-writer-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/bvh-writer/skeleton/rigid", test_rigid_bva);
  g_test_add_func ("/bvh-writer/skeleton/layout", test_text_layout);
  g_test_add_func ("/bvh-writer/skeleton/no-flips", test_no_flips);
  g_test_add_func ("/bvh-writer/skeleton/subset", test_skeleton_subset);
  g_test_add_func ("/bvh-writer/hierarchy/odd", test_hierarchy_odd);
  g_test_add_func ("/bvh-writer/hierarchy/cmu-131", test_corpus_cmu_131);
  g_test_add_func ("/bvh-writer/hierarchy/salsa", test_corpus_salsa);
  g_test_add_func ("/bvh-writer/empty", test_empty);
  g_test_add_func ("/bvh-writer/save-failure", test_save_failure);

  ret = g_test_run ();
  remove_tmp_dir ();
  g_free (tmp_dir);
  return ret;
}
