/* odori-skin.c: skin meshes with muscle bulges (pure geometry, no GL)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements (FORMATS.md §7; written up in docs/formats.md):
 * - Each bone is a tube from its segment's global position to its end: the average
 *   position of its children's segments (a bone with one child ends at that child);
 *   a leaf ends `length` along the parent bone's direction carried by the joint's
 *   rotation (R_leaf · R_parent⁻¹ · d_parent), so a bent wrist or ankle bends the hand or
 *   foot and the joint's bend can drive the forearm's or calf's bulge. A root without
 *   children points along its segment's +Y.
 * - The bone's frame: d along the bone (top, u = 0, to bottom, u = 1); front f = the
 *   segment's rotated +Z made perpendicular to d (its rotated +Y when +Z runs along the
 *   bone); right r = d × f. θ = 0° is the front and grows toward r: a vertex's direction
 *   from the axis is cos θ · f + sin θ · r.
 * - Bend at the lower joint: the angle between d and the direction of the child bone (the
 *   normalised average of the children's directions when there are several; 0 for a
 *   leaf); activation a = clamp(bend / 120°, 0, 1).
 * - Vertex at ring u, angle θ: along the bone at u + a·(V − u), at radius r·(1 + 2·a·W),
 *   V and W from odori_bulge_eval() sampled once per ring and side when the skin is built.
 * - Rings at u = i / (rings − 1); caps are hemispheres of sides / 4 latitude rings (at
 *   least one) and a pole, built on the (deformed) end rings. Tube normals come from the
 *   posed neighbours (central differences), cap normals from the sphere.
 * - A bone whose segment is missing from the motion collapses to a point (at its parent's
 *   end, or the origin), so its triangles draw nothing.
 * Posing allocates nothing: everything it needs is sized when the skin is built.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "odori-skin.h"

#define MAX_BEND_DEG 120.f
#define MAX_RINGS_SIDES 4096
/* Below this length (in the motion's unit) a direction is not trusted. */
#define TINY 1e-12f

typedef struct
{
  vec3     start;
  vec3     dir;
  vec3     front;
  vec3     right;
  float    length;
  float    radius;
  float    activation;
  gboolean valid;
} BonePose;

struct _OdoriSkin
{
  OdoriSkeleton *skeleton;
  OdoriBulgeSet *bulges;
  guint          n_bones;
  guint          rings;
  guint          sides;
  guint          cap_rings;
  guint          verts_per_bone;
  guint          n_vertices;
  guint          n_indices;
  guint32       *indices;
  guint16       *vertex_bones;
  float         *ring_u;        /* rings */
  float         *side_cos;      /* sides */
  float         *side_sin;
  float         *cap_cos;       /* cap_rings latitudes, from the equator to the pole */
  float         *cap_sin;
  int           *first_child;   /* n_bones, -1 for none */
  int           *spine_child;   /* n_bones: the child continuing the torso, or -1 */
  int           *next_sibling;
  /* Per bone with a bulge: rings × sides pairs (V − u, 2W) in the profiles buffer. */
  float        **profile;
  float         *profiles;
  /* Pose state, sized once. */
  OdoriMotion   *motion;        /* the last motion posed (a reference), for the map */
  int           *segment_of;    /* n_bones: the motion's segment for each bone, or -1 */
  BonePose      *poses;
  float         *dirs;          /* sides × 3 */
};

static gboolean
bone_has_valid_parent (OdoriSkin *skin,
                       guint      b)
{
  int parent = skin->skeleton->bones[b].parent;

  return parent >= 0 && (guint) parent < b;
}

static gboolean
is_spine_name (const char *name)
{
  static const char *words[] = { "chest", "spine", "neck", "torso", "back", "waist" };
  g_autofree char *lower = g_ascii_strdown (name ? name : "", -1);

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (lower, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* A torso bone with limbs branching off (hips, chest) runs to the one child that
 * continues the spine, so hips, chest and neck join into one body; the average of
 * all children left a gap between the hips and the chest. */
static void
build_spine_children (OdoriSkin *skin)
{
  for (guint b = 0; b < skin->n_bones; b++)
    {
      int found = -1, n = 0, n_children = 0;

      for (int c = skin->first_child[b]; c >= 0; c = skin->next_sibling[c])
        {
          n_children++;
          if (is_spine_name (skin->skeleton->bones[c].name))
            {
              found = c;
              n++;
            }
        }
      skin->spine_child[b] = (n == 1 && n_children > 1) ? found : -1;
    }
}

static void
build_children (OdoriSkin *skin)
{
  for (guint b = 0; b < skin->n_bones; b++)
    skin->first_child[b] = skin->next_sibling[b] = -1;
  for (guint b = skin->n_bones; b-- > 0;)
    if (bone_has_valid_parent (skin, b))
      {
        int parent = skin->skeleton->bones[b].parent;

        skin->next_sibling[b] = skin->first_child[parent];
        skin->first_child[parent] = b;
      }
}

static void
build_tables (OdoriSkin *skin)
{
  for (guint i = 0; i < skin->rings; i++)
    skin->ring_u[i] = (float) i / (float) (skin->rings - 1);
  for (guint k = 0; k < skin->sides; k++)
    {
      double theta = 2 * G_PI * k / skin->sides;

      skin->side_cos[k] = (float) cos (theta);
      skin->side_sin[k] = (float) sin (theta);
    }
  for (guint j = 0; j < skin->cap_rings; j++)
    {
      double phi = G_PI / 2 * (j + 1) / (skin->cap_rings + 1);

      skin->cap_cos[j] = (float) cos (phi);
      skin->cap_sin[j] = (float) sin (phi);
    }
}

static void
build_profiles (OdoriSkin *skin)
{
  guint per_bone = 2 * skin->rings * skin->sides;
  guint n_profiles = 0;
  float *p;

  if (skin->bulges == NULL)
    return;
  for (guint b = 0; b < skin->n_bones; b++)
    if (skin->skeleton->bones[b].bulge_code >= 0 &&
        odori_bulge_set_find (skin->bulges, skin->skeleton->bones[b].bulge_code) != NULL)
      n_profiles++;
  if (n_profiles == 0)
    return;

  skin->profiles = p = g_new (float, (gsize) n_profiles * per_bone);
  for (guint b = 0; b < skin->n_bones; b++)
    {
      const OdoriBulge *bulge;

      if (skin->skeleton->bones[b].bulge_code < 0)
        continue;
      bulge = odori_bulge_set_find (skin->bulges, skin->skeleton->bones[b].bulge_code);
      if (bulge == NULL)
        continue;
      skin->profile[b] = p;
      for (guint i = 0; i < skin->rings; i++)
        for (guint k = 0; k < skin->sides; k++)
          {
            float v, w;

            odori_bulge_eval (bulge, skin->ring_u[i], 360.f * k / skin->sides, &v, &w);
            *p++ = v - skin->ring_u[i];
            *p++ = 2 * w;
          }
    }
}

/* Vertex numbering inside a bone: tube rings first, then the top cap's latitude rings and
 * pole (at u = 0), then the bottom cap's (at u = 1). */
static inline guint
tube_vertex (const OdoriSkin *skin,
             guint            base,
             guint            ring,
             guint            side)
{
  return base + ring * skin->sides + side % skin->sides;
}

static inline guint
cap_vertex (const OdoriSkin *skin,
            guint            base,
            gboolean         bottom,
            guint            latitude,  /* 0: the tube's end ring, cap_rings + 1: the pole */
            guint            side)
{
  guint cap = base + skin->rings * skin->sides + (bottom ? skin->cap_rings * skin->sides + 1 : 0);

  if (latitude == 0)
    return tube_vertex (skin, base, bottom ? skin->rings - 1 : 0, side);
  if (latitude > skin->cap_rings)
    return cap + skin->cap_rings * skin->sides;
  return cap + (latitude - 1) * skin->sides + side % skin->sides;
}

static guint32 *
emit_triangle (guint32 *idx,
               guint    a,
               guint    b,
               guint    c)
{
  idx[0] = a;
  idx[1] = b;
  idx[2] = c;
  return idx + 3;
}

/* Counter-clockwise seen from outside: with θ growing from f toward r = d × f, the
 * triangle (ring i side k, ring i side k+1, ring i+1 side k) faces outward. */
static void
build_indices (OdoriSkin *skin)
{
  guint32 *idx = skin->indices;
  guint n = skin->sides;

  for (guint b = 0; b < skin->n_bones; b++)
    {
      guint base = b * skin->verts_per_bone;

      for (guint i = 0; i + 1 < skin->rings; i++)
        for (guint k = 0; k < n; k++)
          {
            guint v00 = tube_vertex (skin, base, i, k), v01 = tube_vertex (skin, base, i, k + 1);
            guint v10 = tube_vertex (skin, base, i + 1, k);
            guint v11 = tube_vertex (skin, base, i + 1, k + 1);

            idx = emit_triangle (idx, v00, v01, v10);
            idx = emit_triangle (idx, v01, v11, v10);
          }
      for (guint bottom = 0; bottom <= 1; bottom++)
        {
          guint pole = cap_vertex (skin, base, bottom, skin->cap_rings + 1, 0);

          for (guint j = 0; j < skin->cap_rings; j++)
            for (guint k = 0; k < n; k++)
              {
                guint v00 = cap_vertex (skin, base, bottom, j, k);
                guint v01 = cap_vertex (skin, base, bottom, j, k + 1);
                guint v10 = cap_vertex (skin, base, bottom, j + 1, k);
                guint v11 = cap_vertex (skin, base, bottom, j + 1, k + 1);

                /* The bottom cap runs along +d like the tube; the top one against it. */
                if (bottom)
                  {
                    idx = emit_triangle (idx, v00, v01, v10);
                    idx = emit_triangle (idx, v01, v11, v10);
                  }
                else
                  {
                    idx = emit_triangle (idx, v00, v10, v01);
                    idx = emit_triangle (idx, v01, v10, v11);
                  }
              }
          for (guint k = 0; k < n; k++)
            {
              guint a = cap_vertex (skin, base, bottom, skin->cap_rings, k);
              guint c = cap_vertex (skin, base, bottom, skin->cap_rings, k + 1);

              idx = bottom ? emit_triangle (idx, a, c, pole) : emit_triangle (idx, a, pole, c);
            }
        }
    }
  g_assert ((guint) (idx - skin->indices) == skin->n_indices);
}

/**
 * odori_skin_new:
 * @skeleton: the skeleton (bones in parent-first order)
 * @bulges: (nullable): bulge definitions for the bones' codes
 * @rings: rings along each bone, 2 to 4096
 * @sides: vertices around each ring, 3 to 4096
 *
 * Builds the topology and samples each bulging bone's profile at its rings and sides. A
 * change to @bulges afterwards needs a new skin.
 *
 * Returns: (transfer full) (nullable): the skin, %NULL if the mesh would be too large
 */
OdoriSkin *
odori_skin_new (OdoriSkeleton *skeleton,
                OdoriBulgeSet *bulges,
                guint          rings,
                guint          sides)
{
  OdoriSkin *skin;
  guint cap_rings;
  guint64 verts_per_bone, n_vertices, n_indices;

  g_return_val_if_fail (skeleton != NULL, NULL);
  g_return_val_if_fail (rings >= 2 && rings <= MAX_RINGS_SIDES, NULL);
  g_return_val_if_fail (sides >= 3 && sides <= MAX_RINGS_SIDES, NULL);
  g_return_val_if_fail (skeleton->n_bones <= G_MAXUINT16 + 1u, NULL);

  cap_rings = MAX (1, sides / 4);
  verts_per_bone = (guint64) rings * sides + 2 * ((guint64) cap_rings * sides + 1);
  n_vertices = verts_per_bone * skeleton->n_bones;
  n_indices = (guint64) skeleton->n_bones * sides *
              (6 * (guint64) (rings - 1) + 2 * (6 * (guint64) cap_rings + 3));
  g_return_val_if_fail (n_vertices <= G_MAXINT32 / 4 && n_indices <= G_MAXINT32 / 4, NULL);

  skin = g_new0 (OdoriSkin, 1);
  skin->skeleton = odori_skeleton_ref (skeleton);
  skin->bulges = bulges != NULL ? odori_bulge_set_ref (bulges) : NULL;
  skin->n_bones = skeleton->n_bones;
  skin->rings = rings;
  skin->sides = sides;
  skin->cap_rings = cap_rings;
  skin->verts_per_bone = (guint) verts_per_bone;
  skin->n_vertices = (guint) n_vertices;
  skin->n_indices = (guint) n_indices;

  skin->indices = g_new (guint32, MAX (n_indices, 1));
  skin->vertex_bones = g_new (guint16, MAX (n_vertices, 1));
  skin->ring_u = g_new (float, rings);
  skin->side_cos = g_new (float, sides);
  skin->side_sin = g_new (float, sides);
  skin->cap_cos = g_new (float, cap_rings);
  skin->cap_sin = g_new (float, cap_rings);
  skin->first_child = g_new (int, MAX (skin->n_bones, 1));
  skin->spine_child = g_new (int, MAX (skin->n_bones, 1));
  skin->next_sibling = g_new (int, MAX (skin->n_bones, 1));
  skin->profile = g_new0 (float *, MAX (skin->n_bones, 1));
  skin->segment_of = g_new (int, MAX (skin->n_bones, 1));
  skin->poses = g_new0 (BonePose, MAX (skin->n_bones, 1));
  skin->dirs = g_new (float, 3 * sides);

  for (guint b = 0; b < skin->n_bones; b++)
    {
      skin->segment_of[b] = -1;
      for (guint v = 0; v < skin->verts_per_bone; v++)
        skin->vertex_bones[b * skin->verts_per_bone + v] = (guint16) b;
    }
  build_children (skin);
  build_spine_children (skin);
  build_tables (skin);
  build_profiles (skin);
  build_indices (skin);
  return skin;
}

void
odori_skin_free (OdoriSkin *skin)
{
  if (skin == NULL)
    return;
  odori_skeleton_unref (skin->skeleton);
  g_clear_pointer (&skin->bulges, odori_bulge_set_unref);
  g_clear_pointer (&skin->motion, odori_motion_unref);
  g_free (skin->indices);
  g_free (skin->vertex_bones);
  g_free (skin->ring_u);
  g_free (skin->side_cos);
  g_free (skin->side_sin);
  g_free (skin->cap_cos);
  g_free (skin->cap_sin);
  g_free (skin->first_child);
  g_free (skin->spine_child);
  g_free (skin->next_sibling);
  g_free (skin->profile);
  g_free (skin->profiles);
  g_free (skin->segment_of);
  g_free (skin->poses);
  g_free (skin->dirs);
  g_free (skin);
}

guint
odori_skin_get_n_vertices (OdoriSkin *skin)
{
  g_return_val_if_fail (skin != NULL, 0);
  return skin->n_vertices;
}

/**
 * odori_skin_get_indices:
 * @skin: a skin
 * @n_indices: (out): the number of indices (3 per triangle)
 *
 * Returns: (transfer none): the triangles, counter-clockwise seen from outside
 */
const guint32 *
odori_skin_get_indices (OdoriSkin *skin,
                        guint     *n_indices)
{
  g_return_val_if_fail (skin != NULL, NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);
  *n_indices = skin->n_indices;
  return skin->indices;
}

/**
 * odori_skin_get_vertex_bones:
 * @skin: a skin
 *
 * Returns: (transfer none): for each vertex, the index of its bone in the skeleton
 */
const guint16 *
odori_skin_get_vertex_bones (OdoriSkin *skin)
{
  g_return_val_if_fail (skin != NULL, NULL);
  return skin->vertex_bones;
}

/* Posing */

/* Matches bones to the motion's segments by name; redone only for a new motion or a
 * renamed segment. The skin keeps a reference to the motion so its address stays its. */
static void
match_segments (OdoriSkin         *skin,
                const OdoriMotion *motion)
{
  gboolean same = skin->motion == motion;

  if (!same)
    {
      g_clear_pointer (&skin->motion, odori_motion_unref);
      skin->motion = odori_motion_ref ((OdoriMotion *) motion);
    }
  for (guint b = 0; b < skin->n_bones; b++)
    {
      int s = skin->segment_of[b];
      const char *name = skin->skeleton->bones[b].name;

      if (same && (s < 0 || ((guint) s < motion->n_segments &&
                             g_strcmp0 (motion->segments[s].name, name) == 0)))
        continue;
      skin->segment_of[b] = name != NULL ? odori_motion_find_segment (motion, name) : -1;
    }
}

static void
rotation_of (const OdoriTransform *xf,
             versor                q)
{
  glm_vec4_copy ((float *) xf->rotation, q);
}

/* The front: the segment's +Z (else +Y) without its component along DIR. */
static void
bone_frame (BonePose    *pose,
            versor       q)
{
  static const vec3 axes[2] = { { 0, 0, 1 }, { 0, 1, 0 } };

  for (guint a = 0; a < 2; a++)
    {
      vec3 axis, along, f;
      float len;

      glm_quat_rotatev (q, (float *) axes[a], axis);
      glm_vec3_scale (pose->dir, glm_vec3_dot (axis, pose->dir), along);
      glm_vec3_sub (axis, along, f);
      len = glm_vec3_norm (f);
      if (len > 0.1f || a == 1)
        {
          if (len > TINY)
            glm_vec3_scale (f, 1.f / len, pose->front);
          else
            glm_vec3_copy ((vec3) { 1, 0, 0 }, pose->front);
          break;
        }
    }
  glm_vec3_cross (pose->dir, pose->front, pose->right);
}

static void
pose_missing_bone (OdoriSkin *skin,
                   guint      b)
{
  BonePose *pose = &skin->poses[b];
  int parent = skin->skeleton->bones[b].parent;

  memset (pose, 0, sizeof *pose);
  /* At the parent's end (a missing parent is a point too), else at the origin. */
  if (bone_has_valid_parent (skin, b))
    {
      glm_vec3_copy (skin->poses[parent].start, pose->start);
      glm_vec3_muladds (skin->poses[parent].dir, skin->poses[parent].length, pose->start);
    }
  glm_vec3_copy ((vec3) { 0, 1, 0 }, pose->dir);
  glm_vec3_copy ((vec3) { 0, 0, 1 }, pose->front);
  glm_vec3_cross (pose->dir, pose->front, pose->right);
}

/* Start, direction, length and frame of bone B on FRAME (parents are done first). */
static void
pose_bone (OdoriSkin         *skin,
           const OdoriMotion *motion,
           guint              frame,
           guint              b)
{
  const OdoriBone *bone = &skin->skeleton->bones[b];
  BonePose *pose = &skin->poses[b];
  OdoriTransform        xf_world;
  const OdoriTransform *xf;
  versor q;
  vec3 end = { 0, 0, 0 };
  guint n_children = 0;
  float length = 0;

  if (skin->segment_of[b] < 0)
    {
      pose_missing_bone (skin, b);
      return;
    }
  xf = odori_motion_world (motion, frame, skin->segment_of[b], &xf_world);
  rotation_of (xf, q);
  glm_vec3_copy ((float *) xf->position, pose->start);
  pose->valid = TRUE;
  pose->radius = bone->radius;
  pose->activation = 0;

  if (bone->parent >= 0 && odori_skeleton_is_head_name (bone->name))
    n_children = 0;  /* a head points along the neck, not at its eyes */
  else if (skin->spine_child[b] >= 0 && skin->segment_of[skin->spine_child[b]] >= 0)
    {
      odori_motion_get_world_position (motion, frame, skin->segment_of[skin->spine_child[b]], end);
      n_children = 1;
    }
  else
    for (int c = skin->first_child[b]; c >= 0; c = skin->next_sibling[c])
      if (skin->segment_of[c] >= 0)
        {
          vec3 p;

          odori_motion_get_world_position (motion, frame, skin->segment_of[c], p);
          glm_vec3_add (end, p, end);
          n_children++;
        }
  if (n_children > 0)
    {
      glm_vec3_scale (end, 1.f / n_children, end);
      glm_vec3_sub (end, pose->start, pose->dir);
      length = glm_vec3_norm (pose->dir);
    }

  if (n_children > 0 && length > TINY)
    glm_vec3_scale (pose->dir, 1.f / length, pose->dir);
  else
    {
      int parent = bone->parent;

      const OdoriSegment *seg = &motion->segments[skin->segment_of[b]];

      if (n_children == 0)
        length = bone->length;
      gboolean head = parent >= 0 && odori_skeleton_is_head_name (bone->name);

      if (head && bone_has_valid_parent (skin, b) && skin->poses[parent].valid)
        {
          /* A head continues the neck, turned by how far it has turned against the neck
           * since the first frame: captures whose head joint's own axes are not along
           * the neck (Rokoko's point sideways) still draw it upright. */
          versor qp, q0, qp0, rel, rel0;

          rotation_of (odori_motion_get (motion, frame, skin->segment_of[parent]), qp);
          rotation_of (odori_motion_get (motion, 0, skin->segment_of[b]), q0);
          rotation_of (odori_motion_get (motion, 0, skin->segment_of[parent]), qp0);
          glm_quat_conjugate (qp, qp);
          glm_quat_mul (q, qp, rel);
          glm_quat_conjugate (qp0, qp0);
          glm_quat_mul (q0, qp0, rel0);
          glm_quat_conjugate (rel0, rel0);
          glm_quat_mul (rel, rel0, rel);
          glm_quat_rotatev (rel, skin->poses[parent].dir, pose->dir);
        }
      else if (n_children == 0 && seg->has_end_site && glm_vec3_norm ((float *) seg->end_site) > TINY)
        {
          /* A BVH leaf points where its End Site does. */
          glm_quat_rotatev (q, (float *) seg->end_site, pose->dir);
        }
      else if (bone_has_valid_parent (skin, b) && skin->poses[parent].valid)
        {
          /* The parent's direction, carried by the joint's rotation. */
          versor qp, rel;

          rotation_of (odori_motion_get (motion, frame, skin->segment_of[parent]), qp);
          glm_quat_conjugate (qp, qp);
          glm_quat_mul (q, qp, rel);
          glm_quat_rotatev (rel, skin->poses[parent].dir, pose->dir);
        }
      else
        glm_quat_rotatev (q, (vec3) { 0, 1, 0 }, pose->dir);
      glm_vec3_normalize (pose->dir);
      if (glm_vec3_norm2 (pose->dir) < 0.5f)
        glm_vec3_copy ((vec3) { 0, 1, 0 }, pose->dir);
    }
  pose->length = length;
  bone_frame (pose, q);
}

/* The bend at the lower joint of every bulging bone, as an activation 0..1. */
static void
pose_activations (OdoriSkin *skin)
{
  for (guint b = 0; b < skin->n_bones; b++)
    {
      BonePose *pose = &skin->poses[b];
      vec3 child_dir = { 0, 0, 0 };
      float len, cosine, bend;

      if (skin->profile[b] == NULL || !pose->valid)
        continue;
      for (int c = skin->first_child[b]; c >= 0; c = skin->next_sibling[c])
        if (skin->poses[c].valid)
          glm_vec3_add (child_dir, skin->poses[c].dir, child_dir);
      len = glm_vec3_norm (child_dir);
      if (len <= TINY)
        continue;
      cosine = glm_vec3_dot (pose->dir, child_dir) / len;
      bend = glm_deg (acosf (CLAMP (cosine, -1.f, 1.f)));
      pose->activation = CLAMP (bend / MAX_BEND_DEG, 0.f, 1.f);
    }
}

/* Tube vertex positions of bone B (rings × sides from BASE). */
static void
emit_tube (OdoriSkin      *skin,
           guint           b,
           guint           base,
           float           a,
           float          *positions)
{
  const BonePose *pose = &skin->poses[b];
  const float *profile = a > 0 ? skin->profile[b] : NULL;
  float *dirs = skin->dirs;

  for (guint k = 0; k < skin->sides; k++)
    for (guint c = 0; c < 3; c++)
      dirs[3 * k + c] = skin->side_cos[k] * pose->front[c] + skin->side_sin[k] * pose->right[c];

  for (guint i = 0; i < skin->rings; i++)
    {
      float *out = positions + 3 * (gsize) (base + i * skin->sides);
      float u = skin->ring_u[i];

      for (guint k = 0; k < skin->sides; k++, out += 3)
        {
          float s = u, rho = pose->radius;

          if (profile != NULL)
            {
              const float *pr = profile + 2 * (i * skin->sides + k);

              s = u + a * pr[0];
              rho = pose->radius * (1.f + a * pr[1]);
            }
          s *= pose->length;
          for (guint c = 0; c < 3; c++)
            out[c] = pose->start[c] + s * pose->dir[c] + rho * dirs[3 * k + c];
        }
    }
}

/* Tube normals. A round tube's are the radial directions; a bulging one's come from the
 * posed neighbours: (around) × (along) points outward. */
static void
emit_tube_normals (OdoriSkin   *skin,
                   guint        base,
                   gboolean     round,
                   const float *positions,
                   float       *normals)
{
  guint n = skin->sides;

  for (guint i = 0; i < skin->rings; i++)
    {
      guint i0 = i > 0 ? i - 1 : 0, i1 = i + 1 < skin->rings ? i + 1 : i;
      const float *ring = positions + 3 * (gsize) (base + i * n);
      const float *up = positions + 3 * (gsize) (base + i0 * n);
      const float *down = positions + 3 * (gsize) (base + i1 * n);
      float *out = normals + 3 * (gsize) (base + i * n);

      if (round)
        {
          memcpy (out, skin->dirs, 3 * n * sizeof (float));
          continue;
        }
      for (guint k = 0; k < n; k++)
        {
          guint kp = k > 0 ? k - 1 : n - 1, kn = k + 1 < n ? k + 1 : 0;
          float ax = ring[3 * kn] - ring[3 * kp];
          float ay = ring[3 * kn + 1] - ring[3 * kp + 1];
          float az = ring[3 * kn + 2] - ring[3 * kp + 2];
          float bx = down[3 * k] - up[3 * k];
          float by = down[3 * k + 1] - up[3 * k + 1];
          float bz = down[3 * k + 2] - up[3 * k + 2];
          float x = ay * bz - az * by, y = az * bx - ax * bz, z = ax * by - ay * bx;
          float len2 = x * x + y * y + z * z;

          if (len2 > TINY * TINY && len2 < G_MAXFLOAT)
            {
              float inv = 1.f / sqrtf (len2);

              out[3 * k] = x * inv;
              out[3 * k + 1] = y * inv;
              out[3 * k + 2] = z * inv;
            }
          else
            memcpy (out + 3 * k, skin->dirs + 3 * k, 3 * sizeof (float));
        }
    }
}

/* A hemisphere on the tube's end ring: each side keeps its ring vertex's radius. */
static void
emit_cap (OdoriSkin *skin,
          guint      b,
          guint      base,
          gboolean   bottom,
          float     *positions,
          float     *normals)
{
  const BonePose *pose = &skin->poses[b];
  const float *profile = pose->activation > 0 ? skin->profile[b] : NULL;
  guint ring = bottom ? skin->rings - 1 : 0;
  float sign = bottom ? 1.f : -1.f;
  float rho_sum = 0, s_sum = 0;
  float *pole_p, *pole_n;

  for (guint k = 0; k < skin->sides; k++)
    {
      const float *dir_k = skin->dirs + 3 * k;
      const float *edge = positions + 3 * (gsize) tube_vertex (skin, base, ring, k);
      float rho = pose->radius, s = skin->ring_u[ring];

      if (profile != NULL)
        {
          const float *pr = profile + 2 * (ring * skin->sides + k);

          s += pose->activation * pr[0];
          rho *= 1.f + pose->activation * pr[1];
        }
      rho_sum += rho;
      s_sum += s;
      for (guint j = 0; j < skin->cap_rings; j++)
        {
          guint v = cap_vertex (skin, base, bottom, j + 1, k);
          float *p = positions + 3 * (gsize) v, *nrm = normals + 3 * (gsize) v;
          float inward = rho * (1.f - skin->cap_cos[j]), axial = sign * rho * skin->cap_sin[j];

          for (guint c = 0; c < 3; c++)
            {
              p[c] = edge[c] - inward * dir_k[c] + axial * pose->dir[c];
              nrm[c] = skin->cap_cos[j] * dir_k[c] + sign * skin->cap_sin[j] * pose->dir[c];
            }
        }
    }

  pole_p = positions + 3 * (gsize) cap_vertex (skin, base, bottom, skin->cap_rings + 1, 0);
  pole_n = normals + 3 * (gsize) cap_vertex (skin, base, bottom, skin->cap_rings + 1, 0);
  {
    float along = pose->length * s_sum / skin->sides + sign * rho_sum / skin->sides;

    for (guint c = 0; c < 3; c++)
      {
        pole_p[c] = pose->start[c] + along * pose->dir[c];
        pole_n[c] = sign * pose->dir[c];
      }
  }
}

/**
 * odori_skin_pose:
 * @skin: a skin
 * @motion: a motion whose segments carry the skeleton's bone names
 * @frame: 0-based frame, below the motion's frame count
 * @use_bulges: %FALSE keeps every tube round
 * @positions: (out caller-allocates): 3 floats per vertex
 * @normals: (out caller-allocates): 3 floats per vertex, unit length
 *
 * Poses the skin. Allocates nothing (the first call with a new motion matches names);
 * the same inputs give bit-identical outputs. Not thread-safe for one skin.
 */
void
odori_skin_pose (OdoriSkin         *skin,
                 const OdoriMotion *motion,
                 guint              frame,
                 gboolean           use_bulges,
                 float             *positions,
                 float             *normals)
{
  g_return_if_fail (skin != NULL);
  g_return_if_fail (motion != NULL);
  g_return_if_fail (frame < motion->n_frames);
  g_return_if_fail (positions != NULL || skin->n_vertices == 0);
  g_return_if_fail (normals != NULL || skin->n_vertices == 0);

  match_segments (skin, motion);
  for (guint b = 0; b < skin->n_bones; b++)
    pose_bone (skin, motion, frame, b);
  if (use_bulges)
    pose_activations (skin);

  for (guint b = 0; b < skin->n_bones; b++)
    {
      guint base = b * skin->verts_per_bone;

      float a = skin->poses[b].activation;

      emit_tube (skin, b, base, a, positions);
      emit_tube_normals (skin, base, !(a > 0 && skin->profile[b] != NULL), positions, normals);
      emit_cap (skin, b, base, FALSE, positions, normals);
      emit_cap (skin, b, base, TRUE, positions, normals);
    }
}
