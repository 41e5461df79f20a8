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

/* Differential check of the parallel readers (which big files take): FILE read again on
 * three threads must give what the sequential read gave, MOTION (bit for bit) or the
 * error with MESSAGE, and as many warnings as N_WARNINGS. */
#include "odori-motion.h"
#include "odori-text-private.h"

typedef OdoriMotion *(*FuzzLoadFunc) (OdoriTextFile *, GPtrArray *, GError **);

static inline void
fuzz_check_parallel (FuzzLoadFunc       load,
                     OdoriTextFile     *file,
                     const OdoriMotion *motion,
                     const char        *message,
                     guint              n_warnings)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) par = NULL;

  odori_text_set_test_load_threads (3);
  par = load (file, warnings, &error);
  odori_text_set_test_load_threads (0);
  if ((par == NULL) != (motion == NULL))
    fuzz_fail ("sequential: %s; on 3 threads: %s", message ? message : "loaded",
               error ? error->message : "loaded");
  if (motion == NULL)
    {
      if (g_strcmp0 (message, error->message) != 0)
        fuzz_fail ("sequential: %s; on 3 threads: %s", message, error->message);
      return;
    }
  if (warnings->len != n_warnings)
    fuzz_fail ("%u warnings sequentially, %u on 3 threads", n_warnings, warnings->len);
  if (par->n_frames != motion->n_frames || par->n_segments != motion->n_segments ||
      memcmp (par->transforms, motion->transforms,
              sizeof (OdoriTransform) * motion->n_frames * motion->n_segments) != 0)
    fuzz_fail ("the parallel reader read another motion (%u x %u, sequentially %u x %u)",
               par->n_frames, par->n_segments, motion->n_frames, motion->n_segments);
  for (guint s = 0; s < motion->n_segments; s++)
    if (g_strcmp0 (par->segments[s].name, motion->segments[s].name) != 0)
      fuzz_fail ("segment %u: \"%s\" on 3 threads, \"%s\" sequentially", s,
                 par->segments[s].name, motion->segments[s].name);
}

/* Differential check of the streamed readers (odori_bva_load, odori_bvh_load: files read
 * through one reused buffer): DATA written to a file named NAME and read by LOAD through
 * a buffer of a few dozen bytes (so that lines cross block ends), on one thread and on
 * three, must give MOTION bit for bit, or the error MESSAGE (about NAME, the whole-file
 * reader's), and N_WARNINGS warnings. */
#include <glib/gstdio.h>

#include "odori-reader.h"

typedef OdoriMotion *(*FuzzPathLoadFunc) (const char *, GPtrArray *, GError **);

static inline void
fuzz_check_stream (FuzzPathLoadFunc   load,
                   const char        *name,
                   const uint8_t     *data,
                   size_t             size,
                   const OdoriMotion *motion,
                   const char        *message,
                   guint              n_warnings)
{
  static char *dir;
  g_autofree char *path = NULL;
  FILE *f;

  if (dir == NULL)
    dir = g_dir_make_tmp ("odori-fuzz-XXXXXX", NULL);
  if (dir == NULL)
    fuzz_fail ("cannot make a temporary folder");
  path = g_build_filename (dir, name, NULL);
  f = g_fopen (path, "wb");
  if (f == NULL || fwrite (data, 1, size, f) != size || fclose (f) != 0)
    fuzz_fail ("cannot write %s", path);

  for (guint threads = 1; threads <= 3; threads += 2)
    {
      g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(OdoriMotion) streamed = NULL;

      odori_line_stream_set_test_block (4 + (size * 7 + threads) % 97);
      odori_text_set_test_load_threads (threads);
      streamed = load (path, warnings, &error);
      odori_text_set_test_load_threads (0);
      odori_line_stream_set_test_block (0);
      if ((streamed == NULL) != (motion == NULL))
        fuzz_fail ("whole: %s; streamed on %u threads: %s", message ? message : "loaded",
                   threads, error ? error->message : "loaded");
      if (motion == NULL)
        {
          if (!g_str_has_prefix (error->message, path) || !g_str_has_prefix (message, name) ||
              strcmp (error->message + strlen (path), message + strlen (name)) != 0)
            fuzz_fail ("whole: %s; streamed on %u threads: %s", message, threads, error->message);
          continue;
        }
      if (warnings->len != n_warnings)
        fuzz_fail ("%u warnings whole, %u streamed", n_warnings, warnings->len);
      if (streamed->n_frames != motion->n_frames || streamed->n_segments != motion->n_segments ||
          memcmp (streamed->transforms, motion->transforms,
                  sizeof (OdoriTransform) * motion->n_frames * motion->n_segments) != 0)
        fuzz_fail ("the streamed reader read another motion (%u x %u, whole %u x %u)",
                   streamed->n_frames, streamed->n_segments, motion->n_frames, motion->n_segments);
      for (guint s = 0; s < motion->n_segments; s++)
        if (g_strcmp0 (streamed->segments[s].name, motion->segments[s].name) != 0)
          fuzz_fail ("segment %u: \"%s\" streamed, \"%s\" whole", s,
                     streamed->segments[s].name, motion->segments[s].name);
    }
  g_unlink (path);
}
