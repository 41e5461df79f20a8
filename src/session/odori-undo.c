/* odori-undo.c: the one undo stack of a window's score edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-undo.h"

struct _OdoriUndo
{
  GObject        parent_instance;

  OdoriDocument *document;
  OdoriScore    *score;     /* the score the steps belong to */
  GPtrArray     *steps;     /* OdoriScoreEdit* */
  guint          done;      /* steps[0 .. done-1] are applied */
  guint          saved;     /* the value of done when the file was saved, or NOT_SAVED */
  gboolean       busy;      /* the document's "changed" is ours */
  gboolean       live;      /* unrecorded edits since the last step (a drag) */
  gboolean       live_was_dirty;
};

/* No step of the stack is the saved state. */
#define NOT_SAVED G_MAXUINT

G_DEFINE_FINAL_TYPE (OdoriUndo, odori_undo, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  N_PROPS
};

enum {
  EDIT_DONE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
notify_state (OdoriUndo *self,
              gboolean   could_undo,
              gboolean   could_redo)
{
  if (could_undo != odori_undo_get_can_undo (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (could_redo != odori_undo_get_can_redo (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
}

static void
on_score_notify_cb (OdoriUndo *self)
{
  OdoriScore *score = odori_document_get_score (self->document);

  /* Edits notify "score" too; only another score empties the stack. */
  if (score == self->score)
    return;
  g_clear_pointer (&self->score, odori_score_unref);
  if (score != NULL)
    self->score = odori_score_ref (score);
  odori_undo_clear (self);
}

static void
on_dirty_notify_cb (OdoriUndo *self)
{
  /* Saved (or opened): this step is the file's state. */
  if (!odori_document_get_dirty (self->document))
    self->saved = self->done;
}

static void
on_changed_cb (OdoriUndo *self)
{
  /* Changed by someone else (another library): no step is the saved state any more. */
  if (!self->busy)
    self->saved = NOT_SAVED;
}

static void
odori_undo_dispose (GObject *object)
{
  OdoriUndo *self = ODORI_UNDO (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_undo_parent_class)->dispose (object);
}

static void
odori_undo_finalize (GObject *object)
{
  OdoriUndo *self = ODORI_UNDO (object);

  g_clear_pointer (&self->steps, g_ptr_array_unref);
  g_clear_pointer (&self->score, odori_score_unref);
  G_OBJECT_CLASS (odori_undo_parent_class)->finalize (object);
}

static void
odori_undo_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  OdoriUndo *self = ODORI_UNDO (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, odori_undo_get_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, odori_undo_get_can_redo (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_undo_class_init (OdoriUndoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = odori_undo_dispose;
  object_class->finalize = odori_undo_finalize;
  object_class->get_property = odori_undo_get_property;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A recorded edit was applied (FORWARD) or taken back: the score has changed and
   * the composed dance follows it. The edit is borrowed for the emission. */
  signals[EDIT_DONE] = g_signal_new ("edit-done",
                                     G_TYPE_FROM_CLASS (klass),
                                     G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL,
                                     G_TYPE_NONE, 2,
                                     ODORI_TYPE_SCORE_EDIT | G_SIGNAL_TYPE_STATIC_SCOPE,
                                     G_TYPE_BOOLEAN);
}

static void
odori_undo_init (OdoriUndo *self)
{
  self->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_score_edit_free);
}

OdoriUndo *
odori_undo_new (OdoriDocument *document)
{
  OdoriUndo *self;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (document), NULL);

  self = g_object_new (ODORI_TYPE_UNDO, NULL);
  self->document = g_object_ref (document);
  if (odori_document_get_score (document) != NULL)
    self->score = odori_score_ref (odori_document_get_score (document));
  self->saved = odori_document_get_dirty (document) ? NOT_SAVED : 0;
  g_signal_connect_object (document, "notify::score", G_CALLBACK (on_score_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "notify::dirty", G_CALLBACK (on_dirty_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "changed", G_CALLBACK (on_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return self;
}

OdoriDocument *
odori_undo_get_document (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), NULL);
  return self->document;
}

/* Applies or reverts EDIT through the document's one edit path. */
static gboolean
run (OdoriUndo       *self,
     OdoriScoreEdit  *edit,
     gboolean         forward,
     GError         **error)
{
  gboolean ok;

  self->busy = TRUE;
  ok = forward ? odori_document_apply_edit (self->document, edit, error)
               : odori_document_revert_edit (self->document, edit, error);
  self->busy = FALSE;
  return ok;
}

/* After a step: back at the saved state, the document is clean again. */
static void
sync_dirty (OdoriUndo *self)
{
  self->live = FALSE;
  odori_document_set_dirty (self->document, self->done != self->saved);
}

static void
push (OdoriUndo      *self,
      OdoriScoreEdit *edit)
{
  if (self->done < self->steps->len)
    {
      /* The steps after this one go, and the saved state with them if it was there. */
      if (self->saved != NOT_SAVED && self->saved > self->done)
        self->saved = NOT_SAVED;
      g_ptr_array_set_size (self->steps, self->done);
    }
  g_ptr_array_add (self->steps, edit);
  if (self->steps->len > ODORI_UNDO_MAX_STEPS)
    {
      guint drop = self->steps->len - ODORI_UNDO_MAX_STEPS;

      g_ptr_array_remove_range (self->steps, 0, drop);
      if (self->saved != NOT_SAVED)
        self->saved = self->saved >= drop ? self->saved - drop : NOT_SAVED;
    }
  self->done = self->steps->len;
}

gboolean
odori_undo_apply (OdoriUndo       *self,
                  OdoriScoreEdit  *edit,
                  GError         **error)
{
  g_autoptr(OdoriScoreEdit) owned = edit;
  gboolean could_undo, could_redo;

  g_return_val_if_fail (ODORI_IS_UNDO (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (odori_score_edit_is_empty (edit))
    return TRUE;
  could_undo = odori_undo_get_can_undo (self);
  could_redo = odori_undo_get_can_redo (self);
  if (!run (self, edit, TRUE, error))
    return FALSE;
  push (self, g_steal_pointer (&owned));
  sync_dirty (self);
  g_signal_emit (self, signals[EDIT_DONE], 0, edit, TRUE);
  notify_state (self, could_undo, could_redo);
  return TRUE;
}

void
odori_undo_push_applied (OdoriUndo      *self,
                         OdoriScoreEdit *edit)
{
  gboolean could_undo, could_redo;

  g_return_if_fail (ODORI_IS_UNDO (self));

  if (edit == NULL || odori_score_edit_is_empty (edit))
    {
      /* The live edits came back to where they started: nothing to record, and the
       * document is as dirty as it was before them. */
      if (self->live && !self->live_was_dirty)
        odori_document_set_dirty (self->document, FALSE);
      self->live = FALSE;
      g_clear_pointer (&edit, odori_score_edit_free);
      return;
    }
  could_undo = odori_undo_get_can_undo (self);
  could_redo = odori_undo_get_can_redo (self);
  push (self, edit);
  sync_dirty (self);
  notify_state (self, could_undo, could_redo);
}

gboolean
odori_undo_apply_unrecorded (OdoriUndo       *self,
                             OdoriScoreEdit  *edit,
                             gboolean         forward,
                             GError         **error)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->live)
    {
      self->live = TRUE;
      self->live_was_dirty = odori_document_get_dirty (self->document);
    }
  return run (self, edit, forward, error);
}

/* Takes a step back (FORWARD false) or again. */
static gboolean
step (OdoriUndo *self,
      gboolean   forward)
{
  g_autoptr(GError) error = NULL;
  gboolean could_undo = odori_undo_get_can_undo (self);
  gboolean could_redo = odori_undo_get_can_redo (self);
  OdoriScoreEdit *edit;

  if (forward ? self->done >= self->steps->len : self->done == 0)
    return FALSE;
  edit = g_ptr_array_index (self->steps, forward ? self->done : self->done - 1);
  if (!run (self, edit, forward, &error))
    {
      /* The score no longer matches the history (it was changed behind the stack's
       * back): the history is dropped rather than applied to the wrong score. */
      g_debug ("undo: %s", error->message);
      odori_undo_clear (self);
      return FALSE;
    }
  self->done += forward ? 1 : -1;
  sync_dirty (self);
  g_signal_emit (self, signals[EDIT_DONE], 0, edit, forward);
  notify_state (self, could_undo, could_redo);
  return TRUE;
}

gboolean
odori_undo_undo (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), FALSE);
  return step (self, FALSE);
}

gboolean
odori_undo_redo (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), FALSE);
  return step (self, TRUE);
}

gboolean
odori_undo_get_can_undo (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), FALSE);
  return self->done > 0;
}

gboolean
odori_undo_get_can_redo (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), FALSE);
  return self->done < self->steps->len;
}

const char *
odori_undo_get_undo_label (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), NULL);

  if (self->done == 0)
    return NULL;
  return odori_score_edit_get_label (g_ptr_array_index (self->steps, self->done - 1));
}

const char *
odori_undo_get_redo_label (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), NULL);

  if (self->done >= self->steps->len)
    return NULL;
  return odori_score_edit_get_label (g_ptr_array_index (self->steps, self->done));
}

guint
odori_undo_get_n_steps (OdoriUndo *self)
{
  g_return_val_if_fail (ODORI_IS_UNDO (self), 0);
  return self->steps->len;
}

void
odori_undo_clear (OdoriUndo *self)
{
  gboolean could_undo, could_redo;

  g_return_if_fail (ODORI_IS_UNDO (self));

  could_undo = odori_undo_get_can_undo (self);
  could_redo = odori_undo_get_can_redo (self);
  g_ptr_array_set_size (self->steps, 0);
  self->done = 0;
  self->live = FALSE;
  self->saved = odori_document_get_dirty (self->document) ? NOT_SAVED : 0;
  notify_state (self, could_undo, could_redo);
}
