/* odori-cli-output.h: how odori-cli prints: JSON and text helpers, and the print handlers
 * that keep UTF-8 under an ASCII locale
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void   _odori_cli_print_json (JsonNode *node);
void   _odori_cli_add_string (JsonBuilder *b,
                              const char  *member,
                              const char  *value);
void   _odori_cli_add_strv (JsonBuilder       *b,
                            const char        *member,
                            const char *const *strv);
void   _odori_cli_add_diagnostics (JsonBuilder *b,
                                   const char  *member,
                                   GPtrArray   *diags);
double _odori_cli_clean_float (float x);
void   _odori_cli_print_warnings_text (GPtrArray *warnings);
void   _odori_cli_print_diagnostics_err (GPtrArray *diagnostics);
void   _odori_cli_print_utf8_unless_locale_says_otherwise (void);

G_END_DECLS
