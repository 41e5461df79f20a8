/* odori-session-types.h: the core's ref-counted structs as GBoxed types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Properties and signal arguments of the session layer carry the core's score, index,
 * motion, skeleton and score edits by reference (copy is a ref, free an unref), so a
 * GValue or a binding keeps what it holds alive. The core stays free of type
 * registration; the types are registered here, where GObject properties first need them.
 */
#pragma once

#include <glib-object.h>

#include "odori-index.h"
#include "odori-motion.h"
#include "odori-score-edit.h"
#include "odori-score.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

#define ODORI_TYPE_SCORE      (odori_score_get_type ())
#define ODORI_TYPE_INDEX      (odori_index_get_type ())
#define ODORI_TYPE_MOTION     (odori_motion_get_type ())
#define ODORI_TYPE_SKELETON   (odori_skeleton_get_type ())
#define ODORI_TYPE_SCORE_EDIT (odori_score_edit_get_type ())

GType odori_score_get_type      (void) G_GNUC_CONST;
GType odori_index_get_type      (void) G_GNUC_CONST;
GType odori_motion_get_type     (void) G_GNUC_CONST;
GType odori_skeleton_get_type   (void) G_GNUC_CONST;
GType odori_score_edit_get_type (void) G_GNUC_CONST;

G_END_DECLS
