/* odori-waveform.c: OdoriWaveform, min/max peaks of a music at two block sizes, and
 * their cache on disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cache file (g_get_user_cache_dir()/odori/waveforms/SHA256.peaks, SHA256 of
 * "absolute path\nsize\nmtime") is little-endian:
 *
 *   "ODORIPK1"  magic
 *   u32 rate, u32 block, u64 n_samples, u64 size, i64 mtime (µs), u64 n_blocks
 *   n_blocks × (f32 min, f32 max)
 *   u32 checksum: FNV-1a over everything before it
 *
 * It is believed only if every field agrees with the file and with the others (sizes,
 * counts, min ≤ max, finite values, checksum); anything else is a miss and is rewritten.
 * The coarse level is rebuilt from the fine one on reading (a few microseconds).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-media-private.h"

#define COARSE_RATIO (ODORI_WAVEFORM_COARSE_BLOCK / ODORI_WAVEFORM_BLOCK)
#define MAGIC        "ODORIPK1"
#define HEADER_SIZE  (8 + 4 + 4 + 8 + 8 + 8 + 8)

G_STATIC_ASSERT (ODORI_WAVEFORM_COARSE_BLOCK % ODORI_WAVEFORM_BLOCK == 0);

struct _OdoriWaveform
{
  gatomicrefcount ref_count;
  guint           rate;
  gsize           n_samples;
  gboolean        from_cache;
  gsize           n_fine;   /* ceil (n_samples / ODORI_WAVEFORM_BLOCK) */
  float          *fine;     /* n_fine × (min, max) */
  gsize           n_coarse; /* ceil (n_fine / COARSE_RATIO) */
  float          *coarse;   /* n_coarse × (min, max) */
};

G_DEFINE_BOXED_TYPE (OdoriWaveform, odori_waveform, odori_waveform_ref, odori_waveform_unref)

OdoriWaveform *
odori_waveform_ref (OdoriWaveform *waveform)
{
  g_return_val_if_fail (waveform != NULL, NULL);
  g_atomic_ref_count_inc (&waveform->ref_count);
  return waveform;
}

void
odori_waveform_unref (OdoriWaveform *waveform)
{
  g_return_if_fail (waveform != NULL);
  if (g_atomic_ref_count_dec (&waveform->ref_count))
    {
      g_free (waveform->fine);
      g_free (waveform->coarse);
      g_free (waveform);
    }
}

static void
build_coarse (OdoriWaveform *w)
{
  w->n_coarse = (w->n_fine + COARSE_RATIO - 1) / COARSE_RATIO;
  w->coarse = g_new (float, 2 * MAX (w->n_coarse, 1));
  for (gsize c = 0; c < w->n_coarse; c++)
    {
      gsize first = c * COARSE_RATIO;
      gsize last = MIN (first + COARSE_RATIO, w->n_fine);
      float lo = w->fine[2 * first], hi = w->fine[2 * first + 1];

      for (gsize b = first + 1; b < last; b++)
        {
          lo = MIN (lo, w->fine[2 * b]);
          hi = MAX (hi, w->fine[2 * b + 1]);
        }
      w->coarse[2 * c] = lo;
      w->coarse[2 * c + 1] = hi;
    }
}

/* Takes FINE (n_fine pairs). */
static OdoriWaveform *
waveform_new (guint  rate,
              gsize  n_samples,
              float *fine)
{
  OdoriWaveform *w = g_new0 (OdoriWaveform, 1);

  g_atomic_ref_count_init (&w->ref_count);
  w->rate = rate;
  w->n_samples = n_samples;
  w->n_fine = (n_samples + ODORI_WAVEFORM_BLOCK - 1) / ODORI_WAVEFORM_BLOCK;
  w->fine = fine;
  build_coarse (w);
  return w;
}

OdoriWaveform *
odori_waveform_new_from_audio (const OdoriAudio *audio)
{
  gsize        n;
  const float *s;
  gsize        n_fine;
  float       *fine;

  g_return_val_if_fail (audio != NULL, NULL);
  s = odori_audio_get_samples (audio, &n);
  n_fine = (n + ODORI_WAVEFORM_BLOCK - 1) / ODORI_WAVEFORM_BLOCK;
  fine = g_new (float, 2 * MAX (n_fine, 1));
  for (gsize b = 0; b < n_fine; b++)
    {
      gsize first = b * ODORI_WAVEFORM_BLOCK;
      gsize last = MIN (first + ODORI_WAVEFORM_BLOCK, n);
      float lo = s[first], hi = s[first];

      for (gsize i = first + 1; i < last; i++)
        {
          lo = MIN (lo, s[i]);
          hi = MAX (hi, s[i]);
        }
      fine[2 * b] = lo;
      fine[2 * b + 1] = hi;
    }
  return waveform_new (odori_audio_get_rate (audio), n, fine);
}

guint
odori_waveform_get_rate (const OdoriWaveform *waveform)
{
  g_return_val_if_fail (waveform != NULL, 0);
  return waveform->rate;
}

gsize
odori_waveform_get_n_samples (const OdoriWaveform *waveform)
{
  g_return_val_if_fail (waveform != NULL, 0);
  return waveform->n_samples;
}

double
odori_waveform_get_duration (const OdoriWaveform *waveform)
{
  g_return_val_if_fail (waveform != NULL, 0);
  return (double) waveform->n_samples / waveform->rate;
}

gboolean
odori_waveform_get_from_cache (const OdoriWaveform *waveform)
{
  g_return_val_if_fail (waveform != NULL, FALSE);
  return waveform->from_cache;
}

static inline void
widen (const float *pairs,
       gsize        first,
       gsize        last,
       float       *lo,
       float       *hi)
{
  for (gsize b = first; b < last; b++)
    {
      *lo = MIN (*lo, pairs[2 * b]);
      *hi = MAX (*hi, pairs[2 * b + 1]);
    }
}

gboolean
odori_waveform_get_peak (const OdoriWaveform *waveform,
                         gsize                start,
                         gsize                end,
                         float               *min,
                         float               *max)
{
  gsize b0, b1, c0, c1;
  float lo = INFINITY, hi = -INFINITY;

  g_return_val_if_fail (waveform != NULL, FALSE);
  end = MIN (end, waveform->n_samples);
  if (start >= end)
    {
      if (min != NULL)
        *min = 0;
      if (max != NULL)
        *max = 0;
      return FALSE;
    }
  b0 = start / ODORI_WAVEFORM_BLOCK;
  b1 = (end + ODORI_WAVEFORM_BLOCK - 1) / ODORI_WAVEFORM_BLOCK;
  /* whole coarse blocks inside [b0, b1), fine blocks at either edge */
  c0 = (b0 + COARSE_RATIO - 1) / COARSE_RATIO;
  c1 = b1 / COARSE_RATIO;
  if (b1 == waveform->n_fine)
    c1 = waveform->n_coarse;
  if (c0 < c1)
    {
      widen (waveform->fine, b0, c0 * COARSE_RATIO, &lo, &hi);
      widen (waveform->coarse, c0, c1, &lo, &hi);
      widen (waveform->fine, MIN (c1 * COARSE_RATIO, b1), b1, &lo, &hi);
    }
  else
    widen (waveform->fine, b0, b1, &lo, &hi);
  if (min != NULL)
    *min = lo;
  if (max != NULL)
    *max = hi;
  return TRUE;
}

/* The cache --------------------------------------------------------------------------- */

typedef struct
{
  guint64 size;
  gint64  mtime; /* µs */
} Stamp;

static gboolean
stamp_file (const char *path,
            char      **absolute,
            Stamp      *stamp)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file,
                                                  G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                                  G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info == NULL)
    return FALSE;
  stamp->size = (guint64) g_file_info_get_size (info);
  stamp->mtime = (gint64) g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * G_USEC_PER_SEC + g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  *absolute = g_file_get_path (file);
  return *absolute != NULL;
}

static char *
cache_path_for (const char  *absolute,
                const Stamp *stamp)
{
  g_autofree char *key = g_strdup_printf ("%s\n%" G_GUINT64_FORMAT "\n%" G_GINT64_FORMAT, absolute,
                                          stamp->size, stamp->mtime);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  g_autofree char *name = g_strconcat (hash, ".peaks", NULL);

  return g_build_filename (g_get_user_cache_dir (), "odori", "waveforms", name, NULL);
}

char *
odori_waveform_dup_cache_path (const char *path)
{
  g_autofree char *absolute = NULL;
  Stamp            stamp;

  g_return_val_if_fail (path != NULL, NULL);
  if (!stamp_file (path, &absolute, &stamp))
    return NULL;
  return cache_path_for (absolute, &stamp);
}

static guint32
fnv1a (const guint8 *data,
       gsize         len)
{
  guint32 h = 2166136261u;

  for (gsize i = 0; i < len; i++)
    h = (h ^ data[i]) * 16777619u;
  return h;
}

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 4);
}

static void
put_u64 (GByteArray *out,
         guint64     v)
{
  v = GUINT64_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 8);
}

static guint32
get_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static guint64
get_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static void
cache_write (const char          *cache_path,
             const OdoriWaveform *w,
             const Stamp         *stamp)
{
  g_autoptr(GByteArray) out = g_byte_array_sized_new (HEADER_SIZE + 8 * w->n_fine + 4);
  g_autofree char *dir = g_path_get_dirname (cache_path);
  g_autoptr(GError) error = NULL;

  g_byte_array_append (out, (const guint8 *) MAGIC, 8);
  put_u32 (out, w->rate);
  put_u32 (out, ODORI_WAVEFORM_BLOCK);
  put_u64 (out, w->n_samples);
  put_u64 (out, stamp->size);
  put_u64 (out, (guint64) stamp->mtime);
  put_u64 (out, w->n_fine);
  for (gsize i = 0; i < 2 * w->n_fine; i++)
    {
      guint32 bits;

      memcpy (&bits, &w->fine[i], 4);
      put_u32 (out, bits);
    }
  put_u32 (out, fnv1a (out->data, out->len));
  /* a cache is a convenience: failing to write one is no error */
  if (g_mkdir_with_parents (dir, 0700) != 0 || !g_file_set_contents (cache_path, (const char *) out->data, out->len, &error))
    g_debug ("cannot write the waveform cache %s: %s", cache_path,
             error != NULL ? error->message : g_strerror (errno));
}

/* The waveform in CACHE_PATH if it is whole and made for STAMP, else NULL. */
static OdoriWaveform *
cache_read (const char  *cache_path,
            const Stamp *stamp)
{
  g_autofree char  *data = NULL;
  gsize             len = 0;
  const guint8     *p;
  guint64           n_samples, n_fine;
  g_autofree float *fine = NULL;
  OdoriWaveform    *w;

  if (!g_file_get_contents (cache_path, &data, &len, NULL) || len < HEADER_SIZE + 4)
    return NULL;
  p = (const guint8 *) data;
  n_samples = get_u64 (p + 16);
  n_fine = get_u64 (p + 40);
  if (memcmp (p, MAGIC, 8) != 0 || get_u32 (p + 8) != ODORI_AUDIO_RATE || get_u32 (p + 12) != ODORI_WAVEFORM_BLOCK || get_u64 (p + 24) != stamp->size || (gint64) get_u64 (p + 32) != stamp->mtime || n_samples == 0 || n_fine != (n_samples + ODORI_WAVEFORM_BLOCK - 1) / ODORI_WAVEFORM_BLOCK || n_fine > (G_MAXSIZE - HEADER_SIZE - 4) / 8 || len != HEADER_SIZE + 8 * n_fine + 4 || get_u32 (p + len - 4) != fnv1a (p, len - 4))
    return NULL;
  fine = g_new (float, 2 * n_fine);
  for (gsize i = 0; i < 2 * n_fine; i++)
    {
      guint32 bits = get_u32 (p + HEADER_SIZE + 4 * i);

      memcpy (&fine[i], &bits, 4);
      if (!isfinite (fine[i]))
        return NULL;
    }
  for (gsize b = 0; b < n_fine; b++)
    if (fine[2 * b] > fine[2 * b + 1])
      return NULL;
  w = waveform_new (ODORI_AUDIO_RATE, n_samples, g_steal_pointer (&fine));
  w->from_cache = TRUE;
  return w;
}

static OdoriWaveform *
waveform_load (const char    *path,
               GCancellable  *cancellable,
               OdoriProgress *progress,
               GError       **error)
{
  g_autofree char *absolute = NULL;
  g_autofree char *cache_path = NULL;
  g_autoptr(OdoriAudio) audio = NULL;
  OdoriWaveform *w;
  Stamp          stamp;
  gboolean       stamped = stamp_file (path, &absolute, &stamp);

  if (stamped)
    {
      cache_path = cache_path_for (absolute, &stamp);
      w = cache_read (cache_path, &stamp);
      if (w != NULL)
        {
          _odori_progress_set (progress, 1.0);
          return w;
        }
    }
  audio = _odori_audio_decode (path, cancellable, progress, error);
  if (audio == NULL)
    return NULL;
  w = odori_waveform_new_from_audio (audio);
  if (stamped)
    cache_write (cache_path, w, &stamp);
  return w;
}

OdoriWaveform *
odori_waveform_load (const char            *path,
                     GCancellable          *cancellable,
                     OdoriMediaProgressFunc progress,
                     gpointer               progress_data,
                     GError               **error)
{
  return _odori_media_run_sync (path, (OdoriMediaJobFunc) waveform_load, cancellable, progress,
                                progress_data, error);
}

void
odori_waveform_load_async (const char            *path,
                           GCancellable          *cancellable,
                           OdoriMediaProgressFunc progress,
                           gpointer               progress_data,
                           GAsyncReadyCallback    callback,
                           gpointer               user_data)
{
  g_return_if_fail (path != NULL);
  _odori_media_run_async (path, (OdoriMediaJobFunc) waveform_load,
                          (GDestroyNotify) odori_waveform_unref, odori_waveform_load_async,
                          cancellable, progress, progress_data, callback, user_data);
}

OdoriWaveform *
odori_waveform_load_finish (GAsyncResult *result,
                            GError      **error)
{
  return _odori_media_run_finish (result, odori_waveform_load_async, error);
}
