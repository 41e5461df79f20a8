/* odori-window.h: Odori's main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"
#include "odori-session.h"

G_BEGIN_DECLS

#define ODORI_TYPE_WINDOW (odori_window_get_type ())

G_DECLARE_FINAL_TYPE (OdoriWindow, odori_window, ODORI, WINDOW, GtkApplicationWindow)

OdoriWindow    *odori_window_new              (GtkApplication *application);
OdoriDocument  *odori_window_get_document     (OdoriWindow    *self);
/* What the window shows and plays of its document. */
OdoriSession   *odori_window_get_session      (OdoriWindow    *self);

/* These report failure in the window (and return FALSE); the previous state stays. */
gboolean        odori_window_load_sample      (OdoriWindow    *self);
gboolean        odori_window_open_score       (OdoriWindow    *self,
                                               GFile          *score,
                                               GFile          *library);
gboolean        odori_window_open_library     (OdoriWindow    *self,
                                               GFile          *library);
/* The same in the background, with a progress bar and Cancel under the window (a big
 * score or library takes seconds to read and compose): LIBRARY nullable; open a
 * library with SCORE NULL. Failure is reported in the window unless cancelled; the
 * previous state stays until the new one is read. */
void            odori_window_open_async       (OdoriWindow    *self,
                                               GFile          *score,
                                               GFile          *library,
                                               GAsyncReadyCallback callback,
                                               gpointer        user_data);
gboolean        odori_window_open_finish      (OdoriWindow    *self,
                                               GAsyncResult   *result,
                                               GError        **error);
/* Opens FILE by what it holds (odori_format_detect_file (), read in a worker thread): a
 * score here (in a new window when this one has unsaved changes), a motion library as
 * Open Library does, a motion or a capture (BVA, BVH, joints, sensor CSV) in Import
 * Capture; anything else is said in the window with the file's name. Done once the
 * score or library is open, or Import Capture shown. */
void            odori_window_open_file_async  (OdoriWindow    *self,
                                               GFile          *file,
                                               GAsyncReadyCallback callback,
                                               gpointer        user_data);
gboolean        odori_window_open_file_finish (OdoriWindow    *self,
                                               GAsyncResult   *result,
                                               GError        **error);
gboolean        odori_window_save_to          (OdoriWindow    *self,
                                               GFile          *file);
/* Exports the composed dance (BVA, or BVH by the extension) in the background with a
 * progress bar and Cancel; the result is also reported in the window. */
void            odori_window_export           (OdoriWindow    *self,
                                               GFile          *file,
                                               GAsyncReadyCallback callback,
                                               gpointer        user_data);
gboolean        odori_window_export_finish    (OdoriWindow    *self,
                                               GAsyncResult   *result,
                                               GError        **error);
/* Offers to recover autosaves an earlier run left behind. */
void            odori_window_offer_recovery   (OdoriWindow    *self);

G_END_DECLS
