/* odori-index-files.h: an index checked against the show files it names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The index model (odori-index.h) reads and writes motion.dat only; loading the motion
 * files it names needs every reader, so that check lives here, above the formats.
 */
#pragma once

#include "odori-index.h"

G_BEGIN_DECLS

/* Loads every show file and checks each motion's frame range against it. Appends an
 * OdoriDiagnostic per problem (errors: missing file, unreadable file, range beyond the
 * file; the show file's own warnings too). Returns FALSE if any error was found. */
gboolean          odori_index_check_files  (OdoriIndex     *index,
                                            GPtrArray      *diagnostics);

G_END_DECLS
