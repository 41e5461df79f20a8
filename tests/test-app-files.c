/* test-app-files.c: open → save → reopen gives an equal score, the file's encoding is
 * kept, export writes what `odori-cli compose` writes, and autosaves are recovered
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"

#include "odori-score.h"

static void
assert_scores_equal (OdoriScore *a,
                     OdoriScore *b)
{
  g_autofree char *index_a = odori_score_dup_index_path (a);
  g_autofree char *index_b = odori_score_dup_index_path (b);

  g_assert_cmpstr (a->title, ==, b->title);
  g_assert_cmpstr (a->author, ==, b->author);
  g_assert_cmpstr (a->date, ==, b->date);
  g_assert_cmpint (a->blend, ==, b->blend);
  g_assert_cmpfloat (a->frame_time, ==, b->frame_time);
  g_assert_cmpint (a->encoding, ==, b->encoding);
  g_assert_cmpstr (index_a, ==, index_b);
  g_assert_cmpuint (a->header_lines->len, ==, b->header_lines->len);
  for (guint i = 0; i < a->header_lines->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a->header_lines, i), ==, g_ptr_array_index (b->header_lines, i));
  g_assert_cmpuint (a->parts->len, ==, b->parts->len);
  for (guint p = 0; p < a->parts->len; p++)
    {
      OdoriScorePart *pa = g_ptr_array_index (a->parts, p);
      OdoriScorePart *pb = g_ptr_array_index (b->parts, p);

      g_assert_cmpstr (pa->code, ==, pb->code);
      g_assert_true (g_strv_equal ((const char * const *) pa->sensors, (const char * const *) pb->sensors));
      g_assert_cmpuint (pa->symbols->len, ==, pb->symbols->len);
      for (guint s = 0; s < pa->symbols->len; s++)
        {
          OdoriScoreSymbol *sa = &g_array_index (pa->symbols, OdoriScoreSymbol, s);
          OdoriScoreSymbol *sb = &g_array_index (pb->symbols, OdoriScoreSymbol, s);

          g_assert_cmpuint (sa->start, ==, sb->start);
          g_assert_cmpstr (sa->symbol, ==, sb->symbol);
        }
    }
}

/* /app/files/save-reopen-equal */
static void
test_save_reopen_equal (void)
{
  g_autofree char *dir = test_path ("scores");
  g_autofree char *first = g_build_filename (dir, "first.dds", NULL);
  g_autofree char *second = g_build_filename (dir, "second.dds", NULL);
  g_autofree char *sample_dds = sample_path ("sample.dds");
  g_autoptr(GFile) first_file = g_file_new_for_path (first);
  g_autoptr(GFile) second_file = g_file_new_for_path (second);
  g_autoptr(OdoriScore) original = NULL;
  g_autoptr(OdoriScore) reread = NULL;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) recent = NULL;
  OdoriWindow *window, *again;

  SKIP_WITHOUT_DISPLAY ();

  g_mkdir_with_parents (dir, 0700);
  window = new_sample_window ();
  g_assert_true (odori_window_save_to (window, first_file));
  g_assert_cmpstr (odori_document_get_path (odori_window_get_document (window)), ==, first);
  g_assert_false (odori_document_get_is_sample (odori_window_get_document (window)));
  g_assert_cmpstr (gtk_label_get_text (window->title_label), ==, "春の小品 (Spring Sketch)");

  /* Reopened: the same score, naming the same library (relative to its new place). */
  again = odori_window_new (GTK_APPLICATION (test_app));
  g_assert_true (odori_window_open_score (again, first_file, NULL));
  original = odori_score_load (sample_dds, &error);
  g_assert_no_error (error);
  reread = odori_score_load (first, &error);
  g_assert_no_error (error);
  g_assert_false (g_path_is_absolute (reread->index_path));
  assert_scores_equal (original, reread);
  assert_scores_equal (original, odori_document_get_score (odori_window_get_document (again)));
  g_assert_nonnull (odori_document_get_motion (odori_window_get_document (again)));

  /* Saving the reopened score writes the same bytes. */
  g_assert_true (odori_window_save_to (again, second_file));
  a = read_bytes (first);
  b = read_bytes (second);
  g_assert_true (g_bytes_equal (a, b));

  /* Both are recent, newest first. */
  recent = g_settings_get_strv (again->settings, "recent-files");
  g_assert_cmpstr (recent[0], ==, second);
  g_assert_cmpstr (recent[1], ==, first);
  gtk_window_destroy (GTK_WINDOW (again));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A Shift_JIS score stays Shift_JIS. */
static void
test_keeps_encoding (void)
{
  g_autofree char *sample_dds = sample_path ("sample.dds");
  g_autofree char *index = sample_path ("motion.dat");
  g_autofree char *sjis = test_path ("sjis.dds");
  g_autofree char *saved = test_path ("sjis-saved.dds");
  g_autoptr(GFile) sjis_file = g_file_new_for_path (sjis);
  g_autoptr(GFile) saved_file = g_file_new_for_path (saved);
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriScore) reread = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  OdoriWindow *window;

  SKIP_WITHOUT_DISPLAY ();

  score = odori_score_load (sample_dds, &error);
  g_assert_no_error (error);
  score->encoding = ODORI_ENCODING_SHIFT_JIS;
  g_free (score->index_path);
  score->index_path = g_strdup (index);
  g_assert_true (odori_score_save (score, sjis, &error));
  g_assert_no_error (error);

  window = odori_window_new (GTK_APPLICATION (test_app));
  g_assert_true (odori_window_open_score (window, sjis_file, NULL));
  g_assert_cmpstr (odori_document_get_score (odori_window_get_document (window))->title, ==,
                   "春の小品 (Spring Sketch)");
  g_assert_true (odori_window_save_to (window, saved_file));
  bytes = read_bytes (saved);
  g_assert_false (g_utf8_validate (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  reread = odori_score_load (saved, &error);
  g_assert_no_error (error);
  g_assert_cmpint (reread->encoding, ==, ODORI_ENCODING_SHIFT_JIS);
  assert_scores_equal (score, reread);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
run_cli_compose (const char *score,
                 const char *output)
{
  const char *cli = g_getenv ("ODORI_CLI");
  const char *argv[] = { cli, "compose", score, "-o", output, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_nonnull (cli);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("odori-cli compose failed: %s", err);
}

/* Export (in the background, with progress) writes byte for byte what
 * `odori-cli compose` writes, for BVA and BVH. */
static void
test_export_equals_cli (void)
{
  static const char *extensions[] = { ".bva", ".bvh" };
  g_autofree char *sample_dds = sample_path ("sample.dds");
  OdoriWindow *window;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
    {
      g_autofree char *cli_name = g_strconcat ("cli", extensions[i], NULL);
      g_autofree char *win_name = g_strconcat ("window", extensions[i], NULL);
      g_autofree char *cli_out = test_path (cli_name);
      g_autofree char *win_out = test_path (win_name);
      g_autoptr(GFile) file = g_file_new_for_path (win_out);
      g_autoptr(GBytes) a = NULL;
      g_autoptr(GBytes) b = NULL;
      ExportResult r = { 0 };

      run_cli_compose (sample_dds, cli_out);
      odori_window_export (window, file, export_cb, &r);
      g_assert_true (gtk_revealer_get_reveal_child (window->export_revealer));
      g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
      g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "cancel-export"));
      WAIT_UNTIL (r.done, 60000);
      g_assert_no_error (r.error);
      g_assert_true (r.ok);
      g_assert_false (gtk_revealer_get_reveal_child (window->export_revealer));
      g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));

      a = read_bytes (cli_out);
      b = read_bytes (win_out);
      g_assert_cmpuint (g_bytes_get_size (a), >, 100000);
      g_assert_cmpuint (g_bytes_get_size (a), ==, g_bytes_get_size (b));
      g_assert_true (g_bytes_equal (a, b));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Cancel: the export stops, no file appears, no error is shown. The export runs in a
 * thread and the sample is short, so the cancel may come after the file was committed:
 * then it is reported written, never "cancelled" with a file on disk. */
static void
test_export_cancel (void)
{
  g_autofree char *out = test_path ("cancelled.bva");
  g_autoptr(GFile) file = g_file_new_for_path (out);
  OdoriWindow *window;
  ExportResult r = { 0 };

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  odori_window_export (window, file, export_cb, &r);
  g_action_group_activate_action (G_ACTION_GROUP (window), "cancel-export", NULL);
  WAIT_UNTIL (r.done, 60000);
  if (r.ok)
    {
      g_test_message ("the export finished before the cancel reached it");
      g_assert_no_error (r.error);
      g_assert_true (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  else
    {
      g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&r.error);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_false (gtk_revealer_get_reveal_child (window->export_revealer));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* An unwritable target: the error shows in the window. */
static void
test_export_error (void)
{
  g_autofree char *out = test_path ("no/such/dir/x.bva");
  g_autoptr(GFile) file = g_file_new_for_path (out);
  OdoriWindow *window;
  ExportResult r = { 0 };

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  odori_window_export (window, file, export_cb, &r);
  WAIT_UNTIL (r.done, 60000);
  g_assert_false (r.ok);
  g_clear_error (&r.error);
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_cmpstr (gtk_label_get_text (window->error_title), ==, "Cannot export “x.bva”");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Work autosaved before a crash is offered at the next start and comes back dirty. */
static void
test_autosave_recover (void)
{
  g_autoptr(GPtrArray) found = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScorePart *part;
  OdoriScoreSymbol *last;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  part = g_ptr_array_index (odori_document_get_score (doc)->parts, 0);
  g_assert_true (odori_score_part_add_symbol (part, 660, "B2"));
  odori_document_score_changed (doc);
  g_assert_true (odori_autosave_save (odori_application_get_autosave (test_app), doc, NULL));
  /* Alive documents' autosaves are not orphans. */
  found = odori_autosave_list_orphans (odori_application_get_autosave (test_app));
  g_assert_cmpuint (found->len, ==, 0);
  g_clear_pointer (&found, g_ptr_array_unref);
  /* "Crash": the window goes without asking. */
  gtk_window_destroy (GTK_WINDOW (window));
  found = odori_autosave_list_orphans (odori_application_get_autosave (test_app));
  g_assert_cmpuint (found->len, ==, 1);

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  odori_window_offer_recovery (window);
  g_assert_true (gtk_info_bar_get_revealed (window->recover_bar));
  g_assert_nonnull (strstr (gtk_label_get_text (window->recover_label), "春の小品 (Spring Sketch)"));
  gtk_info_bar_response (window->recover_bar, 1);
  g_assert_false (gtk_info_bar_get_revealed (window->recover_bar));
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (odori_document_get_is_sample (doc));
  part = g_ptr_array_index (odori_document_get_score (doc)->parts, 0);
  last = &g_array_index (part->symbols, OdoriScoreSymbol, part->symbols->len - 1);
  g_assert_cmpuint (last->start, ==, 660);
  g_assert_cmpstr (last->symbol, ==, "B2");
  g_assert_nonnull (odori_document_get_motion (doc));

  /* Discarding on close removes it for good. */
  gtk_window_close (GTK_WINDOW (window));
  gtk_dialog_response (GTK_DIALOG (window->close_dialog), GTK_RESPONSE_REJECT);
  pump (50);
  g_clear_pointer (&found, g_ptr_array_unref);
  found = odori_autosave_list_orphans (odori_application_get_autosave (test_app));
  g_assert_cmpuint (found->len, ==, 0);
}

/* Opening a library in the untouched sample window starts a new score for it. */
static void
test_open_library (void)
{
  g_autofree char *index = sample_path ("motion.dat");
  g_autoptr(GFile) file = g_file_new_for_path (index);
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScore *score;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  g_assert_true (odori_window_open_library (window, file));
  score = odori_document_get_score (doc);
  g_assert_cmpuint (score->parts->len, ==, 6);
  for (guint p = 0; p < score->parts->len; p++)
    g_assert_cmpuint (((OdoriScorePart *) g_ptr_array_index (score->parts, p))->symbols->len, ==, 0);
  g_assert_false (odori_document_get_is_sample (doc));
  g_assert_null (odori_document_get_path (doc));
  /* Nothing placed yet: the body holds the library's first pose. */
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_cmpuint (g_list_model_get_n_items (odori_library_view_get_rows (window->library_view)), ==, 20);
  g_assert_cmpstr (gtk_label_get_text (window->subtitle_label), ==, "Not saved yet");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Open in the background: the progress bar shows while the score is read and composed,
 * the document changes only when it is done; a file that cannot be read is said in the
 * window and changes nothing; Cancel stops it and says nothing. */
typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
  guint     fractions;
} OpenResult;

static void
open_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  OpenResult *r = user_data;

  r->ok = odori_window_open_finish (ODORI_WINDOW (source), result, &r->error);
  r->done = TRUE;
}

static void
on_fraction_cb (GObject    *object,
                GParamSpec *pspec,
                gpointer    user_data)
{
  ((OpenResult *) user_data)->fractions++;
}

static void
test_open_async (void)
{
  g_autofree char *dir = test_path ("async");
  g_autofree char *path = g_build_filename (dir, "async.dds", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.dds", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScore *before;
  OpenResult r = { 0 };

  SKIP_WITHOUT_DISPLAY ();

  g_mkdir_with_parents (dir, 0700);
  window = new_sample_window ();
  doc = odori_window_get_document (window);
  g_assert_true (odori_window_save_to (window, file));
  g_assert_true (odori_window_load_sample (window));
  before = odori_document_get_score (doc);
  g_signal_connect (doc, "notify::fraction", G_CALLBACK (on_fraction_cb), &r);

  odori_window_open_async (window, file, NULL, open_cb, &r);
  g_assert_true (gtk_revealer_get_reveal_child (window->open_revealer));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "cancel-open"));
  g_assert_cmpstr (gtk_label_get_text (window->open_label), ==, "Opening “async.dds”…");
  g_assert_true (odori_document_get_score (doc) == before); /* not yet */
  WAIT_UNTIL (r.done, 60000);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpuint (r.fractions, >, 0);
  g_assert_false (gtk_revealer_get_reveal_child (window->open_revealer));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "cancel-open"));
  g_assert_cmpstr (odori_document_get_path (doc), ==, path);
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));

  /* A file that is not a score: said, with its name; the score open stays. */
  g_assert_true (g_file_set_contents (bad, "HIERARCHY\nROOT Hips\n", -1, NULL));
  before = odori_document_get_score (doc);
  r = (OpenResult) { 0 };
  odori_window_open_async (window, bad_file, NULL, open_cb, &r);
  WAIT_UNTIL (r.done, 60000);
  g_assert_false (r.ok);
  g_clear_error (&r.error);
  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_cmpstr (gtk_label_get_text (window->error_title), ==, "Cannot open “bad.dds”");
  g_assert_true (odori_document_get_score (doc) == before);
  g_assert_cmpstr (odori_document_get_path (doc), ==, path);
  _odori_window_hide_error (window);

  /* Cancel: nothing said, nothing changed (unless it was already done). */
  r = (OpenResult) { 0 };
  odori_window_open_async (window, file, NULL, open_cb, &r);
  g_action_group_activate_action (G_ACTION_GROUP (window), "cancel-open", NULL);
  WAIT_UNTIL (r.done, 60000);
  if (!r.ok)
    {
      g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_true (odori_document_get_score (doc) == before);
    }
  g_clear_error (&r.error);
  g_assert_false (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_false (gtk_revealer_get_reveal_child (window->open_revealer));
  g_signal_handlers_disconnect_by_func (doc, on_fraction_cb, &r);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* While unsaved, the score is autosaved within a few seconds, by itself. */
static void
test_autosave_timer (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "odori", "autosave", NULL);
  OdoriWindow *window;
  OdoriDocument *doc;
  OdoriScorePart *part;
  gboolean found = FALSE;
  gint64 start;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  doc = odori_window_get_document (window);
  part = g_ptr_array_index (odori_document_get_score (doc)->parts, 1);
  g_assert_true (odori_score_part_add_symbol (part, 661, "B2"));
  odori_document_score_changed (doc);
  start = g_get_monotonic_time ();
  while (!found && g_get_monotonic_time () - start < (ODORI_AUTOSAVE_SECONDS + 3) * G_USEC_PER_SEC)
    {
      g_autoptr(GDir) d = NULL;
      const char *name;

      pump (250);
      d = g_dir_open (dir, 0, NULL);
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".dds"))
          {
            g_autofree char *path = g_build_filename (dir, name, NULL);
            g_autofree char *text = NULL;

            g_file_get_contents (path, &text, NULL, NULL);
            found = text != NULL && strstr (text, "661: B2") != NULL;
          }
    }
  g_assert_true (found);
  /* Saving removes it. */
  {
    g_autofree char *path = test_path ("timer.dds");
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GDir) d = NULL;
    const char *name;

    g_assert_true (odori_window_save_to (window, file));
    d = g_dir_open (dir, 0, NULL);
    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      g_assert_false (g_str_has_suffix (name, ".dds"));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/files/save-reopen-equal", test_save_reopen_equal);
  g_test_add_func ("/app/files/keeps-encoding", test_keeps_encoding);
  g_test_add_func ("/app/files/export-equals-cli", test_export_equals_cli);
  g_test_add_func ("/app/files/export-cancel", test_export_cancel);
  g_test_add_func ("/app/files/export-error", test_export_error);
  g_test_add_func ("/app/files/autosave-recover", test_autosave_recover);
  g_test_add_func ("/app/files/autosave-timer", test_autosave_timer);
  g_test_add_func ("/app/files/open-library", test_open_library);
  g_test_add_func ("/app/files/open-async", test_open_async);
  return app_test_finish (g_test_run ());
}
