/* odori-document-library.c: the library's shows, added from a capture, renamed and removed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-document-private.h"
#include "odori-library-import.h"

/* The class imported shows join (created at the end of motion.dat when missing). */
#define IMPORTED_CLASS_CODE "imported"

static gboolean
show_code_used (OdoriIndex *index,
                const char *code)
{
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        if (g_ascii_strcasecmp (((OdoriIndexShow *) g_ptr_array_index (klass->shows, s))->code, code) == 0)
          return TRUE;
    }
  return FALSE;
}

/* A show code nobody uses yet: IMP1, IMP2 … */
static char *
choose_show_code (OdoriIndex *index)
{
  char *code = NULL;

  for (guint n = 1; code == NULL || show_code_used (index, code); n++)
    {
      g_free (code);
      code = g_strdup_printf ("IMP%u", n);
    }
  return code;
}

static gboolean
library_path_or_error (OdoriDocument *self,
                       GError       **error)
{
  if (self->index == NULL || self->index->path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("Open a motion library first: the capture becomes one of its shows"));
      return FALSE;
    }
  return TRUE;
}

/* motion.dat changed on disk: read it again and put it in place. */
static gboolean
reload_index (OdoriDocument *self,
              GError       **error)
{
  g_autofree char *path = g_strdup (self->index->path);
  g_autoptr(OdoriIndex) index = odori_index_load (path, error);

  if (index == NULL)
    return FALSE;
  odori_document_set_index (self, index);
  return TRUE;
}

/* motion.dat's bytes now, for an Undo. */
static GBytes *
read_index_file (OdoriDocument *self,
                 GError       **error)
{
  char *data = NULL;
  gsize len = 0;

  if (!g_file_get_contents (self->index->path, &data, &len, error))
    return NULL;
  return g_bytes_new_take (data, len);
}

gboolean
odori_document_add_imported_show (OdoriDocument *self,
                                  OdoriMotion   *motion,
                                  const char    *show_name,
                                  char         **symbol,
                                  GError       **error)
{
  g_autofree char *show_code = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  if (motion->n_frames == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("The capture has no frames"));
      return FALSE;
    }

  show_code = choose_show_code (self->index);
  name = g_strdup (show_name != NULL && show_name[0] != '\0' ? show_name : show_code);
  g_strdelimit (name, "\"\n\r", '\'');
  if (!odori_library_add_show (self->index->path, IMPORTED_CLASS_CODE, show_code, name, motion, NULL, error))
    return FALSE;
  if (!reload_index (self, error))
    return FALSE;
  if (symbol != NULL)
    *symbol = g_strconcat (show_code, ".", ODORI_LIBRARY_IMPORT_MOTION_CODE, NULL);
  return TRUE;
}

gboolean
odori_document_remove_show (OdoriDocument *self,
                            const char    *show_code,
                            GBytes       **previous,
                            GError       **error)
{
  g_autoptr(GBytes) before = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (show_code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  before = read_index_file (self, error);
  if (before == NULL)
    return FALSE;
  if (!odori_library_remove_show (self->index->path, show_code, NULL, error))
    return FALSE;
  if (!reload_index (self, error))
    return FALSE;
  if (previous != NULL)
    *previous = g_steal_pointer (&before);
  return TRUE;
}

gboolean
odori_document_rename_show (OdoriDocument *self,
                            const char    *show_code,
                            const char    *name,
                            GBytes       **previous,
                            GError       **error)
{
  g_autofree char *stripped = NULL;
  g_autoptr(GBytes) before = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (show_code != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  stripped = g_strstrip (g_strdup (name));
  if (stripped[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("A show needs a name"));
      return FALSE;
    }
  if (strpbrk (stripped, "\n\r") != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("A show’s name is one line"));
      return FALSE;
    }
  if (!g_utf8_validate (stripped, -1, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("The name is not valid UTF-8"));
      return FALSE;
    }
  before = read_index_file (self, error);
  if (before == NULL)
    return FALSE;
  if (!odori_library_rename_show (self->index->path, show_code, stripped, error))
    return FALSE;
  if (!reload_index (self, error))
    return FALSE;
  if (previous != NULL)
    *previous = g_steal_pointer (&before);
  return TRUE;
}

guint
odori_document_count_show_uses (OdoriDocument *self,
                                const char    *show_code)
{
  OdoriIndexShow *show;
  guint n = 0;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), 0);
  g_return_val_if_fail (show_code != NULL, 0);

  if (self->index == NULL || self->score == NULL)
    return 0;
  show = odori_index_find_show (self->index, show_code);
  if (show == NULL)
    return 0;
  for (guint p = 0; p < self->score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (self->score->parts, p);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *symbol = &g_array_index (part->symbols, OdoriScoreSymbol, i);
          OdoriIndexMotion *motion = odori_index_lookup (self->index, symbol->symbol, NULL);

          if (motion != NULL && motion->show == show)
            n++;
        }
    }
  return n;
}

gboolean
odori_document_restore_index (OdoriDocument *self,
                              GBytes        *contents,
                              GError       **error)
{
  gsize       len;
  const char *data;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  data = g_bytes_get_data (contents, &len);
  /* g_file_set_contents writes a temporary file and renames it over motion.dat. */
  if (!g_file_set_contents (self->index->path, data, (gssize) len, error))
    return FALSE;
  return reload_index (self, error);
}
