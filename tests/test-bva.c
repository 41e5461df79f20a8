/* test-bva.c: BVA reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bva.h"

#include "test-corpus.h"

static char *tmp_dir;

#define HEADER_STD                                                   \
  "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"  \
  "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n"

/* Helpers */

static char *
write_tmp (const char *name,
           const char *content,
           gssize      len)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, content, len, &error);
  g_assert_no_error (error);
  return path;
}

static OdoriMotion *
load_string (const char  *name,
             const char  *content,
             GPtrArray   *warnings,
             char       **path_out,
             GError     **error)
{
  g_autofree char *path = write_tmp (name, content, -1);
  OdoriMotion *motion = odori_bva_load (path, warnings, error);

  if (path_out)
    *path_out = g_steal_pointer (&path);
  return motion;
}

static OdoriMotion *
load_ok (const char *name,
         const char *content)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = load_string (name, content, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (motion);
  return motion;
}

static char *
write_to_string (const OdoriMotion *motion)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize len;
  const char *data;

  odori_bva_write (motion, out);
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

static void
assert_vec3_near (const float *v,
                  float        x,
                  float        y,
                  float        z,
                  float        tol)
{
  /* TOL 0: exactly the float nearest the decimal in the file. */
  g_assert_cmpfloat (fabsf (v[0] - x), <=, tol);
  g_assert_cmpfloat (fabsf (v[1] - y), <=, tol);
  g_assert_cmpfloat (fabsf (v[2] - z), <=, tol);
}

static void
assert_rotates (const float *q,
                float        x,
                float        y,
                float        z,
                float        ex,
                float        ey,
                float        ez)
{
  versor qq;
  vec3 v = { x, y, z }, r;

  glm_quat_copy ((float *) q, qq);
  glm_quat_rotatev (qq, v, r);
  assert_vec3_near (r, ex, ey, ez, 1e-5f);
}

/* The rotation by DEG degrees about (X, Y, Z), straight from cglm. */
static void
quat_axis_deg (versor q,
               float  deg,
               float  x,
               float  y,
               float  z)
{
  vec3 axis = { x, y, z };

  glm_quatv (q, glm_rad (deg), axis);
}

/* Load, save, load: equal models; and saving the reloaded model gives the same bytes. */
static void
assert_round_trip (const OdoriMotion *motion,
                   const char        *name)
{
  g_autofree char *path1 = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *path2 = g_strconcat (path1, ".again", NULL);
  g_autofree char *text1 = NULL;
  g_autofree char *text2 = NULL;
  g_autofree char *why = NULL;
  g_autoptr(OdoriMotion) back = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (odori_bva_save (motion, path1, &error));
  g_assert_no_error (error);
  back = odori_bva_load (path1, NULL, &error);
  g_assert_no_error (error);
  if (!odori_motion_equal (motion, back, 1e-4, 1e-3, &why))
    g_error ("%s: round trip differs: %s", name, why);
  for (guint s = 0; s < motion->n_segments; s++)
    {
      g_assert_cmpuint (back->segments[s].n_fields, ==, motion->segments[s].n_fields);
      gsize n = motion->segments[s].n_fields;

      g_assert_cmpmem (back->segments[s].fields, sizeof (OdoriField) * n,
                       motion->segments[s].fields, sizeof (OdoriField) * n);
      g_assert_cmpmem (back->segments[s].units, sizeof (OdoriUnit) * n,
                       motion->segments[s].units, sizeof (OdoriUnit) * n);
    }

  g_assert_true (odori_bva_save (back, path2, &error));
  g_assert_no_error (error);
  text1 = read_file (path1);
  text2 = read_file (path2);
  g_assert_cmpstr (text1, ==, text2);
  g_assert_null (strchr (text1, '\r'));
  g_unlink (path1);
  g_unlink (path2);
}

/* Known poses */

static const char known_pose[] =
  "Segment:\tHip\r\n"
  "Frames:\t3\r\n"
  "Frame Time:\t.0333333\r\n"
  "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\r\n"
  "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\r\n"
  "1.5 2 -3 90 0 0 100 100 100\r\n"
  "0 0 0 90 0 90 100 100 100\r\n"
  "0\t0\t0\t90  30\t90 100 50.5 100\r\n"
  "Segment:  steve:LSHO \r\n"
  "Frames:\t3\r\n"
  "Frame Time:\t0.0333333\r\n"
  "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\r\n"
  "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\r\n"
  "82.313 53.3037 22.2689 0 0 0 100 100 100\r\n"
  "-1e1 .5 +2. 0 -90 0 100 100 100\r\n"
  "0 0 0 0 0 0 100 100 100\r\n";

static void
test_load_known_pose (void)
{
  g_autoptr(OdoriMotion) m = load_ok ("known.bva", known_pose);
  const OdoriTransform *t;
  versor qz, qx, qy, expected, tmp;

  g_assert_cmpuint (m->n_segments, ==, 2);
  g_assert_cmpuint (m->n_frames, ==, 3);
  g_assert_cmpfloat (m->frame_time, ==, 0.0333333);
  g_assert_cmpstr (m->segments[0].name, ==, "Hip");
  g_assert_cmpstr (m->segments[1].name, ==, "steve:LSHO");
  g_assert_cmpint (odori_motion_find_segment (m, "steve:LSHO"), ==, 1);
  g_assert_nonnull (m->path);
  g_assert_true (g_str_has_suffix (m->path, "known.bva"));

  /* Frame 1: XROT 90 turns +Y to +Z; position and scale as read. */
  t = odori_motion_get (m, 0, 0);
  assert_vec3_near (t->position, 1.5f, 2.0f, -3.0f, 0);
  assert_vec3_near (t->scale, 100, 100, 100, 0);
  assert_rotates (t->rotation, 0, 1, 0, 0, 0, 1);

  /* Frame 2: ZROT 90 and XROT 90 give Rz·Rx: +X stays under Rx, then Rz takes it to +Y
   * (Rx·Rz would give +Z); +Z goes to -Y, then to +X. */
  t = odori_motion_get (m, 1, 0);
  quat_axis_deg (qz, 90, 0, 0, 1);
  quat_axis_deg (qx, 90, 1, 0, 0);
  glm_quat_mul (qz, qx, expected);
  g_assert_cmpfloat (odori_quat_angle_deg (t->rotation, expected), <, 1e-4);
  assert_rotates (t->rotation, 1, 0, 0, 0, 1, 0);
  assert_rotates (t->rotation, 0, 0, 1, 1, 0, 0);

  /* Frame 3: the whole order, Rz(90)·Rx(90)·Ry(30), and a non-100 scale. */
  t = odori_motion_get (m, 2, 0);
  quat_axis_deg (qy, 30, 0, 1, 0);
  glm_quat_mul (qz, qx, tmp);
  glm_quat_mul (tmp, qy, expected);
  g_assert_cmpfloat (odori_quat_angle_deg (t->rotation, expected), <, 1e-4);
  assert_vec3_near (t->scale, 100, 50.5f, 100, 0);

  /* Second segment: number forms, YROT -90 turns +X to +Z. */
  t = odori_motion_get (m, 0, 1);
  assert_vec3_near (t->position, 82.313f, 53.3037f, 22.2689f, 0);
  g_assert_cmpfloat (t->rotation[3], ==, 1);
  t = odori_motion_get (m, 1, 1);
  assert_vec3_near (t->position, -10, 0.5f, 2, 0);
  assert_rotates (t->rotation, 1, 0, 0, 0, 0, 1);

  for (guint s = 0; s < 2; s++)
    {
      g_assert_cmpuint (m->segments[s].n_fields, ==, 9);
      for (guint f = 0; f < 9; f++)
        g_assert_cmpint (m->segments[s].fields[f], ==, f);
      g_assert_cmpint (m->segments[s].units[0], ==, ODORI_UNIT_INCHES);
      g_assert_cmpint (m->segments[s].units[4], ==, ODORI_UNIT_DEGREES);
      g_assert_cmpint (m->segments[s].units[8], ==, ODORI_UNIT_PERCENT);
    }
}

/* LF, CRLF and CR files, with blank lines between blocks, give one model. */
static void
test_load_line_ends (void)
{
  g_autoptr(OdoriMotion) crlf = load_ok ("crlf.bva", known_pose);
  g_autoptr(GString) lf = g_string_new (known_pose);
  g_autoptr(GString) cr = g_string_new (known_pose);
  g_autoptr(OdoriMotion) m_lf = NULL;
  g_autoptr(OdoriMotion) m_cr = NULL;

  g_string_replace (lf, "\r\n", "\n", 0);
  g_string_replace (lf, "Segment:  steve", "\n  \t\nSegment:  steve", 1);
  g_string_append (lf, "\n\n  \n");
  g_string_replace (cr, "\r\n", "\r", 0);
  m_lf = load_ok ("lf.bva", lf->str);
  m_cr = load_ok ("cr.bva", cr->str);
  g_assert_true (odori_motion_equal (crlf, m_lf, 0, 0, NULL));
  g_assert_true (odori_motion_equal (crlf, m_cr, 0, 0, NULL));
}

/* Fields in another order, RADIANS and CENTIMETERS: read into the right slots, written
 * back in the same order and units. */
static void
test_field_order_units (void)
{
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(OdoriMotion) back = NULL;
  g_autoptr(OdoriTextFile) file = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  const OdoriTransform *t;
  const char *content =
    "Segment: Knee\n"
    "Frames: 2\n"
    "Frame Time: 0.01\n"
    "ZSCALE XROT ZTRAN YROT XTRAN ZROT YTRAN XSCALE YSCALE\n"
    "PERCENT RADIANS CENTIMETERS RADIANS CENTIMETERS RADIANS CENTIMETERS METERS PERCENT\n"
    "90 1.5707963267948966 30 0 10 0 20 1 100\n"
    "100 0 3 -0.5 1 0.25 2 1 100\n";
  const OdoriField order[] = { ODORI_FIELD_ZSCALE, ODORI_FIELD_XROT, ODORI_FIELD_ZTRAN,
                               ODORI_FIELD_YROT, ODORI_FIELD_XTRAN, ODORI_FIELD_ZROT,
                               ODORI_FIELD_YTRAN, ODORI_FIELD_XSCALE, ODORI_FIELD_YSCALE };
  const OdoriUnit units[] = { ODORI_UNIT_PERCENT, ODORI_UNIT_RADIANS, ODORI_UNIT_CENTIMETERS,
                              ODORI_UNIT_RADIANS, ODORI_UNIT_CENTIMETERS, ODORI_UNIT_RADIANS,
                              ODORI_UNIT_CENTIMETERS, ODORI_UNIT_METERS, ODORI_UNIT_PERCENT };
  double zxy[3] = { 0.25 * 180 / G_PI, 0, -0.5 * 180 / G_PI };
  float expected[4];

  m = load_ok ("order.bva", content);
  g_assert_cmpuint (m->segments[0].n_fields, ==, 9);
  g_assert_cmpmem (m->segments[0].fields, sizeof order, order, sizeof order);
  g_assert_cmpmem (m->segments[0].units, sizeof units, units, sizeof units);

  /* Positions and scales as read (in the file's units). */
  t = odori_motion_get (m, 0, 0);
  assert_vec3_near (t->position, 10, 20, 30, 0);
  assert_vec3_near (t->scale, 1, 100, 90, 0);
  /* XROT pi/2 radians is 90 degrees: +Y to +Z. */
  assert_rotates (t->rotation, 0, 1, 0, 0, 0, 1);
  t = odori_motion_get (m, 1, 0);
  assert_vec3_near (t->position, 1, 2, 3, 0);
  odori_euler_to_quat ("ZXY", zxy, expected);
  g_assert_cmpfloat (odori_quat_angle_deg (t->rotation, expected), <, 1e-4);

  text = write_to_string (m);
  g_assert_true (g_str_has_prefix (text,
                                   "Segment:\tKnee\n"
                                   "Frames:\t2\n"
                                   "Frame Time:\t0.01\n"
                                   "ZSCALE\tXROT\tZTRAN\tYROT\tXTRAN\tZROT\tYTRAN\tXSCALE\tYSCALE\n"
                                   "PERCENT\tRADIANS\tCENTIMETERS\tRADIANS\tCENTIMETERS\tRADIANS\t"
                                   "CENTIMETERS\tMETERS\tPERCENT\n"));
  /* Values in the file's order and units, radians again. */
  g_assert_nonnull (strstr (text, "\n90.000000 1.570796 30.000000 0.000000 10.000000 0.000000 "
                                  "20.000000 1.000000 100.000000\n"));
  g_assert_nonnull (strstr (text, "\n100.000000 0.000000 3.000000 -0.500000 1.000000 0.250000 "
                                  "2.000000 1.000000 100.000000\n"));

  file = odori_text_file_new_from_data ("mem.bva", text, strlen (text), &error);
  g_assert_no_error (error);
  back = odori_bva_load_text (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (odori_motion_equal (m, back, 1e-6, 1e-3, NULL));
  g_assert_cmpmem (back->segments[0].fields, sizeof order, order, sizeof order);
  g_assert_cmpmem (back->segments[0].units, sizeof units, units, sizeof units);
  assert_round_trip (m, "order-rt.bva");
}

/* A segment may carry only some of the fields: the others read as rest (0, scale 100),
 * and writing keeps the subset. */
static void
test_field_subset (void)
{
  g_autoptr(OdoriMotion) m = load_ok ("subset.bva",
                                      "Segment:\tHead\n"
                                      "Frames:\t1\n"
                                      "Frame Time:\t0.5\n"
                                      "XROT\tYTRAN\n"
                                      "DEGREES\tMETERS\n"
                                      "90 1.75\n");
  g_autofree char *text = NULL;
  const OdoriTransform *t = odori_motion_get (m, 0, 0);

  g_assert_cmpuint (m->segments[0].n_fields, ==, 2);
  assert_vec3_near (t->position, 0, 1.75f, 0, 0);
  assert_vec3_near (t->scale, 100, 100, 100, 0);
  assert_rotates (t->rotation, 0, 1, 0, 0, 0, 1);
  text = write_to_string (m);
  g_assert_cmpstr (text, ==,
                   "Segment:\tHead\nFrames:\t1\nFrame Time:\t0.5\nXROT\tYTRAN\nDEGREES\tMETERS\n"
                   "90.000000 1.750000\n");
}

static void
test_round_trip_hand (void)
{
  g_autoptr(OdoriMotion) m = load_ok ("rt.bva",
                                      "Segment:\tA\n"
                                      "Frames:\t4\n"
                                      "Frame Time:\t0.0083333\n" HEADER_STD
                                      "1.25 -2.5 3.125 10.5 -20.25 33.125 100 100 100\n"
                                      "1.5 -2.25 3.5 170 -40 179.5 100 99 101\n"
                                      "0.001 12345.678 -0.5 -170 -40 -179.5 100 100 100\n"
                                      "7 8 9 45 60 -120 50 60 70\n"
                                      "Segment:\tB\n"
                                      "Frames:\t4\n"
                                      "Frame Time:\t.0083333\n" HEADER_STD
                                      "0 0 0 0 0 0 100 100 100\n"
                                      "0 0 0 1 2 3 100 100 100\n"
                                      "0 0 0 -1 -2 -3 100 100 100\n"
                                      "0 0 0 0 0 0 100 100 100\n");

  assert_round_trip (m, "rt-out.bva");
}

/* Corpus files, read in place. */

static void
test_corpus_one_segment (void)
{
  g_autofree char *path = odori_test_corpus_file ("bva-motionx/OneSegment.vpm");
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  const OdoriTransform *t;
  double max_step = 0;
  versor qz, qx, qy, tmp, expected;

  if (path == NULL)
    return;
  m = odori_bva_load (path, warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpuint (m->n_segments, ==, 1);
  g_assert_cmpstr (m->segments[0].name, ==, "RFWT");
  g_assert_cmpuint (m->n_frames, ==, 2400);
  g_assert_cmpfloat_with_epsilon (m->frame_time, 1.0 / 120, 1e-6);

  /* Frame 1: -4.864795 32.797893 2.210924 180 46.793425 180; frame 2 writes the same
   * rotation as -180 ... -180. */
  t = odori_motion_get (m, 0, 0);
  assert_vec3_near (t->position, -4.864795f, 32.797893f, 2.210924f, 0);
  quat_axis_deg (qz, 180, 0, 0, 1);
  quat_axis_deg (qx, 180, 1, 0, 0);
  quat_axis_deg (qy, 46.793425f, 0, 1, 0);
  glm_quat_mul (qz, qx, tmp);
  glm_quat_mul (tmp, qy, expected);
  g_assert_cmpfloat (odori_quat_angle_deg (t->rotation, expected), <, 1e-3);

  /* The file's rotation never changes, but 170 of its frames write it as -180 46.793425
   * -180 instead of 180 46.793425 180: the flips are not motion. */
  for (guint f = 1; f < m->n_frames; f++)
    max_step = MAX (max_step, odori_quat_angle_deg (odori_motion_get (m, f - 1, 0)->rotation,
                                                    odori_motion_get (m, f, 0)->rotation));
  g_test_message ("largest rotation step between frames: %g degrees", max_step);
  g_assert_cmpfloat (max_step, <, 1e-3);
  g_assert_cmpfloat (odori_quat_angle_deg (odori_motion_get (m, 0, 0)->rotation,
                                           odori_motion_get (m, 1, 0)->rotation), <, 1e-3);

  /* Written back, the angles do not flip: every frame writes the same three. */
  {
    g_autofree char *text = write_to_string (m);
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
    g_autofree char *first = NULL;
    guint n_frames = 0;

    for (guint i = 5; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto(GStrv) v = g_strsplit (lines[i], " ", -1);
        g_autofree char *angles = NULL;

        g_assert_cmpuint (g_strv_length (v), ==, 9);
        angles = g_strjoin (" ", v[3], v[4], v[5], NULL);
        if (first == NULL)
          first = g_strdup (angles);
        g_assert_cmpstr (angles, ==, first);
        n_frames++;
      }
    g_assert_cmpuint (n_frames, ==, 2400);
  }

  assert_round_trip (m, "OneSegment-out.vpm");
}

static void
test_corpus_08_01 (void)
{
  g_autofree char *path = odori_test_corpus_file ("bva-motionx/08_01.vpm");
  g_autoptr(OdoriMotion) m = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  const OdoriTransform *t;

  if (path == NULL)
    return;
  m = odori_bva_load (path, warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpuint (m->n_segments, ==, 41);
  g_assert_cmpuint (m->n_frames, ==, 277);
  g_assert_cmpfloat (m->frame_time, ==, 0.00833333);
  g_assert_cmpstr (m->segments[0].name, ==, "steve:LSHO");
  g_assert_cmpstr (m->segments[1].name, ==, "steve:LWRB");
  g_assert_cmpstr (m->segments[40].name, ==, "steve:RMT5");
  for (guint s = 0; s < m->n_segments; s++)
    g_assert_true (g_str_has_prefix (m->segments[s].name, "steve:"));

  t = odori_motion_get (m, 0, 0);
  assert_vec3_near (t->position, 82.313f, 53.3037f, 22.2689f, 0);
  assert_vec3_near (t->scale, 100, 100, 100, 0);
  g_assert_cmpfloat (t->rotation[3], ==, 1);
  t = odori_motion_get (m, 276, 40);
  assert_vec3_near (t->position, -75.1672f, 2.64554f, 13.1464f, 0);

  /* Floats are written as the roundest number that reads back the same: 82.313, not
   * 82.313004. */
  {
    g_autofree char *text = write_to_string (m);

    g_assert_true (g_str_has_prefix (text, "Segment:\tsteve:LSHO\nFrames:\t277\n"
                                           "Frame Time:\t0.00833333\n"));
    g_assert_nonnull (strstr (text, "\n82.313000 53.303700 22.268900 0.000000 0.000000 "
                                    "0.000000 100.000000 100.000000 100.000000\n"));
  }

  assert_round_trip (m, "08_01-out.vpm");
}

/* A German locale (decimal comma) changes neither reading nor writing. */
static void
test_locale (void)
{
  const char *content = "Segment:\tA\nFrames:\t2\nFrame Time:\t0.0333333\n" HEADER_STD
                        "1.5 -2.25 .5 10.5 20.75 -30.125 100 99.5 1e2\n"
                        "0 0 0 0 0 0 100 100 100\n";
  g_autoptr(OdoriMotion) c_motion = NULL;
  g_autoptr(OdoriMotion) de_motion = NULL;
  g_autofree char *c_text = NULL;
  g_autofree char *de_text = NULL;
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));
  const char *de;

  c_motion = load_ok ("locale-c.bva", content);
  c_text = write_to_string (c_motion);

  de = setlocale (LC_ALL, "de_DE.UTF-8");
  g_assert_nonnull (de);
  g_assert_cmpstr (localeconv ()->decimal_point, ==, ",");

  de_motion = load_ok ("locale-de.bva", content);
  de_text = write_to_string (de_motion);
  setlocale (LC_ALL, saved);

  g_assert_true (odori_motion_equal (c_motion, de_motion, 0, 0, NULL));
  assert_vec3_near (odori_motion_get (de_motion, 0, 0)->position, 1.5f, -2.25f, 0.5f, 0);
  assert_vec3_near (odori_motion_get (de_motion, 0, 0)->scale, 100, 99.5f, 100, 0);
  g_assert_cmpfloat (de_motion->frame_time, ==, 0.0333333);
  g_assert_cmpstr (c_text, ==, de_text);
  g_assert_null (strchr (de_text, ','));
  g_assert_nonnull (strstr (de_text, "Frame Time:\t0.0333333\n"));
  g_assert_nonnull (strstr (de_text, "\n1.500000 -2.250000 0.500000 10.500000 20.750000 -30.125000 "
                                     "100.000000 99.500000 100.000000\n"));
}

/* Bad input: one case each, with domain, code and the FILE:LINE that is at fault. */

typedef struct
{
  const char *name;
  const char *content;
  int         code;
  guint       line;
  const char *contains;
} BadCase;

#define SEG_A "Segment:\tA\nFrames:\t2\nFrame Time:\t0.01\n" HEADER_STD
#define FRAME "1 2 3 4 5 6 100 100 100\n"

static const BadCase bad_cases[] = {
  { "truncated-frames", SEG_A FRAME, ODORI_BVA_ERROR_TRUNCATED, 6, "after 1 of the 2 frames" },
  { "truncated-header", "Segment:\tA\nFrames:\t2\n", ODORI_BVA_ERROR_TRUNCATED, 2,
    "Frame Time" },
  { "truncated-units", "Segment:\tA\nFrames:\t2\nFrame Time:\t0.01\nXTRAN\tYTRAN\n",
    ODORI_BVA_ERROR_TRUNCATED, 4, "units" },
  { "too-few", SEG_A FRAME "1 2 3 4 5 6 100 100\n", ODORI_BVA_ERROR_COUNT, 7,
    "segment \"A\", frame 2: expected 9 values, found 8" },
  { "too-many", SEG_A "1 2 3 4 5 6 100 100 100 7 8\n" FRAME, ODORI_BVA_ERROR_COUNT, 6,
    "segment \"A\", frame 1: expected 9 values, found 11" },
  { "not-a-number", SEG_A FRAME "1 2 abc 4 5 6 100 100 100\n", ODORI_BVA_ERROR_NUMBER, 7,
    "frame 2, column 5 (ZTRAN): expected a number, got \"abc\"" },
  { "comma-decimal", SEG_A "1,5 2 3 4 5 6 100 100 100\n" FRAME, ODORI_BVA_ERROR_NUMBER, 6,
    "\"1,5\"" },
  { "nan", SEG_A FRAME "1 2 3 nan 5 6 100 100 100\n", ODORI_BVA_ERROR_NOT_FINITE, 7,
    "\"nan\" is not a finite number" },
  { "inf", SEG_A "1 2 3 4 5 -Inf 100 100 100\n" FRAME, ODORI_BVA_ERROR_NOT_FINITE, 6,
    "(ZROT): \"-Inf\"" },
  { "frames-huge", "Segment:\tA\nFrames:\t999999999\nFrame Time:\t0.01\n" HEADER_STD FRAME FRAME,
    ODORI_BVA_ERROR_TRUNCATED, 7, "ends after 2 of the 999999999 frames of segment \"A\"" },
  { "frames-not-number", "Segment:\tA\nFrames:\tmany\nFrame Time:\t0.01\n" HEADER_STD FRAME,
    ODORI_BVA_ERROR_SYNTAX, 2, "\"Frames:\tmany\"" },
  { "duplicate", SEG_A FRAME FRAME SEG_A FRAME FRAME, ODORI_BVA_ERROR_DUPLICATE, 8,
    "\"A\" is already used by the segment at line 1" },
  { "frame-time", SEG_A FRAME FRAME
    "Segment:\tB\nFrames:\t2\nFrame Time:\t0.02\n" HEADER_STD FRAME FRAME,
    ODORI_BVA_ERROR_FRAME_TIME, 10, "frame time 0.02, but the first segment has 0.01 (line 3)" },
  { "frame-time-nan", "Segment:\tA\nFrames:\t2\nFrame Time:\tNaN\n", ODORI_BVA_ERROR_NOT_FINITE,
    3, "NaN" },
  { "frame-time-zero", "Segment:\tA\nFrames:\t2\nFrame Time:\t0\n", ODORI_BVA_ERROR_SYNTAX,
    3, "positive frame time" },
  { "unknown-unit", "Segment:\tA\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\tXROT\nFURLONGS\tDEGREES\n"
    "1 2\n", ODORI_BVA_ERROR_UNIT, 5, "\"FURLONGS\" does not fit field XTRAN" },
  { "unit-mismatch", "Segment:\tA\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\tXROT\nINCHES\tINCHES\n"
    "1 2\n", ODORI_BVA_ERROR_UNIT, 5, "field XROT" },
  { "unknown-field", "Segment:\tA\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\tWROT\nINCHES\tDEGREES\n"
    "1 2\n", ODORI_BVA_ERROR_UNIT, 4, "\"WROT\"" },
  { "field-twice", "Segment:\tA\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\tXTRAN\nINCHES\tINCHES\n"
    "1 2\n", ODORI_BVA_ERROR_SYNTAX, 4, "field XTRAN appears twice" },
  { "units-missing", "Segment:\tA\nFrames:\t1\nFrame Time:\t0.01\nXTRAN\tXROT\nINCHES\n1 2\n",
    ODORI_BVA_ERROR_SYNTAX, 5, "1 units for the 2 fields" },
  { "empty", "", ODORI_BVA_ERROR_SYNTAX, 1, "empty" },
  { "blank", "\n  \n", ODORI_BVA_ERROR_SYNTAX, 2, "empty" },
  { "no-segment", "HIERARCHY\nROOT Hips\n", ODORI_BVA_ERROR_SYNTAX, 1,
    "expected \"Segment: NAME\", got \"HIERARCHY\"" },
  { "no-name", "Segment:\t\nFrames:\t1\n", ODORI_BVA_ERROR_SYNTAX, 1, "segment name" },
  { "short-before-next", SEG_A FRAME SEG_A, ODORI_BVA_ERROR_COUNT, 7,
    "only 1 frame lines, but its \"Frames:\" (line 2) says 2" },
  { "extra-frame-line", SEG_A FRAME FRAME FRAME, ODORI_BVA_ERROR_COUNT, 8,
    "more frame lines than the 2" },
};

static void
test_bad_input (gconstpointer data)
{
  const BadCase *bc = data;
  g_autofree char *name = g_strconcat (bc->name, ".bva", NULL);
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  gint64 start = g_get_monotonic_time ();

  m = load_string (name, bc->content, NULL, &path, &error);
  g_assert_null (m);
  g_assert_error (error, ODORI_BVA_ERROR, bc->code);
  prefix = g_strdup_printf ("%s:%u: ", path, bc->line);
  if (!g_str_has_prefix (error->message, prefix) || !strstr (error->message, bc->contains))
    g_error ("message \"%s\" should start with \"%s\" and contain \"%s\"", error->message,
             prefix, bc->contains);
  /* Nothing here may take long, whatever the header announces. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_unlink (path);
}

/* Segments of different lengths may not blow a small file up into a huge motion: two
 * empty segments and one of 2^20 one-field frames (2 MB) would be 3 M transforms. */
static void
test_disproportionate (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  for (guint s = 0; s < 2; s++)
    g_string_append_printf (text, "Segment:\tEmpty%u\nFrames:\t0\nFrame Time:\t0.01\n"
                                  "XTRAN\nINCHES\n", s);
  g_string_append (text, "Segment:\tLong\nFrames:\t1048576\nFrame Time:\t0.01\nXTRAN\nINCHES\n");
  for (guint f = 0; f < 1048576; f++)
    g_string_append (text, "0\n");

  m = load_string ("disproportionate.bva", text->str, NULL, &path, &error);
  g_assert_null (m);
  g_assert_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_COUNT);
  prefix = g_strdup_printf ("%s:12: ", path);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_nonnull (strstr (error->message, "\"Long\" announces 1048576 frames"));
  g_unlink (path);
}

static void
test_missing_file (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "no-such-file.bva", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = odori_bva_load (path, NULL, &error);

  g_assert_null (m);
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, path));
}

/* Segments of different lengths load: the longest wins, shorter ones hold their last
 * frame, and each gets a warning. Both orders (the longer first, the longer later). */
static void
test_short_segment (void)
{
  const char *contents[] = {
    "Segment:\tA\nFrames:\t3\nFrame Time:\t0.01\n" HEADER_STD
    "1 0 0 0 0 0 100 100 100\n2 0 0 0 0 0 100 100 100\n3 0 0 0 0 0 100 100 100\n"
    "Segment:\tB\nFrames:\t2\nFrame Time:\t0.01\n" HEADER_STD
    "10 0 0 0 0 0 100 100 100\n20 0 0 90 0 0 100 100 100\n",
    "Segment:\tB\nFrames:\t2\nFrame Time:\t0.01\n" HEADER_STD
    "10 0 0 0 0 0 100 100 100\n20 0 0 90 0 0 100 100 100\n"
    "Segment:\tA\nFrames:\t3\nFrame Time:\t0.01\n" HEADER_STD
    "1 0 0 0 0 0 100 100 100\n2 0 0 0 0 0 100 100 100\n3 0 0 0 0 0 100 100 100\n",
  };
  const guint b_line[] = { 9, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (contents); i++)
    {
      g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *path = NULL;
      g_autoptr(OdoriMotion) m = load_string ("short.bva", contents[i], warnings, &path, &error);
      const OdoriDiagnostic *d;
      int a, b;

      g_assert_no_error (error);
      g_assert_cmpuint (m->n_frames, ==, 3);
      a = odori_motion_find_segment (m, "A");
      b = odori_motion_find_segment (m, "B");
      g_assert_cmpint (a, >=, 0);
      g_assert_cmpint (b, >=, 0);
      for (guint f = 0; f < 3; f++)
        g_assert_cmpfloat (odori_motion_get (m, f, a)->position[0], ==, f + 1);
      g_assert_cmpfloat (odori_motion_get (m, 1, b)->position[0], ==, 20);
      g_assert_cmpfloat (odori_motion_get (m, 2, b)->position[0], ==, 20);
      g_assert_cmpfloat (odori_quat_angle_deg (odori_motion_get (m, 2, b)->rotation,
                                               odori_motion_get (m, 1, b)->rotation), ==, 0);
      assert_rotates (odori_motion_get (m, 2, b)->rotation, 0, 1, 0, 0, 0, 1);

      g_assert_cmpuint (warnings->len, ==, 1);
      d = g_ptr_array_index (warnings, 0);
      g_assert_false (d->is_error);
      g_assert_cmpstr (d->file, ==, path);
      g_assert_cmpuint (d->line, ==, b_line[i]);
      g_assert_nonnull (strstr (d->message, "\"B\" has 2 frames, the longest has 3"));
    }
}

/* Saving never leaves a partial file. */
static void
test_save_missing_dir (void)
{
  g_autoptr(OdoriMotion) m = load_ok ("save-src.bva", known_pose);
  g_autofree char *dir = g_build_filename (tmp_dir, "no-such-dir", NULL);
  g_autofree char *path = g_build_filename (dir, "out.bva", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (odori_bva_save (m, path, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

/* A frame time the reader would refuse is not written. */
static void
test_save_bad_frame_time (void)
{
  g_autoptr(OdoriMotion) m = odori_motion_new (1, 2, 0, NULL);
  g_autofree char *path = g_build_filename (tmp_dir, "zero-time.bva", NULL);
  g_autoptr(GError) error = NULL;

  odori_motion_set_segment_name (m, 0, "Hip");
  g_assert_false (odori_bva_save (m, path, &error));
  g_assert_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_FRAME_TIME);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* A motion made elsewhere (canonical fields, identity transforms) writes and reads back. */
static void
test_save_new_motion (void)
{
  g_autoptr(OdoriMotion) m = odori_motion_new (2, 3, 1.0 / 30, NULL);
  double zxy[3] = { 12.5, -45, 170 };

  odori_motion_set_segment_name (m, 0, "Hip");
  odori_motion_set_segment_name (m, 1, "Left Arm");
  odori_euler_to_quat ("ZXY", zxy, odori_motion_get (m, 1, 1)->rotation);
  odori_motion_get (m, 2, 0)->position[1] = 36.25f;
  assert_round_trip (m, "new-motion.bva");
}

static void
test_save_failure_keeps_previous (void)
{
  g_autoptr(OdoriMotion) m = load_ok ("atomic-src.bva", known_pose);
  g_autofree char *sub = g_build_filename (tmp_dir, "atomic", NULL);
  g_autofree char *path = g_build_filename (sub, "motion.bva", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = NULL;
  const char *entry;
  guint n_entries = 0;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (odori_bva_save (m, path, &error));
  g_assert_no_error (error);
  before = read_file (path);

  /* Change the motion so a complete write would differ, then fail after 100 bytes. */
  odori_motion_get (m, 0, 0)->position[0] = 42;
  out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);
  g_assert_no_error (error);
  odori_output_set_fail_after (out, 100);
  odori_bva_write (m, out);
  g_assert_false (odori_output_commit (out, &error));
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);

  after = read_file (path);
  g_assert_cmpstr (before, ==, after);
  d = g_dir_open (sub, 0, NULL);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_assert_cmpstr (entry, ==, "motion.bva");
      n_entries++;
    }
  g_assert_cmpuint (n_entries, ==, 1);
  g_unlink (path);
  g_rmdir (sub);
}

static void
test_sniff (void)
{
  const struct { const char *text; gboolean is_bva; } cases[] = {
    { "Segment:\tHip\n", TRUE },
    { "\xEF\xBB\xBFSegment: Hip\r\n", TRUE },
    { "\r\n  \n\tSegment : Hip", TRUE },
    { "Segment:", TRUE },
    { "HIERARCHY\nROOT Hips\n", FALSE },
    { "Segments: 3\n", FALSE },
    { "segment: Hip\n", FALSE },
    { "", FALSE },
    { "\n\n", FALSE },
    { "Segment", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (odori_bva_sniff (cases[i].text, strlen (cases[i].text)), ==,
                     cases[i].is_bva);
  /* The length is respected: no read past it. */
  g_assert_false (odori_bva_sniff ("Segment:", 7));
  g_assert_false (odori_bva_sniff (NULL, 0));
}

static void
remove_tmp_dir (void)
{
  g_autoptr(GDir) d = g_dir_open (tmp_dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, entry, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
}

/* The reader's unrolled ZXY rotation gives exactly the floats of odori_euler_to_quat. */
static void
test_rotation_exact (void)
{
  g_autoptr(GString) text = g_string_new ("Segment: A\nFrames: 500\nFrame Time: 0.01\n"
                                          "XROT YROT ZROT\nDEGREES DEGREES DEGREES\n");
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(OdoriMotion) m = NULL;
  double angles[500][3];

  for (guint f = 0; f < 500; f++)
    {
      for (guint k = 0; k < 3; k++)
        {
          /* some exact zeros, the rest anywhere in (-360, 360) with six decimals */
          angles[f][k] = g_rand_int_range (rand, 0, 5) == 0
                         ? 0 : g_rand_int_range (rand, -360000000, 360000000) / 1e6;
        }
      g_string_append_printf (text, "%.6f %.6f %.6f\n", angles[f][0], angles[f][1],
                              angles[f][2]);
    }
  m = load_ok ("exact.bva", text->str);
  for (guint f = 0; f < 500; f++)
    {
      double zxy[3] = { angles[f][2], angles[f][0], angles[f][1] };
      const float *q = odori_motion_get (m, f, 0)->rotation;
      float expected[4];

      odori_euler_to_quat ("ZXY", zxy, expected);
      for (guint k = 0; k < 4; k++)
        g_assert_cmpfloat (q[k], ==, expected[k]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("odori-test-bva-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/bva/load/known-pose", test_load_known_pose);
  g_test_add_func ("/bva/load/rotation-exact", test_rotation_exact);
  g_test_add_func ("/bva/load/line-ends", test_load_line_ends);
  g_test_add_func ("/bva/load/field-order-units", test_field_order_units);
  g_test_add_func ("/bva/load/field-subset", test_field_subset);
  g_test_add_func ("/bva/round-trip/hand-made", test_round_trip_hand);
  g_test_add_func ("/bva/corpus/one-segment", test_corpus_one_segment);
  g_test_add_func ("/bva/corpus/08_01", test_corpus_08_01);
  g_test_add_func ("/bva/locale/decimal-comma", test_locale);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strconcat ("/bva/bad/", bad_cases[i].name, NULL);

      g_test_add_data_func (name, &bad_cases[i], test_bad_input);
    }
  g_test_add_func ("/bva/bad/missing-file", test_missing_file);
  g_test_add_func ("/bva/bad/disproportionate", test_disproportionate);
  g_test_add_func ("/bva/load/short-segment", test_short_segment);
  g_test_add_func ("/bva/save/missing-dir", test_save_missing_dir);
  g_test_add_func ("/bva/save/failure-keeps-previous", test_save_failure_keeps_previous);
  g_test_add_func ("/bva/save/bad-frame-time", test_save_bad_frame_time);
  g_test_add_func ("/bva/save/new-motion", test_save_new_motion);
  g_test_add_func ("/bva/sniff", test_sniff);

  ret = g_test_run ();
  remove_tmp_dir ();
  g_free (tmp_dir);
  return ret;
}
