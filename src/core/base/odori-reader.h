/* odori-reader.h: the toolkit every reader shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Messages as every reader writes them ("FILE:LINE: message" errors, warnings collected
 * as OdoriDiagnostic, excerpts of the offending input) and the safe XML loader of the
 * XML formats. Blanks are defined once, in odori-text.h (odori_blank_len()).
 */
#pragma once

#include <string.h>

#include <glib.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "odori-text.h"
#include "odori-types.h"

G_BEGIN_DECLS

/* Longest excerpt of the input quoted in a message, in characters. */
#define ODORI_EXCERPT_CHARS 40

/* Sets ERROR (if not NULL) to DOMAIN/CODE with the message "PATH:LINE: FORMAT…"; a line
 * below 1 is written as 1. Returns FALSE, so that readers can `return odori_set_error
 * (…)`. */
gboolean odori_set_error (GError    **error,
                          GQuark      domain,
                          int         code,
                          const char *path,
                          gint64      line,
                          const char *format,
                          ...) G_GNUC_PRINTF (6, 7);
/* Adds a warning (an OdoriDiagnostic) about PATH:LINE to WARNINGS; does nothing when
 * WARNINGS is NULL. LINE 0: not tied to a line. */
void odori_add_warning (GPtrArray  *warnings,
                        const char *path,
                        guint       line,
                        const char *format,
                        ...) G_GNUC_PRINTF (4, 5);
/* At most ODORI_EXCERPT_CHARS characters of [S, S + LEN) as valid UTF-8, with "…" when
 * cut: the input quoted in a message. */
char *odori_excerpt (const char *s,
                     gsize       len);

/* Reads the regular file PATH (opened with odori_open_regular_file ()) into memory, at
 * most MAX_BYTES + 1 bytes: a *LEN_OUT above MAX_BYTES tells the caller the file is too
 * large, to be refused with its own message; the file's size is not trusted (it may grow
 * while read). The data is followed by a NUL byte not counted in *LEN_OUT. NULL with
 * ODORI_TEXT_ERROR_IO when PATH is not a regular file or cannot be opened or read. */
char *odori_read_limited (const char *path,
                          gsize       max_bytes,
                          gsize      *len_out,
                          GError    **error);

/* Safe XML. libxml2 with XML_PARSE_NONET, without entity substitution, DTD loading or
 * XInclude, and with a stop at any DOCTYPE or entity declaration: nothing outside the
 * data is ever read and no entity ever expands. The errors of one format: */
typedef struct
{
  GQuark      domain;
  int         code_xml;        /* not well-formed (or no parser) */
  int         code_doctype;    /* a DOCTYPE or an entity declaration */
  const char *doctype_message; /* translated, for code_doctype, without file and line */
} OdoriXmlErrors;

/* Parses [DATA, DATA + LEN) named PATH in messages (LEN at most G_MAXINT: callers limit
 * the size with their own message). ENCODING, if not NULL, overrides the
 * encoding the document declares (for data converted beforehand). Errors carry the line:
 * of the DOCTYPE or declaration, or of libxml2's first error. */
xmlDoc *odori_xml_read (const char           *path,
                        const char           *data,
                        gsize                 len,
                        const char           *encoding,
                        const OdoriXmlErrors *errors,
                        GError              **error);

/* A line stream: the lines of a text file read through one reused buffer (a file of any
 * size costs a buffer of ODORI_STREAM_BLOCK bytes, or the longest line if longer), with
 * the line ends, numbering and checks of OdoriLineReader over odori_text_file_open ():
 * LF, CRLF or CR line ends (the first line end decides), a UTF-8 BOM skipped, no NUL
 * byte, valid UTF-8. A file that is not plain UTF-8 (Shift_JIS, a NUL, invalid bytes) is
 * not this stream's to read: it stops, and odori_line_stream_fallback () tells the
 * caller to read the file as a whole OdoriTextFile instead, which decodes it or gives
 * the exact message. The same type also reads a range of an OdoriTextFile in memory, so
 * that one parser serves both. After odori_line_stream_next () returns TRUE, line/len
 * hold the line without its end (valid until the next call) and lineno its number. */
#define ODORI_STREAM_BLOCK ((gsize) 1 << 18)
/* Bytes after the data in the buffer that can always be read (zeroes), for
 * odori_parse_double_ahead (). */
#define ODORI_STREAM_PAD 64

typedef struct
{
  const char    *line;
  gsize          len;
  guint          lineno;
  /*< private >*/
  const char    *path;
  int            fd;
  char          *buf;       /* owned (file mode), or the text file's data */
  gsize          cap;       /* bytes of buf for data (file mode) */
  const char    *cur;       /* unread bytes [cur, end) */
  const char    *end;
  const char    *checked;   /* bytes before this were checked (NUL, UTF-8) */
  const char    *limit;     /* readable memory ends here */
  guint64        base;      /* text offset of buf[0] */
  guint64        text_len;  /* of the whole text (file size without the BOM) */
  guint64        to_read;   /* file bytes not yet read */
  guint64        pos;       /* file offset of the next read */
  guint          bom;       /* bytes of the BOM before the text */
  gboolean       from_file;
  gboolean       eof;
  gboolean       eol_known;
  gboolean       cr_only;
  gboolean       fallback;
  GError        *io_error;
} OdoriLineStream;

/* Opens PATH (odori_open_regular_file ()): FALSE with ERROR when it cannot be opened. A
 * file that must be read whole (odori_line_stream_fallback ()) opens too. */
gboolean     odori_line_stream_open        (OdoriLineStream *stream,
                                            const char      *path,
                                            GError         **error);
/* The bytes [FROM, TO) of FILE's text, FROM at a line start, its first line numbered
 * LINENO (0: from 1), the line ends of the whole file (odori_line_reader_init_range ()). */
void         odori_line_stream_init_text   (OdoriLineStream *stream,
                                            OdoriTextFile   *file,
                                            gsize            from,
                                            gsize            to,
                                            guint            lineno);
void         odori_line_stream_clear       (OdoriLineStream *stream);
gboolean     odori_line_stream_next        (OdoriLineStream *stream);
/* The rest of the stream as blocks of whole lines (no line numbers): [*DATA, *DATA +
 * *LEN) until the next call. FALSE at the end (or when the stream stopped). */
gboolean     odori_line_stream_next_block  (OdoriLineStream *stream,
                                            const char     **data,
                                            gsize           *len);
/* Reads and checks the rest of the file without returning lines. Returns TRUE when the
 * whole file is plain UTF-8 text that was read without error: call it before reporting
 * a parse error (the whole-file reader checks the encoding before parsing) and after
 * parsing, before trusting the result. */
gboolean     odori_line_stream_finish      (OdoriLineStream *stream);
/* Marks the rest of the file as read: range streams (odori_line_stream_open_range ())
 * have read and checked it. */
void         odori_line_stream_skip_rest   (OdoriLineStream *stream);
/* TRUE when the file must be read as a whole OdoriTextFile (not UTF-8, a NUL, too big). */
gboolean     odori_line_stream_fallback    (OdoriLineStream *stream);
/* TRUE (and ERROR set) when reading failed: the error of the whole stream. */
gboolean     odori_line_stream_io_error    (OdoriLineStream *stream,
                                            GError         **error);
/* Text bytes not consumed yet (an upper bound for sizing allocations). */
guint64      odori_line_stream_remaining   (OdoriLineStream *stream);
/* Offset in the text of the first byte not consumed yet. */
guint64      odori_line_stream_offset      (OdoriLineStream *stream);
/* The end of readable memory around the current line (odori_parse_double_ahead ()). */
static inline const char *
odori_line_stream_limit (OdoriLineStream *stream)
{
  return stream->limit;
}
/* Testing hook (fuzzers, tests): streams opened from now on start with a buffer of SIZE
 * bytes (at least 4; 0: ODORI_STREAM_BLOCK), so that small inputs cross block ends. */
void         odori_line_stream_set_test_block (gsize size);
/* The lines next () would still return, counted without numbering them (consumes them). */
guint64      odori_line_stream_count_lines (OdoriLineStream *stream);
/* A stream over the text bytes [FROM, TO) of WHOLE's file (open, its line ends known:
 * after its first line or block), FROM at a line start, its first line numbered LINENO
 * (0: from 1), with a buffer and descriptor of its own: for parsing parts of one file on
 * several threads. FALSE if the file cannot be opened again. */
gboolean     odori_line_stream_open_range  (OdoriLineStream       *stream,
                                            const OdoriLineStream *whole,
                                            guint64                from,
                                            guint64                to,
                                            guint                  lineno);
/* The text offset where the first line that starts at or after OFFSET starts (the text's
 * length if none does), in WHOLE's file (odori_line_reader_line_start ()). */
guint64      odori_line_stream_line_start  (const OdoriLineStream *whole,
                                            guint64                offset);

/* odori_parse_double_ahead () inlined into the readers' frame loops (a call per number
 * was a tenth of a parse): the same algorithm, the same doubles (tests/test-stream.c
 * compares the two on millions of random decimals). Reads up to 24 bytes ahead of *P
 * when LIMIT allows; bytes from END on are never part of the number. */
static inline guint
odori_leading_digits_ (guint64 v)
{
  const guint64 zeros = G_GUINT64_CONSTANT (0x3030303030303030);
  const guint64 ten = G_GUINT64_CONSTANT (0x7676767676767676);
  const guint64 high = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 x = v - zeros;
  guint64 bad = (x | (x + ten)) & high;

  return bad == 0 ? 8 : (guint) __builtin_ctzll (bad) >> 3;
}

static inline guint64
odori_digits_value_ (guint64 v,
                     guint   n)
{
  v = (v << (64 - 8 * n)) & G_GUINT64_CONSTANT (0x0F0F0F0F0F0F0F0F);
  v = (v * 10 + (v >> 8)) & G_GUINT64_CONSTANT (0x00FF00FF00FF00FF);
  v = (v * 100 + (v >> 16)) & G_GUINT64_CONSTANT (0x0000FFFF0000FFFF);
  return (v * 10000 + (v >> 32)) & 0xFFFFFFFFu;
}

static inline gboolean
odori_parse_channel_value (const char **p,
                           const char  *end,
                           const char  *limit,
                           double      *out)
{
  static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7 };
  static const guint64 pow10_u64[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
  const char *s = *p;
  gboolean negative;
  guint64 v, mantissa = 0;
  guint n_int, n_frac = 0;
  double x;

  if (G_UNLIKELY (limit - s < 24 || end - s < 1))
    return odori_parse_double (p, end, out);
  negative = *s == '-';
  s += *s == '-' || *s == '+';
  memcpy (&v, s, 8);
  n_int = MIN (odori_leading_digits_ (v), (guint) MAX (end - s, 0));
  if (G_UNLIKELY (n_int == 8))
    return odori_parse_double (p, end, out);
  if (n_int > 0)
    mantissa = odori_digits_value_ (v, n_int);
  s += n_int;
  if (s < end && *s == '.')
    {
      s++;
      memcpy (&v, s, 8);
      n_frac = MIN (odori_leading_digits_ (v), (guint) MAX (end - s, 0));
      if (G_UNLIKELY (n_frac == 8))
        return odori_parse_double (p, end, out);
      if (n_frac > 0)
        mantissa = mantissa * pow10_u64[n_frac] + odori_digits_value_ (v, n_frac);
      s += n_frac;
    }
  if (G_UNLIKELY (n_int + n_frac == 0 || (s < end && (*s == 'e' || *s == 'E'))))
    return odori_parse_double (p, end, out);
  /* at most 14 digits: exact in a double, as is 10^n_frac (Clinger's fast path) */
  x = (double) mantissa;
  if (n_frac > 0)
    x /= pow10[n_frac];
  *out = negative ? -x : x;
  *p = s;
  return TRUE;
}

/* odori_parse_double ()'s result, faster for the short decimals of motion files, for
 * callers that know where the readable memory ends: LIMIT (>= END) is the end of the
 * buffer around [*p, end), and reading up to 24 bytes ahead of *p must be allowed when
 * LIMIT is that far. Bytes from END on are never taken as part of the number. The same
 * as odori_parse_channel_value (), as a function. */
gboolean odori_parse_double_ahead (const char **p,
                                   const char  *end,
                                   const char  *limit,
                                   double      *out);

/* Reads the blank-separated numbers of the line [*p, end) into VALUES, at most MAX of
 * them, each as odori_parse_channel_value () reads it (the same doubles) and each ending
 * at a blank or at END. Stops at END, after MAX numbers, or before a token that is not
 * such a number; returns how many it read and leaves *P past the blanks after the last
 * one (at END when the whole line was read). Reads up to 72 bytes ahead of *P when LIMIT
 * (the end of readable memory, >= END) allows. Frame lines of 9 to 300 short decimals
 * are read 64 bytes at a time (SSE2 masks of blanks, digits and points), a third of the
 * time a number at a time took. */
guint odori_parse_channel_line (const char **p,
                                const char  *end,
                                const char  *limit,
                                double      *values,
                                guint        max);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlParserCtxt, xmlFreeParserCtxt)

G_END_DECLS
