/* odori-reader.h: the toolkit every reader shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Messages as every reader writes them ("FILE:LINE: message" errors, warnings collected
 * as OdoriDiagnostic, excerpts of the offending input) and the safe XML loader of the
 * XML formats. Blanks are defined once, in odori-text.h (odori_blank_len()).
 */
#pragma once

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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlParserCtxt, xmlFreeParserCtxt)

G_END_DECLS
