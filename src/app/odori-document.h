/* odori-document.h: one open score with its library, composition and playhead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session object every widget of a window observes (like SysprofSession): the score,
 * the index (motion library) it is composed against, the composer and its composed
 * motion, the motion being previewed, the current frame and the playback state, the
 * dirty flag and the autosave. Widgets never edit the core objects behind its back: an
 * edit of the score goes through odori_document_score_changed().
 */
#pragma once

#include <gio/gio.h>

#include "odori-compose.h"
#include "odori-index.h"
#include "odori-motion.h"
#include "odori-score.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

#define ODORI_TYPE_DOCUMENT (odori_document_get_type ())

G_DECLARE_FINAL_TYPE (OdoriDocument, odori_document, ODORI, DOCUMENT, GObject)

#define ODORI_DOCUMENT_AUTOSAVE_SECONDS 5

OdoriDocument     *odori_document_new                   (void);

/* Files. On failure the document is unchanged. */
gboolean           odori_document_load_sample           (OdoriDocument     *self,
                                                         GError           **error);
/* INDEX_PATH (nullable) overrides the score's "# Index:". */
gboolean           odori_document_open_score            (OdoriDocument     *self,
                                                         const char        *path,
                                                         const char        *index_path,
                                                         GError           **error);
/* Makes PATH the document's library. An untouched document gets a new empty score with
 * one track per part of the library; a score with work in it is composed against the
 * new library and its "# Index:" follows (an edit). */
gboolean           odori_document_open_index            (OdoriDocument     *self,
                                                         const char        *path,
                                                         GError           **error);
/* Writes the score to PATH in its own encoding; "# Index:" is rewritten relative to
 * PATH's directory. Clears the dirty flag and drops the autosave. */
gboolean           odori_document_save                  (OdoriDocument     *self,
                                                         const char        *path,
                                                         GError           **error);
/* Adds MOTION (a capture already retargeted onto the library's sensors,
 * odori_library_retarget ()) to the library as a new show named SHOW_NAME (a free code,
 * IMP1, IMP2 …) of class "imported" holding one motion, ODORI_LIBRARY_IMPORT_MOTION_CODE,
 * that spans it (odori_library_add_show ()), then reloads the library. *SYMBOL
 * (nullable) receives "SHOWCODE.M1". On failure nothing changes. */
gboolean           odori_document_add_imported_show     (OdoriDocument     *self,
                                                         OdoriMotion       *motion,
                                                         const char        *show_name,
                                                         char             **symbol,
                                                         GError           **error);
/* Removes show SHOW_CODE from the library's motion.dat (odori_library_remove_show ())
 * and reloads the library. *PREVIOUS (nullable) receives motion.dat's bytes before, for
 * odori_document_restore_index (). */
gboolean           odori_document_remove_show           (OdoriDocument     *self,
                                                         const char        *show_code,
                                                         GBytes           **previous,
                                                         GError           **error);
/* Writes CONTENTS over the library's motion.dat atomically and reloads the library. */
gboolean           odori_document_restore_index         (OdoriDocument     *self,
                                                         GBytes            *contents,
                                                         GError           **error);
/* Puts an imported library in place of the current one (the score is kept). */
void               odori_document_set_index             (OdoriDocument     *self,
                                                         OdoriIndex        *index);

OdoriScore        *odori_document_get_score             (OdoriDocument     *self);
OdoriIndex        *odori_document_get_index             (OdoriDocument     *self);
/* Where the score is saved; NULL for the sample and for new scores. */
const char        *odori_document_get_path              (OdoriDocument     *self);
gboolean           odori_document_get_is_sample         (OdoriDocument     *self);
char              *odori_document_dup_title             (OdoriDocument     *self);
gboolean           odori_document_get_dirty             (OdoriDocument     *self);
/* Warnings (and errors that did not stop loading) of the last open: OdoriDiagnostic. */
GPtrArray         *odori_document_get_diagnostics       (OdoriDocument     *self);

/* After an edit of the score: recompose what changed, mark the document dirty. */
void               odori_document_score_changed         (OdoriDocument     *self);

/* Composition */
void               odori_document_set_default_blend     (OdoriDocument     *self,
                                                         int                blend);
void               odori_document_set_root_match        (OdoriDocument     *self,
                                                         OdoriRootMatch     match);
/* The composed dance (transfer none; NULL when the score does not compose). */
OdoriMotion       *odori_document_get_motion            (OdoriDocument     *self);
const GError      *odori_document_get_compose_error     (OdoriDocument     *self);
GArray            *odori_document_get_seams             (OdoriDocument     *self);

/* What the viewport shows: the previewed motion, else the composed dance. */
OdoriMotion       *odori_document_get_display_motion    (OdoriDocument     *self);
OdoriSkeleton     *odori_document_get_display_skeleton  (OdoriDocument     *self);
OdoriIndexMotion  *odori_document_get_preview           (OdoriDocument     *self);
gboolean           odori_document_preview               (OdoriDocument     *self,
                                                         OdoriIndexMotion  *motion,
                                                         GError           **error);
void               odori_document_stop_preview          (OdoriDocument     *self);
/* A show file of the library, loaded once (transfer none). */
OdoriMotion       *odori_document_load_show             (OdoriDocument     *self,
                                                         OdoriIndexShow    *show,
                                                         GError           **error);
/* Whether SYMBOL can be placed on PART: it names one motion of the library, and that
 * motion's show file has every sensor of the part (a motion captured for the arms
 * cannot drive the legs of another skeleton). On refusal the error says why, in the
 * user's words. */
gboolean           odori_document_check_symbol          (OdoriDocument     *self,
                                                         OdoriScorePart    *part,
                                                         const char        *symbol,
                                                         GError           **error);
/* Seconds per frame of the display motion (1/30 when there is none). */
double             odori_document_get_frame_time        (OdoriDocument     *self);

/* The playhead: 1-based frame of the display motion. */
guint              odori_document_get_frame             (OdoriDocument     *self);
void               odori_document_set_frame             (OdoriDocument     *self,
                                                         guint              frame);
guint              odori_document_get_n_frames          (OdoriDocument     *self);
void               odori_document_step                  (OdoriDocument     *self,
                                                         int                delta);
gboolean           odori_document_get_playing           (OdoriDocument     *self);
void               odori_document_set_playing           (OdoriDocument     *self,
                                                         gboolean           playing);
gboolean           odori_document_get_loop              (OdoriDocument     *self);
void               odori_document_set_loop              (OdoriDocument     *self,
                                                         gboolean           loop);
double             odori_document_get_speed             (OdoriDocument     *self);
void               odori_document_set_speed             (OdoriDocument     *self,
                                                         double             speed);
/* Advances playback to monotonic time TIME_US (a frame clock's time). */
void               odori_document_tick                  (OdoriDocument     *self,
                                                         gint64             time_us);

/* Autosave (every ODORI_DOCUMENT_AUTOSAVE_SECONDS while dirty) to
 * $XDG_STATE_HOME/odori/autosave/. */
gboolean           odori_document_autosave              (OdoriDocument     *self,
                                                         GError           **error);
void               odori_document_discard_autosave      (OdoriDocument     *self);
/* Autosaves left by an earlier run (their .ini paths), oldest first, leaving out those
 * of documents alive in this process. */
GPtrArray         *odori_document_list_orphan_autosaves (void);
/* Opens the autosave described by INI: the recovered score is dirty and will be saved
 * where it was saved before the crash. */
gboolean           odori_document_recover               (OdoriDocument     *self,
                                                         const char        *ini,
                                                         GError           **error);
void               odori_autosave_delete                (const char        *ini);

/* Where the sample library lives (written there on first use). */
char              *odori_document_dup_sample_dir        (void);

G_END_DECLS
