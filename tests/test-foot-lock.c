/* test-foot-lock.c: feet that stay planted (odori-foot-lock.h and the composer's switch)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On the sample library's score and on a generated score whose leg tracks switch shows
 * mid-stride: horizontal foot travel during contacts falls by at least 80 %, every bone
 * length is kept (1e-4), no knee angle jumps by more than 5° between frames; the lock is
 * off unless the score or the caller turns it on; an update equals a full compose. The
 * corpus captures (BVH) are locked as loaded, when the corpus is there.
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "odori-bvh.h"
#include "odori-compose-private.h"
#include "odori-compose.h"
#include "odori-foot-lock.h"
#include "odori-index.h"
#include "odori-sample.h"
#include "odori-score-edit.h"
#include "odori-score.h"
#include "odori-skeleton.h"
#include "test-corpus.h"

/* Helpers */

static char *
sample_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("odori-foot-lock-XXXXXX", &error);

  g_assert_no_error (error);
  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  return dir;
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

/* A composer for the score at SCORE_PATH (with DIR's motion.dat) with FOOT_LOCK. */
static OdoriComposer *
composer_for (const char *dir,
              OdoriScore *score,
              int         foot_lock)
{
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = odori_index_load (index_path, &error);
  OdoriComposer *composer;

  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  odori_composer_set_foot_lock (composer, foot_lock);
  return composer;
}

static OdoriScore *
load_score (const char *dir,
            const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  OdoriScore *score = odori_score_load (path, &error);

  g_assert_no_error (error);
  return score;
}

static double
dist (const float a[3],
      const float b[3])
{
  double x = (double) a[0] - b[0], y = (double) a[1] - b[1], z = (double) a[2] - b[2];

  return sqrt (x * x + y * y + z * z);
}

/* The largest change of a bone length (parent to child joint distance) of SKELETON
 * between A and B, relative to max (1, the length). */
static double
max_length_change (const OdoriMotion *a,
                   const OdoriMotion *b)
{
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (a);
  double worst = 0;

  g_assert_nonnull (skeleton);
  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  for (guint k = 0; k < skeleton->n_bones; k++)
    {
      const OdoriBone *bone = &skeleton->bones[k];
      int              s, p;

      if (bone->parent < 0)
        continue;
      s = odori_motion_find_segment (a, bone->name);
      p = odori_motion_find_segment (a, skeleton->bones[bone->parent].name);
      g_assert_cmpint (s, >=, 0);
      g_assert_cmpint (p, >=, 0);
      for (guint f = 0; f < a->n_frames; f++)
        {
          double la = dist (odori_motion_get (a, f, s)->position, odori_motion_get (a, f, p)->position);
          double lb = dist (odori_motion_get (b, f, s)->position, odori_motion_get (b, f, p)->position);

          if (isfinite (la))
            worst = MAX (worst, fabs (la - lb) / MAX (1.0, la));
        }
    }
  return worst;
}

typedef struct
{
  int hip, knee, ankle;
} TestLeg;

static TestLeg
test_leg (const OdoriMotion *m,
          const char        *side)
{
  g_autofree char *hip = g_strconcat (side, "UpLeg", NULL);
  g_autofree char *knee = g_strconcat (side, "LowLeg", NULL);
  g_autofree char *ankle = g_strconcat (side, "Foot", NULL);
  TestLeg          leg = { odori_motion_find_segment (m, hip), odori_motion_find_segment (m, knee),
                           odori_motion_find_segment (m, ankle) };

  g_assert_cmpint (leg.hip, >=, 0);
  g_assert_cmpint (leg.knee, >=, 0);
  g_assert_cmpint (leg.ankle, >=, 0);
  return leg;
}

static double
knee_angle (const OdoriMotion *m,
            TestLeg            leg,
            guint              f)
{
  const float *h = odori_motion_get (m, f, leg.hip)->position;
  const float *k = odori_motion_get (m, f, leg.knee)->position;
  const float *a = odori_motion_get (m, f, leg.ankle)->position;
  double       t[3] = { k[0] - h[0], k[1] - h[1], k[2] - h[2] };
  double       s[3] = { a[0] - k[0], a[1] - k[1], a[2] - k[2] };
  double       c = (t[0] * s[0] + t[1] * s[1] + t[2] * s[2]) /
             (sqrt (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) * sqrt (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]));

  return acos (CLAMP (c, -1.0, 1.0)) * 180 / G_PI;
}

/* The largest frame-to-frame knee angle change of M (both legs of the sample skeleton);
 * with REF, the largest by which M's change exceeds REF's on the same frame. */
static double
max_knee_step (const OdoriMotion *m,
               const OdoriMotion *ref)
{
  const char *sides[] = { "Left", "Right" };
  double      worst = 0;

  for (guint i = 0; i < 2; i++)
    {
      TestLeg leg = test_leg (m, sides[i]);

      for (guint f = 1; f < m->n_frames; f++)
        {
          double step = fabs (knee_angle (m, leg, f) - knee_angle (m, leg, f - 1));

          if (ref != NULL)
            step -= fabs (knee_angle (ref, leg, f) - knee_angle (ref, leg, f - 1));
          worst = MAX (worst, step);
        }
    }
  return worst;
}

/* Horizontal (XZ) travel of segment SEG over frames FIRST..LAST, computed here. */
static double
travel_xz (const OdoriMotion *m,
           int                seg,
           guint              first,
           guint              last)
{
  double sum = 0;

  for (guint f = first + 1; f <= last; f++)
    {
      const float *p = odori_motion_get (m, f, seg)->position;
      const float *q = odori_motion_get (m, f - 1, seg)->position;

      sum += hypot ((double) p[0] - q[0], (double) p[2] - q[2]);
    }
  return sum;
}

/* Checks LOCKED against PLAIN (the same score composed without the lock) with LOCK's
 * contacts: slide falls by 80 %, lengths kept, knees smooth. */
static void
check_locked (const char        *what,
              OdoriFootLock     *lock,
              const OdoriMotion *plain,
              const OdoriMotion *locked)
{
  GArray *contacts = odori_foot_lock_get_contacts (lock);
  double  before = 0, after = 0, report_before = 0, report_after = 0;
  double  length_change, knee_plain, knee_locked, knee_added;

  g_assert_cmpuint (contacts->len, >, 2);
  for (guint i = 0; i < contacts->len; i++)
    {
      const OdoriFootContact *c = &g_array_index (contacts, OdoriFootContact, i);
      int                     ankle = odori_motion_find_segment (plain, odori_foot_lock_get_leg_name (lock, c->leg));

      g_assert_cmpuint (c->first, <=, c->last);
      g_assert_cmpuint (c->last, <, plain->n_frames);
      before += travel_xz (plain, ankle, c->first, c->last);
      after += travel_xz (locked, ankle, c->first, c->last);
      report_before += c->slide_before;
      report_after += c->slide_after;
    }
  g_assert_cmpfloat_with_epsilon (before, report_before, 1e-3 * MAX (1, before));
  g_assert_cmpfloat_with_epsilon (after, report_after, 1e-3 * MAX (1, before));
  length_change = max_length_change (plain, locked);
  knee_plain = max_knee_step (plain, NULL);
  knee_locked = max_knee_step (locked, NULL);
  knee_added = max_knee_step (locked, plain);
  g_test_message ("%s: %u contacts, slide %.3f -> %.3f in (%.1f %% less), max drop %.3f in, "
                  "bone length change %.2g, largest knee step %.2f° (%.2f° unlocked, %.2f° more at most)",
                  what, contacts->len, before, after, 100 * (1 - after / before),
                  odori_foot_lock_get_max_drop (lock), length_change, knee_locked, knee_plain,
                  knee_added);
  g_assert_cmpfloat (before, >, 1.0);
  g_assert_cmpfloat (after, <=, 0.2 * before);
  g_assert_cmpfloat (length_change, <=, 1e-4);
  /* the lock makes no knee jump: no step over 5° that the motion did not have */
  g_assert_cmpfloat (knee_added, <=, 5.0);
  g_assert_cmpfloat (knee_locked, <=, MAX (5.0, knee_plain + 0.5));
}

/* The sample's own score */

static void
test_sample_score (void)
{
  g_autofree char *dir = sample_dir ();
  g_autoptr(OdoriScore) score = load_score (dir, "sample.dds");
  g_autoptr(OdoriComposer) plain_c = composer_for (dir, score, -1);
  g_autoptr(OdoriComposer) locked_c = composer_for (dir, score, 1);
  g_autoptr(GError) error = NULL;
  OdoriMotion *plain, *locked;

  plain = odori_composer_compose (plain_c, &error);
  g_assert_no_error (error);
  locked = odori_composer_compose (locked_c, &error);
  g_assert_no_error (error);
  g_assert_true (plain != locked);
  g_assert_null (odori_composer_get_foot_lock (plain_c));
  g_assert_nonnull (odori_composer_get_foot_lock (locked_c));
  g_assert_cmpuint (odori_foot_lock_get_n_legs (odori_composer_get_foot_lock (locked_c)), ==, 2);
  check_locked ("sample.dds", odori_composer_get_foot_lock (locked_c), plain, locked);
  remove_dir (dir);
}

/* A score whose leg tracks switch shows mid-stride (another symbol starts in the middle
 * of a step), under an upper body of its own. */
static const char switching_score[] =
    "# Title: switching legs\n"
    "# Index: motion.dat\n"
    "# Blend: 6\n"
    "# FootLock: on\n"
    "BD: Hips,Chest,Neck\n"
    "1: S1\n"
    "HD: Neck,Head\n"
    "1: B2\n"
    "LL: Hips,LeftUpLeg,LeftLowLeg,LeftFoot\n"
    "1: S1\n"
    "23: S2\n"
    "61: S3\n"
    "95: B2\n"
    "121: S1\n"
    "150: S2\n"
    "RL: Hips,RightUpLeg,RightLowLeg,RightFoot\n"
    "1: S2\n"
    "37: S1\n"
    "70: B2\n"
    "88: S2\n"
    "131: S3\n"
    "160: S1\n";

static OdoriScore *
write_switching_score (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "switch.dds", NULL);

  g_assert_true (g_file_set_contents (path, switching_score, -1, NULL));
  return load_score (dir, "switch.dds");
}

static void
test_switching_score (void)
{
  g_autofree char *dir = sample_dir ();
  g_autoptr(OdoriScore) score = write_switching_score (dir);
  g_autoptr(OdoriComposer) plain_c = composer_for (dir, score, 0);
  g_autoptr(OdoriComposer) locked_c = composer_for (dir, score, -1);
  g_autoptr(GError) error = NULL;
  OdoriMotion   *plain, *locked;
  GArray        *seams;
  OdoriFootLock *lock;
  guint          n_seam_contacts = 0;
  double         seam_before = 0, seam_after = 0;

  g_assert_cmpint (score->foot_lock, ==, 1);
  plain = odori_composer_compose (plain_c, &error);
  g_assert_no_error (error);
  locked = odori_composer_compose (locked_c, &error); /* the score says on */
  g_assert_no_error (error);
  lock = odori_composer_get_foot_lock (locked_c);
  g_assert_nonnull (lock);
  g_assert_null (odori_composer_get_foot_lock (plain_c));
  check_locked ("switch.dds", lock, plain, locked);

  /* the leg seams: contacts around them slid, and slide no more */
  seams = odori_composer_get_seams (locked_c);
  for (guint i = 0; i < seams->len; i++)
    {
      OdoriSeam      *seam = &g_array_index (seams, OdoriSeam, i);
      OdoriScorePart *part = g_ptr_array_index (score->parts, seam->part);
      double          before, after;
      guint           n = odori_foot_lock_get_slide (lock, (const char *const *) part->sensors,
                                           seam->frame >= 2 ? seam->frame - 2 : 0,
                                                     seam->frame - 1 + 6, &before, &after);

      if (g_str_equal (part->code, "HD"))
        g_assert_cmpuint (n, ==, 0); /* names no leg */
      n_seam_contacts += n;
      seam_before += before;
      seam_after += after;
    }
  g_test_message ("switch.dds seams: %u contacts, slide %.3f -> %.3f in", n_seam_contacts,
                  seam_before, seam_after);
  g_assert_cmpuint (n_seam_contacts, >, 0);
  g_assert_cmpfloat (seam_after, <=, 0.2 * seam_before);
  remove_dir (dir);
}

/* Off unless the score or the caller says on: the exact rules stay exact. */
static void
test_off_by_default (void)
{
  g_autofree char *dir = sample_dir ();
  g_autoptr(OdoriScore) score = load_score (dir, "sample.dds");
  g_autoptr(OdoriComposer) a = NULL;
  g_autoptr(OdoriComposer) b = NULL;
  g_autoptr(GError) error = NULL;
  OdoriMotion *ma, *mb;

  g_assert_cmpint (score->foot_lock, ==, -1);
  a = composer_for (dir, score, -1);
  b = composer_for (dir, score, 0);
  ma = odori_composer_compose (a, &error);
  g_assert_no_error (error);
  mb = odori_composer_compose (b, &error);
  g_assert_no_error (error);
  g_assert_null (odori_composer_get_foot_lock (a));
  g_assert_cmpmem (ma->transforms, sizeof (OdoriTransform) * ma->n_frames * ma->n_segments,
                   mb->transforms, sizeof (OdoriTransform) * mb->n_frames * mb->n_segments);

  /* "# FootLock: off" is off too; the caller can force it on over it */
  score->foot_lock = 0;
  ma = odori_composer_update (a, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (odori_composer_get_foot_lock (a));
  g_assert_cmpmem (ma->transforms, sizeof (OdoriTransform) * ma->n_frames * ma->n_segments,
                   mb->transforms, sizeof (OdoriTransform) * mb->n_frames * mb->n_segments);
  odori_composer_set_foot_lock (a, 1);
  ma = odori_composer_update (a, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (odori_composer_get_foot_lock (a));
  g_assert_false (memcmp (ma->transforms, mb->transforms,
                          sizeof (OdoriTransform) * ma->n_frames * ma->n_segments) == 0);
  /* and off again: the motion as composed */
  odori_composer_set_foot_lock (a, 0);
  ma = odori_composer_update (a, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (ma->transforms, sizeof (OdoriTransform) * ma->n_frames * ma->n_segments,
                   mb->transforms, sizeof (OdoriTransform) * mb->n_frames * mb->n_segments);
  remove_dir (dir);
}

/* An update after edits equals a full compose, with the lock on. */
static void
test_incremental (void)
{
  g_autofree char *dir = sample_dir ();
  g_autoptr(OdoriScore) score = write_switching_score (dir);
  g_autoptr(OdoriComposer) inc = composer_for (dir, score, -1);
  g_autoptr(GError) error = NULL;
  OdoriScorePart *ll = g_ptr_array_index (score->parts, 2);
  OdoriScorePart *rl = g_ptr_array_index (score->parts, 3);
  struct
  {
    OdoriScorePart *part;
    guint           symbol;
    int             delta;
  } edits[] = { { ll, 1, 5 }, { rl, 3, -9 }, { ll, 4, 12 }, { rl, 0, 3 } };

  g_assert_cmpstr (ll->code, ==, "LL");
  g_assert_cmpstr (rl->code, ==, "RL");
  odori_composer_compose (inc, &error);
  g_assert_no_error (error);
  for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
    {
      OdoriScoreSymbol *sym = &g_array_index (edits[e].part->symbols, OdoriScoreSymbol, edits[e].symbol);
      g_autoptr(OdoriComposer) full = NULL;
      OdoriMotion *mi, *mf;
      guint64      recomputed = 0;

      sym->start = (guint) ((int) sym->start + edits[e].delta);
      mi = odori_composer_update (inc, &recomputed, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (recomputed, <, (guint64) mi->n_frames * mi->n_segments);
      full = composer_for (dir, score, -1);
      mf = odori_composer_compose (full, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (mi->n_frames, ==, mf->n_frames);
      g_assert_cmpmem (mi->transforms, sizeof (OdoriTransform) * mi->n_frames * mi->n_segments,
                       mf->transforms, sizeof (OdoriTransform) * mf->n_frames * mf->n_segments);
      g_assert_cmpuint (odori_foot_lock_get_contacts (odori_composer_get_foot_lock (inc))->len, ==,
                        odori_foot_lock_get_contacts (odori_composer_get_foot_lock (full))->len);
    }
  remove_dir (dir);
}

/* 200 random edits, as the window makes them (moves on every track, the root track
 * included, insertions, deletions, modifiers, per-symbol and score blends, root matching,
 * the lock turned on and off): after each, the update of a composer that keeps offsets
 * (odori_composer_set_incremental ()) and of one that does not equal, byte for byte,
 * a fresh full compose of the same kind, contacts included. */
static const char *const random_symbols[] = {
  "C1", "C2", "W1", "W2", "S1", "S2", "S3", "T1", "T2", "B1", "B2", "R1", "TE.K1", "MW.K1",
};

static OdoriScoreSymbol *
random_insert (OdoriScorePart *part,
               GRand          *rand,
               guint           start,
               const char     *symbol)
{
  OdoriScoreSymbol sym = { 0 };
  guint            i = 0;

  while (odori_score_part_find_symbol (part, start) >= 0)
    start++;
  while (i < part->symbols->len && g_array_index (part->symbols, OdoriScoreSymbol, i).start < start)
    i++;
  sym.start = start;
  sym.symbol = g_strdup (symbol != NULL ? symbol
                                        : random_symbols[g_rand_int_range (rand, 0, G_N_ELEMENTS (random_symbols))]);
  sym.line = 1;
  g_array_insert_val (part->symbols, i, sym);
  return &g_array_index (part->symbols, OdoriScoreSymbol, i);
}

static void
random_mods (GRand           *rand,
             OdoriSymbolMods *mods)
{
  static const double speeds[] = { 0, 0.5, 0.75, 1.5, 2 };

  memset (mods, 0, sizeof *mods);
  if (g_rand_boolean (rand))
    mods->in = g_rand_int_range (rand, 0, 10);
  if (g_rand_boolean (rand))
    mods->out = MAX (mods->in, 1) + g_rand_int_range (rand, 20, 60);
  mods->speed = speeds[g_rand_int_range (rand, 0, G_N_ELEMENTS (speeds))];
  mods->repeat = g_rand_int_range (rand, 0, 4);
  mods->mirror = g_rand_int_range (rand, 0, 3) == 0;
  if (g_rand_boolean (rand))
    {
      mods->has_blend = TRUE;
      mods->blend = g_rand_int_range (rand, 0, 12);
    }
}

static void
assert_same_lock (OdoriComposer *a,
                  OdoriComposer *b)
{
  OdoriFootLock *la = odori_composer_get_foot_lock (a), *lb = odori_composer_get_foot_lock (b);
  GArray        *ca, *cb;

  g_assert_true ((la == NULL) == (lb == NULL));
  if (la == NULL)
    return;
  ca = odori_foot_lock_get_contacts (la);
  cb = odori_foot_lock_get_contacts (lb);
  g_assert_cmpuint (ca->len, ==, cb->len);
  g_assert_cmpmem (ca->data, ca->len * sizeof (OdoriFootContact), cb->data, cb->len * sizeof (OdoriFootContact));
  g_assert_cmpfloat (odori_foot_lock_get_max_drop (la), ==, odori_foot_lock_get_max_drop (lb));
  for (guint l = 0; l < odori_foot_lock_get_n_legs (la); l++)
    {
      double ba, aa, bb, ab;

      odori_foot_lock_get_slide (la, NULL, 0, G_MAXUINT - 1, &ba, &aa);
      odori_foot_lock_get_slide (lb, NULL, 0, G_MAXUINT - 1, &bb, &ab);
      g_assert_cmpfloat (ba, ==, bb);
      g_assert_cmpfloat (aa, ==, ab);
    }
}

static void
test_random_edits (void)
{
  g_autofree char *dir = sample_dir ();
  g_autoptr(OdoriScore) score = load_score (dir, "sample.dds");
  g_autoptr(OdoriComposer) inc = composer_for (dir, score, 1);
  g_autoptr(OdoriComposer) plain = composer_for (dir, score, 1);
  g_autoptr(GRand) rand = g_rand_new_with_seed (2112);
  g_autoptr(GError) error = NULL;
  OdoriRootMatch match = ODORI_ROOT_MATCH_POSITION;
  int lock = 1;
  guint64 shifted = 0, windowed = 0;
  guint          parallel_before = odori_composer_get_test_parallel_runs ();

  /* more symbols on the root track, so that moves there have offsets after them */
  for (guint k = 0; k < 6; k++)
    random_insert (g_ptr_array_index (score->parts, 0), rand, 20 + 97 * k, NULL);
  odori_composer_set_incremental (inc, TRUE);
  odori_composer_set_incremental (plain, FALSE);
  g_assert_nonnull (odori_composer_compose (inc, &error));
  g_assert_no_error (error);
  g_assert_nonnull (odori_composer_compose (plain, &error));
  g_assert_no_error (error);

  for (guint e = 0; e < 200; e++)
    {
      /* the root track (part 0) half the time */
      guint           p = g_rand_boolean (rand) ? 0 : (guint) g_rand_int_range (rand, 1, score->parts->len);
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);
      guint           n = part->symbols->len;
      int             what = g_rand_int_range (rand, 0, 100);
      g_autoptr(OdoriComposer) full = NULL;
      g_autoptr(OdoriComposer) full_inc = NULL;
      OdoriMotion    *mi, *mp, *mf, *mfi;
      guint64         recomputed = 0;

      if (what < 45 && n > 0)
        {
          /* a move, by a few frames or far (past neighbours too) */
          guint            i = g_rand_int_range (rand, 0, n);
          OdoriScoreSymbol sym = g_array_index (part->symbols, OdoriScoreSymbol, i);
          int              delta = g_rand_boolean (rand) ? g_rand_int_range (rand, -8, 9)
                                                         : g_rand_int_range (rand, -150, 151);
          OdoriScoreSymbol *moved;

          sym.symbol = g_strdup (sym.symbol);
          g_array_remove_index (part->symbols, i);
          moved = random_insert (part, rand, (guint) MAX ((int) sym.start + delta, 1), sym.symbol);
          moved->mods = sym.mods;
          g_free (sym.symbol);
        }
      else if (what < 60)
        random_insert (part, rand, g_rand_int_range (rand, 1, 700), NULL);
      else if (what < 70 && n > (p == 0 ? 2u : 0u))
        g_array_remove_index (part->symbols, g_rand_int_range (rand, 0, n));
      else if (what < 85 && n > 0)
        random_mods (rand, &g_array_index (part->symbols, OdoriScoreSymbol, g_rand_int_range (rand, 0, n)).mods);
      else if (what < 90)
        score->blend = g_rand_int_range (rand, 0, 10);
      else if (what < 95)
        {
          lock = g_rand_int_range (rand, 0, 4) != 0;
          odori_composer_set_foot_lock (inc, lock);
          odori_composer_set_foot_lock (plain, lock);
        }
      else
        {
          match = g_rand_int_range (rand, 0, 3);
          odori_composer_set_root_match (inc, match);
          odori_composer_set_root_match (plain, match);
        }

      /* the incremental composer splits its frames between 1 to 3 threads (the real
       * threshold is far above the sample's size), the others take them on one */
      odori_composer_set_test_threads (1 + e % 3);
      mi = odori_composer_update (inc, &recomputed, &error);
      odori_composer_set_test_threads (1);
      g_assert_no_error (error);
      shifted += odori_composer_get_n_shifted (inc);
      windowed += recomputed < (guint64) mi->n_frames * mi->n_segments;
      mp = odori_composer_update (plain, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (odori_composer_get_n_shifted (plain), ==, 0);
      full = composer_for (dir, score, lock);
      odori_composer_set_root_match (full, match);
      odori_composer_set_incremental (full, FALSE);
      mf = odori_composer_compose (full, &error);
      g_assert_no_error (error);
      full_inc = composer_for (dir, score, lock);
      odori_composer_set_root_match (full_inc, match);
      odori_composer_set_incremental (full_inc, TRUE);
      mfi = odori_composer_compose (full_inc, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (mi->n_frames, ==, mf->n_frames);
      g_assert_cmpuint (mp->n_frames, ==, mf->n_frames);
      /* the incremental composer keeps the root offsets apart (unless the feet are
       * locked: the locked copy has them added in): bit for bit a full compose that
       * does the same, and within float rounding one that adds them in */
      g_assert_true ((mi->root_offsets != NULL) == (mfi->root_offsets != NULL));
      g_assert_cmpmem (mi->transforms, sizeof (OdoriTransform) * mi->n_frames * mi->n_segments,
                       mfi->transforms, sizeof (OdoriTransform) * mfi->n_frames * mfi->n_segments);
      if (mi->root_offsets != NULL)
        {
          g_assert_cmpmem (mi->root_offsets, sizeof (float) * 3 * mi->n_frames,
                           mfi->root_offsets, sizeof (float) * 3 * mfi->n_frames);
          g_assert_cmpmem (mi->follows_root, mi->n_segments, mfi->follows_root, mfi->n_segments);
        }
      g_assert_true (odori_motion_equal (mi, mf, 1e-3, 1e-3, NULL));
      g_assert_cmpmem (mp->transforms, sizeof (OdoriTransform) * mp->n_frames * mp->n_segments,
                       mf->transforms, sizeof (OdoriTransform) * mf->n_frames * mf->n_segments);
      assert_same_lock (inc, full_inc);
      assert_same_lock (plain, full);
    }
  odori_composer_set_test_threads (0);
  /* the edits did take the short ways, and on several threads */
  g_assert_cmpuint (odori_composer_get_test_parallel_runs (), >=, parallel_before + 100);
  g_assert_cmpuint (shifted, >, 0);
  g_assert_cmpuint (windowed, >, 100);
  remove_dir (dir);
}

/* odori-cli compose --foot-lock / --no-foot-lock and the seam report's slides */

/* Runs odori-cli with ARGS in DIR; returns its exit status, *out its standard output. */
static int
run_cli (const char  *dir,
         const char **args,
         char       **out)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (dir, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, out, NULL, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static JsonObject *
seam_report (const char  *dir,
             const char **args,
             JsonParser  *parser)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run_cli (dir, args, &out), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli (void)
{
  g_autofree char *dir = sample_dir ();
  g_autoptr(OdoriScore) score = write_switching_score (dir);
  const char *on[] = { "compose", "switch.dds", "--seams", "--json", NULL };
  const char *forced[] = { "compose", "sample.dds", "--seams", "--json", "--foot-lock", NULL };
  const char *off[] = { "compose", "switch.dds", "--seams", "--json", "--no-foot-lock", NULL };
  const char *both[] = { "compose", "switch.dds", "--seams", "--foot-lock", "--no-foot-lock", NULL };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  JsonObject      *report;
  JsonArray       *seams;
  double           before = 0, after = 0;
  g_autofree char *out = NULL;

  /* the score says on */
  report = seam_report (dir, on, p1);
  g_assert_true (json_object_has_member (report, "foot_lock"));
  seams = json_object_get_array_member (report, "seams");
  for (guint i = 0; i < json_array_get_length (seams); i++)
    {
      JsonObject *seam = json_array_get_object_element (seams, i);

      g_assert_true (json_object_has_member (seam, "foot_slide_before"));
      before += json_object_get_double_member (seam, "foot_slide_before");
      after += json_object_get_double_member (seam, "foot_slide_after");
    }
  g_assert_cmpfloat (before, >, 1.0);
  g_assert_cmpfloat (after, <=, 0.2 * before);
  report = json_object_get_object_member (report, "foot_lock");
  g_assert_cmpint (json_object_get_int_member (report, "contacts"), >, 2);
  g_assert_cmpfloat (json_object_get_double_member (report, "slide_after"), <=,
                     0.2 * json_object_get_double_member (report, "slide_before"));

  /* the sample says nothing: --foot-lock forces it on */
  report = seam_report (dir, forced, p2);
  g_assert_true (json_object_has_member (report, "foot_lock"));

  /* --no-foot-lock over the score's on: the report as before foot locking existed */
  report = seam_report (dir, off, p3);
  g_assert_false (json_object_has_member (report, "foot_lock"));
  seams = json_object_get_array_member (report, "seams");
  g_assert_false (json_object_has_member (json_array_get_object_element (seams, 0), "foot_slide_before"));

  g_assert_cmpint (run_cli (dir, both, &out), ==, 2);
  remove_dir (dir);
}

/* Unit cases on a hand-made leg */

/* A Biovision-named motion: hips, two legs of 16 + 16 in; the left ankle slides 6 in
 * forward on the floor over frames 10..29 under the hips, which rise by 2 in: its plant is
 * then out of reach (the body must move down). The right foot stays put. */
static OdoriMotion *
sliding_motion (void)
{
  const char  *names[] = { "Hips", "Chest", "LeftUpLeg", "LeftLowLeg", "LeftFoot",
                           "RightUpLeg", "RightLowLeg", "RightFoot" };
  OdoriMotion *m = odori_motion_new (G_N_ELEMENTS (names), 60, 1.0 / 30, NULL);

  for (guint s = 0; s < G_N_ELEMENTS (names); s++)
    odori_motion_set_segment_name (m, s, names[s]);
  for (guint f = 0; f < m->n_frames; f++)
    {
      double slide = f < 10 ? 0 : f < 30 ? (f - 10) * 0.3
                                         : 6;
      double rise = f < 10 ? 0 : f < 30 ? (f - 10) * 0.1
                                        : 2;
      float  hips[3] = { 0, (float) (35 + rise), (float) slide };

      for (int side = 0; side < 2; side++)
        {
          float x = side == 0 ? 3.5f : -3.5f;
          float ankle[3] = { x, 3, side == 0 ? (float) slide : 0 };
          float hip[3] = { x, hips[1] - 2.5f, hips[2] };
          /* the knee: 16 from the hip and 16 from the ankle, forward of their line */
          double dx = ankle[1] - hip[1], dz = ankle[2] - hip[2];
          double d = hypot (dx, dz), b = sqrt (MAX (256 - d * d / 4, 0));
          float  knee[3] = { x, (float) (hip[1] + dx / 2 + b * dz / d),
                             (float) (hip[2] + dz / 2 - b * dx / d) };
          int    base = side == 0 ? 2 : 5;

          memcpy (odori_motion_get (m, f, base)->position, hip, sizeof hip);
          memcpy (odori_motion_get (m, f, base + 1)->position, knee, sizeof knee);
          memcpy (odori_motion_get (m, f, base + 2)->position, ankle, sizeof ankle);
        }
      memcpy (odori_motion_get (m, f, 0)->position, hips, sizeof hips);
      odori_motion_get (m, f, 1)->position[0] = hips[0];
      odori_motion_get (m, f, 1)->position[1] = hips[1] + 9;
      odori_motion_get (m, f, 1)->position[2] = hips[2];
    }
  return m;
}

static void
test_plant_out_of_reach (void)
{
  g_autoptr(OdoriMotion) m = sliding_motion ();
  g_autoptr(OdoriMotion) out = odori_motion_copy (m);
  g_autoptr(OdoriFootLock) lock = odori_foot_lock_new (m);
  GArray                 *contacts;
  const OdoriFootContact *left = NULL;
  guint                   changed;

  g_assert_nonnull (lock);
  g_assert_cmpuint (odori_foot_lock_get_n_legs (lock), ==, 2);
  g_assert_cmpstr (odori_foot_lock_get_leg_name (lock, 0), ==, "LeftFoot");
  g_assert_true (odori_foot_lock_matches (lock, m));
  changed = odori_foot_lock_apply (lock, m, out);
  g_assert_cmpuint (changed, >, 0);
  contacts = odori_foot_lock_get_contacts (lock);
  for (guint i = 0; i < contacts->len; i++)
    if (g_array_index (contacts, OdoriFootContact, i).leg == 0)
      left = &g_array_index (contacts, OdoriFootContact, i);
  g_assert_nonnull (left);
  /* the slide is slow enough to be a contact, all along */
  g_assert_cmpuint (left->first, ==, 0);
  g_assert_cmpuint (left->last, ==, m->n_frames - 1);
  g_assert_cmpfloat (left->slide_before, >, 5.9);
  g_assert_cmpfloat (left->slide_after, <, 1e-3);
  g_assert_cmpfloat (left->max_miss, <, 1e-3);
  /* hips 2 in higher and the foot 6 in ahead: 16 + 16 cannot reach without moving down */
  g_assert_cmpfloat (left->max_drop, >, 0.1);
  g_assert_cmpfloat (odori_foot_lock_get_max_drop (lock), ==, left->max_drop);
  g_assert_cmpfloat (max_length_change (m, out), <=, 1e-4);
  /* the right foot, still on the floor, stays where it is through the drop */
  for (guint f = 0; f < m->n_frames; f++)
    g_assert_cmpfloat (dist (odori_motion_get (m, f, 7)->position, odori_motion_get (out, f, 7)->position), <, 1e-3);
}

static void
test_no_legs (void)
{
  const char *names[] = { "Hips", "Chest", "Neck", "Head" };
  g_autoptr(OdoriMotion) m = odori_motion_new (G_N_ELEMENTS (names), 4, 1.0 / 30, NULL);

  for (guint s = 0; s < G_N_ELEMENTS (names); s++)
    odori_motion_set_segment_name (m, s, names[s]);
  g_assert_null (odori_foot_lock_new (m));
}

/* The corpus captures, locked as loaded */

static void
test_corpus (void)
{
  const char      *files[] = { "bvh-cmu-131/131_01.bvh", "bvh-cmu-cgspeed/12_03.bvh",
                               "bvh-cmu-salsa/60_10_scaled.bvh", "bvh-cmu-salsa/61_10_scaled.bvh",
                               "bvh-rokoko/jesse_dance.bvh", "bvh-fair-zup/zombie.bvh" };
  g_autofree char *probe = odori_test_corpus_file ("PROVENANCE.md");

  if (probe == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = odori_test_corpus_file (files[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriMotion) m = NULL;
      g_autoptr(OdoriMotion) out = NULL;
      g_autoptr(OdoriFootLock) lock = NULL;
      GArray *contacts;
      double  before = 0, after = 0, length_change;
      gint64  t0;

      if (path == NULL)
        return;
      m = odori_bvh_load (path, NULL, &error);
      g_assert_no_error (error);
      lock = odori_foot_lock_new (m);
      g_assert_nonnull (lock);
      g_assert_cmpuint (odori_foot_lock_get_n_legs (lock), ==, 2);
      out = odori_motion_copy (m);
      t0 = g_get_monotonic_time ();
      odori_foot_lock_apply (lock, m, out);
      t0 = g_get_monotonic_time () - t0;
      contacts = odori_foot_lock_get_contacts (lock);
      for (guint c = 0; c < contacts->len; c++)
        {
          before += g_array_index (contacts, OdoriFootContact, c).slide_before;
          after += g_array_index (contacts, OdoriFootContact, c).slide_after;
        }
      length_change = max_length_change (m, out);
      g_test_message ("%s: %u frames, %u contacts, slide %.3f -> %.3f (%.1f %% less), max drop "
                      "%.3f, bone length change %.2g, %.2f µs per frame",
                      files[i], m->n_frames, contacts->len, before, after,
                      before > 0 ? 100 * (1 - after / before) : 0,
                      odori_foot_lock_get_max_drop (lock), length_change,
                      (double) t0 / m->n_frames);
      g_assert_cmpfloat (length_change, <=, 1e-4);
      g_assert_cmpuint (contacts->len, >, 0);
      g_assert_cmpfloat (after, <=, 0.2 * before);
    }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/foot-lock/sample-score", test_sample_score);
  g_test_add_func ("/core/foot-lock/switching-score", test_switching_score);
  g_test_add_func ("/core/foot-lock/off-by-default", test_off_by_default);
  g_test_add_func ("/core/foot-lock/incremental", test_incremental);
  g_test_add_func ("/core/foot-lock/random-edits", test_random_edits);
  g_test_add_func ("/core/foot-lock/cli", test_cli);
  g_test_add_func ("/core/foot-lock/plant-out-of-reach", test_plant_out_of_reach);
  g_test_add_func ("/core/foot-lock/no-legs", test_no_legs);
  g_test_add_func ("/core/foot-lock/corpus", test_corpus);

  return g_test_run ();
}
