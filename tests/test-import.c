/* test-import.c: captures retargeted into a library, shows added to and removed from
 * motion.dat (DESIGN.md "Bringing a capture into a library", docs/import.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <sys/wait.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-index.h"
#include "odori-library-import.h"
#include "odori-sample.h"
#include "odori-score.h"
#include "odori-skeleton.h"

#include "compose-util.h"
#include "test-corpus.h"

/* Helpers */

/* A fresh directory holding the sample library. */
static char *
sample_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-import-XXXXXX", &error);

  g_assert_no_error (error);
  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&dir);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

static char *
read_file (const char *path,
           gsize      *len)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  g_assert_true (g_file_get_contents (path, &data, len, &error));
  g_assert_no_error (error);
  return data;
}

static void
assert_same_file (const char *a,
                  const char *b)
{
  gsize la, lb;
  g_autofree char *da = read_file (a, &la);
  g_autofree char *db = read_file (b, &lb);

  g_assert_cmpmem (da, la, db, lb);
}

static OdoriMotion *
load_reference (const char *index_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = odori_index_load (index_path, &error);
  OdoriMotion *reference;

  g_assert_no_error (error);
  reference = odori_library_load_reference (index, NULL, &error);
  g_assert_no_error (error);
  return reference;
}

/* Retargets CAPTURE_PATH onto the library of INDEX_PATH with the guessed map. */
static OdoriMotion *
import_motion (const char          *index_path,
               const char          *capture_path,
               OdoriBoneMap       **map_out,
               OdoriRetargetReport *report)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) reference = load_reference (index_path);
  g_autoptr(OdoriMotion) capture = odori_format_load_motion (capture_path, NULL, &error);
  g_autoptr(OdoriBoneMap) map = NULL;
  OdoriMotion *motion;

  g_assert_no_error (error);
  map = odori_bone_map_guess (capture, NULL, reference, NULL);
  motion = odori_library_retarget (capture, NULL, reference, NULL, map, ODORI_UP_AUTO, report, &error);
  g_assert_no_error (error);
  g_assert_nonnull (motion);
  if (map_out != NULL)
    *map_out = g_steal_pointer (&map);
  return motion;
}

static const char *
source_of (OdoriBoneMap *map,
           const char   *sensor)
{
  for (guint s = 0; s < odori_bone_map_get_n_sensors (map); s++)
    if (strcmp (odori_bone_map_get_sensor (map, s), sensor) == 0)
      return odori_bone_map_get_source (map, s);
  g_assert_not_reached ();
  return NULL;
}

/* Runs odori-cli (under timeout 60) and returns its exit status. */
static int
run_cli (char       **out,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("ODORI_CLI");
  va_list args;
  int status = 0;

  g_assert_nonnull (cli);
  g_clear_pointer (out, g_free);
  g_clear_pointer (err, g_free);
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) "120");
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* Roles */

typedef struct
{
  const char    *names[8];
  OdoriBoneRole  roles[8];
} RoleCase;

static void
test_roles (void)
{
  static const RoleCase cases[] = {
    /* Biovision */
    { { "Hips", "Chest", "LeftCollar", "LeftUpArm", "LeftLowArm", "RightHand", "LeftUpLeg", "RightLowLeg" },
      { ODORI_BONE_ROLE_HIPS, ODORI_BONE_ROLE_CHEST, ODORI_BONE_ROLE_LEFT_COLLAR, ODORI_BONE_ROLE_LEFT_UPPER_ARM,
        ODORI_BONE_ROLE_LEFT_FOREARM, ODORI_BONE_ROLE_RIGHT_HAND, ODORI_BONE_ROLE_LEFT_THIGH,
        ODORI_BONE_ROLE_RIGHT_SHIN } },
    /* CMU, MotionBuilder style: LeftShoulder is the collar because LeftArm exists */
    { { "LHipJoint", "LowerBack", "Spine1", "Neck1", "LeftShoulder", "LeftArm", "LeftLeg", "LeftToeBase" },
      { ODORI_BONE_ROLE_NONE, ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_NECK,
        ODORI_BONE_ROLE_LEFT_COLLAR, ODORI_BONE_ROLE_LEFT_UPPER_ARM, ODORI_BONE_ROLE_LEFT_SHIN,
        ODORI_BONE_ROLE_LEFT_TOE } },
    /* CMU's own joint names: the joint named LeftShoulder starts the upper arm */
    { { "LeftCollar", "LeftShoulder", "LeftElbow", "LeftWrist", "LeftHip", "LeftKnee", "LeftAnkle", "lhand" },
      { ODORI_BONE_ROLE_LEFT_COLLAR, ODORI_BONE_ROLE_LEFT_UPPER_ARM, ODORI_BONE_ROLE_LEFT_FOREARM,
        ODORI_BONE_ROLE_LEFT_HAND, ODORI_BONE_ROLE_LEFT_THIGH, ODORI_BONE_ROLE_LEFT_SHIN,
        ODORI_BONE_ROLE_LEFT_FOOT, ODORI_BONE_ROLE_LEFT_HAND } },
    /* Mixamo, with and without the namespace colon */
    { { "mixamorig:Hips", "mixamorig:Spine2", "mixamorig:LeftShoulder", "mixamorig:LeftArm",
        "mixamorig:LeftForeArm", "mixamorig_RightUpLeg", "mixamorig:LeftHandIndex1", "mixamorig:HeadTop_End" },
      { ODORI_BONE_ROLE_HIPS, ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_LEFT_COLLAR, ODORI_BONE_ROLE_LEFT_UPPER_ARM,
        ODORI_BONE_ROLE_LEFT_FOREARM, ODORI_BONE_ROLE_RIGHT_THIGH, ODORI_BONE_ROLE_NONE,
        ODORI_BONE_ROLE_HEAD } },
    /* _L/_R, .L/.R (a game-engine rig) */
    { { "upperarm_L", "Thigh.R", "clavicle_L", "calf_R", "hand_L", "foot_R", "spine_01", "pelvis" },
      { ODORI_BONE_ROLE_LEFT_UPPER_ARM, ODORI_BONE_ROLE_RIGHT_THIGH, ODORI_BONE_ROLE_LEFT_COLLAR,
        ODORI_BONE_ROLE_RIGHT_SHIN, ODORI_BONE_ROLE_LEFT_HAND, ODORI_BONE_ROLE_RIGHT_FOOT,
        ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_HIPS } },
    /* l/r prefixes (salsa: lShldr is the upper arm, no LeftArm there), NI joints */
    { { "lCollar", "lShldr", "rForeArm", "rButtock", "lThigh", "rShin", "L_ELBOW", "R_HIP" },
      { ODORI_BONE_ROLE_LEFT_COLLAR, ODORI_BONE_ROLE_LEFT_UPPER_ARM, ODORI_BONE_ROLE_RIGHT_FOREARM,
        ODORI_BONE_ROLE_NONE, ODORI_BONE_ROLE_LEFT_THIGH, ODORI_BONE_ROLE_RIGHT_SHIN,
        ODORI_BONE_ROLE_LEFT_FOREARM, ODORI_BONE_ROLE_RIGHT_THIGH } },
    { { "L_SHLDR", "L_ELBOW", "L_WRIST", "L_HIP", "L_KNEE", "L_ANKLE", "NECK", "HEAD" },
      { ODORI_BONE_ROLE_LEFT_UPPER_ARM, ODORI_BONE_ROLE_LEFT_FOREARM, ODORI_BONE_ROLE_LEFT_HAND,
        ODORI_BONE_ROLE_LEFT_THIGH, ODORI_BONE_ROLE_LEFT_SHIN, ODORI_BONE_ROLE_LEFT_FOOT,
        ODORI_BONE_ROLE_NECK, ODORI_BONE_ROLE_HEAD } },
    /* salsa's torso and fingers; NI torso */
    { { "hip", "abdomen", "chest", "leftEye", "rMid1", "lThumb1", "TORSO", "PELVIS" },
      { ODORI_BONE_ROLE_HIPS, ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_CHEST, ODORI_BONE_ROLE_NONE,
        ODORI_BONE_ROLE_NONE, ODORI_BONE_ROLE_NONE, ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_HIPS } },
    /* Rokoko and Bip-style names; a name that only starts with L is no side */
    { { "LeftInHandIndex", "RightHandEnd", "Bip01 L Thigh", "Bip01 R Calf", "lowerback", "lowerneck", "LThumb", "Head" },
      { ODORI_BONE_ROLE_NONE, ODORI_BONE_ROLE_RIGHT_HAND, ODORI_BONE_ROLE_LEFT_THIGH,
        ODORI_BONE_ROLE_RIGHT_SHIN, ODORI_BONE_ROLE_SPINE, ODORI_BONE_ROLE_NECK, ODORI_BONE_ROLE_NONE,
        ODORI_BONE_ROLE_HEAD } },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      OdoriBoneRole roles[8];

      odori_bone_roles_classify (cases[c].names, 8, roles);
      for (guint i = 0; i < 8; i++)
        {
          if (roles[i] != cases[c].roles[i])
            g_test_message ("%s: %s, expected %s", cases[c].names[i],
                            odori_bone_role_to_string (roles[i]),
                            odori_bone_role_to_string (cases[c].roles[i]));
          g_assert_cmpstr (odori_bone_role_to_string (roles[i]), ==,
                           odori_bone_role_to_string (cases[c].roles[i]));
        }
    }
}

/* The bone map of the corpus CMU files on the sample's Biovision skeleton */

static void
test_map_cmu (void)
{
  g_autofree char *own = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *mb = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autoptr(OdoriBoneMap) map = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  OdoriRetargetReport report;

  if (own == NULL)
    return;
  mb = odori_test_corpus_file ("bvh-cmu-cgspeed/12_03.bvh");
  if (mb == NULL)
    return;
  dir = sample_dir ();
  index_path = g_build_filename (dir, "motion.dat", NULL);

  motion = import_motion (index_path, own, &map, &report);
  g_assert_cmpstr (source_of (map, "Hips"), ==, "Hips");
  /* lowerback sits on the hips (OFFSET 0): the chest starts at the first real spine joint */
  g_assert_cmpstr (source_of (map, "Chest"), ==, "Chest");
  g_assert_cmpstr (source_of (map, "Neck"), ==, "lowerneck");
  g_assert_cmpstr (source_of (map, "Head"), ==, "Head");
  g_assert_cmpstr (source_of (map, "LeftCollar"), ==, "LeftCollar");
  g_assert_cmpstr (source_of (map, "LeftUpArm"), ==, "LeftShoulder");
  g_assert_cmpstr (source_of (map, "LeftLowArm"), ==, "LeftElbow");
  g_assert_cmpstr (source_of (map, "LeftHand"), ==, "LeftWrist");
  g_assert_cmpstr (source_of (map, "RightUpLeg"), ==, "RightHip");
  g_assert_cmpstr (source_of (map, "RightLowLeg"), ==, "RightKnee");
  g_assert_cmpstr (source_of (map, "RightFoot"), ==, "RightAnkle");
  g_assert_cmpint (report.up, ==, ODORI_UP_Y);
  g_assert_true (report.up_guessed);
  g_assert_cmpfloat (report.max_bone_error, <, 0.01);
  g_clear_pointer (&map, odori_bone_map_unref);
  g_clear_pointer (&motion, odori_motion_unref);

  motion = import_motion (index_path, mb, &map, &report);
  g_assert_cmpstr (source_of (map, "Chest"), ==, "Spine");
  g_assert_cmpstr (source_of (map, "Neck"), ==, "Neck");
  g_assert_cmpstr (source_of (map, "LeftCollar"), ==, "LeftShoulder");
  g_assert_cmpstr (source_of (map, "LeftUpArm"), ==, "LeftArm");
  g_assert_cmpstr (source_of (map, "LeftLowArm"), ==, "LeftForeArm");
  g_assert_cmpstr (source_of (map, "LeftUpLeg"), ==, "LeftUpLeg");
  g_assert_cmpstr (source_of (map, "LeftLowLeg"), ==, "LeftLeg");
  g_assert_cmpstr (source_of (map, "LeftFoot"), ==, "LeftFoot");
  g_assert_cmpfloat (report.max_bone_error, <, 0.01);
  remove_dir (dir);
}

/* (a) Importing changes no composition of the library's own scores */

static void
test_sample_unchanged (void)
{
  g_autofree char *capture = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *score_path = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;

  if (capture == NULL)
    return;
  dir = sample_dir ();
  index_path = g_build_filename (dir, "motion.dat", NULL);
  score_path = g_build_filename (dir, "sample.dds", NULL);
  out = g_build_filename (dir, "composed.out.bva", NULL);
  before = odori_test_compose_bva (score_path, out);

  motion = import_motion (index_path, capture, NULL, NULL);
  g_assert_true (odori_library_add_show (index_path, "dance", "CMU", "CMU 131", motion, NULL, &error));
  g_assert_no_error (error);
  after = odori_test_compose_bva (score_path, out);
  g_assert_true (g_bytes_equal (before, after));
  remove_dir (dir);
}

/* (b) A score of the imported symbol: the library's sensors, its bone lengths, and every
 * bone along the captured one */

/* The child continuing PARENT's bone, as the importer chooses it: the only child, else the
 * one on the body's axis. */
static int
bone_end (const OdoriSkeleton *skeleton,
          guint                parent)
{
  int only = -1, centre = -1, n = 0, n_centre = 0;

  for (guint b = 0; b < skeleton->n_bones; b++)
    if (skeleton->bones[b].parent == (int) parent)
      {
        const char *name = skeleton->bones[b].name;

        only = b;
        n++;
        if (!g_str_has_prefix (name, "Left") && !g_str_has_prefix (name, "Right"))
          {
            centre = b;
            n_centre++;
          }
      }
  return n == 1 ? only : n_centre == 1 ? centre : -1;
}

static void
write_symbol_score (const char *dir,
                    const char *score_path,
                    const char *symbol)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sample_path = g_build_filename (dir, "sample.dds", NULL);
  g_autoptr(OdoriScore) sample = odori_score_load (sample_path, &error);
  g_autoptr(GString) text = g_string_new ("# Title: import\n# Index: motion.dat\n");

  g_assert_no_error (error);
  for (guint p = 0; p < sample->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (sample->parts, p);
      g_autofree char *sensors = g_strjoinv (",", part->sensors);

      g_string_append_printf (text, "%s: %s\n1: %s\n", part->code, sensors, symbol);
    }
  g_assert_true (g_file_set_contents (score_path, text->str, text->len, &error));
  g_assert_no_error (error);
}

static void
test_composed_bones (void)
{
  g_autofree char *capture_path = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *score_path = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  g_autoptr(OdoriMotion) capture = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriBoneMap) map = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(GError) error = NULL;
  OdoriRetargetReport report;
  OdoriMotion *composed;
  guint n_checked = 0;

  if (capture_path == NULL)
    return;
  dir = sample_dir ();
  index_path = g_build_filename (dir, "motion.dat", NULL);
  score_path = g_build_filename (dir, "import.dds", NULL);
  reference = load_reference (index_path);
  capture = odori_bvh_load (capture_path, NULL, &error);
  g_assert_no_error (error);
  motion = import_motion (index_path, capture_path, &map, &report);
  g_assert_cmpint (report.up, ==, ODORI_UP_Y);
  g_assert_true (odori_library_add_show (index_path, "imported", "CMU", NULL, motion, NULL, &error));
  g_assert_no_error (error);

  write_symbol_score (dir, score_path, "CMU." ODORI_LIBRARY_IMPORT_MOTION_CODE);
  score = odori_score_load (score_path, &error);
  g_assert_no_error (error);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  composed = odori_composer_compose (composer, &error);
  g_assert_no_error (error);

  /* the library's sensors, in its order, nothing else; the capture's frames */
  g_assert_cmpuint (composed->n_segments, ==, reference->n_segments);
  for (guint s = 0; s < reference->n_segments; s++)
    g_assert_cmpstr (composed->segments[s].name, ==, reference->segments[s].name);
  g_assert_cmpuint (composed->n_frames, ==, capture->n_frames);

  skeleton = odori_skeleton_for_motion (reference);
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      int parent = skeleton->bones[b].parent;
      int s, p, end;
      const char *js, *jp;
      double rest;

      if (parent < 0)
        continue;
      s = odori_motion_find_segment (composed, skeleton->bones[b].name);
      p = odori_motion_find_segment (composed, skeleton->bones[parent].name);
      g_assert_cmpint (s, >=, 0);
      g_assert_cmpint (p, >=, 0);
      rest = glm_vec3_distance (odori_motion_get (reference, 0, s)->position,
                                odori_motion_get (reference, 0, p)->position);
      end = bone_end (skeleton, parent);
      js = source_of (map, skeleton->bones[b].name);
      jp = source_of (map, skeleton->bones[parent].name);
      for (guint f = 0; f < composed->n_frames; f++)
        {
          vec3 lib;
          double length;

          glm_vec3_sub (odori_motion_get (composed, f, s)->position,
                        odori_motion_get (composed, f, p)->position, lib);
          length = glm_vec3_norm (lib);
          /* the library's bone length at every frame */
          g_assert_cmpfloat_with_epsilon (length, rest, 1e-4 * rest);
          if (end == (int) b && js != NULL && jp != NULL)
            {
              int cj = odori_motion_find_segment (capture, js), cp = odori_motion_find_segment (capture, jp);
              vec3 cap;
              double angle;

              glm_vec3_sub (odori_motion_get (capture, f, cj)->position,
                            odori_motion_get (capture, f, cp)->position, cap);
              angle = acos (CLAMP (glm_vec3_dot (lib, cap) / (length * glm_vec3_norm (cap)), -1.0, 1.0));
              g_assert_cmpfloat (angle * 180 / G_PI, <, 5.0);
              n_checked++;
            }
        }
    }
  /* every bone of the sample skeleton except the hips' legs and the chest's collars */
  g_assert_cmpuint (n_checked, ==, 13 * capture->n_frames);
  remove_dir (dir);
}

/* (c) remove-show gives motion.dat back byte for byte; motion.dat~ keeps the previous */

/* OUT has the bone map line "  JOINT … → SENSOR". */
static void
assert_map_line (const char *out,
                 const char *joint,
                 const char *sensor)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  g_autofree char *start = g_strdup_printf ("  %s ", joint);
  g_autofree char *end = g_strdup_printf (" → %s", sensor);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], start) && g_str_has_suffix (lines[i], end))
      return;
  g_error ("no map line %s → %s in:\n%s", joint, sensor, out);
}

static void
test_remove_restores (void)
{
  g_autofree char *capture = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *backup = NULL;
  g_autofree char *original = NULL;
  g_autofree char *imported = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *show_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *symbol;

  if (capture == NULL)
    return;
  dir = sample_dir ();
  index_path = g_build_filename (dir, "motion.dat", NULL);
  backup = g_build_filename (dir, "motion.dat~", NULL);
  original = g_build_filename (dir, "original.dat", NULL);
  imported = g_build_filename (dir, "imported.dat", NULL);
  {
    gsize len;
    g_autofree char *bytes = read_file (index_path, &len);

    g_assert_true (g_file_set_contents (original, bytes, len, &error));
    g_assert_no_error (error);
  }

  /* into an existing class, with the API */
  motion = import_motion (index_path, capture, NULL, NULL);
  g_assert_true (odori_library_add_show (index_path, "gym", "CMU", "歩く Walk", motion, &file_name, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (file_name, ==, "cmu.bva");
  show_path = g_build_filename (dir, file_name, NULL);
  assert_same_file (backup, original);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  symbol = odori_index_lookup (index, "CMU." ODORI_LIBRARY_IMPORT_MOTION_CODE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (symbol->first, ==, 1);
  g_assert_cmpuint (symbol->last, ==, motion->n_frames);
  g_assert_cmpstr (symbol->show->klass->code, ==, "gym");
  g_assert_cmpstr (symbol->show->name, ==, "歩く Walk");
  {
    gsize len;
    g_autofree char *bytes = read_file (index_path, &len);

    g_assert_true (g_file_set_contents (imported, bytes, len, &error));
    g_assert_no_error (error);
  }
  g_assert_true (odori_library_remove_show (index_path, "CMU", NULL, &error));
  g_assert_no_error (error);
  assert_same_file (index_path, original);
  assert_same_file (backup, imported);
  /* the show file stays */
  g_assert_true (g_file_test (show_path, G_FILE_TEST_IS_REGULAR));

  /* into a new class, with the CLI: the class goes with its only show */
  g_assert_cmpint (run_cli (&out, &err, "import", capture, "--library", index_path, "--class", "imported",
                            "--show", "CMU2", "--name", "CMU 131", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Symbol: CMU2.M1"));
  assert_map_line (out, "LeftShoulder", "LeftUpArm");
  assert_map_line (out, "lowerneck", "Neck");
  g_assert_nonnull (strstr (out, "without a source (they follow their parent): none"));
  g_assert_true (g_file_test (backup, G_FILE_TEST_IS_REGULAR));
  assert_same_file (backup, original);
  g_assert_nonnull (strstr (out, "Wrote cmu2.bva (994 frames)"));
  g_assert_cmpint (run_cli (&out, &err, "remove-show", "--library", index_path, "CMU2", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "cmu2.bva is left on disk"));
  assert_same_file (index_path, original);
  g_assert_true (g_file_test (backup, G_FILE_TEST_IS_REGULAR));

  /* errors: an unknown show (1, file named), a missing option (2) */
  g_assert_cmpint (run_cli (&out, &err, "remove-show", "--library", index_path, "NOPE", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (err, index_path));
  g_assert_nonnull (strstr (err, "NOPE"));
  g_assert_cmpint (run_cli (&out, &err, "import", capture, "--library", index_path, "--class", "x", NULL), ==, 2);
  g_assert_cmpint (run_cli (&out, &err, "import", capture, "--library", index_path, "--class", "x",
                            "--show", "Y", "--up", "sideways", NULL), ==, 2);
  assert_same_file (index_path, original);
  remove_dir (dir);
}

/* --map corrects the guessed map; a bad map file is an input error naming its line */
static void
test_cli_map (void)
{
  g_autofree char *capture = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *map_path = NULL;
  g_autofree char *bad_path = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  gsize before_len, after_len;

  if (capture == NULL)
    return;
  dir = sample_dir ();
  index_path = g_build_filename (dir, "motion.dat", NULL);
  map_path = g_build_filename (dir, "fix.map", NULL);
  bad_path = g_build_filename (dir, "bad.map", NULL);
  g_assert_true (g_file_set_contents (map_path, "# no collars\n- LeftCollar\nRightCollar -\n"
                                      "Chest2\tChest\n", -1, &error));
  g_assert_true (g_file_set_contents (bad_path, "Hips Hips\nChest3 Chest\n", -1, &error));
  g_assert_no_error (error);

  before = read_file (index_path, &before_len);
  g_assert_cmpint (run_cli (&out, &err, "import", capture, "--library", index_path, "--class", "imported",
                            "--show", "BAD", "--map", bad_path, NULL), ==, 1);
  g_assert_true (g_str_has_prefix (err, bad_path));
  g_assert_nonnull (strstr (err, ":2: the capture has no joint \"Chest3\""));
  after = read_file (index_path, &after_len);
  g_assert_cmpmem (after, after_len, before, before_len);

  g_assert_cmpint (run_cli (&out, &err, "import", capture, "--library", index_path, "--class", "imported",
                            "--show", "FIX", "--map", map_path, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "without a source (they follow their parent): LeftCollar, RightCollar\n"));
  assert_map_line (out, "Chest2", "Chest");
  assert_map_line (out, "LeftShoulder", "LeftUpArm");
  remove_dir (dir);
}

/* (d) Shift_JIS and CRLF kept; a duplicate show code refused */

static void
test_shift_jis_crlf (void)
{
  g_autofree char *dir = sample_dir ();
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *utf8 = NULL;
  g_autofree char *crlf = NULL;
  g_autofree char *sjis = NULL;
  g_autofree char *after = NULL;
  g_autofree char *file_name = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriIndex) old_index = NULL;
  const char *name = "輸入 Imported";
  gsize sjis_len, after_len, prefix;
  const char *end_class;

  /* the sample's motion.dat in Shift_JIS with CRLF line ends */
  utf8 = read_file (index_path, NULL);
  {
    /* "Plié": no é in Shift_JIS */
    g_auto(GStrv) parts = g_strsplit (utf8, "é", -1);

    g_free (utf8);
    utf8 = g_strjoinv ("e", parts);
  }
  lines = g_strsplit (utf8, "\n", -1);
  crlf = g_strjoinv ("\r\n", lines);
  sjis = odori_text_encode (crlf, -1, ODORI_ENCODING_SHIFT_JIS, &sjis_len, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (index_path, sjis, sjis_len, &error));
  g_assert_no_error (error);
  old_index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (old_index->encoding, ==, ODORI_ENCODING_SHIFT_JIS);

  /* the library's own show, retargeted onto itself */
  reference = load_reference (index_path);
  motion = odori_library_retarget (reference, NULL, reference, NULL, NULL, ODORI_UP_AUTO, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (odori_library_add_show (index_path, "dance", "SJ", name, motion, &file_name, &error));
  g_assert_no_error (error);

  /* every old byte is there; the new lines sit before the class's end, in CRLF */
  after = read_file (index_path, &after_len);
  end_class = strstr (sjis, "end class");
  g_assert_nonnull (end_class);
  prefix = end_class - sjis;
  g_assert_cmpmem (after, prefix, sjis, prefix);
  g_assert_cmpmem (after + after_len - (sjis_len - prefix), sjis_len - prefix, sjis + prefix, sjis_len - prefix);
  {
    g_autofree char *block = g_strdup_printf ("  begin show name=\"%s\" code=\"SJ\" file=\"sj.bva\"\r\n"
                                              "    motion name=\"%s\" code=\"M1\" frame=1-%u\r\n"
                                              "  end show\r\n", name, name, motion->n_frames);
    g_autofree char *encoded = odori_text_encode (block, -1, ODORI_ENCODING_SHIFT_JIS, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpmem (after + prefix, after_len - sjis_len, encoded, strlen (encoded));
  }
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (index->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpstr (odori_index_lookup (index, "SJ.M1", &error)->show->name, ==, name);

  /* a show code already there: refused, nothing written */
  g_assert_false (odori_library_add_show (index_path, "gym", "TE", "again", motion, NULL, &error));
  g_assert_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_EXISTS);
  g_assert_true (g_str_has_prefix (error->message, index_path));
  g_clear_error (&error);
  g_assert_false (odori_library_add_show (index_path, "gym", "SJ", "again", motion, NULL, &error));
  g_assert_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_EXISTS);
  g_clear_error (&error);
  {
    g_autofree char *te = g_build_filename (dir, "te-2.bva", NULL);
    g_autofree char *sj = g_build_filename (dir, "sj-2.bva", NULL);
    gsize len;
    g_autofree char *now = read_file (index_path, &len);

    g_assert_false (g_file_test (te, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (sj, G_FILE_TEST_EXISTS));
    g_assert_cmpmem (now, len, after, after_len);
  }
  /* a code a symbol could not name */
  g_assert_false (odori_library_add_show (index_path, "gym", "A.B", NULL, motion, NULL, &error));
  g_assert_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_CODE);
  g_clear_error (&error);

  /* and back */
  g_assert_true (odori_library_remove_show (index_path, "SJ", NULL, &error));
  g_assert_no_error (error);
  {
    gsize len;
    g_autofree char *now = read_file (index_path, &len);

    g_assert_cmpmem (now, len, sjis, sjis_len);
  }
  remove_dir (dir);
}

/* rename-show: only the show's begin line changes; motion.dat~ keeps the previous */
static void
test_rename_show (void)
{
  g_autofree char *dir = sample_dir ();
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *backup = g_build_filename (dir, "motion.dat~", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  gsize before_len, after_len, kept_len;

  before = read_file (index_path, &before_len);
  g_assert_true (odori_library_rename_show (index_path, "AS", "歩 \"Steps\"", &error));
  g_assert_no_error (error);
  after = read_file (index_path, &after_len);
  {
    g_auto(GStrv) pieces = g_strsplit (before, "  begin show name=\"足の運び Steps\" code=\"AS\"", -1);

    g_assert_cmpuint (g_strv_length (pieces), ==, 2);
    expected = g_strjoinv ("  begin show name=\"歩 'Steps'\" code=\"AS\"", pieces);
  }
  g_assert_cmpstr (after, ==, expected);
  kept = read_file (backup, &kept_len);
  g_assert_cmpmem (kept, kept_len, before, before_len);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (odori_index_lookup (index, "AS.S1", NULL)->show->name, ==, "歩 'Steps'");

  g_assert_false (odori_library_rename_show (index_path, "NOPE", "x", &error));
  g_assert_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_NO_SHOW);
  g_assert_true (g_str_has_prefix (error->message, index_path));
  remove_dir (dir);
}

/* A file without a final line end, and a class created at its end */
static void
test_no_final_newline (void)
{
  g_autofree char *dir = sample_dir ();
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *text = NULL;
  g_autofree char *after = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  gsize len, after_len;

  text = read_file (index_path, &len);
  g_assert_cmpint (text[len - 1], ==, '\n');
  len--;
  g_assert_true (g_file_set_contents (index_path, text, len, &error));
  g_assert_no_error (error);
  reference = load_reference (index_path);
  motion = odori_library_retarget (reference, NULL, reference, NULL, NULL, ODORI_UP_Y, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (odori_library_add_show (index_path, "new", "NW", NULL, motion, NULL, &error));
  g_assert_no_error (error);
  after = read_file (index_path, &after_len);
  g_assert_cmpmem (after, len, text, len);
  g_assert_true (g_str_has_suffix (after, "\nbegin class name=\"new\" code=\"new\"\n"
                                          "  begin show name=\"NW\" code=\"NW\" file=\"nw.bva\"\n"
                                          "    motion name=\"NW\" code=\"M1\" frame=1-527\n"
                                          "  end show\n"
                                          "end class"));
  g_assert_true (odori_library_remove_show (index_path, "NW", NULL, &error));
  g_assert_no_error (error);
  g_free (after);
  after = read_file (index_path, &after_len);
  g_assert_cmpmem (after, after_len, text, len);
  remove_dir (dir);
}

/* (e) A generated capture with known rotations: exact numbers */

static OdoriMotion *
generated_library (void)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *lib = odori_motion_new (3, 1, 1.0 / 30, &error);
  const char *names[] = { "Hips", "Chest", "Head" };

  g_assert_no_error (error);
  for (guint s = 0; s < 3; s++)
    {
      OdoriTransform *t = odori_motion_get (lib, 0, s);

      odori_motion_set_segment_name (lib, s, names[s]);
      for (guint k = 0; k < 3; k++)
        lib->segments[s].units[k] = ODORI_UNIT_CENTIMETERS;
      t->position[1] = 40 + 10 * s;
    }
  /* the chest's own frame is turned: its bone runs along its local −Z */
  glm_quatv (odori_motion_get (lib, 0, 1)->rotation, GLM_PI_2f, (vec3) { 1, 0, 0 });
  return lib;
}

static OdoriMotion *
generated_capture (void)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *cap = odori_motion_new (3, 2, 0.01, &error);
  const char *names[] = { "pelvis", "spine", "head" };

  g_assert_no_error (error);
  cap->has_hierarchy = TRUE;
  for (guint s = 0; s < 3; s++)
    {
      odori_motion_set_segment_name (cap, s, names[s]);
      cap->segments[s].parent = (int) s - 1;
      cap->segments[s].offset[1] = s == 0 ? 0 : 5;
    }
  cap->segments[2].has_end_site = TRUE;
  cap->segments[2].end_site[1] = 3;
  for (guint f = 0; f < 2; f++)
    {
      versor spine;

      /* frame 2: the hips 2 to the side, the spine turned 90° about Z */
      glm_quatv (spine, f == 0 ? 0 : GLM_PI_2f, (vec3) { 0, 0, 1 });
      glm_vec3_copy ((vec3) { 2.0f * f, 20, 0 }, odori_motion_get (cap, f, 0)->position);
      glm_quat_copy (spine, odori_motion_get (cap, f, 1)->rotation);
      glm_quat_copy (spine, odori_motion_get (cap, f, 2)->rotation);
      glm_vec3_copy ((vec3) { 2.0f * f, 25, 0 }, odori_motion_get (cap, f, 1)->position);
      glm_quat_rotatev (spine, (vec3) { 0, 5, 0 }, odori_motion_get (cap, f, 2)->position);
      glm_vec3_add (odori_motion_get (cap, f, 2)->position, odori_motion_get (cap, f, 1)->position,
                    odori_motion_get (cap, f, 2)->position);
    }
  return cap;
}

static void
assert_vec3 (const float *got,
             float        x,
             float        y,
             float        z)
{
  g_assert_cmpfloat_with_epsilon (got[0], x, 1e-4);
  g_assert_cmpfloat_with_epsilon (got[1], y, 1e-4);
  g_assert_cmpfloat_with_epsilon (got[2], z, 1e-4);
}

static void
assert_quat (const float  *got,
             const versor  expected)
{
  g_assert_cmpfloat (odori_quat_angle_deg (got, expected), <, 1e-3);
}

static void
test_generated (void)
{
  g_autoptr(OdoriMotion) lib = generated_library ();
  g_autoptr(OdoriMotion) cap = generated_capture ();
  g_autoptr(OdoriMotion) out = NULL;
  g_autoptr(OdoriBoneMap) map = NULL;
  g_autoptr(GError) error = NULL;
  OdoriRetargetReport report;
  versor rx, rz, both;

  map = odori_bone_map_guess (cap, NULL, lib, NULL);
  g_assert_cmpstr (odori_bone_map_get_source (map, 0), ==, "pelvis");
  g_assert_cmpstr (odori_bone_map_get_source (map, 1), ==, "spine");
  g_assert_cmpstr (odori_bone_map_get_source (map, 2), ==, "head");

  out = odori_library_retarget (cap, NULL, lib, NULL, map, ODORI_UP_AUTO, &report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_segments, ==, 3);
  g_assert_cmpuint (out->n_frames, ==, 2);
  g_assert_cmpfloat (out->frame_time, ==, 0.01);
  g_assert_cmpint (out->segments[1].units[0], ==, ODORI_UNIT_CENTIMETERS);
  g_assert_cmpint (report.up, ==, ODORI_UP_Y);
  /* no feet: hip heights above the floor, 40 / 20 */
  g_assert_cmpfloat_with_epsilon (report.scale, 2.0, 1e-6);
  g_assert_false (report.scale_guessed);

  glm_quatv (rx, GLM_PI_2f, (vec3) { 1, 0, 0 });
  glm_quatv (rz, GLM_PI_2f, (vec3) { 0, 0, 1 });
  glm_quat_mul (rz, rx, both);
  /* frame 1: the library's first frame (Q turns the chest's −Z onto the spine's +Y) */
  assert_vec3 (odori_motion_get (out, 0, 0)->position, 0, 40, 0);
  assert_vec3 (odori_motion_get (out, 0, 1)->position, 0, 50, 0);
  assert_vec3 (odori_motion_get (out, 0, 2)->position, 0, 60, 0);
  assert_quat (odori_motion_get (out, 0, 0)->rotation, GLM_QUAT_IDENTITY);
  assert_quat (odori_motion_get (out, 0, 1)->rotation, rx);
  /* the head, a leaf, continues the chest's bone (its −Z) onto the End Site's +Y */
  assert_quat (odori_motion_get (out, 0, 2)->rotation, rx);
  /* frame 2: the root path doubled, the chest (10 long) turned 90° about Z, R = R_spine · Q */
  assert_vec3 (odori_motion_get (out, 1, 0)->position, 4, 40, 0);
  assert_vec3 (odori_motion_get (out, 1, 1)->position, 4, 50, 0);
  assert_vec3 (odori_motion_get (out, 1, 2)->position, -6, 50, 0);
  assert_quat (odori_motion_get (out, 1, 1)->rotation, both);
  assert_quat (odori_motion_get (out, 1, 2)->rotation, both);
  g_assert_cmpfloat (report.max_bone_error, <, 1e-3);

  /* the same capture lying on its back, Z up: the same result */
  {
    g_autoptr(OdoriMotion) zup = odori_motion_copy (cap);
    g_autoptr(OdoriMotion) out2 = NULL;
    versor turn;

    /* Y → Z: (x, y, z) → (x, −z, y), a quarter turn about X */
    glm_quatv (turn, GLM_PI_2f, (vec3) { 1, 0, 0 });
    for (guint f = 0; f < 2; f++)
      for (guint s = 0; s < 3; s++)
        {
          OdoriTransform *t = odori_motion_get (zup, f, s);

          glm_quat_rotatev (turn, t->position, t->position);
          glm_quat_mul (turn, t->rotation, t->rotation);
        }
    out2 = odori_library_retarget (zup, NULL, lib, NULL, NULL, ODORI_UP_AUTO, &report, &error);
    g_assert_no_error (error);
    g_assert_cmpint (report.up, ==, ODORI_UP_Z);
    for (guint f = 0; f < 2; f++)
      for (guint s = 0; s < 3; s++)
        {
          const float *a = odori_motion_get (out, f, s)->position;

          assert_vec3 (odori_motion_get (out2, f, s)->position, a[0], a[1], a[2]);
          assert_quat (odori_motion_get (out2, f, s)->rotation, odori_motion_get (out, f, s)->rotation);
        }
  }

  /* without a source for the hips there is nothing to follow */
  g_assert_true (odori_bone_map_set_source (map, "Hips", NULL, &error));
  g_assert_null (odori_library_retarget (cap, NULL, lib, NULL, map, ODORI_UP_AUTO, NULL, &error));
  g_assert_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_NO_ROOT);
}

/* A library whose root is not the hips (a ground point, from a saved skeleton): the root
 * rides on the hips */
static void
test_ground_root (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) lib = odori_motion_new (4, 1, 1.0 / 30, &error);
  g_autoptr(OdoriMotion) cap = generated_capture ();
  g_autoptr(OdoriMotion) out = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-import-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "lib.skeleton", NULL);
  const char *names[] = { "Root", "Hips", "Chest", "Head" };
  const char *xml = "<odori-skeleton version=\"1\">"
                    "<bone name=\"Root\" parent=\"\" length=\"40\" radius=\"1\" bulge=\"-1\"/>"
                    "<bone name=\"Hips\" parent=\"Root\" length=\"10\" radius=\"1\" bulge=\"-1\"/>"
                    "<bone name=\"Chest\" parent=\"Hips\" length=\"10\" radius=\"1\" bulge=\"-1\"/>"
                    "<bone name=\"Head\" parent=\"Chest\" length=\"5\" radius=\"1\" bulge=\"-1\"/>"
                    "</odori-skeleton>";

  g_assert_no_error (error);
  for (guint s = 0; s < 4; s++)
    {
      odori_motion_set_segment_name (lib, s, names[s]);
      odori_motion_get (lib, 0, s)->position[1] = s == 0 ? 0 : 30 + 10 * s;
    }
  g_assert_true (g_file_set_contents (path, xml, -1, &error));
  skeleton = odori_skeleton_load (path, &error);
  g_assert_no_error (error);
  out = odori_library_retarget (cap, NULL, lib, skeleton, NULL, ODORI_UP_AUTO, NULL, &error);
  g_assert_no_error (error);
  /* the hips follow the capture's hips (doubled), the root stays 40 below them */
  assert_vec3 (odori_motion_get (out, 1, 1)->position, 4, 40, 0);
  assert_vec3 (odori_motion_get (out, 1, 0)->position, 4, 0, 0);
  assert_vec3 (odori_motion_get (out, 1, 3)->position, -6, 50, 0);
  g_unlink (path);
  g_rmdir (dir);
}

/* A library show retargeted onto its own skeleton comes back (a BVA capture: no
 * hierarchy, names from the Biovision table) */
static void
test_self (void)
{
  g_autofree char *dir = sample_dir ();
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *mawari = g_build_filename (dir, "mawari.bva", NULL);
  g_autoptr(OdoriMotion) reference = load_reference (index_path);
  g_autoptr(OdoriMotion) capture = NULL;
  g_autoptr(OdoriMotion) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;
  OdoriRetargetReport report;

  capture = odori_bva_load (mawari, NULL, &error);
  g_assert_no_error (error);
  out = odori_library_retarget (capture, NULL, reference, NULL, NULL, ODORI_UP_AUTO, &report, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (report.scale, 1.0, 1e-5);
  if (!odori_motion_equal (out, capture, 2e-3, 0.05, &why))
    g_error ("%s", why);
  remove_dir (dir);
}

/* (f) A Z-up capture comes out upright */

static void
test_zombie_upright (void)
{
  g_autofree char *capture = odori_test_corpus_file ("bvh-fair-zup/zombie.bvh");
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  OdoriRetargetReport report;
  int hips, head, lfoot, rfoot;

  if (capture == NULL)
    return;
  dir = sample_dir ();
  index_path = g_build_filename (dir, "motion.dat", NULL);
  motion = import_motion (index_path, capture, NULL, &report);
  g_assert_cmpint (report.up, ==, ODORI_UP_Z);
  g_assert_true (report.up_guessed);
  hips = odori_motion_find_segment (motion, "Hips");
  head = odori_motion_find_segment (motion, "Head");
  lfoot = odori_motion_find_segment (motion, "LeftFoot");
  rfoot = odori_motion_find_segment (motion, "RightFoot");
  for (guint f = 0; f < motion->n_frames; f += 7)
    {
      float y_hips = odori_motion_get (motion, f, hips)->position[1];

      g_assert_cmpfloat (odori_motion_get (motion, f, head)->position[1], >, y_hips + 10);
      g_assert_cmpfloat (MIN (odori_motion_get (motion, f, lfoot)->position[1],
                              odori_motion_get (motion, f, rfoot)->position[1]), <, y_hips - 20);
    }
  /* on the library's floor at frame 1: the lowest foot where the library's is (3 inches) */
  g_assert_cmpfloat_with_epsilon (MIN (odori_motion_get (motion, 0, lfoot)->position[1],
                                       odori_motion_get (motion, 0, rfoot)->position[1]), 3.0, 0.5);
  g_assert_cmpfloat (report.max_hip_line_error, <, 5.0);
  remove_dir (dir);
}

/* Map files */

static void
test_map_file (void)
{
  g_autoptr(OdoriMotion) lib = generated_library ();
  g_autoptr(OdoriMotion) cap = generated_capture ();
  g_autoptr(OdoriBoneMap) map = odori_bone_map_guess (cap, NULL, lib, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *good = "# my corrections\r\n"
                     "spine\tHead   # the spine drives the head\r\n"
                     "\r\n"
                     "head -\r\n"
                     "- Chest\r\n";
  const char *bad = "pelvis Hips\n\nnobody Chest\n";

  g_assert_true (odori_bone_map_apply_text (map, "fix.map", good, strlen (good), &error));
  g_assert_no_error (error);
  g_assert_cmpstr (odori_bone_map_get_source (map, 0), ==, "pelvis");
  g_assert_null (odori_bone_map_get_source (map, 1));
  g_assert_cmpstr (odori_bone_map_get_source (map, 2), ==, "spine");

  /* an unknown joint: file and line, the map unchanged */
  g_assert_false (odori_bone_map_apply_text (map, "bad.map", bad, strlen (bad), &error));
  g_assert_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP);
  g_assert_true (g_str_has_prefix (error->message, "bad.map:3: "));
  g_assert_nonnull (strstr (error->message, "nobody"));
  g_clear_error (&error);
  g_assert_false (odori_bone_map_apply_text (map, "bad.map", "spine Head extra\n", 17, &error));
  g_assert_true (g_str_has_prefix (error->message, "bad.map:1: "));
  g_clear_error (&error);
  g_assert_false (odori_bone_map_apply_text (map, "bad.map", "spine Nope\n", 11, &error));
  g_assert_nonnull (strstr (error->message, "Nope"));
  g_clear_error (&error);
  g_assert_null (odori_bone_map_get_source (map, 1));
  g_assert_cmpstr (odori_bone_map_get_source (map, 2), ==, "spine");

  /* written and read back */
  text = odori_bone_map_to_text (map);
  g_assert_cmpstr (text, ==, "# Odori bone map: capture joint<TAB>library sensor\n"
                             "pelvis\tHips\n-\tChest\nspine\tHead\n");
  {
    g_autoptr(OdoriBoneMap) again = odori_bone_map_guess (cap, NULL, lib, NULL);

    g_assert_true (odori_bone_map_apply_text (again, NULL, text, strlen (text), &error));
    g_assert_no_error (error);
    for (guint s = 0; s < 3; s++)
      g_assert_cmpstr (odori_bone_map_get_source (again, s), ==, odori_bone_map_get_source (map, s));
  }
  g_assert_cmpint (odori_bone_map_get_sensor_role (map, 0), ==, ODORI_BONE_ROLE_HIPS);
  g_assert_cmpint (odori_bone_map_get_joint_role (map, 1), ==, ODORI_BONE_ROLE_SPINE);
  g_assert_cmpuint (odori_bone_map_get_n_joints (map), ==, 3);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/roles", test_roles);
  g_test_add_func ("/import/map-cmu", test_map_cmu);
  g_test_add_func ("/import/sample-unchanged", test_sample_unchanged);
  g_test_add_func ("/import/composed-bones", test_composed_bones);
  g_test_add_func ("/import/remove-restores", test_remove_restores);
  g_test_add_func ("/import/cli-map", test_cli_map);
  g_test_add_func ("/import/shift-jis-crlf", test_shift_jis_crlf);
  g_test_add_func ("/import/no-final-newline", test_no_final_newline);
  g_test_add_func ("/import/rename-show", test_rename_show);
  g_test_add_func ("/import/generated", test_generated);
  g_test_add_func ("/import/ground-root", test_ground_root);
  g_test_add_func ("/import/self", test_self);
  g_test_add_func ("/import/zombie-upright", test_zombie_upright);
  g_test_add_func ("/import/map-file", test_map_file);
  return g_test_run ();
}
