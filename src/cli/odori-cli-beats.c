/* odori-cli-beats.c: the beats command: decode a music file and print its tempo, downbeat
 * and beat times (libodori-media), as text or JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-media.h"

/* X rounded to DIGITS decimals, as text that ignores the locale. */
static const char *
format_fixed (char  *buf,
              gsize  size,
              int    digits,
              double x)
{
  char format[8];

  g_snprintf (format, sizeof format, "%%.%df", digits);
  return g_ascii_formatd (buf, (int) size, format, x);
}

/* X rounded to DIGITS decimals, as the double of that decimal. */
static double
round_to (double x,
          int    digits)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_ascii_strtod (format_fixed (buf, sizeof buf, digits, x), NULL);
}

static void
print_json (const char     *path,
            OdoriBeatTrack *beats,
            double          duration)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint         n;
  const double *times = odori_beat_track_get_times (beats, &n);

  json_builder_begin_object (b);
  _odori_cli_add_string (b, "file", path);
  json_builder_set_member_name (b, "duration");
  json_builder_add_double_value (b, round_to (duration, 3));
  json_builder_set_member_name (b, "tempo");
  json_builder_add_double_value (b, round_to (odori_beat_track_get_tempo (beats), 2));
  json_builder_set_member_name (b, "downbeat");
  json_builder_add_double_value (b, round_to (odori_beat_track_get_downbeat (beats), 3));
  json_builder_set_member_name (b, "beats");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_double_value (b, round_to (times[i], 3));
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  _odori_cli_print_json (root);
}

static void
print_text (const char     *path,
            OdoriBeatTrack *beats,
            double          duration)
{
  char          tempo[G_ASCII_DTOSTR_BUF_SIZE], downbeat[G_ASCII_DTOSTR_BUF_SIZE];
  char          length[G_ASCII_DTOSTR_BUF_SIZE], t[G_ASCII_DTOSTR_BUF_SIZE];
  guint         n;
  const double *times = odori_beat_track_get_times (beats, &n);

  format_fixed (tempo, sizeof tempo, 2, odori_beat_track_get_tempo (beats));
  format_fixed (downbeat, sizeof downbeat, 3, odori_beat_track_get_downbeat (beats));
  format_fixed (length, sizeof length, 1, duration);
  /* TRANSLATORS: FILE: tempo 120.00 bpm, downbeat at 0.512 s, 48 beats in 24.0 s */
  g_print (ngettext ("%s: tempo %s bpm, downbeat at %s s, %u beat in %s s\n",
                     "%s: tempo %s bpm, downbeat at %s s, %u beats in %s s\n", n),
           path, tempo, downbeat, n, length);
  for (guint i = 0; i < n; i++)
    g_print ("  %s\n", format_fixed (t, sizeof t, 3, times[i]));
}

int
_odori_cli_cmd_beats (int    argc,
                      char **argv)
{
  gboolean           json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the tempo and beats as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(OdoriAudio) audio = NULL;
  g_autoptr(OdoriBeatTrack) beats = NULL;
  g_autoptr(GError) error = NULL;
  int status = EXIT_OK;

  context = _odori_cli_command_context ("beats", "MUSIC",
                                        _("Decode a music file (WAV, FLAC, Ogg, Opus, MP3, …) and print its tempo,\n"
                                           "its downbeat (the first beat) and the time of every beat, in seconds."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("beats needs one MUSIC file"));

  audio = odori_audio_decode (argv[1], NULL, NULL, NULL, &error);
  if (audio != NULL)
    beats = odori_beat_track_detect (audio, NULL, &error);
  if (beats == NULL)
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  if (json)
    print_json (argv[1], beats, odori_audio_get_duration (audio));
  else
    print_text (argv[1], beats, odori_audio_get_duration (audio));
  return EXIT_OK;
}
