/* odori-index.h: the dance-symbol index table, motion.dat (FORMATS.md §3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-motion.h"
#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_INDEX_ERROR (odori_index_error_quark ())

typedef enum
{
  ODORI_INDEX_ERROR_SYNTAX,       /* a line that is no construct, a bad value */
  ODORI_INDEX_ERROR_UNBALANCED,   /* begin/end mismatch or missing end */
  ODORI_INDEX_ERROR_DUPLICATE,    /* duplicate part code, or motion code within a show */
  ODORI_INDEX_ERROR_RANGE,        /* frame range START > END, or END beyond the file */
  ODORI_INDEX_ERROR_MISSING_FILE, /* a show's file cannot be opened */
  ODORI_INDEX_ERROR_UNKNOWN_SYMBOL,
  ODORI_INDEX_ERROR_AMBIGUOUS,    /* a bare code defined by several shows */
  ODORI_INDEX_ERROR_MISSING,      /* a required parameter (code, file, frame) is missing */
} OdoriIndexError;

/* key=value parameters the reader does not know, kept and written back. */
typedef struct
{
  char *key;
  char *value;
} OdoriParam;

typedef struct _OdoriIndexClass OdoriIndexClass;
typedef struct _OdoriIndexShow  OdoriIndexShow;
typedef struct _OdoriIndexLine  OdoriIndexLine;

typedef struct
{
  char      *name;
  char      *code;
  char     **map;        /* NULL-terminated; map[0] is the anchor sensor */
  guint      line;
  GPtrArray *extra;      /* OdoriParam* */
} OdoriIndexPart;

typedef struct
{
  char           *name;
  char           *code;
  char           *exp;       /* description, may be NULL */
  guint           first;     /* 1-based, inclusive */
  guint           last;
  guint           line;
  GPtrArray      *extra;
  OdoriIndexShow *show;      /* back pointer, not owned */
} OdoriIndexMotion;

struct _OdoriIndexShow
{
  char            *name;
  char            *code;
  char            *file;     /* as written, relative to the index's directory */
  guint            line;
  GPtrArray       *motions;  /* OdoriIndexMotion* */
  GPtrArray       *extra;
  OdoriIndexClass *klass;    /* back pointer, not owned */
};

struct _OdoriIndexClass
{
  char      *name;
  char      *code;
  guint      line;
  gboolean   implicit;       /* created for shows outside any class; not written */
  GPtrArray *shows;          /* OdoriIndexShow* */
  GPtrArray *extra;
};

struct _OdoriIndex
{
  /*< private >*/
  gatomicrefcount ref_count;
  /*< public >*/
  char           *path;      /* may be NULL for an index built in memory */
  OdoriEncoding   encoding;
  GPtrArray      *parts;     /* OdoriIndexPart* */
  GPtrArray      *classes;   /* OdoriIndexClass* */
  GPtrArray      *comments;  /* char*: '#' lines, written back at the top */
  GPtrArray      *warnings;  /* OdoriDiagnostic* from loading */
  /*< private >*/
  GPtrArray      *lines;     /* OdoriIndexLine*: the file's lines as read and edited, for
                              * odori_index_write_preserving (); NULL when built in memory */
  char            newline[3]; /* the file's first line end, for new lines ("": LF) */
};

GQuark            odori_index_error_quark  (void);
OdoriIndex       *odori_index_new          (void);
OdoriIndex       *odori_index_ref          (OdoriIndex     *index);
void              odori_index_unref        (OdoriIndex     *index);
OdoriIndex       *odori_index_load         (const char     *path,
                                            GError        **error);
OdoriIndex       *odori_index_load_text    (OdoriTextFile  *file,
                                            GError        **error);
/* Writes in the index's encoding, atomically. */
gboolean          odori_index_save         (OdoriIndex     *index,
                                            const char     *path,
                                            GError        **error);
void              odori_index_write        (OdoriIndex     *index,
                                            OdoriOutput    *out);
OdoriIndexPart   *odori_index_find_part    (OdoriIndex     *index,
                                            const char     *code);
/* SYMBOL is "CODE" or "SHOWCODE.CODE". Unknown: ODORI_INDEX_ERROR_UNKNOWN_SYMBOL;
 * a bare code in several shows: ODORI_INDEX_ERROR_AMBIGUOUS naming every candidate. */
OdoriIndexMotion *odori_index_lookup       (OdoriIndex     *index,
                                            const char     *symbol,
                                            GError        **error);
/* Absolute path of a show's file (relative to the index's directory). */
char             *odori_index_show_path    (OdoriIndex     *index,
                                            OdoriIndexShow *show);

/* Editing (odori-index-edit.c). Edit a loaded index through these functions only: they
 * change the model and the file's lines together, so odori_index_write_preserving ()
 * writes every untouched line byte for byte. Line numbers (->line) are renumbered after
 * each edit; index->comments follows the file's comment lines. */
OdoriIndexShow   *odori_index_find_show    (OdoriIndex     *index,
                                            const char     *code);
/* The first explicit class (not an implicit one) with CODE. */
OdoriIndexClass  *odori_index_find_class   (OdoriIndex     *index,
                                            const char     *code);
/* A new, empty class block at the end of the file. NAME nullable.
 * ODORI_INDEX_ERROR_DUPLICATE when an explicit class has CODE. */
OdoriIndexClass  *odori_index_add_class    (OdoriIndex     *index,
                                            const char     *code,
                                            const char     *name,
                                            GError        **error);
/* Removes the class block, its shows and every line inside it. */
void              odori_index_remove_class (OdoriIndex     *index,
                                            OdoriIndexClass *klass);
/* A new show block, without motions, at the end of KLASS. NAME nullable.
 * ODORI_INDEX_ERROR_DUPLICATE when a show has CODE. */
OdoriIndexShow   *odori_index_add_show     (OdoriIndex     *index,
                                            OdoriIndexClass *klass,
                                            const char     *code,
                                            const char     *name,
                                            const char     *file,
                                            GError        **error);
/* Removes the show block (and its lines). A class left without shows goes too when its
 * block holds nothing else but blank lines (a class holds one or more shows); an
 * implicit class always. */
void              odori_index_remove_show  (OdoriIndex     *index,
                                            OdoriIndexShow *show);
/* Sets the show's name (nullable: none); its begin line is written anew. */
void              odori_index_rename_show  (OdoriIndex     *index,
                                            OdoriIndexShow *show,
                                            const char     *name);
/* A new motion line at the end of SHOW. NAME and EXP nullable. FIRST..LAST 1-based,
 * inclusive: ODORI_INDEX_ERROR_RANGE otherwise; ODORI_INDEX_ERROR_DUPLICATE when the
 * show has CODE. */
OdoriIndexMotion *odori_index_add_motion   (OdoriIndex     *index,
                                            OdoriIndexShow *show,
                                            const char     *code,
                                            const char     *name,
                                            const char     *exp,
                                            guint           first,
                                            guint           last,
                                            GError        **error);
void              odori_index_remove_motion (OdoriIndex    *index,
                                            OdoriIndexMotion *motion);
/* Writes the file's lines as read, with the edits: untouched lines byte for byte (their
 * text, line ends, Shift_JIS bytes), new lines in the file's first line end. OUT must be
 * in index->encoding. An index built in memory is written as odori_index_write () does. */
void              odori_index_write_preserving (OdoriIndex *index,
                                            OdoriOutput    *out);
/* Writes the index over index->path with odori_index_write_preserving (), atomically,
 * after checking that the new text reads as an index; the previous file is first kept,
 * atomically too, as index->path with "~" appended. */
gboolean          odori_index_save_in_place (OdoriIndex    *index,
                                            GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriIndex, odori_index_unref)

G_END_DECLS
