/* test-app-import.c: Import Capture retargets a Kinect joints file or a BVH onto the
 * library's skeleton and adds it as a show, shown in the browser and previewed; the bone
 * map can be corrected in the dialog; bad files and Cancel change nothing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"
#include "compose-util.h"

#include "odori-bva.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-import-dialog.h"
#include "odori-library-import.h"
#include "odori-score.h"

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
  g_assert_nonnull (strstr (dat, "code=\"imported\""));
  g_assert_nonnull (strstr (dat, "begin show name=\"wave\" code=\"IMP1\""));
  g_clear_pointer (&bva, g_free);
  bva = odori_index_show_path (odori_document_get_index (doc),
                               odori_index_lookup (odori_document_get_index (doc), "IMP1.M1", NULL)->show);
  written = odori_format_load_motion (bva, NULL, &error);
  g_assert_no_error (error);
  /* 60 gaps of 30 or 37 ms (2010 ms) at 30 fps. */
  g_assert_cmpuint (written->n_frames, >=, 60);
  g_assert_cmpuint (written->n_frames, <=, 62);
  g_assert_cmpfloat_with_epsilon (written->frame_time, 1.0 / 30, 1e-5);

  /* It is selected and plays alone; the dance still composes. */
  preview = odori_session_get_preview (odori_window_get_session (window));
  g_assert_nonnull (preview);
  g_assert_cmpstr (preview->code, ==, ODORI_LIBRARY_IMPORT_MOTION_CODE);
  g_assert_cmpstr (preview->show->code, ==, "IMP1");
  g_assert_cmpuint (odori_session_get_n_frames (odori_window_get_session (window)), ==, written->n_frames);
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_false (odori_document_get_dirty (doc));
  {
    g_autoptr(OdoriLibraryItem) item = odori_library_view_dup_selected (window->library_view);

    g_assert_nonnull (item);
    g_assert_cmpstr (odori_library_item_get_code (item), ==, ODORI_LIBRARY_IMPORT_MOTION_CODE);
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
  g_assert_cmpstr (odori_session_get_preview (odori_window_get_session (window))->show->code, ==, "IMP2");
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
  g_assert_null (odori_session_get_preview (odori_window_get_session (window)));
  gtk_window_destroy (GTK_WINDOW (window));
}


/* A Y-up BVH in centimetres with Mixamo's names (not the sample library's): a figure
 * bending its left elbow and lifting its right arm over N frames at 30 fps. */
static char *
write_bvh (const char *name,
           guint       n)
{
  static const char *hierarchy =
    "HIERARCHY\n"
    "ROOT Hips\n{\n  OFFSET 0 0 0\n"
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT Spine\n  {\n    OFFSET 0 12 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT Neck\n    {\n      OFFSET 0 38 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      JOINT Head\n      {\n        OFFSET 0 10 0\n        CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "        End Site\n        {\n          OFFSET 0 18 0\n        }\n      }\n    }\n"
    "    JOINT LeftArm\n    {\n      OFFSET 16 34 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      JOINT LeftForeArm\n      {\n        OFFSET 28 0 0\n        CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "        JOINT LeftHand\n        {\n          OFFSET 25 0 0\n          CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "          End Site\n          {\n            OFFSET 8 0 0\n          }\n        }\n      }\n    }\n"
    "    JOINT RightArm\n    {\n      OFFSET -16 34 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      JOINT RightForeArm\n      {\n        OFFSET -28 0 0\n        CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "        JOINT RightHand\n        {\n          OFFSET -25 0 0\n          CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "          End Site\n          {\n            OFFSET -8 0 0\n          }\n        }\n      }\n    }\n"
    "  }\n"
    "  JOINT LeftUpLeg\n  {\n    OFFSET 9 -4 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT LeftLeg\n    {\n      OFFSET 0 -43 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      JOINT LeftFoot\n      {\n        OFFSET 0 -42 0\n        CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "        End Site\n        {\n          OFFSET 0 -6 14\n        }\n      }\n    }\n  }\n"
    "  JOINT RightUpLeg\n  {\n    OFFSET -9 -4 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT RightLeg\n    {\n      OFFSET 0 -43 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      JOINT RightFoot\n      {\n        OFFSET 0 -42 0\n        CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "        End Site\n        {\n          OFFSET 0 -6 14\n        }\n      }\n    }\n  }\n"
    "}\n";
  g_autoptr(GString) text = g_string_new (hierarchy);
  char *path = test_path (name);

  g_string_append_printf (text, "MOTION\nFrames: %u\nFrame Time: 0.0333333333\n", n);
  for (guint f = 0; f < n; f++)
    {
      double t = (double) f / (n - 1);

      /* Hips: position and rotation; then 15 joints of 3 rotations (Z X Y) */
      g_string_append_printf (text, "%.4f 96 0 0 0 %.4f", 10 * t, 20 * t);
      for (guint j = 0; j < 15; j++)
        {
          double z = 0, x = 0;

          if (j == 4)       /* LeftForeArm bends */
            z = 100 * t;
          else if (j == 6)  /* RightArm lifts */
            z = -70 + 120 * t;
          else if (j == 3)  /* LeftArm hangs */
            z = -70;
          else if (j == 10) /* LeftLeg */
            x = 30 * t;
          g_string_append_printf (text, " %.4f %.4f 0", z, x);
        }
      g_string_append_c (text, '\n');
    }
  write_text (path, text->str);
  return path;
}

/* Composes the sample's score against the library on disk; the BVA's bytes. */
static GBytes *
compose_sample (void)
{
  g_autofree char *dds = sample_path ("sample.dds");
  g_autofree char *out = test_path ("composed.out.bva");

  return odori_test_compose_bva (dds, out);
}

/* The Import Capture dialog of WINDOW, on CAPTURE, with its map read. */
static OdoriImportDialog *
open_dialog_with_map (OdoriWindow *window,
                      const char  *capture)
{
  OdoriImportDialog *dialog;

  g_action_group_activate_action (G_ACTION_GROUP (window), "import-capture", NULL);
  dialog = find_import_dialog ();
  g_assert_nonnull (dialog);
  odori_import_dialog_set_file (dialog, capture);
  WAIT_UNTIL (odori_import_dialog_get_map (dialog) != NULL, 30000);
  return dialog;
}

/* Imports and waits for the dialog to close; the new show's file. */
static char *
import_and_wait (OdoriWindow       *window,
                 OdoriImportDialog *dialog)
{
  OdoriDocument *doc = odori_window_get_document (window);
  gpointer weak = dialog;
  OdoriIndexMotion *preview;

  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  odori_import_dialog_import (dialog);
  WAIT_UNTIL (weak == NULL, 30000);
  preview = odori_session_get_preview (odori_window_get_session (window));
  g_assert_nonnull (preview);
  g_assert_cmpstr (preview->code, ==, ODORI_LIBRARY_IMPORT_MOTION_CODE);
  return odori_index_show_path (odori_document_get_index (doc), preview->show);
}

/* The sensor of MAP with ROLE. */
static guint
sensor_with_role (OdoriBoneMap  *map,
                  OdoriBoneRole  role)
{
  for (guint s = 0; s < odori_bone_map_get_n_sensors (map); s++)
    if (odori_bone_map_get_sensor_role (map, s) == role)
      return s;
  g_assert_not_reached ();
}

static GtkDropDown *
row_dropdown (OdoriImportDialog *dialog,
              guint              n)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (odori_import_dialog_get_map_list (dialog), (int) n);

  g_assert_nonnull (row);
  return g_object_get_data (G_OBJECT (row), "dropdown");
}

static const char *
dropdown_text (GtkDropDown *dropdown)
{
  return gtk_string_object_get_string (gtk_drop_down_get_selected_item (dropdown));
}

/* /app/import/bvh-retarget: a BVH with other names becomes a show on the library's
 * 18 sensors; the sample still composes to the same bytes. */
static void
test_import_bvh (void)
{
  g_autofree char *capture = write_bvh ("mixamo.bvh", 31);
  g_autofree char *index_path = sample_path ("motion.dat");
  g_autofree char *bva = NULL;
  g_autoptr(GBytes) composed_before = NULL;
  g_autoptr(GBytes) composed_after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) written = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  OdoriImportDialog *dialog;
  OdoriWindow *window;
  OdoriDocument *doc;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  reference = odori_library_load_reference (odori_document_get_index (doc), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (reference->n_segments, ==, 18);
  composed_before = compose_sample ();

  dialog = open_dialog_with_map (window, capture);
  bva = import_and_wait (window, dialog);
  g_assert_cmpuint (count_rows (window), ==, 23);
  g_assert_nonnull (odori_index_lookup (odori_document_get_index (doc), "IMP1.M1", NULL));

  written = odori_format_load_motion (bva, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (written->n_segments, ==, reference->n_segments);
  for (guint s = 0; s < reference->n_segments; s++)
    g_assert_cmpstr (written->segments[s].name, ==, reference->segments[s].name);
  g_assert_cmpuint (written->n_frames, ==, 31);
  g_assert_cmpfloat_with_epsilon (written->frame_time, 1.0 / 30, 1e-5);

  composed_after = compose_sample ();
  g_assert_true (g_bytes_equal (composed_before, composed_after));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/import/bone-map: a row per library sensor, the guess selected; a changed row
 * changes the map and the imported motion. */
static void
test_import_bone_map (void)
{
  g_autofree char *capture = write_bvh ("mixamo2.bvh", 31);
  g_autofree char *guessed_bva = NULL;
  g_autofree char *changed_bva = NULL;
  g_autoptr(GBytes) guessed = NULL;
  g_autoptr(GBytes) changed = NULL;
  OdoriImportDialog *dialog;
  OdoriWindow *window;
  OdoriBoneMap *map;
  guint n_sensors, forearm, hips;
  GtkDropDown *dropdown;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  dialog = open_dialog_with_map (window, capture);
  map = odori_import_dialog_get_map (dialog);
  n_sensors = odori_bone_map_get_n_sensors (map);
  g_assert_cmpuint (n_sensors, ==, 18);
  g_assert_nonnull (gtk_list_box_get_row_at_index (odori_import_dialog_get_map_list (dialog), (int) n_sensors - 1));
  g_assert_null (gtk_list_box_get_row_at_index (odori_import_dialog_get_map_list (dialog), (int) n_sensors));
  /* "(none)" and the capture's 16 joints */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (row_dropdown (dialog, 0))), ==, 17);
  for (guint s = 0; s < n_sensors; s++)
    {
      const char *source = odori_bone_map_get_source (map, s);

      if (source != NULL)
        g_assert_cmpstr (dropdown_text (row_dropdown (dialog, s)), ==, source);
      else
        g_assert_cmpuint (gtk_drop_down_get_selected (row_dropdown (dialog, s)), ==, 0);
    }
  hips = sensor_with_role (map, ODORI_BONE_ROLE_HIPS);
  forearm = sensor_with_role (map, ODORI_BONE_ROLE_LEFT_FOREARM);
  g_assert_cmpstr (odori_bone_map_get_source (map, hips), ==, "Hips");
  g_assert_cmpstr (odori_bone_map_get_source (map, forearm), ==, "LeftForeArm");
  g_assert_cmpstr (dropdown_text (row_dropdown (dialog, forearm)), ==, "LeftForeArm");
  guessed_bva = import_and_wait (window, dialog);
  guessed = read_bytes (guessed_bva);

  /* The left forearm follows nothing: it keeps its parent's turn, no elbow bend. */
  dialog = open_dialog_with_map (window, capture);
  map = odori_import_dialog_get_map (dialog);
  dropdown = row_dropdown (dialog, forearm);
  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_null (odori_bone_map_get_source (map, forearm));
  /* Choosing the hips joint for it moves the joint: the hips row shows "(none)". */
  for (guint i = 1; i < g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (dropdown)), i), "Hips"))
      gtk_drop_down_set_selected (dropdown, i);
  g_assert_cmpstr (odori_bone_map_get_source (map, forearm), ==, "Hips");
  g_assert_null (odori_bone_map_get_source (map, hips));
  g_assert_cmpuint (gtk_drop_down_get_selected (row_dropdown (dialog, hips)), ==, 0);
  /* Back as guessed for the hips, none for the forearm. */
  gtk_drop_down_set_selected (row_dropdown (dialog, hips), gtk_drop_down_get_selected (dropdown));
  g_assert_cmpstr (odori_bone_map_get_source (map, hips), ==, "Hips");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  changed_bva = import_and_wait (window, dialog);
  g_assert_cmpstr (changed_bva, !=, guessed_bva);
  changed = read_bytes (changed_bva);
  g_assert_false (g_bytes_equal (guessed, changed));
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkDialog *
find_message_dialog (void)
{
  GList *windows = gtk_window_list_toplevels ();
  GtkDialog *found = NULL;

  for (GList *l = windows; l != NULL; l = l->next)
    if (GTK_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (windows);
  return found;
}

/* /app/import/remove-show: importing then removing the show gives motion.dat back byte
 * for byte; Undo brings the show back; Cancel in the question changes nothing. */
static void
test_remove_show (void)
{
  g_autofree char *capture = write_bvh ("mixamo3.bvh", 11);
  g_autofree char *index_path = sample_path ("motion.dat");
  g_autofree char *bva = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) imported = NULL;
  g_autoptr(GBytes) now = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  GtkDialog *question;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  original = read_bytes (index_path);
  bva = import_and_wait (window, open_dialog_with_map (window, capture));
  imported = read_bytes (index_path);
  g_assert_false (g_bytes_equal (original, imported));
  g_assert_cmpuint (count_rows (window), ==, 23);

  /* The library view offers it for the selected (imported) motion's show. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "remove-show"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo-remove-show"));

  /* Cancel keeps it. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "remove-show", g_variant_new_string ("IMP1"));
  question = find_message_dialog ();
  g_assert_nonnull (question);
  gtk_dialog_response (question, GTK_RESPONSE_CANCEL);
  pump (50);
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, imported));
  g_clear_pointer (&now, g_bytes_unref);

  g_action_group_activate_action (G_ACTION_GROUP (window), "remove-show", g_variant_new_string ("IMP1"));
  question = find_message_dialog ();
  g_assert_nonnull (question);
  gtk_dialog_response (question, GTK_RESPONSE_ACCEPT);
  pump (50);
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);
  g_assert_null (odori_index_lookup (odori_document_get_index (doc), "IMP1.M1", NULL));
  g_assert_cmpuint (count_rows (window), ==, 20);
  /* The show file stays on disk. */
  g_assert_true (g_file_test (bva, G_FILE_TEST_EXISTS));

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo-remove-show"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo-remove-show", NULL);
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, imported));
  g_assert_nonnull (odori_index_lookup (odori_document_get_index (doc), "IMP1.M1", NULL));
  g_assert_cmpuint (count_rows (window), ==, 23);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo-remove-show"));
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
  g_test_add_func ("/app/import/bvh-retarget", test_import_bvh);
  g_test_add_func ("/app/import/bone-map", test_import_bone_map);
  g_test_add_func ("/app/import/remove-show", test_remove_show);
  return app_test_finish (g_test_run ());
}
