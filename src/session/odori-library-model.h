/* odori-library-model.h: the motion library (index) as list models for the browser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The core's index is plain structs; these small items wrap its classes, shows and
 * motions without copying them, and each class and show item is the GListModel of its
 * children, ready for a GtkTreeListModel.
 */
#pragma once

#include <gio/gio.h>

#include "odori-index.h"

G_BEGIN_DECLS

typedef enum
{
  ODORI_LIBRARY_ITEM_CLASS,
  ODORI_LIBRARY_ITEM_SHOW,
  ODORI_LIBRARY_ITEM_MOTION,
} OdoriLibraryItemKind;

#define ODORI_TYPE_LIBRARY_ITEM (odori_library_item_get_type ())

G_DECLARE_FINAL_TYPE (OdoriLibraryItem, odori_library_item, ODORI, LIBRARY_ITEM, GObject)

/* The classes of INDEX (OdoriLibraryItem). */
GListModel           *odori_library_model_new              (OdoriIndex       *index);

OdoriLibraryItemKind  odori_library_item_get_kind          (OdoriLibraryItem *self);
const char           *odori_library_item_get_name          (OdoriLibraryItem *self);
const char           *odori_library_item_get_code          (OdoriLibraryItem *self);
/* A motion's description; NULL for classes, shows and motions without one. */
const char           *odori_library_item_get_description   (OdoriLibraryItem *self);
/* The children (shows of a class, motions of a show); NULL for a motion. */
GListModel           *odori_library_item_get_children      (OdoriLibraryItem *self);
OdoriIndex           *odori_library_item_get_index         (OdoriLibraryItem *self);
OdoriIndexShow       *odori_library_item_get_show          (OdoriLibraryItem *self);
OdoriIndexMotion     *odori_library_item_get_motion        (OdoriLibraryItem *self);
/* The symbol a score writes for this motion: CODE, or SHOWCODE.CODE when another show
 * defines the same code. NULL for classes and shows. */
char                 *odori_library_item_dup_symbol        (OdoriLibraryItem *self);
/* Whether the item's name, code or description (or those of its show and class)
 * contain NEEDLE, which was folded with odori_library_fold(). */
gboolean              odori_library_item_matches           (OdoriLibraryItem *self,
                                                            const char       *needle);
/* Whether the item or anything below it matches. */
gboolean              odori_library_item_matches_deep      (OdoriLibraryItem *self,
                                                            const char       *needle);

/* Text made comparable for search: NFKC (full-width and half-width forms agree) and
 * case-folded. */
char                 *odori_library_fold                   (const char       *text);

G_END_DECLS
