/* test-music-player.c: the session's playback in sync with the score's music
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No display: the music plays into "fakesink sync=true" (ODORI_AUDIO_SINK), which keeps
 * time without a device. The playhead, advanced by ticks as a frame clock would, stays
 * within one frame of the pipeline's position at 1× and 0.5× and after seeks.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "music-test-util.h"
#include "odori-music-player.h"
#include "odori-score-edit.h"
#include "odori-session.h"

#define OFFSET 0.25

static char *tmp_dir;
static char *music_path;

static OdoriDocument *
document_with_music (const char *path)
{
  g_autoptr(GError) error = NULL;
  OdoriDocument  *doc = odori_document_new ();
  OdoriScore     *score;
  OdoriScoreMusic after = { 0 };
  OdoriScoreEdit *edit;

  g_assert_true (odori_document_load_sample (doc, &error));
  g_assert_no_error (error);
  score = odori_document_get_score (doc);
  odori_score_music_copy (&score->music, &after);
  g_free (after.path);
  after.path = g_strdup (path);
  after.has_offset = TRUE;
  after.offset = OFFSET;
  edit = odori_score_edit_new ("Open Music");
  odori_score_edit_set_music (edit, &score->music, &after);
  g_assert_true (odori_document_apply_edit (doc, edit, &error));
  g_assert_no_error (error);
  odori_score_edit_free (edit);
  odori_score_music_clear (&after);
  return doc;
}

typedef struct
{
  OdoriSession *session;
  GMainLoop    *loop;
  gint64        start_us;
  gint64        end_us;
  gint64        next_sample_us;
  gint64        next_seek_us;
  gboolean      seeks;
  guint         n_samples;
  guint         n_compared;
  double        max_error; /* frames */
  double        max_drift; /* seconds: music position against the wall clock */
  gint64        run_us;    /* where the current uninterrupted run began */
  double        run_position;
  double        last_position;
  guint         seek_no;
  guint         seek_frame; /* the last seek's target, until the next sample checks it */
  gint64        seek_us;
  guint         n_seeks_checked;
  double        max_seek_error; /* frames */
} Run;

static gboolean
tick_cb (gpointer data)
{
  Run              *run = data;
  OdoriMusicPlayer *player = odori_session_get_music_player (run->session);
  gint64            now = g_get_monotonic_time ();
  double            position;
  double            extrapolated;

  odori_session_tick (run->session, now);
  if (now >= run->next_sample_us)
    {
      run->next_sample_us += 100000;
      run->n_samples++;
      /* After a seek the playhead (and the music) go on from the frame sought. */
      if (run->seek_frame != 0)
        {
          double expected = run->seek_frame + (now - run->seek_us) / 1e6 *
                                                  odori_session_get_speed (run->session) /
                                                  odori_session_get_frame_time (run->session);

          run->max_seek_error = MAX (run->max_seek_error,
                                     fabs (expected - odori_session_get_frame (run->session)));
          run->n_seeks_checked++;
          run->seek_frame = 0;
        }
      /* Compared while the music leads (not in the few ms after a seek or a loop). */
      if (odori_music_player_get_position (player, now, &extrapolated) &&
          odori_music_player_query_position (player, &position))
        {
          double frame = odori_session_frame_for_music_time (run->session, position);
          double error = fabs (frame - odori_session_get_frame (run->session));

          run->n_compared++;
          run->max_error = MAX (run->max_error, error);
          if (run->run_us < 0)
            {
              run->run_us = now;
              run->run_position = position;
            }
          else
            {
              double expected = run->run_position +
                                (now - run->run_us) / 1e6 * odori_session_get_speed (run->session);

              /* A loop starts a new run. */
              if (position < run->last_position)
                {
                  run->run_us = now;
                  run->run_position = position;
                }
              else
                run->max_drift = MAX (run->max_drift, fabs (position - expected));
            }
          run->last_position = position;
        }
      else
        run->run_us = -1;
    }
  if (run->seeks && now >= run->next_seek_us)
    {
      guint n = odori_session_get_n_frames (run->session);
      guint frame = 1 + (guint) ((run->seek_no++ * 7919u) % MAX (n - 60, 1));

      run->next_seek_us += 1500000;
      odori_session_set_frame (run->session, frame);
      run->run_us = -1;
      run->seek_frame = frame;
      run->seek_us = now;
    }
  if (now >= run->end_us)
    {
      g_main_loop_quit (run->loop);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
play_and_compare (double   speed,
                  double   seconds,
                  gboolean seeks)
{
  g_autoptr(OdoriDocument) doc = document_with_music (music_path);
  g_autoptr(OdoriSession) session = odori_session_new (doc);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  OdoriMusicPlayer *player = odori_session_get_music_player (session);
  Run               run = { 0 };

  g_assert_nonnull (player);
  g_assert_true (odori_music_player_get_ready (player));
  g_assert_cmpstr (odori_session_get_music_path (session), ==, music_path);
  odori_session_set_speed (session, speed);
  odori_session_set_frame (session, 1);
  odori_session_set_playing (session, TRUE);
  run.session = session;
  run.loop = loop;
  run.start_us = g_get_monotonic_time ();
  run.end_us = run.start_us + (gint64) (seconds * 1e6);
  run.next_sample_us = run.start_us + 100000;
  run.next_seek_us = run.start_us + 1500000;
  run.seeks = seeks;
  run.run_us = -1;
  g_timeout_add (8, tick_cb, &run);
  g_main_loop_run (loop);
  odori_session_set_playing (session, FALSE);
  g_assert_false (odori_music_player_get_playing (player));

  g_test_message ("speed %.2f%s: %u of %u samples compared, max |playhead - music| %.2f "
                  "frames, music against the clock within %.1f ms (%u frames in the dance)",
                  speed, seeks ? " with seeks" : "", run.n_compared, run.n_samples,
                  run.max_error, run.max_drift * 1e3, odori_session_get_n_frames (session));
  g_printerr ("# speed %.2f%s: %u/%u compared, max |playhead - music| %.2f frames, drift %.1f ms",
              speed, seeks ? " with seeks" : "", run.n_compared, run.n_samples, run.max_error,
              run.max_drift * 1e3);
  if (seeks)
    g_printerr (", %u seeks: max %.2f frames off the frame sought", run.n_seeks_checked,
                run.max_seek_error);
  g_printerr ("\n");
  /* The music led nearly all the time (a seek or a loop restarts it in a few ms). */
  g_assert_cmpuint (run.n_compared, >=, run.n_samples * 8 / 10);
  g_assert_cmpfloat (run.max_error, <=, 1.0);
  /* The music itself played at the speed asked for (scaletempo), off by at most a
   * frame's time over any uninterrupted run. */
  g_assert_cmpfloat (run.max_drift, <, odori_session_get_frame_time (session));
  if (seeks)
    {
      g_assert_cmpuint (run.n_seeks_checked, >=, 5);
      g_assert_cmpfloat (run.max_seek_error, <=, 2.0);
    }
}

static void
test_sync_1x (void)
{
  play_and_compare (1.0, 30, FALSE);
}

static void
test_sync_half (void)
{
  play_and_compare (0.5, 30, FALSE);
}

static void
test_sync_seeks (void)
{
  play_and_compare (1.0, 12, TRUE);
}

/* A paused seek moves the music where the playhead is when playback starts. */
static void
test_seek_paused (void)
{
  g_autoptr(OdoriDocument) doc = document_with_music (music_path);
  g_autoptr(OdoriSession) session = odori_session_new (doc);
  OdoriMusicPlayer *player = odori_session_get_music_player (session);
  gint64            until;
  double            position = -1;

  odori_session_set_frame (session, 91);
  odori_session_set_playing (session, TRUE);
  until = g_get_monotonic_time () + 600000;
  while (g_get_monotonic_time () < until)
    {
      odori_session_tick (session, g_get_monotonic_time ());
      g_usleep (5000);
    }
  g_assert_true (odori_music_player_query_position (player, &position));
  /* 0.6 s after frame 91 at 30 fps: frame ~109, music 0.25 + 108/30 s */
  g_assert_cmpfloat (fabs (odori_session_frame_for_music_time (session, position) -
                           odori_session_get_frame (session)),
                     <=, 1.0);
  g_assert_cmpfloat (position, >, odori_session_music_time_for_frame (session, 91));
  g_assert_cmpfloat (position, <, odori_session_music_time_for_frame (session, 91) + 1.0);
}

/* A scrub plays a short snippet of the music, then stops; playing cancels the snippet. */
static void
test_scrub (void)
{
  g_autoptr(OdoriDocument) doc = document_with_music (music_path);
  g_autoptr(OdoriSession) session = odori_session_new (doc);
  OdoriMusicPlayer *player = odori_session_get_music_player (session);
  double            position = -1;
  gint64            until;

  odori_session_scrub (session, 61);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 61);
  g_assert_true (odori_music_player_get_playing (player));
  until = g_get_monotonic_time () + 40000;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (odori_music_player_query_position (player, &position));
  g_assert_cmpfloat (position, >=, odori_session_music_time_for_frame (session, 61) - 0.001);
  until = g_get_monotonic_time () + 300000;
  while (odori_music_player_get_playing (player) && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (odori_music_player_get_playing (player));
  g_assert_true (odori_music_player_query_position (player, &position));
  /* about 80 ms were played */
  g_assert_cmpfloat (position, <, odori_session_music_time_for_frame (session, 61) + 0.25);
  /* the same frame again: no snippet */
  odori_session_scrub (session, 61);
  g_assert_false (odori_music_player_get_playing (player));
}

/* Music that is not there: the session plays by the frame clock as without music. */
static void
test_missing (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "gone.wav", NULL);
  g_autoptr(OdoriDocument) doc = document_with_music (missing);
  g_autoptr(OdoriSession) session = odori_session_new (doc);
  OdoriMusicPlayer *player = odori_session_get_music_player (session);
  gint64            t0 = g_get_monotonic_time ();

  g_assert_nonnull (player);
  g_assert_false (odori_music_player_get_ready (player));
  g_assert_nonnull (odori_music_player_get_error (player));
  g_assert_nonnull (strstr (odori_music_player_get_error (player)->message, "gone.wav"));
  odori_session_set_playing (session, TRUE);
  odori_session_tick (session, t0);
  odori_session_tick (session, t0 + 1000000);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 31);
}

/* Not audio at all. */
static void
test_undecodable (void)
{
  g_autofree char *bad = g_build_filename (tmp_dir, "bad.ogg", NULL);
  g_autoptr(OdoriDocument) doc = NULL;
  g_autoptr(OdoriSession) session = NULL;
  OdoriMusicPlayer *player;
  gint64            t0;

  g_assert_true (g_file_set_contents (bad, "this is not music\n", -1, NULL));
  doc = document_with_music (bad);
  session = odori_session_new (doc);
  player = odori_session_get_music_player (session);
  g_assert_false (odori_music_player_play (player, 0, 1.0));
  g_assert_false (odori_music_player_get_ready (player));
  g_assert_nonnull (odori_music_player_get_error (player));
  odori_session_set_playing (session, TRUE);
  t0 = g_get_monotonic_time ();
  odori_session_tick (session, t0);
  odori_session_tick (session, t0 + 500000);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 16);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_setenv ("ODORI_AUDIO_SINK", "fakesink sync=true", TRUE);
  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("odori-music-player-XXXXXX", NULL);
  music_path = g_build_filename (tmp_dir, "clicks.wav", NULL);
  music_test_write_clicks (music_path, 70, 120, 0.5);

  g_test_add_func ("/music-player/sync-1x", test_sync_1x);
  g_test_add_func ("/music-player/sync-half", test_sync_half);
  g_test_add_func ("/music-player/sync-seeks", test_sync_seeks);
  g_test_add_func ("/music-player/seek-paused", test_seek_paused);
  g_test_add_func ("/music-player/scrub", test_scrub);
  g_test_add_func ("/music-player/missing", test_missing);
  g_test_add_func ("/music-player/undecodable", test_undecodable);
  ret = g_test_run ();

  g_unlink (music_path);
  {
    g_autofree char *bad = g_build_filename (tmp_dir, "bad.ogg", NULL);

    g_unlink (bad);
  }
  g_rmdir (tmp_dir);
  g_free (music_path);
  g_free (tmp_dir);
  return ret;
}
