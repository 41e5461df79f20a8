/* odori-reader.c: the toolkit every reader shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

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
