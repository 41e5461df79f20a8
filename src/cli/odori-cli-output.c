/* odori-cli-output.c: how odori-cli prints: JSON and text helpers, and the print handlers
 * that keep UTF-8 under an ASCII locale
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "odori-cli-output.h"
#include "odori-types.h"

void
_odori_cli_print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  /* JSON is UTF-8 whatever the locale (RFC 8259): written as bytes, never converted. */
  fputs (text, stdout);
  fputc ('\n', stdout);
}

void
_odori_cli_add_diagnostics (JsonBuilder *b,
                            const char  *member,
                            GPtrArray   *diags)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; diags != NULL && i < diags->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (diags, i));
      json_builder_add_string_value (b, text);
    }
  json_builder_end_array (b);
}

void
_odori_cli_add_string (JsonBuilder *b,
                       const char  *member,
                       const char  *value)
{
  json_builder_set_member_name (b, member);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

void
_odori_cli_add_strv (JsonBuilder       *b,
                     const char        *member,
                     const char *const *strv)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_builder_add_string_value (b, strv[i]);
  json_builder_end_array (b);
}

/* A float as the double of its shortest decimal form: 0.291667, not 0.29166701436. */
double
_odori_cli_clean_float (float x)
{
  static const char *const formats[] = { "%.6g", "%.7g", "%.8g", "%.9g" };
  char                     buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      double d = g_ascii_strtod (g_ascii_formatd (buf, sizeof buf, formats[i], x), NULL);

      if ((float) d == x)
        return d;
    }
  return x;
}

void
_odori_cli_print_warnings_text (GPtrArray *warnings)
{
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (warnings, i));
      g_print (_("  warning: %s\n"), text);
    }
}

void
_odori_cli_print_diagnostics_err (GPtrArray *diagnostics)
{
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

      g_printerr ("%s\n", text);
    }
}

static void
print_utf8 (const char *text)
{
  fputs (text, stdout);
  fflush (stdout);
}

static void
printerr_utf8 (const char *text)
{
  fputs (text, stderr);
  fflush (stderr);
}

/* GLib converts g_print's UTF-8 to the locale's charset, and an ASCII charset (the "C"
 * and "POSIX" locales, LANG unset in a container or under env -i) turns every Japanese
 * name and every "°" into "?". Odori's data is Japanese: under an ASCII charset the text
 * goes out as UTF-8; any other charset (EUC-JP, say) is still converted. */
void
_odori_cli_print_utf8_unless_locale_says_otherwise (void)
{
  const char *charset = NULL;

  if (g_get_charset (&charset))
    return;
  if (g_ascii_strcasecmp (charset, "ANSI_X3.4-1968") == 0 || g_ascii_strcasecmp (charset, "ASCII") == 0 ||
      g_ascii_strcasecmp (charset, "US-ASCII") == 0 || g_ascii_strcasecmp (charset, "646") == 0)
    {
      g_set_print_handler (print_utf8);
      g_set_printerr_handler (printerr_utf8);
    }
}
