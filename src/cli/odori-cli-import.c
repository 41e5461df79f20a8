/* odori-cli-import.c: the import command: retarget a capture onto a library's skeleton and add
 * it as a new show
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
#include "odori-index.h"
#include "odori-library-import.h"
#include "odori-retarget.h"

static void
print_bone_map (const OdoriBoneMap *map)
{
  g_autoptr(GString) unmapped = g_string_new (NULL);

  g_print (_("Bone map (capture joint → library sensor):\n"));
  for (guint s = 0; s < odori_bone_map_get_n_sensors (map); s++)
    {
      const char *sensor = odori_bone_map_get_sensor (map, s);
      const char *source = odori_bone_map_get_source (map, s);

      if (source != NULL)
        g_print ("  %-20s → %s\n", source, sensor);
      else
        g_string_append_printf (unmapped, "%s%s", unmapped->len > 0 ? ", " : "", sensor);
    }
  g_print (_("Library sensors without a source (they follow their parent): %s\n"),
           unmapped->len > 0 ? unmapped->str : _("none"));
}

/* The capture as a motion; Kinect and suit captures are read with their own importer
 * (turned Y up there with UP), so *CAPTURE_UP is what is left to do. */
static OdoriMotion *
load_capture (const char  *path,
              OdoriUpAxis  up,
              OdoriUpAxis *capture_up,
              GPtrArray   *warnings,
              GError     **error)
{
  OdoriFormat format = odori_format_detect_file (path, NULL);

  *capture_up = up;
  if (format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV)
    {
      OdoriImportOptions options;

      odori_import_options_init (&options);
      options.fps = 0;
      options.up = up;
      *capture_up = ODORI_UP_Y;
      return odori_capture_import (path, &options, NULL, warnings, error);
    }
  return odori_format_load_motion (path, warnings, error);
}

static void
print_retarget_report (const OdoriRetargetReport *report)
{
  g_print (_("Capture up axis: %s%s; scale %.6g (library length per capture length%s)\n"),
           odori_up_axis_to_string (report->up), report->up_guessed ? _(" (from the head and feet)") : "",
           report->scale, report->scale_guessed ? _(", from bone lengths") : _(", from hip heights"));
  if (!isnan (report->max_bone_error))
    g_print (_("Largest bone direction error: %.3f°\n"), report->max_bone_error);
}

int
_odori_cli_cmd_import (int    argc,
                       char **argv)
{
  g_autofree char   *library = NULL;
  g_autofree char   *class_code = NULL;
  g_autofree char   *show_code = NULL;
  g_autofree char   *name = NULL;
  g_autofree char   *map_path = NULL;
  g_autofree char   *up_text = NULL;
  const GOptionEntry entries[] = {
    { "library", 'l', 0, G_OPTION_ARG_FILENAME, &library, N_("The library's index (motion.dat)"), "INDEX" },
    { "class", 0, 0, G_OPTION_ARG_STRING, &class_code, N_("Class of the new show (created at the end when missing)"), "CODE" },
    { "show", 0, 0, G_OPTION_ARG_STRING, &show_code, N_("Code of the new show"), "CODE" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("Name of the new show (default: its code)"), "NAME" },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map_path, N_("A bone map file correcting the guessed map"), "FILE" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &up_text, N_("The capture's up axis: x, y, z, -x, -y, -z or auto (the default)"), "AXIS" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  g_autoptr(OdoriMotion) capture = NULL;
  g_autoptr(OdoriMotion) result = NULL;
  g_autoptr(OdoriBoneMap) map = NULL;
  g_autofree char    *file_name = NULL;
  OdoriRetargetReport report;
  OdoriUpAxis         up = ODORI_UP_AUTO, capture_up;
  int                 status = EXIT_OK;

  context = _odori_cli_command_context ("import", "CAPTURE --library INDEX --class CODE --show CODE",
                                        _("Retarget a capture (BVH, BVA, Kinect joints, suit CSV) onto the library's\n"
                                          "skeleton and add it to the library as a new show of one motion, CODE.M1.\n"
                                          "motion.dat keeps its comments, line ends and encoding; the previous file\n"
                                          "is kept as motion.dat~."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("import needs one CAPTURE"));
  if (library == NULL || class_code == NULL || show_code == NULL)
    return _odori_cli_usage_error (context, _("import needs --library, --class and --show"));
  if (up_text != NULL && !odori_up_axis_from_string (up_text, &up))
    return _odori_cli_usage_error (context, _("--up must be x, y, z, -x, -y, -z or auto"));

  index = odori_index_load (library, &error);
  if (index == NULL)
    goto fail;
  reference = odori_library_load_reference (index, NULL, &error);
  if (reference == NULL)
    goto fail;
  capture = load_capture (argv[1], up, &capture_up, warnings, &error);
  if (capture == NULL)
    goto fail;
  _odori_cli_print_diagnostics_err (warnings);
  map = odori_bone_map_guess (capture, NULL, reference, NULL);
  if (map_path != NULL && !odori_bone_map_apply_file (map, map_path, &error))
    goto fail;
  result = odori_library_retarget (capture, NULL, reference, NULL, map, capture_up, &report, &error);
  if (result == NULL)
    goto fail;
  if (!odori_library_add_show (library, class_code, show_code, name, result, &file_name, &error))
    goto fail;
  print_bone_map (map);
  print_retarget_report (&report);
  {
    guint n = odori_bone_map_get_n_sensors (map), mapped = 0;

    for (guint s = 0; s < n; s++)
      mapped += odori_bone_map_get_source (map, s) != NULL;
    if (2 * mapped < n)
      g_printerr (_("%s: warning: only %u of the library's %u sensors have a joint to follow; "
                    "correct the map with --map\n"),
                  argv[1], mapped, n);
  }
  g_print (_("Wrote %s (%u frames) and added show %s to class %s of %s (the previous file is %s~)\n"),
           file_name, result->n_frames, show_code, class_code, library, library);
  g_print (_("Symbol: %s.%s\n"), show_code, ODORI_LIBRARY_IMPORT_MOTION_CODE);
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}
