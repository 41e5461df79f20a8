/* odori-beats.c: the .beats file, beat times of music without a steady pulse
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-beats.h"
#include "odori-reader.h"

G_DEFINE_QUARK (odori - beats - error - quark, odori_beats_error)

char *
odori_beats_format_time (double x)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int  digits;

  g_return_val_if_fail (isfinite (x), g_strdup ("0"));

  for (digits = 1; digits < 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, x);
      if (g_ascii_strtod (buf, NULL) == x)
        break;
    }
  if (digits == 17)
    g_ascii_formatd (buf, sizeof buf, "%.17g", x);

  /* "86400" rather than "8.64e+04": the same digits without an exponent, when they are
   * few enough to read at a glance */
  if (strchr (buf, 'e') != NULL && fabs (x) >= 1e-6 && fabs (x) < 1e15)
    {
      char fixed[G_ASCII_DTOSTR_BUF_SIZE];
      char format[8];
      int  decimals = MAX (0, digits - 1 - (int) floor (log10 (fabs (x))));

      g_snprintf (format, sizeof format, "%%.%df", MIN (decimals, 30));
      g_ascii_formatd (fixed, sizeof fixed, format, x);
      if (g_ascii_strtod (fixed, NULL) == x)
        return g_strdup (fixed);
    }
  return g_strdup (buf);
}

/* The number on one line [P, END), blanks and comment already cut, appended to TIMES. */
static gboolean
parse_time (GArray     *times,
            const char *path,
            guint       lineno,
            guint      *last_line,
            const char *p,
            const char *end,
            GError    **error)
{
  g_autofree char *got = odori_excerpt (p, end - p);
  const char      *q = p;
  double           x;

  if (times->len >= ODORI_BEATS_MAX)
    return odori_set_error (error, ODORI_BEATS_ERROR, ODORI_BEATS_ERROR_TOO_MANY, path, lineno,
                            _("more than %d beats"), ODORI_BEATS_MAX);
  if (odori_looks_non_finite (p, end))
    return odori_set_error (error, ODORI_BEATS_ERROR, ODORI_BEATS_ERROR_RANGE, path, lineno,
                            _("beat time \"%s\" is not a finite number"), got);
  if (!odori_parse_double (&q, end, &x) || q != end)
    return odori_set_error (error, ODORI_BEATS_ERROR, ODORI_BEATS_ERROR_SYNTAX, path, lineno,
                            _("expected a beat time in seconds, one number a line like 1.250, "
                               "got \"%s\""),
                            got);
  if (!(x >= 0) || !(x <= ODORI_BEATS_TIME_MAX))
    return odori_set_error (error, ODORI_BEATS_ERROR, ODORI_BEATS_ERROR_RANGE, path, lineno,
                            _("beat time %s is out of range (expected 0 to 86400 seconds)"),
                            got);
  if (times->len > 0 && !(x > g_array_index (times, double, times->len - 1)))
    {
      g_autofree char *before = odori_beats_format_time (g_array_index (times, double,
                                                                        times->len - 1));

      return odori_set_error (error, ODORI_BEATS_ERROR, ODORI_BEATS_ERROR_ORDER, path, lineno,
                              _("beat time %s is not after the one before it (%s at line %u): "
                                 "beat times must increase"),
                              got, before, *last_line);
    }
  g_array_append_val (times, x);
  *last_line = lineno;
  return TRUE;
}

/**
 * odori_beats_load_text:
 * @file: a decoded text file
 * @error: return location for an error in %ODORI_BEATS_ERROR
 *
 * Returns: (transfer full) (nullable) (element-type double): the beat times, or %NULL
 */
GArray *
odori_beats_load_text (OdoriTextFile *file,
                       GError       **error)
{
  g_autoptr(GArray) times = NULL;
  const char     *path;
  OdoriLineReader reader;
  guint           last_line = 0;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = odori_text_file_get_path (file) ? odori_text_file_get_path (file) : "(beats)";
  times = g_array_new (FALSE, FALSE, sizeof (double));
  odori_line_reader_init (&reader, file);
  while (odori_line_reader_next (&reader))
    {
      const char *line = reader.line;
      const char *hash = memchr (line, '#', reader.len);
      const char *end = odori_trim_blanks (line, hash ? hash : line + reader.len);
      const char *p = odori_skip_blanks (line, end);

      if (p < end && !parse_time (times, path, reader.lineno, &last_line, p, end, error))
        return NULL;
    }
  return g_steal_pointer (&times);
}

/**
 * odori_beats_load:
 * @path: a .beats file
 * @error: return location for an error in %ODORI_BEATS_ERROR or %ODORI_TEXT_ERROR
 *
 * Returns: (transfer full) (nullable) (element-type double): the beat times, or %NULL
 */
GArray *
odori_beats_load (const char *path,
                  GError    **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  return odori_beats_load_text (file, error);
}

/**
 * odori_beats_write:
 * @times: (array length=n_times): beat times, as the reader accepts them
 * @n_times: how many
 * @out: where to write
 *
 * A comment line, then one time a line in its shortest exact form.
 */
void
odori_beats_write (const double *times,
                   gsize         n_times,
                   OdoriOutput  *out)
{
  g_return_if_fail (times != NULL || n_times == 0);
  g_return_if_fail (out != NULL);

  odori_output_text (out, "# beat times in seconds, one a line (Odori)\n");
  for (gsize i = 0; i < n_times; i++)
    {
      g_autofree char *text = odori_beats_format_time (times[i]);

      g_warn_if_fail (i == 0 || times[i] > times[i - 1]);
      odori_output_text (out, text);
      odori_output_char (out, '\n');
    }
}

/**
 * odori_beats_save:
 * @times: (array length=n_times): beat times, as the reader accepts them
 * @n_times: how many
 * @path: the file to write (atomically)
 * @error: return location for an error in %ODORI_TEXT_ERROR
 *
 * Returns: %TRUE on success
 */
gboolean
odori_beats_save (const double *times,
                  gsize         n_times,
                  const char   *path,
                  GError      **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (times != NULL || n_times == 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  odori_beats_write (times, n_times, out);
  return odori_output_commit (out, error);
}
