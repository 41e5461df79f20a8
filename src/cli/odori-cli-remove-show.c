/* odori-cli-remove-show.c: the remove-show command: remove a show from a library's index
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-cli-private.h"
#include "odori-library-import.h"

int
_odori_cli_cmd_remove_show (int    argc,
                            char **argv)
{
  g_autofree char   *library = NULL;
  const GOptionEntry entries[] = {
    { "library", 'l', 0, G_OPTION_ARG_FILENAME, &library, N_("The library's index (motion.dat)"), "INDEX" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *file_name = NULL;
  int              status = EXIT_OK;

  context = _odori_cli_command_context ("remove-show", "--library INDEX CODE",
                                        _("Remove show CODE from the library's index (and its class, when it was the\n"
                                          "class's only show). The previous index is kept as motion.dat~; the show's\n"
                                          "file is left on disk."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("remove-show needs one show CODE"));
  if (library == NULL)
    return _odori_cli_usage_error (context, _("remove-show needs --library"));
  if (!odori_library_remove_show (library, argv[1], &file_name, &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  g_print (_("Removed show %s from %s (the previous file is %s~); its file %s is left on disk\n"),
           argv[1], library, library, file_name);
  return EXIT_OK;
}
