/* odori-media-private.h: what libodori-media's files share: progress delivery and the
 * one way every loader runs in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-media.h"

G_BEGIN_DECLS

typedef struct _OdoriProgress OdoriProgress;

/* FUNC (may be NULL) is called directly by _odori_progress_set() when ASYNC is FALSE;
 * else in the thread-default main context of the thread that creates it, coalesced,
 * and no more once _odori_progress_finish() has been called there. */
OdoriProgress *_odori_progress_new (OdoriMediaProgressFunc func,
                                    gpointer               data,
                                    gboolean               async);
void           _odori_progress_unref (OdoriProgress *progress);
/* Any thread; PROGRESS may be NULL. */
void _odori_progress_set (OdoriProgress *progress,
                          double         fraction);
void _odori_progress_finish (OdoriProgress *progress);

/* A loader: PATH → a new boxed value of the type the async form returns. */
typedef gpointer (*OdoriMediaJobFunc) (const char    *path,
                                       GCancellable  *cancellable,
                                       OdoriProgress *progress,
                                       GError       **error);

/* Runs FUNC on PATH in this thread, with PROGRESS called here: the sync form of the
 * public load, decode and detect calls. */
gpointer _odori_media_run_sync (const char            *path,
                                OdoriMediaJobFunc      func,
                                GCancellable          *cancellable,
                                OdoriMediaProgressFunc progress,
                                gpointer               progress_data,
                                GError               **error);
void     _odori_media_run_async (const char            *path,
                                 OdoriMediaJobFunc      func,
                                 GDestroyNotify         result_free,
                                 gpointer               source_tag,
                                 GCancellable          *cancellable,
                                 OdoriMediaProgressFunc progress,
                                 gpointer               progress_data,
                                 GAsyncReadyCallback    callback,
                                 gpointer               user_data);
gpointer _odori_media_run_finish (GAsyncResult *result,
                                  gpointer      source_tag,
                                  GError      **error);

/* odori-audio.c */
OdoriAudio *_odori_audio_decode (const char    *path,
                                 GCancellable  *cancellable,
                                 OdoriProgress *progress,
                                 GError       **error);

G_END_DECLS
