/* odori-score.h: the Digital Dance Score, DDS (FORMATS.md §2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-index.h"
#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_SCORE_ERROR (odori_score_error_quark ())

typedef enum
{
  ODORI_SCORE_ERROR_SYNTAX,       /* a line that is neither a part header nor a symbol */
  ODORI_SCORE_ERROR_START,        /* start frame 0, negative, or not a number */
  ODORI_SCORE_ERROR_DUPLICATE,    /* two symbols of one part at one start; a part twice */
  ODORI_SCORE_ERROR_NO_PART,      /* a symbol line before any part header */
  ODORI_SCORE_ERROR_NUMBER,       /* a bad # FrameTime / # Blend value */
} OdoriScoreError;

typedef struct
{
  guint  start;     /* 1-based output frame */
  char  *symbol;    /* "CODE" or "SHOWCODE.CODE" */
  guint  line;
} OdoriScoreSymbol;

typedef struct
{
  char   *code;
  char  **sensors;  /* NULL-terminated, as written in the score */
  guint   line;
  GArray *symbols;  /* OdoriScoreSymbol, sorted by start */
} OdoriScorePart;

struct _OdoriScore
{
  /*< private >*/
  gatomicrefcount ref_count;
  /*< public >*/
  char          *path;
  OdoriEncoding  encoding;
  char          *title;
  char          *author;
  char          *date;
  char          *index_path;   /* "# Index:" as written (relative to the score), or NULL */
  double         frame_time;   /* "# FrameTime:", 0 when absent */
  int            blend;        /* "# Blend:", -1 when absent */
  GPtrArray     *header_lines; /* char*: other '#' lines, kept and written back in order */
  GPtrArray     *parts;        /* OdoriScorePart* */
  GPtrArray     *warnings;     /* OdoriDiagnostic* */
};

GQuark            odori_score_error_quark    (void);
OdoriScore       *odori_score_new            (void);
OdoriScore       *odori_score_ref            (OdoriScore    *score);
void              odori_score_unref          (OdoriScore    *score);
OdoriScore       *odori_score_load           (const char    *path,
                                              GError       **error);
OdoriScore       *odori_score_load_text      (OdoriTextFile *file,
                                              GError       **error);
gboolean          odori_score_save           (OdoriScore    *score,
                                              const char    *path,
                                              GError       **error);
void              odori_score_write          (OdoriScore    *score,
                                              OdoriOutput   *out);
/* Absolute path of the score's index (from "# Index:"), or NULL. */
char             *odori_score_dup_index_path (OdoriScore    *score);
OdoriScorePart   *odori_score_add_part       (OdoriScore    *score,
                                              const char    *code,
                                              const char * const *sensors);
/* A deep copy of PART (score->parts may hold it), and the free function of score->parts. */
OdoriScorePart   *odori_score_part_copy      (const OdoriScorePart *part);
void              odori_score_part_free      (OdoriScorePart *part);
/* Inserts keeping start order; FALSE if the part already has a symbol at START. */
gboolean          odori_score_part_add_symbol (OdoriScorePart *part,
                                               guint          start,
                                               const char    *symbol);
/* Resolves every symbol against INDEX and compares each part's sensors with the index's
 * map. Appends OdoriDiagnostic (file:line of the score) for unknown or ambiguous symbols
 * (errors, candidates named), unknown part codes (errors) and differing sensor lists
 * (warnings). Returns FALSE if any error. */
gboolean          odori_score_resolve        (OdoriScore    *score,
                                              OdoriIndex    *index,
                                              GPtrArray     *diagnostics);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriScore, odori_score_unref)

G_END_DECLS
