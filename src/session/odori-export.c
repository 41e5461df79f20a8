/* odori-export.c: writes a composed dance to BVA or BVH in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BVA is a sequence of independent segment blocks, so a BVA export writes one block
 * at a time through the core's writer into one atomic output: the bytes are exactly
 * odori_bva_save()'s (`odori-cli compose`), and between blocks the progress moves and
 * a cancellation aborts the output, leaving the target as it was. BVH goes through
 * odori_bvh_save() in one step.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-export.h"
#include "odori-skeleton.h"
#include "odori-text.h"

struct _OdoriExport
{
  GObject            parent_instance;

  OdoriMotion       *motion;
  char              *path;
  OdoriExportFormat  format;
  gint               permille;    /* atomic */
};

G_DEFINE_FINAL_TYPE (OdoriExport, odori_export, G_TYPE_OBJECT)

static void
odori_export_finalize (GObject *object)
{
  OdoriExport *self = ODORI_EXPORT (object);

  g_clear_pointer (&self->motion, odori_motion_unref);
  g_free (self->path);
  G_OBJECT_CLASS (odori_export_parent_class)->finalize (object);
}

static void
odori_export_class_init (OdoriExportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_export_finalize;
}

static void
odori_export_init (OdoriExport *self)
{
}

OdoriExport *
odori_export_new (OdoriMotion *motion,
                  const char  *path)
{
  OdoriExport *self;
  g_autofree char *lower = NULL;

  g_return_val_if_fail (motion != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (ODORI_TYPE_EXPORT, NULL);
  self->motion = odori_motion_ref (motion);
  self->path = g_strdup (path);
  lower = g_ascii_strdown (path, -1);
  self->format = g_str_has_suffix (lower, ".bvh") ? ODORI_EXPORT_BVH : ODORI_EXPORT_BVA;
  return self;
}

OdoriExportFormat
odori_export_get_format (OdoriExport *self)
{
  g_return_val_if_fail (ODORI_IS_EXPORT (self), ODORI_EXPORT_BVA);
  return self->format;
}

const char *
odori_export_get_path (OdoriExport *self)
{
  g_return_val_if_fail (ODORI_IS_EXPORT (self), NULL);
  return self->path;
}

double
odori_export_get_fraction (OdoriExport *self)
{
  g_return_val_if_fail (ODORI_IS_EXPORT (self), 0);
  return g_atomic_int_get (&self->permille) / 1000.0;
}

static void
set_fraction (OdoriExport *self,
              double       fraction)
{
  g_atomic_int_set (&self->permille, (gint) lround (CLAMP (fraction, 0, 1) * 1000));
}

/* Segment S of MOTION as a motion of its own (same name, columns, units and frames). */
static OdoriMotion *
segment_motion (const OdoriMotion  *motion,
                guint               s,
                GError            **error)
{
  const OdoriSegment *from = &motion->segments[s];
  OdoriMotion *one = odori_motion_new (1, motion->n_frames, motion->frame_time, error);
  OdoriSegment *to;

  if (one == NULL)
    return NULL;
  odori_motion_set_segment_name (one, 0, from->name);
  to = &one->segments[0];
  to->n_fields = from->n_fields;
  memcpy (to->fields, from->fields, sizeof to->fields);
  memcpy (to->units, from->units, sizeof to->units);
  for (guint f = 0; f < motion->n_frames; f++)
    odori_motion_get_world (motion, f, s, odori_motion_get (one, f, 0));
  return one;
}

static gboolean
cancelled (GCancellable  *cancellable,
           OdoriOutput   *out,
           GError       **error)
{
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (out != NULL)
    odori_output_abort (out);
  return TRUE;
}

static gboolean
export_bva (OdoriExport   *self,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(OdoriOutput) out = NULL;
  const OdoriMotion *motion = self->motion;

  /* As odori_bva_save(): the reader would refuse such a file. */
  if (!(motion->frame_time > 0) || !isfinite (motion->frame_time))
    {
      g_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_FRAME_TIME,
                   _("%s: cannot write a motion whose frame time is not a positive number"), self->path);
      return FALSE;
    }
  out = odori_output_new (self->path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  for (guint s = 0; s < motion->n_segments; s++)
    {
      g_autoptr(OdoriMotion) one = NULL;

      if (cancelled (cancellable, out, error))
        return FALSE;
      one = segment_motion (motion, s, error);
      if (one == NULL)
        {
          odori_output_abort (out);
          return FALSE;
        }
      odori_bva_write (one, out);
      set_fraction (self, (s + 1.0) / (motion->n_segments + 1.0));
    }
  if (cancelled (cancellable, out, error))
    return FALSE;
  return odori_output_commit (out, error);
}

static gboolean
export_bvh (OdoriExport   *self,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(OdoriSkeleton) skeleton = NULL;

  if (cancelled (cancellable, NULL, error))
    return FALSE;
  skeleton = odori_skeleton_for_motion (self->motion);
  set_fraction (self, 0.1);
  return odori_bvh_save (self->motion, skeleton, self->path, error);
}

gboolean
odori_export_run (OdoriExport   *self,
                  GCancellable  *cancellable,
                  GError       **error)
{
  gboolean ok;

  g_return_val_if_fail (ODORI_IS_EXPORT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  set_fraction (self, 0);
  if (self->format == ODORI_EXPORT_BVH)
    ok = export_bvh (self, cancellable, error);
  else
    ok = export_bva (self, cancellable, error);
  if (ok)
    set_fraction (self, 1);
  return ok;
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  GError *error = NULL;

  if (odori_export_run (source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
odori_export_run_async (OdoriExport         *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ODORI_IS_EXPORT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, odori_export_run_async);
  /* The output is aborted by the thread itself; don't report before it did. And report
   * what the thread did: a cancel that comes after the file was committed is too late,
   * and "cancelled" must never be said of a file that was written. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, run_thread);
}

gboolean
odori_export_run_finish (OdoriExport   *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (ODORI_IS_EXPORT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
