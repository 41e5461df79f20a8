/* odori-gl.c: the renderer's GL objects: shader programs, vertex arrays, buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shaders are GLSL files in the render gresource; a compile or link failure becomes an
 * ODORI_RENDER_ERROR_SHADER with the driver's log.
 */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "odori-gl-private.h"
#include "odori-render-resources.h"
#include "odori-render-types.h"

#define RESOURCE_PATH "/org/odori/Odori/render/shaders/"

/* Shaders */

static GLuint
compile_shader (GLenum      type,
                const char *name,
                const char *source,
                GError    **error)
{
  GLuint shader = glCreateShader (type);
  GLint  status = GL_FALSE, log_len = 0;

  glShaderSource (shader, 1, &source, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &status);
  if (status == GL_TRUE)
    return shader;

  glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &log_len);
  {
    g_autofree char *log = g_malloc0 (MAX (log_len, 1) + 1);

    glGetShaderInfoLog (shader, MAX (log_len, 1), NULL, log);
    g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_SHADER,
                 _ ("the shader %s does not compile: %s"), name, g_strstrip (log));
  }
  glDeleteShader (shader);
  return 0;
}

static char *
load_source (const char *name,
             GError    **error)
{
  g_autofree char *path = g_strconcat (RESOURCE_PATH, name, NULL);
  g_autoptr(GBytes) bytes = g_resource_lookup_data (odori_render_get_resource (), path,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  gsize       len;
  const char *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* Links the program from VERTEX and FRAGMENT (resource names), or from the given
 * sources when not NULL. */
static GLuint
build_program (const char *vertex,
               const char *fragment,
               const char *vertex_source,
               const char *fragment_source,
               GError    **error)
{
  g_autofree char *vs_text = NULL;
  g_autofree char *fs_text = NULL;
  GLuint           vs, fs, program;
  GLint            status = GL_FALSE, log_len = 0;

  if (vertex_source == NULL && (vertex_source = vs_text = load_source (vertex, error)) == NULL)
    return 0;
  if (fragment_source == NULL &&
      (fragment_source = fs_text = load_source (fragment, error)) == NULL)
    return 0;

  vs = compile_shader (GL_VERTEX_SHADER, vertex, vertex_source, error);
  if (vs == 0)
    return 0;
  fs = compile_shader (GL_FRAGMENT_SHADER, fragment, fragment_source, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, vs);
  glAttachShader (program, fs);
  glLinkProgram (program);
  glDetachShader (program, vs);
  glDetachShader (program, fs);
  glDeleteShader (vs);
  glDeleteShader (fs);
  glGetProgramiv (program, GL_LINK_STATUS, &status);
  if (status == GL_TRUE)
    return program;

  glGetProgramiv (program, GL_INFO_LOG_LENGTH, &log_len);
  {
    g_autofree char *log = g_malloc0 (MAX (log_len, 1) + 1);

    glGetProgramInfoLog (program, MAX (log_len, 1), NULL, log);
    g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_SHADER,
                 _ ("the shaders %s and %s do not link: %s"), vertex, fragment, g_strstrip (log));
  }
  glDeleteProgram (program);
  return 0;
}

static gboolean
build_programs (OdoriGl    *gl,
                const char *mesh_vertex,
                const char *mesh_fragment,
                GError    **error)
{
  GLuint p;

  p = gl->background_program =
      build_program ("background.vert", "background.frag", NULL, NULL, error);
  if (p == 0)
    return FALSE;
  gl->u_bg_top = glGetUniformLocation (p, "u_top");
  gl->u_bg_bottom = glGetUniformLocation (p, "u_bottom");

  p = gl->floor_program = build_program ("floor.vert", "floor.frag", NULL, NULL, error);
  if (p == 0)
    return FALSE;
  gl->u_floor_view_proj = glGetUniformLocation (p, "u_view_proj");
  gl->u_floor_center = glGetUniformLocation (p, "u_center");
  gl->u_floor_half_size = glGetUniformLocation (p, "u_half_size");
  gl->u_floor_y = glGetUniformLocation (p, "u_floor_y");
  gl->u_floor_color = glGetUniformLocation (p, "u_color");
  gl->u_floor_line_color = glGetUniformLocation (p, "u_line_color");
  gl->u_floor_spacing = glGetUniformLocation (p, "u_spacing");
  gl->u_floor_extent = glGetUniformLocation (p, "u_extent");
  gl->u_floor_top = glGetUniformLocation (p, "u_top");
  gl->u_floor_bottom = glGetUniformLocation (p, "u_bottom");
  gl->u_floor_viewport = glGetUniformLocation (p, "u_viewport");

  p = gl->shadow_program = build_program ("floor.vert", "shadow.frag", NULL, NULL, error);
  if (p == 0)
    return FALSE;
  gl->u_shadow_view_proj = glGetUniformLocation (p, "u_view_proj");
  gl->u_shadow_center = glGetUniformLocation (p, "u_center");
  gl->u_shadow_half_size = glGetUniformLocation (p, "u_half_size");
  gl->u_shadow_floor_y = glGetUniformLocation (p, "u_floor_y");
  gl->u_shadow_n = glGetUniformLocation (p, "u_n_shadows");
  gl->u_shadow_seg = glGetUniformLocation (p, "u_shadow_seg");
  gl->u_shadow_param = glGetUniformLocation (p, "u_shadow_param");

  p = gl->mesh_program =
      build_program ("mesh.vert", "mesh.frag", mesh_vertex, mesh_fragment, error);
  if (p == 0)
    return FALSE;
  gl->u_mesh_view_proj = glGetUniformLocation (p, "u_view_proj");
  gl->u_mesh_bone_colors = glGetUniformLocation (p, "u_bone_colors");
  gl->u_mesh_base_color = glGetUniformLocation (p, "u_base_color");
  gl->u_mesh_eye = glGetUniformLocation (p, "u_eye");
  gl->u_mesh_light_dir = glGetUniformLocation (p, "u_light_dir");
  gl->u_mesh_sky = glGetUniformLocation (p, "u_sky");
  gl->u_mesh_ground = glGetUniformLocation (p, "u_ground");
  return TRUE;
}

/* Meshes and buffers */

static void
mesh_init (OdoriGlMesh *mesh)
{
  glGenVertexArrays (1, &mesh->vao);
  glGenBuffers (1, &mesh->positions);
  glGenBuffers (1, &mesh->normals);
  glGenBuffers (1, &mesh->bones);
  glGenBuffers (1, &mesh->indices);

  glBindVertexArray (mesh->vao);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->positions);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->normals);
  glVertexAttribPointer (1, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (1);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->bones);
  glVertexAttribIPointer (2, 1, GL_UNSIGNED_SHORT, 0, NULL);
  glEnableVertexAttribArray (2);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->indices);
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

static void
mesh_clear (OdoriGlMesh *mesh)
{
  if (mesh->vao != 0)
    glDeleteVertexArrays (1, &mesh->vao);
  if (mesh->positions != 0)
    {
      GLuint buffers[] = { mesh->positions, mesh->normals, mesh->bones, mesh->indices };

      glDeleteBuffers (G_N_ELEMENTS (buffers), buffers);
    }
  memset (mesh, 0, sizeof *mesh);
}

void
_odori_gl_upload (GLenum      target,
                  GLuint      buffer,
                  gsize       size,
                  const void *data)
{
  glBindBuffer (target, buffer);
  /* orphan, then fill: the driver need not wait for the previous frame */
  glBufferData (target, size, NULL, GL_STREAM_DRAW);
  if (size > 0)
    glBufferSubData (target, 0, size, data);
}

gboolean
_odori_gl_init (OdoriGl    *gl,
                const char *mesh_vertex,
                const char *mesh_fragment,
                GError    **error)
{
  const char *version = (const char *) glGetString (GL_VERSION);

  g_assert (gl != NULL);

  if (version == NULL)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _ ("no current OpenGL context"));
      return FALSE;
    }
  if (!epoxy_is_desktop_gl () || epoxy_gl_version () < 33)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _ ("desktop OpenGL 3.3 is needed, the context has %s"), version);
      return FALSE;
    }

  if (!build_programs (gl, mesh_vertex, mesh_fragment, error))
    return FALSE;

  glGenVertexArrays (1, &gl->empty_vao);
  mesh_init (&gl->skin_mesh);
  mesh_init (&gl->bone_mesh);

  glGenTextures (1, &gl->bone_color_tex);
  glBindTexture (GL_TEXTURE_2D, gl->bone_color_tex);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture (GL_TEXTURE_2D, 0);
  return TRUE;
}

void
_odori_gl_clear (OdoriGl *gl)
{
  g_assert (gl != NULL);

  if (gl->background_program != 0)
    glDeleteProgram (gl->background_program);
  if (gl->floor_program != 0)
    glDeleteProgram (gl->floor_program);
  if (gl->shadow_program != 0)
    glDeleteProgram (gl->shadow_program);
  if (gl->mesh_program != 0)
    glDeleteProgram (gl->mesh_program);
  if (gl->empty_vao != 0)
    glDeleteVertexArrays (1, &gl->empty_vao);
  if (gl->bone_color_tex != 0)
    glDeleteTextures (1, &gl->bone_color_tex);
  mesh_clear (&gl->skin_mesh);
  mesh_clear (&gl->bone_mesh);
  memset (gl, 0, sizeof *gl);
}
