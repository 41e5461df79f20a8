/* odori-import-dialog.h: Import Capture, a capture becomes a show of the library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"
#include "odori-library-import.h"
#include "odori-retarget.h"

G_BEGIN_DECLS

#define ODORI_TYPE_IMPORT_DIALOG (odori_import_dialog_get_type ())

G_DECLARE_FINAL_TYPE (OdoriImportDialog, odori_import_dialog, ODORI, IMPORT_DIALOG, GtkWindow)

/* Emits "imported" (the new motion's symbol) after the library took the capture, then
 * closes. */
GtkWindow     *odori_import_dialog_new      (GtkWindow          *parent,
                                             OdoriDocument      *document);
void           odori_import_dialog_set_file (OdoriImportDialog  *self,
                                             const char         *path);
/* What the Import button does: the capture is read in a worker thread. */
void           odori_import_dialog_import   (OdoriImportDialog  *self);

/* The bone map of the chosen capture once it is read (transfer none; NULL before), and
 * the list showing it: one row per library sensor, each with a GtkDropDown ("(none)",
 * then the capture's joints) as object data "dropdown" (for tests). */
OdoriBoneMap  *odori_import_dialog_get_map  (OdoriImportDialog  *self);
GtkListBox    *odori_import_dialog_get_map_list (OdoriImportDialog *self);
/* The dialog's work on a capture (any thread): a Kinect joints file or a suit CSV goes
 * through the core's import (fps, up axis, KBS, smoothing); a BVA or BVH motion is
 * resampled to FPS and smoothed. KBS_PATH is nullable. *CAPTURE_UP (nullable)
 * receives the up axis to retarget the result with (+Y when the core's capture import
 * already turned it upright, else UP). */
OdoriMotion   *odori_import_load            (const char         *path,
                                             double              fps,
                                             OdoriUpAxis         up,
                                             const char         *kbs_path,
                                             guint               smooth,
                                             OdoriUpAxis        *capture_up,
                                             GError            **error);

G_END_DECLS
