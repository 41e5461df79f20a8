/* odori-bvh-writer.c: Biovision Hierarchy writer (FORMATS.md §8)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - The layout is what Blender's importer and every other reader expect: HIERARCHY,
 *   ROOT/JOINT blocks indented with tabs, OFFSET, CHANNELS, End Site, then MOTION,
 *   "Frames:", "Frame Time:" and one line of channel values per frame; LF line ends,
 *   UTF-8, values with 6 decimals. Joints are written depth first.
 * - A motion with its own hierarchy keeps it: offsets, channel lists and orders and End
 *   Sites as read. The channel values are the inverse of the reader's conversion: the
 *   local rotation R_parent⁻¹ · R_global split into the joint's own rotation order, and
 *   for position channels the local translation (the root's global position, or
 *   R_parent⁻¹ · (p − p_parent) below it).
 * - A motion without one (BVA) takes the skeleton's tree. Offsets are the first frame's
 *   child positions in the parent's frame, R_parent(0)⁻¹ · (p_child(0) − p_parent(0)),
 *   so that a rigid motion reads back to the same global transforms; the root's OFFSET
 *   is 0 (its position channels carry the translation). The root gets
 *   Xposition Yposition Zposition Zrotation Xrotation Yrotation, other joints
 *   Zrotation Xrotation Yrotation (BVA's own order), or the root's six channels when
 *   they get position channels (OdoriBvhPositions): ROOT gives them to the roots only,
 *   ALL to every joint, AUTO to a joint whose offset in its parent's frame,
 *   R_parent⁻¹ · (p_child − p_parent), differs at some frame from the first frame's by
 *   more than VARIATION_UNITS resolution units in a coordinate. A unit is half the last
 *   printed decimal (0.5e-6) plus the float spacing of the numbers the offset comes
 *   from, FLT_EPSILON · (the largest |coordinate| of the two segments' positions + the
 *   largest of the offset's): below it an offset's change is not even representable.
 *   Offsets of rigid skeletons that went through a BVA (float rounding, BVA's 6
 *   decimals, its angles snapped within 2e-5°) vary by up to 3.1 units (the corpus BVH
 *   files on their own trees; 2.9 in the sample library), so 8 leaves them without; a
 *   prop, a marker or a bone stretching between shows moves by thousands of units. A
 *   joint with position channels keeps its first frame's offset as OFFSET (readers
 *   replace it with the channels; Blender draws the rest pose with it). Segments of the
 *   motion that have no bone in the skeleton are not written (BVH cannot hold a joint
 *   outside the tree); a bone whose segment the motion lacks is skipped and its children
 *   hang from its nearest ancestor that is written, or become ROOTs of their own.
 * - A motion with a hierarchy keeps its channel lists in AUTO and ROOT; in ALL a joint
 *   lacking position channels gets Xposition Yposition Zposition before its others.
 * - Position channels carry the translation from where the reader will have put the
 *   parent (its global position rebuilt from the values as printed) rather than from the
 *   parent's true position, so that rounding to the printed decimals does not add up
 *   down the tree: a joint with position channels reads back within the printing
 *   precision of its own values. Rotations are relative to the parent's true rotation
 *   (the printed angles' rounding is below the float resolution of a quaternion).
 * - Every leaf gets an End Site (Blender sizes the last bone from it): a skeleton leaf
 *   along the direction from its parent to it, as long as its bone; a hierarchy leaf that
 *   had none, half its OFFSET.
 * - Euler angles are taken, frame after frame, nearest the previous frame's (no ±180
 *   flips), so curves stay continuous in other tools.
 * - Joint names have "{", "}" and line breaks replaced by "_" (a name is the rest of its
 *   line for readers); an empty name becomes "joint<N>".
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "odori-bvh.h"
#include "odori-skeleton.h"

#define VALUE_DECIMALS 6
/* Half the last printed decimal. */
#define PRINT_RESOLUTION (0.5e-6)
/* AUTO: an offset varies when it moves by more than this many resolution units. */
#define VARIATION_UNITS 8.0

typedef struct
{
  char        *name;          /* as written */
  guint        segment;       /* of the motion */
  int          parent;        /* index into the joints, -1 for a ROOT */
  guint        depth;
  float        offset[3];
  float        offset_read[3]; /* the OFFSET as a reader gets it from the printed text */
  guint        n_channels;
  OdoriChannel channels[6];
  char         order[4];      /* the rotation channels' axes, completed to three */
  gint8        angle_of[6];   /* per channel: index into the Euler triple, -1 none */
  gboolean     has_rotation;
  gboolean     has_position;  /* some position channel */
  gboolean     has_end_site;
  float        end_site[3];
} WriterJoint;

static const char *channel_names[] = {
  [ODORI_CHANNEL_XPOSITION] = "Xposition",
  [ODORI_CHANNEL_YPOSITION] = "Yposition",
  [ODORI_CHANNEL_ZPOSITION] = "Zposition",
  [ODORI_CHANNEL_XROTATION] = "Xrotation",
  [ODORI_CHANNEL_YROTATION] = "Yrotation",
  [ODORI_CHANNEL_ZROTATION] = "Zrotation",
};

static void
writer_joint_clear (gpointer data)
{
  WriterJoint *joint = data;

  g_free (joint->name);
}

static char *
sanitize_name (const char *name,
               guint       index)
{
  char *copy;

  if (name == NULL || name[0] == '\0')
    return g_strdup_printf ("joint%u", index);
  copy = g_strdup (name);
  for (char *p = copy; *p != '\0'; p++)
    if (*p == '{' || *p == '}' || *p == '\n' || *p == '\r')
      *p = '_';
  return copy;
}

/* Fills ORDER and ANGLE_OF from the channel list. A repeated rotation axis cannot be
 * expressed by one Euler triple: the repeat is written as 0. */
static void
joint_set_channels (WriterJoint        *joint,
                    const OdoriChannel *channels,
                    guint               n_channels)
{
  static const char axis_names[] = "XYZ";
  guint n_axes = 0;

  joint->n_channels = MIN (n_channels, G_N_ELEMENTS (joint->channels));
  memcpy (joint->channels, channels, joint->n_channels * sizeof (OdoriChannel));
  joint->has_position = FALSE;
  for (guint c = 0; c < joint->n_channels; c++)
    {
      OdoriChannel ch = joint->channels[c];
      char axis;

      joint->angle_of[c] = -1;
      if (ch <= ODORI_CHANNEL_ZPOSITION)
        joint->has_position = TRUE;
      if (ch < ODORI_CHANNEL_XROTATION || ch > ODORI_CHANNEL_ZROTATION)
        continue;
      axis = axis_names[ch - ODORI_CHANNEL_XROTATION];
      if (memchr (joint->order, axis, n_axes) != NULL)
        continue;
      joint->angle_of[c] = n_axes;
      joint->order[n_axes++] = axis;
    }
  joint->has_rotation = n_axes > 0;
  for (guint a = 0; a < 3; a++)
    if (memchr (joint->order, axis_names[a], n_axes) == NULL)
      joint->order[n_axes++] = axis_names[a];
  joint->order[3] = '\0';
}

/* TRUE if every parent is in range and no chain of parents loops. */
static gboolean
is_forest (const int *parent,
           guint      n)
{
  for (guint i = 0; i < n; i++)
    {
      int v = i;
      guint steps = 0;

      while (v >= 0)
        {
          if (v >= (int) n || parent[v] < -1 || ++steps > n)
            return FALSE;
          v = parent[v];
        }
    }
  return TRUE;
}

/* Builds the joints in depth-first order from PARENT over the motion's segments
 * (-2: not written); returns them with JOINT_OF_SEGMENT filled (-1: not written). */
static GArray *
joints_in_preorder (const OdoriMotion *motion,
                    const int         *segment_parent,
                    int               *joint_of_segment)
{
  guint n = motion->n_segments, n_kept = 0;
  g_autofree int *compact = g_new (int, MAX (n, 1));      /* segment -> kept index */
  g_autofree guint *segment_of = g_new (guint, MAX (n, 1));
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  GArray *joints = g_array_sized_new (FALSE, TRUE, sizeof (WriterJoint), n);

  g_array_set_clear_func (joints, writer_joint_clear);
  for (guint s = 0; s < n; s++)
    {
      compact[s] = segment_parent[s] == -2 ? -1 : (int) n_kept;
      if (compact[s] >= 0)
        segment_of[n_kept++] = s;
    }
  for (guint k = 0; k < n_kept; k++)
    {
      int p = segment_parent[segment_of[k]];

      parent[k] = p >= 0 ? compact[p] : -1;
    }
  if (odori_forest_preorder (parent, n_kept, order) != n_kept)
    g_assert_not_reached ();

  for (guint s = 0; s < n; s++)
    joint_of_segment[s] = -1;
  for (guint j = 0; j < n_kept; j++)
    {
      guint s = segment_of[order[j]];
      int p = segment_parent[s];
      WriterJoint joint = { 0 };

      joint.segment = s;
      joint.name = sanitize_name (motion->segments[s].name, j);
      joint.parent = p >= 0 ? joint_of_segment[p] : -1;
      joint.depth = joint.parent >= 0 ? g_array_index (joints, WriterJoint, joint.parent).depth + 1
                                      : 0;
      joint_of_segment[s] = j;
      g_array_append_val (joints, joint);
    }
  return joints;
}

static gboolean
joint_is_leaf (GArray *joints,
               guint   j)
{
  /* Depth first: a joint's children, if any, follow it directly. */
  return j + 1 >= joints->len || g_array_index (joints, WriterJoint, j + 1).parent != (int) j;
}

/* ALL on a hierarchy: Xposition Yposition Zposition, then the joint's other channels
 * (a joint has at most 3 distinct rotation axes; a repeated one, written as 0, is what
 * the limit of 6 may drop). */
static void
joint_add_positions (WriterJoint *joint)
{
  OdoriChannel channels[6] = {
    ODORI_CHANNEL_XPOSITION, ODORI_CHANNEL_YPOSITION, ODORI_CHANNEL_ZPOSITION,
  };
  guint n = 3;
  gboolean has[3] = { FALSE, FALSE, FALSE };

  for (guint c = 0; c < joint->n_channels; c++)
    if (joint->channels[c] <= ODORI_CHANNEL_ZPOSITION)
      has[joint->channels[c] - ODORI_CHANNEL_XPOSITION] = TRUE;
  if (has[0] && has[1] && has[2])
    return;
  for (guint c = 0; c < joint->n_channels && n < G_N_ELEMENTS (channels); c++)
    if (joint->channels[c] > ODORI_CHANNEL_ZPOSITION)
      channels[n++] = joint->channels[c];
  joint_set_channels (joint, channels, n);
}

static GArray *
joints_from_hierarchy (const OdoriMotion *motion,
                       OdoriBvhPositions  positions)
{
  guint n = motion->n_segments;
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree int *joint_of_segment = g_new (int, MAX (n, 1));
  GArray *joints;

  for (guint s = 0; s < n; s++)
    parent[s] = motion->segments[s].parent;
  joints = joints_in_preorder (motion, parent, joint_of_segment);
  for (guint j = 0; j < joints->len; j++)
    {
      WriterJoint *joint = &g_array_index (joints, WriterJoint, j);
      const OdoriSegment *seg = &motion->segments[joint->segment];

      memcpy (joint->offset, seg->offset, sizeof joint->offset);
      joint_set_channels (joint, seg->channels, seg->n_channels);
      if (positions == ODORI_BVH_POSITIONS_ALL)
        joint_add_positions (joint);
      joint->has_end_site = seg->has_end_site;
      memcpy (joint->end_site, seg->end_site, sizeof joint->end_site);
      if (!joint->has_end_site && joint_is_leaf (joints, j))
        {
          joint->has_end_site = TRUE;
          glm_vec3_scale (joint->offset, 0.5f, joint->end_site);
        }
    }
  return joints;
}

/* For each segment, the segment of the nearest ancestor bone the motion has (-1: none, a
 * root), or -2 if the segment has no bone. */
static void
skeleton_segment_parents (const OdoriMotion   *motion,
                          const OdoriSkeleton *skeleton,
                          int                 *segment_of_bone,
                          int                 *bone_of_segment,
                          int                 *parent)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint s = motion->n_segments; s-- > 0;)
    {
      bone_of_segment[s] = -1;
      parent[s] = -2;
      if (motion->segments[s].name != NULL)
        g_hash_table_insert (by_name, motion->segments[s].name, GINT_TO_POINTER (s + 1));
    }
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      const char *name = skeleton->bones[b].name;
      int s = name != NULL ? GPOINTER_TO_INT (g_hash_table_lookup (by_name, name)) - 1 : -1;

      /* Two bones naming one segment: the first wins. */
      if (s >= 0 && bone_of_segment[s] >= 0)
        s = -1;
      segment_of_bone[b] = s;
      if (s >= 0)
        bone_of_segment[s] = b;
    }
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      int s = segment_of_bone[b], a = skeleton->bones[b].parent;
      guint steps = 0;

      if (s < 0)
        continue;
      /* Bounded walk: a hand-edited skeleton with a loop must not hang us. */
      while (a >= 0 && a < (int) skeleton->n_bones && segment_of_bone[a] < 0 &&
             ++steps <= skeleton->n_bones)
        a = skeleton->bones[a].parent;
      parent[s] = (a >= 0 && a < (int) skeleton->n_bones && steps <= skeleton->n_bones)
                  ? segment_of_bone[a] : -1;
    }
  /* A loop among written bones makes them roots rather than a cycle. */
  for (guint s = 0; s < motion->n_segments; s++)
    {
      int v = parent[s];
      guint steps = 0;

      while (v >= 0 && ++steps <= motion->n_segments)
        v = parent[v];
      if (v >= 0)
        parent[s] = -1;
    }
}

static void
frame0_transform (const OdoriMotion *motion,
                  guint              segment,
                  vec3               p,
                  versor             q)
{
  if (motion->n_frames == 0)
    {
      glm_vec3_zero (p);
      glm_quat_identity (q);
      return;
    }
  odori_motion_get_world_position (motion, 0, segment, p);
  glm_quat_copy (odori_motion_get (motion, 0, segment)->rotation, q);
  glm_quat_normalize (q);
}

/* V (world) expressed in the frame of rotation Q. */
static void
to_local (versor q,
          vec3   v,
          vec3   dest)
{
  versor inv;

  glm_quat_conjugate (q, inv);
  glm_quat_rotatev (inv, v, dest);
}

/* SEGMENT's position at FRAME in the frame of PARENT_SEGMENT, as the first frame's
 * offset is computed. */
static void
frame_offset (const OdoriMotion *motion,
              guint              frame,
              guint              segment,
              guint              parent_segment,
              vec3               offset)
{
  OdoriTransform        xf_world;
  const OdoriTransform *xf = odori_motion_world (motion, frame, segment, &xf_world);
  OdoriTransform        pxf_world;
  const OdoriTransform *pxf = odori_motion_world (motion, frame, parent_segment, &pxf_world);
  versor qp;
  vec3 d;

  glm_quat_copy ((float *) pxf->rotation, qp);
  glm_quat_normalize (qp);
  glm_vec3_sub ((float *) xf->position, (float *) pxf->position, d);
  to_local (qp, d, offset);
}

/* AUTO: TRUE if the joint's offset in its parent's frame moves, over the motion, by more
 * than VARIATION_UNITS resolution units from the first frame's (JOINT->offset) in some
 * coordinate. A unit is PRINT_RESOLUTION plus the float spacing of the numbers the
 * offset is computed from: FLT_EPSILON times the largest |coordinate| of the two
 * segments' positions plus the largest of the offset's. */
static gboolean
offset_varies (const OdoriMotion *motion,
               const WriterJoint *joint,
               const WriterJoint *parent)
{
  double deviation = 0, magnitude = 0, length = 0, unit;

  for (guint f = 0; f < motion->n_frames; f++)
    {
      float p[3], pp[3];
      vec3 offset;

      odori_motion_get_world_position (motion, f, joint->segment, p);
      odori_motion_get_world_position (motion, f, parent->segment, pp);

      frame_offset (motion, f, joint->segment, parent->segment, offset);
      for (int i = 0; i < 3; i++)
        {
          double e = fabs ((double) offset[i] - joint->offset[i]);

          /* A non-finite value cannot be rebuilt from a constant offset either. */
          if (!isfinite (e) || !isfinite (p[i]) || !isfinite (pp[i]))
            return TRUE;
          deviation = MAX (deviation, e);
          magnitude = MAX (magnitude, MAX (fabsf (p[i]), fabsf (pp[i])));
          length = MAX (length, fabsf (offset[i]));
        }
    }
  for (int i = 0; i < 3; i++)
    length = MAX (length, fabsf (joint->offset[i]));
  unit = PRINT_RESOLUTION + FLT_EPSILON * (magnitude + length);
  return deviation > VARIATION_UNITS * unit;
}

static void
skeleton_joint_geometry (const OdoriMotion *motion,
                         GArray            *joints,
                         guint              j,
                         float              bone_length,
                         OdoriBvhPositions  positions)
{
  static const OdoriChannel root_channels[] = {
    ODORI_CHANNEL_XPOSITION, ODORI_CHANNEL_YPOSITION, ODORI_CHANNEL_ZPOSITION,
    ODORI_CHANNEL_ZROTATION, ODORI_CHANNEL_XROTATION, ODORI_CHANNEL_YROTATION,
  };
  WriterJoint *joint = &g_array_index (joints, WriterJoint, j);
  vec3 p, pp, d = { 0, 0, 0 };
  versor q, qp;

  frame0_transform (motion, joint->segment, p, q);
  if (joint->parent >= 0)
    {
      const WriterJoint *parent = &g_array_index (joints, WriterJoint, joint->parent);
      gboolean moves;

      frame0_transform (motion, parent->segment, pp, qp);
      glm_vec3_sub (p, pp, d);
      to_local (qp, d, joint->offset);
      switch (positions)
        {
        case ODORI_BVH_POSITIONS_ROOT:
          moves = FALSE;
          break;
        case ODORI_BVH_POSITIONS_ALL:
          moves = TRUE;
          break;
        case ODORI_BVH_POSITIONS_AUTO:
        default:
          moves = offset_varies (motion, joint, parent);
          break;
        }
      if (moves)
        joint_set_channels (joint, root_channels, 6);
      else
        joint_set_channels (joint, root_channels + 3, 3);
    }
  else
    joint_set_channels (joint, root_channels, 6);

  if (!joint_is_leaf (joints, j))
    return;
  joint->has_end_site = TRUE;
  if (glm_vec3_norm (d) > 0 && isfinite (glm_vec3_norm (d)))
    {
      vec3 local;

      to_local (q, d, local);
      glm_vec3_normalize (local);
      glm_vec3_scale (local, bone_length, joint->end_site);
    }
  else
    glm_vec3_copy ((vec3) { 0, bone_length, 0 }, joint->end_site);
}

static GArray *
joints_from_skeleton (const OdoriMotion   *motion,
                      const OdoriSkeleton *skeleton,
                      OdoriBvhPositions    positions)
{
  guint n = motion->n_segments;
  g_autofree int *segment_of_bone = g_new (int, MAX (skeleton->n_bones, 1));
  g_autofree int *bone_of_segment = g_new (int, MAX (n, 1));
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree int *joint_of_segment = g_new (int, MAX (n, 1));
  GArray *joints;

  skeleton_segment_parents (motion, skeleton, segment_of_bone, bone_of_segment, parent);
  joints = joints_in_preorder (motion, parent, joint_of_segment);
  for (guint j = 0; j < joints->len; j++)
    {
      guint s = g_array_index (joints, WriterJoint, j).segment;

      skeleton_joint_geometry (motion, joints, j, skeleton->bones[bone_of_segment[s]].length,
                               positions);
    }
  return joints;
}

/* Writing */

static void
write_indent (OdoriOutput *out,
              guint        depth)
{
  for (guint i = 0; i < depth; i++)
    odori_output_char (out, '\t');
}

static void
write_vec3 (OdoriOutput *out,
            const float  v[3])
{
  for (int i = 0; i < 3; i++)
    {
      odori_output_char (out, ' ');
      odori_output_fixed (out, v[i], VALUE_DECIMALS);
    }
  odori_output_char (out, '\n');
}

static void
open_joint (OdoriOutput       *out,
            const WriterJoint *joint)
{
  write_indent (out, joint->depth);
  odori_output_text (out, joint->parent < 0 ? "ROOT " : "JOINT ");
  odori_output_text (out, joint->name);
  odori_output_char (out, '\n');
  write_indent (out, joint->depth);
  odori_output_text (out, "{\n");
  write_indent (out, joint->depth + 1);
  odori_output_text (out, "OFFSET");
  write_vec3 (out, joint->offset);
  write_indent (out, joint->depth + 1);
  odori_output_printf (out, "CHANNELS %u", joint->n_channels);
  for (guint c = 0; c < joint->n_channels; c++)
    {
      odori_output_char (out, ' ');
      odori_output_text (out, channel_names[joint->channels[c]]);
    }
  odori_output_char (out, '\n');
}

static void
close_joint (OdoriOutput       *out,
             const WriterJoint *joint)
{
  if (joint->has_end_site)
    {
      write_indent (out, joint->depth + 1);
      odori_output_text (out, "End Site\n");
      write_indent (out, joint->depth + 1);
      odori_output_text (out, "{\n");
      write_indent (out, joint->depth + 2);
      odori_output_text (out, "OFFSET");
      write_vec3 (out, joint->end_site);
      write_indent (out, joint->depth + 1);
      odori_output_text (out, "}\n");
    }
  write_indent (out, joint->depth);
  odori_output_text (out, "}\n");
}

static void
write_hierarchy (OdoriOutput *out,
                 GArray      *joints)
{
  g_autofree guint *open = g_new (guint, MAX (joints->len, 1));
  guint top = 0;

  odori_output_text (out, "HIERARCHY\n");
  for (guint j = 0; j < joints->len; j++)
    {
      const WriterJoint *joint = &g_array_index (joints, WriterJoint, j);

      /* Depth first: the open joints are the path to the previous one. */
      while (top > joint->depth)
        close_joint (out, &g_array_index (joints, WriterJoint, open[--top]));
      open_joint (out, joint);
      open[top++] = j;
    }
  while (top > 0)
    close_joint (out, &g_array_index (joints, WriterJoint, open[--top]));
}

/* X as a reader gets it back from its text with VALUE_DECIMALS decimals (the rounding
 * of odori_format_fixed). */
static float
printed (double x)
{
  double scale = 1.0;

  for (int i = 0; i < VALUE_DECIMALS; i++)
    scale *= 10;
  if (!isfinite (x) || fabs (x) * scale >= 9.0e18)
    return (float) x;
  return (float) ((double) llround (x * scale) / scale);
}

/* The joint's local rotation at FRAME, and its local translation from where the reader
 * puts the parent, PARENT_READ (the reader's conversion undone). */
static void
local_transform (const OdoriMotion *motion,
                 GArray            *joints,
                 const WriterJoint *joint,
                 guint              frame,
                 const float       *parent_read,
                 versor             q,
                 vec3               t)
{
  OdoriTransform        xf_world;
  const OdoriTransform *xf = odori_motion_world (motion, frame, joint->segment, &xf_world);

  glm_quat_copy ((float *) xf->rotation, q);
  glm_quat_normalize (q);
  glm_vec3_copy ((float *) xf->position, t);
  if (joint->parent >= 0)
    {
      guint ps = g_array_index (joints, WriterJoint, joint->parent).segment;
      OdoriTransform        pxf_world;
      const OdoriTransform *pxf = odori_motion_world (motion, frame, ps, &pxf_world);
      versor qp, inv, local;
      vec3 d;

      glm_quat_copy ((float *) pxf->rotation, qp);
      glm_quat_normalize (qp);
      glm_quat_conjugate (qp, inv);
      glm_quat_mul (inv, q, local);
      glm_quat_normalize_to (local, q);
      if (!joint->has_position)
        return;
      glm_vec3_sub (t, (float *) parent_read, d);
      glm_quat_rotatev (inv, d, t);
    }
}

static void
write_frames (OdoriOutput       *out,
              const OdoriMotion *motion,
              GArray            *joints)
{
  g_autofree double *prev = g_new0 (double, 3 * MAX (joints->len, 1));
  /* This frame's global positions as the reader rebuilds them. */
  g_autofree float *read = g_new0 (float, 3 * MAX (joints->len, 1));
  g_autofree char *frame_time = odori_format_double (motion->frame_time);

  for (guint j = 0; j < joints->len; j++)
    {
      WriterJoint *joint = &g_array_index (joints, WriterJoint, j);

      for (int i = 0; i < 3; i++)
        joint->offset_read[i] = printed (joint->offset[i]);
    }

  odori_output_text (out, "MOTION\n");
  odori_output_printf (out, "Frames: %u\n", motion->n_frames);
  odori_output_printf (out, "Frame Time: %s\n", frame_time);
  for (guint f = 0; f < motion->n_frames; f++)
    {
      gboolean first = TRUE;

      for (guint j = 0; j < joints->len; j++)
        {
          const WriterJoint *joint = &g_array_index (joints, WriterJoint, j);
          double *angles = &prev[3 * j];
          const float *parent_read = joint->parent >= 0 ? &read[3 * joint->parent] : NULL;
          float *joint_read = &read[3 * j];
          vec3 t_read;
          versor q;
          vec3 t;

          local_transform (motion, joints, joint, f, parent_read, q, t);
          glm_vec3_copy ((float *) joint->offset_read, t_read);
          if (joint->has_rotation)
            {
              double previous[3] = { angles[0], angles[1], angles[2] };

              /* odori_quat_to_euler writes its result before reading PREV_DEG. */
              odori_quat_to_euler (joint->order, q, f > 0 ? previous : NULL, angles);
            }
          for (guint c = 0; c < joint->n_channels; c++)
            {
              OdoriChannel ch = joint->channels[c];
              double value;

              if (ch <= ODORI_CHANNEL_ZPOSITION)
                {
                  value = t[ch - ODORI_CHANNEL_XPOSITION];
                  t_read[ch - ODORI_CHANNEL_XPOSITION] = printed (value);
                }
              else
                value = joint->angle_of[c] >= 0 ? angles[joint->angle_of[c]] : 0.0;
              if (!first)
                odori_output_char (out, ' ');
              first = FALSE;
              odori_output_fixed (out, value, VALUE_DECIMALS);
            }

          /* Where the reader puts the joint: p_parent + R_parent · t (R_parent the true
           * rotation, which the printed angles give back to float precision). */
          if (parent_read != NULL)
            {
              guint ps = g_array_index (joints, WriterJoint, joint->parent).segment;
              OdoriTransform        pxf_world;
              const OdoriTransform *pxf = odori_motion_world (motion, f, ps, &pxf_world);
              versor qp;
              vec3 rotated;

              glm_quat_copy ((float *) pxf->rotation, qp);
              glm_quat_normalize (qp);
              glm_quat_rotatev (qp, t_read, rotated);
              glm_vec3_add ((float *) parent_read, rotated, joint_read);
            }
          else
            glm_vec3_copy (t_read, joint_read);
        }
      odori_output_char (out, '\n');
    }
}

static const char *positions_names[] = {
  [ODORI_BVH_POSITIONS_AUTO] = "auto",
  [ODORI_BVH_POSITIONS_ROOT] = "root",
  [ODORI_BVH_POSITIONS_ALL] = "all",
};

const char *
odori_bvh_positions_to_string (OdoriBvhPositions positions)
{
  g_return_val_if_fail ((guint) positions < G_N_ELEMENTS (positions_names), NULL);

  return positions_names[positions];
}

gboolean
odori_bvh_positions_from_string (const char        *s,
                                 OdoriBvhPositions *positions)
{
  g_return_val_if_fail (positions != NULL, FALSE);

  for (guint i = 0; s != NULL && i < G_N_ELEMENTS (positions_names); i++)
    if (strcmp (s, positions_names[i]) == 0)
      {
        *positions = i;
        return TRUE;
      }
  return FALSE;
}

void
odori_bvh_write_full (const OdoriMotion   *motion,
                      const OdoriSkeleton *skeleton,
                      OdoriBvhPositions    positions,
                      OdoriOutput         *out)
{
  g_autoptr(OdoriSkeleton) own = NULL;
  g_autoptr(GArray) joints = NULL;
  g_autofree int *parent = NULL;

  g_return_if_fail (motion != NULL);
  g_return_if_fail (out != NULL);
  g_return_if_fail ((guint) positions < G_N_ELEMENTS (positions_names));

  parent = g_new (int, MAX (motion->n_segments, 1));
  for (guint s = 0; s < motion->n_segments; s++)
    parent[s] = motion->segments[s].parent;

  if (motion->has_hierarchy && is_forest (parent, motion->n_segments))
    joints = joints_from_hierarchy (motion, positions);
  else
    {
      if (skeleton == NULL)
        skeleton = own = odori_skeleton_for_motion (motion);
      if (skeleton != NULL)
        joints = joints_from_skeleton (motion, skeleton, positions);
      else
        joints = g_array_new (FALSE, TRUE, sizeof (WriterJoint));
    }

  write_hierarchy (out, joints);
  write_frames (out, motion, joints);
}

void
odori_bvh_write (const OdoriMotion   *motion,
                 const OdoriSkeleton *skeleton,
                 OdoriOutput         *out)
{
  odori_bvh_write_full (motion, skeleton, ODORI_BVH_POSITIONS_AUTO, out);
}

gboolean
odori_bvh_save_full (const OdoriMotion   *motion,
                     const OdoriSkeleton *skeleton,
                     OdoriBvhPositions    positions,
                     const char          *path,
                     GError             **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail ((guint) positions < G_N_ELEMENTS (positions_names), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  odori_bvh_write_full (motion, skeleton, positions, out);
  return odori_output_commit (out, error);
}

gboolean
odori_bvh_save (const OdoriMotion   *motion,
                const OdoriSkeleton *skeleton,
                const char          *path,
                GError             **error)
{
  return odori_bvh_save_full (motion, skeleton, ODORI_BVH_POSITIONS_AUTO, path, error);
}
