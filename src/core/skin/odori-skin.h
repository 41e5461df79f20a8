/* odori-skin.h: skin meshes with muscle bulges (pure geometry, no GL)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tube per bone of a skeleton (rings along the bone, vertices around it, capped at the
 * joints), deformed per FORMATS.md §7: a bone carrying a bulge code bulges by the bend
 * of the joint at its lower end. The renderer uploads what odori_skin_pose() fills.
 */
#pragma once

#include "odori-bulge.h"
#include "odori-motion.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

typedef struct _OdoriSkin OdoriSkin;

/* Topology for SKELETON: RINGS rings along each bone (>= 2), SIDES vertices around
 * (>= 3). BULGES may be NULL (no bulges). The skin keeps references. */
OdoriSkin      *odori_skin_new              (OdoriSkeleton      *skeleton,
                                             OdoriBulgeSet      *bulges,
                                             guint               rings,
                                             guint               sides);
void            odori_skin_free             (OdoriSkin          *skin);
guint           odori_skin_get_n_vertices   (OdoriSkin          *skin);
/* Triangles, counter-clockwise seen from outside. */
const guint32  *odori_skin_get_indices      (OdoriSkin          *skin,
                                             guint              *n_indices);
/* The skeleton bone each vertex belongs to (for colouring and highlighting). */
const guint16  *odori_skin_get_vertex_bones (OdoriSkin          *skin);
/* Poses the skin on frame FRAME (0-based) of MOTION, whose segments are matched to the
 * skeleton's bones by name: fills POSITIONS and NORMALS (3 floats per vertex each, in
 * the motion's length unit). With USE_BULGES FALSE the tubes stay round. */
void            odori_skin_pose             (OdoriSkin          *skin,
                                             const OdoriMotion  *motion,
                                             guint               frame,
                                             gboolean            use_bulges,
                                             float              *positions,
                                             float              *normals);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriSkin, odori_skin_free)

G_END_DECLS
