/* odori-bulge.h: bulge_types, muscle bulge definitions (FORMATS.md §7)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_BULGE_ERROR (odori_bulge_error_quark ())

typedef enum
{
  ODORI_BULGE_ERROR_EMPTY,   /* no complete definition at all (incomplete ones are only logged) */
} OdoriBulgeError;

typedef struct
{
  float u, v, w;
} OdoriBulgeKey;

typedef struct
{
  int     angle;      /* degrees around the bone, 0..360 (0 = the bone's local front) */
  GArray *keys;       /* OdoriBulgeKey, U and V increasing, U from 0 to 1 */
} OdoriBulgeSection;

typedef struct
{
  char   *name;
  int     code;
  guint   line;       /* where its "bulge:" line is */
  GArray *sections;   /* OdoriBulgeSection, by increasing angle */
} OdoriBulge;

typedef struct _OdoriBulgeSet OdoriBulgeSet;

struct _OdoriBulgeSet
{
  /*< private >*/
  gatomicrefcount ref_count;
  /*< public >*/
  GPtrArray      *bulges;   /* OdoriBulge* */
  GPtrArray      *log;      /* OdoriDiagnostic*: incomplete definitions, reassigned codes, ranges */
};

GQuark          odori_bulge_error_quark  (void);
OdoriBulgeSet  *odori_bulge_set_new      (void);
OdoriBulgeSet  *odori_bulge_set_ref      (OdoriBulgeSet  *set);
void            odori_bulge_set_unref    (OdoriBulgeSet  *set);
/* Never fails for one bad definition: it is left out and logged with its line. */
OdoriBulgeSet  *odori_bulge_set_load     (const char     *path,
                                          GError        **error);
OdoriBulgeSet  *odori_bulge_set_load_text (OdoriTextFile *file,
                                           GError       **error);
gboolean        odori_bulge_set_save     (OdoriBulgeSet  *set,
                                          const char     *path,
                                          GError        **error);
const OdoriBulge *odori_bulge_set_find   (OdoriBulgeSet  *set,
                                          int             code);
/* The profile at fraction U along the bone and ANGLE degrees around it: V(u) and W(u)
 * interpolated over U, blended between the two sections nearest in angle. */
void            odori_bulge_eval         (const OdoriBulge *bulge,
                                          float           u,
                                          float           angle_deg,
                                          float          *v,
                                          float          *w);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriBulgeSet, odori_bulge_set_unref)

G_END_DECLS
