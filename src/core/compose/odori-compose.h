/* odori-compose.h: scores become one motion (the Dance Converter's job)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules are DESIGN.md "Composition" and docs/composition.md. A composer holds the
 * score, the index, the loaded show files (each read once) and the composed motion; after
 * an edit of the score, odori_composer_update() recomputes only the frames of the parts
 * whose sampling changed (and the parts that ride on them).
 */
#pragma once

#include "odori-foot-lock.h"
#include "odori-index.h"
#include "odori-motion.h"
#include "odori-score.h"

G_BEGIN_DECLS

#define ODORI_COMPOSE_ERROR (odori_compose_error_quark ())

typedef enum
{
  ODORI_COMPOSE_ERROR_NO_PARTS,        /* the score has no parts */
  ODORI_COMPOSE_ERROR_UNKNOWN_SYMBOL,
  ODORI_COMPOSE_ERROR_AMBIGUOUS,
  ODORI_COMPOSE_ERROR_MISSING_SENSOR,  /* a score sensor is not in a show file */
  ODORI_COMPOSE_ERROR_DOUBLE_DRIVEN,   /* a sensor driven by two parts */
  ODORI_COMPOSE_ERROR_CYCLE,           /* anchors depend on each other in a cycle */
  ODORI_COMPOSE_ERROR_RANGE,           /* a frame range beyond its file; in= or out= beyond
                                        * the symbol's motion */
  ODORI_COMPOSE_ERROR_FILE,            /* a show file cannot be read */
  ODORI_COMPOSE_ERROR_EMPTY_INDEX,     /* nothing to hold: the index has no show */
} OdoriComposeError;

typedef enum
{
  ODORI_ROOT_MATCH_NONE,
  ODORI_ROOT_MATCH_POSITION,
  ODORI_ROOT_MATCH_FULL,
} OdoriRootMatch;

typedef struct
{
  guint   part;          /* index into score->parts */
  guint   frame;         /* 1-based output frame where the incoming symbol starts */
  char   *from;          /* outgoing symbol */
  char   *to;            /* incoming symbol */
  double  jump_deg;      /* largest frame-to-frame rotation change around the seam */
  double  clip_max_deg;  /* largest such change inside the two clips as played */
} OdoriSeam;

/* How a seam looks next to the clips' own motion (see odori_seam_rank ()). */
typedef enum
{
  ODORI_SEAM_SMOOTH,      /* a jump within 1.25 times the clips' largest step */
  ODORI_SEAM_NOTICEABLE,  /* above 1.25 times, up to twice */
  ODORI_SEAM_ROUGH,       /* above twice */
} OdoriSeamRank;

typedef struct _OdoriComposer OdoriComposer;

GQuark          odori_compose_error_quark      (void);
/* Loads every show file of INDEX (each once) and checks the score against it. */
OdoriComposer  *odori_composer_new             (OdoriScore      *score,
                                                OdoriIndex      *index,
                                                GError         **error);
/* The same, taking the show files from CACHE (shared with whoever else reads them). */
OdoriComposer  *odori_composer_new_with_cache  (OdoriScore      *score,
                                                OdoriIndex      *index,
                                                OdoriMotionCache *cache,
                                                GError         **error);
void            odori_composer_free            (OdoriComposer   *composer);
/* -1 uses the score's "# Blend:" (0 when absent). */
void            odori_composer_set_blend       (OdoriComposer   *composer,
                                                int              blend);
/* Foot locking (odori-foot-lock.h) of what compose and update return: 1 on, 0 off, -1
 * the score's "# FootLock:" (off when absent). With it on they return a locked copy of
 * the composed motion (another object: turning it on or off changes which motion they
 * return). The seam report stays that of the motion before locking. */
void            odori_composer_set_foot_lock   (OdoriComposer   *composer,
                                                int              on);
/* The foot lock of the last compose or update (its contacts and slides), or NULL when
 * foot locking was off or the motion has no legs to lock (transfer none). */
OdoriFootLock  *odori_composer_get_foot_lock   (OdoriComposer   *composer);
void            odori_composer_set_root_match  (OdoriComposer   *composer,
                                                OdoriRootMatch   match);
/* Keeps the composed motion's root offsets apart (OdoriMotion.root_offsets), so that
 * an update after a move on the root track writes one offset for each later frame
 * instead of their transforms (docs/composition.md, "Incremental recomposition"). On by
 * default, for every composer: the window's edited dance and a one-off compose of the
 * same score (odori-cli, exports) are then the same floats, bit for bit. Off, the offsets
 * are added into the transforms and the motion has none: the world transforms are the
 * same up to float rounding (a sensor placed relative to one that follows the root gets
 * its offset added after the placing instead of before). Changed after composing, the
 * next update recomposes every frame. Read the world transforms with
 * odori_motion_get_world () and friends. */
void            odori_composer_set_incremental (OdoriComposer   *composer,
                                                gboolean         incremental);
/* Segment-frames the last compose or update shifted (their root offsets alone changed)
 * instead of recomputing them; they are not counted in update's *n_recomputed. */
guint64         odori_composer_get_n_shifted   (OdoriComposer   *composer);
/* Composes everything. Returns the composed motion (transfer none; valid until the
 * composer is freed; updated in place by later calls). */
OdoriMotion    *odori_composer_compose         (OdoriComposer   *composer,
                                                GError         **error);
/* After the score was edited (symbols moved, added, removed or their modifiers changed;
 * blend or root match changed): recompute only what changed. *n_recomputed (nullable)
 * receives the number of segment-frames computed. Falls back to a full compose when parts
 * changed. */
OdoriMotion    *odori_composer_update          (OdoriComposer   *composer,
                                                guint64         *n_recomputed,
                                                GError         **error);
/* The seam report of the last compose: OdoriSeam, in part order then frame order. */
GArray         *odori_composer_get_seams       (OdoriComposer   *composer);
double          odori_composer_get_frame_time  (OdoriComposer   *composer);
/* The reference skeleton's show file (its sensors come first in the output), or NULL. */
const char     *odori_composer_get_reference   (OdoriComposer   *composer);
/* Adds to DIAGS (OdoriDiagnostic) a warning for each show file the score uses whose
 * sensor set differs from the reference skeleton's: its extra sensors are not composed,
 * and the reference's sensors it lacks follow their parts. */
void            odori_composer_check_sensor_sets (OdoriComposer *composer,
                                                  GPtrArray     *diags);

/* How many output frames motion IM of the library lasts when composed at FRAME_TIME
 * (odori_composer_get_frame_time ()): a clip of another frame rate is resampled. SHOW
 * is IM's show file; NULL (not loaded) counts the clip's own frames. At least 1. */
guint           odori_compose_clip_frames      (const OdoriIndexMotion *im,
                                                const OdoriMotion      *show,
                                                double                  frame_time);

void            odori_seam_clear               (OdoriSeam       *seam);
/* The one rule for rough seams (the timeline, the inspector and `odori-cli compose
 * --seams`): the jump against the clips' largest step, that step taken as at least 0.5°
 * so that still clips do not make every small jump rough. */
OdoriSeamRank   odori_seam_rank                (const OdoriSeam *seam);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriComposer, odori_composer_free)

G_END_DECLS
