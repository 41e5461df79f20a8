/* odori-document-open.c: opening a score or a library, in this thread or a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An open builds everything the new state needs (score, index, diagnostics, the
 * composition) without touching the document, so that it can run in a GTask thread;
 * the main thread then puts it in place at once (open_job_adopt ()).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-document-private.h"
#include "odori-sample.h"

static GPtrArray *
gather_diagnostics (OdoriScore *score,
                    OdoriIndex *index)
{
  GPtrArray *diags = odori_diagnostics_new ();

  _odori_copy_diagnostics (index->warnings, diags);
  _odori_copy_diagnostics (score->warnings, diags);
  odori_score_resolve (score, index, diags);
  return diags;
}

static OdoriScore *
new_score_for_index (OdoriIndex *index)
{
  OdoriScore *score = odori_score_new ();

  for (guint i = 0; i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);

      odori_score_add_part (score, part->code, (const char *const *) part->map);
    }
  score->index_path = g_strdup (index->path);
  return score;
}

/* Opening, in the calling thread or a worker: everything a new state needs, built
 * without touching the document. */
typedef struct
{
  /* In */
  OdoriDocument *self;    /* main thread only, for progress */
  GMainContext  *context; /* where progress is reported, NULL: not at all */
  char          *path;
  char          *index_path;    /* nullable */
  OdoriIndex    *current_index; /* nullable */
  gboolean       is_index;      /* opening a library */
  gboolean       untouched;     /* a library open replaces the score */
  ComposeParams  params;

  /* Out */
  char       *abs_path;
  OdoriScore *score;
  OdoriIndex *index;
  GPtrArray  *diagnostics;
  Composed    composed;
} OpenJob;

static void
open_job_free (OpenJob *job)
{
  g_clear_object (&job->self);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_free (job->path);
  g_free (job->index_path);
  g_clear_pointer (&job->current_index, odori_index_unref);
  g_clear_pointer (&job->params.files, odori_motion_cache_unref);
  g_free (job->abs_path);
  g_clear_pointer (&job->score, odori_score_unref);
  g_clear_pointer (&job->index, odori_index_unref);
  g_clear_pointer (&job->diagnostics, g_ptr_array_unref);
  _odori_composed_clear (&job->composed);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenJob, open_job_free)

static OpenJob *
open_job_new (OdoriDocument *self,
              const char    *path,
              const char    *index_path)
{
  OpenJob *job = g_new0 (OpenJob, 1);

  job->self = g_object_ref (self);
  job->path = g_strdup (path);
  job->index_path = g_strdup (index_path);
  if (self->index != NULL)
    job->current_index = odori_index_ref (self->index);
  job->params.default_blend = self->default_blend;
  job->params.root_match = self->root_match;
  job->params.files = odori_motion_cache_ref (self->files);
  return job;
}

typedef struct
{
  OdoriDocument *self;
  double         fraction;
} Progress;

static gboolean
set_fraction_cb (gpointer data)
{
  Progress *p = data;

  if (p->self->n_loading > 0 && p->self->fraction != p->fraction)
    {
      p->self->fraction = p->fraction;
      _odori_document_notify (p->self, PROP_FRACTION);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->self);
  g_free (p);
}

/* Any thread: FRACTION of JOB is done (reported in the main context). */
static void
report (OpenJob *job,
        double   fraction)
{
  Progress *p;

  if (job->context == NULL)
    return;
  p = g_new (Progress, 1);
  p->self = g_object_ref (job->self);
  p->fraction = fraction;
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, set_fraction_cb, p, progress_free);
}

/* The library of the job: the current one when it is the same file. Any thread. */
static gboolean
open_job_load_index (OpenJob    *job,
                     const char *index_path,
                     GError    **error)
{
  g_autofree char *abs_index = g_canonicalize_filename (index_path, NULL);

  if (job->current_index != NULL && job->current_index->path != NULL &&
      g_strcmp0 (job->current_index->path, index_path) == 0)
    {
      job->index = odori_index_ref (job->current_index);
      return TRUE;
    }
  job->index = odori_index_load (abs_index, error);
  if (job->index == NULL)
    return FALSE;
  /* Another library: its shows are other files. */
  g_clear_pointer (&job->params.files, odori_motion_cache_unref);
  job->params.files = odori_motion_cache_new ();
  return TRUE;
}

/* Any thread. */
static gboolean
open_job_run_score (OpenJob *job,
                    GError **error)
{
  g_autofree char *score_index = NULL;
  const char      *index_path = job->index_path;

  job->score = odori_score_load (job->path, error);
  if (job->score == NULL)
    return FALSE;
  report (job, 0.2);
  job->abs_path = g_canonicalize_filename (job->path, NULL);
  g_free (job->score->path);
  job->score->path = g_strdup (job->abs_path);

  if (index_path == NULL)
    {
      score_index = odori_score_dup_index_path (job->score);
      if (score_index == NULL && job->current_index != NULL)
        job->index = odori_index_ref (job->current_index);
      else if (score_index == NULL)
        {
          g_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX,
                       _ ("%s:1: the score names no motion library (“# Index:”); open a library first"),
                       job->path);
          return FALSE;
        }
      index_path = score_index;
    }
  if (job->index == NULL && !open_job_load_index (job, index_path, error))
    return FALSE;
  report (job, 0.4);

  job->diagnostics = gather_diagnostics (job->score, job->index);
  _odori_document_compose (&job->params, job->score, job->index, &job->composed);
  report (job, 1.0);
  return TRUE;
}

/* Any thread. */
static gboolean
open_job_run_index (OpenJob *job,
                    GError **error)
{
  job->abs_path = g_canonicalize_filename (job->path, NULL);
  job->index = odori_index_load (job->abs_path, error);
  if (job->index == NULL)
    return FALSE;
  report (job, 0.4);
  if (job->untouched)
    {
      g_clear_pointer (&job->params.files, odori_motion_cache_unref);
      job->params.files = odori_motion_cache_new ();
      job->score = new_score_for_index (job->index);
      job->diagnostics = odori_diagnostics_new ();
      _odori_copy_diagnostics (job->index->warnings, job->diagnostics);
      _odori_document_compose (&job->params, job->score, job->index, &job->composed);
    }
  report (job, 1.0);
  return TRUE;
}

static gboolean
open_job_run (OpenJob *job,
              GError **error)
{
  return job->is_index ? open_job_run_index (job, error) : open_job_run_score (job, error);
}

static gboolean
is_untouched (OdoriDocument *self)
{
  return self->score == NULL || (!self->dirty && (self->is_sample || self->path == NULL));
}

gboolean
odori_document_get_untouched (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return is_untouched (self);
}

gboolean
odori_document_new_score (OdoriDocument *self,
                          OdoriIndex    *index,
                          GError       **error)
{
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  ComposeParams params = { self->default_blend, self->root_match, self->files };
  Composed c = { 0 };

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (index == NULL)
    index = self->index;
  if (index == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   _ ("There is no motion library for a new score: open one first"));
      return FALSE;
    }
  score = new_score_for_index (index);
  /* As the original tools wrote it (FORMATS.md §2), whatever the locale. */
  score->date = g_date_time_format (now, "%Y/%m/%d %H:%M:%S");
  /* Feet stay planted in what the window makes (issue 18); a score without the line
   * keeps the exact rules. */
  score->foot_lock = 1;
  diagnostics = _odori_copy_diagnostics (index->warnings, odori_diagnostics_new ());
  if (index != self->index)
    odori_motion_cache_clear (self->files);
  _odori_document_compose (&params, score, index, &c);
  _odori_document_adopt (self, score, index, &c, NULL, FALSE, diagnostics);
  _odori_composed_clear (&c);
  return TRUE;
}

/* Main thread: puts what JOB built in place. */
static void
open_job_adopt (OpenJob *job)
{
  OdoriDocument *self = job->self;

  if (job->is_index && !job->untouched)
    {
      /* Work in the score: composed against the new library, "# Index:" follows. */
      odori_document_set_index (self, job->index);
      g_free (self->score->index_path);
      self->score->index_path = g_strdup (job->abs_path);
      g_ptr_array_set_size (self->diagnostics, 0);
      _odori_copy_diagnostics (job->index->warnings, self->diagnostics);
      odori_score_resolve (self->score, job->index, self->diagnostics);
      _odori_document_set_dirty (self, TRUE);
      return;
    }
  if (job->params.files != self->files)
    {
      odori_motion_cache_clear (self->files);
      odori_motion_cache_unref (self->files);
      self->files = odori_motion_cache_ref (job->params.files);
    }
  _odori_document_adopt (self, job->score, job->index, &job->composed, job->is_index ? NULL : job->abs_path,
                         FALSE, job->diagnostics);
}

gboolean
odori_document_open_score (OdoriDocument *self,
                           const char    *path,
                           const char    *index_path,
                           GError       **error)
{
  g_autoptr(OpenJob) job = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = open_job_new (self, path, index_path);
  if (!open_job_run (job, error))
    return FALSE;
  open_job_adopt (job);
  return TRUE;
}

gboolean
odori_document_open_index (OdoriDocument *self,
                           const char    *path,
                           GError       **error)
{
  g_autoptr(OpenJob) job = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = open_job_new (self, path, NULL);
  job->is_index = TRUE;
  job->untouched = is_untouched (self);
  if (!open_job_run (job, error))
    return FALSE;
  open_job_adopt (job);
  return TRUE;
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  OpenJob *job = task_data;
  GError  *error = NULL;

  (void) source_object;
  if (g_task_return_error_if_cancelled (task))
    return;
  if (!open_job_run (job, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
loading_begin (OdoriDocument *self)
{
  if (self->n_loading++ > 0)
    return;
  self->fraction = 0.0;
  _odori_document_notify (self, PROP_FRACTION);
  _odori_document_notify (self, PROP_LOADING);
}

static void
loading_end (OdoriDocument *self)
{
  g_assert (self->n_loading > 0);
  if (--self->n_loading > 0)
    return;
  _odori_document_notify (self, PROP_LOADING);
}

static void
open_async (OdoriDocument      *self,
            OpenJob            *job,
            gpointer            source_tag,
            GCancellable       *cancellable,
            GAsyncReadyCallback callback,
            gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  job->context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, job, (GDestroyNotify) open_job_free);
  loading_begin (self);
  g_task_run_in_thread (task, open_thread);
}

static gboolean
open_finish (OdoriDocument *self,
             GAsyncResult  *result,
             gpointer       source_tag,
             GError       **error)
{
  GTask   *task = G_TASK (result);
  gboolean ok;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (task) == source_tag, FALSE);

  loading_end (self);
  ok = g_task_propagate_boolean (task, error);
  if (ok)
    open_job_adopt (g_task_get_task_data (task));
  return ok;
}

void
odori_document_open_score_async (OdoriDocument      *self,
                                 const char         *path,
                                 const char         *index_path,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);

  open_async (self, open_job_new (self, path, index_path), odori_document_open_score_async,
              cancellable, callback, user_data);
}

gboolean
odori_document_open_score_finish (OdoriDocument *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return open_finish (self, result, odori_document_open_score_async, error);
}

void
odori_document_open_index_async (OdoriDocument      *self,
                                 const char         *path,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  OpenJob *job;

  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  g_return_if_fail (path != NULL);

  job = open_job_new (self, path, NULL);
  job->is_index = TRUE;
  job->untouched = is_untouched (self);
  open_async (self, job, odori_document_open_index_async, cancellable, callback, user_data);
}

gboolean
odori_document_open_index_finish (OdoriDocument *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return open_finish (self, result, odori_document_open_index_async, error);
}

double
odori_document_get_fraction (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), 0.0);
  return self->fraction;
}

gboolean
odori_document_get_loading (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return self->n_loading > 0;
}

gboolean
odori_document_load_sample (OdoriDocument *self,
                            GError       **error)
{
  g_autofree char *dir = odori_document_dup_sample_dir ();
  g_autofree char *dds = g_build_filename (dir, "sample.dds", NULL);

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Written when a stamp says it is not this version's or was changed since (writing
   * costs a tenth of a second at every start otherwise): the sample always matches this
   * version of Odori, and a damaged copy heals itself. */
  if (!odori_sample_ensure (dir, error))
    return FALSE;
  if (!odori_document_open_score (self, dds, NULL, error))
    return FALSE;
  /* The sample is not the user's file: saving it asks where. */
  g_clear_pointer (&self->path, g_free);
  self->is_sample = TRUE;
  _odori_document_notify (self, PROP_PATH);
  _odori_document_notify (self, PROP_TITLE);
  return TRUE;
}
