/* test-beat-grid.c: the beat grid, the .beats file, and the music lines of a score
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "odori-beat-grid.h"
#include "odori-beats.h"
#include "odori-score-edit.h"

/* Grid */

/* Beat k's frame by the formula, from k, in long double: the reference. */
static gint64
formula_frame (double tempo,
               double downbeat,
               double offset,
               double frame_time,
               gint64 k)
{
  long double t = (long double) downbeat + (long double) k * 60.0L / (long double) tempo;

  return (gint64) roundl ((t - (long double) offset) / (long double) frame_time) + 1;
}

static void
test_grid_formula (void)
{
  g_autoptr(OdoriBeatGrid) grid = odori_beat_grid_new (120, 0.5, 4, 0, 1.0 / 30);
  g_autoptr(OdoriBeatGrid) shifted = odori_beat_grid_new (120, 0.5, 4, 2, 1.0 / 30);
  static const struct
  {
    gint64 k;
    gint64 frame;
    guint  count;
    gint64 bar;
    guint  in_bar;
  } table[] = {
    { 0, 16, 1, 1, 1 },
    { 1, 31, 2, 1, 2 },
    { 3, 61, 4, 1, 4 },
    { 4, 76, 5, 2, 1 },
    { 7, 121, 8, 2, 4 },
    { 8, 136, 1, 3, 1 },
    { -1, 1, 8, 0, 4 },
    { -2, -14, 7, 0, 3 },
    { -4, -44, 5, 0, 1 },
    { -5, -59, 4, -1, 4 },
    { -8, -104, 1, -1, 1 },
    { -9, -119, 8, -2, 4 },
  };

  g_assert_false (odori_beat_grid_is_list (grid));
  g_assert_cmpfloat (odori_beat_grid_get_tempo (grid), ==, 120);
  g_assert_cmpuint (odori_beat_grid_get_meter (grid), ==, 4);
  g_assert_cmpfloat_with_epsilon (odori_beat_grid_get_frames_per_beat (grid), 15, 1e-9);
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      gint64 k = table[i].k;

      g_assert_true (odori_beat_grid_has_beat (grid, k));
      g_assert_cmpfloat_with_epsilon (odori_beat_grid_beat_time (grid, k), 0.5 + k * 0.5, 1e-12);
      g_assert_cmpint (odori_beat_grid_beat_frame (grid, k), ==, table[i].frame);
      g_assert_cmpint (odori_beat_grid_beat_frame (shifted, k), ==, table[i].frame - 60);
      g_assert_cmpuint (odori_beat_grid_beat_count (grid, k), ==, table[i].count);
      g_assert_cmpint (odori_beat_grid_beat_bar (grid, k), ==, table[i].bar);
      g_assert_cmpuint (odori_beat_grid_beat_in_bar (grid, k), ==, table[i].in_bar);
    }
  for (gint64 k = -100; k <= 100; k++)
    g_assert_cmpuint (odori_beat_count (k), ==, (guint) (((k % 8) + 8) % 8) + 1);

  /* time <-> frame: frame 1 is the music at the offset */
  g_assert_cmpfloat_with_epsilon (odori_beat_grid_time_to_frame (shifted, 2.0), 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (odori_beat_grid_frame_to_time (shifted, 31), 3.0, 1e-12);
  /* the farthest beats exist and saturate nothing at this frame time */
  g_assert_true (odori_beat_grid_has_beat (grid, ODORI_BEAT_GRID_MAX_BEAT));
  g_assert_false (odori_beat_grid_has_beat (grid, ODORI_BEAT_GRID_MAX_BEAT + 1));
  g_assert_cmpint (odori_beat_grid_beat_frame (grid, ODORI_BEAT_GRID_MAX_BEAT), ==,
                   formula_frame (120, 0.5, 0, 1.0 / 30, ODORI_BEAT_GRID_MAX_BEAT));
}

/* Beat k's exact frame for tempo 96.5 = 193/2, downbeat 5/4, offset ON/10 and frame time
 * FT_NUM/FT_DEN, in integers: x = (5/4 + 120k/193 - ON/10) · FT_DEN/FT_NUM. *TIE is set
 * when x is within 1e-6 of a half, where either rounding is the formula's. */
static gint64
exact_frame (gint64    k,
             gint64    on,
             gint64    ft_num,
             gint64    ft_den,
             gboolean *tie)
{
  /* (5·193·10 + 120·4·10·k − 4·193·on) / (4·193·10) · ft_den / ft_num */
  __int128 num = (__int128) (9650 + 4800 * k - 772 * on) * ft_den;
  __int128 den = (__int128) 7720 * ft_num;
  __int128 two = 2 * num, m;
  gint64   r;

  if (num >= 0)
    r = (gint64) ((two + den) / (2 * den));
  else
    r = -(gint64) ((-two + den) / (2 * den));
  m = ((two % (2 * den)) + 2 * den) % (2 * den);
  *tie = (m > den ? m - den : den - m) * 500000 < den; /* within 1e-6 frame */
  return r + 1;
}

/* Every beat of ten minutes at 96.5 bpm (and some long before and after) falls on the
 * frame of DESIGN.md's formula: nothing accumulates. */
static void
test_grid_no_drift (void)
{
  static const struct
  {
    gint64 ft_num, ft_den;
  } frame_times[] = { { 1, 30 }, { 33333, 1000000 } };
  static const gint64 offsets[] = { 0, -7, 25 }; /* tenths of seconds */
  gint64              n_beats = (gint64) ceil (600 * 96.5 / 60);

  g_assert_cmpint (n_beats, ==, 965);
  for (guint f = 0; f < G_N_ELEMENTS (frame_times); f++)
    for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
      {
        double ft = (double) frame_times[f].ft_num / (double) frame_times[f].ft_den;
        double offset = offsets[o] / 10.0;
        g_autoptr(OdoriBeatGrid) grid = odori_beat_grid_new (96.5, 1.25, 4, offset, ft);
        guint  ties = 0, checked = 0;
        gint64 far[] = { 100000, 1000000, 10000000, -10000000 };

        for (gint64 k = -200; k <= n_beats + 200; k++)
          {
            gboolean tie;
            gint64   want = exact_frame (k, offsets[o], frame_times[f].ft_num,
                                         frame_times[f].ft_den, &tie);
            gint64   got = odori_beat_grid_beat_frame (grid, k);

            if (tie)
              {
                ties++;
                g_assert_cmpint (got, >=, want - 1);
                g_assert_cmpint (got, <=, want);
              }
            else
              {
                g_assert_cmpint (got, ==, want);
                g_assert_cmpint (got, ==, formula_frame (96.5, 1.25, offset, ft, k));
              }
            checked++;
          }
        for (guint i = 0; i < G_N_ELEMENTS (far); i++)
          {
            gboolean tie;
            gint64   want = exact_frame (far[i], offsets[o], frame_times[f].ft_num,
                                         frame_times[f].ft_den, &tie);

            if (!tie)
              g_assert_cmpint (odori_beat_grid_beat_frame (grid, far[i]), ==, want);
          }
        g_assert_cmpuint (checked, ==, n_beats + 401);
        g_assert_cmpuint (ties, <, checked / 50);
      }
}

/* The nearest beat by brute force over the beats around FRAME. */
static gint64
brute_nearest (OdoriBeatGrid *grid,
               double         frame)
{
  gint64 first, last, best = 0;
  double best_d = INFINITY;

  g_assert_true (odori_beat_grid_get_beats (grid, &first, &last));
  for (gint64 k = MAX (first, -2000); k <= MIN (last, 20000); k++)
    {
      double d = fabs ((double) odori_beat_grid_beat_frame (grid, k) - frame);

      if (d < best_d)
        {
          best_d = d;
          best = k;
        }
    }
  return best;
}

static void
test_grid_nearest (void)
{
  g_autoptr(OdoriBeatGrid) grid = odori_beat_grid_new (120, 0, 4, 0, 1.0 / 30);
  g_autoptr(OdoriBeatGrid) odd = odori_beat_grid_new (96.5, 1.25, 3, -0.4, 0.033333);
  g_autoptr(OdoriBeatGrid) dense = odori_beat_grid_new (1000, 0, 4, 0, 1.0); /* 16⅔ a frame */
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  gint64 k = 99;

  /* beat k at frame 15k + 1 */
  g_assert_true (odori_beat_grid_nearest_beat (grid, 8.0, &k));
  g_assert_cmpint (k, ==, 0);
  g_assert_true (odori_beat_grid_nearest_beat (grid, 8.5, &k)); /* halfway: the earlier */
  g_assert_cmpint (k, ==, 0);
  g_assert_true (odori_beat_grid_nearest_beat (grid, 8.6, &k));
  g_assert_cmpint (k, ==, 1);
  g_assert_true (odori_beat_grid_nearest_beat (grid, 16, &k));
  g_assert_cmpint (k, ==, 1);
  g_assert_true (odori_beat_grid_nearest_beat (grid, -100.0, &k));
  g_assert_cmpint (k, ==, -7);
  g_assert_true (odori_beat_grid_nearest_beat (grid, 1e300, &k));
  g_assert_cmpint (k, ==, ODORI_BEAT_GRID_MAX_BEAT);
  g_assert_true (odori_beat_grid_nearest_beat (grid, -1e300, &k));
  g_assert_cmpint (k, ==, -ODORI_BEAT_GRID_MAX_BEAT);

  for (guint i = 0; i < 2000; i++)
    {
      double frame = g_rand_double_range (rand, -500, 20000);

      g_assert_true (odori_beat_grid_nearest_beat (odd, frame, &k));
      g_assert_cmpint (k, ==, brute_nearest (odd, frame));
    }

  /* many beats on one frame: the first of them */
  g_assert_true (odori_beat_grid_nearest_beat (dense, 10.2, &k));
  g_assert_cmpint (odori_beat_grid_beat_frame (dense, k), ==, 10);
  g_assert_cmpint (odori_beat_grid_beat_frame (dense, k - 1), ==, 9);
  g_assert_cmpint (k, ==, brute_nearest (dense, 10.2));
}

static void
test_grid_range (void)
{
  g_autoptr(OdoriBeatGrid) grid = odori_beat_grid_new (120, 0, 4, 0, 1.0 / 30);
  g_autoptr(OdoriBeatGrid) odd = odori_beat_grid_new (96.5, 1.25, 4, 0.3, 0.033333);
  g_autoptr(OdoriBeatGrid) dense = odori_beat_grid_new (1000, 0, 4, 0, 1.0);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1919);
  gint64 a = 0, b = 0;
  gint64 t0;

  g_assert_true (odori_beat_grid_beats_in_frames (grid, 1, 300, &a, &b));
  g_assert_cmpint (a, ==, 0);
  g_assert_cmpint (b, ==, 19); /* frame 286; beat 20 is at 301 */
  g_assert_true (odori_beat_grid_beats_in_frames (grid, 2, 301, &a, &b));
  g_assert_cmpint (a, ==, 1);
  g_assert_cmpint (b, ==, 20);
  g_assert_false (odori_beat_grid_beats_in_frames (grid, 2, 15, &a, &b));
  g_assert_false (odori_beat_grid_beats_in_frames (grid, 300, 1, &a, &b));
  g_assert_true (odori_beat_grid_beats_in_frames (grid, -29, -14, &a, &b));
  g_assert_cmpint (a, ==, -2);
  g_assert_cmpint (b, ==, -1);

  /* zoomed all the way out: every beat there is, found without visiting them */
  t0 = g_get_monotonic_time ();
  g_assert_true (odori_beat_grid_beats_in_frames (grid, G_MININT64 / 2, G_MAXINT64 / 2, &a, &b));
  g_assert_cmpint (a, ==, -ODORI_BEAT_GRID_MAX_BEAT);
  g_assert_cmpint (b, ==, ODORI_BEAT_GRID_MAX_BEAT);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC / 10);

  for (guint i = 0; i < 300; i++)
    {
      OdoriBeatGrid *g = i % 2 ? odd : dense;
      gint64         first = g_rand_int_range (rand, -300, 3000);
      gint64         last = first + g_rand_int_range (rand, 0, 200);
      gint64         want_a = G_MAXINT64, want_b = G_MININT64;

      for (gint64 k = -20000; k <= 60000; k++)
        {
          gint64 f = odori_beat_grid_beat_frame (g, k);

          if (f >= first && f <= last)
            {
              want_a = MIN (want_a, k);
              want_b = MAX (want_b, k);
            }
        }
      g_assert_true (odori_beat_grid_beats_in_frames (g, first, last, &a, &b) ==
                     (want_a <= want_b));
      if (want_a <= want_b)
        {
          g_assert_cmpint (a, ==, want_a);
          g_assert_cmpint (b, ==, want_b);
        }
    }
}

static void
test_grid_position (void)
{
  g_autoptr(OdoriBeatGrid) grid = odori_beat_grid_new (120, 0, 4, 0, 1.0 / 30);
  OdoriBeatPosition pos;
  g_autofree char  *on = NULL;
  g_autofree char  *between = NULL;
  g_autofree char  *before = NULL;

  g_assert_true (odori_beat_grid_position (grid, 20, &pos)); /* beat 1 at 16 */
  g_assert_cmpint (pos.beat, ==, 1);
  g_assert_cmpint (pos.bar, ==, 1);
  g_assert_cmpuint (pos.beat_in_bar, ==, 2);
  g_assert_cmpuint (pos.count, ==, 2);
  g_assert_cmpint (pos.frames_after, ==, 4);
  g_assert_true (odori_beat_grid_position (grid, 136, &pos)); /* beat 9 */
  g_assert_cmpint (pos.beat, ==, 9);
  g_assert_cmpint (pos.bar, ==, 3);
  g_assert_cmpuint (pos.count, ==, 2);
  g_assert_cmpint (pos.frames_after, ==, 0);
  g_assert_true (odori_beat_grid_position (grid, -20, &pos)); /* beat -2 at -29 */
  g_assert_cmpint (pos.beat, ==, -2);
  g_assert_cmpint (pos.bar, ==, 0);
  g_assert_cmpuint (pos.beat_in_bar, ==, 3);
  g_assert_cmpuint (pos.count, ==, 7);
  g_assert_cmpint (pos.frames_after, ==, 9);

  on = odori_beat_grid_format_frame (grid, 136);
  between = odori_beat_grid_format_frame (grid, 20);
  g_assert_cmpstr (on, ==, "bar 3 · count 2");
  g_assert_cmpstr (between, ==, "bar 1 · count 2 +4");

  {
    const double times[] = { 1.0 };
    g_autoptr(OdoriBeatGrid) list = odori_beat_grid_new_from_beats (times, 1, 4, 0, 0.1);

    before = odori_beat_grid_format_frame (list, 10);
    g_assert_cmpstr (before, ==, "before the first beat");
    g_assert_false (odori_beat_grid_position (list, 10, &pos));
  }
}

static void
test_grid_list (void)
{
  const double times[] = { 0.5, 1.0, 1.6, 2.0 };
  g_autoptr(OdoriBeatGrid) grid = odori_beat_grid_new_from_beats (times, 4, 3, 0, 0.1);
  g_autoptr(OdoriBeatGrid) empty = odori_beat_grid_new_from_beats (NULL, 0, 4, 0, 0.1);
  const gint64      frames[] = { 6, 11, 17, 21 };
  OdoriBeatPosition pos;
  gint64            a, b, k;

  g_assert_true (odori_beat_grid_is_list (grid));
  g_assert_true (odori_beat_grid_get_beats (grid, &a, &b));
  g_assert_cmpint (a, ==, 0);
  g_assert_cmpint (b, ==, 3);
  g_assert_false (odori_beat_grid_has_beat (grid, -1));
  g_assert_false (odori_beat_grid_has_beat (grid, 4));
  g_assert_cmpfloat_with_epsilon (odori_beat_grid_get_tempo (grid), 120, 1e-9);
  g_assert_cmpfloat_with_epsilon (odori_beat_grid_get_frames_per_beat (grid), 5, 1e-9);
  for (gint64 i = 0; i < 4; i++)
    {
      g_assert_cmpfloat (odori_beat_grid_beat_time (grid, i), ==, times[i]);
      g_assert_cmpint (odori_beat_grid_beat_frame (grid, i), ==, frames[i]);
      g_assert_cmpuint (odori_beat_grid_beat_count (grid, i), ==, i + 1);
    }
  g_assert_cmpint (odori_beat_grid_beat_bar (grid, 3), ==, 2);
  g_assert_cmpuint (odori_beat_grid_beat_in_bar (grid, 3), ==, 1);

  g_assert_true (odori_beat_grid_beats_in_frames (grid, 0, 1000, &a, &b));
  g_assert_cmpint (a, ==, 0);
  g_assert_cmpint (b, ==, 3);
  g_assert_true (odori_beat_grid_beats_in_frames (grid, 7, 17, &a, &b));
  g_assert_cmpint (a, ==, 1);
  g_assert_cmpint (b, ==, 2);
  g_assert_false (odori_beat_grid_beats_in_frames (grid, 22, 1000, &a, &b));
  g_assert_false (odori_beat_grid_beats_in_frames (grid, -100, 5, &a, &b));

  g_assert_true (odori_beat_grid_nearest_beat (grid, -50, &k));
  g_assert_cmpint (k, ==, 0);
  g_assert_true (odori_beat_grid_nearest_beat (grid, 1e9, &k));
  g_assert_cmpint (k, ==, 3);
  g_assert_true (odori_beat_grid_nearest_beat (grid, 14.5, &k)); /* 11 and 17: 3.5 vs 2.5 */
  g_assert_cmpint (k, ==, 2);

  g_assert_false (odori_beat_grid_position (grid, 5, &pos));
  g_assert_true (odori_beat_grid_position (grid, 100, &pos));
  g_assert_cmpint (pos.beat, ==, 3);
  g_assert_cmpint (pos.frames_after, ==, 79);

  g_assert_false (odori_beat_grid_get_beats (empty, NULL, NULL));
  g_assert_false (odori_beat_grid_nearest_beat (empty, 1, &k));
  g_assert_false (odori_beat_grid_beats_in_frames (empty, 0, 100, &a, &b));
  g_assert_false (odori_beat_grid_position (empty, 1, &pos));
  g_assert_cmpfloat (odori_beat_grid_get_tempo (empty), ==, 0);
}

static void
test_grid_for_music (void)
{
  OdoriScoreMusic music = { 0 };
  g_autoptr(GArray) beats = g_array_new (FALSE, FALSE, sizeof (double));
  double         t = 0.25;
  OdoriBeatGrid *grid;

  g_assert_null (odori_beat_grid_new_for_music (&music, NULL, 0.1));

  music.tempo = 60;
  grid = odori_beat_grid_new_for_music (&music, NULL, 0.1);
  g_assert_false (odori_beat_grid_is_list (grid));
  g_assert_cmpuint (odori_beat_grid_get_meter (grid), ==, ODORI_METER_DEFAULT);
  g_assert_cmpint (odori_beat_grid_beat_frame (grid, 0), ==, 1);
  g_assert_cmpint (odori_beat_grid_beat_frame (grid, 2), ==, 21);
  odori_beat_grid_unref (grid);

  music.has_downbeat = TRUE;
  music.downbeat = 0.5;
  music.has_offset = TRUE;
  music.offset = -1;
  music.meter = 3;
  grid = odori_beat_grid_new_for_music (&music, NULL, 0.1);
  g_assert_cmpint (odori_beat_grid_beat_frame (grid, 0), ==, 16);
  g_assert_cmpint (odori_beat_grid_beat_bar (grid, 3), ==, 2);
  odori_beat_grid_unref (grid);

  /* a beat list overrides the tempo */
  g_array_append_val (beats, t);
  grid = odori_beat_grid_new_for_music (&music, beats, 0.1);
  g_assert_true (odori_beat_grid_is_list (grid));
  g_assert_cmpint (odori_beat_grid_beat_frame (grid, 0), ==, 14);
  odori_beat_grid_unref (grid);
}

/* Score music lines */

#define MUSIC_SCORE             \
  "# Title: 踊り\n"           \
  "# Author: a\n"               \
  "# Date: d\n"                 \
  "# FrameTime: 0.033333\n"     \
  "# Music: music\\曲 1.ogg\n" \
  "# Tempo: 96.50\n"            \
  "# Downbeat: 1.250\n"         \
  "# Meter: 04\n"               \
  "# MusicOffset: -0\n"         \
  "# Beats: 曲 1.beats\n"      \
  "# a comment\n"               \
  "HD: Body,Head\n"             \
  "1: A1\n"

static OdoriScore *
load_score (const char *text,
            GError    **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  file = odori_text_file_new_from_data ("t.dds", text, strlen (text), error);
  g_assert_nonnull (file);
  return odori_score_load_text (file, error);
}

static char *
score_text (OdoriScore *score)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  gsize       len;
  const char *data;

  odori_score_write (score, out);
  g_assert_true (odori_output_commit (out, NULL));
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  return g_strndup (data, len);
}

static void
test_score_music_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = load_score (MUSIC_SCORE, &error);
  g_autoptr(OdoriScore) loose = NULL;
  g_autofree char *text = NULL;
  g_autofree char *loose_text = NULL;
  g_autofree char *music_path = NULL;
  g_autofree char *beats_path = NULL;
  g_autofree char *changed = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (score->music.path, ==, "music\\曲 1.ogg");
  g_assert_cmpfloat (score->music.tempo, ==, 96.5);
  g_assert_true (score->music.has_downbeat);
  g_assert_cmpfloat (score->music.downbeat, ==, 1.25);
  g_assert_cmpuint (score->music.meter, ==, 4);
  g_assert_true (score->music.has_offset);
  g_assert_cmpfloat (score->music.offset, ==, 0);
  g_assert_cmpstr (score->music.beats_path, ==, "曲 1.beats");
  g_assert_true (odori_score_music_has_grid (&score->music));
  g_assert_cmpuint (score->header_lines->len, ==, 1);

  /* byte for byte, "96.50", "1.250", "04" and "-0" as written */
  text = score_text (score);
  g_assert_cmpstr (text, ==, MUSIC_SCORE);

  /* written the canonical way: "# Key: value", the music lines after the others */
  loose = load_score ("# Title: 踊り\n# Author: a\n# Date: d\n# a comment\n"
                      "#beats:曲 1.beats   \n#  TEMPO :96.50\n# musicoffset:\t-0\n"
                      "# Music: music\\曲 1.ogg\n# Meter: 04\n# Downbeat: 1.250\n"
                      "# FrameTime: 0.033333\nHD: Body,Head\n1: A1\n",
                      &error);
  g_assert_no_error (error);
  loose_text = score_text (loose);
  g_assert_cmpstr (loose_text, ==, MUSIC_SCORE);

  /* a value set in memory: the shortest form that reads back */
  score->music.tempo = 0.1 + 0.2;
  score->music.downbeat = 2;
  score->music.offset = -2.5;
  changed = score_text (score);
  g_assert_nonnull (strstr (changed, "\n# Tempo: 0.30000000000000004\n"));
  g_assert_nonnull (strstr (changed, "\n# Downbeat: 2\n"));
  g_assert_nonnull (strstr (changed, "\n# Meter: 04\n"));
  g_assert_nonnull (strstr (changed, "\n# MusicOffset: -2.5\n"));
  /* set back: as written again */
  score->music.tempo = 96.5;
  score->music.downbeat = 1.25;
  score->music.offset = -0.0;
  g_free (changed);
  changed = score_text (score);
  g_assert_cmpstr (changed, ==, MUSIC_SCORE);

  /* paths resolve against the score's directory, backslashes as separators */
  g_free (score->path);
  score->path = g_strdup ("/data/dances/t.dds");
  music_path = odori_score_dup_music_path (score);
  beats_path = odori_score_dup_beats_path (score);
  g_assert_cmpstr (music_path, ==, "/data/dances/music/曲 1.ogg");
  g_assert_cmpstr (beats_path, ==, "/data/dances/曲 1.beats");
}

static void
test_score_music_absent (void)
{
  static const char text[] = "# Title: t\n# Author: a\n# Date: d\n# Tempo: 120\nHD: Body\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = load_score (text, &error);
  g_autoptr(OdoriScore) none = NULL;
  g_autofree char *written = NULL;

  g_assert_no_error (error);
  g_assert_null (score->music.path);
  g_assert_false (score->music.has_downbeat);
  g_assert_false (score->music.has_offset);
  g_assert_cmpuint (score->music.meter, ==, 0);
  g_assert_null (odori_score_dup_music_path (score));
  g_assert_null (odori_score_dup_beats_path (score));
  g_assert_true (odori_score_music_is_set (&score->music));
  written = score_text (score);
  g_assert_cmpstr (written, ==, text);

  none = load_score ("# Title: t\nHD: Body\n", &error);
  g_assert_no_error (error);
  g_assert_false (odori_score_music_is_set (&none->music));
  g_assert_false (odori_score_music_has_grid (&none->music));
}

static void
test_score_music_bad (void)
{
  static const char *const bad[] = {
    "# Tempo: 0",
    "# Tempo: -5",
    "# Tempo: 1000.5",
    "# Tempo: nan",
    "# Tempo: fast",
    "# Tempo:",
    "# Tempo: 96,5",
    "# Tempo: 96.5 bpm",
    "# Downbeat: 86401",
    "# Downbeat: inf",
    "# Downbeat: 1s",
    "# Meter: 0",
    "# Meter: 33",
    "# Meter: 4.5",
    "# Meter: 3/4",
    "# MusicOffset: -1e6",
    "# MusicOffset: 1,5",
    "# MusicOffset: -inf",
    "# Downbeat:",
  };
  static const char *const good[] = {
    "# Tempo: 1000",
    "# Tempo: 1e-3",
    "# Downbeat: -2.5",
    "# Meter: 1",
    "# Meter: 32",
    "# Meter: +3",
    "# MusicOffset: -86400",
    "# MusicOffset: 86400",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *text = g_strdup_printf ("# Title: t\n\n# Music: a.ogg\n%s\nHD: Body\n",
                                               bad[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriScore) score = load_score (text, &error);

      g_test_message ("%s: %s", bad[i], error ? error->message : "(accepted)");
      g_assert_null (score);
      g_assert_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MUSIC);
      g_assert_true (g_str_has_prefix (error->message, "t.dds:4: expected "));
    }
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *text = g_strdup_printf ("# Title: t\n# Author: \n# Date: \n%s\n",
                                               good[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriScore) score = load_score (text, &error);
      g_autofree char *written = NULL;

      g_assert_no_error (error);
      g_assert_true (odori_score_music_is_valid (&score->music));
      written = score_text (score);
      g_assert_cmpstr (written, ==, text);
    }
}

/* A desktop in German reads and writes the same numbers. */
static void
test_score_music_locale (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autofree char *written = NULL;
  char            *old = g_strdup (setlocale (LC_NUMERIC, NULL));

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale (LC_NUMERIC, "fr_FR.UTF-8") == NULL)
    {
      g_free (old);
      g_test_skip ("no de_DE or fr_FR locale");
      return;
    }
  score = load_score (MUSIC_SCORE, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (score->music.tempo, ==, 96.5);
  score->music.tempo = 100.25;
  written = score_text (score);
  g_assert_nonnull (strstr (written, "\n# Tempo: 100.25\n"));
  setlocale (LC_NUMERIC, old);
  g_free (old);
}

/* Open Music, a new tempo, Remove Music: each one step, undone to the very bytes. */
static void
test_score_music_edit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriScore) score = load_score (MUSIC_SCORE, &error);
  g_autofree char *original = score_text (score);
  OdoriScoreMusic  before = { 0 }, after = { 0 };

  g_assert_no_error (error);

  /* a tapped tempo and a dragged downbeat, recorded as one edit */
  {
    g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Tempo");
    g_autofree char *applied = NULL;
    g_autofree char *reverted = NULL;
    g_autofree char *again = NULL;

    odori_score_music_copy (&score->music, &before);
    odori_score_music_copy (&score->music, &after);
    after.tempo = 101.3;
    odori_score_edit_set_music (edit, &before, &after);
    after.downbeat = 0.75;
    odori_score_edit_set_music (edit, &after, &after); /* the first BEFORE counts */
    g_assert_true (odori_score_edit_get_sets_music (edit));
    g_assert_false (odori_score_edit_is_empty (edit));
    g_assert_true (odori_score_edit_apply (edit, score, &error));
    g_assert_no_error (error);
    applied = score_text (score);
    g_assert_nonnull (strstr (applied, "\n# Tempo: 101.3\n# Downbeat: 0.75\n# Meter: 04\n"));
    g_assert_true (odori_score_edit_revert (edit, score, &error));
    reverted = score_text (score);
    g_assert_cmpstr (reverted, ==, original);
    g_assert_true (odori_score_edit_apply (edit, score, &error));
    again = score_text (score);
    g_assert_cmpstr (again, ==, applied);
    g_assert_true (odori_score_edit_revert (edit, score, &error));
    odori_score_music_clear (&before);
    odori_score_music_clear (&after);
  }

  /* Remove Music */
  {
    g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Remove Music");
    g_autofree char *removed = NULL;
    g_autofree char *reverted = NULL;
    OdoriScoreMusic  none = { 0 };

    odori_score_music_copy (&score->music, &before);
    odori_score_edit_set_music (edit, &before, &none);
    g_assert_true (odori_score_edit_apply (edit, score, &error));
    g_assert_false (odori_score_music_is_set (&score->music));
    removed = score_text (score);
    g_assert_cmpstr (removed, ==, "# Title: 踊り\n# Author: a\n# Date: d\n# FrameTime: 0.033333\n"
                                  "# a comment\nHD: Body,Head\n1: A1\n");
    g_assert_true (odori_score_edit_revert (edit, score, &error));
    reverted = score_text (score);
    g_assert_cmpstr (reverted, ==, original);
    odori_score_music_clear (&before);
  }

  /* Open Music on a score without any */
  {
    g_autoptr(OdoriScore) plain = load_score ("# Title: t\n# Author: a\n# Date: d\n", &error);
    g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Open Music");
    g_autofree char *plain_text = score_text (plain);
    g_autofree char *opened = NULL;
    g_autofree char *reverted = NULL;
    OdoriScoreMusic  none = { 0 };

    after.path = g_strdup ("song.ogg");
    after.tempo = 96.5;
    after.has_offset = TRUE;
    after.offset = 0;
    odori_score_edit_set_music (edit, &none, &after);
    g_assert_true (odori_score_edit_apply (edit, plain, &error));
    opened = score_text (plain);
    g_assert_cmpstr (opened, ==, "# Title: t\n# Author: a\n# Date: d\n# Music: song.ogg\n"
                                 "# Tempo: 96.5\n# MusicOffset: 0\n");
    g_assert_true (odori_score_edit_revert (edit, plain, &error));
    reverted = score_text (plain);
    g_assert_cmpstr (reverted, ==, plain_text);
    odori_score_music_clear (&after);
  }

  /* the same music before and after: nothing to undo */
  {
    g_autoptr(OdoriScoreEdit) edit = odori_score_edit_new ("Tempo");

    odori_score_edit_set_music (edit, &score->music, &score->music);
    g_assert_false (odori_score_edit_get_sets_music (edit));
    g_assert_true (odori_score_edit_is_empty (edit));
  }
}

/* .beats */

#define BEATS_FILE              \
  "# beat times of a waltz\r\n" \
  "\r\n"                        \
  "0.5\r\n"                     \
  "  1.25  # the downbeat\r\n"  \
  "\t2\r\n"                     \
  "2.0000000001\r\n"            \
  "1e1\r\n"

static GArray *
load_beats (const char *text,
            gsize       len,
            GError    **error)
{
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data ("b.beats", text, len, error);

  if (file == NULL)
    return NULL;
  return odori_beats_load_text (file, error);
}

static void
test_beats_read (void)
{
  static const double want[] = { 0.5, 1.25, 2, 2.0000000001, 10 };
  /* a Shift_JIS comment (ビート) */
  static const char sjis[] = "# \x83\x72\x81\x5b\x83\x67\n0.25\n0.5\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) times = load_beats (BEATS_FILE, strlen (BEATS_FILE), &error);
  g_autoptr(GArray) sj = NULL;
  g_autoptr(GArray) none = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (times->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < times->len; i++)
    g_assert_cmpfloat (g_array_index (times, double, i), ==, want[i]);

  sj = load_beats (sjis, strlen (sjis), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sj->len, ==, 2);
  g_assert_cmpfloat (g_array_index (sj, double, 1), ==, 0.5);

  none = load_beats ("# nothing yet\n\n", 15, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_beats_errors (void)
{
  static const struct
  {
    const char *text;
    int         code;
    const char *prefix;
  } table[] = {
    { "1\n2\n2\n", ODORI_BEATS_ERROR_ORDER, "b.beats:3: beat time 2 is not after the one before "
                                            "it (2 at line 2)" },
    { "1\n# c\n0.5\n", ODORI_BEATS_ERROR_ORDER, "b.beats:3: beat time 0.5 is not after" },
    { "1\nx\n", ODORI_BEATS_ERROR_SYNTAX, "b.beats:2: expected a beat time in seconds" },
    { "1 2\n", ODORI_BEATS_ERROR_SYNTAX, "b.beats:1: expected a beat time" },
    { "1,5\n", ODORI_BEATS_ERROR_SYNTAX, "b.beats:1: expected a beat time" },
    { "\n\n-1\n", ODORI_BEATS_ERROR_RANGE, "b.beats:3: beat time -1 is out of range" },
    { "86400.5\n", ODORI_BEATS_ERROR_RANGE, "b.beats:1: beat time 86400.5 is out of range" },
    { "nan\n", ODORI_BEATS_ERROR_RANGE, "b.beats:1: beat time \"nan\" is not a finite number" },
    { "0\n-inf\n", ODORI_BEATS_ERROR_RANGE, "b.beats:2: beat time \"-inf\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) times = load_beats (table[i].text, strlen (table[i].text), &error);

      g_test_message ("%s", error ? error->message : "(accepted)");
      g_assert_null (times);
      g_assert_error (error, ODORI_BEATS_ERROR, table[i].code);
      g_assert_true (g_str_has_prefix (error->message, table[i].prefix));
    }

  /* one beat more than allowed: refused at that line */
  {
    GString *s = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) times = NULL;
    g_autofree char *prefix = NULL;

    for (guint i = 0; i <= ODORI_BEATS_MAX; i++)
      g_string_append_printf (s, "%u.%02u\n", i / 100, i % 100);
    times = load_beats (s->str, s->len, &error);
    g_assert_null (times);
    g_assert_error (error, ODORI_BEATS_ERROR, ODORI_BEATS_ERROR_TOO_MANY);
    prefix = g_strdup_printf ("b.beats:%d: more than", ODORI_BEATS_MAX + 1);
    g_assert_true (g_str_has_prefix (error->message, prefix));
    g_string_free (s, TRUE);
  }
}

static void
test_beats_write (void)
{
  const double times[] = { 0, 0.1 + 0.2, 1.25, 1.2500000000000002, 96.5, 1000 / 3.0, 86400 };
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GArray) back = NULL;
  g_autoptr(GArray) from_file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  gsize            len;
  const char      *data;

  odori_beats_write (times, G_N_ELEMENTS (times), out);
  g_assert_true (odori_output_commit (out, &error));
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpmem (data, len,
                   "# beat times in seconds, one a line (Odori)\n0\n0.30000000000000004\n1.25\n"
                   "1.2500000000000002\n96.5\n333.3333333333333\n86400\n",
                   strlen ("# beat times in seconds, one a line (Odori)\n0\n0.30000000000000004\n"
                           "1.25\n1.2500000000000002\n96.5\n333.3333333333333\n86400\n"));
  back = load_beats (data, len, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (back->data, back->len * sizeof (double), times, sizeof times);

  dir = g_dir_make_tmp ("odori-beats-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "song.beats", NULL);
  g_assert_true (odori_beats_save (times, G_N_ELEMENTS (times), path, &error));
  g_assert_no_error (error);
  from_file = odori_beats_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (from_file->data, from_file->len * sizeof (double), times, sizeof times);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* odori-cli info shows the music line, in text and in JSON. */
static void
test_cli_info_music (void)
{
  static const char text[] = "# Title: t\n# Author: a\n# Date: d\n# Music: song.ogg\n"
                             "# Tempo: 96.50\n# Downbeat: 1.250\n# Meter: 4\n"
                             "# MusicOffset: -0.5\n# Beats: song.beats\nHD: Body\n1: A1\n";
  const char       *cli = g_getenv ("ODORI_CLI");
  char             *envp[] = { (char *) "LC_ALL=C", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *json = NULL;
  int              status = -1;

  if (cli == NULL)
    {
      g_test_skip ("ODORI_CLI is not set");
      return;
    }
  dir = g_dir_make_tmp ("odori-music-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "s.dds", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, &error));

  {
    const char *argv[] = { cli, "info", path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, 0, NULL, NULL, &out, NULL, &status,
                                 &error));
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, "\n  music: song.ogg, 96.5 bpm, 4 beats a bar, downbeat 1.25 s, "
                                   "offset -0.5 s, beats song.beats\n"));
  }
  {
    const char *argv[] = { cli, "info", "--json", path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, 0, NULL, NULL, &json, NULL,
                                 &status, &error));
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (json, "\"music\" : {\n    \"path\" : \"song.ogg\",\n    "
                                    "\"tempo\" : 96.5,\n    \"meter\" : 4,\n    "
                                    "\"downbeat\" : 1.25,\n    \"offset\" : -0.5,\n    "
                                    "\"beats\" : \"song.beats\"\n  }"));
  }
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/beat-grid/formula", test_grid_formula);
  g_test_add_func ("/core/beat-grid/no-drift", test_grid_no_drift);
  g_test_add_func ("/core/beat-grid/nearest", test_grid_nearest);
  g_test_add_func ("/core/beat-grid/range", test_grid_range);
  g_test_add_func ("/core/beat-grid/position", test_grid_position);
  g_test_add_func ("/core/beat-grid/list", test_grid_list);
  g_test_add_func ("/core/beat-grid/for-music", test_grid_for_music);
  g_test_add_func ("/core/score/music/round-trip", test_score_music_round_trip);
  g_test_add_func ("/core/score/music/absent", test_score_music_absent);
  g_test_add_func ("/core/score/music/bad-values", test_score_music_bad);
  g_test_add_func ("/core/score/music/locale", test_score_music_locale);
  g_test_add_func ("/core/score/music/edit-undo", test_score_music_edit);
  g_test_add_func ("/core/beats/read", test_beats_read);
  g_test_add_func ("/core/beats/errors", test_beats_errors);
  g_test_add_func ("/core/beats/write", test_beats_write);
  g_test_add_func ("/cli/info/music", test_cli_info_music);
  return g_test_run ();
}
