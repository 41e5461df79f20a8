/* odori-gltf.h: a composed dance as glTF 2.0 binary (.glb), in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The skeleton as nodes, the skin mesh Odori draws (rigidly bound, one joint per vertex)
 * with a skin, and the dance as one animation: one time accessor shared by every channel
 * (frame i at i · frame time), a rotation channel per joint, translation channels on the
 * roots and on joints whose offset from their parent varies. Metres, +Y up. The rest pose
 * is the dance's first frame. docs/sharing.md gives the decisions.
 */
#pragma once

#include <gio/gio.h>

#include "odori-capture.h"
#include "odori-motion.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

#define ODORI_TYPE_GLTF_EXPORT (odori_gltf_export_get_type ())

G_DECLARE_FINAL_TYPE (OdoriGltfExport, odori_gltf_export, ODORI, GLTF_EXPORT, GObject)

/* Takes a reference to MOTION, which nobody may change meanwhile: pass a copy of a motion
 * that lives on. */
OdoriGltfExport *odori_gltf_export_new (OdoriMotion *motion,
                                        const char  *path);
/* The skeleton to write (default: odori_skeleton_for_motion ()). */
void odori_gltf_export_set_skeleton (OdoriGltfExport *self,
                                     OdoriSkeleton   *skeleton);
/* The motion's up axis (default AUTO: guessed from its head and feet, as the renderer
 * draws it). */
void odori_gltf_export_set_up_axis (OdoriGltfExport *self,
                                    OdoriUpAxis      up);
/* Metres per unit of the motion's lengths; 0 (the default): odori_gltf_metres_per_unit (). */
void        odori_gltf_export_set_metres_per_unit (OdoriGltfExport *self,
                                                   double           metres);
const char *odori_gltf_export_get_path (OdoriGltfExport *self);
/* 0 … 1, readable from any thread while the export runs. */
double odori_gltf_export_get_fraction (OdoriGltfExport *self);
/* Writes atomically: on error or cancellation the target is untouched. */
gboolean odori_gltf_export_run (OdoriGltfExport *self,
                                GCancellable    *cancellable,
                                GError         **error);
void     odori_gltf_export_run_async (OdoriGltfExport    *self,
                                      GCancellable       *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer            user_data);
gboolean odori_gltf_export_run_finish (OdoriGltfExport *self,
                                       GAsyncResult    *result,
                                       GError         **error);

/* Metres per unit of MOTION's lengths: its BVA translation unit (a composed dance is in
 * inches); a motion that states none (BVH) gets the unit among metres, centimetres,
 * millimetres, inches and CMU's 1/0.45 inch that makes the figure, oriented by UP (AUTO:
 * guessed), nearest 1.6 m from its lowest to its highest joint at the first frame
 * (*GUESSED, nullable, is then TRUE). */
double odori_gltf_metres_per_unit (const OdoriMotion *motion,
                                   OdoriUpAxis        up,
                                   gboolean          *guessed);
/* TRUE when PATH ends in .glb (any case). */
gboolean odori_gltf_path_is_glb (const char *path);

G_END_DECLS
