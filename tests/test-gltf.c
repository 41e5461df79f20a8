/* test-gltf.c: the glTF binary export (src/share/odori-gltf.c): the file's structure as
 * the specification asks, the atomic write, and the file as the Khronos validator and
 * three.js read it (tests/gltf/check-gltf.mjs, on the sample and on the corpus)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* memmem */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <json-glib/json-glib.h>

#include "odori-bva.h"
#include "odori-format.h"
#include "odori-gltf.h"
#include "odori-library-import.h"
#include "odori-share.h"
#include "odori-skeleton.h"
#include "odori-types.h"
#include "test-corpus.h"

static char *tmpdir;
static char *libdir;

static int
run_cli (char      **err,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("ODORI_CLI");
  va_list     args;
  int         status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) "timeout");
  g_ptr_array_add (argv, (char *) "300");
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* The composed sample as a .glb (odori-cli compose) and its motion (through a BVA of the
 * same composition). */
static OdoriMotion *
compose_sample (const char *glb)
{
  g_autofree char *score = g_build_filename (libdir, "sample.dds", NULL);
  g_autofree char *bva = g_build_filename (tmpdir, "sample.bva", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion;

  if (run_cli (&err, "compose", score, "-o", glb, NULL) != 0)
    g_error ("odori-cli compose -o %s: %s", glb, err);
  g_clear_pointer (&err, g_free);
  if (run_cli (&err, "compose", score, "-o", bva, NULL) != 0)
    g_error ("odori-cli compose -o %s: %s", bva, err);
  motion = odori_bva_load (bva, NULL, &error);
  g_assert_no_error (error);
  return motion;
}

/* The GLB */

typedef struct
{
  GBytes       *bytes;
  JsonParser   *parser;
  JsonObject   *root;
  const guint8 *bin;
  gsize         bin_length;
} Glb;

static void
glb_clear (Glb *g)
{
  g_clear_object (&g->parser);
  g_clear_pointer (&g->bytes, g_bytes_unref);
}

static guint32
le32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32) p[3] << 24);
}

/* Reads PATH, asserting the GLB container: header, two chunks, lengths and alignment. */
static void
glb_read (Glb        *g,
          const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  const guint8    *p;
  gsize            len;
  guint32          json_len, bin_len;

  memset (g, 0, sizeof *g);
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  g->bytes = g_bytes_new_take (g_steal_pointer (&data), len);
  p = g_bytes_get_data (g->bytes, &len);
  g_assert_cmpuint (len, >=, 28);
  g_assert_cmpmem (p, 4, "glTF", 4);
  g_assert_cmpuint (le32 (p + 4), ==, 2);
  g_assert_cmpuint (le32 (p + 8), ==, len);
  json_len = le32 (p + 12);
  g_assert_cmpuint (le32 (p + 16), ==, 0x4E4F534A);
  g_assert_cmpuint (json_len % 4, ==, 0);
  g_assert_cmpuint (20 + json_len + 8, <=, len);
  bin_len = le32 (p + 20 + json_len);
  g_assert_cmpuint (le32 (p + 24 + json_len), ==, 0x004E4942);
  g_assert_cmpuint (bin_len % 4, ==, 0);
  g_assert_cmpuint (28 + json_len + bin_len, ==, len);
  g->bin = p + 28 + json_len;
  g->bin_length = bin_len;
  g->parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (g->parser, (const char *) p + 20, json_len, &error));
  g_assert_no_error (error);
  g->root = json_node_get_object (json_parser_get_root (g->parser));
}

static JsonObject *
array_object (JsonObject *o,
              const char *member,
              guint       i)
{
  JsonArray *a = json_object_get_array_member (o, member);

  g_assert_cmpuint (i, <, json_array_get_length (a));
  return json_array_get_object_element (a, i);
}

/* Accessor I's first element, asserting its view lies in the buffer, 4-byte aligned. */
static const guint8 *
accessor_data (Glb   *g,
               guint  i,
               guint *count)
{
  JsonObject *acc = array_object (g->root, "accessors", i);
  JsonObject *view = array_object (g->root, "bufferViews", json_object_get_int_member (acc, "bufferView"));
  gint64      offset = json_object_get_int_member (view, "byteOffset");
  gint64      length = json_object_get_int_member (view, "byteLength");

  g_assert_cmpint (offset % 4, ==, 0);
  g_assert_cmpint (offset + length, <=, g->bin_length);
  *count = json_object_get_int_member (acc, "count");
  g_assert_cmpuint (*count, >, 0);
  return g->bin + offset;
}

static float
f32 (const guint8 *p)
{
  guint32 w = le32 (p);
  float   f;

  memcpy (&f, &w, 4);
  return f;
}

/* Everything the specification asks of MOTION's file at PATH that can be checked here. */
static void
check_structure (const char        *path,
                 const OdoriMotion *motion)
{
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  Glb              g;
  JsonObject      *asset, *prim, *attrs, *skin, *anim, *time_acc;
  JsonArray       *samplers, *joints;
  const guint8    *d;
  guint            n, n_vertices, time_index;
  g_autofree char *generator = g_strdup_printf ("Odori %s", PACKAGE_VERSION);

  glb_read (&g, path);
  asset = json_object_get_object_member (g.root, "asset");
  g_assert_cmpstr (json_object_get_string_member (asset, "version"), ==, "2.0");
  g_assert_cmpstr (json_object_get_string_member (asset, "generator"), ==, generator);
  g_assert_nonnull (strstr (json_object_get_string_member (
                                json_object_get_object_member (json_object_get_object_member (asset, "extras"), "odori"),
                                "bulges"),
                            "left out"));
  g_assert_cmpuint (json_object_get_int_member (array_object (g.root, "buffers", 0), "byteLength"), ==, g.bin_length);

  /* one node per bone, named as the bones, and the mesh's node */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (g.root, "nodes")), ==, skeleton->n_bones + 1);
  for (guint b = 0; b < skeleton->n_bones; b++)
    g_assert_cmpstr (json_object_get_string_member (array_object (g.root, "nodes", b), "name"), ==, skeleton->bones[b].name);

  /* the skin: every bone a joint, an inverse bind matrix each */
  skin = array_object (g.root, "skins", 0);
  joints = json_object_get_array_member (skin, "joints");
  g_assert_cmpuint (json_array_get_length (joints), ==, skeleton->n_bones);
  d = accessor_data (&g, json_object_get_int_member (skin, "inverseBindMatrices"), &n);
  g_assert_cmpuint (n, ==, skeleton->n_bones);
  for (guint b = 0; b < n; b++)
    {
      g_assert_cmpfloat (f32 (d + b * 64 + 12), ==, 0);
      g_assert_cmpfloat (f32 (d + b * 64 + 60), ==, 1);
    }

  /* the mesh: positions within their min/max, weights summing to 1 on a valid joint */
  prim = array_object (array_object (g.root, "meshes", 0), "primitives", 0);
  attrs = json_object_get_object_member (prim, "attributes");
  d = accessor_data (&g, json_object_get_int_member (attrs, "POSITION"), &n_vertices);
  {
    JsonObject *acc = array_object (g.root, "accessors", json_object_get_int_member (attrs, "POSITION"));
    JsonArray  *min = json_object_get_array_member (acc, "min"), *max = json_object_get_array_member (acc, "max");

    for (guint v = 0; v < n_vertices; v++)
      for (guint i = 0; i < 3; i++)
        {
          float x = f32 (d + v * 12 + i * 4);

          g_assert_cmpfloat (x, >=, (float) json_array_get_double_element (min, i));
          g_assert_cmpfloat (x, <=, (float) json_array_get_double_element (max, i));
        }
  }
  {
    const guint8 *jd = accessor_data (&g, json_object_get_int_member (attrs, "JOINTS_0"), &n);
    const guint8 *wd;

    g_assert_cmpuint (n, ==, n_vertices);
    wd = accessor_data (&g, json_object_get_int_member (attrs, "WEIGHTS_0"), &n);
    g_assert_cmpuint (n, ==, n_vertices);
    for (guint v = 0; v < n_vertices; v++)
      {
        float sum = 0;

        for (guint i = 0; i < 4; i++)
          sum += f32 (wd + v * 16 + i * 4);
        g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-6);
        g_assert_cmpuint (jd[v * 8] | (jd[v * 8 + 1] << 8), <, skeleton->n_bones);
      }
    d = accessor_data (&g, json_object_get_int_member (prim, "indices"), &n);
    g_assert_cmpuint (n % 3, ==, 0);
    for (guint i = 0; i < n; i++)
      g_assert_cmpuint (le32 (d + i * 4), <, n_vertices);
  }

  /* one animation, one shared time accessor: frame i at i · frame time */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (g.root, "animations")), ==, 1);
  anim = array_object (g.root, "animations", 0);
  samplers = json_object_get_array_member (anim, "samplers");
  time_index = json_object_get_int_member (json_array_get_object_element (samplers, 0), "input");
  time_acc = array_object (g.root, "accessors", time_index);
  g_assert_true (json_object_has_member (time_acc, "min") && json_object_has_member (time_acc, "max"));
  d = accessor_data (&g, time_index, &n);
  g_assert_cmpuint (n, ==, motion->n_frames);
  for (guint f = 0; f < n; f++)
    g_assert_cmpfloat_with_epsilon (f32 (d + f * 4), f * motion->frame_time, 1e-4);
  for (guint s = 0; s < json_array_get_length (samplers); s++)
    {
      JsonObject *sampler = json_array_get_object_element (samplers, s);
      JsonObject *channel = array_object (anim, "channels", s);
      const char *what = json_object_get_string_member (json_object_get_object_member (channel, "target"), "path");

      g_assert_cmpuint (json_object_get_int_member (sampler, "input"), ==, time_index);
      d = accessor_data (&g, json_object_get_int_member (sampler, "output"), &n);
      g_assert_cmpuint (n, ==, motion->n_frames);
      if (g_str_equal (what, "rotation"))
        for (guint f = 0; f < n; f++)
          {
            double norm = 0;

            for (guint i = 0; i < 4; i++)
              norm += (double) f32 (d + f * 16 + i * 4) * f32 (d + f * 16 + i * 4);
            g_assert_cmpfloat_with_epsilon (sqrt (norm), 1.0, 1e-5);
          }
      else
        g_assert_cmpstr (what, ==, "translation");
    }
  g_assert_cmpuint (json_array_get_length (samplers), >=, skeleton->n_bones);
  glb_clear (&g);
}

static void
test_structure_sample (void)
{
  g_autofree char *glb = g_build_filename (tmpdir, "sample.glb", NULL);
  g_autoptr(OdoriMotion) motion = compose_sample (glb);
  gboolean guessed = TRUE;

  check_structure (glb, motion);
  /* a composed dance is in inches */
  g_assert_cmpfloat (odori_gltf_metres_per_unit (motion, ODORI_UP_AUTO, &guessed), ==, 0.0254);
  g_assert_false (guessed);
}

/* A motion of three segments named in Japanese, its hips moving. */
static OdoriMotion *
japanese_motion (void)
{
  static const char *names[] = { "腰", "胸", "頭" };
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (3, 20, 1 / 30.0, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < 3; s++)
    odori_motion_set_segment_name (motion, s, names[s]);
  for (guint f = 0; f < 20; f++)
    for (guint s = 0; s < 3; s++)
      {
        OdoriTransform *t = odori_motion_get (motion, f, s);

        t->position[0] = f * 0.5f;
        t->position[1] = 36.f + s * 10.f;
        glm_quat (t->rotation, f * 0.02f, 0, 1, 0);
      }
  return motion;
}

static void
test_japanese_names (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "舞踊.glb", NULL);
  g_autoptr(OdoriMotion) motion = japanese_motion ();
  g_autoptr(OdoriGltfExport) gltf = odori_gltf_export_new (motion, path);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize            len;

  g_assert_true (odori_gltf_export_run (gltf, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (odori_gltf_export_get_fraction (gltf), ==, 1);
  check_structure (path, motion);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* the names as UTF-8 in the JSON, not escaped */
  g_assert_nonnull (memmem (data, len, "\"name\":\"腰\"", strlen ("\"name\":\"腰\"")));
}

/* The directory holds exactly one entry. */
static void
assert_only_file (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  g_assert_cmpuint (n, ==, 1);
}

static void
async_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GError **error = user_data;

  odori_gltf_export_run_finish (ODORI_GLTF_EXPORT (source), result, error);
  if (*error == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "finished");
}

static void
test_atomic (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "atomic", NULL);
  g_autofree char *path = g_build_filename (dir, "dance.glb", NULL);
  g_autoptr(OdoriMotion) motion = japanese_motion ();
  g_autoptr(OdoriMotion) bad = odori_motion_copy (motion);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "old", -1, NULL));

  /* cancelled, in the thread as the window runs it */
  {
    g_autoptr(OdoriGltfExport) gltf = odori_gltf_export_new (motion, path);

    g_cancellable_cancel (cancellable);
    odori_gltf_export_run_async (gltf, cancellable, async_done_cb, &error);
    while (error == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }
  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  g_assert_cmpstr (data, ==, "old");
  g_clear_pointer (&data, g_free);
  assert_only_file (dir);

  /* an error: no frame time */
  {
    g_autoptr(OdoriGltfExport) gltf = odori_gltf_export_new (bad, path);

    bad->frame_time = 0;
    g_assert_false (odori_gltf_export_run (gltf, NULL, &error));
    g_assert_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, path));
    g_clear_error (&error);
  }
  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  g_assert_cmpstr (data, ==, "old");
  g_clear_pointer (&data, g_free);
  assert_only_file (dir);

  /* and when it works, in the thread, it replaces the file */
  {
    g_autoptr(OdoriGltfExport) gltf = odori_gltf_export_new (motion, path);

    odori_gltf_export_run_async (gltf, NULL, async_done_cb, &error);
    while (error == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
    g_clear_error (&error);
    g_assert_cmpfloat (odori_gltf_export_get_fraction (gltf), ==, 1);
  }
  check_structure (path, motion);
  assert_only_file (dir);
}

/* three.js and the validator (tests/gltf/check-gltf.mjs) */

/* Odori's joint world positions at the first, middle and last frame, in metres with +Y
 * up as Odori draws them (the up axis guessed from the head and feet), into PATH. */
static void
write_expected (const OdoriMotion *source,
                const char        *path)
{
  OdoriUpAxis up = odori_motion_guess_up (source);
  g_autoptr(OdoriMotion) motion = odori_motion_copy (source);
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (source);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  double k = odori_gltf_metres_per_unit (source, up, NULL);
  guint  frames[3] = { 0, motion->n_frames / 2, motion->n_frames - 1 };
  float  lo = G_MAXFLOAT, hi = -G_MAXFLOAT;

  odori_motion_orient_up (motion, up);
  for (guint f = 0; f < motion->n_frames; f++)
    for (guint n = 0; n < skeleton->n_bones; n++)
      {
        int s = odori_motion_find_segment (motion, skeleton->bones[n].name);

        if (s >= 0)
          {
            lo = MIN (lo, odori_motion_get (motion, f, s)->position[1] * k);
            hi = MAX (hi, odori_motion_get (motion, f, s)->position[1] * k);
          }
      }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "frame_time");
  json_builder_add_double_value (b, motion->frame_time);
  json_builder_set_member_name (b, "height");
  json_builder_add_double_value (b, MAX (hi - lo, 1e-3));
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint i = 0; i < 3; i++)
    json_builder_add_int_value (b, frames[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "joints");
  json_builder_begin_object (b);
  for (guint b2 = 0; b2 < skeleton->n_bones; b2++)
    {
      int s = odori_motion_find_segment (motion, skeleton->bones[b2].name);

      if (s < 0)
        continue;
      json_builder_set_member_name (b, skeleton->bones[b2].name);
      json_builder_begin_array (b);
      for (guint i = 0; i < 3; i++)
        {
          json_builder_begin_array (b);
          for (guint c = 0; c < 3; c++)
            json_builder_add_double_value (b, odori_motion_get (motion, frames[i], s)->position[c] * k);
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  g_assert_true (json_generator_to_file (gen, path, &error));
  g_assert_no_error (error);
}

/* Where build-aux/test installed the npm packages: $ODORI_TEST_NODE, else the user's
 * cache (odori-test/node). NULL (the test skipped or, under ODORI_CORPUS_REQUIRED=1,
 * failed) when node or the packages are missing. */
static char *
node_packages (void)
{
  const char      *env = g_getenv ("ODORI_TEST_NODE");
  g_autofree char *dir = env != NULL && env[0] != '\0' ? g_strdup (env)
                                                       : g_build_filename (g_get_user_cache_dir (), "odori-test", "node", NULL);
  g_autofree char *validator = g_build_filename (dir, "node_modules", "gltf-validator", "package.json", NULL);
  g_autofree char *three = g_build_filename (dir, "node_modules", "three", "package.json", NULL);
  g_autofree char *node = g_find_program_in_path ("node");

  if (node != NULL && g_file_test (validator, G_FILE_TEST_EXISTS) && g_file_test (three, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&dir);
  if (odori_test_corpus_required ())
    g_test_fail_printf ("needs node and the npm packages gltf-validator and three in %s "
                        "(build-aux/test installs them; ODORI_CORPUS_REQUIRED=1)",
                        dir);
  else
    g_test_skip_printf ("needs node and the npm packages gltf-validator and three in %s "
                        "(build-aux/test installs them)",
                        dir);
  return NULL;
}

/* Runs check-gltf.mjs on GLB against MOTION; its output goes to the test's log. */
static void
check_with_three (const char        *packages,
                  const char        *glb,
                  const OdoriMotion *motion)
{
  g_autofree char *expected = g_strconcat (glb, ".expected.json", NULL);
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "gltf", "check-gltf.mjs", NULL);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "ODORI_TEST_NODE", packages, TRUE);
  const char *argv[] = { "node", script, glb, expected, NULL };
  int         status = 0;

  write_expected (motion, expected);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s:\n%s", glb, out);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("check-gltf.mjs %s:\n%s", glb, out);
}

static void
test_three_sample (void)
{
  g_autofree char *packages = node_packages ();
  g_autofree char *glb = g_build_filename (tmpdir, "three-sample.glb", NULL);
  g_autoptr(OdoriMotion) motion = NULL;

  if (packages == NULL)
    return;
  motion = compose_sample (glb);
  check_with_three (packages, glb, motion);
}

static const char *corpus_files[] = {
  "bva-motionx/OneSegment.vpm",
  "bva-motionx/08_01.vpm",
  "bvh-cmu-131/131_01.bvh",
  "bvh-cmu-salsa/60_10_scaled.bvh",
  "bvh-cmu-salsa/61_10_scaled.bvh",
  "bvh-fair-zup/zombie.bvh",
  "bvh-cmu-cgspeed/12_03.bvh",
  "bvh-rokoko/jesse_dance.bvh",
};

static void
test_three_corpus (gconstpointer data)
{
  const char      *relative = data;
  g_autofree char *source = odori_test_corpus_file (relative);
  g_autofree char *packages = NULL;
  g_autofree char *base = NULL;
  g_autofree char *glb = NULL;
  g_autofree char *err = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;

  if (source == NULL)
    return;
  packages = node_packages ();
  if (packages == NULL)
    return;
  base = g_path_get_basename (relative);
  glb = g_strdup_printf ("%s/%s.glb", tmpdir, base);
  if (run_cli (&err, "convert", source, "-o", glb, NULL) != 0)
    g_error ("odori-cli convert %s -o %s: %s", source, glb, err);
  motion = odori_format_load_motion (source, NULL, &error);
  g_assert_no_error (error);
  check_structure (glb, motion);
  check_with_three (packages, glb, motion);
}

/* The unit of a BVH, which states none, is guessed from the figure's height. */
static void
test_units_guessed (void)
{
  struct
  {
    const char *file;
    double      metres;
  } cases[] = {
    { "bvh-cmu-salsa/60_10_scaled.bvh", 1.0 },
    { "bvh-rokoko/jesse_dance.bvh", 0.01 },
    { "bvh-cmu-131/131_01.bvh", 0.0254 / 0.45 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = odori_test_corpus_file (cases[i].file);
      g_autoptr(OdoriMotion) motion = NULL;
      g_autoptr(GError) error = NULL;
      gboolean guessed = FALSE;

      if (path == NULL)
        return;
      motion = odori_format_load_motion (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (odori_gltf_metres_per_unit (motion, ODORI_UP_AUTO, &guessed),
                                      cases[i].metres, 1e-9);
      g_assert_true (guessed);
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *err = NULL;
  int              ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("odori-gltf-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  libdir = g_build_filename (tmpdir, "lib", NULL);
  if (run_cli (&err, "sample", libdir, NULL) != 0)
    g_error ("odori-cli sample failed: %s", err);

  g_test_add_func ("/gltf/structure/sample", test_structure_sample);
  g_test_add_func ("/gltf/structure/japanese-names", test_japanese_names);
  g_test_add_func ("/gltf/atomic", test_atomic);
  g_test_add_func ("/gltf/units-guessed", test_units_guessed);
  g_test_add_func ("/gltf/three/sample", test_three_sample);
  for (guint i = 0; i < G_N_ELEMENTS (corpus_files); i++)
    {
      g_autofree char *name = g_strdup_printf ("/gltf/three/corpus/%s", corpus_files[i]);

      g_test_add_data_func (name, corpus_files[i], test_three_corpus);
    }
  ret = g_test_run ();
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    if (system (cmd) != 0)
      g_printerr ("could not remove %s\n", tmpdir);
  }
  return ret;
}
