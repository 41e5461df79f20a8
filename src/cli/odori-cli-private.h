/* odori-cli-private.h: what odori-cli's source files share: the exit statuses, the
 * dispatcher's option helpers, the motion writer and each command's entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "odori-bvh.h"

G_BEGIN_DECLS

enum
{
  EXIT_OK = 0,
  EXIT_INPUT = 1,
  EXIT_USAGE = 2,
};

/* odori-cli.c: the options every command shares */
int             _odori_cli_usage_error (GOptionContext *context,
                                        const char     *message);
GOptionContext *_odori_cli_command_context (const char *name,
                                            const char *args,
                                            const char *summary);
gboolean        _odori_cli_parse_options (GOptionContext *context,
                                          int            *argc,
                                          char         ***argv,
                                          int            *status);

/* odori-cli-save.c: writing a motion (convert, compose) */
gboolean _odori_cli_save_motion (OdoriMotion      *motion,
                                 const char       *output,
                                 OdoriBvhPositions positions,
                                 GError          **error);
gboolean _odori_cli_parse_bvh_positions (const char        *arg,
                                         OdoriBvhPositions *positions);
gboolean _odori_cli_output_extension_ok (const char *output);

/* One entry point per command, each in odori-cli-COMMAND.c: ARGV[0] is the command's
 * name; returns the exit status. */
int _odori_cli_cmd_info (int    argc,
                         char **argv);
int _odori_cli_cmd_check (int    argc,
                          char **argv);
int _odori_cli_cmd_compose (int    argc,
                            char **argv);
int _odori_cli_cmd_convert (int    argc,
                            char **argv);
int _odori_cli_cmd_sample (int    argc,
                           char **argv);
int _odori_cli_cmd_import (int    argc,
                           char **argv);
int _odori_cli_cmd_remove_show (int    argc,
                                char **argv);
int _odori_cli_cmd_render (int    argc,
                           char **argv);
int _odori_cli_cmd_beats (int    argc,
                          char **argv);
int _odori_cli_cmd_print (int    argc,
                          char **argv);

G_END_DECLS
