/* test-app-crash.c: edits survive a SIGKILL through the autosave
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test starts a second process of itself (ODORI_CRASH_CHILD=1), which runs the
 * application: an OdoriApplication with a window on the sample dance. It edits the score
 * (symbols placed on three tracks, one removed, the title changed; through the document,
 * as the window's editors do), keeps its main loop running until the autosave timer has
 * written every edit by itself, writes the score it has to a file, and says READY. The
 * test kills it with SIGKILL (no handler, no cleanup), then starts the application again
 * in this process with the same XDG directories: the recovery bar offers the orphaned
 * autosave, and accepting it gives back exactly the killed process's score, dirty.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "odori-application.h"
#include "odori-window-private.h"

static gboolean          have_display;
static OdoriApplication *test_app;
static char             *test_home;

/* The edits. */
static const struct
{
  guint       part;
  guint       start;
  const char *symbol;
} placed[] = {
  { 0, 661, "B2" },
  { 1, 700, "C1" },
  { 2, 702, "W2" },
};
#define NEW_TITLE "踊り after the crash"

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
pump (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static OdoriWindow *
new_sample_window (void)
{
  OdoriWindow *window = odori_window_new (GTK_APPLICATION (test_app));

  g_assert_true (odori_window_load_sample (window));
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static char *
score_text (OdoriScore *score)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize       len;
  const char *data;

  odori_score_write (score, out);
  g_assert_true (odori_output_commit (out, &error));
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

/* Parts, sensors and symbols in order, and the header: the score as the user edits it
 * ("# Index:" is where the library is, which the recovery may spell differently). */
static void
assert_same_score (OdoriScore *a,
                   OdoriScore *b)
{
  g_assert_cmpstr (a->title, ==, b->title);
  g_assert_cmpstr (a->author, ==, b->author);
  g_assert_cmpstr (a->date, ==, b->date);
  g_assert_cmpint (a->blend, ==, b->blend);
  g_assert_cmpuint (a->parts->len, ==, b->parts->len);
  for (guint p = 0; p < a->parts->len; p++)
    {
      OdoriScorePart *pa = g_ptr_array_index (a->parts, p);
      OdoriScorePart *pb = g_ptr_array_index (b->parts, p);

      g_assert_cmpstr (pa->code, ==, pb->code);
      g_assert_cmpstrv (pa->sensors, pb->sensors);
      g_assert_cmpuint (pa->symbols->len, ==, pb->symbols->len);
      for (guint i = 0; i < pa->symbols->len; i++)
        {
          OdoriScoreSymbol *sa = &g_array_index (pa->symbols, OdoriScoreSymbol, i);
          OdoriScoreSymbol *sb = &g_array_index (pb->symbols, OdoriScoreSymbol, i);

          g_assert_cmpuint (sa->start, ==, sb->start);
          g_assert_cmpstr (sa->symbol, ==, sb->symbol);
        }
    }
}

static gboolean
autosave_holds_edits (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "odori", "autosave", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      gboolean         all = TRUE;

      if (!g_str_has_suffix (name, ".dds"))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (placed); i++)
        {
          g_autofree char *line = g_strdup_printf ("\n%u: %s\n", placed[i].start,
                                                   placed[i].symbol);

          all = all && strstr (text, line) != NULL;
        }
      if (all && strstr (text, NEW_TITLE) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The process that gets killed. */
static int
run_child (void)
{
  g_autofree char *expected_path = g_build_filename (test_home, "expected.dds", NULL);
  g_autofree char *expected = NULL;
  OdoriWindow     *window;
  OdoriDocument   *doc;
  OdoriScore      *score;
  OdoriScorePart  *part;
  gint64           start;

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  score = odori_document_get_score (doc);
  pump (200);

  for (guint i = 0; i < G_N_ELEMENTS (placed); i++)
    {
      part = g_ptr_array_index (score->parts, placed[i].part);
      g_assert_true (odori_score_part_add_symbol (part, placed[i].start, placed[i].symbol));
      odori_document_score_changed (doc);
      pump (50);
    }
  /* Remove the first symbol of the fourth track. */
  part = g_ptr_array_index (score->parts, 3);
  g_assert_cmpuint (part->symbols->len, >, 0);
  g_array_remove_index (part->symbols, 0); /* the array frees the symbol */
  odori_document_score_changed (doc);
  g_free (score->title);
  score->title = g_strdup (NEW_TITLE);
  odori_document_score_changed (doc);
  g_assert_true (odori_document_get_dirty (doc));

  /* No explicit save: the timer writes the autosave by itself. */
  start = g_get_monotonic_time ();
  while (!autosave_holds_edits ())
    {
      g_assert_cmpint (g_get_monotonic_time () - start, <,
                       (ODORI_AUTOSAVE_SECONDS + 30) * G_USEC_PER_SEC);
      pump (200);
    }

  expected = score_text (score);
  g_assert_true (g_file_set_contents (expected_path, expected, -1, NULL));
  printf ("READY\n");
  fflush (stdout);

  /* Running, with unsaved work, until killed. */
  for (;;)
    pump (1000);
  return 1;
}

static void
test_sigkill_recover (void)
{
  g_autofree char *expected_path = g_build_filename (test_home, "expected.dds", NULL);
  const char      *argv[] = { NULL, NULL };
  g_auto (GStrv) envp = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) orphans = NULL;
  g_autoptr(OdoriScore) expected = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  OdoriWindow   *window;
  OdoriDocument *doc;
  GPid           pid;
  int            out_fd, status;
  gint64         start;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }

  argv[0] = g_test_get_filename (G_TEST_BUILT, "test-app-crash", NULL);
  envp = g_get_environ ();
  envp = g_environ_setenv (envp, "ODORI_CRASH_CHILD", "1", TRUE);
  envp = g_environ_setenv (envp, "ODORI_CRASH_HOME", test_home, TRUE);
  g_spawn_async_with_pipes (NULL, (char **) argv, envp, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &pid, NULL, &out_fd, NULL, &error);
  g_assert_no_error (error);

  /* Wait for READY (the edits are autosaved), reading the child's output. */
  start = g_get_monotonic_time ();
  while (strstr (out->str, "READY\n") == NULL)
    {
      char   buf[256];
      gssize n = read (out_fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        g_error ("the application process ended before its edits were autosaved: %s",
                 out->str);
      g_string_append_len (out, buf, n);
      g_assert_cmpint (g_get_monotonic_time () - start, <, 120 * G_USEC_PER_SEC);
    }
  close (out_fd);

  /* The crash. */
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  while (waitpid (pid, &status, 0) < 0)
    g_assert_cmpint (errno, ==, EINTR);
  g_spawn_close_pid (pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);

  expected = odori_score_load (expected_path, &error);
  g_assert_no_error (error);

  /* The restart: the autosave is an orphan now, and the window offers it. */
  orphans = odori_autosave_list_orphans (odori_application_get_autosave (test_app));
  g_assert_cmpuint (orphans->len, ==, 1);
  window = new_sample_window ();
  doc = odori_window_get_document (window);
  odori_window_offer_recovery (window);
  g_assert_true (gtk_info_bar_get_revealed (window->recover_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->recover_label), NEW_TITLE));
  gtk_info_bar_response (window->recover_bar, 1);
  g_assert_false (gtk_info_bar_get_revealed (window->recover_bar));

  g_assert_true (odori_document_get_dirty (doc));
  assert_same_score (expected, odori_document_get_score (doc));
  g_assert_nonnull (odori_document_get_motion (doc));
  {
    g_autofree char *recovered = score_text (odori_document_get_score (doc));

    for (guint i = 0; i < G_N_ELEMENTS (placed); i++)
      {
        g_autofree char *line = g_strdup_printf ("\n%u: %s\n", placed[i].start,
                                                 placed[i].symbol);

        g_assert_nonnull (strstr (recovered, line));
      }
  }
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
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

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  const char *dirs[] = { "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME" };
  gboolean    child = g_strcmp0 (g_getenv ("ODORI_CRASH_CHILD"), "1") == 0;
  int         ret;

  /* The child shares the parent's directories: that is where the autosave survives. */
  if (child)
    test_home = g_strdup (g_getenv ("ODORI_CRASH_HOME"));
  else
    test_home = g_dir_make_tmp ("odori-crash-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_nonnull (test_home);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (test_home, dirs[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (dirs[i], dir, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", FALSE);

  g_test_init (&argc, &argv, NULL);
  have_display = gtk_init_check ();
  if (!have_display && g_getenv ("GUI_TESTS_REQUIRED") != NULL)
    g_error ("GUI_TESTS_REQUIRED is set but there is no display: run under xvfb-run");
  if (have_display)
    {
      test_app = odori_application_new (G_APPLICATION_NON_UNIQUE);
      g_application_register (G_APPLICATION (test_app), NULL, &error);
      g_assert_no_error (error);
    }
  if (child)
    {
      g_assert_true (have_display);
      return run_child ();
    }

  g_test_add_func ("/app/crash/sigkill-recover", test_sigkill_recover);
  ret = g_test_run ();

  g_clear_object (&test_app);
  rm_rf (test_home);
  g_free (test_home);
  return ret;
}
