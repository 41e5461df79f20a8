/* odori-index.c: the dance-symbol index table, motion.dat (FORMATS.md §3): its model,
 * reader, writer and look-ups (its edits are odori-index-edit.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading rules (the Odori decisions of FORMATS.md §3, plus these):
 * - A line is blank, a comment (first non-blank character '#'), or one construct:
 *   `define part`, `begin class`, `begin show`, `end NAME`, `[define] motion`.
 *   Keywords are ASCII and matched without regard to case.
 * - Parameters are `key=value`, blanks allowed around '='. A value is "quoted",
 *   “curly quoted” (closed by ” only), or bare (up to the next blank). The ideographic
 *   space U+3000 counts as a blank between tokens, as Japanese editors insert it.
 * - Comments are kept in order in index->comments (without leading blanks) and written
 *   back at the top of the file, as the struct has no place for their position.
 * - A show outside any class goes into an implicit class (reused by the following bare
 *   shows) and is written back as a bare show block.
 * - Duplicate show codes are tolerated with a warning (qualified symbols of that show
 *   are then ambiguous). An empty class or show is tolerated with a warning.
 *
 * Writing: canonical layout, LF line ends, in the index's encoding. Values are written
 * "quoted", or “curly quoted” when they contain '"'; line breaks inside a value (only
 * possible for an index built in memory) are written as spaces.
 *
 * The reader also keeps every line (index->lines: text, line end, and what the line is),
 * for the mutators and the preserving writer of odori-index-edit.c.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-index-private.h"
#include "odori-index.h"
#include "odori-reader.h"

G_DEFINE_QUARK (odori-index-error-quark, odori_index_error)

#define LEFT_CURLY  "\xE2\x80\x9C" /* “ */
#define RIGHT_CURLY "\xE2\x80\x9D" /* ” */
/* Longest line, in bytes. Real lines are a few hundred bytes; a longer one is not
 * an index table, and its values would be split, copied and quoted in messages whole. */
#define MAX_LINE 65536

/* Memory */

static OdoriParam *
param_new (const char *key,
           const char *value)
{
  OdoriParam *param = g_new0 (OdoriParam, 1);

  param->key = g_strdup (key);
  param->value = g_strdup (value);
  return param;
}

static void
param_free (OdoriParam *param)
{
  if (param == NULL)
    return;
  g_free (param->key);
  g_free (param->value);
  g_free (param);
}

static GPtrArray *
params_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) param_free);
}

static void
part_free (OdoriIndexPart *part)
{
  g_free (part->name);
  g_free (part->code);
  g_strfreev (part->map);
  g_clear_pointer (&part->extra, g_ptr_array_unref);
  g_free (part);
}

static void
motion_free (OdoriIndexMotion *motion)
{
  g_free (motion->name);
  g_free (motion->code);
  g_free (motion->exp);
  g_clear_pointer (&motion->extra, g_ptr_array_unref);
  g_free (motion);
}

static void
show_free (OdoriIndexShow *show)
{
  g_free (show->name);
  g_free (show->code);
  g_free (show->file);
  g_clear_pointer (&show->motions, g_ptr_array_unref);
  g_clear_pointer (&show->extra, g_ptr_array_unref);
  g_free (show);
}

static void
class_free (OdoriIndexClass *klass)
{
  g_free (klass->name);
  g_free (klass->code);
  g_clear_pointer (&klass->shows, g_ptr_array_unref);
  g_clear_pointer (&klass->extra, g_ptr_array_unref);
  g_free (klass);
}

GPtrArray *
_odori_index_params_new (void)
{
  return params_new ();
}

void
_odori_index_motion_free (OdoriIndexMotion *motion)
{
  motion_free (motion);
}

void
_odori_index_show_free (OdoriIndexShow *show)
{
  show_free (show);
}

void
_odori_index_class_free (OdoriIndexClass *klass)
{
  class_free (klass);
}

/**
 * odori_index_new:
 *
 * Returns: (transfer full): an empty index (UTF-8, no path)
 */
OdoriIndex *
odori_index_new (void)
{
  OdoriIndex *index = g_new0 (OdoriIndex, 1);

  g_atomic_ref_count_init (&index->ref_count);
  index->encoding = ODORI_ENCODING_UTF8;
  index->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);
  index->classes = g_ptr_array_new_with_free_func ((GDestroyNotify) class_free);
  index->comments = g_ptr_array_new_with_free_func (g_free);
  index->warnings = odori_diagnostics_new ();
  return index;
}

OdoriIndex *
odori_index_ref (OdoriIndex *index)
{
  g_return_val_if_fail (index != NULL, NULL);

  g_atomic_ref_count_inc (&index->ref_count);
  return index;
}

void
odori_index_unref (OdoriIndex *index)
{
  g_return_if_fail (index != NULL);

  if (!g_atomic_ref_count_dec (&index->ref_count))
    return;

  g_free (index->path);
  g_ptr_array_unref (index->parts);
  g_ptr_array_unref (index->classes);
  g_ptr_array_unref (index->comments);
  g_ptr_array_unref (index->warnings);
  g_clear_pointer (&index->lines, g_ptr_array_unref);
  g_free (index);
}

/* Lexical helpers. Lines are valid UTF-8 (OdoriTextFile decodes) but not NUL-terminated. */

static gboolean
starts_with (const char *p,
             const char *end,
             const char *s)
{
  gsize n = strlen (s);

  return (gsize) (end - p) >= n && memcmp (p, s, n) == 0;
}

static const char *
find_seq (const char *p,
          const char *end,
          const char *s)
{
  gsize n = strlen (s);

  while ((gsize) (end - p) >= n)
    {
      const char *c = memchr (p, s[0], end - p);

      if (c == NULL || (gsize) (end - c) < n)
        return NULL;
      if (memcmp (c, s, n) == 0)
        return c;
      p = c + 1;
    }
  return NULL;
}

static gboolean
word_is (const char *word,
         gsize       len,
         const char *keyword)
{
  return len == strlen (keyword) && g_ascii_strncasecmp (word, keyword, len) == 0;
}

/* The next keyword: blanks skipped, up to a blank or '='. */
static gsize
next_word (const char **p,
           const char  *end,
           const char **word)
{
  const char *s = odori_skip_blanks (*p, end);
  const char *t = s;

  while (t < end && odori_blank_len (t, end) == 0 && *t != '=')
    t++;
  *word = s;
  *p = t;
  return t - s;
}

/* Splits a comma-joined list, trimming each item; empty items are dropped and counted. */
static char **
split_list (const char *s,
            guint      *n_empty)
{
  GPtrArray *items = g_ptr_array_new ();
  const char *end = s + strlen (s);
  const char *p = s;
  *n_empty = 0;
  while (p <= end)
    {
      const char *comma = memchr (p, ',', end - p);
      const char *item_end = comma ? comma : end;
      const char *a = odori_skip_blanks (p, item_end);
      const char *b = odori_trim_blanks (a, item_end);

      if (b > a)
        g_ptr_array_add (items, g_strndup (a, b - a));
      else if (comma != NULL || p != s)
        (*n_empty)++;
      p = item_end + 1;
    }
  g_ptr_array_add (items, NULL);
  return (char **) g_ptr_array_free (items, FALSE);
}

/* Parser */

typedef struct
{
  OdoriIndex      *index;
  const char      *path;         /* display name for messages */
  guint            lineno;
  OdoriIndexClass *klass;        /* the open explicit class block, or NULL */
  OdoriIndexShow  *show;         /* the open show block, or NULL */
  gboolean         seen_begin;
  GHashTable      *part_codes;   /* code → OdoriIndexPart (borrowed) */
  GHashTable      *show_codes;   /* code → OdoriIndexShow (borrowed) */
  GHashTable      *motion_codes; /* codes of the open show → OdoriIndexMotion (borrowed) */
} Parser;

/* Reads `key=value ...` up to END into PARAMS (OdoriParam, in order). */
static gboolean
parse_params (Parser      *parser,
              const char  *p,
              const char  *end,
              GPtrArray   *params,
              GError     **error)
{
  for (;;)
    {
      const char *key, *key_end, *value, *value_end;
      g_autofree char *key_str = NULL;
      g_autofree char *value_str = NULL;

      p = odori_skip_blanks (p, end);
      if (p >= end)
        return TRUE;

      key = p;
      while (p < end && odori_blank_len (p, end) == 0 && *p != '=' && *p != '"' &&
             !starts_with (p, end, LEFT_CURLY))
        p++;
      key_end = p;
      p = odori_skip_blanks (p, end);
      if (key_end == key || p >= end || *p != '=')
        {
          const char *tok_end = key;
          g_autofree char *got = NULL;

          while (tok_end < end && odori_blank_len (tok_end, end) == 0)
            tok_end++;
          got = odori_excerpt (key, tok_end - key);
          return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                                  parser->lineno,
                                  _("expected a parameter like code=\"A1\", got \"%s\""), got);
        }
      key_str = g_strndup (key, key_end - key);
      p = odori_skip_blanks (p + 1, end);

      if (p >= end)
        return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                                parser->lineno,
                                _("missing value after \"%s=\""), key_str);

      if (*p == '"' || starts_with (p, end, LEFT_CURLY))
        {
          gboolean curly = *p != '"';
          const char *close;

          value = p + (curly ? strlen (LEFT_CURLY) : 1);
          close = curly ? find_seq (value, end, RIGHT_CURLY) : memchr (value, '"', end - value);
          if (close == NULL)
            {
              g_autofree char *got = odori_excerpt (p, end - p);

              return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX,
                                      parser->path, parser->lineno,
                                      _("unterminated quoted value of \"%s\": no closing %s before "
                                        "the end of the line in %s"),
                                      key_str, curly ? RIGHT_CURLY : "quote", got);
            }
          value_end = close;
          p = close + (curly ? strlen (RIGHT_CURLY) : 1);
        }
      else
        {
          value = p;
          while (p < end && odori_blank_len (p, end) == 0)
            p++;
          value_end = p;
        }

      value_str = g_strndup (value, value_end - value);
      g_ptr_array_add (params, param_new (key_str, value_str));
    }
}

/* Removes KEY (any case) from PARAMS into *VALUE. Given twice: error. */
static gboolean
take_param (Parser      *parser,
            GPtrArray   *params,
            const char  *key,
            char       **value,
            GError     **error)
{
  guint i = 0;

  while (i < params->len)
    {
      OdoriParam *param = g_ptr_array_index (params, i);

      if (g_ascii_strcasecmp (param->key, key) != 0)
        {
          i++;
          continue;
        }
      if (*value != NULL)
        return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                                parser->lineno,
                                _("parameter %s= given twice"), key);
      *value = g_steal_pointer (&param->value);
      g_ptr_array_remove_index (params, i);
    }
  return TRUE;
}

/* Keeps the parameters nobody took, with a warning each. */
static GPtrArray *
keep_extra (Parser     *parser,
            GPtrArray  *params,
            const char *construct)
{
  for (guint i = 0; i < params->len; i++)
    {
      OdoriParam *param = g_ptr_array_index (params, i);

      odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                         _("unknown parameter \"%s\" of %s, kept and written back"),
                         param->key, construct);
    }
  return g_ptr_array_ref (params);
}

static gboolean
parse_number (const char *p,
              const char *end,
              guint      *out)
{
  guint64 v = 0;

  if (p >= end)
    return FALSE;
  for (; p < end; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      v = v * 10 + (guint) (*p - '0');
      if (v > G_MAXUINT)
        return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

static gboolean
parse_range (Parser      *parser,
             const char  *value,
             guint       *first,
             guint       *last,
             GError     **error)
{
  const char *end = value + strlen (value);
  const char *a = odori_skip_blanks (value, end);
  const char *b = odori_trim_blanks (a, end);
  const char *dash = memchr (a, '-', b - a);
  g_autofree char *got = odori_excerpt (value, end - value);

  if (dash == NULL ||
      !parse_number (a, odori_trim_blanks (a, dash), first) ||
      !parse_number (odori_skip_blanks (dash + 1, b), b, last))
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                            parser->lineno,
                            _("expected frame range like 1-118, got \"%s\""), got);
  if (*first == 0)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_RANGE, parser->path,
                            parser->lineno,
                            _("frames are numbered from 1, got frame range \"%s\""), got);
  if (*first > *last)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_RANGE, parser->path,
                            parser->lineno,
                            _("frame range \"%s\" ends before it starts"), got);
  return TRUE;
}

static gboolean
parse_part (Parser      *parser,
            const char  *p,
            const char  *end,
            GError     **error)
{
  g_autoptr(GPtrArray) params = params_new ();
  g_autofree char *name = NULL;
  g_autofree char *code = NULL;
  g_autofree char *map = NULL;
  OdoriIndexPart *part, *other;
  guint n_empty = 0;

  if (!parse_params (parser, p, end, params, error) ||
      !take_param (parser, params, "name", &name, error) ||
      !take_param (parser, params, "code", &code, error) ||
      !take_param (parser, params, "map", &map, error))
    return FALSE;

  if (code == NULL || *code == '\0')
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_MISSING, parser->path,
                            parser->lineno,
                            _("define part without code= (expected like code=\"HD\")"));
  other = g_hash_table_lookup (parser->part_codes, code);
  if (other != NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE, parser->path,
                            parser->lineno,
                            _("part code \"%s\" already defined at line %u"), code, other->line);

  if (parser->seen_begin)
    odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                       _("define part \"%s\" after the first begin block; parts should come first"),
                       code);

  part = g_new0 (OdoriIndexPart, 1);
  part->name = g_steal_pointer (&name);
  part->code = g_steal_pointer (&code);
  part->map = split_list (map ? map : "", &n_empty);
  part->line = parser->lineno;
  part->extra = keep_extra (parser, params, "define part");
  g_ptr_array_add (parser->index->parts, part);
  g_hash_table_insert (parser->part_codes, part->code, part);

  if (n_empty > 0)
    odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                       _("empty sensor name in map of part \"%s\" ignored"),
                       part->code);
  if (part->map[0] == NULL)
    odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                       _("part \"%s\" has no sensors (map=)"), part->code);
  if (strspn (part->code, "0123456789") == strlen (part->code) || strchr (part->code, ':'))
    odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                       _("part code \"%s\" cannot be written in a score (all digits or a ':')"),
                       part->code);
  return TRUE;
}

static gboolean
parse_motion (Parser      *parser,
              const char  *p,
              const char  *end,
              GError     **error)
{
  g_autoptr(GPtrArray) params = params_new ();
  g_autofree char *name = NULL;
  g_autofree char *code = NULL;
  g_autofree char *exp = NULL;
  g_autofree char *frame = NULL;
  g_autofree char *frames = NULL;
  OdoriIndexMotion *motion, *other;
  guint first = 0, last = 0;

  if (parser->show == NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                            parser->lineno,
                            _("motion outside a show block (expected \"begin show\" before it)"));

  if (!parse_params (parser, p, end, params, error) ||
      !take_param (parser, params, "name", &name, error) ||
      !take_param (parser, params, "code", &code, error) ||
      !take_param (parser, params, "exp", &exp, error) ||
      !take_param (parser, params, "frame", &frame, error) ||
      !take_param (parser, params, "frames", &frames, error))
    return FALSE;
  if (frame != NULL && frames != NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                            parser->lineno,
                            _("both frame= and frames= given; they are the same parameter"));
  if (frame == NULL)
    frame = g_steal_pointer (&frames);

  if (code == NULL || *code == '\0')
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_MISSING, parser->path,
                            parser->lineno,
                            _("motion without code= (expected like code=\"A1\")"));
  if (frame == NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_MISSING, parser->path,
                            parser->lineno,
                            _("motion \"%s\" without frame= (expected like frame=1-118)"), code);
  if (!parse_range (parser, frame, &first, &last, error))
    return FALSE;

  other = g_hash_table_lookup (parser->motion_codes, code);
  if (other != NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_DUPLICATE, parser->path,
                            parser->lineno,
                            _("motion code \"%s\" already defined at line %u in show \"%s\""),
                            code, other->line, parser->show->code);

  motion = g_new0 (OdoriIndexMotion, 1);
  motion->name = g_steal_pointer (&name);
  motion->code = g_steal_pointer (&code);
  motion->exp = g_steal_pointer (&exp);
  motion->first = first;
  motion->last = last;
  motion->line = parser->lineno;
  motion->extra = keep_extra (parser, params, "motion");
  motion->show = parser->show;
  g_ptr_array_add (parser->show->motions, motion);
  g_hash_table_insert (parser->motion_codes, motion->code, motion);
  return TRUE;
}

static const char *
open_block_name (Parser *parser,
                 guint  *line)
{
  if (parser->show != NULL)
    {
      *line = parser->show->line;
      return "show";
    }
  if (parser->klass != NULL)
    {
      *line = parser->klass->line;
      return "class";
    }
  *line = 0;
  return NULL;
}

static gboolean
parse_begin_class (Parser      *parser,
                   const char  *p,
                   const char  *end,
                   GError     **error)
{
  g_autoptr(GPtrArray) params = params_new ();
  OdoriIndexClass *klass;
  const char *open;
  guint open_line;

  open = open_block_name (parser, &open_line);
  if (open != NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNBALANCED, parser->path,
                            parser->lineno,
                            _("begin class inside the %s opened at line %u (expected \"end %s\" "
                              "first)"),
                            open, open_line, open);

  klass = g_new0 (OdoriIndexClass, 1);
  klass->line = parser->lineno;
  klass->shows = g_ptr_array_new_with_free_func ((GDestroyNotify) show_free);
  if (!parse_params (parser, p, end, params, error) ||
      !take_param (parser, params, "name", &klass->name, error) ||
      !take_param (parser, params, "code", &klass->code, error))
    {
      class_free (klass);
      return FALSE;
    }
  klass->extra = keep_extra (parser, params, "begin class");
  g_ptr_array_add (parser->index->classes, klass);
  parser->klass = klass;
  parser->seen_begin = TRUE;
  return TRUE;
}

static OdoriIndexClass *
implicit_class (Parser *parser)
{
  GPtrArray *classes = parser->index->classes;
  OdoriIndexClass *klass;

  if (classes->len > 0)
    {
      klass = g_ptr_array_index (classes, classes->len - 1);
      if (klass->implicit)
        return klass;
    }

  klass = g_new0 (OdoriIndexClass, 1);
  klass->implicit = TRUE;
  klass->line = parser->lineno;
  klass->shows = g_ptr_array_new_with_free_func ((GDestroyNotify) show_free);
  klass->extra = params_new ();
  g_ptr_array_add (classes, klass);
  return klass;
}

static gboolean
parse_begin_show (Parser      *parser,
                  const char  *p,
                  const char  *end,
                  GError     **error)
{
  g_autoptr(GPtrArray) params = params_new ();
  g_autofree char *name = NULL;
  g_autofree char *code = NULL;
  g_autofree char *file = NULL;
  OdoriIndexShow *show, *other;

  if (parser->show != NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNBALANCED, parser->path,
                            parser->lineno,
                            _("begin show inside the show opened at line %u (expected \"end show\" "
                              "first)"),
                            parser->show->line);

  if (!parse_params (parser, p, end, params, error) ||
      !take_param (parser, params, "name", &name, error) ||
      !take_param (parser, params, "code", &code, error) ||
      !take_param (parser, params, "file", &file, error))
    return FALSE;

  if (code == NULL || *code == '\0')
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_MISSING, parser->path,
                            parser->lineno,
                            _("begin show without code= (expected like code=\"BA\")"));
  if (file == NULL || *file == '\0')
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_MISSING, parser->path,
                            parser->lineno,
                            _("begin show \"%s\" without file= (expected like "
                              "file=\"kihon1.vpm\")"),
                            code);

  show = g_new0 (OdoriIndexShow, 1);
  show->name = g_steal_pointer (&name);
  show->code = g_steal_pointer (&code);
  show->file = g_steal_pointer (&file);
  show->line = parser->lineno;
  show->motions = g_ptr_array_new_with_free_func ((GDestroyNotify) motion_free);
  show->extra = keep_extra (parser, params, "begin show");

  if (parser->klass != NULL)
    show->klass = parser->klass;
  else
    {
      odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                         _("show \"%s\" outside any class block; placed in an implicit class"),
                         show->code);
      show->klass = implicit_class (parser);
    }
  g_ptr_array_add (show->klass->shows, show);

  other = g_hash_table_lookup (parser->show_codes, show->code);
  if (other != NULL)
    odori_add_warning (parser->index->warnings, parser->path, parser->lineno,
                       _("show code \"%s\" also used at line %u; symbols %s.CODE are ambiguous"),
                       show->code, other->line, show->code);
  else
    g_hash_table_insert (parser->show_codes, show->code, show);

  parser->show = show;
  parser->seen_begin = TRUE;
  g_hash_table_remove_all (parser->motion_codes);
  return TRUE;
}

static gboolean
parse_end (Parser      *parser,
           const char  *p,
           const char  *end,
           GError     **error)
{
  const char *word;
  gsize len = next_word (&p, end, &word);
  g_autofree char *got = odori_excerpt (word, end - word);
  const char *open;
  guint open_line;

  open = open_block_name (parser, &open_line);
  if (open == NULL)
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNBALANCED, parser->path,
                            parser->lineno,
                            _("\"end %s\" without a matching begin"), got);
  if (!word_is (word, len, open))
    return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNBALANCED, parser->path,
                            parser->lineno,
                            _("expected \"end %s\" to close the %s opened at line %u, got \"end "
                              "%s\""),
                            open, open, open_line, got);
  p = odori_skip_blanks (p, end);
  if (p < end)
    {
      g_autofree char *rest = odori_excerpt (p, end - p);

      return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                              parser->lineno,
                              _("unexpected text after \"end %s\": \"%s\""), open, rest);
    }

  if (parser->show != NULL)
    {
      if (parser->show->motions->len == 0)
        odori_add_warning (parser->index->warnings, parser->path, parser->show->line,
                           _("show \"%s\" has no motion lines"),
                           parser->show->code);
      parser->show = NULL;
      g_hash_table_remove_all (parser->motion_codes);
    }
  else
    {
      if (parser->klass->shows->len == 0)
        odori_add_warning (parser->index->warnings, parser->path, parser->klass->line,
                           _("class \"%s\" has no show blocks"),
                           parser->klass->code ? parser->klass->code : "");
      parser->klass = NULL;
    }
  return TRUE;
}

static gboolean
expected_error (Parser      *parser,
                GError     **error,
                const char  *expected,
                const char  *p,
                const char  *end)
{
  g_autofree char *got = odori_excerpt (p, end - p);

  return odori_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX, parser->path,
                          parser->lineno, "expected %s, got \"%s\"",
                          expected, got);
}

static gboolean
parse_line (Parser      *parser,
            const char  *line,
            gsize        len,
            GError     **error)
{
  const char *end = odori_trim_blanks (line, line + len);
  const char *p = odori_skip_blanks (line, end);
  const char *word;
  gsize wlen;

  if (p >= end)
    return TRUE;
  if (*p == '#')
    {
      g_ptr_array_add (parser->index->comments, g_strndup (p, line + len - p));
      return TRUE;
    }

  wlen = next_word (&p, end, &word);
  if (word_is (word, wlen, "define"))
    {
      const char *what;
      gsize what_len = next_word (&p, end, &what);

      if (word_is (what, what_len, "part"))
        return parse_part (parser, p, end, error);
      if (word_is (what, what_len, "motion"))
        return parse_motion (parser, p, end, error);
      return expected_error (parser, error, _("\"part\" or \"motion\" after \"define\""), what, end);
    }
  if (word_is (word, wlen, "motion"))
    return parse_motion (parser, p, end, error);
  if (word_is (word, wlen, "begin"))
    {
      const char *what;
      gsize what_len = next_word (&p, end, &what);

      if (word_is (what, what_len, "class"))
        return parse_begin_class (parser, p, end, error);
      if (word_is (what, what_len, "show"))
        return parse_begin_show (parser, p, end, error);
      return expected_error (parser, error, _("\"class\" or \"show\" after \"begin\""), what, end);
    }
  if (word_is (word, wlen, "end"))
    return parse_end (parser, p, end, error);

  return expected_error (parser, error, _("\"define part\", \"begin\", \"end\" or \"motion\""),
                         odori_skip_blanks (line, end), end);
}

/* Keeps the line the parser just read, with what it was: the parser's state before the
 * line (N_PARTS, KLASS, SHOW, N_MOTIONS) against its state after it. */
static void
record_line (Parser                *parser,
             const OdoriLineReader *reader,
             const char            *data,
             guint                  n_parts,
             OdoriIndexClass       *klass,
             OdoriIndexShow        *show,
             guint                  n_motions)
{
  OdoriIndex *index = parser->index;
  OdoriIndexLineKind kind = ODORI_INDEX_LINE_OTHER;
  gpointer item = NULL;
  const char *eol = reader->line + reader->len;
  gsize eol_len = data + odori_line_reader_offset ((OdoriLineReader *) reader) - eol;

  if (index->parts->len > n_parts)
    {
      kind = ODORI_INDEX_LINE_PART;
      item = g_ptr_array_index (index->parts, index->parts->len - 1);
    }
  else if (parser->show != show)
    {
      kind = show == NULL ? ODORI_INDEX_LINE_SHOW_BEGIN : ODORI_INDEX_LINE_SHOW_END;
      item = show == NULL ? parser->show : show;
    }
  else if (parser->klass != klass)
    {
      kind = klass == NULL ? ODORI_INDEX_LINE_CLASS_BEGIN : ODORI_INDEX_LINE_CLASS_END;
      item = klass == NULL ? parser->klass : klass;
    }
  else if (show != NULL && show->motions->len > n_motions)
    {
      kind = ODORI_INDEX_LINE_MOTION;
      item = g_ptr_array_index (show->motions, show->motions->len - 1);
    }
  _odori_index_read_line (index, reader->line, reader->len, eol, eol_len, kind, item);
}

/**
 * odori_index_load:
 * @path: the index file (motion.dat)
 * @error: return location for an error in %ODORI_INDEX_ERROR or %ODORI_TEXT_ERROR
 *
 * Returns: (transfer full) (nullable): the index, or %NULL on error
 */
OdoriIndex *
odori_index_load (const char  *path,
                  GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(OdoriIndex) index = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  index = odori_index_load_text (file, error);
  if (index != NULL && index->encoding == ODORI_ENCODING_SHIFT_JIS)
    {
      /* the file's own bytes, so that untouched lines are written back as they were */
      g_autoptr(GMappedFile) raw = odori_mapped_file_new (path, NULL);

      if (raw != NULL)
        _odori_index_attach_raw (index, g_mapped_file_get_contents (raw),
                                 g_mapped_file_get_length (raw));
    }
  return g_steal_pointer (&index);
}

/**
 * odori_index_load_text:
 * @file: a decoded text file
 * @error: return location for an error in %ODORI_INDEX_ERROR
 *
 * Returns: (transfer full) (nullable): the index, or %NULL on error
 */
OdoriIndex *
odori_index_load_text (OdoriTextFile  *file,
                       GError        **error)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GHashTable) part_codes = NULL;
  g_autoptr(GHashTable) show_codes = NULL;
  g_autoptr(GHashTable) motion_codes = NULL;
  OdoriLineReader reader;
  Parser parser = { 0 };
  const char *open;
  const char *data;
  guint open_line;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  index = odori_index_new ();
  index->path = g_strdup (odori_text_file_get_path (file));
  index->encoding = odori_text_file_get_encoding (file);
  index->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) _odori_index_line_free);
  data = odori_text_file_get_data (file, NULL);

  part_codes = g_hash_table_new (g_str_hash, g_str_equal);
  show_codes = g_hash_table_new (g_str_hash, g_str_equal);
  motion_codes = g_hash_table_new (g_str_hash, g_str_equal);
  parser.index = index;
  parser.path = index->path ? index->path : "(index)";
  parser.part_codes = part_codes;
  parser.show_codes = show_codes;
  parser.motion_codes = motion_codes;

  odori_line_reader_init (&reader, file);
  while (odori_line_reader_next (&reader))
    {
      OdoriIndexClass *klass = parser.klass;
      OdoriIndexShow *show = parser.show;
      guint n_parts = index->parts->len;
      guint n_motions = show != NULL ? show->motions->len : 0;

      parser.lineno = reader.lineno;
      if (reader.len > MAX_LINE)
        {
          g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_SYNTAX,
                       _("%s:%u: the line is %zu bytes long, more than %d"),
                       parser.path, reader.lineno, reader.len, MAX_LINE);
          return NULL;
        }
      if (!parse_line (&parser, reader.line, reader.len, error))
        return NULL;
      record_line (&parser, &reader, data, n_parts, klass, show, n_motions);
    }
  _odori_index_finish_read (index);

  open = open_block_name (&parser, &open_line);
  if (open != NULL)
    {
      g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNBALANCED,
                   _("%s:%u: begin %s is never closed: expected \"end %s\" before the end of the "
                     "file (line %u)"),
                   parser.path, open_line, open, open, reader.lineno);
      return NULL;
    }

  return g_steal_pointer (&index);
}

/* Writer */

static void
append_quoted (GString    *s,
               const char *value)
{
  gboolean curly = strchr (value, '"') != NULL && strstr (value, RIGHT_CURLY) == NULL;
  gsize start;

  g_string_append (s, curly ? LEFT_CURLY : "\"");
  start = s->len;
  g_string_append (s, value);
  for (gsize i = start; i < s->len; i++)
    {
      /* Neither can be read back; this only happens for an index built in memory. */
      if (s->str[i] == '\n' || s->str[i] == '\r')
        s->str[i] = ' ';
      else if (s->str[i] == '"' && !curly)
        s->str[i] = '\'';
    }
  g_string_append (s, curly ? RIGHT_CURLY : "\"");
}

static void
append_param (GString    *s,
              const char *key,
              const char *value)
{
  if (value == NULL)
    return;
  g_string_append_c (s, ' ');
  g_string_append (s, key);
  g_string_append_c (s, '=');
  append_quoted (s, value);
}

static void
append_extra (GString   *s,
              GPtrArray *extra)
{
  for (guint i = 0; extra != NULL && i < extra->len; i++)
    {
      OdoriParam *param = g_ptr_array_index (extra, i);

      append_param (s, param->key, param->value ? param->value : "");
    }
}

static void
write_line (OdoriOutput *out,
            GString     *s)
{
  g_string_append_c (s, '\n');
  odori_output_text (out, s->str);
  g_string_truncate (s, 0);
}

static void
write_part (OdoriOutput    *out,
            GString        *s,
            OdoriIndexPart *part)
{
  g_autofree char *map = part->map ? g_strjoinv (",", part->map) : g_strdup ("");

  g_string_append (s, "define part");
  append_param (s, "name", part->name);
  append_param (s, "code", part->code);
  append_param (s, "map", map);
  append_extra (s, part->extra);
  write_line (out, s);
}

void
_odori_index_format_show (GString        *s,
                          OdoriIndexShow *show)
{
  g_string_append (s, "begin show");
  append_param (s, "name", show->name);
  append_param (s, "code", show->code);
  append_param (s, "file", show->file);
  append_extra (s, show->extra);
}

void
_odori_index_format_motion (GString          *s,
                            OdoriIndexMotion *motion)
{
  g_string_append (s, "motion");
  append_param (s, "name", motion->name);
  append_param (s, "code", motion->code);
  append_param (s, "exp", motion->exp);
  g_string_append_printf (s, " frame=%u-%u", motion->first, motion->last);
  append_extra (s, motion->extra);
}

void
_odori_index_format_class (GString         *s,
                           OdoriIndexClass *klass)
{
  g_string_append (s, "begin class");
  append_param (s, "name", klass->name);
  append_param (s, "code", klass->code);
  append_extra (s, klass->extra);
}

static void
write_show (OdoriOutput    *out,
            GString        *s,
            OdoriIndexShow *show,
            const char     *indent)
{
  g_string_append (s, indent);
  _odori_index_format_show (s, show);
  write_line (out, s);

  for (guint i = 0; show->motions != NULL && i < show->motions->len; i++)
    {
      g_string_append_printf (s, "%s  ", indent);
      _odori_index_format_motion (s, g_ptr_array_index (show->motions, i));
      write_line (out, s);
    }

  g_string_append_printf (s, "%send show", indent);
  write_line (out, s);
}

static void
write_class (OdoriOutput     *out,
             GString         *s,
             OdoriIndexClass *klass)
{
  const char *indent = klass->implicit ? "" : "  ";

  if (!klass->implicit)
    {
      _odori_index_format_class (s, klass);
      write_line (out, s);
    }
  for (guint i = 0; klass->shows != NULL && i < klass->shows->len; i++)
    write_show (out, s, g_ptr_array_index (klass->shows, i), indent);
  if (!klass->implicit)
    {
      g_string_append (s, "end class");
      write_line (out, s);
    }
}

static void
write_canonical (gpointer     data,
                 OdoriOutput *out)
{
  OdoriIndex *index = data;
  g_autoptr(GString) s = g_string_new (NULL);
  gboolean need_blank = FALSE;

  for (guint i = 0; i < index->comments->len; i++)
    {
      const char *comment = g_ptr_array_index (index->comments, i);

      gsize start;

      if (comment[0] != '#')
        g_string_append (s, "# ");
      start = s->len;
      g_string_append (s, comment);
      /* A CR kept inside a comment would make the file's line ends CR when read again. */
      g_strdelimit (s->str + start, "\r\n", ' ');
      write_line (out, s);
      need_blank = TRUE;
    }

  if (need_blank && index->parts->len > 0)
    write_line (out, s);
  for (guint i = 0; i < index->parts->len; i++)
    {
      write_part (out, s, g_ptr_array_index (index->parts, i));
      need_blank = TRUE;
    }

  for (guint i = 0; i < index->classes->len; i++)
    {
      if (need_blank)
        write_line (out, s);
      write_class (out, s, g_ptr_array_index (index->classes, i));
      need_blank = TRUE;
    }
}

/**
 * odori_index_write:
 * @index: an index
 * @out: where to write
 *
 * Writes @index in the canonical layout: comments, parts, then classes with their shows
 * (indented by 2) and motions (by 4). Encoding errors are reported by
 * odori_output_commit().
 */
void
odori_index_write (OdoriIndex  *index,
                   OdoriOutput *out)
{
  g_return_if_fail (index != NULL);
  g_return_if_fail (out != NULL);

  odori_output_write_text_file (out, index->encoding, write_canonical, index);
}

/**
 * odori_index_save:
 * @index: an index
 * @path: the file to write (atomically)
 * @error: return location for an error in %ODORI_TEXT_ERROR
 *
 * Writes @index to @path in its encoding (index->encoding). index->path is unchanged.
 *
 * Returns: %TRUE on success
 */
gboolean
odori_index_save (OdoriIndex  *index,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (index != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = odori_output_new (path, index->encoding, error);
  if (out == NULL)
    return FALSE;
  odori_index_write (index, out);
  return odori_output_commit (out, error);
}

/* Queries */

/**
 * odori_index_find_part:
 * @index: an index
 * @code: a part code
 *
 * Returns: (transfer none) (nullable): the part with @code
 */
OdoriIndexPart *
odori_index_find_part (OdoriIndex *index,
                       const char *code)
{
  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (code != NULL, NULL);

  for (guint i = 0; i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);

      if (g_strcmp0 (part->code, code) == 0)
        return part;
    }
  return NULL;
}

static gboolean
is_qualified_match (OdoriIndexMotion *motion,
                    const char       *symbol)
{
  const char *show_code = motion->show ? motion->show->code : NULL;
  gsize n;

  if (show_code == NULL || motion->code == NULL)
    return FALSE;
  n = strlen (show_code);
  return strncmp (symbol, show_code, n) == 0 && symbol[n] == '.' &&
         strcmp (symbol + n + 1, motion->code) == 0;
}

static void
collect_motions (OdoriIndex *index,
                 const char *symbol,
                 gboolean    qualified,
                 GPtrArray  *found)
{
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *motion = g_ptr_array_index (show->motions, m);

              if (qualified ? is_qualified_match (motion, symbol)
                            : g_strcmp0 (motion->code, symbol) == 0)
                g_ptr_array_add (found, motion);
            }
        }
    }
}

/**
 * odori_index_lookup:
 * @index: an index
 * @symbol: a dance symbol, "CODE" or "SHOWCODE.CODE"
 * @error: return location for an error in %ODORI_INDEX_ERROR
 *
 * A bare code is looked up first, so a motion code containing a '.' still resolves.
 *
 * Returns: (transfer none) (nullable): the motion, or %NULL with
 *   %ODORI_INDEX_ERROR_UNKNOWN_SYMBOL or %ODORI_INDEX_ERROR_AMBIGUOUS
 */
OdoriIndexMotion *
odori_index_lookup (OdoriIndex  *index,
                    const char  *symbol,
                    GError     **error)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GString) candidates = NULL;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (symbol != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  found = g_ptr_array_new ();
  collect_motions (index, symbol, FALSE, found);
  if (found->len == 0 && strchr (symbol, '.') != NULL)
    collect_motions (index, symbol, TRUE, found);

  if (found->len == 1)
    return g_ptr_array_index (found, 0);

  if (found->len == 0)
    {
      g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_UNKNOWN_SYMBOL,
                   _("unknown dance symbol \"%s\""), symbol);
      return NULL;
    }

  candidates = g_string_new (NULL);
  for (guint i = 0; i < found->len; i++)
    {
      OdoriIndexMotion *motion = g_ptr_array_index (found, i);

      if (i > 0)
        g_string_append (candidates, ", ");
      g_string_append_printf (candidates, "%s.%s",
                              motion->show && motion->show->code ? motion->show->code : "",
                              motion->code);
    }
  g_set_error (error, ODORI_INDEX_ERROR, ODORI_INDEX_ERROR_AMBIGUOUS,
               _("dance symbol \"%s\" is ambiguous: defined as %s"), symbol, candidates->str);
  return NULL;
}

/* A file named in a 1998 Windows index may differ in case from the file on disk. */
static char *
find_case_insensitive (const char *path)
{
  g_autofree char *dir_name = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *folded = g_utf8_casefold (base, -1);
  g_autoptr(GDir) dir = g_dir_open (dir_name, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return NULL;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *entry_folded = NULL;

      if (!g_utf8_validate (entry, -1, NULL))
        continue;
      entry_folded = g_utf8_casefold (entry, -1);
      if (strcmp (entry_folded, folded) == 0)
        return g_build_filename (dir_name, entry, NULL);
    }
  return NULL;
}

/**
 * odori_index_show_path:
 * @index: an index
 * @show: a show of @index
 *
 * Resolves show->file against the directory of index->path (the current directory for
 * an index without a path). Backslashes are taken as directory separators, and when the
 * file does not exist a name differing only in case is looked for (Windows indexes).
 *
 * Returns: (transfer full): an absolute path
 */
char *
odori_index_show_path (OdoriIndex     *index,
                       OdoriIndexShow *show)
{
  g_autofree char *file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *abs_dir = NULL;
  g_autofree char *path = NULL;
  char *other;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (show != NULL, NULL);
  g_return_val_if_fail (show->file != NULL, NULL);

  file = g_strdup (show->file);
  if (G_DIR_SEPARATOR == '/')
    g_strdelimit (file, "\\", '/');

  dir = index->path ? g_path_get_dirname (index->path) : g_get_current_dir ();
  abs_dir = g_canonicalize_filename (dir, NULL);
  path = g_canonicalize_filename (file, abs_dir);

  if (!g_file_test (path, G_FILE_TEST_EXISTS) && (other = find_case_insensitive (path)) != NULL)
    return other;
  return g_steal_pointer (&path);
}
