/* test-cli.c: odori-cli as a user runs it (a subprocess), on the sample and the corpus
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <sys/stat.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-format.h"
#include "odori-text.h"

#include "test-corpus.h"

static char *tmpdir;
static char *libdir;

/* Runs odori-cli with ENVP (NULL: this process's environment), under `timeout 60` so
 * that a command that never ends fails the test instead of hanging it (exit 124). */
static int
run_valist (char       **out,
            char       **err,
            char       **envp,
            const char  *first,
            va_list      args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("ODORI_CLI");
  int status = 0;

  g_assert_nonnull (cli);
  /* callers reuse their out/err strings from run to run */
  g_clear_pointer (out, g_free);
  g_clear_pointer (err, g_free);
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) "60");
  g_ptr_array_add (argv, (char *) cli);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return -1;
}

static int
run (char       **out,
     char       **err,
     const char  *first,
     ...)
{
  va_list args;
  int status;

  va_start (args, first);
  status = run_valist (out, err, NULL, first, args);
  va_end (args);
  return status;
}

static int
run_env (char       **out,
         char       **err,
         char       **envp,
         const char  *first,
         ...)
{
  va_list args;
  int status;

  va_start (args, first);
  status = run_valist (out, err, envp, first, args);
  va_end (args);
  return status;
}

static char *
lib_file (const char *name)
{
  return g_build_filename (libdir, name, NULL);
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_sample_and_info_json (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *index = lib_file ("motion.dat");
  g_autofree char *score = lib_file ("sample.dds");
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o, *klass, *show, *motion, *part;

  g_assert_cmpint (run (&out, &err, "info", "--json", index, NULL), ==, 0);
  root = parse_json (out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "motion.dat");
  g_assert_cmpstr (json_object_get_string_member (o, "encoding"), ==, "utf-8");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "parts")), ==, 6);
  part = json_array_get_object_element (json_object_get_array_member (o, "parts"), 0);
  g_assert_cmpstr (json_object_get_string_member (part, "code"), ==, "BD");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (part, "map"), 0), ==, "Hips");
  klass = json_array_get_object_element (json_object_get_array_member (o, "classes"), 0);
  show = json_array_get_object_element (json_object_get_array_member (klass, "shows"), 0);
  g_assert_true (json_object_has_member (show, "file"));
  motion = json_array_get_object_element (json_object_get_array_member (show, "motions"), 0);
  g_assert_cmpint (json_object_get_int_member (motion, "first"), >=, 1);
  g_assert_cmpint (json_object_get_int_member (motion, "last"), >, json_object_get_int_member (motion, "first"));
  g_assert_true (json_object_has_member (motion, "exp"));
  g_assert_true (json_object_has_member (o, "warnings"));
  g_clear_pointer (&root, json_node_unref);
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (&out, &err, "info", "--json", score, NULL), ==, 0);
  root = parse_json (out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "dds");
  g_assert_nonnull (strstr (json_object_get_string_member (o, "title"), "春"));
  part = json_array_get_object_element (json_object_get_array_member (o, "parts"), 0);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (part, "symbols"), 0), "start"), ==, 1);
  g_assert_true (json_object_has_member (part, "sensors"));
}

/* info --json reports the skeleton it found for a motion: its source and parents. */
static void
test_info_skeleton (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *show = lib_file ("te.bva");
  g_autoptr(JsonNode) root = NULL;
  JsonObject *sk, *parents;

  g_assert_cmpint (run (&out, &err, "info", "--json", show, NULL), ==, 0);
  root = parse_json (out);
  sk = json_object_get_object_member (json_node_get_object (root), "skeleton");
  g_assert_nonnull (sk);
  g_assert_cmpstr (json_object_get_string_member (sk, "source"), ==, "table");
  g_assert_cmpstr (json_object_get_string_member (sk, "scheme"), ==, "biovision");
  parents = json_object_get_object_member (sk, "parents");
  g_assert_true (json_object_get_null_member (parents, "Hips"));
  g_assert_cmpstr (json_object_get_string_member (parents, "Chest"), ==, "Hips");
  g_assert_cmpstr (json_object_get_string_member (parents, "LeftLowArm"), ==, "LeftUpArm");
}

/* Odori's data is Japanese: JSON is UTF-8 whatever the locale, and text output is UTF-8
 * under an ASCII locale (LANG unset as under env -i, or LC_ALL=C), never "?". */
static void
test_utf8_without_locale (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *index = lib_file ("motion.dat");
  g_autofree char *score = lib_file ("sample.dds");
  g_autofree char *bvh = g_build_filename (tmpdir, "utf8.bvh", NULL);
  char *empty[] = { NULL };
  char *c_locale[] = { (char *) "LC_ALL=C", NULL };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *part;

  g_assert_cmpint (run_env (&out, &err, empty, "info", "--json", index, NULL), ==, 0);
  g_assert_true (g_utf8_validate (out, -1, NULL));
  root = parse_json (out);
  part = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "parts"), 0);
  g_assert_cmpstr (json_object_get_string_member (part, "name"), ==, "胴体 Body");

  g_assert_cmpint (run_env (&out, &err, c_locale, "info", "--json", index, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"胴体 Body\""));

  g_assert_cmpint (run_env (&out, &err, empty, "info", index, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "胴体 Body"));
  g_assert_null (strchr (out, '?'));

  g_assert_cmpint (run_env (&out, &err, c_locale, "compose", score, "--seams", "-o", bvh, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "jump°"));
}

/* A show file that is a FIFO (or a device) is refused at once with a clear message: it
 * never blocks check, compose or info waiting for a writer. */
static void
test_not_regular_files (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *dir = g_build_filename (tmpdir, "fifo-lib", NULL);
  g_autofree char *index = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *score = g_build_filename (dir, "sample.dds", NULL);
  g_autofree char *show = g_build_filename (dir, "te.bva", NULL);
  g_autofree char *bvh = g_build_filename (tmpdir, "fifo.bvh", NULL);

  g_assert_cmpint (run (&out, &err, "sample", dir, NULL), ==, 0);
  g_assert_cmpint (g_unlink (show), ==, 0);
  g_assert_cmpint (mkfifo (show, 0600), ==, 0);

  g_assert_cmpint (run (&out, &err, "check", index, score, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "te.bva: a pipe (FIFO), not a regular file"));
  g_assert_nonnull (strstr (err, "motion.dat:"));
  g_assert_null (strstr (err, "CRITICAL"));

  g_assert_cmpint (run (&out, &err, "compose", score, "-o", bvh, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "te.bva: a pipe (FIFO), not a regular file"));
  g_assert_null (strstr (err, "CRITICAL"));

  g_assert_cmpint (run (&out, &err, "info", show, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "not a regular file"));
  g_assert_cmpint (run (&out, &err, "info", "/dev/null", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "/dev/null: not a regular file"));
  g_assert_cmpint (run (&out, &err, "info", dir, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "a folder, not a file"));
}

static void
test_info_corpus (void)
{
  g_autofree char *vpm = odori_test_corpus_file ("bva-motionx/08_01.vpm");
  g_autofree char *bvh = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *files;
  JsonObject *a, *b;

  if (vpm == NULL)
    return;
  bvh = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  if (bvh == NULL)
    return;
  g_assert_cmpint (run (&out, &err, "info", "--json", vpm, bvh, NULL), ==, 0);
  root = parse_json (out);
  files = json_node_get_array (root);
  g_assert_cmpuint (json_array_get_length (files), ==, 2);
  a = json_array_get_object_element (files, 0);
  b = json_array_get_object_element (files, 1);
  g_assert_cmpstr (json_object_get_string_member (a, "format"), ==, "bva");
  g_assert_cmpint (json_object_get_int_member (a, "frames"), ==, 277);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (a, "segments")), ==, 41);
  g_assert_cmpstr (json_object_get_string_member (b, "format"), ==, "bvh");
  g_assert_cmpint (json_object_get_int_member (b, "frames"), ==, 994);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (b, "frame_time"), 0.0083333, 1e-9);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (b, "segments"), 0), ==, "Hips");
}

/* A BVA of two segments, FRAMES frames each, the second named NAME: with enough frames
 * the second header comes after the 64 KiB that tell BVA and BVH from the rest. */
static GString *
two_segment_bva (const char *bom,
                 const char *name,
                 guint       frames)
{
  GString *s = g_string_new (bom);

  for (guint seg = 0; seg < 2; seg++)
    {
      g_string_append_printf (s, "Segment: %s\nFrames: %u\nFrame Time: 0.033333\n",
                              seg == 0 ? "Hips" : name, frames);
      g_string_append (s, "XTRAN\tYTRAN\tZTRAN\tXROT\tYROT\tZROT\tXSCALE\tYSCALE\tZSCALE\n"
                          "INCHES\tINCHES\tINCHES\tDEGREES\tDEGREES\tDEGREES\tPERCENT\tPERCENT\tPERCENT\n");
      for (guint f = 0; f < frames; f++)
        g_string_append_printf (s, "%u.5\t2.25\t-3\t10\t20\t30\t100\t100\t100\n", f % 100);
    }
  return s;
}

static JsonObject *
info_json (const char *path,
           JsonNode  **root)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run (&out, &err, "info", "--json", path, NULL), ==, 0);
  *root = parse_json (out);
  return json_node_get_object (*root);
}

/* info reads BVA and BVH through the streamed loader (not the whole file mapped): the
 * encoding it reports is still the file's, also when the part that is not UTF-8 comes
 * after the start the format is told from (the loader then reads the file whole), and
 * its messages are the whole-file reader's. */
static void
test_info_streamed_encoding (void)
{
  static const char sjis_name[] = "\x83\x5A\x83\x4F"; /* セグ in Shift_JIS */
  struct
  {
    const char *file;
    const char *bom;
    const char *name;
    const char *encoding;
  } cases[] = {
    { "plain.bva", "", "Chest", "utf-8" },
    { "bom.bva", "\xEF\xBB\xBF", "Chest", "utf-8-bom" },
    { "late-sjis.bva", "", sjis_name, "shift_jis" },
  };
  g_autofree char *out = NULL, *err = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) text = two_segment_bva (cases[i].bom, cases[i].name, 2000);
      g_autofree char *path = g_build_filename (tmpdir, cases[i].file, NULL);
      g_autoptr(JsonNode) root = NULL;
      JsonObject *o;
      JsonArray  *segments;

      g_assert_cmpuint (text->len, >, 65536 * 2);
      g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
      o = info_json (path, &root);
      g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "bva");
      g_assert_cmpstr (json_object_get_string_member (o, "encoding"), ==, cases[i].encoding);
      g_assert_cmpint (json_object_get_int_member (o, "frames"), ==, 2000);
      segments = json_object_get_array_member (o, "segments");
      g_assert_cmpuint (json_array_get_length (segments), ==, 2);
      if (i == 2)
        g_assert_cmpstr (json_array_get_string_element (segments, 1), ==, "セグ");

      g_assert_cmpint (run (&out, &err, "info", path, NULL), ==, 0);
      g_assert_nonnull (strstr (out, cases[i].encoding));
      g_assert_nonnull (strstr (out, "2000 frames"));
    }

  /* an error deep in a streamed file: the whole-file reader's message, line included */
  {
    g_autoptr(GString) text = two_segment_bva ("", "Chest", 2000);
    g_autofree char *path = g_build_filename (tmpdir, "bad.bva", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(OdoriTextFile) file = NULL;
    g_autoptr(OdoriMotion) motion = NULL;
    char *at = strstr (text->str + text->len / 2 + 4000, "\n") + 1;

    memcpy (at, "x.5", 3);
    g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
    file = odori_text_file_open (path, &error);
    g_assert_no_error (error);
    motion = odori_bva_load_text (file, NULL, &error);
    g_assert_null (motion);
    g_assert_nonnull (error);
    g_assert_cmpint (run (&out, &err, "info", path, NULL), ==, 1);
    g_assert_true (g_str_has_prefix (err, error->message));
    g_assert_cmpstr (err + strlen (error->message), ==, "\n");
  }
}

static void
test_check (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *index = lib_file ("motion.dat");
  g_autofree char *score = lib_file ("sample.dds");
  g_autofree char *bad_score = g_build_filename (tmpdir, "bad.dds", NULL);
  g_autofree char *want = NULL;

  g_assert_cmpint (run (&out, &err, "check", index, score, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "OK"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* an unknown symbol on line 3 */
  g_assert_true (g_file_set_contents (bad_score, "# Title: x\nBD: Hips,Chest,Neck\n1: NOPE\n", -1, NULL));
  g_assert_cmpint (run (&out, &err, "check", index, bad_score, NULL), ==, 1);
  want = g_strdup_printf ("%s:3:", bad_score);
  g_assert_nonnull (strstr (err, want));
  g_assert_nonnull (strstr (err, "NOPE"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run (&out, &err, "check", "--json", index, bad_score, NULL), ==, 1);
  {
    g_autoptr(JsonNode) root = parse_json (out);
    JsonObject *o = json_node_get_object (root);
    JsonObject *d = json_array_get_object_element (json_object_get_array_member (o, "diagnostics"), 0);

    g_assert_false (json_object_get_boolean_member (o, "ok"));
    g_assert_cmpint (json_object_get_int_member (d, "line"), ==, 3);
    g_assert_cmpstr (json_object_get_string_member (d, "severity"), ==, "error");
  }
}

static void
test_usage_errors (void)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run (&out, &err, NULL, NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, &err, "frobnicate", NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, &err, "info", NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, &err, "convert", "x.bva", "-o", "y.txt", NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (&out, &err, "compose", "--root-match", "sideways", "x.dds", "-o", "y.bva", NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  for (guint i = 0; i < 5; i++)
    {
      const char *cmds[] = { "info", "check", "convert", "compose", "sample" };

      g_assert_cmpint (run (&out, &err, cmds[i], "--help", NULL), ==, 0);
      g_assert_nonnull (strstr (out, cmds[i]));
      g_clear_pointer (&err, g_free);
      g_clear_pointer (&out, g_free);
    }
  g_assert_cmpint (run (&out, &err, "info", "/nonexistent/x.bva", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/x.bva"));
}

/* convert: the corpus BVH to BVA and back to BVH, re-read to the same motion */
static void
test_convert (void)
{
  g_autofree char *bvh = odori_test_corpus_file ("bvh-cmu-131/131_01.bvh");
  g_autofree char *vpm = NULL;
  g_autofree char *out_bva = g_build_filename (tmpdir, "walk.bva", NULL);
  g_autofree char *out_bvh = g_build_filename (tmpdir, "walk.bvh", NULL);
  g_autofree char *out_vpm = g_build_filename (tmpdir, "one.bva", NULL);
  g_autofree char *out = NULL, *err = NULL, *why = NULL;
  g_autoptr(OdoriMotion) src = NULL, a = NULL, b = NULL, c = NULL, d = NULL;

  if (bvh == NULL)
    return;
  vpm = odori_test_corpus_file ("bva-motionx/OneSegment.vpm");
  if (vpm == NULL)
    return;
  g_assert_cmpint (run (&out, &err, "convert", bvh, "-o", out_bva, NULL), ==, 0);
  g_assert_cmpint (run (&out, &err, "convert", bvh, "-o", out_bvh, NULL), ==, 0);
  src = odori_format_load_motion (bvh, NULL, NULL);
  a = odori_format_load_motion (out_bva, NULL, NULL);
  b = odori_format_load_motion (out_bvh, NULL, NULL);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  /* BVA carries scale in percent; compare positions and rotations */
  for (guint f = 0; f < a->n_frames * a->n_segments; f++)
    for (int k = 0; k < 3; k++)
      a->transforms[f].scale[k] /= 100.0f;
  if (!odori_motion_equal (src, a, 1e-3, 1e-2, &why))
    g_error ("BVH → BVA differs: %s", why);
  if (!odori_motion_equal (src, b, 1e-3, 1e-2, &why))
    g_error ("BVH → BVH differs: %s", why);

  g_assert_cmpint (run (&out, &err, "convert", vpm, "-o", out_vpm, NULL), ==, 0);
  c = odori_format_load_motion (vpm, NULL, NULL);
  d = odori_format_load_motion (out_vpm, NULL, NULL);
  if (!odori_motion_equal (c, d, 1e-4, 1e-3, &why))
    g_error ("VPM → BVA differs: %s", why);
}

/* compose: the sample score to BVA and BVH; both re-read to the same motion; an error
 * leaves the previous output untouched */
static void
test_compose (void)
{
  g_autofree char *score = lib_file ("sample.dds");
  g_autofree char *out_bva = g_build_filename (tmpdir, "dance.bva", NULL);
  g_autofree char *out_bvh = g_build_filename (tmpdir, "dance.bvh", NULL);
  g_autofree char *bad_score = g_build_filename (libdir, "bad.dds", NULL);
  g_autofree char *out = NULL, *err = NULL, *why = NULL, *before = NULL, *after = NULL;
  g_autoptr(OdoriMotion) a = NULL, b = NULL;

  g_assert_cmpint (run (&out, &err, "compose", score, "--seams", "--json", "-o", out_bva, NULL), ==, 0);
  {
    g_autoptr(JsonNode) root = parse_json (out);
    JsonArray *seams = json_object_get_array_member (json_node_get_object (root), "seams");
    JsonObject *seam;

    g_assert_cmpuint (json_array_get_length (seams), >, 5);
    seam = json_array_get_object_element (seams, 0);
    g_assert_true (json_object_has_member (seam, "part"));
    g_assert_true (json_object_has_member (seam, "jump_deg"));
    g_assert_true (json_object_has_member (seam, "clip_max_deg"));
    g_assert_cmpint (json_object_get_int_member (seam, "frame"), >, 1);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&out, &err, "compose", score, "-o", out_bvh, NULL), ==, 0);
  a = odori_format_load_motion (out_bva, NULL, NULL);
  b = odori_format_load_motion (out_bvh, NULL, NULL);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpuint (a->n_segments, ==, 18);
  for (guint f = 0; f < b->n_frames * b->n_segments; f++)
    for (int k = 0; k < 3; k++)
      b->transforms[f].scale[k] *= 100.0f;
  /* BVH offsets are fixed; inside a blend, BVA positions are lerped (as the rules say),
   * which shortens a bone by a few hundredths of an inch for a frame or two. */
  if (!odori_motion_equal (a, b, 0.1, 0.05, &why))
    g_error ("BVA and BVH of the composed sample differ: %s", why);
  g_assert_true (g_file_get_contents (out_bvh, &before, NULL, NULL));
  g_assert_nonnull (strstr (before, "End Site"));

  /* an error writes nothing */
  g_assert_true (g_file_set_contents (bad_score, "# Index: motion.dat\nBD: Hips,Chest,Neck\n1: S1\n40: NOPE\n", -1, NULL));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&out, &err, "compose", bad_score, "-o", out_bvh, NULL), ==, 1);
  g_assert_nonnull (strstr (err, ":4:"));
  g_assert_true (g_file_get_contents (out_bvh, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *out = NULL, *err = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("odori-cli-XXXXXX", NULL);
  libdir = g_build_filename (tmpdir, "lib", NULL);
  if (run (&out, &err, "sample", libdir, NULL) != 0)
    g_error ("odori-cli sample failed: %s", err);

  g_test_add_func ("/cli/info/sample-json", test_sample_and_info_json);
  g_test_add_func ("/cli/info/corpus", test_info_corpus);
  g_test_add_func ("/cli/utf8-without-locale", test_utf8_without_locale);
  g_test_add_func ("/cli/info/skeleton", test_info_skeleton);
  g_test_add_func ("/cli/info/streamed-encoding", test_info_streamed_encoding);
  g_test_add_func ("/cli/not-regular-files", test_not_regular_files);
  g_test_add_func ("/cli/check", test_check);
  g_test_add_func ("/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/cli/convert", test_convert);
  g_test_add_func ("/cli/compose", test_compose);

  ret = g_test_run ();
  g_free (libdir);
  g_free (tmpdir);
  return ret;
}
