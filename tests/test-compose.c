/* test-compose.c: the composition rules, one test each, on tiny clips with known values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Clips encode where they come from: segment positions are x = 1000·clip + frame, so an
 * output position tells which clip and which source frame played.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-motion-cache.h"
#include "odori-index.h"
#include "odori-sample.h"

#include "compose-util.h"
#include "odori-score.h"

typedef void (*PoseFunc) (guint clip, guint frame, guint seg, double pos[3], double rot_zxy[3]);

/* The world transform of SEGMENT at FRAME of a composed motion (its root offsets added):
 * valid until sixteen more calls. */
static const OdoriTransform *
world (const OdoriMotion *m,
       guint              frame,
       guint              segment)
{
  static OdoriTransform ring[16];
  static guint          next;
  OdoriTransform       *t = &ring[next++ % G_N_ELEMENTS (ring)];

  odori_motion_get_world (m, frame, segment, t);
  return t;
}

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static void
write_file (const char *name,
            const char *text)
{
  g_autofree char *path = tmp_path (name);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* Writes a BVA by hand (not with the writer under test elsewhere). */
static void
write_bva (const char   *name,
           guint         clip,
           guint         n_frames,
           double        frame_time,
           const char  **segments,
           PoseFunc      pose)
{
  GString *s = g_string_new (NULL);
  g_autofree char *path = tmp_path (name);
  char ft[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint seg = 0; segments[seg]; seg++)
    {
      g_string_append_printf (s, "Segment:\t%s\nFrames:\t%u\nFrame Time:\t%s\n", segments[seg], n_frames,
                              g_ascii_dtostr (ft, sizeof ft, frame_time));
      g_string_append (s, "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"
                          "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n");
      for (guint f = 1; f <= n_frames; f++)
        {
          double pos[3] = { 0 }, rot[3] = { 0 };
          char buf[6][G_ASCII_DTOSTR_BUF_SIZE];

          pose (clip, f, seg, pos, rot);
          /* file order X, Y, Z rotations; rot[] is given as Z, X, Y */
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

/* The start of a motion.dat with a body part, an arm part and a first show "A" in a.bva:
 * tests go on with its motions. */
#define BODY_ARM_INDEX_HEAD                                            \
  "define part name=\"Body\" code=\"BD\" map=\"Hips\"\n"                \
  "define part name=\"Arm\" code=\"AR\" map=\"Hips,Arm,Hand\"\n"        \
  "begin class name=\"Test\" code=\"t\"\n"                            \
  "  begin show name=\"A\" code=\"SA\" file=\"a.bva\"\n"

static const char *body_segments[] = { "Hips", "Arm", "Hand", "Extra", NULL };

/* Hips at x = 1000·clip + frame; Arm 10 above Hips, Hand 10 further; rotations 0. */
static void
pose_translate (guint   clip,
                guint   frame,
                guint   seg,
                double  pos[3],
                double  rot[3])
{
  pos[0] = 1000.0 * clip + frame;
  pos[1] = 10.0 * seg;
  pos[2] = 0;
}

/* The hips travel along X at CLIP units a frame: show B twice as fast as A. */
static void
pose_speed (guint  clip,
            guint  frame,
            guint  seg,
            double pos[3],
            double rot[3])
{
  pos[0] = 1000.0 * clip + (double) clip * frame;
  pos[1] = 10.0 * seg;
  pos[2] = 0;
}

static const char *index_text =
  "define part name=\"Body\" code=\"BD\" map=\"Hips\"\n"
  "define part name=\"Arm\" code=\"AR\" map=\"Hips,Arm,Hand\"\n"
  "begin class name=\"Test\" code=\"t\"\n"
  "  begin show name=\"A\" code=\"SA\" file=\"a.bva\"\n"
  "    motion name=\"a1\" code=\"A1\" frame=1-10\n"
  "    motion name=\"a2\" code=\"A2\" frame=11-20\n"
  "    motion name=\"dup\" code=\"D\" frame=1-5\n"
  "  end show\n"
  "  begin show name=\"B\" code=\"SB\" file=\"b.bva\"\n"
  "    motion name=\"b1\" code=\"B1\" frame=1-10\n"
  "    motion name=\"dup\" code=\"D\" frame=1-5\n"
  "    motion name=\"too long\" code=\"BAD\" frame=1-500\n"
  "  end show\n"
  "end class\n";

static void
setup_library (PoseFunc pose)
{
  write_bva ("a.bva", 1, 20, 1.0 / 30, body_segments, pose);
  write_bva ("b.bva", 2, 20, 1.0 / 30, body_segments, pose);
  write_file ("motion.dat", index_text);
}

static OdoriMotion *
compose_text (const char     *score_text,
              OdoriRootMatch  match,
              GError        **error,
              OdoriComposer **keep)
{
  g_autofree char *score_path = tmp_path ("score.dds");
  g_autofree char *index_path = tmp_path ("motion.dat");
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  OdoriComposer *composer;
  OdoriMotion *out;

  g_assert_true (g_file_set_contents (score_path, score_text, -1, NULL));
  index = odori_index_load (index_path, NULL);
  g_assert_nonnull (index);
  score = odori_score_load (score_path, error);
  if (score == NULL)
    return NULL;
  composer = odori_composer_new (score, index, error);
  if (composer == NULL)
    return NULL;
  odori_composer_set_root_match (composer, match);
  out = odori_composer_compose (composer, error);
  if (out == NULL)
    {
      odori_composer_free (composer);
      return NULL;
    }
  out = odori_motion_ref (out);
  if (keep)
    *keep = composer;
  else
    odori_composer_free (composer);
  return out;
}

static float
x_at (OdoriMotion *m,
      guint        frame,  /* 1-based */
      const char  *seg)
{
  int s = odori_motion_find_segment (m, seg);

  float p[3];

  g_assert_cmpint (s, >=, 0);
  odori_motion_get_world_position (m, frame - 1, s, p);
  return p[0];
}

static void
test_cut (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  setup_library (pose_translate);
  m = compose_text ("BD: Hips\n1: A1\n6: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 15);  /* 6 + 10 - 1 */
  for (guint f = 1; f <= 5; f++)
    g_assert_cmpfloat_with_epsilon (x_at (m, f, "Hips"), 1000 + f, 1e-3);
  for (guint f = 6; f <= 15; f++)
    g_assert_cmpfloat_with_epsilon (x_at (m, f, "Hips"), 2000 + (f - 6 + 1), 1e-3);
}

static void
test_hold_after_end_and_gap (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  setup_library (pose_translate);
  /* A2 is frames 11-20 of a.bva; it ends at output 10 and holds its last frame (20)
   * until B1 cuts in at 15 */
  m = compose_text ("BD: Hips\n1: A2\n15: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 24);
  g_assert_cmpfloat_with_epsilon (x_at (m, 1, "Hips"), 1011, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (m, 10, "Hips"), 1020, 1e-3);
  for (guint f = 11; f <= 14; f++)
    g_assert_cmpfloat_with_epsilon (x_at (m, f, "Hips"), 1020, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (m, 15, "Hips"), 2001, 1e-3);
}

static void
test_hold_before_first (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  setup_library (pose_translate);
  m = compose_text ("BD: Hips\n5: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 14);
  for (guint f = 1; f <= 5; f++)
    g_assert_cmpfloat_with_epsilon (x_at (m, f, "Hips"), 2001, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (m, 6, "Hips"), 2002, 1e-3);
}

static void
test_blend_weights (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  const int B = 4;

  setup_library (pose_translate);
  m = compose_text ("# Blend: 4\nBD: Hips\n1: A1\n6: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  for (int k = 0; k < B; k++)
    {
      guint f = 6 + k;
      double t = (k + 1.0) / (B + 1.0);
      double w = t * t * (3 - 2 * t);
      double outgoing = 1000 + f;          /* A1 still playing: frame f */
      double incoming = 2000 + (k + 1);    /* B1 frame k+1 */

      g_assert_cmpfloat_with_epsilon (x_at (m, f, "Hips"), (1 - w) * outgoing + w * incoming, 1e-2);
    }
  g_assert_cmpfloat_with_epsilon (x_at (m, 6 + B, "Hips"), 2000 + B + 1, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (m, 5, "Hips"), 1005, 1e-3);
}

static void
test_blend_outgoing_holds (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  setup_library (pose_translate);
  /* A1 ends at output 10; B1 starts at 13 with a blend of 3: outgoing holds frame 10 */
  m = compose_text ("# Blend: 3\nBD: Hips\n1: A1\n13: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  {
    double t = 1.0 / 4.0, w = t * t * (3 - 2 * t);
    g_assert_cmpfloat_with_epsilon (x_at (m, 13, "Hips"), (1 - w) * 1010 + w * 2001, 1e-2);
  }
}

/* Hips walks +1 in X per frame and turns: clip 2 faces +X (yaw 90). */
static void
pose_walk (guint   clip,
           guint   frame,
           guint   seg,
           double  pos[3],
           double  rot[3])
{
  pos[0] = 100.0 * clip + frame;
  pos[1] = 40 + 10.0 * seg;
  pos[2] = 50.0 * clip;
  rot[0] = 0;
  rot[1] = 0;
  rot[2] = clip == 2 ? 90 : 0;  /* Y rotation */
}

static void
test_root_match (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) none = NULL, pos = NULL, full = NULL;
  const char *score = "BD: Hips\n1: A1\n6: B1\n";
  int hips;

  setup_library (pose_walk);
  none = compose_text (score, ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  pos = compose_text (score, ODORI_ROOT_MATCH_POSITION, &error, NULL);
  g_assert_no_error (error);
  full = compose_text (score, ODORI_ROOT_MATCH_FULL, &error, NULL);
  g_assert_no_error (error);
  hips = odori_motion_find_segment (pos, "Hips");

  /* none: the clip where it was captured */
  g_assert_cmpfloat_with_epsilon (x_at (none, 6, "Hips"), 201, 1e-3);
  g_assert_cmpfloat_with_epsilon (world (none, 5, hips)->position[2], 100, 1e-3);

  /* position: incoming first frame lands where A1 is at frame 6 (x 106, z 50); Y kept */
  g_assert_cmpfloat_with_epsilon (x_at (pos, 6, "Hips"), 106, 1e-3);
  g_assert_cmpfloat_with_epsilon (world (pos, 5, hips)->position[2], 50, 1e-3);
  g_assert_cmpfloat_with_epsilon (world (pos, 5, hips)->position[1], 40, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (pos, 7, "Hips"), 107, 1e-3);
  /* rotation unchanged by position matching */
  {
    const double yaw90[3] = { 0, 0, 90 };
    float q[4];

    odori_euler_to_quat ("ZXY", yaw90, q);
    g_assert_cmpfloat (odori_quat_angle_deg (q, world (pos, 5, hips)->rotation), <, 1e-3);
  }

  /* full: heading matched too, so B1's walk along +X (in its own frame, it faces +X) is
   * turned back to face +Z like A1: its X motion becomes motion along -Z... the clip
   * moves +1 in world X per frame; after a -90 yaw, that is -1 in Z per frame */
  g_assert_cmpfloat (odori_quat_angle_deg ((float[4]){ 0, 0, 0, 1 },
                                           world (full, 5, hips)->rotation),
                     <, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (full, 6, "Hips"), 106, 1e-3);
  g_assert_cmpfloat_with_epsilon (world (full, 5, hips)->position[2], 50, 1e-3);
  {
    float dz = world (full, 6, hips)->position[2] - world (full, 5, hips)->position[2];
    float dx = world (full, 6, hips)->position[0] - world (full, 5, hips)->position[0];

    g_assert_cmpfloat_with_epsilon (fabsf (dz), 1, 1e-3);
    g_assert_cmpfloat_with_epsilon (dx, 0, 1e-3);
  }
}

/* Arm and Hand relative to Hips: Hips yawed by 30·clip degrees, the arm bent. */
static void
pose_arm (guint   clip,
          guint   frame,
          guint   seg,
          double  pos[3],
          double  rot[3])
{
  double yaw = 30.0 * clip;
  double c = cos (yaw * G_PI / 180), s = sin (yaw * G_PI / 180);
  double local[3] = { 0, 0, 0 };

  rot[2] = yaw;  /* Y */
  if (seg == 1)
    {
      local[0] = 5;
      rot[0] = 10.0 * frame;  /* Z: the arm swings with the frame */
    }
  else if (seg == 2)
    local[0] = 15;
  else if (seg == 3)
    local[1] = 20;
  /* world = Ry(yaw) · local + hips */
  pos[0] = 100.0 * clip + c * local[0] + s * local[2];
  pos[1] = 40 + local[1];
  pos[2] = -s * local[0] + c * local[2];
}

static void
test_reattachment (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(OdoriMotion) a = NULL, b = NULL;
  g_autofree char *pa = NULL, *pb = NULL;
  int hips, arm;

  setup_library (pose_arm);
  pa = tmp_path ("a.bva");
  pb = tmp_path ("b.bva");
  a = odori_bva_load (pa, NULL, NULL);
  b = odori_bva_load (pb, NULL, NULL);
  /* body from show A (yaw 30), arm from show B (yaw 60) */
  m = compose_text ("BD: Hips\n1: A1\nAR: Hips,Arm,Hand\n1: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  hips = odori_motion_find_segment (m, "Hips");
  arm = odori_motion_find_segment (m, "Arm");

  for (guint f = 0; f < 10; f++)
    {
      const OdoriTransform *h_out = world (m, f, hips);
      const OdoriTransform *arm_out = world (m, f, arm);
      const OdoriTransform *h_a = world (a, f, hips);
      const OdoriTransform *h_b = world (b, f, hips);
      const OdoriTransform *arm_b = world (b, f, arm);
      versor inv, rel, want;
      vec3 d, rd, wp;

      /* body from A exactly */
      g_assert_cmpfloat (odori_quat_angle_deg (h_out->rotation, h_a->rotation), <, 1e-3);
      /* R_out(s) = R_out(a) · R_src(a)⁻¹ · R_src(s) */
      glm_quat_inv ((float *) h_b->rotation, inv);
      glm_quat_mul (inv, (float *) arm_b->rotation, rel);
      glm_quat_mul ((float *) h_out->rotation, rel, want);
      g_assert_cmpfloat (odori_quat_angle_deg (arm_out->rotation, want), <, 1e-3);
      /* p_out(s) = p_out(a) + R_out(a) · R_src(a)⁻¹ · (p_src(s) − p_src(a)) */
      glm_vec3_sub ((float *) arm_b->position, (float *) h_b->position, d);
      glm_quat_rotatev (inv, d, rd);
      glm_quat_rotatev ((float *) h_out->rotation, rd, wp);
      glm_vec3_add (wp, (float *) h_out->position, wp);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat_with_epsilon (arm_out->position[k], wp[k], 1e-3);
      /* the arm swings as in B: 10 degrees per frame about Z, relative to the body */
      g_assert_cmpfloat_with_epsilon (odori_quat_angle_deg (h_out->rotation, arm_out->rotation),
                                      10.0 * (f + 1) <= 180 ? 10.0 * (f + 1) : 360 - 10.0 * (f + 1), 1e-2);
    }
}

/* The arm swing of pose_arm with the body facing +Z in every clip. */
static void
pose_swing (guint   clip,
            guint   frame,
            guint   seg,
            double  pos[3],
            double  rot[3])
{
  pose_arm (0, frame, seg, pos, rot);
  pos[0] += 100.0 * clip;
}

static void
test_track_without_symbols_and_unnamed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  int hips, hand, extra;

  setup_library (pose_translate);
  /* AR has no symbols: its sensors follow the root part's clips (B1 then A1); "Extra"
   * is in no part: re-attached to Hips from the root's clips */
  m = compose_text ("BD: Hips\n1: B1\n4: A1\nAR: Hips,Arm,Hand\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  hips = odori_motion_find_segment (m, "Hips");
  hand = odori_motion_find_segment (m, "Hand");
  extra = odori_motion_find_segment (m, "Extra");
  g_assert_cmpint (extra, >=, 0);
  g_assert_cmpuint (m->n_segments, ==, 4);
  for (guint f = 0; f < m->n_frames; f++)
    {
      const OdoriTransform *h = world (m, f, hips);

      g_assert_cmpfloat_with_epsilon (world (m, f, hand)->position[0], h->position[0], 1e-3);
      g_assert_cmpfloat_with_epsilon (world (m, f, hand)->position[1], h->position[1] + 20, 1e-3);
      g_assert_cmpfloat_with_epsilon (world (m, f, extra)->position[1], h->position[1] + 30, 1e-3);
    }
  g_assert_cmpfloat_with_epsilon (x_at (m, 3, "Hand"), 2003, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (m, 4, "Hand"), 1001, 1e-3);
}

static void
test_root_without_symbols_holds_first_show (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  setup_library (pose_translate);
  m = compose_text ("BD: Hips\nAR: Hips,Arm,Hand\n5: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 14);
  /* the body holds frame 1 of the first show (a.bva): x = 1001 */
  for (guint f = 1; f <= 14; f++)
    g_assert_cmpfloat_with_epsilon (x_at (m, f, "Hips"), 1001, 1e-3);
  /* the arm plays B1 relative to the held body: offsets are the same in every clip */
  g_assert_cmpfloat_with_epsilon (x_at (m, 8, "Hand"), 1001, 1e-3);
}

static void
test_resample (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  write_bva ("a.bva", 1, 20, 1.0 / 30, body_segments, pose_translate);
  write_bva ("b.bva", 2, 20, 1.0 / 60, body_segments, pose_translate);  /* 60 fps */
  write_file ("motion.dat", index_text);
  m = compose_text ("# FrameTime: 0.0333333333333\nBD: Hips\n1: A1\n11: B1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  /* B1 = 10 frames at 60 fps = 5 frames at 30 fps, reading source frames 1, 3, 5, 7, 9 */
  g_assert_cmpuint (m->n_frames, ==, 15);
  for (guint j = 0; j < 5; j++)
    g_assert_cmpfloat_with_epsilon (x_at (m, 11 + j, "Hips"), 2001 + 2 * j, 1e-2);
  g_assert_cmpfloat_with_epsilon (m->frame_time, 1.0 / 30, 1e-6);
}

/* The length odori_compose_clip_frames () gives motion SYMBOL of the library in
 * motion.dat, at the frame time COMPOSER chose. */
static guint
clip_frames_of (OdoriComposer *composer,
                const char    *symbol)
{
  g_autofree char *index_path = tmp_path ("motion.dat");
  g_autoptr(OdoriIndex) index = odori_index_load (index_path, NULL);
  g_autoptr(OdoriMotion) show = NULL;
  g_autofree char *show_path = NULL;
  OdoriIndexMotion *im;

  g_assert_nonnull (index);
  im = odori_index_lookup (index, symbol, NULL);
  g_assert_nonnull (im);
  show_path = odori_index_show_path (index, im->show);
  show = odori_bva_load (show_path, NULL, NULL);
  g_assert_nonnull (show);
  return odori_compose_clip_frames (im, show, odori_composer_get_frame_time (composer));
}

/* How long a symbol lasts composed: what the composed motion shows, for a clip of a
 * 60 fps show at 30 fps (resampled, with rounding) and for one at the same rate. */
static void
test_clip_frames (void)
{
  static const char *index_odd =
    BODY_ARM_INDEX_HEAD
    "    motion name=\"a1\" code=\"A1\" frame=1-10\n"
    "  end show\n"
    "  begin show name=\"B\" code=\"SB\" file=\"b.bva\"\n"
    "    motion name=\"b1\" code=\"B1\" frame=1-10\n"
    "    motion name=\"odd\" code=\"B3\" frame=1-11\n"
    "  end show\n"
    "end class\n";

  write_bva ("a.bva", 1, 20, 1.0 / 30, body_segments, pose_translate);
  write_bva ("b.bva", 2, 20, 1.0 / 60, body_segments, pose_translate);  /* 60 fps */
  write_file ("motion.dat", index_odd);

  /* 11 frames at 60 fps: round (5.5) = 6 frames at 30 fps, the last reading source
   * frame 11 */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriComposer) composer = NULL;
    g_autoptr(OdoriMotion) m = NULL;

    m = compose_text ("# FrameTime: 0.0333333333333\nBD: Hips\n1: B3\n", ODORI_ROOT_MATCH_NONE, &error,
                      &composer);
    g_assert_no_error (error);
    g_assert_cmpuint (clip_frames_of (composer, "B3"), ==, 6);
    g_assert_cmpuint (m->n_frames, ==, clip_frames_of (composer, "B3"));
    g_assert_cmpfloat_with_epsilon (x_at (m, 6, "Hips"), 2011, 1e-2);
  }
  /* after it, the next symbol starts where the clip's length says, with no hold between */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriComposer) composer = NULL;
    g_autoptr(OdoriMotion) m = NULL;
    guint n;

    m = compose_text ("# FrameTime: 0.0333333333333\nBD: Hips\n1: B1\n6: A1\n", ODORI_ROOT_MATCH_NONE, &error,
                      &composer);
    g_assert_no_error (error);
    n = clip_frames_of (composer, "B1");
    g_assert_cmpuint (n, ==, 5);
    g_assert_cmpuint (m->n_frames, ==, 5 + clip_frames_of (composer, "A1"));
    g_assert_cmpfloat_with_epsilon (x_at (m, n, "Hips"), 2009, 1e-2);  /* B1's last */
    g_assert_cmpfloat_with_epsilon (x_at (m, n + 1, "Hips"), 1001, 1e-2); /* A1's first */
  }
  /* the same rate: the clip's own frames */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriComposer) composer = NULL;
    g_autoptr(OdoriMotion) m = NULL;

    m = compose_text ("BD: Hips\n1: A1\n", ODORI_ROOT_MATCH_NONE, &error, &composer);
    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (odori_composer_get_frame_time (composer), 1.0 / 30, 1e-9);
    g_assert_cmpuint (clip_frames_of (composer, "A1"), ==, 10);
    g_assert_cmpuint (m->n_frames, ==, clip_frames_of (composer, "A1"));
  }
  /* a show composed at its own rate of 60 fps, and a show file not loaded */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriComposer) composer = NULL;
    g_autoptr(OdoriMotion) m = NULL;
    OdoriIndexMotion im = { .first = 1, .last = 11 };

    m = compose_text ("BD: Hips\n1: B3\n", ODORI_ROOT_MATCH_NONE, &error, &composer);
    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (odori_composer_get_frame_time (composer), 1.0 / 60, 1e-9);
    g_assert_cmpuint (clip_frames_of (composer, "B3"), ==, 11);
    g_assert_cmpuint (m->n_frames, ==, 11);
    g_assert_cmpuint (odori_compose_clip_frames (&im, NULL, 1.0 / 30), ==, 11);
  }
}

static void
test_bvh_beside_bva (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  GString *bvh = g_string_new ("HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n"
                               "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                               "\tJOINT Arm\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
                               "\t\tJOINT Hand\n\t\t{\n\t\t\tOFFSET 0 10 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
                               "\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET 0 5 0\n\t\t\t}\n\t\t}\n\t}\n}\n"
                               "MOTION\nFrames: 10\nFrame Time: 0.0333333333\n");

  for (guint f = 1; f <= 10; f++)
    g_string_append_printf (bvh, "%u 0 0 0 0 0 0 0 0 0 0 0\n", 3000 + f);
  write_bva ("a.bva", 1, 20, 1.0 / 30, body_segments, pose_translate);
  write_bva ("b.bva", 2, 20, 1.0 / 30, body_segments, pose_translate);
  write_file ("c.bvh", bvh->str);
  g_string_free (bvh, TRUE);
  write_file ("motion.dat",
              BODY_ARM_INDEX_HEAD
              "    motion name=\"a1\" code=\"A1\" frame=1-10\n"
              "  end show\n"
              "  begin show name=\"C\" code=\"SC\" file=\"c.bvh\"\n"
              "    motion name=\"c1\" code=\"C1\" frame=1-10\n"
              "  end show\n"
              "end class\n");
  m = compose_text ("BD: Hips\n1: A1\n11: C1\nAR: Hips,Arm,Hand\n1: C1\n", ODORI_ROOT_MATCH_NONE, &error, NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 20);
  g_assert_cmpfloat_with_epsilon (x_at (m, 5, "Hips"), 1005, 1e-3);
  g_assert_cmpfloat_with_epsilon (x_at (m, 12, "Hips"), 3002, 1e-3);
  /* the BVH arm rides the BVA body: Hand 20 above Hips */
  {
    int hips = odori_motion_find_segment (m, "Hips"), hand = odori_motion_find_segment (m, "Hand");

    g_assert_cmpfloat_with_epsilon (world (m, 4, hand)->position[1] -
                                        world (m, 4, hips)->position[1],
                                    20, 1e-3);
    g_assert_cmpfloat_with_epsilon (x_at (m, 5, "Hand"), 1005, 1e-3);
  }
}

/* A fresh composer of SCORE, composed; KEEP_OFFSETS as an editor's. */
static OdoriMotion *
compose_fresh (OdoriScore *score,
               OdoriIndex *index,
               gboolean    keep_offsets)
{
  g_autoptr(GError) error = NULL;
  OdoriComposer *full = odori_composer_new (score, index, &error);
  OdoriMotion   *m;

  g_assert_no_error (error);
  odori_composer_set_incremental (full, keep_offsets);
  m = odori_motion_ref (odori_composer_compose (full, &error));
  g_assert_no_error (error);
  odori_composer_free (full);
  g_assert_true ((m->root_offsets != NULL) == keep_offsets);
  return m;
}

/* A composer over SCORE_TEXT (written to score.dds beside the library's motion.dat), as
 * an editor holds it: *INDEX and *SCORE are the loaded files it composes. */
static OdoriComposer *
editable_composer (const char  *score_text,
                   gboolean     keep_offsets,
                   OdoriIndex **index,
                   OdoriScore **score)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *score_path = tmp_path ("score.dds");
  g_autofree char *index_path = tmp_path ("motion.dat");
  OdoriComposer   *composer;

  g_assert_true (g_file_set_contents (score_path, score_text, -1, NULL));
  *index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  *score = odori_score_load (score_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (*score, *index, &error);
  g_assert_no_error (error);
  odori_composer_set_incremental (composer, keep_offsets);
  return composer;
}

/* After moving one symbol, the incremental update equals a fresh full compose and
 * recomputes fewer segment-frames than a full compose; with the offsets kept apart (as
 * the window composes) also bit for bit, and within float rounding of a composer that
 * adds them in. A root-track move that only shifts leaves the later frames' stored
 * transforms as they were and rewrites their offsets. */
static void
check_incremental (gboolean keep_offsets)
{
  g_autoptr(GError) error = NULL;
  OdoriComposer *composer = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(OdoriMotion) fresh = NULL;
  g_autofree char *why = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  OdoriMotion *updated;
  OdoriScorePart *arm;
  guint64 n = 0;

  setup_library (pose_arm);
  composer = editable_composer ("# Blend: 2\nBD: Hips\n1: A1\n11: A2\n21: B1\n31: A1\n"
                                "AR: Hips,Arm,Hand\n1: B1\n11: A1\n21: B1\n31: A2\n",
                                keep_offsets, &index, &score);
  g_assert_nonnull (odori_composer_compose (composer, &error));

  /* move the arm's A1 from 11 to 13 */
  arm = g_ptr_array_index (score->parts, 1);
  g_assert_cmpuint (g_array_index (arm->symbols, OdoriScoreSymbol, 1).start, ==, 11);
  g_array_index (arm->symbols, OdoriScoreSymbol, 1).start = 13;
  updated = odori_composer_update (composer, &n, &error);
  g_assert_no_error (error);
  g_assert_nonnull (updated);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <, (guint64) updated->n_frames * updated->n_segments / 2);

  fresh = compose_fresh (score, index, keep_offsets);
  g_assert_true (odori_motion_equal (updated, fresh, keep_offsets ? 0 : 1e-4, keep_offsets ? 0 : 1e-3, &why));

  /* moving the root's symbol shifts everything after it */
  g_array_index (((OdoriScorePart *) g_ptr_array_index (score->parts, 0))->symbols, OdoriScoreSymbol, 3).start = 35;
  updated = odori_composer_update (composer, &n, &error);
  g_assert_no_error (error);
  g_clear_pointer (&fresh, odori_motion_unref);
  fresh = compose_fresh (score, index, keep_offsets);
  g_assert_cmpuint (updated->n_frames, ==, 44);
  g_assert_true (odori_motion_equal (updated, fresh, 1e-4, 1e-3, &why));

  /* nothing changed: nothing recomputed */
  odori_composer_update (composer, &n, &error);
  g_assert_cmpuint (n, ==, 0);

  /* The root track's first symbol from the other show (the same sensors): the reference
   * skeleton changes, the output keeps its memory, and equals a full compose. */
  {
    OdoriScoreSymbol *first = &g_array_index (((OdoriScorePart *) g_ptr_array_index (score->parts, 0))->symbols,
                                              OdoriScoreSymbol, 0);
    OdoriMotion      *before = updated;

    g_assert_true (g_str_has_suffix (odori_composer_get_reference (composer), "a.bva"));
    g_free (first->symbol);
    first->symbol = g_strdup ("B1");
    updated = odori_composer_update (composer, &n, &error);
    g_assert_no_error (error);
    g_assert_true (g_str_has_suffix (odori_composer_get_reference (composer), "b.bva"));
    g_assert_true (updated == before);
    g_assert_cmpuint (n, ==, (guint64) updated->n_frames * updated->n_segments);
    g_clear_pointer (&fresh, odori_motion_unref);
    fresh = compose_fresh (score, index, keep_offsets);
    g_assert_true (odori_motion_equal (updated, fresh, 0, 0, &why));

    /* Back to A1 while the dance grows (the new plan's descriptors reuse the old plan's
     * buffers at another length), then a root move that only shifts: still a full
     * compose's bits. */
    g_free (first->symbol);
    first->symbol = g_strdup ("A1");
    g_array_index (((OdoriScorePart *) g_ptr_array_index (score->parts, 0))->symbols, OdoriScoreSymbol, 3).start = 40;
    for (guint step = 0; step < 2; step++)
      {
        updated = odori_composer_update (composer, &n, &error);
        g_assert_no_error (error);
        g_assert_true (g_str_has_suffix (odori_composer_get_reference (composer), "a.bva"));
        g_assert_cmpuint (updated->n_frames, ==, step == 0 ? 49 : 46);
        g_clear_pointer (&fresh, odori_motion_unref);
        fresh = compose_fresh (score, index, keep_offsets);
        g_assert_true (odori_motion_equal (updated, fresh, 0, 0, &why));
        if (keep_offsets)
          {
            /* against a composer that adds the offsets in: float rounding apart */
            g_autoptr(OdoriMotion) added = compose_fresh (score, index, FALSE);

            g_assert_true (odori_motion_equal (updated, added, 1e-4, 1e-3, &why));
          }
        g_array_index (((OdoriScorePart *) g_ptr_array_index (score->parts, 0))->symbols, OdoriScoreSymbol, 2).start = 18;
        g_array_index (((OdoriScorePart *) g_ptr_array_index (score->parts, 0))->symbols, OdoriScoreSymbol, 3).start = 37;
        /* the new plan recomputes every frame; the move after it only its own */
        if (step == 0)
          g_assert_cmpuint (n, ==, (guint64) updated->n_frames * updated->n_segments);
        else
          g_assert_cmpuint (n, <, (guint64) updated->n_frames * updated->n_segments);
      }
  }
  odori_composer_free (composer);
  (void) m;
}

static void
test_incremental (void)
{
  check_incremental (FALSE);
}

/* A root-track move whose later frames only shift: with the offsets kept apart their
 * stored transforms stay as they were, their offsets are rewritten, and the result is a
 * full compose's. */
static void
test_incremental_shift (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriMotion) fresh = NULL;
  g_autoptr(OdoriMotion) added = NULL;
  g_autofree char           *why = NULL;
  OdoriComposer             *composer;
  OdoriMotion               *m;
  OdoriScorePart            *body;
  gsize                      from = 15, bytes;
  g_autofree OdoriTransform *kept = NULL;
  g_autofree float          *offsets = NULL;
  float                      x_before;
  guint64                    n = 0;

  setup_library (pose_speed);
  composer = editable_composer ("# Blend: 2\nBD: Hips\n1: A1\n6: B1\n12: A1\n"
                                "AR: Hips,Arm,Hand\n1: B1\n",
                                TRUE, &index, &score);
  m = odori_composer_compose (composer, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m->root_offsets);
  g_assert_cmpuint (m->n_frames, ==, 21);
  bytes = (m->n_frames - from) * m->n_segments * sizeof (OdoriTransform);
  kept = g_memdup2 (odori_motion_get (m, from, 0), bytes);
  offsets = g_memdup2 (m->root_offsets, m->n_frames * 3 * sizeof (float));
  x_before = x_at (m, 20, "Hips");

  /* B1 a frame later: A1 runs a frame longer before it (+1) and B1 a frame less (-2), so
   * the last A1 starts a unit back along X */
  body = g_ptr_array_index (score->parts, 0);
  g_array_index (body->symbols, OdoriScoreSymbol, 1).start = 7;
  m = odori_composer_update (composer, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, <, (guint64) m->n_frames * m->n_segments);
  g_assert_cmpuint (odori_composer_get_n_shifted (composer), >=, (guint64) (m->n_frames - from) * m->n_segments);
  g_assert_cmpmem (odori_motion_get (m, from, 0), bytes, kept, bytes);
  for (guint f = from; f < m->n_frames; f++)
    g_assert_cmpfloat_with_epsilon (m->root_offsets[f * 3], offsets[f * 3] - 1, 1e-4);
  g_assert_cmpfloat_with_epsilon (x_at (m, 20, "Hips"), x_before - 1, 1e-4);
  g_assert_cmpfloat_with_epsilon (x_at (m, 20, "Hand"), x_before - 1, 1e-4);

  fresh = compose_fresh (score, index, TRUE);
  g_assert_true (odori_motion_equal (m, fresh, 0, 0, &why));
  added = compose_fresh (score, index, FALSE);
  g_assert_true (odori_motion_equal (m, added, 1e-4, 1e-3, &why));
  odori_composer_free (composer);
}

static void
test_incremental_offsets (void)
{
  check_incremental (TRUE);
}

static void
test_seams (void)
{
  g_autoptr(GError) error = NULL;
  OdoriComposer *composer = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  GArray *seams;

  setup_library (pose_swing);
  /* the arm swings 10 degrees a frame; switching from A1 frame 5 (50 deg) to B1 frame 1
   * (10 deg) jumps 40 degrees */
  m = compose_text ("BD: Hips\n1: A1\nAR: Hips,Arm,Hand\n1: A1\n6: B1\n", ODORI_ROOT_MATCH_NONE, &error, &composer);
  g_assert_no_error (error);
  seams = odori_composer_get_seams (composer);
  g_assert_cmpuint (seams->len, ==, 1);
  {
    OdoriSeam *seam = &g_array_index (seams, OdoriSeam, 0);

    g_assert_cmpuint (seam->part, ==, 1);
    g_assert_cmpuint (seam->frame, ==, 6);
    g_assert_cmpstr (seam->from, ==, "A1");
    g_assert_cmpstr (seam->to, ==, "B1");
    g_assert_cmpfloat_with_epsilon (seam->jump_deg, 40, 0.05);
    g_assert_cmpfloat_with_epsilon (seam->clip_max_deg, 10, 0.05);
    /* 40 degrees against a step of 10 */
    g_assert_cmpint (odori_seam_rank (seam), ==, ODORI_SEAM_ROUGH);
  }
  odori_composer_free (composer);
}

/* One rule for the timeline, the inspector and the CLI: above 1.25 times the clips'
 * largest step is noticeable, above twice rough, the step taken as at least 0.5°. */
static void
test_seam_rank (void)
{
  static const struct
  {
    double        jump, clip;
    OdoriSeamRank rank;
  } cases[] = {
    { 0, 0, ODORI_SEAM_SMOOTH },
    { 12.5, 10, ODORI_SEAM_SMOOTH },
    { 12.6, 10, ODORI_SEAM_NOTICEABLE },
    { 20, 10, ODORI_SEAM_NOTICEABLE },
    { 20.1, 10, ODORI_SEAM_ROUGH },
    /* still clips: the floor of 0.5 degrees */
    { 0.6, 0, ODORI_SEAM_SMOOTH },
    { 0.7, 0.1, ODORI_SEAM_NOTICEABLE },
    { 1.0, 0.2, ODORI_SEAM_NOTICEABLE },
    { 1.5, 0.2, ODORI_SEAM_ROUGH },
    { 1.5, 0.8, ODORI_SEAM_NOTICEABLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      OdoriSeam seam = { .jump_deg = cases[i].jump, .clip_max_deg = cases[i].clip };

      g_test_message ("jump %g, clips %g", cases[i].jump, cases[i].clip);
      g_assert_cmpint (odori_seam_rank (&seam), ==, cases[i].rank);
    }
}

static void
expect_error (const char *score,
              int         code,
              const char *line_tag,
              const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  g_autofree char *score_path = tmp_path ("score.dds");
  g_autofree char *want = g_strdup_printf ("%s:%s:", score_path, line_tag);

  m = compose_text (score, ODORI_ROOT_MATCH_POSITION, &error, NULL);
  g_assert_null (m);
  g_assert_error (error, ODORI_COMPOSE_ERROR, code);
  if (!g_str_has_prefix (error->message, want))
    g_error ("message \"%s\" does not start with %s", error->message, want);
  if (fragment && !strstr (error->message, fragment))
    g_error ("message \"%s\" does not mention %s", error->message, fragment);
}

static void
test_errors (void)
{
  g_autofree char *out = tmp_path ("out.bva");

  setup_library (pose_translate);
  expect_error ("BD: Hips\n1: A1\n5: NOPE\n", ODORI_COMPOSE_ERROR_UNKNOWN_SYMBOL, "3", "NOPE");
  expect_error ("BD: Hips\n1: D\n", ODORI_COMPOSE_ERROR_AMBIGUOUS, "2", "SB.D");
  expect_error ("BD: Hips\n1: SB.BAD\n", ODORI_COMPOSE_ERROR_RANGE, "2", "500");
  expect_error ("BD: Hips\nAR: Hips,Arm,Wing\n1: A1\n", ODORI_COMPOSE_ERROR_MISSING_SENSOR, "3", "Wing");
  expect_error ("BD: Hips,Arm\n1: A1\nAR: Hips,Arm,Hand\n1: A1\n", ODORI_COMPOSE_ERROR_DOUBLE_DRIVEN, "3", "Arm");
  expect_error ("BD: Hips\n1: A1\nX1: Arm,Hand\n1: A1\nX2: Hand,Arm\n1: A1\n", ODORI_COMPOSE_ERROR_CYCLE, "3", "X1");
  expect_error ("# Title: empty\n", ODORI_COMPOSE_ERROR_NO_PARTS, "1", NULL);
  /* the qualified form resolves the ambiguity */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriMotion) m = compose_text ("BD: Hips\n1: SB.D\n", ODORI_ROOT_MATCH_NONE, &error, NULL);

    g_assert_no_error (error);
    g_assert_cmpfloat_with_epsilon (x_at (m, 1, "Hips"), 2001, 1e-3);
  }
}

static void
test_resample_function (void)
{
  g_autoptr(OdoriMotion) src = odori_motion_new (1, 13, 1.0 / 120, NULL);
  g_autoptr(OdoriMotion) out = NULL;

  for (guint f = 0; f < 13; f++)
    odori_motion_get (src, f, 0)->position[0] = f;
  /* frames 2..13 (12 frames at 120 fps) → 3 frames at 30 fps reading times 0, 1/30, 2/30 */
  out = odori_motion_resample (src, 2, 13, 1.0 / 30, NULL);
  g_assert_cmpuint (out->n_frames, ==, 3);
  g_assert_cmpfloat_with_epsilon (odori_motion_get (out, 0, 0)->position[0], 1, 1e-4);
  g_assert_cmpfloat_with_epsilon (odori_motion_get (out, 1, 0)->position[0], 5, 1e-4);
  g_assert_cmpfloat_with_epsilon (odori_motion_get (out, 2, 0)->position[0], 9, 1e-4);
}

static void
test_slerp_opposite_signs (void)
{
  const double r[3] = { 0, 0, 10 };
  float a[4], b[4], out[4];

  odori_euler_to_quat ("ZXY", r, a);
  for (int i = 0; i < 4; i++)
    b[i] = -a[i];
  odori_quat_slerp (a, b, 0.5f, out);
  g_assert_cmpfloat (odori_quat_angle_deg (a, out), <, 1e-3);
  g_assert_cmpfloat_with_epsilon (out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3], 1, 1e-5);
}

/* Show files shared through an OdoriMotionCache: one load per file whatever the path's
 * spelling, failures not kept, and compositions bit for bit those without the cache
 * (clips that need no resampling read the show's own frames instead of a copy). */
static void
test_shared_files (void)
{
  g_autoptr(OdoriMotionCache) cache = odori_motion_cache_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *a = tmp_path ("a.bva");
  g_autofree char *a_dotted = g_build_filename (tmpdir, ".", "a.bva", NULL);
  g_autofree char *missing = tmp_path ("missing.bva");
  g_autofree char *score_path = tmp_path ("score.dds");
  g_autofree char *index_path = tmp_path ("motion.dat");
  const char *score_text = "BD: Hips\n1: A1\n9: B1\n15: A2\nAR: Hips,Arm,Hand\n3: B1\n";
  g_autoptr(OdoriMotion) m1 = NULL;
  g_autoptr(OdoriMotion) m2 = NULL;
  OdoriMotion *first, *again;

  write_bva ("a.bva", 1, 20, 1.0 / 30, body_segments, pose_translate);
  write_bva ("b.bva", 2, 40, 1.0 / 60, body_segments, pose_translate);
  write_file ("motion.dat",
              BODY_ARM_INDEX_HEAD
              "    motion name=\"a1\" code=\"A1\" frame=1-10\n"
              "    motion name=\"a2\" code=\"A2\" frame=5-20\n"
              "  end show\n"
              "  begin show name=\"B\" code=\"SB\" file=\"b.bva\"\n"
              "    motion name=\"b1\" code=\"B1\" frame=3-30\n"
              "  end show\n"
              "end class\n");

  first = odori_motion_cache_load (cache, a, &error);
  g_assert_no_error (error);
  again = odori_motion_cache_load (cache, a_dotted, &error);
  g_assert_no_error (error);
  g_assert_true (first == again);
  odori_motion_unref (again);
  g_assert_null (odori_motion_cache_load (cache, missing, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  write_bva ("missing.bva", 1, 5, 1.0 / 30, body_segments, pose_translate);
  again = odori_motion_cache_load (cache, missing, &error);
  g_assert_no_error (error);
  odori_motion_unref (again);

  /* a score over a 30 fps show (shared frames) and a 60 fps one (resampled) */
  g_assert_true (g_file_set_contents (score_path, score_text, -1, NULL));
  for (int pass = 0; pass < 2; pass++)
    {
      g_autoptr(OdoriIndex) index = odori_index_load (index_path, NULL);
      g_autoptr(OdoriScore) score = odori_score_load (score_path, &error);
      OdoriComposer *composer;

      g_assert_no_error (error);
      composer = pass == 0 ? odori_composer_new (score, index, &error)
                           : odori_composer_new_with_cache (score, index, cache, &error);
      g_assert_no_error (error);
      odori_composer_set_blend (composer, 3);
      if (pass == 0)
        m1 = odori_motion_ref (odori_composer_compose (composer, &error));
      else
        m2 = odori_motion_ref (odori_composer_compose (composer, &error));
      g_assert_no_error (error);
      odori_composer_free (composer);
    }
  g_assert_cmpuint (m1->n_frames, ==, m2->n_frames);
  g_assert_cmpuint (m1->n_segments, ==, m2->n_segments);
  g_assert_cmpmem (m1->transforms, sizeof (OdoriTransform) * m1->n_frames * m1->n_segments,
                   m2->transforms, sizeof (OdoriTransform) * m2->n_frames * m2->n_segments);
  /* the composer took a.bva from the cache: still the one loaded first */
  again = odori_motion_cache_load (cache, a, &error);
  g_assert_true (again == first);
  odori_motion_unref (again);

  odori_motion_cache_clear (cache);
  again = odori_motion_cache_load (cache, a, &error);
  g_assert_no_error (error);
  g_assert_true (again != first);
  odori_motion_unref (again);
  odori_motion_unref (first);
}


static const char *foreign_segments[] = { "hip", "abdomen", "chest", "lThigh", "Chest", NULL };

/* DESIGN.md "Composition": the output has the reference skeleton's sensors only (the
 * first show file the score uses), so a show file with another skeleton added to a
 * library (first in motion.dat, even) changes no score that does not use it; a score
 * that uses it on the root track gets its sensors, and check's warning names the mix. */
static void
test_foreign_show (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_path ("foreign-lib");
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *score_path = g_build_filename (dir, "sample.dds", NULL);
  g_autofree char *mixed_path = g_build_filename (dir, "mixed.dds", NULL);
  g_autofree char *text = NULL, *with = NULL;
  g_autofree char *out_before = tmp_path ("foreign-before.bva");
  g_autofree char *out_after = tmp_path ("foreign-after.bva");
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GPtrArray) diags = odori_diagnostics_new ();

  g_assert_true (odori_sample_write (dir, &error));
  g_assert_no_error (error);
  before = odori_test_compose_bva (score_path, out_before);

  write_bva ("foreign.bva", 1, 30, 1.0 / 30, foreign_segments, pose_translate);
  g_assert_true (g_file_get_contents (index_path, &text, NULL, NULL));
  with = g_strdup_printf ("begin class name=\"Foreign\" code=\"f\"\n"
                          "  begin show name=\"F\" code=\"FX\" file=\"../foreign.bva\"\n"
                          "    motion name=\"f1\" code=\"F1\" frame=1-30\n"
                          "  end show\n"
                          "end class\n%s", text);
  g_assert_true (g_file_set_contents (index_path, with, -1, NULL));
  after = odori_test_compose_bva (score_path, out_after);
  g_assert_true (g_bytes_equal (before, after));

  /* the foreign show on the root track: its sensors first, then those the parts name */
  g_assert_true (g_file_set_contents (mixed_path,
                                      "# Index: motion.dat\n"
                                      "BD: Chest\n1: F1\n"
                                      "LA: Chest,LeftCollar,LeftUpArm,LeftLowArm,LeftHand\n1: C1\n",
                                      -1, NULL));
  {
    g_autoptr(OdoriScore) score = odori_score_load (mixed_path, &error);
    g_autoptr(OdoriIndex) index = odori_index_load (index_path, &error);
    g_autoptr(OdoriComposer) composer = NULL;
    const char *expected[] = { "hip", "abdomen", "chest", "lThigh", "Chest", "LeftCollar",
                               "LeftUpArm", "LeftLowArm", "LeftHand" };
    OdoriMotion *motion;
    OdoriDiagnostic *d;

    g_assert_no_error (error);
    composer = odori_composer_new (score, index, &error);
    g_assert_no_error (error);
    motion = odori_composer_compose (composer, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (motion->n_segments, ==, G_N_ELEMENTS (expected));
    for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
      g_assert_cmpstr (motion->segments[k].name, ==, expected[k]);
    g_assert_true (g_str_has_suffix (odori_composer_get_reference (composer), "foreign.bva"));
    odori_composer_check_sensor_sets (composer, diags);
    g_assert_cmpuint (diags->len, ==, 1);
    d = g_ptr_array_index (diags, 0);
    g_assert_false (d->is_error);
    g_assert_cmpuint (d->line, ==, 5);
    g_assert_nonnull (strstr (d->message, "symbol C1"));
    g_assert_nonnull (strstr (d->message, "te.bva"));
  }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("odori-compose-XXXXXX", NULL);

  g_test_add_func ("/compose/cut", test_cut);
  g_test_add_func ("/compose/hold-after-end-and-gap", test_hold_after_end_and_gap);
  g_test_add_func ("/compose/hold-before-first", test_hold_before_first);
  g_test_add_func ("/compose/blend-weights", test_blend_weights);
  g_test_add_func ("/compose/blend-outgoing-holds", test_blend_outgoing_holds);
  g_test_add_func ("/compose/root-match", test_root_match);
  g_test_add_func ("/compose/reattachment", test_reattachment);
  g_test_add_func ("/compose/track-without-symbols", test_track_without_symbols_and_unnamed);
  g_test_add_func ("/compose/root-without-symbols", test_root_without_symbols_holds_first_show);
  g_test_add_func ("/compose/resample-60-in-30", test_resample);
  g_test_add_func ("/compose/clip-frames", test_clip_frames);
  g_test_add_func ("/compose/bvh-beside-bva", test_bvh_beside_bva);
  g_test_add_func ("/compose/incremental", test_incremental);
  g_test_add_func ("/compose/incremental/offsets", test_incremental_offsets);
  g_test_add_func ("/compose/incremental/shift", test_incremental_shift);
  g_test_add_func ("/compose/shared-files", test_shared_files);
  g_test_add_func ("/compose/seams", test_seams);
  g_test_add_func ("/compose/seam-rank", test_seam_rank);
  g_test_add_func ("/compose/errors", test_errors);
  g_test_add_func ("/compose/foreign-show", test_foreign_show);
  g_test_add_func ("/compose/resample-function", test_resample_function);
  g_test_add_func ("/compose/slerp-opposite-signs", test_slerp_opposite_signs);

  ret = g_test_run ();
  g_free (tmpdir);
  return ret;
}
