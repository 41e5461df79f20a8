/* odori-skeleton.c: a hierarchy for drawing, skinning and BVH export (DESIGN.md,
 * "Skeleton for display")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - A motion with its own hierarchy (BVH) keeps it (scheme HIERARCHY); bone lengths then
 *   come from the OFFSETs (the rest pose), not from frame 0.
 * - Otherwise the built-in table (Biovision BVA, the 17-sensor suit, NI joints, CMU BVH
 *   names) that knows most of the motion's segment names wins, if it knows at least half
 *   of them and the motion has the table's root. Names are compared without regard to
 *   ASCII case and after a namespace prefix ("steve:Hips" is "Hips"). A table lists for
 *   each entry the parents it prefers, first present wins; when none is present the walk
 *   goes on up the table, so a motion without a Neck hangs the Head on the Chest.
 *   Segments the table does not know are attached to the tree by distance at frame 0
 *   (the same growth as the inference below, started from the known segments).
 * - Inference from frame 0: the root is the segment nearest the centroid of all
 *   positions (ties: the first). The tree is then a minimum spanning tree of the
 *   distances, grown by Prim's algorithm from the root: each step attaches the segment
 *   nearest to any segment already attached (ties: the lower segment index, attached to
 *   the segment attached earliest). Markers and sensors sit along the limbs, so nearest
 *   neighbours follow the limbs; a full MST, unlike "nearest earlier segment", does not
 *   depend on the order of the segments in the file.
 * - Bones are ordered depth first (children in segment order), so parents always come
 *   before their children and a BVH written in bone order reads back in the same order.
 * - Bone length: the distance to the farthest child (BVH: the longest child OFFSET, or the
 *   End Site); a leaf gets half its parent's length, a lone root a tenth of the motion's
 *   size at frame 0. Radius: 0.18 × length for limbs, 0.35 × length for torso bones,
 *   never below 1.5 % of the motion's size.
 * - Bulge codes: -1 everywhere except the upper arms (1, biceps), forearms (2), thighs (3)
 *   and calves (4) of the known naming schemes. These are placeholder codes: a later
 *   issue ships a bulge_types file (FORMATS.md §7) that defines exactly these codes.
 * - The XML description is read with libxml2 without network access, without loading any
 *   DTD and without substituting entities; a document that declares an entity is refused
 *   at the declaration (so billion-laughs and external entities never expand or load), as
 *   is a file over 4 MB. Bones must name parents that come earlier in the file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "odori-skeleton.h"
#include "odori-text.h"

G_DEFINE_QUARK (odori-skeleton-error-quark, odori_skeleton_error)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlParserCtxt, xmlFreeParserCtxt)

/* A skeleton description is a few kilobytes; anything this big is not one. */
#define MAX_XML_BYTES (4 * 1024 * 1024)
#define XML_VERSION "1"
/* Lengths and radii beyond this are garbage (and would not fit a float). */
#define MAX_ABS_LENGTH 1e15

#define LIMB_RADIUS_FACTOR 0.18
#define HEAD_LENGTH_FACTOR 1.7
#define HEAD_RADIUS_FACTOR 0.5
#define NECK_RADIUS_FACTOR 0.5
#define TORSO_RADIUS_FACTOR 0.35
#define MIN_RADIUS_FACTOR 0.015   /* of the motion's size */
#define LONE_LENGTH_FACTOR 0.1    /* of the motion's size, for a root without children */
#define LEAF_LENGTH_FACTOR 0.5    /* of the parent's length */

/* Placeholder bulge codes (see the comment at the top). */
enum
{
  BULGE_NONE = -1,
  BULGE_BICEPS = 1,
  BULGE_FOREARM = 2,
  BULGE_THIGH = 3,
  BULGE_CALF = 4,
};

typedef struct
{
  const char *name;
  const char *parents[2];  /* preferred parents, the first present wins; NULL: the root */
  int         bulge;
  gboolean    torso;
} TableEntry;

typedef struct
{
  OdoriSkeletonScheme scheme;
  const TableEntry   *entries;   /* entries[0] is the root */
  guint               n_entries;
} SchemeTable;

#define E(n, p, b, t)      { n, { p, NULL }, b, t }
#define E2(n, p, q, b, t)  { n, { p, q }, b, t }

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

#undef E
#undef E2

/* In order of preference when two tables know as many names. */
static const SchemeTable tables[] = {
  { ODORI_SKELETON_SCHEME_BIOVISION, biovision_entries, G_N_ELEMENTS (biovision_entries) },
  { ODORI_SKELETON_SCHEME_SUIT17, suit17_entries, G_N_ELEMENTS (suit17_entries) },
  { ODORI_SKELETON_SCHEME_NI, ni_entries, G_N_ELEMENTS (ni_entries) },
  { ODORI_SKELETON_SCHEME_CMU, cmu_entries, G_N_ELEMENTS (cmu_entries) },
};

static const char *scheme_names[] = {
  [ODORI_SKELETON_SCHEME_HIERARCHY] = "hierarchy",
  [ODORI_SKELETON_SCHEME_BIOVISION] = "biovision",
  [ODORI_SKELETON_SCHEME_SUIT17] = "suit17",
  [ODORI_SKELETON_SCHEME_NI] = "ni",
  [ODORI_SKELETON_SCHEME_CMU] = "cmu",
  [ODORI_SKELETON_SCHEME_INFERRED] = "inferred",
  [ODORI_SKELETON_SCHEME_FILE] = "file",
};

const char *
odori_skeleton_scheme_to_string (OdoriSkeletonScheme scheme)
{
  g_return_val_if_fail (scheme <= ODORI_SKELETON_SCHEME_FILE, "unknown");
  return scheme_names[scheme];
}

/* Life cycle */

static OdoriSkeleton *
skeleton_new (OdoriSkeletonScheme scheme,
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

/* Depth-first order of a forest given by PARENT (acyclic), roots and children in index
 * order. Iterative: an inferred chain of thousands of markers costs no C stack. Returns
 * the number of nodes written to ORDER. */
static guint
forest_preorder (const int *parent,
                 guint      n,
                 guint     *order)
{
  g_autofree int *first_child = g_new (int, MAX (n, 1));
  g_autofree int *next_sibling = g_new (int, MAX (n, 1));
  guint k = 0;

  for (guint i = 0; i < n; i++)
    first_child[i] = next_sibling[i] = -1;
  for (guint i = n; i-- > 0;)
    if (parent[i] >= 0)
      {
        next_sibling[i] = first_child[parent[i]];
        first_child[parent[i]] = i;
      }

  for (guint r = 0; r < n; r++)
    {
      int v = r;

      if (parent[r] >= 0)
        continue;
      for (;;)
        {
          order[k++] = v;
          if (first_child[v] >= 0)
            {
              v = first_child[v];
              continue;
            }
          while (v != (int) r && next_sibling[v] < 0)
            v = parent[v];
          if (v == (int) r)
            break;
          v = next_sibling[v];
        }
    }
  return k;
}

/* TRUE if every parent index is in range and following parents always ends at a root. */
static gboolean
parents_are_forest (const int *parent,
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

static const float *
frame0_position (const OdoriMotion *motion,
                 guint              segment)
{
  if (motion->n_frames == 0)
    return zero3;
  return odori_motion_get (motion, 0, segment)->position;
}

static double
distance (const float a[3],
          const float b[3])
{
  double dx = (double) a[0] - b[0], dy = (double) a[1] - b[1], dz = (double) a[2] - b[2];

  return sqrt (dx * dx + dy * dy + dz * dz);
}

/* Prim's algorithm: grows the tree given by IN_TREE (PARENT set for its members) until it
 * holds every segment, each step attaching the segment nearest to the tree at frame 0. */
static void
attach_by_distance (const OdoriMotion *motion,
                    int               *parent,
                    gboolean          *in_tree)
{
  guint n = motion->n_segments;
  g_autofree double *best = g_new (double, MAX (n, 1));
  g_autofree int *from = g_new (int, MAX (n, 1));
  int first_in_tree = -1;

  for (guint u = 0; u < n && first_in_tree < 0; u++)
    if (in_tree[u])
      first_in_tree = u;
  g_assert (first_in_tree >= 0);

  for (guint v = 0; v < n; v++)
    {
      /* Non-finite positions make distances NaN, never "less": such a segment stays
       * attached to the first segment of the tree. */
      best[v] = INFINITY;
      from[v] = first_in_tree;
      if (in_tree[v])
        continue;
      for (guint u = 0; u < n; u++)
        if (in_tree[u])
          {
            double d = distance (frame0_position (motion, u), frame0_position (motion, v));

            if (d < best[v])
              {
                best[v] = d;
                from[v] = u;
              }
          }
    }

  for (;;)
    {
      int next = -1;

      for (guint v = 0; v < n; v++)
        if (!in_tree[v] && (next < 0 || best[v] < best[next]))
          next = v;
      if (next < 0)
        break;
      parent[next] = from[next];
      in_tree[next] = TRUE;
      for (guint w = 0; w < n; w++)
        if (!in_tree[w])
          {
            double d = distance (frame0_position (motion, next), frame0_position (motion, w));

            if (d < best[w])
              {
                best[w] = d;
                from[w] = next;
              }
          }
    }
}

static guint
centroid_segment (const OdoriMotion *motion)
{
  double c[3] = { 0, 0, 0 };
  float cf[3];
  double best = INFINITY;
  guint root = 0;

  for (guint s = 0; s < motion->n_segments; s++)
    for (int i = 0; i < 3; i++)
      c[i] += frame0_position (motion, s)[i];
  for (int i = 0; i < 3; i++)
    cf[i] = (float) (c[i] / motion->n_segments);
  for (guint s = 0; s < motion->n_segments; s++)
    {
      double d = distance (frame0_position (motion, s), cf);

      if (d < best)
        {
          best = d;
          root = s;
        }
    }
  return root;
}

/* Tables */

static const char *
strip_namespace (const char *name)
{
  const char *colon;

  if (name == NULL)
    return "";
  colon = strrchr (name, ':');
  return colon != NULL ? colon + 1 : name;
}

static int
table_find (const SchemeTable *table,
            const char        *name)
{
  for (guint e = 0; e < table->n_entries; e++)
    if (g_ascii_strcasecmp (table->entries[e].name, name) == 0)
      return e;
  return -1;
}

/* Maps each segment to the table entry it is (the first segment with a name claims the
 * entry; a later one with the same name stays unknown). Returns how many matched. */
static guint
table_match (const SchemeTable *table,
             const OdoriMotion *motion,
             int               *entry_of_segment,
             int               *segment_of_entry)
{
  guint score = 0;

  for (guint e = 0; e < table->n_entries; e++)
    segment_of_entry[e] = -1;
  for (guint s = 0; s < motion->n_segments; s++)
    {
      int e = table_find (table, strip_namespace (motion->segments[s].name));

      entry_of_segment[s] = -1;
      if (e < 0 || segment_of_entry[e] >= 0)
        continue;
      segment_of_entry[e] = s;
      entry_of_segment[s] = e;
      score++;
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
          int pe = table_find (table, e->parents[k]);

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
            guint             *score_out,
            gboolean          *has_root)
{
  const SchemeTable *best = NULL;
  guint best_score = 0;
  g_autofree int *entries = g_new (int, MAX (motion->n_segments, 1));

  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      int segment_of_entry[64];
      guint score;

      g_assert (tables[t].n_entries <= G_N_ELEMENTS (segment_of_entry));
      score = table_match (&tables[t], motion, entries, segment_of_entry);
      if (score > best_score)
        {
          best = &tables[t];
          best_score = score;
          *has_root = segment_of_entry[0] >= 0;
          memcpy (entry_of_segment, entries, motion->n_segments * sizeof (int));
        }
    }
  if (best == NULL)
    for (guint s = 0; s < motion->n_segments; s++)
      entry_of_segment[s] = -1;
  *score_out = best_score;
  return best;
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
            lo = MIN (lo, frame0_position (motion, s)[i]);
            hi = MAX (hi, frame0_position (motion, s)[i]);
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
        d = distance (frame0_position (motion, p), frame0_position (motion, s));
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

static gboolean
is_head_name (const char *name)
{
  return name_has (name, "head") || name_has (name, "skull");
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

  k = forest_preorder (info->parent, n, order);
  g_assert (k == n);
  for (guint s = 0; s < n; s++)
    if (info->parent[s] >= 0)
      n_children[info->parent[s]]++;
  size = motion_size (info, child_len);
  min_radius = MIN_RADIUS_FACTOR * size;

  skeleton = skeleton_new (info->scheme, n);
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
      /* Preorder: the parent's length is already final. */
      if (!(length > 0))
        length = bone->parent >= 0 ? LEAF_LENGTH_FACTOR * skeleton->bones[bone->parent].length
                                   : LONE_LENGTH_FACTOR * size;
      torso = entry != NULL ? entry->torso : n_children[s] >= 3;
      bone->radius = (float) MAX ((torso ? TORSO_RADIUS_FACTOR : LIMB_RADIUS_FACTOR) * length,
                                  min_radius);
      /* A head drawn as a leaf at half the neck's length was a thin stick: a head is
       * about twice as tall as the neck is long, and nearly half as wide as tall; a
       * neck is thick for its length. */
      if (!(child_len[s] > 0) && bone->parent >= 0 && is_head_name (bone->name))
        {
          length = HEAD_LENGTH_FACTOR * skeleton->bones[bone->parent].length;
          bone->radius = (float) MAX (HEAD_RADIUS_FACTOR * length, min_radius);
        }
      else if (is_neck_name (bone->name))
        bone->radius = (float) MAX (NECK_RADIUS_FACTOR * length, bone->radius);
      bone->length = (float) length;
      bone->bulge_code = entry != NULL ? entry->bulge : BULGE_NONE;
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
  g_autofree int *segment_of_entry = g_new (int, table->n_entries);
  BuildInfo info = { motion, table->scheme, parent, table, entry_of_segment };

  for (guint e = 0; e < table->n_entries; e++)
    segment_of_entry[e] = -1;
  for (guint s = 0; s < n; s++)
    if (entry_of_segment[s] >= 0)
      segment_of_entry[entry_of_segment[s]] = s;
  for (guint s = 0; s < n; s++)
    if (entry_of_segment[s] >= 0)
      {
        parent[s] = table_parent_segment (table, entry_of_segment[s], segment_of_entry);
        in_tree[s] = TRUE;
      }
  attach_by_distance (motion, parent, in_tree);
  return build_skeleton (&info);
}

OdoriSkeleton *
odori_skeleton_infer (const OdoriMotion *motion)
{
  guint n, score;
  gboolean has_root = FALSE;
  g_autofree int *parent = NULL;
  g_autofree gboolean *in_tree = NULL;
  g_autofree int *entry_of_segment = NULL;
  BuildInfo info;
  guint root;

  g_return_val_if_fail (motion != NULL, NULL);

  n = motion->n_segments;
  if (n == 0)
    return NULL;
  parent = g_new (int, n);
  in_tree = g_new0 (gboolean, n);
  entry_of_segment = g_new (int, n);
  root = centroid_segment (motion);
  parent[root] = -1;
  in_tree[root] = TRUE;
  attach_by_distance (motion, parent, in_tree);

  info.motion = motion;
  info.scheme = ODORI_SKELETON_SCHEME_INFERRED;
  info.parent = parent;
  info.table = best_table (motion, entry_of_segment, &score, &has_root);
  info.entry_of_segment = entry_of_segment;
  return build_skeleton (&info);
}

OdoriSkeleton *
odori_skeleton_for_motion (const OdoriMotion *motion)
{
  guint n, score = 0;
  gboolean has_root = FALSE;
  g_autofree int *entry_of_segment = NULL;
  const SchemeTable *table;

  g_return_val_if_fail (motion != NULL, NULL);

  n = motion->n_segments;
  if (n == 0)
    return NULL;
  entry_of_segment = g_new (int, n);
  table = best_table (motion, entry_of_segment, &score, &has_root);

  if (motion->has_hierarchy)
    {
      g_autofree int *parent = g_new (int, n);

      for (guint s = 0; s < n; s++)
        parent[s] = motion->segments[s].parent;
      if (parents_are_forest (parent, n))
        {
          BuildInfo info = { motion, ODORI_SKELETON_SCHEME_HIERARCHY, parent, table,
                             entry_of_segment };

          return build_skeleton (&info);
        }
    }

  if (table != NULL && has_root && 2 * score >= n)
    return infer_with_table (motion, table, entry_of_segment);
  return odori_skeleton_infer (motion);
}

/* XML description */

static gboolean
set_xml_error (GError     **error,
               int          code,
               const char  *path,
               long         line,
               const char  *format,
               ...) G_GNUC_PRINTF (5, 6);

static gboolean
set_xml_error (GError     **error,
               int          code,
               const char  *path,
               long         line,
               const char  *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, ODORI_SKELETON_ERROR, code, "%s:%ld: %s", path, MAX (line, 1), message);
  return FALSE;
}

/* Reads at most MAX_XML_BYTES (+1 to notice more); works on pipes and devices, whose size
 * stat() does not tell. */
static char *
read_limited (const char  *path,
              gsize       *len_out,
              GError     **error)
{
  g_autofree char *data = NULL;
  gsize len = 0, cap = 0;
  int fd = odori_open_regular_file (path, error);

  if (fd < 0)
    return NULL;
  for (;;)
    {
      gssize got;

      if (cap - len < 65536)
        {
          cap = MIN (MAX (cap * 2, 65536), (gsize) MAX_XML_BYTES + 65536 + 1);
          data = g_realloc (data, cap);
        }
      got = read (fd, data + len, cap - len);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: cannot read: %s"),
                       path, g_strerror (saved_errno));
          return NULL;
        }
      if (got == 0)
        break;
      len += got;
      if (len > MAX_XML_BYTES)
        {
          close (fd);
          set_xml_error (error, ODORI_SKELETON_ERROR_XML, path, 1,
                         _("the file is larger than %d bytes, too large for a skeleton "
                           "description"), MAX_XML_BYTES);
          return NULL;
        }
    }
  close (fd);
  *len_out = len;
  return g_steal_pointer (&data);
}

typedef struct
{
  gboolean entity_declared;
  long     line;
  char    *first_error;   /* libxml2 goes on after some errors: the first is the cause */
  long     first_error_line;
} ParseGuard;

/* libxml2 2.12 made the error const; take it const and cast the callback, so that both
 * the 2.9 of Debian 12 and newer releases compile without warnings. */
static void
structured_error_cb (void           *ctx,
                     const xmlError *xerr)
{
  xmlParserCtxtPtr ctxt = ctx;
  ParseGuard *guard = ctxt->_private;

  if (guard->first_error != NULL || xerr == NULL || xerr->level < XML_ERR_ERROR)
    return;
  guard->first_error = g_strchomp (g_strdup (xerr->message ? xerr->message : "error"));
  guard->first_error_line = xerr->line;
}

/* SAX hook for <!ENTITY>: refuse the document there, before anything is expanded. */
static void
entity_decl_cb (void          *ctx,
                const xmlChar *name,
                int            type,
                const xmlChar *public_id,
                const xmlChar *system_id,
                xmlChar       *content)
{
  xmlParserCtxtPtr ctxt = ctx;
  ParseGuard *guard = ctxt->_private;

  if (!guard->entity_declared)
    {
      guard->entity_declared = TRUE;
      guard->line = ctxt->input != NULL ? ctxt->input->line : 0;
    }
  xmlStopParser (ctxt);
}

static void
unparsed_entity_decl_cb (void          *ctx,
                         const xmlChar *name,
                         const xmlChar *public_id,
                         const xmlChar *system_id,
                         const xmlChar *notation_name)
{
  entity_decl_cb (ctx, name, 0, public_id, system_id, NULL);
}

static xmlDoc *
parse_xml (const char  *path,
           const char  *data,
           gsize        len,
           GError     **error)
{
  g_autoptr(xmlParserCtxt) ctxt = xmlNewParserCtxt ();
  g_autoptr(xmlDoc) doc = NULL;
  ParseGuard guard = { FALSE, 0, NULL, 0 };
  g_autofree char *first_error = NULL;

  if (ctxt == NULL)
    {
      set_xml_error (error, ODORI_SKELETON_ERROR_XML, path, 1, _("cannot create an XML parser"));
      return NULL;
    }
  ctxt->_private = &guard;
  ctxt->sax->entityDecl = entity_decl_cb;
  ctxt->sax->unparsedEntityDecl = unparsed_entity_decl_cb;
  ctxt->sax->serror = (xmlStructuredErrorFunc) structured_error_cb;
  /* No XML_PARSE_NOENT (substitution) nor XML_PARSE_DTDLOAD: nothing outside the file is
   * ever read. BIG_LINES keeps line numbers right past 65535. */
  doc = xmlCtxtReadMemory (ctxt, data, (int) len, path, NULL,
                           XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                           XML_PARSE_BIG_LINES);
  first_error = g_steal_pointer (&guard.first_error);
  if (first_error != NULL && !g_utf8_validate (first_error, -1, NULL))
    {
      /* libxml2 quotes the input in its messages: keep ours valid UTF-8 */
      char *valid = g_utf8_make_valid (first_error, -1);

      g_free (first_error);
      first_error = valid;
    }
  if (guard.entity_declared)
    {
      set_xml_error (error, ODORI_SKELETON_ERROR_XML, path, guard.line,
                     _("entity declarations are not allowed in a skeleton description"));
      return NULL;
    }
  if (doc != NULL && ctxt->wellFormed && first_error == NULL)
    return g_steal_pointer (&doc);

  if (first_error != NULL)
    set_xml_error (error, ODORI_SKELETON_ERROR_XML, path, guard.first_error_line,
                   _("not well-formed XML: %s"), first_error);
  else
    set_xml_error (error, ODORI_SKELETON_ERROR_XML, path, 1, _("not well-formed XML"));
  return NULL;
}

static gboolean
attr_is (const xmlAttr *attr,
         const char    *name)
{
  return strcmp ((const char *) attr->name, name) == 0;
}

/* The attribute's value (owned), or NULL. */
static char *
get_attr (xmlNode    *node,
          const char *name)
{
  xmlChar *value = xmlGetNoNsProp (node, (const xmlChar *) name);
  char *copy = g_strdup ((const char *) value);

  xmlFree (value);
  return copy;
}

static gboolean
parse_length_attr (const char  *path,
                   xmlNode     *node,
                   const char  *name,
                   const char  *value,
                   float       *out,
                   GError     **error)
{
  const char *end = value + strlen (value);
  const char *p = odori_skip_blanks (value, end);
  double d;

  if (odori_looks_non_finite (p, end))
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (node),
                          _("%s must be a finite number, got \"%s\""), name, value);
  if (!odori_parse_double (&p, end, &d) || odori_skip_blanks (p, end) != end)
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (node),
                          _("expected a number for %s, got \"%s\""), name, value);
  if (!(d >= 0 && d <= MAX_ABS_LENGTH))
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (node),
                          _("%s must be between 0 and %g, got \"%s\""), name, MAX_ABS_LENGTH,
                          value);
  *out = (float) d;
  return TRUE;
}

static gboolean
parse_bulge_attr (const char  *path,
                  xmlNode     *node,
                  const char  *value,
                  int         *out,
                  GError     **error)
{
  const char *end = value + strlen (value);
  const char *p = odori_skip_blanks (value, end);
  gint64 v;

  if (!odori_parse_int (&p, end, &v) || odori_skip_blanks (p, end) != end ||
      v < -1 || v > G_MAXINT)
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (node),
                          _("expected a bulge code (-1 or an integer >= 0), got \"%s\""), value);
  *out = (int) v;
  return TRUE;
}

static gboolean
check_bone_attrs (const char  *path,
                  xmlNode     *node,
                  GError     **error)
{
  for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
    if (!attr_is (attr, "name") && !attr_is (attr, "parent") && !attr_is (attr, "length") &&
        !attr_is (attr, "radius") && !attr_is (attr, "bulge"))
      return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (node),
                            _("unknown attribute \"%s\" on <bone>"), (const char *) attr->name);
  return TRUE;
}

/* Fills BONE from NODE; NAMES maps the names of the bones before it to index + 1. */
static gboolean
parse_bone (const char  *path,
            xmlNode     *node,
            GHashTable  *names,
            OdoriBone   *bone,
            GError     **error)
{
  g_autofree char *name = get_attr (node, "name");
  g_autofree char *parent = get_attr (node, "parent");
  g_autofree char *length = get_attr (node, "length");
  g_autofree char *radius = get_attr (node, "radius");
  g_autofree char *bulge = get_attr (node, "bulge");
  long line = xmlGetLineNo (node);

  if (!check_bone_attrs (path, node, error))
    return FALSE;
  if (name == NULL || name[0] == '\0')
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, line,
                          _("<bone> needs a non-empty name attribute"));
  if (g_hash_table_contains (names, name))
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, line,
                          _("a second bone named \"%s\""), name);
  bone->parent = -1;
  if (parent != NULL && parent[0] != '\0')
    {
      gpointer index = g_hash_table_lookup (names, parent);

      if (index == NULL)
        return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, line,
                              _("bone \"%s\": parent \"%s\" is not a bone defined before it"),
                              name, parent);
      bone->parent = GPOINTER_TO_INT (index) - 1;
    }
  if (length == NULL)
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, line,
                          _("bone \"%s\" has no length attribute"), name);
  if (!parse_length_attr (path, node, "length", length, &bone->length, error))
    return FALSE;
  bone->radius = (float) MAX (LIMB_RADIUS_FACTOR * bone->length, 0.0);
  if (radius != NULL && !parse_length_attr (path, node, "radius", radius, &bone->radius, error))
    return FALSE;
  bone->bulge_code = BULGE_NONE;
  if (bulge != NULL && !parse_bulge_attr (path, node, bulge, &bone->bulge_code, error))
    return FALSE;
  bone->name = g_steal_pointer (&name);
  return TRUE;
}

static gboolean
check_root (const char  *path,
            xmlNode     *root,
            GError     **error)
{
  g_autofree char *version = NULL;

  if (root == NULL)
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, 1,
                          _("expected an <odori-skeleton> element, found none"));
  if (root->ns != NULL || strcmp ((const char *) root->name, "odori-skeleton") != 0)
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (root),
                          _("expected the root element <odori-skeleton>, got <%s>"),
                          (const char *) root->name);
  version = get_attr (root, "version");
  if (version != NULL && strcmp (version, XML_VERSION) != 0)
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (root),
                          _("expected version=\"%s\", got version=\"%s\""), XML_VERSION, version);
  return TRUE;
}

static OdoriSkeleton *
skeleton_from_doc (const char  *path,
                   xmlDoc      *doc,
                   GError     **error)
{
  xmlNode *root = xmlDocGetRootElement (doc);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) bones = NULL;
  OdoriSkeleton *skeleton;

  if (!check_root (path, root, error))
    return NULL;

  bones = g_array_new (FALSE, TRUE, sizeof (OdoriBone));
  for (xmlNode *node = root->children; node != NULL; node = node->next)
    {
      OdoriBone bone = { 0 };

      if (node->type != XML_ELEMENT_NODE)
        continue;
      if (node->ns != NULL || strcmp ((const char *) node->name, "bone") != 0)
        {
          set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (node),
                         _("expected <bone>, got <%s>"), (const char *) node->name);
          goto fail;
        }
      if (!parse_bone (path, node, names, &bone, error))
        goto fail;
      g_array_append_val (bones, bone);
      g_hash_table_insert (names, bone.name, GINT_TO_POINTER (bones->len));
    }
  if (bones->len == 0)
    {
      set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, xmlGetLineNo (root),
                     _("the skeleton has no <bone>"));
      return NULL;
    }

  skeleton = skeleton_new (ODORI_SKELETON_SCHEME_FILE, 0);
  g_free (skeleton->bones);
  skeleton->n_bones = bones->len;
  skeleton->bones = (OdoriBone *) (void *) g_array_free (g_steal_pointer (&bones), FALSE);
  return skeleton;

fail:
  for (guint i = 0; i < bones->len; i++)
    g_free (g_array_index (bones, OdoriBone, i).name);
  return NULL;
}

OdoriSkeleton *
odori_skeleton_load (const char  *path,
                     GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(xmlDoc) doc = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = read_limited (path, &len, error);
  if (data == NULL)
    return NULL;
  doc = parse_xml (path, data, len, error);
  if (doc == NULL)
    return NULL;
  return skeleton_from_doc (path, doc, error);
}

/* Names go into attributes: they must be UTF-8 without the control characters XML 1.0
 * cannot hold even escaped. */
static gboolean
name_fits_xml (const char *name)
{
  if (name == NULL || name[0] == '\0' || !g_utf8_validate (name, -1, NULL))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
      return FALSE;
  return TRUE;
}

static gboolean
check_for_save (const OdoriSkeleton *skeleton,
                const char          *path,
                GError             **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree int *parent = g_new (int, MAX (skeleton->n_bones, 1));

  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      const OdoriBone *bone = &skeleton->bones[i];

      if (!name_fits_xml (bone->name))
        return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, 1,
                              _("bone %u has an empty name or one XML cannot hold"), i);
      if (!g_hash_table_add (names, bone->name))
        return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, 1,
                              _("two bones are named \"%s\""), bone->name);
      parent[i] = bone->parent;
    }
  if (!parents_are_forest (parent, skeleton->n_bones))
    return set_xml_error (error, ODORI_SKELETON_ERROR_INVALID, path, 1,
                          _("the bones' parents do not form a tree (cycle or bad index)"));
  return TRUE;
}

static void
set_prop_double (xmlNode    *node,
                 const char *name,
                 double      value)
{
  g_autofree char *text = odori_format_double (value);

  xmlSetProp (node, (const xmlChar *) name, (const xmlChar *) text);
}

static xmlDoc *
skeleton_to_doc (const OdoriSkeleton *skeleton)
{
  xmlDoc *doc = xmlNewDoc ((const xmlChar *) "1.0");
  xmlNode *root = xmlNewNode (NULL, (const xmlChar *) "odori-skeleton");
  guint n = skeleton->n_bones;
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  guint k;

  xmlDocSetRootElement (doc, root);
  xmlSetProp (root, (const xmlChar *) "version", (const xmlChar *) XML_VERSION);
  xmlSetProp (root, (const xmlChar *) "scheme",
              (const xmlChar *) odori_skeleton_scheme_to_string (skeleton->scheme));

  /* Depth first, so that every parent is written before its children. */
  for (guint i = 0; i < n; i++)
    parent[i] = skeleton->bones[i].parent;
  k = forest_preorder (parent, n, order);
  g_assert (k == n);
  for (guint i = 0; i < n; i++)
    {
      const OdoriBone *bone = &skeleton->bones[order[i]];
      xmlNode *node = xmlNewChild (root, NULL, (const xmlChar *) "bone", NULL);
      g_autofree char *bulge = g_strdup_printf ("%d", bone->bulge_code);

      xmlSetProp (node, (const xmlChar *) "name", (const xmlChar *) bone->name);
      xmlSetProp (node, (const xmlChar *) "parent",
                  (const xmlChar *) (bone->parent >= 0 ? skeleton->bones[bone->parent].name : ""));
      set_prop_double (node, "length", bone->length);
      set_prop_double (node, "radius", bone->radius);
      xmlSetProp (node, (const xmlChar *) "bulge", (const xmlChar *) bulge);
    }
  return doc;
}

gboolean
odori_skeleton_save (const OdoriSkeleton *skeleton,
                     const char          *path,
                     GError             **error)
{
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  xmlChar *buf = NULL;
  int len = 0;

  g_return_val_if_fail (skeleton != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_for_save (skeleton, path, error))
    return FALSE;
  doc = skeleton_to_doc (skeleton);
  xmlDocDumpFormatMemoryEnc (doc, &buf, &len, "UTF-8", 1);
  if (buf == NULL || len <= 0)
    {
      xmlFree (buf);
      return set_xml_error (error, ODORI_SKELETON_ERROR_XML, path, 1,
                            _("cannot serialise the skeleton description"));
    }

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    {
      xmlFree (buf);
      return FALSE;
    }
  odori_output_write (out, (const char *) buf, len);
  xmlFree (buf);
  return odori_output_commit (out, error);
}
