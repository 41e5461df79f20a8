/* odori-cli-render.c: the render command: draw frames of a dance (a score is composed first)
 * as PNG images, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
/* after a libc header, which defines __GLIBC__ */
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib/gi18n.h>

#include "odori-bulge.h"
#include "odori-capture.h"
#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-headless.h"
#include "odori-index.h"
#include "odori-renderer.h"
#include "odori-paths.h"
#include "odori-score.h"
#include "odori-skeleton.h"

/* A score is composed (its "# Index:" or INDEX_PATH); anything else is loaded as a
 * motion. Returns a new reference. */
static OdoriMotion *
load_render_input (const char *path,
                   const char *index_path,
                   GError    **error)
{
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autofree char *score_index = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  OdoriMotion *motion;

  if (odori_format_detect_file (path, NULL) != ODORI_FORMAT_SCORE)
    {
      motion = odori_format_load_motion (path, warnings, error);
      _odori_cli_print_warnings_text (warnings);
      return motion;
    }

  score = odori_score_load (path, error);
  if (score == NULL)
    return NULL;
  if (index_path == NULL)
    {
      index_path = score_index = odori_score_dup_index_path (score);
      if (index_path == NULL)
        {
          g_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX,
                       _("%s:1: the score names no index (\"# Index:\"); give one with -i INDEX"),
                       path);
          return NULL;
        }
    }
  index = odori_index_load (index_path, error);
  if (index == NULL)
    return NULL;
  composer = odori_composer_new (score, index, error);
  if (composer == NULL)
    return NULL;
  motion = odori_composer_compose (composer, error);
  /* the motion belongs to the composer: keep a reference past it */
  return motion != NULL ? odori_motion_ref (motion) : NULL;
}

/* "OUT.png" and frame 7 of a series up to 120 give "OUT-0007.png". */
static char *
series_path (const char *output,
             guint       frame,
             guint       last)
{
  const char *dot = strrchr (output, '.');
  const char *slash = strrchr (output, G_DIR_SEPARATOR);
  int         width = 1;
  gsize       stem;

  for (guint n = last; n >= 10; n /= 10)
    width++;
  width = MAX (width, 4);

  if (dot == NULL || (slash != NULL && dot < slash))
    dot = output + strlen (output);
  stem = dot - output;
  return g_strdup_printf ("%.*s-%0*u%s", (int) stem, output, width, frame, dot);
}

static gboolean
parse_frame_range (const char *text,
                   guint      *first,
                   guint      *last)
{
  guint64 a, b;
  char   *end;

  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  a = g_ascii_strtoull (text, &end, 10);
  if (*end != '-' || !g_ascii_isdigit (end[1]))
    return FALSE;
  b = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0' || a < 1 || b < a || b > G_MAXUINT32)
    return FALSE;
  *first = a;
  *last = b;
  return TRUE;
}

/* "1280x720": each side 1 to 16384. */
static gboolean
parse_size (const char *text,
            int        *width,
            int        *height)
{
  char       *end;
  guint64     w = g_ascii_strtoull (text, &end, 10), h;
  const char *h_start;

  if (end == text || *end != 'x')
    return FALSE;
  h_start = end + 1;
  h = g_ascii_strtoull (h_start, &end, 10);
  if (end == h_start || *end != '\0' || w < 1 || h < 1 || w > 16384 || h > 16384)
    return FALSE;
  *width = w;
  *height = h;
  return TRUE;
}

/* PATH, else the default bulge_types; NULL (and no error) when there is none. */
static OdoriBulgeSet *
load_render_bulges (const char *path,
                    GError    **error)
{
  g_autofree char *found = NULL;
  OdoriBulgeSet   *bulges;

  if (path == NULL)
    path = found = odori_find_data_file ("bulge_types");
  if (path == NULL)
    {
      g_printerr (_("warning: no bulge_types found (set ODORI_DATADIR or use --bulge); "
                    "drawing the skin without bulges\n"));
      return NULL;
    }
  bulges = odori_bulge_set_load (path, error);
  if (bulges != NULL)
    _odori_cli_print_warnings_text (bulges->log);
  return bulges;
}

/* Draws frames FIRST to LAST (1-based) every EVERY into OUTPUT, numbered when SERIES. */
static gboolean
render_frames (OdoriRenderer *renderer,
               OdoriHeadless *headless,
               const char    *output,
               gboolean       series,
               guint          first,
               guint          last,
               guint          every,
               guint         *n_written,
               GError       **error)
{
  int                width = odori_headless_get_width (headless), height = odori_headless_get_height (headless);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);

  for (guint f = first; f <= last; f += every)
    {
      g_autofree char *path = series ? series_path (output, f, last) : g_strdup (output);

      odori_renderer_set_frame (renderer, f - 1);
      if (!odori_renderer_draw (renderer, width, height, error))
        return FALSE;
      odori_headless_read_into (headless, pixels);
      if (!odori_png_write_rgba (path, pixels, width, height, error))
        return FALSE;
      (*n_written)++;
      if (last - f < every)
        break; /* no wrap-around past G_MAXUINT */
    }
  return TRUE;
}

int
_odori_cli_cmd_render (int    argc,
                       char **argv)
{
  g_autofree char   *output = NULL;
  g_autofree char   *index_path = NULL;
  g_autofree char   *size = NULL;
  g_autofree char   *view_name = NULL;
  g_autofree char   *bulge_path = NULL;
  g_autofree char   *frames = NULL;
  g_autofree char   *highlight = NULL;
  g_autofree char   *up_name = NULL;
  OdoriUpAxis        up = ODORI_UP_AUTO;
  int                frame = -1, every = 1; /* -1: no --frame given */
  int                samples = 4;
  gboolean           no_skin = FALSE, no_bulges = FALSE;
  const GOptionEntry entries[] = {
    { "index", 'i', 0, G_OPTION_ARG_FILENAME, &index_path, N_("The index of a score (default: its \"# Index:\" line)"), "INDEX" },
    { "frame", 0, 0, G_OPTION_ARG_INT, &frame, N_("The frame to draw, from 1 (default 1)"), "N" },
    { "frames", 0, 0, G_OPTION_ARG_STRING, &frames, N_("Draw frames A to B as a numbered series OUT-NNNN.png"), "A-B" },
    { "every", 0, 0, G_OPTION_ARG_INT, &every, N_("With --frames: every K-th frame (default 1)"), "K" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Image size in pixels (default 1280x720)"), "WxH" },
    { "samples", 0, 0, G_OPTION_ARG_INT, &samples, N_("Antialiasing samples per pixel, 1 for none (default 4)"), "N" },
    { "view", 0, 0, G_OPTION_ARG_STRING, &view_name, N_("front (default), back, left, right, top, mirror or three-quarter"), "VIEW" },
    { "bulge", 0, 0, G_OPTION_ARG_FILENAME, &bulge_path, N_("Muscle bulges from FILE (default: Odori's bulge_types)"), "FILE" },
    { "no-bulges", 0, 0, G_OPTION_ARG_NONE, &no_bulges, N_("Draw the skin without bulges"), NULL },
    { "no-skin", 0, 0, G_OPTION_ARG_NONE, &no_skin, N_("Draw the bones only"), NULL },
    { "highlight", 0, 0, G_OPTION_ARG_STRING, &highlight, N_("Tint these segments, comma-separated"), "SEGMENTS" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &up_name, N_("The motion's up axis: x, y, z, -x, -y, -z or auto (the default: from the head and the feet)"), "AXIS" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the image to OUT.png"), "OUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  g_autoptr(OdoriHeadless) headless = NULL;
  g_autoptr(OdoriRenderer) renderer = NULL;
  g_autofree char *lower = NULL;
  OdoriView        view = ODORI_VIEW_FRONT;
  guint            first, last, n_written = 0;
  int              width = 1280, height = 720;
  int              status = EXIT_OK;

  context = _odori_cli_command_context ("render", "SCORE|MOTION [OPTION…] -o OUT.png",
                                        _("Draw a frame of a dance (a score is composed first) as a PNG image,\n"
                                          "without a display. With --frames, draw a numbered series."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("render needs one SCORE or MOTION file"));
  if (output == NULL)
    return _odori_cli_usage_error (context, _("render needs -o OUT.png"));
  lower = g_ascii_strdown (output, -1);
  if (!g_str_has_suffix (lower, ".png"))
    return _odori_cli_usage_error (context, _("the output must be a .png file"));
  if (size != NULL && !parse_size (size, &width, &height))
    return _odori_cli_usage_error (context, _("--size takes WIDTHxHEIGHT, each 1 to 16384, like 1280x720"));
  if (view_name != NULL && !odori_view_from_string (view_name, &view))
    return _odori_cli_usage_error (context, _("--view takes front, back, left, right, top, mirror or three-quarter"));
  if (up_name != NULL && !odori_up_axis_from_string (up_name, &up))
    return _odori_cli_usage_error (context, _("--up must be x, y, z, -x, -y, -z or auto"));
  if (frames != NULL)
    {
      if (frame != -1)
        return _odori_cli_usage_error (context, _("--frame and --frames exclude each other"));
      if (!parse_frame_range (frames, &first, &last))
        return _odori_cli_usage_error (context, _("--frames takes a range of frames like 1-120"));
      if (every < 1)
        return _odori_cli_usage_error (context, _("--every takes a number of frames, 1 or more"));
    }
  else
    {
      if (frame == -1)
        frame = 1;
      if (frame < 1)
        return _odori_cli_usage_error (context, _("--frame takes a frame number, 1 or more"));
      first = last = frame;
      every = 1;
    }
  if (samples < 1 || samples > 64)
    return _odori_cli_usage_error (context, _("--samples takes 1 to 64 samples per pixel"));
  if (bulge_path != NULL && no_bulges)
    return _odori_cli_usage_error (context, _("--bulge and --no-bulges exclude each other"));

  motion = load_render_input (argv[1], index_path, &error);
  if (motion == NULL)
    goto fail;
  if (motion->n_frames == 0 || motion->n_segments == 0)
    {
      g_printerr (_("%s: the motion has no frames to draw\n"), argv[1]);
      return EXIT_INPUT;
    }
  if (last > motion->n_frames)
    {
      g_printerr (_("%s: frame %u asked for, the motion has %u frames\n"), argv[1], last,
                  motion->n_frames);
      return EXIT_INPUT;
    }
  skeleton = odori_skeleton_for_motion (motion);

  if (!no_bulges && !no_skin)
    {
      bulges = load_render_bulges (bulge_path, &error);
      if (error != NULL)
        goto fail;
    }

#ifdef __GLIBC__
  /* llvmpipe allocates and frees megabytes per frame (shaded vertices, binned triangles);
   * with glibc's default thresholds that memory goes back to the kernel every frame and
   * is faulted in again: about half the time of a skin frame. Keep it. */
  mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
  headless = odori_headless_new (width, height, &error);
  if (headless == NULL || !odori_headless_set_samples (headless, samples, &error))
    goto fail;
  renderer = odori_renderer_new (&error);
  if (renderer == NULL)
    goto fail;
  odori_renderer_set_up_axis (renderer, up);
  odori_renderer_set_motion (renderer, motion, skeleton);
  odori_renderer_set_bulges (renderer, bulges);
  odori_renderer_set_show_skin (renderer, !no_skin);
  odori_renderer_set_show_bulges (renderer, bulges != NULL);
  odori_renderer_set_view (renderer, view);
  if (highlight != NULL)
    {
      static const float tint[4] = { 0.95f, 0.45f, 0.20f, 0.85f };
      g_auto (GStrv) names = g_strsplit (highlight, ",", -1);

      odori_renderer_set_highlight (renderer, (const char *const *) names, tint);
    }

  if (!render_frames (renderer, headless, output, frames != NULL, first, last, every,
                      &n_written, &error))
    goto fail;
  if (frames != NULL)
    g_print (ngettext ("Wrote %u image\n", "Wrote %u images\n", n_written), n_written);
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}
