/* odori-beat-track.c: OdoriBeatTrack, the tempo and beats of a music by aubio's tempo tracker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * aubio_tempo_t ("default" method: spectral flux onsets, then its beat tracker) runs
 * over the decoded samples in hops of HOP samples (5.8 ms at 22050 Hz). The tempo is not
 * aubio's own running estimate but a fit over the whole music: the median inter-beat
 * interval M picks the beats that lie 1 … n periods after the last beat kept (within a
 * quarter period), each gets an index by rounding that distance to periods of M, and a
 * least-squares line through (index, time) gives the period. So a missed beat
 * or a stray one shifts nothing, and the hop's quantisation averages out. Beats the
 * tracker skipped inside a steady run are put back (fill_gaps ()). aubio needs about
 * 1.5 s of music to lock on and stops short of the end: the grid is carried outwards
 * over the onsets that fall on it (extend_with_onsets ()), so the downbeat, the first
 * beat, is the music's first beat when its intro keeps the pulse. It is not a bar's
 * "1": the user moves it where the counting starts.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <aubio/aubio.h>
#include <gmodule.h>
#include <glib/gi18n.h>

#include "odori-media-private.h"

#define WIN_SIZE  1024
#define HOP_SIZE  128
#define MIN_BEATS 4

struct _OdoriBeatTrack
{
  gatomicrefcount ref_count;
  double          tempo;
  guint           n_beats;
  double         *times;
};

G_DEFINE_BOXED_TYPE (OdoriBeatTrack, odori_beat_track, odori_beat_track_ref, odori_beat_track_unref)

OdoriBeatTrack *
odori_beat_track_ref (OdoriBeatTrack *beats)
{
  g_return_val_if_fail (beats != NULL, NULL);
  g_atomic_ref_count_inc (&beats->ref_count);
  return beats;
}

void
odori_beat_track_unref (OdoriBeatTrack *beats)
{
  g_return_if_fail (beats != NULL);
  if (g_atomic_ref_count_dec (&beats->ref_count))
    {
      g_free (beats->times);
      g_free (beats);
    }
}

double
odori_beat_track_get_tempo (const OdoriBeatTrack *beats)
{
  g_return_val_if_fail (beats != NULL, 0);
  return beats->tempo;
}

double
odori_beat_track_get_downbeat (const OdoriBeatTrack *beats)
{
  g_return_val_if_fail (beats != NULL, 0);
  return beats->n_beats > 0 ? beats->times[0] : 0;
}

const double *
odori_beat_track_get_times (const OdoriBeatTrack *beats,
                            guint                *n_beats)
{
  g_return_val_if_fail (beats != NULL, NULL);
  if (n_beats != NULL)
    *n_beats = beats->n_beats;
  return beats->times;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Seconds per beat fitted over TIMES (see the top of the file); 0 if there is no pulse. */
static double
fit_period (const double *times,
            guint         n)
{
  g_autofree double *gaps = g_new (double, n);
  double             median, sk = 0, st = 0, skk = 0, skt = 0, k = 0, m = 0, denom;
  double             last = times[0];

  for (guint i = 1; i < n; i++)
    gaps[i - 1] = times[i] - times[i - 1];
  qsort (gaps, n - 1, sizeof (double), compare_double);
  median = gaps[(n - 1) / 2];
  if (median <= 0)
    return 0;
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        {
          double periods = (times[i] - last) / median;
          double whole = round (periods);

          /* off the grid of the beats kept so far: a stray beat, left out */
          if (whole < 1 || fabs (periods - whole) > 0.25)
            continue;
          k += whole;
          last = times[i];
        }
      sk += k;
      st += times[i];
      skk += k * k;
      skt += k * times[i];
      m += 1;
    }
  denom = m * skk - sk * sk;
  if (m < 3 || denom <= 0)
    return median;
  return (m * skt - sk * st) / denom;
}

/* aubio's tracker now and then skips a beat at the edge of its analysis blocks: a gap of
 * a whole number of periods (within a quarter period) gets its beats back, evenly spaced. */
static void
fill_gaps (GArray *times,
           double  period)
{
  g_autoptr(GArray) out = g_array_sized_new (FALSE, FALSE, sizeof (double), times->len + 16);

  for (guint i = 0; i < times->len; i++)
    {
      double t = g_array_index (times, double, i);

      if (i > 0)
        {
          double prev = g_array_index (times, double, i - 1);
          double periods = (t - prev) / period;
          double whole = round (periods);

          if (whole >= 2 && whole <= 16 && fabs (periods - whole) <= 0.25)
            for (int k = 1; k < (int) whole; k++)
              {
                double fill = prev + k * (t - prev) / whole;

                g_array_append_val (out, fill);
              }
        }
      g_array_append_val (out, t);
    }
  g_array_set_size (times, 0);
  g_array_append_vals (times, out->data, out->len);
}

/* Nearest value of the sorted ONSETS to T, or NAN. */
static double
nearest (const GArray *onsets,
         double        t)
{
  double best = NAN;

  for (guint i = 0; i < onsets->len; i++)
    {
      double o = g_array_index (onsets, double, i);

      if (isnan (best) || fabs (o - t) < fabs (best - t))
        best = o;
      else if (o > t)
        break;
    }
  return best;
}

/* aubio's tracker needs 1.5 to 2 s of music to lock on, and stops a beat or two before
 * the end: the grid is carried on outwards, one period at a time, for as long as an onset
 * lies within TOLERANCE of where the next beat is due (minus OFFSET, the median distance
 * from the tracked beats to their onsets). */
#define TOLERANCE 0.035

static void
extend_with_onsets (GArray       *times,
                    const GArray *onsets,
                    double        period,
                    double        duration)
{
  g_autoptr(GArray) lead = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *diffs = g_new (double, times->len);
  guint              n_diffs = 0;
  double             offset = 0, t;

  for (guint i = 0; i < times->len; i++)
    {
      double b = g_array_index (times, double, i), o = nearest (onsets, b);

      if (!isnan (o) && fabs (o - b) <= TOLERANCE)
        diffs[n_diffs++] = o - b;
    }
  if (n_diffs >= MIN_BEATS)
    {
      qsort (diffs, n_diffs, sizeof (double), compare_double);
      offset = diffs[n_diffs / 2];
    }
  for (t = g_array_index (times, double, 0); t - period > -TOLERANCE;)
    {
      double o = nearest (onsets, t - period + offset);

      if (isnan (o) || fabs (o - (t - period + offset)) > TOLERANCE)
        break;
      t = MAX (0, o - offset);
      g_array_prepend_val (lead, t);
    }
  for (guint i = lead->len; i-- > 0;)
    g_array_prepend_val (times, g_array_index (lead, double, i));
  for (t = g_array_index (times, double, times->len - 1); t + period < duration;)
    {
      double o = nearest (onsets, t + period + offset);

      if (isnan (o) || fabs (o - (t + period + offset)) > TOLERANCE || o - offset <= t)
        break;
      t = o - offset;
      g_array_append_val (times, t);
    }
}

/* aubio is opened when a tempo is first detected, not linked: Debian's libaubio pulls in
 * FFmpeg's codecs, about a hundred libraries that cost every start of the window and of
 * odori-cli some 35 ms to map and relocate (docs/PERFORMANCE.md, "Window"), for a
 * feature most sessions never use. The compiler still checks the calls against aubio's
 * header: each pointer has the type of the function it stands for. */
typedef struct
{
  __typeof__ (&new_aubio_tempo)         new_tempo;
  __typeof__ (&aubio_tempo_do)          tempo_do;
  __typeof__ (&aubio_tempo_get_last_s)  tempo_get_last_s;
  __typeof__ (&del_aubio_tempo)         del_tempo;
  __typeof__ (&new_aubio_onset)         new_onset;
  __typeof__ (&aubio_onset_do)          onset_do;
  __typeof__ (&aubio_onset_get_last_s)  onset_get_last_s;
  __typeof__ (&del_aubio_onset)         del_onset;
  __typeof__ (&new_fvec)                new_vec;
  __typeof__ (&del_fvec)                del_vec;
} Aubio;

#define AUBIO_LIBRARY "libaubio.so.5"

static const Aubio *
load_aubio (GError **error)
{
  static Aubio aubio;
  static gsize loaded;
  static char *failure;

  if (g_once_init_enter (&loaded))
    {
      GModule *module = g_module_open (AUBIO_LIBRARY, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
      struct { const char *name; gpointer *slot; } symbols[] = {
        { "new_aubio_tempo", (gpointer *) &aubio.new_tempo },
        { "aubio_tempo_do", (gpointer *) &aubio.tempo_do },
        { "aubio_tempo_get_last_s", (gpointer *) &aubio.tempo_get_last_s },
        { "del_aubio_tempo", (gpointer *) &aubio.del_tempo },
        { "new_aubio_onset", (gpointer *) &aubio.new_onset },
        { "aubio_onset_do", (gpointer *) &aubio.onset_do },
        { "aubio_onset_get_last_s", (gpointer *) &aubio.onset_get_last_s },
        { "del_aubio_onset", (gpointer *) &aubio.del_onset },
        { "new_fvec", (gpointer *) &aubio.new_vec },
        { "del_fvec", (gpointer *) &aubio.del_vec },
      };

      if (module == NULL)
        failure = g_strdup (g_module_error ());
      for (guint i = 0; module != NULL && failure == NULL && i < G_N_ELEMENTS (symbols); i++)
        if (!g_module_symbol (module, symbols[i].name, symbols[i].slot) || *symbols[i].slot == NULL)
          failure = g_strdup_printf ("%s: %s", AUBIO_LIBRARY, g_module_error ());
      /* kept open for the rest of the process */
      g_once_init_leave (&loaded, 1);
    }
  if (failure != NULL)
    {
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NO_BEATS,
                   /* Translators: %s says why the library could not be opened */
                   _("Cannot detect tempos: the aubio library (Debian's libaubio5) cannot be opened: %s"), failure);
      return NULL;
    }
  return &aubio;
}

/* Runs aubio's tempo tracker and onset detector (spectral flux, as the tracker's own)
 * over AUDIO. */
static void
track (const Aubio      *a,
       const OdoriAudio *audio,
       GCancellable     *cancellable,
       GArray           *times,
       GArray           *onsets)
{
  aubio_tempo_t *tempo;
  aubio_onset_t *onset;
  fvec_t        *in, *out;
  gsize          n;
  const float   *s = odori_audio_get_samples (audio, &n);

  tempo = a->new_tempo ("default", WIN_SIZE, HOP_SIZE, odori_audio_get_rate (audio));
  onset = a->new_onset ("specflux", WIN_SIZE, HOP_SIZE, odori_audio_get_rate (audio));
  in = a->new_vec (HOP_SIZE);
  out = a->new_vec (1);
  for (gsize pos = 0; pos < n; pos += HOP_SIZE)
    {
      gsize len = MIN (HOP_SIZE, n - pos);

      if ((pos / HOP_SIZE) % 4096 == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      for (gsize i = 0; i < HOP_SIZE; i++)
        in->data[i] = i < len ? s[pos + i] : 0;
      a->tempo_do (tempo, in, out);
      if (out->data[0] != 0)
        {
          double t = a->tempo_get_last_s (tempo);

          if (t >= 0 && (times->len == 0 || t > g_array_index (times, double, times->len - 1)))
            g_array_append_val (times, t);
        }
      a->onset_do (onset, in, out);
      if (out->data[0] != 0)
        {
          double t = a->onset_get_last_s (onset);

          /* aubio reports an onset at 0 for any start, even silence: not a beat */
          if (t >= 2.0 * HOP_SIZE / odori_audio_get_rate (audio) && (onsets->len == 0 || t > g_array_index (onsets, double, onsets->len - 1)))
            g_array_append_val (onsets, t);
        }
    }
  a->del_vec (out);
  a->del_vec (in);
  a->del_onset (onset);
  a->del_tempo (tempo);
}

OdoriBeatTrack *
odori_beat_track_detect (const OdoriAudio *audio,
                         GCancellable     *cancellable,
                         GError          **error)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) onsets = g_array_new (FALSE, FALSE, sizeof (double));
  OdoriBeatTrack *beats;
  double          period;
  const Aubio    *aubio;

  g_return_val_if_fail (audio != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  aubio = load_aubio (error);
  if (aubio == NULL)
    return NULL;
  track (aubio, audio, cancellable, times, onsets);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (times->len < MIN_BEATS || (period = fit_period ((double *) (void *) times->data, times->len)) <= 0)
    {
      char length[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (length, sizeof length, "%.1f", odori_audio_get_duration (audio));
      g_set_error (error, ODORI_MEDIA_ERROR, ODORI_MEDIA_ERROR_NO_BEATS,
                   _("No steady beat was found in the music (%s s long)"), length);
      return NULL;
    }
  fill_gaps (times, period);
  extend_with_onsets (times, onsets, period, odori_audio_get_duration (audio));
  beats = g_new0 (OdoriBeatTrack, 1);
  g_atomic_ref_count_init (&beats->ref_count);
  beats->tempo = 60.0 / period;
  beats->n_beats = times->len;
  beats->times = (double *) (void *) g_array_free (g_steal_pointer (&times), FALSE);
  return beats;
}

static OdoriBeatTrack *
beats_detect_file (const char    *path,
                   GCancellable  *cancellable,
                   OdoriProgress *progress,
                   GError       **error)
{
  g_autoptr(OdoriAudio) audio = _odori_audio_decode (path, cancellable, progress, error);

  if (audio == NULL)
    return NULL;
  return odori_beat_track_detect (audio, cancellable, error);
}

OdoriBeatTrack *
odori_beat_track_detect_file (const char            *path,
                              GCancellable          *cancellable,
                              OdoriMediaProgressFunc progress,
                              gpointer               progress_data,
                              GError               **error)
{
  return _odori_media_run_sync (path, (OdoriMediaJobFunc) beats_detect_file, cancellable, progress,
                                progress_data, error);
}

void
odori_beat_track_detect_file_async (const char            *path,
                                    GCancellable          *cancellable,
                                    OdoriMediaProgressFunc progress,
                                    gpointer               progress_data,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  g_return_if_fail (path != NULL);
  _odori_media_run_async (path, (OdoriMediaJobFunc) beats_detect_file,
                          (GDestroyNotify) odori_beat_track_unref, odori_beat_track_detect_file_async,
                          cancellable, progress, progress_data, callback, user_data);
}

OdoriBeatTrack *
odori_beat_track_detect_file_finish (GAsyncResult *result,
                                     GError      **error)
{
  return _odori_media_run_finish (result, odori_beat_track_detect_file_async, error);
}
