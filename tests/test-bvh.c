/* test-bvh.c: the BVH reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bvh.h"
#include "odori-motion.h"
#include "odori-text.h"

#include "test-corpus.h"

/* Helpers */

static OdoriMotion *
load_string (const char  *text,
             GPtrArray   *warnings,
             GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  file = odori_text_file_new_from_data ("bad.bvh", text, strlen (text), error);
  if (file == NULL)
    return NULL;
  return odori_bvh_load_text (file, warnings, error);
}

static void
assert_position (const OdoriMotion *m,
                 guint              frame,
                 const char        *name,
                 double             x,
                 double             y,
                 double             z)
{
  int s = odori_motion_find_segment (m, name);
  const OdoriTransform *xf;

  g_assert_cmpint (s, >=, 0);
  xf = odori_motion_get (m, frame, s);
  g_assert_cmpfloat_with_epsilon (xf->position[0], x, 1e-5);
  g_assert_cmpfloat_with_epsilon (xf->position[1], y, 1e-5);
  g_assert_cmpfloat_with_epsilon (xf->position[2], z, 1e-5);
}

/* An independent forward kinematics, in double, with rotation matrices written out:
 * M_global = M_parent · T(t) · R_c1 · R_c2 · R_c3. */
typedef struct
{
  double r[3][3];
  double p[3];
} RefPose;

static void
ref_mul_axis (double r[3][3],
              guint  axis,
              double deg)
{
  double a = deg * G_PI / 180.0, c = cos (a), s = sin (a);
  double m[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
  double out[3][3];
  guint i = (axis + 1) % 3, j = (axis + 2) % 3;

  /* rotation about AXIS, right-handed, column vectors */
  m[i][i] = c;
  m[i][j] = -s;
  m[j][i] = s;
  m[j][j] = c;
  for (guint row = 0; row < 3; row++)
    for (guint col = 0; col < 3; col++)
      out[row][col] = r[row][0] * m[0][col] + r[row][1] * m[1][col] + r[row][2] * m[2][col];
  memcpy (r, out, sizeof out);
}

/* VALUES are one frame's channel values in file order. With FORCE_ORDER (e.g. "ZYX"),
 * rotations are applied in that order whatever the file says (to show orders matter). */
static void
reference_fk (const OdoriMotion *m,
              const double      *values,
              const char        *force_order,
              RefPose           *out)
{
  guint v = 0;

  for (guint s = 0; s < m->n_segments; s++)
    {
      const OdoriSegment *seg = &m->segments[s];
      double local[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
      double rot[3] = { 0, 0, 0 };
      double t[3] = { seg->offset[0], seg->offset[1], seg->offset[2] };

      for (guint c = 0; c < seg->n_channels; c++, v++)
        {
          OdoriChannel ch = seg->channels[c];

          if (ch <= ODORI_CHANNEL_ZPOSITION)
            t[ch] = values[v];
          else if (force_order == NULL)
            ref_mul_axis (local, ch - ODORI_CHANNEL_XROTATION, values[v]);
          else
            rot[ch - ODORI_CHANNEL_XROTATION] = values[v];
        }
      for (guint k = 0; force_order != NULL && k < 3; k++)
        ref_mul_axis (local, force_order[k] - 'X', rot[force_order[k] - 'X']);

      if (seg->parent < 0)
        {
          memcpy (out[s].r, local, sizeof local);
          memcpy (out[s].p, t, sizeof t);
          continue;
        }
      out[s] = out[seg->parent];
      for (guint row = 0; row < 3; row++)
        {
          const RefPose *pp = &out[seg->parent];

          out[s].p[row] += pp->r[row][0] * t[0] + pp->r[row][1] * t[1] + pp->r[row][2] * t[2];
          for (guint col = 0; col < 3; col++)
            out[s].r[row][col] = pp->r[row][0] * local[0][col] + pp->r[row][1] * local[1][col] +
                                 pp->r[row][2] * local[2][col];
        }
    }
}

/* Largest distance between the reader's positions / rotated axes and the reference. */
static double
max_deviation (const OdoriMotion *m,
               guint              frame,
               const RefPose     *ref,
               double            *max_axis_dev)
{
  double dev = 0, axis_dev = 0;

  for (guint s = 0; s < m->n_segments; s++)
    {
      const OdoriTransform *xf = odori_motion_get (m, frame, s);
      versor q = { xf->rotation[0], xf->rotation[1], xf->rotation[2], xf->rotation[3] };

      for (guint k = 0; k < 3; k++)
        {
          vec3 e = { k == 0, k == 1, k == 2 }, re;

          dev = MAX (dev, fabs (xf->position[k] - ref[s].p[k]));
          glm_quat_rotatev (q, e, re);
          for (guint row = 0; row < 3; row++)
            axis_dev = MAX (axis_dev, fabs (re[row] - ref[s].r[row][k]));
        }
    }
  if (max_axis_dev != NULL)
    *max_axis_dev = axis_dev;
  return dev;
}

/* Hand-made files */

#define CHAIN \
  "HIERARCHY\n" \
  "ROOT root\n" \
  "{\n" \
  "  OFFSET 0 0 0\n" \
  "  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n" \
  "  JOINT child\n" \
  "  {\n" \
  "    OFFSET 0 0 1\n" \
  "    CHANNELS 3 Zrotation Xrotation Yrotation\n" \
  "    JOINT tip\n" \
  "    {\n" \
  "      OFFSET 0 1 0\n" \
  "      CHANNELS 3 Zrotation Xrotation Yrotation\n" \
  "      End Site\n" \
  "      {\n" \
  "        OFFSET 0 0 2.5\n" \
  "      }\n" \
  "    }\n" \
  "  }\n" \
  "}\n" \
  "MOTION\n" \
  "Frames: 2\n" \
  "Frame Time: .0333333\n" \
  "1 2 3 0 90 0 0 0 0 0 0 0\n" \
  "1.0 2.0 3.0 0 90 0 0 90 0 0 0 0\n"

/* Column vectors: R_y(90) takes +Z to +X, R_x(90) takes +Y to +Z. */
static void
test_chain_known (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = load_string (CHAIN, NULL, &error);
  const OdoriTransform *root;

  g_assert_no_error (error);
  g_assert_true (m->has_hierarchy);
  g_assert_cmpuint (m->n_segments, ==, 3);
  g_assert_cmpuint (m->n_frames, ==, 2);
  g_assert_cmpfloat (m->frame_time, ==, 0.0333333);
  g_assert_cmpstr (m->path, ==, "bad.bvh");
  g_assert_cmpstr (m->segments[1].name, ==, "child");
  g_assert_cmpint (m->segments[0].parent, ==, -1);
  g_assert_cmpint (m->segments[1].parent, ==, 0);
  g_assert_cmpint (m->segments[2].parent, ==, 1);
  g_assert_cmpfloat (m->segments[2].offset[1], ==, 1);
  g_assert_cmpuint (m->segments[0].n_fields, ==, 0);
  g_assert_cmpint (m->segments[0].units[ODORI_FIELD_XTRAN], ==, ODORI_UNIT_UNKNOWN);

  root = odori_motion_get (m, 0, 0);
  g_assert_cmpfloat_with_epsilon (root->rotation[0], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (root->rotation[1], G_SQRT2 / 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (root->rotation[2], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (root->rotation[3], G_SQRT2 / 2, 1e-6);
  g_assert_cmpfloat (root->scale[0], ==, 1);
  g_assert_cmpfloat (root->scale[2], ==, 1);

  assert_position (m, 0, "root", 1, 2, 3);
  assert_position (m, 0, "child", 2, 2, 3);
  assert_position (m, 0, "tip", 2, 3, 3);
  /* frame 1: child turns X 90, so tip = (2,2,3) + Ry(90)·Rx(90)·(0,1,0) = (3,2,3) */
  assert_position (m, 1, "child", 2, 2, 3);
  assert_position (m, 1, "tip", 3, 2, 3);
}

/* Two roots with the same angles (Z 30, X 45, Y 60), one ZXY and one ZYX; each child's
 * position and rotation must match the independently composed rotation of its order. */
#define ORDERS \
  "HIERARCHY\n" \
  "ROOT zxy\n" \
  "{\n" \
  "  OFFSET 5 0 0\n" \
  "  CHANNELS 3 Zrotation Xrotation Yrotation\n" \
  "  JOINT zxy_child\n" \
  "  {\n" \
  "    OFFSET 1 2 3\n" \
  "    CHANNELS 0\n" \
  "  }\n" \
  "}\n" \
  "ROOT zyx\n" \
  "{\n" \
  "  OFFSET 0 0 0\n" \
  "  CHANNELS 3 Zrotation Yrotation Xrotation\n" \
  "  JOINT zyx_child\n" \
  "  {\n" \
  "    OFFSET 1 2 3\n" \
  "  }\n" \
  "}\n" \
  "MOTION\n" \
  "Frames: 1\n" \
  "Frame Time: 0.01\n" \
  "30 45 60 30 60 45\n"

static void
test_channel_order (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriMotion) m = load_string (ORDERS, warnings, &error);
  const double values[] = { 30, 45, 60, 30, 60, 45 };
  RefPose ref[4];
  double axis_dev, apart = 0;
  const OdoriTransform *a, *b;

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 4);
  g_assert_cmpint (m->segments[2].parent, ==, -1);
  g_assert_cmpint (m->segments[3].parent, ==, 2);
  g_assert_cmpint (m->segments[0].channels[1], ==, ODORI_CHANNEL_XROTATION);
  g_assert_cmpint (m->segments[2].channels[1], ==, ODORI_CHANNEL_YROTATION);
  /* zyx_child has no CHANNELS line (allowed), and no warning since it has an OFFSET */
  g_assert_cmpuint (m->segments[3].n_channels, ==, 0);
  g_assert_cmpuint (warnings->len, ==, 0);

  reference_fk (m, values, NULL, ref);
  g_assert_cmpfloat (max_deviation (m, 0, ref, &axis_dev), <, 1e-5);
  g_assert_cmpfloat (axis_dev, <, 1e-6);
  /* no position channels: the root stays at its OFFSET */
  g_assert_cmpfloat_with_epsilon (odori_motion_get (m, 0, 0)->position[0], 5, 1e-6);

  /* and the two orders really give different rotations */
  a = odori_motion_get (m, 0, 1);
  b = odori_motion_get (m, 0, 3);
  for (guint k = 0; k < 3; k++)
    apart = MAX (apart, fabs ((a->position[k] - 5) - b->position[k]));
  g_assert_cmpfloat (apart, >, 0.5);
  g_assert_cmpfloat (odori_quat_angle_deg (a->rotation, b->rotation), >, 10);

  /* the same rotation through the motion module's Euler helper */
  {
    const double zxy[3] = { 30, 45, 60 };
    float q[4];

    odori_euler_to_quat ("ZXY", zxy, q);
    g_assert_cmpfloat (odori_quat_angle_deg (q, a->rotation), <, 1e-3);
  }
}

/* A chain mixing orders (root ZYX, children ZXY and XYZ), non-trivial angles, against the
 * reference kinematics. */
static void
test_mixed_chain (void)
{
  static const char text[] =
    "HIERARCHY\n"
    "ROOT hip\n{\n OFFSET 0 0 0\n"
    " CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    " JOINT a\n {\n  OFFSET 0.1 0.2 -0.3\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  JOINT b\n  {\n   OFFSET 0 -0.4 0.05\n   CHANNELS 3 Xrotation Yrotation Zrotation\n"
    "   JOINT c\n   {\n    OFFSET 0.3 0 0\n    CHANNELS 2 Yrotation Xrotation\n"
    "    End Site\n    {\n     OFFSET 0 0 0.1\n    }\n   }\n  }\n }\n}\n"
    "MOTION\nFrames: 1\nFrame Time: 0.008333\n"
    "0.5 0.9 -0.2 -76.009 85.8041 -63.6656 12.5 -33.25 101 170 -45 7.5 -20 89\n";
  const double values[] = { 0.5, 0.9, -0.2, -76.009, 85.8041, -63.6656, 12.5, -33.25, 101,
                            170, -45, 7.5, -20, 89 };
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = load_string (text, NULL, &error);
  RefPose ref[4], wrong[4];
  double axis_dev;

  g_assert_no_error (error);
  reference_fk (m, values, NULL, ref);
  g_assert_cmpfloat (max_deviation (m, 0, ref, &axis_dev), <, 1e-5);
  g_assert_cmpfloat (axis_dev, <, 1e-5);
  reference_fk (m, values, "ZYX", wrong);
  g_assert_cmpfloat (max_deviation (m, 0, wrong, NULL), >, 0.05);
}

static void
test_end_site (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = load_string (CHAIN, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 3);
  g_assert_cmpint (odori_motion_find_segment (m, "End Site"), ==, -1);
  g_assert_false (m->segments[0].has_end_site);
  g_assert_false (m->segments[1].has_end_site);
  g_assert_true (m->segments[2].has_end_site);
  g_assert_cmpfloat (m->segments[2].end_site[0], ==, 0);
  g_assert_cmpfloat (m->segments[2].end_site[1], ==, 0);
  g_assert_cmpfloat (m->segments[2].end_site[2], ==, 2.5);
}

/* CRLF, lone CR, tabs, trailing blanks, braces glued to names, names with blanks, blank
 * lines among frames, no final newline, a joint without OFFSET (warning). */
static void
test_lenient_layout (void)
{
  static const char text[] =
    "\r\n  HIERARCHY \r\nROOT\tLeft Hip{\tOFFSET 1 2 3 \r"
    "CHANNELS 3\r\nXposition Yposition\n Zposition\r\n"
    "\tJOINT knee {CHANNELS 1 Xrotation\r\n"
    "End Site{OFFSET 0 -1 0}}}\r\n"
    "MOTION\r\nFrames:\t2\r\nFrame Time: 0.5  \r\n"
    "\t1 2 3 90 \r\n\r\n  \t\r\n4 5 6 -90";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriMotion) m = load_string (text, warnings, &error);
  const OdoriDiagnostic *w;

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 2);
  g_assert_cmpuint (m->n_frames, ==, 2);
  g_assert_cmpfloat (m->frame_time, ==, 0.5);
  g_assert_cmpstr (m->segments[0].name, ==, "Left Hip");
  g_assert_cmpstr (m->segments[1].name, ==, "knee");
  g_assert_true (m->segments[1].has_end_site);
  g_assert_cmpfloat (m->segments[1].end_site[1], ==, -1);
  assert_position (m, 0, "Left Hip", 1, 2, 3);
  assert_position (m, 1, "Left Hip", 4, 5, 6);
  assert_position (m, 1, "knee", 4, 5, 6);

  g_assert_cmpuint (warnings->len, ==, 1);
  w = g_ptr_array_index (warnings, 0);
  g_assert_false (w->is_error);
  g_assert_cmpstr (w->file, ==, "bad.bvh");
  /* the file's first line end is CRLF, so the lone CR after "OFFSET 1 2 3" does not end
   * a line (odori-text.h): the joint without OFFSET is on line 6 */
  g_assert_cmpuint (w->line, ==, 6);
  g_assert_nonnull (strstr (w->message, "knee"));
}

static void
test_sniff (void)
{
  static const struct
  {
    const char *data;
    gboolean    expected;
  } cases[] = {
    { "HIERARCHY\nROOT Hips", TRUE },
    { "HIERARCHY\r\n", TRUE },
    { "\xEF\xBB\xBF \r\n\tHIERARCHY\n", TRUE },
    { "hierarchy\n", TRUE },
    { "HIERARCHY", TRUE },
    { "HIERARCHYX\n", FALSE },
    { "HIERARCH", FALSE },
    { "# HIERARCHY\n", FALSE },
    { "Segment: Hips\nFrames: 1\n", FALSE },
    { "", FALSE },
    { "\xEF\xBB\xBF", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (odori_bvh_sniff (cases[i].data, strlen (cases[i].data)), ==,
                     cases[i].expected);
}

/* Corpus */

/* The channel values of FRAME (0-based), read with GLib rather than the reader. */
static double *
raw_frame_values (const char *contents,
                  guint       frame,
                  guint       n_values)
{
  g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);
  g_auto(GStrv) fields = NULL;
  double *values = g_new0 (double, n_values);
  guint first = 0, n = 0;

  while (lines[first] != NULL && !g_str_has_prefix (lines[first], "Frame Time"))
    first++;
  g_assert_nonnull (lines[first]);
  g_assert_cmpuint (g_strv_length (lines), >, first + 1 + frame);
  fields = g_strsplit_set (lines[first + 1 + frame], " \t\r", -1);
  for (guint i = 0; fields[i] != NULL; i++)
    if (fields[i][0] != '\0')
      {
        g_assert_cmpuint (n, <, n_values);
        values[n++] = g_ascii_strtod (fields[i], NULL);
      }
  g_assert_cmpuint (n, ==, n_values);
  return values;
}

static guint
count_values (const OdoriMotion *m)
{
  guint n = 0;

  for (guint s = 0; s < m->n_segments; s++)
    n += m->segments[s].n_channels;
  return n;
}

/* Bone lengths stay equal to |OFFSET| in every frame, for joints without position
 * channels: the global chain keeps rigid bones. */
static void
assert_rigid_bones (const OdoriMotion *m)
{
  for (guint s = 0; s < m->n_segments; s++)
    {
      const OdoriSegment *seg = &m->segments[s];
      double len = sqrt (seg->offset[0] * seg->offset[0] + seg->offset[1] * seg->offset[1] +
                         seg->offset[2] * seg->offset[2]);

      if (seg->parent < 0)
        continue;
      for (guint c = 0; c < seg->n_channels; c++)
        g_assert_cmpint (seg->channels[c], >=, ODORI_CHANNEL_XROTATION);
      for (guint f = 0; f < m->n_frames; f++)
        {
          const float *a = odori_motion_get (m, f, s)->position;
          const float *b = odori_motion_get (m, f, seg->parent)->position;
          double d = sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                           (a[2] - b[2]) * (a[2] - b[2]));

          if (fabs (d - len) > 1e-3 * len + 1e-5)
            g_error ("%s frame %u: bone length %g, offset length %g", seg->name, f, d, len);
        }
    }
}

/* The reader's global transforms equal the reference kinematics at several frames, and
 * ignoring the per-joint orders (ZYX everywhere) would give visibly different poses. */
static void
assert_matches_reference (const OdoriMotion *m,
                          const char        *contents,
                          double             tol,
                          double             wrong_at_least)
{
  const guint frames[] = { 0, m->n_frames / 2, m->n_frames - 1 };
  g_autofree RefPose *ref = g_new (RefPose, m->n_segments);
  double worst_wrong = 0;

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree double *values = raw_frame_values (contents, frames[i], count_values (m));
      double axis_dev;

      reference_fk (m, values, NULL, ref);
      g_assert_cmpfloat (max_deviation (m, frames[i], ref, &axis_dev), <, tol);
      g_assert_cmpfloat (axis_dev, <, 1e-4);
      reference_fk (m, values, "ZYX", ref);
      worst_wrong = MAX (worst_wrong, max_deviation (m, frames[i], ref, NULL));
    }
  g_assert_cmpfloat (worst_wrong, >, wrong_at_least);
}

static void
assert_channels (const OdoriMotion  *m,
                 const char         *name,
                 const OdoriChannel *expected,
                 guint               n)
{
  int s = odori_motion_find_segment (m, name);

  g_assert_cmpint (s, >=, 0);
  g_assert_cmpuint (m->segments[s].n_channels, ==, n);
  for (guint c = 0; c < n; c++)
    g_assert_cmpint (m->segments[s].channels[c], ==, expected[c]);
}

static const OdoriChannel root_zyx[] = {
  ODORI_CHANNEL_XPOSITION, ODORI_CHANNEL_YPOSITION, ODORI_CHANNEL_ZPOSITION,
  ODORI_CHANNEL_ZROTATION, ODORI_CHANNEL_YROTATION, ODORI_CHANNEL_XROTATION,
};
static const OdoriChannel zyx[] = {
  ODORI_CHANNEL_ZROTATION, ODORI_CHANNEL_YROTATION, ODORI_CHANNEL_XROTATION,
};
static const OdoriChannel zxy[] = {
  ODORI_CHANNEL_ZROTATION, ODORI_CHANNEL_XROTATION, ODORI_CHANNEL_YROTATION,
};

static guint
count_substring (const char *haystack,
                 const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
test_corpus_cmu_131 (void)
{
  g_autofree char *path = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriMotion) m = NULL;
  guint n_end_sites = 0;

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\r\n"));  /* the CRLF case is really covered */
  m = odori_bvh_load (path, warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpstr (m->path, ==, path);
  g_assert_cmpuint (m->n_frames, ==, 994);
  g_assert_cmpfloat (m->frame_time, ==, 0.0083333);
  g_assert_cmpuint (m->n_segments, ==, 31);
  g_assert_cmpstr (m->segments[0].name, ==, "Hips");
  g_assert_cmpstr (m->segments[30].name, ==, "RThumb");
  g_assert_cmpint (m->segments[0].parent, ==, -1);
  g_assert_cmpint (m->segments[odori_motion_find_segment (m, "LeftHip")].parent, ==,
                   odori_motion_find_segment (m, "LHipJoint"));
  g_assert_cmpuint (count_values (m), ==, 96);

  /* ZYX on the legs and spine, ZXY on the arms */
  assert_channels (m, "Hips", root_zyx, 6);
  assert_channels (m, "LeftHip", zyx, 3);
  assert_channels (m, "Head", zyx, 3);
  assert_channels (m, "LeftCollar", zyx, 3);
  assert_channels (m, "LeftShoulder", zxy, 3);
  assert_channels (m, "RightElbow", zxy, 3);
  assert_channels (m, "RThumb", zxy, 3);

  for (guint s = 0; s < m->n_segments; s++)
    n_end_sites += m->segments[s].has_end_site;
  g_assert_cmpuint (n_end_sites, ==, count_substring (contents, "End Site"));
  g_assert_true (m->segments[odori_motion_find_segment (m, "LeftToe")].has_end_site);
  g_assert_cmpfloat_with_epsilon (m->segments[odori_motion_find_segment (m, "LeftToe")]
                                  .end_site[2], 1.13491, 1e-6);

  assert_position (m, 0, "Hips", 5.23, 16.9002, -33.8986);
  assert_rigid_bones (m);
  assert_matches_reference (m, contents, 1e-3, 1.0);
}

static void
check_salsa (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  m = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_frames, ==, 1197);
  g_assert_cmpfloat (m->frame_time, ==, 0.008333);
  g_assert_cmpuint (m->n_segments, ==, 43);
  g_assert_cmpstr (m->segments[0].name, ==, "hip");
  g_assert_cmpstr (m->segments[42].name, ==, "lFoot");

  /* ZYX on the root, ZXY on every other joint */
  assert_channels (m, "hip", root_zyx, 6);
  for (guint s = 1; s < m->n_segments; s++)
    assert_channels (m, m->segments[s].name, zxy, 3);

  assert_rigid_bones (m);
  assert_matches_reference (m, contents, 1e-4, 0.02);
}

static void
test_corpus_salsa (void)
{
  g_autofree char *path_60 = odori_test_corpus_file ("bvh-cmu-salsa/60_10_scaled.bvh");
  g_autofree char *path_61 = NULL;

  if (path_60 == NULL)
    return;
  path_61 = odori_test_corpus_file ("bvh-cmu-salsa/61_10_scaled.bvh");
  if (path_61 == NULL)
    return;
  check_salsa (path_60);
  check_salsa (path_61);
}

/* Numbers do not depend on the locale: a German locale (comma decimals) reads the same. */
static void
test_locale (void)
{
  g_autofree char *path = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) c_chain = NULL, c_cmu = NULL, de_chain = NULL, de_cmu = NULL;
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));

  if (path == NULL)
    return;
  g_assert_nonnull (setlocale (LC_ALL, "C"));
  c_chain = load_string (CHAIN, NULL, &error);
  g_assert_no_error (error);
  c_cmu = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);

  g_assert_nonnull (setlocale (LC_ALL, "de_DE.UTF-8"));
  g_assert_cmpstr (localeconv ()->decimal_point, ==, ",");
  de_chain = load_string (CHAIN, NULL, &error);
  g_assert_no_error (error);
  de_cmu = odori_bvh_load (path, NULL, &error);
  g_assert_no_error (error);
  setlocale (LC_ALL, saved);

  g_assert_cmpfloat (de_chain->frame_time, ==, c_chain->frame_time);
  g_assert_cmpfloat (de_cmu->frame_time, ==, 0.0083333);
  g_assert_cmpmem (de_chain->transforms, sizeof (OdoriTransform) * 6,
                   c_chain->transforms, sizeof (OdoriTransform) * 6);
  g_assert_cmpmem (de_cmu->transforms, sizeof (OdoriTransform) * 994 * 31,
                   c_cmu->transforms, sizeof (OdoriTransform) * 994 * 31);
  g_assert_cmpfloat (de_cmu->segments[3].offset[0], ==, 2.49329f);
}

/* Bad input */

#define HIER \
  "HIERARCHY\n" \
  "ROOT hips\n" \
  "{\n" \
  " OFFSET 0 0 0\n" \
  " CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n" \
  " JOINT knee\n" \
  " {\n" \
  "  OFFSET 0 -1 0\n" \
  "  CHANNELS 3 Zrotation Xrotation Yrotation\n" \
  "  End Site\n" \
  "  {\n" \
  "   OFFSET 0 -1 0\n" \
  "  }\n" \
  " }\n" \
  "}\n"
#define MOTION_HEAD(n) "MOTION\nFrames: " n "\nFrame Time: 0.04\n"
#define FRAME "0 1 0 0 0 0 10 20 30\n"

typedef struct
{
  const char   *name;
  const char   *text;
  int           code;  /* OdoriBvhError, or -1 for a valid control input */
  guint         line;
  const char   *says;  /* a substring of the message */
} BadCase;

static const BadCase bad_cases[] = {
  { "valid-control", HIER MOTION_HEAD ("2") FRAME FRAME, -1, 0, NULL },
  { "values-missing", HIER MOTION_HEAD ("2") FRAME "0 1 0 0 0 0 10 20\n",
    ODORI_BVH_ERROR_COUNT, 20, "frame 2: expected 9 channel values, got 8" },
  { "values-extra", HIER MOTION_HEAD ("2") "0 1 0 0 0 0 10 20 30 40 \n" FRAME,
    ODORI_BVH_ERROR_COUNT, 19, "frame 1: expected 9 channel values, got 10" },
  { "frames-missing", HIER MOTION_HEAD ("3") FRAME FRAME "\n",
    ODORI_BVH_ERROR_TRUNCATED, 21, "Frames: 3, but the file ends after 2 frames" },
  { "frames-extra", HIER MOTION_HEAD ("1") FRAME FRAME FRAME,
    ODORI_BVH_ERROR_COUNT, 20, "Frames: 1, but 3 frame lines follow" },
  { "frames-huge", HIER MOTION_HEAD ("999999999") FRAME,
    ODORI_BVH_ERROR_TRUNCATED, 19, "Frames: 999999999, but the file ends after 1 frames" },
  { "frames-overflow", HIER MOTION_HEAD ("99999999999999999999999") FRAME,
    ODORI_BVH_ERROR_NUMBER, 17, "\"99999999999999999999999\"" },
  { "frames-negative", HIER MOTION_HEAD ("-3") FRAME,
    ODORI_BVH_ERROR_NUMBER, 17, "-3" },
  { "frames-missing-label", HIER "MOTION\nFrame Time: 0.04\n" FRAME,
    ODORI_BVH_ERROR_SYNTAX, 17, "expected \"Frames:\"" },
  { "frame-time-zero", HIER "MOTION\nFrames: 1\nFrame Time: 0\n" FRAME,
    ODORI_BVH_ERROR_NUMBER, 18, "positive frame time" },
  { "unbalanced-open", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " CHANNELS 3 Zrotation Yrotation Xrotation\n JOINT knee\n {\n  OFFSET 0 -1 0\n"
    " }\nMOTION\nFrames: 1\nFrame Time: 0.04\n0 0 0\n",
    ODORI_BVH_ERROR_UNBALANCED, 3, "\"{\" of joint \"hips\" is not closed before MOTION at line 10" },
  { "unbalanced-open-inner", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " JOINT knee\n {\n  OFFSET 0 -1 0\n  CHANNELS 1 Xrotation\n"
    "MOTION\nFrames: 1\nFrame Time: 0.04\n0\n",
    ODORI_BVH_ERROR_UNBALANCED, 6, "joint \"knee\"" },
  { "unbalanced-close", HIER "}\n" MOTION_HEAD ("1") FRAME,
    ODORI_BVH_ERROR_UNBALANCED, 16, "without a matching" },
  { "number-data", HIER MOTION_HEAD ("2") FRAME "0 1 0 0 0 0 10 2x0 30\n",
    ODORI_BVH_ERROR_NUMBER, 20, "got \"2x0\"" },
  { "number-comma", HIER MOTION_HEAD ("1") "0 1 0 0 0 0 10 20,5 30\n",
    ODORI_BVH_ERROR_NUMBER, 19, "got \"20,5\"" },
  { "number-offset", "HIERARCHY\nROOT hips\n{\n OFFSET 0 abc 0\n}\n",
    ODORI_BVH_ERROR_NUMBER, 4, "expected a number for OFFSET, got \"abc\"" },
  { "not-finite-data", HIER MOTION_HEAD ("1") "0 1 0 nan 0 0 10 20 30\n",
    ODORI_BVH_ERROR_NOT_FINITE, 19, "\"nan\"" },
  { "number-overflow", HIER MOTION_HEAD ("1") "0 1 0 1e999 0 0 10 20 30\n",
    ODORI_BVH_ERROR_NUMBER, 19, "\"1e999\"" },
  { "not-finite-offset", "HIERARCHY\nROOT hips\n{\n OFFSET 0 -INF 0\n}\n",
    ODORI_BVH_ERROR_NOT_FINITE, 4, "\"-INF\"" },
  { "channel-unknown", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " CHANNELS 3 Zrotation Wrotation Yrotation\n}\n",
    ODORI_BVH_ERROR_SYNTAX, 5, "unknown channel \"Wrotation\"" },
  { "channels-too-many", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " CHANNELS 7 Xposition Yposition Zposition Zrotation Yrotation Xrotation Xrotation\n}\n",
    ODORI_BVH_ERROR_SYNTAX, 5, "CHANNELS 7" },
  { "channels-fewer-names", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " CHANNELS 3 Zrotation Xrotation\n JOINT knee\n {\n }\n}\n",
    ODORI_BVH_ERROR_SYNTAX, 6, "CHANNELS 3 at line 5 lists only 2 names" },
  { "channels-more-names", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " CHANNELS 2 Zrotation Xrotation\n Yrotation\n}\n",
    ODORI_BVH_ERROR_SYNTAX, 6, "CHANNELS 2 at line 5 lists more names" },
  { "channels-count-word", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS three\n}\n",
    ODORI_BVH_ERROR_NUMBER, 5, "\"three\"" },
  { "duplicate", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n"
    " JOINT knee\n {\n  OFFSET 0 1 0\n }\n JOINT knee\n {\n }\n}\n",
    ODORI_BVH_ERROR_DUPLICATE, 9, "joint \"knee\" is defined twice (first at line 5)" },
  { "truncated-empty", "", ODORI_BVH_ERROR_TRUNCATED, 1, "expected HIERARCHY" },
  { "truncated-offset", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0",
    ODORI_BVH_ERROR_TRUNCATED, 4, "expected a number" },
  { "truncated-hierarchy", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n JOINT knee\n {\n",
    ODORI_BVH_ERROR_TRUNCATED, 6, "file ends inside joint \"knee\" (\"{\" at line 6)" },
  { "truncated-no-motion", HIER, ODORI_BVH_ERROR_TRUNCATED, 15, "before MOTION" },
  { "truncated-motion", HIER "MOTION\n", ODORI_BVH_ERROR_TRUNCATED, 16, "Frames:" },
  { "not-bvh", "Segment: Hips\nFrames: 1\n", ODORI_BVH_ERROR_SYNTAX, 1,
    "expected HIERARCHY, got \"Segment:\"" },
  { "no-root", "HIERARCHY\nMOTION\nFrames: 0\nFrame Time: 1\n", ODORI_BVH_ERROR_SYNTAX, 2,
    "ROOT" },
  { "joint-outside-root", "HIERARCHY\nJOINT knee\n{\n}\n", ODORI_BVH_ERROR_SYNTAX, 2,
    "JOINT outside" },
  { "root-inside-root", "HIERARCHY\nROOT a\n{\n ROOT b\n {\n }\n}\n",
    ODORI_BVH_ERROR_SYNTAX, 4, "ROOT inside" },
  { "joint-without-name", "HIERARCHY\nROOT {\n}\n", ODORI_BVH_ERROR_SYNTAX, 2,
    "expected a joint name" },
  { "end-site-unclosed", "HIERARCHY\nROOT a\n{\n End Site\n {\n  OFFSET 0 0 1\n"
    " JOINT b\n", ODORI_BVH_ERROR_SYNTAX, 7, "expected \"}\" closing the End Site of line 4" },
  { "garbage-after-time", HIER "MOTION\nFrames: 1\nFrame Time: 0.04 0 1 0\n" FRAME,
    ODORI_BVH_ERROR_SYNTAX, 18, "after the frame time" },
  { "frames-without-channels", "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n}\n"
    "MOTION\nFrames: 5\nFrame Time: 1\n", ODORI_BVH_ERROR_COUNT, 8, "no joint has CHANNELS" },
};

static void
test_bad_case (gconstpointer data)
{
  const BadCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = load_string (c->text, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("bad.bvh:%u: ", c->line);

  if (c->code < 0)
    {
      g_assert_no_error (error);
      g_assert_nonnull (m);
      return;
    }
  g_assert_null (m);
  g_assert_error (error, ODORI_BVH_ERROR, c->code);
  if (!g_str_has_prefix (error->message, prefix) || strstr (error->message, c->says) == NULL)
    g_error ("%s: message \"%s\" lacks \"%s\" or \"%s\"", c->name, error->message, prefix,
             c->says);
}

/* 10000 nested joints: refused at level 257, quickly, without deep recursion. */
static void
test_too_deep (void)
{
  g_autoptr(GString) text = g_string_new ("HIERARCHY\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(GTimer) timer = NULL;

  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (text, "%s j%u {\n", i == 0 ? "ROOT" : "JOINT", i);
  for (guint i = 0; i < 10000; i++)
    g_string_append (text, "}\n");
  g_string_append (text, "MOTION\nFrames: 0\nFrame Time: 1\n");

  timer = g_timer_new ();
  m = load_string (text->str, NULL, &error);
  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), <, 1.0);
  g_assert_null (m);
  g_assert_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TOO_DEEP);
  g_assert_true (g_str_has_prefix (error->message, "bad.bvh:258: "));
  g_assert_nonnull (strstr (error->message, "j256"));
}

/* 256 levels are fine. */
static void
test_deep_ok (void)
{
  g_autoptr(GString) text = g_string_new ("HIERARCHY\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  for (guint i = 0; i < 256; i++)
    g_string_append_printf (text, "%s j%u { OFFSET 0 1 0 CHANNELS 1 Zrotation\n",
                            i == 0 ? "ROOT" : "JOINT", i);
  for (guint i = 0; i < 256; i++)
    g_string_append (text, "}");
  g_string_append (text, "\nMOTION\nFrames: 1\nFrame Time: 1\n");
  for (guint i = 0; i < 256; i++)
    g_string_append (text, i == 0 ? "90 " : "0 ");

  m = load_string (text->str, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 256);
  /* the root sits at its OFFSET (0,1,0) and turns Z 90: +Y becomes -X, so joint k sits
   * at (-k, 1, 0) */
  {
    const float *p = odori_motion_get (m, 0, 255)->position;

    g_assert_cmpfloat_with_epsilon (p[0], -255, 1e-3);
    g_assert_cmpfloat_with_epsilon (p[1], 1, 1e-3);
    g_assert_cmpfloat_with_epsilon (p[2], 0, 1e-3);
  }
}

/* Frames: 999999999 on a tiny file: an error at once, no giant allocation. */
static void
test_frames_huge_fast (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();
  g_autoptr(OdoriMotion) m = load_string (HIER MOTION_HEAD ("999999999") FRAME FRAME, NULL,
                                          &error);

  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), <, 0.5);
  g_assert_null (m);
  g_assert_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED);
  g_assert_true (g_str_has_prefix (error->message, "bad.bvh:20: "));
}

/* Through odori_bvh_load: the message names the path as given. */
static void
test_load_path (void)
{
  g_autofree char *dir = g_dir_make_tmp ("odori-bvh-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "short.bvh", NULL);
  g_autofree char *prefix = g_strdup_printf ("%s:20: ", path);
  g_autofree char *missing = g_build_filename (dir, "missing.bvh", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  g_assert_true (g_file_set_contents (path, HIER MOTION_HEAD ("2") FRAME "1 2\n", -1, NULL));
  m = odori_bvh_load (path, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_COUNT);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_clear_error (&error);

  m = odori_bvh_load (missing, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_clear_error (&error);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bvh/chain-known", test_chain_known);
  g_test_add_func ("/bvh/channel-order", test_channel_order);
  g_test_add_func ("/bvh/mixed-chain", test_mixed_chain);
  g_test_add_func ("/bvh/end-site", test_end_site);
  g_test_add_func ("/bvh/lenient-layout", test_lenient_layout);
  g_test_add_func ("/bvh/sniff", test_sniff);
  g_test_add_func ("/bvh/corpus/cmu-131", test_corpus_cmu_131);
  g_test_add_func ("/bvh/corpus/salsa", test_corpus_salsa);
  g_test_add_func ("/bvh/locale", test_locale);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/bvh/bad/%s", bad_cases[i].name);

      g_test_add_data_func (name, &bad_cases[i], test_bad_case);
    }
  g_test_add_func ("/bvh/bad/too-deep", test_too_deep);
  g_test_add_func ("/bvh/deep-ok", test_deep_ok);
  g_test_add_func ("/bvh/bad/frames-huge-fast", test_frames_huge_fast);
  g_test_add_func ("/bvh/bad/load-path", test_load_path);

  return g_test_run ();
}
