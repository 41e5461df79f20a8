/* odori-autosave.h: unsaved work written aside every few seconds, and recovered
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application owns one (as gnome-text-editor's EditorSession owns drafts). Each
 * document added is watched: while it is dirty it is written every
 * ODORI_AUTOSAVE_SECONDS to $XDG_STATE_HOME/odori/autosave/ID.dds, described by ID.ini;
 * when it becomes clean (saved, reopened, undone to its saved state) the files go. An
 * autosave whose document is not alive in this process is an orphan, left by a crash:
 * it can be listed and recovered.
 */
#pragma once

#include <gio/gio.h>

#include "odori-document.h"

G_BEGIN_DECLS

#define ODORI_TYPE_AUTOSAVE (odori_autosave_get_type ())

G_DECLARE_FINAL_TYPE (OdoriAutosave, odori_autosave, ODORI, AUTOSAVE, GObject)

#define ODORI_AUTOSAVE_SECONDS 5

OdoriAutosave *odori_autosave_new              (void);
/* Watches DOCUMENT until odori_autosave_remove_document () or its end (its autosave,
 * if any, then stays on disk to be recovered). */
void           odori_autosave_add_document     (OdoriAutosave   *self,
                                                OdoriDocument   *document);
void           odori_autosave_remove_document  (OdoriAutosave   *self,
                                                OdoriDocument   *document);
/* Writes DOCUMENT's autosave now. */
gboolean       odori_autosave_save             (OdoriAutosave   *self,
                                                OdoriDocument   *document,
                                                GError         **error);
/* Deletes DOCUMENT's autosave (its work was given up). */
void           odori_autosave_discard          (OdoriAutosave   *self,
                                                OdoriDocument   *document);
/* Autosaves left by an earlier run (their .ini paths), oldest first, leaving out those
 * of documents alive in this process. */
GPtrArray     *odori_autosave_list_orphans     (OdoriAutosave   *self);
/* Opens the autosave described by INI into DOCUMENT (added if it was not): the
 * recovered score is dirty and will be saved where it was saved before the crash. */
gboolean       odori_autosave_recover          (OdoriAutosave   *self,
                                                OdoriDocument   *document,
                                                const char      *ini,
                                                GError         **error);
/* Deletes the orphan autosave described by INI. */
void           odori_autosave_delete           (OdoriAutosave   *self,
                                                const char      *ini);

G_END_DECLS
