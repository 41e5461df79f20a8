/* fuzz-skeleton.c: libFuzzer target for the skeleton description (XML) reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * odori_skeleton_load() takes a path: the bytes go to a memfd read through
 * /proc/self/fd, so no file is written per input. Saving (to check that what Odori
 * writes loads again) goes to a private directory, in RAM when /dev/shm exists.
 */
#define _GNU_SOURCE /* memfd_create */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "odori-skeleton.h"

static int   memfd = -1;
static char *memfd_path;
static char *save_path;
static char *save_dir;

static void
cleanup (void)
{
  if (save_path != NULL)
    g_unlink (save_path);
  if (save_dir != NULL)
    g_rmdir (save_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char      *base = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();
  g_autofree char *tmpl = g_build_filename (base, "odori-fuzz-XXXXXX", NULL);

  fuzz_init ();
  memfd = memfd_create ("fuzz-skeleton", MFD_CLOEXEC);
  if (memfd < 0)
    fuzz_fail ("memfd_create failed");
  memfd_path = g_strdup_printf ("/proc/self/fd/%d", memfd);
  save_dir = g_mkdtemp (g_steal_pointer (&tmpl));
  if (save_dir == NULL)
    fuzz_fail ("cannot make a temporary directory");
  save_path = g_build_filename (save_dir, "skeleton.xml", NULL);
  atexit (cleanup);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriSkeleton) reread = NULL;
  g_autoptr(GError) error = NULL;
  size_t done = 0;

  if (ftruncate (memfd, 0) != 0 || lseek (memfd, 0, SEEK_SET) != 0)
    fuzz_fail ("cannot reset the memfd");
  while (done < size)
    {
      ssize_t n = write (memfd, data + done, size - done);

      if (n <= 0)
        fuzz_fail ("cannot fill the memfd");
      done += n;
    }

  skeleton = odori_skeleton_load (memfd_path, &error);
  if (skeleton == NULL)
    {
      fuzz_check_error (error, memfd_path);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("a skeleton and an error: %s", error->message);
  fuzz_note ("loaded");
  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      if (skeleton->bones[i].parent >= (int) i || skeleton->bones[i].parent < -1)
        fuzz_fail ("bone %u has parent %d (parents come first)", i, skeleton->bones[i].parent);
      if (odori_skeleton_find (skeleton, skeleton->bones[i].name) < 0)
        fuzz_fail ("bone %s is not found by name", skeleton->bones[i].name);
    }

  if (!odori_skeleton_save (skeleton, save_path, &error))
    fuzz_fail ("cannot save a skeleton that loaded: %s", error->message);
  reread = odori_skeleton_load (save_path, &error);
  if (reread == NULL)
    fuzz_fail ("what the skeleton writer wrote does not load: %s", error->message);
  if (reread->n_bones != skeleton->n_bones)
    fuzz_fail ("write and read again: %u bones became %u", skeleton->n_bones, reread->n_bones);
  return 0;
}
