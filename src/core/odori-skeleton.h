/* odori-skeleton.h: a hierarchy for drawing, skinning and BVH export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BVA files carry no hierarchy. A skeleton comes from, in order: a skeleton description
 * saved for the library (XML), a built-in table for a known naming scheme (Biovision,
 * the 17-sensor suit, NI joints, CMU BVH names), else a tree inferred from the first
 * frame's positions. BVH motions bring their own.
 */
#pragma once

#include "odori-motion.h"

G_BEGIN_DECLS

#define ODORI_SKELETON_ERROR (odori_skeleton_error_quark ())

typedef enum
{
  ODORI_SKELETON_ERROR_XML,        /* not well-formed, or too large */
  ODORI_SKELETON_ERROR_INVALID,    /* wrong root, missing or bad attribute, cycle */
} OdoriSkeletonError;

typedef enum
{
  ODORI_SKELETON_SCHEME_HIERARCHY, /* the motion's own (BVH) */
  ODORI_SKELETON_SCHEME_BIOVISION,
  ODORI_SKELETON_SCHEME_SUIT17,
  ODORI_SKELETON_SCHEME_NI,
  ODORI_SKELETON_SCHEME_CMU,
  ODORI_SKELETON_SCHEME_INFERRED,
  ODORI_SKELETON_SCHEME_FILE,      /* loaded from a skeleton description */
} OdoriSkeletonScheme;

typedef struct
{
  char  *name;        /* a segment name of the motion */
  int    parent;      /* index into bones, -1 for a root; parents come before children */
  float  length;      /* to the child (or end) in the motion's length unit */
  float  radius;      /* skin radius, same unit */
  int    bulge_code;  /* bulge_types code, -1 for none */
} OdoriBone;


struct _OdoriSkeleton
{
  /*< private >*/
  gatomicrefcount     ref_count;
  /*< public >*/
  OdoriSkeletonScheme scheme;
  guint               n_bones;
  OdoriBone          *bones;
};

GQuark          odori_skeleton_error_quark   (void);
OdoriSkeleton  *odori_skeleton_ref           (OdoriSkeleton       *skeleton);
void            odori_skeleton_unref         (OdoriSkeleton       *skeleton);
/* The motion's own hierarchy, else the built-in table that knows most of the segment
 * names (at least half of them, and the table's root; unknown segments are attached by
 * distance at frame 0), else inferred from frame 0. Never NULL for a motion with at
 * least one segment (NULL for none). */
OdoriSkeleton  *odori_skeleton_for_motion    (const OdoriMotion   *motion);
OdoriSkeleton  *odori_skeleton_infer         (const OdoriMotion   *motion);
int             odori_skeleton_find          (const OdoriSkeleton *skeleton,
                                              const char          *name);
const char     *odori_skeleton_scheme_to_string (OdoriSkeletonScheme scheme);
/* XML skeleton description (libxml2, no network, no entities, size-limited):
 * <odori-skeleton version="1"><bone name="Hips" parent="" length="4" radius="5" bulge="-1"/>…
 */
OdoriSkeleton  *odori_skeleton_load          (const char          *path,
                                              GError             **error);
gboolean        odori_skeleton_save          (const OdoriSkeleton *skeleton,
                                              const char          *path,
                                              GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriSkeleton, odori_skeleton_unref)

G_END_DECLS
