/* odori-cli-convert.c: the convert command: any motion Odori reads (captures
 * included) to BVA or BVH
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-capture.h"
#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-format.h"
#include "odori-gltf.h"
#include "odori-kbs.h"
#include "odori-motion.h"
#include "odori-retarget.h"
#include "odori-smooth.h"

/* convert: options for captures and smoothing */

typedef struct
{
  double   fps; /* NAN: not given */
  char    *up;
  char    *kbs;
  char    *rotations;
  int      smooth;
  gboolean symmetry;
} ConvertOptions;

static void
convert_options_clear (ConvertOptions *opts)
{
  g_clear_pointer (&opts->up, g_free);
  g_clear_pointer (&opts->kbs, g_free);
  g_clear_pointer (&opts->rotations, g_free);
}

static gboolean
check_convert_options (GOptionContext *context,
                       ConvertOptions *opts,
                       const char     *input,
                       int            *status)
{
  OdoriFormat format = odori_format_detect_file (input, NULL);
  gboolean    capture = format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV;
  const char *message = NULL;

  if (opts->up != NULL && !odori_up_axis_from_string (opts->up, NULL))
    message = _("--up takes x, y, z, -x, -y, -z or auto");
  else if (opts->rotations != NULL && !odori_rotation_source_from_string (opts->rotations, NULL))
    message = _("--rotations takes positions or file");
  else if (opts->smooth < 0)
    message = _("--smooth takes a number of frames, 0 or more");
  else if (!isnan (opts->fps) && !(opts->fps > 0 || (capture && opts->fps == 0)))
    message = capture ? _("--fps takes a number of frames per second, 0 or more")
                      : _("--fps takes a number of frames per second above 0");
  else if (!capture && (opts->up || opts->kbs || opts->rotations || opts->symmetry))
    message = _("--up, --kbs, --rotations and --symmetry apply to captures (NI_JOINTS_TEXT_FILE "
                "or sensor CSV)");
  if (message == NULL)
    return TRUE;
  *status = _odori_cli_usage_error (context, message);
  convert_options_clear (opts);
  return FALSE;
}

static OdoriMotion *
load_for_convert (const char     *input,
                  ConvertOptions *opts,
                  GPtrArray      *warnings,
                  GError        **error)
{
  OdoriFormat       format = odori_format_detect_file (input, NULL);
  OdoriSmoothReport report;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autofree char *summary = NULL;

  if (format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV)
    {
      OdoriImportOptions options;
      g_autoptr(OdoriKbs) kbs = NULL;

      odori_import_options_init (&options);
      if (!isnan (opts->fps))
        options.fps = opts->fps;
      if (opts->up != NULL)
        odori_up_axis_from_string (opts->up, &options.up);
      if (opts->rotations != NULL)
        odori_rotation_source_from_string (opts->rotations, &options.rotations);
      options.symmetry = opts->symmetry;
      options.smooth = opts->smooth;
      if (opts->kbs != NULL)
        {
          kbs = odori_kbs_load (opts->kbs, warnings, error);
          if (kbs == NULL)
            return NULL;
          options.kbs = kbs;
        }
      motion = odori_capture_import (input, &options, &report, warnings, error);
      if (motion == NULL)
        return NULL;
    }
  else
    {
      motion = odori_format_load_motion (input, warnings, error);
      if (motion == NULL)
        return NULL;
      if (!isnan (opts->fps))
        {
          OdoriMotion *resampled = odori_motion_resample (motion, 1, motion->n_frames,
                                                          1.0 / opts->fps, error);

          if (resampled == NULL)
            return NULL;
          odori_motion_unref (motion);
          motion = resampled;
        }
      odori_smooth_motion (motion, opts->smooth, ODORI_SMOOTH_ALL, &report);
    }
  if (opts->smooth > 0)
    {
      summary = odori_smooth_report_to_string (&report, motion);
      g_print ("%s\n", summary);
    }
  return g_steal_pointer (&motion);
}

int
_odori_cli_cmd_convert (int    argc,
                        char **argv)
{
  g_autofree char   *output = NULL;
  g_autofree char   *bvh_positions = NULL;
  OdoriBvhPositions  positions;
  ConvertOptions     opts = { NAN, NULL, NULL, NULL, 0, FALSE };
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to OUT (its extension picks the format: .bva, .vpm, .bvh, or .glb: glTF binary with the skin)"), "OUT" },
    { "bvh-positions", 0, 0, G_OPTION_ARG_STRING, &bvh_positions, N_("BVH output: position channels on the root and on every joint whose offset from its parent varies (auto, the default), on the root only, or on every joint"), "auto|root|all" },
    { "fps", 0, 0, G_OPTION_ARG_DOUBLE, &opts.fps, N_("Frames per second of the result (captures: default 30, 0 keeps a regular file's rate; other motions are resampled)"), "F" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &opts.up, N_("Captures: the file's up axis, x, y, z, -x, -y, -z or auto (default)"), "AXIS" },
    { "kbs", 0, 0, G_OPTION_ARG_FILENAME, &opts.kbs, N_("Captures: name the segments after the bones of this KBS or KST"), "FILE" },
    { "rotations", 0, 0, G_OPTION_ARG_STRING, &opts.rotations, N_("Captures: rotations from joint positions or from the file (default: positions for NI joints, file for CSV)"), "positions|file" },
    { "smooth", 0, 0, G_OPTION_ARG_INT, &opts.smooth, N_("Smooth rotations and positions over N frames either side and report the largest correction"), "N" },
    { "symmetry", 0, 0, G_OPTION_ARG_NONE, &opts.symmetry, N_("Captures: make the calibration pose left/right symmetric (rotations from positions)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  int status = EXIT_OK;

  context = _odori_cli_command_context ("convert", "IN -o OUT.bva|OUT.bvh|OUT.glb", _("Convert any motion Odori reads to BVA, BVH or glTF binary."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("convert needs one input file"));
  if (output == NULL)
    return _odori_cli_usage_error (context, _("convert needs -o OUT"));
  if (!_odori_cli_output_extension_ok (output))
    return _odori_cli_usage_error (context, _("the output must be a .bva, .vpm, .bvh or .glb file"));
  if (!_odori_cli_parse_bvh_positions (bvh_positions, &positions))
    return _odori_cli_usage_error (context, _("--bvh-positions takes auto, root or all"));
  if (!check_convert_options (context, &opts, argv[1], &status))
    return status;

  motion = load_for_convert (argv[1], &opts, warnings, &error);
  if (motion == NULL)
    {
      g_printerr ("%s\n", error->message);
      convert_options_clear (&opts);
      return EXIT_INPUT;
    }
  _odori_cli_print_warnings_text (warnings);
  convert_options_clear (&opts);

  /* BVH carries no units and no BVA field layout: for BVA, values are copied as they are
   * and labelled with BVA's usual fields and units (glTF guesses the unit instead). */
  for (guint s = 0; s < motion->n_segments && !g_str_has_suffix (output, ".bvh") &&
                    !odori_gltf_path_is_glb (output);
       s++)
    if (motion->segments[s].n_fields == 0)
      {
        OdoriSegment *seg = &motion->segments[s];

        seg->n_fields = ODORI_N_FIELDS;
        for (guint f = 0; f < ODORI_N_FIELDS; f++)
          {
            seg->fields[f] = f;
            seg->units[f] = f < 3 ? ODORI_UNIT_INCHES : f < 6 ? ODORI_UNIT_DEGREES
                                                              : ODORI_UNIT_PERCENT;
          }
        for (guint fr = 0; fr < motion->n_frames; fr++)
          {
            OdoriTransform *t = odori_motion_get (motion, fr, s);
            for (int i = 0; i < 3; i++)
              t->scale[i] *= 100.0f;
          }
      }

  if (!_odori_cli_save_motion (motion, output, positions, &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  return EXIT_OK;
}
