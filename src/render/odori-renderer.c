/* odori-renderer.c: draws a posed skeleton with its skin, a floor grid and axes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The public OdoriRenderer and its draw pass. The camera is odori-camera.c, the GL
 * objects odori-gl.c, the figure's geometry odori-renderer-mesh.c.
 *
 * Decisions (Odori) this file implements (docs/rendering.md says the same for users):
 * - The floor's grid spacing is the "nice" number (1, 2 or 5 times a power of ten)
 *   nearest an eighth of the figure's height, with a major line every 5; it fades out
 *   with distance.
 * - The world's X and Z axes are drawn on the floor through the origin, X red, Z blue.
 * - Highlights: a bone's colour replaces the base colour by the highlight's alpha.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-library-import.h"
#include "odori-renderer.h"
#include "odori-renderer-private.h"

G_DEFINE_QUARK (odori - render - error - quark, odori_render_error)

#define BONE_COLOR_ROW 256
#define DRAW_CHUNK     (3 * 1024)

/* sRGB colours */
static const float background_top[3] = { 0.93f, 0.93f, 0.94f };
static const float background_bottom[3] = { 0.78f, 0.79f, 0.81f };
static const float floor_color[3] = { 0.86f, 0.86f, 0.87f };
static const float floor_line_color[3] = { 0.38f, 0.40f, 0.44f };
static const float skin_color[3] = { 0.88f, 0.73f, 0.62f };
static const float bone_color[3] = { 0.27f, 0.30f, 0.36f };
/* linear light */
static const float sky_light[3] = { 0.36f, 0.38f, 0.42f };
static const float ground_light[3] = { 0.14f, 0.12f, 0.11f };

typedef struct
{
  char *segment;
  float color[4];
} Highlight;

static void
highlight_free (gpointer data)
{
  Highlight *h = data;

  g_free (h->segment);
  g_free (h);
}

OdoriRenderer *
odori_renderer_new_with_sources (const char *mesh_vertex,
                                 const char *mesh_fragment,
                                 GError    **error)
{
  OdoriRenderer *self;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (OdoriRenderer, 1);
  self->show_skin = TRUE;
  self->show_bulges = TRUE;
  self->highlights = g_ptr_array_new_with_free_func (highlight_free);
  self->colors_dirty = TRUE;
  self->bone_positions = g_array_new (FALSE, FALSE, sizeof (float));
  self->bone_normals = g_array_new (FALSE, FALSE, sizeof (float));
  self->bone_ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  self->figure_height = 1.0f;
  odori_camera_init (&self->camera);
  _odori_renderer_build_sphere (self);

  if (!_odori_gl_init (&self->gl, mesh_vertex, mesh_fragment, error))
    {
      odori_renderer_free (self);
      return NULL;
    }
  return self;
}

OdoriRenderer *
odori_renderer_new (GError **error)
{
  return odori_renderer_new_with_sources (NULL, NULL, error);
}

static void
clear_scene (OdoriRenderer *self)
{
  g_clear_pointer (&self->skin, odori_skin_free);
  g_clear_pointer (&self->motion, odori_motion_unref);
  g_clear_pointer (&self->source, odori_motion_unref);
  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  g_clear_pointer (&self->bone_segment, g_free);
  g_clear_pointer (&self->is_leaf, g_free);
  g_clear_pointer (&self->dirs, g_free);
  g_clear_pointer (&self->tips, g_free);
  g_clear_pointer (&self->skin_positions, g_free);
  g_clear_pointer (&self->skin_normals, g_free);
  self->skin_n_vertices = self->skin_n_indices = 0;
  self->bounds_valid = FALSE;
}

/* The GL objects need the renderer's context current; without it (a GtkGLArea already
 * unrealized) only the memory is freed. */
void
odori_renderer_free (OdoriRenderer *self)
{
  if (self == NULL)
    return;

  if (glGetString (GL_VERSION) != NULL)
    _odori_gl_clear (&self->gl);
  clear_scene (self);
  clear_scene (self);
  g_clear_pointer (&self->bulges, odori_bulge_set_unref);
  g_ptr_array_unref (self->highlights);
  g_array_unref (self->bone_positions);
  g_array_unref (self->bone_normals);
  g_array_unref (self->bone_ids);
  g_free (self->sphere);
  g_free (self);
}

void
odori_renderer_set_motion (OdoriRenderer *self,
                           OdoriMotion   *motion,
                           OdoriSkeleton *skeleton)
{
  gboolean same;

  g_return_if_fail (self != NULL);

  same = motion != NULL && motion == self->source &&
         (skeleton == NULL || skeleton == self->skeleton);
  if (same)
    {
      /* the same motion, changed in place (a recomposed score): new extent and pose */
      if (self->motion != self->source)
        {
          g_clear_pointer (&self->motion, odori_motion_unref);
          self->motion = odori_motion_copy (motion);
          odori_motion_orient_up (self->motion, self->up);
        }
      _odori_renderer_find_leaves (self);
      _odori_renderer_compute_bounds (self);
      self->pose_dirty = TRUE;
      return;
    }

  clear_scene (self);
  self->skin_dirty = TRUE;
  self->pose_dirty = TRUE;
  self->colors_dirty = TRUE;
  if (motion == NULL)
    return;

  /* BVH has no up axis: a Z-up capture is drawn upright, as its head and feet say. */
  self->source = odori_motion_ref (motion);
  self->up = self->forced_up != ODORI_UP_AUTO ? self->forced_up : odori_motion_guess_up (motion);
  if (self->up != ODORI_UP_AUTO && self->up != ODORI_UP_Y)
    {
      self->motion = odori_motion_copy (motion);
      odori_motion_orient_up (self->motion, self->up);
    }
  else
    self->motion = odori_motion_ref (motion);
  self->skeleton = skeleton != NULL ? odori_skeleton_ref (skeleton)
                                    : odori_skeleton_for_motion (motion);
  if (self->skeleton == NULL)
    {
      g_clear_pointer (&self->motion, odori_motion_unref);
      g_clear_pointer (&self->source, odori_motion_unref);
      return;
    }
  self->bone_segment = g_new (int, MAX (self->skeleton->n_bones, 1));
  self->is_leaf = g_new (gboolean, MAX (self->skeleton->n_bones, 1));
  self->dirs = g_new0 (float, MAX (self->skeleton->n_bones, 1) * 3);
  self->tips = g_new0 (float, MAX (self->skeleton->n_bones, 1) * 3);
  for (guint b = 0; b < self->skeleton->n_bones; b++)
    self->bone_segment[b] = odori_motion_find_segment (motion, self->skeleton->bones[b].name);
  _odori_renderer_find_leaves (self);
  _odori_renderer_compute_bounds (self);
  self->camera.fit_pending = TRUE;
}

void
odori_renderer_set_up_axis (OdoriRenderer *self,
                            OdoriUpAxis    up)
{
  g_return_if_fail (self != NULL);
  self->forced_up = up;
}

void
odori_renderer_set_bulges (OdoriRenderer *self,
                           OdoriBulgeSet *bulges)
{
  g_return_if_fail (self != NULL);

  if (bulges == self->bulges)
    return;
  g_clear_pointer (&self->bulges, odori_bulge_set_unref);
  if (bulges != NULL)
    self->bulges = odori_bulge_set_ref (bulges);
  self->skin_dirty = TRUE;
  self->pose_dirty = TRUE;
}

void
odori_renderer_set_frame (OdoriRenderer *self,
                          guint          frame)
{
  g_return_if_fail (self != NULL);

  if (frame != self->frame)
    self->pose_dirty = TRUE;
  self->frame = frame;
}

void
odori_renderer_set_show_skin (OdoriRenderer *self,
                              gboolean       show)
{
  g_return_if_fail (self != NULL);

  if (!!show != self->show_skin)
    self->pose_dirty = TRUE;
  self->show_skin = !!show;
}

void
odori_renderer_set_show_bulges (OdoriRenderer *self,
                                gboolean       show)
{
  g_return_if_fail (self != NULL);

  if (!!show != self->show_bulges)
    self->pose_dirty = TRUE;
  self->show_bulges = !!show;
}

void
odori_renderer_add_highlight (OdoriRenderer     *self,
                              const char *const *segments,
                              const float        color[4])
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (segments == NULL || color != NULL);

  for (guint i = 0; segments != NULL && segments[i] != NULL; i++)
    {
      Highlight *h = g_new (Highlight, 1);

      h->segment = g_strdup (segments[i]);
      memcpy (h->color, color, sizeof h->color);
      g_ptr_array_add (self->highlights, h);
    }
  self->colors_dirty = TRUE;
}

void
odori_renderer_set_highlight (OdoriRenderer     *self,
                              const char *const *segments,
                              const float        color[4])
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (segments == NULL || color != NULL);

  g_ptr_array_set_size (self->highlights, 0);
  odori_renderer_add_highlight (self, segments, color);
}

/* Camera */

void
odori_renderer_set_view (OdoriRenderer *self,
                         OdoriView      view)
{
  g_return_if_fail (self != NULL);

  odori_camera_set_view (&self->camera, view);
}

void
odori_renderer_orbit (OdoriRenderer *self,
                      float          yaw_deg,
                      float          pitch_deg)
{
  g_return_if_fail (self != NULL);

  odori_camera_orbit (&self->camera, yaw_deg, pitch_deg);
}

void
odori_renderer_pan (OdoriRenderer *self,
                    float          dx,
                    float          dy)
{
  g_return_if_fail (self != NULL);

  odori_camera_pan (&self->camera, dx, dy);
}

void
odori_renderer_zoom (OdoriRenderer *self,
                     float          factor)
{
  g_return_if_fail (self != NULL);

  odori_camera_zoom (&self->camera, factor);
}

void
odori_renderer_frame_all (OdoriRenderer *self)
{
  g_return_if_fail (self != NULL);

  self->camera.fit_pending = TRUE;
}

void
odori_renderer_project (OdoriRenderer *self,
                        const float    world[3],
                        float          window[2])
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (world != NULL && window != NULL);

  odori_camera_project (&self->camera, world, window);
}

/* Drawing */

static void
update_bone_colors (OdoriRenderer *self)
{
  guint              n = self->skeleton != NULL ? self->skeleton->n_bones : 0;
  guint              w = CLAMP (n, 1, BONE_COLOR_ROW), h = MAX ((n + BONE_COLOR_ROW - 1) / BONE_COLOR_ROW, 1);
  g_autofree guint8 *texels = g_malloc0 ((gsize) w * h * 4);

  for (guint i = 0; i < self->highlights->len; i++)
    {
      Highlight *hl = g_ptr_array_index (self->highlights, i);
      int        b = self->skeleton != NULL ? odori_skeleton_find (self->skeleton, hl->segment) : -1;

      if (b < 0)
        continue;
      for (int c = 0; c < 4; c++)
        texels[b * 4 + c] = (guint8) lroundf (CLAMP (hl->color[c], 0.f, 1.f) * 255.f);
    }
  glBindTexture (GL_TEXTURE_2D, self->gl.bone_color_tex);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  self->colors_dirty = FALSE;
}

/* Last: at the far plane, where nothing else was drawn. */
static void
draw_background (OdoriRenderer *self)
{
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glUseProgram (self->gl.background_program);
  glUniform3fv (self->gl.u_bg_top, 1, background_top);
  glUniform3fv (self->gl.u_bg_bottom, 1, background_bottom);
  glBindVertexArray (self->gl.empty_vao);
  glDrawArrays (GL_TRIANGLES, 0, 3);
  glDepthMask (GL_TRUE);
  glDepthFunc (GL_LESS);
}

static float
nice_spacing (float x)
{
  float p = powf (10.f, floorf (log10f (x)));
  float m = x / p;

  return p * (m < 1.5f ? 1.f : m < 3.5f ? 2.f
                           : m < 7.5f   ? 5.f
                                        : 10.f);
}

static void
draw_floor (OdoriRenderer *self)
{
  float center[2] = { self->camera.target[0], self->camera.target[2] };
  float extent = self->figure_height * 4.f;
  float floor_y = self->bounds_valid ? self->floor_y : 0.f;
  float half[2], viewport[2] = { self->camera.width, self->camera.height };

  if (self->bounds_valid)
    {
      center[0] = (self->bounds_min[0] + self->bounds_max[0]) / 2.f;
      center[1] = (self->bounds_min[2] + self->bounds_max[2]) / 2.f;
      extent = MAX (extent, MAX (self->bounds_max[0] - self->bounds_min[0],
                                 self->bounds_max[2] - self->bounds_min[2]) *
                                1.5f);
    }
  half[0] = half[1] = extent;

  glEnable (GL_DEPTH_TEST);
  glDisable (GL_CULL_FACE);
  glUseProgram (self->gl.floor_program);
  glUniformMatrix4fv (self->gl.u_floor_view_proj, 1, GL_FALSE, (const float *) self->camera.view_proj);
  glUniform2fv (self->gl.u_floor_center, 1, center);
  glUniform2fv (self->gl.u_floor_half_size, 1, half);
  glUniform1f (self->gl.u_floor_extent, extent);
  glUniform1f (self->gl.u_floor_y, floor_y);
  glUniform3fv (self->gl.u_floor_color, 1, floor_color);
  glUniform3fv (self->gl.u_floor_line_color, 1, floor_line_color);
  glUniform1f (self->gl.u_floor_spacing, nice_spacing (self->figure_height / 8.f));
  glUniform3fv (self->gl.u_floor_top, 1, background_top);
  glUniform3fv (self->gl.u_floor_bottom, 1, background_bottom);
  glUniform2fv (self->gl.u_floor_viewport, 1, viewport);
  glBindVertexArray (self->gl.empty_vao);
  glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
}

/* Multiplied onto the floor on a patch just covering them, pulled towards the camera by
 * a polygon offset so the patch wins over the floor it lies on. */
static void
draw_shadows (OdoriRenderer *self)
{
  g_autoptr(GArray) shadows = NULL;
  float lo[2] = { G_MAXFLOAT, G_MAXFLOAT }, hi[2] = { -G_MAXFLOAT, -G_MAXFLOAT };
  float center[2], half[2];

  if (self->motion == NULL || self->motion->n_frames == 0 || !self->bounds_valid)
    return;
  shadows = _odori_renderer_build_shadows (self);
  if (shadows->len == 0)
    return;

  glUseProgram (self->gl.shadow_program);
  for (guint i = 0; i < shadows->len; i++)
    {
      OdoriShadow *sh = &g_array_index (shadows, OdoriShadow, i);

      for (int k = 0; k < 2; k++)
        {
          lo[k] = MIN (lo[k], MIN (sh->seg[k], sh->seg[k + 2]) - sh->param[0]);
          hi[k] = MAX (hi[k], MAX (sh->seg[k], sh->seg[k + 2]) + sh->param[0]);
        }
      glUniform4fv (self->gl.u_shadow_seg + i, 1, sh->seg);
      glUniform2fv (self->gl.u_shadow_param + i, 1, sh->param);
    }
  for (int k = 0; k < 2; k++)
    {
      center[k] = (lo[k] + hi[k]) / 2.f;
      half[k] = (hi[k] - lo[k]) / 2.f;
    }
  glUniform1i (self->gl.u_shadow_n, shadows->len);
  glUniformMatrix4fv (self->gl.u_shadow_view_proj, 1, GL_FALSE, (const float *) self->camera.view_proj);
  glUniform2fv (self->gl.u_shadow_center, 1, center);
  glUniform2fv (self->gl.u_shadow_half_size, 1, half);
  glUniform1f (self->gl.u_shadow_floor_y, self->floor_y);

  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glEnable (GL_POLYGON_OFFSET_FILL);
  glPolygonOffset (-1.f, -4.f);
  glEnable (GL_BLEND);
  glBlendFunc (GL_ZERO, GL_SRC_COLOR);
  glBindVertexArray (self->gl.empty_vao);
  glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
  glDisable (GL_BLEND);
  glDisable (GL_POLYGON_OFFSET_FILL);
  glDepthMask (GL_TRUE);
  glDepthFunc (GL_LESS);
}

static void
draw_figure (OdoriRenderer *self,
             const vec3     eye,
             const vec3     light_dir)
{
  gboolean skin = FALSE;

  self->stat_vertices = self->stat_triangles = 0;
  if (self->motion == NULL || self->motion->n_frames == 0 || self->skeleton == NULL)
    return;

  /* markers are no body: spheres and sticks, never a skin */
  skin = self->show_skin && self->skeleton->scheme != ODORI_SKELETON_SCHEME_MARKERS;
  if (skin && self->skin_dirty)
    _odori_renderer_rebuild_skin (self);
  if (skin && self->pose_dirty)
    _odori_renderer_pose_skin (self);
  if (self->colors_dirty)
    update_bone_colors (self);

  glEnable (GL_DEPTH_TEST);
  glEnable (GL_CULL_FACE);
  glCullFace (GL_BACK);
  /* the mirror's projection reverses the winding of every triangle */
  glFrontFace (self->camera.mirror ? GL_CW : GL_CCW);
  glUseProgram (self->gl.mesh_program);
  glUniformMatrix4fv (self->gl.u_mesh_view_proj, 1, GL_FALSE, (const float *) self->camera.view_proj);
  glUniform1i (self->gl.u_mesh_bone_colors, 0);
  glUniform3fv (self->gl.u_mesh_base_color, 1, skin ? skin_color : bone_color);
  glUniform3fv (self->gl.u_mesh_eye, 1, eye);
  glUniform3fv (self->gl.u_mesh_light_dir, 1, light_dir);
  glUniform3fv (self->gl.u_mesh_sky, 1, sky_light);
  glUniform3fv (self->gl.u_mesh_ground, 1, ground_light);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, self->gl.bone_color_tex);

  if (skin)
    {
      glBindVertexArray (self->gl.skin_mesh.vao);
      /* in chunks: llvmpipe shades each draw's vertices into a fresh buffer, and one
       * that big is a new mmap (and page faults) every frame */
      for (guint i = 0; i < self->skin_n_indices; i += DRAW_CHUNK)
        glDrawElements (GL_TRIANGLES, MIN (DRAW_CHUNK, self->skin_n_indices - i),
                        GL_UNSIGNED_INT, GUINT_TO_POINTER (i * sizeof (guint32)));
      self->stat_vertices = self->skin_n_vertices;
      self->stat_triangles = self->skin_n_indices / 3;
    }
  else
    {
      guint n;

      _odori_renderer_build_bones (self);
      n = self->bone_ids->len;
      _odori_gl_upload (GL_ARRAY_BUFFER, self->gl.bone_mesh.positions, (gsize) n * 3 * sizeof (float),
                        self->bone_positions->data);
      _odori_gl_upload (GL_ARRAY_BUFFER, self->gl.bone_mesh.normals, (gsize) n * 3 * sizeof (float),
                        self->bone_normals->data);
      _odori_gl_upload (GL_ARRAY_BUFFER, self->gl.bone_mesh.bones, (gsize) n * sizeof (guint16),
                        self->bone_ids->data);
      glBindVertexArray (self->gl.bone_mesh.vao);
      glDrawArrays (GL_TRIANGLES, 0, n);
      self->stat_vertices = n;
      self->stat_triangles = n / 3;
    }
  self->pose_dirty = FALSE;
  glFrontFace (GL_CCW);
  glDisable (GL_CULL_FACE);
}

/* Everything is drawn front to back and the backdrop last, behind what is there: without
 * a depth buffer that would paint over the figure. */
static gboolean
has_depth_buffer (void)
{
  GLint fbo = 0, type = GL_NONE, bits = 0;

  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
  if (fbo == 0)
    {
      glGetFramebufferAttachmentParameteriv (GL_DRAW_FRAMEBUFFER, GL_DEPTH,
                                             GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &bits);
      return bits > 0;
    }
  glGetFramebufferAttachmentParameteriv (GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                         GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
  return type != GL_NONE;
}

gboolean
odori_renderer_draw (OdoriRenderer *self,
                     int            width,
                     int            height,
                     GError       **error)
{
  GLenum status;
  vec3   eye, light_dir;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (width < 1 || height < 1)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _ ("cannot draw into %dx%d pixels"), width, height);
      return FALSE;
    }
  status = glCheckFramebufferStatus (GL_DRAW_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _ ("the framebuffer to draw into is not complete (status 0x%x)"),
                   (guint) status);
      return FALSE;
    }

  if (!has_depth_buffer ())
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _ ("the framebuffer to draw into has no depth buffer"));
      return FALSE;
    }

  odori_camera_update (&self->camera, width, height,
                       self->bounds_valid ? self->bounds_min : NULL,
                       self->bounds_valid ? self->bounds_max : NULL,
                       self->figure_height);
  odori_camera_get_eye (&self->camera, eye);
  odori_camera_get_key_light (&self->camera, light_dir);
  if (self->motion != NULL && self->motion->n_frames > 0)
    _odori_renderer_compute_tips (self);

  glViewport (0, 0, width, height);
  glDisable (GL_SCISSOR_TEST);
  glDisable (GL_STENCIL_TEST);
  glDepthMask (GL_TRUE);
  glClearDepth (1.0);
  glClear (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glDepthFunc (GL_LESS);

  /* front to back, so that each pixel is shaded about once */
  draw_figure (self, eye, light_dir);
  draw_floor (self);
  draw_shadows (self);
  draw_background (self);

  glBindVertexArray (0);
  glUseProgram (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  glBindTexture (GL_TEXTURE_2D, 0);
  return TRUE;
}

void
odori_renderer_get_stats (OdoriRenderer *self,
                          guint         *n_vertices,
                          guint         *n_triangles)
{
  g_return_if_fail (self != NULL);

  if (n_vertices != NULL)
    *n_vertices = self->stat_vertices;
  if (n_triangles != NULL)
    *n_triangles = self->stat_triangles;
}

gboolean
odori_gl_is_software (void)
{
  const char *renderer = (const char *) glGetString (GL_RENDERER);

  return renderer != NULL &&
         (strstr (renderer, "llvmpipe") != NULL || strstr (renderer, "softpipe") != NULL ||
          strstr (renderer, "SWR") != NULL);
}
