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

/* Readers parse with N threads from now on, whatever the file's size (0: as
 * odori_text_load_threads() decides). For tests comparing the parallel readers with the
 * sequential ones on small files. */
void odori_text_set_test_load_threads (guint n);
/* Loads that the parallel readers finished without handing over to the sequential ones
 * (so that tests can tell which path a file took). */
guint odori_text_get_test_parallel_loads (void);
void  odori_text_count_parallel_load (void);

G_END_DECLS
