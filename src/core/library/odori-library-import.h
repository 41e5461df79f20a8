/* odori-library-import.h: a capture retargeted onto a library's skeleton, and shows added
 * to and removed from motion.dat (DESIGN.md "Bringing a capture into a library")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A library has one skeleton: the sensors of its reference show (the first show of
 * motion.dat). A capture from elsewhere (BVH, a BVA with other names, a Kinect or suit
 * capture already read as a motion) joins the library through a bone map (capture joint →
 * library sensor, guessed from the names, correctable, overridable with a map file) and
 * is retargeted onto the library's sensors, bone lengths and units. docs/import.md states
 * every rule.
 */
#pragma once

#include "odori-index.h"
#include "odori-motion.h"
#include "odori-retarget.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

#define ODORI_IMPORT_ERROR (odori_import_error_quark ())

typedef enum
{
  ODORI_IMPORT_ERROR_NO_ROOT,       /* the library's hips (root) sensor has no source joint */
  ODORI_IMPORT_ERROR_MAP,           /* a map file line or a map entry names no joint/sensor */
  ODORI_IMPORT_ERROR_EMPTY,         /* a capture or reference without frames or segments */
  ODORI_IMPORT_ERROR_CODE,          /* a show or class code that cannot be written */
  ODORI_IMPORT_ERROR_EXISTS,        /* the show code is already in the library */
  ODORI_IMPORT_ERROR_NO_SHOW,       /* remove: no show with that code */
  ODORI_IMPORT_ERROR_NO_REFERENCE,  /* the library has no show to take the skeleton from */
} OdoriImportError;

/* The motion code of an imported show's one motion: its symbol is SHOWCODE.M1. */
#define ODORI_LIBRARY_IMPORT_MOTION_CODE "M1"

/* What a joint or sensor is in the body, guessed from its name (docs/import.md lists the
 * naming families). */
typedef enum
{
  ODORI_BONE_ROLE_NONE,
  ODORI_BONE_ROLE_HIPS,
  ODORI_BONE_ROLE_SPINE,
  ODORI_BONE_ROLE_CHEST,
  ODORI_BONE_ROLE_NECK,
  ODORI_BONE_ROLE_HEAD,
  ODORI_BONE_ROLE_LEFT_COLLAR,
  ODORI_BONE_ROLE_LEFT_UPPER_ARM,
  ODORI_BONE_ROLE_LEFT_FOREARM,
  ODORI_BONE_ROLE_LEFT_HAND,
  ODORI_BONE_ROLE_RIGHT_COLLAR,
  ODORI_BONE_ROLE_RIGHT_UPPER_ARM,
  ODORI_BONE_ROLE_RIGHT_FOREARM,
  ODORI_BONE_ROLE_RIGHT_HAND,
  ODORI_BONE_ROLE_LEFT_THIGH,
  ODORI_BONE_ROLE_LEFT_SHIN,
  ODORI_BONE_ROLE_LEFT_FOOT,
  ODORI_BONE_ROLE_LEFT_TOE,
  ODORI_BONE_ROLE_RIGHT_THIGH,
  ODORI_BONE_ROLE_RIGHT_SHIN,
  ODORI_BONE_ROLE_RIGHT_FOOT,
  ODORI_BONE_ROLE_RIGHT_TOE,
  ODORI_N_BONE_ROLES
} OdoriBoneRole;

typedef struct _OdoriBoneMap OdoriBoneMap;

/* How a retargeting went (all angles in degrees; NAN when there was nothing to measure). */
typedef struct
{
  OdoriUpAxis up;                 /* the capture's up axis used (resolved when AUTO) */
  gboolean    up_guessed;         /* TRUE when it came from the head and the feet */
  double      scale;              /* library length per capture length (hip heights) */
  gboolean    scale_guessed;      /* TRUE when no hip height was found (bone lengths) */
  double      max_bone_error;     /* largest angle, over every frame, between a library bone
                                   * whose two ends are mapped and the captured direction
                                   * between their joints */
  double      max_hip_line_error; /* the same for the line from the right to the left thigh */
  double      max_shoulder_line_error; /* and from the right to the left upper arm */
} OdoriRetargetReport;

GQuark          odori_import_error_quark     (void);

/* "hips", "left-upper-arm", ... */
const char     *odori_bone_role_to_string    (OdoriBoneRole          role);
/* The roles of the N segments named NAMES. The names of one file are read together,
 * since some words depend on the others ("LeftShoulder" is a collar when the file also
 * has "LeftArm", the upper arm otherwise). */
void            odori_bone_roles_classify    (const char * const    *names,
                                              guint                  n,
                                              OdoriBoneRole         *roles);

/* The bone map found from the names (docs/import.md). CAPTURE_SKELETON and
 * REFERENCE_SKELETON are nullable (odori_skeleton_for_motion () is used). */
OdoriBoneMap   *odori_bone_map_guess         (const OdoriMotion     *capture,
                                              const OdoriSkeleton   *capture_skeleton,
                                              const OdoriMotion     *reference,
                                              const OdoriSkeleton   *reference_skeleton);
OdoriBoneMap   *odori_bone_map_ref           (OdoriBoneMap          *map);
void            odori_bone_map_unref         (OdoriBoneMap          *map);
/* The library's sensors, in the reference show's order. */
guint           odori_bone_map_get_n_sensors (const OdoriBoneMap    *map);
const char     *odori_bone_map_get_sensor    (const OdoriBoneMap    *map,
                                              guint                  sensor);
OdoriBoneRole   odori_bone_map_get_sensor_role (const OdoriBoneMap  *map,
                                              guint                  sensor);
/* The capture joint that drives SENSOR, or NULL (the sensor follows its parent). */
const char     *odori_bone_map_get_source    (const OdoriBoneMap    *map,
                                              guint                  sensor);
/* The capture's joints, in its order, with their roles (for a dialog's choices). */
guint           odori_bone_map_get_n_joints  (const OdoriBoneMap    *map);
const char     *odori_bone_map_get_joint     (const OdoriBoneMap    *map,
                                              guint                  joint);
OdoriBoneRole   odori_bone_map_get_joint_role (const OdoriBoneMap   *map,
                                              guint                  joint);
/* Makes JOINT (nullable: none) the source of SENSOR; JOINT then drives no other sensor.
 * ODORI_IMPORT_ERROR_MAP for a name the map does not know. */
gboolean        odori_bone_map_set_source    (OdoriBoneMap          *map,
                                              const char            *sensor,
                                              const char            *joint,
                                              GError               **error);
/* Applies a map file's lines over the map (format in docs/import.md): each line
 * "JOINT SENSOR" (a tab, or blanks, between them), "JOINT -" or "- SENSOR"; '#' starts a
 * comment. Errors name the file and line. The map is unchanged on error. */
gboolean        odori_bone_map_apply_file    (OdoriBoneMap          *map,
                                              const char            *path,
                                              GError               **error);
gboolean        odori_bone_map_apply_text    (OdoriBoneMap          *map,
                                              const char            *display_name,
                                              const char            *text,
                                              gsize                  len,
                                              GError               **error);
/* The map as a map file (every sensor, "- SENSOR" for those without a source). */
char           *odori_bone_map_to_text       (const OdoriBoneMap    *map);

/* The capture retargeted onto the reference's sensors (names, order, units labels, scale
 * column, bone lengths), at the capture's frame time. MAP nullable: guessed. UP: the
 * capture's up axis (AUTO: from the head and the feet at frame 1, else Y). REPORT
 * nullable. */
OdoriMotion    *odori_library_retarget       (const OdoriMotion     *capture,
                                              const OdoriSkeleton   *capture_skeleton,
                                              const OdoriMotion     *reference,
                                              const OdoriSkeleton   *reference_skeleton,
                                              const OdoriBoneMap    *map,
                                              OdoriUpAxis            up,
                                              OdoriRetargetReport   *report,
                                              GError               **error);

/* A motion's up axis from its head minus its feet at the first frame (roles from the
 * names, as the bone map finds them), or AUTO when it cannot tell. BVH has no up axis:
 * the renderer draws a Z-up capture upright with this. */
OdoriUpAxis     odori_motion_guess_up        (const OdoriMotion     *motion);
/* Turns every transform of MOTION so that UP becomes +Y (the shortest rotation; −Y: a
 * half turn about X). AUTO and Y change nothing. */
void            odori_motion_orient_up       (OdoriMotion           *motion,
                                              OdoriUpAxis            up);

/* The reference show of INDEX (its first show, in file order) and its motion; *SHOW
 * (nullable) receives it (transfer none). */
OdoriMotion    *odori_library_load_reference (OdoriIndex            *index,
                                              OdoriIndexShow       **show,
                                              GError               **error);

/* Writes MOTION as a BVA file beside the index (named after SHOW_CODE, never over an
 * existing file) and adds a show SHOW_CODE named SHOW_NAME (nullable: the code) with one
 * motion ODORI_LIBRARY_IMPORT_MOTION_CODE spanning every frame to class CLASS_CODE
 * (created at the end when missing). motion.dat is edited through the index's mutators
 * and written with odori_index_save_in_place (): every other byte is kept (comments,
 * line ends, encoding); the previous file is kept as motion.dat~; the writes are atomic.
 * *FILE_NAME (nullable) receives the show file's name. */
gboolean        odori_library_add_show       (const char            *index_path,
                                              const char            *class_code,
                                              const char            *show_code,
                                              const char            *show_name,
                                              OdoriMotion           *motion,
                                              char                 **file_name,
                                              GError               **error);
/* Removes show SHOW_CODE's block from motion.dat (and its class's block when it was the
 * class's only content) the same way; the show file stays on disk, *FILE_NAME (nullable)
 * receives its name as written in motion.dat. */
gboolean        odori_library_remove_show    (const char            *index_path,
                                              const char            *show_code,
                                              char                 **file_name,
                                              GError               **error);
/* Renames show SHOW_CODE to SHOW_NAME (nullable or empty: the code; '"' and line breaks
 * become '\'', as odori_library_add_show () does) the same way: only the show's begin
 * line changes. ODORI_IMPORT_ERROR_NO_SHOW for an unknown code. */
gboolean        odori_library_rename_show    (const char            *index_path,
                                              const char            *show_code,
                                              const char            *show_name,
                                              GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriBoneMap, odori_bone_map_unref)

G_END_DECLS
