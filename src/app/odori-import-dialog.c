/* odori-import-dialog.c: Import Capture, a capture becomes a show of the library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Once a capture is chosen it is read in a worker thread with the library's reference
 * show (odori_library_load_reference ()) and the bone map is guessed from the names
 * (odori_bone_map_guess ()); the map is shown, one row per library sensor, for
 * correction. Import reads the capture again with the dialog's options, retargets it
 * onto the library's sensors (odori_library_retarget ()) in a worker thread while a
 * progress bar pulses; Cancel closes the dialog at once and the result is dropped. The
 * library is then changed on the main thread (odori_document_add_imported_show (),
 * odori_library_add_show ()).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-file-dialog.h"
#include "odori-format.h"
#include "odori-import-dialog.h"
#include "odori-kbs.h"
#include "odori-library-import.h"
#include "odori-smooth.h"

struct _OdoriImportDialog
{
  GtkWindow       parent_instance;

  OdoriDocument  *document;
  char           *path;
  char           *kbs_path;
  GCancellable   *cancellable;
  guint           pulse_id;

  /* The chosen capture's bone map (NULL until read) and the library's reference show. */
  GCancellable   *scan_cancellable;
  OdoriBoneMap   *map;
  OdoriMotion    *reference;
  GtkStringList  *joints;
  gboolean        syncing;

  GtkButton      *import_button;
  GtkButton      *file_button;
  GtkLabel       *file_label;
  GtkEntry       *name_entry;
  GtkAdjustment  *fps_adjustment;
  GtkDropDown    *up_dropdown;
  GtkButton      *kbs_button;
  GtkLabel       *kbs_label;
  GtkButton      *kbs_clear_button;
  GtkAdjustment  *smooth_adjustment;
  GtkWidget      *progress_box;
  GtkProgressBar *progress_bar;
  GtkLabel       *error_label;
  GtkWidget      *map_box;
  GtkListBox     *map_list;
  GtkLabel       *map_status;
};

G_DEFINE_FINAL_TYPE (OdoriImportDialog, odori_import_dialog, GTK_TYPE_WINDOW)

enum {
  IMPORTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The up_dropdown's rows. */
static const OdoriUpAxis up_axes[] = {
  ODORI_UP_AUTO, ODORI_UP_Y, ODORI_UP_Z, ODORI_UP_X, ODORI_UP_NEG_Y, ODORI_UP_NEG_Z, ODORI_UP_NEG_X,
};

OdoriMotion *
odori_import_load (const char   *path,
                   double        fps,
                   OdoriUpAxis   up,
                   const char   *kbs_path,
                   guint         smooth,
                   OdoriUpAxis  *capture_up,
                   GError      **error)
{
  OdoriFormat format;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (fps > 0, NULL);

  if (capture_up != NULL)
    *capture_up = up;
  format = odori_format_detect_file (path, error);
  if (format == ODORI_FORMAT_UNKNOWN && error != NULL && *error != NULL)
    return NULL;
  if (format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV)
    {
      OdoriImportOptions options;
      g_autoptr(OdoriKbs) kbs = NULL;

      odori_import_options_init (&options);
      options.fps = fps;
      options.up = up;
      options.smooth = smooth;
      if (kbs_path != NULL)
        {
          kbs = odori_kbs_load (kbs_path, warnings, error);
          if (kbs == NULL)
            return NULL;
          options.kbs = kbs;
        }
      /* The core's capture import turns the capture upright itself. */
      if (capture_up != NULL)
        *capture_up = ODORI_UP_Y;
      return odori_capture_import (path, &options, NULL, warnings, error);
    }
  if (format != ODORI_FORMAT_BVA && format != ODORI_FORMAT_BVH)
    {
      g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NOT_CAPTURE,
                   _("%s:1: not a capture Odori can import (a Kinect joints file, a suit’s CSV "
                     "export, BVA or BVH)"), path);
      return NULL;
    }
  motion = odori_format_load_motion (path, warnings, error);
  if (motion == NULL)
    return NULL;
  if (fabs (motion->frame_time * fps - 1.0) > 1e-6 && motion->n_frames > 0)
    {
      OdoriMotion *resampled = odori_motion_resample (motion, 1, motion->n_frames, 1.0 / fps, error);

      if (resampled == NULL)
        return NULL;
      odori_motion_unref (motion);
      motion = resampled;
    }
  odori_smooth_motion (motion, smooth, ODORI_SMOOTH_ALL, NULL);
  return g_steal_pointer (&motion);
}

typedef struct
{
  char         *path;
  char         *kbs_path;
  double        fps;
  OdoriUpAxis   up;
  guint         smooth;
  OdoriIndex   *index;
  OdoriMotion  *reference;  /* NULL: loaded in the thread */
  OdoriBoneMap *map;        /* NULL: guessed in the thread */
} Job;

static void
job_free (Job *job)
{
  g_free (job->path);
  g_free (job->kbs_path);
  g_clear_pointer (&job->index, odori_index_unref);
  g_clear_pointer (&job->reference, odori_motion_unref);
  g_clear_pointer (&job->map, odori_bone_map_unref);
  g_free (job);
}

/* What a scan finds: the reference show's motion and the guessed map. */
typedef struct
{
  OdoriMotion  *reference;
  OdoriBoneMap *map;
} Scan;

static void
scan_free (Scan *scan)
{
  g_clear_pointer (&scan->reference, odori_motion_unref);
  g_clear_pointer (&scan->map, odori_bone_map_unref);
  g_free (scan);
}

static OdoriMotion *
job_reference (Job     *job,
               GError **error)
{
  if (job->reference != NULL)
    return odori_motion_ref (job->reference);
  return odori_library_load_reference (job->index, NULL, error);
}

static void
scan_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  g_autoptr(OdoriMotion) capture = NULL;
  Scan *scan;

  capture = odori_import_load (job->path, job->fps, job->up, job->kbs_path, 0, NULL, &error);
  if (capture == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  scan = g_new0 (Scan, 1);
  scan->reference = job_reference (job, &error);
  if (scan->reference == NULL)
    {
      scan_free (scan);
      g_task_return_error (task, error);
      return;
    }
  scan->map = odori_bone_map_guess (capture, NULL, scan->reference, NULL);
  g_task_return_pointer (task, scan, (GDestroyNotify) scan_free);
}

static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  OdoriUpAxis capture_up = job->up;
  g_autoptr(OdoriMotion) capture = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  OdoriMotion *result;

  capture = odori_import_load (job->path, job->fps, job->up, job->kbs_path, job->smooth, &capture_up, &error);
  if (capture != NULL)
    reference = job_reference (job, &error);
  result = reference == NULL ? NULL :
    odori_library_retarget (capture, NULL, reference, NULL, job->map, capture_up, NULL, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) odori_motion_unref);
}

static Job *
new_job (OdoriImportDialog *self)
{
  Job *job = g_new0 (Job, 1);
  guint up = gtk_drop_down_get_selected (self->up_dropdown);
  OdoriIndex *index = odori_document_get_index (self->document);

  job->path = g_strdup (self->path);
  job->kbs_path = g_strdup (self->kbs_path);
  job->fps = gtk_adjustment_get_value (self->fps_adjustment);
  job->up = up < G_N_ELEMENTS (up_axes) ? up_axes[up] : ODORI_UP_AUTO;
  job->smooth = (guint) gtk_adjustment_get_value (self->smooth_adjustment);
  job->index = index != NULL ? odori_index_ref (index) : NULL;
  job->reference = self->reference != NULL ? odori_motion_ref (self->reference) : NULL;
  job->map = self->map != NULL ? odori_bone_map_ref (self->map) : NULL;
  return job;
}

static void
set_busy (OdoriImportDialog *self,
          gboolean           busy)
{
  gtk_widget_set_visible (self->progress_box, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), !busy && self->path != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->file_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->kbs_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->map_list), !busy);
  if (!busy)
    g_clear_handle_id (&self->pulse_id, g_source_remove);
}

static void
show_error (OdoriImportDialog *self,
            const char        *message)
{
  gtk_label_set_text (self->error_label, message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
import_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  OdoriImportDialog *self = ODORI_IMPORT_DIALOG (source);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *symbol = NULL;

  motion = g_task_propagate_pointer (G_TASK (result), &error);
  /* Cancelled: the dialog is gone, the capture is dropped. */
  if (g_cancellable_is_cancelled (cancellable))
    return;
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);
  if (motion == NULL ||
      !odori_document_add_imported_show (self->document, motion,
                                         gtk_editable_get_text (GTK_EDITABLE (self->name_entry)),
                                         &symbol, &error))
    {
      show_error (self, error->message);
      return;
    }
  g_signal_emit (self, signals[IMPORTED], 0, symbol);
  gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
pulse_cb (gpointer data)
{
  OdoriImportDialog *self = data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

void
odori_import_dialog_import (OdoriImportDialog *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ODORI_IS_IMPORT_DIALOG (self));

  if (self->path == NULL || self->cancellable != NULL)
    return;
  if (odori_document_get_index (self->document) == NULL)
    {
      show_error (self, _("Open a motion library first: the capture becomes one of its shows"));
      return;
    }
  /* Still reading for the map: the import guesses it itself. */
  if (self->scan_cancellable != NULL)
    {
      g_cancellable_cancel (self->scan_cancellable);
      g_clear_object (&self->scan_cancellable);
    }

  show_error (self, NULL);
  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  self->pulse_id = g_timeout_add (100, pulse_cb, self);
  task = g_task_new (self, self->cancellable, import_done_cb, NULL);
  g_task_set_source_tag (task, odori_import_dialog_import);
  g_task_set_task_data (task, new_job (self), (GDestroyNotify) job_free);
  g_task_run_in_thread (task, import_thread);
}

/* The map list */

static void
sync_map_rows (OdoriImportDialog *self)
{
  guint n_joints = self->map != NULL ? odori_bone_map_get_n_joints (self->map) : 0;
  guint mapped = 0, n_sensors = 0;
  guint s = 0;

  self->syncing = TRUE;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->map_list));
       row != NULL && self->map != NULL;
       row = gtk_widget_get_next_sibling (row), s++)
    {
      GtkDropDown *dropdown = g_object_get_data (G_OBJECT (row), "dropdown");
      const char *source = odori_bone_map_get_source (self->map, s);
      guint position = 0;

      for (guint j = 0; source != NULL && j < n_joints; j++)
        if (g_strcmp0 (odori_bone_map_get_joint (self->map, j), source) == 0)
          position = j + 1;
      gtk_drop_down_set_selected (dropdown, position);
      mapped += position != 0;
      n_sensors++;
    }
  self->syncing = FALSE;
  if (self->map != NULL)
    {
      g_autofree char *status = g_strdup_printf (_("%u of the library’s %u sensors follow a capture joint"),
                                                 mapped, n_sensors);

      gtk_label_set_text (self->map_status, status);
    }
}

static void
on_map_selected_cb (GtkDropDown       *dropdown,
                    GParamSpec        *pspec,
                    OdoriImportDialog *self)
{
  g_autoptr(GError) error = NULL;
  const char *sensor = g_object_get_data (G_OBJECT (dropdown), "sensor");
  guint position = gtk_drop_down_get_selected (dropdown);
  const char *joint = NULL;

  if (self->syncing || self->map == NULL)
    return;
  if (position != GTK_INVALID_LIST_POSITION && position > 0)
    joint = gtk_string_list_get_string (self->joints, position);
  if (!odori_bone_map_set_source (self->map, sensor, joint, &error))
    show_error (self, error->message);
  /* A joint drives one sensor: the row that had it shows "(none)" now. */
  sync_map_rows (self);
}

static void
clear_map (OdoriImportDialog *self)
{
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->map_list))) != NULL)
    gtk_list_box_remove (self->map_list, row);
  g_clear_pointer (&self->map, odori_bone_map_unref);
  g_clear_object (&self->joints);
}

static void
fill_map (OdoriImportDialog *self,
          OdoriBoneMap      *map)
{
  guint n_joints = odori_bone_map_get_n_joints (map);
  guint n_sensors = odori_bone_map_get_n_sensors (map);
  g_autoptr(GtkSizeGroup) group = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  clear_map (self);
  self->map = odori_bone_map_ref (map);
  self->joints = gtk_string_list_new (NULL);
  gtk_string_list_append (self->joints, _("(none)"));
  for (guint j = 0; j < n_joints; j++)
    gtk_string_list_append (self->joints, odori_bone_map_get_joint (map, j));

  for (guint s = 0; s < n_sensors; s++)
    {
      const char *sensor = odori_bone_map_get_sensor (map, s);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (sensor);
      GtkWidget *arrow = gtk_label_new ("←");
      GtkWidget *dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->joints)), NULL);
      g_autofree char *a11y = g_strdup_printf (_("Capture joint for sensor %s"), sensor);
      GtkWidget *row = gtk_list_box_row_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_size_group_add_widget (group, label);
      gtk_widget_add_css_class (arrow, "dim-label");
      gtk_widget_set_hexpand (dropdown, TRUE);
      gtk_drop_down_set_enable_search (GTK_DROP_DOWN (dropdown), n_joints > 12);
      gtk_accessible_update_property (GTK_ACCESSIBLE (dropdown), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
      g_object_set_data_full (G_OBJECT (dropdown), "sensor", g_strdup (sensor), g_free);
      g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_map_selected_cb), self);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), arrow);
      gtk_box_append (GTK_BOX (box), dropdown);
      gtk_widget_set_margin_start (box, 6);
      gtk_widget_set_margin_end (box, 6);
      gtk_widget_set_margin_top (box, 3);
      gtk_widget_set_margin_bottom (box, 3);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      g_object_set_data (G_OBJECT (row), "dropdown", dropdown);
      gtk_list_box_append (self->map_list, row);
    }
  sync_map_rows (self);
}

static void
scan_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  OdoriImportDialog *self = ODORI_IMPORT_DIALOG (source);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;
  Scan *scan = g_task_propagate_pointer (G_TASK (result), &error);

  /* Another file was chosen, or Import started, or the dialog closed. */
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_clear_pointer (&scan, scan_free);
      return;
    }
  g_clear_object (&self->scan_cancellable);
  if (scan == NULL)
    {
      gtk_widget_set_visible (self->map_box, FALSE);
      show_error (self, error->message);
      return;
    }
  g_clear_pointer (&self->reference, odori_motion_unref);
  self->reference = g_steal_pointer (&scan->reference);
  fill_map (self, scan->map);
  scan_free (scan);
}

/* Reads the capture for its joints and guesses the bone map. */
static void
start_scan (OdoriImportDialog *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->scan_cancellable != NULL)
    g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  clear_map (self);
  if (self->path == NULL || odori_document_get_index (self->document) == NULL)
    return;
  gtk_widget_set_visible (self->map_box, TRUE);
  gtk_label_set_text (self->map_status, _("Reading the capture…"));
  self->scan_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->scan_cancellable, scan_done_cb, NULL);
  g_task_set_source_tag (task, start_scan);
  g_task_set_task_data (task, new_job (self), (GDestroyNotify) job_free);
  g_task_run_in_thread (task, scan_thread);
}

OdoriBoneMap *
odori_import_dialog_get_map (OdoriImportDialog *self)
{
  g_return_val_if_fail (ODORI_IS_IMPORT_DIALOG (self), NULL);

  return self->map;
}

GtkListBox *
odori_import_dialog_get_map_list (OdoriImportDialog *self)
{
  g_return_val_if_fail (ODORI_IS_IMPORT_DIALOG (self), NULL);

  return self->map_list;
}

void
odori_import_dialog_set_file (OdoriImportDialog *self,
                              const char        *path)
{
  g_autofree char *base = NULL;
  char *dot;

  g_return_if_fail (ODORI_IS_IMPORT_DIALOG (self));
  g_return_if_fail (path != NULL);

  g_free (self->path);
  self->path = g_strdup (path);
  base = g_path_get_basename (path);
  gtk_label_set_text (self->file_label, base);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_button), path);
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), base);
  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), self->cancellable == NULL);
  show_error (self, NULL);
  start_scan (self);
}

/* Callbacks */

static void
on_file_chosen_cb (GFile      *file,
                   const char *filter_name,
                   gpointer    user_data)
{
  OdoriImportDialog *self = user_data;
  g_autofree char *path = g_file_get_path (file);

  if (path != NULL)
    odori_import_dialog_set_file (self, path);
}

static void
on_file_clicked_cb (OdoriImportDialog *self)
{
  OdoriFileDialog *dialog = odori_file_dialog_new (GTK_WINDOW (self), _("Choose a Capture"), FALSE, _("_Choose"));

  odori_file_dialog_add_filter (dialog, _("Captures and motions"),
                                (const char *[]) { "*.txt", "*.TXT", "*.csv", "*.CSV", "*.bva", "*.BVA", "*.vpm",
                                                   "*.bvh", "*.BVH", NULL });
  odori_file_dialog_add_filter (dialog, _("All files"), (const char *[]) { "*", NULL });
  odori_file_dialog_present (dialog, on_file_chosen_cb, self);
}

static void
on_kbs_chosen_cb (GFile      *file,
                  const char *filter_name,
                  gpointer    user_data)
{
  OdoriImportDialog *self = user_data;
  g_autofree char *base = g_file_get_basename (file);

  g_free (self->kbs_path);
  self->kbs_path = g_file_get_path (file);
  gtk_label_set_text (self->kbs_label, base);
  gtk_widget_set_sensitive (GTK_WIDGET (self->kbs_clear_button), self->kbs_path != NULL);
  /* A bone setting renames a Kinect capture's joints. */
  if (self->cancellable == NULL)
    start_scan (self);
}

static void
on_kbs_clicked_cb (OdoriImportDialog *self)
{
  OdoriFileDialog *dialog =
    odori_file_dialog_new (GTK_WINDOW (self), _("Choose a Bone Setting"), FALSE, _("_Choose"));

  odori_file_dialog_add_filter (dialog, _("Kinect bone settings (KBS, KST)"),
                                (const char *[]) { "*.kbs", "*.KBS", "*.kst", "*.KST", "*.xml", NULL });
  odori_file_dialog_add_filter (dialog, _("All files"), (const char *[]) { "*", NULL });
  odori_file_dialog_present (dialog, on_kbs_chosen_cb, self);
}

static void
on_kbs_clear_clicked_cb (OdoriImportDialog *self)
{
  g_clear_pointer (&self->kbs_path, g_free);
  gtk_label_set_text (self->kbs_label, _("None (the capture’s own names)"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->kbs_clear_button), FALSE);
  if (self->cancellable == NULL)
    start_scan (self);
}

static void
on_import_clicked_cb (OdoriImportDialog *self)
{
  odori_import_dialog_import (self);
}

static void
on_cancel_clicked_cb (OdoriImportDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

/* GObject */

static gboolean
odori_import_dialog_close_request (GtkWindow *window)
{
  OdoriImportDialog *self = ODORI_IMPORT_DIALOG (window);

  /* Closing while reading abandons the import. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (odori_import_dialog_parent_class)->close_request (window);
}

static void
odori_import_dialog_dispose (GObject *object)
{
  OdoriImportDialog *self = ODORI_IMPORT_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->scan_cancellable != NULL)
    g_cancellable_cancel (self->scan_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_pointer (&self->map, odori_bone_map_unref);
  g_clear_pointer (&self->reference, odori_motion_unref);
  g_clear_object (&self->joints);
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_IMPORT_DIALOG);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->scan_cancellable);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_import_dialog_parent_class)->dispose (object);
}

static void
odori_import_dialog_finalize (GObject *object)
{
  OdoriImportDialog *self = ODORI_IMPORT_DIALOG (object);

  g_free (self->path);
  g_free (self->kbs_path);
  G_OBJECT_CLASS (odori_import_dialog_parent_class)->finalize (object);
}

static void
odori_import_dialog_class_init (OdoriImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = odori_import_dialog_dispose;
  object_class->finalize = odori_import_dialog_finalize;
  window_class->close_request = odori_import_dialog_close_request;

  signals[IMPORTED] = g_signal_new ("imported",
                                    G_TYPE_FROM_CLASS (klass),
                                    G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 1, G_TYPE_STRING);

  odori_resources_ensure ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, file_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, file_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, name_entry);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, fps_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, up_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, kbs_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, kbs_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, kbs_clear_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, smooth_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, progress_box);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, map_box);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, map_list);
  gtk_widget_class_bind_template_child (widget_class, OdoriImportDialog, map_status);
  gtk_widget_class_bind_template_callback (widget_class, on_file_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_kbs_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_kbs_clear_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_import_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
odori_import_dialog_init (OdoriImportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->import_button));
}

GtkWindow *
odori_import_dialog_new (GtkWindow     *parent,
                         OdoriDocument *document)
{
  OdoriImportDialog *self;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (document), NULL);

  self = g_object_new (ODORI_TYPE_IMPORT_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->document = g_object_ref (document);
  return GTK_WINDOW (self);
}
