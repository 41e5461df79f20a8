/* odori-score-edit.c: edits of a score as plain data, applied and reverted exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-score-edit.h"

G_DEFINE_QUARK (odori-score-edit-error-quark, odori_score_edit_error)

typedef enum
{
  PART_OP_NONE,
  PART_OP_INSERT,
  PART_OP_REMOVE,
} PartOp;

struct _OdoriScoreEdit
{
  gatomicrefcount ref_count;
  char           *label;
  GArray         *removed;      /* OdoriScoreEditSymbol */
  GArray         *added;        /* OdoriScoreEditSymbol */
  gboolean        has_blend;
  int             blend_before;
  int             blend_after;
  gboolean        has_foot_lock;
  int             foot_lock_before;
  int             foot_lock_after;
  PartOp          part_op;
  guint           part_position;
  OdoriScorePart *part;         /* owned copy, for part edits */
  gboolean        has_header[ODORI_SCORE_N_HEADERS];
  char           *header_before[ODORI_SCORE_N_HEADERS];  /* NULL: no such line */
  char           *header_after[ODORI_SCORE_N_HEADERS];
  gboolean        has_music;
  OdoriScoreMusic music_before;
  OdoriScoreMusic music_after;
  GArray         *beats_before; /* double, with beats_after; NULL: no beat list */
  GArray         *beats_after;
};

static void
edit_symbol_clear (OdoriScoreEditSymbol *symbol)
{
  g_clear_pointer (&symbol->symbol, g_free);
}

OdoriScoreEdit *
odori_score_edit_new (const char *label)
{
  OdoriScoreEdit *edit = g_new0 (OdoriScoreEdit, 1);

  g_atomic_ref_count_init (&edit->ref_count);
  edit->label = g_strdup (label);
  edit->removed = g_array_new (FALSE, TRUE, sizeof (OdoriScoreEditSymbol));
  edit->added = g_array_new (FALSE, TRUE, sizeof (OdoriScoreEditSymbol));
  g_array_set_clear_func (edit->removed, (GDestroyNotify) edit_symbol_clear);
  g_array_set_clear_func (edit->added, (GDestroyNotify) edit_symbol_clear);
  return edit;
}

OdoriScoreEdit *
odori_score_edit_ref (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);

  g_atomic_ref_count_inc (&edit->ref_count);
  return edit;
}

void
odori_score_edit_free (OdoriScoreEdit *edit)
{
  if (edit == NULL || !g_atomic_ref_count_dec (&edit->ref_count))
    return;
  g_free (edit->label);
  g_array_unref (edit->removed);
  g_array_unref (edit->added);
  g_clear_pointer (&edit->part, odori_score_part_free);
  for (guint h = 0; h < ODORI_SCORE_N_HEADERS; h++)
    {
      g_free (edit->header_before[h]);
      g_free (edit->header_after[h]);
    }
  odori_score_music_clear (&edit->music_before);
  odori_score_music_clear (&edit->music_after);
  g_clear_pointer (&edit->beats_before, g_array_unref);
  g_clear_pointer (&edit->beats_after, g_array_unref);
  g_free (edit);
}

const char *
odori_score_edit_get_label (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  return edit->label;
}

static void
record (GArray                *array,
        guint                  part,
        guint                  start,
        const char            *symbol,
        guint                  line,
        const OdoriSymbolMods *mods)
{
  OdoriScoreEditSymbol s = { part, start, g_strdup (symbol), line, { 0 } };

  if (mods != NULL)
    s.mods = *mods;

  g_array_append_val (array, s);
}

void
odori_score_edit_remove_symbol (OdoriScoreEdit         *edit,
                                guint                   part,
                                const OdoriScoreSymbol *symbol)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (symbol != NULL && symbol->symbol != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  record (edit->removed, part, symbol->start, symbol->symbol, symbol->line, &symbol->mods);
}

void
odori_score_edit_add_symbol (OdoriScoreEdit *edit,
                             guint           part,
                             guint           start,
                             const char     *symbol)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (symbol != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  record (edit->added, part, start, symbol, 0, NULL);
}

void
odori_score_edit_add_symbol_full (OdoriScoreEdit        *edit,
                                  guint                  part,
                                  guint                  start,
                                  const char            *symbol,
                                  const OdoriSymbolMods *mods)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (symbol != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  record (edit->added, part, start, symbol, 0, mods);
}

void
odori_score_edit_replace_symbol (OdoriScoreEdit         *edit,
                                 guint                   part,
                                 const OdoriScoreSymbol *symbol,
                                 guint                   new_part,
                                 guint                   new_start,
                                 const OdoriSymbolMods  *new_mods)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (symbol != NULL && symbol->symbol != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  record (edit->removed, part, symbol->start, symbol->symbol, symbol->line, &symbol->mods);
  record (edit->added, new_part, new_start, symbol->symbol, symbol->line,
          new_mods != NULL ? new_mods : &symbol->mods);
}

void
odori_score_edit_set_foot_lock (OdoriScoreEdit *edit,
                                int             before,
                                int             after)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  if (!edit->has_foot_lock)
    edit->foot_lock_before = CLAMP (before, -1, 1);
  edit->has_foot_lock = TRUE;
  edit->foot_lock_after = CLAMP (after, -1, 1);
}

void
odori_score_edit_move_symbol (OdoriScoreEdit         *edit,
                              guint                   part,
                              const OdoriScoreSymbol *symbol,
                              guint                   new_start)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (symbol != NULL && symbol->symbol != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  record (edit->removed, part, symbol->start, symbol->symbol, symbol->line, &symbol->mods);
  record (edit->added, part, new_start, symbol->symbol, symbol->line, &symbol->mods);
}

void
odori_score_edit_set_blend (OdoriScoreEdit *edit,
                            int             before,
                            int             after)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  if (!edit->has_blend)
    edit->blend_before = MAX (before, -1);
  edit->has_blend = TRUE;
  edit->blend_after = MAX (after, -1);
}

/* NULL for an empty value: a score without the line and one with it empty are one. */
static char *
header_value (const char *value)
{
  return value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
}

void
odori_score_edit_set_header (OdoriScoreEdit   *edit,
                             OdoriScoreHeader  header,
                             const char       *before,
                             const char       *after)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (header < ODORI_SCORE_N_HEADERS);
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  if (!edit->has_header[header])
    edit->header_before[header] = header_value (before);
  edit->has_header[header] = TRUE;
  g_free (edit->header_after[header]);
  edit->header_after[header] = header_value (after);
}

gboolean
odori_score_edit_get_sets_header (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);

  for (guint h = 0; h < ODORI_SCORE_N_HEADERS; h++)
    if (edit->has_header[h] && g_strcmp0 (edit->header_before[h], edit->header_after[h]) != 0)
      return TRUE;
  return FALSE;
}

void
odori_score_edit_set_music (OdoriScoreEdit        *edit,
                            const OdoriScoreMusic *before,
                            const OdoriScoreMusic *after)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (before != NULL && odori_score_music_is_valid (before));
  g_return_if_fail (after != NULL && odori_score_music_is_valid (after));
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  if (!edit->has_music)
    odori_score_music_copy (before, &edit->music_before);
  edit->has_music = TRUE;
  odori_score_music_clear (&edit->music_after);
  odori_score_music_copy (after, &edit->music_after);
}

gboolean
odori_score_edit_get_sets_music (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);

  return edit->has_music && !odori_score_music_equal (&edit->music_before, &edit->music_after);
}

static GArray *
times_copy (GArray *times)
{
  GArray *copy = g_array_sized_new (FALSE, FALSE, sizeof (double), times->len);

  g_array_append_vals (copy, times->data, times->len);
  return copy;
}

void
odori_score_edit_set_beats (OdoriScoreEdit *edit,
                            GArray         *before,
                            GArray         *after)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (before != NULL && g_array_get_element_size (before) == sizeof (double));
  g_return_if_fail (after != NULL && g_array_get_element_size (after) == sizeof (double));
  g_return_if_fail (edit->part_op == PART_OP_NONE);

  if (edit->beats_before == NULL)
    edit->beats_before = times_copy (before);
  g_clear_pointer (&edit->beats_after, g_array_unref);
  edit->beats_after = times_copy (after);
}

gboolean
odori_score_edit_get_sets_beats (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);

  return edit->beats_before != NULL &&
         (edit->beats_before->len != edit->beats_after->len ||
          memcmp (edit->beats_before->data, edit->beats_after->data,
                  edit->beats_before->len * sizeof (double)) != 0);
}

GArray *
odori_score_edit_get_beats (OdoriScoreEdit *edit,
                            gboolean        forward)
{
  g_return_val_if_fail (edit != NULL, NULL);

  return forward ? edit->beats_after : edit->beats_before;
}

/* The score's field of HEADER. */
static char **
score_header (OdoriScore       *score,
              OdoriScoreHeader  header)
{
  switch (header)
    {
    case ODORI_SCORE_HEADER_AUTHOR:
      return &score->author;
    case ODORI_SCORE_HEADER_DATE:
      return &score->date;
    case ODORI_SCORE_HEADER_TITLE:
    case ODORI_SCORE_N_HEADERS:
    default:
      return &score->title;
    }
}

void
odori_score_edit_insert_part (OdoriScoreEdit     *edit,
                              guint               position,
                              const char         *code,
                              const char * const *sensors)
{
  OdoriScorePart model = { 0 };
  g_autoptr(GArray) symbols = g_array_new (FALSE, TRUE, sizeof (OdoriScoreSymbol));

  g_return_if_fail (edit != NULL);
  g_return_if_fail (code != NULL && code[0] != '\0');
  g_return_if_fail (edit->part_op == PART_OP_NONE && edit->removed->len == 0 &&
                    edit->added->len == 0 && !edit->has_blend && !edit->has_foot_lock &&
                    !odori_score_edit_get_sets_header (edit) && !edit->has_music &&
                    edit->beats_before == NULL);

  model.code = (char *) code;
  model.sensors = (char **) sensors;
  model.symbols = symbols;
  edit->part = odori_score_part_copy (&model);
  edit->part_op = PART_OP_INSERT;
  edit->part_position = position;
}

void
odori_score_edit_remove_part (OdoriScoreEdit       *edit,
                              guint                 position,
                              const OdoriScorePart *part)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (part != NULL);
  g_return_if_fail (edit->part_op == PART_OP_NONE && edit->removed->len == 0 &&
                    edit->added->len == 0 && !edit->has_blend && !edit->has_foot_lock &&
                    !odori_score_edit_get_sets_header (edit) && !edit->has_music &&
                    edit->beats_before == NULL);

  edit->part = odori_score_part_copy (part);
  edit->part_op = PART_OP_REMOVE;
  edit->part_position = position;
}

gboolean
odori_score_edit_is_empty (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, TRUE);

  return edit->part_op == PART_OP_NONE && edit->removed->len == 0 && edit->added->len == 0 &&
         (!edit->has_blend || edit->blend_before == edit->blend_after) &&
         (!edit->has_foot_lock || edit->foot_lock_before == edit->foot_lock_after) &&
         !odori_score_edit_get_sets_header (edit) && !odori_score_edit_get_sets_music (edit) &&
         !odori_score_edit_get_sets_beats (edit);
}

GArray *
odori_score_edit_get_removed (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  return edit->removed;
}

GArray *
odori_score_edit_get_added (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  return edit->added;
}

int
odori_score_edit_get_part_position (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, -1);
  return edit->part_op == PART_OP_NONE ? -1 : (int) edit->part_position;
}

gboolean
odori_score_edit_get_inserts_part (OdoriScoreEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  return edit->part_op == PART_OP_INSERT;
}

/* Lookups */

guint
odori_score_part_lower_bound (const OdoriScorePart *part,
                              guint                 start)
{
  guint lo = 0, hi;

  g_return_val_if_fail (part != NULL, 0);

  hi = part->symbols->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (part->symbols, OdoriScoreSymbol, mid).start < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

int
odori_score_part_find_symbol (const OdoriScorePart *part,
                              guint                 start)
{
  guint i;

  g_return_val_if_fail (part != NULL, -1);

  i = odori_score_part_lower_bound (part, start);
  if (i < part->symbols->len && g_array_index (part->symbols, OdoriScoreSymbol, i).start == start)
    return (int) i;
  return -1;
}

int
odori_score_find_part_index (OdoriScore *score,
                             const char *code)
{
  g_return_val_if_fail (score != NULL, -1);
  g_return_val_if_fail (code != NULL, -1);

  for (guint i = 0; i < score->parts->len; i++)
    if (strcmp (((OdoriScorePart *) g_ptr_array_index (score->parts, i))->code, code) == 0)
      return (int) i;
  return -1;
}

/* Applying */

typedef struct
{
  guint part;
  guint start;
} Key;

static int
key_compare (const void *a,
             const void *b)
{
  const Key *ka = a, *kb = b;

  if (ka->part != kb->part)
    return ka->part < kb->part ? -1 : 1;
  return (ka->start > kb->start) - (ka->start < kb->start);
}

/* SYMBOLS' keys, sorted. */
static Key *
sorted_keys (GArray *symbols)
{
  Key *keys = g_new (Key, MAX (symbols->len, 1));

  for (guint i = 0; i < symbols->len; i++)
    {
      const OdoriScoreEditSymbol *s = &g_array_index (symbols, OdoriScoreEditSymbol, i);

      keys[i].part = s->part;
      keys[i].start = s->start;
    }
  qsort (keys, symbols->len, sizeof (Key), key_compare);
  return keys;
}

static const char *
score_name (OdoriScore *score)
{
  return score->path != NULL ? score->path : _("the score");
}

/* Everything REMOVE names is there, and everything ADD puts in lands on a free start
 * once REMOVE is done. */
static gboolean
check_symbols (OdoriScore  *score,
               GArray      *remove,
               GArray      *add,
               GError     **error)
{
  g_autofree Key *removed = sorted_keys (remove);
  g_autofree Key *added = sorted_keys (add);

  for (guint i = 0; i < remove->len; i++)
    {
      const OdoriScoreEditSymbol *s = &g_array_index (remove, OdoriScoreEditSymbol, i);
      OdoriScorePart *part = s->part < score->parts->len ? g_ptr_array_index (score->parts, s->part) : NULL;
      int at = part != NULL ? odori_score_part_find_symbol (part, s->start) : -1;

      if (part == NULL)
        {
          g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_PART,
                       _("%s: there is no track %u"), score_name (score), s->part + 1);
          return FALSE;
        }
      if (at < 0 || strcmp (g_array_index (part->symbols, OdoriScoreSymbol, at).symbol, s->symbol) != 0)
        {
          g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_NO_SYMBOL,
                       _("%s: track %s has no symbol %s at frame %u"),
                       score_name (score), part->code, s->symbol, s->start);
          return FALSE;
        }
      if (i > 0 && key_compare (&removed[i - 1], &removed[i]) == 0)
        {
          g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_NO_SYMBOL,
                       _("%s: the symbol at frame %u of track %s is taken away twice"),
                       score_name (score), removed[i].start, part->code);
          return FALSE;
        }
    }

  for (guint i = 0; i < add->len; i++)
    {
      const OdoriScoreEditSymbol *s = &g_array_index (add, OdoriScoreEditSymbol, i);
      OdoriScorePart *part = s->part < score->parts->len ? g_ptr_array_index (score->parts, s->part) : NULL;
      Key key = { s->part, s->start };

      if (part == NULL)
        {
          g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_PART,
                       _("%s: there is no track %u"), score_name (score), s->part + 1);
          return FALSE;
        }
      if (s->start == 0)
        {
          g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_START,
                       _("%s: %s cannot start at frame 0 of track %s: frames start at 1"),
                       score_name (score), s->symbol, part->code);
          return FALSE;
        }
      if ((odori_score_part_find_symbol (part, s->start) >= 0 &&
           bsearch (&key, removed, remove->len, sizeof (Key), key_compare) == NULL) ||
          (i > 0 && key_compare (&added[i - 1], &added[i]) == 0))
        {
          g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_OCCUPIED,
                       _("%s: track %s already has a symbol at frame %u"),
                       score_name (score), part->code, s->start);
          return FALSE;
        }
    }
  return TRUE;
}

static void
change_symbols (OdoriScore *score,
                GArray     *remove,
                GArray     *add)
{
  for (guint i = 0; i < remove->len; i++)
    {
      const OdoriScoreEditSymbol *s = &g_array_index (remove, OdoriScoreEditSymbol, i);
      OdoriScorePart *part = g_ptr_array_index (score->parts, s->part);

      g_array_remove_index (part->symbols, odori_score_part_find_symbol (part, s->start));
    }
  for (guint i = 0; i < add->len; i++)
    {
      const OdoriScoreEditSymbol *s = &g_array_index (add, OdoriScoreEditSymbol, i);
      OdoriScorePart *part = g_ptr_array_index (score->parts, s->part);
      OdoriScoreSymbol symbol = { s->start, g_strdup (s->symbol), s->line, s->mods };

      g_array_insert_val (part->symbols, odori_score_part_lower_bound (part, s->start), symbol);
    }
}

static gboolean
insert_part (OdoriScore            *score,
             guint                  position,
             const OdoriScorePart  *part,
             GError               **error)
{
  if (position > score->parts->len || odori_score_find_part_index (score, part->code) >= 0)
    {
      g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_PART,
                   _("%s: a track %s cannot be put at position %u"),
                   score_name (score), part->code, position + 1);
      return FALSE;
    }
  g_ptr_array_insert (score->parts, (int) position, odori_score_part_copy (part));
  return TRUE;
}

static gboolean
remove_part (OdoriScore            *score,
             guint                  position,
             const OdoriScorePart  *part,
             GError               **error)
{
  OdoriScorePart *there = position < score->parts->len ? g_ptr_array_index (score->parts, position) : NULL;

  if (there == NULL || strcmp (there->code, part->code) != 0)
    {
      g_set_error (error, ODORI_SCORE_EDIT_ERROR, ODORI_SCORE_EDIT_ERROR_PART,
                   _("%s: track %u is not %s"), score_name (score), position + 1, part->code);
      return FALSE;
    }
  g_ptr_array_remove_index (score->parts, position);
  return TRUE;
}

static gboolean
run (OdoriScoreEdit  *edit,
     OdoriScore      *score,
     gboolean         forward,
     GError         **error)
{
  GArray *remove = forward ? edit->removed : edit->added;
  GArray *add = forward ? edit->added : edit->removed;

  if (edit->part_op != PART_OP_NONE)
    {
      if ((edit->part_op == PART_OP_INSERT) == forward)
        return insert_part (score, edit->part_position, edit->part, error);
      return remove_part (score, edit->part_position, edit->part, error);
    }
  if (!check_symbols (score, remove, add, error))
    return FALSE;
  change_symbols (score, remove, add);
  if (edit->has_blend)
    score->blend = forward ? edit->blend_after : edit->blend_before;
  if (edit->has_foot_lock)
    score->foot_lock = forward ? edit->foot_lock_after : edit->foot_lock_before;
  if (edit->has_music)
    odori_score_set_music (score, forward ? &edit->music_after : &edit->music_before);
  for (guint h = 0; h < ODORI_SCORE_N_HEADERS; h++)
    if (edit->has_header[h])
      {
        char **field = score_header (score, h);

        g_free (*field);
        *field = g_strdup (forward ? edit->header_after[h] : edit->header_before[h]);
      }
  return TRUE;
}

gboolean
odori_score_edit_apply (OdoriScoreEdit  *edit,
                        OdoriScore      *score,
                        GError         **error)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (score != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return run (edit, score, TRUE, error);
}

gboolean
odori_score_edit_revert (OdoriScoreEdit  *edit,
                         OdoriScore      *score,
                         GError         **error)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (score != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return run (edit, score, FALSE, error);
}
