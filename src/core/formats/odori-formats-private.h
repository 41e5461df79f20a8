/* odori-formats-private.h: what the readers tell the library layer beyond their API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not installed. For odori-format.c (odori_format_load_streamed_motion ()), which `odori-cli
 * info` uses to summarise a motion without mapping the whole file.
 */
#pragma once

#include "odori-motion.h"
#include "odori-text.h"

G_BEGIN_DECLS

/* odori_bva_load () and odori_bvh_load (), which also set *ENCODING (if not NULL) when
 * they return a motion: UTF-8 with or without BOM for a streamed file, the decoded
 * encoding for a file read whole (Shift_JIS). */
OdoriMotion *odori_bva_load_encoded (const char    *path,
                                     OdoriEncoding *encoding,
                                     GPtrArray     *warnings,
                                     GError       **error);
OdoriMotion *odori_bvh_load_encoded (const char    *path,
                                     OdoriEncoding *encoding,
                                     GPtrArray     *warnings,
                                     GError       **error);

G_END_DECLS
