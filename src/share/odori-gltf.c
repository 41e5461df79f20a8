/* odori-gltf.c: a composed dance as glTF 2.0 binary (.glb), in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements (docs/sharing.md, "glTF"):
 * - The JSON is built with json-glib (already a dependency); the binary chunk is written
 *   here: no glTF library in Debian 12 writes skins and animations from C (cgltf is a
 *   single header not packaged there, tinygltf is C++). Little-endian, every part 4-byte
 *   aligned, written through OdoriOutput, so the target is replaced atomically.
 * - Axes: glTF's +Y up, right-handed, as Odori's motions; a Z-up (or X-up) capture is
 *   turned upright as the renderer draws it (odori_motion_guess_up ()).
 * - Units: metres (odori_gltf_metres_per_unit ()).
 * - Nodes: one per skeleton bone, named as the bone (UTF-8 as it is), in the skeleton's
 *   tree; every node's rest transform is its local transform at the first frame, which
 *   is also the bind pose: the mesh is the skin Odori draws at the first frame (without
 *   bulges), and inverseBindMatrices are the inverses of the joints' world transforms
 *   there. A bone whose segment is missing from the motion stays at its parent's origin.
 * - Skinning is rigid, as Odori's skin is: every vertex follows the one bone its tube
 *   belongs to (JOINTS_0 = (bone, 0, 0, 0), WEIGHTS_0 = (1, 0, 0, 0)).
 * - Animation "dance": one time accessor (frame i at i · frame time) for every sampler,
 *   LINEAR; a rotation channel per joint (unit quaternions, signs kept continuous so that
 *   interpolation takes the short way); a translation channel for the roots, and for any
 *   joint whose offset from its parent moves by more than 1e-5 of the figure's height
 *   (so the file places every joint where Odori does); the others keep their offset.
 * - Scale channels of BVA are not written (Odori draws no scale either); bulges are left
 *   out (asset.extras.odori.bulges says why).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "odori-gltf.h"
#include "odori-library-import.h"
#include "odori-share.h"
#include "odori-skin.h"
#include "odori-text.h"

/* The skin's resolution: the renderer's (odori-renderer-mesh.c). */
#define SKIN_RINGS 14
#define SKIN_SIDES 20

#define GLB_MAGIC      0x46546C67u /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au
#define GLB_CHUNK_BIN  0x004E4942u

#define GL_FLOAT                5126
#define GL_UNSIGNED_SHORT       5123
#define GL_UNSIGNED_INT         5125
#define GL_ARRAY_BUFFER         34962
#define GL_ELEMENT_ARRAY_BUFFER 34963

struct _OdoriGltfExport
{
  GObject parent_instance;

  OdoriMotion   *motion;
  OdoriSkeleton *skeleton;
  char          *path;
  OdoriUpAxis    up;
  double         metres;
  gint           permille; /* atomic */
};

G_DEFINE_FINAL_TYPE (OdoriGltfExport, odori_gltf_export, G_TYPE_OBJECT)

static void
odori_gltf_export_finalize (GObject *object)
{
  OdoriGltfExport *self = ODORI_GLTF_EXPORT (object);

  g_clear_pointer (&self->motion, odori_motion_unref);
  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  g_free (self->path);
  G_OBJECT_CLASS (odori_gltf_export_parent_class)->finalize (object);
}

static void
odori_gltf_export_class_init (OdoriGltfExportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_gltf_export_finalize;
}

static void
odori_gltf_export_init (OdoriGltfExport *self)
{
  self->up = ODORI_UP_AUTO;
}

OdoriGltfExport *
odori_gltf_export_new (OdoriMotion *motion,
                       const char  *path)
{
  OdoriGltfExport *self;

  g_return_val_if_fail (motion != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (ODORI_TYPE_GLTF_EXPORT, NULL);
  self->motion = odori_motion_ref (motion);
  self->path = g_strdup (path);
  return self;
}

void
odori_gltf_export_set_skeleton (OdoriGltfExport *self,
                                OdoriSkeleton   *skeleton)
{
  g_return_if_fail (ODORI_IS_GLTF_EXPORT (self));

  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  if (skeleton != NULL)
    self->skeleton = odori_skeleton_ref (skeleton);
}

void
odori_gltf_export_set_up_axis (OdoriGltfExport *self,
                               OdoriUpAxis      up)
{
  g_return_if_fail (ODORI_IS_GLTF_EXPORT (self));
  self->up = up;
}

void
odori_gltf_export_set_metres_per_unit (OdoriGltfExport *self,
                                       double           metres)
{
  g_return_if_fail (ODORI_IS_GLTF_EXPORT (self));
  g_return_if_fail (metres >= 0 && isfinite (metres));
  self->metres = metres;
}

const char *
odori_gltf_export_get_path (OdoriGltfExport *self)
{
  g_return_val_if_fail (ODORI_IS_GLTF_EXPORT (self), NULL);
  return self->path;
}

double
odori_gltf_export_get_fraction (OdoriGltfExport *self)
{
  g_return_val_if_fail (ODORI_IS_GLTF_EXPORT (self), 0);
  return g_atomic_int_get (&self->permille) / 1000.0;
}

static void
set_fraction (OdoriGltfExport *self,
              double           fraction)
{
  g_atomic_int_set (&self->permille, (gint) lround (CLAMP (fraction, 0, 1) * 1000));
}

gboolean
odori_gltf_path_is_glb (const char *path)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  lower = g_ascii_strdown (path, -1);
  return g_str_has_suffix (lower, ".glb");
}

/* Units */

static double
metres_per (OdoriUnit unit)
{
  switch (unit)
    {
    case ODORI_UNIT_INCHES:
      return 0.0254;
    case ODORI_UNIT_CENTIMETERS:
      return 0.01;
    case ODORI_UNIT_MILLIMETERS:
      return 0.001;
    case ODORI_UNIT_METERS:
      return 1.0;
    case ODORI_UNIT_DEGREES:
    case ODORI_UNIT_RADIANS:
    case ODORI_UNIT_PERCENT:
    case ODORI_UNIT_UNKNOWN:
    default:
      return 0;
    }
}

/* The extent of the joints along UP at frame 0, in the motion's unit. */
static double
height_along (const OdoriMotion *motion,
              OdoriUpAxis        up)
{
  versor r;
  float  lo = G_MAXFLOAT, hi = -G_MAXFLOAT;

  odori_up_axis_rotation (up, r);
  for (guint s = 0; s < motion->n_segments; s++)
    {
      vec3 p;

      float w[3];

      odori_motion_get_world_position (motion, 0, s, w);
      glm_quat_rotatev (r, w, p);
      if (!isfinite (p[1]))
        continue;
      lo = MIN (lo, p[1]);
      hi = MAX (hi, p[1]);
    }
  return hi >= lo ? hi - lo : 0;
}

double
odori_gltf_metres_per_unit (const OdoriMotion *motion,
                            OdoriUpAxis        up,
                            gboolean          *guessed)
{
  static const double candidates[] = { 1.0, 0.01, 0.001, 0.0254, 0.0254 / 0.45 };
  double              height, best = 0.0254, best_err = G_MAXDOUBLE;

  g_return_val_if_fail (motion != NULL, 1);

  if (guessed != NULL)
    *guessed = FALSE;
  for (guint s = 0; s < motion->n_segments; s++)
    {
      const OdoriSegment *seg = &motion->segments[s];

      for (guint f = 0; f < seg->n_fields; f++)
        if (seg->fields[f] == ODORI_FIELD_XTRAN && metres_per (seg->units[f]) > 0)
          return metres_per (seg->units[f]);
    }
  if (guessed != NULL)
    *guessed = TRUE;
  if (motion->n_frames == 0)
    return best;
  if (up == ODORI_UP_AUTO)
    up = odori_motion_guess_up (motion);
  height = height_along (motion, up);
  if (!(height > 0))
    return best;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      double err = fabs (log (height * candidates[i] / 1.6));

      if (err < best_err)
        {
          best_err = err;
          best = candidates[i];
        }
    }
  return best;
}

/* The motion as written */

typedef struct
{
  OdoriMotion   *motion; /* oriented +Y up */
  OdoriSkeleton *skeleton;
  guint          n_bones;
  int           *segment;    /* per bone, or -1 */
  gboolean      *translated; /* per bone: has a translation channel */
  guint          n_translated;
  double         metres;
  double         height; /* the figure's height over the whole dance, metres */
  OdoriUpAxis    up;
  gboolean       guessed;
} Scene;

static void
scene_clear (Scene *sc)
{
  g_clear_pointer (&sc->motion, odori_motion_unref);
  g_clear_pointer (&sc->skeleton, odori_skeleton_unref);
  g_clear_pointer (&sc->segment, g_free);
  g_clear_pointer (&sc->translated, g_free);
}

/* Bone B's world transform at FRAME, in metres (non-finite values read as rest). */
static void
global_of (const Scene *sc,
           guint        frame,
           int          b,
           vec3         p,
           versor       q)
{
  OdoriTransform        t_world;
  const OdoriTransform *t;
  int                   s = sc->segment[b];

  if (s < 0)
    {
      if (sc->skeleton->bones[b].parent >= 0)
        global_of (sc, frame, sc->skeleton->bones[b].parent, p, q);
      else
        {
          glm_vec3_zero (p);
          glm_quat_identity (q);
        }
      return;
    }
  t = odori_motion_world (sc->motion, frame, s, &t_world);
  for (int i = 0; i < 3; i++)
    p[i] = isfinite (t->position[i]) ? (float) (t->position[i] * sc->metres) : 0.f;
  glm_vec4_copy ((float *) t->rotation, q);
  if (!isfinite (q[0]) || !isfinite (q[1]) || !isfinite (q[2]) || !isfinite (q[3]) ||
      glm_vec4_norm (q) < 1e-6f)
    glm_quat_identity (q);
  else
    glm_quat_normalize (q);
}

/* Bone B's transform in its parent's frame at FRAME. */
static void
local_of (const Scene *sc,
          guint        frame,
          guint        b,
          vec3         t,
          versor       r)
{
  int    parent = sc->skeleton->bones[b].parent;
  vec3   pb, pp, d;
  versor qb, qp, inv;

  global_of (sc, frame, b, pb, qb);
  if (parent < 0)
    {
      glm_vec3_copy (pb, t);
      glm_vec4_copy (qb, r);
      return;
    }
  global_of (sc, frame, parent, pp, qp);
  glm_quat_conjugate (qp, inv);
  glm_quat_mul (inv, qb, r);
  glm_quat_normalize (r);
  glm_vec3_sub (pb, pp, d);
  glm_quat_rotatev (inv, d, t);
}

static gboolean
scene_init (Scene           *sc,
            OdoriGltfExport *self,
            GError         **error)
{
  OdoriMotion *src = self->motion;
  float        lo = G_MAXFLOAT, hi = -G_MAXFLOAT;
  double       tol;

  memset (sc, 0, sizeof *sc);
  if (src->n_frames == 0 || src->n_segments == 0)
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: there is no motion to write (no frames or no segments)"), self->path);
      return FALSE;
    }
  if (!(src->frame_time > 0) || !isfinite (src->frame_time))
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: cannot write a motion whose frame time is not a positive number"), self->path);
      return FALSE;
    }
  sc->up = self->up != ODORI_UP_AUTO ? self->up : odori_motion_guess_up (src);
  if (sc->up != ODORI_UP_AUTO && sc->up != ODORI_UP_Y)
    {
      sc->motion = odori_motion_copy (src);
      odori_motion_orient_up (sc->motion, sc->up);
    }
  else
    sc->motion = odori_motion_ref (src);
  sc->skeleton = self->skeleton != NULL ? odori_skeleton_ref (self->skeleton)
                                        : odori_skeleton_for_motion (src);
  if (sc->skeleton == NULL || sc->skeleton->n_bones == 0)
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: the motion has no skeleton to write"), self->path);
      return FALSE;
    }
  sc->metres = self->metres > 0 ? self->metres : odori_gltf_metres_per_unit (src, sc->up, &sc->guessed);
  sc->n_bones = sc->skeleton->n_bones;
  sc->segment = g_new (int, sc->n_bones);
  sc->translated = g_new0 (gboolean, sc->n_bones);
  for (guint b = 0; b < sc->n_bones; b++)
    sc->segment[b] = odori_motion_find_segment (sc->motion, sc->skeleton->bones[b].name);

  for (guint f = 0; f < sc->motion->n_frames; f++)
    for (guint b = 0; b < sc->n_bones; b++)
      {
        vec3   p;
        versor q;

        global_of (sc, f, b, p, q);
        lo = MIN (lo, p[1]);
        hi = MAX (hi, p[1]);
      }
  sc->height = MAX (hi - lo, 1e-3f);

  /* Joints whose offset from the parent moves get a translation channel. */
  tol = 1e-5 * sc->height;
  for (guint b = 0; b < sc->n_bones; b++)
    {
      vec3   t0, t;
      versor r;

      if (sc->skeleton->bones[b].parent < 0)
        {
          sc->translated[b] = TRUE;
          sc->n_translated++;
          continue;
        }
      local_of (sc, 0, b, t0, r);
      for (guint f = 1; f < sc->motion->n_frames; f++)
        {
          local_of (sc, f, b, t, r);
          if (glm_vec3_distance (t, t0) > tol)
            {
              sc->translated[b] = TRUE;
              sc->n_translated++;
              break;
            }
        }
    }
  return TRUE;
}

/* JSON */

static void
add_int_array (JsonBuilder  *b,
               const char   *member,
               const gint64 *values,
               guint         n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (b, values[i]);
  json_builder_end_array (b);
}

static void
add_float_array (JsonBuilder *b,
                 const char  *member,
                 const float *values,
                 guint        n)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_double_value (b, values[i]);
  json_builder_end_array (b);
}

/* The binary chunk is a list of views, one per accessor, in the order they are written. */
typedef struct
{
  JsonBuilder *views;
  JsonBuilder *accessors;
  guint        n;
  gsize        offset;
} Layout;

/* Adds a view of COUNT elements of TYPE ("SCALAR", "VEC3"…, N_COMPONENTS of COMPONENT
 * bytes each) and its accessor; returns the accessor's index. MIN and MAX (nullable) are
 * N_COMPONENTS floats. */
static guint
layout_add (Layout      *l,
            guint        count,
            const char  *type,
            guint        n_components,
            int          component_type,
            gsize        component_size,
            int          target,
            const float *min,
            const float *max)
{
  gsize length = (gsize) count * n_components * component_size;

  json_builder_begin_object (l->views);
  json_builder_set_member_name (l->views, "buffer");
  json_builder_add_int_value (l->views, 0);
  json_builder_set_member_name (l->views, "byteOffset");
  json_builder_add_int_value (l->views, l->offset);
  json_builder_set_member_name (l->views, "byteLength");
  json_builder_add_int_value (l->views, length);
  if (target != 0)
    {
      json_builder_set_member_name (l->views, "target");
      json_builder_add_int_value (l->views, target);
    }
  json_builder_end_object (l->views);

  json_builder_begin_object (l->accessors);
  json_builder_set_member_name (l->accessors, "bufferView");
  json_builder_add_int_value (l->accessors, l->n);
  json_builder_set_member_name (l->accessors, "componentType");
  json_builder_add_int_value (l->accessors, component_type);
  json_builder_set_member_name (l->accessors, "count");
  json_builder_add_int_value (l->accessors, count);
  json_builder_set_member_name (l->accessors, "type");
  json_builder_add_string_value (l->accessors, type);
  if (min != NULL)
    add_float_array (l->accessors, "min", min, n_components);
  if (max != NULL)
    add_float_array (l->accessors, "max", max, n_components);
  json_builder_end_object (l->accessors);

  l->offset += (length + 3) & ~(gsize) 3;
  return l->n++;
}

typedef struct
{
  guint    n_vertices;
  guint    n_indices;
  float   *positions;
  float   *normals;
  guint16 *joints;  /* 4 per vertex */
  float   *weights; /* 4 per vertex */
  guint32 *indices;
  float   *ibm; /* 16 per bone */
  float    pos_min[3], pos_max[3];
} Mesh;

static void
mesh_clear (Mesh *m)
{
  g_free (m->positions);
  g_free (m->normals);
  g_free (m->joints);
  g_free (m->weights);
  g_free (m->indices);
  g_free (m->ibm);
}

static void
mesh_build (Mesh        *m,
            const Scene *sc)
{
  g_autoptr(OdoriSkin) skin = odori_skin_new (sc->skeleton, NULL, SKIN_RINGS, SKIN_SIDES);
  const guint16 *bones;
  const guint32 *indices;

  m->n_vertices = odori_skin_get_n_vertices (skin);
  indices = odori_skin_get_indices (skin, &m->n_indices);
  bones = odori_skin_get_vertex_bones (skin);
  m->positions = g_new0 (float, (gsize) MAX (m->n_vertices, 1) * 3);
  m->normals = g_new0 (float, (gsize) MAX (m->n_vertices, 1) * 3);
  m->joints = g_new0 (guint16, (gsize) MAX (m->n_vertices, 1) * 4);
  m->weights = g_new0 (float, (gsize) MAX (m->n_vertices, 1) * 4);
  m->indices = g_memdup2 (indices, (gsize) m->n_indices * sizeof (guint32));
  odori_skin_pose (skin, sc->motion, 0, FALSE, m->positions, m->normals);
  for (int i = 0; i < 3; i++)
    {
      m->pos_min[i] = G_MAXFLOAT;
      m->pos_max[i] = -G_MAXFLOAT;
    }
  for (guint v = 0; v < m->n_vertices; v++)
    {
      float *p = &m->positions[v * 3], *n = &m->normals[v * 3];

      for (int i = 0; i < 3; i++)
        {
          p[i] = isfinite (p[i]) ? (float) (p[i] * sc->metres) : 0.f;
          m->pos_min[i] = MIN (m->pos_min[i], p[i]);
          m->pos_max[i] = MAX (m->pos_max[i], p[i]);
        }
      if (!isfinite (n[0]) || !isfinite (n[1]) || !isfinite (n[2]) || glm_vec3_norm (n) < 1e-6f)
        glm_vec3_copy ((vec3){ 0, 1, 0 }, n);
      glm_vec3_normalize (n);
      m->joints[v * 4] = bones[v] < sc->n_bones ? bones[v] : 0;
      m->weights[v * 4] = 1.f;
    }
  if (m->n_vertices == 0)
    for (int i = 0; i < 3; i++)
      m->pos_min[i] = m->pos_max[i] = 0.f;

  m->ibm = g_new0 (float, (gsize) sc->n_bones * 16);
  for (guint b = 0; b < sc->n_bones; b++)
    {
      vec3   p, t;
      versor q, inv;
      mat4   m4;

      global_of (sc, 0, b, p, q);
      glm_quat_conjugate (q, inv);
      glm_quat_mat4 (inv, m4);
      glm_quat_rotatev (inv, p, t);
      for (int i = 0; i < 3; i++)
        {
          m4[3][i] = -t[i];
          m4[i][3] = 0.f;
        }
      m4[3][3] = 1.f;
      memcpy (&m->ibm[b * 16], m4, sizeof m4);
    }
}

static void
begin_member_object (JsonBuilder *b,
                     const char  *member)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
}

static void
add_string_member (JsonBuilder *b,
                   const char  *member,
                   const char  *value)
{
  json_builder_set_member_name (b, member);
  json_builder_add_string_value (b, value);
}

static void
add_int_member (JsonBuilder *b,
                const char  *member,
                gint64       value)
{
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, value);
}

static void
add_asset (JsonBuilder *b,
           const Scene *sc)
{
  begin_member_object (b, "asset");
  add_string_member (b, "version", "2.0");
  add_string_member (b, "generator", "Odori " PACKAGE_VERSION);
  begin_member_object (b, "extras");
  begin_member_object (b, "odori");
  add_string_member (b, "bulges",
                     "left out: Odori's muscle bulges move skin vertices by the bend of a "
                     "joint, which glTF's skinning cannot express; the mesh is the skin "
                     "with round tubes");
  add_string_member (b, "restPose", "the dance's first frame (the mesh is bound there)");
  add_string_member (b, "skinning", "rigid: each vertex follows the one bone of its tube");
  json_builder_set_member_name (b, "metresPerUnit");
  json_builder_add_double_value (b, sc->metres);
  json_builder_set_member_name (b, "unitGuessed");
  json_builder_add_boolean_value (b, sc->guessed);
  add_string_member (b, "sourceUpAxis", odori_up_axis_to_string (sc->up == ODORI_UP_AUTO ? ODORI_UP_Y : sc->up));
  json_builder_set_member_name (b, "frameTime");
  json_builder_add_double_value (b, sc->motion->frame_time);
  add_int_member (b, "frames", sc->motion->n_frames);
  add_string_member (b, "skeleton", odori_skeleton_scheme_to_string (sc->skeleton->scheme));
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static void
add_nodes (JsonBuilder *b,
           const Scene *sc)
{
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint n = 0; n < sc->n_bones; n++)
    {
      vec3   t;
      versor r;
      g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (gint64));

      local_of (sc, 0, n, t, r);
      json_builder_begin_object (b);
      add_string_member (b, "name", sc->skeleton->bones[n].name ? sc->skeleton->bones[n].name : "");
      for (guint c = 0; c < sc->n_bones; c++)
        if (sc->skeleton->bones[c].parent == (int) n)
          {
            gint64 v = c;

            g_array_append_val (children, v);
          }
      if (children->len > 0)
        add_int_array (b, "children", (gint64 *) children->data, children->len);
      add_float_array (b, "translation", t, 3);
      add_float_array (b, "rotation", r, 4);
      json_builder_end_object (b);
    }
  /* the skinned mesh: a root without a transform, as glTF asks */
  json_builder_begin_object (b);
  add_string_member (b, "name", "Odori skin");
  add_int_member (b, "mesh", 0);
  add_int_member (b, "skin", 0);
  json_builder_end_object (b);
  json_builder_end_array (b);
}

/* The whole JSON chunk, its binary views and accessors in the order write_glb () writes
 * them; *BIN_LENGTH gets the binary chunk's length. */
static char *
build_json (const Scene *sc,
            const Mesh  *m,
            gsize       *bin_length,
            gsize       *json_length)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonBuilder) views = json_builder_new ();
  g_autoptr(JsonBuilder) accessors = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) views_node = NULL;
  g_autoptr(JsonNode) accessors_node = NULL;
  Layout            l = { views, accessors, 0, 0 };
  guint             n_frames = sc->motion->n_frames;
  guint             a_pos, a_nrm, a_jnt, a_wgt, a_idx, a_ibm, a_time, root_count = 0;
  float             t_min = 0.f, t_max = (float) ((n_frames - 1) * sc->motion->frame_time);
  g_autofree guint *a_rot = g_new (guint, sc->n_bones);
  g_autofree guint *a_tra = g_new (guint, sc->n_bones);
  guint             sampler = 0;

  json_builder_begin_array (views);
  json_builder_begin_array (accessors);
  a_pos = layout_add (&l, m->n_vertices, "VEC3", 3, GL_FLOAT, 4, GL_ARRAY_BUFFER, m->pos_min, m->pos_max);
  a_nrm = layout_add (&l, m->n_vertices, "VEC3", 3, GL_FLOAT, 4, GL_ARRAY_BUFFER, NULL, NULL);
  a_jnt = layout_add (&l, m->n_vertices, "VEC4", 4, GL_UNSIGNED_SHORT, 2, GL_ARRAY_BUFFER, NULL, NULL);
  a_wgt = layout_add (&l, m->n_vertices, "VEC4", 4, GL_FLOAT, 4, GL_ARRAY_BUFFER, NULL, NULL);
  a_idx = layout_add (&l, m->n_indices, "SCALAR", 1, GL_UNSIGNED_INT, 4, GL_ELEMENT_ARRAY_BUFFER, NULL, NULL);
  a_ibm = layout_add (&l, sc->n_bones, "MAT4", 16, GL_FLOAT, 4, 0, NULL, NULL);
  a_time = layout_add (&l, n_frames, "SCALAR", 1, GL_FLOAT, 4, 0, &t_min, &t_max);
  for (guint n = 0; n < sc->n_bones; n++)
    {
      a_rot[n] = layout_add (&l, n_frames, "VEC4", 4, GL_FLOAT, 4, 0, NULL, NULL);
      if (sc->translated[n])
        a_tra[n] = layout_add (&l, n_frames, "VEC3", 3, GL_FLOAT, 4, 0, NULL, NULL);
    }
  json_builder_end_array (views);
  json_builder_end_array (accessors);
  views_node = json_builder_get_root (views);
  accessors_node = json_builder_get_root (accessors);
  *bin_length = l.offset;

  json_builder_begin_object (b);
  add_asset (b, sc);
  add_int_member (b, "scene", 0);
  json_builder_set_member_name (b, "scenes");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_string_member (b, "name", "Odori");
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint n = 0; n < sc->n_bones; n++)
    if (sc->skeleton->bones[n].parent < 0)
      {
        json_builder_add_int_value (b, n);
        root_count++;
      }
  json_builder_add_int_value (b, sc->n_bones);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  add_nodes (b, sc);

  json_builder_set_member_name (b, "materials");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_string_member (b, "name", "Odori skin");
  begin_member_object (b, "pbrMetallicRoughness");
  add_float_array (b, "baseColorFactor", (const float[]){ 0.80f, 0.62f, 0.48f, 1.f }, 4);
  json_builder_set_member_name (b, "metallicFactor");
  json_builder_add_double_value (b, 0);
  json_builder_set_member_name (b, "roughnessFactor");
  json_builder_add_double_value (b, 0.75);
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "meshes");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_string_member (b, "name", "Odori skin");
  json_builder_set_member_name (b, "primitives");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  begin_member_object (b, "attributes");
  add_int_member (b, "POSITION", a_pos);
  add_int_member (b, "NORMAL", a_nrm);
  add_int_member (b, "JOINTS_0", a_jnt);
  add_int_member (b, "WEIGHTS_0", a_wgt);
  json_builder_end_object (b);
  add_int_member (b, "indices", a_idx);
  add_int_member (b, "material", 0);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "skins");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_string_member (b, "name", "Odori skeleton");
  add_int_member (b, "inverseBindMatrices", a_ibm);
  if (root_count == 1)
    for (guint n = 0; n < sc->n_bones; n++)
      if (sc->skeleton->bones[n].parent < 0)
        add_int_member (b, "skeleton", n);
  json_builder_set_member_name (b, "joints");
  json_builder_begin_array (b);
  for (guint n = 0; n < sc->n_bones; n++)
    json_builder_add_int_value (b, n);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "animations");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_string_member (b, "name", "dance");
  json_builder_set_member_name (b, "channels");
  json_builder_begin_array (b);
  for (guint n = 0; n < sc->n_bones; n++)
    for (int k = 0; k < (sc->translated[n] ? 2 : 1); k++)
      {
        json_builder_begin_object (b);
        add_int_member (b, "sampler", sampler++);
        begin_member_object (b, "target");
        add_int_member (b, "node", n);
        add_string_member (b, "path", k == 0 ? "rotation" : "translation");
        json_builder_end_object (b);
        json_builder_end_object (b);
      }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "samplers");
  json_builder_begin_array (b);
  for (guint n = 0; n < sc->n_bones; n++)
    for (int k = 0; k < (sc->translated[n] ? 2 : 1); k++)
      {
        json_builder_begin_object (b);
        add_int_member (b, "input", a_time);
        add_string_member (b, "interpolation", "LINEAR");
        add_int_member (b, "output", k == 0 ? a_rot[n] : a_tra[n]);
        json_builder_end_object (b);
      }
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "buffers");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  add_int_member (b, "byteLength", *bin_length);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "bufferViews");
  json_builder_add_value (b, g_steal_pointer (&views_node));
  json_builder_set_member_name (b, "accessors");
  json_builder_add_value (b, g_steal_pointer (&accessors_node));
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, json_length);
}

/* Binary */

static void
put_u32 (OdoriOutput *out,
         guint32      v)
{
  guint32 le = GUINT32_TO_LE (v);

  odori_output_write (out, (const char *) &le, 4);
}

/* N 32-bit values (floats or integers) in little-endian order. */
static void
put_words (OdoriOutput *out,
           const void  *data,
           gsize        n)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  odori_output_write (out, data, n * 4);
#else
  for (gsize i = 0; i < n; i++)
    {
      guint32 w;

      memcpy (&w, (const char *) data + i * 4, 4);
      put_u32 (out, w);
    }
#endif
}

static void
put_halves (OdoriOutput   *out,
            const guint16 *data,
            gsize          n)
{
  for (gsize i = 0; i < n; i++)
    {
      guint16 le = GUINT16_TO_LE (data[i]);

      odori_output_write (out, (const char *) &le, 2);
    }
}

static void
pad (OdoriOutput *out,
     gsize        written,
     char         with)
{
  static const char spaces[4] = { ' ', ' ', ' ', ' ' }, zeros[4] = { 0 };

  if (written % 4 != 0)
    odori_output_write (out, with == ' ' ? spaces : zeros, 4 - written % 4);
}

static gboolean
cancelled (GCancellable *cancellable,
           OdoriOutput  *out,
           GError      **error)
{
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  odori_output_abort (out);
  return TRUE;
}

static gboolean
write_glb (OdoriGltfExport *self,
           const Scene     *sc,
           const Mesh      *m,
           GCancellable    *cancellable,
           GError         **error)
{
  g_autoptr(OdoriOutput) out = NULL;
  g_autofree char  *json = NULL;
  g_autofree float *buf = NULL;
  gsize             json_length, json_padded, bin_length, total;
  guint             n_frames = sc->motion->n_frames;

  json = build_json (sc, m, &bin_length, &json_length);
  json_padded = (json_length + 3) & ~(gsize) 3;
  total = 12 + 8 + json_padded + 8 + bin_length;
  if (total > G_MAXUINT32)
    {
      g_set_error (error, ODORI_SHARE_ERROR, ODORI_SHARE_ERROR_FAILED,
                   _ ("%s: the dance is too long for one glTF binary file (over 4 GiB)"), self->path);
      return FALSE;
    }
  out = odori_output_new (self->path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  put_u32 (out, GLB_MAGIC);
  put_u32 (out, 2);
  put_u32 (out, (guint32) total);
  put_u32 (out, (guint32) json_padded);
  put_u32 (out, GLB_CHUNK_JSON);
  odori_output_write (out, json, json_length);
  pad (out, json_length, ' ');
  put_u32 (out, (guint32) bin_length);
  put_u32 (out, GLB_CHUNK_BIN);

  /* in build_json ()'s layout order; every view's length is a multiple of 4 */
  put_words (out, m->positions, (gsize) m->n_vertices * 3);
  put_words (out, m->normals, (gsize) m->n_vertices * 3);
  put_halves (out, m->joints, (gsize) m->n_vertices * 4);
  put_words (out, m->weights, (gsize) m->n_vertices * 4);
  put_words (out, m->indices, m->n_indices);
  put_words (out, m->ibm, (gsize) sc->n_bones * 16);
  set_fraction (self, 0.1);

  buf = g_new (float, (gsize) n_frames * 4);
  for (guint f = 0; f < n_frames; f++)
    buf[f] = (float) (f * sc->motion->frame_time);
  put_words (out, buf, n_frames);
  for (guint n = 0; n < sc->n_bones; n++)
    {
      versor prev = { 0, 0, 0, 1 };

      if (cancelled (cancellable, out, error))
        return FALSE;
      for (guint f = 0; f < n_frames; f++)
        {
          vec3   t;
          float *r = &buf[(gsize) f * 4];

          local_of (sc, f, n, t, r);
          if (glm_vec4_dot (r, prev) < 0)
            glm_vec4_negate (r);
          glm_vec4_copy (r, prev);
        }
      put_words (out, buf, (gsize) n_frames * 4);
      if (sc->translated[n])
        {
          for (guint f = 0; f < n_frames; f++)
            {
              versor r;

              local_of (sc, f, n, &buf[(gsize) f * 3], r);
            }
          put_words (out, buf, (gsize) n_frames * 3);
        }
      set_fraction (self, 0.1 + 0.88 * (n + 1.0) / sc->n_bones);
    }
  if (cancelled (cancellable, out, error))
    return FALSE;
  return odori_output_commit (out, error);
}

gboolean
odori_gltf_export_run (OdoriGltfExport *self,
                       GCancellable    *cancellable,
                       GError         **error)
{
  Scene    sc;
  Mesh     m = { 0 };
  gboolean ok;

  g_return_val_if_fail (ODORI_IS_GLTF_EXPORT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  set_fraction (self, 0);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!scene_init (&sc, self, error))
    {
      scene_clear (&sc);
      return FALSE;
    }
  mesh_build (&m, &sc);
  ok = write_glb (self, &sc, &m, cancellable, error);
  mesh_clear (&m);
  scene_clear (&sc);
  if (ok)
    set_fraction (self, 1);
  return ok;
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  GError *error = NULL;

  if (odori_gltf_export_run (source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
odori_gltf_export_run_async (OdoriGltfExport    *self,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ODORI_IS_GLTF_EXPORT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, odori_gltf_export_run_async);
  /* As OdoriExport: report what the thread did, after it aborted its output. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, run_thread);
}

gboolean
odori_gltf_export_run_finish (OdoriGltfExport *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (ODORI_IS_GLTF_EXPORT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
