/* music-test-util.h: music the tests make themselves (a click track as WAV)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only, for the tests of the music player and the window's music: a click of
 * 25 ms (a 2 kHz tone decaying in 5 ms) on every beat, as in tests/test-music.c.
 */
#pragma once

#include <math.h>

#include <glib.h>

#define MUSIC_TEST_RATE 22050

static inline void
music_test_put_le (GByteArray *out,
                   guint32     v,
                   guint       bytes)
{
  for (guint i = 0; i < bytes; i++)
    {
      guint8 b = (v >> (8 * i)) & 0xff;
      g_byte_array_append (out, &b, 1);
    }
}

/* SECONDS of 16-bit mono WAV at MUSIC_TEST_RATE with a click every 60/BPM s from FIRST
 * on, loud ones on every fourth beat. */
static inline void
music_test_write_clicks (const char *path,
                         double      seconds,
                         double      bpm,
                         double      first)
{
  guint n = (guint) (seconds * MUSIC_TEST_RATE);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (44 + 2 * n);
  double period = 60.0 / bpm;
  g_autoptr(GError) error = NULL;

  g_byte_array_append (out, (const guint8 *) "RIFF", 4);
  music_test_put_le (out, 36 + 2 * n, 4);
  g_byte_array_append (out, (const guint8 *) "WAVEfmt ", 8);
  music_test_put_le (out, 16, 4);
  music_test_put_le (out, 1, 2);
  music_test_put_le (out, 1, 2);
  music_test_put_le (out, MUSIC_TEST_RATE, 4);
  music_test_put_le (out, MUSIC_TEST_RATE * 2, 4);
  music_test_put_le (out, 2, 2);
  music_test_put_le (out, 16, 2);
  g_byte_array_append (out, (const guint8 *) "data", 4);
  music_test_put_le (out, 2 * n, 4);
  for (guint i = 0; i < n; i++)
    {
      double t = (double) i / MUSIC_TEST_RATE;
      double k = floor ((t - first) / period);
      double dt = k < 0 ? -1 : t - (first + k * period);
      double loud = ((long) k % 4 == 0) ? 0.9 : 0.5;
      double v = dt < 0 || dt > 0.025 ? 0 : loud * exp (-dt / 0.005) * sin (2 * G_PI * 2000 * dt);

      music_test_put_le (out, (guint16) (gint16) lround (v * 32767), 2);
    }
  g_assert_true (g_file_set_contents (path, (const char *) out->data, out->len, &error));
}
