/* odori-document-private.h: OdoriDocument's instance, shared by its source files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-document.h"
#include "odori-motion-cache.h"

G_BEGIN_DECLS

struct _OdoriDocument
{
  GObject           parent_instance;

  OdoriScore       *score;
  OdoriIndex       *index;
  char             *path;
  gboolean          is_sample;
  gboolean          dirty;
  GPtrArray        *diagnostics;

  OdoriComposer    *composer;
  OdoriMotion      *motion;          /* owned by the composer */
  OdoriSkeleton    *skeleton;
  GError           *compose_error;
  OdoriMotion      *pose;            /* when the score does not compose: the first pose */
  OdoriSkeleton    *pose_skeleton;
  int               default_blend;
  OdoriRootMatch    root_match;

  GHashTable       *shows;           /* OdoriIndexShow* → OdoriMotion* */
  OdoriMotionCache *files;           /* show files, shared with the composer */

  double            fraction;        /* of the open in progress (main thread) */
  guint             n_loading;       /* opens in progress */
};

enum {
  PROP_0,
  PROP_SCORE,
  PROP_INDEX,
  PROP_MOTION,
  PROP_PATH,
  PROP_TITLE,
  PROP_DIRTY,
  PROP_FRACTION,
  PROP_LOADING,
  N_PROPS
};

/* What a composition needs, copied so that a worker thread can compose. */
typedef struct
{
  int               default_blend;
  OdoriRootMatch    root_match;
  OdoriMotionCache *files;
} ComposeParams;

typedef struct
{
  OdoriComposer *composer;
  OdoriMotion   *motion;
  OdoriSkeleton *skeleton;
  GError        *error;
  /* When the score does not compose: the library's first pose (one frame), as a score
   * with the same tracks and no symbols composes, so the viewport shows a body. */
  OdoriMotion   *pose;
  OdoriSkeleton *pose_skeleton;
} Composed;

void       _odori_document_notify   (OdoriDocument       *self,
                                     guint                prop);
void       _odori_document_set_dirty (OdoriDocument      *self,
                                     gboolean             dirty);
GPtrArray *_odori_copy_diagnostics  (GPtrArray           *from,
                                     GPtrArray           *into);
/* Any thread. */
void       _odori_document_compose  (const ComposeParams *params,
                                     OdoriScore          *score,
                                     OdoriIndex          *index,
                                     Composed            *out);
void       _odori_composed_clear    (Composed            *c);
/* Replaces the whole state with SCORE and INDEX (refs taken) and the composition C. */
void       _odori_document_adopt    (OdoriDocument       *self,
                                     OdoriScore          *score,
                                     OdoriIndex          *index,
                                     Composed            *c,
                                     const char          *path,
                                     gboolean             is_sample,
                                     GPtrArray           *diagnostics);

G_END_DECLS
