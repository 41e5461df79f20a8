/* odori-beats.h: the .beats file, beat times of music without a steady pulse
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/formats.md, "Beats": one beat time a line, in seconds into the music
 * (`1.250`), finite, from 0 to ODORI_BEATS_TIME_MAX, strictly increasing; blank lines
 * and '#' comments (whole lines or after the number) are allowed. UTF-8 or Shift_JIS
 * like every text file Odori reads; written in UTF-8 (ASCII), LF line ends, each time in
 * the shortest form that reads back exactly.
 */
#pragma once

#include <glib.h>

#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_BEATS_ERROR (odori_beats_error_quark ())

typedef enum
{
  ODORI_BEATS_ERROR_SYNTAX,   /* a line that is not one number */
  ODORI_BEATS_ERROR_RANGE,    /* not finite, negative, or above ODORI_BEATS_TIME_MAX */
  ODORI_BEATS_ERROR_ORDER,    /* a time not after the one before it */
  ODORI_BEATS_ERROR_TOO_MANY, /* more than ODORI_BEATS_MAX beats */
} OdoriBeatsError;

/* Most beats a file may hold: a day of music at almost 700 beats per minute. */
#define ODORI_BEATS_MAX 1000000
/* Latest beat time, in seconds: a day (ODORI_MUSIC_SECONDS_MAX of odori-score.h). */
#define ODORI_BEATS_TIME_MAX 86400.0

GQuark odori_beats_error_quark (void);
/* The beat times (GArray of double), or NULL with an error in ODORI_BEATS_ERROR (or
 * ODORI_TEXT_ERROR from opening the file). */
GArray *odori_beats_load (const char *path,
                          GError    **error);
GArray *odori_beats_load_text (OdoriTextFile *file,
                               GError       **error);
/* Writes N_TIMES times (finite, in range, increasing: what the reader accepts). */
void odori_beats_write (const double *times,
                        gsize         n_times,
                        OdoriOutput  *out);
/* The same into PATH, atomically (ODORI_TEXT_ERROR on failure). */
gboolean odori_beats_save (const double *times,
                           gsize         n_times,
                           const char   *path,
                           GError      **error);
/* The shortest text that reads back as X exactly ("1.25", "0.1", "86400"; no exponent
 * from 1e-6 to 1e15), '.' whatever the locale; also for a score's music numbers. X must
 * be finite. */
char *odori_beats_format_time (double x);

G_END_DECLS
