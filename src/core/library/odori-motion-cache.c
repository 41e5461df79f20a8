/* odori-motion-cache.c: motion files loaded once and shared (thread-safe)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-format.h"
#include "odori-motion-cache.h"

struct _OdoriMotionCache
{
  gatomicrefcount  ref_count;
  GMutex           lock;
  GHashTable      *motions;   /* path -> OdoriMotion */
};

OdoriMotionCache *
odori_motion_cache_new (void)
{
  OdoriMotionCache *cache = g_new0 (OdoriMotionCache, 1);

  g_atomic_ref_count_init (&cache->ref_count);
  g_mutex_init (&cache->lock);
  cache->motions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) odori_motion_unref);
  return cache;
}

OdoriMotionCache *
odori_motion_cache_ref (OdoriMotionCache *cache)
{
  g_return_val_if_fail (cache != NULL, NULL);
  g_atomic_ref_count_inc (&cache->ref_count);
  return cache;
}

void
odori_motion_cache_unref (OdoriMotionCache *cache)
{
  if (cache == NULL || !g_atomic_ref_count_dec (&cache->ref_count))
    return;
  g_hash_table_unref (cache->motions);
  g_mutex_clear (&cache->lock);
  g_free (cache);
}

OdoriMotion *
odori_motion_cache_load (OdoriMotionCache  *cache,
                         const char        *path,
                         GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autofree char *key = NULL;
  OdoriMotion *motion;

  g_return_val_if_fail (cache != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  /* "lib/./a.bva" and "/home/x/lib/a.bva" are one file */
  key = g_canonicalize_filename (path, NULL);
  locker = g_mutex_locker_new (&cache->lock);
  motion = g_hash_table_lookup (cache->motions, key);
  if (motion == NULL)
    {
      motion = odori_format_load_motion (path, NULL, error);
      if (motion == NULL)
        return NULL;
      g_hash_table_insert (cache->motions, g_steal_pointer (&key), motion);
    }
  return odori_motion_ref (motion);
}

void
odori_motion_cache_clear (OdoriMotionCache *cache)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_if_fail (cache != NULL);
  locker = g_mutex_locker_new (&cache->lock);
  g_hash_table_remove_all (cache->motions);
}
