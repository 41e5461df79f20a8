/* bench-skin.c: skin deformation throughput, next to a plain copy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sample library's first show (18-segment Biovision skeleton) with the shipped
 * bulge_types, skinned at the renderer's size (14 rings × 20 sides) and at a small one.
 * For each, the median of RUNS runs of posing every frame in turn (one thread):
 *   - odori_skin_pose with bulges, and without;
 *   - the baseline: copying as many bytes as a pose writes (positions and normals).
 *   bench-skin [BULGE_TYPES]
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-bulge.h"
#include "odori-format.h"
#include "odori-sample.h"
#include "odori-skeleton.h"
#include "odori-skin.h"

#define RUNS 7
#define MIN_RUN_SECONDS 0.3

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static int
cmp_names (gconstpointer a,
           gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* Seconds per pose: poses frames in turn until MIN_RUN_SECONDS have passed. */
static double
time_poses (OdoriSkin   *skin,
            OdoriMotion *motion,
            gboolean     bulges,
            float       *pos,
            float       *nrm)
{
  double samples[RUNS];

  for (guint r = 0; r < RUNS; r++)
    {
      double start = now (), elapsed;
      guint n = 0;

      do
        {
          for (guint i = 0; i < 64; i++, n++)
            odori_skin_pose (skin, motion, n % motion->n_frames, bulges, pos, nrm);
          elapsed = now () - start;
        }
      while (elapsed < MIN_RUN_SECONDS);
      samples[r] = elapsed / n;
    }
  return median (samples, RUNS);
}

static double
time_copies (const float *src,
             float       *dst,
             gsize        bytes)
{
  double samples[RUNS];

  for (guint r = 0; r < RUNS; r++)
    {
      double start = now (), elapsed;
      guint n = 0;

      do
        {
          for (guint i = 0; i < 64; i++, n++)
            {
              memcpy (dst, src, bytes);
              /* keep the copy from being optimised away */
              __asm__ __volatile__ ("" : : "r" (dst) : "memory");
            }
          elapsed = now () - start;
        }
      while (elapsed < MIN_RUN_SECONDS);
      samples[r] = elapsed / n;
    }
  return median (samples, RUNS);
}

static void
bench_size (OdoriSkeleton *skeleton,
            OdoriBulgeSet *bulges,
            OdoriMotion   *motion,
            guint          rings,
            guint          sides)
{
  g_autoptr(OdoriSkin) skin = odori_skin_new (skeleton, bulges, rings, sides);
  guint n = odori_skin_get_n_vertices (skin), n_indices;
  gsize bytes = 3 * (gsize) n * sizeof (float);
  g_autofree float *pos = g_new0 (float, 3 * n);
  g_autofree float *nrm = g_new0 (float, 3 * n);
  g_autofree float *src = g_new0 (float, 6 * n);
  g_autofree float *dst = g_new0 (float, 6 * n);
  double t_bulge, t_round, t_copy;

  odori_skin_get_indices (skin, &n_indices);
  t_bulge = time_poses (skin, motion, TRUE, pos, nrm);
  t_round = time_poses (skin, motion, FALSE, pos, nrm);
  t_copy = time_copies (src, dst, 2 * bytes);

  printf ("mesh: %u bones x (%u rings x %u sides + caps) = %u vertices, %u triangles\n",
          skeleton->n_bones, rings, sides, n, n_indices / 3);
  printf ("  pose with bulges:   %8.1f us  %7.1f M vertices/s\n", t_bulge * 1e6, n / t_bulge / 1e6);
  printf ("  pose without:       %8.1f us  %7.1f M vertices/s\n", t_round * 1e6, n / t_round / 1e6);
  printf ("  baseline copy:      %8.1f us  %7.1f M vertices/s  (%zu bytes; posing is %.1fx the "
          "copy's time)\n", t_copy * 1e6, n / t_copy / 1e6, 2 * bytes, t_bulge / t_copy);
}

int
main (int   argc,
      char *argv[])
{
  const char *bulge_path = argc > 1 ? argv[1] : "data/bulge_types";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-bench-skin-XXXXXX", &error);
  g_autofree char *show = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  setlocale (LC_ALL, "");
  if (dir == NULL || !odori_sample_write (dir, &error))
    g_error ("%s", error->message);
  listing = g_dir_open (dir, 0, NULL);
  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".bva"))
      g_ptr_array_add (names, g_strdup (name));
  g_assert (names->len > 0);
  g_ptr_array_sort (names, cmp_names);  /* the same show on every run */
  show = g_build_filename (dir, g_ptr_array_index (names, 0), NULL);

  motion = odori_format_load_motion (show, warnings, &error);
  if (motion == NULL)
    g_error ("%s", error->message);
  skeleton = odori_skeleton_for_motion (motion);
  bulges = odori_bulge_set_load (bulge_path, &error);
  if (bulges == NULL)
    g_error ("%s", error->message);

  printf ("motion: %s, %u frames, %u segments; bulges: %s (%u definitions)\n",
          (const char *) g_ptr_array_index (names, 0), motion->n_frames, motion->n_segments,
          bulge_path, bulges->bulges->len);
  bench_size (skeleton, bulges, motion, 14, 20);
  bench_size (skeleton, bulges, motion, 8, 12);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_remove (path);
    }
  {
    g_autoptr(GDir) rest = g_dir_open (dir, 0, NULL);

    while (rest != NULL && (name = g_dir_read_name (rest)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_remove (path);
      }
  }
  g_rmdir (dir);
  return 0;
}
