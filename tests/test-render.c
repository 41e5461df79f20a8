/* test-render.c: pixel tests of the renderer on headless (EGL surfaceless) images
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Needs no display: an OpenGL 3.3 core context on EGL's surfaceless platform. When none
 * can be made the tests skip, unless GUI_TESTS_REQUIRED is set: then they fail.
 *
 * The figure is found by colour: every segment highlighted in pure green, which nothing
 * else in the image (grey backdrop and floor) is.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-headless.h"
#include "odori-index.h"
#include "odori-renderer.h"
#include "odori-renderer-private.h"
#include "odori-sample.h"
#include "odori-score.h"

#include "test-corpus.h"

#define W 480
#define H 360

static OdoriHeadless *headless;
static char *context_error;
static char *sample_dir;
static OdoriMotion *motion;      /* the composed sample dance */
static OdoriSkeleton *skeleton;
static OdoriBulgeSet *bulges;
static OdoriComposer *composer;

static const float green[4] = { 0.f, 1.f, 0.f, 1.f };
static const float red[4] = { 1.f, 0.f, 0.f, 1.f };
static const float blue[4] = { 0.f, 0.f, 1.f, 1.f };

static gboolean
have_context (void)
{
  if (headless != NULL)
    {
      odori_headless_make_current (headless);
      return TRUE;
    }
  if (g_getenv ("GUI_TESTS_REQUIRED") != NULL)
    g_error ("GUI_TESTS_REQUIRED, but no headless GL context: %s", context_error);
  g_test_skip (context_error);
  return FALSE;
}

static OdoriRenderer *
new_renderer (void)
{
  g_autoptr(GError) error = NULL;
  OdoriRenderer *r = odori_renderer_new (&error);

  g_assert_no_error (error);
  g_assert_nonnull (r);
  odori_renderer_set_motion (r, motion, skeleton);
  odori_renderer_set_bulges (r, bulges);
  return r;
}

static guint8 *
draw (OdoriRenderer *r)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (odori_renderer_draw (r, W, H, &error));
  g_assert_no_error (error);
  return odori_headless_read_rgba (headless);
}

static const guint8 *
pixel (const guint8 *px,
       int           x,
       int           y)
{
  return px + ((gsize) y * W + x) * 4;
}

static gboolean
is_green (const guint8 *p)
{
  return p[1] > p[0] + 50 && p[1] > p[2] + 50;
}

static gboolean
is_red (const guint8 *p)
{
  return p[0] > p[1] + 100 && p[0] > p[2] + 100;
}

static gboolean
is_blue (const guint8 *p)
{
  return p[2] > p[0] + 100 && p[2] > p[1] + 60;
}

/* Is there a pixel for which TEST holds within a 3x3 square around (X, Y)? */
static gboolean
near (const guint8 *px,
      float         x,
      float         y,
      gboolean    (*test) (const guint8 *))
{
  int cx = (int) floorf (x), cy = (int) floorf (y);

  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (cx + dx >= 0 && cx + dx < W && cy + dy >= 0 && cy + dy < H &&
          test (pixel (px, cx + dx, cy + dy)))
        return TRUE;
  return FALSE;
}

static const float *
joint_at (guint       frame,
          const char *name)
{
  int s = odori_motion_find_segment (motion, name);

  g_assert_cmpint (s, >=, 0);
  return odori_motion_get (motion, frame, s)->position;
}

static void
project_joint (OdoriRenderer *r,
               guint          frame,
               const char    *name,
               float          out[2])
{
  odori_renderer_project (r, joint_at (frame, name), out);
}

static void
highlight_all (OdoriRenderer *r,
               const float    color[4])
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint b = 0; b < skeleton->n_bones; b++)
    g_ptr_array_add (names, skeleton->bones[b].name);
  g_ptr_array_add (names, NULL);
  odori_renderer_set_highlight (r, (const char * const *) names->pdata, color);
}

/* Pixels per motion unit near P (an upper bound over directions). */
static float
pixel_scale (OdoriRenderer *r,
             const float   *p)
{
  float a[2], b[2], best = 0.f;

  odori_renderer_project (r, p, a);
  for (int i = 0; i < 3; i++)
    {
      float q[3] = { p[0], p[1], p[2] };

      q[i] += 1.f;
      odori_renderer_project (r, q, b);
      best = MAX (best, hypotf (b[0] - a[0], b[1] - a[1]));
    }
  return best;
}

static float
segment_distance (const float *p,
                  const float *a,
                  const float *b)
{
  float ab[2] = { b[0] - a[0], b[1] - a[1] };
  float len2 = ab[0] * ab[0] + ab[1] * ab[1];
  float t = len2 > 0.f ? ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / len2 : 0.f;

  t = CLAMP (t, 0.f, 1.f);
  return hypotf (p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1]);
}

/* The figure covers the middle of every bone odori_renderer_project() shows, and no
 * figure pixel lies farther from the projected skeleton than the skin can reach. */
static void
check_silhouette (OdoriView view,
                  gboolean  skin,
                  guint     frame)
{
  g_autoptr(OdoriRenderer) r = new_renderer ();
  g_autofree guint8 *px = NULL;
  g_autofree float *proj = g_new (float, skeleton->n_bones * 2);
  g_autofree float *reach = g_new (float, skeleton->n_bones);
  guint n_figure = 0, n_far = 0;

  odori_renderer_set_show_skin (r, skin);
  odori_renderer_set_view (r, view);
  odori_renderer_set_frame (r, frame);
  highlight_all (r, green);
  px = draw (r);

  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      const OdoriBone *bone = &skeleton->bones[b];
      const float *p = joint_at (frame, bone->name);
      gboolean leaf = TRUE;

      odori_renderer_project (r, p, &proj[b * 2]);
      g_assert_cmpfloat (proj[b * 2], >=, 0.f);
      g_assert_cmpfloat (proj[b * 2], <=, W);
      g_assert_cmpfloat (proj[b * 2 + 1], >=, 0.f);
      g_assert_cmpfloat (proj[b * 2 + 1], <=, H);
      for (guint c = 0; c < skeleton->n_bones; c++)
        leaf = leaf && skeleton->bones[c].parent != (int) b;
      /* how far from its joints a bone's skin may reach on screen (leaves: their length
       * in any direction), with two pixels of antialiasing */
      reach[b] = pixel_scale (r, p) * (bone->radius * 1.8f + (leaf ? bone->length : 0.f)) *
                 sqrtf (3.f) + 2.f;
    }

  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      int parent = skeleton->bones[b].parent;
      float mid[3], m[2];

      if (parent < 0)
        continue;
      for (int i = 0; i < 3; i++)
        mid[i] = (joint_at (frame, skeleton->bones[b].name)[i] +
                  joint_at (frame, skeleton->bones[parent].name)[i]) / 2.f;
      odori_renderer_project (r, mid, m);
      if (!near (px, m[0], m[1], is_green))
        g_error ("view %s, %s, frame %u: no figure at the middle of %s-%s (%.1f, %.1f)",
                 odori_view_to_string (view), skin ? "skin" : "bones", frame,
                 skeleton->bones[parent].name, skeleton->bones[b].name, m[0], m[1]);
    }

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float p[2] = { x + 0.5f, y + 0.5f };
        gboolean ok = FALSE;

        if (!is_green (pixel (px, x, y)))
          continue;
        n_figure++;
        for (guint b = 0; b < skeleton->n_bones && !ok; b++)
          {
            int parent = skeleton->bones[b].parent;
            const float *a = &proj[b * 2];
            const float *e = parent >= 0 ? &proj[parent * 2] : a;
            float rb = parent >= 0 ? MAX (reach[b], reach[parent]) : reach[b];

            ok = segment_distance (p, a, e) <= rb;
          }
        n_far += !ok;
      }
  g_test_message ("view %s, %s, frame %u: %u figure pixels, %u far from the skeleton",
                  odori_view_to_string (view), skin ? "skin" : "bones", frame, n_figure, n_far);
  g_assert_cmpuint (n_figure, >, 300);
  g_assert_cmpuint (n_far, ==, 0);
}

static void
test_silhouette (void)
{
  static const OdoriView views[] = {
    ODORI_VIEW_FRONT, ODORI_VIEW_BACK, ODORI_VIEW_LEFT, ODORI_VIEW_TOP,
    ODORI_VIEW_MIRROR, ODORI_VIEW_THREE_QUARTER,
  };
  const guint frames[] = { 0, 250, motion->n_frames * 2 / 3 };

  if (!have_context ())
    return;
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
      {
        check_silhouette (views[v], FALSE, frames[f]);
        check_silhouette (views[v], TRUE, frames[f]);
      }
}

/* Left and right, front and back, up and down come out the right way round. */
static void
test_orientation (void)
{
  g_autoptr(OdoriRenderer) r = NULL;
  g_autofree guint8 *px = NULL;
  float left[2], right[2], hips[2], head[2], ahead[2];
  float ahead_w[3];
  const float *h;

  if (!have_context ())
    return;
  r = new_renderer ();
  h = joint_at (0, "Hips");
  ahead_w[0] = h[0], ahead_w[1] = h[1], ahead_w[2] = h[2] + 20.f;   /* in front of the dancer */

#define VIEW(v)                                     \
  odori_renderer_set_view (r, v);                   \
  g_free (px);                                      \
  px = draw (r);                                    \
  project_joint (r, 0, "LeftUpArm", left);          \
  project_joint (r, 0, "RightUpArm", right);        \
  project_joint (r, 0, "Hips", hips);               \
  project_joint (r, 0, "Head", head);               \
  odori_renderer_project (r, ahead_w, ahead)

  VIEW (ODORI_VIEW_FRONT);
  g_assert_cmpfloat (left[0], >, right[0] + 10);   /* the dancer's left on our right */
  g_assert_cmpfloat (head[1], <, hips[1] - 30);    /* head up */
  VIEW (ODORI_VIEW_MIRROR);
  g_assert_cmpfloat (left[0], <, right[0] - 10);   /* as in a studio mirror */
  g_assert_cmpfloat (head[1], <, hips[1] - 30);
  VIEW (ODORI_VIEW_BACK);
  g_assert_cmpfloat (left[0], <, right[0] - 10);
  VIEW (ODORI_VIEW_LEFT);
  g_assert_cmpfloat (ahead[0], <, hips[0] - 10);   /* seen from the dancer's left: front is on our left */
  VIEW (ODORI_VIEW_RIGHT);
  g_assert_cmpfloat (ahead[0], >, hips[0] + 10);
  VIEW (ODORI_VIEW_TOP);
  g_assert_cmpfloat (ahead[1], >, hips[1] + 10);   /* from above, the front is down */
  g_assert_cmpfloat (left[0], >, right[0] + 10);
  VIEW (ODORI_VIEW_THREE_QUARTER);
  g_assert_cmpfloat (left[0], >, right[0]);
  g_assert_cmpfloat (head[1], <, hips[1] - 30);
#undef VIEW
}

/* Framing fits every joint of every frame, and not loosely. */
static void
test_frame_all (void)
{
  if (!have_context ())
    return;
  for (OdoriView v = ODORI_VIEW_FRONT; v <= ODORI_VIEW_THREE_QUARTER; v++)
    {
      g_autoptr(OdoriRenderer) r = new_renderer ();
      g_autofree guint8 *px = NULL;
      float lo[2] = { G_MAXFLOAT, G_MAXFLOAT }, hi[2] = { -G_MAXFLOAT, -G_MAXFLOAT };

      odori_renderer_set_view (r, v);
      odori_renderer_zoom (r, 3.f);     /* undone by frame_all */
      odori_renderer_pan (r, 100.f, 40.f);
      odori_renderer_frame_all (r);
      px = draw (r);
      for (guint f = 0; f < motion->n_frames; f += 3)
        for (guint s = 0; s < motion->n_segments; s++)
          {
            float p[2];

            odori_renderer_project (r, odori_motion_get (motion, f, s)->position, p);
            for (int i = 0; i < 2; i++)
              {
                lo[i] = MIN (lo[i], p[i]);
                hi[i] = MAX (hi[i], p[i]);
              }
          }
      g_test_message ("%s: joints span x %.0f..%.0f, y %.0f..%.0f", odori_view_to_string (v),
                      lo[0], hi[0], lo[1], hi[1]);
      g_assert_cmpfloat (lo[0], >=, 0.f);
      g_assert_cmpfloat (lo[1], >=, 0.f);
      g_assert_cmpfloat (hi[0], <=, W);
      g_assert_cmpfloat (hi[1], <=, H);
      g_assert_true (hi[0] - lo[0] > 0.4f * W || hi[1] - lo[1] > 0.4f * H);
    }
}

static void
test_camera_moves (void)
{
  g_autoptr(OdoriRenderer) r = NULL;
  g_autofree guint8 *px = NULL;
  float a0[2], b0[2], a1[2], b1[2], ahead_w[3], ahead[2], hips[2];
  const float *h;

  if (!have_context ())
    return;
  r = new_renderer ();
  odori_renderer_set_view (r, ODORI_VIEW_FRONT);
  px = draw (r);
  project_joint (r, 0, "Head", a0);
  project_joint (r, 0, "Hips", b0);

  /* zoom: twice as close, about twice as large */
  odori_renderer_zoom (r, 2.f);
  g_free (px);
  px = draw (r);
  project_joint (r, 0, "Head", a1);
  project_joint (r, 0, "Hips", b1);
  {
    float ratio = hypotf (a1[0] - b1[0], a1[1] - b1[1]) / hypotf (a0[0] - b0[0], a0[1] - b0[1]);
    g_assert_cmpfloat (ratio, >, 1.8f);
    g_assert_cmpfloat (ratio, <, 2.3f);
  }

  /* pan: the scene follows the pointer, in the mirror too */
  for (int mirror = 0; mirror < 2; mirror++)
    {
      odori_renderer_set_view (r, mirror ? ODORI_VIEW_MIRROR : ODORI_VIEW_FRONT);
      g_free (px);
      px = draw (r);
      project_joint (r, 0, "Hips", b0);
      odori_renderer_pan (r, 50.f, 20.f);
      g_free (px);
      px = draw (r);
      project_joint (r, 0, "Hips", b1);
      g_assert_cmpfloat (fabsf (b1[0] - b0[0] - 50.f), <, 4.f);
      g_assert_cmpfloat (fabsf (b1[1] - b0[1] - 20.f), <, 4.f);
    }

  /* orbit: a quarter turn from the front is the left view */
  odori_renderer_set_view (r, ODORI_VIEW_FRONT);
  odori_renderer_orbit (r, 90.f, 0.f);
  h = joint_at (0, "Hips");
  ahead_w[0] = h[0], ahead_w[1] = h[1], ahead_w[2] = h[2] + 20.f;
  g_free (px);
  px = draw (r);
  project_joint (r, 0, "Hips", hips);
  odori_renderer_project (r, ahead_w, ahead);
  g_assert_cmpfloat (ahead[0], <, hips[0] - 10);
  /* pitching up past the pole stops straight above, the image still turned as the
   * left view was: the dancer's front on the left */
  odori_renderer_orbit (r, 0.f, 500.f);
  g_free (px);
  px = draw (r);
  project_joint (r, 0, "Hips", hips);
  odori_renderer_project (r, ahead_w, ahead);
  g_assert_cmpfloat (ahead[0], <, hips[0] - 10);
  g_assert_cmpfloat (fabsf (ahead[1] - hips[1]), <, 1.f);
}

/* The mirror view is the front view flipped left-right, and the front is not symmetric. */
static void
test_mirror (void)
{
  g_autoptr(OdoriRenderer) r = NULL;
  g_autofree guint8 *front = NULL;
  g_autofree guint8 *mirror = NULL;
  guint frame = 0, differ = 0, asym = 0;
  float best = -1.f;

  if (!have_context ())
    return;

  /* a frame where the arms are far from symmetric */
  for (guint f = 0; f < motion->n_frames; f += 5)
    {
      const float *l = joint_at (f, "LeftHand"), *rt = joint_at (f, "RightHand");
      float d = fabsf (l[1] - rt[1]) + fabsf (l[2] - rt[2]);

      if (d > best)
        best = d, frame = f;
    }

  r = new_renderer ();
  odori_renderer_set_frame (r, frame);
  odori_renderer_set_view (r, ODORI_VIEW_FRONT);
  front = draw (r);
  odori_renderer_set_view (r, ODORI_VIEW_MIRROR);
  mirror = draw (r);

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        const guint8 *a = pixel (front, x, y), *b = pixel (mirror, W - 1 - x, y);
        const guint8 *c = pixel (front, W - 1 - x, y);
        int d = 0, e = 0;

        for (int i = 0; i < 3; i++)
          {
            d = MAX (d, ABS (a[i] - b[i]));
            e = MAX (e, ABS (a[i] - c[i]));
          }
        differ += d > 24;
        asym += e > 24;
      }
  g_test_message ("frame %u: %u pixels differ from the flipped front, the front has %u "
                  "asymmetric pixels", frame, differ, asym);
  g_assert_cmpuint (asym, >, W * H / 200);
  g_assert_cmpuint (differ, <=, W * H / 2000);
}

static void
test_highlight (void)
{
  g_autoptr(OdoriRenderer) r = NULL;
  g_autofree guint8 *px = NULL;
  const char *left[] = { "LeftUpArm", "LeftLowArm", NULL };
  const char *right[] = { "RightUpArm", "RightLowArm", NULL };
  float l[2], rt[2], la[2], lb[2], ra[2], rb[2];

  if (!have_context ())
    return;
  r = new_renderer ();
  odori_renderer_set_view (r, ODORI_VIEW_FRONT);
  odori_renderer_zoom (r, 1.5f);

#define ARMS()                                                  \
  g_free (px);                                                  \
  px = draw (r);                                                \
  project_joint (r, 0, "LeftUpArm", la);                        \
  project_joint (r, 0, "LeftLowArm", lb);                       \
  project_joint (r, 0, "RightUpArm", ra);                       \
  project_joint (r, 0, "RightLowArm", rb);                      \
  l[0] = (la[0] + lb[0]) / 2, l[1] = (la[1] + lb[1]) / 2;       \
  rt[0] = (ra[0] + rb[0]) / 2, rt[1] = (ra[1] + rb[1]) / 2

  odori_renderer_set_highlight (r, left, red);
  ARMS ();
  g_assert_true (near (px, l[0], l[1], is_red));
  g_assert_false (near (px, rt[0], rt[1], is_red));
  g_assert_false (near (px, rt[0], rt[1], is_blue));

  /* a colour per part */
  odori_renderer_add_highlight (r, right, blue);
  ARMS ();
  g_assert_true (near (px, l[0], l[1], is_red));
  g_assert_true (near (px, rt[0], rt[1], is_blue));

  /* replacing, then clearing */
  odori_renderer_set_highlight (r, right, red);
  ARMS ();
  g_assert_false (near (px, l[0], l[1], is_red));
  g_assert_true (near (px, rt[0], rt[1], is_red));
  odori_renderer_set_highlight (r, NULL, NULL);
  ARMS ();
  g_assert_false (near (px, l[0], l[1], is_red));
  g_assert_false (near (px, rt[0], rt[1], is_red));
  g_assert_false (near (px, rt[0], rt[1], is_blue));
#undef ARMS
}

/* Width of the green run across the screen segment A-B at fraction U. */
static int
run_width (const guint8 *px,
           const float  *a,
           const float  *b,
           float         u)
{
  float d[2] = { b[0] - a[0], b[1] - a[1] };
  float len = hypotf (d[0], d[1]);
  float n[2] = { -d[1] / len, d[0] / len };
  float p[2] = { a[0] + u * d[0], a[1] + u * d[1] };
  int width = 0;

  for (int side = -1; side <= 1; side += 2)
    for (int k = side < 0 ? 1 : 0; k < 400; k++)
      {
        int x = (int) floorf (p[0] + side * k * n[0]), y = (int) floorf (p[1] + side * k * n[1]);

        if (x < 0 || x >= W || y < 0 || y >= H || !is_green (pixel (px, x, y)))
          break;
        width++;
      }
  return width;
}

static double
bend_deg (guint       frame,
          const char *a,
          const char *b,
          const char *c)
{
  vec3 u, v;

  glm_vec3_sub ((float *) joint_at (frame, b), (float *) joint_at (frame, a), u);
  glm_vec3_sub ((float *) joint_at (frame, c), (float *) joint_at (frame, b), v);
  return glm_deg (glm_vec3_angle (u, v));
}

/* At the sample's most bent left elbow, seen across the bend, the upper arm's
 * silhouette is wider with bulges than without. */
static void
test_bulge_width (void)
{
  g_autoptr(OdoriRenderer) r = NULL;
  g_autofree guint8 *off = NULL;
  g_autofree guint8 *on = NULL;
  const char *upper[] = { "LeftUpArm", NULL };
  guint frame = 0;
  double bend = -1;
  vec3 u, v, n;
  float a[2], b[2], mid[2];
  int w_off = 0, w_on = 0;

  if (!have_context ())
    return;
  g_assert_nonnull (bulges);
  for (guint f = 0; f < motion->n_frames; f++)
    {
      double d = bend_deg (f, "LeftUpArm", "LeftLowArm", "LeftHand");

      if (d > bend)
        bend = d, frame = f;
    }
  g_test_message ("most bent left elbow: frame %u, %.0f degrees", frame + 1, bend);
  g_assert_cmpfloat (bend, >, 60.0);

  /* look along the normal of the bend plane, from above it */
  glm_vec3_sub ((float *) joint_at (frame, "LeftLowArm"), (float *) joint_at (frame, "LeftUpArm"), u);
  glm_vec3_sub ((float *) joint_at (frame, "LeftHand"), (float *) joint_at (frame, "LeftLowArm"), v);
  glm_vec3_crossn (u, v, n);
  if (n[1] < 0)
    glm_vec3_negate (n);

  r = new_renderer ();
  odori_renderer_set_frame (r, frame);
  odori_renderer_set_highlight (r, upper, green);
  odori_renderer_set_view (r, ODORI_VIEW_FRONT);
  odori_renderer_orbit (r, glm_deg (atan2f (n[0], n[2])), glm_deg (asinf (n[1])));
  odori_renderer_set_show_bulges (r, FALSE);
  off = draw (r);
  /* bring the upper arm to the middle, three times larger */
  project_joint (r, frame, "LeftUpArm", a);
  project_joint (r, frame, "LeftLowArm", b);
  odori_renderer_pan (r, W / 2.f - (a[0] + b[0]) / 2, H / 2.f - (a[1] + b[1]) / 2);
  odori_renderer_zoom (r, 3.f);
  g_free (off);
  off = draw (r);
  odori_renderer_set_show_bulges (r, TRUE);
  on = draw (r);

  project_joint (r, frame, "LeftUpArm", a);
  project_joint (r, frame, "LeftLowArm", b);
  mid[0] = (a[0] + b[0]) / 2, mid[1] = (a[1] + b[1]) / 2;
  g_assert_true (near (off, mid[0], mid[1], is_green));
  for (float t = 0.15f; t <= 0.85f; t += 0.05f)
    {
      w_off = MAX (w_off, run_width (off, a, b, t));
      w_on = MAX (w_on, run_width (on, a, b, t));
    }
  g_test_message ("upper arm %.0f px long: widest %d px without bulges, %d px with",
                  hypotf (b[0] - a[0], b[1] - a[1]), w_off, w_on);
  g_assert_cmpint (w_off, >, 5);
  g_assert_cmpint (w_on, >=, w_off + 3);
  g_assert_cmpfloat (w_on, >=, w_off * 1.08);
}

static void
test_shader_error (void)
{
  static const char *broken_vertex =
    "#version 330 core\n"
    "void main () { gl_Position = vec4 (undeclared_thing, 1.0); }\n";
  /* compiles, but the function it calls is defined nowhere */
  static const char *unlinkable_fragment =
    "#version 330 core\n"
    "vec4 shade_defined_nowhere (void);\n"
    "out vec4 frag_color;\n"
    "void main () { frag_color = shade_defined_nowhere (); }\n";
  g_autoptr(GError) error = NULL;
  OdoriRenderer *r;

  if (!have_context ())
    return;

  r = odori_renderer_new_with_sources (broken_vertex, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_SHADER);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "mesh.vert"));
  g_assert_nonnull (strstr (error->message, "undeclared_thing"));   /* the compiler's log */
  g_clear_error (&error);

  r = odori_renderer_new_with_sources (NULL, unlinkable_fragment, &error);
  g_assert_null (r);
  g_assert_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_SHADER);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "link"));
  g_assert_nonnull (strstr (error->message, "shade_defined_nowhere"));
  g_clear_error (&error);

  /* and the real shaders do build */
  r = odori_renderer_new_with_sources (NULL, NULL, &error);
  g_assert_no_error (error);
  odori_renderer_free (r);
}

/* Multisampled read-back: the same picture, with the figure's edges blended. */
static void
test_multisample (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriRenderer) r = NULL;
  g_autofree guint8 *single = NULL;
  g_autofree guint8 *multi = NULL;
  guint mixed_single = 0, mixed_multi = 0, differ = 0;

  if (!have_context ())
    return;
  r = new_renderer ();
  odori_renderer_set_view (r, ODORI_VIEW_FRONT);
  highlight_all (r, green);
  single = draw (r);
  g_assert_true (odori_headless_set_samples (headless, 4, &error));
  g_assert_no_error (error);
  g_assert_cmpint (odori_headless_get_samples (headless), ==, 4);
  multi = draw (r);
  g_assert_true (odori_headless_set_samples (headless, 1, &error));
  g_assert_cmpint (odori_headless_get_samples (headless), ==, 1);

  for (int i = 0; i < W * H; i++)
    {
      const guint8 *a = single + i * 4, *b = multi + i * 4;
      /* neither green figure nor grey floor: an edge pixel blending the two */
      gboolean mid_a = a[1] > a[0] + 15 && !is_green (a), mid_b = b[1] > b[0] + 15 && !is_green (b);

      mixed_single += mid_a;
      mixed_multi += mid_b;
      differ += ABS (a[1] - b[1]) > 24;
    }
  g_test_message ("edge pixels: %u without multisampling, %u with; %u differ", mixed_single,
                  mixed_multi, differ);
  g_assert_cmpuint (mixed_multi, >, mixed_single + 100);
  g_assert_cmpuint (differ, <, W * H / 50);
}

/* A second headless context, freed, leaves the first one working. */
static void
test_two_contexts (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *px = NULL;
  OdoriHeadless *other;
  OdoriRenderer *r;

  if (!have_context ())
    return;
  other = odori_headless_new (32, 32, &error);
  g_assert_no_error (error);
  r = odori_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (odori_renderer_draw (r, 32, 32, &error));
  odori_renderer_free (r);
  odori_headless_free (other);

  odori_headless_make_current (headless);
  r = new_renderer ();
  highlight_all (r, green);
  px = draw (r);
  odori_renderer_free (r);
  for (int i = 0; i < W * H && !is_green (px + i * 4); i++)
    g_assert_cmpint (i, <, W * H - 1);
}

/* Without a current context: an error, not a crash. */
static void
test_no_context (void)
{
  g_autoptr(GError) error = NULL;
  OdoriRenderer *r;

  if (!have_context ())
    return;
  eglMakeCurrent (eglGetCurrentDisplay (), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  r = odori_renderer_new (&error);
  g_assert_null (r);
  g_assert_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT);
  odori_headless_make_current (headless);
}

/* Drawing needs a depth buffer; a framebuffer without one is refused, not drawn wrong. */
static void
test_no_depth (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriRenderer) r = NULL;
  GLuint fbo, color;

  if (!have_context ())
    return;
  r = new_renderer ();
  glGenRenderbuffers (1, &color);
  glBindRenderbuffer (GL_RENDERBUFFER, color);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, 64, 64);
  glGenFramebuffers (1, &fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  g_assert_cmpint (glCheckFramebufferStatus (GL_FRAMEBUFFER), ==, GL_FRAMEBUFFER_COMPLETE);

  g_assert_false (odori_renderer_draw (r, 64, 64, &error));
  g_assert_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT);
  g_clear_error (&error);
  g_assert_false (odori_renderer_draw (r, 0, 64, &error));
  g_assert_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT);

  glDeleteFramebuffers (1, &fbo);
  glDeleteRenderbuffers (1, &color);
  odori_headless_make_current (headless);
}

static void
test_view_names (void)
{
  const char *names[] = { "front", "back", "left", "right", "top", "mirror", "three-quarter" };
  OdoriView v;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (odori_view_from_string (names[i], &v));
      g_assert_cmpstr (odori_view_to_string (v), ==, names[i]);
    }
  g_assert_true (odori_view_from_string ("MIRROR", &v));
  g_assert_cmpint (v, ==, ODORI_VIEW_MIRROR);
  g_assert_false (odori_view_from_string ("sideways", &v));
  g_assert_false (odori_view_from_string ("", &v));
}

static int
run_cli (const char * const *args,
         char              **out,
         char              **err)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "render");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                &status, &error);
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
test_cli_series (void)
{
  g_autofree char *score = g_build_filename (sample_dir, "sample.dds", NULL);
  g_autofree char *out_dir = g_dir_make_tmp ("odori-render-cli-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (out_dir, "dance.png", NULL);
  g_autofree char *first = g_build_filename (out_dir, "dance-0001.png", NULL);
  g_autofree char *second = g_build_filename (out_dir, "dance-0006.png", NULL);
  g_autofree char *single = g_build_filename (out_dir, "one.png", NULL);
  const char *series[] = { score, "--frames", "1-10", "--every", "5", "--size", "160x120",
                           "--view", "mirror", "-o", out, NULL };
  const char *one[] = { score, "--frame", "40", "--size", "200x100", "--no-skin", "-o", single, NULL };
  g_autofree char *stdout_text = NULL, *stderr_text = NULL;
  g_autoptr(GDir) dir = NULL;
  guint n_files = 0;
  int status;

  if (!have_context ())
    return;

  status = run_cli (series, &stdout_text, &stderr_text);
  g_test_message ("%s%s", stdout_text, stderr_text);
  g_assert_cmpint (status, ==, 0);
  dir = g_dir_open (out_dir, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 2);
  for (int i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      int w = 0, h = 0;
      g_autofree guint8 *px = odori_png_read_rgba (i == 0 ? first : second, &w, &h, &error);

      g_assert_no_error (error);
      g_assert_cmpint (w, ==, 160);
      g_assert_cmpint (h, ==, 120);
    }
  g_clear_pointer (&stdout_text, g_free);
  g_clear_pointer (&stderr_text, g_free);

  status = run_cli (one, &stdout_text, &stderr_text);
  g_assert_cmpint (status, ==, 0);
  {
    g_autoptr(GError) error = NULL;
    int w = 0, h = 0;
    g_autofree guint8 *px = odori_png_read_rgba (single, &w, &h, &error);

    g_assert_no_error (error);
    g_assert_cmpint (w, ==, 200);
    g_assert_cmpint (h, ==, 100);
  }

  g_unlink (first);
  g_unlink (second);
  g_unlink (single);
  g_rmdir (out_dir);
}

static void
test_cli_errors (void)
{
  g_autofree char *score = g_build_filename (sample_dir, "sample.dds", NULL);
  g_autofree char *out = g_build_filename (sample_dir, "never.png", NULL);
  g_autofree char *missing = g_build_filename (sample_dir, "missing.dds", NULL);
  struct
  {
    const char *args[10];
    int         status;
    const char *message;
  } cases[] = {
    { { score, "--size", "0x10", "-o", out }, 2, "--size" },
    { { score, "--size", "640", "-o", out }, 2, "--size" },
    { { score, "--view", "sideways", "-o", out }, 2, "--view" },
    { { score, "--frames", "10-1", "-o", out }, 2, "--frames" },
    { { score, "--frames", "1-10", "--every", "0", "-o", out }, 2, "--every" },
    { { score, "--frames", "1-10", "--frame", "3", "-o", out }, 2, "exclude" },
    { { score, "--frame", "0", "-o", out }, 2, "--frame" },
    { { score, "--samples", "0", "-o", out }, 2, "--samples" },
    { { score, "-o", "dance.jpg" }, 2, ".png" },
    { { score }, 2, "-o" },
    { { score, "--frame", "99999", "-o", out }, 1, "frame 99999" },
    { { missing, "-o", out }, 1, "missing.dds" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *stdout_text = NULL, *stderr_text = NULL;
      int status = run_cli (cases[i].args, &stdout_text, &stderr_text);

      g_test_message ("case %u: %d %s", i, status, stderr_text);
      g_assert_cmpint (status, ==, cases[i].status);
      g_assert_nonnull (strstr (stderr_text, cases[i].message));
    }
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
setup_sample (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *score_path = NULL;
  g_autofree char *index_path = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;

  sample_dir = g_dir_make_tmp ("odori-test-render-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_true (odori_sample_write (sample_dir, &error));
  score_path = g_build_filename (sample_dir, "sample.dds", NULL);
  index_path = g_build_filename (sample_dir, "motion.dat", NULL);
  score = odori_score_load (score_path, &error);
  g_assert_no_error (error);
  index = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  composer = odori_composer_new (score, index, &error);
  g_assert_no_error (error);
  motion = odori_composer_compose (composer, &error);
  g_assert_no_error (error);
  skeleton = odori_skeleton_for_motion (motion);

  {
    g_autofree char *path = g_build_filename (ODORI_SOURCE_DATADIR, "bulge_types", NULL);

    bulges = odori_bulge_set_load (path, &error);
    g_assert_no_error (error);
  }
}

/* Real captures drawn as one figure (DESIGN.md "Skeleton for display"). */

typedef struct
{
  guint8 *mask;      /* W × H, 1 where the (green) figure is */
  guint   n;         /* its pixels */
  guint   largest;   /* pixels of its largest 8-connected component */
  guint   pieces;    /* components of 10 pixels or more */
  int     top, bottom, left, right;
} Figure;

static void
figure_clear (Figure *fig)
{
  g_clear_pointer (&fig->mask, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Figure, figure_clear)

/* MOTION drawn at FRAME from VIEW, every bone green, as a mask. */
static void draw_figure_mask_up (OdoriMotion *m, guint frame, OdoriView view, OdoriUpAxis up,
                                 Figure *fig);

static void
draw_figure_mask (OdoriMotion *m,
                  guint        frame,
                  OdoriView    view,
                  Figure      *fig)
{
  draw_figure_mask_up (m, frame, view, ODORI_UP_AUTO, fig);
}

static void
draw_figure_mask_up (OdoriMotion *m,
                     guint        frame,
                     OdoriView    view,
                     OdoriUpAxis  up,
                     Figure      *fig)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriRenderer) r = odori_renderer_new (&error);
  g_autoptr(OdoriSkeleton) sk = odori_skeleton_for_motion (m);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree guint8 *px = NULL;
  g_autofree int *stack = g_new (int, W * H);
  g_autofree guint8 *seen = g_new0 (guint8, W * H);

  g_assert_no_error (error);
  odori_renderer_set_up_axis (r, up);
  odori_renderer_set_motion (r, m, NULL);
  odori_renderer_set_view (r, view);
  odori_renderer_set_frame (r, frame);
  for (guint b = 0; b < sk->n_bones; b++)
    g_ptr_array_add (names, sk->bones[b].name);
  g_ptr_array_add (names, NULL);
  odori_renderer_set_highlight (r, (const char * const *) names->pdata, green);
  px = draw (r);

  memset (fig, 0, sizeof *fig);
  fig->mask = g_new0 (guint8, W * H);
  fig->top = H, fig->left = W, fig->bottom = fig->right = -1;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (is_green (pixel (px, x, y)))
        {
          fig->mask[y * W + x] = 1;
          fig->n++;
          fig->top = MIN (fig->top, y), fig->bottom = MAX (fig->bottom, y);
          fig->left = MIN (fig->left, x), fig->right = MAX (fig->right, x);
        }
  for (int start = 0; start < W * H; start++)
    {
      guint size = 0;
      int top = 0;

      if (!fig->mask[start] || seen[start])
        continue;
      seen[start] = 1;
      stack[top++] = start;
      while (top > 0)
        {
          int i = stack[--top], x = i % W, y = i / W;

          size++;
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
              {
                int nx = x + dx, ny = y + dy;

                if (nx < 0 || ny < 0 || nx >= W || ny >= H || !fig->mask[ny * W + nx] ||
                    seen[ny * W + nx])
                  continue;
                seen[ny * W + nx] = 1;
                stack[top++] = ny * W + nx;
              }
        }
      fig->largest = MAX (fig->largest, size);
      fig->pieces += size >= 10;
    }
}

/* One figure, standing up: one component holding (nearly) every figure pixel, and a
 * figure taller than it is wide from the front and from the side. */
static void
assert_one_upright_figure (const char *name,
                           const char *what,
                           OdoriView   view,
                           Figure     *fig)
{
  int height = fig->bottom - fig->top + 1, width = fig->right - fig->left + 1;

  g_test_message ("%s (%s, %s): %u figure pixels, %u pieces, largest %u, %d×%d px", name,
                  what, odori_view_to_string (view), fig->n, fig->pieces, fig->largest, width,
                  height);
  g_assert_cmpuint (fig->n, >, 500);
  g_assert_cmpuint (fig->pieces, ==, 1);
  g_assert_cmpuint (fig->largest, >=, fig->n * 98 / 100);
  g_assert_cmpint (height, >, width);
  /* framed: the camera frames the whole motion (a long walk seen from the side is
   * small), yet no figure is a speck in a corner */
  g_assert_cmpint (height, >, H / 5);
}

static void
test_corpus_figures (void)
{
  static const char *files[] = {
    "bvh-cmu-131/131_01.bvh", "bvh-cmu-cgspeed/12_03.bvh", "bvh-cmu-salsa/60_10_scaled.bvh",
    "bvh-cmu-salsa/61_10_scaled.bvh", "bvh-fair-zup/zombie.bvh", "bvh-rokoko/jesse_dance.bvh",
    "bva-motionx/08_01.vpm",
  };
  static const OdoriView views[] = { ODORI_VIEW_FRONT, ODORI_VIEW_LEFT };
  g_autofree char *dir = NULL;

  if (!have_context ())
    return;
  dir = g_dir_make_tmp ("odori-render-corpus-XXXXXX", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = odori_test_corpus_file (files[i]);
      g_autofree char *bva_path = NULL;
      g_autoptr(OdoriMotion) m = NULL;
      g_autoptr(OdoriMotion) bva = NULL;
      g_autoptr(GError) error = NULL;
      guint frame;

      if (path == NULL)
        return;
      m = odori_format_load_motion (path, NULL, &error);
      g_assert_no_error (error);
      frame = m->n_frames / 3;
      if (!m->has_hierarchy)
        {
          for (guint v = 0; v < G_N_ELEMENTS (views); v++)
            {
              g_auto (Figure) fig = { 0 };

              draw_figure_mask (m, frame, views[v], &fig);
              assert_one_upright_figure (files[i], "BVA", views[v], &fig);
            }
          continue;
        }
      if (g_str_has_suffix (files[i], "zombie.bvh"))
        {
          /* Z up, found from the head and the feet; forced to Y it lies on the floor */
          g_auto (Figure) lying = { 0 };

          draw_figure_mask_up (m, frame, ODORI_VIEW_LEFT, ODORI_UP_Y, &lying);
          g_assert_cmpint (lying.bottom - lying.top, <, lying.right - lying.left);
        }
      /* the same capture without its hierarchy, as odori-cli convert writes it */
      bva_path = g_build_filename (dir, "capture.bva", NULL);
      g_assert_true (odori_bva_save (m, bva_path, &error));
      g_assert_no_error (error);
      bva = odori_bva_load (bva_path, NULL, &error);
      g_assert_no_error (error);
      g_unlink (bva_path);
      for (guint v = 0; v < G_N_ELEMENTS (views); v++)
        {
          g_auto (Figure) a = { 0 };
          g_auto (Figure) b = { 0 };
          guint both = 0, either = 0;

          draw_figure_mask (m, frame, views[v], &a);
          draw_figure_mask (bva, frame, views[v], &b);
          assert_one_upright_figure (files[i], "BVH", views[v], &a);
          assert_one_upright_figure (files[i], "BVA", views[v], &b);
          for (int k = 0; k < W * H; k++)
            {
              both += a.mask[k] && b.mask[k];
              either += a.mask[k] || b.mask[k];
            }
          g_test_message ("%s, %s: BVA and BVH figures overlap %.1f %%", files[i],
                          odori_view_to_string (views[v]), 100.0 * both / MAX (either, 1));
          g_assert_cmpuint (both * 100, >=, either * 80);
        }
    }
  g_rmdir (dir);
}

static void
teardown_sample (void)
{
  g_autoptr(GDir) dir = g_dir_open (sample_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (sample_dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (sample_dir);
  g_free (sample_dir);
  g_clear_pointer (&bulges, odori_bulge_set_unref);
  g_clear_pointer (&skeleton, odori_skeleton_unref);
  g_clear_pointer (&composer, odori_composer_free);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  setup_sample ();
  headless = odori_headless_new (W, H, &error);
  if (headless == NULL)
    context_error = g_strdup (error->message);

  g_test_add_func ("/render/view-names", test_view_names);
  g_test_add_func ("/render/shader-error", test_shader_error);
  g_test_add_func ("/render/no-context", test_no_context);
  g_test_add_func ("/render/no-depth", test_no_depth);
  g_test_add_func ("/render/orientation", test_orientation);
  g_test_add_func ("/render/frame-all", test_frame_all);
  g_test_add_func ("/render/camera-moves", test_camera_moves);
  g_test_add_func ("/render/silhouette", test_silhouette);
  g_test_add_func ("/render/mirror", test_mirror);
  g_test_add_func ("/render/highlight", test_highlight);
  g_test_add_func ("/render/multisample", test_multisample);
  g_test_add_func ("/render/two-contexts", test_two_contexts);
  g_test_add_func ("/render/bulge-width", test_bulge_width);
  g_test_add_func ("/render/cli-series", test_cli_series);
  g_test_add_func ("/render/corpus-figures", test_corpus_figures);
  g_test_add_func ("/render/cli-errors", test_cli_errors);
  status = g_test_run ();

  g_clear_pointer (&headless, odori_headless_free);
  g_free (context_error);
  teardown_sample ();
  return status;
}
