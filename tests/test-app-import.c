/* test-app-import.c: Import Capture turns a Kinect joints file into a show of the
 * library, shown in the browser and previewed; bad files and Cancel change nothing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"

#include "odori-format.h"
#include "odori-import-dialog.h"

/* A Z-up NI_JOINTS_TEXT_FILE: a figure standing and raising its right hand, N frames at
 * irregular times about 33 ms apart. */
static char *
write_capture (const char *name,
               guint       n)
{
  static const struct { const char *joint; double x, y, z; } pose[] = {
    { "PELVIS", 0, 0, 1.00 }, { "TORSO", 0, 0, 1.20 }, { "NECK", 0, 0, 1.45 }, { "HEAD", 0, 0, 1.62 },
    { "L_SHLDR", 0.18, 0, 1.42 }, { "L_ELBOW", 0.20, 0, 1.15 }, { "L_HAND", 0.22, 0, 0.92 },
    { "R_SHLDR", -0.18, 0, 1.42 }, { "R_ELBOW", -0.20, 0, 1.15 }, { "R_HAND", -0.22, 0, 0.92 },
    { "L_HIP", 0.10, 0, 0.95 }, { "L_KNEE", 0.10, 0, 0.52 }, { "L_FOOT", 0.10, 0, 0.08 },
    { "R_HIP", -0.10, 0, 0.95 }, { "R_KNEE", -0.10, 0, 0.52 }, { "R_FOOT", -0.10, 0, 0.08 },
  };
  g_autoptr(GString) text = g_string_new ("NI_JOINTS_TEXT_FILE\n");
  char *path = test_path (name);
  guint ms = 1000;

  for (guint f = 0; f < n; f++)
    {
      double lift = (double) f / (n - 1);

      g_string_append_printf (text, "%u\n", ms);
      ms += f % 2 ? 30 : 37;
      for (guint j = 0; j < G_N_ELEMENTS (pose); j++)
        {
          double x = pose[j].x, z = pose[j].z;
          char line[160];

          /* The right forearm and hand swing up. */
          if (g_str_equal (pose[j].joint, "R_HAND"))
            z += 0.5 * lift;
          if (g_str_equal (pose[j].joint, "R_ELBOW"))
            x -= 0.1 * lift;
          g_snprintf (line, sizeof line, " %-10s %11.6f %11.6f %11.6f      %11.8f %11.8f %11.8f %11.8f\n",
                      pose[j].joint, x, pose[j].y, z, 0.0, 0.0, 0.0, 1.0);
          g_string_append (text, line);
        }
    }
  write_text (path, text->str);
  return path;
}

static OdoriImportDialog *
find_import_dialog (void)
{
  GList *windows = gtk_window_list_toplevels ();
  OdoriImportDialog *found = NULL;

  for (GList *l = windows; l != NULL; l = l->next)
    if (ODORI_IS_IMPORT_DIALOG (l->data))
      found = l->data;
  g_list_free (windows);
  return found;
}

static guint
count_rows (OdoriWindow *window)
{
  return g_list_model_get_n_items (odori_library_view_get_rows (window->library_view));
}

/* /app/import/joints-file */
static void
test_import_joints (void)
{
  g_autofree char *capture = write_capture ("wave.txt", 61);
  g_autofree char *index_path = sample_path ("motion.dat");
  g_autofree char *bva = sample_path ("imp1.bva");
  g_autofree char *dat = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) written = NULL;
  OdoriImportDialog *dialog;
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriIndexMotion *preview;
  gpointer weak;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  g_assert_cmpuint (count_rows (window), ==, 20);

  g_action_group_activate_action (G_ACTION_GROUP (window), "import-capture", NULL);
  dialog = find_import_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  odori_import_dialog_set_file (dialog, capture);
  weak = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  odori_import_dialog_import (dialog);
  WAIT_UNTIL (weak == NULL, 30000);

  /* The library has a class "Imported" with the show and its motion. */
  g_assert_cmpuint (count_rows (window), ==, 23);
  g_file_get_contents (index_path, &dat, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (dat, "begin class name=\"取り込み Imported\" code=\"imported\""));
  g_assert_nonnull (strstr (dat, "begin show name=\"wave\" code=\"IMP1\" file=\"imp1.bva\""));
  written = odori_format_load_motion (bva, NULL, &error);
  g_assert_no_error (error);
  /* 60 gaps of 30 or 37 ms (2010 ms) at 30 fps. */
  g_assert_cmpuint (written->n_frames, >=, 60);
  g_assert_cmpuint (written->n_frames, <=, 62);
  g_assert_cmpfloat_with_epsilon (written->frame_time, 1.0 / 30, 1e-5);

  /* It is selected and plays alone; the dance still composes. */
  preview = odori_document_get_preview (doc);
  g_assert_nonnull (preview);
  g_assert_cmpstr (preview->code, ==, "I1");
  g_assert_cmpuint (odori_document_get_n_frames (doc), ==, written->n_frames);
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_false (odori_document_get_dirty (doc));
  {
    g_autoptr(OdoriLibraryItem) item = odori_library_view_dup_selected (window->library_view);

    g_assert_nonnull (item);
    g_assert_cmpstr (odori_library_item_get_code (item), ==, "I1");
  }

  /* A second capture joins the same class. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "import-capture", NULL);
  dialog = find_import_dialog ();
  odori_import_dialog_set_file (dialog, capture);
  weak = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  odori_import_dialog_import (dialog);
  WAIT_UNTIL (weak == NULL, 30000);
  g_assert_cmpuint (count_rows (window), ==, 25);
  g_assert_cmpstr (odori_document_get_preview (doc)->code, ==, "I2");
  g_assert_cmpuint (odori_document_get_index (doc)->classes->len, ==, 3);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file that is no capture: the error shows in the dialog, nothing changes. */
static void
test_import_bad_file (void)
{
  g_autofree char *bad = test_path ("bad.txt");
  g_autofree char *index_path = sample_path ("motion.dat");
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  OdoriImportDialog *dialog;
  OdoriWindow *window;
  GtkLabel *error_label = NULL;
  GList *labels = NULL;

  SKIP_WITHOUT_DISPLAY ();

  write_text (bad, "NI_JOINTS_TEXT_FILE\n PELVIS 0 0 oops\n");
  window = new_sample_window ();
  before = read_bytes (index_path);
  dialog = ODORI_IMPORT_DIALOG (odori_import_dialog_new (GTK_WINDOW (window), odori_window_get_document (window)));
  gtk_window_present (GTK_WINDOW (dialog));
  odori_import_dialog_set_file (dialog, bad);
  odori_import_dialog_import (dialog);

  /* The error label is the dialog's last visible label with the file's name in it. */
  labels = g_list_prepend (labels, dialog);
  while (labels != NULL)
    {
      GtkWidget *w = labels->data;

      labels = g_list_delete_link (labels, labels);
      if (GTK_IS_LABEL (w) && gtk_widget_has_css_class (w, "error"))
        error_label = GTK_LABEL (w);
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        labels = g_list_prepend (labels, c);
    }
  g_assert_nonnull (error_label);
  WAIT_UNTIL (gtk_widget_get_visible (GTK_WIDGET (error_label)), 30000);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (error_label), bad));
  after = read_bytes (index_path);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpuint (count_rows (window), ==, 20);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Closing while it reads abandons the import. */
static void
test_import_cancel (void)
{
  g_autofree char *capture = write_capture ("long.txt", 400);
  g_autofree char *index_path = sample_path ("motion.dat");
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  OdoriImportDialog *dialog;
  OdoriWindow *window;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  before = read_bytes (index_path);
  dialog = ODORI_IMPORT_DIALOG (odori_import_dialog_new (GTK_WINDOW (window), odori_window_get_document (window)));
  gtk_window_present (GTK_WINDOW (dialog));
  odori_import_dialog_set_file (dialog, capture);
  odori_import_dialog_import (dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  pump (1500);
  after = read_bytes (index_path);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpuint (count_rows (window), ==, 20);
  g_assert_null (odori_document_get_preview (odori_window_get_document (window)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/import/joints-file", test_import_joints);
  g_test_add_func ("/app/import/bad-file", test_import_bad_file);
  g_test_add_func ("/app/import/cancel", test_import_cancel);
  return app_test_finish (g_test_run ());
}
