/* fuzz-common.h: shared helpers for the libFuzzer targets in tests/fuzz
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every target reads the fuzzer's bytes as a file of its format. A reader may refuse the
 * input (a GError), but must not crash, leak, hang, or emit a GLib critical or warning:
 * those are made fatal so libFuzzer reports them as crashes. When the input loads, the
 * targets write it back (into memory) and read the result again: a file Odori writes
 * must always load, with the same shape.
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "odori-text.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* ODORI_FUZZ_VERBOSE=1 says, per input, whether it loaded or why it was refused (for
 * replaying seeds and crashers by hand). */
static gboolean fuzz_verbose;

/* Criticals (g_return_if_fail) and warnings are bugs when the input is all that varies. */
static inline void
fuzz_init (void)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_log_set_fatal_mask ("Odori", G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  fuzz_verbose = g_strcmp0 (g_getenv ("ODORI_FUZZ_VERBOSE"), "1") == 0;
}

#define fuzz_note(...)                          \
  G_STMT_START                                  \
  {                                             \
    if (fuzz_verbose)                           \
      {                                         \
        fprintf (stderr, "fuzz: " __VA_ARGS__); \
        fputc ('\n', stderr);                   \
      }                                         \
  }                                             \
  G_STMT_END

/* Stops the run with a message; libFuzzer saves the input as a crasher. */
#define fuzz_fail(...)                      \
  G_STMT_START                              \
  {                                         \
    fprintf (stderr, "fuzz: " __VA_ARGS__); \
    fputc ('\n', stderr);                   \
    abort ();                               \
  }                                         \
  G_STMT_END

/* A refusal: an error, whose message starts with "NAME:" (FILE:LINE: ...), is valid
 * UTF-8 and short (a reader quotes at most a few dozen bytes of the input). */
static inline void
fuzz_check_error (const GError *error,
                  const char   *name)
{
  gsize n = strlen (name);

  if (error == NULL)
    fuzz_fail ("NULL without an error");
  if (strncmp (error->message, name, n) != 0 || error->message[n] != ':')
    fuzz_fail ("error message without FILE:LINE: %s", error->message);
  if (!g_utf8_validate (error->message, -1, NULL))
    fuzz_fail ("error message is not valid UTF-8: %s", error->message);
  if (strlen (error->message) > 4096)
    fuzz_fail ("error message of %zu bytes", strlen (error->message));
  fuzz_note ("refused: %s", error->message);
}

/* Warnings, as OdoriDiagnostic: valid UTF-8, short. */
static inline void
fuzz_check_diagnostics (GPtrArray *diagnostics)
{
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      const OdoriDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (d->message == NULL || !g_utf8_validate (d->message, -1, NULL))
        fuzz_fail ("diagnostic %u is not valid UTF-8: %s", i, d->message);
      if (strlen (d->message) > 4096)
        fuzz_fail ("diagnostic %u of %zu bytes", i, strlen (d->message));
      if (d->file != NULL && !g_utf8_validate (d->file, -1, NULL))
        fuzz_fail ("diagnostic %u: file name not valid UTF-8", i);
    }
}

/* The bytes an in-memory OUT received (commit must succeed: memory cannot fail). */
static inline GBytes *
fuzz_output_bytes (OdoriOutput *out)
{
  g_autoptr(GError) error = NULL;

  if (!odori_output_commit (out, &error))
    fuzz_fail ("writing to memory failed: %s", error->message);
  return odori_output_steal_bytes (out);
}

/* An OdoriTextFile over the bytes an output received, for reading them back. */
static inline OdoriTextFile *
fuzz_reopen (const char  *name,
             OdoriOutput *out)
{
  g_autoptr(GBytes) bytes = fuzz_output_bytes (out);
  g_autoptr(GError) error = NULL;
  gsize          len;
  const char    *data = g_bytes_get_data (bytes, &len);
  OdoriTextFile *file = odori_text_file_new_from_data (name, data, len, &error);

  if (file == NULL)
    fuzz_fail ("what Odori wrote is not readable text: %s", error->message);
  return file;
}
