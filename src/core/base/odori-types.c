/* odori-types.c: diagnostics shared by the core's readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-types.h"

/**
 * odori_diagnostic_new:
 * @file: (nullable): the file the diagnostic is about, as given by the caller
 * @line: 1-based line, or 0 when not tied to a line
 * @is_error: %TRUE for an error, %FALSE for a warning
 * @format: printf-style format of the message (UTF-8, without file and line)
 *
 * Returns: (transfer full): a new diagnostic, free with odori_diagnostic_free()
 */
OdoriDiagnostic *
odori_diagnostic_new (const char *file,
                      guint       line,
                      gboolean    is_error,
                      const char *format,
                      ...)
{
  OdoriDiagnostic *diag;
  va_list args;

  g_return_val_if_fail (format != NULL, NULL);

  diag = g_new0 (OdoriDiagnostic, 1);
  diag->file = g_strdup (file);
  diag->line = line;
  diag->is_error = !!is_error;

  va_start (args, format);
  diag->message = g_strdup_vprintf (format, args);
  va_end (args);

  return diag;
}

void
odori_diagnostic_free (OdoriDiagnostic *diag)
{
  if (diag == NULL)
    return;

  g_free (diag->file);
  g_free (diag->message);
  g_free (diag);
}

/**
 * odori_diagnostic_to_string:
 * @diag: a diagnostic
 *
 * Formats @diag the way compilers do: `file:line: message`, `file: message` when the
 * line is 0, or just the message when there is no file.
 *
 * Returns: (transfer full): the text
 */
char *
odori_diagnostic_to_string (const OdoriDiagnostic *diag)
{
  const char *message;

  g_return_val_if_fail (diag != NULL, NULL);

  message = diag->message != NULL ? diag->message : "";

  if (diag->file == NULL)
    return g_strdup (message);
  if (diag->line == 0)
    return g_strdup_printf ("%s: %s", diag->file, message);
  return g_strdup_printf ("%s:%u: %s", diag->file, diag->line, message);
}

/**
 * odori_diagnostics_new:
 *
 * Returns: (transfer full) (element-type OdoriDiagnostic): an empty array that frees
 *   its diagnostics
 */
GPtrArray *
odori_diagnostics_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) odori_diagnostic_free);
}
