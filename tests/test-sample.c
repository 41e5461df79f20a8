/* test-sample.c: the built-in sample dance library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-index-files.h"
#include "odori-index.h"
#include "odori-motion.h"
#include "odori-sample.h"
#include "odori-score.h"

static const char * const segment_names[] = {
  "Hips", "Chest", "Neck", "Head",
  "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
  "RightCollar", "RightUpArm", "RightLowArm", "RightHand",
  "LeftUpLeg", "LeftLowLeg", "LeftFoot",
  "RightUpLeg", "RightLowLeg", "RightFoot",
};

/* parent -> child pairs, and the bone length the skeleton gives them (inches) */
static const struct
{
  const char *parent;
  const char *child;
  double      length;
} bones[] = {
  { "Hips", "Chest", 9.0 },
  { "Chest", "Neck", 9.5 },
  { "Neck", "Head", 4.0 },
  { "Chest", "LeftCollar", 7.649 },
  { "LeftCollar", "LeftUpArm", 5.5 },
  { "LeftUpArm", "LeftLowArm", 11.5 },
  { "LeftLowArm", "LeftHand", 10.0 },
  { "Chest", "RightCollar", 7.649 },
  { "RightCollar", "RightUpArm", 5.5 },
  { "RightUpArm", "RightLowArm", 11.5 },
  { "RightLowArm", "RightHand", 10.0 },
  { "Hips", "LeftUpLeg", 4.301 },
  { "LeftUpLeg", "LeftLowLeg", 17.0 },
  { "LeftLowLeg", "LeftFoot", 16.5 },
  { "Hips", "RightUpLeg", 4.301 },
  { "RightUpLeg", "RightLowLeg", 17.0 },
  { "RightLowLeg", "RightFoot", 16.5 },
};

/* The show files and their frame counts. */
static const struct
{
  const char *file;
  guint       n_frames;
} shows[] = {
  { "te.bva", 527 },
  { "ashi.bva", 347 },
  { "mawari.bva", 317 },
  { "kihon.bva", 315 },
};

static const char * const all_files[] = {
  "te.bva", "ashi.bva", "mawari.bva", "kihon.bva", "motion.dat", "sample.dds",
};

/* The sample is written once per test binary and shared by the read-only tests. */
static char *sample_dir;

static void
rm_rf (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        rm_rf (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static OdoriMotion *
load_show (const char *file)
{
  g_autofree char *path = g_build_filename (sample_dir, file, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  OdoriMotion *motion;

  motion = odori_bva_load (path, warnings, &error);
  g_assert_no_error (error);
  g_assert_nonnull (motion);
  g_assert_cmpuint (warnings->len, ==, 0);

  return motion;
}

static const float *
pos (const OdoriMotion *motion,
     guint              frame,
     const char        *segment)
{
  int s = odori_motion_find_segment (motion, segment);

  g_assert_cmpint (s, >=, 0);
  return odori_motion_get (motion, frame, s)->position;
}

static double
distance (const float a[3],
          const float b[3])
{
  return sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])
               + (a[2] - b[2]) * (a[2] - b[2]));
}

/* The 1-based frame range of motion CODE in show SHOW of the sample's motion.dat. */
static void
motion_range (const char *show,
              const char *code,
              guint      *first,
              guint      *last)
{
  g_autofree char *path = g_build_filename (sample_dir, "motion.dat", NULL);
  g_autofree char *symbol = g_strdup_printf ("%s.%s", show, code);
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *motion;

  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  motion = odori_index_lookup (index, symbol, &error);
  g_assert_no_error (error);
  *first = motion->first;
  *last = motion->last;
}

static void
test_files (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (all_files); i++)
    {
      g_autofree char *path = g_build_filename (sample_dir, all_files[i], NULL);

      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
}

/* Each show file loads with the 18 Biovision segments, 30 fps, scale 100 percent. */
static void
test_bva_load (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shows); i++)
    {
      g_autoptr(OdoriMotion) motion = load_show (shows[i].file);

      g_assert_cmpuint (motion->n_segments, ==, G_N_ELEMENTS (segment_names));
      for (guint s = 0; s < motion->n_segments; s++)
        {
          g_assert_cmpstr (motion->segments[s].name, ==, segment_names[s]);
          g_assert_cmpint (motion->segments[s].units[ODORI_FIELD_XTRAN], ==, ODORI_UNIT_INCHES);
        }
      g_assert_cmpuint (motion->n_frames, ==, shows[i].n_frames);
      g_assert_cmpfloat_with_epsilon (motion->frame_time, 0.033333, 1e-9);
      g_assert_cmpfloat (odori_motion_get (motion, 7, 5)->scale[1], ==, 100.f);
      /* a standing figure at the start: hips about 38 in, head about 61 in */
      g_assert_cmpfloat_with_epsilon (pos (motion, 0, "Hips")[1], 38.0, 0.5);
      g_assert_cmpfloat_with_epsilon (pos (motion, 0, "Head")[1], 60.5, 1.0);
    }
}

/* Parent and child stay the same distance apart in every frame: the global transforms
 * come from forward kinematics on one fixed skeleton. */
static void
test_bone_lengths (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shows); i++)
    {
      g_autoptr(OdoriMotion) motion = load_show (shows[i].file);

      for (guint b = 0; b < G_N_ELEMENTS (bones); b++)
        {
          double first = distance (pos (motion, 0, bones[b].parent),
                                   pos (motion, 0, bones[b].child));

          g_assert_cmpfloat_with_epsilon (first, bones[b].length, 0.005);
          for (guint f = 1; f < motion->n_frames; f++)
            {
              double d = distance (pos (motion, f, bones[b].parent),
                                   pos (motion, f, bones[b].child));

              if (fabs (d - first) >= 0.01)
                g_error ("%s frame %u: %s-%s is %g in, %g in frame 1", shows[i].file, f + 1,
                         bones[b].parent, bones[b].child, d, first);
            }
        }
    }
}

/* The feet never go through the floor, and one foot is always on it. */
static void
test_feet_on_floor (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shows); i++)
    {
      g_autoptr(OdoriMotion) motion = load_show (shows[i].file);

      for (guint f = 0; f < motion->n_frames; f++)
        {
          double left = pos (motion, f, "LeftFoot")[1];
          double right = pos (motion, f, "RightFoot")[1];

          g_assert_cmpfloat (left, >=, -0.5);
          g_assert_cmpfloat (right, >=, -0.5);
          g_assert_cmpfloat (MIN (left, right), <=, 4.0);
          /* and the knees never go below the ankles or through the floor */
          g_assert_cmpfloat (pos (motion, f, "LeftLowLeg")[1], >, left);
          g_assert_cmpfloat (pos (motion, f, "RightLowLeg")[1], >, right);
        }
    }
}

/* No segment turns more than 15 degrees from one frame to the next: no noise, no flips. */
static void
test_smooth (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shows); i++)
    {
      g_autoptr(OdoriMotion) motion = load_show (shows[i].file);
      double largest = 0.0;

      for (guint f = 1; f < motion->n_frames; f++)
        for (guint s = 0; s < motion->n_segments; s++)
          {
            double a = odori_quat_angle_deg (odori_motion_get (motion, f - 1, s)->rotation,
                                             odori_motion_get (motion, f, s)->rotation);
            double p = distance (odori_motion_get (motion, f - 1, s)->position,
                                 odori_motion_get (motion, f, s)->position);

            if (a >= 15.0 || p >= 4.0)
              g_error ("%s frame %u: %s turns %g degrees, moves %g in", shows[i].file,
                       f + 1, segment_names[s], a, p);
            largest = MAX (largest, a);
          }
      /* and it is not a still picture either */
      g_assert_cmpfloat (largest, >, 3.0);
    }
}

/* Every motion starts and ends in the neutral standing pose, so clips join well. */
static void
test_neutral_ends (void)
{
  g_autofree char *path = g_build_filename (sample_dir, "motion.dat", NULL);
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriMotion) reference = load_show ("kihon.bva");
  g_autoptr(GError) error = NULL;
  guint checked = 0;

  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);
          g_autoptr(OdoriMotion) motion = load_show (show->file);

          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *im = g_ptr_array_index (show->motions, m);
              guint ends[2] = { im->first - 1, im->last - 1 };

              for (guint e = 0; e < 2; e++)
                for (guint seg = 0; seg < motion->n_segments; seg++)
                  {
                    const float *p = odori_motion_get (motion, ends[e], seg)->position;
                    const float *q = odori_motion_get (reference, 0, seg)->position;

                    /* the turns end facing the front again */
                    g_assert_cmpfloat (distance (p, q), <, 0.05);
                  }
              checked++;
            }
        }
    }
  g_assert_cmpuint (checked, ==, 14);

  /* the neutral pose is symmetric */
  for (guint s = 4; s < 8; s++)
    {
      const float *l = odori_motion_get (reference, 0, s)->position;
      const float *r = odori_motion_get (reference, 0, s + 4)->position;

      g_assert_cmpfloat_with_epsilon (l[0], -r[0], 1e-4);
      g_assert_cmpfloat_with_epsilon (l[1], r[1], 1e-4);
      g_assert_cmpfloat_with_epsilon (l[2], r[2], 1e-4);
    }
}

/* The clap phrase: the hands meet three times in front of the chest. */
static void
test_clap (void)
{
  g_autoptr(OdoriMotion) motion = load_show ("te.bva");
  guint first, last, claps = 0;
  gboolean together = FALSE;

  motion_range ("TE", "C1", &first, &last);
  g_assert_cmpfloat (distance (pos (motion, first - 1, "LeftHand"),
                               pos (motion, first - 1, "RightHand")), >, 15.0);
  for (guint f = first - 1; f < last; f++)
    {
      const float *l = pos (motion, f, "LeftHand");
      const float *r = pos (motion, f, "RightHand");
      const float *chest = pos (motion, f, "Chest");
      double d = distance (l, r);

      if (!together && d < 3.0)
        {
          claps++;
          /* in front of the chest, at chest height */
          g_assert_cmpfloat (l[2] - chest[2], >, 6.0);
          g_assert_cmpfloat (fabs (l[1] - chest[1]), <, 4.0);
          g_assert_cmpfloat (fabs (l[0] + r[0]), <, 0.5);
        }
      if (d < 3.0)
        together = TRUE;
      else if (d > 6.0)
        together = FALSE;
    }
  g_assert_cmpuint (claps, ==, 3);
}

/* The wave: both hands above the head, the body swaying left and right. */
static void
test_wave (void)
{
  g_autoptr(OdoriMotion) motion = load_show ("te.bva");
  guint first, last;
  double min_x = 0, max_x = 0;
  gboolean up = FALSE;

  motion_range ("TE", "W1", &first, &last);
  for (guint f = first - 1; f < last; f++)
    {
      const float *head = pos (motion, f, "Head");

      if (pos (motion, f, "LeftHand")[1] > head[1] + 8.0
          && pos (motion, f, "RightHand")[1] > head[1] + 8.0)
        up = TRUE;
      min_x = MIN (min_x, head[0]);
      max_x = MAX (max_x, head[0]);
    }
  g_assert_true (up);
  g_assert_cmpfloat (max_x, >, 2.0);
  g_assert_cmpfloat (min_x, <, -2.0);
  g_assert_cmpfloat_with_epsilon (max_x, -min_x, 0.1);
}

/* The steps: the hips travel right and back, the knees bend, a foot leaves the floor. */
static void
test_steps (void)
{
  g_autoptr(OdoriMotion) motion = load_show ("ashi.bva");
  guint first, last;
  double min_x = 0, max_x = 0, min_y = 100, lift = 0;

  motion_range ("AS", "S1", &first, &last);
  for (guint f = first - 1; f < last; f++)
    {
      const float *hips = pos (motion, f, "Hips");

      min_x = MIN (min_x, hips[0]);
      max_x = MAX (max_x, hips[0]);
      min_y = MIN (min_y, hips[1]);
      lift = MAX (lift, fabs (pos (motion, f, "LeftFoot")[1] - pos (motion, f, "RightFoot")[1]));
    }
  g_assert_cmpfloat (min_x, <, -6.0);  /* to the dancer's right */
  g_assert_cmpfloat (max_x, <, 0.5);
  g_assert_cmpfloat (pos (motion, first - 1, "Hips")[1] - min_y, >, 1.5);
  g_assert_cmpfloat (lift, >, 2.0);
}

static double
heading_deg (const float q[4])
{
  versor r = { q[0], q[1], q[2], q[3] };
  vec3 z = { 0.f, 0.f, 1.f }, f;

  glm_quat_rotatev (r, z, f);
  return atan2 (f[0], f[2]) * 180.0 / G_PI;
}

/* The turns: the hips' heading sweeps a full circle while the hips stay in place. */
static void
test_turn (void)
{
  g_autoptr(OdoriMotion) motion = load_show ("mawari.bva");
  const char *codes[] = { "T1", "T2" };
  const double dirs[] = { 1.0, -1.0 };

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    {
      guint first, last;
      double prev, total = 0.0, lo = 0.0, hi = 0.0, travel = 0.0;
      int hips = odori_motion_find_segment (motion, "Hips");

      motion_range ("MW", codes[i], &first, &last);
      prev = heading_deg (odori_motion_get (motion, first - 1, hips)->rotation);
      for (guint f = first; f < last; f++)
        {
          double h = heading_deg (odori_motion_get (motion, f, hips)->rotation);
          double d = h - prev;

          while (d > 180.0)
            d -= 360.0;
          while (d < -180.0)
            d += 360.0;
          total += d;
          lo = MIN (lo, total);
          hi = MAX (hi, total);
          prev = h;
          travel = MAX (travel, distance (pos (motion, f, "Hips"),
                                          pos (motion, first - 1, "Hips")));
        }
      g_assert_cmpfloat (hi - lo, >, 355.0);
      g_assert_cmpfloat (total * dirs[i], >, 355.0);
      g_assert_cmpfloat (travel, <, 5.0);
    }
}

/* The bow: the head goes down and forward, the feet stay planted. */
static void
test_bow (void)
{
  g_autoptr(OdoriMotion) motion = load_show ("kihon.bva");
  guint first, last;
  double start, lowest = 100.0, foot_move = 0.0;

  motion_range ("KH", "R1", &first, &last);
  start = pos (motion, first - 1, "Head")[1];
  for (guint f = first - 1; f < last; f++)
    {
      lowest = MIN (lowest, pos (motion, f, "Head")[1]);
      foot_move = MAX (foot_move, distance (pos (motion, f, "LeftFoot"),
                                            pos (motion, first - 1, "LeftFoot")));
    }
  g_assert_cmpfloat (start - lowest, >, 8.0);
  g_assert_cmpfloat (foot_move, <, 0.01);
}

/* motion.dat: six parts anchored as FORMATS.md §3 says, every range inside its file,
 * and one code (K1) deliberately in two shows. */
static void
test_index (void)
{
  g_autofree char *path = g_build_filename (sample_dir, "motion.dat", NULL);
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();
  g_autoptr(GHashTable) codes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  const char *anchors[][2] = {
    { "BD", "Hips" }, { "HD", "Neck" }, { "LA", "Chest" },
    { "RA", "Chest" }, { "LL", "Hips" }, { "RL", "Hips" },
  };
  guint shared = 0, n_motions = 0;
  OdoriIndexMotion *m;

  index = odori_index_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (index->encoding, ==, ODORI_ENCODING_UTF8);
  g_assert_cmpuint (index->warnings->len, ==, 0);
  g_assert_cmpuint (index->parts->len, ==, 6);
  for (guint i = 0; i < G_N_ELEMENTS (anchors); i++)
    {
      OdoriIndexPart *part = odori_index_find_part (index, anchors[i][0]);

      g_assert_nonnull (part);
      g_assert_cmpstr (part->map[0], ==, anchors[i][1]);
      for (guint s = 0; part->map[s] != NULL; s++)
        g_assert_true (g_strv_contains (segment_names, part->map[s]));
    }
  g_assert_cmpstr (odori_index_find_part (index, "LA")->name, ==, "左腕 Left arm");
  g_assert_cmpuint (index->classes->len, ==, 2);

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);
          g_autoptr(OdoriMotion) motion = load_show (show->file);

          g_assert_cmpuint (show->motions->len, >=, 3);
          for (guint i = 0; i < show->motions->len; i++)
            {
              OdoriIndexMotion *im = g_ptr_array_index (show->motions, i);

              g_assert_cmpuint (im->first, >=, 1);
              g_assert_cmpuint (im->last, <=, motion->n_frames);
              /* a phrase, not a blink: at least two seconds */
              g_assert_cmpuint (im->last - im->first + 1, >=, 60);
              g_assert_nonnull (im->exp);
              if (g_hash_table_contains (codes, im->code))
                shared++;
              g_hash_table_add (codes, im->code);
              n_motions++;
            }
        }
    }
  g_assert_cmpuint (n_motions, ==, 14);
  g_assert_cmpuint (shared, ==, 1);

  g_assert_true (odori_index_check_files (index, diagnostics));
  g_assert_cmpuint (diagnostics->len, ==, 0);

  m = odori_index_lookup (index, "K1", &error);
  g_assert_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_AMBIGUOUS);
  g_assert_null (m);
  g_clear_error (&error);
  m = odori_index_lookup (index, "MW.K1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (m->show->file, ==, "mawari.bva");
  m = odori_index_lookup (index, "C1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (m->name, ==, "拍手 Clap");
  g_assert_cmpuint (m->first, ==, 1);
}

/* sample.dds: the header, six parts with the index's sensors, and every symbol resolves
 * (one of them qualified). About 20 seconds in all. */
static void
test_score (void)
{
  g_autofree char *path = g_build_filename (sample_dir, "sample.dds", NULL);
  g_autofree char *index_path = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GPtrArray) diagnostics = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  guint qualified = 0, end = 0;

  score = odori_score_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (score->warnings->len, ==, 0);
  g_assert_cmpstr (score->title, ==, "春の小品 (Spring Sketch)");
  g_assert_cmpstr (score->author, ==, "Odori");
  g_assert_cmpstr (score->date, ==, "2026/11/29 12:00:00");
  g_assert_cmpstr (score->index_path, ==, "motion.dat");
  g_assert_cmpint (score->blend, ==, 6);
  g_assert_cmpuint (score->parts->len, ==, 6);

  index_path = odori_score_dup_index_path (score);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  g_assert_true (odori_score_resolve (score, index, diagnostics));
  g_assert_cmpuint (diagnostics->len, ==, 0);

  for (guint p = 0; p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);
      OdoriIndexPart *ipart = odori_index_find_part (index, part->code);
      OdoriScoreSymbol *lastsym;
      OdoriIndexMotion *m;

      g_assert_nonnull (ipart);
      g_assert_cmpstrv (part->sensors, ipart->map);
      g_assert_cmpuint (part->symbols->len, >=, 5);
      g_assert_cmpuint (g_array_index (part->symbols, OdoriScoreSymbol, 0).start, ==, 1);
      for (guint i = 0; i < part->symbols->len; i++)
        if (strchr (g_array_index (part->symbols, OdoriScoreSymbol, i).symbol, '.') != NULL)
          qualified++;
      lastsym = &g_array_index (part->symbols, OdoriScoreSymbol, part->symbols->len - 1);
      /* everyone bows at the end */
      g_assert_cmpstr (lastsym->symbol, ==, "R1");
      m = odori_index_lookup (index, lastsym->symbol, &error);
      g_assert_no_error (error);
      end = MAX (end, lastsym->start + m->last - m->first);
    }
  g_assert_cmpuint (qualified, >=, 1);
  g_assert_cmpuint (end, >=, 15 * 30);
  g_assert_cmpuint (end, <=, 25 * 30);
}

static GHashTable *
read_all (const char *dir)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                             (GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < G_N_ELEMENTS (all_files); i++)
    {
      g_autofree char *path = g_build_filename (dir, all_files[i], NULL);
      g_autoptr(GError) error = NULL;
      char *data;
      gsize len;

      g_file_get_contents (path, &data, &len, &error);
      g_assert_no_error (error);
      g_hash_table_insert (files, (gpointer) all_files[i], g_bytes_new_take (data, len));
    }

  return files;
}

/* The same bytes on every run, also when files are already there (overwritten). */
static void
test_deterministic (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("odori-sample-XXXXXX", &error);
  g_autofree char *dir = NULL;
  g_autoptr(GHashTable) a = NULL;
  g_autoptr(GHashTable) b = NULL;
  g_autoptr(GHashTable) c = NULL;

  g_assert_no_error (error);
  dir = g_build_filename (tmp, "nested", "library", NULL);
  g_assert_true (odori_sample_write (dir, &error));  /* creates the directories */
  g_assert_no_error (error);
  a = read_all (dir);
  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  b = read_all (dir);
  c = read_all (sample_dir);
  for (guint i = 0; i < G_N_ELEMENTS (all_files); i++)
    {
      GBytes *x = g_hash_table_lookup (a, all_files[i]);

      g_assert_true (g_bytes_equal (x, g_hash_table_lookup (b, all_files[i])));
      g_assert_true (g_bytes_equal (x, g_hash_table_lookup (c, all_files[i])));
    }
  rm_rf (tmp);
}

/* A directory that cannot be created is a GError, not a crash. */
static void
test_bad_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("odori-sample-XXXXXX", &error);
  g_autofree char *file = g_build_filename (tmp, "plain-file", NULL);
  g_autofree char *dir = g_build_filename (file, "library", NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  g_assert_false (odori_sample_write (dir, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR);
  g_assert_true (g_str_has_prefix (error->message, dir));
  rm_rf (tmp);
}

/* The modification time of DIR/NAME in microseconds. */
static guint64
mtime_of (const char *dir,
          const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, "time::modified,time::modified-usec",
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  g_assert_nonnull (info);
  return g_file_info_get_attribute_uint64 (info, "time::modified") * G_USEC_PER_SEC +
         g_file_info_get_attribute_uint32 (info, "time::modified-usec");
}

/* odori_sample_ensure () writes the library once, leaves it alone while its stamp
 * matches, and writes it afresh when a file was changed or removed, or the stamp is of
 * another version. */
static void
test_ensure (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("odori-ensure-XXXXXX", &error);
  g_autofree char *dir = g_build_filename (tmp, "sample", NULL);
  g_autofree char *stamp = g_build_filename (dir, ".odori-sample-stamp", NULL);
  g_autofree char *dat = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *bva = g_build_filename (dir, "te.bva", NULL);
  g_autofree char *text = NULL;
  g_autofree char *orig = NULL;
  guint64 t0;

  g_assert_no_error (error);
  g_assert_true (odori_sample_ensure (dir, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (stamp, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (dat, &orig, NULL, NULL));
  t0 = mtime_of (dir, "te.bva");

  /* untouched: nothing is written */
  g_usleep (20000);
  g_assert_true (odori_sample_ensure (dir, &error));
  g_assert_cmpuint (mtime_of (dir, "te.bva"), ==, t0);

  /* a damaged file: the whole library is written afresh */
  g_assert_true (g_file_set_contents (dat, "broken", -1, NULL));
  g_assert_true (odori_sample_ensure (dir, &error));
  g_assert_true (g_file_get_contents (dat, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, orig);
  g_assert_cmpuint (mtime_of (dir, "te.bva"), >, t0);

  /* a removed file */
  g_assert_cmpint (g_remove (bva), ==, 0);
  g_assert_true (odori_sample_ensure (dir, &error));
  g_assert_true (g_file_test (bva, G_FILE_TEST_IS_REGULAR));

  /* a stamp of another version */
  t0 = mtime_of (dir, "te.bva");
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (stamp, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "odori-sample "));
  text[strlen ("odori-sample ")] = '0';
  g_assert_true (g_file_set_contents (stamp, text, -1, NULL));
  g_usleep (20000);
  g_assert_true (odori_sample_ensure (dir, &error));
  g_assert_cmpuint (mtime_of (dir, "te.bva"), >, t0);
  rm_rf (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  sample_dir = g_dir_make_tmp ("odori-sample-XXXXXX", &error);
  g_assert_no_error (error);
  if (!odori_sample_write (sample_dir, &error))
    g_error ("odori_sample_write: %s", error->message);

  g_test_add_func ("/sample/files", test_files);
  g_test_add_func ("/sample/bva-load", test_bva_load);
  g_test_add_func ("/sample/bone-lengths", test_bone_lengths);
  g_test_add_func ("/sample/feet-on-floor", test_feet_on_floor);
  g_test_add_func ("/sample/smooth", test_smooth);
  g_test_add_func ("/sample/neutral-ends", test_neutral_ends);
  g_test_add_func ("/sample/clap", test_clap);
  g_test_add_func ("/sample/wave", test_wave);
  g_test_add_func ("/sample/steps", test_steps);
  g_test_add_func ("/sample/turn", test_turn);
  g_test_add_func ("/sample/bow", test_bow);
  g_test_add_func ("/sample/index", test_index);
  g_test_add_func ("/sample/score", test_score);
  g_test_add_func ("/sample/deterministic", test_deterministic);
  g_test_add_func ("/sample/bad-dir", test_bad_dir);
  g_test_add_func ("/sample/ensure", test_ensure);

  ret = g_test_run ();
  rm_rf (sample_dir);
  g_free (sample_dir);

  return ret;
}
