/* odori-cli-print.c: the print command: a score laid out on pages as a PDF (title, a staff
 * row per body part with its symbols and pose thumbnails over a time ruler, the legend)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-cli-private.h"
#include "odori-format.h"
#include "odori-index.h"
#include "odori-print.h"
#include "odori-score.h"

int
_odori_cli_cmd_print (int    argc,
                      char **argv)
{
  g_autofree char   *output = NULL;
  g_autofree char   *index_path = NULL;
  g_autofree char   *paper_name = NULL;
  g_autofree char   *lower = NULL;
  gboolean           landscape = FALSE, no_thumbnails = FALSE;
  const GOptionEntry entries[] = {
    { "index", 'i', 0, G_OPTION_ARG_FILENAME, &index_path, N_ ("The index of the score (default: its \"# Index:\" line)"), "INDEX" },
    { "paper", 0, 0, G_OPTION_ARG_STRING, &paper_name, N_ ("The paper size: a4 (default) or letter"), "PAPER" },
    { "landscape", 0, 0, G_OPTION_ARG_NONE, &landscape, N_ ("Lay the pages out in landscape"), NULL },
    { "no-thumbnails", 0, 0, G_OPTION_ARG_NONE, &no_thumbnails, N_ ("Leave out the pose thumbnails (no OpenGL needed)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_ ("Write the PDF to OUT.pdf"), "OUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriPrint) print = NULL;
  OdoriPaper paper = ODORI_PAPER_A4;
  double     width, height;
  int        status = EXIT_OK;

  context = _odori_cli_command_context ("print", "SCORE [OPTION…] -o OUT.pdf",
                                        _ ("Lay a score out on pages as a PDF: its title, a staff row per body part\n"
                                           "with its symbols and the pose at each one's start over a time ruler (bars\n"
                                           "and counts when the score has music), and a legend of the symbols used."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _ ("print needs one SCORE file"));
  if (output == NULL)
    return _odori_cli_usage_error (context, _ ("print needs -o OUT.pdf"));
  lower = g_ascii_strdown (output, -1);
  if (!g_str_has_suffix (lower, ".pdf"))
    return _odori_cli_usage_error (context, _ ("the output must be a .pdf file"));
  if (paper_name != NULL && !odori_paper_from_string (paper_name, &paper))
    return _odori_cli_usage_error (context, _ ("--paper takes a4 or letter"));

  if (odori_format_detect_file (argv[1], NULL) != ODORI_FORMAT_SCORE)
    {
      g_printerr (_ ("%s: not a score (a DDS file); print lays out scores only\n"), argv[1]);
      return EXIT_INPUT;
    }
  score = odori_score_load (argv[1], &error);
  if (score == NULL)
    goto fail;
  if (index_path == NULL)
    {
      index_path = odori_score_dup_index_path (score);
      if (index_path == NULL)
        {
          g_printerr (_ ("%s:1: the score names no index (\"# Index:\"); give one with -i INDEX\n"), argv[1]);
          return EXIT_INPUT;
        }
    }
  index = odori_index_load (index_path, &error);
  if (index == NULL)
    goto fail;

  print = odori_print_new (score, index, NULL);
  odori_print_set_thumbnails (print, !no_thumbnails);
  odori_paper_get_size (paper, landscape, &width, &height);
  if (!odori_print_write_pdf (print, output, width, height, NULL, &error))
    goto fail;
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}
