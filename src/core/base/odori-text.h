/* odori-text.h: decoding, line reading, and locale-independent numbers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "odori-types.h"

G_BEGIN_DECLS

#define ODORI_TEXT_ERROR (odori_text_error_quark ())

typedef enum
{
  ODORI_TEXT_ERROR_IO,        /* cannot open or read the file */
  ODORI_TEXT_ERROR_ENCODING,  /* neither valid UTF-8 nor valid Shift_JIS/CP932 */
  ODORI_TEXT_ERROR_UNMAPPABLE,/* text cannot be written in the file's encoding */
  ODORI_TEXT_ERROR_TOO_LARGE,
} OdoriTextError;

typedef enum
{
  ODORI_ENCODING_UTF8,
  ODORI_ENCODING_UTF8_BOM,
  ODORI_ENCODING_SHIFT_JIS,   /* CP932, the Windows superset of Shift_JIS */
} OdoriEncoding;

GQuark         odori_text_error_quark        (void);
const char    *odori_encoding_to_string      (OdoriEncoding  encoding);

/* Opens PATH for reading if it is a regular file, without ever blocking: a FIFO, a
 * device or a directory is refused with "PATH: not a regular file". The descriptor is
 * close-on-exec and blocking again once checked. -1 and ERROR on failure. */
int            odori_open_regular_file       (const char     *path,
                                              GError        **error);
/* g_mapped_file_new () through odori_open_regular_file (). */
GMappedFile   *odori_mapped_file_new         (const char     *path,
                                              GError        **error);

/* A whole text file as UTF-8 (BOM removed). Plain UTF-8/ASCII files are memory-mapped,
 * not copied; Shift_JIS files are decoded into a new buffer. The data is not
 * NUL-terminated: always use the length. */
OdoriTextFile *odori_text_file_open          (const char     *path,
                                              GError        **error);
OdoriTextFile *odori_text_file_new_from_data (const char     *display_name,
                                              const char     *data,
                                              gsize           len,
                                              GError        **error);
void           odori_text_file_free          (OdoriTextFile  *file);
const char    *odori_text_file_get_path      (OdoriTextFile  *file);
OdoriEncoding  odori_text_file_get_encoding  (OdoriTextFile  *file);
const char    *odori_text_file_get_data      (OdoriTextFile  *file,
                                              gsize          *len);

/* Decode a buffer to NUL-terminated UTF-8 (valid UTF-8 first, else CP932). */
char          *odori_text_decode             (const char     *data,
                                              gsize           len,
                                              const char     *display_name,
                                              OdoriEncoding  *encoding,
                                              gsize          *out_len,
                                              GError        **error);
/* Encode UTF-8 text for writing in ENCODING (adds the BOM for UTF8_BOM). */
char          *odori_text_encode             (const char     *utf8,
                                              gssize          len,
                                              OdoriEncoding   encoding,
                                              gsize          *out_len,
                                              GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriTextFile, odori_text_file_free)

/* Line reader over an OdoriTextFile. Accepts LF, CRLF and CR line ends (the file's
 * first line end decides between LF/CRLF and CR for the whole file). After
 * odori_line_reader_next() returns TRUE, line/len hold the line without its end and
 * lineno its 1-based number. The line is NOT NUL-terminated, and may become invalid
 * after later calls (mapped pages already read are released): copy what you keep. */
typedef struct
{
  const char    *line;
  gsize          len;
  guint          lineno;
  /*< private >*/
  const char    *cur;
  const char    *end;
  const char    *released;
  OdoriTextFile *file;
  gboolean       cr_only;
} OdoriLineReader;

void           odori_line_reader_init        (OdoriLineReader *reader,
                                              OdoriTextFile   *file);
gboolean       odori_line_reader_next        (OdoriLineReader *reader);
/* Bytes of the file not yet consumed (an upper bound for sizing allocations). */
gsize          odori_line_reader_remaining   (OdoriLineReader *reader);
/* A reader over the bytes [FROM, TO) of FILE's text only, FROM at the start of a line,
 * whose first line gets the number LINENO (0 when it is not known: lines are then
 * numbered from 1): for readers that parse parts of one file on several threads, each
 * part with its own reader. Line ends are those of the whole file. */
void           odori_line_reader_init_range  (OdoriLineReader *reader,
                                              OdoriTextFile   *file,
                                              gsize            from,
                                              gsize            to,
                                              guint            lineno);
/* Offset in the file's text of the first byte not yet consumed. */
gsize          odori_line_reader_offset      (OdoriLineReader *reader);
/* The lines next() would still return, counted without reading them. */
guint64        odori_line_reader_count_lines (OdoriLineReader *reader);
/* The offset where the first line that starts at or after OFFSET starts (the reader's
 * end if none does): where to split the rest of READER into parts of whole lines. */
gsize          odori_line_reader_line_start  (OdoriLineReader *reader,
                                              gsize            offset);
/* The 1-based number of the line holding the byte at OFFSET of FILE's text (counts the
 * line ends before it: reads the file up to there). */
guint          odori_text_file_line_at       (OdoriTextFile   *file,
                                              gsize            offset);
/* How many threads a reader should parse LEN bytes with: 1 for files under 1 MiB, else
 * the processors there are (at most 8). The environment variable ODORI_LOAD_THREADS=N
 * sets it for every size (the benchmark reports N=1 beside the default). */
guint          odori_text_load_threads       (gsize            len);
/* Calls FUNC on each of the N_ITEMS items of ITEM_SIZE bytes at ITEMS, at once: the
 * first on this thread, the others on threads of their own (or on this one, after, if a
 * thread cannot start). Returns when every call has returned. */
void           odori_run_parallel            (GThreadFunc      func,
                                              gpointer         items,
                                              gsize            item_size,
                                              guint            n_items);

/* Numbers. The parser reads one number starting exactly at *p (no leading blanks) and
 * stopping at END: `1`, `-0.5`, `.5`, `+2.`, `1e-3`. It never reads `nan`/`inf`/hex.
 * Results are bit-exact with strtod() in the C locale (a Clinger fast path, falling back
 * to g_ascii_strtod for long mantissas or large exponents). On success *p moves past the
 * number. Returns FALSE, leaving *p, if there is no number at *p (or one of more than
 * 1024 characters, or one that is not finite in a double). */
gboolean       odori_parse_double            (const char    **p,
                                              const char     *end,
                                              double         *out);
/* The end of the readable text around READER's lines (for odori_parse_double_ahead). */
const char    *odori_line_reader_limit       (OdoriLineReader *reader);
gboolean       odori_parse_int               (const char    **p,
                                              const char     *end,
                                              gint64         *out);
/* TRUE if [p, end) starts with nan or inf (any case, optional sign): for clear errors. */
gboolean       odori_looks_non_finite        (const char     *p,
                                              const char     *end);

/* Blanks: the one definition every reader uses (docs/formats.md, "Text"). A blank is a
 * space, tab, form feed or vertical tab, a CR or LF left inside a line (a stray line end:
 * the line reader has already cut the file's own line ends), or U+3000 IDEOGRAPHIC SPACE
 * (Japanese input methods type it for a space). Lines are UTF-8, not NUL-terminated. The
 * length in bytes of the blank that starts at P, 0 if none does. */
static inline gsize
odori_blank_len (const char *p,
                 const char *end)
{
  if (p >= end)
    return 0;
  if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r' || *p == '\n')
    return 1;
  if (end - p >= 3 && (guchar) p[0] == 0xE3 && (guchar) p[1] == 0x80 && (guchar) p[2] == 0x80)
    return 3;
  return 0;
}
/* The length in bytes of the blank that ends at END (not before START), 0 if none does. */
static inline gsize
odori_blank_len_before (const char *start,
                        const char *end)
{
  if (end <= start)
    return 0;
  if (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\f' || end[-1] == '\v' ||
      end[-1] == '\r' || end[-1] == '\n')
    return 1;
  if (end - start >= 3 && (guchar) end[-3] == 0xE3 && (guchar) end[-2] == 0x80 &&
      (guchar) end[-1] == 0x80)
    return 3;
  return 0;
}
/* P moved past the blanks that start there. */
static inline const char *
odori_skip_blanks (const char *p,
                   const char *end)
{
  gsize n;

  while ((n = odori_blank_len (p, end)) > 0)
    p += n;
  return p;
}
/* END moved back over the blanks that end there (not before START). */
static inline const char *
odori_trim_blanks (const char *start,
                   const char *end)
{
  gsize n;

  while ((n = odori_blank_len_before (start, end)) > 0)
    end -= n;
  return end;
}
/* The next blank-separated token of [*p, end); returns its length (0 at the end). */
gsize          odori_next_token              (const char    **p,
                                              const char     *end,
                                              const char    **token);

/* Fixed-decimal writer: X with DECIMALS (0..9) digits after the point, rounded to
 * nearest, "-0.000000" printed as "0.000000". Writes at most 40 bytes into BUF, no NUL;
 * returns the length. Locale-independent. Non-finite values print as 0. */
gsize          odori_format_fixed            (char           *buf,
                                              double          x,
                                              guint           decimals);

/* Shortest-enough text for a double that reads back to the same value ("%.17g" trimmed),
 * with '.' as the decimal point whatever the locale. */
char          *odori_format_double           (double          x);

/* TRUE if the LEN bytes of DATA are all ASCII (fast: eight bytes at a time). */
gboolean       odori_is_ascii                (const char     *data,
                                              gsize           len);

/* Atomic buffered output: data goes to a temporary file in the target's directory and
 * is renamed over the target by odori_output_commit() after fsync. On any error, or on
 * odori_output_abort(), the temporary file is removed and the target is untouched. */
OdoriOutput   *odori_output_new              (const char     *path,
                                              OdoriEncoding   encoding,
                                              GError        **error);
/* An output into memory (tests, clipboard); commit is then a no-op, see steal_bytes. */
OdoriOutput   *odori_output_new_memory       (OdoriEncoding   encoding);
void           odori_output_write            (OdoriOutput    *out,
                                              const char     *data,
                                              gsize           len);
/* Text in UTF-8, converted to the output's encoding (errors are kept for commit). */
void           odori_output_text             (OdoriOutput    *out,
                                              const char     *utf8);
void           odori_output_printf           (OdoriOutput    *out,
                                              const char     *format,
                                              ...) G_GNUC_PRINTF (2, 3);
void           odori_output_fixed            (OdoriOutput    *out,
                                              double          x,
                                              guint           decimals);
void           odori_output_char             (OdoriOutput    *out,
                                              char            c);
gboolean       odori_output_commit           (OdoriOutput    *out,
                                              GError        **error);
void           odori_output_abort            (OdoriOutput    *out);
/* For memory outputs, after commit: the bytes written (transfer full). */
GBytes        *odori_output_steal_bytes      (OdoriOutput    *out);
void           odori_output_free             (OdoriOutput    *out);
/* Calls WRITE (DATA, an output in ENCODING) and copies what it wrote to OUT. Shift_JIS
 * bytes that happen to be valid UTF-8 (possible once a writer drops the only other
 * non-ASCII text, say an ideographic blank) would be read back as other text: then the
 * comment line "# シフトJIS", which Shift_JIS text never makes valid UTF-8, goes first. */
typedef void (*OdoriOutputWriteFunc) (gpointer     data,
                                      OdoriOutput *out);
void odori_output_write_text_file (OdoriOutput         *out,
                                   OdoriEncoding        encoding,
                                   OdoriOutputWriteFunc write,
                                   gpointer             data);
/* Testing hook: make the output fail with ENOSPC after LIMIT bytes. */
void           odori_output_set_fail_after   (OdoriOutput    *out,
                                              gsize           limit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriOutput, odori_output_free)

G_END_DECLS
