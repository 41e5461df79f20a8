/* odori-renderer-mesh.c: the figure's geometry: extent, bones, joints, shadows, posed skin
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements (docs/rendering.md says the same for users):
 * - The extent that framing fits is the bounding box of every frame (joint positions,
 *   grown by the largest skin radius and the head).
 * - The floor is at Y = 0 unless the motion goes below it; then at its lowest joint.
 * - Contact shadows: each bone near the floor darkens the floor around its projection,
 *   more and more tightly the closer it is (a capsule per bone, the 32 lowest).
 * - Without the skin, bones are thin dark octahedra from each joint to each child joint
 *   and along leaf bones as the skin places them (odori-skin.c: the parent's direction
 *   carried by the joint's rotation), with a small sphere at every joint.
 */
#include "config.h"

#include <math.h>

#include "odori-renderer-private.h"

#define MAX_SHADOWS 32
#define SKIN_RINGS  14
#define SKIN_SIDES  20

/* A unit UV sphere as plain triangles (position == normal). */
void
_odori_renderer_build_sphere (OdoriRenderer *self)
{
  const int slices = 12, stacks = 8;
  GArray   *v = g_array_new (FALSE, FALSE, sizeof (float));

  for (int i = 0; i < stacks; i++)
    for (int j = 0; j < slices; j++)
      {
        float p[4][3];

        for (int k = 0; k < 4; k++)
          {
            float th = (float) G_PI * (i + (k >> 1)) / stacks;
            float ph = 2.0f * (float) G_PI * (j + (k & 1)) / slices;

            p[k][0] = sinf (th) * cosf (ph);
            p[k][1] = cosf (th);
            p[k][2] = -sinf (th) * sinf (ph);
          }
        /* p0 p1 on the upper ring, p2 p3 below: two counter-clockwise triangles seen
         * from outside (the poles' degenerate ones are harmless) */
        g_array_append_vals (v, p[0], 3);
        g_array_append_vals (v, p[2], 3);
        g_array_append_vals (v, p[1], 3);
        g_array_append_vals (v, p[1], 3);
        g_array_append_vals (v, p[2], 3);
        g_array_append_vals (v, p[3], 3);
      }
  self->sphere_n_vertices = v->len / 3;
  self->sphere = (float *) g_array_free (v, FALSE);
}

/* Extent */

void
_odori_renderer_compute_bounds (OdoriRenderer *self)
{
  const OdoriMotion   *motion = self->motion;
  const OdoriSkeleton *sk = self->skeleton;
  float                lo[3] = { G_MAXFLOAT, G_MAXFLOAT, G_MAXFLOAT };
  float                hi[3] = { -G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  float                pad = 0.f;
  gboolean             any = FALSE;

  self->bounds_valid = FALSE;
  for (guint f = 0; f < motion->n_frames; f++)
    for (guint b = 0; b < sk->n_bones; b++)
      {
        float p[3];

        if (self->bone_segment[b] < 0)
          continue;
        odori_motion_get_world_position (motion, f, self->bone_segment[b], p);
        if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
          continue;
        for (int i = 0; i < 3; i++)
          {
            lo[i] = MIN (lo[i], p[i]);
            hi[i] = MAX (hi[i], p[i]);
          }
        any = TRUE;
      }
  if (!any)
    return;

  /* Skin reaches a radius beyond the joints, and the head its length beyond the neck's
   * end. Other leaves (hands, feet, a BVH's End Sites, which a BVA of the same capture
   * lacks) are left to the framing margin, so that both frame the figure alike. */
  for (guint b = 0; b < sk->n_bones; b++)
    if (self->bone_segment[b] >= 0)
      {
        pad = MAX (pad, sk->bones[b].radius);
        if (self->is_leaf[b] && sk->bones[b].parent >= 0 &&
            odori_skeleton_is_head_name (sk->bones[b].name))
          pad = MAX (pad, sk->bones[b].length + sk->bones[b].radius);
      }

  /* the floor: Y = 0 unless the motion goes below it */
  self->floor_y = MIN (0.f, lo[1]);
  for (int i = 0; i < 3; i++)
    {
      self->bounds_min[i] = lo[i] - pad;
      self->bounds_max[i] = hi[i] + pad;
    }
  self->bounds_min[1] = MAX (self->bounds_min[1], self->floor_y);
  self->figure_height = MAX (self->bounds_max[1] - self->floor_y, 1e-3f);
  self->bounds_valid = TRUE;
}

void
_odori_renderer_find_leaves (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;

  for (guint b = 0; b < sk->n_bones; b++)
    self->is_leaf[b] = TRUE;
  for (guint b = 0; b < sk->n_bones; b++)
    if (sk->bones[b].parent >= 0 && self->bone_segment[b] >= 0)
      self->is_leaf[sk->bones[b].parent] = FALSE;
  self->tips_frame = G_MAXUINT;
}

/* Per-frame geometry */

static guint
current_frame (OdoriRenderer *self)
{
  return MIN (self->frame, self->motion->n_frames - 1);
}

/* The joint of bone B, and the far end of the bone when it is a leaf. */
static const float *
joint (OdoriRenderer *self,
       guint          b,
       float          buf[3])
{
  odori_motion_get_world_position (self->motion, current_frame (self), self->bone_segment[b], buf);
  return buf;
}

/* Bone directions as the skin has them (odori-skin.c): towards the average of the
 * children's joints; a leaf carries its parent's direction by the joint's rotation,
 * R_leaf · R_parent⁻¹ · d_parent, a root without children points along its +Y. */
void
_odori_renderer_compute_tips (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;
  guint                frame = current_frame (self);

  if (self->tips_frame == frame && !self->pose_dirty)
    return;
  for (guint b = 0; b < sk->n_bones; b++)
    {
      float                *d = &self->dirs[b * 3];
      int                   parent = sk->bones[b].parent;
      OdoriTransform        t_world;
      const OdoriTransform *t;
      vec3                  end = { 0, 0, 0 };
      guint                 n = 0;

      glm_vec3_copy ((vec3){ 0, 1, 0 }, d);
      if (self->bone_segment[b] < 0)
        continue;
      t = odori_motion_world (self->motion, frame, self->bone_segment[b], &t_world);
      for (guint c = b + 1; c < sk->n_bones; c++)
        if (sk->bones[c].parent == (int) b && self->bone_segment[c] >= 0)
          {
            glm_vec3_add (end, (float *) joint (self, c, (float[3]){ 0 }), end);
            n++;
          }
      if (n > 0)
        {
          glm_vec3_scale (end, 1.f / n, end);
          glm_vec3_sub (end, (float *) t->position, end);
          if (glm_vec3_norm (end) > 1e-6f)
            glm_vec3_normalize_to (end, d);
        }
      else if (parent >= 0 && self->bone_segment[parent] >= 0)
        {
          versor qp, rel;

          glm_quat_conjugate ((float *) odori_motion_get (self->motion, frame,
                                                          self->bone_segment[parent])
                                  ->rotation,
                              qp);
          glm_quat_mul ((float *) t->rotation, qp, rel);
          glm_quat_rotatev (rel, &self->dirs[parent * 3], d);
        }
      else
        glm_quat_rotatev ((float *) t->rotation, (vec3){ 0, 1, 0 }, d);
      if (glm_vec3_norm2 (d) < 0.5f)
        glm_vec3_copy ((vec3){ 0, 1, 0 }, d);
      glm_vec3_normalize (d);
      glm_vec3_copy ((float *) t->position, &self->tips[b * 3]);
      glm_vec3_muladds (d, sk->bones[b].length, &self->tips[b * 3]);
    }
  self->tips_frame = frame;
}

/* Bones and joints */

static void
push_vertex (OdoriRenderer *self,
             const vec3     p,
             const vec3     n,
             guint16        bone)
{
  g_array_append_vals (self->bone_positions, p, 3);
  g_array_append_vals (self->bone_normals, n, 3);
  g_array_append_val (self->bone_ids, bone);
}

static void
push_triangle (OdoriRenderer *self,
               vec3           a,
               vec3           b,
               vec3           c,
               guint16        bone)
{
  vec3 e1, e2, n;

  glm_vec3_sub (b, a, e1);
  glm_vec3_sub (c, a, e2);
  glm_vec3_crossn (e1, e2, n);
  push_vertex (self, a, n, bone);
  push_vertex (self, b, n, bone);
  push_vertex (self, c, n, bone);
}

/* A thin octahedron from A to B, widest a fifth of the way along. */
static void
push_bone (OdoriRenderer *self,
           const float   *a,
           const float   *b,
           float          width,
           guint16        bone)
{
  vec3  axis, u, v, ring[4], mid, head, tail;
  float len;

  glm_vec3_copy ((float *) a, head);
  glm_vec3_copy ((float *) b, tail);
  glm_vec3_sub (tail, head, axis);
  len = glm_vec3_norm (axis);
  if (len < 1e-6f)
    return;
  glm_vec3_scale (axis, 1.f / len, axis);
  glm_vec3_ortho (axis, u);
  glm_vec3_normalize (u);
  glm_vec3_cross (axis, u, v);
  glm_vec3_copy (head, mid);
  glm_vec3_muladds (axis, len * 0.2f, mid);
  width = MIN (width, len * 0.12f);
  for (int i = 0; i < 4; i++)
    {
      float s = (i == 1) ? 1.f : (i == 3) ? -1.f
                                          : 0.f;
      float c = (i == 0) ? 1.f : (i == 2) ? -1.f
                                          : 0.f;

      glm_vec3_copy (mid, ring[i]);
      glm_vec3_muladds (u, c * width, ring[i]);
      glm_vec3_muladds (v, s * width, ring[i]);
    }
  for (int i = 0; i < 4; i++)
    {
      int j = (i + 1) % 4;

      push_triangle (self, head, ring[j], ring[i], bone);
      push_triangle (self, tail, ring[i], ring[j], bone);
    }
}

static void
push_sphere (OdoriRenderer *self,
             const float   *center,
             float          radius,
             guint16        bone)
{
  for (guint i = 0; i < self->sphere_n_vertices; i++)
    {
      const float *n = &self->sphere[i * 3];
      vec3         p = { center[0] + n[0] * radius, center[1] + n[1] * radius, center[2] + n[2] * radius };

      push_vertex (self, p, n, bone);
    }
}

void
_odori_renderer_build_bones (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;
  float                width = self->figure_height * 0.012f;

  g_array_set_size (self->bone_positions, 0);
  g_array_set_size (self->bone_normals, 0);
  g_array_set_size (self->bone_ids, 0);
  for (guint b = 0; b < sk->n_bones; b++)
    {
      int parent = sk->bones[b].parent;

      if (self->bone_segment[b] < 0)
        continue;
      push_sphere (self, joint (self, b, (float[3]){ 0 }), width * 1.6f, b);
      if (parent >= 0 && self->bone_segment[parent] >= 0)
        push_bone (self, joint (self, parent, (float[3]){ 0 }), joint (self, b, (float[3]){ 0 }), width, parent);
      if (self->is_leaf[b] && sk->bones[b].length > 0.f)
        push_bone (self, joint (self, b, (float[3]){ 0 }), &self->tips[b * 3], width, b);
    }
  /* a marker set: sticks between the markers that stay a constant distance apart */
  for (guint i = 0; i < sk->n_sticks; i++)
    {
      const OdoriStick *st = &sk->sticks[i];

      /* a bone tapers to a point at its tail: both ways, a stick is thick at both ends */
      if (self->bone_segment[st->a] >= 0 && self->bone_segment[st->b] >= 0)
        {
          push_bone (self, joint (self, st->a, (float[3]){ 0 }), joint (self, st->b, (float[3]){ 0 }), width, st->a);
          push_bone (self, joint (self, st->b, (float[3]){ 0 }), joint (self, st->a, (float[3]){ 0 }), width, st->b);
        }
    }
}

/* Contact shadows */

static int
shadow_cmp (gconstpointer a,
            gconstpointer b)
{
  float sa = ((const OdoriShadow *) a)->param[1], sb = ((const OdoriShadow *) b)->param[1];

  return (sa < sb) - (sa > sb);
}

static void
add_shadow (GArray      *shadows,
            float        floor_y,
            float        height,
            const float *a,
            const float *b,
            float        radius)
{
  float       h = MAX (MIN (a[1], b[1]) - floor_y, 0.f);
  float       reach = 0.35f * height;
  OdoriShadow s = { { a[0], a[2], b[0], b[2] }, { 0.f, 0.f } };
  float       k;

  if (h >= reach)
    return;
  k = 1.f - h / reach;
  s.param[0] = radius * 1.3f + h * 0.6f + 0.02f * height;
  s.param[1] = 0.42f * k * k;
  g_array_append_val (shadows, s);
}

GArray *
_odori_renderer_build_shadows (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;
  GArray              *shadows = g_array_new (FALSE, FALSE, sizeof (OdoriShadow));

  for (guint b = 0; b < sk->n_bones; b++)
    {
      int   parent = sk->bones[b].parent;
      float r = sk->bones[b].radius;

      if (self->bone_segment[b] < 0)
        continue;
      if (parent >= 0 && self->bone_segment[parent] >= 0)
        add_shadow (shadows, self->floor_y, self->figure_height, joint (self, parent, (float[3]){ 0 }),
                    joint (self, b, (float[3]){ 0 }), sk->bones[parent].radius);
      if (self->is_leaf[b])
        add_shadow (shadows, self->floor_y, self->figure_height, joint (self, b, (float[3]){ 0 }),
                    &self->tips[b * 3], r);
    }
  g_array_sort (shadows, shadow_cmp);
  if (shadows->len > MAX_SHADOWS)
    g_array_set_size (shadows, MAX_SHADOWS);
  return shadows;
}

/* Skin */

void
_odori_renderer_rebuild_skin (OdoriRenderer *self)
{
  const guint32 *indices;
  guint          n_indices;

  g_clear_pointer (&self->skin, odori_skin_free);
  g_clear_pointer (&self->skin_positions, g_free);
  g_clear_pointer (&self->skin_normals, g_free);
  self->skin = odori_skin_new (self->skeleton, self->bulges, SKIN_RINGS, SKIN_SIDES);
  self->skin_n_vertices = odori_skin_get_n_vertices (self->skin);
  indices = odori_skin_get_indices (self->skin, &n_indices);
  self->skin_n_indices = n_indices;
  self->skin_positions = g_new0 (float, (gsize) MAX (self->skin_n_vertices, 1) * 3);
  self->skin_normals = g_new0 (float, (gsize) MAX (self->skin_n_vertices, 1) * 3);
  _odori_gl_upload (GL_ARRAY_BUFFER, self->gl.skin_mesh.bones,
                    self->skin_n_vertices * sizeof (guint16),
                    odori_skin_get_vertex_bones (self->skin));
  glBindVertexArray (self->gl.skin_mesh.vao);
  _odori_gl_upload (GL_ELEMENT_ARRAY_BUFFER, self->gl.skin_mesh.indices,
                    (gsize) n_indices * sizeof (guint32), indices);
  glBindVertexArray (0);
  self->skin_dirty = FALSE;
  self->pose_dirty = TRUE;
}

void
_odori_renderer_pose_skin (OdoriRenderer *self)
{
  gsize size = (gsize) self->skin_n_vertices * 3 * sizeof (float);

  odori_skin_pose (self->skin, self->motion, current_frame (self),
                   self->show_bulges && self->bulges != NULL,
                   self->skin_positions, self->skin_normals);
  _odori_gl_upload (GL_ARRAY_BUFFER, self->gl.skin_mesh.positions, size, self->skin_positions);
  _odori_gl_upload (GL_ARRAY_BUFFER, self->gl.skin_mesh.normals, size, self->skin_normals);
}
