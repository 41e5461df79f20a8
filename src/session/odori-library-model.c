/* odori-library-model.c: the motion library (index) as list models for the browser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-library-model.h"

struct _OdoriLibraryItem
{
  GObject               parent_instance;

  OdoriLibraryItemKind  kind;
  OdoriIndex           *index;
  OdoriIndexClass      *klass;
  OdoriIndexShow       *show;
  OdoriIndexMotion     *motion;
  GListStore           *children;
  char                 *key;        /* folded name, code and description */
  char                 *context;    /* folded names and codes of the show and class */
};

G_DEFINE_FINAL_TYPE (OdoriLibraryItem, odori_library_item, G_TYPE_OBJECT)

static void
odori_library_item_finalize (GObject *object)
{
  OdoriLibraryItem *self = ODORI_LIBRARY_ITEM (object);

  g_clear_object (&self->children);
  g_clear_pointer (&self->index, odori_index_unref);
  g_free (self->key);
  g_free (self->context);
  G_OBJECT_CLASS (odori_library_item_parent_class)->finalize (object);
}

static void
odori_library_item_class_init (OdoriLibraryItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_library_item_finalize;
}

static void
odori_library_item_init (OdoriLibraryItem *self)
{
}

char *
odori_library_fold (const char *text)
{
  g_autofree char *normal = NULL;

  if (text == NULL)
    return g_strdup ("");
  normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);
  if (normal == NULL)
    return g_strdup ("");
  return g_utf8_casefold (normal, -1);
}

static char *
fold_join (const char *a,
           const char *b,
           const char *c)
{
  g_autofree char *joined = g_strjoin ("\n", a ? a : "", b ? b : "", c ? c : "", NULL);

  return odori_library_fold (joined);
}

static OdoriLibraryItem *
item_new (OdoriLibraryItemKind  kind,
          OdoriIndex           *index)
{
  OdoriLibraryItem *self = g_object_new (ODORI_TYPE_LIBRARY_ITEM, NULL);

  self->kind = kind;
  self->index = odori_index_ref (index);
  return self;
}

static OdoriLibraryItem *
motion_item_new (OdoriIndex       *index,
                 OdoriIndexMotion *motion,
                 const char       *context)
{
  OdoriLibraryItem *self = item_new (ODORI_LIBRARY_ITEM_MOTION, index);

  self->motion = motion;
  self->show = motion->show;
  self->klass = motion->show->klass;
  self->key = fold_join (motion->name, motion->code, motion->exp);
  self->context = g_strdup (context);
  return self;
}

static OdoriLibraryItem *
show_item_new (OdoriIndex     *index,
               OdoriIndexShow *show,
               const char     *class_key)
{
  OdoriLibraryItem *self = item_new (ODORI_LIBRARY_ITEM_SHOW, index);

  self->show = show;
  self->klass = show->klass;
  self->key = fold_join (show->name, show->code, NULL);
  self->context = g_strdup (class_key);
  self->children = g_list_store_new (ODORI_TYPE_LIBRARY_ITEM);
  {
    g_autofree char *context = g_strconcat (self->key, "\n", class_key, NULL);

    for (guint i = 0; i < show->motions->len; i++)
      {
        g_autoptr(OdoriLibraryItem) child =
          motion_item_new (index, g_ptr_array_index (show->motions, i), context);

        g_list_store_append (self->children, child);
      }
  }
  return self;
}

static OdoriLibraryItem *
class_item_new (OdoriIndex      *index,
                OdoriIndexClass *klass)
{
  OdoriLibraryItem *self = item_new (ODORI_LIBRARY_ITEM_CLASS, index);

  self->klass = klass;
  self->key = fold_join (odori_library_item_get_name (self), klass->code, NULL);
  self->context = g_strdup ("");
  self->children = g_list_store_new (ODORI_TYPE_LIBRARY_ITEM);
  for (guint i = 0; i < klass->shows->len; i++)
    {
      g_autoptr(OdoriLibraryItem) child =
        show_item_new (index, g_ptr_array_index (klass->shows, i), self->key);

      g_list_store_append (self->children, child);
    }
  return self;
}

GListModel *
odori_library_model_new (OdoriIndex *index)
{
  GListStore *store;

  g_return_val_if_fail (index != NULL, NULL);

  store = g_list_store_new (ODORI_TYPE_LIBRARY_ITEM);
  for (guint i = 0; i < index->classes->len; i++)
    {
      g_autoptr(OdoriLibraryItem) item = class_item_new (index, g_ptr_array_index (index->classes, i));

      g_list_store_append (store, item);
    }
  return G_LIST_MODEL (store);
}

OdoriLibraryItemKind
odori_library_item_get_kind (OdoriLibraryItem *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), ODORI_LIBRARY_ITEM_CLASS);
  return self->kind;
}

const char *
odori_library_item_get_name (OdoriLibraryItem *self)
{
  const char *name = NULL;

  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);

  switch (self->kind)
    {
    case ODORI_LIBRARY_ITEM_CLASS:
      if (self->klass->implicit)
        return _("Shows outside any class");
      name = self->klass->name;
      break;
    case ODORI_LIBRARY_ITEM_SHOW:
      name = self->show->name;
      break;
    case ODORI_LIBRARY_ITEM_MOTION:
      name = self->motion->name;
      break;
    default:
      g_assert_not_reached ();
    }
  return name != NULL && name[0] != '\0' ? name : odori_library_item_get_code (self);
}

const char *
odori_library_item_get_code (OdoriLibraryItem *self)
{
  const char *code = NULL;

  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);

  switch (self->kind)
    {
    case ODORI_LIBRARY_ITEM_CLASS:
      code = self->klass->code;
      break;
    case ODORI_LIBRARY_ITEM_SHOW:
      code = self->show->code;
      break;
    case ODORI_LIBRARY_ITEM_MOTION:
      code = self->motion->code;
      break;
    default:
      g_assert_not_reached ();
    }
  return code != NULL ? code : "";
}

const char *
odori_library_item_get_description (OdoriLibraryItem *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);
  return self->kind == ODORI_LIBRARY_ITEM_MOTION ? self->motion->exp : NULL;
}

GListModel *
odori_library_item_get_children (OdoriLibraryItem *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);
  return self->children != NULL ? G_LIST_MODEL (self->children) : NULL;
}

OdoriIndex *
odori_library_item_get_index (OdoriLibraryItem *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);
  return self->index;
}

OdoriIndexShow *
odori_library_item_get_show (OdoriLibraryItem *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);
  return self->show;
}

OdoriIndexMotion *
odori_library_item_get_motion (OdoriLibraryItem *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);
  return self->motion;
}

char *
odori_library_item_dup_symbol (OdoriLibraryItem *self)
{
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *found;

  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), NULL);

  if (self->kind != ODORI_LIBRARY_ITEM_MOTION)
    return NULL;
  found = odori_index_lookup (self->index, self->motion->code, &error);
  if (found == self->motion)
    return g_strdup (self->motion->code);
  return g_strconcat (self->show->code, ".", self->motion->code, NULL);
}

gboolean
odori_library_item_matches (OdoriLibraryItem *self,
                            const char       *needle)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), FALSE);

  if (needle == NULL || needle[0] == '\0')
    return TRUE;
  return strstr (self->key, needle) != NULL || strstr (self->context, needle) != NULL;
}

gboolean
odori_library_item_matches_deep (OdoriLibraryItem *self,
                                 const char       *needle)
{
  guint n;

  g_return_val_if_fail (ODORI_IS_LIBRARY_ITEM (self), FALSE);

  if (odori_library_item_matches (self, needle))
    return TRUE;
  if (self->children == NULL)
    return FALSE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(OdoriLibraryItem) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      if (odori_library_item_matches_deep (child, needle))
        return TRUE;
    }
  return FALSE;
}
