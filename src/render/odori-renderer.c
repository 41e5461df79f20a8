/* odori-renderer.c: draws a posed skeleton with its skin, a floor grid and axes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements (docs/rendering.md says the same for users):
 * - Y is up. The camera orbits a target point: yaw 0 looks from +Z towards -Z (the
 *   dancer's front in the sample library, whose dancers face +Z), yaw 90 from +X (the
 *   dancer's left side), pitch 90 from straight above with the dancer's front at the
 *   bottom of the image. Presets: front (0, 0), back (180, 0), left (90, 0), right
 *   (-90, 0), top (0, 90), three-quarter (45, 15) and mirror: front with the image flipped
 *   left-right in the projection (so the front faces are wound the other way round and
 *   the cull face flips with them). Choosing a preset also frames the whole motion.
 * - Framing fits the bounding box of every frame (joint positions, grown by the largest
 *   skin radius and leaf bone) in a 30 degree vertical field of view with 8 % margin. It
 *   is computed at the next draw, when the aspect ratio is known.
 * - orbit() and pan() are in screen terms: pan moves the scene by window pixels (of the
 *   last draw), and in the mirror view both follow the flipped image. zoom() divides the
 *   camera distance by its factor (> 1 comes closer).
 * - The floor is at Y = 0 unless the motion goes below it; then at its lowest joint. Its
 *   grid spacing is the "nice" number (1, 2 or 5 times a power of ten) nearest an eighth
 *   of the figure's height, with a major line every 5; it fades out with distance.
 * - Contact shadows: each bone near the floor darkens the floor around its projection,
 *   more and more tightly the closer it is (a capsule per bone, the 32 lowest).
 * - The world's X and Z axes are drawn on the floor through the origin, X red, Z blue.
 * - Without the skin, bones are thin dark octahedra from each joint to each child joint
 *   and along leaf bones as the skin places them (odori-skin.c: the parent's direction
 *   carried by the joint's rotation), with a small sphere at every joint.
 * - Highlights: a bone's colour replaces the base colour by the highlight's alpha.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "odori-render-resources.h"
#include "odori-renderer.h"
#include "odori-renderer-private.h"
#include "odori-library-import.h"
#include "odori-skin.h"

G_DEFINE_QUARK (odori-render-error-quark, odori_render_error)

#define RESOURCE_PATH "/org/odori/Odori/render/shaders/"
#define FOVY_DEG 30.0f
#define FIT_MARGIN 1.08f
#define MAX_SHADOWS 32
#define SKIN_RINGS 14
#define SKIN_SIDES 20
#define BONE_COLOR_ROW 256
#define DRAW_CHUNK (3 * 1024)

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

static const struct
{
  const char *name;
  OdoriView   view;
  float       yaw;
  float       pitch;
} views[] = {
  { "front", ODORI_VIEW_FRONT, 0.f, 0.f },
  { "back", ODORI_VIEW_BACK, 180.f, 0.f },
  { "left", ODORI_VIEW_LEFT, 90.f, 0.f },
  { "right", ODORI_VIEW_RIGHT, -90.f, 0.f },
  { "top", ODORI_VIEW_TOP, 0.f, 90.f },
  { "mirror", ODORI_VIEW_MIRROR, 0.f, 0.f },
  { "three-quarter", ODORI_VIEW_THREE_QUARTER, 45.f, 15.f },
};

typedef struct
{
  char  *segment;
  float  color[4];
} Highlight;

typedef struct
{
  GLuint vao;
  GLuint positions;
  GLuint normals;
  GLuint bones;
  GLuint indices;
} Mesh;

struct _OdoriRenderer
{
  /* GL objects */
  GLuint         background_program;
  GLint          u_bg_top, u_bg_bottom;
  GLuint         floor_program;
  GLint          u_floor_view_proj, u_floor_center, u_floor_half_size, u_floor_y, u_floor_color,
                 u_floor_line_color, u_floor_spacing, u_floor_extent, u_floor_top,
                 u_floor_bottom, u_floor_viewport;
  GLuint         shadow_program;
  GLint          u_shadow_view_proj, u_shadow_center, u_shadow_half_size, u_shadow_floor_y,
                 u_shadow_n, u_shadow_seg, u_shadow_param;
  GLuint         mesh_program;
  GLint          u_mesh_view_proj, u_mesh_bone_colors, u_mesh_base_color, u_mesh_eye,
                 u_mesh_light_dir, u_mesh_sky, u_mesh_ground;
  GLuint         empty_vao;
  GLuint         bone_color_tex;
  Mesh           skin_mesh;
  Mesh           bone_mesh;

  /* scene */
  OdoriMotion   *motion;        /* what is drawn: SOURCE, or a copy turned Y-up */
  OdoriMotion   *source;        /* the motion given to set_motion */
  OdoriUpAxis    up;            /* SOURCE's up axis (AUTO: Y) */
  OdoriUpAxis    forced_up;     /* odori_renderer_set_up_axis (); AUTO: guess */
  OdoriSkeleton *skeleton;
  OdoriBulgeSet *bulges;
  int           *bone_segment;     /* per bone: the motion's segment, or -1 */
  gboolean      *is_leaf;          /* per bone: no child bone in the motion */
  float         *dirs;             /* per bone: 3 floats, its direction on the posed frame */
  float         *tips;             /* per bone: 3 floats, the far end of a leaf */
  guint          tips_frame;       /* the frame dirs and tips are for, or G_MAXUINT */
  guint          frame;
  gboolean       show_skin;
  gboolean       show_bulges;
  GPtrArray     *highlights;       /* Highlight* */
  gboolean       colors_dirty;

  OdoriSkin     *skin;
  gboolean       skin_dirty;       /* topology to rebuild */
  gboolean       pose_dirty;       /* vertices to recompute */
  guint          skin_n_vertices;
  guint          skin_n_indices;
  float         *skin_positions;
  float         *skin_normals;

  GArray        *bone_positions;   /* float */
  GArray        *bone_normals;     /* float */
  GArray        *bone_ids;         /* guint16 */
  float         *sphere;           /* unit sphere triangles, 3 floats per vertex */
  guint          sphere_n_vertices;

  /* motion extent */
  gboolean       bounds_valid;
  float          bounds_min[3];
  float          bounds_max[3];
  float          floor_y;
  float          figure_height;

  /* camera */
  OdoriView      view;
  float          yaw;
  float          pitch;
  float          target[3];
  float          distance;
  gboolean       mirror;
  gboolean       fit_pending;

  /* last draw */
  int            width;
  int            height;
  mat4           view_proj;
  guint          stat_vertices;
  guint          stat_triangles;
};

static void
highlight_free (gpointer data)
{
  Highlight *h = data;

  g_free (h->segment);
  g_free (h);
}

/* Views */

gboolean
odori_view_from_string (const char *name,
                        OdoriView  *view)
{
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (view != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (g_ascii_strcasecmp (name, views[i].name) == 0)
      {
        *view = views[i].view;
        return TRUE;
      }
  return FALSE;
}

const char *
odori_view_to_string (OdoriView view)
{
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (views[i].view == view)
      return views[i].name;
  g_return_val_if_reached (NULL);
}

/* Shaders */

static GLuint
compile_shader (GLenum       type,
                const char  *name,
                const char  *source,
                GError     **error)
{
  GLuint shader = glCreateShader (type);
  GLint status = GL_FALSE, log_len = 0;

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
                 _("the shader %s does not compile: %s"), name, g_strstrip (log));
  }
  glDeleteShader (shader);
  return 0;
}

static char *
load_source (const char  *name,
             GError     **error)
{
  g_autofree char *path = g_strconcat (RESOURCE_PATH, name, NULL);
  g_autoptr(GBytes) bytes = g_resource_lookup_data (odori_render_get_resource (), path,
                                                    G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  gsize len;
  const char *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* Links the program from VERTEX and FRAGMENT (resource names), or from the given
 * sources when not NULL. */
static GLuint
build_program (const char  *vertex,
               const char  *fragment,
               const char  *vertex_source,
               const char  *fragment_source,
               GError     **error)
{
  g_autofree char *vs_text = NULL;
  g_autofree char *fs_text = NULL;
  GLuint vs, fs, program;
  GLint status = GL_FALSE, log_len = 0;

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
                 _("the shaders %s and %s do not link: %s"), vertex, fragment, g_strstrip (log));
  }
  glDeleteProgram (program);
  return 0;
}

static gboolean
build_programs (OdoriRenderer  *self,
                const char     *mesh_vertex,
                const char     *mesh_fragment,
                GError        **error)
{
  GLuint p;

  p = self->background_program =
    build_program ("background.vert", "background.frag", NULL, NULL, error);
  if (p == 0)
    return FALSE;
  self->u_bg_top = glGetUniformLocation (p, "u_top");
  self->u_bg_bottom = glGetUniformLocation (p, "u_bottom");

  p = self->floor_program = build_program ("floor.vert", "floor.frag", NULL, NULL, error);
  if (p == 0)
    return FALSE;
  self->u_floor_view_proj = glGetUniformLocation (p, "u_view_proj");
  self->u_floor_center = glGetUniformLocation (p, "u_center");
  self->u_floor_half_size = glGetUniformLocation (p, "u_half_size");
  self->u_floor_y = glGetUniformLocation (p, "u_floor_y");
  self->u_floor_color = glGetUniformLocation (p, "u_color");
  self->u_floor_line_color = glGetUniformLocation (p, "u_line_color");
  self->u_floor_spacing = glGetUniformLocation (p, "u_spacing");
  self->u_floor_extent = glGetUniformLocation (p, "u_extent");
  self->u_floor_top = glGetUniformLocation (p, "u_top");
  self->u_floor_bottom = glGetUniformLocation (p, "u_bottom");
  self->u_floor_viewport = glGetUniformLocation (p, "u_viewport");

  p = self->shadow_program = build_program ("floor.vert", "shadow.frag", NULL, NULL, error);
  if (p == 0)
    return FALSE;
  self->u_shadow_view_proj = glGetUniformLocation (p, "u_view_proj");
  self->u_shadow_center = glGetUniformLocation (p, "u_center");
  self->u_shadow_half_size = glGetUniformLocation (p, "u_half_size");
  self->u_shadow_floor_y = glGetUniformLocation (p, "u_floor_y");
  self->u_shadow_n = glGetUniformLocation (p, "u_n_shadows");
  self->u_shadow_seg = glGetUniformLocation (p, "u_shadow_seg");
  self->u_shadow_param = glGetUniformLocation (p, "u_shadow_param");

  p = self->mesh_program =
    build_program ("mesh.vert", "mesh.frag", mesh_vertex, mesh_fragment, error);
  if (p == 0)
    return FALSE;
  self->u_mesh_view_proj = glGetUniformLocation (p, "u_view_proj");
  self->u_mesh_bone_colors = glGetUniformLocation (p, "u_bone_colors");
  self->u_mesh_base_color = glGetUniformLocation (p, "u_base_color");
  self->u_mesh_eye = glGetUniformLocation (p, "u_eye");
  self->u_mesh_light_dir = glGetUniformLocation (p, "u_light_dir");
  self->u_mesh_sky = glGetUniformLocation (p, "u_sky");
  self->u_mesh_ground = glGetUniformLocation (p, "u_ground");
  return TRUE;
}

/* GL objects */

static void
mesh_init (Mesh *mesh)
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
mesh_clear (Mesh *mesh)
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

static void
upload (GLenum        target,
        GLuint        buffer,
        gsize         size,
        const void   *data)
{
  glBindBuffer (target, buffer);
  /* orphan, then fill: the driver need not wait for the previous frame */
  glBufferData (target, size, NULL, GL_STREAM_DRAW);
  if (size > 0)
    glBufferSubData (target, 0, size, data);
}

/* A unit UV sphere as plain triangles (position == normal). */
static void
build_sphere (OdoriRenderer *self)
{
  const int slices = 12, stacks = 8;
  GArray *v = g_array_new (FALSE, FALSE, sizeof (float));

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

static gboolean
init_gl (OdoriRenderer  *self,
         const char     *mesh_vertex,
         const char     *mesh_fragment,
         GError        **error)
{
  const char *version = (const char *) glGetString (GL_VERSION);

  if (version == NULL)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("no current OpenGL context"));
      return FALSE;
    }
  if (!epoxy_is_desktop_gl () || epoxy_gl_version () < 33)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("desktop OpenGL 3.3 is needed, the context has %s"), version);
      return FALSE;
    }

  if (!build_programs (self, mesh_vertex, mesh_fragment, error))
    return FALSE;

  glGenVertexArrays (1, &self->empty_vao);
  mesh_init (&self->skin_mesh);
  mesh_init (&self->bone_mesh);

  glGenTextures (1, &self->bone_color_tex);
  glBindTexture (GL_TEXTURE_2D, self->bone_color_tex);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture (GL_TEXTURE_2D, 0);
  return TRUE;
}

OdoriRenderer *
odori_renderer_new_with_sources (const char  *mesh_vertex,
                                 const char  *mesh_fragment,
                                 GError     **error)
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
  self->distance = 10.0f;
  self->figure_height = 1.0f;
  self->width = 640;
  self->height = 480;
  glm_mat4_identity (self->view_proj);
  build_sphere (self);
  odori_renderer_set_view (self, ODORI_VIEW_THREE_QUARTER);

  if (!init_gl (self, mesh_vertex, mesh_fragment, error))
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
    {
      if (self->background_program != 0)
        glDeleteProgram (self->background_program);
      if (self->floor_program != 0)
        glDeleteProgram (self->floor_program);
      if (self->shadow_program != 0)
        glDeleteProgram (self->shadow_program);
      if (self->mesh_program != 0)
        glDeleteProgram (self->mesh_program);
      if (self->empty_vao != 0)
        glDeleteVertexArrays (1, &self->empty_vao);
      if (self->bone_color_tex != 0)
        glDeleteTextures (1, &self->bone_color_tex);
      mesh_clear (&self->skin_mesh);
      mesh_clear (&self->bone_mesh);
    }
  clear_scene (self);
  g_clear_pointer (&self->bulges, odori_bulge_set_unref);
  g_ptr_array_unref (self->highlights);
  g_array_unref (self->bone_positions);
  g_array_unref (self->bone_normals);
  g_array_unref (self->bone_ids);
  g_free (self->sphere);
  g_free (self);
}

/* Scene */

static void
compute_bounds (OdoriRenderer *self)
{
  const OdoriMotion *motion = self->motion;
  const OdoriSkeleton *sk = self->skeleton;
  float lo[3] = { G_MAXFLOAT, G_MAXFLOAT, G_MAXFLOAT };
  float hi[3] = { -G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  float pad = 0.f;
  gboolean any = FALSE;

  self->bounds_valid = FALSE;
  for (guint f = 0; f < motion->n_frames; f++)
    for (guint b = 0; b < sk->n_bones; b++)
      {
        const float *p;

        if (self->bone_segment[b] < 0)
          continue;
        p = odori_motion_get (motion, f, self->bone_segment[b])->position;
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

static void
find_leaves (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;

  for (guint b = 0; b < sk->n_bones; b++)
    self->is_leaf[b] = TRUE;
  for (guint b = 0; b < sk->n_bones; b++)
    if (sk->bones[b].parent >= 0 && self->bone_segment[b] >= 0)
      self->is_leaf[sk->bones[b].parent] = FALSE;
  self->tips_frame = G_MAXUINT;
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
      find_leaves (self);
      compute_bounds (self);
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
  find_leaves (self);
  compute_bounds (self);
  self->fit_pending = TRUE;
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
odori_renderer_add_highlight (OdoriRenderer      *self,
                              const char * const *segments,
                              const float         color[4])
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
odori_renderer_set_highlight (OdoriRenderer      *self,
                              const char * const *segments,
                              const float         color[4])
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

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (views[i].view == view)
      {
        self->view = view;
        self->yaw = views[i].yaw;
        self->pitch = views[i].pitch;
        self->mirror = view == ODORI_VIEW_MIRROR;
        self->fit_pending = TRUE;
        return;
      }
  g_return_if_reached ();
}

void
odori_renderer_orbit (OdoriRenderer *self,
                      float          yaw_deg,
                      float          pitch_deg)
{
  g_return_if_fail (self != NULL);

  if (!isfinite (yaw_deg) || !isfinite (pitch_deg))
    return;
  self->yaw = fmodf (self->yaw + (self->mirror ? -yaw_deg : yaw_deg), 360.f);
  self->pitch = CLAMP (self->pitch + pitch_deg, -89.f, 90.f);
}

static void
camera_basis (OdoriRenderer *self,
              vec3           back,
              vec3           right,
              vec3           up)
{
  float yaw = glm_rad (self->yaw), pitch = glm_rad (self->pitch);

  back[0] = sinf (yaw) * cosf (pitch);
  back[1] = sinf (pitch);
  back[2] = cosf (yaw) * cosf (pitch);
  up[0] = -sinf (yaw) * sinf (pitch);
  up[1] = cosf (pitch);
  up[2] = -cosf (yaw) * sinf (pitch);
  glm_vec3_cross (up, back, right);
}

void
odori_renderer_pan (OdoriRenderer *self,
                    float          dx,
                    float          dy)
{
  vec3 back, right, up;
  float per_pixel;

  g_return_if_fail (self != NULL);

  if (!isfinite (dx) || !isfinite (dy))
    return;
  camera_basis (self, back, right, up);
  per_pixel = 2.f * self->distance * tanf (glm_rad (FOVY_DEG) / 2.f) / MAX (self->height, 1);
  if (self->mirror)
    dx = -dx;
  /* the scene follows the pointer: the target moves the other way */
  glm_vec3_muladds (right, -dx * per_pixel, self->target);
  glm_vec3_muladds (up, dy * per_pixel, self->target);
}

void
odori_renderer_zoom (OdoriRenderer *self,
                     float          factor)
{
  g_return_if_fail (self != NULL);

  if (!isfinite (factor) || factor <= 0.f)
    return;
  self->distance = CLAMP (self->distance / factor, 1e-4f, 1e7f);
}

void
odori_renderer_frame_all (OdoriRenderer *self)
{
  g_return_if_fail (self != NULL);

  self->fit_pending = TRUE;
}

/* Centre on the bounds and back off until all eight corners are inside the frustum. */
static void
fit (OdoriRenderer *self,
     float          aspect)
{
  float tan_y = tanf (glm_rad (FOVY_DEG) / 2.f) / FIT_MARGIN;
  float tan_x = tan_y * aspect;
  vec3 back, right, up, c;
  float need = 0.f;

  if (!self->bounds_valid)
    return;
  camera_basis (self, back, right, up);
  glm_vec3_center (self->bounds_min, self->bounds_max, c);
  for (int k = 0; k < 8; k++)
    {
      vec3 p = { (k & 1) ? self->bounds_max[0] : self->bounds_min[0],
                 (k & 2) ? self->bounds_max[1] : self->bounds_min[1],
                 (k & 4) ? self->bounds_max[2] : self->bounds_min[2] };
      float x, y, z;

      glm_vec3_sub (p, c, p);
      x = glm_vec3_dot (p, right);
      y = glm_vec3_dot (p, up);
      z = glm_vec3_dot (p, back);
      need = MAX (need, z + fabsf (x) / tan_x);
      need = MAX (need, z + fabsf (y) / tan_y);
    }
  glm_vec3_copy (c, self->target);
  self->distance = MAX (need, 1e-3f);
}

static void
compute_matrices (OdoriRenderer *self,
                  int            width,
                  int            height,
                  vec3           eye,
                  vec3           light_dir)
{
  vec3 back, right, up;
  mat4 view, proj;
  float aspect = (float) width / MAX (height, 1);
  float radius, near_z, far_z;

  if (self->fit_pending && self->bounds_valid)
    {
      fit (self, aspect);
      self->fit_pending = FALSE;
    }
  camera_basis (self, back, right, up);
  glm_vec3_copy (self->target, eye);
  glm_vec3_muladds (back, self->distance, eye);
  glm_lookat (eye, self->target, up, view);

  radius = self->bounds_valid ? glm_vec3_distance (self->bounds_min, self->bounds_max) : 1.f;
  radius = MAX (radius, self->figure_height) * 4.f;   /* the floor reaches beyond */
  near_z = MAX (self->distance - radius, self->distance * 0.01f);
  far_z = self->distance + radius * 2.f;
  glm_perspective (glm_rad (FOVY_DEG), aspect, near_z, far_z, proj);
  if (self->mirror)
    {
      /* flip the image left-right: negate clip-space X */
      proj[0][0] = -proj[0][0];
      proj[1][0] = -proj[1][0];
      proj[2][0] = -proj[2][0];
      proj[3][0] = -proj[3][0];
    }
  glm_mat4_mul (proj, view, self->view_proj);

  /* the key light comes from above, to the camera's left and in front of the dancer's
   * side that faces the camera (unchanged by the mirror: it flips with the image) */
  glm_vec3_zero (light_dir);
  glm_vec3_muladds (right, -0.45f, light_dir);
  glm_vec3_muladds (up, 0.65f, light_dir);
  glm_vec3_muladds (back, 0.62f, light_dir);
  light_dir[1] += 0.25f;
  glm_vec3_normalize (light_dir);
}

void
odori_renderer_project (OdoriRenderer *self,
                        const float    world[3],
                        float          window[2])
{
  vec4 p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (world != NULL && window != NULL);

  glm_mat4_mulv (self->view_proj, (vec4) { world[0], world[1], world[2], 1.f }, p);
  if (fabsf (p[3]) < 1e-12f)
    p[3] = 1e-12f;
  window[0] = (p[0] / p[3] * 0.5f + 0.5f) * self->width;
  window[1] = (0.5f - p[1] / p[3] * 0.5f) * self->height;
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
       guint          b)
{
  return odori_motion_get (self->motion, current_frame (self), self->bone_segment[b])->position;
}

/* Bone directions as the skin has them (odori-skin.c): towards the average of the
 * children's joints; a leaf carries its parent's direction by the joint's rotation,
 * R_leaf · R_parent⁻¹ · d_parent, a root without children points along its +Y. */
static void
compute_tips (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;
  guint frame = current_frame (self);

  if (self->tips_frame == frame && !self->pose_dirty)
    return;
  for (guint b = 0; b < sk->n_bones; b++)
    {
      float *d = &self->dirs[b * 3];
      int parent = sk->bones[b].parent;
      const OdoriTransform *t;
      vec3 end = { 0, 0, 0 };
      guint n = 0;

      glm_vec3_copy ((vec3) { 0, 1, 0 }, d);
      if (self->bone_segment[b] < 0)
        continue;
      t = odori_motion_get (self->motion, frame, self->bone_segment[b]);
      for (guint c = b + 1; c < sk->n_bones; c++)
        if (sk->bones[c].parent == (int) b && self->bone_segment[c] >= 0)
          {
            glm_vec3_add (end, (float *) joint (self, c), end);
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
                                                          self->bone_segment[parent])->rotation, qp);
          glm_quat_mul ((float *) t->rotation, qp, rel);
          glm_quat_rotatev (rel, &self->dirs[parent * 3], d);
        }
      else
        glm_quat_rotatev ((float *) t->rotation, (vec3) { 0, 1, 0 }, d);
      if (glm_vec3_norm2 (d) < 0.5f)
        glm_vec3_copy ((vec3) { 0, 1, 0 }, d);
      glm_vec3_normalize (d);
      glm_vec3_copy ((float *) t->position, &self->tips[b * 3]);
      glm_vec3_muladds (d, sk->bones[b].length, &self->tips[b * 3]);
    }
  self->tips_frame = frame;
}

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
  vec3 axis, u, v, ring[4], mid, head, tail;
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
      float s = (i == 1) ? 1.f : (i == 3) ? -1.f : 0.f;
      float c = (i == 0) ? 1.f : (i == 2) ? -1.f : 0.f;

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
      vec3 p = { center[0] + n[0] * radius, center[1] + n[1] * radius, center[2] + n[2] * radius };

      push_vertex (self, p, n, bone);
    }
}

static void
build_bones (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;
  float width = self->figure_height * 0.012f;

  g_array_set_size (self->bone_positions, 0);
  g_array_set_size (self->bone_normals, 0);
  g_array_set_size (self->bone_ids, 0);
  for (guint b = 0; b < sk->n_bones; b++)
    {
      int parent = sk->bones[b].parent;

      if (self->bone_segment[b] < 0)
        continue;
      push_sphere (self, joint (self, b), width * 1.6f, b);
      if (parent >= 0 && self->bone_segment[parent] >= 0)
        push_bone (self, joint (self, parent), joint (self, b), width, parent);
      if (self->is_leaf[b] && sk->bones[b].length > 0.f)
        push_bone (self, joint (self, b), &self->tips[b * 3], width, b);
    }
  /* a marker set: sticks between the markers that stay a constant distance apart */
  for (guint i = 0; i < sk->n_sticks; i++)
    {
      const OdoriStick *st = &sk->sticks[i];

      /* a bone tapers to a point at its tail: both ways, a stick is thick at both ends */
      if (self->bone_segment[st->a] >= 0 && self->bone_segment[st->b] >= 0)
        {
          push_bone (self, joint (self, st->a), joint (self, st->b), width, st->a);
          push_bone (self, joint (self, st->b), joint (self, st->a), width, st->b);
        }
    }
}

typedef struct
{
  float seg[4];
  float param[2];
} Shadow;

static int
shadow_cmp (gconstpointer a,
            gconstpointer b)
{
  float sa = ((const Shadow *) a)->param[1], sb = ((const Shadow *) b)->param[1];

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
  float h = MAX (MIN (a[1], b[1]) - floor_y, 0.f);
  float reach = 0.35f * height;
  Shadow s = { { a[0], a[2], b[0], b[2] }, { 0.f, 0.f } };
  float k;

  if (h >= reach)
    return;
  k = 1.f - h / reach;
  s.param[0] = radius * 1.3f + h * 0.6f + 0.02f * height;
  s.param[1] = 0.42f * k * k;
  g_array_append_val (shadows, s);
}

static GArray *
build_shadows (OdoriRenderer *self)
{
  const OdoriSkeleton *sk = self->skeleton;
  GArray *shadows = g_array_new (FALSE, FALSE, sizeof (Shadow));

  for (guint b = 0; b < sk->n_bones; b++)
    {
      int parent = sk->bones[b].parent;
      float r = sk->bones[b].radius;

      if (self->bone_segment[b] < 0)
        continue;
      if (parent >= 0 && self->bone_segment[parent] >= 0)
        add_shadow (shadows, self->floor_y, self->figure_height, joint (self, parent),
                    joint (self, b), sk->bones[parent].radius);
      if (self->is_leaf[b])
        add_shadow (shadows, self->floor_y, self->figure_height, joint (self, b),
                    &self->tips[b * 3], r);
    }
  g_array_sort (shadows, shadow_cmp);
  if (shadows->len > MAX_SHADOWS)
    g_array_set_size (shadows, MAX_SHADOWS);
  return shadows;
}

static void
update_bone_colors (OdoriRenderer *self)
{
  guint n = self->skeleton != NULL ? self->skeleton->n_bones : 0;
  guint w = CLAMP (n, 1, BONE_COLOR_ROW), h = MAX ((n + BONE_COLOR_ROW - 1) / BONE_COLOR_ROW, 1);
  g_autofree guint8 *texels = g_malloc0 ((gsize) w * h * 4);

  for (guint i = 0; i < self->highlights->len; i++)
    {
      Highlight *hl = g_ptr_array_index (self->highlights, i);
      int b = self->skeleton != NULL ? odori_skeleton_find (self->skeleton, hl->segment) : -1;

      if (b < 0)
        continue;
      for (int c = 0; c < 4; c++)
        texels[b * 4 + c] = (guint8) lroundf (CLAMP (hl->color[c], 0.f, 1.f) * 255.f);
    }
  glBindTexture (GL_TEXTURE_2D, self->bone_color_tex);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  self->colors_dirty = FALSE;
}

static void
rebuild_skin (OdoriRenderer *self)
{
  const guint32 *indices;
  guint n_indices;

  g_clear_pointer (&self->skin, odori_skin_free);
  g_clear_pointer (&self->skin_positions, g_free);
  g_clear_pointer (&self->skin_normals, g_free);
  self->skin = odori_skin_new (self->skeleton, self->bulges, SKIN_RINGS, SKIN_SIDES);
  self->skin_n_vertices = odori_skin_get_n_vertices (self->skin);
  indices = odori_skin_get_indices (self->skin, &n_indices);
  self->skin_n_indices = n_indices;
  self->skin_positions = g_new0 (float, (gsize) MAX (self->skin_n_vertices, 1) * 3);
  self->skin_normals = g_new0 (float, (gsize) MAX (self->skin_n_vertices, 1) * 3);
  upload (GL_ARRAY_BUFFER, self->skin_mesh.bones, self->skin_n_vertices * sizeof (guint16),
          odori_skin_get_vertex_bones (self->skin));
  glBindVertexArray (self->skin_mesh.vao);
  upload (GL_ELEMENT_ARRAY_BUFFER, self->skin_mesh.indices, (gsize) n_indices * sizeof (guint32),
          indices);
  glBindVertexArray (0);
  self->skin_dirty = FALSE;
  self->pose_dirty = TRUE;
}

static void
pose_skin (OdoriRenderer *self)
{
  gsize size = (gsize) self->skin_n_vertices * 3 * sizeof (float);

  odori_skin_pose (self->skin, self->motion, current_frame (self),
                   self->show_bulges && self->bulges != NULL,
                   self->skin_positions, self->skin_normals);
  upload (GL_ARRAY_BUFFER, self->skin_mesh.positions, size, self->skin_positions);
  upload (GL_ARRAY_BUFFER, self->skin_mesh.normals, size, self->skin_normals);
}

/* Drawing */

/* Last: at the far plane, where nothing else was drawn. */
static void
draw_background (OdoriRenderer *self)
{
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glUseProgram (self->background_program);
  glUniform3fv (self->u_bg_top, 1, background_top);
  glUniform3fv (self->u_bg_bottom, 1, background_bottom);
  glBindVertexArray (self->empty_vao);
  glDrawArrays (GL_TRIANGLES, 0, 3);
  glDepthMask (GL_TRUE);
  glDepthFunc (GL_LESS);
}

static float
nice_spacing (float x)
{
  float p = powf (10.f, floorf (log10f (x)));
  float m = x / p;

  return p * (m < 1.5f ? 1.f : m < 3.5f ? 2.f : m < 7.5f ? 5.f : 10.f);
}

static void
draw_floor (OdoriRenderer *self)
{
  float center[2] = { self->target[0], self->target[2] };
  float extent = self->figure_height * 4.f;
  float floor_y = self->bounds_valid ? self->floor_y : 0.f;
  float half[2], viewport[2] = { self->width, self->height };

  if (self->bounds_valid)
    {
      center[0] = (self->bounds_min[0] + self->bounds_max[0]) / 2.f;
      center[1] = (self->bounds_min[2] + self->bounds_max[2]) / 2.f;
      extent = MAX (extent, MAX (self->bounds_max[0] - self->bounds_min[0],
                                 self->bounds_max[2] - self->bounds_min[2]) * 1.5f);
    }
  half[0] = half[1] = extent;

  glEnable (GL_DEPTH_TEST);
  glDisable (GL_CULL_FACE);
  glUseProgram (self->floor_program);
  glUniformMatrix4fv (self->u_floor_view_proj, 1, GL_FALSE, (const float *) self->view_proj);
  glUniform2fv (self->u_floor_center, 1, center);
  glUniform2fv (self->u_floor_half_size, 1, half);
  glUniform1f (self->u_floor_extent, extent);
  glUniform1f (self->u_floor_y, floor_y);
  glUniform3fv (self->u_floor_color, 1, floor_color);
  glUniform3fv (self->u_floor_line_color, 1, floor_line_color);
  glUniform1f (self->u_floor_spacing, nice_spacing (self->figure_height / 8.f));
  glUniform3fv (self->u_floor_top, 1, background_top);
  glUniform3fv (self->u_floor_bottom, 1, background_bottom);
  glUniform2fv (self->u_floor_viewport, 1, viewport);
  glBindVertexArray (self->empty_vao);
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
  shadows = build_shadows (self);
  if (shadows->len == 0)
    return;

  glUseProgram (self->shadow_program);
  for (guint i = 0; i < shadows->len; i++)
    {
      Shadow *sh = &g_array_index (shadows, Shadow, i);

      for (int k = 0; k < 2; k++)
        {
          lo[k] = MIN (lo[k], MIN (sh->seg[k], sh->seg[k + 2]) - sh->param[0]);
          hi[k] = MAX (hi[k], MAX (sh->seg[k], sh->seg[k + 2]) + sh->param[0]);
        }
      glUniform4fv (self->u_shadow_seg + i, 1, sh->seg);
      glUniform2fv (self->u_shadow_param + i, 1, sh->param);
    }
  for (int k = 0; k < 2; k++)
    {
      center[k] = (lo[k] + hi[k]) / 2.f;
      half[k] = (hi[k] - lo[k]) / 2.f;
    }
  glUniform1i (self->u_shadow_n, shadows->len);
  glUniformMatrix4fv (self->u_shadow_view_proj, 1, GL_FALSE, (const float *) self->view_proj);
  glUniform2fv (self->u_shadow_center, 1, center);
  glUniform2fv (self->u_shadow_half_size, 1, half);
  glUniform1f (self->u_shadow_floor_y, self->floor_y);

  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDepthMask (GL_FALSE);
  glEnable (GL_POLYGON_OFFSET_FILL);
  glPolygonOffset (-1.f, -4.f);
  glEnable (GL_BLEND);
  glBlendFunc (GL_ZERO, GL_SRC_COLOR);
  glBindVertexArray (self->empty_vao);
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
    rebuild_skin (self);
  if (skin && self->pose_dirty)
    pose_skin (self);
  if (self->colors_dirty)
    update_bone_colors (self);

  glEnable (GL_DEPTH_TEST);
  glEnable (GL_CULL_FACE);
  glCullFace (GL_BACK);
  /* the mirror's projection reverses the winding of every triangle */
  glFrontFace (self->mirror ? GL_CW : GL_CCW);
  glUseProgram (self->mesh_program);
  glUniformMatrix4fv (self->u_mesh_view_proj, 1, GL_FALSE, (const float *) self->view_proj);
  glUniform1i (self->u_mesh_bone_colors, 0);
  glUniform3fv (self->u_mesh_base_color, 1, skin ? skin_color : bone_color);
  glUniform3fv (self->u_mesh_eye, 1, eye);
  glUniform3fv (self->u_mesh_light_dir, 1, light_dir);
  glUniform3fv (self->u_mesh_sky, 1, sky_light);
  glUniform3fv (self->u_mesh_ground, 1, ground_light);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, self->bone_color_tex);

  if (skin)
    {
      glBindVertexArray (self->skin_mesh.vao);
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

      build_bones (self);
      n = self->bone_ids->len;
      upload (GL_ARRAY_BUFFER, self->bone_mesh.positions, (gsize) n * 3 * sizeof (float),
              self->bone_positions->data);
      upload (GL_ARRAY_BUFFER, self->bone_mesh.normals, (gsize) n * 3 * sizeof (float),
              self->bone_normals->data);
      upload (GL_ARRAY_BUFFER, self->bone_mesh.bones, (gsize) n * sizeof (guint16),
              self->bone_ids->data);
      glBindVertexArray (self->bone_mesh.vao);
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
odori_renderer_draw (OdoriRenderer  *self,
                     int             width,
                     int             height,
                     GError        **error)
{
  GLenum status;
  vec3 eye, light_dir;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (width < 1 || height < 1)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("cannot draw into %dx%d pixels"), width, height);
      return FALSE;
    }
  status = glCheckFramebufferStatus (GL_DRAW_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("the framebuffer to draw into is not complete (status 0x%x)"),
                   (guint) status);
      return FALSE;
    }

  if (!has_depth_buffer ())
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("the framebuffer to draw into has no depth buffer"));
      return FALSE;
    }

  self->width = width;
  self->height = height;
  compute_matrices (self, width, height, eye, light_dir);
  if (self->motion != NULL && self->motion->n_frames > 0)
    compute_tips (self);

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
