/* odori-index-files.c: an index checked against the show files it names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "odori-format.h"
#include "odori-index-files.h"

typedef struct
{
  OdoriMotion *motion;
  char        *error;
} LoadedFile;

static void
loaded_file_free (LoadedFile *loaded)
{
  g_clear_pointer (&loaded->motion, odori_motion_unref);
  g_free (loaded->error);
  g_free (loaded);
}

static LoadedFile *
load_show_file (GHashTable *loaded_files,
                const char *path,
                GPtrArray  *diagnostics)
{
  LoadedFile *loaded = g_hash_table_lookup (loaded_files, path);
  g_autoptr(GError) error = NULL;

  if (loaded != NULL)
    return loaded;

  loaded = g_new0 (LoadedFile, 1);
  loaded->motion = odori_format_load_motion (path, diagnostics, &error);
  if (loaded->motion == NULL)
    loaded->error = g_strdup (error ? error->message : _("cannot be read"));
  g_hash_table_insert (loaded_files, g_strdup (path), loaded);
  return loaded;
}

/**
 * odori_index_check_files:
 * @index: an index
 * @diagnostics: (element-type OdoriDiagnostic): where problems are appended
 *
 * Loads every show file once and checks each motion's frame range against it.
 *
 * Returns: %FALSE if an error was appended
 */
gboolean
odori_index_check_files (OdoriIndex *index,
                         GPtrArray  *diagnostics)
{
  g_autoptr(GHashTable) loaded_files = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (index != NULL, FALSE);
  g_return_val_if_fail (diagnostics != NULL, FALSE);

  loaded_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) loaded_file_free);

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);
          g_autofree char *path = NULL;
          LoadedFile *loaded;

          if (show->file == NULL)
            continue;
          path = odori_index_show_path (index, show);
          loaded = load_show_file (loaded_files, path, diagnostics);
          if (loaded->motion == NULL)
            {
              g_ptr_array_add (diagnostics,
                               odori_diagnostic_new (index->path, show->line, TRUE,
                                                     _("cannot load file \"%s\" of show \"%s\": %s"),
                                                     show->file, show->code, loaded->error));
              ok = FALSE;
              continue;
            }

          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *motion = g_ptr_array_index (show->motions, m);

              if (motion->last <= loaded->motion->n_frames)
                continue;
              g_ptr_array_add (diagnostics,
                               odori_diagnostic_new (index->path, motion->line, TRUE,
                                                     _("motion \"%s\" frames %u-%u beyond the %u "
                                                       "frames of %s"),
                                                     motion->code, motion->first, motion->last,
                                                     loaded->motion->n_frames, show->file));
              ok = FALSE;
            }
        }
    }
  return ok;
}
