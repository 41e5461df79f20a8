/* odori-cli-render.c: the render command: draw frames of a dance (a score is composed first)
 * as PNG images, or the whole dance as a WebM video with the score's music, without a
 * display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
/* after a libc header, which defines __GLIBC__ */
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <gst/gst.h>

#include "odori-bulge.h"
#include "odori-capture.h"
#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-headless.h"
#include "odori-index.h"
#include "odori-media.h"
#include "odori-renderer.h"
#include "odori-paths.h"
#include "odori-score.h"
#include "odori-skeleton.h"
#include "odori-video.h"

/* A score is composed (its "# Index:" or INDEX_PATH); anything else is loaded as a
 * motion. Returns a new reference; SCORE_OUT, when not NULL, gets the score (or NULL). */
static OdoriMotion *
load_render_input (const char  *path,
                   const char  *index_path,
                   OdoriScore **score_out,
                   GError     **error)
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
  if (motion != NULL && score_out != NULL)
    *score_out = g_steal_pointer (&score);
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

static gboolean
print_video_progress_cb (gpointer data)
{
  OdoriVideo *video = data;

  g_printerr ("\r%s %3d %%", odori_video_get_path (video), (int) (odori_video_get_fraction (video) * 100));
  return G_SOURCE_CONTINUE;
}

/* Ctrl+C: stop the video and remove its temporary file. */
static gboolean
cancel_video_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
} VideoWait;

static void
video_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  VideoWait *wait = user_data;

  wait->ok = odori_video_run_finish (ODORI_VIDEO (source), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

/* "30", "29.97" or "30000/1001": 1 to 240 frames a second. */
static gboolean
parse_fps (const char *text,
           int        *n,
           int        *d)
{
  char  *end;
  double value = g_ascii_strtod (text, &end);

  if (end == text)
    return FALSE;
  if (*end == '/')
    {
      const char *d_start = end + 1;
      guint64     den = g_ascii_strtoull (d_start, &end, 10);

      if (end == d_start || *end != '\0' || den < 1 || den > 100000 || value != floor (value) ||
          value < 1 || value > 240 * 100000.0)
        return FALSE;
      *n = (int) value;
      *d = (int) den;
      return *n / (double) *d >= 1 && *n / (double) *d <= 240;
    }
  if (*end != '\0' || !(value >= 1 && value <= 240))
    return FALSE;
  if (value == floor (value))
    {
      *n = (int) value;
      *d = 1;
    }
  else
    gst_util_double_to_fraction (value, n, d);
  return TRUE;
}

/* The whole dance as a WebM video (with the score's music unless NO_MUSIC); progress on
 * a terminal. */
static int
render_video (OdoriMotion   *motion,
              OdoriScore    *score,
              OdoriBulgeSet *bulges,
              const char    *output,
              int            width,
              int            height,
              OdoriView      view,
              OdoriUpAxis    up,
              int            samples,
              gboolean       no_skin,
              const char    *fps,
              gboolean       no_music)
{
  g_autoptr(OdoriVideo) video = odori_video_new (motion, output);
  g_autofree char *music = score != NULL && !no_music ? odori_score_dup_music_path (score) : NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  VideoWait wait = { loop, FALSE, NULL };
  guint     poll_id = 0, sigint_id, sigterm_id;
  gboolean  tty = isatty (2);
  int       fps_n = 0, fps_d = 1;
  char      rate[G_ASCII_DTOSTR_BUF_SIZE];
  guint     n_frames;

  if (fps != NULL)
    parse_fps (fps, &fps_n, &fps_d);
  odori_video_set_size (video, width, height);
  odori_video_set_view (video, view);
  odori_video_set_up_axis (video, up);
  odori_video_set_samples (video, samples);
  odori_video_set_show_skin (video, !no_skin);
  odori_video_set_bulges (video, bulges);
  odori_video_set_fps (video, fps_n, fps_d);
  if (music != NULL)
    odori_video_set_music (video, music, score->music.offset);
  if (tty)
    poll_id = g_timeout_add (250, print_video_progress_cb, video);
  sigint_id = g_unix_signal_add (SIGINT, cancel_video_cb, cancellable);
  sigterm_id = g_unix_signal_add (SIGTERM, cancel_video_cb, cancellable);
  odori_video_run_async (video, cancellable, video_done_cb, &wait);
  g_main_loop_run (loop);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_handle_id (&poll_id, g_source_remove);
  if (tty)
    g_printerr ("\r\033[K");
  if (!wait.ok)
    {
      g_printerr ("%s\n", wait.error->message);
      if (wait.error->domain == ODORI_MEDIA_ERROR)
        g_printerr (_("(--no-music makes the video without the music)\n"));
      g_error_free (wait.error);
      return EXIT_INPUT;
    }
  odori_video_get_fps (video, &fps_n, &fps_d);
  g_ascii_formatd (rate, sizeof rate, "%.6g", (double) fps_n / fps_d);
  n_frames = odori_video_get_n_frames (video);
  /* Translators: "Wrote dance.webm: 300 frames, 30 frames a second" */
  g_print (ngettext ("Wrote %s: %u frame, %s frames a second\n", "Wrote %s: %u frames, %s frames a second\n",
                     n_frames),
           output, n_frames, rate);
  if (music != NULL)
    g_print (_("With the music “%s”\n"), music);
  return EXIT_OK;
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
  g_autofree char   *video = NULL;
  g_autofree char   *fps = NULL;
  gboolean           no_music = FALSE;
  int                fps_n, fps_d;
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
    { "video", 0, 0, G_OPTION_ARG_FILENAME, &video, N_("Write the whole dance as a WebM video (VP9, with the score's music as Opus)"), "OUT.webm" },
    { "fps", 0, 0, G_OPTION_ARG_STRING, &fps, N_("With --video: frames a second, like 30 or 29.97 (default: the motion's, at most 60)"), "N" },
    { "no-music", 0, 0, G_OPTION_ARG_NONE, &no_music, N_("With --video: leave the score's music out"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  g_autoptr(OdoriHeadless) headless = NULL;
  g_autoptr(OdoriRenderer) renderer = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autofree char *lower = NULL;
  OdoriView        view = ODORI_VIEW_FRONT;
  guint            first, last, n_written = 0;
  int              width = 1280, height = 720;
  int              status = EXIT_OK;

  context = _odori_cli_command_context ("render", "SCORE|MOTION [OPTION…] -o OUT.png | --video OUT.webm",
                                        _("Draw a frame of a dance (a score is composed first) as a PNG image,\n"
                                          "without a display. With --frames, draw a numbered series. With --video,\n"
                                          "make a WebM video of the whole dance with the score's music."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("render needs one SCORE or MOTION file"));
  if (video != NULL)
    {
      if (output != NULL || frame != -1 || frames != NULL || highlight != NULL)
        return _odori_cli_usage_error (context, _("--video excludes -o, --frame, --frames and --highlight"));
      lower = g_ascii_strdown (video, -1);
      if (!g_str_has_suffix (lower, ".webm"))
        return _odori_cli_usage_error (context, _("the video must be a .webm file"));
      if (fps != NULL && !parse_fps (fps, &fps_n, &fps_d))
        return _odori_cli_usage_error (context, _("--fps takes 1 to 240 frames a second, like 30 or 29.97"));
    }
  else if (fps != NULL || no_music)
    return _odori_cli_usage_error (context, _("--fps and --no-music go with --video"));
  else if (output == NULL)
    return _odori_cli_usage_error (context, _("render needs -o OUT.png"));
  else
    {
      lower = g_ascii_strdown (output, -1);
      if (!g_str_has_suffix (lower, ".png"))
        return _odori_cli_usage_error (context, _("the output must be a .png file"));
    }
  if (size != NULL && !parse_size (size, &width, &height))
    return _odori_cli_usage_error (context, _("--size takes WIDTHxHEIGHT, each 1 to 16384, like 1280x720"));
  if (video != NULL && (width % 2 != 0 || height % 2 != 0 || width < 16 || height < 16 ||
                        width > ODORI_VIDEO_MAX_SIDE || height > ODORI_VIDEO_MAX_SIDE))
    return _odori_cli_usage_error (context, _("a video's --size is 16 to 4096 pixels each way, even numbers, like 1280x720"));
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

  motion = load_render_input (argv[1], index_path, &score, &error);
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
  if (video != NULL)
    return render_video (motion, score, bulges, video, width, height, view, up, samples, no_skin, fps, no_music);
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
