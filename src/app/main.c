/* main.c: odori, the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
/* after a libc header, which defines __GLIBC__ */
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-debug.h"
#include "odori-paths.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(OdoriApplication) app = NULL;

  odori_debug_mark ("main");
#ifdef __GLIBC__
  /* llvmpipe (no GPU) allocates and frees megabytes each frame; with glibc's default
   * thresholds that memory goes back to the kernel every frame and is faulted in again,
   * half a skinned frame's time (docs/rendering.md, "Speed"). Keep it. */
  mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, odori_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = odori_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
