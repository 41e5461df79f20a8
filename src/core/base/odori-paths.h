/* odori-paths.h: where Odori's own data and translations are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window and odori-cli look these up the same way, here: an environment variable
 * first, then (for a program run from its build tree) the source and build trees, then
 * the installed directories. docs/desktop.md lists the variables.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The path of data file NAME (e.g. "bulge_types"): in $ODORI_DATADIR, the source tree's
 * data/ (uninstalled runs), then the installed data directory. NULL if none has it. */
char          *odori_find_data_file          (const char *name);

/* Where the translations are: $ODORI_LOCALEDIR if set; else the installed catalogues;
 * else, for an uninstalled build, the ones compiled in the build tree (build/po). */
const char    *odori_localedir               (void);

G_END_DECLS
