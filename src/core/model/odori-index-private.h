/* odori-index-private.h: what odori-index.c (reader, canonical writer) and
 * odori-index-edit.c (mutators, preserving writer) share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-index.h"

G_BEGIN_DECLS

typedef enum
{
  ODORI_INDEX_LINE_OTHER, /* blank or comment */
  ODORI_INDEX_LINE_PART,
  ODORI_INDEX_LINE_CLASS_BEGIN,
  ODORI_INDEX_LINE_CLASS_END,
  ODORI_INDEX_LINE_SHOW_BEGIN,
  ODORI_INDEX_LINE_SHOW_END,
  ODORI_INDEX_LINE_MOTION,
} OdoriIndexLineKind;

/* One line of motion.dat, or a run of blank lines (so that a file of blank lines costs
 * one entry, not one per line). */
struct _OdoriIndexLine
{
  char *text;                 /* UTF-8, without its line end (a run: with the line ends
                               * between its lines) */
  GBytes *raw;                /* nullable: the line's bytes in Shift_JIS as read, written
                               * instead of text (re-encoding CP932 may change bytes) */
  char               eol[3];  /* "\n", "\r\n", "\r", or "" for a last line without one */
  guint              n_lines; /* 1, or the lines of a blank run */
  OdoriIndexLineKind kind;
  gpointer           item; /* the part, class, show or motion; borrowed */
  /*< private >*/
  const char *run; /* while reading: a blank run's text in the file's data */
  gsize       run_len;
};

OdoriIndexLine *_odori_index_line_new (const char        *text,
                                       gsize              len,
                                       const char        *eol,
                                       gsize              eol_len,
                                       OdoriIndexLineKind kind,
                                       gpointer           item);
void            _odori_index_line_free (OdoriIndexLine *line);
/* While reading: adds the line [TEXT, TEXT + LEN), ended by EOL, to index->lines, blank
 * lines merged into runs. TEXT must stay valid until _odori_index_finish_read (). */
void _odori_index_read_line (OdoriIndex        *index,
                             const char        *text,
                             gsize              len,
                             const char        *eol,
                             gsize              eol_len,
                             OdoriIndexLineKind kind,
                             gpointer           item);
void _odori_index_finish_read (OdoriIndex *index);

/* After odori_index_load () read a Shift_JIS file: gives its lines their raw bytes. */
void _odori_index_attach_raw (OdoriIndex *index,
                              const char *data,
                              gsize       len);

/* Lines in the canonical layout, without indent or line end, appended to S. */
void _odori_index_format_class (GString         *s,
                                OdoriIndexClass *klass);
void _odori_index_format_show (GString        *s,
                               OdoriIndexShow *show);
void _odori_index_format_motion (GString          *s,
                                 OdoriIndexMotion *motion);

GPtrArray *_odori_index_params_new (void);
void       _odori_index_motion_free (OdoriIndexMotion *motion);
void       _odori_index_show_free (OdoriIndexShow *show);
void       _odori_index_class_free (OdoriIndexClass *klass);

G_END_DECLS
