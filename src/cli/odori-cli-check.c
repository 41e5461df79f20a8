/* odori-cli-check.c: the check command: an index, its show files and a score, checked together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-beats.h"
#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-compose.h"
#include "odori-index-files.h"
#include "odori-index.h"
#include "odori-media.h"
#include "odori-score.h"

/* The score's music decodes (through the waveform cache, as the window opens it) and its
 * beats file reads. A score opens without them; check says what is wrong. */
static gboolean
check_music (OdoriScore *score,
             GPtrArray  *diags)
{
  g_autofree char *music = odori_score_dup_music_path (score);
  g_autofree char *beats = odori_score_dup_beats_path (score);
  gboolean ok = TRUE;

  if (music != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriWaveform) waveform = odori_waveform_load (music, NULL, NULL, NULL, &error);

      if (waveform == NULL)
        {
          g_ptr_array_add (diags, odori_diagnostic_new (score->path, 0, TRUE, "%s",
                                                        error->message));
          ok = FALSE;
        }
    }
  if (beats != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) times = odori_beats_load (beats, &error);

      if (times == NULL)
        {
          g_ptr_array_add (diags, odori_diagnostic_new (NULL, 0, TRUE, "%s", error->message));
          ok = FALSE;
        }
    }
  return ok;
}

int
_odori_cli_cmd_check (int    argc,
                      char **argv)
{
  gboolean           json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the diagnostics as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) diags = odori_diagnostics_new ();
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  int      status = EXIT_OK;

  context = _odori_cli_command_context ("check", "INDEX [SCORE]",
                                        _("Load the index and every show file, check frame ranges against the files,\n"
                                          "and resolve every symbol of the score. Prints each warning and error as\n"
                                          "FILE:LINE: message; exits 1 if there is any error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2 || argc > 3)
    return _odori_cli_usage_error (context, _("check needs an INDEX and at most one SCORE"));

  index = odori_index_load (argv[1], &error);
  if (index == NULL)
    {
      g_ptr_array_add (diags, odori_diagnostic_new (NULL, 0, TRUE, "%s", error->message));
      ok = FALSE;
    }
  else
    {
      for (guint i = 0; i < index->warnings->len; i++)
        {
          OdoriDiagnostic *d = g_ptr_array_index (index->warnings, i);
          g_ptr_array_add (diags, odori_diagnostic_new (d->file, d->line, d->is_error, "%s", d->message));
        }
      ok = odori_index_check_files (index, diags) && ok;
    }

  if (argc == 3)
    {
      g_clear_error (&error);
      score = odori_score_load (argv[2], &error);
      if (score == NULL)
        {
          g_ptr_array_add (diags, odori_diagnostic_new (NULL, 0, TRUE, "%s", error->message));
          ok = FALSE;
        }
      else
        {
          for (guint i = 0; i < score->warnings->len; i++)
            {
              OdoriDiagnostic *d = g_ptr_array_index (score->warnings, i);
              g_ptr_array_add (diags, odori_diagnostic_new (d->file, d->line, d->is_error, "%s", d->message));
            }
          if (index != NULL)
            ok = odori_score_resolve (score, index, diags) && ok;
          if (index != NULL && ok)
            {
              /* A score that mixes show files of different skeletons composes the
               * reference skeleton's sensors only: say so. */
              g_autoptr(GError) compose_error = NULL;
              g_autoptr(OdoriComposer) composer = odori_composer_new (score, index, &compose_error);

              if (composer != NULL)
                odori_composer_check_sensor_sets (composer, diags);
              /* the index's ranges were checked above: this is an in= or out= beyond its
               * motion (the message names the score's file and line) */
              else if (g_error_matches (compose_error, ODORI_COMPOSE_ERROR,
                                        ODORI_COMPOSE_ERROR_RANGE))
                g_ptr_array_add (diags, odori_diagnostic_new (NULL, 0, TRUE, "%s",
                                                              compose_error->message));
            }
          ok = check_music (score, diags) && ok;
        }
    }

  for (guint i = 0; i < diags->len; i++)
    if (((OdoriDiagnostic *) g_ptr_array_index (diags, i))->is_error)
      ok = FALSE;

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ok");
      json_builder_add_boolean_value (b, ok);
      json_builder_set_member_name (b, "diagnostics");
      json_builder_begin_array (b);
      for (guint i = 0; i < diags->len; i++)
        {
          OdoriDiagnostic *d = g_ptr_array_index (diags, i);
          g_autofree char *text = odori_diagnostic_to_string (d);

          json_builder_begin_object (b);
          _odori_cli_add_string (b, "severity", d->is_error ? "error" : "warning");
          _odori_cli_add_string (b, "file", d->file);
          json_builder_set_member_name (b, "line");
          json_builder_add_int_value (b, d->line);
          _odori_cli_add_string (b, "message", d->message);
          _odori_cli_add_string (b, "text", text);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      _odori_cli_print_json (root);
    }
  else
    {
      for (guint i = 0; i < diags->len; i++)
        {
          OdoriDiagnostic *d = g_ptr_array_index (diags, i);
          g_autofree char *text = odori_diagnostic_to_string (d);

          if (d->is_error)
            g_printerr ("%s\n", text);
          else
            g_printerr (_("%s (warning)\n"), text);
        }
      if (ok)
        g_print ("%s: OK%s\n", argv[argc - 1], diags->len ? _(", with warnings") : "");
    }
  return ok ? EXIT_OK : EXIT_INPUT;
}
