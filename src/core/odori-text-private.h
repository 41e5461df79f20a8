/* odori-text-private.h: hooks of the text layer for the core's own tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not installed, not for the application. Tests include it to reach writers that only
 * expose a *_save (path) function.
 */
#pragma once

#include "odori-text.h"

G_BEGIN_DECLS

/* Fault injection: every file output created after this call (odori_output_new, so
 * every *_save) fails with ENOSPC once LIMIT bytes are written, as
 * odori_output_set_fail_after() does for one output. G_MAXSIZE turns it off again.
 * Process-wide and not thread-safe: for single-threaded tests only. */
void odori_output_set_test_fail_after (gsize limit);

G_END_DECLS
