/* fuzz-beats.c: libFuzzer target for the .beats reader and writer, and the beat grid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "fuzz-common.h"
#include "odori-beat-grid.h"
#include "odori-beats.h"
#include "odori-score.h"

#define NAME "fuzz.beats"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

/* What the reader accepts is what docs/formats.md "Beats" says. */
static void
check_times (GArray *times)
{
  if (times->len > ODORI_BEATS_MAX)
    fuzz_fail ("%u beats were accepted", times->len);
  for (guint i = 0; i < times->len; i++)
    {
      double t = g_array_index (times, double, i);

      if (!isfinite (t) || t < 0 || t > ODORI_BEATS_TIME_MAX)
        fuzz_fail ("beat time %g was accepted", t);
      if (i > 0 && !(t > g_array_index (times, double, i - 1)))
        fuzz_fail ("beat %u (%.17g) is not after the one before it", i, t);
    }
}

/* A grid of the beats: frames never decrease, and the searches agree with them. */
static void
check_grid (GArray *times)
{
  g_autoptr(OdoriBeatGrid) grid = NULL;
  gint64 prev = G_MININT64;
  gint64 k, a, b;

  grid = odori_beat_grid_new_from_beats ((const double *) times->data, times->len, 4, -1.5,
                                         1.0 / 30);
  for (guint i = 0; i < times->len && i < 1000; i++)
    {
      gint64            f = odori_beat_grid_beat_frame (grid, i);
      OdoriBeatPosition pos;

      if (f < prev)
        fuzz_fail ("beat %u at frame %" G_GINT64_FORMAT " before the one before it", i, f);
      prev = f;
      if (!odori_beat_grid_nearest_beat (grid, (double) f, &k) ||
          odori_beat_grid_beat_frame (grid, k) != f)
        fuzz_fail ("the beat nearest to frame %" G_GINT64_FORMAT " is not on it", f);
      if (!odori_beat_grid_beats_in_frames (grid, f, f, &a, &b) || a > i || b < i)
        fuzz_fail ("beat %u is not among the beats of its frame", i);
      if (!odori_beat_grid_position (grid, f, &pos) || pos.frames_after != 0 || pos.beat < i)
        fuzz_fail ("frame %" G_GINT64_FORMAT " is not on beat %u", f, i);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(OdoriTextFile) again = NULL;
  g_autoptr(GArray) times = NULL;
  g_autoptr(GArray) reread = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GError) error = NULL;

  file = odori_text_file_new_from_data (NAME, (const char *) data, size, &error);
  if (file == NULL)
    return 0;

  times = odori_beats_load_text (file, &error);
  if (times == NULL)
    {
      fuzz_check_error (error, NAME);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("beats and an error: %s", error->message);
  fuzz_note ("loaded %u beats", times->len);
  check_times (times);
  check_grid (times);

  out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  odori_beats_write ((const double *) times->data, times->len, out);
  again = fuzz_reopen (NAME, out);
  reread = odori_beats_load_text (again, &error);
  if (reread == NULL)
    fuzz_fail ("what the .beats writer wrote does not load: %s", error->message);
  if (reread->len != times->len)
    fuzz_fail ("write and read again: %u beats became %u", times->len, reread->len);
  for (guint i = 0; i < times->len; i++)
    if (g_array_index (reread, double, i) != g_array_index (times, double, i))
      fuzz_fail ("beat %u: %.17g became %.17g", i, g_array_index (times, double, i),
                 g_array_index (reread, double, i));
  return 0;
}
