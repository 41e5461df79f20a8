/* odori-kbs.h: Kinect bone settings, KBS (XML) and its predecessor KST (FORMATS.md §6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A bone setting maps each of the 16 Kinect joints of OpenRDB to one bone (segment) of a
 * target model, with a twist flag. The KBS file is XML (read and written with libxml2, no
 * network, no DTD, no entities, size-limited); the older ConvSetting3.kst is a Shift_JIS
 * text table (read only; saving always writes KBS).
 */
#pragma once

#include <glib.h>

#include "odori-text.h"
#include "odori-types.h"

G_BEGIN_DECLS

#define ODORI_KBS_ERROR (odori_kbs_error_quark ())

typedef enum
{
  ODORI_KBS_ERROR_TOO_LARGE,    /* larger than ODORI_KBS_MAX_BYTES */
  ODORI_KBS_ERROR_XML,          /* not well-formed XML */
  ODORI_KBS_ERROR_DTD,          /* a DOCTYPE or an entity declaration: refused unread */
  ODORI_KBS_ERROR_ROOT,         /* the root element is not <KBS> */
  ODORI_KBS_ERROR_FILE_INFO,    /* no <FileInfo> */
  ODORI_KBS_ERROR_KIND,         /* <kind> missing or not KinectBoneSettingFile */
  ODORI_KBS_ERROR_INVALID,      /* a bad twist value, a joint given twice, a bad bone name */
  ODORI_KBS_ERROR_KST_HEADER,   /* KST: first line is not Rps2Qua:ConvSettingFile:... */
  ODORI_KBS_ERROR_KST_SYNTAX,   /* KST: a line is not NNSKEL_xxx, "bone", "twist" */
} OdoriKbsError;

/* A KBS is a few kilobytes; a file larger than this is refused before parsing. */
#define ODORI_KBS_MAX_BYTES (1024 * 1024)

/* OpenRDB's joints, in its enum order (= the KST line numbers 00..15). */
typedef enum
{
  ODORI_KINECT_TOP_OF_JOINT,
  ODORI_KINECT_TORSO,
  ODORI_KINECT_LEFT_HIP,
  ODORI_KINECT_LEFT_KNEE,
  ODORI_KINECT_LEFT_FOOT,
  ODORI_KINECT_RIGHT_HIP,
  ODORI_KINECT_RIGHT_KNEE,
  ODORI_KINECT_RIGHT_FOOT,
  ODORI_KINECT_NECK,
  ODORI_KINECT_HEAD,
  ODORI_KINECT_LEFT_SHOULDER,
  ODORI_KINECT_LEFT_ELBOW,
  ODORI_KINECT_LEFT_HAND,
  ODORI_KINECT_RIGHT_SHOULDER,
  ODORI_KINECT_RIGHT_ELBOW,
  ODORI_KINECT_RIGHT_HAND,
  ODORI_KINECT_N_JOINTS
} OdoriKinectJoint;

typedef enum
{
  ODORI_KBS_FORMAT_NONE,  /* from odori_kbs_sniff(): neither */
  ODORI_KBS_FORMAT_KBS,
  ODORI_KBS_FORMAT_KST,
} OdoriKbsFormat;

typedef struct
{
  char     *bone;   /* target segment name (UTF-8), NULL when the joint is not mapped */
  gboolean  twist;  /* TRUE: the rotation as computed; FALSE: swing only */
  guint     line;   /* where it was read (0 if set in code) */
} OdoriKbsJoint;

typedef struct _OdoriKbs OdoriKbs;

struct _OdoriKbs
{
  /*< private >*/
  gatomicrefcount ref_count;
  /*< public >*/
  OdoriKbsFormat  format;     /* the file it was read from; new: KBS */
  OdoriEncoding   encoding;   /* the file's encoding; new: Shift_JIS, as OpenRDB wrote */
  int             version;    /* <version> (KST: verNNNN); 1001 */
  int             type;       /* <type> (KST: typeNN); 0 */
  OdoriKbsJoint   joints[ODORI_KINECT_N_JOINTS];
};

GQuark            odori_kbs_error_quark         (void);

/* Joint names: "TOP_OF_JOINT", "TORSO", "LEFT_HIP", ... (FORMATS.md §6). */
const char       *odori_kinect_joint_to_string  (OdoriKinectJoint  joint);
/* The KBS element name: "TOP_OF_JOINT", "SKEL_TORSO", "SKEL_LEFT_HIP", ... */
const char       *odori_kinect_joint_to_element (OdoriKinectJoint  joint);
/* Accepts both spellings above (case-sensitive, as in the files). */
gboolean          odori_kinect_joint_from_string (const char       *name,
                                                  OdoriKinectJoint *joint);

OdoriKbs         *odori_kbs_new                 (void);
OdoriKbs         *odori_kbs_ref                 (OdoriKbs         *kbs);
void              odori_kbs_unref               (OdoriKbs         *kbs);
/* BONE NULL or "" unmaps the joint. */
void              odori_kbs_set_joint           (OdoriKbs         *kbs,
                                                 OdoriKinectJoint  joint,
                                                 const char       *bone,
                                                 gboolean          twist);
/* The joint mapped to BONE, or -1. */
int               odori_kbs_find_bone           (const OdoriKbs   *kbs,
                                                 const char       *bone);

/* Which of the two formats DATA (raw bytes, any encoding) is: a KST header, or XML
 * whose first element is <KBS>. */
OdoriKbsFormat    odori_kbs_sniff               (const char       *data,
                                                 gsize             len);
/* Reads a KBS or a KST, whichever the content is. WARNINGS (nullable) receives
 * OdoriDiagnostic for tolerated irregularities (unknown elements, missing twist). */
OdoriKbs         *odori_kbs_load                (const char       *path,
                                                 GPtrArray        *warnings,
                                                 GError          **error);
OdoriKbs         *odori_kbs_load_data           (const char       *display_name,
                                                 const char       *data,
                                                 gsize             len,
                                                 GPtrArray        *warnings,
                                                 GError          **error);
/* Writes KBS XML (atomically) in ENCODING: UTF-8 or Shift_JIS (CP932), declared in the
 * XML declaration. Mapped joints only, in enum order. */
gboolean          odori_kbs_save                (const OdoriKbs   *kbs,
                                                 const char       *path,
                                                 OdoriEncoding     encoding,
                                                 GError          **error);
/* The same into OUT, which must have been opened with ENCODING. */
gboolean          odori_kbs_write               (const OdoriKbs   *kbs,
                                                 OdoriEncoding     encoding,
                                                 OdoriOutput      *out,
                                                 GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriKbs, odori_kbs_unref)

G_END_DECLS
