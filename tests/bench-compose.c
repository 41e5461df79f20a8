/* bench-compose.c: composer throughput and incremental latency, next to a plain copy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A generated library (two 120 fps shows on an 18-segment skeleton, one-second motions)
 * and a 10-minute score with a symbol every second on each of six tracks and a blend of
 * 6 frames. Prints medians of several runs:
 *   - full compose, in segment-frames per second;
 *   - the baseline: copying the same number of transforms (memcpy of the output);
 *   - an incremental update after moving one one-second symbol (a limb track, then the
 *     root track, in the middle of the score), in milliseconds, with the composer keeping
 *     offsets apart as the window's does (odori_composer_set_incremental ()): the
 *     root-track move rewrites the later frames' offsets and leaves their transforms
 *     (on the cores, and again on one thread);
 *   - foot locking (odori-foot-lock.h): a full compose with it, its cost per frame and as
 *     a ratio to composing without it, and the two updates with it (the limb move
 *     relocks its frames alone, the root move every frame after it).
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-compose-private.h"
#include "odori-compose.h"
#include "odori-index.h"
#include "odori-score.h"

static const char *names[] = {
  "Hips", "Chest", "Neck", "Head", "LeftCollar", "LeftUpArm", "LeftLowArm", "LeftHand",
  "RightCollar", "RightUpArm", "RightLowArm", "RightHand", "LeftUpLeg", "LeftLowLeg",
  "LeftFoot", "RightUpLeg", "RightLowLeg", "RightFoot",
};
#define N_SEG G_N_ELEMENTS (names)
#define FPS 120
#define SHOW_SECONDS 30
#define SCORE_SECONDS 600
#define RUNS 5

static const char *parts[][2] = {
  { "BD", "Hips,Chest,Neck" },
  { "HD", "Neck,Head" },
  { "LA", "Chest,LeftCollar,LeftUpArm,LeftLowArm,LeftHand" },
  { "RA", "Chest,RightCollar,RightUpArm,RightLowArm,RightHand" },
  { "LL", "Hips,LeftUpLeg,LeftLowLeg,LeftFoot" },
  { "RL", "Hips,RightUpLeg,RightLowLeg,RightFoot" },
};

/* The hips and legs walk (20 in/s, a step each half second, 17 + 16.5 in legs), so that
 * the feet have contacts for the foot lock to hold. */
static void
walk_legs (OdoriMotion *m,
           guint        f,
           guint        show)
{
  double t = (double) f / FPS + 0.25 * show;
  double hz = 20 * t;

  odori_motion_get (m, f, 0)->position[1] = 36;
  odori_motion_get (m, f, 0)->position[2] = (float) hz;
  for (int side = 0; side < 2; side++)
    {
      double phase = fmod (t + 0.5 * side, 1.0);  /* stance below 0.5, then swing */
      double cycle = floor (t + 0.5 * side);
      double az = phase < 0.5 ? 20 * cycle + 10 : 20 * cycle + 10 + 20 * (phase - 0.5) / 0.5;
      double lift = phase < 0.5 ? 0 : 4 * sin (G_PI * (phase - 0.5) / 0.5);
      double x = side == 0 ? 3.5 : -3.5;
      double hip[3] = { x, 33.5, hz }, ankle[3] = { x, 3 + lift, az - 10 * side };
      double dy = ankle[1] - hip[1], dz = ankle[2] - hip[2], d = hypot (dy, dz);
      double a = (17 * 17 - 16.5 * 16.5 + d * d) / (2 * d), b = sqrt (MAX (17 * 17 - a * a, 0));
      int base = side == 0 ? 12 : 15;
      float *p;

      for (int k = 0; k < 3; k++)
        odori_motion_get (m, f, base)->position[k] = (float) hip[k];
      p = odori_motion_get (m, f, base + 1)->position;
      p[0] = (float) x;
      p[1] = (float) (hip[1] + a * dy / d + b * dz / d);
      p[2] = (float) (hip[2] + a * dz / d - b * dy / d);
      for (int k = 0; k < 3; k++)
        odori_motion_get (m, f, base + 2)->position[k] = (float) ankle[k];
    }
}

static void
write_show (const char *path,
            guint       show)
{
  guint n = FPS * SHOW_SECONDS;
  g_autoptr(OdoriMotion) m = odori_motion_new (N_SEG, n, 1.0 / FPS, NULL);
  g_autoptr(GError) error = NULL;

  for (guint s = 0; s < N_SEG; s++)
    odori_motion_set_segment_name (m, s, names[s]);
  for (guint f = 0; f < n; f++)
    for (guint s = 0; s < N_SEG; s++)
      {
        OdoriTransform *t = odori_motion_get (m, f, s);
        double a[3] = { 30 * sin (f * 0.02 + s + show), 20 * sin (f * 0.03 + 2 * s), 10 * cos (f * 0.01 + s) };

        t->position[0] = (float) (s * 2.0 + sin (f * 0.005));
        t->position[1] = (float) (s * 3.0 + 30);
        t->position[2] = (float) (f * 0.01);
        odori_euler_to_quat ("ZXY", a, t->rotation);
        if (s == N_SEG - 1)
          walk_legs (m, f, show);
      }
  if (!odori_bva_save (m, path, &error))
    g_error ("%s", error->message);
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return v[n / 2];
}

static double
time_update (OdoriComposer *composer,
             OdoriScore    *score,
             guint          part,
             guint          symbol,
             guint64       *recomputed)
{
  OdoriScorePart *p = g_ptr_array_index (score->parts, part);
  OdoriScoreSymbol *sym = &g_array_index (p->symbols, OdoriScoreSymbol, symbol);
  double samples[RUNS];
  g_autoptr(GError) error = NULL;

  for (guint r = 0; r < RUNS; r++)
    {
      double t0;

      /* move by 7 frames, alternately forward and back */
      sym->start += (r % 2 == 0) ? 7 : -7;
      t0 = now ();
      if (odori_composer_update (composer, recomputed, &error) == NULL)
        g_error ("%s", error->message);
      samples[r] = (now () - t0) * 1000;
    }
  return median (samples, RUNS);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("odori-bench-compose-XXXXXX", NULL);
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *score_path = g_build_filename (dir, "bench.dds", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  double full[RUNS], copy[RUNS];
  OdoriMotion *out = NULL;
  guint64 seg_frames, recomputed = 0;
  double       t_limb, t_root, t_root_one;
  guint64 rec_limb, rec_root;
  double locked[RUNS], t_limb_locked, t_root_locked;
  guint64 shifted_root;
  guint n_contacts;

  setlocale (LC_ALL, "C");

  for (guint show = 0; show < 2; show++)
    {
      g_autofree char *name = g_strdup_printf ("show%u.bva", show);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      write_show (path, show);
    }
  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    g_string_append_printf (text, "define part name=\"%s\" code=\"%s\" map=\"%s\"\n", parts[p][0], parts[p][0], parts[p][1]);
  g_string_append (text, "begin class name=\"bench\" code=\"b\"\n");
  for (guint show = 0; show < 2; show++)
    {
      g_string_append_printf (text, "begin show name=\"S%u\" code=\"S%u\" file=\"show%u.bva\"\n", show, show, show);
      for (guint m = 0; m < SHOW_SECONDS; m++)
        g_string_append_printf (text, "motion name=\"m\" code=\"M%u_%u\" frame=%u-%u\n", show, m,
                                m * FPS + 1, (m + 1) * FPS);
      g_string_append (text, "end show\n");
    }
  g_string_append (text, "end class\n");
  g_assert_true (g_file_set_contents (index_path, text->str, text->len, NULL));

  g_string_truncate (text, 0);
  g_string_append (text, "# Title: bench\n# Author: bench\n# Date: 2026/11/29 00:00:00\n# Index: motion.dat\n# Blend: 6\n");
  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      g_string_append_printf (text, "%s: %s\n", parts[p][0], parts[p][1]);
      for (guint sec = 0; sec < SCORE_SECONDS; sec++)
        g_string_append_printf (text, "%u: M%u_%u\n", sec * FPS + 1, (sec + p) % 2, (sec * 7 + p * 3) % SHOW_SECONDS);
    }
  g_assert_true (g_file_set_contents (score_path, text->str, text->len, NULL));

  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  score = odori_score_load (score_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  /* as the window's document does: keep what lets a root-track move shift frames */
  odori_composer_set_incremental (composer, TRUE);

  for (guint r = 0; r < RUNS; r++)
    {
      double t0 = now ();

      out = odori_composer_compose (composer, &error);
      g_assert_no_error (error);
      full[r] = now () - t0;
    }
  seg_frames = (guint64) out->n_frames * out->n_segments;

  {
    gsize bytes = seg_frames * sizeof (OdoriTransform);
    OdoriTransform *dst = g_malloc (bytes);

    for (guint r = 0; r < RUNS; r++)
      {
        double t0 = now ();

        /* a plain copy, transform by transform, of the same number of transforms */
        for (guint64 i = 0; i < seg_frames; i++)
          dst[i] = out->transforms[i];
        copy[r] = now () - t0;
        g_assert_true (memcmp (dst, out->transforms, sizeof (OdoriTransform)) == 0);
      }
    g_free (dst);
  }

  t_limb = time_update (composer, score, 2, 300, &recomputed);
  rec_limb = recomputed;
  t_root = time_update (composer, score, 0, 300, &recomputed);
  rec_root = recomputed;
  shifted_root = odori_composer_get_n_shifted (composer);
  /* the same on one thread: what splitting the frames between cores gives */
  odori_composer_set_test_threads (1);
  t_root_one = time_update (composer, score, 0, 300, &recomputed);
  odori_composer_set_test_threads (0);

  odori_composer_set_foot_lock (composer, 1);
  for (guint r = 0; r < RUNS; r++)
    {
      double t0 = now ();

      out = odori_composer_compose (composer, &error);
      g_assert_no_error (error);
      locked[r] = now () - t0;
    }
  g_assert_nonnull (odori_composer_get_foot_lock (composer));
  n_contacts = odori_foot_lock_get_contacts (odori_composer_get_foot_lock (composer))->len;
  t_limb_locked = time_update (composer, score, 2, 300, &recomputed);
  t_root_locked = time_update (composer, score, 0, 300, &recomputed);
  odori_composer_set_foot_lock (composer, -1);

  printf ("score: %u frames at %d fps (%.0f s), %u segments, %u symbols\n", out->n_frames, FPS,
          out->n_frames / (double) FPS, out->n_segments, (guint) (G_N_ELEMENTS (parts) * SCORE_SECONDS));
  printf ("full compose:      %8.1f ms  %8.1f M segment-frames/s\n", median (full, RUNS) * 1000,
          seg_frames / median (full, RUNS) / 1e6);
  printf ("baseline copy:     %8.1f ms  %8.1f M segment-frames/s  (compose is %.1fx the copy's time)\n",
          median (copy, RUNS) * 1000, seg_frames / median (copy, RUNS) / 1e6,
          median (full, RUNS) / median (copy, RUNS));
  printf ("move 1 s symbol, arm track:  %6.2f ms  (%" G_GUINT64_FORMAT " segment-frames recomputed; %.0fx faster than a full compose)\n",
          t_limb, rec_limb, median (full, RUNS) * 1000 / t_limb);
  printf ("move 1 s symbol, root track: %6.2f ms  (%" G_GUINT64_FORMAT " segment-frames recomputed, %" G_GUINT64_FORMAT
          " shifted; %.1fx faster than a full compose, %.2fx the copy's time)\n",
          t_root, rec_root, shifted_root, median (full, RUNS) * 1000 / t_root, t_root / (median (copy, RUNS) * 1000));
  printf ("move 1 s symbol, root track, one thread: %6.2f ms  (%.2fx the copy's time; threads make it %.2fx faster)\n",
          t_root_one, t_root_one / (median (copy, RUNS) * 1000), t_root_one / t_root);
  printf ("full compose, foot lock: %8.1f ms  (%u contacts); the lock %.3f us per frame, %.2fx the compose's cost without it\n",
          median (locked, RUNS) * 1000, n_contacts,
          (median (locked, RUNS) - median (full, RUNS)) / out->n_frames * 1e6,
          (median (locked, RUNS) - median (full, RUNS)) / median (full, RUNS));
  printf ("move 1 s symbol, arm track, foot lock:  %6.2f ms  (%.0fx faster than a full compose with it)\n", t_limb_locked,
          median (locked, RUNS) * 1000 / t_limb_locked);
  printf ("move 1 s symbol, root track, foot lock: %6.2f ms  (%.1fx faster than a full compose with it)\n", t_root_locked,
          median (locked, RUNS) * 1000 / t_root_locked);

  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  {
    const char *files[] = { "motion.dat", "bench.dds", "show0.bva", "show1.bva" };
    for (guint i = 0; i < G_N_ELEMENTS (files); i++)
      {
        g_autofree char *p = g_build_filename (dir, files[i], NULL);
        g_unlink (p);
      }
    g_rmdir (dir);
  }
  return 0;
}
