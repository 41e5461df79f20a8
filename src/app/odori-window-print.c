/* odori-window-print.c: the window's Print… (Ctrl+P): the score laid out by OdoriPrint,
 * its thumbnails drawn in a worker (its own headless GL context, so the viewport's
 * GtkGLArea context is never touched), then GtkPrintOperation, which also offers Print to
 * File
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-print.h"
#include "odori-window-private.h"


typedef struct
{
  OdoriWindow *window; /* a reference */
  OdoriPrint   *print;
  char         *export_path;
  GCancellable *cancellable;
} PrintJob;

static void
print_job_free (PrintJob *job)
{
  g_object_unref (job->window);
  g_object_unref (job->print);
  g_clear_object (&job->cancellable);
  g_free (job->export_path);
  g_free (job);
}

static void
begin_print_cb (GtkPrintOperation *op,
                GtkPrintContext   *context,
                gpointer           user_data)
{
  OdoriPrint *print = user_data;
  guint       n = odori_print_paginate (print, gtk_print_context_get_width (context),
                                        gtk_print_context_get_height (context));

  gtk_print_operation_set_n_pages (op, (int) n);
}

static void
draw_page_cb (GtkPrintOperation *op,
              GtkPrintContext   *context,
              int                page_nr,
              gpointer           user_data)
{
  odori_print_draw_page (user_data, gtk_print_context_get_cairo_context (context), (guint) page_nr);
}

static void
done_cb (GtkPrintOperation      *op,
         GtkPrintOperationResult result,
         gpointer                user_data)
{
  OdoriWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  if (result != GTK_PRINT_OPERATION_RESULT_ERROR)
    return;
  gtk_print_operation_get_error (op, &error);
  _odori_window_show_error (self, GTK_MESSAGE_ERROR, _ ("Cannot print the score"),
                            error != NULL ? error->message : NULL, NULL);
}

static void
run_operation (PrintJob *job)
{
  OdoriWindow *self = job->window;
  g_autoptr(GtkPrintOperation) op = gtk_print_operation_new ();
  g_autoptr(GError) error = NULL;
  GtkPrintOperationResult result;

  /* The layout's own margins: the whole sheet, in points */
  gtk_print_operation_set_use_full_page (op, TRUE);
  gtk_print_operation_set_unit (op, GTK_UNIT_POINTS);
  gtk_print_operation_set_job_name (op, odori_print_get_title (job->print));
  gtk_print_operation_set_embed_page_setup (op, TRUE);
  g_signal_connect_object (op, "begin-print", G_CALLBACK (begin_print_cb), job->print, 0);
  g_signal_connect_object (op, "draw-page", G_CALLBACK (draw_page_cb), job->print, 0);
  g_signal_connect_object (op, "done", G_CALLBACK (done_cb), self, 0);
  /* The print object lives as long as the operation */
  g_object_set_data_full (G_OBJECT (op), "odori-print", g_object_ref (job->print), g_object_unref);

  if (job->export_path != NULL)
    {
      gtk_print_operation_set_export_filename (op, job->export_path);
      result = gtk_print_operation_run (op, GTK_PRINT_OPERATION_ACTION_EXPORT, GTK_WINDOW (self), &error);
    }
  else
    {
      gtk_print_operation_set_allow_async (op, TRUE);
      result = gtk_print_operation_run (op, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG, GTK_WINDOW (self), &error);
    }
  if (result == GTK_PRINT_OPERATION_RESULT_ERROR)
    _odori_window_show_error (self, GTK_MESSAGE_ERROR, _ ("Cannot print the score"),
                              error != NULL ? error->message : NULL, NULL);
}

static void
prepared_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  PrintJob *job = user_data;
  g_autoptr(GError) error = NULL;

  /* the thumbnails are drawn: the bar goes, Export and Print are free again */
  g_clear_object (&job->window->printing);
  _odori_window_export_bar_end (job->window);

  if (!odori_print_prepare_finish (ODORI_PRINT (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _odori_window_show_error (job->window, GTK_MESSAGE_ERROR, _ ("Cannot print the score"),
                                  error->message, NULL);
    }
  /* Cancel clicked as the last pose was drawn: no dialog either */
  else if (!g_cancellable_is_cancelled (job->cancellable) && gtk_widget_get_root (GTK_WIDGET (job->window)) != NULL)
    run_operation (job);
  print_job_free (job);
}

void
_odori_window_print (OdoriWindow *self,
                     const char  *export_path)
{
  OdoriScore  *score;
  OdoriMotion *motion;
  g_autoptr(OdoriMotion) copy = NULL;
  PrintJob     *job;

  g_return_if_fail (ODORI_IS_WINDOW (self));

  score = self->document != NULL ? odori_document_get_score (self->document) : NULL;
  /* one at a time, and not while an export uses the bar */
  if (score == NULL || self->printing != NULL || self->export != NULL || self->video != NULL)
    return;
  /* The composed motion changes in place at the next edit: the worker draws a copy */
  motion = odori_document_get_motion (self->document);
  if (motion != NULL)
    copy = odori_motion_copy (motion);

  job = g_new0 (PrintJob, 1);
  job->window = g_object_ref (self);
  job->print = odori_print_new (score, odori_document_get_index (self->document), copy);
  job->export_path = g_strdup (export_path);
  /* Drawing the poses takes a second or more: on the export bar, with its Cancel. */
  self->printing = g_object_ref (job->print);
  _odori_window_export_bar_begin (self, _ ("Drawing the poses for printing…"));
  job->cancellable = g_object_ref (self->export_cancellable);
  odori_print_prepare_async (job->print, self->export_cancellable, prepared_cb, job);
}

static void
print_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  _odori_window_print (user_data, NULL);
}

static const GActionEntry print_entries[] = {
  { "print", print_action },
};

void
_odori_window_print_actions_init (OdoriWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), print_entries, G_N_ELEMENTS (print_entries), self);
}
