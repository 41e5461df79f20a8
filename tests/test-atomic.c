/* test-atomic.c: a save that fails midway leaves the previous file byte-identical
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every writer saves over an existing file while its write fails:
 * - injected: the output stream errors (ENOSPC) after N bytes, for several N, through
 *   odori_output_set_fail_after() on an output, or odori_output_set_test_fail_after()
 *   (odori-text-private.h) for the writers that only expose *_save (path);
 * - a real full filesystem: a small tmpfs mounted in a private mount namespace of a
 *   subprocess (root, or an unprivileged user namespace); if the system allows neither,
 *   that case is skipped with the reason;
 * - a real kernel write error midway: RLIMIT_FSIZE in a subprocess (EFBIG at N bytes).
 * Each time: the save returns FALSE with ODORI_TEXT_ERROR_IO naming the target, the
 * previous file is byte-identical, and no temporary file is left in the directory.
 */
#define _GNU_SOURCE /* unshare */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "odori-bulge.h"
#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-index.h"
#include "odori-kbs.h"
#include "odori-score.h"
#include "odori-skeleton.h"
#include "odori-text-private.h"

static char *tmp_dir;

/* Models to save: an "old" one written first, a "new" one whose save fails */

static OdoriMotion *
make_motion (guint n_frames,
             float shift)
{
  static const char *names[] = { "Hips", "Chest", "Neck", "Head", "LeftUpArm", "RightUpArm" };
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = odori_motion_new (G_N_ELEMENTS (names), n_frames, 1.0 / 30, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < G_N_ELEMENTS (names); s++)
    odori_motion_set_segment_name (motion, s, names[s]);
  for (guint f = 0; f < n_frames; f++)
    for (guint s = 0; s < G_N_ELEMENTS (names); s++)
      {
        OdoriTransform *t = odori_motion_get (motion, f, s);
        double          angles[3] = { f * 0.5, s * 10.0 + shift, -(double) f / 3 };

        t->position[0] = shift + s * 2.5f;
        t->position[1] = 30.0f + s * 6.0f + f * 0.01f;
        t->position[2] = -1.25f * s;
        odori_euler_to_quat ("ZXY", angles, t->rotation);
      }
  return motion;
}

static const char index_old[] =
    "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n"
    "begin class name=\"舞踊\" code=\"dance\"\n"
    "  begin show name=\"基本\" code=\"BA\" file=\"kihon.bva\"\n"
    "    motion name=\"一\" code=\"A1\" frame=1-118\n"
    "  end show\n"
    "end class\n";

static const char score_old[] =
    "# Title: 新しい踊り\n# Author: 湯川 崇\n# Date: 1998/09/21 17:22:13\n"
    "HD: Body,Head\n1: A1\n119: A2\n";

static char *
big_index_text (void)
{
  GString *s = g_string_new ("# an index written by test-atomic\n"
                             "define part name=\"頭\" code=\"HD\" map=\"Body,Head\"\n"
                             "define part name=\"左腕\" code=\"LA\" map=\"Body,LeftUpArm,LeftHand\"\n"
                             "begin class name=\"舞踊\" code=\"dance\"\n");

  for (guint show = 0; show < 20; show++)
    {
      g_string_append_printf (s, "  begin show name=\"show %u\" code=\"S%u\" file=\"s%u.bva\"\n",
                              show, show, show);
      for (guint m = 0; m < 50; m++)
        g_string_append_printf (s, "    motion name=\"動き %u\" code=\"M%u\" exp=\"説明 %u\" "
                                   "frame=%u-%u\n",
                                m, m, m, m * 10 + 1, m * 10 + 10);
      g_string_append (s, "  end show\n");
    }
  g_string_append (s, "end class\n");
  return g_string_free (s, FALSE);
}

static char *
big_score_text (void)
{
  GString *s = g_string_new ("# Title: 長い踊り\n# Author: test\n# Date: 2024/01/01 00:00:00\n"
                             "# Index: motion.dat\n");

  for (guint part = 0; part < 10; part++)
    {
      g_string_append_printf (s, "P%u: Body,Sensor%u\n", part, part);
      for (guint i = 0; i < 500; i++)
        g_string_append_printf (s, "%u: S%u.M%u\n", i * 12 + 1, i % 20, i % 50);
    }
  return g_string_free (s, FALSE);
}

/* A writer under test: its name, the file name it saves to and its save function. */

typedef struct _Writer Writer;
struct _Writer
{
  const char *name;
  const char *file;
  gboolean (*save) (const Writer *w, gboolean is_new, const char *path, GError **error);
  gpointer old_model;
  gpointer new_model;
  void (*free_model) (gpointer model);
};

static gboolean
save_bva (const Writer *w,
          gboolean      is_new,
          const char   *path,
          GError      **error)
{
  return odori_bva_save (is_new ? w->new_model : w->old_model, path, error);
}

static gboolean
save_bvh (const Writer *w,
          gboolean      is_new,
          const char   *path,
          GError      **error)
{
  OdoriMotion *motion = is_new ? w->new_model : w->old_model;
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

  return odori_bvh_save (motion, skeleton, path, error);
}

static gboolean
save_index (const Writer *w,
            gboolean      is_new,
            const char   *path,
            GError      **error)
{
  return odori_index_save (is_new ? w->new_model : w->old_model, path, error);
}

static gboolean
save_score (const Writer *w,
            gboolean      is_new,
            const char   *path,
            GError      **error)
{
  return odori_score_save (is_new ? w->new_model : w->old_model, path, error);
}

static gboolean
save_skeleton (const Writer *w,
               gboolean      is_new,
               const char   *path,
               GError      **error)
{
  return odori_skeleton_save (is_new ? w->new_model : w->old_model, path, error);
}

static OdoriIndex *
index_from_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("motion.dat", text,
                                                                  strlen (text), &error);
  OdoriIndex *index;

  g_assert_no_error (error);
  index = odori_index_load_text (file, &error);
  g_assert_no_error (error);
  return index;
}

static OdoriScore *
score_from_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("score.dds", text,
                                                                  strlen (text), &error);
  OdoriScore *score;

  g_assert_no_error (error);
  score = odori_score_load_text (file, &error);
  g_assert_no_error (error);
  return score;
}

/* A big skeleton: many bones, so that the XML is larger than a page. */
static OdoriSkeleton *
make_skeleton (guint n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = odori_motion_new (n, 1, 1.0 / 30, &error);

  g_assert_no_error (error);
  for (guint s = 0; s < n; s++)
    {
      g_autofree char *name = g_strdup_printf ("bone_%03u", s);
      OdoriTransform  *t = odori_motion_get (motion, 0, s);

      odori_motion_set_segment_name (motion, s, name);
      t->position[0] = (float) (s % 7);
      t->position[1] = (float) s * 1.5f;
      t->position[2] = (float) (s % 3);
    }
  return odori_skeleton_infer (motion);
}

static gboolean
save_kbs (const Writer *w,
          gboolean      is_new,
          const char   *path,
          GError      **error)
{
  return odori_kbs_save (is_new ? w->new_model : w->old_model, path,
                         is_new ? ODORI_ENCODING_SHIFT_JIS : ODORI_ENCODING_UTF8, error);
}

static OdoriKbs *
make_kbs (const char *prefix)
{
  OdoriKbs *kbs = odori_kbs_new ();

  for (int j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      g_autofree char *bone = g_strdup_printf ("%s_%s_骨", prefix,
                                               odori_kinect_joint_to_string (j));

      odori_kbs_set_joint (kbs, j, bone, j % 3 != 0);
    }
  return kbs;
}

static gboolean
save_bulge (const Writer *w,
            gboolean      is_new,
            const char   *path,
            GError      **error)
{
  return odori_bulge_set_save (is_new ? w->new_model : w->old_model, path, error);
}

static OdoriBulgeSet *
make_bulges (guint n)
{
  g_autoptr(GString) text = g_string_new ("# bulges written by test-atomic\n");
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(GError) error = NULL;
  OdoriBulgeSet *set;

  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (text, "bulge: \"Muscle %u\" code: %u\n", i, i);
      for (guint angle = 0; angle < 360; angle += 90)
        g_string_append_printf (text, "    angle: %u\n        0 0 0\n        0.5 0.5 0.%u\n"
                                      "        1 1 0\n",
                                angle, (i + angle) % 5);
    }
  file = odori_text_file_new_from_data ("bulge_types", text->str, text->len, &error);
  g_assert_no_error (error);
  set = odori_bulge_set_load_text (file, &error);
  g_assert_no_error (error);
  return set;
}

static Writer writers[7];

static void
setup_writers (void)
{
  g_autofree char *big_index = big_index_text ();
  g_autofree char *big_score = big_score_text ();

  /* BVA and BVH: the new file is well over the 1 MB output buffer, so that writes fail
   * in the middle of the data, not only at the final flush. */
  writers[0] = (Writer){ "bva", "motion.bva", save_bva, make_motion (10, 0),
                         make_motion (2500, 7), (void (*) (gpointer)) odori_motion_unref };
  writers[1] = (Writer){ "bvh", "motion.bvh", save_bvh, make_motion (10, 0),
                         make_motion (8000, 7), (void (*) (gpointer)) odori_motion_unref };
  writers[2] = (Writer){ "index", "motion.dat", save_index, index_from_text (index_old),
                         index_from_text (big_index), (void (*) (gpointer)) odori_index_unref };
  writers[3] = (Writer){ "score", "score.dds", save_score, score_from_text (score_old),
                         score_from_text (big_score), (void (*) (gpointer)) odori_score_unref };
  writers[4] = (Writer){ "skeleton", "skeleton.xml", save_skeleton, make_skeleton (3),
                         make_skeleton (200), (void (*) (gpointer)) odori_skeleton_unref };
  writers[5] = (Writer){ "kbs", "setting.kbs", save_kbs, make_kbs ("old"), make_kbs ("new"),
                         (void (*) (gpointer)) odori_kbs_unref };
  writers[6] = (Writer){ "bulge", "bulge_types", save_bulge, make_bulges (1),
                         make_bulges (60), (void (*) (gpointer)) odori_bulge_set_unref };
}

/* Helpers */

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
assert_same_bytes (GBytes     *expected,
                   const char *path)
{
  g_autoptr(GBytes) found = read_bytes (path);

  g_assert_cmpmem (g_bytes_get_data (found, NULL), g_bytes_get_size (found),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

/* The directory holds exactly the files named (no temporary file left behind). */
static void
assert_dir_holds (const char *dir,
                  const char *only,
                  const char *also)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint       n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      if (g_strcmp0 (name, only) != 0 && g_strcmp0 (name, also) != 0)
        g_error ("unexpected file left in %s: %s", dir, name);
      n++;
    }
  g_assert_cmpuint (n, ==, also ? 2 : 1);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

/* The bytes a writer produces for its new model (saved once into a scratch directory). */
static GBytes *
new_bytes (const Writer *w)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "scratch-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  g_assert_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, w->file, NULL);
  g_assert_true (w->save (w, TRUE, path, &error));
  g_assert_no_error (error);
  bytes = read_bytes (path);
  remove_dir (dir);
  return bytes;
}

static void
assert_save_failed (const GError *error,
                    const char   *path)
{
  g_assert_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, path));
}

/* Injected failures: the stream errors after N bytes */

static void
test_fail_after (gconstpointer data)
{
  const Writer    *w = data;
  g_autofree char *dir = g_build_filename (tmp_dir, "inject-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GBytes) old = NULL;
  g_autoptr(GBytes) new = new_bytes (w);
  gsize size = g_bytes_get_size (new);
  g_autoptr(GArray) limits = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GError) error = NULL;
  const gsize candidates[] = { 0, 1, 2, 3, 100, 4095, 4096, 65536, (1u << 20) - 1, 1u << 20,
                               (1u << 20) + 1, size / 3, size / 2, size - 1 };

  g_assert_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, w->file, NULL);
  g_assert_true (w->save (w, FALSE, path, &error));
  g_assert_no_error (error);
  old = read_bytes (path);
  g_assert_false (g_bytes_equal (old, new));

  for (gsize i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] < size)
      g_array_append_val (limits, candidates[i]);
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes, %u failure points", w->name, size,
                  limits->len);

  for (guint i = 0; i < limits->len; i++)
    {
      gsize    limit = g_array_index (limits, gsize, i);
      gboolean ok;

      odori_output_set_test_fail_after (limit);
      ok = w->save (w, TRUE, path, &error);
      odori_output_set_test_fail_after (G_MAXSIZE);
      g_assert_false (ok);
      assert_save_failed (error, path);
      g_assert_nonnull (strstr (error->message, g_strerror (ENOSPC)));
      g_clear_error (&error);
      assert_same_bytes (old, path);
      assert_dir_holds (dir, w->file, NULL);
    }

  /* Exactly enough room: the save succeeds and replaces the file. */
  odori_output_set_test_fail_after (size);
  g_assert_true (w->save (w, TRUE, path, &error));
  odori_output_set_test_fail_after (G_MAXSIZE);
  g_assert_no_error (error);
  assert_same_bytes (new, path);
  assert_dir_holds (dir, w->file, NULL);
  remove_dir (dir);
}

/* The same through one output: odori_output_set_fail_after() and an aborted output. */
static void
test_output_fail_after (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "output-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autoptr(OdoriMotion) motion = make_motion (2500, 3);
  g_autoptr(GBytes) old = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, "out.bva", NULL);
  g_assert_true (g_file_set_contents (path, "previous content\n", -1, NULL));
  old = read_bytes (path);

  for (gsize limit = 0; limit < 3u << 20; limit = limit * 4 + 1000)
    {
      g_autoptr(OdoriOutput) out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);

      g_assert_no_error (error);
      odori_output_set_fail_after (out, limit);
      odori_bva_write (motion, out);
      g_assert_false (odori_output_commit (out, &error));
      assert_save_failed (error, path);
      g_clear_error (&error);
      assert_same_bytes (old, path);
      assert_dir_holds (dir, "out.bva", NULL);
    }

  /* An output abandoned without commit (freed, or aborted) leaves nothing either. */
  {
    g_autoptr(OdoriOutput) out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);

    g_assert_no_error (error);
    odori_bva_write (motion, out);
  }
  assert_same_bytes (old, path);
  assert_dir_holds (dir, "out.bva", NULL);
  {
    g_autoptr(OdoriOutput) out = odori_output_new (path, ODORI_ENCODING_UTF8, &error);

    g_assert_no_error (error);
    odori_bva_write (motion, out);
    odori_output_abort (out);
  }
  assert_same_bytes (old, path);
  assert_dir_holds (dir, "out.bva", NULL);
  remove_dir (dir);
}

/* A real full filesystem: a tmpfs in a private mount namespace */

/* In a subprocess: a private mount namespace (as root, or as root of a new user
 * namespace), then a tmpfs of SIZE bytes on DIR. FALSE with *why if not allowed. */
static gboolean
mount_small_tmpfs (const char *dir,
                   gsize       size,
                   char      **why)
{
  g_autofree char *options = g_strdup_printf ("size=%" G_GSIZE_FORMAT, size);
  uid_t            uid = getuid ();
  gid_t            gid = getgid ();

  if (unshare (CLONE_NEWNS) != 0)
    {
      int              first = errno;
      g_autofree char *map = NULL;

      if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
        {
          *why = g_strdup_printf ("no mount namespace: %s; no user namespace: %s",
                                  g_strerror (first), g_strerror (errno));
          return FALSE;
        }
      /* Map ourselves to root in the new user namespace so files can be created. */
      map = g_strdup_printf ("0 %u 1\n", (guint) uid);
      if (!g_file_set_contents ("/proc/self/uid_map", map, -1, NULL))
        {
          *why = g_strdup ("cannot write /proc/self/uid_map");
          return FALSE;
        }
      g_file_set_contents ("/proc/self/setgroups", "deny", -1, NULL);
      g_free (map);
      map = g_strdup_printf ("0 %u 1\n", (guint) gid);
      g_file_set_contents ("/proc/self/gid_map", map, -1, NULL);
    }
  /* Nothing mounted here may propagate to the rest of the system. */
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    {
      *why = g_strdup_printf ("cannot make the mounts private: %s", g_strerror (errno));
      return FALSE;
    }
  if (mount ("odori-test", dir, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
    {
      *why = g_strdup_printf ("cannot mount a tmpfs: %s", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* NULL if a subprocess can mount a tmpfs (probed in a forked child), else why not. */
static char *
tmpfs_unavailable (void)
{
  static char     *why = NULL;
  static gboolean  probed = FALSE;
  g_autofree char *dir = NULL;
  GString         *reason;
  int              fds[2];
  pid_t            pid;
  char             buf[256];
  gssize           n;

  if (probed)
    return g_strdup (why);
  probed = TRUE;

  dir = g_build_filename (tmp_dir, "probe-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (dir));
  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      char *child_why = NULL;

      close (fds[0]);
      if (!mount_small_tmpfs (dir, 65536, &child_why))
        {
          gssize unused = write (fds[1], child_why, strlen (child_why));
          (void) unused;
        }
      _exit (0);
    }
  close (fds[1]);
  reason = g_string_new (NULL);
  while ((n = read (fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (reason, buf, n);
  close (fds[0]);
  while (waitpid (pid, NULL, 0) < 0 && errno == EINTR)
    ;
  g_rmdir (dir);
  why = reason->len > 0 ? g_string_free (reason, FALSE) : (g_string_free (reason, TRUE), NULL);
  return g_strdup (why);
}

/* Fills the filesystem of DIR with a file until ENOSPC. */
static void
fill_up (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "filler", NULL);
  char             block[4096] = { 0 };
  int              fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  g_assert_cmpint (fd, >=, 0);
  for (;;)
    {
      gssize n = write (fd, block, sizeof block);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          g_assert_cmpint (errno, ==, ENOSPC);
          break;
        }
    }
  close (fd);
}

static void
test_full_filesystem (gconstpointer data)
{
  const Writer *w = data;

  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_build_filename (tmp_dir, "full-XXXXXX", NULL);
      g_autofree char *path = NULL;
      g_autofree char *why = NULL;
      g_autoptr(GBytes) old = NULL;
      g_autoptr(GBytes) new = new_bytes (w);
      gsize size = g_bytes_get_size (new);
      g_autoptr(GError) error = NULL;

      g_assert_nonnull (g_mkdtemp (dir));
      /* Room for the old file but not the new one. */
      if (!mount_small_tmpfs (dir, MAX (size / 2, 64 * 1024), &why))
        g_error ("%s", why);
      path = g_build_filename (dir, w->file, NULL);
      g_assert_true (w->save (w, FALSE, path, &error));
      g_assert_no_error (error);
      old = read_bytes (path);

      /* 1: the new file does not fit: the write fails midway. */
      if (size > 64 * 1024)
        {
          g_assert_false (w->save (w, TRUE, path, &error));
          assert_save_failed (error, path);
          g_assert_nonnull (strstr (error->message, g_strerror (ENOSPC)));
          g_clear_error (&error);
          assert_same_bytes (old, path);
          assert_dir_holds (dir, w->file, NULL);
        }

      /* 2: the filesystem is already full. */
      fill_up (dir);
      g_assert_false (w->save (w, TRUE, path, &error));
      assert_save_failed (error, path);
      g_clear_error (&error);
      assert_same_bytes (old, path);
      assert_dir_holds (dir, w->file, "filler");

      /* Room again: the save succeeds. */
      {
        g_autofree char *filler = g_build_filename (dir, "filler", NULL);

        g_unlink (filler);
      }
      umount (dir);
      g_assert_true (w->save (w, TRUE, path, &error));
      g_assert_no_error (error);
      assert_same_bytes (new, path);
      remove_dir (dir);
      return;
    }

  {
    g_autofree char *why = tmpfs_unavailable ();

    if (why != NULL)
      {
        g_autofree char *message = g_strdup_printf ("cannot mount a small tmpfs here (%s)", why);

        g_test_skip (message);
        return;
      }
  }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* A real write error midway: the file size limit (EFBIG) */

static void
test_file_size_limit (gconstpointer data)
{
  const Writer *w = data;

  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_build_filename (tmp_dir, "fsize-XXXXXX", NULL);
      g_autofree char *path = NULL;
      g_autoptr(GBytes) old = NULL;
      g_autoptr(GBytes) new = new_bytes (w);
      gsize size = g_bytes_get_size (new);
      g_autoptr(GError) error = NULL;
      struct rlimit limit;

      g_assert_nonnull (g_mkdtemp (dir));
      path = g_build_filename (dir, w->file, NULL);
      g_assert_true (w->save (w, FALSE, path, &error));
      g_assert_no_error (error);
      old = read_bytes (path);

      /* Writes beyond half the new size fail with EFBIG (and SIGXFSZ, ignored). */
      signal (SIGXFSZ, SIG_IGN);
      limit.rlim_cur = limit.rlim_max = size / 2;
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

      g_assert_false (w->save (w, TRUE, path, &error));
      assert_save_failed (error, path);
      g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
      assert_same_bytes (old, path);
      assert_dir_holds (dir, w->file, NULL);
      remove_dir (dir);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("odori-atomic-XXXXXX", &error);
  g_assert_no_error (error);
  setup_writers ();

  g_test_add_func ("/atomic/output/fail-after", test_output_fail_after);
  for (guint i = 0; i < G_N_ELEMENTS (writers); i++)
    {
      g_autofree char *inject = g_strdup_printf ("/atomic/%s/fail-after-n-bytes", writers[i].name);
      g_autofree char *full = g_strdup_printf ("/atomic/%s/full-filesystem", writers[i].name);
      g_autofree char *fsize = g_strdup_printf ("/atomic/%s/file-size-limit", writers[i].name);

      g_test_add_data_func (inject, &writers[i], test_fail_after);
      g_test_add_data_func (full, &writers[i], test_full_filesystem);
      g_test_add_data_func (fsize, &writers[i], test_file_size_limit);
    }

  ret = g_test_run ();

  for (guint i = 0; i < G_N_ELEMENTS (writers); i++)
    {
      writers[i].free_model (writers[i].old_model);
      writers[i].free_model (writers[i].new_model);
    }
  remove_dir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
