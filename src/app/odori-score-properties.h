/* odori-score-properties.h: the score's title and author (the DDS header), and its date
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"
#include "odori-undo.h"

G_BEGIN_DECLS

#define ODORI_TYPE_SCORE_PROPERTIES (odori_score_properties_get_type ())

G_DECLARE_FINAL_TYPE (OdoriScoreProperties, odori_score_properties, ODORI, SCORE_PROPERTIES, GtkWindow)

/* A dialog over PARENT editing the title and author of UNDO's document's score; Apply
 * makes one undoable edit through UNDO (odori_document_apply_edit ()). */
GtkWindow *odori_score_properties_new (GtkWindow *parent,
                                       OdoriUndo *undo);

G_END_DECLS
