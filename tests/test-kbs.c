/* test-kbs.c: Kinect bone settings, KBS (XML) and KST (Shift_JIS text)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "odori-format.h"
#include "odori-kbs.h"

#include "test-corpus.h"

static char *tmp_dir;

/* The seed's example (openrdb-kinect-kbs.ja.txt), with half-width brackets as the seed
 * says the real file has. */
static const char *seed_kbs =
  "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n"
  "<KBS>\n"
  "  <FileInfo>\n"
  "    <kind>KinectBoneSettingFile</kind>\n"
  "    <version>1001</version>\n"
  "    <type>0</type>\n"
  "  </FileInfo>\n"
  "  <TOP_OF_JOINT>\n    <RDBBone>ModelRootBone</RDBBone>\n    <twist>1</twist>\n  </TOP_OF_JOINT>\n"
  "  <SKEL_TORSO>\n    <RDBBone>Base_X</RDBBone>\n    <twist>1</twist>\n  </SKEL_TORSO>\n"
  "  <SKEL_LEFT_HIP>\n    <RDBBone>FLOAT_Foot1[L]</RDBBone>\n    <twist>1</twist>\n  </SKEL_LEFT_HIP>\n"
  "  <SKEL_LEFT_KNEE>\n    <RDBBone>Foot1[L]</RDBBone>\n    <twist>1</twist>\n  </SKEL_LEFT_KNEE>\n"
  "  <SKEL_LEFT_FOOT>\n    <RDBBone>Foot2[L]</RDBBone>\n    <twist>1</twist>\n  </SKEL_LEFT_FOOT>\n"
  "  <SKEL_RIGHT_HIP>\n    <RDBBone>FLOAT_Foot1[R]</RDBBone>\n    <twist>1</twist>\n  </SKEL_RIGHT_HIP>\n"
  "  <SKEL_RIGHT_KNEE>\n    <RDBBone>Foot1[R]</RDBBone>\n    <twist>1</twist>\n  </SKEL_RIGHT_KNEE>\n"
  "  <SKEL_RIGHT_FOOT>\n    <RDBBone>Foot2[R]</RDBBone>\n    <twist>1</twist>\n  </SKEL_RIGHT_FOOT>\n"
  "  <SKEL_NECK>\n    <RDBBone>Neck_X</RDBBone>\n    <twist>1</twist>\n  </SKEL_NECK>\n"
  "  <SKEL_HEAD>\n    <RDBBone>HeadSaki_X</RDBBone>\n    <twist>1</twist>\n  </SKEL_HEAD>\n"
  "  <SKEL_LEFT_SHOULDER>\n    <RDBBone>FLOAT_Arm0[L]</RDBBone>\n    <twist>1</twist>\n  </SKEL_LEFT_SHOULDER>\n"
  "  <SKEL_LEFT_ELBOW>\n    <RDBBone>Arm0[L]</RDBBone>\n    <twist>1</twist>\n  </SKEL_LEFT_ELBOW>\n"
  "  <SKEL_LEFT_HAND>\n    <RDBBone>Arm1[L]</RDBBone>\n    <twist>1</twist>\n  </SKEL_LEFT_HAND>\n"
  "  <SKEL_RIGHT_SHOULDER>\n    <RDBBone>FLOAT_Arm0[R]</RDBBone>\n    <twist>1</twist>\n  </SKEL_RIGHT_SHOULDER>\n"
  "  <SKEL_RIGHT_ELBOW>\n    <RDBBone>Arm0[R]</RDBBone>\n    <twist>1</twist>\n  </SKEL_RIGHT_ELBOW>\n"
  "  <SKEL_RIGHT_HAND>\n    <RDBBone>Arm1[R]</RDBBone>\n    <twist>1</twist>\n  </SKEL_RIGHT_HAND>\n"
  "</KBS>\n";

static char *
write_tmp (const char *name,
           const char *content,
           gssize      len)
{
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, content, len, NULL));
  return path;
}

static OdoriKbs *
load_string_ok (const char *name,
                const char *text,
                GPtrArray  *warnings)
{
  g_autofree char *path = write_tmp (name, text, -1);
  g_autoptr(GError) error = NULL;
  OdoriKbs *kbs = odori_kbs_load (path, warnings, &error);

  g_assert_no_error (error);
  g_assert_nonnull (kbs);
  return kbs;
}

static void
assert_load_error (const char *name,
                   const char *text,
                   int         code,
                   const char *expect_prefix,
                   const char *expect_substring)
{
  g_autofree char *path = write_tmp (name, text, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) kbs = odori_kbs_load (path, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("%s:%s", path, expect_prefix);

  g_assert_null (kbs);
  g_assert_error (error, ODORI_KBS_ERROR, code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("message \"%s\" does not start with \"%s\"", error->message, prefix);
  if (expect_substring != NULL && strstr (error->message, expect_substring) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, expect_substring);
}

static void
assert_equal_kbs (const OdoriKbs *a,
                  const OdoriKbs *b)
{
  g_assert_cmpint (a->version, ==, b->version);
  g_assert_cmpint (a->type, ==, b->type);
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      g_assert_cmpstr (a->joints[j].bone, ==, b->joints[j].bone);
      g_assert_cmpint (a->joints[j].twist, ==, b->joints[j].twist);
    }
}

/* Tests */

static void
test_names (void)
{
  OdoriKinectJoint j;

  g_assert_cmpstr (odori_kinect_joint_to_string (ODORI_KINECT_LEFT_SHOULDER), ==, "LEFT_SHOULDER");
  g_assert_cmpstr (odori_kinect_joint_to_element (ODORI_KINECT_TORSO), ==, "SKEL_TORSO");
  g_assert_cmpstr (odori_kinect_joint_to_element (ODORI_KINECT_TOP_OF_JOINT), ==, "TOP_OF_JOINT");
  g_assert_true (odori_kinect_joint_from_string ("SKEL_RIGHT_HAND", &j));
  g_assert_cmpint (j, ==, ODORI_KINECT_RIGHT_HAND);
  g_assert_true (odori_kinect_joint_from_string ("NECK", &j));
  g_assert_cmpint (j, ==, ODORI_KINECT_NECK);
  g_assert_false (odori_kinect_joint_from_string ("SKEL_NOSE", &j));
  g_assert_cmpint (ODORI_KINECT_N_JOINTS, ==, 16);
}

static void
test_sniff (void)
{
  g_assert_cmpint (odori_kbs_sniff (seed_kbs, strlen (seed_kbs)), ==, ODORI_KBS_FORMAT_KBS);
  g_assert_cmpint (odori_kbs_sniff ("\xEF\xBB\xBF<!-- c --><KBS/>", 21), ==, ODORI_KBS_FORMAT_KBS);
  g_assert_cmpint (odori_kbs_sniff ("Rps2Qua:ConvSettingFile:ver1001:type01\r\n", 40), ==,
                   ODORI_KBS_FORMAT_KST);
  g_assert_cmpint (odori_kbs_sniff ("<odori-skeleton/>", 17), ==, ODORI_KBS_FORMAT_NONE);
  g_assert_cmpint (odori_kbs_sniff ("Segment: Hip\n", 13), ==, ODORI_KBS_FORMAT_NONE);
  g_assert_cmpint (odori_format_detect (seed_kbs, strlen (seed_kbs)), ==, ODORI_FORMAT_KBS);
  g_assert_cmpint (odori_format_detect ("Rps2Qua:ConvSettingFile:ver1001:type01\n", 39), ==,
                   ODORI_FORMAT_KST);
}

static void
test_load_seed_example (void)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriKbs) kbs = load_string_ok ("seed.kbs", seed_kbs, warnings);

  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpint (kbs->format, ==, ODORI_KBS_FORMAT_KBS);
  g_assert_cmpint (kbs->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpint (kbs->version, ==, 1001);
  g_assert_cmpint (kbs->type, ==, 0);
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_TOP_OF_JOINT].bone, ==, "ModelRootBone");
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_TORSO].bone, ==, "Base_X");
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_LEFT_HIP].bone, ==, "FLOAT_Foot1[L]");
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_HEAD].bone, ==, "HeadSaki_X");
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_RIGHT_HAND].bone, ==, "Arm1[R]");
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      g_assert_nonnull (kbs->joints[j].bone);
      g_assert_true (kbs->joints[j].twist);
    }
  g_assert_cmpint (kbs->joints[ODORI_KINECT_LEFT_KNEE].line, ==, 20);
  g_assert_cmpint (odori_kbs_find_bone (kbs, "Arm0[L]"), ==, ODORI_KINECT_LEFT_ELBOW);
  g_assert_cmpint (odori_kbs_find_bone (kbs, "Nothing"), ==, -1);
}

static void
test_any_order_missing (void)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriKbs) kbs = load_string_ok ("order.kbs",
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<KBS>\n"
    "  <SKEL_HEAD><RDBBone>Head</RDBBone><twist>0</twist></SKEL_HEAD>\n"
    "  <FileInfo><kind> KinectBoneSettingFile </kind></FileInfo>\n"
    "  <SKEL_TORSO><RDBBone>Hips</RDBBone></SKEL_TORSO>\n"
    "  <SKEL_NECK><RDBBone></RDBBone><twist>1</twist></SKEL_NECK>\n"
    "  <Extra>x</Extra>\n"
    "</KBS>\n", warnings);

  g_assert_cmpint (kbs->encoding, ==, ODORI_ENCODING_UTF8);
  g_assert_cmpint (kbs->version, ==, 1001);  /* default when absent */
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_HEAD].bone, ==, "Head");
  g_assert_false (kbs->joints[ODORI_KINECT_HEAD].twist);
  g_assert_cmpstr (kbs->joints[ODORI_KINECT_TORSO].bone, ==, "Hips");
  g_assert_true (kbs->joints[ODORI_KINECT_TORSO].twist);
  g_assert_null (kbs->joints[ODORI_KINECT_NECK].bone);      /* empty: not mapped */
  g_assert_null (kbs->joints[ODORI_KINECT_LEFT_HAND].bone); /* missing: not mapped */
  /* a missing <twist> and an unknown element: two warnings with their lines */
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->line, ==, 5);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 0))->message, "twist"));
  g_assert_cmpuint (((OdoriDiagnostic *) g_ptr_array_index (warnings, 1))->line, ==, 7);
  g_assert_nonnull (strstr (((OdoriDiagnostic *) g_ptr_array_index (warnings, 1))->message, "Extra"));
}

static void
test_kst_corpus (void)
{
  g_autofree char *my = odori_test_corpus_file ("kst-rokdebone2/my/ConvSetting3.kst");
  g_autofree char *bonnya = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) a = NULL;
  g_autoptr(OdoriKbs) b = NULL;

  if (my == NULL)
    return;
  bonnya = odori_test_corpus_file ("kst-rokdebone2/bonnya/ConvSetting3.kst");
  if (bonnya == NULL)
    return;
  a = odori_kbs_load (my, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (a->format, ==, ODORI_KBS_FORMAT_KST);
  g_assert_cmpint (a->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  g_assert_cmpint (a->version, ==, 1001);
  g_assert_cmpint (a->type, ==, 1);
  g_assert_cmpstr (a->joints[ODORI_KINECT_TOP_OF_JOINT].bone, ==, "原点_X");
  g_assert_cmpstr (a->joints[ODORI_KINECT_TORSO].bone, ==, "恥骨（全身の原点）_X");
  g_assert_cmpstr (a->joints[ODORI_KINECT_LEFT_HIP].bone, ==, "もも付け根_X+");
  g_assert_cmpstr (a->joints[ODORI_KINECT_LEFT_KNEE].bone, ==, "ひざ_X+");
  g_assert_false (a->joints[ODORI_KINECT_LEFT_KNEE].twist);
  g_assert_true (a->joints[ODORI_KINECT_LEFT_FOOT].twist);
  g_assert_cmpstr (a->joints[ODORI_KINECT_HEAD].bone, ==, "アタマ_X");
  g_assert_cmpstr (a->joints[ODORI_KINECT_RIGHT_HAND].bone, ==, "手首_X-");
  g_assert_false (a->joints[ODORI_KINECT_RIGHT_HAND].twist);
  g_assert_cmpuint (a->joints[ODORI_KINECT_TOP_OF_JOINT].line, ==, 3);
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    g_assert_nonnull (a->joints[j].bone);

  b = odori_kbs_load (bonnya, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (b->joints[ODORI_KINECT_TOP_OF_JOINT].bone, ==, "TopOfmat1");
  g_assert_cmpstr (b->joints[ODORI_KINECT_LEFT_HIP].bone, ==, "FLOAT_モモ[L]_X+");
  g_assert_cmpstr (b->joints[ODORI_KINECT_NECK].bone, ==, "胸");
  g_assert_cmpstr (b->joints[ODORI_KINECT_HEAD].bone, ==, "頭");
  g_assert_cmpstr (b->joints[ODORI_KINECT_RIGHT_ELBOW].bone, ==, "肩[R]_X-");
}

static GBytes *
save_to_bytes (const OdoriKbs *kbs,
               OdoriEncoding   encoding)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (encoding);
  g_autoptr(GError) error = NULL;

  g_assert_true (odori_kbs_write (kbs, encoding, out, &error));
  g_assert_true (odori_output_commit (out, &error));
  g_assert_no_error (error);
  return odori_output_steal_bytes (out);
}

static void
roundtrip (OdoriEncoding encoding)
{
  g_autofree char *my = odori_test_corpus_file ("kst-rokdebone2/my/ConvSetting3.kst");
  g_autofree char *path = g_build_filename (tmp_dir, encoding == ODORI_ENCODING_UTF8 ? "rt-utf8.kbs"
                                                                                     : "rt-sjis.kbs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) a = NULL;
  g_autoptr(OdoriKbs) b = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  if (my == NULL)
    return;
  a = odori_kbs_load (my, NULL, &error);
  g_assert_no_error (error);
  /* a CP932-only character (circled one, wave dash) must survive Shift_JIS too */
  odori_kbs_set_joint (a, ODORI_KINECT_NECK, "首①～", FALSE);
  odori_kbs_set_joint (a, ODORI_KINECT_HEAD, NULL, TRUE);  /* not mapped */
  g_assert_true (odori_kbs_save (a, path, encoding, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  if (encoding == ODORI_ENCODING_SHIFT_JIS)
    {
      g_assert_true (g_str_has_prefix (contents, "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n"));
      g_assert_false (g_utf8_validate (contents, len, NULL));  /* real CP932 bytes */
      /* 原点 in Shift_JIS */
      g_assert_nonnull (g_strstr_len (contents, len, "\x8C\xB4\x93\x5F"));
    }
  else
    {
      g_assert_true (g_str_has_prefix (contents, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
      g_assert_true (g_utf8_validate (contents, len, NULL));
      g_assert_nonnull (strstr (contents, "<RDBBone>原点_X</RDBBone>"));
    }
  g_assert_null (strstr (contents, "SKEL_HEAD"));
  g_assert_nonnull (strstr (contents, "<kind>KinectBoneSettingFile</kind>"));

  b = odori_kbs_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (b->format, ==, ODORI_KBS_FORMAT_KBS);
  g_assert_cmpint (b->encoding, ==, encoding);
  assert_equal_kbs (a, b);
  g_assert_cmpstr (b->joints[ODORI_KINECT_NECK].bone, ==, "首①～");
  g_assert_false (b->joints[ODORI_KINECT_NECK].twist);

  /* writing b again gives the same bytes */
  bytes = save_to_bytes (b, encoding);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), contents, len);
}

static void
test_roundtrip_shift_jis (void)
{
  roundtrip (ODORI_ENCODING_SHIFT_JIS);
}

static void
test_roundtrip_utf8 (void)
{
  roundtrip (ODORI_ENCODING_UTF8);
}

static void
test_save_refuses_control_chars (void)
{
  g_autoptr(OdoriKbs) kbs = odori_kbs_new ();
  g_autofree char *path = g_build_filename (tmp_dir, "ctl.kbs", NULL);
  g_autoptr(GError) error = NULL;

  odori_kbs_set_joint (kbs, ODORI_KINECT_TORSO, "Hips\001", TRUE);
  g_assert_false (odori_kbs_save (kbs, path, ODORI_ENCODING_UTF8, &error));
  g_assert_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* Bad input */

static void
test_bad_external_entity (void)
{
  g_autofree char *secret = write_tmp ("secret.txt", "TOP-SECRET-CONTENT", -1);
  g_autofree char *text = g_strdup_printf (
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE KBS [\n"
    "  <!ENTITY xxe SYSTEM \"file://%s\">\n"
    "]>\n"
    "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>\n"
    "<SKEL_TORSO><RDBBone>&xxe;</RDBBone><twist>1</twist></SKEL_TORSO></KBS>\n", secret);
  g_autofree char *path = write_tmp ("xxe.kbs", text, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) kbs = NULL;
#ifdef __linux__
  int fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  char events[4096];

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (inotify_add_watch (fd, secret, IN_OPEN | IN_ACCESS), >=, 0);
#endif

  kbs = odori_kbs_load (path, NULL, &error);
  g_assert_null (kbs);
  g_assert_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_DTD);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, ":2: "));
  g_assert_null (strstr (error->message, "TOP-SECRET"));
#ifdef __linux__
  /* the file the entity points to was never opened */
  g_assert_cmpint (read (fd, events, sizeof events), <, 0);
  close (fd);
#endif
}

static void
test_bad_billion_laughs (void)
{
  GString *doc = g_string_new ("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
                               "  <!ENTITY lol \"lol\">\n");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) kbs = NULL;
  struct rusage before, after;
  gint64 start;

  for (int i = 1; i <= 9; i++)
    {
      g_string_append_printf (doc, "  <!ENTITY lol%d \"", i);
      for (int k = 0; k < 10; k++)
        {
          if (i == 1)
            g_string_append (doc, "&lol;");
          else
            g_string_append_printf (doc, "&lol%d;", i - 1);
        }
      g_string_append (doc, "\">\n");
    }
  g_string_append (doc, "]>\n<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>"
                        "<SKEL_TORSO><RDBBone>&lol9;</RDBBone></SKEL_TORSO></KBS>\n");
  path = write_tmp ("lol.kbs", doc->str, doc->len);
  g_string_free (doc, TRUE);

  g_assert_cmpint (getrusage (RUSAGE_SELF, &before), ==, 0);
  start = g_get_monotonic_time ();
  kbs = odori_kbs_load (path, NULL, &error);
  g_assert_null (kbs);
  g_assert_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_DTD);
  /* refused at once, and in bounded memory: expanded, &lol9; is a thousand million "lol"s */
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_cmpint (getrusage (RUSAGE_SELF, &after), ==, 0);
  g_assert_cmpint (after.ru_maxrss - before.ru_maxrss, <, 16 * 1024);  /* kB */
}

/* Any DOCTYPE is refused at its line, even one that declares nothing; so is one naming an
 * external DTD, which is never fetched (the skeleton reader refuses the same). */
static void
test_bad_doctype (void)
{
  assert_load_error ("doctype.kbs",
                     "<?xml version=\"1.0\"?>\n<!DOCTYPE KBS>\n"
                     "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo></KBS>\n",
                     ODORI_KBS_ERROR_DTD, "2: ", "a DOCTYPE or entity declaration");
  assert_load_error ("doctype-system.kbs",
                     "<?xml version=\"1.0\"?>\n\n<!DOCTYPE KBS SYSTEM \"no-such.dtd\">\n"
                     "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo></KBS>\n",
                     ODORI_KBS_ERROR_DTD, "3: ", "DOCTYPE");
}

static void
test_bad_wrong_root (void)
{
  assert_load_error ("root.kbs",
                     "<?xml version=\"1.0\"?>\n\n<odori-skeleton version=\"1\">\n</odori-skeleton>\n",
                     ODORI_KBS_ERROR_ROOT, "3: ", "<KBS>");
}

static void
test_bad_missing_file_info (void)
{
  assert_load_error ("nofi.kbs",
                     "<?xml version=\"1.0\"?>\n<KBS>\n"
                     "  <SKEL_TORSO><RDBBone>Hips</RDBBone><twist>1</twist></SKEL_TORSO>\n</KBS>\n",
                     ODORI_KBS_ERROR_FILE_INFO, "2: ", "FileInfo");
}

static void
test_bad_wrong_kind (void)
{
  assert_load_error ("kind.kbs",
                     "<KBS>\n<FileInfo>\n<kind>SkinSettingFile</kind>\n</FileInfo>\n</KBS>\n",
                     ODORI_KBS_ERROR_KIND, "3: ", "SkinSettingFile");
  assert_load_error ("nokind.kbs",
                     "<KBS>\n<FileInfo>\n<version>1001</version>\n</FileInfo>\n</KBS>\n",
                     ODORI_KBS_ERROR_KIND, "2: ", "kind");
}

static void
test_bad_xml (void)
{
  assert_load_error ("broken.kbs",
                     "<KBS>\n<FileInfo>\n<kind>KinectBoneSettingFile</kind>\n</FileInf>\n</KBS>\n",
                     ODORI_KBS_ERROR_XML, "4: ", "not well-formed");
  assert_load_error ("undef.kbs",
                     "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>\n"
                     "<SKEL_TORSO><RDBBone>&nope;</RDBBone></SKEL_TORSO></KBS>\n",
                     ODORI_KBS_ERROR_XML, "2: ", NULL);
}

static void
test_bad_values (void)
{
  assert_load_error ("twist.kbs",
                     "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>\n"
                     "<SKEL_TORSO>\n<RDBBone>Hips</RDBBone>\n<twist>yes</twist>\n</SKEL_TORSO></KBS>\n",
                     ODORI_KBS_ERROR_INVALID, "4: ", "\"yes\"");
  assert_load_error ("dup.kbs",
                     "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>\n"
                     "<SKEL_TORSO><RDBBone>A</RDBBone><twist>1</twist></SKEL_TORSO>\n"
                     "<SKEL_TORSO><RDBBone>B</RDBBone><twist>1</twist></SKEL_TORSO></KBS>\n",
                     ODORI_KBS_ERROR_INVALID, "3: ", "twice");
  /* a bone name that could not be written back (found by fuzzing) */
  assert_load_error ("ctl.kbs",
                     "<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>\n"
                     "<SKEL_TORSO><RDBBone>Hi&#xA;ps</RDBBone></SKEL_TORSO></KBS>\n",
                     ODORI_KBS_ERROR_INVALID, "2: ", "control character");
  assert_load_error ("ctl.kst",
                     "Rps2Qua:ConvSettingFile:ver1001:type01\n01SKEL_TORSO, \"Hi\rps\", \"twist\"\n",
                     ODORI_KBS_ERROR_INVALID, "2: ", "control character");
}

static void
test_bad_too_large (void)
{
  GString *doc = g_string_new ("<KBS><FileInfo><kind>KinectBoneSettingFile</kind></FileInfo>\n");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriKbs) kbs = NULL;

  while (doc->len <= ODORI_KBS_MAX_BYTES)
    g_string_append (doc, "<!-- padding padding padding padding padding padding padding -->\n");
  g_string_append (doc, "</KBS>\n");
  path = write_tmp ("big.kbs", doc->str, doc->len);
  g_string_free (doc, TRUE);
  kbs = odori_kbs_load (path, NULL, &error);
  g_assert_null (kbs);
  g_assert_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_TOO_LARGE);
}

static void
test_bad_kst (void)
{
  assert_load_error ("hdr.kst", "\nConvSettingFile\n00TOP_OF_JOINT, \"a\", \"twist\"\n",
                     ODORI_KBS_ERROR_KST_HEADER, "2: ", "Rps2Qua");
  assert_load_error ("num.kst",
                     "Rps2Qua:ConvSettingFile:ver1001:type01\n\n03SKEL_TORSO, \"a\", \"twist\"\n",
                     ODORI_KBS_ERROR_KST_SYNTAX, "3: ", "01");
  assert_load_error ("quote.kst",
                     "Rps2Qua:ConvSettingFile:ver1001:type01\r\n01SKEL_TORSO, a, \"twist\"\r\n",
                     ODORI_KBS_ERROR_KST_SYNTAX, "2: ", NULL);
  assert_load_error ("word.kst",
                     "Rps2Qua:ConvSettingFile:ver1001:type01\n01SKEL_TORSO, \"a\", \"twisted\"\n",
                     ODORI_KBS_ERROR_INVALID, "2: ", "twisted");
  assert_load_error ("dupk.kst",
                     "Rps2Qua:ConvSettingFile:ver1001:type01\n01SKEL_TORSO, \"a\", \"twist\"\n"
                     "01SKEL_TORSO, \"b\", \"twist\"\n",
                     ODORI_KBS_ERROR_INVALID, "3: ", "line 2");
  assert_load_error ("unk.kst",
                     "Rps2Qua:ConvSettingFile:ver1001:type01\n16SKEL_TAIL, \"a\", \"twist\"\n",
                     ODORI_KBS_ERROR_KST_SYNTAX, "2: ", "SKEL_TAIL");
}

static void
test_cli_info (void)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autofree char *my = odori_test_corpus_file ("kst-rokdebone2/my/ConvSetting3.kst");
  g_autofree char *kbs_path = write_tmp ("cli.kbs", seed_kbs, -1);
  const char *argv_kst[] = { cli, "info", "--json", my, NULL };
  const char *argv_kbs[] = { cli, "info", "--json", kbs_path, NULL };
  const char **argvs[] = { argv_kst, argv_kbs };
  const char *expect_format[] = { "kst", "kbs" };
  const char *expect_top[] = { "原点_X", "ModelRootBone" };

  if (my == NULL)
    return;
  g_assert_nonnull (cli);
  for (guint i = 0; i < G_N_ELEMENTS (argvs); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *root, *joints, *top, *knee;
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) argvs[i], NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
      root = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, expect_format[i]);
      joints = json_object_get_object_member (root, "joints");
      g_assert_cmpuint (json_object_get_size (joints), ==, 16);
      top = json_object_get_object_member (joints, "TOP_OF_JOINT");
      g_assert_cmpstr (json_object_get_string_member (top, "bone"), ==, expect_top[i]);
      g_assert_cmpint (json_object_get_int_member (top, "twist"), ==, 1);
      knee = json_object_get_object_member (joints, "LEFT_KNEE");
      g_assert_cmpint (json_object_get_int_member (knee, "twist"), ==, i == 0 ? 0 : 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-test-kbs-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/kbs/names", test_names);
  g_test_add_func ("/kbs/sniff", test_sniff);
  g_test_add_func ("/kbs/load-seed-example", test_load_seed_example);
  g_test_add_func ("/kbs/any-order-missing", test_any_order_missing);
  g_test_add_func ("/kbs/kst-corpus", test_kst_corpus);
  g_test_add_func ("/kbs/roundtrip-shift-jis", test_roundtrip_shift_jis);
  g_test_add_func ("/kbs/roundtrip-utf8", test_roundtrip_utf8);
  g_test_add_func ("/kbs/save-refuses-control-chars", test_save_refuses_control_chars);
  g_test_add_func ("/kbs/bad/external-entity", test_bad_external_entity);
  g_test_add_func ("/kbs/bad/billion-laughs", test_bad_billion_laughs);
  g_test_add_func ("/kbs/bad/doctype", test_bad_doctype);
  g_test_add_func ("/kbs/bad/wrong-root", test_bad_wrong_root);
  g_test_add_func ("/kbs/bad/missing-file-info", test_bad_missing_file_info);
  g_test_add_func ("/kbs/bad/wrong-kind", test_bad_wrong_kind);
  g_test_add_func ("/kbs/bad/not-well-formed", test_bad_xml);
  g_test_add_func ("/kbs/bad/values", test_bad_values);
  g_test_add_func ("/kbs/bad/too-large", test_bad_too_large);
  g_test_add_func ("/kbs/bad/kst", test_bad_kst);
  g_test_add_func ("/kbs/cli-info", test_cli_info);

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
