/* odori-compose-private.h: hooks of the composer for the core's own tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not installed, not for the application.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Composers split their frames between N threads from now on, however few there are
 * (0: as the amount of work decides). For tests comparing the parallel composition
 * with the sequential one on small scores. Process-wide. */
void  odori_composer_set_test_threads       (guint n);
/* Recomposes so far that ran on more than one thread. */
guint odori_composer_get_test_parallel_runs (void);

G_END_DECLS
