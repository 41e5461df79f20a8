/* test-joints.c: NI_JOINTS_TEXT_FILE reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-format.h"
#include "odori-joints.h"

#include "seed-joints-example.h"

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

/* The example of seeds/joints-text-file.ja.txt (seed-joints-example.h), from its header
 * to its last joint line (the page elides the rest with " ......."), comment line
 * included. */
static char *
seed_example (void)
{
  return g_strdup (seed_joints_example);
}

static OdoriImportOptions
options_fps (double fps)
{
  OdoriImportOptions options;

  odori_import_options_init (&options);
  options.fps = fps;
  return options;
}

static OdoriCapture *
load_ok (const char       *name,
         const char       *text,
         double            fps,
         GPtrArray        *warnings)
{
  g_autofree char *path = write_tmp (name, text, -1);
  OdoriImportOptions options = options_fps (fps);
  g_autoptr(GError) error = NULL;
  OdoriCapture *capture = odori_joints_load (path, &options, warnings, &error);

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}

static void
assert_error (const char *name,
              const char *text,
              GQuark      domain,
              int         code,
              guint       line,
              const char *substring)
{
  g_autofree char *path = write_tmp (name, text, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriCapture) capture = odori_joints_load (path, NULL, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);

  g_assert_null (capture);
  g_assert_error (error, domain, code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("\"%s\" does not start with \"%s\"", error->message, prefix);
  if (substring != NULL && strstr (error->message, substring) == NULL)
    g_error ("\"%s\" lacks \"%s\"", error->message, substring);
}

static const OdoriTransform *
get (const OdoriCapture *c,
     guint               frame,
     const char         *joint)
{
  int s = odori_motion_find_segment (c->motion, joint);

  g_assert_cmpint (s, >=, 0);
  return odori_motion_get (c->motion, frame, s);
}

#define assert_vec3(v, x, y, z, eps) G_STMT_START {        \
    g_assert_cmpfloat_with_epsilon ((v)[0], (x), (eps));    \
    g_assert_cmpfloat_with_epsilon ((v)[1], (y), (eps));    \
    g_assert_cmpfloat_with_epsilon ((v)[2], (z), (eps));    \
  } G_STMT_END

/* Tests */

static void
test_seed (void)
{
  g_autofree char *text = seed_example ();
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  /* fps 0: two frames are regular, so they are kept as they are */
  g_autoptr(OdoriCapture) c = load_ok ("seed.txt", text, 0, warnings);
  const char *names[] = { "PELVIS", "TORSO", "NECK", "HEAD", "L_SHLDR", "L_ELBOW", "L_HAND",
                          "R_SHLDR", "R_ELBOW", "R_HAND", "L_HIP", "L_KNEE", "L_FOOT",
                          "R_HIP", "R_KNEE", "R_FOOT" };
  const OdoriTransform *t;
  double n;

  g_assert_cmpint (c->kind, ==, ODORI_CAPTURE_JOINTS);
  g_assert_cmpuint (c->motion->n_segments, ==, 16);
  for (guint s = 0; s < 16; s++)
    g_assert_cmpstr (c->motion->segments[s].name, ==, names[s]);
  g_assert_cmpuint (c->motion->n_frames, ==, 2);
  g_assert_cmpuint (c->n_source_frames, ==, 2);
  g_assert_false (c->resampled);
  g_assert_cmpfloat_with_epsilon (c->motion->frame_time, 0.037, 1e-9);
  g_assert_cmpfloat_with_epsilon (c->source_duration, 0.037, 1e-9);
  g_assert_true (c->rotations_local);
  g_assert_cmpint (c->motion->segments[0].units[0], ==, ODORI_UNIT_CENTIMETERS);

  /* metres to centimetres, file axes kept */
  t = get (c, 0, "TORSO");
  assert_vec3 (t->position, 0.0335, 0.4759, 15.0861, 1e-4);
  t = get (c, 0, "R_FOOT");
  assert_vec3 (t->position, -4.9303, -20.86, -52.8537, 1e-4);
  /* quaternions normalised, x y z w */
  t = get (c, 0, "NECK");
  n = sqrt (0.11550798 * 0.11550798 + 0.12516484 * 0.12516484 + 0.00000010 * 0.00000010 +
            0.98538905 * 0.98538905);
  g_assert_cmpfloat_with_epsilon (t->rotation[0], 0.11550798 / n, 1e-6);
  g_assert_cmpfloat_with_epsilon (t->rotation[1], 0.12516484 / n, 1e-6);
  g_assert_cmpfloat_with_epsilon (t->rotation[3], 0.98538905 / n, 1e-6);
  g_assert_cmpfloat_with_epsilon (glm_quat_norm ((float *) get (c, 0, "TORSO")->rotation), 1.0, 1e-6);
  /* frame 2 */
  t = get (c, 1, "PELVIS");
  assert_vec3 (t->position, -0.9697, 0.6961, 0.1753, 1e-4);
  t = get (c, 1, "L_HIP");
  assert_vec3 (t->position, -2.149, 8.4578, 0.005, 1e-4);
  /* the seed elides frame 2 after L_HIP: those joints hold frame 1's values, one warning
   * each, on the line of frame 2's time */
  g_assert_cmpmem (get (c, 1, "R_FOOT"), sizeof (OdoriTransform), get (c, 0, "R_FOOT"),
                   sizeof (OdoriTransform));
  g_assert_cmpuint (warnings->len, ==, 5);
  for (guint i = 0; i < warnings->len; i++)
    {
      OdoriDiagnostic *d = g_ptr_array_index (warnings, i);

      g_assert_cmpuint (d->line, ==, 20);
      g_assert_nonnull (strstr (d->message, "missing from 1 of 2 frames"));
    }
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->message, "L_KNEE"));
}

static void
test_seed_resampled (void)
{
  g_autofree char *text = seed_example ();
  g_autoptr(OdoriCapture) c = load_ok ("seed30.txt", text, 30, NULL);
  const OdoriTransform *t;
  float u = (float) ((1.0 / 30) / 0.037);

  /* 37 ms at 30 fps: frames at 0 and 33.3 ms, the second interpolated */
  g_assert_true (c->resampled);
  g_assert_cmpuint (c->motion->n_frames, ==, 2);
  g_assert_cmpfloat_with_epsilon (c->motion->frame_time, 1.0 / 30, 1e-12);
  t = get (c, 1, "PELVIS");
  assert_vec3 (t->position, u * -0.9697, u * 0.6961, u * 0.1753, 1e-4);
}

static void
test_seed_as_show (void)
{
  g_autofree char *text = seed_example ();
  g_autofree char *path = write_tmp ("seed-show.txt", text, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) m = NULL;
  int torso;

  g_assert_cmpint (odori_format_detect (text, strlen (text)), ==, ODORI_FORMAT_JOINTS);
  g_assert_cmpint (odori_format_detect_file (path, NULL), ==, ODORI_FORMAT_JOINTS);
  g_assert_cmpstr (odori_format_to_string (ODORI_FORMAT_JOINTS), ==, "joints");
  m = odori_format_load_motion (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_segments, ==, 16);
  g_assert_cmpfloat_with_epsilon (m->frame_time, 1.0 / 30, 1e-12);
  /* Z up → Y up: (x, y, z) → (x, z, −y) */
  torso = odori_motion_find_segment (m, "TORSO");
  assert_vec3 (odori_motion_get (m, 0, torso)->position, 0.0335, 15.0861, -0.4759, 1e-4);
  g_assert_cmpint (m->segments[torso].units[1], ==, ODORI_UNIT_CENTIMETERS);
}

static void
test_wrap (void)
{
  /* The clock wraps at 60000 ms: 59950, 59990 → 60030 (30), 60070 (70). The joint moves
   * 1 mm per millisecond of real time, so positions tell the unwrapped times. */
  const char *text =
    "NI_JOINTS_TEXT_FILE\n"
    "59950\n A 0.000 0 0 0 0 0 1\n"
    "59990\n A 0.040 0 0 0 0 0 1\n"
    "30\n A 0.080 0 0 0 0 0 1\n"
    "70\n A 0.120 0 0 0 0 0 1\n";
  g_autoptr(OdoriCapture) c = load_ok ("wrap.txt", text, 50, NULL);

  g_assert_cmpfloat_with_epsilon (c->source_duration, 0.120, 1e-9);
  /* 120 ms at 50 fps: 7 frames, 20 ms apart, x = 2 cm per frame */
  g_assert_cmpuint (c->motion->n_frames, ==, 7);
  for (guint f = 0; f < 7; f++)
    g_assert_cmpfloat_with_epsilon (odori_motion_get (c->motion, f, 0)->position[0], 2.0 * f, 1e-4);
}

static void
test_resample_irregular (void)
{
  /* irregular times; position linear in time, rotation about Z at 90°/s */
  GString *s = g_string_new ("NI_JOINTS_TEXT_FILE\nrecorder, 127.0.0.1\n");
  const int times[] = { 1000, 1029, 1071, 1100, 1140, 1166, 1210, 1243, 1301, 1333 };
  g_autoptr(OdoriCapture) c = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      double t = (times[i] - 1000) / 1000.0;
      double half = glm_rad (90.0 * t) / 2;

      g_string_append_printf (s, "%d\n J %.6f 0.5 0.25 0 0 %.8f %.8f\n", times[i], 0.3 * t,
                              sin (half), cos (half));
    }
  c = load_ok ("irregular.txt", s->str, 30, NULL);
  g_string_free (s, TRUE);

  g_assert_true (c->resampled);
  g_assert_cmpuint (c->motion->n_frames, ==, 10);  /* 333 ms at 30 fps: 0 .. 9 */
  for (guint f = 0; f < c->motion->n_frames; f++)
    {
      const OdoriTransform *t = odori_motion_get (c->motion, f, 0);
      double time = f / 30.0;
      float expect[4];

      g_assert_cmpfloat_with_epsilon (t->position[0], 30.0 * time, 1e-3);
      g_assert_cmpfloat_with_epsilon (t->position[1], 50.0, 1e-4);
      glm_quatv (expect, glm_rad (90.0f * (float) time), (vec3) { 0, 0, 1 });
      g_assert_cmpfloat (odori_quat_angle_deg (expect, t->rotation), <, 0.01);
    }
}

static void
test_duplicate_time (void)
{
  const char *text =
    "NI_JOINTS_TEXT_FILE\n"
    "100\n PELVIS 1 0 0 0 0 0 1\n TORSO 1 0 0 0 0 0 1\n"
    "133\n PELVIS 2 0 0 0 0 0 1\n TORSO 2 0 0 0 0 0 1\n"
    "133\n PELVIS 3 0 0 0 0 0 1\n"
    "166\n PELVIS 4 0 0 0 0 0 1\n TORSO 4 0 0 0 0 0 1\n";
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) c = load_ok ("dup.txt", text, 0, warnings);

  /* the second 133 replaces the first entirely: TORSO holds its frame-1 value there */
  g_assert_cmpuint (c->motion->n_frames, ==, 3);
  g_assert_cmpfloat (odori_motion_get (c->motion, 1, 0)->position[0], ==, 300.0f);
  g_assert_cmpfloat (odori_motion_get (c->motion, 1, 1)->position[0], ==, 100.0f);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->line, ==, 8);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->message, "line 5"));
}

static void
test_replaced_only_joint (void)
{
  /* HEAD is only in a frame that a repeated time replaces: it has no data and is left
   * out (found by fuzzing: it used to be read from nowhere) */
  const char *text =
    "NI_JOINTS_TEXT_FILE\n"
    "100\n PELVIS 0 0 1 0 0 0 1\n"
    "133\n PELVIS 0 0 1 0 0 0 1\n HEAD 0 0 1.6 0 0 0 1\n"
    "133\n PELVIS 0 0 1 0 0 0 1\n";
  const char *nothing_left =
    "NI_JOINTS_TEXT_FILE\n100\n HEAD 0 0 1.6 0 0 0 1\n100\n";
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) c = load_ok ("replaced.txt", text, 0, warnings);

  g_assert_cmpuint (c->motion->n_segments, ==, 1);
  g_assert_cmpstr (c->motion->segments[0].name, ==, "PELVIS");
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 1))->message,
                            "HEAD appears only in replaced frames"));
  assert_error ("nothing.txt", nothing_left, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_EMPTY, 4,
                "frames that are kept");
}

static void
test_extra_unknown_ninth (void)
{
  const char *text =
    "NI_JOINTS_TEXT_FILE\r\n"
    "Taro, 192.168.0.5\r\n"
    "0\r\n"
    " PELVIS 0 0 1 0 0 0 1 12.5\r\n"
    "\tWAIST 0 0 1.1 0 0 0 1\r\n"
    " TAIL 0 -0.1 0.9 0 0 0 1\r\n"
    "   \r\n"
    " PELVIS 0 0 1 0 0 0 1\r\n"
    "# a comment\r\n"
    "33\r\n"
    " PELVIS 0 0 1 0 0 0 1\r\n"
    " WAIST 0 0 1.1 0 0 0 1\r\n"
    " TAIL 0 -0.1 0.9 0 0 0 2\r\n";
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) c = load_ok ("extra.txt", text, 0, warnings);
  OdoriDiagnostic *d;

  g_assert_cmpuint (c->motion->n_segments, ==, 3);
  g_assert_cmpstr (c->motion->segments[2].name, ==, "TAIL");
  g_assert_true (odori_joints_is_known ("WAIST"));
  g_assert_false (odori_joints_is_known ("TAIL"));
  /* the unknown joint (line 6) and PELVIS twice in frame 1 (line 8) */
  g_assert_cmpuint (warnings->len, ==, 2);
  d = g_ptr_array_index (warnings, 0);
  g_assert_cmpuint (d->line, ==, 6);
  g_assert_nonnull (strstr (d->message, "TAIL"));
  d = g_ptr_array_index (warnings, 1);
  g_assert_cmpuint (d->line, ==, 8);
  g_assert_nonnull (strstr (d->message, "twice"));
  /* (0, 0, 0, 2) normalised */
  g_assert_cmpfloat_with_epsilon (odori_motion_get (c->motion, 1, 2)->rotation[3], 1.0, 1e-7);
}

static void
test_shift_jis_bom (void)
{
  /* a Shift_JIS comment line (この行はコメント) and a UTF-8 BOM variant */
  const char sjis[] = "NI_JOINTS_TEXT_FILE\n0\n \x82\xb1\x82\xcc PELVIS 0 0 1 0 0 0 1\n";
  const char sjis_ok[] = "NI_JOINTS_TEXT_FILE\n0\n\x82\xb1\x82\xcc\x8d\x73\n PELVIS 0 0 1 0 0 0 1\n";
  const char bom[] = "\xEF\xBB\xBFNI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 1 0 0 0 1\n";
  g_autoptr(OdoriCapture) a = load_ok ("sjis.txt", sjis_ok, 0, NULL);
  g_autoptr(OdoriCapture) b = load_ok ("bom.txt", bom, 0, NULL);

  g_assert_cmpuint (a->motion->n_frames, ==, 1);
  g_assert_cmpfloat (odori_motion_get (b->motion, 0, 0)->position[2], ==, 100.0f);
  g_assert_true (odori_joints_sniff (bom, sizeof bom - 1));
  /* a joint line whose "name" is Shift_JIS text and whose numbers are shifted: an error */
  assert_error ("sjisbad.txt", sjis, ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, 3, "PELVIS");
}

/* Bad input */

static void
test_bad_data_before_time (void)
{
  assert_error ("before.txt", "NI_JOINTS_TEXT_FILE\n PELVIS 0 0 0 0 0 0 1\n100\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NO_FRAME_TIME, 2, "before the first frame time");
}

static void
test_bad_zero_quaternion (void)
{
  assert_error ("zero.txt",
                "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 0 0 0 0 1\n33\n PELVIS 0 0 0 0 0 0 0\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_ZERO_QUATERNION, 5, "PELVIS");
}

static void
test_bad_header (void)
{
  assert_error ("hdr.txt", "NI_JOINT_TEXT_FILE\n0\n PELVIS 0 0 0 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_HEADER, 1, "NI_JOINTS_TEXT_FILE");
  assert_error ("empty.txt", "", ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_HEADER, 1, NULL);
}

static void
test_bad_lines (void)
{
  assert_error ("few.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, 3, "found 6 numbers");
  assert_error ("many.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 0 0 0 0 1 5 6\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, 3, NULL);
  assert_error ("word.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 zero 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, 3, "\"zero\"");
  assert_error ("nan.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 nan 0 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NOT_FINITE, 3, NULL);
  assert_error ("time.txt", "NI_JOINTS_TEXT_FILE\n12ms\n PELVIS 0 0 0 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, 2, "\"12ms\"");
  assert_error ("inf.txt", "NI_JOINTS_TEXT_FILE\n1e999\n PELVIS 0 0 0 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, 2, "\"1e999\"");
  assert_error ("inf2.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 0 -inf 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NOT_FINITE, 3, "\"-inf\"");
  assert_error ("far.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 1e9 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, 3, "out of range");
  assert_error ("ctl.txt", "NI_JOINTS_TEXT_FILE\n0\n \004A 0 0 0 0 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_SYNTAX, 3, "control character");
  assert_error ("bigq.txt", "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 0 1e200 0 0 1\n",
                ODORI_JOINTS_ERROR, ODORI_JOINTS_ERROR_NUMBER, 3, "quaternion of joint PELVIS is out of range");
}

static void
test_bad_empty (void)
{
  assert_error ("notime.txt", "NI_JOINTS_TEXT_FILE\ncomment\n", ODORI_JOINTS_ERROR,
                ODORI_JOINTS_ERROR_EMPTY, 2, "frame time");
  assert_error ("nojoint.txt", "NI_JOINTS_TEXT_FILE\n\n100\n200\n", ODORI_JOINTS_ERROR,
                ODORI_JOINTS_ERROR_EMPTY, 3, "joint data");
}

static void
test_bad_too_long (void)
{
  /* two frames 11 days apart would be 30 million frames: refused, not allocated */
  assert_error ("long.txt",
                "NI_JOINTS_TEXT_FILE\n0\n PELVIS 0 0 0 0 0 0 1\n999999999\n PELVIS 0 0 0 0 0 0 1\n",
                ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_TOO_LONG, 1, "lower rate");
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-test-joints-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/joints/seed", test_seed);
  g_test_add_func ("/joints/seed-resampled", test_seed_resampled);
  g_test_add_func ("/joints/seed-as-show", test_seed_as_show);
  g_test_add_func ("/joints/wrap", test_wrap);
  g_test_add_func ("/joints/resample-irregular", test_resample_irregular);
  g_test_add_func ("/joints/duplicate-time", test_duplicate_time);
  g_test_add_func ("/joints/replaced-only-joint", test_replaced_only_joint);
  g_test_add_func ("/joints/extra-unknown-ninth", test_extra_unknown_ninth);
  g_test_add_func ("/joints/shift-jis-bom", test_shift_jis_bom);
  g_test_add_func ("/joints/bad/data-before-time", test_bad_data_before_time);
  g_test_add_func ("/joints/bad/zero-quaternion", test_bad_zero_quaternion);
  g_test_add_func ("/joints/bad/header", test_bad_header);
  g_test_add_func ("/joints/bad/lines", test_bad_lines);
  g_test_add_func ("/joints/bad/empty", test_bad_empty);
  g_test_add_func ("/joints/bad/too-long", test_bad_too_long);

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
