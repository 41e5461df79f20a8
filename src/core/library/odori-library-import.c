/* odori-library-import.c: bringing a capture into a library (DESIGN.md "Bringing a
 * capture into a library"): the bone map guessed from names and read from map files, the
 * capture retargeted onto the library's skeleton (adding the result to motion.dat is
 * odori-library-edit.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements; docs/import.md says the same for users.
 * - Roles from names: a name loses its namespace ("mixamorig:", "steve:"), its side is
 *   read from "Left"/"Right", 左/右, a separate "L"/"R" token ("L_Hip", "Hip_R",
 *   "Bip01 L Thigh"), or an l/r prefix before a body word ("lShldr", "LHipJoint",
 *   "rhand"); the rest is matched against body words, fingers, eyes, twist and roll
 *   joints and pelvis-side joints ("LHipJoint", "rButtock") first, as nothing. Joint-named
 *   families name the joint where a bone starts: Elbow is the forearm, Wrist the hand,
 *   Knee the shin, Ankle the foot. Three words depend on the other names of the file:
 *   "Shoulder" is the collar when the file has an upper arm of that side ("LeftArm"),
 *   else the upper arm (CMU's LeftShoulder, lShldr, NI's L_SHLDR); a sided "Hip" is the
 *   thigh unless the file has another thigh; "Leg" is the shin when the file has a thigh.
 * - Bone map: every role is taken by its joint nearest the root (then the first in the
 *   file): Hand → LeftWrist, not lhand. The torso: hips to hips; the neck (else the head)
 *   to the neck; the library's sensors strictly between them (Chest; Spine and Chest …)
 *   share out the capture's joints strictly between them, the i-th of k library sensors
 *   taking the capture joint floor(i·m/k) of m, so one Chest starts at the first spine
 *   joint; capture joints at the hips' or the neck's rest position (zero OFFSETs, CMU's
 *   lowerback) are not candidates, and of joints at one rest position the last (the one
 *   whose rotation turns the next real bone) stands for them.
 * - A library bone: from a sensor to its end, its one child, or of several the one child
 *   on the body's axis (hips → chest, chest → neck), else the first. A leaf's bone
 *   continues its parent's, carried by its own rotation (as odori-skin.c draws it).
 *   Its direction in the sensor's frame comes from the reference show's first frame.
 * - A capture bone: from the joint to the joint mapped to the library bone's end when
 *   that one is mapped and not at the joint's rest position, else along the joint's own
 *   chain (its one child, or the child on the body's axis, else the first, skipping
 *   joints at its position, else its End Site). Its direction in the joint's frame: the
 *   summed OFFSETs (BVH), else R⁻¹·(p_end − p) at frame 1.
 * - Rest alignment: Q = the smallest rotation turning the library direction onto the
 *   capture direction; each frame R = R_capture · Q, then the smallest rotation aiming it
 *   along the captured direction (a no-op for a bone of one capture joint, the chain's
 *   bend otherwise). A mapped sensor without any capture direction (a lone joint) keeps
 *   its first-frame pose relative to the joint's rest pose. An unmapped sensor keeps its
 *   first-frame rotation relative to its parent. Positions by forward kinematics from the
 *   reference's first-frame offsets in the parent's frame, from the hips down; a library
 *   root other than the hips (and the hips' ancestors) rides rigidly on the hips.
 * - Root and axes: the capture's up axis (given, or from the head minus the feet at
 *   frame 1, the largest axis, as odori-retarget.c does; else Y) and the library's (the
 *   same test on the reference, else Y) are made one by the shortest rotation (−Y: a half
 *   turn about X). Scale k = library hip height / capture hip height, each the hips'
 *   height above the lowest foot or toe at frame 1 (else above 0); without one, the
 *   ratio of the mapped bones' summed lengths. Root = k · the capture hips' horizontal
 *   path, and floor_lib + k · (height − floor_cap) up. Units: the reference's labels.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-format.h"
#include "odori-library-import.h"
#include "odori-reader.h"
#include "odori-text.h"

G_DEFINE_QUARK (odori-import-error-quark, odori_import_error)

/* Rest positions closer than this fraction of the body's size are one point. */
#define COINCIDENT_FRACTION 1e-4f
/* Shorter than this, a direction is not trusted. */
#define TINY 1e-12f

typedef float Vec3[3];
typedef float Quat[4];

/* Roles from names */

typedef enum
{
  KIND_NONE,
  KIND_HIPS,
  KIND_SPINE,
  KIND_CHEST,
  KIND_NECK,
  KIND_HEAD,
  KIND_COLLAR,
  KIND_UPPER_ARM,
  KIND_FOREARM,
  KIND_HAND,
  KIND_THIGH,
  KIND_SHIN,
  KIND_FOOT,
  KIND_TOE,
  KIND_SHOULDER,   /* collar or upper arm, by the other names */
  KIND_HIP,        /* centre: the hips; sided: the thigh unless there is another thigh */
  KIND_LEG,        /* the shin when there is a thigh */
} Kind;

typedef enum
{
  SIDE_NONE,
  SIDE_LEFT,
  SIDE_RIGHT,
} Side;

typedef struct
{
  const char *word;
  Kind        kind;
} KindWord;

/* Joints that are no body part Odori maps: fingers, face, twist helpers, pelvis sides. */
static const char *const ignored_words[] = {
  "thumb", "index", "middle", "ring", "pinky", "pinkie", "little", "finger", "fngr", "nub",
  "eye", "jaw", "tongue", "nose", "roll", "twist", "buttock", "hipjoint", "bust", "breast",
  "skull", "face", "hair", "指",
};

/* In order: the first word found in a name decides ("forearm" before "arm"). */
static const KindWord kind_words[] = {
  { "head", KIND_HEAD }, { "頭", KIND_HEAD },
  { "neck", KIND_NECK }, { "首", KIND_NECK },
  { "collar", KIND_COLLAR }, { "clavicle", KIND_COLLAR }, { "clav", KIND_COLLAR },
  { "鎖骨", KIND_COLLAR },
  { "shoulder", KIND_SHOULDER }, { "shldr", KIND_SHOULDER }, { "肩", KIND_SHOULDER },
  { "forearm", KIND_FOREARM }, { "lowarm", KIND_FOREARM }, { "lowerarm", KIND_FOREARM },
  { "elbow", KIND_FOREARM }, { "radius", KIND_FOREARM }, { "前腕", KIND_FOREARM },
  { "下腕", KIND_FOREARM }, { "肘", KIND_FOREARM },
  { "uparm", KIND_UPPER_ARM }, { "upperarm", KIND_UPPER_ARM }, { "humerus", KIND_UPPER_ARM },
  { "arm", KIND_UPPER_ARM }, { "腕", KIND_UPPER_ARM },
  { "hand", KIND_HAND }, { "wrist", KIND_HAND }, { "palm", KIND_HAND }, { "手", KIND_HAND },
  { "toe", KIND_TOE }, { "つま先", KIND_TOE },
  { "foot", KIND_FOOT }, { "ankle", KIND_FOOT }, { "足首", KIND_FOOT },
  { "upleg", KIND_THIGH }, { "upperleg", KIND_THIGH }, { "thigh", KIND_THIGH },
  { "femur", KIND_THIGH }, { "大腿", KIND_THIGH }, { "太もも", KIND_THIGH },
  { "lowleg", KIND_SHIN }, { "lowerleg", KIND_SHIN }, { "shin", KIND_SHIN },
  { "calf", KIND_SHIN }, { "knee", KIND_SHIN }, { "tibia", KIND_SHIN }, { "下腿", KIND_SHIN },
  { "膝", KIND_SHIN }, { "すね", KIND_SHIN },
  { "足", KIND_FOOT },
  { "leg", KIND_LEG }, { "脚", KIND_LEG },
  { "hip", KIND_HIP }, { "pelvis", KIND_HIPS }, { "腰", KIND_HIPS },
  { "chest", KIND_CHEST }, { "thorax", KIND_CHEST }, { "胸", KIND_CHEST },
  { "spine", KIND_SPINE }, { "back", KIND_SPINE }, { "abdomen", KIND_SPINE },
  { "torso", KIND_SPINE }, { "waist", KIND_SPINE }, { "lumbar", KIND_SPINE },
  { "belly", KIND_SPINE }, { "背", KIND_SPINE }, { "腹", KIND_SPINE },
};

static const char *role_names[] = {
  [ODORI_BONE_ROLE_NONE] = "none",
  [ODORI_BONE_ROLE_HIPS] = "hips",
  [ODORI_BONE_ROLE_SPINE] = "spine",
  [ODORI_BONE_ROLE_CHEST] = "chest",
  [ODORI_BONE_ROLE_NECK] = "neck",
  [ODORI_BONE_ROLE_HEAD] = "head",
  [ODORI_BONE_ROLE_LEFT_COLLAR] = "left-collar",
  [ODORI_BONE_ROLE_LEFT_UPPER_ARM] = "left-upper-arm",
  [ODORI_BONE_ROLE_LEFT_FOREARM] = "left-forearm",
  [ODORI_BONE_ROLE_LEFT_HAND] = "left-hand",
  [ODORI_BONE_ROLE_RIGHT_COLLAR] = "right-collar",
  [ODORI_BONE_ROLE_RIGHT_UPPER_ARM] = "right-upper-arm",
  [ODORI_BONE_ROLE_RIGHT_FOREARM] = "right-forearm",
  [ODORI_BONE_ROLE_RIGHT_HAND] = "right-hand",
  [ODORI_BONE_ROLE_LEFT_THIGH] = "left-thigh",
  [ODORI_BONE_ROLE_LEFT_SHIN] = "left-shin",
  [ODORI_BONE_ROLE_LEFT_FOOT] = "left-foot",
  [ODORI_BONE_ROLE_LEFT_TOE] = "left-toe",
  [ODORI_BONE_ROLE_RIGHT_THIGH] = "right-thigh",
  [ODORI_BONE_ROLE_RIGHT_SHIN] = "right-shin",
  [ODORI_BONE_ROLE_RIGHT_FOOT] = "right-foot",
  [ODORI_BONE_ROLE_RIGHT_TOE] = "right-toe",
};

const char *
odori_bone_role_to_string (OdoriBoneRole role)
{
  g_return_val_if_fail (role < ODORI_N_BONE_ROLES, "none");
  return role_names[role];
}

static gboolean
is_centre_role (OdoriBoneRole role)
{
  return role >= ODORI_BONE_ROLE_HIPS && role <= ODORI_BONE_ROLE_HEAD;
}

static gboolean
is_foot_role (OdoriBoneRole role)
{
  return role == ODORI_BONE_ROLE_LEFT_FOOT || role == ODORI_BONE_ROLE_RIGHT_FOOT ||
         role == ODORI_BONE_ROLE_LEFT_TOE || role == ODORI_BONE_ROLE_RIGHT_TOE;
}

/* Does LOWER start with a body word (for the l/r prefix of "lShldr", "rhand")? */
static gboolean
starts_with_body_word (const char *lower)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_words); i++)
    if (g_str_has_prefix (lower, kind_words[i].word))
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (ignored_words); i++)
    if (g_str_has_prefix (lower, ignored_words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
is_separator (char c)
{
  return c == '_' || c == '.' || c == '-' || c == ' ' || c == ':';
}

/* Removes LEN bytes at AT from S. */
static void
cut (char  *s,
     gsize  at,
     gsize  len)
{
  memmove (s + at, s + at + len, strlen (s + at + len) + 1);
}

/* The name without its namespace ("mixamorig:Hips", "steve:LSHO", "mixamorig_Hips"). */
static const char *
strip_namespace (const char *name)
{
  const char *colon = strrchr (name, ':');

  if (colon != NULL && colon[1] != '\0')
    name = colon + 1;
  if (g_ascii_strncasecmp (name, "mixamorig", 9) == 0)
    {
      const char *p = name + 9;

      while (g_ascii_isdigit (*p))
        p++;
      if (*p == '_' && p[1] != '\0')
        name = p + 1;
    }
  return name;
}

/* The side of NAME; *STEM (to free) is its lowercase text without the side. */
static Side
split_side (const char  *full_name,
            char       **stem)
{
  const char *name = strip_namespace (full_name);
  char *lower = g_ascii_strdown (name, -1);
  gsize len = strlen (lower);
  const char *p;

  *stem = lower;
  if ((p = strstr (lower, "left")) != NULL || (p = strstr (lower, "right")) != NULL)
    {
      Side side = p[0] == 'l' ? SIDE_LEFT : SIDE_RIGHT;

      cut (lower, p - lower, side == SIDE_LEFT ? 4 : 5);
      return side;
    }
  if ((p = strstr (lower, "左")) != NULL || (p = strstr (lower, "右")) != NULL)
    {
      Side side = strncmp (p, "左", strlen ("左")) == 0 ? SIDE_LEFT : SIDE_RIGHT;

      cut (lower, p - lower, strlen ("左"));
      return side;
    }
  /* a token of its own: "L_Hip", "Hip_R", "Bip01 L Thigh" */
  for (gsize i = 0; i < len; i++)
    if ((lower[i] == 'l' || lower[i] == 'r') && (i == 0 || is_separator (lower[i - 1])) &&
        (i + 1 == len || is_separator (lower[i + 1])) && len > 1)
      {
        Side side = lower[i] == 'l' ? SIDE_LEFT : SIDE_RIGHT;

        cut (lower, i, 1);
        return side;
      }
  /* a prefix before a body word: "lShldr", "LHipJoint", "rhand" (not "LowerBack") */
  if ((lower[0] == 'l' || lower[0] == 'r') && len > 1 &&
      (g_ascii_isupper (name[1]) || (g_ascii_islower (name[0]) && g_ascii_islower (name[1]))) &&
      starts_with_body_word (lower + 1))
    {
      Side side = lower[0] == 'l' ? SIDE_LEFT : SIDE_RIGHT;

      cut (lower, 0, 1);
      return side;
    }
  /* a suffix after a lowercase letter: "ShoulderL" */
  if (len > 2 && (name[len - 1] == 'L' || name[len - 1] == 'R') && g_ascii_islower (name[len - 2]))
    {
      Side side = name[len - 1] == 'L' ? SIDE_LEFT : SIDE_RIGHT;

      lower[len - 1] = '\0';
      return side;
    }
  return SIDE_NONE;
}

static Kind
kind_of_stem (const char *stem)
{
  for (guint i = 0; i < G_N_ELEMENTS (ignored_words); i++)
    if (strstr (stem, ignored_words[i]) != NULL)
      return KIND_NONE;
  /* salsa's rMid1: a middle finger */
  if (g_str_has_prefix (stem, "mid"))
    return KIND_NONE;
  for (guint i = 0; i < G_N_ELEMENTS (kind_words); i++)
    if (strstr (stem, kind_words[i].word) != NULL)
      return kind_words[i].kind;
  return KIND_NONE;
}

static OdoriBoneRole
role_of (Kind kind,
         Side side)
{
  static const OdoriBoneRole left[] = {
    [KIND_COLLAR] = ODORI_BONE_ROLE_LEFT_COLLAR,
    [KIND_UPPER_ARM] = ODORI_BONE_ROLE_LEFT_UPPER_ARM,
    [KIND_FOREARM] = ODORI_BONE_ROLE_LEFT_FOREARM,
    [KIND_HAND] = ODORI_BONE_ROLE_LEFT_HAND,
    [KIND_THIGH] = ODORI_BONE_ROLE_LEFT_THIGH,
    [KIND_SHIN] = ODORI_BONE_ROLE_LEFT_SHIN,
    [KIND_FOOT] = ODORI_BONE_ROLE_LEFT_FOOT,
    [KIND_TOE] = ODORI_BONE_ROLE_LEFT_TOE,
  };
  static const OdoriBoneRole right[] = {
    [KIND_COLLAR] = ODORI_BONE_ROLE_RIGHT_COLLAR,
    [KIND_UPPER_ARM] = ODORI_BONE_ROLE_RIGHT_UPPER_ARM,
    [KIND_FOREARM] = ODORI_BONE_ROLE_RIGHT_FOREARM,
    [KIND_HAND] = ODORI_BONE_ROLE_RIGHT_HAND,
    [KIND_THIGH] = ODORI_BONE_ROLE_RIGHT_THIGH,
    [KIND_SHIN] = ODORI_BONE_ROLE_RIGHT_SHIN,
    [KIND_FOOT] = ODORI_BONE_ROLE_RIGHT_FOOT,
    [KIND_TOE] = ODORI_BONE_ROLE_RIGHT_TOE,
  };

  switch (kind)
    {
    case KIND_HIPS:
    case KIND_SPINE:
    case KIND_CHEST:
    case KIND_NECK:
    case KIND_HEAD:
      /* a sided torso word ("leftEye" is ignored before) is nothing we map */
      return side == SIDE_NONE ? ODORI_BONE_ROLE_HIPS + (kind - KIND_HIPS) : ODORI_BONE_ROLE_NONE;
    case KIND_COLLAR:
    case KIND_UPPER_ARM:
    case KIND_FOREARM:
    case KIND_HAND:
    case KIND_THIGH:
    case KIND_SHIN:
    case KIND_FOOT:
    case KIND_TOE:
      if (side == SIDE_NONE)
        return ODORI_BONE_ROLE_NONE;
      return side == SIDE_LEFT ? left[kind] : right[kind];
    case KIND_NONE:
    case KIND_SHOULDER:
    case KIND_HIP:
    case KIND_LEG:
    default:
      return ODORI_BONE_ROLE_NONE;
    }
}

void
odori_bone_roles_classify (const char * const *names,
                           guint               n,
                           OdoriBoneRole      *roles)
{
  g_autofree Kind *kinds = g_new0 (Kind, MAX (n, 1));
  g_autofree Side *sides = g_new0 (Side, MAX (n, 1));
  gboolean has[3][KIND_LEG + 1] = { { FALSE } };

  g_return_if_fail (names != NULL || n == 0);
  g_return_if_fail (roles != NULL || n == 0);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *stem = NULL;

      sides[i] = split_side (names[i] != NULL ? names[i] : "", &stem);
      kinds[i] = kind_of_stem (stem);
      has[sides[i]][kinds[i]] = TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      Side side = sides[i];
      Kind kind = kinds[i];

      switch (kind)
        {
        case KIND_SHOULDER:
          kind = has[side][KIND_UPPER_ARM] ? KIND_COLLAR : KIND_UPPER_ARM;
          break;
        case KIND_HIP:
          if (side == SIDE_NONE)
            kind = KIND_HIPS;
          else
            kind = has[side][KIND_THIGH] ? KIND_NONE : KIND_THIGH;
          break;
        case KIND_LEG:
          kind = has[side][KIND_THIGH] || !has[side][KIND_SHIN] ? KIND_SHIN : KIND_THIGH;
          break;
        default:
          break;
        }
      roles[i] = role_of (kind, side);
    }
}

/* Bodies: a motion's tree, rest pose and roles */

typedef struct
{
  const OdoriMotion *motion;
  guint              n;
  int               *parent;
  int               *first_child;
  int               *next_sibling;
  guint             *depth;
  OdoriBoneRole     *roles;
  Vec3              *rest;          /* BVH (OFFSETs): the rest pose; else frame 1 */
  Quat              *rest_rot;
  float              eps;           /* rest positions closer than this are one point */
} Body;

static void
body_clear (Body *body)
{
  g_clear_pointer (&body->parent, g_free);
  g_clear_pointer (&body->first_child, g_free);
  g_clear_pointer (&body->next_sibling, g_free);
  g_clear_pointer (&body->depth, g_free);
  g_clear_pointer (&body->roles, g_free);
  g_clear_pointer (&body->rest, g_free);
  g_clear_pointer (&body->rest_rot, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Body, body_clear)

static void
body_parents_from_skeleton (Body                *body,
                            const OdoriSkeleton *skeleton)
{
  g_autoptr(OdoriSkeleton) own = NULL;

  if (skeleton == NULL)
    skeleton = own = odori_skeleton_for_motion (body->motion);
  if (skeleton == NULL)
    return;
  for (guint b = 0; b < skeleton->n_bones; b++)
    {
      const OdoriBone *bone = &skeleton->bones[b];
      int s = odori_motion_find_segment (body->motion, bone->name);
      int p = -1;

      if (s < 0)
        continue;
      if (bone->parent >= 0 && (guint) bone->parent < skeleton->n_bones)
        p = odori_motion_find_segment (body->motion, skeleton->bones[bone->parent].name);
      body->parent[s] = p != s ? p : -1;
    }
}

/* Depth of each segment; a parent loop (never from a skeleton) is cut at the root. */
static void
body_depths (Body *body)
{
  for (guint s = 0; s < body->n; s++)
    {
      guint d = 0;

      for (int p = body->parent[s]; p >= 0 && d <= body->n; p = body->parent[p])
        d++;
      if (d > body->n)
        {
          body->parent[s] = -1;
          d = 0;
        }
      body->depth[s] = d;
    }
}

/* Whether the OFFSETs give the skeleton: some files write every OFFSET as 0 and put the
 * bones in position channels; the first frame is the rest pose then. */
static gboolean
offsets_make_bones (const OdoriMotion *motion)
{
  guint n_bones = 0, n_zero = 0;

  for (guint s = 0; s < motion->n_segments; s++)
    if (motion->segments[s].parent >= 0)
      {
        n_bones++;
        n_zero += !(glm_vec3_norm ((float *) motion->segments[s].offset) > TINY);
      }
  return 2 * n_zero <= n_bones;
}

static void
body_init (Body                *body,
           const OdoriMotion   *motion,
           const OdoriSkeleton *skeleton,
           gboolean             use_offsets)
{
  g_autofree const char **names = NULL;
  float size = 0;

  memset (body, 0, sizeof *body);
  body->motion = motion;
  body->n = motion->n_segments;
  body->parent = g_new (int, MAX (body->n, 1));
  body->first_child = g_new (int, MAX (body->n, 1));
  body->next_sibling = g_new (int, MAX (body->n, 1));
  body->depth = g_new0 (guint, MAX (body->n, 1));
  body->roles = g_new0 (OdoriBoneRole, MAX (body->n, 1));
  body->rest = g_new0 (Vec3, MAX (body->n, 1));
  body->rest_rot = g_new0 (Quat, MAX (body->n, 1));
  names = g_new0 (const char *, MAX (body->n, 1));

  for (guint s = 0; s < body->n; s++)
    {
      body->parent[s] = motion->has_hierarchy ? motion->segments[s].parent : -1;
      if (body->parent[s] >= (int) body->n)
        body->parent[s] = -1;
      names[s] = motion->segments[s].name;
    }
  if (!motion->has_hierarchy)
    body_parents_from_skeleton (body, skeleton);
  body_depths (body);
  odori_bone_roles_classify (names, body->n, body->roles);

  for (guint s = 0; s < body->n; s++)
    body->first_child[s] = body->next_sibling[s] = -1;
  for (guint s = body->n; s-- > 0;)
    if (body->parent[s] >= 0)
      {
        body->next_sibling[s] = body->first_child[body->parent[s]];
        body->first_child[body->parent[s]] = s;
      }

  use_offsets = use_offsets && motion->has_hierarchy && offsets_make_bones (motion);
  /* BVH parents precede their children, so the offsets add up in one pass. */
  for (guint s = 0; s < body->n; s++)
    {
      if (use_offsets)
        {
          int p = body->parent[s];

          glm_vec3_copy (motion->segments[s].offset, body->rest[s]);
          if (p >= 0)
            glm_vec3_add (body->rest[p], body->rest[s], body->rest[s]);
          glm_quat_identity (body->rest_rot[s]);
        }
      else
        {
          const OdoriTransform *t = odori_motion_get (motion, 0, s);

          glm_vec3_copy ((float *) t->position, body->rest[s]);
          glm_quat_normalize_to ((float *) t->rotation, body->rest_rot[s]);
        }
    }
  for (guint s = 1; s < body->n; s++)
    size = MAX (size, glm_vec3_distance (body->rest[0], body->rest[s]));
  body->eps = MAX (size * COINCIDENT_FRACTION, TINY);
}

static gboolean
body_coincide (const Body *body,
               int         a,
               int         b)
{
  return glm_vec3_distance (body->rest[a], body->rest[b]) <= body->eps;
}

static gboolean
body_is_ancestor (const Body *body,
                  int         ancestor,
                  int         s)
{
  for (int p = body->parent[s]; p >= 0; p = body->parent[p])
    if (p == ancestor)
      return TRUE;
  return FALSE;
}

/* The child that continues S's bone: the only child, else the only child on the body's
 * axis (hips → spine, chest → neck), else the first. -1 for a leaf. */
static int
body_primary_child (const Body *body,
                    int         s)
{
  int first = body->first_child[s], centre = -1, n_centre = 0;

  if (first < 0 || body->next_sibling[first] < 0)
    return first;
  for (int c = first; c >= 0; c = body->next_sibling[c])
    if (is_centre_role (body->roles[c]))
      {
        centre = c;
        n_centre++;
      }
  return n_centre == 1 ? centre : first;
}

/* The joint of ROLE nearest the root (then the first), or -1. */
static int
body_find_role (const Body    *body,
                OdoriBoneRole  role)
{
  int best = -1;

  for (guint s = 0; s < body->n; s++)
    if (body->roles[s] == role && (best < 0 || body->depth[s] < body->depth[best]))
      best = s;
  return best;
}

/* The hips: the hips-role segment, else the first root. */
static int
body_hips (const Body *body)
{
  int hips = body_find_role (body, ODORI_BONE_ROLE_HIPS);

  for (guint s = 0; hips < 0 && s < body->n; s++)
    if (body->parent[s] < 0)
      hips = s;
  return hips;
}

/* DEST = the direction from A to B in A's rest frame (not normalised). */
static void
body_local_vector (const Body *body,
                   int         a,
                   int         b,
                   float       dest[3])
{
  versor inv;
  vec3 v;

  glm_vec3_sub (body->rest[b], body->rest[a], v);
  glm_quat_inv (body->rest_rot[a], inv);
  glm_quat_rotatev (inv, v, dest);
}

/* The capture bone along J's own chain: the first joint of its primary chain away from
 * J's rest position (*TARGET), else the End Site of the last joint at J's position
 * (*END_OF). DIR: in J's rest frame. FALSE when there is neither. */
static gboolean
body_chain_direction (const Body *body,
                      int         j,
                      int        *target,
                      int        *end_of,
                      float       dir[3])
{
  int n = j;

  *target = *end_of = -1;
  for (int c = body_primary_child (body, n); c >= 0; c = body_primary_child (body, n))
    {
      if (!body_coincide (body, j, c))
        {
          *target = c;
          body_local_vector (body, j, c, dir);
          return TRUE;
        }
      n = c;
    }
  if (body->motion->has_hierarchy && body->motion->segments[n].has_end_site &&
      glm_vec3_norm ((float *) body->motion->segments[n].end_site) > body->eps)
    {
      versor inv;

      *end_of = n;
      /* the End Site is in N's frame; at rest N's frame is J's turned by their rest
       * rotations (identity for BVH) */
      glm_quat_inv (body->rest_rot[j], inv);
      glm_quat_mul (inv, body->rest_rot[n], inv);
      glm_quat_rotatev (inv, (float *) body->motion->segments[n].end_site, dir);
      return TRUE;
    }
  return FALSE;
}

/* The bone map */

struct _OdoriBoneMap
{
  gatomicrefcount ref_count;
  guint           n_sensors;
  char          **sensors;
  OdoriBoneRole  *sensor_roles;
  int            *source;         /* per sensor: a joint, or -1 */
  guint           n_joints;
  char          **joints;
  OdoriBoneRole  *joint_roles;
};

static OdoriBoneMap *
bone_map_new (const Body *capture,
              const Body *library)
{
  OdoriBoneMap *map = g_new0 (OdoriBoneMap, 1);

  g_atomic_ref_count_init (&map->ref_count);
  map->n_sensors = library->n;
  map->sensors = g_new0 (char *, library->n + 1);
  map->sensor_roles = g_new0 (OdoriBoneRole, MAX (library->n, 1));
  map->source = g_new (int, MAX (library->n, 1));
  for (guint s = 0; s < library->n; s++)
    {
      map->sensors[s] = g_strdup (library->motion->segments[s].name);
      map->sensor_roles[s] = library->roles[s];
      map->source[s] = -1;
    }
  map->n_joints = capture->n;
  map->joints = g_new0 (char *, capture->n + 1);
  map->joint_roles = g_new0 (OdoriBoneRole, MAX (capture->n, 1));
  for (guint j = 0; j < capture->n; j++)
    {
      map->joints[j] = g_strdup (capture->motion->segments[j].name);
      map->joint_roles[j] = capture->roles[j];
    }
  return map;
}

OdoriBoneMap *
odori_bone_map_ref (OdoriBoneMap *map)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_atomic_ref_count_inc (&map->ref_count);
  return map;
}

void
odori_bone_map_unref (OdoriBoneMap *map)
{
  g_return_if_fail (map != NULL);
  if (!g_atomic_ref_count_dec (&map->ref_count))
    return;
  g_strfreev (map->sensors);
  g_strfreev (map->joints);
  g_free (map->sensor_roles);
  g_free (map->joint_roles);
  g_free (map->source);
  g_free (map);
}

guint
odori_bone_map_get_n_sensors (const OdoriBoneMap *map)
{
  g_return_val_if_fail (map != NULL, 0);
  return map->n_sensors;
}

const char *
odori_bone_map_get_sensor (const OdoriBoneMap *map,
                           guint               sensor)
{
  g_return_val_if_fail (map != NULL && sensor < map->n_sensors, NULL);
  return map->sensors[sensor];
}

OdoriBoneRole
odori_bone_map_get_sensor_role (const OdoriBoneMap *map,
                                guint               sensor)
{
  g_return_val_if_fail (map != NULL && sensor < map->n_sensors, ODORI_BONE_ROLE_NONE);
  return map->sensor_roles[sensor];
}

const char *
odori_bone_map_get_source (const OdoriBoneMap *map,
                           guint               sensor)
{
  g_return_val_if_fail (map != NULL && sensor < map->n_sensors, NULL);
  return map->source[sensor] >= 0 ? map->joints[map->source[sensor]] : NULL;
}

guint
odori_bone_map_get_n_joints (const OdoriBoneMap *map)
{
  g_return_val_if_fail (map != NULL, 0);
  return map->n_joints;
}

const char *
odori_bone_map_get_joint (const OdoriBoneMap *map,
                          guint               joint)
{
  g_return_val_if_fail (map != NULL && joint < map->n_joints, NULL);
  return map->joints[joint];
}

OdoriBoneRole
odori_bone_map_get_joint_role (const OdoriBoneMap *map,
                               guint               joint)
{
  g_return_val_if_fail (map != NULL && joint < map->n_joints, ODORI_BONE_ROLE_NONE);
  return map->joint_roles[joint];
}

static int
find_name (char * const *names,
           guint         n,
           const char   *name)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (names[i], name) == 0)
      return i;
  return -1;
}

static void
map_set (OdoriBoneMap *map,
         int           sensor,
         int           joint)
{
  if (joint >= 0)
    for (guint s = 0; s < map->n_sensors; s++)
      if (map->source[s] == joint)
        map->source[s] = -1;
  if (sensor >= 0)
    map->source[sensor] = joint;
}

gboolean
odori_bone_map_set_source (OdoriBoneMap *map,
                           const char   *sensor,
                           const char   *joint,
                           GError      **error)
{
  int s, j = -1;

  g_return_val_if_fail (map != NULL, FALSE);
  g_return_val_if_fail (sensor != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  s = find_name (map->sensors, map->n_sensors, sensor);
  if (s < 0)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP,
                   _("the library has no sensor \"%s\""), sensor);
      return FALSE;
    }
  if (joint != NULL && (j = find_name (map->joints, map->n_joints, joint)) < 0)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP,
                   _("the capture has no joint \"%s\""), joint);
      return FALSE;
    }
  map_set (map, s, j);
  return TRUE;
}

/* The capture joints strictly between HIPS and TOP on TOP's chain, from the hips up,
 * without joints at the rest position of either end; of joints at one position, the
 * last. */
static GArray *
capture_spine (const Body *capture,
               int         hips,
               int         top)
{
  GArray *chain = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *kept = g_array_new (FALSE, FALSE, sizeof (int));

  for (int p = capture->parent[top]; p >= 0 && p != hips; p = capture->parent[p])
    g_array_prepend_val (chain, p);
  for (guint i = 0; i < chain->len; i++)
    {
      int j = g_array_index (chain, int, i);

      if (body_coincide (capture, j, hips) || body_coincide (capture, j, top))
        continue;
      if (i + 1 < chain->len && body_coincide (capture, j, g_array_index (chain, int, i + 1)))
        continue;
      g_array_append_val (kept, j);
    }
  g_array_unref (chain);
  return kept;
}

/* The library's torso sensors strictly between HIPS and TOP (neither neck nor head nor a
 * limb), from the hips up. */
static GArray *
library_spine (const Body *library,
               int         hips,
               int         top)
{
  GArray *chain = g_array_new (FALSE, FALSE, sizeof (int));

  for (int p = library->parent[top]; p >= 0 && p != hips; p = library->parent[p])
    if (library->roles[p] == ODORI_BONE_ROLE_NONE || library->roles[p] == ODORI_BONE_ROLE_SPINE ||
        library->roles[p] == ODORI_BONE_ROLE_CHEST)
      g_array_prepend_val (chain, p);
  return chain;
}

static void
guess_spine (OdoriBoneMap *map,
             const Body   *capture,
             const Body   *library,
             int           lib_hips,
             int           cap_hips)
{
  OdoriBoneRole tops[] = { ODORI_BONE_ROLE_NECK, ODORI_BONE_ROLE_HEAD };
  g_autoptr(GArray) lib_chain = NULL;
  g_autoptr(GArray) cap_chain = NULL;
  int lib_top = -1, cap_top = -1;
  guint k, m;

  for (guint t = 0; t < G_N_ELEMENTS (tops) && (lib_top < 0 || cap_top < 0); t++)
    {
      lib_top = body_find_role (library, tops[t]);
      cap_top = body_find_role (capture, tops[t]);
    }
  if (lib_top < 0 || cap_top < 0 || !body_is_ancestor (library, lib_hips, lib_top) ||
      !body_is_ancestor (capture, cap_hips, cap_top))
    return;
  if (map->source[lib_top] < 0)
    map_set (map, lib_top, cap_top);

  lib_chain = library_spine (library, lib_hips, lib_top);
  cap_chain = capture_spine (capture, cap_hips, cap_top);
  k = lib_chain->len;
  m = cap_chain->len;
  if (k == 0 || m == 0)
    return;
  if (m >= k)
    for (guint i = 0; i < k; i++)
      map_set (map, g_array_index (lib_chain, int, i),
               g_array_index (cap_chain, int, (gsize) i * m / k));
  else
    for (guint i = 0; i < m; i++)
      map_set (map, g_array_index (lib_chain, int, (gsize) i * k / m),
               g_array_index (cap_chain, int, i));
}

static OdoriBoneMap *
bone_map_guess (const Body *capture,
                const Body *library)
{
  OdoriBoneMap *map = bone_map_new (capture, library);
  int lib_hips = body_hips (library), cap_hips = body_hips (capture);

  if (lib_hips < 0 || cap_hips < 0)
    return map;
  map_set (map, lib_hips, cap_hips);
  for (OdoriBoneRole role = ODORI_BONE_ROLE_HEAD; role < ODORI_N_BONE_ROLES; role++)
    {
      int s = body_find_role (library, role), j = body_find_role (capture, role);

      if (s >= 0 && j >= 0 && s != lib_hips && j != cap_hips)
        map_set (map, s, j);
    }
  guess_spine (map, capture, library, lib_hips, cap_hips);
  return map;
}

OdoriBoneMap *
odori_bone_map_guess (const OdoriMotion   *capture,
                      const OdoriSkeleton *capture_skeleton,
                      const OdoriMotion   *reference,
                      const OdoriSkeleton *reference_skeleton)
{
  g_auto(Body) cap = { 0 };
  g_auto(Body) lib = { 0 };

  g_return_val_if_fail (capture != NULL, NULL);
  g_return_val_if_fail (reference != NULL, NULL);

  body_init (&cap, capture, capture_skeleton, TRUE);
  body_init (&lib, reference, reference_skeleton, FALSE);
  return bone_map_guess (&cap, &lib);
}

/* Map files */

/* The two fields of a map line (LINE is NUL-terminated, without its '#' comment, trimmed):
 * split at a tab when there is one (names may then hold blanks), else at blanks. */
static gboolean
split_map_line (char  *line,
                char **joint,
                char **sensor)
{
  char *tab = strchr (line, '\t');
  char *p, *q;

  if (tab != NULL)
    {
      *tab = '\0';
      *joint = g_strstrip (line);
      *sensor = g_strstrip (tab + 1);
      return **joint != '\0' && **sensor != '\0' && strchr (*sensor, '\t') == NULL;
    }
  for (p = line; *p != '\0' && *p != ' '; p++)
    ;
  if (*p == '\0')
    return FALSE;
  *p++ = '\0';
  while (*p == ' ')
    p++;
  for (q = p; *q != '\0' && *q != ' '; q++)
    ;
  *joint = line;
  *sensor = p;
  return *p != '\0' && *q == '\0';
}

/* One map line: "JOINT SENSOR", "JOINT -" or "- SENSOR" (LINE is modified). */
static gboolean
apply_map_line (OdoriBoneMap *map,
                char         *line,
                const char   *display_name,
                guint         lineno,
                GError      **error)
{
  char *hash = strchr (line, '#');
  char *joint = NULL, *sensor = NULL;
  int s = -1, j = -1;

  if (hash != NULL)
    *hash = '\0';
  g_strstrip (line);
  if (line[0] == '\0')
    return TRUE;
  if (!split_map_line (line, &joint, &sensor))
    return odori_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP, display_name,
                            lineno,
                            _("expected a capture joint and a library sensor, like "
                              "\"LeftShoulder<TAB>LeftUpArm\""));
  if (strcmp (joint, "-") != 0 && (j = find_name (map->joints, map->n_joints, joint)) < 0)
    return odori_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP, display_name,
                            lineno, _("the capture has no joint \"%s\""), joint);
  if (strcmp (sensor, "-") != 0 && (s = find_name (map->sensors, map->n_sensors, sensor)) < 0)
    return odori_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP, display_name,
                            lineno, _("the library has no sensor \"%s\""), sensor);
  if (s < 0 && j < 0)
    return odori_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP, display_name,
                            lineno, _("\"- -\" maps nothing"));
  map_set (map, s, j);
  return TRUE;
}

gboolean
odori_bone_map_apply_text (OdoriBoneMap *map,
                           const char   *display_name,
                           const char   *text,
                           gsize         len,
                           GError      **error)
{
  g_autofree int *saved = NULL;
  const char *p, *end;
  guint lineno = 1;

  g_return_val_if_fail (map != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (display_name == NULL)
    display_name = "(map)";
  if (len > 0 && (memchr (text, '\0', len) != NULL || !g_utf8_validate_len (text, len, NULL)))
    return odori_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP, display_name,
                            1, _("not UTF-8 text"));
  saved = g_memdup2 (map->source, sizeof (int) * MAX (map->n_sensors, 1));
  for (p = text, end = text + len; p < end; lineno++)
    {
      const char *eol = p;
      g_autofree char *line = NULL;

      while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
      line = g_strndup (p, eol - p);
      if (!apply_map_line (map, line, display_name, lineno, error))
        {
          memcpy (map->source, saved, sizeof (int) * map->n_sensors);
          return FALSE;
        }
      p = eol;
      if (p < end && *p == '\r')
        p++;
      else if (p < end && *p == '\n')
        p++;
      if (p < end && *p == '\n' && p[-1] == '\r')
        p++;
    }
  return TRUE;
}

gboolean
odori_bone_map_apply_file (OdoriBoneMap *map,
                           const char   *path,
                           GError      **error)
{
  g_autoptr(GMappedFile) file = NULL;

  g_return_val_if_fail (map != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  file = odori_mapped_file_new (path, error);
  if (file == NULL)
    return FALSE;
  return odori_bone_map_apply_text (map, path, g_mapped_file_get_contents (file),
                                    g_mapped_file_get_length (file), error);
}

char *
odori_bone_map_to_text (const OdoriBoneMap *map)
{
  GString *text;

  g_return_val_if_fail (map != NULL, NULL);

  text = g_string_new ("# Odori bone map: capture joint<TAB>library sensor\n");
  for (guint s = 0; s < map->n_sensors; s++)
    g_string_append_printf (text, "%s\t%s\n",
                            map->source[s] >= 0 ? map->joints[map->source[s]] : "-",
                            map->sensors[s]);
  return g_string_free (text, FALSE);
}

/* Retargeting */

typedef enum
{
  PLAN_ROOT,     /* the hips: the capture hips' path; R_capture · Q, aimed */
  PLAN_AIM,      /* R_capture · Q, aimed; forward kinematics from the parent */
  PLAN_FOLLOW,   /* first-frame rotation relative to the parent */
  PLAN_RIDE,     /* rigid on the hips (another root, an ancestor of the hips) */
} PlanMode;

typedef struct
{
  PlanMode mode;
  int      parent;     /* library segment, or -1 */
  int      end;        /* library segment at the bone's end, or -1 */
  int      joint;      /* capture joint (ROOT, AIM), or -1 */
  int      target;     /* capture joint the bone aims at, or -1 */
  int      end_of;     /* capture joint whose End Site the bone aims at, or -1 */
  gboolean aim;       /* aim along the captured direction each frame */
  float    dir[3];     /* the library bone's direction in the sensor's frame (unit) */
  float    q[4];       /* ROOT, AIM: Q; FOLLOW: R_parent⁻¹ · R; RIDE: R_hips⁻¹ · R (frame 1) */
  float    offset[3];  /* from the parent (the hips for RIDE), in its frame at frame 1 */
} Plan;

typedef struct
{
  const OdoriMotion *capture;
  const OdoriMotion *reference;
  Body               cap;
  Body               lib;
  int               *source;     /* per library sensor: capture joint or -1 */
  Plan              *plans;
  guint             *order;      /* library sensors, each after what it hangs on */
  int                hips;       /* library */
  float              r[4];       /* capture axes → library axes */
  float              up[3];      /* the library's up */
  float              scale;
  float              floor_lib;
  float              floor_cap;
  /* per frame */
  Quat              *cap_rot;
  Vec3              *cap_pos;
} Retarget;

static void
retarget_clear (Retarget *rt)
{
  body_clear (&rt->cap);
  body_clear (&rt->lib);
  g_clear_pointer (&rt->source, g_free);
  g_clear_pointer (&rt->plans, g_free);
  g_clear_pointer (&rt->order, g_free);
  g_clear_pointer (&rt->cap_rot, g_free);
  g_clear_pointer (&rt->cap_pos, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Retarget, retarget_clear)

/* The up axis of BODY's frame 1 from its head minus its feet, or AUTO. */
static OdoriUpAxis
body_guess_up (const Body *body)
{
  OdoriBoneRole tops[] = { ODORI_BONE_ROLE_HEAD, ODORI_BONE_ROLE_NECK };
  OdoriBoneRole feet[][2] = {
    { ODORI_BONE_ROLE_LEFT_FOOT, ODORI_BONE_ROLE_RIGHT_FOOT },
    { ODORI_BONE_ROLE_LEFT_TOE, ODORI_BONE_ROLE_RIGHT_TOE },
    { ODORI_BONE_ROLE_LEFT_SHIN, ODORI_BONE_ROLE_RIGHT_SHIN },
    { ODORI_BONE_ROLE_HIPS, ODORI_BONE_ROLE_HIPS },
  };
  int top = -1;
  vec3 a, b = { 0, 0, 0 }, v;
  int axis = 0;

  for (guint t = 0; t < G_N_ELEMENTS (tops) && top < 0; t++)
    top = body_find_role (body, tops[t]);
  if (top < 0)
    return ODORI_UP_AUTO;
  glm_vec3_copy (odori_motion_get (body->motion, 0, top)->position, a);
  for (guint k = 0; k < G_N_ELEMENTS (feet); k++)
    {
      int l = body_find_role (body, feet[k][0]), r = body_find_role (body, feet[k][1]);
      guint n = 0;

      glm_vec3_zero (b);
      if (l >= 0)
        {
          glm_vec3_add (b, odori_motion_get (body->motion, 0, l)->position, b);
          n++;
        }
      if (r >= 0 && r != l)
        {
          glm_vec3_add (b, odori_motion_get (body->motion, 0, r)->position, b);
          n++;
        }
      if (n == 0)
        continue;
      glm_vec3_scale (b, 1.0f / n, b);
      glm_vec3_sub (a, b, v);
      for (int i = 1; i < 3; i++)
        if (fabsf (v[i]) > fabsf (v[axis]))
          axis = i;
      if (!(fabsf (v[axis]) > 0.5f * glm_vec3_norm (v)) || !(fabsf (v[axis]) > TINY))
        return ODORI_UP_AUTO;
      return (v[axis] > 0 ? ODORI_UP_X : ODORI_UP_NEG_X) + axis;
    }
  return ODORI_UP_AUTO;
}

OdoriUpAxis
odori_motion_guess_up (const OdoriMotion *motion)
{
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_auto (Body) body = { 0 };

  g_return_val_if_fail (motion != NULL, ODORI_UP_AUTO);

  if (motion->n_frames == 0 || motion->n_segments == 0)
    return ODORI_UP_AUTO;
  skeleton = odori_skeleton_for_motion (motion);
  body_init (&body, motion, skeleton, motion->has_hierarchy);
  return body_guess_up (&body);
}

void
odori_motion_orient_up (OdoriMotion *motion,
                        OdoriUpAxis  up)
{
  versor r;

  g_return_if_fail (motion != NULL);
  g_return_if_fail (motion->root_offsets == NULL); /* turn a copy (odori_motion_copy ()) */

  if (up == ODORI_UP_AUTO || up == ODORI_UP_Y)
    return;
  odori_up_axis_rotation (up, r);
  for (guint f = 0; f < motion->n_frames; f++)
    for (guint s = 0; s < motion->n_segments; s++)
      {
        OdoriTransform *t = odori_motion_get (motion, f, s);
        versor q;

        glm_quat_rotatev (r, t->position, t->position);
        glm_vec4_copy (t->rotation, q);
        glm_quat_mul (r, q, q);
        glm_vec4_copy (q, t->rotation);
      }
}

static gboolean
resolve_map (Retarget            *rt,
             const OdoriBoneMap  *map,
             GError             **error)
{
  rt->source = g_new (int, MAX (rt->lib.n, 1));
  for (guint s = 0; s < rt->lib.n; s++)
    rt->source[s] = -1;
  for (guint i = 0; i < map->n_sensors; i++)
    {
      const char *joint = map->source[i] >= 0 ? map->joints[map->source[i]] : NULL;
      int s = odori_motion_find_segment (rt->reference, map->sensors[i]);
      int j;

      if (joint == NULL)
        continue;
      if (s < 0)
        {
          g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP,
                       _("the bone map names sensor \"%s\", which the library does not have"),
                       map->sensors[i]);
          return FALSE;
        }
      j = odori_motion_find_segment (rt->capture, joint);
      if (j < 0)
        {
          g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_MAP,
                       _("the bone map names joint \"%s\", which the capture does not have"),
                       joint);
          return FALSE;
        }
      rt->source[s] = j;
    }
  return TRUE;
}

/* The axes: R takes the capture's up onto the library's. */
static void
retarget_axes (Retarget            *rt,
               OdoriUpAxis          up,
               OdoriRetargetReport *report)
{
  OdoriUpAxis lib_up = body_guess_up (&rt->lib);
  versor r_cap, r_lib, inv;

  report->up_guessed = FALSE;
  if (up == ODORI_UP_AUTO)
    {
      up = body_guess_up (&rt->cap);
      report->up_guessed = up != ODORI_UP_AUTO;
      if (up == ODORI_UP_AUTO)
        up = ODORI_UP_Y;
    }
  if (lib_up == ODORI_UP_AUTO)
    lib_up = ODORI_UP_Y;
  report->up = up;
  odori_up_axis_rotation (up, r_cap);
  odori_up_axis_rotation (lib_up, r_lib);
  glm_quat_inv (r_lib, inv);
  glm_quat_mul (inv, r_cap, rt->r);
  glm_quat_rotatev (inv, (vec3) { 0, 1, 0 }, rt->up);
}

/* The lowest foot or toe of BODY at frame 1 along UP, after turning by R (nullable);
 * *FLOOR is left alone when there is none. */
static void
body_floor (const Body  *body,
            const float *r,
            const float  up[3],
            float       *floor)
{
  gboolean found = FALSE;

  for (guint s = 0; s < body->n; s++)
    if (is_foot_role (body->roles[s]))
      {
        vec3 p;
        float h;

        glm_vec3_copy (odori_motion_get (body->motion, 0, s)->position, p);
        if (r != NULL)
          glm_quat_rotatev ((float *) r, p, p);
        h = glm_vec3_dot (p, (float *) up);
        if (!found || h < *floor)
          *floor = h;
        found = TRUE;
      }
}

static gboolean
lib_vector (const Body *lib,
            int         from,
            int         to,
            float       dir[3])
{
  if (from < 0 || to < 0 || body_coincide (lib, from, to))
    return FALSE;
  body_local_vector (lib, from, to, dir);
  return TRUE;
}

/* Q and the aim of a mapped sensor S (joint J). FALSE when either side has no bone. */
static gboolean
plan_aim (Retarget *rt,
          guint     s,
          int       j,
          Plan     *plan)
{
  vec3 d;

  plan->end = body_primary_child (&rt->lib, s);
  if (!lib_vector (&rt->lib, s, plan->end, plan->dir))
    {
      /* a leaf continues its parent's bone (R_p⁻¹ · (p − p_p), the parent's bone in the
       * parent's frame), carried by its own rotation, as odori-skin.c draws it */
      plan->end = -1;
      if (!lib_vector (&rt->lib, plan->parent, s, plan->dir))
        return FALSE;
    }
  plan->target = plan->end_of = -1;
  if (plan->end >= 0 && rt->source[plan->end] >= 0 && rt->source[plan->end] != j &&
      !body_coincide (&rt->cap, j, rt->source[plan->end]))
    {
      plan->target = rt->source[plan->end];
      body_local_vector (&rt->cap, j, plan->target, d);
    }
  else if (!body_chain_direction (&rt->cap, j, &plan->target, &plan->end_of, d))
    return FALSE;
  glm_vec3_normalize (plan->dir);
  glm_vec3_normalize (d);
  odori_quat_between (plan->dir, d, plan->q);
  plan->aim = TRUE;
  return TRUE;
}

static void
plan_sensor (Retarget *rt,
             guint     s)
{
  Plan *plan = &rt->plans[s];
  const Body *lib = &rt->lib;
  int h = rt->hips;
  versor inv = GLM_QUAT_IDENTITY_INIT;
  vec3 v;

  plan->parent = lib->parent[s];
  plan->joint = rt->source[s];
  plan->end = plan->target = plan->end_of = -1;
  if ((int) s != h && (plan->parent < 0 || body_is_ancestor (lib, s, h)))
    {
      plan->mode = PLAN_RIDE;
      plan->joint = -1;
      glm_quat_inv (lib->rest_rot[h], inv);
      glm_quat_mul (inv, lib->rest_rot[s], plan->q);
      glm_vec3_sub (lib->rest[s], lib->rest[h], v);
      glm_quat_rotatev (inv, v, plan->offset);
      return;
    }
  if (plan->parent >= 0)
    {
      glm_quat_inv (lib->rest_rot[plan->parent], inv);
      glm_vec3_sub (lib->rest[s], lib->rest[plan->parent], v);
      glm_quat_rotatev (inv, v, plan->offset);
    }
  if (plan->joint < 0)
    {
      plan->mode = PLAN_FOLLOW;
      glm_quat_mul (inv, lib->rest_rot[s], plan->q);
      return;
    }
  plan->mode = (int) s == h ? PLAN_ROOT : PLAN_AIM;
  if (!plan_aim (rt, s, plan->joint, plan))
    {
      /* a lone joint: the sensor keeps its first-frame pose relative to the joint's
       * rest pose (turned into the library's axes) */
      versor rest;

      glm_quat_mul (rt->r, rt->cap.rest_rot[plan->joint], rest);
      glm_quat_inv (rest, rest);
      glm_quat_mul (rest, lib->rest_rot[s], plan->q);
      plan->aim = FALSE;
      plan->end = -1;
    }
}

/* Hips first, then every sensor after its parent (the hips' ancestors and the other
 * roots only need the hips). */
static void
plan_order (Retarget *rt)
{
  const Body *lib = &rt->lib;
  g_autofree int *stack = g_new (int, MAX (lib->n, 1));
  guint n = 0;

  rt->order = g_new (guint, MAX (lib->n, 1));
  rt->order[n++] = rt->hips;
  for (guint root = 0; root < lib->n; root++)
    {
      guint top = 0;

      if (lib->parent[root] >= 0)
        continue;
      stack[top++] = root;
      while (top > 0)
        {
          int s = stack[--top];

          if (s != rt->hips)
            rt->order[n++] = s;
          /* children pushed last first, so they come out in order */
          for (int c = lib->first_child[s]; c >= 0; c = lib->next_sibling[c])
            stack[top++] = c;
        }
    }
  g_assert (n == lib->n);
}

/* Library length per capture length: hip heights, else the mapped bones' lengths. */
static void
retarget_scale (Retarget            *rt,
                OdoriRetargetReport *report)
{
  float h_lib, h_cap, sum_lib = 0, sum_cap = 0;
  vec3 p;

  rt->floor_lib = rt->floor_cap = 0;
  body_floor (&rt->lib, NULL, rt->up, &rt->floor_lib);
  body_floor (&rt->cap, rt->r, rt->up, &rt->floor_cap);
  h_lib = glm_vec3_dot (odori_motion_get (rt->reference, 0, rt->hips)->position, rt->up)
          - rt->floor_lib;
  glm_quat_rotatev (rt->r, odori_motion_get (rt->capture, 0, rt->plans[rt->hips].joint)->position,
                    p);
  h_cap = glm_vec3_dot (p, rt->up) - rt->floor_cap;
  report->scale_guessed = FALSE;
  /* above the lowest foot, else above the floor (0) */
  if (h_lib > rt->lib.eps && h_cap > rt->cap.eps)
    {
      rt->scale = h_lib / h_cap;
      return;
    }
  for (guint s = 0; s < rt->lib.n; s++)
    {
      const Plan *plan = &rt->plans[s];

      if (plan->end >= 0 && plan->target >= 0 && rt->source[plan->end] == plan->target)
        {
          sum_lib += glm_vec3_distance (rt->lib.rest[s], rt->lib.rest[plan->end]);
          sum_cap += glm_vec3_distance (rt->cap.rest[plan->joint], rt->cap.rest[plan->target]);
        }
    }
  rt->scale = sum_lib > 0 && sum_cap > 0 ? sum_lib / sum_cap : 1.0f;
  report->scale_guessed = TRUE;
}

static void
capture_frame (Retarget *rt,
               guint     frame)
{
  for (guint j = 0; j < rt->cap.n; j++)
    {
      const OdoriTransform *t = odori_motion_get (rt->capture, frame, j);

      glm_quat_mul (rt->r, (float *) t->rotation, rt->cap_rot[j]);
      glm_quat_normalize (rt->cap_rot[j]);
      glm_quat_rotatev (rt->r, (float *) t->position, rt->cap_pos[j]);
    }
}

/* The smallest rotation that brings R's bone onto the captured direction. */
static void
aim_bone (const Retarget *rt,
          const Plan     *plan,
          float           rot[4])
{
  vec3 cur, target;
  versor extra;

  if (plan->target >= 0)
    glm_vec3_sub (rt->cap_pos[plan->target], rt->cap_pos[plan->joint], target);
  else
    glm_quat_rotatev (rt->cap_rot[plan->end_of],
                      (float *) rt->capture->segments[plan->end_of].end_site, target);
  if (!(glm_vec3_norm (target) > TINY))
    return;
  glm_quat_rotatev (rot, (float *) plan->dir, cur);
  glm_vec3_normalize (cur);
  glm_vec3_normalize (target);
  odori_quat_between (cur, target, extra);
  glm_quat_mul (extra, rot, rot);
  glm_quat_normalize (rot);
}

static void
root_position (const Retarget *rt,
               const float     captured[3],
               float           out[3])
{
  float height = glm_vec3_dot ((float *) captured, (float *) rt->up);
  vec3 horizontal, up;

  glm_vec3_scale ((float *) rt->up, height, up);
  glm_vec3_sub ((float *) captured, up, horizontal);
  glm_vec3_scale (horizontal, rt->scale, out);
  glm_vec3_scale ((float *) rt->up, rt->floor_lib + rt->scale * (height - rt->floor_cap), up);
  glm_vec3_add (out, up, out);
}

static void
retarget_frame (Retarget    *rt,
                OdoriMotion *out,
                guint        frame)
{
  capture_frame (rt, frame);
  for (guint i = 0; i < rt->lib.n; i++)
    {
      guint s = rt->order[i];
      const Plan *plan = &rt->plans[s];
      OdoriTransform *t = odori_motion_get (out, frame, s);
      const OdoriTransform *base = NULL;
      vec3 v;

      switch (plan->mode)
        {
        case PLAN_ROOT:
        case PLAN_AIM:
          glm_quat_mul (rt->cap_rot[plan->joint], (float *) plan->q, t->rotation);
          if (plan->aim)
            aim_bone (rt, plan, t->rotation);
          if (plan->mode == PLAN_ROOT)
            root_position (rt, rt->cap_pos[plan->joint], t->position);
          else
            base = odori_motion_get (out, frame, plan->parent);
          break;
        case PLAN_FOLLOW:
          base = odori_motion_get (out, frame, plan->parent);
          glm_quat_mul ((float *) base->rotation, (float *) plan->q, t->rotation);
          break;
        case PLAN_RIDE:
        default:
          base = odori_motion_get (out, frame, rt->hips);
          glm_quat_mul ((float *) base->rotation, (float *) plan->q, t->rotation);
          break;
        }
      glm_quat_normalize (t->rotation);
      if (base != NULL)
        {
          glm_quat_rotatev ((float *) base->rotation, (float *) plan->offset, v);
          glm_vec3_add ((float *) base->position, v, t->position);
        }
    }
}

static double
angle_between (const float a[3],
               const float b[3])
{
  double ax = a[0], ay = a[1], az = a[2], bx = b[0], by = b[1], bz = b[2];
  double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  double dot = ax * bx + ay * by + az * bz;

  return atan2 (sqrt (cx * cx + cy * cy + cz * cz), dot) * 180.0 / G_PI;
}

/* The angle between the library's segment A → B and the capture's JA → JB this frame. */
static void
measure (const Retarget    *rt,
         const OdoriMotion *out,
         guint              frame,
         int                a,
         int                b,
         int                ja,
         int                jb,
         double            *max)
{
  vec3 lib, cap;

  if (a < 0 || b < 0 || ja < 0 || jb < 0)
    return;
  glm_vec3_sub (odori_motion_get (out, frame, b)->position,
                odori_motion_get (out, frame, a)->position, lib);
  glm_vec3_sub ((float *) rt->cap_pos[jb], (float *) rt->cap_pos[ja], cap);
  if (glm_vec3_norm (lib) > TINY && glm_vec3_norm (cap) > TINY)
    *max = isnan (*max) ? angle_between (lib, cap) : MAX (*max, angle_between (lib, cap));
}

static void
measure_frame (const Retarget      *rt,
               const OdoriMotion   *out,
               guint                frame,
               OdoriRetargetReport *report)
{
  const OdoriBoneRole pairs[][2] = {
    { ODORI_BONE_ROLE_RIGHT_THIGH, ODORI_BONE_ROLE_LEFT_THIGH },
    { ODORI_BONE_ROLE_RIGHT_UPPER_ARM, ODORI_BONE_ROLE_LEFT_UPPER_ARM },
  };
  double *lines[] = { &report->max_hip_line_error, &report->max_shoulder_line_error };

  for (guint s = 0; s < rt->lib.n; s++)
    {
      const Plan *plan = &rt->plans[s];

      if ((plan->mode == PLAN_ROOT || plan->mode == PLAN_AIM) && plan->end >= 0 &&
          plan->target >= 0 && rt->source[plan->end] == plan->target)
        measure (rt, out, frame, s, plan->end, plan->joint, plan->target, &report->max_bone_error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      int a = body_find_role (&rt->lib, pairs[i][0]), b = body_find_role (&rt->lib, pairs[i][1]);

      if (a >= 0 && b >= 0)
        measure (rt, out, frame, a, b, rt->source[a], rt->source[b], lines[i]);
    }
}

static OdoriMotion *
new_output (const Retarget *rt,
            GError        **error)
{
  OdoriMotion *out = odori_motion_new (rt->lib.n, rt->capture->n_frames,
                                       rt->capture->frame_time, error);

  if (out == NULL)
    return NULL;
  for (guint s = 0; s < rt->lib.n; s++)
    {
      const OdoriSegment *ref = &rt->reference->segments[s];
      OdoriSegment *seg = &out->segments[s];

      odori_motion_set_segment_name (out, s, ref->name);
      if (ref->n_fields > 0)
        {
          seg->n_fields = ref->n_fields;
          memcpy (seg->fields, ref->fields, sizeof seg->fields);
          memcpy (seg->units, ref->units, sizeof seg->units);
        }
    }
  return out;
}

OdoriMotion *
odori_library_retarget (const OdoriMotion   *capture,
                        const OdoriSkeleton *capture_skeleton,
                        const OdoriMotion   *reference,
                        const OdoriSkeleton *reference_skeleton,
                        const OdoriBoneMap  *map,
                        OdoriUpAxis          up,
                        OdoriRetargetReport *report,
                        GError             **error)
{
  g_auto(Retarget) rt = { 0 };
  g_autoptr(OdoriBoneMap) guessed = NULL;
  g_autoptr(OdoriMotion) out = NULL;
  OdoriRetargetReport local_report;

  g_return_val_if_fail (capture != NULL, NULL);
  g_return_val_if_fail (reference != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (report == NULL)
    report = &local_report;
  memset (report, 0, sizeof *report);
  report->max_bone_error = report->max_hip_line_error = report->max_shoulder_line_error = NAN;
  if (capture->n_frames == 0 || capture->n_segments == 0 || reference->n_frames == 0 ||
      reference->n_segments == 0)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_EMPTY,
                   _("%s: no frames or no segments to retarget"),
                   capture->n_frames == 0 || capture->n_segments == 0
                   ? (capture->path ? capture->path : "(capture)")
                   : (reference->path ? reference->path : "(reference)"));
      return NULL;
    }

  rt.capture = capture;
  rt.reference = reference;
  body_init (&rt.cap, capture, capture_skeleton, TRUE);
  body_init (&rt.lib, reference, reference_skeleton, FALSE);
  if (map == NULL)
    map = guessed = bone_map_guess (&rt.cap, &rt.lib);
  if (!resolve_map (&rt, map, error))
    return NULL;
  rt.hips = body_hips (&rt.lib);
  if (rt.hips < 0 || rt.source[rt.hips] < 0)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_NO_ROOT,
                   _("the library's root sensor \"%s\" has no joint of the capture to follow "
                     "(map one to it)"),
                   rt.hips >= 0 ? reference->segments[rt.hips].name : "?");
      return NULL;
    }

  retarget_axes (&rt, up, report);
  rt.plans = g_new0 (Plan, rt.lib.n);
  for (guint s = 0; s < rt.lib.n; s++)
    plan_sensor (&rt, s);
  plan_order (&rt);
  retarget_scale (&rt, report);
  report->scale = rt.scale;

  out = new_output (&rt, error);
  if (out == NULL)
    return NULL;
  rt.cap_rot = g_new (Quat, rt.cap.n);
  rt.cap_pos = g_new (Vec3, rt.cap.n);
  for (guint f = 0; f < capture->n_frames; f++)
    {
      retarget_frame (&rt, out, f);
      measure_frame (&rt, out, f, report);
      /* BVA scale columns as the reference's; a BVH reference's factors are not BVA's
       * percent, and odori_motion_new's 100 % stays */
      for (guint s = 0; s < rt.lib.n; s++)
        if (reference->segments[s].n_fields > 0)
          glm_vec3_copy (odori_motion_get (reference, 0, s)->scale,
                         odori_motion_get (out, f, s)->scale);
    }
  return g_steal_pointer (&out);
}

OdoriMotion *
odori_library_load_reference (OdoriIndex      *index,
                              OdoriIndexShow **show,
                              GError         **error)
{
  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      if (klass->shows->len > 0)
        {
          OdoriIndexShow *first = g_ptr_array_index (klass->shows, 0);
          g_autofree char *path = odori_index_show_path (index, first);

          if (show != NULL)
            *show = first;
          return odori_format_load_motion (path, NULL, error);
        }
    }
  g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_NO_REFERENCE,
               _("%s: the library has no show to take its skeleton from"),
               index->path ? index->path : "motion.dat");
  return NULL;
}
