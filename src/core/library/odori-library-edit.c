/* odori-library-edit.c: shows added to, renamed in and removed from a library's
 * motion.dat (the import's last step, and the window's library menu)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - motion.dat is edited as data: loaded as an index, changed with its mutators
 *   (odori_index_add_class/_show/_motion, odori_index_remove_show, odori_index_rename_show),
 *   written back with odori_index_save_in_place (): untouched lines byte for byte, new
 *   lines in the file's encoding and first line end, the previous file copied to
 *   motion.dat~, every write atomic. The show file is reserved with O_EXCL so no file is
 *   ever overwritten.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-library-import.h"

/* motion.dat, edited through the index's mutators (odori-index-edit.c) */

/* A code motion.dat can hold in quotes and a DDS symbol can name: no blanks, quotes,
 * control characters, ',' or '=' (and no '.' in a show code: SHOW.M1 must split). */
static gboolean
check_code (const char  *what,
            const char  *code,
            gboolean     is_show,
            GError     **error)
{
  if (code == NULL || code[0] == '\0' || !g_utf8_validate (code, -1, NULL) || strlen (code) > 64)
    goto bad;
  for (const char *p = code; *p != '\0'; p++)
    if ((guchar) *p <= ' ' || *p == '"' || *p == ',' || *p == '=' || *p == 0x7f ||
        (is_show && *p == '.') || *p == '#')
      goto bad;
  return TRUE;

bad:
  g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_CODE,
               /* TRANSLATORS: the first %s is "show code" or "class code" */
               _("%s \"%s\" cannot be used: it must be 1 to 64 characters without blanks, "
                 "quotes, '#', ',', '='%s"),
               what, code ? code : "", is_show ? _(" or '.'") : "");
  return FALSE;
}

/* "te.bva" for show TE, or "te-2.bva" … when taken; reserved (created empty, O_EXCL) in
 * DIR, so no existing file is ever written over. */
static char *
reserve_show_file (const char  *dir,
                   const char  *show_code,
                   GError     **error)
{
  g_autofree char *stem = g_ascii_strdown (show_code, -1);

  for (char *p = stem; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
      *p = '_';
  for (guint n = 1; n < 10000; n++)
    {
      g_autofree char *name = n == 1 ? g_strconcat (stem, ".bva", NULL)
                                     : g_strdup_printf ("%s-%u.bva", stem, n);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      int fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

      if (fd >= 0)
        {
          close (fd);
          return g_steal_pointer (&name);
        }
      if (errno != EEXIST)
        {
          int saved = errno;

          g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: cannot write: %s"),
                       path, g_strerror (saved));
          return NULL;
        }
    }
  g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: no free file name for show %s"),
               dir, show_code);
  return NULL;
}

/* The show's name as motion.dat can hold it: the code when there is none; no '"' (the
 * format has no escape for it inside a value), and one line. */
static char *
show_name_for (const char *show_name,
               const char *show_code)
{
  char *name = g_strdup (show_name != NULL && show_name[0] != '\0' ? show_name : show_code);

  g_strdelimit (name, "\"\r\n", '\'');
  return name;
}

/* Adds the show, its one motion and (when missing) its class to INDEX. */
static gboolean
add_show_entries (OdoriIndex  *index,
                  const char  *class_code,
                  const char  *show_code,
                  const char  *name,
                  const char  *file,
                  guint        n_frames,
                  GError     **error)
{
  OdoriIndexClass *klass = odori_index_find_class (index, class_code);
  OdoriIndexShow *show;

  if (klass == NULL)
    klass = odori_index_add_class (index, class_code, class_code, error);
  if (klass == NULL)
    return FALSE;
  show = odori_index_add_show (index, klass, show_code, name, file, error);
  return show != NULL &&
         odori_index_add_motion (index, show, ODORI_LIBRARY_IMPORT_MOTION_CODE, name, NULL, 1,
                                 n_frames, error) != NULL;
}

gboolean
odori_library_add_show (const char   *index_path,
                        const char   *class_code,
                        const char   *show_code,
                        const char   *show_name,
                        OdoriMotion  *motion,
                        char        **file_name,
                        GError      **error)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  g_autofree char *bva_path = NULL;
  OdoriIndexShow *other;

  g_return_val_if_fail (index_path != NULL, FALSE);
  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_code (_("show code"), show_code, TRUE, error) ||
      !check_code (_("class code"), class_code, FALSE, error))
    return FALSE;
  if (motion->n_frames == 0 || motion->n_segments == 0)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_EMPTY,
                   _("the show has no frames or no segments"));
      return FALSE;
    }
  index = odori_index_load (index_path, error);
  if (index == NULL)
    return FALSE;
  other = odori_index_find_show (index, show_code);
  if (other != NULL)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_EXISTS,
                   _("%s:%u: the library already has a show with code \"%s\""),
                   index_path, other->line, show_code);
      return FALSE;
    }

  name = show_name_for (show_name, show_code);
  dir = g_path_get_dirname (index_path);
  file = reserve_show_file (dir, show_code, error);
  if (file == NULL)
    return FALSE;
  bva_path = g_build_filename (dir, file, NULL);
  if (!add_show_entries (index, class_code, show_code, name, file, motion->n_frames, error) ||
      !odori_bva_save (motion, bva_path, error) || !odori_index_save_in_place (index, error))
    {
      g_unlink (bva_path);
      return FALSE;
    }
  if (file_name != NULL)
    *file_name = g_steal_pointer (&file);
  return TRUE;
}

/* motion.dat and its show SHOW_CODE, or an error naming the file. */
static OdoriIndex *
load_with_show (const char      *index_path,
                const char      *show_code,
                OdoriIndexShow **show,
                GError         **error)
{
  g_autoptr(OdoriIndex) index = odori_index_load (index_path, error);

  if (index == NULL)
    return NULL;
  *show = odori_index_find_show (index, show_code);
  if (*show == NULL)
    {
      g_set_error (error, ODORI_IMPORT_ERROR, ODORI_IMPORT_ERROR_NO_SHOW,
                   _("%s: the library has no show with code \"%s\""), index_path, show_code);
      return NULL;
    }
  return g_steal_pointer (&index);
}

gboolean
odori_library_remove_show (const char  *index_path,
                           const char  *show_code,
                           char       **file_name,
                           GError     **error)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autofree char *file = NULL;
  OdoriIndexShow *show = NULL;

  g_return_val_if_fail (index_path != NULL, FALSE);
  g_return_val_if_fail (show_code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  index = load_with_show (index_path, show_code, &show, error);
  if (index == NULL)
    return FALSE;
  file = g_strdup (show->file);
  odori_index_remove_show (index, show);
  if (!odori_index_save_in_place (index, error))
    return FALSE;
  if (file_name != NULL)
    *file_name = g_steal_pointer (&file);
  return TRUE;
}

gboolean
odori_library_rename_show (const char  *index_path,
                           const char  *show_code,
                           const char  *show_name,
                           GError     **error)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autofree char *name = NULL;
  OdoriIndexShow *show = NULL;

  g_return_val_if_fail (index_path != NULL, FALSE);
  g_return_val_if_fail (show_code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  index = load_with_show (index_path, show_code, &show, error);
  if (index == NULL)
    return FALSE;
  name = show_name_for (show_name, show_code);
  if (g_strcmp0 (show->name, name) == 0)
    return TRUE;
  odori_index_rename_show (index, show, name);
  return odori_index_save_in_place (index, error);
}
