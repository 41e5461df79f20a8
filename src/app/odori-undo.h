/* odori-undo.h: the one undo stack of a window's score edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every edit of the score (timeline, inspector) is an OdoriScoreEdit handed to the
 * stack: it is applied to the document's score, the dance is recomposed (incrementally)
 * and the edit becomes one undo step. A drag, applied live as the pointer moves, is
 * pushed once at its end. An edit after which the score would no longer compose is taken
 * back at once and refused with the composer's reason. Opening another score empties
 * the stack.
 */
#pragma once

#include <gio/gio.h>

#include "odori-document.h"
#include "odori-score-edit.h"

G_BEGIN_DECLS

#define ODORI_TYPE_UNDO (odori_undo_get_type ())

G_DECLARE_FINAL_TYPE (OdoriUndo, odori_undo, ODORI, UNDO, GObject)

/* Steps kept; the oldest go first. */
#define ODORI_UNDO_MAX_STEPS 1000

OdoriUndo       *odori_undo_new              (OdoriDocument   *document);
OdoriDocument   *odori_undo_get_document     (OdoriUndo       *self);

/* Applies EDIT (taken) and records it. FALSE, with the score unchanged, when it does
 * not apply or the score would not compose after it. An empty edit does nothing. */
gboolean         odori_undo_apply            (OdoriUndo       *self,
                                              OdoriScoreEdit  *edit,
                                              GError         **error);
/* Records EDIT (taken), already applied to the score by its caller. */
void             odori_undo_push_applied     (OdoriUndo       *self,
                                              OdoriScoreEdit  *edit);
gboolean         odori_undo_undo             (OdoriUndo       *self);
gboolean         odori_undo_redo             (OdoriUndo       *self);
gboolean         odori_undo_get_can_undo     (OdoriUndo       *self);
gboolean         odori_undo_get_can_redo     (OdoriUndo       *self);
/* Labels of the next steps ("Move", "Delete"…), NULL when there is none. */
const char      *odori_undo_get_undo_label   (OdoriUndo       *self);
const char      *odori_undo_get_redo_label   (OdoriUndo       *self);
guint            odori_undo_get_n_steps      (OdoriUndo       *self);
void             odori_undo_clear            (OdoriUndo       *self);

/* Applies EDIT to the document's score without recording it and recomposes (a drag
 * as it goes); FALSE with the score unchanged when it does not apply. */
gboolean         odori_undo_apply_unrecorded (OdoriUndo       *self,
                                              OdoriScoreEdit  *edit,
                                              gboolean         forward,
                                              GError         **error);

G_END_DECLS
