/* test-session.c: the session layer without a display: document, undo, session, autosave
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests run in XDG directories of their own, under a temporary directory removed at
 * the end: the sample library is written into its cache, autosaves into its state
 * directory. (Not G_TEST_OPTION_ISOLATE_DIRS: GLib 2.74 leaks the directories it sets
 * for every test, which LeakSanitizer reports without a usable stack.)
 */
#include "config.h"

#include <string.h>

#include "compose-util.h"
#include "odori-autosave.h"
#include "odori-beats.h"
#include "odori-document.h"
#include "odori-export.h"
#include "odori-session.h"
#include "odori-undo.h"

typedef struct
{
  guint  n_changed;
  guint  first;
  guint  last;
  char **parts;
  guint  n_score;
  guint  n_dirty;
} Seen;

static void
on_changed_cb (OdoriDocument *doc,
               guint          first,
               guint          last,
               char         **parts,
               Seen          *seen)
{
  seen->n_changed++;
  seen->first = first;
  seen->last = last;
  g_strfreev (seen->parts);
  seen->parts = g_strdupv (parts);
}

static void
on_score_cb (OdoriDocument *doc,
             GParamSpec    *pspec,
             Seen          *seen)
{
  seen->n_score++;
}

static void
on_dirty_cb (OdoriDocument *doc,
             GParamSpec    *pspec,
             Seen          *seen)
{
  seen->n_dirty++;
}

static void
watch (OdoriDocument *doc,
       Seen          *seen)
{
  g_signal_connect (doc, "changed", G_CALLBACK (on_changed_cb), seen);
  g_signal_connect (doc, "notify::score", G_CALLBACK (on_score_cb), seen);
  g_signal_connect (doc, "notify::dirty", G_CALLBACK (on_dirty_cb), seen);
}

static void
seen_reset (Seen *seen)
{
  g_clear_pointer (&seen->parts, g_strfreev);
  memset (seen, 0, sizeof *seen);
}

static OdoriDocument *
sample_document (void)
{
  g_autoptr(GError) error = NULL;
  OdoriDocument *doc = odori_document_new ();

  g_assert_true (odori_document_load_sample (doc, &error));
  g_assert_no_error (error);
  g_assert_nonnull (odori_document_get_motion (doc));
  g_assert_false (odori_document_get_dirty (doc));
  return doc;
}

static char *
score_text (OdoriDocument *doc)
{
  g_autofree char *dir = g_dir_make_tmp ("odori-score-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "copy.dds", NULL);
  char            *text = NULL;

  g_assert_true (odori_document_save_copy (doc, path, NULL, NULL));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_unlink (path);
  g_rmdir (dir);
  return text;
}

static GBytes *
motion_bva (OdoriMotion *motion)
{
  g_autofree char *dir = g_dir_make_tmp ("odori-bva-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "dance.bva", NULL);
  char            *bytes = NULL;
  gsize            len = 0;

  g_assert_true (odori_bva_save (motion, path, NULL));
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_unlink (path);
  g_rmdir (dir);
  return g_bytes_new_take (bytes, len);
}

/* The first symbol of the first track, and where it may move to (a free frame). */
static OdoriScoreEdit *
move_first_symbol (OdoriDocument *doc,
                   int            by,
                   guint         *from,
                   guint         *to)
{
  OdoriScore       *score = odori_document_get_score (doc);
  OdoriScorePart   *part = g_ptr_array_index (score->parts, 0);
  OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, 1);
  OdoriScoreEdit   *edit = odori_score_edit_new ("Move");

  g_assert_cmpuint (part->symbols->len, >, 2);
  *from = s->start;
  *to = (guint) ((int) s->start + by);
  g_assert_cmpint (odori_score_part_find_symbol (part, *to), <, 0);
  odori_score_edit_move_symbol (edit, 0, s, *to);
  return edit;
}

static void
test_open_save_roundtrip (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriDocument) again = odori_document_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.dds", NULL);
  g_autofree char *out = g_build_filename (dir, "out.bva", NULL);
  g_autofree char *before = score_text (doc);
  g_autofree char *after = NULL;
  g_autoptr(GBytes) composed = NULL;
  g_autoptr(GBytes) reference = NULL;
  g_autoptr(GBytes) reopened = NULL;

  g_assert_null (odori_document_get_path (doc));
  g_assert_true (odori_document_get_is_sample (doc));
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (odori_document_get_path (doc), ==, path);
  g_assert_false (odori_document_get_is_sample (doc));

  g_assert_true (odori_document_open_score (again, path, NULL, &error));
  g_assert_no_error (error);
  after = score_text (again);
  g_assert_cmpstr (before, ==, after);

  /* The document composes exactly what the composer alone does. */
  composed = motion_bva (odori_document_get_motion (doc));
  reopened = motion_bva (odori_document_get_motion (again));
  reference = odori_test_compose_bva (path, out);
  g_assert_true (g_bytes_equal (composed, reference));
  g_assert_true (g_bytes_equal (reopened, reference));

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_apply_edit_changed (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriScoreEdit) edit = NULL;
  g_autoptr(GError) error = NULL;
  OdoriScorePart *part = g_ptr_array_index (odori_document_get_score (doc)->parts, 0);
  Seen            seen = { 0 };
  guint           from, to;

  watch (doc, &seen);
  edit = move_first_symbol (doc, 3, &from, &to);
  g_assert_true (odori_document_apply_edit (doc, edit, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (seen.n_changed, ==, 1);
  g_assert_cmpuint (seen.n_score, ==, 0);
  g_assert_cmpuint (seen.n_dirty, ==, 1);
  g_assert_true (odori_document_get_dirty (doc));
  /* The range covers where the symbol was and where it went, within the dance. */
  g_assert_cmpuint (seen.first, >=, 1);
  g_assert_cmpuint (seen.first, <=, MIN (from, to));
  g_assert_cmpuint (seen.last, >=, MAX (from, to));
  g_assert_cmpuint (seen.last, <=, odori_document_get_motion (doc)->n_frames);
  g_assert_nonnull (seen.parts);
  g_assert_cmpuint (g_strv_length (seen.parts), ==, 1);
  g_assert_cmpstr (seen.parts[0], ==, part->code);
  g_assert_cmpint (odori_score_part_find_symbol (part, to), >=, 0);

  /* Reverting: the same path, once more. */
  g_assert_true (odori_document_revert_edit (doc, edit, &error));
  g_assert_cmpuint (seen.n_changed, ==, 2);
  g_assert_cmpint (odori_score_part_find_symbol (part, from), >=, 0);
  seen_reset (&seen);
}

static void
test_refused_edit (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriScoreEdit) unknown = odori_score_edit_new ("Add");
  g_autoptr(OdoriScoreEdit) missing = odori_score_edit_new ("Delete");
  g_autoptr(GError) error = NULL;
  g_autofree char *before = score_text (doc);
  g_autofree char *after = NULL;
  g_autoptr(GBytes) dance_before = motion_bva (odori_document_get_motion (doc));
  g_autoptr(GBytes) dance_after = NULL;
  OdoriScoreSymbol ghost = { 9999, (char *) "A1", 0 };
  Seen             seen = { 0 };

  watch (doc, &seen);
  /* Applies, but the score would no longer compose: taken back. */
  odori_score_edit_add_symbol (unknown, 0, 9999, "NO-SUCH-MOTION");
  g_assert_false (odori_document_apply_edit (doc, unknown, &error));
  g_assert_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_UNKNOWN_SYMBOL);
  g_clear_error (&error);
  /* Does not apply at all. */
  odori_score_edit_remove_symbol (missing, 0, &ghost);
  g_assert_false (odori_document_apply_edit (doc, missing, &error));
  g_assert_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_NO_SYMBOL);

  g_assert_cmpuint (seen.n_changed, ==, 0);
  g_assert_cmpuint (seen.n_score, ==, 0);
  g_assert_cmpuint (seen.n_dirty, ==, 0);
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_null (odori_document_get_compose_error (doc));
  after = score_text (doc);
  g_assert_cmpstr (before, ==, after);
  dance_after = motion_bva (odori_document_get_motion (doc));
  g_assert_true (g_bytes_equal (dance_before, dance_after));
}

static void
test_undo_saved_state (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriUndo) undo = odori_undo_new (doc);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-undo-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.dds", NULL);
  guint            from, to;

  g_assert_true (odori_undo_apply (undo, move_first_symbol (doc, 2, &from, &to), &error));
  g_assert_no_error (error);
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (odori_undo_undo (undo));
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_true (odori_undo_redo (undo));
  g_assert_true (odori_document_get_dirty (doc));

  /* Saved after the edit: that step is now the clean one. */
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_true (odori_undo_undo (undo));
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (odori_undo_redo (undo));
  g_assert_false (odori_document_get_dirty (doc));

  /* A new edit after undoing past the saved step loses the way back to it. */
  g_assert_true (odori_undo_undo (undo));
  g_assert_true (odori_undo_apply (undo, move_first_symbol (doc, 5, &from, &to), &error));
  g_assert_true (odori_undo_undo (undo));
  g_assert_true (odori_document_get_dirty (doc));

  g_unlink (path);
  g_rmdir (dir);
}

/* Sets the music lines of DOC's score to MUSIC (through UNDO). */
static void
set_music (OdoriUndo             *undo,
           OdoriDocument         *doc,
           const OdoriScoreMusic *music)
{
  OdoriScoreEdit *edit = odori_score_edit_new ("Music");
  g_autoptr(GError) error = NULL;

  odori_score_edit_set_music (edit, &odori_document_get_score (doc)->music, music);
  g_assert_true (odori_undo_apply (undo, edit, &error));
  g_assert_no_error (error);
}

static gboolean
file_has_line (const char *path,
               const char *line)
{
  g_autofree char *text = NULL;
  g_autofree char *with_lf = g_strconcat ("\n", line, "\n", NULL);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return strstr (text, with_lf) != NULL;
}

/* Music opened on an unsaved score (absolute paths): its first save writes them relative
 * when the files are in the score's folder or below, absolute otherwise; a save in
 * another folder does the same from where they are. */
static void
test_music_paths_follow_save (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriUndo) undo = odori_undo_new (doc);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-music-XXXXXX", NULL);
  g_autofree char *other = g_dir_make_tmp ("odori-other-XXXXXX", NULL);
  g_autofree char *song = g_build_filename (dir, "music", "song.ogg", NULL);
  g_autofree char *beats = g_build_filename (dir, "music", "song.beats", NULL);
  g_autofree char *far = g_build_filename (other, "far.ogg", NULL);
  g_autofree char *path = g_build_filename (dir, "dance.dds", NULL);
  g_autofree char *sub = g_build_filename (dir, "music", "sub", NULL);
  g_autofree char *path2 = g_build_filename (sub, "dance.dds", NULL);
  g_autofree char *path3 = g_build_filename (other, "dance.dds", NULL);
  g_autofree char *abs_line = NULL;
  g_autofree char *resolved = NULL;
  OdoriScore *score = odori_document_get_score (doc);
  OdoriScoreMusic music = { .path = song, .beats_path = beats, .meter = 3 };

  g_assert_null (odori_document_get_path (doc));
  set_music (undo, doc, &music);
  g_assert_cmpstr (score->music.path, ==, song);

  /* First save: both files are below the score's folder. */
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_no_error (error);
  score = odori_document_get_score (doc);
  g_assert_cmpstr (score->music.path, ==, "music" G_DIR_SEPARATOR_S "song.ogg");
  g_assert_cmpstr (score->music.beats_path, ==, "music" G_DIR_SEPARATOR_S "song.beats");
  g_assert_true (file_has_line (path, "# Music: music" G_DIR_SEPARATOR_S "song.ogg"));
  g_assert_true (file_has_line (path, "# Beats: music" G_DIR_SEPARATOR_S "song.beats"));
  resolved = odori_score_dup_music_path (score);
  g_assert_cmpstr (resolved, ==, song);
  g_clear_pointer (&resolved, g_free);

  /* Saved again in place: unchanged. */
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_cmpstr (score->music.path, ==, "music" G_DIR_SEPARATOR_S "song.ogg");

  /* Saved into a folder the music is not in: absolute. */
  g_assert_true (g_mkdir_with_parents (sub, 0700) == 0);
  g_assert_true (odori_document_save (doc, path2, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (score->music.path, ==, song);
  g_assert_cmpstr (score->music.beats_path, ==, beats);
  abs_line = g_strconcat ("# Music: ", song, NULL);
  g_assert_true (file_has_line (path2, abs_line));

  /* Back beside it: relative again. */
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_cmpstr (score->music.path, ==, "music" G_DIR_SEPARATOR_S "song.ogg");

  /* Music elsewhere stays absolute, wherever the score goes. */
  music.path = far;
  music.beats_path = NULL;
  set_music (undo, doc, &music);
  g_assert_true (odori_document_save (doc, path3, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (score->music.path, ==, "far.ogg");
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_cmpstr (score->music.path, ==, far);
  g_assert_null (score->music.beats_path);

  g_unlink (path);
  g_unlink (path2);
  g_unlink (path3);
  g_rmdir (sub);
  g_rmdir (dir);
  g_rmdir (other);
}

/* A step that sets the beat list writes the score's .beats file; undo and redo write
 * it back; the score text does not change. */
static void
test_beats_edit (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriUndo) undo = odori_undo_new (doc);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-beats-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "dance.dds", NULL);
  g_autofree char *beats = g_build_filename (dir, "dance.beats", NULL);
  g_autofree char *text = NULL;
  g_autofree char *text_after = NULL;
  const double one[] = { 0.5, 1, 1.5, 2 };
  const double two[] = { 0.5, 1.25, 1.5, 2 };
  g_autoptr(GArray) before = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) after = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) read = NULL;
  OdoriScoreMusic music = { .beats_path = (char *) "dance.beats" };
  OdoriScoreEdit *edit;

  g_array_append_vals (before, one, G_N_ELEMENTS (one));
  g_array_append_vals (after, two, G_N_ELEMENTS (two));
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_true (odori_beats_save (one, G_N_ELEMENTS (one), beats, &error));
  set_music (undo, doc, &music);
  odori_undo_clear (undo);
  text = score_text (doc);

  edit = odori_score_edit_new ("Move Beat");
  odori_score_edit_set_beats (edit, before, after);
  g_assert_true (odori_score_edit_get_sets_beats (edit));
  g_assert_false (odori_score_edit_is_empty (edit));
  g_assert_true (odori_undo_apply (undo, edit, &error));
  g_assert_no_error (error);
  read = odori_beats_load (beats, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (read->data, read->len * sizeof (double), two, sizeof two);
  g_clear_pointer (&read, g_array_unref);
  text_after = score_text (doc);
  g_assert_cmpstr (text, ==, text_after);

  g_assert_true (odori_undo_undo (undo));
  read = odori_beats_load (beats, &error);
  g_assert_cmpmem (read->data, read->len * sizeof (double), one, sizeof one);
  g_clear_pointer (&read, g_array_unref);
  g_assert_true (odori_undo_redo (undo));
  read = odori_beats_load (beats, &error);
  g_assert_cmpmem (read->data, read->len * sizeof (double), two, sizeof two);
  g_clear_pointer (&read, g_array_unref);

  /* Without a "# Beats:" line the step is refused, and nothing is written. */
  music.beats_path = NULL;
  set_music (undo, doc, &music);
  edit = odori_score_edit_new ("Move Beat");
  odori_score_edit_set_beats (edit, after, before);
  g_assert_false (odori_undo_apply (undo, edit, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  read = odori_beats_load (beats, NULL);
  g_assert_cmpmem (read->data, read->len * sizeof (double), two, sizeof two);

  g_unlink (beats);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_live_edit_back_to_start (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriUndo) undo = odori_undo_new (doc);
  g_autoptr(OdoriScoreEdit) there = NULL;
  g_autofree char *before = score_text (doc);
  g_autofree char *after = NULL;
  guint            from, to;

  /* A drag: moved live, then back where it began, then released. */
  there = move_first_symbol (doc, 4, &from, &to);
  g_assert_true (odori_undo_apply_unrecorded (undo, there, TRUE, NULL));
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (odori_undo_apply_unrecorded (undo, there, FALSE, NULL));
  odori_undo_push_applied (undo, NULL);
  g_assert_false (odori_document_get_dirty (doc));
  g_assert_false (odori_undo_get_can_undo (undo));
  after = score_text (doc);
  g_assert_cmpstr (before, ==, after);

  /* A drag that lands elsewhere is one step. */
  g_assert_true (odori_undo_apply_unrecorded (undo, there, TRUE, NULL));
  odori_undo_push_applied (undo, g_steal_pointer (&there));
  g_assert_true (odori_undo_get_can_undo (undo));
  g_assert_true (odori_undo_undo (undo));
  g_assert_false (odori_document_get_dirty (doc));
}

typedef struct
{
  GMainLoop *loop;
  GArray    *fractions;
  GThread   *main_thread;
  gboolean   ok;
  GError    *error;
} AsyncOpen;

static void
on_fraction_cb (OdoriDocument *doc,
                GParamSpec    *pspec,
                AsyncOpen     *data)
{
  double f = odori_document_get_fraction (doc);

  g_assert_true (g_thread_self () == data->main_thread);
  g_array_append_val (data->fractions, f);
}

static void
opened_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  AsyncOpen *data = user_data;

  data->ok = odori_document_open_score_finish (ODORI_DOCUMENT (source), result, &data->error);
  g_main_loop_quit (data->loop);
}

static void
test_open_async (void)
{
  g_autoptr(OdoriDocument) sample = sample_document ();
  g_autoptr(OdoriDocument) doc = odori_document_new ();
  g_autofree char *dir = odori_document_dup_sample_dir ();
  g_autofree char *path = g_build_filename (dir, "sample.dds", NULL);
  g_autoptr(GBytes) expected = motion_bva (odori_document_get_motion (sample));
  g_autoptr(GBytes) got = NULL;
  AsyncOpen data = { g_main_loop_new (NULL, FALSE), g_array_new (FALSE, FALSE, sizeof (double)),
                     g_thread_self () };
  Seen      seen = { 0 };

  watch (doc, &seen);
  g_signal_connect (doc, "notify::fraction", G_CALLBACK (on_fraction_cb), &data);
  odori_document_open_score_async (doc, path, NULL, NULL, opened_cb, &data);
  g_assert_true (odori_document_get_loading (doc));
  /* Nothing changes before _finish (). */
  g_assert_null (odori_document_get_score (doc));
  g_main_loop_run (data.loop);
  g_assert_no_error (data.error);
  g_assert_true (data.ok);
  g_assert_false (odori_document_get_loading (doc));
  g_assert_cmpuint (seen.n_score, ==, 1);

  /* Progress was reported on the main thread, rising to 1. */
  g_assert_cmpuint (data.fractions->len, >=, 2);
  for (guint i = 1; i < data.fractions->len; i++)
    g_assert_cmpfloat (g_array_index (data.fractions, double, i), >=,
                       g_array_index (data.fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (data.fractions, double, data.fractions->len - 1), ==, 1.0);
  got = motion_bva (odori_document_get_motion (doc));
  g_assert_true (g_bytes_equal (got, expected));

  /* A file that is not there fails, and leaves the document as it was. */
  odori_document_open_score_async (doc, "/nonexistent/x.dds", NULL, NULL, opened_cb, &data);
  g_main_loop_run (data.loop);
  g_assert_false (data.ok);
  g_assert_nonnull (data.error);
  g_clear_error (&data.error);
  g_assert_cmpuint (seen.n_score, ==, 1);
  g_assert_nonnull (odori_document_get_motion (doc));

  g_array_unref (data.fractions);
  g_main_loop_unref (data.loop);
}

static void
test_autosave_recover (void)
{
  g_autoptr(OdoriAutosave) autosave = odori_autosave_new ();
  g_autoptr(OdoriDocument) recovered = odori_document_new ();
  g_autoptr(GPtrArray) orphans = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *back = NULL;
  OdoriDocument   *doc = sample_document ();
  guint            from, to;

  odori_autosave_add_document (autosave, doc);
  {
    g_autoptr(OdoriScoreEdit) edit = move_first_symbol (doc, 2, &from, &to);

    g_assert_true (odori_document_apply_edit (doc, edit, NULL));
  }
  edited = score_text (doc);
  g_assert_true (odori_autosave_save (autosave, doc, &error));
  g_assert_no_error (error);
  /* The document is alive: its autosave is not an orphan. */
  orphans = odori_autosave_list_orphans (autosave);
  g_assert_cmpuint (orphans->len, ==, 0);
  g_clear_pointer (&orphans, g_ptr_array_unref);

  /* It goes away unsaved (a crash, as far as the autosave can tell). */
  g_object_unref (doc);
  orphans = odori_autosave_list_orphans (autosave);
  g_assert_cmpuint (orphans->len, ==, 1);

  g_assert_true (odori_autosave_recover (autosave, recovered, g_ptr_array_index (orphans, 0), &error));
  g_assert_no_error (error);
  g_assert_true (odori_document_get_dirty (recovered));
  g_assert_true (odori_document_get_is_sample (recovered));
  g_assert_null (odori_document_get_path (recovered));
  back = score_text (recovered);
  g_assert_cmpstr (strstr (back, "\n"), ==, strstr (edited, "\n"));
  g_clear_pointer (&orphans, g_ptr_array_unref);
  /* Recovered, it is live again: no orphan, and its file stays until it is clean. */
  orphans = odori_autosave_list_orphans (autosave);
  g_assert_cmpuint (orphans->len, ==, 0);
  g_clear_pointer (&orphans, g_ptr_array_unref);

  /* Clean again: the autosave goes. */
  odori_document_set_dirty (recovered, FALSE);
  odori_autosave_remove_document (autosave, recovered);
  orphans = odori_autosave_list_orphans (autosave);
  g_assert_cmpuint (orphans->len, ==, 0);
}

/* An autosave of a score with music beside it: the copy (in the autosave folder) names
 * the music and the beat list absolutely, so that it opens with them; recovered, the
 * score has its lines as it wrote them, and saved in place it writes them so again. */
static void
test_autosave_music_paths (void)
{
  g_autoptr(OdoriAutosave) autosave = odori_autosave_new ();
  g_autoptr(OdoriDocument) recovered = odori_document_new ();
  g_autoptr(GPtrArray) orphans = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("odori-autosave-music-XXXXXX", NULL);
  g_autofree char *song = g_build_filename (dir, "music", "song.ogg", NULL);
  g_autofree char *beats = g_build_filename (dir, "music", "song.beats", NULL);
  g_autofree char *path = g_build_filename (dir, "dance.dds", NULL);
  g_autofree char *copy = NULL;
  g_autofree char *music_line = NULL;
  g_autofree char *beats_line = NULL;
  g_autofree char *resolved = NULL;
  OdoriDocument   *doc = sample_document ();
  OdoriUndo       *undo = odori_undo_new (doc);
  OdoriScoreMusic  music = { .path = song, .beats_path = beats, .meter = 4 };
  OdoriScore      *score;
  guint            from, to;

  set_music (undo, doc, &music);
  g_assert_true (odori_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_assert_true (file_has_line (path, "# Music: music" G_DIR_SEPARATOR_S "song.ogg"));
  {
    g_autoptr(OdoriScoreEdit) edit = move_first_symbol (doc, 2, &from, &to);

    g_assert_true (odori_document_apply_edit (doc, edit, NULL));
  }
  g_assert_true (odori_document_get_dirty (doc));
  g_assert_true (odori_autosave_save (autosave, doc, &error));
  g_assert_no_error (error);
  /* The score itself keeps its lines as written. */
  score = odori_document_get_score (doc);
  g_assert_cmpstr (score->music.path, ==, "music" G_DIR_SEPARATOR_S "song.ogg");
  g_clear_object (&undo);
  g_object_unref (doc);

  orphans = odori_autosave_list_orphans (autosave);
  g_assert_cmpuint (orphans->len, ==, 1);
  copy = g_strdup (g_ptr_array_index (orphans, 0));
  strcpy (copy + strlen (copy) - 4, ".dds");
  music_line = g_strconcat ("# Music: ", song, NULL);
  beats_line = g_strconcat ("# Beats: ", beats, NULL);
  g_assert_true (file_has_line (copy, music_line));
  g_assert_true (file_has_line (copy, beats_line));

  g_assert_true (odori_autosave_recover (autosave, recovered, g_ptr_array_index (orphans, 0), &error));
  g_assert_no_error (error);
  score = odori_document_get_score (recovered);
  g_assert_cmpstr (odori_document_get_path (recovered), ==, path);
  g_assert_cmpstr (score->music.path, ==, "music" G_DIR_SEPARATOR_S "song.ogg");
  g_assert_cmpstr (score->music.beats_path, ==, "music" G_DIR_SEPARATOR_S "song.beats");
  resolved = odori_score_dup_music_path (score);
  g_assert_cmpstr (resolved, ==, song);
  g_clear_pointer (&resolved, g_free);
  resolved = odori_score_dup_beats_path (score);
  g_assert_cmpstr (resolved, ==, beats);
  g_assert_cmpuint (score->music.meter, ==, 4);

  /* Saved back in place: the lines the user's score had. */
  g_assert_true (odori_document_save (recovered, path, &error));
  g_assert_no_error (error);
  g_assert_true (file_has_line (path, "# Music: music" G_DIR_SEPARATOR_S "song.ogg"));
  g_assert_true (file_has_line (path, "# Beats: music" G_DIR_SEPARATOR_S "song.beats"));
  g_assert_false (odori_document_get_dirty (recovered));
  odori_autosave_remove_document (autosave, recovered);
  g_clear_pointer (&orphans, g_ptr_array_unref);
  orphans = odori_autosave_list_orphans (autosave);
  g_assert_cmpuint (orphans->len, ==, 0);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_session_preview_and_edit (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autoptr(OdoriSession) session = odori_session_new (doc);
  g_autoptr(GError) error = NULL;
  OdoriIndex       *index = odori_document_get_index (doc);
  OdoriIndexMotion *motion = NULL;
  guint             from, to;

  g_assert_true (odori_session_get_display_motion (session) == odori_document_get_motion (doc));
  g_assert_cmpuint (odori_session_get_n_frames (session), ==, odori_document_get_motion (doc)->n_frames);
  odori_session_set_frame (session, 10);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 10);

  for (guint c = 0; motion == NULL && c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; motion == NULL && s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          if (show->motions->len > 0)
            motion = g_ptr_array_index (show->motions, 0);
        }
    }
  g_assert_nonnull (motion);
  g_assert_true (odori_session_preview (session, motion, &error));
  g_assert_no_error (error);
  g_assert_true (odori_session_get_preview (session) == motion);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1);

  /* An edit ends the preview: the dance is shown again, at its playhead. */
  {
    g_autoptr(OdoriScoreEdit) edit = move_first_symbol (doc, 2, &from, &to);

    g_assert_true (odori_document_apply_edit (doc, edit, NULL));
  }
  g_assert_null (odori_session_get_preview (session));
  g_assert_true (odori_session_get_display_motion (session) == odori_document_get_motion (doc));
  g_assert_cmpuint (odori_session_get_frame (session), ==, 10);

  /* Playback: ticks move the playhead by the frame clock. */
  odori_session_set_frame (session, 1);
  odori_session_set_playing (session, TRUE);
  odori_session_tick (session, 1000000);
  odori_session_tick (session, 1000000 + (gint64) (10 * odori_session_get_frame_time (session) * 1e6));
  g_assert_cmpuint (odori_session_get_frame (session), >=, 10);
  g_assert_cmpuint (odori_session_get_frame (session), <=, 11);
}

static void
on_async_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* An export cancelled before it runs writes nothing and says so; one run to the end
 * writes the file and says so, even if a cancel comes after the commit. */
static void
test_export_cancel (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  g_autofree char *dir = g_dir_make_tmp ("odori-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "cancelled.bva", NULL);
  g_autoptr(OdoriExport) export = odori_export_new (odori_document_get_motion (doc), path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (odori_export_run (export, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* Run to the end, then cancel before the result is read: the file is there, and the
   * result says it was written. */
  g_object_unref (cancellable);
  cancellable = g_cancellable_new ();
  odori_export_run_async (export, cancellable, on_async_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_cancellable_cancel (cancellable);
  g_assert_true (odori_export_run_finish (export, result, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_unlink (path);
  g_rmdir (dir);
}

/* The document recomposes only what an edit touched; the result must be what composing
 * the saved score afresh gives, byte for byte, whatever edits came before (the monkey
 * test found an emptied track keeping its old pose). */
static void
assert_same_as_fresh (OdoriDocument *doc,
                      const char    *what)
{
  g_autofree char *dir = g_dir_make_tmp ("odori-fresh-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "fresh.dds", NULL);
  g_autofree char *out = g_build_filename (dir, "fresh.bva", NULL);
  g_autofree char *lib = odori_document_dup_sample_dir ();
  g_autofree char *index = g_build_filename (lib, "motion.dat", NULL);
  g_autoptr(GBytes) window = NULL;
  g_autoptr(GBytes) fresh = NULL;

  g_assert_true (odori_document_save_copy (doc, path, index, NULL));
  window = motion_bva (odori_document_get_motion (doc));
  fresh = odori_test_compose_bva (path, out);
  if (!g_bytes_equal (window, fresh))
    g_error ("%s: the document's dance differs from the saved score composed afresh", what);
  g_unlink (path);
  g_unlink (out);
  g_rmdir (dir);
}

static void
apply (OdoriDocument  *doc,
       OdoriScoreEdit *edit)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (odori_document_apply_edit (doc, edit, &error));
  g_assert_no_error (error);
  odori_score_edit_free (edit);
}

static void
test_incremental_equals_fresh (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  OdoriScore *score = odori_document_get_score (doc);

  for (guint p = 0; p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);
      OdoriScoreEdit *edit = odori_score_edit_new ("Delete");
      g_autofree char *first = NULL;
      guint start;

      if (part->symbols->len == 0)
        continue;
      first = g_strdup (g_array_index (part->symbols, OdoriScoreSymbol, 0).symbol);
      start = g_array_index (part->symbols, OdoriScoreSymbol, 0).start;

      /* the track emptied */
      for (guint i = 0; i < part->symbols->len; i++)
        odori_score_edit_remove_symbol (edit, p, &g_array_index (part->symbols, OdoriScoreSymbol, i));
      apply (doc, edit);
      assert_same_as_fresh (doc, "a track emptied");

      /* one symbol back, then gone again */
      edit = odori_score_edit_new ("Paste");
      odori_score_edit_add_symbol (edit, p, start + 7, first);
      apply (doc, edit);
      assert_same_as_fresh (doc, "a symbol pasted on an empty track");
      edit = odori_score_edit_new ("Delete");
      odori_score_edit_remove_symbol (edit, p, &g_array_index (part->symbols, OdoriScoreSymbol, 0));
      apply (doc, edit);
      assert_same_as_fresh (doc, "the track emptied again");
    }
}

/* The root track's first symbol replaced by one of another show (the same sensors): the
 * composed motion keeps its memory (no fresh 50 MB in a drag on a long score), and the
 * skeleton is made again for the new reference, as for a fresh document. */
static void
test_reference_change_keeps_motion (void)
{
  g_autoptr(OdoriDocument) doc = sample_document ();
  OdoriScore       *score = odori_document_get_score (doc);
  OdoriIndex       *index = odori_document_get_index (doc);
  OdoriScorePart   *root = g_ptr_array_index (score->parts, 0);
  OdoriScoreSymbol *first = &g_array_index (root->symbols, OdoriScoreSymbol, 0);
  OdoriIndexMotion *im = odori_index_lookup (index, first->symbol, NULL);
  g_autoptr(OdoriSkeleton) before = odori_skeleton_ref (odori_document_get_skeleton (doc));
  g_autoptr(OdoriSkeleton) expected = NULL;
  OdoriMotion    *motion = odori_document_get_motion (doc);
  const char     *other = NULL;
  OdoriScoreEdit *edit;
  guint           start = first->start;

  g_assert_nonnull (im);
  for (guint i = 1; i < root->symbols->len && other == NULL; i++)
    {
      const char       *code = g_array_index (root->symbols, OdoriScoreSymbol, i).symbol;
      OdoriIndexMotion *o = odori_index_lookup (index, code, NULL);

      if (o != NULL && o->show != im->show)
        other = code;
    }
  g_assert_nonnull (other);
  edit = odori_score_edit_new ("Replace");
  odori_score_edit_add_symbol (edit, 0, start, other);
  odori_score_edit_remove_symbol (edit, 0, first);
  apply (doc, edit);
  g_assert_cmpstr (g_array_index (root->symbols, OdoriScoreSymbol, 0).symbol, ==, other);
  g_assert_true (odori_document_get_motion (doc) == motion);
  g_assert_true (odori_document_get_skeleton (doc) != before);
  expected = odori_skeleton_for_motion (motion);
  g_assert_cmpuint (odori_document_get_skeleton (doc)->n_bones, ==, expected->n_bones);
  for (guint b = 0; b < expected->n_bones; b++)
    g_assert_cmpfloat (odori_document_get_skeleton (doc)->bones[b].length, ==, expected->bones[b].length);
  assert_same_as_fresh (doc, "the root track's first symbol from another show");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = g_dir_make_tmp ("odori-test-session-XXXXXX", NULL);
  const char *dirs[] = { "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME" };
  int status;

  g_assert_nonnull (home);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (home, dirs[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (dirs[i], dir, TRUE);
    }
  g_setenv ("HOME", home, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/document/open-save-roundtrip", test_open_save_roundtrip);
  g_test_add_func ("/session/document/apply-edit-changed", test_apply_edit_changed);
  g_test_add_func ("/session/document/refused-edit", test_refused_edit);
  g_test_add_func ("/session/document/open-async", test_open_async);
  g_test_add_func ("/session/undo/saved-state", test_undo_saved_state);
  g_test_add_func ("/session/undo/live-edit-back-to-start", test_live_edit_back_to_start);
  g_test_add_func ("/session/document/music-paths-follow-save", test_music_paths_follow_save);
  g_test_add_func ("/session/undo/beats-edit", test_beats_edit);
  g_test_add_func ("/session/autosave/recover", test_autosave_recover);
  g_test_add_func ("/session/autosave/music-paths", test_autosave_music_paths);
  g_test_add_func ("/session/export/cancel", test_export_cancel);
  g_test_add_func ("/session/document/incremental-equals-fresh", test_incremental_equals_fresh);
  g_test_add_func ("/session/document/reference-change-keeps-motion", test_reference_change_keeps_motion);
  g_test_add_func ("/session/session/preview-and-edit", test_session_preview_and_edit);
  status = g_test_run ();
  {
    const char *argv_rm[] = { "rm", "-rf", home, NULL };

    g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                  NULL, NULL);
  }
  return status;
}
