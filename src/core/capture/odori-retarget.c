/* odori-retarget.c: one job, a loaded capture (NI joints, suit CSV) becomes a show motion
 * of the library's sensors (FORMATS.md §4-6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements; docs/formats.md says the same for users.
 * - Axes: the file's up axis (given, or guessed from the head and the feet at frame 1:
 *   the axis along which head − feet is largest; else Z for NI files, Y for the suit) is
 *   turned onto +Y by the shortest rotation r (Z up: (x, y, z) → (x, z, −y); X up:
 *   (x, y, z) → (−y, x, z); −Y: a half turn about X). Positions become r·p; rotations
 *   r·q·r⁻¹, so that identity stays the file's rest pose. No mirroring: NI files are
 *   already right-handed (OpenRDB's x *= −1 undid OpenNI's mirror image, which these
 *   files no longer have).
 * - Lengths are stored in centimetres and labelled CENTIMETERS (BVA).
 * - NI file quaternions (checked on the seed's two frames: every bone then points along
 *   an axis of the T-pose to 0.0°): each joint's rotation is relative to its parent; the
 *   spine chains PELVIS → TORSO → NECK → HEAD as G = G_parent · q; each limb hangs from
 *   an anchor (arms from TORSO, legs from PELVIS) and accumulates in the anchor's frame:
 *   G_SHLDR = G_TORSO·q_SHLDR, G_ELBOW = G_TORSO·q_ELBOW·q_SHLDR, G_HAND =
 *   G_TORSO·q_HAND·q_ELBOW·q_SHLDR (legs alike). Rest pose: T-pose, Z up, facing +X,
 *   left = +Y. The recorders' extra joints chain as G = G_parent · q.
 * - Rotations from positions (OpenRDB's CalcTorso, CalcNeck, CalcQ), calibrated on the
 *   first frame, so every rotation is identity at frame 1:
 *   TORSO: the turn about +Y from the calibration hip line (left − right hip, horizontal)
 *   to the current one. NECK: the shortest rotation from the calibration torso→neck
 *   direction to the current one in the torso's frame (the tilt), then the turn of the
 *   shoulder line about that direction (the twist). Every other bone: the shortest
 *   rotation from its calibration direction to its current direction in its parent's
 *   frame; accumulated rotation = parent × local. A joint the capture lacks is skipped
 *   (identity relative to its parent).
 * - Symmetry (positions only): the calibration pose is made mirror-symmetric about the
 *   body's plane (normal: the calibration hip line, else the shoulder line): each
 *   left/right pair of calibration directions is replaced by the mirrored mean, centre
 *   bones lose their sideways component. Identical poses on both sides then give mirrored
 *   rotations.
 * - Twist (KBS/KST twist 0): the bone's local rotation loses its twist about the bone's
 *   own axis (swing-twist decomposition); TORSO's axis is the torso→neck direction.
 * - Output without a KBS: the capture's own segments. NI: one per joint, at the joint,
 *   rotated as the body part that hangs from it (from positions: TORSO the neck bone's
 *   rotation, L_SHLDR the upper arm's, L_ELBOW and L_HAND the forearm's, L_HIP the thigh's,
 *   L_KNEE and L_FOOT the shin's, HEAD the head's; PELVIS and NECK, which carry several
 *   children, turn as the frame of their hip or shoulder line and the bone up from them;
 *   the extras take the nearest such part). Suit CSV: one per sensor with the file's
 *   rotations (from positions: the same rule with the suit's names). So a BVH written
 *   with the NI or suit skeleton table puts every joint back where it was, for bones of
 *   constant length.
 * - Output with a KBS: one segment per mapped joint, named after its bone, carrying the
 *   rotation of the bone that ENDS at that joint (OpenRDB's convention: SKEL_LEFT_KNEE is
 *   the thigh) and placed at the bone's start, the pivot joint; TOP_OF_JOINT is at the
 *   root (PELVIS / Hip) without rotation. From the file's rotations, the bone ending at a
 *   joint takes the rotation of the file joint (sensor) it hangs from.
 * - Suit sensors without Position columns are placed by forward kinematics from their
 *   parent with a default 170 cm body (rest pose: T-pose facing +Z, left arm along +X,
 *   Odori's axes); the hip at (0, 95, 0) cm when the file gives no root position.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-joints.h"
#include "odori-reader.h"
#include "odori-retarget.h"
#include "odori-sensor-csv.h"

#define KJ ODORI_KINECT_N_JOINTS
#define EPS 1e-6f
typedef float Quat[4];
typedef float Vec3[3];

enum {
  TOP = ODORI_KINECT_TOP_OF_JOINT,
  TORSO = ODORI_KINECT_TORSO,
  L_HIP = ODORI_KINECT_LEFT_HIP,
  L_KNEE = ODORI_KINECT_LEFT_KNEE,
  L_FOOT = ODORI_KINECT_LEFT_FOOT,
  R_HIP = ODORI_KINECT_RIGHT_HIP,
  R_KNEE = ODORI_KINECT_RIGHT_KNEE,
  R_FOOT = ODORI_KINECT_RIGHT_FOOT,
  NECK = ODORI_KINECT_NECK,
  HEAD = ODORI_KINECT_HEAD,
  L_SH = ODORI_KINECT_LEFT_SHOULDER,
  L_EL = ODORI_KINECT_LEFT_ELBOW,
  L_HA = ODORI_KINECT_LEFT_HAND,
  R_SH = ODORI_KINECT_RIGHT_SHOULDER,
  R_EL = ODORI_KINECT_RIGHT_ELBOW,
  R_HA = ODORI_KINECT_RIGHT_HAND,
  NONE = -1,
};

/* OpenRDB's chains: the pivot (bone start, and the parent of the accumulated rotation). */
static const int pivot_of[KJ] = {
  [TOP] = TOP, [TORSO] = TORSO,
  [L_HIP] = TORSO, [L_KNEE] = L_HIP, [L_FOOT] = L_KNEE,
  [R_HIP] = TORSO, [R_KNEE] = R_HIP, [R_FOOT] = R_KNEE,
  [NECK] = TORSO, [HEAD] = NECK,
  [L_SH] = NECK, [L_EL] = L_SH, [L_HA] = L_EL,
  [R_SH] = NECK, [R_EL] = R_SH, [R_HA] = R_EL,
};

/* Parents before children: CalcTorso, CalcNeck, then CalcQ in OpenRDB's order. */
static const int solve_order[] = {
  TORSO, NECK, L_HIP, L_KNEE, L_FOOT, R_HIP, R_KNEE, R_FOOT,
  HEAD, L_SH, L_EL, L_HA, R_SH, R_EL, R_HA,
};

static const int mirror_pairs[][2] = {
  { L_HIP, R_HIP }, { L_KNEE, R_KNEE }, { L_FOOT, R_FOOT },
  { L_SH, R_SH }, { L_EL, R_EL }, { L_HA, R_HA },
};

/* Per source format: the segment giving each Kinect joint's position, and the segment
 * whose file rotation the bone ending at that joint takes. */
static const char *ni_position[KJ] = {
  "PELVIS", "TORSO", "L_HIP", "L_KNEE", "L_FOOT", "R_HIP", "R_KNEE", "R_FOOT",
  "NECK", "HEAD", "L_SHLDR", "L_ELBOW", "L_HAND", "R_SHLDR", "R_ELBOW", "R_HAND",
};
static const char *ni_owner[KJ] = {
  NULL, "PELVIS", "PELVIS", "L_HIP", "L_KNEE", "PELVIS", "R_HIP", "R_KNEE",
  "TORSO", "NECK", "TORSO", "L_SHLDR", "L_ELBOW", "TORSO", "R_SHLDR", "R_ELBOW",
};
static const char *csv_position[KJ] = {
  "Hip", "Spine", "LeftUpperLeg", "LeftLowerLeg", "LeftFoot",
  "RightUpperLeg", "RightLowerLeg", "RightFoot",
  "Head", NULL, "LeftUpperArm", "LeftForearm", "LeftHand",
  "RightUpperArm", "RightForearm", "RightHand",
};
static const char *csv_owner[KJ] = {
  NULL, "Hip", "Hip", "LeftUpperLeg", "LeftLowerLeg", "Hip", "RightUpperLeg", "RightLowerLeg",
  "Spine", "Head", "LeftShoulder", "LeftUpperArm", "LeftForearm",
  "RightShoulder", "RightUpperArm", "RightForearm",
};

typedef struct
{
  const char *name;
  int         slot;
} NativeEntry;

/* Output without a KBS, rotations from positions: the slot whose rotation each segment
 * takes (the body part hanging from it). Unlisted names take TORSO's. */
static const NativeEntry ni_native[] = {
  { "PELVIS", TORSO }, { "WAIST", TORSO }, { "TORSO", NECK }, { "CHEST", NECK },
  { "NECK", NECK }, { "L_BUST", NECK }, { "R_BUST", NECK },
  { "HEAD", HEAD }, { "SKULL", HEAD }, { "FACE", HEAD }, { "L_EYE", HEAD }, { "R_EYE", HEAD },
  { "L_COLLAR", L_SH }, { "L_SHLDR", L_EL }, { "L_ELBOW", L_HA }, { "L_WRIST", L_HA },
  { "L_HAND", L_HA }, { "L_FINGER", L_HA }, { "L_FNGRTIP", L_HA },
  { "R_COLLAR", R_SH }, { "R_SHLDR", R_EL }, { "R_ELBOW", R_HA }, { "R_WRIST", R_HA },
  { "R_HAND", R_HA }, { "R_FINGER", R_HA }, { "R_FNGRTIP", R_HA },
  { "L_HIP", L_KNEE }, { "L_KNEE", L_FOOT }, { "L_ANKLE", L_FOOT }, { "L_FOOT", L_FOOT },
  { "L_TOE", L_FOOT },
  { "R_HIP", R_KNEE }, { "R_KNEE", R_FOOT }, { "R_ANKLE", R_FOOT }, { "R_FOOT", R_FOOT },
  { "R_TOE", R_FOOT },
};
static const NativeEntry csv_native[] = {
  { "Hip", TORSO }, { "Spine", NECK }, { "Head", HEAD },
  { "LeftShoulder", L_SH }, { "LeftUpperArm", L_EL }, { "LeftForearm", L_HA },
  { "LeftHand", L_HA },
  { "RightShoulder", R_SH }, { "RightUpperArm", R_EL }, { "RightForearm", R_HA },
  { "RightHand", R_HA },
  { "LeftUpperLeg", L_KNEE }, { "LeftLowerLeg", L_FOOT }, { "LeftFoot", L_FOOT },
  { "RightUpperLeg", R_KNEE }, { "RightLowerLeg", R_FOOT }, { "RightFoot", R_FOOT },
};

/* Joints with several children (the pelvis, the neck) turn as the rigid frame of two
 * vectors, so that all their children follow: the primary one exactly (the hip or shoulder
 * line), the secondary one in its plane (up to the torso, the head). */
typedef struct
{
  const char *name;
  const char *primary[2];    /* from, to */
  const char *secondary[2];
} TriadEntry;

static const TriadEntry ni_triads[] = {
  { "PELVIS", { "R_HIP", "L_HIP" }, { "PELVIS", "TORSO" } },
  { "NECK", { "R_SHLDR", "L_SHLDR" }, { "NECK", "HEAD" } },
};
static const TriadEntry csv_triads[] = {
  { "Hip", { "RightUpperLeg", "LeftUpperLeg" }, { "Hip", "Spine" } },
  { "Spine", { "RightShoulder", "LeftShoulder" }, { "Spine", "Head" } },
};

/* NI file rotations: how each joint's global rotation is composed. */
typedef enum { NI_ROOT, NI_CHILD, NI_LIMB } NiKind;

typedef struct
{
  const char *name;
  NiKind      kind;
  const char *parent;  /* CHILD: parent; LIMB: the anchor */
  const char *up[2];   /* LIMB: the joints above it in the limb, nearest first */
} NiEntry;

static const NiEntry ni_entries[] = {
  { "PELVIS", NI_ROOT, NULL, { NULL, NULL } },
  { "AVATAR", NI_ROOT, NULL, { NULL, NULL } },
  { "WAIST", NI_CHILD, "PELVIS", { NULL, NULL } },
  { "TORSO", NI_CHILD, "PELVIS", { NULL, NULL } },
  { "CHEST", NI_CHILD, "TORSO", { NULL, NULL } },
  { "NECK", NI_CHILD, "TORSO", { NULL, NULL } },
  { "HEAD", NI_CHILD, "NECK", { NULL, NULL } },
  { "SKULL", NI_CHILD, "HEAD", { NULL, NULL } },
  { "FACE", NI_CHILD, "HEAD", { NULL, NULL } },
  { "L_EYE", NI_CHILD, "HEAD", { NULL, NULL } },
  { "R_EYE", NI_CHILD, "HEAD", { NULL, NULL } },
  { "L_BUST", NI_CHILD, "TORSO", { NULL, NULL } },
  { "R_BUST", NI_CHILD, "TORSO", { NULL, NULL } },
  { "L_COLLAR", NI_CHILD, "TORSO", { NULL, NULL } },
  { "R_COLLAR", NI_CHILD, "TORSO", { NULL, NULL } },
  { "L_SHLDR", NI_LIMB, "TORSO", { NULL, NULL } },
  { "L_ELBOW", NI_LIMB, "TORSO", { "L_SHLDR", NULL } },
  { "L_HAND", NI_LIMB, "TORSO", { "L_ELBOW", "L_SHLDR" } },
  { "R_SHLDR", NI_LIMB, "TORSO", { NULL, NULL } },
  { "R_ELBOW", NI_LIMB, "TORSO", { "R_SHLDR", NULL } },
  { "R_HAND", NI_LIMB, "TORSO", { "R_ELBOW", "R_SHLDR" } },
  { "L_HIP", NI_LIMB, "PELVIS", { NULL, NULL } },
  { "L_KNEE", NI_LIMB, "PELVIS", { "L_HIP", NULL } },
  { "L_FOOT", NI_LIMB, "PELVIS", { "L_KNEE", "L_HIP" } },
  { "R_HIP", NI_LIMB, "PELVIS", { NULL, NULL } },
  { "R_KNEE", NI_LIMB, "PELVIS", { "R_HIP", NULL } },
  { "R_FOOT", NI_LIMB, "PELVIS", { "R_KNEE", "R_HIP" } },
  { "L_WRIST", NI_CHILD, "L_ELBOW", { NULL, NULL } },
  { "L_FINGER", NI_CHILD, "L_HAND", { NULL, NULL } },
  { "L_FNGRTIP", NI_CHILD, "L_FINGER", { NULL, NULL } },
  { "L_ANKLE", NI_CHILD, "L_KNEE", { NULL, NULL } },
  { "L_TOE", NI_CHILD, "L_FOOT", { NULL, NULL } },
  { "R_WRIST", NI_CHILD, "R_ELBOW", { NULL, NULL } },
  { "R_FINGER", NI_CHILD, "R_HAND", { NULL, NULL } },
  { "R_FNGRTIP", NI_CHILD, "R_FINGER", { NULL, NULL } },
  { "R_ANKLE", NI_CHILD, "R_KNEE", { NULL, NULL } },
  { "R_TOE", NI_CHILD, "R_FOOT", { NULL, NULL } },
};

/* The suit's default body for sensors without positions (cm, Odori's axes, T-pose). */
typedef struct
{
  const char *name;
  const char *parent;
  float       offset[3];
} BodyEntry;

static const BodyEntry suit_body[] = {
  { "Hip", NULL, { 0, 95, 0 } },
  { "Spine", "Hip", { 0, 10, 0 } },
  { "Head", "Spine", { 0, 50, 0 } },
  { "LeftShoulder", "Spine", { 3, 43, 0 } },
  { "LeftUpperArm", "LeftShoulder", { 15, 0, 0 } },
  { "LeftForearm", "LeftUpperArm", { 28, 0, 0 } },
  { "LeftHand", "LeftForearm", { 25, 0, 0 } },
  { "RightShoulder", "Spine", { -3, 43, 0 } },
  { "RightUpperArm", "RightShoulder", { -15, 0, 0 } },
  { "RightForearm", "RightUpperArm", { -28, 0, 0 } },
  { "RightHand", "RightForearm", { -25, 0, 0 } },
  { "LeftUpperLeg", "Hip", { 9, 0, 0 } },
  { "LeftLowerLeg", "LeftUpperLeg", { 0, -44, 0 } },
  { "LeftFoot", "LeftLowerLeg", { 0, -42, 0 } },
  { "RightUpperLeg", "Hip", { -9, 0, 0 } },
  { "RightLowerLeg", "RightUpperLeg", { 0, -44, 0 } },
  { "RightFoot", "RightLowerLeg", { 0, -42, 0 } },
};

/* Small math on cglm */

static gboolean
normalize3 (float v[3])
{
  float n = glm_vec3_norm (v);

  if (!(n > EPS))
    return FALSE;
  glm_vec3_scale (v, 1.0f / n, v);
  return TRUE;
}

/* Removes from V its component along unit N. */
static void
project_out (float       v[3],
             const float n[3])
{
  float d = glm_vec3_dot (v, (float *) n);

  for (int k = 0; k < 3; k++)
    v[k] -= d * n[k];
}

/* Signed angle from A to B about unit N (A, B perpendicular to N). */
static float
signed_angle (const float a[3],
              const float b[3],
              const float n[3])
{
  Vec3 c;

  glm_vec3_cross ((float *) a, (float *) b, c);
  return atan2f (glm_vec3_dot (c, (float *) n), glm_vec3_dot ((float *) a, (float *) b));
}

/* Q without its twist about unit AXIS (Q = swing · twist). */
static void
remove_twist (const float q[4],
              const float axis[3],
              float       out[4])
{
  float d = q[0] * axis[0] + q[1] * axis[1] + q[2] * axis[2];
  Quat twist = { d * axis[0], d * axis[1], d * axis[2], q[3] };
  Quat inv;
  float n = glm_quat_norm (twist);

  if (!(n > EPS))
    {
      memcpy (out, q, sizeof (Quat));  /* a half-turn swing: no defined twist */
      return;
    }
  glm_vec4_scale (twist, 1.0f / n, twist);
  odori_quat_conj (twist, inv);
  odori_quat_mul (q, inv, out);
  glm_quat_normalize (out);
}

OdoriKinectJoint
odori_kinect_joint_pivot (OdoriKinectJoint joint)
{
  g_return_val_if_fail ((guint) joint < KJ, ODORI_KINECT_TOP_OF_JOINT);
  return pivot_of[joint];
}

/* Loading */

OdoriCapture *
odori_capture_load (const char               *path,
                    const OdoriImportOptions *options,
                    GPtrArray                *warnings,
                    GError                  **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  const char *data;
  gsize len;
  gboolean joints, csv;

  g_return_val_if_fail (path != NULL, NULL);

  mapped = odori_mapped_file_new (path, error);
  if (mapped == NULL)
    return NULL;
  data = g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  joints = data != NULL && odori_joints_sniff (data, len);
  csv = !joints && data != NULL && odori_sensor_csv_sniff (data, len);
  g_clear_pointer (&mapped, g_mapped_file_unref);

  if (joints)
    return odori_joints_load (path, options, warnings, error);
  if (csv)
    return odori_sensor_csv_load (path, options, warnings, error);
  g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NOT_CAPTURE,
               _("%s:1: not a capture Odori reads (expected NI_JOINTS_TEXT_FILE on line 1, or a "
                 "sensor CSV header with Quaternion:, Euler: or Position: columns)"), path);
  return NULL;
}

/* Orientation */

static int
find_segment (const OdoriMotion *motion,
              const char        *name)
{
  return name != NULL ? odori_motion_find_segment (motion, name) : -1;
}

static gboolean
measured_position (const OdoriCapture *capture,
                   const char         *name,
                   guint               frame,
                   float               out[3])
{
  int s = find_segment (capture->motion, name);

  if (s < 0 || !capture->has_position[s])
    return FALSE;
  memcpy (out, odori_motion_get (capture->motion, frame, s)->position, sizeof (Vec3));
  return TRUE;
}

/* The file's up axis from frame 0, or AUTO when it cannot tell. */
static OdoriUpAxis
guess_up (const OdoriCapture *capture)
{
  gboolean ni = capture->kind == ODORI_CAPTURE_JOINTS;
  const char *top[] = { ni ? "HEAD" : "Head", ni ? "NECK" : "Spine" };
  const char *bottom[][2] = {
    { ni ? "L_FOOT" : "LeftFoot", ni ? "R_FOOT" : "RightFoot" },
    { ni ? "PELVIS" : "Hip", ni ? "TORSO" : "Hip" },
  };
  Vec3 a, b, c, v;
  int axis = 0;

  for (guint t = 0; t < G_N_ELEMENTS (top); t++)
    {
      if (!measured_position (capture, top[t], 0, a))
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (bottom); k++)
        {
          gboolean hb = measured_position (capture, bottom[k][0], 0, b);
          gboolean hc = measured_position (capture, bottom[k][1], 0, c);

          if (!hb && !hc)
            continue;
          if (hb && hc)
            glm_vec3_center (b, c, b);
          else if (hc)
            glm_vec3_copy (c, b);
          glm_vec3_sub (a, b, v);
          for (int i = 1; i < 3; i++)
            if (fabsf (v[i]) > fabsf (v[axis]))
              axis = i;
          if (!(fabsf (v[axis]) > 0.5f * glm_vec3_norm (v)) || !(fabsf (v[axis]) > EPS))
            return ODORI_UP_AUTO;
          return (v[axis] > 0 ? ODORI_UP_X : ODORI_UP_NEG_X) + axis;
        }
    }
  return ODORI_UP_AUTO;
}

void
odori_capture_orient (OdoriCapture *capture,
                      OdoriUpAxis   up,
                      GPtrArray    *warnings)
{
  OdoriMotion *motion;
  Quat r, rinv;
  gboolean ni;

  g_return_if_fail (capture != NULL);
  g_return_if_fail (!capture->oriented);

  motion = capture->motion;
  ni = capture->kind == ODORI_CAPTURE_JOINTS;
  if (up == ODORI_UP_AUTO)
    {
      gboolean any_position = FALSE;

      for (guint s = 0; s < motion->n_segments; s++)
        any_position = any_position || capture->has_position[s];
      up = guess_up (capture);
      if (up == ODORI_UP_AUTO)
        {
          up = ni ? ODORI_UP_Z : ODORI_UP_Y;
          /* a CSV of rotations alone is the usual case: no guess to doubt */
          if (any_position)
            odori_add_warning (warnings, motion->path, 0,
                               _("cannot tell the up axis from the head and feet; taking %s, as "
                                 "%s files use"),
                               odori_up_axis_to_string (up),
                               ni ? "NI_JOINTS_TEXT_FILE" : "sensor CSV");
        }
    }
  capture->up = up;
  capture->oriented = TRUE;
  if (up == ODORI_UP_Y)
    return;

  odori_up_axis_rotation (up, r);
  odori_quat_conj (r, rinv);
  for (guint f = 0; f < motion->n_frames; f++)
    for (guint s = 0; s < motion->n_segments; s++)
      {
        OdoriTransform *t = odori_motion_get (motion, f, s);
        Quat tmp;
        Vec3 p;

        odori_quat_rotate (r, t->position, p);
        memcpy (t->position, p, sizeof p);
        odori_quat_mul (r, t->rotation, tmp);
        odori_quat_mul (tmp, rinv, t->rotation);
        glm_quat_normalize (t->rotation);
      }
}

/* The retargeting context */

typedef struct
{
  const OdoriCapture       *capture;
  const OdoriImportOptions *options;
  GPtrArray                *warnings;
  OdoriMotion              *src;             /* oriented; suit gaps filled by kinematics */
  gboolean                  from_positions;
  int                       pos_seg[KJ];     /* segment giving each joint's position */
  gboolean                  measured[KJ];    /* ... and the file gives that position */
  int                       owner_seg[KJ];   /* file mode: segment whose rotation */
  Quat                     *file_global;     /* file mode: n_frames × n_segments */
  Quat                     *totals;          /* n_frames × KJ */
  Vec3                      twist_axis[KJ];
  gboolean                  twist_axis_ok[KJ];
} Retarget;

/* Suit sensors without positions: forward kinematics over the default body. */
static void
fill_suit_positions (Retarget *rt)
{
  OdoriMotion *m = rt->src;
  guint n = G_N_ELEMENTS (suit_body);
  int seg[G_N_ELEMENTS (suit_body)];
  int parent[G_N_ELEMENTS (suit_body)];
  gboolean any_missing = FALSE;
  int hip = find_segment (m, "Hip");

  for (guint s = 0; s < m->n_segments; s++)
    any_missing = any_missing || !rt->capture->has_position[s];
  if (!any_missing)
    return;

  for (guint i = 0; i < n; i++)
    {
      seg[i] = find_segment (m, suit_body[i].name);
      parent[i] = -1;
      for (guint k = 0; k < i; k++)
        if (suit_body[i].parent != NULL && strcmp (suit_body[k].name, suit_body[i].parent) == 0)
          parent[i] = k;
    }

  for (guint f = 0; f < m->n_frames; f++)
    {
      Vec3 pos[G_N_ELEMENTS (suit_body)];
      Quat rot[G_N_ELEMENTS (suit_body)];

      for (guint i = 0; i < n; i++)
        {
          const OdoriTransform *t = seg[i] >= 0 ? odori_motion_get (m, f, seg[i]) : NULL;

          if (t != NULL)
            memcpy (rot[i], t->rotation, sizeof (Quat));
          else if (parent[i] >= 0)
            memcpy (rot[i], rot[parent[i]], sizeof (Quat));
          else
            glm_quat_identity (rot[i]);

          if (t != NULL && rt->capture->has_position[seg[i]])
            memcpy (pos[i], t->position, sizeof (Vec3));
          else if (parent[i] >= 0)
            {
              Vec3 off;

              odori_quat_rotate (rot[parent[i]], suit_body[i].offset, off);
              glm_vec3_add (pos[parent[i]], off, pos[i]);
            }
          else
            memcpy (pos[i], suit_body[i].offset, sizeof (Vec3));
          if (t != NULL && !rt->capture->has_position[seg[i]])
            memcpy (odori_motion_get (m, f, seg[i])->position, pos[i], sizeof (Vec3));
        }
      /* sensors the default body does not know sit on the hip */
      for (guint s = 0; s < m->n_segments; s++)
        if (!rt->capture->has_position[s])
          {
            gboolean known = FALSE;

            for (guint i = 0; i < n && !known; i++)
              known = seg[i] == (int) s;
            if (!known)
              memcpy (odori_motion_get (m, f, s)->position,
                      hip >= 0 ? odori_motion_get (m, f, hip)->position : pos[0], sizeof (Vec3));
          }
    }
}

static int
ni_entry (const char *name)
{
  for (guint e = 0; e < G_N_ELEMENTS (ni_entries); e++)
    if (strcmp (name, ni_entries[e].name) == 0)
      return e;
  return -1;
}

/* The segment of NAME, or of its nearest ancestor the capture has, or -1. */
static int
ni_present_ancestor (const OdoriMotion *m,
                     const char        *name)
{
  for (guint guard = 0; name != NULL && guard < G_N_ELEMENTS (ni_entries); guard++)
    {
      int s = find_segment (m, name);
      int e;

      if (s >= 0)
        return s;
      e = ni_entry (name);
      name = e >= 0 ? ni_entries[e].parent : NULL;
    }
  return -1;
}

/* NI file rotations: global rotation of every joint, every frame. */
static Quat *
ni_globals (const OdoriMotion *m)
{
  guint n_seg = m->n_segments;
  Quat *g = g_new (Quat, (gsize) m->n_frames * n_seg);
  g_autofree int *entry = g_new (int, n_seg);
  g_autofree int *dep = g_new (int, n_seg);
  g_autofree int *order = g_new (int, n_seg);
  g_autofree gboolean *placed = g_new0 (gboolean, n_seg);
  guint n_order = 0;

  for (guint s = 0; s < n_seg; s++)
    {
      entry[s] = ni_entry (m->segments[s].name);
      if (entry[s] >= 0 && ni_entries[entry[s]].kind == NI_ROOT)
        dep[s] = -1;
      else
        dep[s] = ni_present_ancestor (m, entry[s] >= 0 ? ni_entries[entry[s]].parent : "PELVIS");
      if (dep[s] == (int) s)
        dep[s] = -1;
    }

  /* Order: a joint after the joint its rotation hangs from (a tree: each pass places at
   * least one more joint, whatever is left over after n passes is a cycle-free root). */
  for (guint pass = 0; pass <= n_seg && n_order < n_seg; pass++)
    for (guint s = 0; s < n_seg; s++)
      if (!placed[s] && (dep[s] < 0 || placed[dep[s]]))
        {
          placed[s] = TRUE;
          order[n_order++] = s;
        }
  for (guint s = 0; s < n_seg; s++)
    if (!placed[s])
      {
        dep[s] = -1;
        order[n_order++] = s;
      }

  for (guint f = 0; f < m->n_frames; f++)
    {
      Quat *gf = g + (gsize) f * n_seg;

      for (guint i = 0; i < n_order; i++)
        {
          int s = order[i];
          const NiEntry *e = entry[s] >= 0 ? &ni_entries[entry[s]] : NULL;
          Quat local;

          memcpy (local, odori_motion_get (m, f, s)->rotation, sizeof local);
          /* a limb accumulates in its anchor's frame: q_HAND · q_ELBOW · q_SHLDR */
          if (e != NULL && e->kind == NI_LIMB)
            for (int k = 0; k < 2; k++)
              {
                int up = find_segment (m, e->up[k]);
                Quat tmp;

                if (up < 0)
                  continue;
                odori_quat_mul (local, odori_motion_get (m, f, up)->rotation, tmp);
                memcpy (local, tmp, sizeof tmp);
              }
          if (dep[s] >= 0)
            odori_quat_mul (gf[dep[s]], local, gf[s]);
          else
            memcpy (gf[s], local, sizeof local);
          glm_quat_normalize (gf[s]);
        }
    }
  return g;
}

/* Rotations from positions: calibration */

typedef struct
{
  Vec3     pos[KJ];
  gboolean valid[KJ];
} KFrame;

typedef struct
{
  Vec3     dir[KJ];
  gboolean dir_ok[KJ];
  Vec3     hips;
  gboolean hips_ok;
  Vec3     shoulders;
  gboolean shoulders_ok;
  gboolean no_twist[KJ];   /* KBS twist 0: swing only */
} Calib;

static void
kframe_get (Retarget *rt,
            guint     frame,
            KFrame   *kf)
{
  for (int k = 0; k < KJ; k++)
    {
      kf->valid[k] = rt->measured[k];
      if (rt->pos_seg[k] >= 0)
        memcpy (kf->pos[k], odori_motion_get (rt->src, frame, rt->pos_seg[k])->position,
                sizeof (Vec3));
      else
        glm_vec3_zero (kf->pos[k]);
    }
}

static gboolean
bone_vector (const KFrame *kf,
             int           from,
             int           to,
             float         out[3])
{
  if (!kf->valid[from] || !kf->valid[to])
    return FALSE;
  glm_vec3_sub ((float *) kf->pos[to], (float *) kf->pos[from], out);
  return glm_vec3_norm (out) > EPS;
}

static gboolean
hip_line (const KFrame *kf,
          float         out[3])
{
  if (!bone_vector (kf, R_HIP, L_HIP, out))
    return FALSE;
  out[1] = 0;
  return normalize3 (out);
}

/* V mirrored in the plane through the origin with unit normal N. */
static void
mirror (const float v[3],
        const float n[3],
        float       out[3])
{
  float d = 2 * glm_vec3_dot ((float *) v, (float *) n);

  for (int k = 0; k < 3; k++)
    out[k] = v[k] - d * n[k];
}

static void
symmetrize (Retarget     *rt,
            Calib        *c,
            const KFrame *kf)
{
  Vec3 n;

  if (c->hips_ok)
    glm_vec3_copy (c->hips, n);
  else if (!(bone_vector (kf, R_SH, L_SH, n) && (n[1] = 0, normalize3 (n))))
    {
      odori_add_warning (rt->warnings, rt->capture->motion->path, 0, "%s",
                         _("symmetry needs both hips or both shoulders in the first frame; "
                           "ignored"));
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (mirror_pairs); i++)
    {
      int l = mirror_pairs[i][0], r = mirror_pairs[i][1];
      Vec3 m;

      if (!c->dir_ok[l] || !c->dir_ok[r])
        continue;
      mirror (c->dir[r], n, m);
      glm_vec3_add (c->dir[l], m, c->dir[l]);
      if (!normalize3 (c->dir[l]))
        continue;
      mirror (c->dir[l], n, c->dir[r]);
    }
  for (int k = NECK; k <= HEAD; k++)
    if (c->dir_ok[k])
      {
        project_out (c->dir[k], n);
        c->dir_ok[k] = normalize3 (c->dir[k]);
      }
  if (c->dir_ok[NECK])
    {
      glm_vec3_copy (n, c->shoulders);
      project_out (c->shoulders, c->dir[NECK]);
      c->shoulders_ok = normalize3 (c->shoulders);
    }
}

static void
calibrate (Retarget     *rt,
           const KFrame *kf,
           Calib        *c)
{
  memset (c, 0, sizeof *c);
  for (guint i = 1; i < G_N_ELEMENTS (solve_order); i++)
    {
      int k = solve_order[i];

      if (bone_vector (kf, pivot_of[k], k, c->dir[k]))
        c->dir_ok[k] = normalize3 (c->dir[k]);
    }
  c->hips_ok = hip_line (kf, c->hips);
  if (c->dir_ok[NECK] && bone_vector (kf, R_SH, L_SH, c->shoulders))
    {
      project_out (c->shoulders, c->dir[NECK]);
      c->shoulders_ok = normalize3 (c->shoulders);
    }
  if (rt->options->symmetry)
    symmetrize (rt, c, kf);
  for (int k = 0; k < KJ && rt->options->kbs != NULL; k++)
    c->no_twist[k] = rt->options->kbs->joints[k].bone != NULL && !rt->options->kbs->joints[k].twist;
}

/* One frame, OpenRDB's CalcTorso, CalcNeck and CalcQ. */
static void
solve_positions (const Calib  *c,
                 const KFrame *kf,
                 Quat         *total)
{
  Vec3 v, h;

  glm_quat_identity (total[TOP]);

  glm_quat_identity (total[TORSO]);
  if (c->hips_ok && hip_line (kf, h))
    glm_quatv (total[TORSO], signed_angle (c->hips, h, (float[3]) { 0, 1, 0 }),
               (vec3) { 0, 1, 0 });
  if (c->no_twist[TORSO] && c->dir_ok[NECK])
    {
      Quat tmp;

      /* TORSO's axis is the torso→neck direction: its turn is all twist */
      remove_twist (total[TORSO], c->dir[NECK], tmp);
      memcpy (total[TORSO], tmp, sizeof tmp);
    }

  for (guint i = 1; i < G_N_ELEMENTS (solve_order); i++)
    {
      int k = solve_order[i];
      const float *parq = total[pivot_of[k]];
      Quat local;

      glm_quat_identity (local);
      if (c->dir_ok[k] && bone_vector (kf, pivot_of[k], k, v))
        {
          Vec3 lv;

          odori_quat_rotate_inv (parq, v, lv);
          if (normalize3 (lv))
            odori_quat_between (c->dir[k], lv, local);
        }
      if (k == NECK && c->shoulders_ok && bone_vector (kf, R_SH, L_SH, v))
        {
          /* the twist: the shoulder line's turn about the calibration neck direction */
          Quat tmp, twist;
          Vec3 s1, s2;

          odori_quat_rotate_inv (parq, v, s1);
          odori_quat_rotate_inv (local, s1, s2);
          project_out (s2, c->dir[NECK]);
          if (normalize3 (s2))
            {
              glm_quatv (twist, signed_angle (c->shoulders, s2, c->dir[NECK]), (float *) c->dir[NECK]);
              odori_quat_mul (local, twist, tmp);
              memcpy (local, tmp, sizeof tmp);
            }
        }
      /* twist 0: swing only; the children are then solved in this frame (OpenRDB) */
      if (c->no_twist[k] && c->dir_ok[k])
        {
          Quat tmp;

          remove_twist (local, c->dir[k], tmp);
          memcpy (local, tmp, sizeof tmp);
        }
      odori_quat_mul (parq, local, total[k]);
      glm_quat_normalize (total[k]);
    }
}

/* File rotations: the bone ending at each joint takes its owner's global rotation. */
static void
solve_file (Retarget *rt,
            guint     frame,
            Quat     *total)
{
  const Quat *g = rt->file_global + (gsize) frame * rt->src->n_segments;

  glm_quat_identity (total[TOP]);
  for (guint i = 0; i < G_N_ELEMENTS (solve_order); i++)
    {
      int k = solve_order[i];

      if (rt->owner_seg[k] >= 0)
        memcpy (total[k], g[rt->owner_seg[k]], sizeof (Quat));
      else if (k == TORSO)
        glm_quat_identity (total[k]);
      else
        memcpy (total[k], total[pivot_of[k]], sizeof (Quat));
    }
}

/* File rotations: each bone's axis in its own frame, from the first frame. */
static void
compute_twist_axes (Retarget *rt)
{
  KFrame kf;

  kframe_get (rt, 0, &kf);
  for (int k = TORSO; k < KJ; k++)
    {
      int from = k == TORSO ? TORSO : pivot_of[k];
      int to = k == TORSO ? NECK : k;
      Vec3 v;

      rt->twist_axis_ok[k] = FALSE;
      kf.valid[from] = kf.valid[to] = TRUE;  /* any position will do */
      if (rt->pos_seg[from] >= 0 && rt->pos_seg[to] >= 0 && bone_vector (&kf, from, to, v))
        {
          odori_quat_rotate_inv (rt->totals[k], v, rt->twist_axis[k]);
          rt->twist_axis_ok[k] = normalize3 (rt->twist_axis[k]);
        }
    }
}

/* File rotations with KBS twist 0: the bone keeps only the swing of its rotation
 * relative to its parent; every other bone keeps its rotation in the world. */
static void
apply_twist_flags (Retarget *rt)
{
  const OdoriKbs *kbs = rt->options->kbs;
  gboolean any = FALSE;

  for (int k = TORSO; k < KJ && kbs != NULL; k++)
    any = any || (kbs->joints[k].bone != NULL && !kbs->joints[k].twist && rt->twist_axis_ok[k]);
  if (!any)
    return;

  for (guint f = 0; f < rt->src->n_frames; f++)
    {
      Quat *total = rt->totals + (gsize) f * KJ;

      for (guint i = 0; i < G_N_ELEMENTS (solve_order); i++)
        {
          int k = solve_order[i];
          int p = k == TORSO ? NONE : pivot_of[k];
          Quat local, inv, tmp;

          if (kbs->joints[k].bone == NULL || kbs->joints[k].twist || !rt->twist_axis_ok[k])
            continue;
          if (p == NONE)
            memcpy (local, total[k], sizeof local);
          else
            {
              odori_quat_conj (total[p], inv);
              odori_quat_mul (inv, total[k], local);
            }
          remove_twist (local, rt->twist_axis[k], tmp);
          if (p == NONE)
            memcpy (total[k], tmp, sizeof tmp);
          else
            odori_quat_mul (total[p], tmp, total[k]);
          glm_quat_normalize (total[k]);
        }
    }
}

static gboolean
setup_sources (Retarget  *rt,
               GError   **error)
{
  gboolean ni = rt->capture->kind == ODORI_CAPTURE_JOINTS;
  OdoriRotationSource source = rt->options->rotations;
  gboolean auto_fallback = FALSE;

  for (int k = 0; k < KJ; k++)
    {
      rt->pos_seg[k] = find_segment (rt->src, ni ? ni_position[k] : csv_position[k]);
      rt->measured[k] = rt->pos_seg[k] >= 0 && rt->capture->has_position[rt->pos_seg[k]];
      rt->owner_seg[k] = find_segment (rt->src, ni ? ni_owner[k] : csv_owner[k]);
    }
  if (rt->pos_seg[TOP] < 0)
    rt->pos_seg[TOP] = rt->pos_seg[TORSO];

  if (source == ODORI_ROTATIONS_AUTO)
    {
      source = ni || !rt->capture->has_rotations ? ODORI_ROTATIONS_POSITIONS
                                                 : ODORI_ROTATIONS_FILE;
      if (source == ODORI_ROTATIONS_POSITIONS && !rt->measured[TORSO])
        {
          /* nothing to compute from: whatever the file has (identity where nothing) */
          source = ODORI_ROTATIONS_FILE;
          auto_fallback = TRUE;
          odori_add_warning (rt->warnings, rt->capture->motion->path, 0, "%s",
                             rt->capture->has_rotations
                               ? _("no torso position to compute rotations from: the file's "
                                   "rotations are used")
                               : _("no rotations in the file and no torso position to compute "
                                   "them from: rotations are left at identity"));
        }
    }
  rt->from_positions = source == ODORI_ROTATIONS_POSITIONS;
  if (!rt->from_positions && !rt->capture->has_rotations && !auto_fallback)
    {
      g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NO_ROTATIONS,
                   _("%s:1: rotations from the file were asked for, but the file has no "
                     "rotations (no Quaternion: or Euler: columns)"), rt->capture->motion->path);
      return FALSE;
    }
  if (rt->from_positions && !rt->measured[TORSO])
    {
      g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_NO_POSITIONS,
                   _("%s:1: rotations from positions need the torso's position (%s), which the "
                     "file does not give"), rt->capture->motion->path,
                   ni ? "TORSO" : "Position:Spine-X/Y/Z");
      return FALSE;
    }
  if (rt->options->symmetry && !rt->from_positions)
    odori_add_warning (rt->warnings, rt->capture->motion->path, 0, "%s",
                       _("symmetry applies to rotations computed from positions; ignored"));
  return TRUE;
}

static void
solve_all (Retarget *rt)
{
  guint n = rt->src->n_frames;
  Calib calib;
  KFrame kf;

  memset (&calib, 0, sizeof calib);
  rt->totals = g_new (Quat, (gsize) n * KJ);
  if (rt->from_positions)
    {
      kframe_get (rt, 0, &kf);
      calibrate (rt, &kf, &calib);
      for (guint f = 0; f < n; f++)
        {
          kframe_get (rt, f, &kf);
          solve_positions (&calib, &kf, rt->totals + (gsize) f * KJ);
        }
    }
  else
    {
      if (rt->capture->rotations_local)
        rt->file_global = ni_globals (rt->src);
      else
        {
          rt->file_global = g_new (Quat, (gsize) n * rt->src->n_segments);
          for (guint f = 0; f < n; f++)
            for (guint s = 0; s < rt->src->n_segments; s++)
              memcpy (rt->file_global[(gsize) f * rt->src->n_segments + s],
                      odori_motion_get (rt->src, f, s)->rotation, sizeof (Quat));
        }
      for (guint f = 0; f < n; f++)
        solve_file (rt, f, rt->totals + (gsize) f * KJ);
    }
  if (!rt->from_positions)
    {
      compute_twist_axes (rt);
      apply_twist_flags (rt);
    }
}

/* Output */

static void
sign_continuous (OdoriMotion *m)
{
  for (guint s = 0; s < m->n_segments; s++)
    for (guint f = 1; f < m->n_frames; f++)
      {
        float *a = odori_motion_get (m, f - 1, s)->rotation;
        float *b = odori_motion_get (m, f, s)->rotation;

        if (glm_quat_dot (a, b) < 0)
          glm_vec4_negate (b);
      }
}

/* The position of the bone ending at joint K: its pivot, or further up. */
static int
slot_position_segment (Retarget *rt,
                       int       k)
{
  for (int guard = 0; guard < KJ; guard++)
    {
      int p = pivot_of[k];

      if (rt->pos_seg[p] >= 0)
        return rt->pos_seg[p];
      if (p == k)
        break;
      k = p;
    }
  return rt->pos_seg[TOP] >= 0 ? rt->pos_seg[TOP] : rt->pos_seg[TORSO];
}

/* The mapped bones as a BVH hierarchy: a bone hangs from the mapped bone that ends where
 * it starts (then that bone's rotation carries it exactly; the bones starting at the
 * torso hang from TORSO's at offset 0); any other is a ROOT of its own with position
 * channels (TOP_OF_JOINT, TORSO, a bone whose parent bone is not mapped), so the
 * hierarchy never moves a bone away from where the capture put it. */
static void
set_kbs_hierarchy (Retarget    *rt,
                   OdoriMotion *out,
                   const int   *slots,
                   guint        n)
{
  static const OdoriChannel root_channels[6] = {
    ODORI_CHANNEL_XPOSITION, ODORI_CHANNEL_YPOSITION, ODORI_CHANNEL_ZPOSITION,
    ODORI_CHANNEL_ZROTATION, ODORI_CHANNEL_XROTATION, ODORI_CHANNEL_YROTATION,
  };
  int index_of[KJ];

  for (int k = 0; k < KJ; k++)
    index_of[k] = -1;
  for (guint i = 0; i < n; i++)
    index_of[slots[i]] = i;

  for (guint i = 0; i < n; i++)
    {
      OdoriSegment *seg = &out->segments[i];
      int k = slots[i], pivot = pivot_of[k];
      /* the bone ending where this one starts (TORSO's: at the torso, offset 0) */
      int parent = k != TOP && k != TORSO && pivot != TOP ? index_of[pivot] : -1;

      seg->parent = parent;
      glm_vec3_zero (seg->offset);
      if (parent >= 0)
        {
          Vec3 d;

          glm_vec3_sub (odori_motion_get (out, 0, i)->position,
                        odori_motion_get (out, 0, parent)->position, d);
          odori_quat_rotate_inv (odori_motion_get (out, 0, parent)->rotation, d, seg->offset);
          seg->n_channels = 3;
          memcpy (seg->channels, root_channels + 3, 3 * sizeof (OdoriChannel));
        }
      else
        {
          seg->n_channels = 6;
          memcpy (seg->channels, root_channels, sizeof root_channels);
        }

      seg->has_end_site = FALSE;
      if (k != TOP && k != TORSO && rt->pos_seg[k] >= 0)
        {
          /* the bone's own length and direction */
          Vec3 d;

          glm_vec3_sub (odori_motion_get (rt->src, 0, rt->pos_seg[k])->position,
                        odori_motion_get (out, 0, i)->position, d);
          odori_quat_rotate_inv (odori_motion_get (out, 0, i)->rotation, d, seg->end_site);
          seg->has_end_site = glm_vec3_norm (seg->end_site) > EPS;
        }
    }
  /* a segment's parent is set before it is known to have children: End Sites only on
   * leaves */
  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < n; c++)
      if (out->segments[c].parent == (int) i)
        out->segments[i].has_end_site = FALSE;
  out->has_hierarchy = TRUE;
}

static OdoriMotion *
output_kbs (Retarget  *rt,
            GError   **error)
{
  const OdoriKbs *kbs = rt->options->kbs;
  int slots[KJ];
  guint n_out = 0;
  OdoriMotion *out;

  for (int k = 0; k < KJ; k++)
    {
      if (kbs->joints[k].bone == NULL)
        continue;
      for (guint i = 0; i < n_out; i++)
        if (strcmp (kbs->joints[slots[i]].bone, kbs->joints[k].bone) == 0)
          {
            g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_DUPLICATE_BONE,
                         _("the KBS maps %s and %s to the same bone \"%s\""),
                         odori_kinect_joint_to_element (slots[i]),
                         odori_kinect_joint_to_element (k), kbs->joints[k].bone);
            return NULL;
          }
      if (k != TOP && rt->pos_seg[k] < 0)
        {
          g_autofree char *msg =
            g_strdup_printf (_("the capture has no %s for %s (bone \"%s\"): it follows its "
                               "parent"), rt->capture->kind == ODORI_CAPTURE_JOINTS
                                            ? ni_position[k]
                                            : (csv_position[k] ? csv_position[k] : "joint"),
                             odori_kinect_joint_to_element (k), kbs->joints[k].bone);
          odori_add_warning (rt->warnings, rt->capture->motion->path, 0, "%s", msg);
        }
      slots[n_out++] = k;
    }
  if (n_out == 0)
    {
      g_set_error (error, ODORI_RETARGET_ERROR, ODORI_RETARGET_ERROR_UNMAPPED,
                   _("the KBS maps no joint to a bone"));
      return NULL;
    }

  out = odori_motion_new (n_out, rt->src->n_frames, rt->src->frame_time, error);
  if (out == NULL)
    return NULL;
  for (guint i = 0; i < n_out; i++)
    odori_motion_set_segment_name (out, i, kbs->joints[slots[i]].bone);
  for (guint f = 0; f < out->n_frames; f++)
    for (guint i = 0; i < n_out; i++)
      {
        OdoriTransform *t = odori_motion_get (out, f, i);
        int ps = slot_position_segment (rt, slots[i]);

        memcpy (t->rotation, rt->totals[(gsize) f * KJ + slots[i]], sizeof (Quat));
        if (ps >= 0)
          memcpy (t->position, odori_motion_get (rt->src, f, ps)->position, sizeof (Vec3));
      }
  set_kbs_hierarchy (rt, out, slots, n_out);
  return out;
}

/* The orthonormal frame of A (first axis) and B (in the plane of the first two). */
static gboolean
triad_frame (const float a[3],
             const float b[3],
             mat3        m)
{
  Vec3 x, y, z;

  glm_vec3_copy ((float *) a, x);
  if (!normalize3 (x))
    return FALSE;
  glm_vec3_cross (x, (float *) b, z);
  if (!normalize3 (z))
    return FALSE;
  glm_vec3_cross (z, x, y);
  glm_vec3_copy (x, m[0]);
  glm_vec3_copy (y, m[1]);
  glm_vec3_copy (z, m[2]);
  return TRUE;
}

static gboolean
triad_vectors (Retarget         *rt,
               const TriadEntry *e,
               guint             frame,
               float             a[3],
               float             b[3])
{
  int s[4] = {
    find_segment (rt->src, e->primary[0]), find_segment (rt->src, e->primary[1]),
    find_segment (rt->src, e->secondary[0]), find_segment (rt->src, e->secondary[1]),
  };

  for (int i = 0; i < 4; i++)
    if (s[i] < 0 || !rt->capture->has_position[s[i]])
      return FALSE;
  glm_vec3_sub (odori_motion_get (rt->src, frame, s[1])->position,
                odori_motion_get (rt->src, frame, s[0])->position, a);
  glm_vec3_sub (odori_motion_get (rt->src, frame, s[3])->position,
                odori_motion_get (rt->src, frame, s[2])->position, b);
  return TRUE;
}

/* SEG turns as the frame of its triad, relative to frame 0; where the frame is not
 * defined, it keeps the rotation it has. */
static void
apply_triad (Retarget         *rt,
             OdoriMotion      *out,
             guint             seg,
             const TriadEntry *e)
{
  Vec3 a, b;
  mat3 f0, ft, f0t, r;

  if (!triad_vectors (rt, e, 0, a, b) || !triad_frame (a, b, f0))
    return;
  glm_mat3_transpose_to (f0, f0t);
  for (guint f = 0; f < out->n_frames; f++)
    if (triad_vectors (rt, e, f, a, b) && triad_frame (a, b, ft))
      {
        glm_mat3_mul (ft, f0t, r);
        glm_mat3_quat (r, odori_motion_get (out, f, seg)->rotation);
        glm_quat_normalize (odori_motion_get (out, f, seg)->rotation);
      }
}

static OdoriMotion *
output_native (Retarget  *rt,
               GError   **error)
{
  gboolean ni = rt->capture->kind == ODORI_CAPTURE_JOINTS;
  const NativeEntry *table = ni ? ni_native : csv_native;
  guint n_table = ni ? G_N_ELEMENTS (ni_native) : G_N_ELEMENTS (csv_native);
  OdoriMotion *out = odori_motion_copy (rt->src);
  g_autofree int *slot = g_new (int, MAX (out->n_segments, 1));

  if (!rt->from_positions)
    {
      /* the file's rotations, globally */
      for (guint f = 0; f < out->n_frames; f++)
        for (guint s = 0; s < out->n_segments; s++)
          memcpy (odori_motion_get (out, f, s)->rotation,
                  rt->file_global[(gsize) f * out->n_segments + s], sizeof (Quat));
      return out;
    }
  for (guint s = 0; s < out->n_segments; s++)
    {
      slot[s] = TORSO;
      for (guint i = 0; i < n_table; i++)
        if (strcmp (out->segments[s].name, table[i].name) == 0)
          slot[s] = table[i].slot;
    }
  for (guint f = 0; f < out->n_frames; f++)
    for (guint s = 0; s < out->n_segments; s++)
      memcpy (odori_motion_get (out, f, s)->rotation, rt->totals[(gsize) f * KJ + slot[s]],
              sizeof (Quat));
  for (guint i = 0; i < (ni ? G_N_ELEMENTS (ni_triads) : G_N_ELEMENTS (csv_triads)); i++)
    {
      const TriadEntry *e = ni ? &ni_triads[i] : &csv_triads[i];
      int s = find_segment (out, e->name);

      if (s >= 0)
        apply_triad (rt, out, s, e);
    }
  return out;
}

OdoriMotion *
odori_retarget (const OdoriCapture       *capture,
                const OdoriImportOptions *options,
                GPtrArray                *warnings,
                GError                  **error)
{
  OdoriImportOptions defaults;
  Retarget rt = { 0 };
  OdoriMotion *out = NULL;

  g_return_val_if_fail (capture != NULL && capture->motion != NULL, NULL);
  g_return_val_if_fail (capture->oriented, NULL);

  if (options == NULL)
    {
      odori_import_options_init (&defaults);
      options = &defaults;
    }
  rt.capture = capture;
  rt.options = options;
  rt.warnings = warnings;
  rt.src = odori_motion_copy (capture->motion);
  if (capture->kind == ODORI_CAPTURE_SENSOR_CSV)
    fill_suit_positions (&rt);
  if (!setup_sources (&rt, error))
    goto out;
  solve_all (&rt);

  out = options->kbs != NULL ? output_kbs (&rt, error) : output_native (&rt, error);
  if (out != NULL)
    {
      odori_capture_set_units (out, ODORI_UNIT_CENTIMETERS);
      for (guint f = 0; f < out->n_frames; f++)
        for (guint s = 0; s < out->n_segments; s++)
          {
            OdoriTransform *t = odori_motion_get (out, f, s);

            t->scale[0] = t->scale[1] = t->scale[2] = 100.0f;
          }
      sign_continuous (out);
      g_free (out->path);
      out->path = g_strdup (capture->motion->path);
    }

out:
  odori_motion_unref (rt.src);
  g_free (rt.file_global);
  g_free (rt.totals);
  return out;
}

OdoriMotion *
odori_capture_import (const char               *path,
                      const OdoriImportOptions *options,
                      OdoriSmoothReport        *report,
                      GPtrArray                *warnings,
                      GError                  **error)
{
  OdoriImportOptions defaults;
  g_autoptr(OdoriCapture) capture = NULL;
  OdoriMotion *motion;

  g_return_val_if_fail (path != NULL, NULL);

  if (options == NULL)
    {
      odori_import_options_init (&defaults);
      options = &defaults;
    }
  capture = odori_capture_load (path, options, warnings, error);
  if (capture == NULL)
    return NULL;
  g_free (capture->motion->path);
  capture->motion->path = g_strdup (path);
  odori_capture_orient (capture, options->up, warnings);
  motion = odori_retarget (capture, options, warnings, error);
  if (motion == NULL)
    return NULL;
  if (options->smooth > 0 || report != NULL)
    odori_smooth_motion (motion, options->smooth, ODORI_SMOOTH_ALL, report);
  return motion;
}
