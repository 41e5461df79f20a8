/* odori-skeleton-private.h: what the skeleton's inference and its XML description share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-skeleton.h"

G_BEGIN_DECLS

/* A limb's radius when nothing else says: this fraction of its length. */
#define ODORI_SKELETON_LIMB_RADIUS_FACTOR 0.18
/* The bulge code of a bone without a muscle bulge. */
#define ODORI_SKELETON_NO_BULGE (-1)

/* A skeleton of N_BONES zeroed bones (one reference). */
OdoriSkeleton *_odori_skeleton_new                (OdoriSkeletonScheme  scheme,
                                                   guint                n_bones);
/* TRUE if every parent index is in range and following parents always ends at a root. */
gboolean       _odori_skeleton_parents_are_forest (const int           *parent,
                                                   guint                n);

G_END_DECLS
