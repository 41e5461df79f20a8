/* app-test-util.h: shared set-up for the in-process GUI tests (GUI-TESTING.md §4a)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test binary runs with its own XDG directories in a temporary directory (the
 * sample library, autosaves and recent files land there), an OdoriApplication that is
 * NON_UNIQUE (tests run side by side) and registered (its startup ran), and real
 * OdoriWindows on the X display (xvfb-run). Without a display the tests skip, unless
 * GUI_TESTS_REQUIRED is set: then they fail.
 */
#pragma once

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "odori-application.h"
#include "odori-window-private.h"

static gboolean have_display;
static OdoriApplication *test_app;
static char *test_home;

#define SKIP_WITHOUT_DISPLAY()                                       \
  G_STMT_START {                                                     \
    if (!have_display)                                               \
      {                                                              \
        g_test_skip ("no display (run under xvfb-run)");             \
        return;                                                      \
      }                                                              \
  } G_STMT_END

G_GNUC_UNUSED static gboolean
test_timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Waits end as soon as their condition holds, so a generous limit costs nothing when
 * the test passes: under AddressSanitizer, on a shared machine, everything is several
 * times slower (a revealer's animation took more than 3 s in CI). */
#if defined(__SANITIZE_ADDRESS__)
#define WAIT_SCALE 5
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WAIT_SCALE 5
#endif
#endif
#ifndef WAIT_SCALE
#define WAIT_SCALE 2
#endif

/* Pumps the main loop until COND holds or MS (times WAIT_SCALE) milliseconds pass, then
 * asserts COND. */
#define WAIT_UNTIL(cond, ms)                                                      \
  G_STMT_START {                                                                  \
    gboolean timed_out_ = FALSE;                                                  \
    guint id_ = g_timeout_add ((ms) * WAIT_SCALE, test_timeout_cb, &timed_out_);  \
    while (!(cond) && !timed_out_)                                    \
      g_main_context_iteration (NULL, TRUE);                          \
    if (!timed_out_)                                                  \
      g_source_remove (id_);                                          \
    g_assert_true (cond);                                             \
  } G_STMT_END

G_GNUC_UNUSED static void
pump (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, test_timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
app_test_init (int    *argc,
               char ***argv)
{
  g_autoptr(GError) error = NULL;
  const char *dirs[] = { "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME" };

  /* Before anything asks GLib for these directories (it keeps the first answer). */
  test_home = g_dir_make_tmp ("odori-gui-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (test_home, dirs[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (dirs[i], dir, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", FALSE);

  g_test_init (argc, argv, NULL);
  have_display = gtk_init_check ();
  if (!have_display && g_getenv ("GUI_TESTS_REQUIRED") != NULL)
    g_error ("GUI_TESTS_REQUIRED is set but there is no display: run under xvfb-run");
  if (!have_display)
    return;

  test_app = odori_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (test_app), NULL, &error);
  g_assert_no_error (error);
}

G_GNUC_UNUSED static void
destroy_all_windows (void)
{
  GList *windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

G_GNUC_UNUSED static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        rm_rf (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static int
app_test_finish (int status)
{
  if (have_display)
    {
      destroy_all_windows ();
      g_clear_object (&test_app);
    }
  rm_rf (test_home);
  g_free (test_home);
  return status;
}

/* A window on the sample dance, shown, paused at frame 1. */
G_GNUC_UNUSED static OdoriWindow *
new_sample_window (void)
{
  OdoriWindow *window = odori_window_new (GTK_APPLICATION (test_app));

  g_assert_true (odori_window_load_sample (window));
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  odori_session_set_frame (odori_window_get_session (window), 1);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

G_GNUC_UNUSED static char *
test_path (const char *name)
{
  return g_build_filename (test_home, name, NULL);
}

G_GNUC_UNUSED static char *
sample_path (const char *name)
{
  g_autofree char *dir = odori_document_dup_sample_dir ();

  return g_build_filename (dir, name, NULL);
}

G_GNUC_UNUSED static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

G_GNUC_UNUSED static void
write_text (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* odori_window_export ()'s result, for export_cb. */
typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} ExportResult;

G_GNUC_UNUSED static void
export_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  ExportResult *r = data;

  r->ok = odori_window_export_finish (ODORI_WINDOW (source), result, &r->error);
  r->done = TRUE;
}

/* The timeline's "refused" signal: keeps the last message in *OUT. */
G_GNUC_UNUSED static void
refused_cb (OdoriTimeline *timeline,
            const char    *message,
            char         **out)
{
  g_free (*out);
  *out = g_strdup (message);
}
