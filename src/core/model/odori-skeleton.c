/* odori-skeleton.c: the display skeleton, a hierarchy for drawing, skinning and BVH
 * export inferred from a motion (DESIGN.md, "Skeleton for display"); its XML
 * description is read and written in odori-skeleton-xml.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - A motion with its own hierarchy (BVH) keeps it (scheme HIERARCHY, source "file");
 *   bone lengths then come from the OFFSETs (the rest pose), not from frame 0.
 * - Otherwise the built-in table that knows most of the motion's segment names wins (ties:
 *   the earlier table in `tables`), if it knows at least half of them and the motion has
 *   the table's root; a table whose root is optional (lr-suffix: MakeHuman's Root) is also
 *   used without it when the names it knows hang from a single segment. Tables: Biovision
 *   BVA, the 17-sensor suit, NI joints, CMU with MotionBuilder names (cmu: LHipJoint,
 *   LeftUpLeg, LeftFingerBase), CMU named by joints (cmu-joints: LeftHip, LeftKnee,
 *   lowerback, Chest2, lhand, as bvh-cmu-131), Mixamo (with the Spine3 and HandEnd of
 *   Meta's fair1 captures), Rokoko / Perception Neuron (LeftInHandIndex), DAZ / Poser
 *   (daz: hip, abdomen, lShldr, rButtock, as bvh-cmu-salsa) and _L/_R suffixes
 *   (lr-suffix: MakeHuman's UpArm_L, Blender-style UpperArm_L, Thigh_L). Names are
 *   compared without regard to ASCII case and after a namespace prefix ("steve:Hips",
 *   "mixamorig:Hips" are "Hips"). An entry may have aliases ("UpArm_L|UpperArm_L"): the
 *   segment with the earliest alias claims it, the others are unknown. A table lists for
 *   each entry up to three parents it prefers, the first present wins; when none is
 *   present the walk goes on up the table from the first, so a motion without a Neck
 *   hangs the Head on the Chest. Segments the table does not know are attached as the
 *   inference below attaches them (grown from the known segments, which keep their
 *   table parents), never by frame-0 distance.
 * - A marker set (scheme MARKERS): when no table is used and, over the sampled frames
 *   (at least two), every finite rotation is within 0.5° of the identity while some
 *   segment moves (by more than 1e-4 of the motion's extent). One frame, or a still
 *   motion, cannot tell markers from a skeleton posed with identity rotations, so those
 *   are inferred. Every bone is then a root of length 0 whose radius is the marker
 *   sphere's (1.5 % of the motion's size at frame 0); the skeleton lists sticks instead:
 *   pairs whose distance over the sampled frames has a standard deviation of at most 2 %
 *   of its mean (and a mean above 1e-6 of the extent), each marker offering its 4
 *   shortest such pairs (ties: the other marker's name), a stick kept when both of its
 *   markers offer it (on a walk, shoulder-to-toe distances stay within 2 % too; only
 *   mutual nearest pairs stay on one body part). The rigid pieces these leave (head,
 *   torso, each limb segment) are then joined into one figure, as a minimum spanning
 *   forest over the pairs' relative spread plus 0.5 × their mean over the extent (so
 *   near pairs win): those sticks are marked join. Sticks are sorted by bone indices;
 *   they are not written to the XML description.
 * - Inference from the whole motion (scheme INFERRED): a true child keeps a constant
 *   offset in its parent's frame. MIN (n_frames, 64) frames are sampled, spread evenly
 *   from the first to the last (fewer when segments² × samples would exceed 2²²: at least
 *   one); a sample whose position or rotation is not finite is skipped. The cost of
 *   hanging c under p is the RMS deviation over the samples of R_p⁻¹·(x_c − x_p) from its
 *   mean, plus 0.05 × the mean's length: among equally constant offsets the nearer parent
 *   wins, and a segment sitting on another (a zero-length bone) costs 0 under it. The
 *   cost is directed: a parent's position is not constant in its child's frame, since the
 *   child's rotation is the joint's. No common finite sample: an infinite cost.
 *   The tree is grown by Prim's algorithm on these directed costs from a root, each step
 *   attaching the outside segment with the cheapest attachment (ties: the name that
 *   sorts first, strcmp), under the tree segment offering it (ties: the one that joined
 *   first). Then, because the greedy order can hang a thigh from the hips before the
 *   nearer, equally constant buttock joined, up to 8 passes (segments in name order)
 *   re-hang each segment under its cheapest parent outside its own subtree when that is
 *   strictly cheaper. The root: a tree is grown from each of the 64 segments nearest the
 *   centroid of the segments' mean positions (fewer when roots × segments² would exceed
 *   2²²), and the cheapest tree wins (attachments of infinite cost count first); trees
 *   within 2 % of it tie, and the motion cannot choose between them, so the root is then
 *   the one with a hips-like name (hips, hip, pelvis, root, after the namespace), then
 *   with most children, then nearest the centroid, then whose name sorts first. Above 512
 *   segments the costs are not cached: one root (nearest the centroid), no re-hanging.
 *   Every tie is broken by names (the segment index only between equal names), so the
 *   tree does not depend on the order of the segments in the file.
 *   What motion cannot tell: segments that never move against each other (a joint whose
 *   local rotation is constant over the capture, as CMU's LHipJoint or fingers of a
 *   capture without finger tracking) or sit on each other (zero-length bones) form one
 *   rigid group, inside which any tree gives the same global transforms; inference then
 *   chains a group's members nearest first. Name tables exist for these.
 * - Bones are ordered depth first (children in segment order), so parents always come
 *   before their children and a BVH written in bone order reads back in the same order
 *   (a marker set's bones are in segment order).
 * - Bone length: the distance to the farthest child at frame 0 (BVH: the longest child
 *   OFFSET, or the End Site); a leaf gets half its parent's length, a lone root a tenth
 *   of the motion's size at frame 0, a marker 0. Radius: 0.18 × length for limbs, 0.35 ×
 *   length for torso bones, never below 1.5 % of the motion's size.
 * - A head-named joint (not an end twig) is a head whatever hangs from it: 1.7 × its
 *   parent's length, radius half of that; the skin draws it along the neck. Eyes and end
 *   twigs (names ending in End, Nub or Site, HeadTop) get radius 0: no skin, and so does a
 *   bodiless reference root: a root with one child, not hips-named itself, whose child is
 *   hips-named or stands more than a fifth of the motion's size above it at frame 0.
 * - Bulge codes: -1 everywhere except the upper arms (1, biceps), forearms (2), thighs (3)
 *   and calves (4) of the known naming schemes. These are placeholder codes: a later
 *   issue ships a bulge_types file (FORMATS.md §7) that defines exactly these codes.
 * - The XML description is read with libxml2 without network access, without loading any
 *   DTD and without substituting entities (odori_xml_read ()); a document with a DOCTYPE is
 *   refused at it (so billion-laughs and external entities never expand or load), as is a
 *   file over 4 MB. Bones must name parents that come earlier in the file.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "odori-reader.h"
#include "odori-skeleton-private.h"
#include "odori-skeleton.h"
#include "odori-text.h"

G_DEFINE_QUARK (odori-skeleton-error-quark, odori_skeleton_error)

/* A skeleton description is a few kilobytes; anything this big is not one. */
#define MAX_XML_BYTES (4 * 1024 * 1024)
#define XML_VERSION "1"
/* Lengths and radii beyond this are garbage (and would not fit a float). */
#define MAX_ABS_LENGTH 1e15

#define HEAD_LENGTH_FACTOR 1.7
#define HEAD_RADIUS_FACTOR 0.5
#define NECK_RADIUS_FACTOR 0.5
#define TORSO_RADIUS_FACTOR 0.35
#define MIN_RADIUS_FACTOR 0.015   /* of the motion's size */
#define LONE_LENGTH_FACTOR 0.1    /* of the motion's size, for a root without children */
#define LEAF_LENGTH_FACTOR 0.5    /* of the parent's length */

/* Inference and marker sets (see the comment at the top). */
#define MAX_SAMPLES 64                 /* frames sampled over the motion */
#define COST_CACHE_MAX_SEGMENTS 512    /* above: costs computed as needed, one root tried */
#define PAIR_BUDGET 4194304.0          /* segment pairs × samples: fewer samples above */
#define ROOT_CANDIDATES 64             /* roots tried, nearest the centroid first … */
#define ROOT_TRIAL_BUDGET 4194304.0    /* … fewer when roots × segment pairs exceed this */
#define NEAR_WEIGHT 0.05               /* cost per unit of offset length */
#define ROOT_TIE 0.02                  /* tree costs within 2 % tie */
#define MARKER_MAX_ANGLE_DEG 0.5       /* "identity" rotation */
#define MARKER_MIN_MOTION 1e-4         /* of the motion's size: "moves" */
#define STICK_MAX_SPREAD 0.02          /* standard deviation / mean distance */
#define STICK_MIN_LENGTH 1e-6          /* of the motion's size: coincident markers */
#define MAX_STICKS_PER_MARKER 4
#define MAX_IMPROVE_PASSES 8

/* Placeholder bulge codes (see the comment at the top). */
enum
{
  BULGE_NONE = ODORI_SKELETON_NO_BULGE,
  BULGE_BICEPS = 1,
  BULGE_FOREARM = 2,
  BULGE_THIGH = 3,
  BULGE_CALF = 4,
};

typedef struct
{
  const char *name;        /* "A" or aliases "A|B|C": the first alias present claims it */
  const char *parents[3];  /* preferred parents, the first present wins; NULL: the root */
  int         bulge;
  gboolean    torso;
} TableEntry;

typedef struct
{
  OdoriSkeletonScheme scheme;
  const TableEntry   *entries;        /* entries[0] is the root */
  guint               n_entries;
  gboolean            optional_root;  /* files may lack entries[0] (an armature root) */
} SchemeTable;

#define B0 BULGE_NONE
#define E(n, p, b, t)          { n, { p, NULL, NULL }, b, t }
#define E2(n, p, q, b, t)      { n, { p, q, NULL }, b, t }
#define E3(n, p, q, r, b, t)   { n, { p, q, r }, b, t }

static const TableEntry biovision_entries[] = {
  E ("Hips", NULL, BULGE_NONE, TRUE),
  E ("Chest", "Hips", BULGE_NONE, TRUE),
  E ("Neck", "Chest", BULGE_NONE, FALSE),
  E ("Head", "Neck", BULGE_NONE, FALSE),
  E ("LeftCollar", "Chest", BULGE_NONE, FALSE),
  E ("LeftUpArm", "LeftCollar", BULGE_BICEPS, FALSE),
  E ("LeftLowArm", "LeftUpArm", BULGE_FOREARM, FALSE),
  E ("LeftHand", "LeftLowArm", BULGE_NONE, FALSE),
  E ("RightCollar", "Chest", BULGE_NONE, FALSE),
  E ("RightUpArm", "RightCollar", BULGE_BICEPS, FALSE),
  E ("RightLowArm", "RightUpArm", BULGE_FOREARM, FALSE),
  E ("RightHand", "RightLowArm", BULGE_NONE, FALSE),
  E ("LeftUpLeg", "Hips", BULGE_THIGH, FALSE),
  E ("LeftLowLeg", "LeftUpLeg", BULGE_CALF, FALSE),
  E ("LeftFoot", "LeftLowLeg", BULGE_NONE, FALSE),
  E ("RightUpLeg", "Hips", BULGE_THIGH, FALSE),
  E ("RightLowLeg", "RightUpLeg", BULGE_CALF, FALSE),
  E ("RightFoot", "RightLowLeg", BULGE_NONE, FALSE),
};

/* FORMATS.md §5: the suit has no neck sensor. */
static const TableEntry suit17_entries[] = {
  E ("Hip", NULL, BULGE_NONE, TRUE),
  E ("Spine", "Hip", BULGE_NONE, TRUE),
  E ("Head", "Spine", BULGE_NONE, FALSE),
  E ("LeftShoulder", "Spine", BULGE_NONE, FALSE),
  E ("LeftUpperArm", "LeftShoulder", BULGE_BICEPS, FALSE),
  E ("LeftForearm", "LeftUpperArm", BULGE_FOREARM, FALSE),
  E ("LeftHand", "LeftForearm", BULGE_NONE, FALSE),
  E ("RightShoulder", "Spine", BULGE_NONE, FALSE),
  E ("RightUpperArm", "RightShoulder", BULGE_BICEPS, FALSE),
  E ("RightForearm", "RightUpperArm", BULGE_FOREARM, FALSE),
  E ("RightHand", "RightForearm", BULGE_NONE, FALSE),
  E ("LeftUpperLeg", "Hip", BULGE_THIGH, FALSE),
  E ("LeftLowerLeg", "LeftUpperLeg", BULGE_CALF, FALSE),
  E ("LeftFoot", "LeftLowerLeg", BULGE_NONE, FALSE),
  E ("RightUpperLeg", "Hip", BULGE_THIGH, FALSE),
  E ("RightLowerLeg", "RightUpperLeg", BULGE_CALF, FALSE),
  E ("RightFoot", "RightLowerLeg", BULGE_NONE, FALSE),
};

/* FORMATS.md §4, with the recorders' extra joints where they obviously belong. The NI
 * joint names are joints, so the bone from L_SHLDR to L_ELBOW is the upper arm. Without
 * collar joints the shoulders hang from the neck, as in OpenNI's own skeleton. AVATAR is
 * not a body joint and is left to inference. */
static const TableEntry ni_entries[] = {
  E ("PELVIS", NULL, BULGE_NONE, TRUE),
  E ("WAIST", "PELVIS", BULGE_NONE, TRUE),
  E ("TORSO", "WAIST", BULGE_NONE, TRUE),
  E ("CHEST", "TORSO", BULGE_NONE, TRUE),
  E ("NECK", "CHEST", BULGE_NONE, FALSE),
  E ("HEAD", "NECK", BULGE_NONE, FALSE),
  E ("SKULL", "HEAD", BULGE_NONE, FALSE),
  E ("FACE", "HEAD", BULGE_NONE, FALSE),
  E ("L_EYE", "HEAD", BULGE_NONE, FALSE),
  E ("R_EYE", "HEAD", BULGE_NONE, FALSE),
  E ("L_BUST", "CHEST", BULGE_NONE, FALSE),
  E ("R_BUST", "CHEST", BULGE_NONE, FALSE),
  E ("L_COLLAR", "CHEST", BULGE_NONE, FALSE),
  E2 ("L_SHLDR", "L_COLLAR", "NECK", BULGE_BICEPS, FALSE),
  E ("L_ELBOW", "L_SHLDR", BULGE_FOREARM, FALSE),
  E ("L_WRIST", "L_ELBOW", BULGE_NONE, FALSE),
  E ("L_HAND", "L_WRIST", BULGE_NONE, FALSE),
  E ("L_FINGER", "L_HAND", BULGE_NONE, FALSE),
  E ("L_FNGRTIP", "L_FINGER", BULGE_NONE, FALSE),
  E ("R_COLLAR", "CHEST", BULGE_NONE, FALSE),
  E2 ("R_SHLDR", "R_COLLAR", "NECK", BULGE_BICEPS, FALSE),
  E ("R_ELBOW", "R_SHLDR", BULGE_FOREARM, FALSE),
  E ("R_WRIST", "R_ELBOW", BULGE_NONE, FALSE),
  E ("R_HAND", "R_WRIST", BULGE_NONE, FALSE),
  E ("R_FINGER", "R_HAND", BULGE_NONE, FALSE),
  E ("R_FNGRTIP", "R_FINGER", BULGE_NONE, FALSE),
  E ("L_HIP", "PELVIS", BULGE_THIGH, FALSE),
  E ("L_KNEE", "L_HIP", BULGE_CALF, FALSE),
  E ("L_ANKLE", "L_KNEE", BULGE_NONE, FALSE),
  E ("L_FOOT", "L_ANKLE", BULGE_NONE, FALSE),
  E ("L_TOE", "L_FOOT", BULGE_NONE, FALSE),
  E ("R_HIP", "PELVIS", BULGE_THIGH, FALSE),
  E ("R_KNEE", "R_HIP", BULGE_CALF, FALSE),
  E ("R_ANKLE", "R_KNEE", BULGE_NONE, FALSE),
  E ("R_FOOT", "R_ANKLE", BULGE_NONE, FALSE),
  E ("R_TOE", "R_FOOT", BULGE_NONE, FALSE),
};

/* The CMU database converted to BVH with MotionBuilder-friendly names (31 joints). */
static const TableEntry cmu_entries[] = {
  E ("Hips", NULL, BULGE_NONE, TRUE),
  E ("LHipJoint", "Hips", BULGE_NONE, FALSE),
  E ("LeftUpLeg", "LHipJoint", BULGE_THIGH, FALSE),
  E ("LeftLeg", "LeftUpLeg", BULGE_CALF, FALSE),
  E ("LeftFoot", "LeftLeg", BULGE_NONE, FALSE),
  E ("LeftToeBase", "LeftFoot", BULGE_NONE, FALSE),
  E ("RHipJoint", "Hips", BULGE_NONE, FALSE),
  E ("RightUpLeg", "RHipJoint", BULGE_THIGH, FALSE),
  E ("RightLeg", "RightUpLeg", BULGE_CALF, FALSE),
  E ("RightFoot", "RightLeg", BULGE_NONE, FALSE),
  E ("RightToeBase", "RightFoot", BULGE_NONE, FALSE),
  E ("LowerBack", "Hips", BULGE_NONE, TRUE),
  E ("Spine", "LowerBack", BULGE_NONE, TRUE),
  E ("Spine1", "Spine", BULGE_NONE, TRUE),
  E ("Neck", "Spine1", BULGE_NONE, FALSE),
  E ("Neck1", "Neck", BULGE_NONE, FALSE),
  E ("Head", "Neck1", BULGE_NONE, FALSE),
  E ("LeftShoulder", "Spine1", BULGE_NONE, FALSE),
  E ("LeftArm", "LeftShoulder", BULGE_BICEPS, FALSE),
  E ("LeftForeArm", "LeftArm", BULGE_FOREARM, FALSE),
  E ("LeftHand", "LeftForeArm", BULGE_NONE, FALSE),
  E ("LeftFingerBase", "LeftHand", BULGE_NONE, FALSE),
  E ("LeftHandIndex1", "LeftFingerBase", BULGE_NONE, FALSE),
  E ("LThumb", "LeftHand", BULGE_NONE, FALSE),
  E ("RightShoulder", "Spine1", BULGE_NONE, FALSE),
  E ("RightArm", "RightShoulder", BULGE_BICEPS, FALSE),
  E ("RightForeArm", "RightArm", BULGE_FOREARM, FALSE),
  E ("RightHand", "RightForeArm", BULGE_NONE, FALSE),
  E ("RightFingerBase", "RightHand", BULGE_NONE, FALSE),
  E ("RightHandIndex1", "RightFingerBase", BULGE_NONE, FALSE),
  E ("RThumb", "RightHand", BULGE_NONE, FALSE),
};

/* The CMU database as BVH named by joints (subject 131 and its kin): LeftHip is the hip
 * joint, so its bone is the thigh. LHipJoint, lowerback, lowerneck, the collars, lhand
 * and LThumb are zero-length joints on their parents. */
static const TableEntry cmu_joints_entries[] = {
  E ("Hips", NULL, B0, TRUE),
  E ("LHipJoint", "Hips", B0, FALSE),
  E2 ("LeftHip", "LHipJoint", "Hips", BULGE_THIGH, FALSE),
  E ("LeftKnee", "LeftHip", BULGE_CALF, FALSE),
  E ("LeftAnkle", "LeftKnee", B0, FALSE),
  E ("LeftToe", "LeftAnkle", B0, FALSE),
  E ("RHipJoint", "Hips", B0, FALSE),
  E2 ("RightHip", "RHipJoint", "Hips", BULGE_THIGH, FALSE),
  E ("RightKnee", "RightHip", BULGE_CALF, FALSE),
  E ("RightAnkle", "RightKnee", B0, FALSE),
  E ("RightToe", "RightAnkle", B0, FALSE),
  E ("lowerback", "Hips", B0, TRUE),
  E2 ("Chest", "lowerback", "Hips", B0, TRUE),
  E ("Chest2", "Chest", B0, TRUE),
  E ("lowerneck", "Chest2", B0, FALSE),
  E2 ("Neck", "lowerneck", "Chest2", B0, FALSE),
  E ("Head", "Neck", B0, FALSE),
  E ("LeftCollar", "Chest2", B0, FALSE),
  E ("LeftShoulder", "LeftCollar", BULGE_BICEPS, FALSE),
  E ("LeftElbow", "LeftShoulder", BULGE_FOREARM, FALSE),
  E ("LeftWrist", "LeftElbow", B0, FALSE),
  E ("lhand", "LeftWrist", B0, FALSE),
  E2 ("LFingers", "lhand", "LeftWrist", B0, FALSE),
  E ("LThumb", "LeftWrist", B0, FALSE),
  E ("RightCollar", "Chest2", B0, FALSE),
  E ("RightShoulder", "RightCollar", BULGE_BICEPS, FALSE),
  E ("RightElbow", "RightShoulder", BULGE_FOREARM, FALSE),
  E ("RightWrist", "RightElbow", B0, FALSE),
  E ("rhand", "RightWrist", B0, FALSE),
  E2 ("RFingers", "rhand", "RightWrist", B0, FALSE),
  E ("RThumb", "RightWrist", B0, FALSE),
};

/* Mixamo (the "mixamorig:" prefix is a namespace), with the Spine3 and HandEnd joints of
 * Meta's AnimatedDrawings captures (fair1), which otherwise use Mixamo's names. */
#define MIXAMO_FINGER(S, F) \
  E (S "Hand" F "1", S "Hand", B0, FALSE), \
  E (S "Hand" F "2", S "Hand" F "1", B0, FALSE), \
  E (S "Hand" F "3", S "Hand" F "2", B0, FALSE), \
  E (S "Hand" F "4", S "Hand" F "3", B0, FALSE)
#define MIXAMO_SIDE(S) \
  E3 (S "Shoulder", "Spine3", "Spine2", "Spine1", B0, FALSE), \
  E (S "Arm", S "Shoulder", BULGE_BICEPS, FALSE), \
  E (S "ForeArm", S "Arm", BULGE_FOREARM, FALSE), \
  E (S "Hand", S "ForeArm", B0, FALSE), \
  E (S "HandEnd", S "Hand", B0, FALSE), \
  MIXAMO_FINGER (S, "Thumb"), \
  MIXAMO_FINGER (S, "Index"), \
  MIXAMO_FINGER (S, "Middle"), \
  MIXAMO_FINGER (S, "Ring"), \
  MIXAMO_FINGER (S, "Pinky"), \
  E (S "UpLeg", "Hips", BULGE_THIGH, FALSE), \
  E (S "Leg", S "UpLeg", BULGE_CALF, FALSE), \
  E (S "Foot", S "Leg", B0, FALSE), \
  E (S "ToeBase", S "Foot", B0, FALSE), \
  E (S "Toe_End", S "ToeBase", B0, FALSE)

static const TableEntry mixamo_entries[] = {
  E ("Hips", NULL, B0, TRUE),
  E ("Spine", "Hips", B0, TRUE),
  E ("Spine1", "Spine", B0, TRUE),
  E ("Spine2", "Spine1", B0, TRUE),
  E ("Spine3", "Spine2", B0, TRUE),
  E3 ("Neck", "Spine3", "Spine2", "Spine1", B0, FALSE),
  E ("Head", "Neck", B0, FALSE),
  E ("HeadTop_End", "Head", B0, FALSE),
  MIXAMO_SIDE ("Left"),
  MIXAMO_SIDE ("Right"),
};

/* Rokoko's export (bvh-rokoko), which is Perception Neuron's naming: Mixamo-like, with a
 * carpal joint (LeftInHandIndex) before each finger but the thumb, and three phalanges. */
#define ROKOKO_FINGER(S, F) \
  E (S "InHand" F, S "Hand", B0, FALSE), \
  E2 (S "Hand" F "1", S "InHand" F, S "Hand", B0, FALSE), \
  E (S "Hand" F "2", S "Hand" F "1", B0, FALSE), \
  E (S "Hand" F "3", S "Hand" F "2", B0, FALSE)
#define ROKOKO_SIDE(S) \
  E2 (S "Shoulder", "Spine3", "Spine2", B0, FALSE), \
  E (S "Arm", S "Shoulder", BULGE_BICEPS, FALSE), \
  E (S "ForeArm", S "Arm", BULGE_FOREARM, FALSE), \
  E (S "Hand", S "ForeArm", B0, FALSE), \
  E (S "HandThumb1", S "Hand", B0, FALSE), \
  E (S "HandThumb2", S "HandThumb1", B0, FALSE), \
  E (S "HandThumb3", S "HandThumb2", B0, FALSE), \
  ROKOKO_FINGER (S, "Index"), \
  ROKOKO_FINGER (S, "Middle"), \
  ROKOKO_FINGER (S, "Ring"), \
  ROKOKO_FINGER (S, "Pinky"), \
  E (S "UpLeg", "Hips", BULGE_THIGH, FALSE), \
  E (S "Leg", S "UpLeg", BULGE_CALF, FALSE), \
  E (S "Foot", S "Leg", B0, FALSE), \
  E (S "ToeBase", S "Foot", B0, FALSE)

static const TableEntry rokoko_entries[] = {
  E ("Hips", NULL, B0, TRUE),
  E ("Spine", "Hips", B0, TRUE),
  E ("Spine1", "Spine", B0, TRUE),
  E ("Spine2", "Spine1", B0, TRUE),
  E ("Spine3", "Spine2", B0, TRUE),
  E2 ("Neck", "Spine3", "Spine2", B0, FALSE),
  E ("Neck1", "Neck", B0, FALSE),
  E2 ("Head", "Neck1", "Neck", B0, FALSE),
  ROKOKO_SIDE ("Left"),
  ROKOKO_SIDE ("Right"),
};

/* DAZ and Poser (bvh-cmu-salsa is CMU in these names): an l or r prefix. Poser hangs the
 * thighs from buttocks, DAZ Genesis from a pelvis, older figures from the hip. */
#define DAZ_FINGER(S, F) \
  E (S F "1", S "Hand", B0, FALSE), \
  E (S F "2", S F "1", B0, FALSE), \
  E (S F "3", S F "2", B0, FALSE)
#define DAZ_SIDE(S, EYE) \
  E (EYE, "head", B0, FALSE), \
  E (S "Collar", "chest", B0, FALSE), \
  E (S "Shldr", S "Collar", BULGE_BICEPS, FALSE), \
  E (S "ForeArm", S "Shldr", BULGE_FOREARM, FALSE), \
  E (S "Hand", S "ForeArm", B0, FALSE), \
  DAZ_FINGER (S, "Thumb"), \
  DAZ_FINGER (S, "Index"), \
  DAZ_FINGER (S, "Mid"), \
  DAZ_FINGER (S, "Ring"), \
  DAZ_FINGER (S, "Pinky"), \
  E (S "Buttock", "hip", B0, FALSE), \
  E3 (S "Thigh", S "Buttock", "pelvis", "hip", BULGE_THIGH, FALSE), \
  E (S "Shin", S "Thigh", BULGE_CALF, FALSE), \
  E (S "Foot", S "Shin", B0, FALSE), \
  E (S "Toe", S "Foot", B0, FALSE)

static const TableEntry daz_entries[] = {
  E ("hip", NULL, B0, TRUE),
  E ("pelvis", "hip", B0, TRUE),
  E ("abdomen", "hip", B0, TRUE),
  E ("abdomen2", "abdomen", B0, TRUE),
  E2 ("chest", "abdomen2", "abdomen", B0, TRUE),
  E ("neck", "chest", B0, FALSE),
  E ("head", "neck", B0, FALSE),
  DAZ_SIDE ("l", "leftEye|lEye"),
  DAZ_SIDE ("r", "rightEye|rEye"),
};

/* _L / _R suffixes: MakeHuman's BVH skeleton (its "__" joints are helpers at the base of
 * a chain), with the other common spellings as aliases. Root is MakeHuman's; a file
 * without it must have a single top joint (Hips). */
#define LR_FINGER(F, S) \
  E ("__" F "1" S, "Hand" S, B0, FALSE), \
  E2 (F "1" S, "__" F "1" S, "Hand" S, B0, FALSE), \
  E (F "2" S, F "1" S, B0, FALSE), \
  E (F "3" S, F "2" S, B0, FALSE)
#define LR_SIDE(S) \
  E ("__Eye" S, "Head", B0, FALSE), \
  E2 ("Eye" S, "__Eye" S, "Head", B0, FALSE), \
  E ("__Clavicle" S, "Spine3", B0, FALSE), \
  E2 ("Clavicle" S "|Shoulder" S, "__Clavicle" S, "Spine3", B0, FALSE), \
  E ("UpArm" S "|UpperArm" S, "Clavicle" S, BULGE_BICEPS, FALSE), \
  E ("LoArm" S "|ForeArm" S "|LowerArm" S, "UpArm" S, BULGE_FOREARM, FALSE), \
  E ("Hand" S, "LoArm" S, B0, FALSE), \
  LR_FINGER ("Thumb", S), \
  LR_FINGER ("Index", S), \
  LR_FINGER ("Middle", S), \
  LR_FINGER ("Ring", S), \
  LR_FINGER ("Pinky", S), \
  E ("__UpLeg" S, "Hips", B0, FALSE), \
  E2 ("UpLeg" S "|Thigh" S "|UpperLeg" S, "__UpLeg" S, "Hips", BULGE_THIGH, FALSE), \
  E ("LoLeg" S "|Shin" S "|LowerLeg" S "|Calf" S, "UpLeg" S, BULGE_CALF, FALSE), \
  E ("Foot" S, "LoLeg" S, B0, FALSE), \
  E ("Toe" S, "Foot" S, B0, FALSE)

static const TableEntry lr_suffix_entries[] = {
  E ("Root", NULL, B0, TRUE),
  E ("Hips|Pelvis", "Root", B0, TRUE),
  E2 ("Spine1|Spine", "Root", "Hips", B0, TRUE),
  E ("Spine2", "Spine1", B0, TRUE),
  E2 ("Spine3|Chest", "Spine2", "Spine1", B0, TRUE),
  E ("Neck", "Spine3", B0, FALSE),
  E ("Head", "Neck", B0, FALSE),
  E ("__Jaw", "Head", B0, FALSE),
  E2 ("Jaw", "__Jaw", "Head", B0, FALSE),
  LR_SIDE ("_L"),
  LR_SIDE ("_R"),
};

#undef B0
#undef E
#undef E2
#undef E3
#undef MIXAMO_FINGER
#undef MIXAMO_SIDE
#undef ROKOKO_FINGER
#undef ROKOKO_SIDE
#undef DAZ_FINGER
#undef DAZ_SIDE
#undef LR_FINGER
#undef LR_SIDE

#define TABLE(scheme, entries, optional_root) \
  { scheme, entries, G_N_ELEMENTS (entries), optional_root }

/* In order of preference when two tables know as many names. */
static const SchemeTable tables[] = {
  TABLE (ODORI_SKELETON_SCHEME_BIOVISION, biovision_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_SUIT17, suit17_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_NI, ni_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_CMU, cmu_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_CMU_JOINTS, cmu_joints_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_MIXAMO, mixamo_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_ROKOKO, rokoko_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_DAZ, daz_entries, FALSE),
  TABLE (ODORI_SKELETON_SCHEME_LR_SUFFIX, lr_suffix_entries, TRUE),
};

#undef TABLE

static const char *scheme_names[] = {
  [ODORI_SKELETON_SCHEME_HIERARCHY] = "hierarchy",
  [ODORI_SKELETON_SCHEME_BIOVISION] = "biovision",
  [ODORI_SKELETON_SCHEME_SUIT17] = "suit17",
  [ODORI_SKELETON_SCHEME_NI] = "ni",
  [ODORI_SKELETON_SCHEME_CMU] = "cmu",
  [ODORI_SKELETON_SCHEME_INFERRED] = "inferred",
  [ODORI_SKELETON_SCHEME_FILE] = "file",
  [ODORI_SKELETON_SCHEME_MARKERS] = "markers",
  [ODORI_SKELETON_SCHEME_CMU_JOINTS] = "cmu-joints",
  [ODORI_SKELETON_SCHEME_MIXAMO] = "mixamo",
  [ODORI_SKELETON_SCHEME_ROKOKO] = "rokoko",
  [ODORI_SKELETON_SCHEME_DAZ] = "daz",
  [ODORI_SKELETON_SCHEME_LR_SUFFIX] = "lr-suffix",
};

const char *
odori_skeleton_scheme_to_string (OdoriSkeletonScheme scheme)
{
  g_return_val_if_fail ((guint) scheme < G_N_ELEMENTS (scheme_names), "unknown");
  return scheme_names[scheme];
}

const char *
odori_skeleton_source_to_string (OdoriSkeletonScheme scheme)
{
  g_return_val_if_fail ((guint) scheme < G_N_ELEMENTS (scheme_names), "unknown");

  switch (scheme)
    {
    case ODORI_SKELETON_SCHEME_HIERARCHY:
      return "file";
    case ODORI_SKELETON_SCHEME_FILE:
      return "saved";
    case ODORI_SKELETON_SCHEME_INFERRED:
      return "inferred";
    case ODORI_SKELETON_SCHEME_MARKERS:
      return "markers";
    case ODORI_SKELETON_SCHEME_BIOVISION:
    case ODORI_SKELETON_SCHEME_SUIT17:
    case ODORI_SKELETON_SCHEME_NI:
    case ODORI_SKELETON_SCHEME_CMU:
    case ODORI_SKELETON_SCHEME_CMU_JOINTS:
    case ODORI_SKELETON_SCHEME_MIXAMO:
    case ODORI_SKELETON_SCHEME_ROKOKO:
    case ODORI_SKELETON_SCHEME_DAZ:
    case ODORI_SKELETON_SCHEME_LR_SUFFIX:
    default:
      return "table";
    }
}

/* Life cycle */

OdoriSkeleton *
_odori_skeleton_new (OdoriSkeletonScheme scheme,
                     guint               n_bones)
{
  OdoriSkeleton *skeleton = g_new0 (OdoriSkeleton, 1);

  g_atomic_ref_count_init (&skeleton->ref_count);
  skeleton->scheme = scheme;
  skeleton->n_bones = n_bones;
  skeleton->bones = g_new0 (OdoriBone, MAX (n_bones, 1));
  return skeleton;
}

OdoriSkeleton *
odori_skeleton_ref (OdoriSkeleton *skeleton)
{
  g_return_val_if_fail (skeleton != NULL, NULL);
  g_atomic_ref_count_inc (&skeleton->ref_count);
  return skeleton;
}

void
odori_skeleton_unref (OdoriSkeleton *skeleton)
{
  g_return_if_fail (skeleton != NULL);

  if (!g_atomic_ref_count_dec (&skeleton->ref_count))
    return;
  for (guint i = 0; i < skeleton->n_bones; i++)
    g_free (skeleton->bones[i].name);
  g_free (skeleton->bones);
  g_free (skeleton->sticks);
  g_free (skeleton);
}

int
odori_skeleton_find (const OdoriSkeleton *skeleton,
                     const char          *name)
{
  g_return_val_if_fail (skeleton != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < skeleton->n_bones; i++)
    if (g_strcmp0 (skeleton->bones[i].name, name) == 0)
      return i;
  return -1;
}

/* Trees over segments */

/* TRUE if every parent index is in range and following parents always ends at a root. */
gboolean
_odori_skeleton_parents_are_forest (const int *parent,
                                    guint      n)
{
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1));  /* 0 new, 1 on path, 2 ok */

  for (guint i = 0; i < n; i++)
    if (parent[i] >= (int) n || parent[i] < -1 || parent[i] == (int) i)
      return FALSE;
  for (guint i = 0; i < n; i++)
    {
      int v = i;

      while (v >= 0 && state[v] == 0)
        {
          state[v] = 1;
          v = parent[v];
        }
      if (v >= 0 && state[v] == 1)
        return FALSE;
      for (v = i; v >= 0 && state[v] == 1; v = parent[v])
        state[v] = 2;
    }
  return TRUE;
}

static const float zero3[3] = { 0, 0, 0 };

/* Frame 0's world position of SEGMENT (zero without frames), into BUF. */
static const float *
frame0_position (const OdoriMotion *motion,
                 guint              segment,
                 float              buf[3])
{
  if (motion->n_frames == 0)
    return zero3;
  odori_motion_get_world_position (motion, 0, segment, buf);
  return buf;
}

static double
distance (const float a[3],
          const float b[3])
{
  double dx = (double) a[0] - b[0], dy = (double) a[1] - b[1], dz = (double) a[2] - b[2];

  return sqrt (dx * dx + dy * dy + dz * dz);
}

static const char *
strip_namespace (const char *name)
{
  const char *colon;

  if (name == NULL)
    return "";
  colon = strrchr (name, ':');
  return colon != NULL ? colon + 1 : name;
}

/* Whole-motion inference (the comment at the top has the rules) */

typedef struct
{
  const OdoriMotion *motion;
  guint              n;       /* segments */
  guint              k;       /* sampled frames */
  float             *pos;     /* 3 per (segment * k + sample) */
  float             *rot;     /* 4 per (segment * k + sample), unit */
  mat3              *inv;     /* per (segment * k + sample): the inverse rotation */
  guint8            *ok;      /* per (segment * k + sample): finite */
  double            *centre;  /* 3 per segment: mean position over its finite samples */
  double             size;    /* extent of all finite sampled positions, > 0 */
  double            *cost;    /* n * n cache, cost[p * n + c], or NULL for big motions */
} Samples;

static void
samples_clear (Samples *samples)
{
  g_clear_pointer (&samples->pos, g_free);
  g_clear_pointer (&samples->rot, g_free);
  g_clear_pointer (&samples->inv, g_free);
  g_clear_pointer (&samples->ok, g_free);
  g_clear_pointer (&samples->centre, g_free);
  g_clear_pointer (&samples->cost, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Samples, samples_clear)

static gboolean
transform_is_finite (const OdoriTransform *xf)
{
  for (int i = 0; i < 3; i++)
    if (!isfinite (xf->position[i]))
      return FALSE;
  for (int i = 0; i < 4; i++)
    if (!isfinite (xf->rotation[i]))
      return FALSE;
  return glm_quat_norm ((float *) xf->rotation) > 1e-6f;
}

/* Samples MIN (n_frames, MAX_SAMPLES) frames spread evenly from the first to the last
 * (fewer for motions with very many segments, see PAIR_BUDGET). */
static void
samples_init (Samples           *samples,
              const OdoriMotion *motion)
{
  guint n = motion->n_segments;
  guint k = MIN (motion->n_frames, MAX_SAMPLES);
  double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  double centroid[3] = { 0, 0, 0 };

  memset (samples, 0, sizeof *samples);
  if (k > 1)
    k = (guint) CLAMP (PAIR_BUDGET / ((double) n * n), 1, k);
  samples->motion = motion;
  samples->n = n;
  samples->k = k;
  samples->pos = g_new (float, (gsize) MAX (n * k, 1) * 3);
  samples->rot = g_new (float, (gsize) MAX (n * k, 1) * 4);
  samples->inv = g_new (mat3, MAX (n * k, 1));
  samples->ok = g_new0 (guint8, MAX (n * k, 1));
  samples->centre = g_new0 (double, (gsize) MAX (n, 1) * 3);

  for (guint j = 0; j < k; j++)
    {
      guint frame = k > 1 ? (guint) (((guint64) j * (motion->n_frames - 1)) / (k - 1)) : 0;

      for (guint s = 0; s < n; s++)
        {
          OdoriTransform        xf_world;
          const OdoriTransform *xf = odori_motion_world (motion, frame, s, &xf_world);
          gsize i = (gsize) s * k + j;

          if (!transform_is_finite (xf))
            continue;
          samples->ok[i] = TRUE;
          memcpy (&samples->pos[i * 3], xf->position, 3 * sizeof (float));
          glm_quat_normalize_to ((float *) xf->rotation, &samples->rot[i * 4]);
          glm_quat_mat3t (&samples->rot[i * 4], samples->inv[i]);
          for (int a = 0; a < 3; a++)
            {
              lo[a] = MIN (lo[a], xf->position[a]);
              hi[a] = MAX (hi[a], xf->position[a]);
            }
        }
    }

  samples->size = 0;
  for (int a = 0; a < 3; a++)
    if (hi[a] >= lo[a])
      samples->size = MAX (samples->size, hi[a] - lo[a]);
  if (!(samples->size > 0) || !isfinite (samples->size))
    samples->size = 1.0;

  for (guint s = 0; s < n; s++)
    {
      guint count = 0;

      for (guint j = 0; j < k; j++)
        if (samples->ok[(gsize) s * k + j])
          {
            for (int a = 0; a < 3; a++)
              samples->centre[s * 3 + a] += samples->pos[((gsize) s * k + j) * 3 + a];
            count++;
          }
      for (int a = 0; a < 3; a++)
        {
          samples->centre[s * 3 + a] = count > 0 ? samples->centre[s * 3 + a] / count : 0;
          centroid[a] += samples->centre[s * 3 + a] / n;
        }
    }
  /* Kept relative to the centroid: the distance to it is what the root choice needs. */
  for (guint s = 0; s < n; s++)
    for (int a = 0; a < 3; a++)
      samples->centre[s * 3 + a] -= centroid[a];
}

/* The cost of hanging C under P: how much C's offset in P's frame, R_p⁻¹·(x_c − x_p),
 * varies over the samples (RMS deviation from its mean), plus NEAR_WEIGHT times the mean
 * offset's length, so that among equally constant offsets the nearer parent wins.
 * INFINITY when no sample has both. */
static double
compute_cost (const Samples *samples,
              guint          p,
              guint          c)
{
  double sum[3] = { 0, 0, 0 }, sum2 = 0, mean2 = 0, var;
  guint count = 0;

  for (guint j = 0; j < samples->k; j++)
    {
      gsize ip = (gsize) p * samples->k + j, ic = (gsize) c * samples->k + j;
      vec3 d, o;

      if (!samples->ok[ip] || !samples->ok[ic])
        continue;
      glm_vec3_sub (&samples->pos[ic * 3], &samples->pos[ip * 3], d);
      glm_mat3_mulv (samples->inv[ip], d, o);
      for (int a = 0; a < 3; a++)
        {
          sum[a] += o[a];
          sum2 += (double) o[a] * o[a];
        }
      count++;
    }
  if (count == 0)
    return INFINITY;
  for (int a = 0; a < 3; a++)
    {
      sum[a] /= count;
      mean2 += sum[a] * sum[a];
    }
  var = MAX (sum2 / count - mean2, 0.0);
  return sqrt (var) + NEAR_WEIGHT * sqrt (mean2);
}

static void
samples_fill_costs (Samples *samples)
{
  guint n = samples->n;

  if (n > COST_CACHE_MAX_SEGMENTS)
    return;
  samples->cost = g_new (double, (gsize) MAX (n * n, 1));
  for (guint p = 0; p < n; p++)
    for (guint c = 0; c < n; c++)
      samples->cost[(gsize) p * n + c] = p == c ? INFINITY : compute_cost (samples, p, c);
}

static double
attach_cost (const Samples *samples,
             guint          p,
             guint          c)
{
  if (samples->cost != NULL)
    return samples->cost[(gsize) p * samples->n + c];
  return compute_cost (samples, p, c);
}

static const char *
segment_name (const OdoriMotion *motion,
              guint              s)
{
  return motion->segments[s].name != NULL ? motion->segments[s].name : "";
}

/* The order that breaks ties without looking at the order of the segments in the file:
 * by name (the segment index only for equal names). Negative if A comes first. */
static int
compare_segments (const OdoriMotion *motion,
                  guint              a,
                  guint              b)
{
  int c = strcmp (segment_name (motion, a), segment_name (motion, b));

  if (c != 0)
    return c;
  return (a > b) - (a < b);
}

/* A tree total: attachments that cost INFINITY (no common finite sample) count first. */
typedef struct
{
  guint  n_infinite;
  double sum;
} TreeCost;

/* Prim's algorithm on the directed costs: grows the tree given by IN_TREE (PARENT set for
 * its members) until it holds every segment. Each step attaches the outside segment with
 * the cheapest attachment to a tree segment (ties: the segment compare_segments() puts
 * first), under the tree segment that offers it (ties: the one in the tree first; the
 * initial members rank in compare_segments() order). */
static TreeCost
grow_tree (const Samples *samples,
           int           *parent,
           gboolean      *in_tree)
{
  const OdoriMotion *motion = samples->motion;
  guint n = samples->n;
  g_autofree double *best = g_new (double, MAX (n, 1));
  g_autofree int *from = g_new (int, MAX (n, 1));
  g_autofree guint *members = g_new (guint, MAX (n, 1));
  TreeCost total = { 0, 0 };
  guint n_members = 0;

  for (guint s = 0; s < n; s++)
    if (in_tree[s])
      {
        guint at = n_members++;

        /* Insertion in compare_segments() order: the seeds are few or one. */
        while (at > 0 && compare_segments (motion, s, members[at - 1]) < 0)
          {
            members[at] = members[at - 1];
            at--;
          }
        members[at] = s;
      }
  g_assert (n_members > 0);

  for (guint w = 0; w < n; w++)
    {
      best[w] = INFINITY;
      from[w] = members[0];
      if (in_tree[w])
        continue;
      for (guint m = 0; m < n_members; m++)
        {
          double c = attach_cost (samples, members[m], w);

          if (c < best[w])
            {
              best[w] = c;
              from[w] = members[m];
            }
        }
    }

  for (;;)
    {
      int next = -1;

      for (guint w = 0; w < n; w++)
        if (!in_tree[w] &&
            (next < 0 || best[w] < best[next] ||
             (best[w] == best[next] && compare_segments (motion, w, next) < 0)))
          next = w;
      if (next < 0)
        break;
      parent[next] = from[next];
      in_tree[next] = TRUE;
      if (isfinite (best[next]))
        total.sum += best[next];
      else
        total.n_infinite++;
      for (guint w = 0; w < n; w++)
        if (!in_tree[w])
          {
            double c = attach_cost (samples, next, w);

            /* Only cheaper: on a tie the segment that joined the tree earlier stays. */
            if (c < best[w])
              {
                best[w] = c;
                from[w] = next;
              }
          }
    }
  return total;
}

/* TRUE if A is C or one of C's descendants. */
static gboolean
is_in_subtree (const int *parent,
               guint      n,
               int        a,
               int        c)
{
  for (guint steps = 0; a >= 0 && steps <= n; steps++, a = parent[a])
    if (a == c)
      return TRUE;
  return FALSE;
}

/* Prim's greedy order can hang a segment from a farther one that joined the tree before
 * the nearer, equally constant one (a thigh from the hips before the buttock joined):
 * re-hangs every segment under its cheapest parent outside its own subtree, in
 * compare_segments() order (ORDER), until nothing changes (each move lowers the total).
 * Segments with FIXED set stay. */
static void
improve_tree (const Samples  *samples,
              const guint    *order,
              int            *parent,
              const gboolean *fixed,
              TreeCost       *total)
{
  guint n = samples->n;

  /* Without the cost cache (thousands of segments) a pass costs as much as the tree. */
  if (samples->cost == NULL)
    return;
  for (guint pass = 0; pass < MAX_IMPROVE_PASSES; pass++)
    {
      gboolean changed = FALSE;

      for (guint i = 0; i < n; i++)
        {
          guint c = order[i];
          double current, best;
          int to = -1;

          if (parent[c] < 0 || (fixed != NULL && fixed[c]))
            continue;
          current = best = attach_cost (samples, parent[c], c);
          for (guint j = 0; j < n; j++)
            {
              guint p = order[j];
              double cost;

              if (p == c || (int) p == parent[c])
                continue;
              cost = attach_cost (samples, p, c);
              if (cost < best && !is_in_subtree (parent, n, p, c))
                {
                  best = cost;
                  to = p;
                }
            }
          if (to < 0)
            continue;
          parent[c] = to;
          changed = TRUE;
          if (total != NULL)
            {
              if (isfinite (current))
                total->sum -= current;
              else
                total->n_infinite--;
              total->sum += best;
            }
        }
      if (!changed)
        break;
    }
}

static int
compare_segments_cb (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  return compare_segments (user_data, *(const guint *) a, *(const guint *) b);
}

static guint *
segments_in_order (const OdoriMotion *motion)
{
  guint *order = g_new (guint, MAX (motion->n_segments, 1));

  for (guint s = 0; s < motion->n_segments; s++)
    order[s] = s;
  g_qsort_with_data (order, motion->n_segments, sizeof (guint), compare_segments_cb,
                     (gpointer) motion);
  return order;
}

static gboolean
is_hips_name (const char *name)
{
  static const char *hips[] = { "hips", "hip", "pelvis", "root" };
  const char *bare = strip_namespace (name);

  for (guint i = 0; i < G_N_ELEMENTS (hips); i++)
    if (g_ascii_strcasecmp (bare, hips[i]) == 0)
      return TRUE;
  return FALSE;
}

static double
centre_distance2 (const Samples *samples,
                  guint          s)
{
  const double *c = &samples->centre[s * 3];

  return c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
}

typedef struct
{
  guint    root;
  TreeCost cost;
  guint    n_children;
} RootTrial;

/* Negative if root trial A is the better root among near-equal tree costs (which the
 * motion cannot tell apart): a hips-like name, then more children, then nearer the
 * centroid, then compare_segments(). */
static int
compare_roots (const Samples   *samples,
               const RootTrial *a,
               const RootTrial *b)
{
  gboolean ha = is_hips_name (segment_name (samples->motion, a->root));
  gboolean hb = is_hips_name (segment_name (samples->motion, b->root));
  double da, db;

  if (ha != hb)
    return ha ? -1 : 1;
  if (a->n_children != b->n_children)
    return a->n_children > b->n_children ? -1 : 1;
  da = centre_distance2 (samples, a->root);
  db = centre_distance2 (samples, b->root);
  if (da != db)
    return da < db ? -1 : 1;
  return compare_segments (samples->motion, a->root, b->root);
}

static gboolean
tree_cost_less (TreeCost a,
                TreeCost b)
{
  if (a.n_infinite != b.n_infinite)
    return a.n_infinite < b.n_infinite;
  return a.sum < b.sum;
}

/* A tree cost within ROOT_TIE of the best is a tie. */
static gboolean
tree_cost_ties (TreeCost a,
                TreeCost best,
                double   size)
{
  return a.n_infinite == best.n_infinite &&
         a.sum <= best.sum * (1 + ROOT_TIE) + 1e-9 * size;
}

static int
compare_centre_cb (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const Samples *samples = user_data;
  guint sa = *(const guint *) a, sb = *(const guint *) b;
  double da = centre_distance2 (samples, sa), db = centre_distance2 (samples, sb);

  if (da != db)
    return da < db ? -1 : 1;
  return compare_segments (samples->motion, sa, sb);
}

/* The inferred tree: grown from each candidate root (the ROOT_CANDIDATES segments nearest
 * the centroid; only the nearest for motions too big for the cost cache), keeping the
 * cheapest tree, near-ties broken by compare_roots(). Fills PARENT. */
static void
infer_parents (const Samples *samples,
               int           *parent)
{
  guint n = samples->n;
  g_autofree guint *candidates = g_new (guint, MAX (n, 1));
  g_autofree RootTrial *trials = NULL;
  g_autofree int *trial_parent = g_new (int, MAX (n, 1));
  g_autofree gboolean *in_tree = g_new (gboolean, MAX (n, 1));
  g_autofree guint *order = segments_in_order (samples->motion);
  guint n_candidates = 1;
  TreeCost best_cost;
  int chosen = -1;

  if (samples->cost != NULL)
    n_candidates = (guint) CLAMP (ROOT_TRIAL_BUDGET / ((double) n * n), 1, MIN (n, ROOT_CANDIDATES));
  for (guint s = 0; s < n; s++)
    candidates[s] = s;
  g_qsort_with_data (candidates, n, sizeof (guint), compare_centre_cb, (gpointer) samples);

  trials = g_new0 (RootTrial, n_candidates);
  for (guint i = 0; i < n_candidates; i++)
    {
      RootTrial *t = &trials[i];

      memset (in_tree, 0, n * sizeof (gboolean));
      t->root = candidates[i];
      trial_parent[t->root] = -1;
      in_tree[t->root] = TRUE;
      t->cost = grow_tree (samples, trial_parent, in_tree);
      improve_tree (samples, order, trial_parent, NULL, &t->cost);
      for (guint s = 0; s < n; s++)
        if (trial_parent[s] == (int) t->root)
          t->n_children++;
    }
  best_cost = trials[0].cost;
  for (guint i = 1; i < n_candidates; i++)
    if (tree_cost_less (trials[i].cost, best_cost))
      best_cost = trials[i].cost;
  for (guint i = 0; i < n_candidates; i++)
    if (tree_cost_ties (trials[i].cost, best_cost, samples->size) &&
        (chosen < 0 || compare_roots (samples, &trials[i], &trials[chosen]) < 0))
      chosen = i;
  g_assert (chosen >= 0);
  memset (in_tree, 0, n * sizeof (gboolean));
  parent[trials[chosen].root] = -1;
  in_tree[trials[chosen].root] = TRUE;
  grow_tree (samples, parent, in_tree);
  improve_tree (samples, order, parent, NULL, NULL);
}

/* Marker sets */

/* Every finite sampled rotation within MARKER_MAX_ANGLE_DEG of the identity, and some
 * segment moves: markers. One frame, or a still motion, does not tell. */
static gboolean
is_marker_set (const Samples *samples)
{
  double max_sin = sin (G_PI / 180.0 * MARKER_MAX_ANGLE_DEG / 2);
  gboolean moves = FALSE, any = FALSE;

  if (samples->k < 2)
    return FALSE;
  for (gsize i = 0; i < (gsize) samples->n * samples->k; i++)
    {
      const float *q = &samples->rot[i * 4];

      if (!samples->ok[i])
        continue;
      any = TRUE;
      /* The angle of a unit quaternion is 2·asin |(x, y, z)|. */
      if (sqrt ((double) q[0] * q[0] + (double) q[1] * q[1] + (double) q[2] * q[2]) > max_sin)
        return FALSE;
    }
  /* Some segment leaves its first finite sample's position. */
  for (guint s = 0; s < samples->n && !moves; s++)
    {
      int first = -1;

      for (guint j = 0; j < samples->k && !moves; j++)
        {
          gsize i = (gsize) s * samples->k + j;

          if (!samples->ok[i])
            continue;
          if (first < 0)
            first = j;
          else
            moves = distance (&samples->pos[((gsize) s * samples->k + first) * 3],
                              &samples->pos[i * 3]) > MARKER_MIN_MOTION * samples->size;
        }
    }
  return any && moves;
}

typedef struct
{
  guint  a, b;     /* segments, a < b */
  double length;   /* mean distance */
  guint  keep;     /* how many of its two markers offer it */
  double cost;     /* joining pieces: relative spread, plus a little of the length */
} StickCandidate;

/* Mean and standard deviation of the distance between markers A and B over their common
 * finite samples; FALSE if fewer than two. */
static gboolean
distance_stats (const Samples *samples,
                guint          a,
                guint          b,
                double        *mean,
                double        *sd)
{
  double sum = 0, sum2 = 0;
  guint count = 0;

  for (guint j = 0; j < samples->k; j++)
    {
      gsize ia = (gsize) a * samples->k + j, ib = (gsize) b * samples->k + j;
      double d;

      if (!samples->ok[ia] || !samples->ok[ib])
        continue;
      d = distance (&samples->pos[ia * 3], &samples->pos[ib * 3]);
      sum += d;
      sum2 += d * d;
      count++;
    }
  if (count < 2)
    return FALSE;
  *mean = sum / count;
  *sd = sqrt (MAX (sum2 / count - *mean * *mean, 0.0));
  return TRUE;
}

/* Among the candidates touching one marker, shorter first (ties: the other end's
 * compare_segments() order). */
typedef struct
{
  const Samples        *samples;
  const StickCandidate *candidates;
  guint                 marker;
} StickOrder;

static int
compare_sticks_cb (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const StickOrder *order = user_data;
  const StickCandidate *x = &order->candidates[*(const guint *) a];
  const StickCandidate *y = &order->candidates[*(const guint *) b];
  guint ox = x->a == order->marker ? x->b : x->a;
  guint oy = y->a == order->marker ? y->b : y->a;

  if (x->length != y->length)
    return x->length < y->length ? -1 : 1;
  return compare_segments (order->samples->motion, ox, oy);
}

/* The sticks between markers (segments): pairs whose distance varies by less than
 * STICK_MAX_SPREAD of its mean, each marker keeping its MAX_STICKS_PER_MARKER shortest
 * (a stick stays if either end keeps it). */
static GArray *
find_sticks (const Samples *samples)
{
  GArray *candidates = g_array_new (FALSE, FALSE, sizeof (StickCandidate));
  g_autofree guint *offsets = g_new0 (guint, samples->n + 1);
  g_autofree guint *touching = NULL;
  g_autofree guint *fill = NULL;
  StickCandidate *cand;

  for (guint a = 0; a < samples->n; a++)
    for (guint b = a + 1; b < samples->n; b++)
      {
        double mean, sd;

        if (!distance_stats (samples, a, b, &mean, &sd))
          continue;
        if (mean > STICK_MIN_LENGTH * samples->size && sd <= STICK_MAX_SPREAD * mean)
          {
            StickCandidate c = { a, b, mean, 0, 0 };

            g_array_append_val (candidates, c);
          }
      }

  /* Per marker, the candidates touching it, shortest first. */
  cand = (StickCandidate *) (void *) candidates->data;
  for (guint i = 0; i < candidates->len; i++)
    {
      offsets[cand[i].a + 1]++;
      offsets[cand[i].b + 1]++;
    }
  for (guint s = 0; s < samples->n; s++)
    offsets[s + 1] += offsets[s];
  touching = g_new (guint, MAX (2 * candidates->len, 1));
  fill = g_memdup2 (offsets, (samples->n + 1) * sizeof (guint));
  for (guint i = 0; i < candidates->len; i++)
    {
      touching[fill[cand[i].a]++] = i;
      touching[fill[cand[i].b]++] = i;
    }
  for (guint s = 0; s < samples->n; s++)
    {
      StickOrder order = { samples, cand, s };
      guint count = offsets[s + 1] - offsets[s];

      g_qsort_with_data (&touching[offsets[s]], count, sizeof (guint), compare_sticks_cb, &order);
      for (guint i = 0; i < MIN (count, MAX_STICKS_PER_MARKER); i++)
        cand[touching[offsets[s] + i]].keep++;
    }
  return candidates;
}

static int
uf_find (int *up,
         int  x)
{
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

static int
compare_join_cost (gconstpointer a,
                   gconstpointer b)
{
  const StickCandidate *x = a, *y = b;
  double cx = x->cost, cy = y->cost;

  if (cx != cy)
    return cx < cy ? -1 : 1;
  if (x->a != y->a)
    return x->a < y->a ? -1 : 1;
  return (x->b > y->b) - (x->b < y->b);
}

static int
compare_sticks_ab (const void *a,
                   const void *b)
{
  const OdoriStick *x = a, *y = b;

  if (x->a != y->a)
    return x->a < y->a ? -1 : 1;
  return (x->b > y->b) - (x->b < y->b);
}

/* The kept sticks (keep == 2) may leave a figure in pieces (the head's markers apart from
 * the torso's): join the pieces, as a minimum spanning forest, by the pairs whose
 * distance is the most constant for its length (relative spread, plus a little of the
 * length so that near pairs win), so that a marker set draws as one figure. */
static GArray *
join_stick_components (const Samples *samples,
                       const GArray  *candidates)
{
  GArray *joins = g_array_new (FALSE, FALSE, sizeof (StickCandidate));
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (StickCandidate));
  g_autofree int *up = g_new (int, MAX (samples->n, 1));

  for (guint s = 0; s < samples->n; s++)
    up[s] = (int) s;
  for (guint i = 0; i < candidates->len; i++)
    {
      const StickCandidate *c = &g_array_index (candidates, StickCandidate, i);

      if (c->keep == 2)
        up[uf_find (up, c->a)] = uf_find (up, c->b);
    }
  for (guint a = 0; a < samples->n; a++)
    for (guint b = a + 1; b < samples->n; b++)
      {
        double mean, sd;
        StickCandidate c = { a, b, 0, 0, 0 };

        if (uf_find (up, a) == uf_find (up, b) || !distance_stats (samples, a, b, &mean, &sd) ||
            !(mean > 0))
          continue;
        c.length = mean;
        c.cost = sd / mean + 0.5 * mean / samples->size;
        g_array_append_val (pairs, c);
      }
  g_array_sort (pairs, compare_join_cost);
  for (guint i = 0; i < pairs->len; i++)
    {
      StickCandidate *c = &g_array_index (pairs, StickCandidate, i);
      int ra = uf_find (up, c->a), rb = uf_find (up, c->b);

      if (ra == rb)
        continue;
      up[ra] = rb;
      g_array_append_val (joins, *c);
    }
  return joins;
}

/* Tables */

/* Which alias of ENTRY's name ("A" or "A|B|C") NAME is, ignoring ASCII case; -1 none. */
static int
entry_alias (const TableEntry *entry,
             const char       *name)
{
  const char *p = entry->name;
  gsize len = strlen (name);

  for (int alias = 0;; alias++)
    {
      const char *bar = strchr (p, '|');
      gsize alias_len = bar != NULL ? (gsize) (bar - p) : strlen (p);

      if (alias_len == len && g_ascii_strncasecmp (p, name, len) == 0)
        return alias;
      if (bar == NULL)
        return -1;
      p = bar + 1;
    }
}

static int
table_find (const SchemeTable *table,
            const char        *name,
            int               *alias_out)
{
  for (guint e = 0; e < table->n_entries; e++)
    {
      int alias = entry_alias (&table->entries[e], name);

      if (alias >= 0)
        {
          if (alias_out != NULL)
            *alias_out = alias;
          return e;
        }
    }
  return -1;
}

/* Maps each segment to the table entry it is. An entry goes to the segment with its
 * earliest alias (for equal names, the first such segment); the others stay unknown.
 * Returns how many matched. */
static guint
table_match (const SchemeTable *table,
             const OdoriMotion *motion,
             int               *entry_of_segment,
             int               *segment_of_entry)
{
  g_autofree int *claim_alias = g_new (int, table->n_entries);
  guint score = 0;

  for (guint e = 0; e < table->n_entries; e++)
    segment_of_entry[e] = -1;
  for (guint s = 0; s < motion->n_segments; s++)
    {
      int alias = -1;
      int e = table_find (table, strip_namespace (motion->segments[s].name), &alias);

      entry_of_segment[s] = -1;
      if (e < 0 || (segment_of_entry[e] >= 0 && alias >= claim_alias[e]))
        continue;
      if (segment_of_entry[e] >= 0)
        entry_of_segment[segment_of_entry[e]] = -1;
      else
        score++;
      segment_of_entry[e] = s;
      claim_alias[e] = alias;
      entry_of_segment[s] = e;
    }
  return score;
}

/* The segment that is ENTRY's parent: its first preferred parent the motion has, else
 * the same question asked of its first preferred parent. -1 for the root. */
static int
table_parent_segment (const SchemeTable *table,
                      guint              entry,
                      const int         *segment_of_entry)
{
  for (guint step = 0; step < table->n_entries; step++)
    {
      const TableEntry *e = &table->entries[entry];
      int first = -1;

      if (e->parents[0] == NULL)
        return -1;
      for (guint k = 0; k < G_N_ELEMENTS (e->parents) && e->parents[k] != NULL; k++)
        {
          int pe = table_find (table, e->parents[k], NULL);

          g_assert (pe >= 0);
          if (segment_of_entry[pe] >= 0)
            return segment_of_entry[pe];
          if (k == 0)
            first = pe;
        }
      entry = first;
    }
  g_assert_not_reached ();
  return -1;
}

/* The table knowing most names (ties: the earlier table), with its matches; NULL if none
 * knows any. */
static const SchemeTable *
best_table (const OdoriMotion *motion,
            int               *entry_of_segment,
            guint             *score_out)
{
  const SchemeTable *best = NULL;
  guint best_score = 0;
  g_autofree int *entries = g_new (int, MAX (motion->n_segments, 1));

  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      g_autofree int *segment_of_entry = g_new (int, tables[t].n_entries);
      guint score = table_match (&tables[t], motion, entries, segment_of_entry);

      if (score > best_score)
        {
          best = &tables[t];
          best_score = score;
          memcpy (entry_of_segment, entries, motion->n_segments * sizeof (int));
        }
    }
  if (best == NULL)
    for (guint s = 0; s < motion->n_segments; s++)
      entry_of_segment[s] = -1;
  *score_out = best_score;
  return best;
}

/* The table's tree for the segments it knows (PARENT of the others untouched); returns
 * how many known segments are roots of it. */
static guint
table_parents (const SchemeTable *table,
               const OdoriMotion *motion,
               const int         *entry_of_segment,
               int               *parent)
{
  g_autofree int *segment_of_entry = g_new (int, table->n_entries);
  guint n_tops = 0;

  for (guint e = 0; e < table->n_entries; e++)
    segment_of_entry[e] = -1;
  for (guint s = 0; s < motion->n_segments; s++)
    if (entry_of_segment[s] >= 0)
      segment_of_entry[entry_of_segment[s]] = s;
  for (guint s = 0; s < motion->n_segments; s++)
    if (entry_of_segment[s] >= 0)
      {
        parent[s] = table_parent_segment (table, entry_of_segment[s], segment_of_entry);
        if (parent[s] < 0)
          n_tops++;
      }
  return n_tops;
}

/* A table is used when it knows at least half of the names and the motion has its root,
 * or, for a table whose root is optional, the names it knows hang from one segment. */
static gboolean
table_is_usable (const SchemeTable *table,
                 const OdoriMotion *motion,
                 const int         *entry_of_segment,
                 guint              score)
{
  g_autofree int *parent = NULL;

  if (table == NULL || 2 * score < motion->n_segments)
    return FALSE;
  for (guint s = 0; s < motion->n_segments; s++)
    if (entry_of_segment[s] == 0)
      return TRUE;
  if (!table->optional_root)
    return FALSE;
  parent = g_new (int, motion->n_segments);
  return table_parents (table, motion, entry_of_segment, parent) == 1;
}

/* Building bones */

typedef struct
{
  const OdoriMotion  *motion;
  OdoriSkeletonScheme scheme;
  const int          *parent;            /* per segment */
  const SchemeTable  *table;             /* for bulge codes and torso widths, or NULL */
  const int          *entry_of_segment;  /* into table, -1 unknown */
} BuildInfo;

static double
motion_size (const BuildInfo *info,
             const double    *child_length)
{
  const OdoriMotion *motion = info->motion;
  double size = 0;

  if (motion->n_frames > 0)
    for (int i = 0; i < 3; i++)
      {
        double lo = INFINITY, hi = -INFINITY;

        for (guint s = 0; s < motion->n_segments; s++)
          {
            lo = MIN (lo, frame0_position (motion, s, (float[3]){ 0 })[i]);
            hi = MAX (hi, frame0_position (motion, s, (float[3]){ 0 })[i]);
          }
        size = MAX (size, hi - lo);
      }
  if (!(size > 0) || !isfinite (size))
    {
      /* No frames, or everything at one point: the longest bone gives a scale. */
      size = 0;
      for (guint s = 0; s < motion->n_segments; s++)
        size = MAX (size, 4 * child_length[s]);
    }
  if (!(size > 0) || !isfinite (size))
    size = 1.0;
  return size;
}

/* Longest distance from each segment to its children (frame 0, or the OFFSETs of a
 * hierarchy, where a leaf's End Site counts as a child). */
static double *
child_lengths (const BuildInfo *info)
{
  const OdoriMotion *motion = info->motion;
  guint n = motion->n_segments;
  double *len = g_new0 (double, MAX (n, 1));
  gboolean use_offsets = info->scheme == ODORI_SKELETON_SCHEME_HIERARCHY;

  for (guint s = 0; s < n; s++)
    {
      int p = info->parent[s];
      double d;

      if (use_offsets && motion->segments[s].has_end_site)
        {
          len[s] = MAX (len[s], distance (zero3, motion->segments[s].end_site));
        }
      if (p < 0)
        continue;
      if (use_offsets)
        d = distance (zero3, motion->segments[s].offset);
      else
        d = distance (frame0_position (motion, p, (float[3]){ 0 }), frame0_position (motion, s, (float[3]){ 0 }));
      if (isfinite (d))
        len[p] = MAX (len[p], d);
    }
  return len;
}

static gboolean
name_has (const char *name,
          const char *word)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return strstr (lower, word) != NULL;
}

/* A joint that carries no body of its own: an end twig ("HeadTop_End", "LeftToe_End",
 * "lHandNub", "End Site" stand-ins) or an eye. */
static gboolean
is_twig_name (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return g_str_has_suffix (lower, "end") || g_str_has_suffix (lower, "nub") ||
         g_str_has_suffix (lower, "site") || strstr (lower, "eye") != NULL ||
         strstr (lower, "headtop") != NULL;
}

gboolean
odori_skeleton_is_head_name (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);
  return (name_has (name, "head") || name_has (name, "skull")) && !is_twig_name (name);
}

static gboolean
is_head_name (const char *name)
{
  return odori_skeleton_is_head_name (name);
}

static gboolean
is_neck_name (const char *name)
{
  return name_has (name, "neck");
}

static OdoriSkeleton *
build_skeleton (const BuildInfo *info)
{
  const OdoriMotion *motion = info->motion;
  guint n = motion->n_segments;
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autofree int *bone_of_segment = g_new (int, MAX (n, 1));
  g_autofree guint *n_children = g_new0 (guint, MAX (n, 1));
  g_autofree double *child_len = child_lengths (info);
  OdoriSkeleton *skeleton;
  double size, min_radius;
  guint k;

  k = odori_forest_preorder (info->parent, n, order);
  g_assert (k == n);
  for (guint s = 0; s < n; s++)
    if (info->parent[s] >= 0)
      n_children[info->parent[s]]++;
  size = motion_size (info, child_len);
  min_radius = MIN_RADIUS_FACTOR * size;

  skeleton = _odori_skeleton_new (info->scheme, n);
  for (guint b = 0; b < n; b++)
    {
      guint s = order[b];
      OdoriBone *bone = &skeleton->bones[b];
      int e = info->entry_of_segment[s];
      const TableEntry *entry = (info->table != NULL && e >= 0) ? &info->table->entries[e] : NULL;
      gboolean torso;
      double length = child_len[s];

      bone_of_segment[s] = b;
      bone->name = g_strdup (motion->segments[s].name ? motion->segments[s].name : "");
      bone->parent = info->parent[s] >= 0 ? bone_of_segment[info->parent[s]] : -1;
      bone->bulge_code = entry != NULL ? entry->bulge : BULGE_NONE;
      if (info->scheme == ODORI_SKELETON_SCHEME_MARKERS)
        {
          /* A marker: a sphere, no bone. */
          bone->length = 0;
          bone->radius = (float) min_radius;
          bone->bulge_code = BULGE_NONE;
          continue;
        }
      /* Preorder: the parent's length is already final. */
      if (!(length > 0))
        length = bone->parent >= 0 ? LEAF_LENGTH_FACTOR * skeleton->bones[bone->parent].length
                                   : LONE_LENGTH_FACTOR * size;
      torso = entry != NULL ? entry->torso : n_children[s] >= 3;
      bone->radius = (float) MAX ((torso ? TORSO_RADIUS_FACTOR : ODORI_SKELETON_LIMB_RADIUS_FACTOR) * length,
                                  min_radius);
      /* A head drawn as a leaf at half the neck's length was a thin stick: a head is
       * about twice as tall as the neck is long, and nearly half as wide as tall; a
       * neck is thick for its length. */
      /* Whatever hangs from it (eyes, an End Site, a head-top joint), a head is a head:
       * the same shape for a BVH and the BVA written from it (the skin draws it along
       * the neck, not towards its children). */
      if (bone->parent >= 0 && is_head_name (bone->name))
        {
          length = HEAD_LENGTH_FACTOR * skeleton->bones[bone->parent].length;
          bone->radius = (float) MAX (HEAD_RADIUS_FACTOR * length, min_radius);
        }
      else if (is_neck_name (bone->name))
        bone->radius = (float) MAX (NECK_RADIUS_FACTOR * length, bone->radius);
      /* Eyes and end twigs carry no body: no skin. */
      if (bone->parent >= 0 && is_twig_name (bone->name))
        bone->radius = 0;
      /* Nor does a reference root on the ground below the hips (a dataset's "Root" or
       * "Reference" joint): a root whose one child is the hips, or stands more than a
       * fifth of the figure above it, would be a pillar hiding the legs. */
      if (bone->parent < 0 && n_children[s] == 1 && !is_hips_name (bone->name))
        {
          int child = -1;

          for (guint c = 0; c < n && child < 0; c++)
            if (info->parent[c] == (int) s)
              child = (int) c;
          if (child >= 0 && (is_hips_name (motion->segments[child].name) ||
                             frame0_position (motion, child, (float[3]){ 0 })[1] - frame0_position (motion, s, (float[3]){ 0 })[1] >
                                 0.2 * size))
            bone->radius = 0;
        }
      bone->length = (float) length;
    }
  return skeleton;
}

static OdoriSkeleton *
infer_with_table (const OdoriMotion *motion,
                  const SchemeTable *table,
                  const int         *entry_of_segment)
{
  guint n = motion->n_segments;
  g_autofree int *parent = g_new (int, n);
  g_autofree gboolean *in_tree = g_new0 (gboolean, n);
  BuildInfo info = { motion, table->scheme, parent, table, entry_of_segment };
  gboolean all_known = TRUE;

  table_parents (table, motion, entry_of_segment, parent);
  for (guint s = 0; s < n; s++)
    {
      in_tree[s] = entry_of_segment[s] >= 0;
      all_known = all_known && in_tree[s];
    }
  if (!all_known)
    {
      g_auto (Samples) samples = { 0 };

      g_autofree gboolean *known = g_new (gboolean, n);
      g_autofree guint *order = segments_in_order (motion);

      for (guint s = 0; s < n; s++)
        known[s] = entry_of_segment[s] >= 0;
      samples_init (&samples, motion);
      samples_fill_costs (&samples);
      grow_tree (&samples, parent, in_tree);
      improve_tree (&samples, order, parent, known, NULL);
    }
  return build_skeleton (&info);
}

static OdoriSkeleton *
markers_skeleton (const OdoriMotion *motion,
                  const Samples     *samples,
                  const int         *entry_of_segment)
{
  guint n = motion->n_segments;
  g_autofree int *parent = g_new (int, n);
  BuildInfo info = { motion, ODORI_SKELETON_SCHEME_MARKERS, parent, NULL, entry_of_segment };
  g_autoptr(GArray) candidates = NULL;
  g_autoptr(GArray) joins = NULL;
  OdoriSkeleton *skeleton;
  guint k = 0;

  for (guint s = 0; s < n; s++)
    parent[s] = -1;
  skeleton = build_skeleton (&info);
  /* A forest of roots only: bone b is segment b. */
  candidates = find_sticks (samples);
  for (guint i = 0; i < candidates->len; i++)
    k += g_array_index (candidates, StickCandidate, i).keep == 2;
  joins = join_stick_components (samples, candidates);
  skeleton->n_sticks = k + joins->len;
  skeleton->sticks = g_new (OdoriStick, MAX (skeleton->n_sticks, 1));
  k = 0;
  for (guint i = 0; i < candidates->len; i++)
    {
      const StickCandidate *c = &g_array_index (candidates, StickCandidate, i);

      if (c->keep != 2)
        continue;
      skeleton->sticks[k].a = c->a;
      skeleton->sticks[k].b = c->b;
      skeleton->sticks[k].length = (float) c->length;
      skeleton->sticks[k].join = FALSE;
      k++;
    }
  for (guint i = 0; i < joins->len; i++)
    {
      const StickCandidate *c = &g_array_index (joins, StickCandidate, i);

      skeleton->sticks[k].a = MIN (c->a, c->b);
      skeleton->sticks[k].b = MAX (c->a, c->b);
      skeleton->sticks[k].length = (float) c->length;
      skeleton->sticks[k].join = TRUE;
      k++;
    }
  qsort (skeleton->sticks, skeleton->n_sticks, sizeof (OdoriStick), compare_sticks_ab);
  return skeleton;
}

OdoriSkeleton *
odori_skeleton_infer (const OdoriMotion *motion)
{
  g_auto (Samples) samples = { 0 };
  g_autofree int *parent = NULL;
  g_autofree int *entry_of_segment = NULL;
  BuildInfo info;
  guint n, score;

  g_return_val_if_fail (motion != NULL, NULL);

  n = motion->n_segments;
  if (n == 0)
    return NULL;
  parent = g_new (int, n);
  entry_of_segment = g_new (int, n);
  samples_init (&samples, motion);
  samples_fill_costs (&samples);
  infer_parents (&samples, parent);

  info.motion = motion;
  info.scheme = ODORI_SKELETON_SCHEME_INFERRED;
  info.parent = parent;
  /* A table below the threshold still gives bulge codes and torso widths. */
  info.table = best_table (motion, entry_of_segment, &score);
  info.entry_of_segment = entry_of_segment;
  return build_skeleton (&info);
}

OdoriSkeleton *
odori_skeleton_for_motion (const OdoriMotion *motion)
{
  guint n, score = 0;
  g_autofree int *entry_of_segment = NULL;
  const SchemeTable *table;

  g_return_val_if_fail (motion != NULL, NULL);

  n = motion->n_segments;
  if (n == 0)
    return NULL;
  entry_of_segment = g_new (int, n);
  table = best_table (motion, entry_of_segment, &score);

  if (motion->has_hierarchy)
    {
      g_autofree int *parent = g_new (int, n);

      for (guint s = 0; s < n; s++)
        parent[s] = motion->segments[s].parent;
      if (_odori_skeleton_parents_are_forest (parent, n))
        {
          BuildInfo info = { motion, ODORI_SKELETON_SCHEME_HIERARCHY, parent, table,
                             entry_of_segment };

          return build_skeleton (&info);
        }
    }

  if (table_is_usable (table, motion, entry_of_segment, score))
    return infer_with_table (motion, table, entry_of_segment);

  {
    g_auto (Samples) samples = { 0 };

    samples_init (&samples, motion);
    if (is_marker_set (&samples))
      return markers_skeleton (motion, &samples, entry_of_segment);
  }
  return odori_skeleton_infer (motion);
}
