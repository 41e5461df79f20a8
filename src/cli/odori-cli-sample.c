/* odori-cli-sample.c: the sample command: write the built-in sample library into a directory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-cli-private.h"
#include "odori-sample.h"

int
_odori_cli_cmd_sample (int    argc,
                       char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  int status = EXIT_OK;

  context = _odori_cli_command_context ("sample", "DIR",
                                        _("Write the built-in sample library (motion.dat, its show files and\n"
                                          "sample.dds) into DIR."));
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("sample needs a DIR"));
  if (!odori_sample_write (argv[1], &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  g_print (_("Wrote the sample library to %s\n"), argv[1]);
  return EXIT_OK;
}
