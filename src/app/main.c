/* main.c: odori, the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "odori-application.h"

/* Where the translations are: $ODORI_LOCALEDIR if set; else the installed catalogues;
 * else, for an uninstalled build, the ones compiled in the build tree (build/po). */
static const char *
odori_localedir (void)
{
  const char *dir = g_getenv ("ODORI_LOCALEDIR");
#ifdef ODORI_BUILD_LOCALEDIR
  g_autofree char *installed = g_build_filename (LOCALEDIR, "ja", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
#endif

  if (dir != NULL && *dir != '\0')
    return dir;
#ifdef ODORI_BUILD_LOCALEDIR
  if (!g_file_test (installed, G_FILE_TEST_EXISTS))
    return ODORI_BUILD_LOCALEDIR;
#endif
  return LOCALEDIR;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(OdoriApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, odori_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = odori_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
