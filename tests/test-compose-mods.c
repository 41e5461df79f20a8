/* test-compose-mods.c: symbol modifiers (DESIGN.md "Symbol modifiers") against
 * hand-computed frames, in the full compose and the incremental update
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * As in test-compose.c, clips encode where they come from: the Hips' X is
 * 1000·clip + frame and its rotation 10·frame degrees about Z, so an output frame tells
 * which clip and which (possibly fractional) source frame played.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "odori-compose.h"
#include "odori-index.h"
#include "odori-score-edit.h"
#include "odori-score.h"

static char *tmpdir;

static const char *segments[] = {
  "Hips",
  "LeftArm",
  "LeftHand",
  "RightArm",
  "RightHand",
  "LToe",
  "RToe",
  "foot_l",
  "foot_r",
  "左手",
  "右手",
  "Neck",
  NULL,
};

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* Position and rotation (Z, X, Y degrees) of segment SEG at FRAME of CLIP: Hips as above;
 * every other segment off-centre and turned about all three axes, differently per
 * segment, so that a mirror or a swap of sides shows. */
static void
pose (guint  clip,
      guint  frame,
      guint  seg,
      double pos[3],
      double rot[3])
{
  if (seg == 0)
    {
      pos[0] = 1000.0 * clip + frame;
      pos[1] = 40;
      pos[2] = -0.25 * frame;
      rot[0] = 10.0 * frame;
      rot[1] = rot[2] = 0;
      return;
    }
  pos[0] = 3.0 * seg + 0.5 * frame + 100.0 * clip;
  pos[1] = 40 + 10.0 * seg;
  pos[2] = 2.0 * seg - 0.25 * frame;
  rot[0] = 4.0 * frame + seg;
  rot[1] = 3.0 * seg - frame;
  rot[2] = 2.0 * seg + 0.5 * frame;
}

/* Writes a BVA by hand, as test-compose.c does. */
static void
write_bva (const char *name,
           guint       clip,
           guint       n_frames)
{
  GString         *s = g_string_new (NULL);
  g_autofree char *path = tmp_path (name);

  for (guint seg = 0; segments[seg]; seg++)
    {
      g_string_append_printf (s, "Segment:\t%s\nFrames:\t%u\nFrame Time:\t0.0333333\n", segments[seg],
                              n_frames);
      g_string_append (s, "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"
                          "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n");
      for (guint f = 1; f <= n_frames; f++)
        {
          double pos[3], rot[3];
          char   buf[6][G_ASCII_DTOSTR_BUF_SIZE];

          pose (clip, f, seg, pos, rot);
          g_string_append_printf (s, "%s %s %s %s %s %s 100 100 100\n",
                                  g_ascii_dtostr (buf[0], sizeof buf[0], pos[0]),
                                  g_ascii_dtostr (buf[1], sizeof buf[1], pos[1]),
                                  g_ascii_dtostr (buf[2], sizeof buf[2], pos[2]),
                                  g_ascii_dtostr (buf[3], sizeof buf[3], rot[1]),
                                  g_ascii_dtostr (buf[4], sizeof buf[4], rot[2]),
                                  g_ascii_dtostr (buf[5], sizeof buf[5], rot[0]));
        }
    }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
}

static void
setup_library (void)
{
  g_autofree char *index = tmp_path ("motion.dat");

  write_bva ("a.bva", 1, 20);
  write_bva ("b.bva", 2, 20);
  g_assert_true (g_file_set_contents (index,
                                      "define part name=\"Body\" code=\"BD\" map=\"Hips\"\n"
                                      "define part name=\"Left arm\" code=\"LA\" map=\"Hips,LeftArm,LeftHand\"\n"
                                      "define part name=\"Right arm\" code=\"RA\" map=\"Hips,RightArm,RightHand\"\n"
                                      "define part name=\"Extra\" code=\"EX\" map=\"Hips,LToe,RToe,foot_l,foot_r,左手,右手,Neck\"\n"
                                      "begin class name=\"Test\" code=\"t\"\n"
                                      "  begin show name=\"A\" code=\"SA\" file=\"a.bva\"\n"
                                      "    motion name=\"a1\" code=\"A1\" frame=1-10\n"
                                      "    motion name=\"a2\" code=\"A2\" frame=11-20\n"
                                      "  end show\n"
                                      "  begin show name=\"B\" code=\"SB\" file=\"b.bva\"\n"
                                      "    motion name=\"b1\" code=\"B1\" frame=1-10\n"
                                      "  end show\n"
                                      "end class\n",
                                      -1, NULL));
}

static OdoriIndex *
load_index (void)
{
  g_autofree char *path = tmp_path ("motion.dat");
  g_autoptr(GError) error = NULL;
  OdoriIndex *index = odori_index_load (path, &error);

  g_assert_no_error (error);
  return index;
}

static OdoriScore *
load_score (const char *text)
{
  g_autofree char *path = tmp_path ("score.dds");
  g_autoptr(GError) error = NULL;
  OdoriScore *score;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  score = odori_score_load (path, &error);
  g_assert_no_error (error);
  return score;
}

/* A fresh full compose of SCORE (NULL with ERROR set on failure). */
static OdoriMotion *
compose_score (OdoriScore    *score,
               OdoriRootMatch match,
               GError       **error)
{
  g_autoptr(OdoriIndex) index = load_index ();
  g_autoptr(OdoriComposer) composer = odori_composer_new (score, index, error);
  OdoriMotion *out;

  if (composer == NULL)
    return NULL;
  odori_composer_set_root_match (composer, match);
  out = odori_composer_compose (composer, error);
  return out ? odori_motion_ref (out) : NULL;
}

static OdoriMotion *
compose_text (const char    *text,
              OdoriRootMatch match)
{
  g_autoptr(OdoriScore) score = load_score (text);
  g_autoptr(GError) error = NULL;
  OdoriMotion *m = compose_score (score, match, &error);

  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

static const OdoriTransform *
at (OdoriMotion *m,
    guint        frame, /* 1-based */
    const char  *seg)
{
  int s = odori_motion_find_segment (m, seg);

  g_assert_cmpint (s, >=, 0);
  g_assert_cmpuint (frame, >=, 1);
  g_assert_cmpuint (frame, <=, m->n_frames);
  {
    static OdoriTransform ring[16];
    static guint          next;
    OdoriTransform       *t = &ring[next++ % G_N_ELEMENTS (ring)];

    /* the world transform: the composer keeps root offsets apart */
    odori_motion_get_world (m, frame - 1, s, t);
    return t;
  }
}

static double
hips_x (OdoriMotion *m,
        guint        frame)
{
  return at (m, frame, "Hips")->position[0];
}

/* The Hips' rotation about Z, in degrees (it turns about Z only). */
static double
hips_z_deg (OdoriMotion *m,
            guint        frame)
{
  const float *q = at (m, frame, "Hips")->rotation;

  g_assert_cmpfloat (fabs (q[0]) + fabs (q[1]), <, 1e-5);
  return 2 * atan2 (q[2], q[3]) * 180 / G_PI;
}

/* Byte for byte: names, sizes, frame time and every float. */
static void
assert_same_motion (OdoriMotion *a,
                    OdoriMotion *b)
{
  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  g_assert_cmpuint (a->n_segments, ==, b->n_segments);
  g_assert_true (a->frame_time == b->frame_time);
  for (guint s = 0; s < a->n_segments; s++)
    g_assert_cmpstr (a->segments[s].name, ==, b->segments[s].name);
  g_assert_cmpint (memcmp (a->transforms, b->transforms,
                           sizeof (OdoriTransform) * a->n_frames * a->n_segments),
                   ==, 0);
}

/* in=3 out=7 keeps clip frames 3..7: five frames, the symbol five long. */
static void
test_trim (void)
{
  g_autoptr(OdoriMotion) m = NULL, cut = NULL;

  setup_library ();
  m = compose_text ("BD: Hips\n1: A1 in=3 out=7\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (m->n_frames, ==, 5);
  for (guint f = 1; f <= 5; f++)
    {
      g_assert_cmpfloat (hips_x (m, f), ==, 1000 + 2 + f);
      g_assert_cmpfloat_with_epsilon (hips_z_deg (m, f), 10.0 * (2 + f), 1e-3);
    }

  /* in alone and out alone; the next symbol follows the trimmed length */
  cut = compose_text ("BD: Hips\n1: A1 out=4\n5: B1 in=9\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (cut->n_frames, ==, 6);
  for (guint f = 1; f <= 4; f++)
    g_assert_cmpfloat (hips_x (cut, f), ==, 1000 + f);
  g_assert_cmpfloat (hips_x (cut, 5), ==, 2009);
  g_assert_cmpfloat (hips_x (cut, 6), ==, 2010);
}

/* speed=0.5 lasts twice as long, odd frames halfway between two source frames; speed=2
 * takes every other frame; 0.75 reads a quarter-way point. */
static void
test_speed (void)
{
  g_autoptr(OdoriMotion) slow = NULL, fast = NULL, odd = NULL;

  setup_library ();
  slow = compose_text ("BD: Hips\n1: A1 speed=0.5\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (slow->n_frames, ==, 20); /* round (10 / 0.5) */
  for (guint j = 0; j < 20; j++)
    {
      double t = MIN (0.5 * j, 9.0); /* time in the clip, 0-based */

      g_assert_cmpfloat_with_epsilon (hips_x (slow, j + 1), 1001 + t, 1e-4);
      g_assert_cmpfloat_with_epsilon (at (slow, j + 1, "Hips")->position[2], -0.25 * (1 + t), 1e-5);
      /* slerp between 10·k and 10·(k+1) degrees about one axis: the angle in between */
      g_assert_cmpfloat_with_epsilon (hips_z_deg (slow, j + 1), 10 * (1 + t), 1e-3);
    }
  g_assert_cmpfloat (hips_x (slow, 2), ==, 1001.5f);
  g_assert_cmpfloat (hips_x (slow, 20), ==, 1010); /* time 9.5 reads the last frame */

  fast = compose_text ("BD: Hips\n1: A1 speed=2\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (fast->n_frames, ==, 5);
  for (guint j = 0; j < 5; j++)
    {
      /* whole source frames, exactly */
      g_assert_cmpfloat (hips_x (fast, j + 1), ==, 1001 + 2 * j);
      g_assert_cmpfloat_with_epsilon (hips_z_deg (fast, j + 1), 10 * (1 + 2 * j), 1e-3);
    }

  odd = compose_text ("BD: Hips\n1: A1 speed=0.75\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (odd->n_frames, ==, 13); /* round (13.33) */
  g_assert_cmpfloat_with_epsilon (hips_x (odd, 2), 1001.75, 1e-4);
  g_assert_cmpfloat_with_epsilon (hips_z_deg (odd, 2), 17.5, 1e-3);
  g_assert_cmpfloat_with_epsilon (hips_x (odd, 4), 1003.25, 1e-4);
  g_assert_cmpfloat_with_epsilon (hips_z_deg (odd, 4), 32.5, 1e-3);
  g_assert_cmpfloat_with_epsilon (hips_x (odd, 13), 1010, 1e-4); /* min (9, 9) */

  /* trim first, then speed: frames 3..8 at speed 2 read 3, 5, 7 */
  {
    g_autoptr(OdoriMotion) both = compose_text ("BD: Hips\n1: A1 speed=2 in=3 out=8\n",
                                                 ODORI_ROOT_MATCH_NONE);

    g_assert_cmpuint (both->n_frames, ==, 3);
    g_assert_cmpfloat (hips_x (both, 1), ==, 1003);
    g_assert_cmpfloat (hips_x (both, 2), ==, 1005);
    g_assert_cmpfloat (hips_x (both, 3), ==, 1007);
  }
}

/* The source transform mirrored by hand: p = (−x, y, z), R' = M·R·M (as matrices). */
static void
mirror_by_matrix (const OdoriTransform *t,
                  float                 p[3],
                  mat3                  r)
{
  mat3 rot, m = GLM_MAT3_IDENTITY_INIT, tmp;

  m[0][0] = -1;
  p[0] = -t->position[0];
  p[1] = t->position[1];
  p[2] = t->position[2];
  glm_quat_mat3 ((float *) t->rotation, rot);
  glm_mat3_mul (m, rot, tmp);
  glm_mat3_mul (tmp, m, r);
}

static void
assert_mirrors (const OdoriTransform *got,
                const OdoriTransform *src)
{
  float p[3];
  mat3  want, have;

  mirror_by_matrix (src, p, want);
  glm_quat_mat3 ((float *) got->rotation, have);
  for (int c = 0; c < 3; c++)
    {
      g_assert_cmpfloat_with_epsilon (got->position[c], p[c], 1e-3);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat_with_epsilon (have[c][k], want[c][k], 1e-5);
    }
}

/* A mirrored symbol on the left arm makes the left arm do what the right arm did, mirrored;
 * every naming rule finds its counterpart; a sensor without one mirrors itself. */
static void
test_mirror (void)
{
  g_autofree char *a_path = tmp_path ("a.bva");
  g_autoptr(OdoriMotion) src = NULL, all = NULL, arm = NULL;
  static const char *pairs[][2] = {
    { "LeftArm", "RightArm" },
    { "LeftHand", "RightHand" },
    { "RightArm", "LeftArm" },
    { "LToe", "RToe" },
    { "RToe", "LToe" },
    { "foot_l", "foot_r" },
    { "foot_r", "foot_l" },
    { "左手", "右手" },
    { "右手", "左手" },
    { "Neck", "Neck" },
    { "Hips", "Hips" },
  };

  setup_library ();
  src = compose_text ("BD: Hips\n1: A1\n", ODORI_ROOT_MATCH_NONE);
  (void) a_path;

  /* the whole body mirrored: every sensor is its counterpart's source, reflected */
  all = compose_text ("BD: Hips\n1: A1 mirror\nLA: Hips,LeftArm,LeftHand\n1: A1 mirror\n"
                      "RA: Hips,RightArm,RightHand\n1: A1 mirror\n"
                      "EX: Hips,LToe,RToe,foot_l,foot_r,左手,右手,Neck\n1: A1 mirror\n",
                      ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (all->n_frames, ==, 10);
  for (guint f = 1; f <= 10; f++)
    for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
      assert_mirrors (at (all, f, pairs[i][0]), at (src, f, pairs[i][1]));
  /* the quaternion rule itself, on the Hips (about Z only): 10·f degrees become −10·f */
  g_assert_cmpfloat_with_epsilon (hips_z_deg (all, 4), -40, 1e-3);
  g_assert_cmpfloat (hips_x (all, 4), ==, -1004);

  /* only the left arm mirrored, on an unmirrored body: re-attached from the mirrored
   * clip, R_out = R_hips · M(R_hips)⁻¹ · M(R_rightarm) and likewise the position */
  arm = compose_text ("BD: Hips\n1: A1\nLA: Hips,LeftArm,LeftHand\n1: A1 mirror\n",
                      ODORI_ROOT_MATCH_NONE);
  for (guint f = 1; f <= 10; f++)
    {
      const OdoriTransform *hips = at (src, f, "Hips");
      const OdoriTransform *ra = at (src, f, "RightArm");
      const OdoriTransform *got = at (arm, f, "LeftArm");
      float                 mh[4] = { hips->rotation[0], -hips->rotation[1], -hips->rotation[2], hips->rotation[3] };
      float                 mr[4] = { ra->rotation[0], -ra->rotation[1], -ra->rotation[2], ra->rotation[3] };
      float                 d[3] = { -(ra->position[0] - hips->position[0]), ra->position[1] - hips->position[1],
                                     ra->position[2] - hips->position[2] };
      float                 inv[4], rel[4], want[4], local[3], p[3];

      glm_quat_inv (mh, inv);
      glm_quat_mul (inv, mr, rel);
      glm_quat_mul ((float *) hips->rotation, rel, want);
      g_assert_cmpfloat (odori_quat_angle_deg (got->rotation, want), <, 1e-3);
      glm_quat_rotatev (inv, d, local);
      glm_quat_rotatev ((float *) hips->rotation, local, p);
      for (int c = 0; c < 3; c++)
        g_assert_cmpfloat_with_epsilon (got->position[c], hips->position[c] + p[c], 1e-3);
      /* the body itself is not mirrored */
      g_assert_cmpint (memcmp (at (arm, f, "Hips"), hips, sizeof *hips), ==, 0);
    }
}

/* repeat=3 is three copies placed by hand with blend 0 (whatever the score's blend), each
 * a switch: with position matching the walk goes on. */
static void
test_repeat (void)
{
  g_autoptr(OdoriMotion) rep = NULL, hand = NULL, none = NULL, cut = NULL, at_next = NULL;

  setup_library ();
  rep = compose_text ("# Blend: 3\nBD: Hips\n1: A1 repeat=3\nLA: Hips,LeftArm,LeftHand\n1: B1 repeat=2\n",
                      ODORI_ROOT_MATCH_POSITION);
  hand = compose_text ("# Blend: 3\nBD: Hips\n1: A1\n11: A1 blend=0\n21: A1 blend=0\n"
                       "LA: Hips,LeftArm,LeftHand\n1: B1\n11: B1 blend=0\n",
                       ODORI_ROOT_MATCH_POSITION);
  g_assert_cmpuint (rep->n_frames, ==, 30);
  assert_same_motion (rep, hand);
  /* by hand: copy k plays clip frame j at X 1001 + j, moved on by 9 per copy (the
   * outgoing copy held its last frame, 1010, where the next one starts) */
  for (guint k = 0; k < 3; k++)
    for (guint j = 0; j < 10; j++)
      g_assert_cmpfloat_with_epsilon (hips_x (rep, 1 + 10 * k + j), 1001 + j + 9 * k, 1e-3);

  none = compose_text ("BD: Hips\n1: A1 repeat=3\n", ODORI_ROOT_MATCH_NONE);
  for (guint f = 1; f <= 30; f++)
    g_assert_cmpfloat (hips_x (none, f), ==, 1000 + (f - 1) % 10 + 1);

  /* the next symbol cuts the repeats; the symbol's length still counts whole */
  cut = compose_text ("BD: Hips\n1: A1 repeat=3\n15: B1\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (cut->n_frames, ==, 30); /* 1 + 3·10 − 1, beyond B1's 24 */
  g_assert_cmpfloat (hips_x (cut, 11), ==, 1001);
  g_assert_cmpfloat (hips_x (cut, 14), ==, 1004);
  g_assert_cmpfloat (hips_x (cut, 15), ==, 2001);
  g_assert_cmpfloat (hips_x (cut, 30), ==, 2010); /* B1 holds: no third copy */

  /* a copy starting exactly where the next symbol does is not played */
  at_next = compose_text ("# Blend: 2\nBD: Hips\n1: A1 repeat=2\n11: B1\n", ODORI_ROOT_MATCH_NONE);
  {
    double t = 1.0 / 3, w = t * t * (3 - 2 * t);

    /* B1 blends from the first copy, which holds its last frame */
    g_assert_cmpfloat_with_epsilon (hips_x (at_next, 11), (1 - w) * 1010 + w * 2001, 1e-3);
  }
}

/* blend=B overrides the score's blend into that symbol only. */
static void
test_blend (void)
{
  g_autoptr(OdoriMotion) m = NULL, cut = NULL, same = NULL, plain = NULL;

  setup_library ();
  m = compose_text ("# Blend: 4\nBD: Hips\n1: A1\n6: B1 blend=2\n16: A2\n", ODORI_ROOT_MATCH_NONE);
  for (int k = 0; k < 2; k++)
    {
      guint  f = 6 + k;
      double t = (k + 1.0) / 3.0, w = t * t * (3 - 2 * t);

      g_assert_cmpfloat_with_epsilon (hips_x (m, f), (1 - w) * (1000 + f) + w * (2001 + k), 1e-3);
    }
  g_assert_cmpfloat (hips_x (m, 8), ==, 2003);
  /* into A2 the score's 4 frames */
  for (int k = 0; k < 4; k++)
    {
      guint  f = 16 + k;
      double t = (k + 1.0) / 5.0, w = t * t * (3 - 2 * t);
      double out = f - 6 < 10 ? 2001 + (f - 6) : 2010;

      g_assert_cmpfloat_with_epsilon (hips_x (m, f), (1 - w) * out + w * (1011 + k), 1e-3);
    }

  /* blend=0 on a blended score: a hard cut */
  cut = compose_text ("# Blend: 4\nBD: Hips\n1: A1\n6: B1 blend=0\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpfloat (hips_x (cut, 5), ==, 1005);
  g_assert_cmpfloat (hips_x (cut, 6), ==, 2001);

  /* a blend given on a score without one is the same as the score's */
  same = compose_text ("BD: Hips\n1: A1\n6: B1 blend=3\n", ODORI_ROOT_MATCH_POSITION);
  plain = compose_text ("# Blend: 3\nBD: Hips\n1: A1\n6: B1\n", ODORI_ROOT_MATCH_POSITION);
  assert_same_motion (same, plain);
}

/* Every modifier at once, by hand: trim 3..8, speed 2 (frames 3, 5, 7), mirrored, twice,
 * blending 2 frames in from A2. */
static void
test_combined (void)
{
  g_autoptr(OdoriMotion) m = NULL;
  const double expect_in[] = { -1003, -1005, -1007 };

  setup_library ();
  m = compose_text ("# Blend: 5\nBD: Hips\n1: A2\n5: A1 mirror speed=2 in=3 out=8 repeat=2 blend=2\n",
                    ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (m->n_frames, ==, 10); /* A2's 10; 5 + 2·3 − 1 */
  for (guint f = 1; f <= 4; f++)
    g_assert_cmpfloat (hips_x (m, f), ==, 1010 + f);
  {
    /* frames 5 and 6: A2 (still playing) and the first copy, w = t²(3 − 2t), t = 1/3, 2/3 */
    double w1 = 7.0 / 27, w2 = 20.0 / 27;

    g_assert_cmpfloat_with_epsilon (hips_x (m, 5), (1 - w1) * 1015 + w1 * -1003, 1e-3);
    g_assert_cmpfloat_with_epsilon (hips_x (m, 6), (1 - w2) * 1016 + w2 * -1005, 1e-3);
  }
  g_assert_cmpfloat (hips_x (m, 7), ==, -1007);
  for (guint j = 0; j < 3; j++)
    {
      /* the second copy enters with blend 0 */
      g_assert_cmpfloat (hips_x (m, 8 + j), ==, expect_in[j]);
      g_assert_cmpfloat_with_epsilon (hips_z_deg (m, 8 + j), -10.0 * (3 + 2 * j), 1e-3);
    }
}

static void
expect_range_error (const char *text,
                    const char *modifier)
{
  g_autoptr(OdoriScore) score = load_score (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = compose_score (score, ODORI_ROOT_MATCH_NONE, &error);

  g_assert_null (m);
  g_assert_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "score.dds:3:"));
  g_assert_nonnull (strstr (error->message, "A1"));
  g_assert_nonnull (strstr (error->message, modifier));
  g_assert_nonnull (strstr (error->message, "10 frames"));
}

static void
test_range_errors (void)
{
  setup_library ();
  expect_range_error ("BD: Hips\n1: B1\n11: A1 out=11\n", "out=11");
  expect_range_error ("BD: Hips\n1: B1\n11: A1 in=12\n", "in=12");
  expect_range_error ("BD: Hips\n1: B1\n11: A1 in=4 out=20 speed=2\n", "out=20");
  /* in and out at the clip's very ends are fine */
  {
    g_autoptr(OdoriMotion) m = compose_text ("BD: Hips\n1: A1 in=10 out=10\n", ODORI_ROOT_MATCH_NONE);

    g_assert_cmpuint (m->n_frames, ==, 1);
    g_assert_cmpfloat (hips_x (m, 1), ==, 1010);
  }
}

/* Each join of a repeat is a seam, from the symbol to itself. */
static void
test_repeat_seams (void)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(GError) error = NULL;
  const guint frames[] = { 11, 21, 25 };
  const char *to[] = { "A1", "A1", "B1" };
  GArray     *seams;

  setup_library ();
  index = load_index ();
  score = load_score ("BD: Hips\n1: A1\nLA: Hips,LeftArm,LeftHand\n1: A1 repeat=3\n25: B1\n");
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  g_assert_nonnull (odori_composer_compose (composer, &error));
  seams = odori_composer_get_seams (composer);
  g_assert_cmpuint (seams->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      OdoriSeam *seam = &g_array_index (seams, OdoriSeam, i);

      g_assert_cmpuint (seam->part, ==, 1);
      g_assert_cmpuint (seam->frame, ==, frames[i]);
      g_assert_cmpstr (seam->from, ==, "A1");
      g_assert_cmpstr (seam->to, ==, to[i]);
      g_assert_cmpfloat (seam->jump_deg, >, 0);
    }
}

static void
assert_same_seams (GArray *a,
                   GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      OdoriSeam *x = &g_array_index (a, OdoriSeam, i), *y = &g_array_index (b, OdoriSeam, i);

      g_assert_cmpuint (x->part, ==, y->part);
      g_assert_cmpuint (x->frame, ==, y->frame);
      g_assert_cmpstr (x->from, ==, y->from);
      g_assert_cmpstr (x->to, ==, y->to);
      g_assert_true (x->jump_deg == y->jump_deg);
      g_assert_true (x->clip_max_deg == y->clip_max_deg);
    }
}

typedef struct
{
  guint           part;
  guint           start;
  OdoriSymbolMods mods;
  gboolean        unchanged; /* the dance stays the same (a copy the next symbol cut) */
} ModEdit;

/* Changing any modifier of a symbol (one edit, as the window makes it) and updating gives
 * exactly what a fresh full compose gives. */
static void
test_incremental (void)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(GError) error = NULL;
  const ModEdit edits[] = {
    { 1, 11, { .in = 3 } },
    { 1, 11, { .in = 3, .out = 7 } },
    { 1, 11, { .in = 3, .out = 7, .speed = 2 } },
    { 1, 11, { .speed = 0.75 } },
    { 1, 11, { .speed = 0.75, .mirror = TRUE } },
    { 1, 11, { .mirror = TRUE, .repeat = 3 } },
    { 1, 11, { .mirror = TRUE, .repeat = 2 }, TRUE },
    { 1, 11, { .mirror = TRUE, .repeat = 2, .has_blend = TRUE, .blend = 5 } },
    { 1, 11, { .has_blend = TRUE, .blend = 0 } },
    { 1, 11, { 0 } },
    { 1, 11, { .speed = 0.75 } }, /* a shape seen before (its clip was dropped) */
    { 2, 25, { .out = 5 } },
    { 2, 25, { .repeat = 4 } },   /* the last symbol: the dance gets longer */
    { 2, 25, { 0 } },             /* and shorter again */
    { 2, 1, { .repeat = 1000 } }, /* cut by the next symbol */
    { 0, 11, { .speed = 0.5 } },  /* the root track: offsets after it move */
    { 0, 11, { .mirror = TRUE } },
    { 0, 11, { .repeat = 2, .in = 2 } },
    { 0, 21, { .has_blend = TRUE, .blend = 1 } },
    { 0, 11, { 0 } },
  };

  setup_library ();
  index = load_index ();
  score = load_score ("# Blend: 2\nBD: Hips\n1: A1\n11: B1\n21: A2\n"
                      "LA: Hips,LeftArm,LeftHand\n1: B1\n11: A1 speed=0.5\n31: A2 mirror\n"
                      "RA: Hips,RightArm,RightHand\n1: A1 repeat=2\n25: B1 in=2 out=8 blend=1\n");
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  g_assert_nonnull (odori_composer_compose (composer, &error));

  for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, edits[e].part);
      int             i = odori_score_part_find_symbol (part, edits[e].start);
      g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Modify");
      g_autoptr(OdoriComposer) full = NULL;
      OdoriMotion *updated, *fresh;
      guint64      n = 0;

      g_assert_cmpint (i, >=, 0);
      odori_score_edit_replace_symbol (edit, edits[e].part,
                                       &g_array_index (part->symbols, OdoriScoreSymbol, i),
                                       edits[e].part, edits[e].start, &edits[e].mods);
      g_assert_true (odori_score_edit_apply (edit, score, &error));
      g_assert_no_error (error);
      updated = odori_composer_update (composer, &n, &error);
      g_assert_no_error (error);
      g_assert_nonnull (updated);
      if (edits[e].unchanged)
        g_assert_cmpuint (n, ==, 0);
      else
        g_assert_cmpuint (n, >, 0);

      full = odori_composer_new (score, index, &error);
      g_assert_no_error (error);
      fresh = odori_composer_compose (full, &error);
      g_assert_no_error (error);
      assert_same_motion (updated, fresh);
      assert_same_seams (odori_composer_get_seams (composer), odori_composer_get_seams (full));
      if (edits[e].part != 0)
        g_assert_cmpuint (n, <, (guint64) updated->n_frames * updated->n_segments);

      /* the same edit undone: back to the previous dance, incrementally too */
      if (e == 4)
        {
          g_autoptr(OdoriComposer) again = NULL;

          g_assert_true (odori_score_edit_revert (edit, score, &error));
          updated = odori_composer_update (composer, &n, &error);
          g_assert_no_error (error);
          again = odori_composer_new (score, index, &error);
          assert_same_motion (updated, odori_composer_compose (again, &error));
          g_assert_true (odori_score_edit_apply (edit, score, &error));
          odori_composer_update (composer, &n, &error);
          g_assert_no_error (error);
        }
    }

  /* nothing changed: nothing recomputed */
  {
    guint64 n = 1;

    odori_composer_update (composer, &n, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (n, ==, 0);
  }
}

/* Modifiers that change nothing compose exactly as no modifiers; so does a per-symbol
 * blend equal to the score's on every symbol. */
static void
test_neutral (void)
{
  g_autoptr(OdoriMotion) plain = NULL, neutral = NULL;

  setup_library ();
  plain = compose_text ("# Blend: 2\nBD: Hips\n1: A1\n11: B1\n21: A2\n"
                        "LA: Hips,LeftArm,LeftHand\n1: B1\n8: A1\n",
                        ODORI_ROOT_MATCH_POSITION);
  neutral = compose_text ("# Blend: 2\nBD: Hips\n1: A1 speed=1 in=1 out=10 repeat=1\n11: B1 blend=2\n"
                          "21: A2 in=1\nLA: Hips,LeftArm,LeftHand\n1: B1 out=10\n8: A1 speed=1 blend=2\n",
                          ODORI_ROOT_MATCH_POSITION);
  assert_same_motion (plain, neutral);
}

/* A long repeat is cheap: a thousand copies of one shaped clip. */
static void
test_long_repeat (void)
{
  g_autoptr(OdoriMotion) m = NULL;

  setup_library ();
  m = compose_text ("BD: Hips\n1: A1 speed=2 mirror repeat=1000\n", ODORI_ROOT_MATCH_NONE);
  g_assert_cmpuint (m->n_frames, ==, 5000);
  g_assert_cmpfloat (hips_x (m, 4996), ==, -1001);
  g_assert_cmpfloat (hips_x (m, 5000), ==, -1009);
}

static int
run_cli (char      **out,
         char      **err,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("ODORI_CLI");
  va_list     args;
  int         status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* odori-cli check reports an out-of-range out= and a bad modifier; compose composes
 * modifiers and lists a repeat's seams. */
static void
test_cli (void)
{
  g_autofree char *index = tmp_path ("motion.dat");
  g_autofree char *score = tmp_path ("cli.dds");
  g_autofree char *out_path = tmp_path ("cli.bva");
  g_autofree char *out = NULL, *err = NULL;

  if (g_getenv ("ODORI_CLI") == NULL)
    {
      g_test_skip ("ODORI_CLI is not set");
      return;
    }
  setup_library ();
  g_assert_true (g_file_set_contents (score, "BD: Hips\n1: A1\n11: B1 in=2 out=12\n", -1, NULL));
  g_assert_cmpint (run_cli (&out, &err, "check", index, score, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "cli.dds:3:"));
  g_assert_nonnull (strstr (err, "out=12"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (g_file_set_contents (score, "BD: Hips\n1: A1\n11: B1 speed=20\n", -1, NULL));
  g_assert_cmpint (run_cli (&out, &err, "check", index, score, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "cli.dds:3:"));
  g_assert_nonnull (strstr (err, "speed"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (g_file_set_contents (score, "BD: Hips\n1: A1 repeat=2\n21: B1 mirror speed=0.5\n", -1, NULL));
  g_assert_cmpint (run_cli (&out, &err, "check", index, score, NULL), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, "compose", score, "-i", index, "-o", out_path, "--seams",
                            "--json", NULL),
                   ==, 0);
  g_assert_nonnull (strstr (out, "\"frame\" : 11"));
  g_assert_nonnull (strstr (out, "\"frame\" : 21"));
  {
    g_autoptr(OdoriMotion) m = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *bva = NULL;

    g_assert_true (g_file_get_contents (out_path, &bva, NULL, NULL));
    g_assert_nonnull (strstr (bva, "Frames:\t40")); /* 20 + round (10 / 0.5) */
    (void) m;
    (void) error;
  }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("odori-compose-mods-XXXXXX", NULL);

  g_test_add_func ("/compose-mods/trim", test_trim);
  g_test_add_func ("/compose-mods/speed", test_speed);
  g_test_add_func ("/compose-mods/mirror", test_mirror);
  g_test_add_func ("/compose-mods/repeat", test_repeat);
  g_test_add_func ("/compose-mods/blend", test_blend);
  g_test_add_func ("/compose-mods/combined", test_combined);
  g_test_add_func ("/compose-mods/range-errors", test_range_errors);
  g_test_add_func ("/compose-mods/repeat-seams", test_repeat_seams);
  g_test_add_func ("/compose-mods/incremental", test_incremental);
  g_test_add_func ("/compose-mods/neutral", test_neutral);
  g_test_add_func ("/compose-mods/long-repeat", test_long_repeat);
  g_test_add_func ("/compose-mods/cli", test_cli);

  ret = g_test_run ();
  g_free (tmpdir);
  return ret;
}
