/* odori-library-view.h: the motion library browser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"
#include "odori-library-model.h"

G_BEGIN_DECLS

#define ODORI_TYPE_LIBRARY_VIEW (odori_library_view_get_type ())

G_DECLARE_FINAL_TYPE (OdoriLibraryView, odori_library_view, ODORI, LIBRARY_VIEW, GtkWidget)

GtkWidget        *odori_library_view_new               (void);
OdoriDocument    *odori_library_view_get_document      (OdoriLibraryView *self);
void              odori_library_view_set_document      (OdoriLibraryView *self,
                                                        OdoriDocument    *document);
/* Filters at once (the entry itself waits for typing to pause). */
void              odori_library_view_set_search        (OdoriLibraryView *self,
                                                        const char       *text);
/* The rows shown, classes → shows → motions: a GtkTreeListModel of GtkTreeListRow. */
GListModel       *odori_library_view_get_rows          (OdoriLibraryView *self);
OdoriLibraryItem *odori_library_view_dup_selected      (OdoriLibraryView *self);
/* Selects (and scrolls to) the motion written SYMBOL in a score; FALSE if not shown. */
gboolean          odori_library_view_select_symbol     (OdoriLibraryView *self,
                                                        const char       *symbol);
void              odori_library_view_focus_search      (OdoriLibraryView *self);
/* The list widget (for tests and accessibility tools). */
GtkListView      *odori_library_view_get_list_view     (OdoriLibraryView *self);

G_END_DECLS
