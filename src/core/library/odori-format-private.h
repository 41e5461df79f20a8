/* odori-format-private.h: the streamed motion loader, with what it read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not installed. For `odori-cli info`, which summarises a BVA or BVH from the streamed
 * reader (one buffer a thread) instead of mapping the whole file.
 */
#pragma once

#include "odori-format.h"
#include "odori-text.h"

G_BEGIN_DECLS

/* When the first 64 KiB of PATH are a UTF-8 BVA or BVH: sets *FORMAT to it and loads the
 * motion as odori_format_load_motion () does (streamed; a file that turns out not to be
 * plain UTF-8 is read whole), setting *ENCODING (if not NULL) when it returns one.
 * Otherwise *FORMAT is ODORI_FORMAT_UNKNOWN and it returns NULL without an error: the
 * caller reads the file its own way. */
OdoriMotion *odori_format_load_streamed_motion (const char    *path,
                                                OdoriFormat   *format,
                                                OdoriEncoding *encoding,
                                                GPtrArray     *warnings,
                                                GError       **error);

G_END_DECLS
