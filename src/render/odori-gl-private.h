/* odori-gl-private.h: the renderer's GL objects: shader programs, vertex arrays, buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every function needs the renderer's GL context current.
 */
#pragma once

#include <epoxy/gl.h>
#include <glib.h>

G_BEGIN_DECLS

/* A vertex array of positions (attribute 0), normals (1), bone indices (2, guint16)
 * and an element buffer. */
typedef struct
{
  GLuint vao;
  GLuint positions;
  GLuint normals;
  GLuint bones;
  GLuint indices;
} OdoriGlMesh;

typedef struct
{
  GLuint      background_program;
  GLint       u_bg_top, u_bg_bottom;
  GLuint      floor_program;
  GLint       u_floor_view_proj, u_floor_center, u_floor_half_size, u_floor_y, u_floor_color;
  GLint       u_floor_line_color, u_floor_spacing, u_floor_extent, u_floor_top;
  GLint       u_floor_bottom, u_floor_viewport;
  GLuint      shadow_program;
  GLint       u_shadow_view_proj, u_shadow_center, u_shadow_half_size, u_shadow_floor_y;
  GLint       u_shadow_n, u_shadow_seg, u_shadow_param;
  GLuint      mesh_program;
  GLint       u_mesh_view_proj, u_mesh_bone_colors, u_mesh_base_color, u_mesh_eye;
  GLint       u_mesh_light_dir, u_mesh_sky, u_mesh_ground;
  GLuint      empty_vao;      /* for the full-screen and floor passes: no attributes */
  GLuint      bone_color_tex; /* a highlight colour per bone */
  OdoriGlMesh skin_mesh;
  OdoriGlMesh bone_mesh;
} OdoriGl;

/* Checks for a desktop GL 3.3 context, then builds the programs (the mesh program from
 * MESH_VERTEX and MESH_FRAGMENT when not NULL, else from the resources) and the objects.
 * Fails with ODORI_RENDER_ERROR_CONTEXT or _SHADER; call _odori_gl_clear() either way. */
gboolean        _odori_gl_init   (OdoriGl     *gl,
                                  const char  *mesh_vertex,
                                  const char  *mesh_fragment,
                                  GError     **error);
/* Deletes the objects made so far. */
void            _odori_gl_clear  (OdoriGl     *gl);
/* Replaces BUFFER's contents with SIZE bytes of DATA (leaves it bound to TARGET). */
void            _odori_gl_upload (GLenum       target,
                                  GLuint       buffer,
                                  gsize        size,
                                  const void  *data);

G_END_DECLS
