/* odori-renderer-private.h: the renderer's instance, shared by its files, and test hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-camera.h"
#include "odori-gl-private.h"
#include "odori-renderer.h"
#include "odori-skin.h"

G_BEGIN_DECLS

struct _OdoriRenderer
{
  OdoriGl gl;

  /* scene */
  OdoriMotion   *motion;    /* what is drawn: SOURCE, or a copy turned Y-up */
  OdoriMotion   *source;    /* the motion given to set_motion */
  OdoriUpAxis    up;        /* SOURCE's up axis (AUTO: Y) */
  OdoriUpAxis    forced_up; /* odori_renderer_set_up_axis (); AUTO: guess */
  OdoriSkeleton *skeleton;
  OdoriBulgeSet *bulges;
  int           *bone_segment; /* per bone: the motion's segment, or -1 */
  gboolean      *is_leaf;      /* per bone: no child bone in the motion */
  float         *dirs;         /* per bone: 3 floats, its direction on the posed frame */
  float         *tips;         /* per bone: 3 floats, the far end of a leaf */
  guint          tips_frame;   /* the frame dirs and tips are for, or G_MAXUINT */
  guint          frame;
  gboolean       show_skin;
  gboolean       show_bulges;
  GPtrArray     *highlights; /* Highlight* */
  gboolean       colors_dirty;

  OdoriSkin *skin;
  gboolean   skin_dirty; /* topology to rebuild */
  gboolean   pose_dirty; /* vertices to recompute */
  guint      skin_n_vertices;
  guint      skin_n_indices;
  float     *skin_positions;
  float     *skin_normals;

  GArray *bone_positions; /* float */
  GArray *bone_normals;   /* float */
  GArray *bone_ids;       /* guint16 */
  float  *sphere;         /* unit sphere triangles, 3 floats per vertex */
  guint   sphere_n_vertices;

  /* motion extent */
  gboolean bounds_valid;
  float    bounds_min[3];
  float    bounds_max[3];
  float    floor_y;
  float    figure_height;

  OdoriCamera camera; /* its width, height and view_proj: the last draw's */

  /* last draw */
  guint stat_vertices;
  guint stat_triangles;
};

/* A contact shadow: a capsule on the floor from (seg[0], seg[1]) to (seg[2], seg[3]) in
 * X, Z, of radius param[0] and darkness param[1]. */
typedef struct
{
  float seg[4];
  float param[2];
} OdoriShadow;

/* odori-renderer-mesh.c: the figure's geometry */
void            _odori_renderer_build_sphere   (OdoriRenderer *self);
void            _odori_renderer_find_leaves    (OdoriRenderer *self);
void            _odori_renderer_compute_bounds (OdoriRenderer *self);
void            _odori_renderer_compute_tips   (OdoriRenderer *self);
void            _odori_renderer_build_bones    (OdoriRenderer *self);
/* Returns: (transfer full): OdoriShadow, darkest first, at most 32 of them */
GArray         *_odori_renderer_build_shadows  (OdoriRenderer *self);
void            _odori_renderer_rebuild_skin   (OdoriRenderer *self);
void            _odori_renderer_pose_skin      (OdoriRenderer *self);

/* Test and benchmark hooks */

/* Like odori_renderer_new(), with the skin/bone mesh shaders taken from these sources
 * instead of the resources (NULL keeps a resource): tests feed a broken shader. */
OdoriRenderer  *odori_renderer_new_with_sources (const char     *mesh_vertex,
                                                 const char     *mesh_fragment,
                                                 GError        **error);
/* What the last draw put on screen: vertices and triangles of the figure (skin or bones). */
void            odori_renderer_get_stats        (OdoriRenderer  *self,
                                                 guint          *n_vertices,
                                                 guint          *n_triangles);

G_END_DECLS
