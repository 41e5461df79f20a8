/* test-sensor-csv.c: the inertial suit's CSV export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-format.h"
#include "odori-sensor-csv.h"

static char *tmp_dir;

static char *
write_tmp (const char *name,
           const char *content,
           gssize      len)
{
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, content, len, NULL));
  return path;
}

static OdoriCapture *
load_opts (const char               *name,
           const char               *text,
           gssize                    len,
           const OdoriImportOptions *options,
           GPtrArray                *warnings)
{
  g_autofree char *path = write_tmp (name, text, len);
  g_autoptr(GError) error = NULL;
  OdoriCapture *c = odori_sensor_csv_load (path, options, warnings, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

static OdoriCapture *
load_fps (const char *name,
          const char *text,
          double      fps,
          GPtrArray  *warnings)
{
  OdoriImportOptions options;

  odori_import_options_init (&options);
  options.fps = fps;
  return load_opts (name, text, -1, &options, warnings);
}

static void
assert_error (const char *name,
              const char *text,
              int         code,
              guint       line,
              const char *substring)
{
  g_autofree char *path = write_tmp (name, text, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriCapture) c = odori_sensor_csv_load (path, NULL, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);

  g_assert_null (c);
  g_assert_error (error, ODORI_SENSOR_CSV_ERROR, code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("\"%s\" does not start with \"%s\"", error->message, prefix);
  if (substring != NULL && strstr (error->message, substring) == NULL)
    g_error ("\"%s\" lacks \"%s\"", error->message, substring);
}

static const OdoriTransform *
get (const OdoriCapture *c,
     guint               frame,
     const char         *sensor)
{
  int s = odori_motion_find_segment (c->motion, sensor);

  g_assert_cmpint (s, >=, 0);
  return odori_motion_get (c->motion, frame, s);
}

static const char *quat_csv =
  "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z,"
  "Quaternion:Spine-W,Quaternion:Spine-X,Quaternion:Spine-Y,Quaternion:Spine-Z\n"
  "0.00,1,0,0,0,0.70710678,0.70710678,0,0\n"
  "0.01,0.70710678,0,0.70710678,0,0.5,0.5,0.5,0.5\n"
  "0.02,0,0,0,2,1,0,0,0\n"
  "\n";

/* Tests */

static void
test_quaternions (void)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) c = load_fps ("quat.csv", quat_csv, 0, warnings);
  const OdoriTransform *t;

  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpint (c->kind, ==, ODORI_CAPTURE_SENSOR_CSV);
  g_assert_true (c->has_rotations);
  g_assert_false (c->rotations_local);
  g_assert_false (c->resampled);
  g_assert_cmpuint (c->motion->n_segments, ==, 2);
  g_assert_cmpstr (c->motion->segments[0].name, ==, "Hip");
  g_assert_cmpstr (c->motion->segments[1].name, ==, "Spine");
  g_assert_cmpuint (c->motion->n_frames, ==, 3);
  g_assert_cmpfloat_with_epsilon (c->motion->frame_time, 0.01, 1e-12);
  g_assert_false (c->has_position[0]);
  /* W X Y Z columns → x y z w */
  t = get (c, 0, "Spine");
  g_assert_cmpfloat_with_epsilon (t->rotation[0], 0.70710678, 1e-6);
  g_assert_cmpfloat_with_epsilon (t->rotation[3], 0.70710678, 1e-6);
  t = get (c, 1, "Hip");
  g_assert_cmpfloat_with_epsilon (t->rotation[1], 0.70710678, 1e-6);
  g_assert_cmpfloat_with_epsilon (t->rotation[3], 0.70710678, 1e-6);
  /* (0, 0, 0, 2) normalised */
  t = get (c, 2, "Hip");
  g_assert_cmpfloat_with_epsilon (t->rotation[2], 1.0, 1e-7);
  g_assert_cmpint (odori_format_detect (quat_csv, strlen (quat_csv)), ==, ODORI_FORMAT_SENSOR_CSV);
}

static void
test_euler (void)
{
  const char *text =
    "Time(Second),Euler:Hip-X,Euler:Hip-Y,Euler:Hip-Z\n"
    "0,10,20,30\n"
    "0.01,-45,90.5,0\n";
  g_autoptr(OdoriCapture) zxy = load_fps ("euler.csv", text, 0, NULL);
  OdoriImportOptions options;
  g_autoptr(OdoriCapture) xyz = NULL;
  float expect[4];

  /* default ZXY: R = Rz(30)·Rx(10)·Ry(20) */
  odori_euler_to_quat ("ZXY", (double[3]) { 30, 10, 20 }, expect);
  g_assert_cmpfloat (odori_quat_angle_deg (expect, get (zxy, 0, "Hip")->rotation), <, 1e-3);
  odori_euler_to_quat ("ZXY", (double[3]) { 0, -45, 90.5 }, expect);
  g_assert_cmpfloat (odori_quat_angle_deg (expect, get (zxy, 1, "Hip")->rotation), <, 1e-3);

  odori_import_options_init (&options);
  options.fps = 0;
  g_strlcpy (options.euler_order, "XYZ", sizeof options.euler_order);
  xyz = load_opts ("euler-xyz.csv", text, -1, &options, NULL);
  odori_euler_to_quat ("XYZ", (double[3]) { 10, 20, 30 }, expect);
  g_assert_cmpfloat (odori_quat_angle_deg (expect, get (xyz, 0, "Hip")->rotation), <, 1e-3);
}

static void
test_positions_unit (void)
{
  const char *metres =
    "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z,Position:Head-X,Position:Head-Y,"
    "Position:Head-Z,Position:LeftFoot-X,Position:LeftFoot-Y,Position:LeftFoot-Z\n"
    "0,0,0.95,0,0,1.6,0,0.1,0.05,0\n";
  const char *cm =
    "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z\n"
    "0,10,95,-3\n0.01,11,95,-3\n";
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) m = load_fps ("metres.csv", metres, 0, warnings);
  g_autoptr(OdoriCapture) c = load_fps ("cm.csv", cm, 0, NULL);
  g_autoptr(OdoriCapture) mm = NULL;
  OdoriImportOptions options;
  const OdoriTransform *t;

  g_assert_false (m->has_rotations);
  g_assert_true (m->has_position[0]);
  t = get (m, 0, "Head");
  g_assert_cmpfloat_with_epsilon (t->position[1], 160.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (get (m, 0, "Hip")->rotation[3], 1.0, 1e-7);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->message, "metres"));
  g_assert_cmpfloat_with_epsilon (get (c, 1, "Hip")->position[0], 11.0, 1e-5);

  /* an explicit unit wins over the guess */
  odori_import_options_init (&options);
  options.fps = 0;
  options.csv_unit = ODORI_UNIT_MILLIMETERS;
  mm = load_opts ("mm.csv", cm, -1, &options, NULL);
  g_assert_cmpfloat_with_epsilon (get (mm, 1, "Hip")->position[0], 1.1, 1e-5);
}

static void
test_bom_crlf_semicolon_quoted (void)
{
  const char *text =
    "\xEF\xBB\xBF\"Time(Second)\";\"Quaternion:Hip-W\";\"Quaternion:Hip-X\";"
    "\"Quaternion:Hip-Y\";\"Quaternion:Hip-Z\";\"Frame \"\"No\"\"\"\r\n"
    "0,00;1;0;0;0;1\r\n"
    "0,01;0,70710678;0;0;0,70710678;x\r\n"
    "\r\n";
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) c = load_fps ("semi.csv", text, 0, warnings);
  const OdoriTransform *t = get (c, 1, "Hip");

  g_assert_cmpuint (c->motion->n_frames, ==, 2);
  g_assert_cmpfloat_with_epsilon (c->motion->frame_time, 0.01, 1e-12);
  g_assert_cmpfloat_with_epsilon (t->rotation[2], 0.70710678, 1e-6);
  /* the unknown column is skipped (its "x" is not looked at), with one warning naming it */
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->message,
                            "\"Frame \"No\"\""));
}

static void
test_gbk_header (void)
{
  /* 时间(秒) and 帧 (frame) in GBK: neither UTF-8 nor (usable) Shift_JIS */
  const char text[] =
    "\xca\xb1\xbc\xe4(\xc3\xeb),\xd6\xa1,Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,"
    "Quaternion:Hip-Z\n"
    "0,1,1,0,0,0\n"
    "0.02,2,0,1,0,0\n";
  g_autofree char *path = write_tmp ("gbk.csv", text, sizeof text - 1);
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  OdoriImportOptions options;
  g_autoptr(OdoriCapture) c = NULL;
  g_autoptr(OdoriMotion) m = NULL;

  odori_import_options_init (&options);
  options.fps = 0;
  c = odori_sensor_csv_load (path, &options, warnings, &error);
  g_assert_no_error (error);
  /* the time column was found by its Chinese name: 20 ms apart, not 10 */
  g_assert_cmpfloat_with_epsilon (c->motion->frame_time, 0.02, 1e-12);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->message, "帧"));
  /* and as a show file */
  g_assert_cmpint (odori_format_detect_file (path, NULL), ==, ODORI_FORMAT_SENSOR_CSV);
  m = odori_format_load_motion (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 1);
}

static void
test_resample_irregular (void)
{
  GString *s = g_string_new ("Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z,"
                             "Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\n");
  const double times[] = { 0, 0.008, 0.021, 0.030, 0.041, 0.049, 0.062, 0.070, 0.079, 0.1 };
  g_autoptr(OdoriCapture) c = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      double half = glm_rad (180.0 * times[i]) / 2;

      g_string_append_printf (s, "%.3f,%.4f,100,0,%.8f,0,%.8f,0\n", times[i], 200 * times[i],
                              cos (half), sin (half));
    }
  c = load_fps ("irregular.csv", s->str, 50, NULL);
  g_string_free (s, TRUE);
  g_assert_true (c->resampled);
  g_assert_cmpuint (c->motion->n_frames, ==, 6);
  for (guint f = 0; f < 6; f++)
    {
      const OdoriTransform *t = odori_motion_get (c->motion, f, 0);
      float expect[4];

      g_assert_cmpfloat_with_epsilon (t->position[0], 200 * 0.02 * f, 1e-3);
      glm_quatv (expect, glm_rad (180.0f * 0.02f * f), (vec3) { 0, 1, 0 });
      g_assert_cmpfloat (odori_quat_angle_deg (expect, t->rotation), <, 0.01);
    }
}

static void
test_duplicate_and_no_time (void)
{
  const char *dup =
    "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\n"
    "0,1,0,0,0\n0.01,1,0,0,0\n0.01,0,1,0,0\n0.02,1,0,0,0\n";
  const char *no_time =
    "Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\n"
    "1,0,0,0\n\n1,0,0,0\n1,0,0,0\n";
  g_autoptr(GPtrArray) w1 = odori_diagnostics_new ();
  g_autoptr(GPtrArray) w2 = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) a = load_fps ("dup.csv", dup, 0, w1);
  g_autoptr(OdoriCapture) b = load_fps ("notime.csv", no_time, 0, w2);

  g_assert_cmpuint (a->motion->n_frames, ==, 3);
  g_assert_cmpfloat_with_epsilon (get (a, 1, "Hip")->rotation[0], 1.0, 1e-7);
  g_assert_cmpuint (w1->len, ==, 1);
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (w1, 0))->line, ==, 4);

  /* the suit's 100 frames per second; a blank line in the middle is skipped with a warning */
  g_assert_cmpuint (b->motion->n_frames, ==, 3);
  g_assert_cmpfloat_with_epsilon (b->motion->frame_time, 0.01, 1e-12);
  g_assert_cmpuint (w2->len, ==, 2);
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (w2, 1))->line, ==, 3);
}

/* Bad input */

static void
test_bad_missing_cell (void)
{
  assert_error ("short.csv",
                "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\n"
                "0,1,0,0,0\n0.01,1,0,0\n",
                ODORI_SENSOR_CSV_ERROR_MISSING_CELL, 3,
                "row 2 has 4 cells: no cell for column \"Quaternion:Hip-Z\" (column 5)");
  assert_error ("emptycell.csv",
                "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\n"
                "0,1,,0,0\n",
                ODORI_SENSOR_CSV_ERROR_MISSING_CELL, 2,
                "row 1, column \"Quaternion:Hip-X\" (column 3): the cell is empty");
}

static void
test_bad_non_numeric (void)
{
  assert_error ("word.csv",
                "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\r\n"
                "0,1,0,0,0\r\n0.01,1,0,0,0\r\n0.02,1,zero,0,0\r\n",
                ODORI_SENSOR_CSV_ERROR_NUMBER, 4,
                "row 3, column \"Quaternion:Hip-X\" (column 3): expected a number, got \"zero\"");
  assert_error ("nan.csv",
                "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z\n0,NaN,0,0\n",
                ODORI_SENSOR_CSV_ERROR_NOT_FINITE, 2, "column \"Position:Hip-X\"");
  assert_error ("badtime.csv",
                "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z\n0:01,0,0,0\n",
                ODORI_SENSOR_CSV_ERROR_NUMBER, 2, "column \"Time(Second)\" (column 1)");
}

static void
test_bad_zero_quaternion (void)
{
  assert_error ("zero.csv",
                "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Y,Quaternion:Hip-Z\n"
                "0,1,0,0,0\n0.01,0,0,0,0\n",
                ODORI_SENSOR_CSV_ERROR_ZERO_QUATERNION, 3, "row 2");
}

static void
test_bad_header (void)
{
  assert_error ("incomplete.csv",
                "Time(Second),Quaternion:Hip-W,Quaternion:Hip-X,Quaternion:Hip-Z\n0,1,0,0\n",
                ODORI_SENSOR_CSV_ERROR_HEADER, 1, "no column for Y");
  assert_error ("twice.csv",
                "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z,Position:Hip-X\n0,0,0,0,0\n",
                ODORI_SENSOR_CSV_ERROR_HEADER, 1, "columns 2 and 5");
  assert_error ("ctl.csv", "Time(Second),Position:\033A-X,Position:\033A-Y,Position:\033A-Z\n0,0,0,0\n",
                ODORI_SENSOR_CSV_ERROR_HEADER, 1, "control character");
  assert_error ("none.csv", "Time(Second),Frame,Note\n0,1,x\n",
                ODORI_SENSOR_CSV_ERROR_HEADER, 1, "no Quaternion:");
  assert_error ("empty.csv", "\n\n", ODORI_SENSOR_CSV_ERROR_EMPTY, 1, NULL);
  assert_error ("norow.csv", "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z\n",
                ODORI_SENSOR_CSV_ERROR_EMPTY, 1, "no data row");
}

static void
test_bad_time (void)
{
  assert_error ("back.csv",
                "Time(Second),Position:Hip-X,Position:Hip-Y,Position:Hip-Z\n0.02,0,0,0\n0.01,0,0,0\n",
                ODORI_SENSOR_CSV_ERROR_TIME, 3, "before the previous row");
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-test-csv-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/sensor-csv/quaternions", test_quaternions);
  g_test_add_func ("/sensor-csv/euler", test_euler);
  g_test_add_func ("/sensor-csv/positions-unit", test_positions_unit);
  g_test_add_func ("/sensor-csv/bom-crlf-semicolon-quoted", test_bom_crlf_semicolon_quoted);
  g_test_add_func ("/sensor-csv/gbk-header", test_gbk_header);
  g_test_add_func ("/sensor-csv/resample-irregular", test_resample_irregular);
  g_test_add_func ("/sensor-csv/duplicate-and-no-time", test_duplicate_and_no_time);
  g_test_add_func ("/sensor-csv/bad/missing-cell", test_bad_missing_cell);
  g_test_add_func ("/sensor-csv/bad/non-numeric", test_bad_non_numeric);
  g_test_add_func ("/sensor-csv/bad/zero-quaternion", test_bad_zero_quaternion);
  g_test_add_func ("/sensor-csv/bad/header", test_bad_header);
  g_test_add_func ("/sensor-csv/bad/time", test_bad_time);

  ret = g_test_run ();
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
  g_free (tmp_dir);
  return ret;
}
