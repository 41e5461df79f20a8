/* odori-undo.h: the one undo stack of a window's score edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stack only records: every edit of the score (timeline, inspector) is an
 * OdoriScoreEdit applied through odori_document_apply_edit () (which validates,
 * recomposes once and refuses an edit after which the score would no longer compose),
 * and undo and redo replay the recorded edits through the same path. A drag, applied
 * live as the pointer moves, is pushed once at its end; one that ends where it began
 * pushes nothing and leaves the dirty mark as it was. The stack remembers which step
 * is the saved file: stepping back (or forth) to it clears the document's dirty mark.
 * Opening another score empties the stack.
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
/* Records EDIT (taken), already applied live with odori_undo_apply_unrecorded (). NULL
 * or an empty edit: the live edits came back to where they began; nothing is recorded
 * and the document's dirty mark is what it was before them. */
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

/* Applies EDIT (FORWARD) or takes it back through the document without recording it
 * (a drag as it goes); FALSE with the score unchanged when it does not apply. End the
 * live edits with odori_undo_push_applied (). */
gboolean         odori_undo_apply_unrecorded (OdoriUndo       *self,
                                              OdoriScoreEdit  *edit,
                                              gboolean         forward,
                                              GError         **error);

G_END_DECLS
