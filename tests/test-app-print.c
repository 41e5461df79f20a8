/* test-app-print.c: Print… in the window: GtkPrintOperation's export to a PDF driven
 * in-process (the same pages as Print to File), and Ctrl+P bound to win.print
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "app-input-util.h"

static void
test_print_export (void)
{
  OdoriWindow     *window;
  g_autofree char *pdf = NULL;
  g_autofree char *tool = g_find_program_in_path ("pdftotext");
  g_autofree char *out = NULL;
  g_auto (GStrv) accels = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  SKIP_WITHOUT_DISPLAY ();
  window = new_sample_window ();
  pump (200);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app), "win.print");
  g_assert_nonnull (accels);
  g_assert_cmpstr (accels[0], ==, "<Control>p");
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "print"));

  pdf = test_path ("window-print.pdf");
  _odori_window_print (window, pdf);
  for (guint i = 0; i < 300 && !g_file_test (pdf, G_FILE_TEST_IS_REGULAR); i++)
    pump (50);
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));
  if (tool == NULL)
    {
      if (g_getenv ("CI") != NULL || g_getenv ("ODORI_TOOLS_REQUIRED") != NULL)
        g_error ("pdftotext is missing (Debian's poppler-utils, build-aux/deps)");
      return;
    }
  {
    const char *argv[] = { tool, "-enc", "UTF-8", pdf, "-", NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, &status, &error));
    g_assert_no_error (error);
  }
  g_assert_nonnull (strstr (out, "春の小品"));
  g_assert_nonnull (strstr (out, "MW.K1"));
  g_assert_nonnull (strstr (out, "ステップタッチ"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWindow *
find_print_dialog (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (g_strcmp0 (G_OBJECT_TYPE_NAME (l->data), "GtkPrintUnixDialog") == 0 && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

/* Ctrl+P, pressed on the keyboard (xdotool), opens GTK's print dialog once the
 * thumbnails are drawn; Escape closes it, and the window goes on. */
/* The sample dance repeated REPS times, beside the test (its library by absolute path):
 * a score whose poses take long enough to draw for a click to cancel them. */
static char *
write_long_score (const char *dir,
                  guint       reps)
{
  g_autofree char *sample_dir = odori_document_dup_sample_dir ();
  g_autofree char *sample = g_build_filename (sample_dir, "sample.dds", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GString *out = g_string_new (NULL);
  char *path = g_build_filename (dir, "long.dds", NULL);
  GPtrArray *symbols = g_ptr_array_new ();

  g_assert_true (g_file_get_contents (sample, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];

      if (g_str_has_prefix (l, "# Index:"))
        g_string_append_printf (out, "# Index: %s/motion.dat\n", sample_dir);
      else if (l[0] == '#')
        g_string_append_printf (out, "%s\n", l);
      else if (g_ascii_isdigit (l[0]))
        g_ptr_array_add (symbols, (gpointer) l);
      else if (l[0] != '\0')
        {
          /* a part: the symbols of the one before it first */
          for (guint r = 0; r < reps; r++)
            for (guint k = 0; k < symbols->len; k++)
              {
                const char *sym = symbols->pdata[k];
                g_string_append_printf (out, "%u:%s\n", (guint) g_ascii_strtoull (sym, NULL, 10) + r * 630,
                                        strchr (sym, ':') + 1);
              }
          g_ptr_array_set_size (symbols, 0);
          g_string_append_printf (out, "%s\n", l);
        }
    }
  for (guint r = 0; r < reps; r++)
    for (guint k = 0; k < symbols->len; k++)
      {
        const char *sym = symbols->pdata[k];
        g_string_append_printf (out, "%u:%s\n", (guint) g_ascii_strtoull (sym, NULL, 10) + r * 630,
                                strchr (sym, ':') + 1);
      }
  g_ptr_array_unref (symbols);
  g_assert_true (g_file_set_contents (path, out->str, -1, NULL));
  g_string_free (out, TRUE);
  return path;
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
set_flag_cb (gboolean *flag)
{
  *flag = TRUE;
}

static void
test_ctrl_p (void)
{
  OdoriWindow *window;
  GtkWindow   *dialog;
  GtkWidget   *cancel;
  g_autofree char *tmp = NULL;
  g_autofree char *long_score = NULL;
  g_autoptr(GFile) long_file = NULL;
  guint        revealed = 0;
  gboolean     cancelled = FALSE;

  SKIP_WITHOUT_DISPLAY ();
  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (300);
  g_assert_null (find_print_dialog ());
  g_signal_connect_swapped (window->export_revealer, "notify::reveal-child", G_CALLBACK (count_cb), &revealed);
  input_key (GTK_WIDGET (window), "ctrl+p");
  WAIT_UNTIL (find_print_dialog () != NULL, 20000);
  /* the poses were drawn on the export bar, which is gone with them */
  g_assert_cmpuint (revealed, >=, 2);
  g_assert_false (gtk_revealer_get_reveal_child (window->export_revealer));
  g_assert_null (window->printing);
  dialog = find_print_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (window));
  input_key (GTK_WIDGET (dialog), "Escape");
  WAIT_UNTIL (find_print_dialog () == NULL, 5000);
  g_assert_null (find_print_dialog ());
  /* A second Print… works after the first was cancelled: its poses are drawn on the
   * bar, and the bar's Cancel (clicked) stops it before any dialog; a long score, so
   * that the drawing is still going when the click comes */
  tmp = g_dir_make_tmp ("odori-app-print-XXXXXX", NULL);
  long_score = write_long_score (tmp, 40);
  long_file = g_file_new_for_path (long_score);
  g_assert_true (odori_window_open_score (window, long_file, NULL));
  g_assert_cmpuint (odori_document_get_score (odori_window_get_document (window))->parts->len, ==, 6);
  pump (300);
  cancelled = FALSE;
  input_key (GTK_WIDGET (window), "ctrl+p");
  WAIT_UNTIL (window->printing != NULL, 5000);
  g_assert_nonnull (window->printing);
  g_assert_true (gtk_revealer_get_reveal_child (window->export_revealer));
  g_assert_cmpstr (gtk_label_get_text (window->export_label), ==, "Drawing the poses for printing…");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_signal_connect_swapped (window->export_cancellable, "cancelled", G_CALLBACK (set_flag_cb), &cancelled);
  cancel = find_widget_by_property (GTK_WIDGET (window->export_revealer), "GtkButton", "action-name",
                                    "win.cancel-export");
  g_assert_nonnull (cancel);
  /* the click goes where the button is once the bar has slid in, not half-way */
  WAIT_UNTIL (gtk_revealer_get_child_revealed (window->export_revealer), 3000);
  g_assert_true (gtk_widget_get_mapped (cancel));
  /* were the poses drawn already, the click would test nothing */
  g_assert_nonnull (window->printing);
  click_center (cancel);
  WAIT_UNTIL (cancelled, 5000);
  g_assert_true (cancelled);
  WAIT_UNTIL (window->printing == NULL, 10000);
  pump (500);
  g_assert_null (find_print_dialog ());
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (long_score);
  g_rmdir (tmp);
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/print/export", test_print_export);
  g_test_add_func ("/app/print/ctrl-p", test_ctrl_p);
  return app_test_finish (g_test_run ());
}
