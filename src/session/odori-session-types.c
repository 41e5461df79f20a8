/* odori-session-types.c: the core's ref-counted structs as GBoxed types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-session-types.h"

G_DEFINE_BOXED_TYPE (OdoriScore, odori_score, odori_score_ref, odori_score_unref)
G_DEFINE_BOXED_TYPE (OdoriIndex, odori_index, odori_index_ref, odori_index_unref)
G_DEFINE_BOXED_TYPE (OdoriMotion, odori_motion, odori_motion_ref, odori_motion_unref)
G_DEFINE_BOXED_TYPE (OdoriSkeleton, odori_skeleton, odori_skeleton_ref, odori_skeleton_unref)
G_DEFINE_BOXED_TYPE (OdoriScoreEdit, odori_score_edit, odori_score_edit_ref, odori_score_edit_free)
