/* odori-media.c: the error domain, progress delivery and the worker-thread runner that
 * every loader of libodori-media shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-media-private.h"

G_DEFINE_QUARK (odori - media - error - quark, odori_media_error)

struct _OdoriProgress
{
  gatomicrefcount        ref_count;
  OdoriMediaProgressFunc func;
  gpointer               data;
  GMainContext          *context; /* NULL: call FUNC directly */
  gint                   permille;
  gint                   pending;  /* an idle is queued in CONTEXT */
  gboolean               finished; /* CONTEXT's thread only */
};

OdoriProgress *
_odori_progress_new (OdoriMediaProgressFunc func,
                     gpointer               data,
                     gboolean               async)
{
  OdoriProgress *p = g_new0 (OdoriProgress, 1);

  g_atomic_ref_count_init (&p->ref_count);
  p->func = func;
  p->data = data;
  p->permille = -1;
  if (async)
    p->context = g_main_context_ref_thread_default ();
  return p;
}

void
_odori_progress_unref (OdoriProgress *progress)
{
  if (progress != NULL && g_atomic_ref_count_dec (&progress->ref_count))
    {
      g_clear_pointer (&progress->context, g_main_context_unref);
      g_free (progress);
    }
}

static gboolean
deliver_cb (gpointer data)
{
  OdoriProgress *p = data;

  g_atomic_int_set (&p->pending, 0);
  if (!p->finished && p->func != NULL)
    p->func (g_atomic_int_get (&p->permille) / 1000.0, p->data);
  return G_SOURCE_REMOVE;
}

void
_odori_progress_set (OdoriProgress *progress,
                     double         fraction)
{
  gint permille;

  if (progress == NULL || progress->func == NULL)
    return;
  permille = (gint) (CLAMP (fraction, 0.0, 1.0) * 1000.0 + 0.5);
  if (g_atomic_int_get (&progress->permille) == permille)
    return;
  g_atomic_int_set (&progress->permille, permille);
  if (progress->context == NULL)
    {
      progress->func (permille / 1000.0, progress->data);
      return;
    }
  /* one queued delivery at a time: it reads the latest value */
  if (g_atomic_int_compare_and_exchange (&progress->pending, 0, 1))
    {
      g_atomic_ref_count_inc (&progress->ref_count);
      g_main_context_invoke_full (progress->context, G_PRIORITY_DEFAULT, deliver_cb, progress,
                                  (GDestroyNotify) _odori_progress_unref);
    }
}

void
_odori_progress_finish (OdoriProgress *progress)
{
  if (progress != NULL)
    progress->finished = TRUE;
}

typedef struct
{
  char               *path;
  OdoriMediaJobFunc   func;
  GDestroyNotify      result_free;
  OdoriProgress      *progress;
  GAsyncReadyCallback callback;
  gpointer            user_data;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_free (job->path);
  _odori_progress_unref (job->progress);
  g_free (job);
}

static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job     *job = task_data;
  GError  *error = NULL;
  gpointer result = job->func (job->path, cancellable, job->progress, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, job->result_free);
}

/* Runs in the caller's context: no progress is delivered after this. */
static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Job *job = g_task_get_task_data (G_TASK (result));

  _odori_progress_finish (job->progress);
  if (job->callback != NULL)
    job->callback (source, result, job->user_data);
}

gpointer
_odori_media_run_sync (const char            *path,
                       OdoriMediaJobFunc      func,
                       GCancellable          *cancellable,
                       OdoriMediaProgressFunc progress,
                       gpointer               progress_data,
                       GError               **error)
{
  OdoriProgress *p;
  gpointer       result;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  p = _odori_progress_new (progress, progress_data, FALSE);
  result = func (path, cancellable, p, error);
  _odori_progress_unref (p);
  return result;
}

void
_odori_media_run_async (const char            *path,
                        OdoriMediaJobFunc      func,
                        GDestroyNotify         result_free,
                        gpointer               source_tag,
                        GCancellable          *cancellable,
                        OdoriMediaProgressFunc progress,
                        gpointer               progress_data,
                        GAsyncReadyCallback    callback,
                        gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job = g_new0 (Job, 1);

  job->path = g_strdup (path);
  job->func = func;
  job->result_free = result_free;
  job->progress = _odori_progress_new (progress, progress_data, TRUE);
  job->callback = callback;
  job->user_data = user_data;
  task = g_task_new (NULL, cancellable, job_done_cb, NULL);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, job_thread);
}

gpointer
_odori_media_run_finish (GAsyncResult *result,
                         gpointer      source_tag,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
