/* odori-capture.h: a capture as read (Kinect joints, suit CSV), before retargeting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The types the capture readers (odori-joints.h, odori-sensor-csv.h) fill and the
 * retargeter (odori-retarget.h) consumes, with the options of an import. A leaf: the
 * readers include this, never the retargeter.
 */
#pragma once

#include "odori-kbs.h"
#include "odori-motion.h"

G_BEGIN_DECLS

#define ODORI_RETARGET_ERROR (odori_retarget_error_quark ())

typedef enum
{
  ODORI_RETARGET_ERROR_NOT_CAPTURE,    /* neither NI_JOINTS_TEXT_FILE nor sensor CSV */
  ODORI_RETARGET_ERROR_NO_POSITIONS,   /* rotations from positions, but no TORSO position */
  ODORI_RETARGET_ERROR_NO_ROTATIONS,   /* rotations from the file, but it has none */
  ODORI_RETARGET_ERROR_UNMAPPED,       /* the KBS maps no joint at all */
  ODORI_RETARGET_ERROR_DUPLICATE_BONE, /* the KBS maps two joints to one bone */
  ODORI_RETARGET_ERROR_TOO_LONG,       /* resampling would make far more frames than read */
} OdoriRetargetError;

typedef enum
{
  ODORI_UP_AUTO,
  ODORI_UP_X,
  ODORI_UP_Y,
  ODORI_UP_Z,
  ODORI_UP_NEG_X,
  ODORI_UP_NEG_Y,
  ODORI_UP_NEG_Z,
} OdoriUpAxis;

typedef enum
{
  ODORI_ROTATIONS_AUTO,       /* NI joints: positions; CSV: the file's, if it has any */
  ODORI_ROTATIONS_POSITIONS,  /* OpenRDB: from joint positions, calibrated on frame 1 */
  ODORI_ROTATIONS_FILE,       /* the file's quaternions (or Euler angles) */
} OdoriRotationSource;

#define ODORI_IMPORT_DEFAULT_FPS 30.0

typedef struct
{
  double               fps;             /* frames per second of the result; 0 keeps a
                                         * regular file's own rate (irregular: 30) */
  OdoriUpAxis          up;              /* the FILE's up axis; AUTO guesses (docs) */
  OdoriRotationSource  rotations;
  OdoriKbs            *kbs;             /* (nullable) (transfer none): name the result's
                                         * segments after the KBS bones */
  gboolean             symmetry;        /* symmetric calibration (positions only) */
  guint                smooth;          /* smoothing strength, 0 = none */
  char                 euler_order[4];  /* CSV Euler columns: "ZXY" = Rz·Rx·Ry */
  OdoriUnit            csv_unit;        /* CSV Position columns; UNKNOWN = guess */
} OdoriImportOptions;

typedef enum
{
  ODORI_CAPTURE_JOINTS,       /* NI_JOINTS_TEXT_FILE */
  ODORI_CAPTURE_SENSOR_CSV,   /* the suit's CSV export */
} OdoriCaptureKind;

/* A capture as read. motion: n_frames at a uniform rate; segments named as in the file;
 * positions in centimetres; rotations as the file gives them (NI: each joint's rotation
 * relative to its parent, see docs; CSV: global sensor orientations). Axes are the
 * file's until odori_capture_orient() (then up = the resolved axis, oriented = TRUE). */
typedef struct
{
  OdoriCaptureKind  kind;
  OdoriMotion      *motion;
  gboolean         *has_position;     /* per segment: the file gives its position */
  gboolean          has_rotations;    /* the file gives rotations */
  gboolean          rotations_local;  /* NI: relative to the parent joint */
  guint             n_source_frames;  /* frames (rows) read */
  double            source_duration;  /* seconds from the first to the last */
  gboolean          resampled;        /* FALSE when the file's own frames are kept */
  OdoriUpAxis       up;
  gboolean          oriented;
} OdoriCapture;

GQuark         odori_retarget_error_quark  (void);

void           odori_import_options_init   (OdoriImportOptions       *options);
const char    *odori_up_axis_to_string     (OdoriUpAxis               up);
/* The shortest rotation taking UP to +Y (−Y: a half turn about X; AUTO: none). */
void           odori_up_axis_rotation      (OdoriUpAxis               up,
                                            float                     r[4]);
/* "x", "y", "z", "-x", "-y", "-z", "auto" (case-insensitive). */
gboolean       odori_up_axis_from_string   (const char               *s,
                                            OdoriUpAxis              *up);
const char    *odori_rotation_source_to_string (OdoriRotationSource   source);
gboolean       odori_rotation_source_from_string (const char         *s,
                                                  OdoriRotationSource *source);

/* Takes MOTION (transfer full). has_position starts all TRUE. */
OdoriCapture  *odori_capture_new           (OdoriCaptureKind          kind,
                                            OdoriMotion              *motion);
void           odori_capture_free          (OdoriCapture             *capture);

/* Readers' helper: the frames of the result for N increasing frame TIMES (seconds).
 * With FPS 0 and regular times (every step within 5 % of the mean) the file's frames
 * are kept (*resample FALSE, *frame_time the mean step); otherwise frames every 1/FPS
 * (FPS 0: 30) from TIMES[0] to TIMES[N-1]. N_SEGMENTS × the result's frames must stay
 * within a budget proportional to INPUT_BYTES, else ODORI_RETARGET_ERROR_TOO_LONG. */
gboolean       odori_capture_plan_frames   (const char               *path,
                                            const double             *times,
                                            guint                     n,
                                            double                    fps,
                                            guint                     n_segments,
                                            gsize                     input_bytes,
                                            guint                    *n_out,
                                            double                   *frame_time,
                                            gboolean                 *resample,
                                            GError                  **error);
/* Labels every segment of MOTION with BVA's nine fields, translation in LENGTH_UNIT,
 * rotations in degrees, scale in percent. */
void           odori_capture_set_units     (OdoriMotion              *motion,
                                            OdoriUnit                 length_unit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriCapture, odori_capture_free)

G_END_DECLS
