/* odori-motion-cache.h: motion files loaded once and shared
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-motion.h"

G_BEGIN_DECLS

/* Motion files loaded once and shared: the window's library browser and its composer
 * (which may run on a worker thread) ask for the same shows, and a one-hour capture is
 * hundreds of megabytes a copy. Thread-safe; loads happen one at a time. Failures are
 * not kept (a file fixed on disk loads next time). */
OdoriMotionCache *odori_motion_cache_new   (void);
OdoriMotionCache *odori_motion_cache_ref   (OdoriMotionCache  *cache);
void              odori_motion_cache_unref (OdoriMotionCache  *cache);
/* PATH's motion (odori_format_load_motion the first time): a new reference, or NULL with
 * ERROR set. */
OdoriMotion      *odori_motion_cache_load  (OdoriMotionCache  *cache,
                                            const char        *path,
                                            GError           **error);
/* Forgets every motion (their holders keep theirs). */
void              odori_motion_cache_clear (OdoriMotionCache  *cache);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriMotionCache, odori_motion_cache_unref)

G_END_DECLS
