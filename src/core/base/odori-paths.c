/* odori-paths.c: where Odori's own data and translations are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-paths.h"

char *
odori_find_data_file (const char *name)
{
  const char *dirs[] = {
    g_getenv ("ODORI_DATADIR"),
#ifdef ODORI_SOURCE_DATADIR
    ODORI_SOURCE_DATADIR,
#endif
    ODORI_DATADIR,
  };

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    if (dirs[i] != NULL && dirs[i][0] != '\0')
      {
        g_autofree char *path = g_build_filename (dirs[i], name, NULL);

        if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
          return g_steal_pointer (&path);
      }
  return NULL;
}

const char *
odori_localedir (void)
{
  const char *dir = g_getenv ("ODORI_LOCALEDIR");

  if (dir != NULL && *dir != '\0')
    return dir;
#ifdef ODORI_BUILD_LOCALEDIR
  {
    g_autofree char *installed =
      g_build_filename (LOCALEDIR, "ja", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);

    if (!g_file_test (installed, G_FILE_TEST_EXISTS))
      return ODORI_BUILD_LOCALEDIR;
  }
#endif
  return LOCALEDIR;
}
