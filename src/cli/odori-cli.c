/* odori-cli.c: the command-line front end over the core: main, the options every
 * command shares, the command table and the usage
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exit status: 0 success, 1 an input error (message on stderr), 2 a usage error.
 * Each command lives in its own odori-cli-COMMAND.c; odori-cli-output.c prints.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-paths.h"

typedef struct
{
  const char *name;
  const char *args;
  const char *summary;
  int (*run) (int argc, char **argv);
} Command;

int
_odori_cli_usage_error (GOptionContext *context,
                        const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("odori-cli: %s\n\n%s", message, help);
  return EXIT_USAGE;
}

GOptionContext *
_odori_cli_command_context (const char *name,
                            const char *args,
                            const char *summary)
{
  g_autofree char *param = g_strdup_printf ("%s %s", name, args);
  GOptionContext  *context = g_option_context_new (param);

  g_option_context_set_summary (context, summary);
  g_option_context_set_help_enabled (context, TRUE);
  return context;
}

gboolean
_odori_cli_parse_options (GOptionContext *context,
                          int            *argc,
                          char         ***argv,
                          int            *status)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *status = _odori_cli_usage_error (context, error->message);
      return FALSE;
    }
  return TRUE;
}

static const Command commands[] = {
  { "info", "[--json] FILE…", N_("summarise motion, index and score files"), _odori_cli_cmd_info },
  { "check", "[--json] INDEX [SCORE]", N_("check an index, its show files and a score"), _odori_cli_cmd_check },
  { "compose", "SCORE -o OUT", N_("compose a score into one motion (BVA or BVH)"), _odori_cli_cmd_compose },
  { "convert", "IN -o OUT", N_("convert a motion to BVA or BVH"), _odori_cli_cmd_convert },
  { "sample", "DIR", N_("write the built-in sample library"), _odori_cli_cmd_sample },
  { "import", "CAPTURE -l INDEX …", N_("retarget a capture into a library as a new show"), _odori_cli_cmd_import },
  { "remove-show", "-l INDEX CODE", N_("remove a show from a library's index"), _odori_cli_cmd_remove_show },
  { "render", "IN -o OUT.png", N_("draw a frame (or --frames A-B) of a dance as PNG, or --video OUT.webm"), _odori_cli_cmd_render },
  { "beats", "[--json] MUSIC", N_("print the tempo and beat times of a music file"), _odori_cli_cmd_beats },
  { "print", "SCORE -o OUT.pdf", N_("lay a score out on pages as a PDF"), _odori_cli_cmd_print },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, _("Usage: odori-cli COMMAND [OPTION…] ARGS…\n\nCommands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      /* pad by characters, not bytes ("FILE…") */
      glong pad = 24 - g_utf8_strlen (commands[i].args, -1);

      fprintf (stream, "  %-11s %s%*s %s\n", commands[i].name, commands[i].args,
               (int) MAX (pad, 0), "", _(commands[i].summary));
    }
  fprintf (stream, _("\n'odori-cli COMMAND --help' describes a command. Exit status: 0 success,\n"
                     "1 an input error, 2 a usage error.\n"));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  _odori_cli_print_utf8_unless_locale_says_otherwise ();
  bindtextdomain (GETTEXT_PACKAGE, odori_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* "Usage: odori-cli [OPTION…] compose …" in each command's --help */
  g_set_prgname ("odori-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("odori-cli %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  g_printerr (_("odori-cli: unknown command \"%s\"\n\n"), argv[1]);
  print_usage (stderr);
  return EXIT_USAGE;
}
