/* odori-index-edit.c: motion.dat edited as data, written back line for line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A loaded index keeps the file's lines (index->lines): each with its text, its line end,
 * what it is (a part, a class's begin or end, a show's begin or end, a motion, or
 * other: blank or comment) and the item it belongs to. The mutators change the model
 * and the lines together:
 * - a new line is indented like its siblings (the class's first show, the show's first
 *   motion, else the class's first motion), else by 2 more than its block's begin line,
 *   and ends with the file's first line end;
 * - a new class goes at the end of the file; when the file had no final line end, the
 *   new last line has none either (so removing the class gives the file back);
 * - a removed block takes its lines from its begin to its end line, comments inside
 *   included; when it ends the file without a line end, the line before loses its end.
 * odori_index_write_preserving () then writes untouched lines as they were read: their
 * text and line end, and in a Shift_JIS file their own bytes.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "odori-index-private.h"
#include "odori-index.h"

/* Lines */

/* Where a comment starts: after the blanks the reader skips (with CR, LF and the
 * ideographic space U+3000). */
static const char *
comment_start (const char *p)
{
  for (;;)
    if (*p != '\0' && strchr (" \t\f\v\r\n", *p) != NULL)
      p++;
    else if (strncmp (p, "\xE3\x80\x80", 3) == 0)
      p += 3;
    else
      return p;
}

static gboolean
is_blank (const char *text,
          gsize       len)
{
  const char *end = text + len;

  for (const char *p = text; p < end;)
    if (*p != '\0' && strchr (" \t\f\v\r\n", *p) != NULL)
      p++;
    else if (end - p >= 3 && memcmp (p, "\xE3\x80\x80", 3) == 0)
      p += 3;
    else
      return FALSE;
  return TRUE;
}

OdoriIndexLine *
_odori_index_line_new (const char        *text,
                       gsize              len,
                       const char        *eol,
                       gsize              eol_len,
                       OdoriIndexLineKind kind,
                       gpointer           item)
{
  OdoriIndexLine *line = g_new0 (OdoriIndexLine, 1);

  g_assert (eol_len < sizeof line->eol);
  line->text = g_strndup (text, len);
  memcpy (line->eol, eol, eol_len);
  line->n_lines = 1;
  line->kind = kind;
  line->item = item;
  return line;
}

void
_odori_index_line_free (OdoriIndexLine *line)
{
  if (line == NULL)
    return;
  g_free (line->text);
  g_clear_pointer (&line->raw, g_bytes_unref);
  g_free (line);
}

static void
finish_run (OdoriIndexLine *line)
{
  if (line != NULL && line->text == NULL)
    {
      line->text = g_strndup (line->run, line->run_len);
      line->run = NULL;
    }
}

void
_odori_index_read_line (OdoriIndex        *index,
                        const char        *text,
                        gsize              len,
                        const char        *eol,
                        gsize              eol_len,
                        OdoriIndexLineKind kind,
                        gpointer           item)
{
  OdoriIndexLine *last = index->lines->len > 0
                             ? g_ptr_array_index (index->lines, index->lines->len - 1)
                             : NULL;
  gboolean        blank = kind == ODORI_INDEX_LINE_OTHER && is_blank (text, len);

  g_assert (eol_len < sizeof index->newline);
  if (last == NULL)
    {
      memset (index->newline, 0, sizeof index->newline);
      memcpy (index->newline, eol, eol_len);
    }
  if (blank && last != NULL && last->text == NULL && text >= last->run)
    {
      /* the next line of the run: a file's lines are contiguous */
      last->run_len = text + len - last->run;
      last->n_lines++;
      memset (last->eol, 0, sizeof last->eol);
      memcpy (last->eol, eol, eol_len);
      return;
    }
  finish_run (last);
  if (blank)
    {
      OdoriIndexLine *line = _odori_index_line_new ("", 0, eol, eol_len, kind, NULL);

      g_clear_pointer (&line->text, g_free);
      line->run = text;
      line->run_len = len;
      g_ptr_array_add (index->lines, line);
      return;
    }
  g_ptr_array_add (index->lines, _odori_index_line_new (text, len, eol, eol_len, kind, item));
}

void
_odori_index_finish_read (OdoriIndex *index)
{
  if (index->lines->len > 0)
    finish_run (g_ptr_array_index (index->lines, index->lines->len - 1));
}

/* Splits a Shift_JIS file's bytes by the line reader's rule (the first line end decides
 * between LF/CRLF and CR; CR and LF bytes are never part of a Shift_JIS character) and
 * keeps, for each line with non-ASCII bytes, its bytes when they decode to the line's
 * text (the file may have changed since it was read). Blank runs are ASCII or U+3000,
 * which Shift_JIS writes back the same. */
void
_odori_index_attach_raw (OdoriIndex *index,
                         const char *data,
                         gsize       len)
{
  const char *nl = memchr (data, '\n', len);
  const char *cr = memchr (data, '\r', nl ? (gsize) (nl - data) : len);
  char        sep = cr != NULL && cr + 1 != nl ? '\r' : '\n';
  const char *p = data, *end = data + len;

  g_return_if_fail (index != NULL && index->lines != NULL);

  for (guint i = 0; p < end && i < index->lines->len; i++)
    {
      OdoriIndexLine  *line = g_ptr_array_index (index->lines, i);
      const char      *eol = memchr (p, sep, end - p);
      const char      *line_end = eol != NULL ? eol : end;
      g_autofree char *decoded = NULL;
      gsize            n;

      for (guint k = 1; k < line->n_lines && eol != NULL; k++)
        eol = memchr (eol + 1, sep, end - (eol + 1));
      if (line->n_lines == 1)
        {
          if (sep == '\n' && line_end > p && line_end[-1] == '\r')
            line_end--;
          n = line_end - p;
          for (gsize k = 0; k < n; k++)
            if ((guchar) p[k] >= 0x80)
              {
                decoded = odori_text_decode (p, n, NULL, NULL, NULL, NULL);
                break;
              }
          if (decoded != NULL && strcmp (decoded, line->text) == 0)
            line->raw = g_bytes_new (p, n);
        }
      p = eol != NULL ? eol + 1 : end;
    }
}

static const char *
index_newline (OdoriIndex *index)
{
  return index->newline[0] != '\0' ? index->newline : "\n";
}

/* The line at which ITEM's line of KIND is, or -1. */
static int
find_line (OdoriIndex        *index,
           OdoriIndexLineKind kind,
           gpointer           item)
{
  for (guint i = 0; i < index->lines->len; i++)
    {
      OdoriIndexLine *line = g_ptr_array_index (index->lines, i);

      if (line->kind == kind && line->item == item)
        return (int) i;
    }
  return -1;
}

static char *
line_indent (OdoriIndex *index,
             int         at)
{
  OdoriIndexLine *line;
  const char     *end;

  if (at < 0)
    return g_strdup ("");
  line = g_ptr_array_index (index->lines, at);
  end = line->text + strlen (line->text);
  return g_strndup (line->text, odori_skip_blanks (line->text, end) - line->text);
}

/* The indent of the first line of KIND in lines (FROM, TO), or NULL. */
static char *
first_indent (OdoriIndex        *index,
              int                from,
              int                to,
              OdoriIndexLineKind kind)
{
  for (int i = from + 1; i < to; i++)
    if (((OdoriIndexLine *) g_ptr_array_index (index->lines, i))->kind == kind)
      return line_indent (index, i);
  return NULL;
}

/* Inserts INDENT + TEXT before line AT (at the end when AT is the number of lines). */
static void
insert_line (OdoriIndex        *index,
             guint              at,
             const char        *indent,
             const char        *text,
             OdoriIndexLineKind kind,
             gpointer           item)
{
  g_autofree char *full = g_strconcat (indent, text, NULL);
  const char      *nl = index_newline (index);
  OdoriIndexLine  *line = _odori_index_line_new (full, strlen (full), nl, strlen (nl), kind, item);

  if (at == index->lines->len && at > 0)
    {
      OdoriIndexLine *last = g_ptr_array_index (index->lines, at - 1);

      /* the file had no final line end: the new last line has none */
      if (last->eol[0] == '\0')
        {
          memcpy (last->eol, line->eol, sizeof line->eol);
          line->eol[0] = '\0';
        }
    }
  g_ptr_array_insert (index->lines, at, line);
}

/* Removes lines FIRST..LAST; when LAST ended the file without a line end, the line
 * before FIRST loses its end instead. */
static void
remove_lines (OdoriIndex *index,
              guint       first,
              guint       last)
{
  OdoriIndexLine *end_line = g_ptr_array_index (index->lines, last);

  if (end_line->eol[0] == '\0' && first > 0)
    ((OdoriIndexLine *) g_ptr_array_index (index->lines, first - 1))->eol[0] = '\0';
  g_ptr_array_remove_range (index->lines, first, last - first + 1);
}

/* Line numbers and comments from the lines, after an edit. */
static void
renumber (OdoriIndex *index)
{
  guint next = 1;

  g_ptr_array_set_size (index->comments, 0);
  for (guint l = 0; l < index->lines->len; l++)
    {
      OdoriIndexLine *line = g_ptr_array_index (index->lines, l);
      const char     *p = comment_start (line->text);
      guint           lineno = next;

      next += line->n_lines;
      switch (line->kind)
        {
        case ODORI_INDEX_LINE_OTHER:
          if (*p == '#')
            g_ptr_array_add (index->comments, g_strdup (p));
          break;
        case ODORI_INDEX_LINE_PART:
          ((OdoriIndexPart *) line->item)->line = lineno;
          break;
        case ODORI_INDEX_LINE_CLASS_BEGIN:
          ((OdoriIndexClass *) line->item)->line = lineno;
          break;
        case ODORI_INDEX_LINE_SHOW_BEGIN:
          {
            OdoriIndexShow *show = line->item;

            show->line = lineno;
            if (show->klass->implicit && g_ptr_array_index (show->klass->shows, 0) == show)
              show->klass->line = lineno;
          }
          break;
        case ODORI_INDEX_LINE_MOTION:
          ((OdoriIndexMotion *) line->item)->line = lineno;
          break;
        case ODORI_INDEX_LINE_CLASS_END:
        case ODORI_INDEX_LINE_SHOW_END:
        default:
          break;
        }
    }
}

/* Queries */

/**
 * odori_index_find_show:
 * @index: an index
 * @code: a show code
 *
 * Returns: (transfer none) (nullable): the first show with @code
 */
OdoriIndexShow *
odori_index_find_show (OdoriIndex *index,
                       const char *code)
{
  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (code != NULL, NULL);

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          if (g_strcmp0 (show->code, code) == 0)
            return show;
        }
    }
  return NULL;
}

/**
 * odori_index_find_class:
 * @index: an index
 * @code: a class code
 *
 * Returns: (transfer none) (nullable): the first explicit class with @code
 */
OdoriIndexClass *
odori_index_find_class (OdoriIndex *index,
                        const char *code)
{
  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (code != NULL, NULL);

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      if (!klass->implicit && g_strcmp0 (klass->code, code) == 0)
        return klass;
    }
  return NULL;
}

/* A code that reads back: not empty, one line. MESSAGE: the error, translated. */
static gboolean
check_code (const char *code,
            const char *message,
            GError    **error)
{
  if (code != NULL && code[0] != '\0' && g_utf8_validate (code, -1, NULL) &&
      strpbrk (code, "\r\n") == NULL)
    return TRUE;
  g_set_error_literal (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_MISSING, message);
  return FALSE;
}

/* Classes */

/**
 * odori_index_add_class:
 * @index: an index
 * @code: the class code
 * @name: (nullable): its name
 * @error: return location for an error in %ODORI_INDEX_ERROR
 *
 * Returns: (transfer none) (nullable): the new, empty class, last in the file
 */
OdoriIndexClass *
odori_index_add_class (OdoriIndex *index,
                       const char *code,
                       const char *name,
                       GError    **error)
{
  OdoriIndexClass *klass;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_code (code, _("a class needs a code of one line"), error))
    return NULL;
  if (odori_index_find_class (index, code) != NULL)
    {
      g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE,
                   _("the index already has a class with code \"%s\""), code);
      return NULL;
    }

  klass = g_new0 (OdoriIndexClass, 1);
  klass->code = g_strdup (code);
  klass->name = g_strdup (name);
  klass->shows = g_ptr_array_new_with_free_func ((GDestroyNotify) _odori_index_show_free);
  klass->extra = _odori_index_params_new ();
  g_ptr_array_add (index->classes, klass);

  if (index->lines != NULL)
    {
      g_autoptr(GString) s = g_string_new (NULL);

      _odori_index_format_class (s, klass);
      insert_line (index, index->lines->len, "", s->str, ODORI_INDEX_LINE_CLASS_BEGIN, klass);
      insert_line (index, index->lines->len, "", "end class", ODORI_INDEX_LINE_CLASS_END, klass);
      renumber (index);
    }
  return klass;
}

/* Removes the lines of KLASS (begin to end; an implicit class: its shows' blocks). */
static void
remove_class_lines (OdoriIndex      *index,
                    OdoriIndexClass *klass)
{
  if (index->lines == NULL)
    return;
  if (klass->implicit)
    {
      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);
          int             first = find_line (index, ODORI_INDEX_LINE_SHOW_BEGIN, show);
          int             last = find_line (index, ODORI_INDEX_LINE_SHOW_END, show);

          if (first >= 0 && last >= first)
            remove_lines (index, first, last);
        }
    }
  else
    {
      int first = find_line (index, ODORI_INDEX_LINE_CLASS_BEGIN, klass);
      int last = find_line (index, ODORI_INDEX_LINE_CLASS_END, klass);

      if (first >= 0 && last >= first)
        remove_lines (index, first, last);
    }
  renumber (index);
}

/**
 * odori_index_remove_class:
 * @index: an index
 * @klass: (transfer full): a class of @index, freed
 *
 * Removes the class block with everything inside it (shows, comments).
 */
void
odori_index_remove_class (OdoriIndex      *index,
                          OdoriIndexClass *klass)
{
  g_return_if_fail (index != NULL);
  g_return_if_fail (klass != NULL);

  remove_class_lines (index, klass);
  if (!g_ptr_array_remove (index->classes, klass))
    g_critical ("%s: the class is not in the index", G_STRFUNC);
}

/* Shows */

/**
 * odori_index_add_show:
 * @index: an index
 * @klass: a class of @index
 * @code: the show code
 * @name: (nullable): its name
 * @file: its motion file, relative to the index's directory
 * @error: return location for an error in %ODORI_INDEX_ERROR
 *
 * Returns: (transfer none) (nullable): the new show, without motions, last in @klass
 */
OdoriIndexShow *
odori_index_add_show (OdoriIndex      *index,
                      OdoriIndexClass *klass,
                      const char      *code,
                      const char      *name,
                      const char      *file,
                      GError         **error)
{
  OdoriIndexShow *show;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (klass != NULL, NULL);
  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_code (code, _("a show needs a code of one line"), error))
    return NULL;
  if (odori_index_find_show (index, code) != NULL)
    {
      g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE,
                   _("the index already has a show with code \"%s\""), code);
      return NULL;
    }

  show = g_new0 (OdoriIndexShow, 1);
  show->code = g_strdup (code);
  show->name = g_strdup (name);
  show->file = g_strdup (file);
  show->motions = g_ptr_array_new_with_free_func ((GDestroyNotify) _odori_index_motion_free);
  show->extra = _odori_index_params_new ();
  show->klass = klass;

  if (index->lines != NULL)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      g_autofree char *indent = NULL;
      int              at;

      if (klass->implicit)
        {
          /* after the class's last show, indented like it */
          OdoriIndexShow *last = klass->shows->len > 0
                                     ? g_ptr_array_index (klass->shows, klass->shows->len - 1)
                                     : NULL;
          int             end = last != NULL ? find_line (index, ODORI_INDEX_LINE_SHOW_END, last) : -1;

          at = end >= 0 ? end + 1 : (int) index->lines->len;
          indent = last != NULL ? line_indent (index, find_line (index, ODORI_INDEX_LINE_SHOW_BEGIN, last))
                                : g_strdup ("");
        }
      else
        {
          int begin = find_line (index, ODORI_INDEX_LINE_CLASS_BEGIN, klass);

          at = find_line (index, ODORI_INDEX_LINE_CLASS_END, klass);
          if (begin < 0 || at <= begin)
            {
              g_critical ("%s: the class has no block in the index's lines", G_STRFUNC);
              _odori_index_show_free (show);
              return NULL;
            }
          indent = first_indent (index, begin, at, ODORI_INDEX_LINE_SHOW_BEGIN);
          if (indent == NULL)
            {
              g_autofree char *class_indent = line_indent (index, begin);

              indent = g_strconcat (class_indent, "  ", NULL);
            }
        }
      _odori_index_format_show (s, show);
      insert_line (index, at, indent, s->str, ODORI_INDEX_LINE_SHOW_BEGIN, show);
      g_string_printf (s, "end show");
      insert_line (index, at + 1, indent, s->str, ODORI_INDEX_LINE_SHOW_END, show);
    }
  g_ptr_array_add (klass->shows, show);
  if (index->lines != NULL)
    renumber (index);
  return show;
}

/* TRUE when the lines of KLASS's block, but those of SHOW's, are all blank. */
static gboolean
class_holds_only (OdoriIndex      *index,
                  OdoriIndexClass *klass,
                  OdoriIndexShow  *show)
{
  int begin = find_line (index, ODORI_INDEX_LINE_CLASS_BEGIN, klass);
  int end = find_line (index, ODORI_INDEX_LINE_CLASS_END, klass);
  int show_begin = find_line (index, ODORI_INDEX_LINE_SHOW_BEGIN, show);
  int show_end = find_line (index, ODORI_INDEX_LINE_SHOW_END, show);

  if (begin < 0 || end < begin)
    return FALSE;
  for (int i = begin + 1; i < end; i++)
    {
      OdoriIndexLine *line = g_ptr_array_index (index->lines, i);

      if ((i < show_begin || i > show_end) && !is_blank (line->text, strlen (line->text)))
        return FALSE;
    }
  return TRUE;
}

/**
 * odori_index_remove_show:
 * @index: an index
 * @show: (transfer full): a show of @index, freed
 *
 * Removes the show block. When it was all its class held (blank lines aside), the class
 * goes too; an implicit class left empty always goes.
 */
void
odori_index_remove_show (OdoriIndex     *index,
                         OdoriIndexShow *show)
{
  OdoriIndexClass *klass;

  g_return_if_fail (index != NULL);
  g_return_if_fail (show != NULL);

  klass = show->klass;
  if (klass->shows->len == 1 &&
      (klass->implicit || index->lines == NULL || class_holds_only (index, klass, show)))
    {
      odori_index_remove_class (index, klass);
      return;
    }
  if (index->lines != NULL)
    {
      int first = find_line (index, ODORI_INDEX_LINE_SHOW_BEGIN, show);
      int last = find_line (index, ODORI_INDEX_LINE_SHOW_END, show);

      if (first >= 0 && last >= first)
        remove_lines (index, first, last);
    }
  if (!g_ptr_array_remove (klass->shows, show))
    g_critical ("%s: the show is not in its class", G_STRFUNC);
  if (index->lines != NULL)
    renumber (index);
}

/**
 * odori_index_rename_show:
 * @index: an index
 * @show: a show of @index
 * @name: (nullable): the new name
 *
 * Sets the show's name; its begin line is written anew in the canonical form (indent
 * kept), the other lines stay as they are.
 */
void
odori_index_rename_show (OdoriIndex     *index,
                         OdoriIndexShow *show,
                         const char     *name)
{
  int at;

  g_return_if_fail (index != NULL);
  g_return_if_fail (show != NULL);

  if (g_strcmp0 (show->name, name) == 0)
    return;
  g_free (show->name);
  show->name = g_strdup (name);

  if (index->lines != NULL && (at = find_line (index, ODORI_INDEX_LINE_SHOW_BEGIN, show)) >= 0)
    {
      OdoriIndexLine *line = g_ptr_array_index (index->lines, at);
      g_autoptr(GString) s = g_string_new (NULL);
      g_autofree char *indent = line_indent (index, at);

      g_string_append (s, indent);
      _odori_index_format_show (s, show);
      g_free (line->text);
      line->text = g_string_free (g_steal_pointer (&s), FALSE);
      g_clear_pointer (&line->raw, g_bytes_unref);
    }
}

/* Motions */

/**
 * odori_index_add_motion:
 * @index: an index
 * @show: a show of @index
 * @code: the motion code
 * @name: (nullable): its name
 * @exp: (nullable): its description
 * @first: its first frame (from 1)
 * @last: its last frame
 * @error: return location for an error in %ODORI_INDEX_ERROR
 *
 * Returns: (transfer none) (nullable): the new motion, last in @show
 */
OdoriIndexMotion *
odori_index_add_motion (OdoriIndex     *index,
                        OdoriIndexShow *show,
                        const char     *code,
                        const char     *name,
                        const char     *exp,
                        guint           first,
                        guint           last,
                        GError        **error)
{
  OdoriIndexMotion *motion;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (show != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_code (code, _("a motion needs a code of one line"), error))
    return NULL;
  if (first == 0 || first > last)
    {
      g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_RANGE,
                   _("motion \"%s\": frame range %u-%u is empty or starts at 0 (frames are "
                      "numbered from 1)"),
                   code, first, last);
      return NULL;
    }
  for (guint i = 0; i < show->motions->len; i++)
    if (g_strcmp0 (((OdoriIndexMotion *) g_ptr_array_index (show->motions, i))->code, code) == 0)
      {
        g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE,
                     _("show \"%s\" already has a motion with code \"%s\""), show->code, code);
        return NULL;
      }

  motion = g_new0 (OdoriIndexMotion, 1);
  motion->code = g_strdup (code);
  motion->name = g_strdup (name);
  motion->exp = g_strdup (exp);
  motion->first = first;
  motion->last = last;
  motion->extra = _odori_index_params_new ();
  motion->show = show;

  if (index->lines != NULL)
    {
      int begin = find_line (index, ODORI_INDEX_LINE_SHOW_BEGIN, show);
      int end = find_line (index, ODORI_INDEX_LINE_SHOW_END, show);
      g_autoptr(GString) s = g_string_new (NULL);
      g_autofree char *indent = NULL;

      if (begin < 0 || end <= begin)
        {
          g_critical ("%s: the show has no block in the index's lines", G_STRFUNC);
          _odori_index_motion_free (motion);
          return NULL;
        }
      indent = first_indent (index, begin, end, ODORI_INDEX_LINE_MOTION);
      /* like the class's other motions */
      for (guint i = 0; indent == NULL && i < show->klass->shows->len; i++)
        {
          OdoriIndexShow *other = g_ptr_array_index (show->klass->shows, i);

          if (other != show && other->motions->len > 0)
            indent = line_indent (index, find_line (index, ODORI_INDEX_LINE_MOTION,
                                                    g_ptr_array_index (other->motions, 0)));
        }
      if (indent == NULL)
        {
          g_autofree char *show_indent = line_indent (index, begin);

          indent = g_strconcat (show_indent, "  ", NULL);
        }
      _odori_index_format_motion (s, motion);
      insert_line (index, end, indent, s->str, ODORI_INDEX_LINE_MOTION, motion);
    }
  g_ptr_array_add (show->motions, motion);
  if (index->lines != NULL)
    renumber (index);
  return motion;
}

/**
 * odori_index_remove_motion:
 * @index: an index
 * @motion: (transfer full): a motion of @index, freed
 *
 * Removes the motion's line. Its show may be left without motions.
 */
void
odori_index_remove_motion (OdoriIndex       *index,
                           OdoriIndexMotion *motion)
{
  int at;

  g_return_if_fail (index != NULL);
  g_return_if_fail (motion != NULL);

  if (index->lines != NULL && (at = find_line (index, ODORI_INDEX_LINE_MOTION, motion)) >= 0)
    remove_lines (index, at, at);
  if (!g_ptr_array_remove (motion->show->motions, motion))
    g_critical ("%s: the motion is not in its show", G_STRFUNC);
  if (index->lines != NULL)
    renumber (index);
}

/* Writing */

/**
 * odori_index_write_preserving:
 * @index: an index
 * @out: where to write, in index->encoding
 *
 * Writes the lines of the file @index was read from, with the edits made through the
 * odori_index_add_* and odori_index_remove_* functions. Encoding errors are reported by
 * odori_output_commit().
 */
void
odori_index_write_preserving (OdoriIndex  *index,
                              OdoriOutput *out)
{
  g_return_if_fail (index != NULL);
  g_return_if_fail (out != NULL);

  if (index->lines == NULL)
    {
      odori_index_write (index, out);
      return;
    }
  for (guint i = 0; i < index->lines->len; i++)
    {
      OdoriIndexLine *line = g_ptr_array_index (index->lines, i);

      if (line->raw != NULL && index->encoding == ODORI_ENCODING_SHIFT_JIS)
        {
          gsize       len;
          const char *raw = g_bytes_get_data (line->raw, &len);

          odori_output_write (out, raw, len);
        }
      else
        odori_output_text (out, line->text);
      odori_output_write (out, line->eol, strlen (line->eol));
    }
}

/* Writes BYTES atomically to PATH, as they are. */
static gboolean
write_bytes (const char *path,
             const char *bytes,
             gsize       len,
             GError    **error)
{
  g_autoptr(OdoriOutput) out = odori_output_new (path, ODORI_ENCODING_UTF8, error);

  if (out == NULL)
    return FALSE;
  odori_output_write (out, bytes, len);
  return odori_output_commit (out, error);
}

/* Copies the file at PATH, if there is one, to PATH~ (atomically). */
static gboolean
keep_backup (const char *path,
             GError    **error)
{
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autoptr(GMappedFile) old = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  old = odori_mapped_file_new (path, error);
  if (old == NULL)
    return FALSE;
  return write_bytes (backup, g_mapped_file_get_contents (old), g_mapped_file_get_length (old),
                      error);
}

/**
 * odori_index_save_in_place:
 * @index: an index with a path
 * @error: return location for an error in %ODORI_INDEX_ERROR or %ODORI_TEXT_ERROR
 *
 * Writes @index over index->path with odori_index_write_preserving (), in its encoding.
 * The new text is first read back (an edit that would make the file unreadable is
 * refused), then the previous file is copied to index->path + "~", then the new one
 * replaces it; each write is atomic, so a failure leaves both files whole.
 *
 * Returns: %TRUE on success
 */
gboolean
odori_index_save_in_place (OdoriIndex *index,
                           GError    **error)
{
  g_autoptr(OdoriOutput) out = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(OdoriTextFile) text = NULL;
  g_autoptr(OdoriIndex) back = NULL;
  const char *data;
  gsize       len;

  g_return_val_if_fail (index != NULL, FALSE);
  g_return_val_if_fail (index->path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = odori_output_new_memory (index->encoding);
  odori_index_write_preserving (index, out);
  if (!odori_output_commit (out, error))
    return FALSE;
  bytes = odori_output_steal_bytes (out);
  data = g_bytes_get_data (bytes, &len);
  text = odori_text_file_new_from_data (index->path, len > 0 ? data : "", len, error);
  if (text == NULL)
    return FALSE;
  back = odori_index_load_text (text, error);
  if (back == NULL)
    return FALSE;
  return keep_backup (index->path, error) &&
         write_bytes (index->path, len > 0 ? data : "", len, error);
}
