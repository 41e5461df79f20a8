/* odori-export.h: writes a composed dance to BVA or BVH in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "odori-motion.h"

G_BEGIN_DECLS

typedef enum
{
  ODORI_EXPORT_BVA,
  ODORI_EXPORT_BVH,
} OdoriExportFormat;

#define ODORI_TYPE_EXPORT (odori_export_get_type ())

G_DECLARE_FINAL_TYPE (OdoriExport, odori_export, ODORI, EXPORT, GObject)

/* Chooses the format by PATH's extension (.bvh, else BVA). Takes a reference to MOTION,
 * which nobody may change meanwhile: pass a copy of a motion that lives on. */
OdoriExport        *odori_export_new          (OdoriMotion          *motion,
                                               const char           *path);
OdoriExportFormat   odori_export_get_format   (OdoriExport          *self);
const char         *odori_export_get_path     (OdoriExport          *self);
/* 0 … 1, readable from any thread while the export runs. */
double              odori_export_get_fraction (OdoriExport          *self);
/* Writes atomically: on error or cancellation the target is untouched. */
void                odori_export_run_async    (OdoriExport          *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
gboolean            odori_export_run_finish   (OdoriExport          *self,
                                               GAsyncResult         *result,
                                               GError              **error);
/* The same, in the calling thread. */
gboolean            odori_export_run          (OdoriExport          *self,
                                               GCancellable         *cancellable,
                                               GError              **error);

G_END_DECLS
