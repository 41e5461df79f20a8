/* odori-document.h: one score with its library and composition, loaded and saved
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model of a window (like EditorDocument): the score, the index (motion library)
 * it is composed against, the composer and its composed motion, the dirty flag and
 * the diagnostics of the last open. Opening can run in a worker thread
 * (odori_document_open_score_async ()) with its progress in "fraction". Every edit of
 * the score goes through odori_document_apply_edit (): validated, applied and
 * recomposed once, announced once by "changed". What is shown and played (the frame,
 * the preview) is an OdoriSession's; the autosave is the application's OdoriAutosave.
 */
#pragma once

#include <gio/gio.h>

#include "odori-compose.h"
#include "odori-index.h"
#include "odori-motion.h"
#include "odori-score-edit.h"
#include "odori-score.h"
#include "odori-session-types.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

#define ODORI_TYPE_DOCUMENT (odori_document_get_type ())

G_DECLARE_FINAL_TYPE (OdoriDocument, odori_document, ODORI, DOCUMENT, GObject)

OdoriDocument     *odori_document_new                   (void);

/* Files. On failure the document is unchanged. */
gboolean           odori_document_load_sample           (OdoriDocument       *self,
                                                         GError             **error);
/* INDEX_PATH (nullable) overrides the score's "# Index:". */
gboolean           odori_document_open_score            (OdoriDocument       *self,
                                                         const char          *path,
                                                         const char          *index_path,
                                                         GError             **error);
/* The same, reading and composing in a worker thread; "fraction" goes from 0 to 1 (and
 * "loading" is TRUE) meanwhile. The document changes only in _finish (). */
void               odori_document_open_score_async      (OdoriDocument       *self,
                                                         const char          *path,
                                                         const char          *index_path,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean           odori_document_open_score_finish     (OdoriDocument       *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
/* Makes PATH the document's library. An untouched document gets a new empty score with
 * one track per part of the library; a score with work in it is composed against the
 * new library and its "# Index:" follows (an edit). */
gboolean           odori_document_open_index            (OdoriDocument       *self,
                                                         const char          *path,
                                                         GError             **error);
void               odori_document_open_index_async      (OdoriDocument       *self,
                                                         const char          *path,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean           odori_document_open_index_finish     (OdoriDocument       *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
/* A new, empty score for INDEX (nullable: the document's library): one track per part
 * of the library, nothing placed, "# Date:" now, no title, author or path (saving asks
 * where). Not dirty: the document is untouched. */
gboolean           odori_document_new_score             (OdoriDocument       *self,
                                                         OdoriIndex          *index,
                                                         GError             **error);
/* Nothing would be lost by replacing the score: none, or the sample or a new score
 * without changes. */
gboolean           odori_document_get_untouched         (OdoriDocument       *self);
/* 0 … 1: how far the open in progress is (main thread). */
double             odori_document_get_fraction          (OdoriDocument       *self);
gboolean           odori_document_get_loading           (OdoriDocument       *self);

/* Writes the score to PATH in its own encoding; "# Index:" is rewritten relative to
 * PATH's directory. Clears the dirty flag. */
gboolean           odori_document_save                  (OdoriDocument       *self,
                                                         const char          *path,
                                                         GError             **error);
/* Writes the score to PATH with "# Index:" INDEX_PATH (nullable), leaving the document
 * as it is (its path, its dirty flag): an autosave. */
gboolean           odori_document_save_copy             (OdoriDocument       *self,
                                                         const char          *path,
                                                         const char          *index_path,
                                                         GError             **error);
/* Where the work belongs (PATH nullable) when it was opened from elsewhere (a
 * recovered autosave). */
void               odori_document_set_origin            (OdoriDocument       *self,
                                                         const char          *path,
                                                         gboolean             is_sample);

/* Adds MOTION (a capture already retargeted onto the library's sensors,
 * odori_library_retarget ()) to the library as a new show named SHOW_NAME (a free code,
 * IMP1, IMP2 …) of class "imported" holding one motion, ODORI_LIBRARY_IMPORT_MOTION_CODE,
 * that spans it (odori_library_add_show ()), then reloads the library. *SYMBOL
 * (nullable) receives "SHOWCODE.M1". On failure nothing changes. */
gboolean           odori_document_add_imported_show     (OdoriDocument       *self,
                                                         OdoriMotion         *motion,
                                                         const char          *show_name,
                                                         char               **symbol,
                                                         GError             **error);
/* Removes show SHOW_CODE from the library's motion.dat (odori_library_remove_show ())
 * and reloads the library. *PREVIOUS (nullable) receives motion.dat's bytes before, for
 * odori_document_restore_index (). */
gboolean           odori_document_remove_show           (OdoriDocument       *self,
                                                         const char          *show_code,
                                                         GBytes             **previous,
                                                         GError             **error);
/* Renames show SHOW_CODE of the library to NAME (stripped; empty or several lines:
 * G_IO_ERROR_INVALID_ARGUMENT) through odori_library_rename_show () (motion.dat written
 * atomically, the previous one kept as motion.dat~), then reloads the library.
 * *PREVIOUS (nullable) receives motion.dat's bytes before, for
 * odori_document_restore_index (). Scores name shows by code: none changes. */
gboolean           odori_document_rename_show           (OdoriDocument       *self,
                                                         const char          *show_code,
                                                         const char          *name,
                                                         GBytes             **previous,
                                                         GError             **error);
/* How many blocks of the score name a motion of show SHOW_CODE. */
guint              odori_document_count_show_uses       (OdoriDocument       *self,
                                                         const char          *show_code);
/* Writes CONTENTS over the library's motion.dat atomically and reloads the library. */
gboolean           odori_document_restore_index         (OdoriDocument       *self,
                                                         GBytes              *contents,
                                                         GError             **error);
/* Puts an imported library in place of the current one (the score is kept). */
void               odori_document_set_index             (OdoriDocument       *self,
                                                         OdoriIndex          *index);

OdoriScore        *odori_document_get_score             (OdoriDocument       *self);
OdoriIndex        *odori_document_get_index             (OdoriDocument       *self);
/* Where the score is saved; NULL for the sample and for new scores. */
const char        *odori_document_get_path              (OdoriDocument       *self);
gboolean           odori_document_get_is_sample         (OdoriDocument       *self);
char              *odori_document_dup_title             (OdoriDocument       *self);
gboolean           odori_document_get_dirty             (OdoriDocument       *self);
/* The undo stack clears it when it steps back to the saved state. */
void               odori_document_set_dirty             (OdoriDocument       *self,
                                                         gboolean             dirty);
/* Warnings (and errors that did not stop loading) of the last open: OdoriDiagnostic. */
GPtrArray         *odori_document_get_diagnostics       (OdoriDocument       *self);

/* The one way to edit the score: checks EDIT against the score, applies it, recomposes
 * once and emits "changed" once. An edit that does not apply, or after which the score
 * would no longer compose, changes nothing, emits nothing and sets ERROR (the
 * composer's reason). EDIT is not taken. */
gboolean           odori_document_apply_edit            (OdoriDocument       *self,
                                                         OdoriScoreEdit      *edit,
                                                         GError             **error);
/* The same for taking EDIT back (undo). */
gboolean           odori_document_revert_edit           (OdoriDocument       *self,
                                                         OdoriScoreEdit      *edit,
                                                         GError             **error);
/* The score was changed in place by other means (tests, tools): recompose it all, mark
 * the document dirty, emit "changed" for every frame. */
void               odori_document_score_changed         (OdoriDocument       *self);

/* Composition */
void               odori_document_set_default_blend     (OdoriDocument       *self,
                                                         int                  blend);
void               odori_document_set_root_match        (OdoriDocument       *self,
                                                         OdoriRootMatch       match);
/* The composed dance (transfer none; NULL when the score does not compose). */
OdoriMotion       *odori_document_get_motion            (OdoriDocument       *self);
OdoriSkeleton     *odori_document_get_skeleton          (OdoriDocument       *self);
/* What to show of the score: the composed dance, or when the score does not compose,
 * the library's first pose (one frame, as the score's tracks without symbols compose),
 * so a score that reads but does not compose still shows a body. NULL when not even
 * that composes. Never exported: that is odori_document_get_motion ()'s. */
OdoriMotion       *odori_document_get_shown_motion      (OdoriDocument       *self);
OdoriSkeleton     *odori_document_get_shown_skeleton    (OdoriDocument       *self);
const GError      *odori_document_get_compose_error     (OdoriDocument       *self);
GArray            *odori_document_get_seams             (OdoriDocument       *self);

/* A show file of the library, loaded once (transfer none). */
OdoriMotion       *odori_document_load_show             (OdoriDocument       *self,
                                                         OdoriIndexShow      *show,
                                                         GError             **error);
/* Whether SYMBOL can be placed on PART: it names one motion of the library, and that
 * motion's show file has every sensor of the part (a motion captured for the arms
 * cannot drive the legs of another skeleton). On refusal the error says why, in the
 * user's words. */
gboolean           odori_document_check_symbol          (OdoriDocument       *self,
                                                         OdoriScorePart      *part,
                                                         const char          *symbol,
                                                         GError             **error);

/* Where the sample library lives (written there on first use). */
char              *odori_document_dup_sample_dir        (void);

G_END_DECLS
