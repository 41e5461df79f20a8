/* test-app-open.c: Open decides by content, a score that does not compose still shows
 * (its message with file:line, its blocks, a body), New Score by Ctrl+N, and the title
 * edited with real keys (undoable). Real X events through app-input-util.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-input-util.h"

#include "odori-import-dialog.h"
#include "odori-score-properties.h"

typedef struct
{
  gboolean done;
  gboolean ok;
  GError  *error;
} OpenResult;

static void
open_file_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  OpenResult *r = user_data;

  r->ok = odori_window_open_file_finish (ODORI_WINDOW (source), result, &r->error);
  r->done = TRUE;
}

/* Opens PATH in WINDOW by content and waits for it; returns whether it worked. */
static gboolean
open_file (OdoriWindow *window,
           const char  *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  OpenResult r = { 0 };

  odori_window_open_file_async (window, file, open_file_cb, &r);
  WAIT_UNTIL (r.done, 60000);
  g_clear_error (&r.error);
  pump (100);
  return r.ok;
}

static GtkWindow *
find_toplevel (GType type)
{
  GList     *windows = gtk_window_list_toplevels ();
  GtkWindow *found = NULL;

  for (GList *l = windows; l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (windows);
  return found;
}

static guint
count_odori_windows (void)
{
  return g_list_length (gtk_application_get_windows (GTK_APPLICATION (test_app)));
}

/* The sample score with line LINE replaced by TEXT, written beside the sample as NAME
 * (so that "# Index: motion.dat" finds the sample library). */
static char *
write_sample_variant (const char *name,
                      guint       line,
                      const char *text)
{
  g_autofree char *sample = sample_path ("sample.dds");
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *joined = NULL;
  char            *path = sample_path (name);

  g_assert_true (g_file_get_contents (sample, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, line);
  g_free (lines[line - 1]);
  lines[line - 1] = g_strdup (text);
  joined = g_strjoinv ("\n", lines);
  write_text (path, joined);
  return path;
}

/* /app/open/not-composing: the message names file:line, the blocks are there (a real
 * click selects one), the viewport has a body to show and the counter says 1 / 1. */
static void
test_not_composing (void)
{
  g_autofree char *wrong = NULL;
  g_autofree char *big = NULL;
  g_autofree char *expect = NULL;
  OdoriWindow     *window;
  OdoriDocument   *doc;
  OdoriSession    *session;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  session = odori_window_get_session (window);
  /* line 15 of the sample is "193: W1" on track HD */
  wrong = write_sample_variant ("wrong.dds", 15, "193: ZZ9");
  g_assert_true (open_file (window, wrong));
  g_assert_cmpstr (odori_document_get_path (doc), ==, wrong);
  g_assert_null (odori_document_get_motion (doc));
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  expect = g_strdup_printf ("%s:15: unknown dance symbol \"ZZ9\"", wrong);
  g_assert_cmpstr (gtk_label_get_text (window->error_message), ==, expect);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  /* a body: the library's first pose, one frame */
  g_assert_nonnull (odori_session_get_display_motion (session));
  g_assert_nonnull (odori_session_get_display_skeleton (session));
  g_assert_cmpuint (odori_session_get_n_frames (session), ==, 1);
  g_assert_true (g_str_has_prefix (gtk_inscription_get_text (window->frame_label), "1 / 1"));
  /* the blocks: C1 at frame 1 of track HD (1) is there to click */
  /* the layout settled (the info bar and the library pane animate in) */
  pump (500);
  odori_timeline_zoom_fit (window->timeline);
  pump (200);
  input_click (GTK_WIDGET (window->timeline), odori_timeline_x_for_frame (window->timeline, 20),
               odori_timeline_y_for_track (window->timeline, 1), 1, 1);
  g_assert_cmpuint (odori_timeline_get_n_selected (window->timeline), ==, 1);
  g_assert_true (odori_timeline_is_selected (window->timeline, 1, 1));

  /* a start frame that makes the dance too long: named by file and line too */
  _odori_window_hide_error (window);
  big = write_sample_variant ("big.dds", 15, "2147483647: W1");
  g_assert_true (open_file (window, big));
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("%s:15: symbol W1 at frame 2147483647", big);
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (window->error_message), expect));
  g_assert_cmpuint (odori_session_get_n_frames (session), ==, 1);
  g_assert_true (g_str_has_prefix (gtk_inscription_get_text (window->frame_label), "1 / 1"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/open/by-content: a score opens, motion.dat opens as the library, a BVH goes to
 * Import Capture, anything else is said with the file's name; whatever the extension. */
static void
test_by_content (void)
{
  g_autofree char *dir = test_path ("by-content");
  g_autofree char *score = g_build_filename (dir, "dance.txt", NULL);
  /* beside the sample's show files */
  g_autofree char *library = sample_path ("library.dds");
  g_autofree char *bvh = g_build_filename (dir, "take.dds", NULL);
  g_autofree char *garbage = g_build_filename (dir, "garbage.dds", NULL);
  g_autofree char *sample_lib = sample_path ("motion.dat");
  g_autofree char *sample_dds = sample_path ("sample.dds");
  g_autofree char *contents = NULL;
  g_autofree char *expect = NULL;
  g_autofree char *score_text = NULL;
  OdoriWindow     *window;
  OdoriDocument   *doc;
  GtkWindow       *import;

  SKIP_WITHOUT_DISPLAY ();

  g_mkdir_with_parents (dir, 0700);
  window = new_sample_window ();
  doc = odori_window_get_document (window);

  /* a score, named like anything */
  g_assert_true (g_file_get_contents (sample_dds, &contents, NULL, NULL));
  score_text = g_strdup_printf ("# Index: %s\n%s", sample_lib, strstr (contents, "BD:"));
  write_text (score, score_text);
  g_assert_true (open_file (window, score));
  g_assert_cmpstr (odori_document_get_path (doc), ==, score);
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));

  /* motion.dat, named like a score: Open Library (the score is composed against it) */
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (sample_lib, &contents, NULL, NULL));
  write_text (library, contents);
  g_assert_true (open_file (window, library));
  g_assert_cmpstr (odori_document_get_index (doc)->path, ==, library);
  g_assert_cmpstr (odori_document_get_path (doc), ==, score);
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));

  /* a BVH: Import Capture with the file chosen; the score stays */
  write_text (bvh, "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition "
                   "Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 10 0\n  }\n}\n"
                   "MOTION\nFrames: 2\nFrame Time: 0.033333\n0 0 0 0 0 0\n0 0 0 0 10 0\n");
  g_assert_null (find_toplevel (ODORI_TYPE_IMPORT_DIALOG));
  g_assert_true (open_file (window, bvh));
  import = find_toplevel (ODORI_TYPE_IMPORT_DIALOG);
  g_assert_nonnull (import);
  g_assert_true (gtk_window_get_transient_for (import) == GTK_WINDOW (window));
  g_assert_cmpstr (odori_document_get_index (doc)->path, ==, library);
  gtk_window_destroy (import);
  pump (100);

  /* garbage: said in the window, with the file's name and line; nothing else changes */
  write_text (garbage, "DDS \x7c garbage that is no score\n");
  g_assert_false (open_file (window, garbage));
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_cmpstr (gtk_label_get_text (window->error_title), ==, "Cannot open “garbage.dds”");
  expect = g_strdup_printf ("%s:1:", garbage);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (window->error_message), expect));
  g_assert_cmpstr (odori_document_get_index (doc)->path, ==, library);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/open/new-score: Ctrl+N, a real key: an empty score for the library, here while
 * the window is untouched, in a new window once it holds work. */
static void
test_new_score (void)
{
  OdoriWindow   *window;
  OdoriDocument *doc;
  OdoriScore    *score;
  OdoriIndex    *index;
  guint          windows;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  index = odori_document_get_index (doc);
  pump (200);
  input_key (GTK_WIDGET (window), "ctrl+n");
  score = odori_document_get_score (doc);
  g_assert_false (odori_document_get_is_sample (doc));
  g_assert_null (odori_document_get_path (doc));
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_true (odori_document_get_index (doc) == index);
  g_assert_cmpuint (score->parts->len, ==, index->parts->len);
  for (guint p = 0; p < score->parts->len; p++)
    g_assert_cmpuint (((OdoriScorePart *) g_ptr_array_index (score->parts, p))->symbols->len, ==, 0);
  g_assert_nonnull (score->date);
  g_assert_null (score->title);
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "Untitled score");
  g_assert_cmpstr (gtk_label_get_text (window->subtitle_label), ==, "Not saved yet");
  g_assert_nonnull (odori_document_get_motion (doc));

  /* with work in it, Ctrl+N leaves it and opens another window */
  g_assert_true (odori_timeline_insert (window->timeline, 0, 1, "S1", NULL));
  g_assert_true (odori_document_get_dirty (doc));
  windows = count_odori_windows ();
  input_key (GTK_WIDGET (window), "ctrl+n");
  g_assert_cmpuint (count_odori_windows (), ==, windows + 1);
  g_assert_true (odori_document_get_score (doc) == score);
  g_assert_true (odori_document_get_dirty (doc));
  odori_document_set_dirty (doc, FALSE);
  destroy_all_windows ();
}

/* /app/open/title-by-keys: a click on the title opens Score Properties; the title typed
 * with real keys and Return changes the title shown, marks the score changed, and
 * Ctrl+Z takes it back. */
static void
test_title_by_keys (void)
{
  OdoriWindow   *window;
  OdoriDocument *doc;
  GtkWindow     *dialog;
  GtkWidget     *title_box;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  pump (300);
  title_box = gtk_widget_get_parent (GTK_WIDGET (window->title_label));
  input_click (title_box, gtk_widget_get_width (title_box) / 2.0, gtk_widget_get_height (title_box) / 2.0, 1, 1);
  WAIT_UNTIL (find_toplevel (ODORI_TYPE_SCORE_PROPERTIES) != NULL, 5000);
  dialog = find_toplevel (ODORI_TYPE_SCORE_PROPERTIES);
  pump (300);
  input_key (GTK_WIDGET (dialog), "ctrl+a");
  input_type (GTK_WIDGET (dialog), "Hanami");
  input_key (GTK_WIDGET (dialog), "Tab");
  input_key (GTK_WIDGET (dialog), "ctrl+a");
  input_type (GTK_WIDGET (dialog), "Sakura");
  input_key (GTK_WIDGET (dialog), "Return");
  WAIT_UNTIL (find_toplevel (ODORI_TYPE_SCORE_PROPERTIES) == NULL, 5000);
  g_assert_cmpstr (odori_document_get_score (doc)->title, ==, "Hanami");
  g_assert_cmpstr (odori_document_get_score (doc)->author, ==, "Sakura");
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "• Hanami");
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_cmpstr (odori_undo_get_undo_label (window->undo), ==, "Score Properties");

  input_key (GTK_WIDGET (window), "ctrl+z");
  g_assert_cmpstr (odori_document_get_score (doc)->title, ==, "春の小品 (Spring Sketch)");
  g_assert_cmpstr (odori_document_get_score (doc)->author, ==, "Odori");
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "春の小品 (Spring Sketch)");
  g_assert_false (odori_document_get_dirty (doc));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/open/not-composing", test_not_composing);
  g_test_add_func ("/app/open/by-content", test_by_content);
  g_test_add_func ("/app/open/new-score", test_new_score);
  g_test_add_func ("/app/open/title-by-keys", test_title_by_keys);
  return app_test_finish (g_test_run ());
}
