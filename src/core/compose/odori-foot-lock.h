/* odori-foot-lock.h: feet that stay planted (foot locking of a composed motion)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Leg tracks joined from different shows make the feet slide at seams and during blends.
 * A foot lock finds the legs of a motion (thigh, calf and foot of the display skeleton's
 * naming tables), detects contacts (an ankle near the floor and nearly still, cleaned of
 * flicker by a short median filter), holds each foot where its contact began with an
 * analytic two-bone leg IK (reach clamped short of full extension, the knee kept in its
 * bend plane), blends the corrections out over about 0.1 s, and moves the whole body down
 * where a plant cannot be reached. Bone lengths are kept frame by frame. The exact rules
 * are in docs/composition.md, "Foot locking".
 */
#pragma once

#include "odori-motion.h"

G_BEGIN_DECLS

typedef struct _OdoriFootLock OdoriFootLock;

/* One contact of one foot, as detected on the motion before locking. */
typedef struct
{
  guint  leg;          /* index of the leg (odori_foot_lock_get_leg_name ()) */
  guint  first;        /* 0-based first frame of the contact */
  guint  last;         /* 0-based last frame, inclusive */
  double slide_before; /* horizontal travel of the ankle during the contact, before */
  double slide_after;  /* the same after locking */
  double max_drop;     /* the largest move of the body down during the contact */
  double max_miss;     /* the largest distance of the locked ankle from the plant
                        * (raised to the ankle's own height) */
} OdoriFootContact;

/* The legs of a motion with the segments of MOTION (names and count); NULL when it has
 * none that can be locked (a thigh, its calf and the calf's foot). */
OdoriFootLock *odori_foot_lock_new (const OdoriMotion *motion);
void           odori_foot_lock_free (OdoriFootLock *lock);
/* Whether MOTION has the segments (names, in order) the lock was made for. */
gboolean odori_foot_lock_matches (const OdoriFootLock *lock,
                                  const OdoriMotion   *motion);
guint    odori_foot_lock_get_n_legs (const OdoriFootLock *lock);
/* The segment names of leg LEG: its foot (the ankle), calf (the knee) and thigh (the
 * hip joint). */
const char *odori_foot_lock_get_leg_name (const OdoriFootLock *lock,
                                          guint                leg);
/* Locks the feet of SRC into DEST, which has SRC's segments and frames (its transforms
 * are overwritten: SRC's, corrected). SRC and DEST must differ. Returns the number of
 * frames changed. The contacts are then odori_foot_lock_get_contacts (). */
guint odori_foot_lock_apply (OdoriFootLock     *lock,
                             const OdoriMotion *src,
                             OdoriMotion       *dest);
/* The same as odori_foot_lock_apply () (the same DEST, contacts and report, bit for bit)
 * when SRC changed only in frames FIRST..LAST (0-based, inclusive; none when FIRST >
 * LAST) since the last apply or update into DEST, which was not touched since: when those
 * frames leave every leg's hip, knee and ankle where they were (an arm or head edit), only
 * they are locked again; otherwise (or with another frame count) all of it. */
guint odori_foot_lock_update (OdoriFootLock     *lock,
                              const OdoriMotion *src,
                              OdoriMotion       *dest,
                              guint              first,
                              guint              last);
/* The contacts of the last apply: OdoriFootContact by leg, then by first frame
 * (transfer none; valid until the next apply or free). */
GArray *odori_foot_lock_get_contacts (OdoriFootLock *lock);
/* The horizontal foot travel of the last apply before (*before) and after (*after)
 * locking, during contacts, from frames FIRST..LAST (0-based, inclusive) on to their next
 * frame, of the legs that SENSORS (NULL-terminated segment names; NULL: every leg) name
 * by their foot, calf or thigh. Returns the number of contacts that overlap the frames. */
guint odori_foot_lock_get_slide (OdoriFootLock     *lock,
                                 const char *const *sensors,
                                 guint              first,
                                 guint              last,
                                 double            *before,
                                 double            *after);
/* The largest move of the body down over the last apply (0 when none). */
double odori_foot_lock_get_max_drop (const OdoriFootLock *lock);

/* Horizontal travel of the ankle of leg LEG of LOCK in MOTION over frames FIRST..LAST
 * (0-based, inclusive), along the lock's up axis as found by the last apply. */
double odori_foot_lock_travel (const OdoriFootLock *lock,
                               const OdoriMotion   *motion,
                               guint                leg,
                               guint                first,
                               guint                last);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriFootLock, odori_foot_lock_free)

G_END_DECLS
