/* bench-render.c: milliseconds per rendered frame, next to an empty frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sample library's score, composed, drawn headless (EGL surfaceless; llvmpipe on a
 * machine without a GPU) at 1280x720 with the skin and bulges, on every 4th frame of the
 * dance. Prints the GL renderer and the figure's mesh size, then the median and the
 * 90th percentile of the wall-clock time, and the mean CPU time of the process (llvmpipe's
 * threads included), per frame:
 *   - the baseline: clearing an empty frame and reading it back (the floor for any
 *     headless image of that size);
 *   - a frame drawn and finished (glFinish), what the window pays;
 *   - a frame drawn and read back, what `odori-cli render` pays before PNG encoding;
 *   - the same without the skin (bones only);
 *   - the skin again with 4x multisample antialiasing, as odori-cli render draws.
 *   bench-render [WIDTHxHEIGHT] [BULGE_TYPES]
 */
#include "config.h"

#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <epoxy/gl.h>
#include <glib/gstdio.h>

#include "odori-compose.h"
#include "odori-headless.h"
#include "odori-index.h"
#include "odori-renderer.h"
#include "odori-renderer-private.h"
#include "odori-sample.h"
#include "odori-score.h"

#define FRAME_STEP 4
#define WARMUP 5

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1e3;
}

/* CPU time of the whole process (llvmpipe's threads included): less disturbed than the
 * wall clock when other work shares the machine. */
static double
cpu_ms (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

typedef struct
{
  GArray *wall;
  double  cpu;    /* total CPU ms over the measured frames */
} Times;

static void
report (const char *what,
        Times      *times)
{
  double *t = (double *) times->wall->data;
  guint n = times->wall->len;

  qsort (t, n, sizeof (double), cmp_double);
  printf ("%-30s %8.2f %8.2f %10.2f  (%u frames)\n", what, t[n / 2],
          t[MIN (n - 1, n * 9 / 10)], times->cpu / n, n);
  g_array_unref (times->wall);
}

typedef enum
{
  MODE_EMPTY,
  MODE_FINISH,
  MODE_READ,
} Mode;

static Times
measure (OdoriHeadless *headless,
         OdoriRenderer *renderer,
         OdoriMotion   *motion,
         Mode           mode,
         guint8        *pixels)
{
  Times times = { g_array_new (FALSE, FALSE, sizeof (double)), 0 };
  int w = odori_headless_get_width (headless), h = odori_headless_get_height (headless);
  guint n = 0;

  for (guint f = 0; f < motion->n_frames; f += FRAME_STEP, n++)
    {
      g_autoptr(GError) error = NULL;
      double t0 = now_ms (), c0 = cpu_ms (), t;

      if (mode == MODE_EMPTY)
        {
          glClearColor (0.5f, 0.5f, 0.5f, 1.f);
          glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
          odori_headless_read_into (headless, pixels);
        }
      else
        {
          odori_renderer_set_frame (renderer, f);
          if (!odori_renderer_draw (renderer, w, h, &error))
            g_error ("%s", error->message);
          if (mode == MODE_READ)
            odori_headless_read_into (headless, pixels);
          else
            glFinish ();
        }
      t = now_ms () - t0;
      if (n >= WARMUP)
        {
          g_array_append_val (times.wall, t);
          times.cpu += cpu_ms () - c0;
        }
    }
  return times;
}

static char *
find_bulges (const char *arg)
{
  const char *dir = g_getenv ("ODORI_DATADIR");
  char *path;

  if (arg != NULL)
    return g_strdup (arg);
  path = g_build_filename (dir != NULL ? dir : ODORI_SOURCE_DATADIR, "bulge_types", NULL);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return path;
  g_free (path);
  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *score_path = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *bulge_path = NULL;
  g_autofree guint8 *pixels = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  g_autoptr(OdoriHeadless) headless = NULL;
  g_autoptr(OdoriRenderer) renderer = NULL;
  Times empty, finish, read, bones, msaa;
  OdoriMotion *motion;
  int width = 1280, height = 720;
  guint n_vertices, n_triangles, b_vertices, b_triangles;

  setlocale (LC_ALL, "");
#ifdef __GLIBC__
  /* as odori-cli render does (see there): keep llvmpipe's per-frame memory mapped */
  mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
  if (argc > 1 && sscanf (argv[1], "%dx%d", &width, &height) != 2)
    {
      fprintf (stderr, "usage: bench-render [WIDTHxHEIGHT] [BULGE_TYPES]\n");
      return 2;
    }

  dir = g_dir_make_tmp ("odori-bench-render-XXXXXX", &error);
  if (dir == NULL || !odori_sample_write (dir, &error))
    g_error ("%s", error->message);
  score_path = g_build_filename (dir, "sample.dds", NULL);
  index_path = g_build_filename (dir, "motion.dat", NULL);
  if ((score = odori_score_load (score_path, &error)) == NULL ||
      (index = odori_index_load (index_path, &error)) == NULL ||
      (composer = odori_composer_new (score, index, &error)) == NULL ||
      (motion = odori_composer_compose (composer, &error)) == NULL)
    g_error ("%s", error->message);

  bulge_path = find_bulges (argc > 2 ? argv[2] : NULL);
  if (bulge_path != NULL && (bulges = odori_bulge_set_load (bulge_path, &error)) == NULL)
    g_error ("%s", error->message);

  headless = odori_headless_new (width, height, &error);
  if (headless == NULL || (renderer = odori_renderer_new (&error)) == NULL)
    g_error ("%s", error->message);
  odori_renderer_set_motion (renderer, motion, NULL);
  odori_renderer_set_bulges (renderer, bulges);
  odori_renderer_set_view (renderer, ODORI_VIEW_THREE_QUARTER);
  pixels = g_malloc ((gsize) width * height * 4);

  empty = measure (headless, renderer, motion, MODE_EMPTY, pixels);
  finish = measure (headless, renderer, motion, MODE_FINISH, pixels);
  odori_renderer_get_stats (renderer, &n_vertices, &n_triangles);
  read = measure (headless, renderer, motion, MODE_READ, pixels);
  odori_renderer_set_show_skin (renderer, FALSE);
  bones = measure (headless, renderer, motion, MODE_READ, pixels);
  odori_renderer_get_stats (renderer, &b_vertices, &b_triangles);
  odori_renderer_set_show_skin (renderer, TRUE);
  if (!odori_headless_set_samples (headless, 4, &error))
    g_error ("%s", error->message);
  msaa = measure (headless, renderer, motion, MODE_READ, pixels);

  printf ("GL renderer: %s\n", odori_headless_get_gl_renderer (headless));
  printf ("image %dx%d; sample dance: %u frames, %u segments, every %d%s frame drawn\n",
          width, height, motion->n_frames, motion->n_segments, FRAME_STEP,
          FRAME_STEP == 2 ? "nd" : FRAME_STEP == 3 ? "rd" : "th");
  printf ("skin mesh: %u vertices, %u triangles (bulges: %s); bones only: %u triangles\n",
          n_vertices, n_triangles, bulges != NULL ? bulge_path : "none", b_triangles);
  printf ("%-30s %8s %8s %10s\n", "ms per frame", "median", "p90", "CPU mean");
  report ("baseline: clear + read back", &empty);
  report ("skin: draw + glFinish", &finish);
  report ("skin: draw + read back", &read);
  report ("bones only: draw + read back", &bones);
  printf ("with %dx multisampling (odori-cli render --samples):\n", odori_headless_get_samples (headless));
  report ("skin: draw + read back", &msaa);

  g_clear_pointer (&renderer, odori_renderer_free);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_unlink (path);
      }
    g_rmdir (dir);
  }
  return 0;
}
