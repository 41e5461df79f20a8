/* odori-bvh.h: Biovision Hierarchy reader (FORMATS.md §8)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-motion.h"
#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_BVH_ERROR (odori_bvh_error_quark ())

typedef enum
{
  ODORI_BVH_ERROR_SYNTAX,       /* unexpected keyword or token */
  ODORI_BVH_ERROR_TRUNCATED,    /* file ends early */
  ODORI_BVH_ERROR_COUNT,        /* channel values per line, or Frames: vs data */
  ODORI_BVH_ERROR_NUMBER,
  ODORI_BVH_ERROR_NOT_FINITE,
  ODORI_BVH_ERROR_UNBALANCED,   /* braces */
  ODORI_BVH_ERROR_DUPLICATE,    /* two joints with one name */
  ODORI_BVH_ERROR_TOO_DEEP,     /* hierarchy nesting beyond a sane limit */
} OdoriBvhError;

GQuark        odori_bvh_error_quark  (void);

gboolean      odori_bvh_sniff        (const char    *data,
                                      gsize          len);
/* Reads the hierarchy and converts each frame's local channels into global transforms
 * (motion->has_hierarchy is TRUE; segments keep parent, offset and channel order). */
OdoriMotion  *odori_bvh_load         (const char    *path,
                                      GPtrArray     *warnings,
                                      GError       **error);
OdoriMotion  *odori_bvh_load_text    (OdoriTextFile *file,
                                      GPtrArray     *warnings,
                                      GError       **error);

G_END_DECLS

G_BEGIN_DECLS

/* BVH writer (odori-bvh-writer.c). A motion with its own hierarchy is written with it
 * (offsets and channel orders kept: BVH → BVH is exact within printing precision).
 * Otherwise SKELETON (from odori_skeleton_for_motion) gives the tree: offsets come from
 * the first frame (the child's position in its parent's frame), every joint gets
 * Zrotation Xrotation Yrotation, preceded by Xposition Yposition Zposition on the root
 * and, as POSITIONS says, on other joints; leaves an End Site along their bone.
 * Re-reading gives back the global transforms (in AUTO and ALL for any motion, in ROOT
 * for rigid skeletons). */
typedef enum
{
  /* The roots, and every joint whose offset in its parent's frame is not constant over
   * the motion (a prop, a marker, a bone that stretches between the symbols of a
   * composed score). */
  ODORI_BVH_POSITIONS_AUTO,
  /* The roots only: a joint whose offset varies moves rigidly with its parent. */
  ODORI_BVH_POSITIONS_ROOT,
  /* Every joint. */
  ODORI_BVH_POSITIONS_ALL,
} OdoriBvhPositions;

/* "auto", "root", "all". */
const char   *odori_bvh_positions_to_string   (OdoriBvhPositions    positions);
gboolean      odori_bvh_positions_from_string (const char          *s,
                                               OdoriBvhPositions   *positions);

/* POSITIONS applies to motions written through a skeleton, and ALL to a hierarchy too
 * (its joints without position channels get them). The plain functions use AUTO. */
gboolean      odori_bvh_save_full    (const OdoriMotion   *motion,
                                      const OdoriSkeleton *skeleton,
                                      OdoriBvhPositions    positions,
                                      const char          *path,
                                      GError             **error);
void          odori_bvh_write_full   (const OdoriMotion   *motion,
                                      const OdoriSkeleton *skeleton,
                                      OdoriBvhPositions    positions,
                                      OdoriOutput         *out);
gboolean      odori_bvh_save         (const OdoriMotion   *motion,
                                      const OdoriSkeleton *skeleton,
                                      const char          *path,
                                      GError             **error);
void          odori_bvh_write        (const OdoriMotion   *motion,
                                      const OdoriSkeleton *skeleton,
                                      OdoriOutput         *out);

G_END_DECLS
