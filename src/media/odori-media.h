/* odori-media.h: music for a dance: decoded audio, its waveform peaks (cached) and its
 * tempo and beats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libodori-media (GLib/GIO, GStreamer, aubio; no GTK). Three ref-counted boxed types:
 *
 *   OdoriAudio      the music decoded to mono float samples at ODORI_AUDIO_RATE
 *   OdoriWaveform   min/max peaks per ODORI_WAVEFORM_BLOCK samples and per
 *                   ODORI_WAVEFORM_COARSE_BLOCK samples, for drawing at any zoom;
 *                   cached on disk so a reopen does not decode
 *   OdoriBeatTrack  the tempo, the downbeat and the beat times found by aubio
 *
 * Every loader has a sync form (runs in the calling thread) and an async one (a GTask in
 * a worker thread). PROGRESS, when not NULL, is called with a fraction from 0 to 1: in
 * the calling thread by the sync forms; by the async forms in the thread-default main
 * context of the caller, never after the async callback has been called (so
 * PROGRESS_DATA needs to live only until then). A cancelled GCancellable stops the
 * decoding within a few tens of milliseconds with G_IO_ERROR_CANCELLED.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Every OdoriAudio is mono at this rate (Hz): enough for a waveform and a beat tracker,
 * and half the memory of 44.1 kHz. */
#define ODORI_AUDIO_RATE            22050
#define ODORI_WAVEFORM_BLOCK        256
#define ODORI_WAVEFORM_COARSE_BLOCK 4096

#define ODORI_MEDIA_ERROR (odori_media_error_quark ())

typedef enum
{
  ODORI_MEDIA_ERROR_NOT_FOUND, /* the file does not exist or cannot be read */
  ODORI_MEDIA_ERROR_NOT_AUDIO, /* no audio stream GStreamer can decode (or a plugin missing) */
  ODORI_MEDIA_ERROR_DECODE,    /* the stream broke off while decoding */
  ODORI_MEDIA_ERROR_NO_BEATS,  /* too short or too irregular for a tempo */
} OdoriMediaError;

GQuark odori_media_error_quark (void);

typedef void (*OdoriMediaProgressFunc) (double   fraction,
                                        gpointer user_data);

/* OdoriAudio ------------------------------------------------------------------------ */

typedef struct _OdoriAudio OdoriAudio;

#define ODORI_TYPE_AUDIO (odori_audio_get_type ())

GType       odori_audio_get_type (void) G_GNUC_CONST;
OdoriAudio *odori_audio_ref (OdoriAudio *audio);
void        odori_audio_unref (OdoriAudio *audio);
/* Wraps N_SAMPLES mono samples at RATE (taken: freed with g_free). */
OdoriAudio *odori_audio_new_take (float *samples,
                                  gsize  n_samples,
                                  guint  rate);
guint       odori_audio_get_rate (const OdoriAudio *audio);
gsize       odori_audio_get_n_samples (const OdoriAudio *audio);
/* (transfer none) (array length=n_samples) */
const float *odori_audio_get_samples (const OdoriAudio *audio,
                                      gsize            *n_samples);
double       odori_audio_get_duration (const OdoriAudio *audio);

/* Decodes any format the installed GStreamer plugins read (WAV, FLAC, Ogg Vorbis, Opus,
 * MP3, ...), down-mixed to mono and resampled to ODORI_AUDIO_RATE. Errors name the file
 * and give GStreamer's reason. */
OdoriAudio *odori_audio_decode (const char            *path,
                                GCancellable          *cancellable,
                                OdoriMediaProgressFunc progress,
                                gpointer               progress_data,
                                GError               **error);
void        odori_audio_decode_async (const char            *path,
                                      GCancellable          *cancellable,
                                      OdoriMediaProgressFunc progress,
                                      gpointer               progress_data,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data);
OdoriAudio *odori_audio_decode_finish (GAsyncResult *result,
                                       GError      **error);

/* OdoriWaveform --------------------------------------------------------------------- */

typedef struct _OdoriWaveform OdoriWaveform;

#define ODORI_TYPE_WAVEFORM (odori_waveform_get_type ())

GType          odori_waveform_get_type (void) G_GNUC_CONST;
OdoriWaveform *odori_waveform_ref (OdoriWaveform *waveform);
void           odori_waveform_unref (OdoriWaveform *waveform);
OdoriWaveform *odori_waveform_new_from_audio (const OdoriAudio *audio);
guint          odori_waveform_get_rate (const OdoriWaveform *waveform);
gsize          odori_waveform_get_n_samples (const OdoriWaveform *waveform);
double         odori_waveform_get_duration (const OdoriWaveform *waveform);
/* TRUE if the peaks were read from the cache (nothing was decoded). */
gboolean odori_waveform_get_from_cache (const OdoriWaveform *waveform);
/* The lowest and highest sample in the blocks of ODORI_WAVEFORM_BLOCK samples that
 * overlap samples [START, END): exact when START and END are multiples of the block
 * (or END is the end of the music), else widened to whole blocks. Costs at most about
 * 32 + (END - START) / ODORI_WAVEFORM_COARSE_BLOCK steps. FALSE (and 0, 0) for an empty
 * range or one past the end. */
gboolean odori_waveform_get_peak (const OdoriWaveform *waveform,
                                  gsize                start,
                                  gsize                end,
                                  float               *min,
                                  float               *max);

/* The waveform of the music at PATH: read from the cache
 * (g_get_user_cache_dir()/odori/waveforms/, keyed on the absolute path, size and
 * modification time) when a valid entry is there, else decoded and then cached (a cache
 * that cannot be written is not an error). A damaged cache file is ignored and replaced. */
OdoriWaveform *odori_waveform_load (const char            *path,
                                    GCancellable          *cancellable,
                                    OdoriMediaProgressFunc progress,
                                    gpointer               progress_data,
                                    GError               **error);
void           odori_waveform_load_async (const char            *path,
                                          GCancellable          *cancellable,
                                          OdoriMediaProgressFunc progress,
                                          gpointer               progress_data,
                                          GAsyncReadyCallback    callback,
                                          gpointer               user_data);
OdoriWaveform *odori_waveform_load_finish (GAsyncResult *result,
                                           GError      **error);
/* The cache file that odori_waveform_load() uses for PATH (whether or not it exists);
 * NULL if PATH cannot be read. */
char *odori_waveform_dup_cache_path (const char *path);

/* OdoriBeatTrack ------------------------------------------------------------------------ */

typedef struct _OdoriBeatTrack OdoriBeatTrack;

#define ODORI_TYPE_BEAT_TRACK (odori_beat_track_get_type ())

GType           odori_beat_track_get_type (void) G_GNUC_CONST;
OdoriBeatTrack *odori_beat_track_ref (OdoriBeatTrack *beats);
void            odori_beat_track_unref (OdoriBeatTrack *beats);
/* Beats per minute: 60 s over the beat period fitted (least squares) to the beats whose
 * spacing agrees with the median inter-beat interval, so a missed or doubled beat does
 * not move it. */
double odori_beat_track_get_tempo (const OdoriBeatTrack *beats);
/* The downbeat, in seconds: the first beat (aubio's grid carried back over the onsets
 * of the intro that fall on it). It is not a bar's "1", which is not detected: the user
 * moves it where the counting starts. */
double odori_beat_track_get_downbeat (const OdoriBeatTrack *beats);
/* (transfer none) (array length=n_beats): beat times in seconds, increasing. */
const double *odori_beat_track_get_times (const OdoriBeatTrack *beats,
                                          guint                *n_beats);

/* aubio's tempo tracker ("default" method) over AUDIO; skipped beats inside a steady
 * run are filled in. NO_BEATS if fewer than 4 beats are found. */
OdoriBeatTrack *odori_beat_track_detect (const OdoriAudio *audio,
                                         GCancellable     *cancellable,
                                         GError          **error);
/* Decodes PATH and detects its beats (progress: the decoding). */
OdoriBeatTrack *odori_beat_track_detect_file (const char            *path,
                                              GCancellable          *cancellable,
                                              OdoriMediaProgressFunc progress,
                                              gpointer               progress_data,
                                              GError               **error);
void            odori_beat_track_detect_file_async (const char            *path,
                                                    GCancellable          *cancellable,
                                                    OdoriMediaProgressFunc progress,
                                                    gpointer               progress_data,
                                                    GAsyncReadyCallback    callback,
                                                    gpointer               user_data);
OdoriBeatTrack *odori_beat_track_detect_file_finish (GAsyncResult *result,
                                                     GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriAudio, odori_audio_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriWaveform, odori_waveform_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriBeatTrack, odori_beat_track_unref)

G_END_DECLS
