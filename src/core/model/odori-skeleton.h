/* odori-skeleton.h: a hierarchy for drawing, skinning and BVH export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BVA files carry no hierarchy. A skeleton comes from, in order: a skeleton description
 * saved for the library (XML); a built-in table for a known naming scheme (Biovision,
 * the 17-sensor suit, NI joints, and the BVH families: CMU's MotionBuilder-style and
 * joint-named sets, Mixamo, Rokoko / Perception Neuron, DAZ / Poser l/r prefixes, _L/_R
 * suffixes); else, for a marker set (every rotation the identity), no tree at all but
 * markers and sticks; else a tree inferred from the whole motion (the parent of a segment
 * is the one in whose frame it keeps a constant offset). BVH motions bring their own.
 * odori-skeleton.c opens with the exact rules.
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

/* Where a skeleton came from. The table schemes (BIOVISION … LR_SUFFIX) name the table;
 * odori_skeleton_source_to_string() groups them as "table". */
typedef enum
{
  ODORI_SKELETON_SCHEME_HIERARCHY,  /* the motion's own (BVH) */
  ODORI_SKELETON_SCHEME_BIOVISION,
  ODORI_SKELETON_SCHEME_SUIT17,
  ODORI_SKELETON_SCHEME_NI,
  ODORI_SKELETON_SCHEME_CMU,        /* CMU as MotionBuilder names it: LeftUpLeg, LHipJoint */
  ODORI_SKELETON_SCHEME_INFERRED,
  ODORI_SKELETON_SCHEME_FILE,       /* loaded from a skeleton description */
  ODORI_SKELETON_SCHEME_MARKERS,    /* a marker set: every bone a root, see sticks */
  ODORI_SKELETON_SCHEME_CMU_JOINTS, /* CMU named by joints: LeftHip, LeftKnee, lowerback */
  ODORI_SKELETON_SCHEME_MIXAMO,     /* mixamorig: names (prefix stripped) */
  ODORI_SKELETON_SCHEME_ROKOKO,     /* Rokoko / Perception Neuron: LeftInHandIndex */
  ODORI_SKELETON_SCHEME_DAZ,        /* DAZ / Poser: hip, abdomen, lShldr, rThigh */
  ODORI_SKELETON_SCHEME_LR_SUFFIX,  /* _L / _R suffixes (MakeHuman): UpArm_L, UpperArm_L */
} OdoriSkeletonScheme;

typedef struct
{
  char  *name;        /* a segment name of the motion */
  int    parent;      /* index into bones, -1 for a root; parents come before children */
  float  length;      /* to the child (or end) in the motion's length unit */
  float  radius;      /* skin radius, same unit */
  int    bulge_code;  /* bulge_types code, -1 for none */
} OdoriBone;

/* A marker set's stick: two markers whose distance stays nearly constant over the
 * motion (they sit on one body part), to be drawn as a line between them. */
typedef struct
{
  int      a, b;      /* bone indices, a < b */
  float    length;    /* mean distance, in the motion's length unit */
  gboolean join;      /* not rigid: joins two rigid pieces into one figure */
} OdoriStick;

struct _OdoriSkeleton
{
  /*< private >*/
  gatomicrefcount     ref_count;
  /*< public >*/
  OdoriSkeletonScheme scheme;
  guint               n_bones;
  OdoriBone          *bones;
  /* Scheme MARKERS only (else 0 and NULL): every bone is a root of length 0 (a marker,
   * radius: the sphere's), and these pairs of markers are sticks, sorted by a then b. */
  guint               n_sticks;
  OdoriStick         *sticks;
};

GQuark          odori_skeleton_error_quark   (void);
OdoriSkeleton  *odori_skeleton_ref           (OdoriSkeleton       *skeleton);
void            odori_skeleton_unref         (OdoriSkeleton       *skeleton);
/* The motion's own hierarchy, else the built-in table that knows most of the segment
 * names (at least half of them, and the table's root; unknown segments are attached as
 * odori_skeleton_infer() would attach them), else a marker set (scheme MARKERS) when
 * every rotation is the identity over a motion that moves, else odori_skeleton_infer().
 * Never NULL for a motion with at least one segment (NULL for none). */
OdoriSkeleton  *odori_skeleton_for_motion    (const OdoriMotion   *motion);
/* A tree inferred from frames sampled over the whole motion, whatever the names and
 * rotations (scheme INFERRED). */
OdoriSkeleton  *odori_skeleton_infer         (const OdoriMotion   *motion);
/* A head-named joint ("Head", "head", "mixamorig:Head"), not an end twig ("HeadTop_End"):
 * the skin draws it as a head along its parent's direction, whatever hangs from it. */
gboolean        odori_skeleton_is_head_name  (const char          *name);
int             odori_skeleton_find          (const OdoriSkeleton *skeleton,
                                              const char          *name);
/* "hierarchy", "inferred", "file", "markers", or the table's name: "biovision",
 * "suit17", "ni", "cmu", "cmu-joints", "mixamo", "rokoko", "daz", "lr-suffix". */
const char     *odori_skeleton_scheme_to_string (OdoriSkeletonScheme scheme);
/* The scheme's source: "file" (the motion's own hierarchy: HIERARCHY), "saved" (a
 * skeleton description: FILE), "table" (a naming scheme's table), "inferred" or
 * "markers". Note that the scheme FILE is the source "saved". */
const char     *odori_skeleton_source_to_string (OdoriSkeletonScheme scheme);
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
