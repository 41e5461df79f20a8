/* odori-reader.c: the toolkit every reader shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib/gi18n-lib.h>

#include "odori-reader.h"

/**
 * odori_set_error:
 * @error: (nullable): return location for the error
 * @domain: the reader's error domain
 * @code: the error code
 * @path: the file as named in messages
 * @line: 1-based line (values below 1 are written as 1)
 * @format: printf-style format of the message, without file and line
 *
 * Returns: %FALSE
 */
gboolean
odori_set_error (GError    **error,
                 GQuark      domain,
                 int         code,
                 const char *path,
                 gint64      line,
                 const char *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, domain, code, "%s:%" G_GINT64_FORMAT ": %s", path, MAX (line, 1),
               message);
  return FALSE;
}

/**
 * odori_add_warning:
 * @warnings: (nullable) (element-type OdoriDiagnostic): where warnings go, or %NULL
 * @path: the file as named in messages
 * @line: 1-based line, or 0 when the warning is not tied to a line
 * @format: printf-style format of the message, without file and line
 */
void
odori_add_warning (GPtrArray  *warnings,
                   const char *path,
                   guint       line,
                   const char *format,
                   ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  if (warnings == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (warnings, odori_diagnostic_new (path, line, FALSE, "%s", message));
}

/**
 * odori_excerpt:
 * @s: the input
 * @len: its length in bytes (need not be NUL-terminated)
 *
 * Returns: (transfer full): at most %ODORI_EXCERPT_CHARS characters of @s, as valid UTF-8,
 *   ending in "…" when cut
 */
char *
odori_excerpt (const char *s,
               gsize       len)
{
  const char      *end = s + len;
  const char      *q = s;
  g_autofree char *valid = NULL;

  for (guint n = 0; q < end && n < ODORI_EXCERPT_CHARS; n++)
    q += MIN ((gsize) g_utf8_skip[*(const guchar *) q], (gsize) (end - q));
  valid = g_utf8_make_valid (s, q - s);
  if (q < end)
    return g_strconcat (valid, "…", NULL);
  return g_steal_pointer (&valid);
}

/**
 * odori_read_limited:
 * @path: the file
 * @max_bytes: the largest size the caller accepts
 * @len_out: (out): how many bytes were read, at most @max_bytes + 1
 * @error: return location for an %ODORI_TEXT_ERROR
 *
 * Returns: (transfer full) (nullable): the bytes read, followed by a NUL byte
 */
char *
odori_read_limited (const char *path,
                    gsize       max_bytes,
                    gsize      *len_out,
                    GError    **error)
{
  g_autofree char *data = NULL;
  const gsize      limit = max_bytes + 1; /* one more, to notice a larger file */
  gsize            len = 0, cap = 0;
  int              fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (max_bytes < G_MAXSIZE - 1, NULL);
  g_return_val_if_fail (len_out != NULL, NULL);

  fd = odori_open_regular_file (path, error);
  if (fd < 0)
    return NULL;
  while (len < limit)
    {
      gssize got;

      if (len == cap)
        {
          /* Grows as the file does: a small file never costs the whole limit. */
          cap = cap > limit / 2 ? limit : MAX (cap * 2, MIN ((gsize) 65536, limit));
          data = g_realloc (data, cap + 1);
        }
      got = read (fd, data + len, cap - len);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_set_error (error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO, _("%s: cannot read: %s"),
                       path, g_strerror (saved_errno));
          return NULL;
        }
      if (got == 0)
        break;
      len += got;
    }
  close (fd);
  data[len] = '\0';
  *len_out = len;
  return g_steal_pointer (&data);
}

/* Safe XML */

typedef struct
{
  gboolean doctype;
  long     doctype_line;
  char    *first_error; /* libxml2 goes on after some errors: the first is the cause */
  long     first_error_line;
} XmlGuard;

/* libxml2 2.12 made the error const; take it const and cast the callback, so that both
 * the 2.9 of Debian 12 and newer releases compile without warnings. */
static void
structured_error_cb (void           *ctx,
                     const xmlError *xerr)
{
  xmlParserCtxtPtr ctxt = ctx;
  XmlGuard        *guard = ctxt->_private;

  if (guard->first_error != NULL || xerr == NULL || xerr->level < XML_ERR_ERROR)
    return;
  guard->first_error = g_strchomp (g_strdup (xerr->message ? xerr->message : "error"));
  guard->first_error_line = xerr->line;
}

/* Stops the parser at a DOCTYPE or a declaration, before anything is expanded or loaded. */
static void
refuse_doctype (void *ctx)
{
  xmlParserCtxtPtr ctxt = ctx;
  XmlGuard        *guard = ctxt->_private;

  if (!guard->doctype)
    {
      guard->doctype = TRUE;
      guard->doctype_line = ctxt->input != NULL ? ctxt->input->line : 0;
    }
  xmlStopParser (ctxt);
}

static void
internal_subset_cb (void          *ctx,
                    const xmlChar *name,
                    const xmlChar *external_id,
                    const xmlChar *system_id)
{
  refuse_doctype (ctx);
}

static void
entity_decl_cb (void          *ctx,
                const xmlChar *name,
                int            type,
                const xmlChar *public_id,
                const xmlChar *system_id,
                xmlChar       *content)
{
  refuse_doctype (ctx);
}

static void
unparsed_entity_decl_cb (void          *ctx,
                         const xmlChar *name,
                         const xmlChar *public_id,
                         const xmlChar *system_id,
                         const xmlChar *notation_name)
{
  refuse_doctype (ctx);
}

/**
 * odori_xml_read:
 * @path: the file as named in messages (and libxml2's base URL)
 * @data: the document
 * @len: its length in bytes
 * @encoding: (nullable): the encoding of @data, overriding the one it declares
 * @errors: the error domain, codes and DOCTYPE message of the format
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with @error set
 */
xmlDoc *
odori_xml_read (const char           *path,
                const char           *data,
                gsize                 len,
                const char           *encoding,
                const OdoriXmlErrors *errors,
                GError              **error)
{
  g_autoptr(xmlParserCtxt) ctxt = NULL;
  g_autoptr(xmlDoc) doc = NULL;
  g_autofree char *first_error = NULL;
  XmlGuard         guard = { FALSE, 0, NULL, 0 };
  int              options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (len <= G_MAXINT, NULL);
  g_return_val_if_fail (errors != NULL, NULL);

  ctxt = xmlNewParserCtxt ();
  if (ctxt == NULL)
    {
      odori_set_error (error, errors->domain, errors->code_xml, path, 1,
                       _ ("cannot create an XML parser"));
      return NULL;
    }
  if (encoding != NULL)
    options |= XML_PARSE_IGNORE_ENC;
  ctxt->_private = &guard;
  ctxt->sax->internalSubset = internal_subset_cb;
  ctxt->sax->entityDecl = entity_decl_cb;
  ctxt->sax->unparsedEntityDecl = unparsed_entity_decl_cb;
  ctxt->sax->serror = (xmlStructuredErrorFunc) structured_error_cb;
  /* No XML_PARSE_NOENT (substitution), XML_PARSE_DTDLOAD or XML_PARSE_XINCLUDE: nothing
   * outside the data is ever read. BIG_LINES keeps line numbers right past 65535. */
  doc = xmlCtxtReadMemory (ctxt, data != NULL ? data : "", (int) len, path, encoding, options);
  first_error = g_steal_pointer (&guard.first_error);
  if (first_error != NULL && !g_utf8_validate (first_error, -1, NULL))
    {
      /* libxml2 quotes the input in its messages: keep ours valid UTF-8 */
      char *valid = g_utf8_make_valid (first_error, -1);

      g_free (first_error);
      first_error = valid;
    }

  if (guard.doctype)
    {
      odori_set_error (error, errors->domain, errors->code_doctype, path, guard.doctype_line,
                       "%s", errors->doctype_message);
      return NULL;
    }
  if (doc != NULL && ctxt->wellFormed && first_error == NULL)
    return g_steal_pointer (&doc);
  if (first_error != NULL)
    odori_set_error (error, errors->domain, errors->code_xml, path, guard.first_error_line,
                     _ ("not well-formed XML: %s"), first_error);
  else
    odori_set_error (error, errors->domain, errors->code_xml, path, 1, _ ("not well-formed XML"));
  return NULL;
}

/* Line streams */

/* odori_text_file_open () refuses larger files: leave them to it, for its message. */
#define STREAM_MAX_FILE_SIZE ((guint64) 8 << 30)

static gsize test_block = 0;

void
odori_line_stream_set_test_block (gsize size)
{
  g_atomic_pointer_set (&test_block, size);
}

/* The buffer's first size: at least the 3 bytes of a BOM. */
static gsize
stream_block (void)
{
  gsize size = (gsize) g_atomic_pointer_get (&test_block);

  return size > 0 ? MAX (size, 4) : ODORI_STREAM_BLOCK;
}

static void
stream_set_limit (OdoriLineStream *s)
{
  s->limit = s->buf + s->cap + ODORI_STREAM_PAD;
}

gboolean
odori_line_stream_open (OdoriLineStream *s,
                        const char      *path,
                        GError         **error)
{
  struct stat st;
  gsize head = 0;

  g_return_val_if_fail (s != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  memset (s, 0, sizeof *s);
  s->path = path;
  s->fd = odori_open_regular_file (path, error);
  if (s->fd < 0)
    return FALSE;
  s->from_file = TRUE;
  if (fstat (s->fd, &st) != 0 || (guint64) st.st_size > STREAM_MAX_FILE_SIZE)
    {
      /* the whole-file reader says why */
      s->fallback = TRUE;
      s->eof = TRUE;
      return TRUE;
    }
  s->cap = stream_block ();
  s->buf = g_malloc0 (s->cap + ODORI_STREAM_PAD);
  stream_set_limit (s);
  s->cur = s->end = s->checked = s->buf;
  s->to_read = st.st_size;
  s->text_len = st.st_size;

  /* A UTF-8 byte order mark is not text. */
  while (head < 3 && s->to_read > 0)
    {
      gssize got = pread (s->fd, s->buf + head, 3 - head, head);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      head += got;
      s->to_read -= got;
    }
  s->pos = head;
  if (head == 3 && memcmp (s->buf, "\xEF\xBB\xBF", 3) == 0)
    {
      head = 0;
      s->text_len -= 3;
      s->bom = 3;
    }
  s->end = s->buf + head;
  return TRUE;
}

void
odori_line_stream_init_text (OdoriLineStream *s,
                             OdoriTextFile   *file,
                             gsize            from,
                             gsize            to,
                             guint            lineno)
{
  gsize len;
  const char *data = odori_text_file_get_data (file, &len);
  const char *nl, *cr;

  g_return_if_fail (from <= to && to <= len);

  memset (s, 0, sizeof *s);
  s->path = odori_text_file_get_path (file);
  s->fd = -1;
  s->buf = (char *) data;
  s->cap = len;
  s->cur = data + from;
  s->end = s->checked = data + to;
  s->limit = data + len;
  s->text_len = len;
  s->eof = TRUE;
  s->lineno = lineno > 0 ? lineno - 1 : 0;
  /* the first line end of the whole text decides, as for OdoriLineReader */
  nl = memchr (data, '\n', len);
  cr = memchr (data, '\r', nl != NULL ? (gsize) (nl - data) : len);
  s->cr_only = cr != NULL && cr + 1 != nl;
  s->eol_known = TRUE;
}

void
odori_line_stream_clear (OdoriLineStream *s)
{
  if (s->from_file)
    {
      g_clear_pointer (&s->buf, g_free);
      if (s->fd >= 0)
        close (s->fd);
    }
  s->fd = -1;
  s->buf = NULL;
  g_clear_error (&s->io_error);
}

/* Stops the stream: what was not checked is never handed out. */
static void
stream_stop (OdoriLineStream *s,
             gboolean         fallback)
{
  s->fallback = s->fallback || fallback;
  s->eof = TRUE;
  s->to_read = 0;
  s->end = s->checked;
  if (s->cur > s->end)
    s->cur = s->end;
}

/* TRUE if [P, END) has a NUL byte; *HIGH set when a byte has its high bit. */
static gboolean
scan_nul_high (const char *p,
               const char *end,
               gboolean   *high)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 hi = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 acc = 0, zero = 0;

#ifdef __SSE2__
  /* 64 bytes a step with SSE2 (every x86-64): this check runs over every byte of every
   * streamed file, and the 8-byte form was a few percent of a BVA parse */
  {
    __m128i       any = _mm_setzero_si128 (), nul = _mm_setzero_si128 ();
    const __m128i zeros = _mm_setzero_si128 ();

    for (; end - p >= 64; p += 64)
      {
        __m128i a = _mm_loadu_si128 ((const __m128i *) (gconstpointer) p);
        __m128i b = _mm_loadu_si128 ((const __m128i *) (gconstpointer) (p + 16));
        __m128i c = _mm_loadu_si128 ((const __m128i *) (gconstpointer) (p + 32));
        __m128i d = _mm_loadu_si128 ((const __m128i *) (gconstpointer) (p + 48));

        any = _mm_or_si128 (any, _mm_or_si128 (_mm_or_si128 (a, b), _mm_or_si128 (c, d)));
        nul = _mm_or_si128 (nul, _mm_cmpeq_epi8 (_mm_min_epu8 (_mm_min_epu8 (a, b),
                                                               _mm_min_epu8 (c, d)),
                                                 zeros));
      }
    if (_mm_movemask_epi8 (any) != 0)
      acc = hi;
    if (_mm_movemask_epi8 (nul) != 0)
      zero = hi;
  }
#endif
  for (; end - p >= 32; p += 32)
    {
      guint64 w[4];

      memcpy (w, p, sizeof w);
      acc |= w[0] | w[1] | w[2] | w[3];
      zero |= ((w[0] - ones) & ~w[0]) | ((w[1] - ones) & ~w[1]) |
              ((w[2] - ones) & ~w[2]) | ((w[3] - ones) & ~w[3]);
    }
  for (; p < end; p++)
    {
      acc |= (guchar) *p;
      if (*p == '\0')
        zero = hi;
    }
  *high = (acc & hi) != 0;
  return (zero & hi) != 0;
}

/* Checks the bytes read since the last check, up to the last whole UTF-8 sequence. */
static void
stream_check (OdoriLineStream *s)
{
  const char *cut = s->end;
  gboolean high = FALSE;

  if (!s->eof || s->to_read > 0)
    {
      int k = 0;

      while (cut > s->checked && k < 4 && ((guchar) cut[-1] & 0x80))
        {
          cut--;
          k++;
        }
      if (k == 4)
        while (cut > s->checked && ((guchar) *cut & 0xC0) == 0x80)
          cut--;
    }
  if (cut <= s->checked)
    return;
  if (scan_nul_high (s->checked, cut, &high) ||
      (high && !g_utf8_validate_len (s->checked, cut - s->checked, NULL)))
    {
      stream_stop (s, TRUE);
      return;
    }
  s->checked = cut;
}

/* Reads more of the file, keeping the unread bytes (growing the buffer when they fill
 * it). FALSE when nothing more comes. */
static gboolean
stream_fill (OdoriLineStream *s)
{
  gsize keep, checked_off;
  const char *before;

  if (!s->from_file || s->eof || s->fallback)
    return FALSE;
  keep = s->end - s->cur;
  checked_off = s->checked - s->cur;
  if (s->cur > s->buf)
    {
      memmove (s->buf, s->cur, keep);
      s->base += s->cur - s->buf;
    }
  else if (keep == s->cap)
    {
      /* one line longer than the buffer */
      gsize old = s->cap;

      s->cap = old * 2;
      s->buf = g_realloc (s->buf, s->cap + ODORI_STREAM_PAD);
      memset (s->buf + old, 0, s->cap - old + ODORI_STREAM_PAD);
      stream_set_limit (s);
    }
  s->cur = s->buf;
  s->end = s->buf + keep;
  s->checked = s->buf + checked_off;
  before = s->end;
  while (s->end < s->buf + s->cap && s->to_read > 0)
    {
      gsize want = MIN ((guint64) (s->buf + s->cap - s->end), s->to_read);
      gssize got = pread (s->fd, (char *) s->end, want, s->pos);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved_errno = errno;

          if (s->io_error == NULL)
            g_set_error (&s->io_error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_IO,
                         _("%s: cannot read: %s"), s->path, g_strerror (saved_errno));
          s->to_read = 0;
          break;
        }
      if (got == 0)
        {
          /* the file shrank while read */
          s->to_read = 0;
          break;
        }
      s->end += got;
      s->to_read -= got;
      s->pos += got;
    }
  if (s->to_read == 0)
    s->eof = TRUE;
  /* (the rest of the buffer after the data holds zeroes or older data: readable) */
  stream_check (s);
  return s->end > before || s->checked > s->cur + checked_off;
}

/* Decides between LF/CRLF and CR line ends from the first line end, as OdoriLineReader
 * does from the whole file. FALSE when more of the file is needed. */
static gboolean
stream_decide_eol (OdoriLineStream *s)
{
  const char *data = s->cur;
  const char *end = s->checked;
  const char *nl = memchr (data, '\n', end - data);
  const char *cr = memchr (data, '\r', nl != NULL ? (gsize) (nl - data) : (gsize) (end - data));
  gboolean at_end = s->eof && s->checked == s->end;

  if (cr != NULL && cr + 1 < end)
    s->cr_only = cr[1] != '\n';
  else if (cr != NULL && at_end)
    s->cr_only = TRUE;
  else if (cr == NULL && (nl != NULL || at_end))
    s->cr_only = FALSE;
  else
    return FALSE;
  s->eol_known = TRUE;
  return TRUE;
}

gboolean
odori_line_stream_next (OdoriLineStream *s)
{
  for (;;)
    {
      const char *eol;

      if (G_UNLIKELY (s->fallback))
        break;

      if (G_UNLIKELY (!s->eol_known) && !stream_decide_eol (s))
        {
          if (!stream_fill (s) && s->eof)
            {
              if (s->fallback)
                break;
              /* the whole file is read: decides now */
              if (!stream_decide_eol (s))
                break;
            }
          continue;
        }
      eol = memchr (s->cur, s->cr_only ? '\r' : '\n', s->checked - s->cur);
      if (G_LIKELY (eol != NULL))
        {
          s->line = s->cur;
          s->len = eol - s->cur;
          s->cur = eol + 1;
        }
      else if (s->eof && s->checked == s->end && !s->fallback)
        {
          if (s->cur >= s->end)
            break;
          /* the last line, without a line end */
          s->line = s->cur;
          s->len = s->end - s->cur;
          s->cur = s->end;
        }
      else
        {
          if (s->fallback || (!stream_fill (s) && s->eof && s->checked != s->end))
            break;
          continue;
        }
      s->lineno++;
      if (!s->cr_only && s->len > 0 && s->line[s->len - 1] == '\r')
        s->len--;
      return TRUE;
    }
  s->line = s->cur;
  s->len = 0;
  return FALSE;
}

gboolean
odori_line_stream_next_block (OdoriLineStream *s,
                              const char     **data,
                              gsize           *len)
{
  for (;;)
    {
      const char *cut = s->checked;

      if (s->fallback)
        return FALSE;
      if (G_UNLIKELY (!s->eol_known) && !stream_decide_eol (s))
        {
          /* (once the whole file is read, the first line end is known, or there is none) */
          if (!stream_fill (s) && s->eof && !s->fallback && !stream_decide_eol (s))
            return FALSE;
          continue;
        }
      if (!(s->eof && s->checked == s->end))
        while (cut > s->cur && cut[-1] != '\n' && cut[-1] != '\r')
          cut--;
      if (cut > s->cur)
        {
          *data = s->cur;
          *len = cut - s->cur;
          s->cur = cut;
          return TRUE;
        }
      if (s->eof && s->checked == s->end)
        return FALSE;
      stream_fill (s);
    }
}

gboolean
odori_line_stream_finish (OdoriLineStream *s)
{
  while (!s->fallback && !(s->eof && s->checked == s->end))
    {
      s->cur = s->checked;
      stream_fill (s);
    }
  s->cur = s->end;
  return !s->fallback && s->io_error == NULL;
}

void
odori_line_stream_skip_rest (OdoriLineStream *s)
{
  s->base += s->end - s->buf + s->to_read;
  s->cur = s->end = s->checked = s->buf;
  s->to_read = 0;
  s->eof = TRUE;
}

gboolean
odori_line_stream_fallback (OdoriLineStream *s)
{
  return s->fallback;
}

gboolean
odori_line_stream_io_error (OdoriLineStream *s,
                            GError         **error)
{
  if (s->io_error == NULL)
    return FALSE;
  g_propagate_error (error, g_error_copy (s->io_error));
  return TRUE;
}

guint64
odori_line_stream_remaining (OdoriLineStream *s)
{
  return (guint64) (s->end - s->cur) + s->to_read;
}

guint64
odori_line_stream_offset (OdoriLineStream *s)
{
  return s->base + (guint64) (s->cur - s->buf);
}

guint64
odori_line_stream_count_lines (OdoriLineStream *s)
{
  char eol = s->cr_only ? '\r' : '\n';
  const char *data;
  gsize len;
  guint64 n = 0;
  char last = eol;

  g_return_val_if_fail (s->eol_known, 0);

  while (odori_line_stream_next_block (s, &data, &len))
    {
      const char *p = data, *end = data + len;

      while (p < end && (p = memchr (p, eol, end - p)) != NULL)
        {
          n++;
          p++;
        }
      last = end[-1];
    }
  /* the last line may have no end */
  if (last != eol)
    n++;
  return n;
}

gboolean
odori_line_stream_open_range (OdoriLineStream       *s,
                              const OdoriLineStream *whole,
                              guint64                from,
                              guint64                to,
                              guint                  lineno)
{
  g_return_val_if_fail (whole->from_file && whole->eol_known, FALSE);
  g_return_val_if_fail (from <= to && to <= whole->text_len, FALSE);

  memset (s, 0, sizeof *s);
  s->path = whole->path;
  s->fd = dup (whole->fd);
  if (s->fd < 0)
    return FALSE;
  s->from_file = TRUE;
  s->cap = stream_block ();
  s->buf = g_malloc0 (s->cap + ODORI_STREAM_PAD);
  stream_set_limit (s);
  s->cur = s->end = s->checked = s->buf;
  s->base = from;
  s->bom = whole->bom;
  s->pos = from + whole->bom;
  s->to_read = to - from;
  s->text_len = whole->text_len;
  s->eof = s->to_read == 0;
  s->eol_known = TRUE;
  s->cr_only = whole->cr_only;
  s->lineno = lineno > 0 ? lineno - 1 : 0;
  return TRUE;
}

guint64
odori_line_stream_line_start (const OdoriLineStream *whole,
                              guint64                offset)
{
  char eol = whole->cr_only ? '\r' : '\n';
  guint64 at = offset > 0 ? offset - 1 : 0;
  OdoriLineStream probe;
  const char *data;
  gsize len;
  guint64 found = whole->text_len;

  if (offset == 0)
    return 0;
  if (offset >= whole->text_len)
    return whole->text_len;
  /* the line end at or after OFFSET - 1 */
  if (!odori_line_stream_open_range (&probe, whole, at, whole->text_len, 0))
    return whole->text_len;
  while (odori_line_stream_next_block (&probe, &data, &len))
    {
      const char *hit = memchr (data, eol, len);

      if (hit != NULL)
        {
          found = at + (hit - data) + 1;
          break;
        }
      at += len;
    }
  odori_line_stream_clear (&probe);
  return found;
}

gboolean
odori_parse_double_ahead (const char **p,
                          const char  *end,
                          const char  *limit,
                          double      *out)
{
  return odori_parse_channel_value (p, end, limit, out);
}

/* One token that the line parser's masks did not take (an exponent, a long number, a
 * blank that is not ASCII, garbage): odori_parse_channel_value () decides, and the token
 * must end at a blank or at END. */
static gboolean
parse_token_slowly (const char **p,
                    const char  *end,
                    const char  *limit,
                    double      *out)
{
  const char *s = *p;

  if (!odori_parse_channel_value (&s, end, limit, out) || (s < end && odori_blank_len (s, end) == 0))
    return FALSE;
  *p = s;
  return TRUE;
}

#ifdef __SSE2__
/* What the 16 bytes at S are, one bit a byte from bit SHIFT on. */
static inline void
classify_16 (const char *s,
             guint       shift,
             guint64    *blank,
             guint64    *digit,
             guint64    *dot,
             guint64    *minus,
             guint64    *plus)
{
  const __m128i c = _mm_loadu_si128 ((const __m128i *) (const void *) s);
  const __m128i d = _mm_sub_epi8 (c, _mm_set1_epi8 ('0'));
  const __m128i t = _mm_sub_epi8 (c, _mm_set1_epi8 ('\t'));
  /* unsigned d <= 9: a digit; t <= 4: \t \n \v \f \r */
  const __m128i is_digit = _mm_cmpeq_epi8 (_mm_min_epu8 (d, _mm_set1_epi8 (9)), d);
  const __m128i is_space = _mm_or_si128 (_mm_cmpeq_epi8 (_mm_min_epu8 (t, _mm_set1_epi8 (4)), t),
                                         _mm_cmpeq_epi8 (c, _mm_set1_epi8 (' ')));

  *blank |= (guint64) (guint) _mm_movemask_epi8 (is_space) << shift;
  *digit |= (guint64) (guint) _mm_movemask_epi8 (is_digit) << shift;
  *dot |= (guint64) (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (c, _mm_set1_epi8 ('.'))) << shift;
  *minus |= (guint64) (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (c, _mm_set1_epi8 ('-'))) << shift;
  *plus |= (guint64) (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (c, _mm_set1_epi8 ('+'))) << shift;
}
#endif

guint
odori_parse_channel_line (const char **p,
                          const char  *end,
                          const char  *limit,
                          double      *values,
                          guint        max)
{
  const char *s = *p;
  guint       n = 0;

  for (;;)
    {
      s = odori_skip_blanks (s, end);
      if (s >= end || n == max)
        break;
#ifdef __SSE2__
      /* A window of 64 bytes (and 8 more that the digits' loads may read): the tokens
       * that end inside it are told apart with masks, a bit a byte, and each is read
       * with odori_parse_channel_value ()'s arithmetic. */
      if (limit - s >= 72)
        {
          static const double  pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7 };
          static const guint64 pow10_u64[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
          const char          *w = s;
          guint64              blank = 0, digit = 0, dot = 0, minus = 0, plus = 0;
          guint64              nonblank, starts, ends, signs, other;
          guint                consumed = 0;
          gboolean             slow = FALSE;

          for (guint k = 0; k < 64; k += 16)
            classify_16 (w + k, k, &blank, &digit, &dot, &minus, &plus);
          if (end - w < 64)
            blank |= ~G_GUINT64_CONSTANT (0) << (end - w);
          nonblank = ~blank;
          starts = nonblank & ~(nonblank << 1);
          ends = blank & (nonblank << 1);
          signs = minus | plus;
          other = nonblank & ~(digit | dot | signs);
          s = NULL;
          while (starts != 0 && n < max)
            {
              guint   i = (guint) __builtin_ctzll (starts);
              guint64 after = ends & (~G_GUINT64_CONSTANT (0) << i);
              guint64 bit = G_GUINT64_CONSTANT (1) << i;
              guint64 token, sign, point, mantissa = 0, v;
              guint   j, k, d, n_int, n_frac;
              double  x;

              if (after == 0)
                {
                  /* it goes on past the window: a new window starts with it */
                  s = w + i;
                  slow = i == 0;
                  break;
                }
              j = (guint) __builtin_ctzll (after);
              token = (after & -after) - bit;
              sign = signs & token;
              point = dot & token;
              k = i + (sign != 0);
              d = point != 0 ? (guint) __builtin_ctzll (point) : j;
              n_int = d - k;
              n_frac = point != 0 ? j - d - 1 : 0;
              if ((other & token) != 0 || (sign & ~bit) != 0 || (point & (point - 1)) != 0 ||
                  n_int >= 8 || n_frac >= 8 || n_int + n_frac == 0)
                {
                  s = w + i;
                  slow = TRUE;
                  break;
                }
              memcpy (&v, w + k, 8);
              if (G_LIKELY (j - k <= 8))
                {
                  /* digits and point in one word: the point taken out, the digits after
                   * it moved down a byte, and all of them converted at once */
                  if (point != 0)
                    {
                      guint64 low = (G_GUINT64_CONSTANT (1) << (8 * (d - k))) - 1;

                      v = (v & low) | ((v >> 8) & ~low);
                    }
                  mantissa = odori_digits_value_ (v, n_int + n_frac);
                }
              else
                {
                  if (n_int > 0)
                    mantissa = odori_digits_value_ (v, n_int);
                  memcpy (&v, w + d + 1, 8);
                  mantissa = mantissa * pow10_u64[n_frac] + odori_digits_value_ (v, n_frac);
                }
              x = (double) mantissa;
              if (n_frac > 0)
                x /= pow10[n_frac];
              values[n++] = (minus & bit) != 0 ? -x : x;
              consumed = j;
              starts &= starts - 1;
            }
          if (s == NULL)
            s = w + consumed;
          if (!slow)
            continue;
        }
#endif
      if (!parse_token_slowly (&s, end, limit, &values[n]))
        break;
      n++;
    }
  *p = s;
  return n;
}
