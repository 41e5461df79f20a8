/* test-bvh-writer.c: BVH writer (from a hierarchy, and from a skeleton for BVA motions)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-compose.h"
#include "odori-index.h"
#include "odori-sample.h"
#include "odori-score.h"
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
write_to_string_mode (const OdoriMotion   *motion,
                      const OdoriSkeleton *skeleton,
                      OdoriBvhPositions    positions)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize len;

  odori_bvh_write_full (motion, skeleton, positions, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* With the default, AUTO. */
static char *
write_to_string (const OdoriMotion   *motion,
                 const OdoriSkeleton *skeleton)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text_auto = write_to_string_mode (motion, skeleton, ODORI_BVH_POSITIONS_AUTO);
  const char *data;
  gsize len;

  odori_bvh_write (motion, skeleton, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  text = g_strndup (data, len);
  g_assert_cmpstr (text, ==, text_auto);
  return g_steal_pointer (&text);
}

/* Saves MOTION as BVH and reads it back. */
static OdoriMotion *
save_and_load_mode (const OdoriMotion   *motion,
                    const OdoriSkeleton *skeleton,
                    OdoriBvhPositions    positions,
                    const char          *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  OdoriMotion *loaded;

  g_assert_true (odori_bvh_save_full (motion, skeleton, positions, path, &error));
  g_assert_no_error (error);
  loaded = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  return loaded;
}

/* The same with the default, AUTO. */
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

/* Position channels (--bvh-positions): a joint whose offset in its parent's frame varies
 * gets Xposition Yposition Zposition in AUTO, so that the BVH reads back to the BVA. */

static gboolean
has_position_channels (const OdoriSegment *seg)
{
  for (guint c = 0; c < seg->n_channels; c++)
    if (seg->channels[c] <= ODORI_CHANNEL_ZPOSITION)
      return TRUE;
  return FALSE;
}

/* Joints below a root with position channels. */
static guint
count_position_joints (const OdoriMotion *motion)
{
  guint n = 0;

  for (guint s = 0; s < motion->n_segments; s++)
    if (motion->segments[s].parent >= 0 && has_position_channels (&motion->segments[s]))
      n++;
  return n;
}

static double
max_abs_coordinate (const OdoriMotion *motion)
{
  double m = 0;

  for (gsize i = 0; i < (gsize) motion->n_frames * motion->n_segments; i++)
    for (int k = 0; k < 3; k++)
      m = MAX (m, fabs (motion->transforms[i].position[k]));
  return m;
}

/* Half a unit of the last decimal printed in TEXT (a BVH): its first frame's first value. */
static double
printed_resolution (const char *text)
{
  const char *line = strstr (text, "\nFrame Time:");
  guint decimals = 0;

  g_assert_nonnull (line);
  line = strchr (line + 1, '\n');
  g_assert_nonnull (line);
  line++;
  while (*line == '-' || g_ascii_isdigit (*line))
    line++;
  g_assert_cmpint (*line, ==, '.');
  for (line++; g_ascii_isdigit (*line); line++)
    decimals++;
  g_assert_cmpuint (decimals, >, 0);
  return 0.5 * pow (10, -(double) decimals);
}

/* How close the BVH TEXT written from MOTION gives back its world positions, per
 * coordinate: a joint with position channels is off by its printed values' rounding, at
 * most the printed resolution per coordinate, √3 of it once rotated; the writer's
 * subtraction from the parent and the reader's addition to it are float sums of
 * coordinates up to MOTION's largest, each off by up to its float spacing (FLT_EPSILON
 * times it), and as much again for the rotations. */
static double
print_tolerance (const OdoriMotion *motion,
                 const char        *text)
{
  return sqrt (3.0) * printed_resolution (text) + 4 * FLT_EPSILON * max_abs_coordinate (motion);
}

/* The largest difference of a world coordinate between EXPECTED and GOT, every segment
 * of EXPECTED found by name in GOT. */
static double
max_position_error (const OdoriMotion *expected,
                    const OdoriMotion *got)
{
  double e = 0;

  g_assert_cmpuint (expected->n_frames, ==, got->n_frames);
  for (guint s = 0; s < expected->n_segments; s++)
    {
      int t = odori_motion_find_segment (got, expected->segments[s].name);

      g_assert_cmpint (t, >=, 0);
      for (guint f = 0; f < expected->n_frames; f++)
        for (int i = 0; i < 3; i++)
          e = MAX (e, fabs ((double) odori_motion_get (expected, f, s)->position[i] -
                            odori_motion_get (got, f, t)->position[i]));
    }
  return e;
}

/* MOTION (read from BVH) saved as BVA with BVA's usual fields and units, as odori-cli
 * convert does, and read back. */
static OdoriMotion *
through_bva (const OdoriMotion *motion,
             const char        *name)
{
  g_autoptr(OdoriMotion) copy = odori_motion_copy (motion);
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  OdoriMotion *back;

  for (guint s = 0; s < copy->n_segments; s++)
    {
      OdoriSegment *seg = &copy->segments[s];

      if (seg->n_fields != 0)
        continue;
      seg->n_fields = ODORI_N_FIELDS;
      for (guint f = 0; f < ODORI_N_FIELDS; f++)
        {
          seg->fields[f] = f;
          seg->units[f] = f < 3 ? ODORI_UNIT_INCHES : f < 6 ? ODORI_UNIT_DEGREES : ODORI_UNIT_PERCENT;
        }
      for (guint fr = 0; fr < copy->n_frames; fr++)
        for (int i = 0; i < 3; i++)
          odori_motion_get (copy, fr, s)->scale[i] *= 100.0f;
    }
  g_assert_true (odori_bva_save (copy, path, &error));
  g_assert_no_error (error);
  back = odori_bva_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  return back;
}

/* SEGMENT's offset from PARENT at FRAME, in the parent's frame. */
static void
local_offset (const OdoriMotion *motion,
              guint              frame,
              int                segment,
              int                parent,
              vec3               offset)
{
  versor inv;
  vec3 d;

  glm_quat_conjugate (odori_motion_get (motion, frame, parent)->rotation, inv);
  glm_vec3_sub (odori_motion_get (motion, frame, segment)->position,
                odori_motion_get (motion, frame, parent)->position, d);
  glm_quat_rotatev (inv, d, offset);
}

static OdoriSkeleton *
load_skeleton_xml (const char *name,
                   const char *xml)
{
  g_autofree char *path = write_tmp (name, xml);
  g_autoptr(GError) error = NULL;
  OdoriSkeleton *skeleton = odori_skeleton_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (skeleton);
  return skeleton;
}

/* A skeleton hanging every segment of MOTION from its first. */
static OdoriSkeleton *
star_skeleton (const OdoriMotion *motion)
{
  g_autoptr(GString) xml = g_string_new ("<odori-skeleton version=\"1\">\n");
  g_autofree char *first = g_markup_escape_text (motion->segments[0].name, -1);

  for (guint s = 0; s < motion->n_segments; s++)
    {
      g_autofree char *name = g_markup_escape_text (motion->segments[s].name, -1);

      g_string_append_printf (xml, "<bone name=\"%s\" parent=\"%s\" length=\"1\"/>\n", name,
                              s == 0 ? "" : first);
    }
  g_string_append (xml, "</odori-skeleton>\n");
  return load_skeleton_xml ("star.xml", xml->str);
}

/* An optical marker file: 41 markers, rotations all 0. Every marker moves relative to
 * whichever marker the tree hangs it from: BVA → BVH → BVA gives each one back within
 * the printing precision. With position channels on the root only, the markers moved
 * rigidly with their parents and came back 24 inches off. */
static void
test_positions_markers (void)
{
  g_autofree char *path = odori_test_corpus_file ("bva-motionx/08_01.vpm");
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriMotion) loaded = NULL;
  g_autoptr(OdoriMotion) back = NULL;
  g_autoptr(OdoriMotion) root_only = NULL;
  g_autoptr(OdoriSkeleton) star = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  double tol, err;

  if (path == NULL)
    return;
  motion = odori_bva_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (motion->n_segments, ==, 41);

  text = write_to_string (motion, NULL);
  tol = print_tolerance (motion, text);
  loaded = save_and_load (motion, NULL, "08_01.bvh");
  g_assert_cmpuint (loaded->n_segments, ==, motion->n_segments);
  /* Whatever tree the skeleton makes of them (one, or each marker a root of its own),
   * every marker has position channels. */
  for (guint s = 0; s < loaded->n_segments; s++)
    g_assert_true (has_position_channels (&loaded->segments[s]));
  err = max_position_error (motion, loaded);
  g_test_message ("08_01.vpm -> BVH: %u joints below a root with position channels; largest "
                  "position error %g (tolerance %g)", count_position_joints (loaded), err, tol);
  g_assert_cmpfloat (err, <=, tol);
  assert_globals_by_name (motion, loaded, tol, 0.01);

  /* BVA again: the same segments, frames, positions, rotations (0) and scales (100). */
  back = through_bva (loaded, "08_01-back.bva");
  g_assert_cmpuint (back->n_segments, ==, motion->n_segments);
  g_assert_cmpfloat_with_epsilon (back->frame_time, motion->frame_time, 1e-9);
  g_assert_cmpfloat (max_position_error (motion, back), <=, tol);
  assert_globals_by_name (motion, back, tol, 0.01);
  for (guint s = 0; s < back->n_segments; s++)
    for (guint f = 0; f < back->n_frames; f++)
      for (int i = 0; i < 3; i++)
        g_assert_cmpfloat (odori_motion_get (back, f, s)->scale[i], ==, 100);

  /* On a tree that hangs every marker from the first one: AUTO gives them all position
   * channels; with the root alone they move rigidly with it and come back far off. */
  star = star_skeleton (motion);
  g_clear_pointer (&loaded, odori_motion_unref);
  loaded = save_and_load (motion, star, "08_01-star.bvh");
  g_assert_cmpuint (count_position_joints (loaded), ==, motion->n_segments - 1);
  err = max_position_error (motion, loaded);
  g_test_message ("08_01.vpm -> BVH, markers hung from the first: largest position error %g",
                  err);
  g_assert_cmpfloat (err, <=, tol);
  root_only = save_and_load_mode (motion, star, ODORI_BVH_POSITIONS_ROOT, "08_01-root.bvh");
  g_assert_cmpuint (count_position_joints (root_only), ==, 0);
  err = max_position_error (motion, root_only);
  g_test_message ("08_01.vpm -> BVH, markers hung from the first, position channels on the "
                  "root only: largest position error %g", err);
  g_assert_cmpfloat (err, >, 1.0);
}

/* A skeleton for the prop motion: a fan held at the chest, its tip fixed to it. */
static const char prop_skeleton_xml[] =
  "<odori-skeleton version=\"1\">\n"
  "<bone name=\"Hips\" parent=\"\" length=\"10\"/>\n"
  "<bone name=\"Chest\" parent=\"Hips\" length=\"8\"/>\n"
  "<bone name=\"Head\" parent=\"Chest\" length=\"3\"/>\n"
  "<bone name=\"Fan\" parent=\"Chest\" length=\"4\"/>\n"
  "<bone name=\"FanTip\" parent=\"Fan\" length=\"1\"/>\n"
  "</odori-skeleton>\n";

static const float fan_tip_offset[3] = { 0.5f, 4.0f, -1.0f };

/* The rigid motion with a fan (moving freely: thrown, caught, waved) and its tip. */
static OdoriMotion *
make_prop_motion (guint n_frames)
{
  g_autoptr(OdoriMotion) rigid = make_rigid_motion (n_frames);
  OdoriMotion *motion = odori_motion_new (5, n_frames, 1.0 / 30, NULL);
  static const char *names[] = { "Hips", "Chest", "Head", "Fan", "FanTip" };

  for (guint s = 0; s < 5; s++)
    odori_motion_set_segment_name (motion, s, names[s]);
  for (guint f = 0; f < n_frames; f++)
    {
      double t = f / (double) MAX (n_frames - 1, 1);
      const OdoriTransform *chest = odori_motion_get (rigid, f, 1);
      OdoriTransform *fan = odori_motion_get (motion, f, 3);
      double fan_zxy[3] = { 90 * sin (2 * t), 30 * t, 200 * t };
      double tip_zxy[3] = { 0, 0, 0 };

      for (guint s = 0; s < 3; s++)
        *odori_motion_get (motion, f, s) = *odori_motion_get (rigid, f, s);
      odori_euler_to_quat ("ZXY", fan_zxy, fan->rotation);
      fan->position[0] = chest->position[0] + (float) (12 * sin (4 * t));
      fan->position[1] = chest->position[1] + (float) (6 + 5 * cos (3 * t) + 40 * t * (1 - t));
      fan->position[2] = chest->position[2] + (float) (10 * t * t);
      fk_child (fan, fan_tip_offset, tip_zxy, odori_motion_get (motion, f, 4));
    }
  return motion;
}

/* A prop that moves freely relative to the bone it hangs from gets position channels;
 * the bones and the prop's rigidly fixed tip do not. */
static void
test_positions_prop (void)
{
  g_autoptr(OdoriSkeleton) skeleton = load_skeleton_xml ("prop.xml", prop_skeleton_xml);
  g_autoptr(OdoriMotion) motion = make_prop_motion (60);
  g_autoptr(OdoriMotion) loaded = NULL;
  g_autoptr(OdoriMotion) root_only = NULL;
  g_autofree char *text = write_to_string (motion, skeleton);
  double tol = print_tolerance (motion, text);
  int fan, tip;
  vec3 offset0;

  assert_joint_channels (text, "Hips", "Xposition Yposition Zposition Zrotation Xrotation "
                                       "Yrotation");
  assert_joint_channels (text, "Fan", "Xposition Yposition Zposition Zrotation Xrotation "
                                      "Yrotation");
  assert_joint_channels (text, "Chest", "Zrotation Xrotation Yrotation");
  assert_joint_channels (text, "Head", "Zrotation Xrotation Yrotation");
  assert_joint_channels (text, "FanTip", "Zrotation Xrotation Yrotation");

  loaded = save_and_load (motion, skeleton, "prop.bvh");
  g_assert_cmpuint (count_position_joints (loaded), ==, 1);
  g_assert_cmpfloat (max_position_error (motion, loaded), <=, tol);
  assert_globals_by_name (motion, loaded, tol, 0.01);
  /* The fan's OFFSET is its first frame's offset from the chest (the reader puts the
   * position channels in its place). */
  fan = odori_motion_find_segment (loaded, "Fan");
  g_assert_cmpint (fan, >=, 0);
  local_offset (motion, 0, 3, 1, offset0);
  for (int i = 0; i < 3; i++)
    g_assert_cmpfloat_with_epsilon (loaded->segments[fan].offset[i], offset0[i], 1e-5);
  /* The tip, rigid on the fan, keeps its bone. */
  tip = odori_motion_find_segment (loaded, "FanTip");
  g_assert_cmpint (tip, >=, 0);
  g_assert_cmpint (loaded->segments[tip].parent, ==, fan);
  for (int i = 0; i < 3; i++)
    g_assert_cmpfloat_with_epsilon (loaded->segments[tip].offset[i], fan_tip_offset[i], 1e-4);

  /* The root alone with position channels: the fan stays where frame 0 had it. */
  root_only = save_and_load_mode (motion, skeleton, ODORI_BVH_POSITIONS_ROOT, "prop-root.bvh");
  g_assert_cmpuint (count_position_joints (root_only), ==, 0);
  g_assert_cmpfloat (max_position_error (motion, root_only), >, 1.0);
}

/* A composed score whose symbols come from two shows of different dancers: in show B
 * the chest sits 12 above the hips, in show A 10. At the switch the bone stretches; the
 * chest gets position channels, the head (8 above the chest in both) does not. */
static void
write_show (const char *dir,
            const char *name,
            float       chest_height)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(OdoriMotion) show = odori_motion_new (3, 10, 1.0 / 30, NULL);
  g_autoptr(GError) error = NULL;
  const float chest[3] = { 0, chest_height, 0.5f };

  odori_motion_set_segment_name (show, 0, "Hips");
  odori_motion_set_segment_name (show, 1, "Chest");
  odori_motion_set_segment_name (show, 2, "Head");
  for (guint f = 0; f < 10; f++)
    {
      OdoriTransform *hips = odori_motion_get (show, f, 0);
      double hips_zxy[3] = { 2.0 * f, 0, 9.0 * f };
      double chest_zxy[3] = { 0, 3.0 * f, -2.0 * f };
      double head_zxy[3] = { 1.0 * f, 0, 4.0 * f };

      odori_euler_to_quat ("ZXY", hips_zxy, hips->rotation);
      hips->position[0] = 2.0f * f;
      hips->position[1] = 40;
      fk_child (hips, chest, chest_zxy, odori_motion_get (show, f, 1));
      fk_child (odori_motion_get (show, f, 1), head_offset, head_zxy,
                odori_motion_get (show, f, 2));
    }
  g_assert_true (odori_bva_save (show, path, &error));
  g_assert_no_error (error);
}

static OdoriMotion *
compose_file (const char *dir,
              const char *score_name,
              int         blend)
{
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *score_path = g_build_filename (dir, score_name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = odori_index_load (index_path, &error);
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  OdoriMotion *motion;

  g_assert_no_error (error);
  score = odori_score_load (score_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  odori_composer_set_blend (composer, blend);
  motion = odori_composer_compose (composer, &error);
  g_assert_no_error (error);
  g_assert_nonnull (motion);
  /* The composed motion lives as long as the composer. */
  return odori_motion_copy (motion);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

static void
test_positions_stretch (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "stretch", NULL);
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *score_path = g_build_filename (dir, "score.dds", NULL);
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriMotion) loaded = NULL;
  g_autoptr(OdoriMotion) root_only = NULL;
  g_autofree char *text = NULL;
  vec3 before, after;
  double tol;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  write_show (dir, "a.bva", 10);
  write_show (dir, "b.bva", 12);
  g_assert_true (g_file_set_contents (index_path,
    "define part name=\"Body\" code=\"BD\" map=\"Hips,Chest,Head\"\n"
    "begin class name=\"Test\" code=\"t\"\n"
    "  begin show name=\"A\" code=\"SA\" file=\"a.bva\"\n"
    "    motion name=\"a\" code=\"A1\" frame=1-10\n"
    "  end show\n"
    "  begin show name=\"B\" code=\"SB\" file=\"b.bva\"\n"
    "    motion name=\"b\" code=\"B1\" frame=1-10\n"
    "  end show\n"
    "end class\n", -1, NULL));
  g_assert_true (g_file_set_contents (score_path, "BD: Hips,Chest,Head\n1: A1\n11: B1\n", -1,
                                      NULL));
  motion = compose_file (dir, "score.dds", 0);
  g_assert_cmpuint (motion->n_frames, ==, 20);
  g_assert_cmpint (odori_motion_find_segment (motion, "Chest"), ==, 1);
  local_offset (motion, 9, 1, 0, before);
  local_offset (motion, 10, 1, 0, after);
  g_assert_cmpfloat_with_epsilon (before[1], 10, 1e-4);
  g_assert_cmpfloat_with_epsilon (after[1], 12, 1e-4);

  text = write_to_string (motion, NULL);
  tol = print_tolerance (motion, text);
  assert_joint_channels (text, "Chest", "Xposition Yposition Zposition Zrotation Xrotation "
                                        "Yrotation");
  assert_joint_channels (text, "Head", "Zrotation Xrotation Yrotation");
  loaded = save_and_load (motion, NULL, "stretch.bvh");
  g_assert_cmpuint (count_position_joints (loaded), ==, 1);
  g_assert_cmpfloat (max_position_error (motion, loaded), <=, tol);
  assert_globals_by_name (motion, loaded, tol, 0.01);

  root_only = save_and_load_mode (motion, NULL, ODORI_BVH_POSITIONS_ROOT, "stretch-root.bvh");
  g_assert_cmpfloat (max_position_error (motion, root_only), >, 1.0);
  remove_dir (dir);
}

/* ROOT is the writer as it was: position channels on the root only, the text byte for
 * byte what it wrote before AUTO existed (and what AUTO writes for a rigid skeleton).
 * ALL gives every joint position channels, a hierarchy's joints too. */
static const char golden_root_bvh[] =
  "HIERARCHY\n"
  "ROOT Hips\n"
  "{\n"
  "\tOFFSET 0.000000 0.000000 0.000000\n"
  "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
  "\tJOINT Chest\n"
  "\t{\n"
  "\t\tOFFSET 0.000000 10.000000 0.000000\n"
  "\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
  "\t\tJOINT Head\n"
  "\t\t{\n"
  "\t\t\tOFFSET 0.000000 6.000000 8.000000\n"
  "\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
  "\t\t\tEnd Site\n"
  "\t\t\t{\n"
  "\t\t\t\tOFFSET 0.000000 3.000000 4.000000\n"
  "\t\t\t}\n"
  "\t\t}\n"
  "\t}\n"
  "}\n"
  "MOTION\n"
  "Frames: 3\n"
  "Frame Time: 0.04\n"
  "1.000000 2.000000 3.000000 0.000000 0.000000 0.000000 0.000000 0.000000 0.000000 "
  "0.000000 0.000000 0.000000\n"
  "2.000000 2.000000 3.000000 0.000000 0.000000 180.000000 0.000000 0.000000 0.000000 "
  "0.000000 0.000000 0.000000\n"
  "3.000000 2.000000 3.000000 0.000000 0.000000 360.000000 0.000000 -180.000000 0.000000 "
  "0.000000 0.000000 0.000000\n";

static const char golden_skeleton_xml[] =
  "<odori-skeleton version=\"1\">\n"
  "<bone name=\"Hips\" parent=\"\" length=\"10\"/>\n"
  "<bone name=\"Chest\" parent=\"Hips\" length=\"10\"/>\n"
  "<bone name=\"Head\" parent=\"Chest\" length=\"5\"/>\n"
  "</odori-skeleton>\n";

/* Three frames whose numbers are all exact in float: at rest, the hips turned 180° about
 * Y, the chest turned 180° about X. */
static OdoriMotion *
make_golden_motion (void)
{
  static const float pos[3][3][3] = {
    { { 1, 2, 3 }, { 1, 12, 3 }, { 1, 18, 11 } },
    { { 2, 2, 3 }, { 2, 12, 3 }, { 2, 18, -5 } },
    { { 3, 2, 3 }, { 3, 12, 3 }, { 3, 6, -5 } },
  };
  static const float rot[3][3][4] = {
    { { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 } },
    { { 0, 1, 0, 0 }, { 0, 1, 0, 0 }, { 0, 1, 0, 0 } },
    { { 0, 0, 0, 1 }, { 1, 0, 0, 0 }, { 1, 0, 0, 0 } },
  };
  OdoriMotion *motion = odori_motion_new (3, 3, 0.04, NULL);

  odori_motion_set_segment_name (motion, 0, "Hips");
  odori_motion_set_segment_name (motion, 1, "Chest");
  odori_motion_set_segment_name (motion, 2, "Head");
  for (guint f = 0; f < 3; f++)
    for (guint s = 0; s < 3; s++)
      {
        memcpy (odori_motion_get (motion, f, s)->position, pos[f][s], sizeof pos[f][s]);
        memcpy (odori_motion_get (motion, f, s)->rotation, rot[f][s], sizeof rot[f][s]);
      }
  return motion;
}

static void
test_positions_root_all (void)
{
  g_autoptr(OdoriSkeleton) golden_skeleton = load_skeleton_xml ("golden.xml", golden_skeleton_xml);
  g_autoptr(OdoriSkeleton) prop_skeleton = load_skeleton_xml ("prop.xml", prop_skeleton_xml);
  g_autoptr(OdoriMotion) golden = make_golden_motion ();
  g_autoptr(OdoriMotion) rigid = make_rigid_motion (40);
  g_autoptr(OdoriMotion) prop = make_prop_motion (30);
  g_autoptr(OdoriMotion) loaded = NULL;
  g_autoptr(OdoriMotion) hierarchy = NULL;
  g_autofree char *odd_path = write_tmp ("odd-all.bvh", odd_bvh);
  g_autoptr(GError) error = NULL;
  char *text;

  /* ROOT: today's text. */
  text = write_to_string_mode (golden, golden_skeleton, ODORI_BVH_POSITIONS_ROOT);
  g_assert_cmpstr (text, ==, golden_root_bvh);
  g_free (text);
  text = write_to_string (golden, golden_skeleton);
  g_assert_cmpstr (text, ==, golden_root_bvh);
  g_free (text);
  {
    g_autofree char *text_root = write_to_string_mode (rigid, NULL, ODORI_BVH_POSITIONS_ROOT);
    g_autofree char *text_auto = write_to_string (rigid, NULL);

    g_assert_cmpstr (text_root, ==, text_auto);
    g_assert_cmpuint (count_occurrences (text_root, "CHANNELS 6 "), ==, 1);
  }
  text = write_to_string_mode (prop, prop_skeleton, ODORI_BVH_POSITIONS_ROOT);
  g_assert_cmpuint (count_occurrences (text, "CHANNELS 6 "), ==, 1);
  assert_joint_channels (text, "Fan", "Zrotation Xrotation Yrotation");
  g_free (text);

  /* ALL: every joint, rigid or not. */
  text = write_to_string_mode (prop, prop_skeleton, ODORI_BVH_POSITIONS_ALL);
  g_assert_cmpuint (count_occurrences (text, "CHANNELS 6 Xposition Yposition Zposition "
                                             "Zrotation Xrotation Yrotation\n"), ==, 5);
  g_assert_cmpuint (count_occurrences (text, "CHANNELS 3 "), ==, 0);
  loaded = save_and_load_mode (prop, prop_skeleton, ODORI_BVH_POSITIONS_ALL, "prop-all.bvh");
  g_assert_cmpuint (count_position_joints (loaded), ==, 4);
  g_assert_cmpfloat (max_position_error (prop, loaded), <=, print_tolerance (prop, text));
  g_free (text);

  /* A hierarchy keeps its channels in AUTO and ROOT; ALL puts position channels first
   * on the joints that have none. */
  hierarchy = odori_bvh_load (odd_path, NULL, &error);
  g_assert_no_error (error);
  {
    g_autofree char *text_root = write_to_string_mode (hierarchy, NULL, ODORI_BVH_POSITIONS_ROOT);
    g_autofree char *text_auto = write_to_string (hierarchy, NULL);
    g_autofree char *text_all = write_to_string_mode (hierarchy, NULL, ODORI_BVH_POSITIONS_ALL);
    g_autoptr(OdoriMotion) all = save_and_load_mode (hierarchy, NULL, ODORI_BVH_POSITIONS_ALL,
                                                     "odd-all-out.bvh");

    g_assert_cmpstr (text_root, ==, text_auto);
    g_assert_nonnull (strstr (text_all, "\tCHANNELS 6 Yrotation Xposition Xrotation Yposition "
                                        "Zrotation Zposition\n"));
    g_assert_nonnull (strstr (text_all, "\tCHANNELS 6 Xrotation Zposition Yrotation Xposition "
                                        "Zrotation Yposition\n"));
    assert_joint_channels (text_all, "tip joint", "Xposition Yposition Zposition Xrotation "
                                                  "Yrotation Zrotation");
    assert_joint_channels (text_all, "arm", "Xposition Yposition Zposition Zrotation Xrotation");
    g_assert_cmpuint (count_position_joints (all), ==, 3);
    assert_globals_equal (hierarchy, all, 1e-4, 0.01);
  }
}

/* AUTO on rigid skeletons: no position channels below the root, even when the BVA's
 * printed decimals make the offsets wobble by rounding. */
static void
test_positions_rigid (void)
{
  static const char *corpus[] = {
    "bvh-cmu-131/131_01.bvh", "bvh-cmu-cgspeed/12_03.bvh", "bvh-cmu-salsa/60_10_scaled.bvh",
    "bvh-cmu-salsa/61_10_scaled.bvh", "bvh-fair-zup/zombie.bvh", "bvh-rokoko/jesse_dance.bvh",
  };
  g_autofree char *dir = g_build_filename (tmp_dir, "sample", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) composed = NULL;
  g_autoptr(OdoriMotion) loaded = NULL;
  double size;

  /* The sample library's dance, composed without blends (a blend mixes two clips' world
   * positions, which does stretch bones for its frames). */
  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  composed = compose_file (dir, "sample.dds", 0);
  loaded = save_and_load (composed, NULL, "sample.bvh");
  size = frame0_size (composed);
  g_test_message ("sample.dds composed: %u joints below a root with position channels, "
                  "largest position error %g of size %g", count_position_joints (loaded),
                  max_position_error (composed, loaded), size);
  g_assert_cmpuint (count_position_joints (loaded), ==, 0);
  g_assert_cmpfloat (max_position_error (composed, loaded), <=, 1e-5 * size);
  remove_dir (dir);

  /* Corpus BVH → BVA → BVH on the file's own tree. */
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *path = odori_test_corpus_file (corpus[i]);
      g_autoptr(OdoriMotion) bvh = NULL;
      g_autoptr(OdoriMotion) bva = NULL;
      g_autoptr(OdoriMotion) back = NULL;
      g_autoptr(OdoriSkeleton) skeleton = NULL;
      double err;

      if (path == NULL)
        continue;
      bvh = odori_bvh_load (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (count_position_joints (bvh), ==, 0);
      skeleton = odori_skeleton_for_motion (bvh);
      g_assert_cmpint (skeleton->scheme, ==, ODORI_SKELETON_SCHEME_HIERARCHY);
      bva = through_bva (bvh, "corpus.bva");
      g_assert_false (bva->has_hierarchy);
      back = save_and_load (bva, skeleton, "corpus.bvh");
      size = frame0_size (bvh);
      err = max_position_error (bva, back);
      g_test_message ("%s -> BVA -> BVH: %u joints below a root with position channels, "
                      "largest position error %g of size %g", corpus[i],
                      count_position_joints (back), err, size);
      g_assert_cmpuint (count_position_joints (back), ==, 0);
      g_assert_cmpuint (back->n_segments, ==, bvh->n_segments);
      g_assert_cmpfloat (err, <=, 1e-5 * size);
    }
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
  g_test_add_func ("/bvh-writer/positions/markers", test_positions_markers);
  g_test_add_func ("/bvh-writer/positions/prop", test_positions_prop);
  g_test_add_func ("/bvh-writer/positions/stretch", test_positions_stretch);
  g_test_add_func ("/bvh-writer/positions/root-all", test_positions_root_all);
  g_test_add_func ("/bvh-writer/positions/rigid", test_positions_rigid);
  g_test_add_func ("/bvh-writer/empty", test_empty);
  g_test_add_func ("/bvh-writer/save-failure", test_save_failure);

  ret = g_test_run ();
  remove_tmp_dir ();
  g_free (tmp_dir);
  return ret;
}
