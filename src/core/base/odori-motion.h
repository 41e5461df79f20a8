/* odori-motion.h: the motion model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A motion is frames of per-segment GLOBAL transforms (world space, Y up, right-handed),
 * as BVA holds them. BVH readers convert local channels to these global transforms and
 * keep the hierarchy so the file can be written again.
 *
 * All transforms live in ONE allocation, indexed frame * n_segments + segment.
 */
#pragma once

#include <glib.h>
#include <cglm/cglm.h>

#include "odori-quat.h"
#include "odori-types.h"

G_BEGIN_DECLS

typedef struct
{
  float position[3];  /* in the motion's length unit (see OdoriSegment.units) */
  float rotation[4];  /* unit quaternion x, y, z, w (cglm versor) */
  float scale[3];     /* as in the file: BVA PERCENT gives 100 for identity */
} OdoriTransform;

/* BVA data fields, in the canonical order. */
typedef enum
{
  ODORI_FIELD_XTRAN,
  ODORI_FIELD_YTRAN,
  ODORI_FIELD_ZTRAN,
  ODORI_FIELD_XROT,
  ODORI_FIELD_YROT,
  ODORI_FIELD_ZROT,
  ODORI_FIELD_XSCALE,
  ODORI_FIELD_YSCALE,
  ODORI_FIELD_ZSCALE,
  ODORI_N_FIELDS
} OdoriField;

typedef enum
{
  ODORI_UNIT_INCHES,
  ODORI_UNIT_CENTIMETERS,
  ODORI_UNIT_MILLIMETERS,
  ODORI_UNIT_METERS,
  ODORI_UNIT_DEGREES,
  ODORI_UNIT_RADIANS,
  ODORI_UNIT_PERCENT,
  ODORI_UNIT_UNKNOWN,  /* BVH: whatever the file uses */
} OdoriUnit;

/* BVH channels. */
typedef enum
{
  ODORI_CHANNEL_XPOSITION,
  ODORI_CHANNEL_YPOSITION,
  ODORI_CHANNEL_ZPOSITION,
  ODORI_CHANNEL_XROTATION,
  ODORI_CHANNEL_YROTATION,
  ODORI_CHANNEL_ZROTATION,
} OdoriChannel;

typedef struct
{
  char        *name;
  /* BVA: the column order and units as read, kept for writing back. */
  guint        n_fields;
  OdoriField   fields[ODORI_N_FIELDS];
  OdoriUnit    units[ODORI_N_FIELDS];
  /* Hierarchy (motion->has_hierarchy): parent index or -1, offset from the parent,
   * channels in file order, and the End Site offset if the joint has one. */
  int          parent;
  float        offset[3];
  guint        n_channels;
  OdoriChannel channels[6];
  gboolean     has_end_site;
  float        end_site[3];
} OdoriSegment;

struct _OdoriMotion
{
  /*< private >*/
  gatomicrefcount ref_count;
  /*< public, read-only >*/
  guint           n_frames;
  guint           n_segments;
  double          frame_time;    /* seconds per frame */
  gboolean        has_hierarchy; /* segments[].parent/offset/channels are valid */
  OdoriSegment   *segments;      /* n_segments */
  OdoriTransform *transforms;    /* n_frames * n_segments, one allocation */
  char           *path;          /* file it came from, or NULL */
  /* Root offsets, kept by a composer that edits (odori_composer_set_incremental ()):
   * NULL, or n_frames translations, each added to the stored position of every segment
   * whose follows_root[] is set. A move on the root track then rewrites one offset a
   * frame instead of every later frame's transforms. Read such a motion's world
   * transforms with odori_motion_get_world () or odori_motion_get_frame ();
   * odori_motion_get () gives the stored ones. Only the composer sets them. */
  float  *root_offsets; /* n_frames * 3, or NULL */
  guint8 *follows_root; /* n_segments, or NULL */
};

/* Allocates a motion whose transforms are identity (scale 100 percent, units INCHES,
 * DEGREES, PERCENT, canonical field order). Returns NULL (with error domain
 * ODORI_TEXT_ERROR_TOO_LARGE) if n_frames * n_segments cannot be allocated sanely. */
OdoriMotion    *odori_motion_new               (guint              n_segments,
                                                guint              n_frames,
                                                double             frame_time,
                                                GError           **error);
/* The same with the transforms left unset, for readers that write every one of them:
 * the first touch of a big motion's memory then happens on the threads that parse it,
 * not in one pass of its own. */
OdoriMotion    *odori_motion_new_unset         (guint              n_segments,
                                                guint              n_frames,
                                                double             frame_time,
                                                GError           **error);
/* Every frame of SEGMENT at rest (the identity transform, scale 100 percent). */
void            odori_motion_set_rest          (OdoriMotion       *motion,
                                                guint              segment);
OdoriMotion    *odori_motion_ref               (OdoriMotion       *motion);
void            odori_motion_unref             (OdoriMotion       *motion);
void            odori_motion_set_segment_name  (OdoriMotion       *motion,
                                                guint              segment,
                                                const char        *name);
int             odori_motion_find_segment      (const OdoriMotion *motion,
                                                const char        *name);
static inline OdoriTransform *
odori_motion_get (const OdoriMotion *motion,
                  guint              frame,
                  guint              segment)
{
  return &motion->transforms[(gsize) frame * motion->n_segments + segment];
}
/* The world transform of SEGMENT at FRAME (0-based): the stored one, plus the frame's
 * root offset if the motion has them. */
static inline void
odori_motion_get_world (const OdoriMotion *motion,
                        guint              frame,
                        guint              segment,
                        OdoriTransform    *out)
{
  *out = motion->transforms[(gsize) frame * motion->n_segments + segment];
  if (G_UNLIKELY (motion->root_offsets != NULL) && motion->follows_root[segment])
    for (int k = 0; k < 3; k++)
      out->position[k] += motion->root_offsets[(gsize) frame * 3 + k];
}
/* The same as a pointer: to the stored transform when the motion has no root offsets,
 * else to BUF, filled. */
static inline const OdoriTransform *
odori_motion_world (const OdoriMotion *motion,
                    guint              frame,
                    guint              segment,
                    OdoriTransform    *buf)
{
  if (G_LIKELY (motion->root_offsets == NULL))
    return &motion->transforms[(gsize) frame * motion->n_segments + segment];
  odori_motion_get_world (motion, frame, segment, buf);
  return buf;
}
/* The same for the position alone, into OUT. */
static inline void
odori_motion_get_world_position (const OdoriMotion *motion,
                                 guint              frame,
                                 guint              segment,
                                 float              out[3])
{
  const float *p = motion->transforms[(gsize) frame * motion->n_segments + segment].position;

  out[0] = p[0], out[1] = p[1], out[2] = p[2];
  if (G_UNLIKELY (motion->root_offsets != NULL) && motion->follows_root[segment])
    for (int k = 0; k < 3; k++)
      out[k] += motion->root_offsets[(gsize) frame * 3 + k];
}
/* FRAME's world transforms (n_segments of them): the motion's own when it has no root
 * offsets, else written into BUF (n_segments) and BUF returned. */
const OdoriTransform *odori_motion_get_frame (const OdoriMotion *motion,
                                              guint              frame,
                                              OdoriTransform    *buf);
/* Gives MOTION root offsets (all zero) for the segments FOLLOWS (n_segments) marks, or
 * with FOLLOWS NULL drops them (stored transforms are left as they are). */
void odori_motion_set_root_offsets (OdoriMotion  *motion,
                                    const guint8 *follows);
/* Changes the number of frames (keeping the first ones; new frames copy the last, with
 * its root offset). */
gboolean        odori_motion_resize            (OdoriMotion       *motion,
                                                guint              n_frames,
                                                GError           **error);
/* A copy of MOTION's world transforms: root offsets are added in, the copy has none. */
OdoriMotion    *odori_motion_copy              (const OdoriMotion *motion);
/* A motion resampled to FRAME_TIME (frames FIRST..LAST, 1-based inclusive):
 * round(n · t_src / t) frames, frame j reading source time j · t. */
OdoriMotion    *odori_motion_resample          (const OdoriMotion *motion,
                                                guint              first,
                                                guint              last,
                                                double             frame_time,
                                                GError           **error);
/* How many frames N_SRC frames of MOTION last resampled to FRAME_TIME: the length
 * odori_motion_resample () gives them (N_SRC itself at the same rate; at least 1). */
guint           odori_motion_resample_n_frames (const OdoriMotion *motion,
                                                guint              n_src,
                                                double             frame_time);
/* Equal names, counts and frame time (relative 1e-6); positions and scales within
 * POS_TOL (absolute), rotations within ROT_TOL_DEG degrees (q and -q are equal). On a
 * difference, *why (if not NULL) says where. */
gboolean        odori_motion_equal             (const OdoriMotion *a,
                                                const OdoriMotion *b,
                                                double             pos_tol,
                                                double             rot_tol_deg,
                                                char             **why);

const char     *odori_unit_to_string           (OdoriUnit          unit);
gboolean        odori_unit_from_string         (const char        *s,
                                                gsize              len,
                                                OdoriUnit         *unit);
const char     *odori_field_to_string          (OdoriField         field);

/* Depth-first order of a forest of segments (PARENT[i] < 0 for a root), roots and children
 * in index order; returns the number of indices written to ORDER (N for a forest). */
guint           odori_forest_preorder          (const int         *parent,
                                                guint              n,
                                                guint             *order);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriMotion, odori_motion_unref)

G_END_DECLS
