/* odori-score.c: the Digital Dance Score, DDS (FORMATS.md §2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading rules (the Odori decisions of FORMATS.md §2, plus these):
 * - Blank lines are ignored; blanks (and the ideographic space U+3000) around tokens
 *   are trimmed.
 * - A line whose first non-blank character is '#' is a header line. `# Title:`,
 *   `# Author:`, `# Date:`, `# Index:`, `# FrameTime:` and `# Blend:` (keys matched
 *   without regard to case) are read wherever they are; given twice, the last one wins
 *   with a warning. An empty title, author, date or index reads as NULL. Every other '#'
 *   line is kept verbatim, in order, and written back after the known ones.
 * - Otherwise the text before the first ':' decides: all digits is a symbol line; a
 *   signed or fractional number (`-5`, `1.5`) is a bad start frame; anything else is a
 *   part header.
 * - Empty items of a sensor list (`Body,,Head`) are dropped with a warning.
 * - Music (`# Music:`, `# Tempo:`, `# Downbeat:`, `# Meter:`, `# MusicOffset:`,
 *   `# Beats:`) is read like the other extensions; the text of each number is kept, and
 *   written back as it was while the value is still the one it reads as.
 *
 * Writing: `# Title:`, `# Author:` and `# Date:` are always the first three lines (the
 * original tools skip three header lines), written with an empty value when unset; then
 * the extensions that are set (the music lines last, in the order above), the other '#'
 * lines, and the parts. LF line ends, in the score's encoding.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-beats.h"
#include "odori-reader.h"
#include "odori-score.h"

G_DEFINE_QUARK (odori-score-error-quark, odori_score_error)

/* Longest line, in bytes. Real lines are a few hundred bytes; a longer one is not
 * a dance score, and its values would be split, copied and quoted in messages whole. */
#define MAX_LINE 65536

/* Memory */

static void
symbol_clear (OdoriScoreSymbol *symbol)
{
  g_clear_pointer (&symbol->symbol, g_free);
}

/**
 * odori_score_part_free:
 * @part: (transfer full): a part, as odori_score_part_copy () makes and score->parts holds
 */
void
odori_score_part_free (OdoriScorePart *part)
{
  if (part == NULL)
    return;
  g_free (part->code);
  g_strfreev (part->sensors);
  g_clear_pointer (&part->symbols, g_array_unref);
  g_free (part);
}

/**
 * odori_score_part_copy:
 * @part: a part
 *
 * Returns: (transfer full): a deep copy of @part (code, sensors, line and symbols), which
 *   score->parts may hold; free with odori_score_part_free ()
 */
OdoriScorePart *
odori_score_part_copy (const OdoriScorePart *part)
{
  OdoriScorePart *copy;

  g_return_val_if_fail (part != NULL, NULL);

  copy = g_new0 (OdoriScorePart, 1);
  copy->code = g_strdup (part->code);
  copy->sensors = g_strdupv (part->sensors);
  copy->line = part->line;
  copy->symbols = g_array_sized_new (FALSE, TRUE, sizeof (OdoriScoreSymbol), part->symbols->len);
  g_array_set_clear_func (copy->symbols, (GDestroyNotify) symbol_clear);
  for (guint i = 0; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol s = g_array_index (part->symbols, OdoriScoreSymbol, i);

      s.symbol = g_strdup (s.symbol);
      g_array_append_val (copy->symbols, s);
    }
  return copy;
}

/**
 * odori_score_new:
 *
 * Returns: (transfer full): an empty score (UTF-8, no path, no frame time, no blend)
 */
OdoriScore *
odori_score_new (void)
{
  OdoriScore *score = g_new0 (OdoriScore, 1);

  g_atomic_ref_count_init (&score->ref_count);
  score->encoding = ODORI_ENCODING_UTF8;
  score->frame_time = 0;
  score->blend = -1;
  score->foot_lock = -1;
  score->header_lines = g_ptr_array_new_with_free_func (g_free);
  score->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_score_part_free);
  score->warnings = odori_diagnostics_new ();
  return score;
}

OdoriScore *
odori_score_ref (OdoriScore *score)
{
  g_return_val_if_fail (score != NULL, NULL);

  g_atomic_ref_count_inc (&score->ref_count);
  return score;
}

void
odori_score_unref (OdoriScore *score)
{
  g_return_if_fail (score != NULL);

  if (!g_atomic_ref_count_dec (&score->ref_count))
    return;

  g_free (score->path);
  g_free (score->title);
  g_free (score->author);
  g_free (score->date);
  g_free (score->index_path);
  odori_score_music_clear (&score->music);
  for (guint i = 0; i < G_N_ELEMENTS (score->music_text); i++)
    g_free (score->music_text[i]);
  g_ptr_array_unref (score->header_lines);
  g_ptr_array_unref (score->parts);
  g_ptr_array_unref (score->warnings);
  g_free (score);
}

static OdoriScorePart *
find_part (OdoriScore *score,
           const char *code)
{
  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, i);

      if (strcmp (part->code, code) == 0)
        return part;
    }
  return NULL;
}

static OdoriScorePart *
part_new (const char         *code,
          const char * const *sensors)
{
  OdoriScorePart *part = g_new0 (OdoriScorePart, 1);

  part->code = g_strdup (code);
  part->sensors = sensors ? g_strdupv ((char **) sensors) : g_new0 (char *, 1);
  part->symbols = g_array_new (FALSE, TRUE, sizeof (OdoriScoreSymbol));
  g_array_set_clear_func (part->symbols, (GDestroyNotify) symbol_clear);
  return part;
}

/**
 * odori_score_add_part:
 * @score: a score
 * @code: the part code (from the index)
 * @sensors: (nullable) (array zero-terminated=1): the part's sensors
 *
 * Returns: (transfer none) (nullable): the new part, or %NULL if @score already has a
 *   part with @code
 */
OdoriScorePart *
odori_score_add_part (OdoriScore         *score,
                      const char         *code,
                      const char * const *sensors)
{
  OdoriScorePart *part;

  g_return_val_if_fail (score != NULL, NULL);
  g_return_val_if_fail (code != NULL && *code != '\0', NULL);

  if (find_part (score, code) != NULL)
    return NULL;

  part = part_new (code, sensors);
  g_ptr_array_add (score->parts, part);
  return part;
}

/* Index of the first symbol whose start is >= START. */
static guint
symbol_lower_bound (OdoriScorePart *part,
                    guint           start)
{
  guint lo = 0, hi = part->symbols->len;

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

/* Inserts keeping start order. Returns FALSE, with *existing set, on a taken start. */
static gboolean
insert_symbol (OdoriScorePart        *part,
               guint                  start,
               const char            *symbol,
               const OdoriSymbolMods *mods,
               guint                  line,
               OdoriScoreSymbol     **existing)
{
  guint pos = symbol_lower_bound (part, start);
  OdoriScoreSymbol sym = { start, NULL, line, { 0 } };

  if (mods != NULL)
    sym.mods = *mods;

  if (pos < part->symbols->len && g_array_index (part->symbols, OdoriScoreSymbol, pos).start == start)
    {
      if (existing)
        *existing = &g_array_index (part->symbols, OdoriScoreSymbol, pos);
      return FALSE;
    }
  sym.symbol = g_strdup (symbol);
  g_array_insert_val (part->symbols, pos, sym);
  return TRUE;
}

/**
 * odori_score_part_add_symbol:
 * @part: a part of a score
 * @start: the 1-based output frame where the motion starts
 * @symbol: the dance symbol, "CODE" or "SHOWCODE.CODE"
 *
 * Returns: %TRUE if inserted, %FALSE if @part already has a symbol at @start
 */
gboolean
odori_score_part_add_symbol (OdoriScorePart *part,
                             guint           start,
                             const char     *symbol)
{
  g_return_val_if_fail (part != NULL, FALSE);
  g_return_val_if_fail (start > 0, FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);

  return insert_symbol (part, start, symbol, NULL, 0, NULL);
}

/**
 * odori_score_part_add_symbol_full:
 * @part: a part of a score
 * @start: the 1-based output frame where the motion starts
 * @symbol: the dance symbol, "CODE" or "SHOWCODE.CODE"
 * @mods: (nullable): its modifiers
 *
 * Returns: %TRUE if inserted, %FALSE if @part already has a symbol at @start
 */
gboolean
odori_score_part_add_symbol_full (OdoriScorePart        *part,
                                  guint                  start,
                                  const char            *symbol,
                                  const OdoriSymbolMods *mods)
{
  g_return_val_if_fail (part != NULL, FALSE);
  g_return_val_if_fail (start > 0, FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);

  return insert_symbol (part, start, symbol, mods, 0, NULL);
}

/* Modifiers */

gboolean
odori_symbol_mods_is_none (const OdoriSymbolMods *mods)
{
  static const OdoriSymbolMods none = { 0 };

  return mods == NULL || odori_symbol_mods_equal (mods, &none);
}

gboolean
odori_symbol_mods_equal (const OdoriSymbolMods *a,
                         const OdoriSymbolMods *b)
{
  return a->in == b->in && a->out == b->out && a->speed == b->speed && a->repeat == b->repeat &&
         !a->mirror == !b->mirror && !a->has_blend == !b->has_blend &&
         (!a->has_blend || a->blend == b->blend);
}

double
odori_symbol_mods_get_speed (const OdoriSymbolMods *mods)
{
  return mods != NULL && mods->speed > 0 ? mods->speed : 1.0;
}

guint
odori_symbol_mods_get_repeat (const OdoriSymbolMods *mods)
{
  return mods != NULL && mods->repeat > 0 ? mods->repeat : 1;
}

guint
odori_symbol_mods_trim (const OdoriSymbolMods *mods,
                        guint                  n,
                        guint                 *first,
                        guint                 *last)
{
  guint a = 1, b = MAX (n, 1);

  if (mods != NULL && mods->out > 0)
    b = MIN (mods->out, b);
  if (mods != NULL && mods->in > 0)
    a = MIN (mods->in, b);
  if (first)
    *first = a;
  if (last)
    *last = b;
  return b - a + 1;
}

guint
odori_symbol_mods_copy_frames (const OdoriSymbolMods *mods,
                               guint                  n)
{
  guint trimmed = odori_symbol_mods_trim (mods, n, NULL, NULL);
  double m = round (trimmed / odori_symbol_mods_get_speed (mods));

  return (guint) CLAMP (m, 1.0, (double) G_MAXINT);
}

guint
odori_symbol_mods_length (const OdoriSymbolMods *mods,
                          guint                  n)
{
  guint64 length = (guint64) odori_symbol_mods_copy_frames (mods, n) *
                   odori_symbol_mods_get_repeat (mods);

  return (guint) MIN (length, (guint64) G_MAXINT);
}

/* "0.5", "2", "1.25": the shortest of up to 15 significant digits that reads back. */
static void
append_number (GString *s,
               double   x)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.15g", x);
  if (g_ascii_strtod (buf, NULL) != x)
    g_ascii_dtostr (buf, sizeof buf, x);
  g_string_append (s, buf);
}

char *
odori_symbol_mods_to_string (const OdoriSymbolMods *mods)
{
  GString *s = g_string_new (NULL);

  if (mods == NULL)
    return g_string_free (s, FALSE);
  if (mods->mirror)
    g_string_append (s, " mirror");
  if (mods->speed > 0)
    {
      g_string_append (s, " speed=");
      append_number (s, mods->speed);
    }
  if (mods->in > 0)
    g_string_append_printf (s, " in=%u", mods->in);
  if (mods->out > 0)
    g_string_append_printf (s, " out=%u", mods->out);
  if (mods->repeat > 0)
    g_string_append_printf (s, " repeat=%u", mods->repeat);
  if (mods->has_blend)
    g_string_append_printf (s, " blend=%u", mods->blend);
  return g_string_free (s, FALSE);
}

enum
{
  SEEN_MIRROR = 1 << 0,
  SEEN_SPEED = 1 << 1,
  SEEN_IN = 1 << 2,
  SEEN_OUT = 1 << 3,
  SEEN_REPEAT = 1 << 4,
  SEEN_BLEND = 1 << 5,
};

static gboolean
parse_count (const char *text,
             const char *end,
             guint64     min,
             guint64     max,
             guint      *value)
{
  g_autofree char *copy = g_strndup (text, end - text);
  guint64 n;

  if (!g_ascii_string_to_unsigned (copy, 10, min, max, &n, NULL))
    return FALSE;
  *value = (guint) n;
  return TRUE;
}

gboolean
odori_symbol_mods_parse_token (OdoriSymbolMods *mods,
                               const char      *text,
                               gsize            len,
                               guint           *seen,
                               char           **message)
{
  const char *end = text + len;
  const char *eq = memchr (text, '=', len);
  g_autofree char *key = g_strndup (text, (eq ? eq : end) - text);
  g_autofree char *got = odori_excerpt (text, len);
  const char *value = eq ? eq + 1 : end;
  guint bit;

  if (g_ascii_strcasecmp (key, "mirror") == 0)
    bit = SEEN_MIRROR;
  else if (g_ascii_strcasecmp (key, "speed") == 0)
    bit = SEEN_SPEED;
  else if (g_ascii_strcasecmp (key, "in") == 0)
    bit = SEEN_IN;
  else if (g_ascii_strcasecmp (key, "out") == 0)
    bit = SEEN_OUT;
  else if (g_ascii_strcasecmp (key, "repeat") == 0)
    bit = SEEN_REPEAT;
  else if (g_ascii_strcasecmp (key, "blend") == 0)
    bit = SEEN_BLEND;
  else
    {
      *message = g_strdup_printf (_("unknown modifier \"%s\" (expected mirror, speed=, in=, "
                                    "out=, repeat= or blend=)"),
                                  got);
      return FALSE;
    }
  if (*seen & bit)
    {
      *message = g_strdup_printf (_("modifier \"%s\" given twice"), key);
      return FALSE;
    }
  *seen |= bit;

  if (bit == SEEN_MIRROR)
    {
      if (eq != NULL)
        {
          *message = g_strdup_printf (_("\"mirror\" takes no value, got \"%s\""), got);
          return FALSE;
        }
      mods->mirror = TRUE;
      return TRUE;
    }
  if (eq == NULL || value >= end)
    {
      *message = g_strdup_printf (_("modifier \"%s\" needs a value, like %s=2"), key, key);
      return FALSE;
    }

  switch (bit)
    {
    case SEEN_SPEED:
      {
        const char *p = value;
        double x;

        if (!odori_parse_double (&p, end, &x) || p != end || !(x >= ODORI_SPEED_MIN) ||
            !(x <= ODORI_SPEED_MAX))
          {
            *message = g_strdup_printf (_("speed must be a number from 0.1 to 10, got \"%s\""),
                                        got);
            return FALSE;
          }
        mods->speed = x;
        return TRUE;
      }
    case SEEN_IN:
    case SEEN_OUT:
      if (!parse_count (value, end, 1, G_MAXINT, bit == SEEN_IN ? &mods->in : &mods->out))
        {
          *message = g_strdup_printf (_("%s must be a clip frame, 1 or more, got \"%s\""), key,
                                      got);
          return FALSE;
        }
      if (mods->in > 0 && mods->out > 0 && mods->in > mods->out)
        {
          *message = g_strdup_printf (_("in=%u is after out=%u: the clip would be empty"),
                                      mods->in, mods->out);
          return FALSE;
        }
      return TRUE;
    case SEEN_REPEAT:
      if (!parse_count (value, end, 1, ODORI_REPEAT_MAX, &mods->repeat))
        {
          *message = g_strdup_printf (_("repeat must be a count from 1 to %u, got \"%s\""),
                                      ODORI_REPEAT_MAX, got);
          return FALSE;
        }
      return TRUE;
    case SEEN_BLEND:
    default:
      if (!parse_count (value, end, 0, ODORI_BLEND_MAX, &mods->blend))
        {
          *message = g_strdup_printf (_("blend must be a frame count from 0 to %u, got \"%s\""),
                                      ODORI_BLEND_MAX, got);
          return FALSE;
        }
      mods->has_blend = TRUE;
      return TRUE;
    }
}

/* Lexical helpers. Lines are valid UTF-8 (OdoriTextFile decodes) but not NUL-terminated. */

static gboolean
all_digits (const char *p,
            const char *end)
{
  if (p >= end)
    return FALSE;
  for (; p < end; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* Splits [p, end) at commas, trimming each item; empty items are dropped and counted. */
static char **
split_sensors (const char *p,
               const char *end,
               guint      *n_empty)
{
  GPtrArray *items = g_ptr_array_new ();
  *n_empty = 0;
  while (p < end)
    {
      const char *comma = memchr (p, ',', end - p);
      const char *item_end = comma ? comma : end;
      const char *a = odori_skip_blanks (p, item_end);
      const char *b = odori_trim_blanks (a, item_end);

      if (b > a)
        g_ptr_array_add (items, g_strndup (a, b - a));
      else
        (*n_empty)++;
      if (comma == NULL)
        break;
      p = comma + 1;
      if (p == end)
        (*n_empty)++;   /* a trailing comma */
    }
  g_ptr_array_add (items, NULL);
  return (char **) g_ptr_array_free (items, FALSE);
}

/* Parser */

typedef enum
{
  KEY_TITLE,
  KEY_AUTHOR,
  KEY_DATE,
  KEY_INDEX,
  KEY_FRAME_TIME,
  KEY_BLEND,
  KEY_FOOT_LOCK,
  KEY_MUSIC,
  KEY_TEMPO,
  KEY_DOWNBEAT,
  KEY_METER,
  KEY_MUSIC_OFFSET,
  KEY_BEATS,
  N_KEYS
} HeaderKey;

static const char * const header_keys[N_KEYS] = {
  "Title", "Author", "Date", "Index", "FrameTime", "Blend", "FootLock",
  "Music", "Tempo", "Downbeat", "Meter", "MusicOffset", "Beats",
};

/* score->music_text[] */
enum
{
  TEXT_TEMPO,
  TEXT_DOWNBEAT,
  TEXT_METER,
  TEXT_OFFSET,
};

typedef struct
{
  OdoriScore     *score;
  const char     *path;          /* display name for messages */
  guint           lineno;
  const char     *line;          /* the line being read, for columns */
  OdoriScorePart *part;          /* the part whose symbols follow */
  GHashTable     *part_codes;    /* code → OdoriScorePart (borrowed) */
  guint           key_lines[N_KEYS];
} Parser;

static char *
dup_or_null (const char *p,
             const char *end)
{
  return p < end ? g_strndup (p, end - p) : NULL;
}

static gboolean
parse_frame_time (Parser      *parser,
                  const char  *value,
                  const char  *end,
                  GError     **error)
{
  const char *p = value;
  double x;
  g_autofree char *got = odori_excerpt (value, end - value);

  if (odori_looks_non_finite (value, end))
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_NUMBER, parser->path,
                            parser->lineno,
                            _("expected seconds per frame like 0.033333 after \"# FrameTime:\", "
                              "got \"%s\", which is not a finite number"), got);
  if (!odori_parse_double (&p, end, &x) || p != end || !(x > 0))
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_NUMBER, parser->path,
                            parser->lineno,
                            _("expected a positive number of seconds per frame like 0.033333 after "
                              "\"# FrameTime:\", got \"%s\""), got);
  parser->score->frame_time = x;
  return TRUE;
}

static gboolean
parse_blend (Parser      *parser,
             const char  *value,
             const char  *end,
             GError     **error)
{
  const char *p = value;
  gint64 n;
  g_autofree char *got = odori_excerpt (value, end - value);

  if (!odori_parse_int (&p, end, &n) || p != end || n < 0 || n > G_MAXINT)
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_NUMBER, parser->path,
                            parser->lineno,
                            _("expected a whole number of transition frames (0 or more) after \"# "
                              "Blend:\", got \"%s\""), got);
  parser->score->blend = (int) n;
  return TRUE;
}

/* "on" or "off", in any case. */
static gboolean
parse_foot_lock (Parser      *parser,
                 const char  *value,
                 const char  *end,
                 GError     **error)
{
  g_autofree char *got = odori_excerpt (value, end - value);
  gsize len = end - value;

  if (len == 2 && g_ascii_strncasecmp (value, "on", 2) == 0)
    parser->score->foot_lock = 1;
  else if (len == 3 && g_ascii_strncasecmp (value, "off", 3) == 0)
    parser->score->foot_lock = 0;
  else
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_NUMBER, parser->path,
                            parser->lineno,
                            _("\"# FootLock:\" must be on or off, got \"%s\""), got);
  return TRUE;
}

/* The number [VALUE, END) if it is one finite number from MIN to MAX, kept as written
 * in score->music_text[TEXT]. */
static gboolean
parse_music_number (Parser     *parser,
                    const char *value,
                    const char *end,
                    double      min,
                    double      max,
                    int         text,
                    double     *out)
{
  const char *p = value;
  double x;

  if (!odori_parse_double (&p, end, &x) || p != end || !(x >= min) || !(x <= max))
    return FALSE;
  g_free (parser->score->music_text[text]);
  parser->score->music_text[text] = g_strndup (value, end - value);
  *out = x;
  return TRUE;
}

static gboolean has_control (const char *p,
                             const char *end);

static gboolean
parse_music_line (Parser      *parser,
                  HeaderKey    key,
                  const char  *value,
                  const char  *end,
                  GError     **error)
{
  OdoriScoreMusic *music = &parser->score->music;
  g_autofree char *got = odori_excerpt (value, end - value);
  double x;

  switch (key)
    {
    case KEY_TEMPO:
      if (parse_music_number (parser, value, end, 0, ODORI_TEMPO_MAX, TEXT_TEMPO, &x) && x > 0)
        {
          music->tempo = x;
          return TRUE;
        }
      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MUSIC, parser->path,
                              parser->lineno,
                              _("expected beats per minute, more than 0 and at most 1000, after "
                                "\"# Tempo:\", like 96.5, got \"%s\""), got);
    case KEY_DOWNBEAT:
      if (parse_music_number (parser, value, end, -ODORI_MUSIC_SECONDS_MAX,
                              ODORI_MUSIC_SECONDS_MAX, TEXT_DOWNBEAT, &x))
        {
          music->has_downbeat = TRUE;
          music->downbeat = x;
          return TRUE;
        }
      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MUSIC, parser->path,
                              parser->lineno,
                              _("expected seconds into the music, from -86400 to 86400, after "
                                "\"# Downbeat:\", like 1.250, got \"%s\""), got);
    case KEY_METER:
      {
        const char *p = value;
        gint64 n;

        if (odori_parse_int (&p, end, &n) && p == end && n >= 1 && n <= ODORI_METER_MAX)
          {
            g_free (parser->score->music_text[TEXT_METER]);
            parser->score->music_text[TEXT_METER] = g_strndup (value, end - value);
            music->meter = (guint) n;
            return TRUE;
          }
      }
      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MUSIC, parser->path,
                              parser->lineno,
                              _("expected beats per bar, a whole number from 1 to 32, after "
                                "\"# Meter:\", got \"%s\""), got);
    case KEY_MUSIC_OFFSET:
      if (parse_music_number (parser, value, end, -ODORI_MUSIC_SECONDS_MAX,
                              ODORI_MUSIC_SECONDS_MAX, TEXT_OFFSET, &x))
        {
          music->has_offset = TRUE;
          music->offset = x;
          return TRUE;
        }
      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MUSIC, parser->path,
                              parser->lineno,
                              _("expected the seconds of music at frame 1, from -86400 to 86400, "
                                "after \"# MusicOffset:\", like 0 or -2.5, got \"%s\""), got);
    case KEY_MUSIC:
    case KEY_BEATS:
      /* A path with a control character is not a file anyone named, and the writer could
       * not write it back as it was (fuzz-score). */
      if (has_control (value, end))
        return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MUSIC, parser->path,
                                parser->lineno,
                                _("expected a file name after \"# %s:\", got \"%s\" (it holds a "
                                  "control character)"),
                                key == KEY_MUSIC ? "Music" : "Beats", got);
      if (key == KEY_MUSIC)
        {
          g_free (music->path);
          music->path = dup_or_null (value, end);
          return TRUE;
        }
      g_free (music->beats_path);
      music->beats_path = dup_or_null (value, end);
      return TRUE;
    case KEY_TITLE:
    case KEY_AUTHOR:
    case KEY_DATE:
    case KEY_INDEX:
    case KEY_FRAME_TIME:
    case KEY_BLEND:
    case KEY_FOOT_LOCK:
    case N_KEYS:
    default:
      g_assert_not_reached ();
    }
}

/* P points at the '#'; LINE/LEN is the whole line (kept verbatim if the key is unknown). */
static gboolean
parse_header_line (Parser      *parser,
                   const char  *line,
                   gsize        len,
                   const char  *p,
                   const char  *end,
                   GError     **error)
{
  OdoriScore *score = parser->score;
  const char *key = odori_skip_blanks (p + 1, end);
  const char *colon = memchr (key, ':', end - key);
  const char *key_end, *value;
  int k;

  if (colon == NULL)
    goto unknown;
  key_end = odori_trim_blanks (key, colon);
  for (k = 0; k < N_KEYS; k++)
    if ((gsize) (key_end - key) == strlen (header_keys[k]) &&
        g_ascii_strncasecmp (key, header_keys[k], key_end - key) == 0)
      break;
  if (k == N_KEYS)
    goto unknown;

  if (parser->key_lines[k] != 0)
    odori_add_warning (parser->score->warnings, parser->path, parser->lineno,
                       _("\"# %s:\" given again (first at line %u); the last one is used"),
                       header_keys[k], parser->key_lines[k]);
  parser->key_lines[k] = parser->lineno;
  value = odori_skip_blanks (colon + 1, end);

  switch ((HeaderKey) k)
    {
    case KEY_TITLE:
      g_free (score->title);
      score->title = dup_or_null (value, end);
      return TRUE;
    case KEY_AUTHOR:
      g_free (score->author);
      score->author = dup_or_null (value, end);
      return TRUE;
    case KEY_DATE:
      g_free (score->date);
      score->date = dup_or_null (value, end);
      return TRUE;
    case KEY_INDEX:
      g_free (score->index_path);
      score->index_path = dup_or_null (value, end);
      return TRUE;
    case KEY_FRAME_TIME:
      return parse_frame_time (parser, value, end, error);
    case KEY_BLEND:
      return parse_blend (parser, value, end, error);
    case KEY_FOOT_LOCK:
      return parse_foot_lock (parser, value, end, error);
    case KEY_MUSIC:
    case KEY_TEMPO:
    case KEY_DOWNBEAT:
    case KEY_METER:
    case KEY_MUSIC_OFFSET:
    case KEY_BEATS:
      return parse_music_line (parser, k, value, end, error);
    case N_KEYS:
    default:
      g_assert_not_reached ();
    }

unknown:
  g_ptr_array_add (score->header_lines, g_strndup (line, len));
  return TRUE;
}

static gboolean
parse_symbol_line (Parser      *parser,
                   const char  *key,
                   const char  *key_end,
                   const char  *value,
                   const char  *end,
                   GError     **error)
{
  g_autofree char *start_text = g_strndup (key, key_end - key);
  g_autofree char *symbol = NULL;
  OdoriScoreSymbol *existing = NULL;
  OdoriSymbolMods mods = { 0 };
  guint64 start;

  if (!g_ascii_string_to_unsigned (start_text, 10, 1, G_MAXINT, &start, NULL))
    {
      g_autofree char *got = odori_excerpt (key, key_end - key);

      if (strspn (start_text, "0") == strlen (start_text))
        return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_START, parser->path,
                                parser->lineno,
                                _("start frames are numbered from 1, got \"%s\""), got);
      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_START, parser->path,
                              parser->lineno,
                              _("start frame \"%s\" is too large"), got);
    }
  if (parser->part == NULL)
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_NO_PART, parser->path,
                            parser->lineno,
                            _("dance symbol before any part header (expected a line like \"HD: "
                              "Body,Head\" first)"));
  if (value >= end)
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX, parser->path,
                            parser->lineno,
                            _("expected a dance symbol after \"%s:\", got nothing"), start_text);

  /* The symbol is the first token; the modifiers follow, each blank-separated. */
  {
    const char *p = value;
    guint seen = 0;

    while (p < end && odori_blank_len (p, end) == 0)
      p++;
    symbol = g_strndup (value, p - value);
    for (;;)
      {
        const char *token;
        g_autofree char *message = NULL;

        p = odori_skip_blanks (p, end);
        if (p >= end)
          break;
        token = p;
        while (p < end && odori_blank_len (p, end) == 0)
          p++;
        if (!odori_symbol_mods_parse_token (&mods, token, p - token, &seen, &message))
          return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_MODIFIER,
                                  parser->path, parser->lineno, _("column %ld: %s"),
                                  g_utf8_pointer_to_offset (parser->line, token) + 1, message);
      }
  }
  if (!insert_symbol (parser->part, (guint) start, symbol, &mods, parser->lineno, &existing))
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_DUPLICATE, parser->path,
                            parser->lineno,
                            _("part \"%s\" already has symbol \"%s\" at frame %u (line %u)"),
                            parser->part->code, existing->symbol, existing->start, existing->line);
  return TRUE;
}

/* TRUE if [p, end) holds a C0 control character other than a tab, or DEL. */
static gboolean
has_control (const char *p,
             const char *end)
{
  for (; p < end; p++)
    if (((guchar) *p < 0x20 && *p != '\t') || *p == 0x7f)
      return TRUE;
  return FALSE;
}

static gboolean
parse_part_line (Parser      *parser,
                 const char  *key,
                 const char  *key_end,
                 const char  *value,
                 const char  *end,
                 GError     **error)
{
  g_autofree char *code = g_strndup (key, key_end - key);
  OdoriScorePart *part = g_hash_table_lookup (parser->part_codes, code);
  guint n_empty = 0;

  /* A lone CR or a form feed inside a code would be written back as a blank and read as
   * another part (fuzz-score): codes are printable. */
  if (has_control (key, key_end))
    {
      g_autofree char *got = odori_excerpt (key, key_end - key);

      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX, parser->path,
                              parser->lineno,
                              _("part code \"%s\" holds a control character (expected letters and "
                                "digits, like \"HD\")"),
                              got);
    }
  if (part != NULL)
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_DUPLICATE, parser->path,
                            parser->lineno,
                            _("part \"%s\" given twice (first at line %u)"), code, part->line);

  part = part_new (code, NULL);
  g_strfreev (part->sensors);
  part->sensors = split_sensors (value, end, &n_empty);
  part->line = parser->lineno;
  g_ptr_array_add (parser->score->parts, part);
  g_hash_table_insert (parser->part_codes, part->code, part);
  parser->part = part;

  if (n_empty > 0)
    odori_add_warning (parser->score->warnings, parser->path, parser->lineno,
                       _("empty sensor name in the list of part \"%s\" ignored"), code);
  return TRUE;
}

/* A key that is a number, but not a valid start frame: -5, +3, 1.5, 1e3. */
static gboolean
is_bad_number (const char *p,
               const char *end)
{
  double x;

  return odori_parse_double (&p, end, &x) && p == end;
}

static gboolean
parse_line (Parser      *parser,
            const char  *line,
            gsize        len,
            GError     **error)
{
  const char *end = odori_trim_blanks (line, line + len);
  const char *p = odori_skip_blanks (line, end);
  const char *colon, *key_end, *value;

  if (p >= end)
    return TRUE;
  if (*p == '#')
    return parse_header_line (parser, line, len, p, end, error);

  colon = memchr (p, ':', end - p);
  if (colon == NULL)
    {
      g_autofree char *got = odori_excerpt (p, end - p);

      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX, parser->path,
                              parser->lineno,
                              _("expected a part header like \"HD: Body,Head\" or a symbol line "
                                "like \"1: A1\", got \"%s\""), got);
    }
  key_end = odori_trim_blanks (p, colon);
  value = odori_skip_blanks (colon + 1, end);
  if (key_end == p)
    return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX, parser->path,
                            parser->lineno,
                            _("expected a part code or a start frame before ':'"));

  if (all_digits (p, key_end))
    return parse_symbol_line (parser, p, key_end, value, end, error);
  if (is_bad_number (p, key_end))
    {
      g_autofree char *got = odori_excerpt (p, key_end - p);

      return odori_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_START, parser->path,
                              parser->lineno,
                              _("expected a start frame (a whole number from 1), got \"%s\""), got);
    }
  return parse_part_line (parser, p, key_end, value, end, error);
}

/**
 * odori_score_load:
 * @path: the score file (DDS)
 * @error: return location for an error in %ODORI_SCORE_ERROR or %ODORI_TEXT_ERROR
 *
 * Returns: (transfer full) (nullable): the score, or %NULL on error
 */
OdoriScore *
odori_score_load (const char  *path,
                  GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  return odori_score_load_text (file, error);
}

/**
 * odori_score_load_text:
 * @file: a decoded text file
 * @error: return location for an error in %ODORI_SCORE_ERROR
 *
 * Returns: (transfer full) (nullable): the score, or %NULL on error
 */
OdoriScore *
odori_score_load_text (OdoriTextFile  *file,
                       GError        **error)
{
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(GHashTable) part_codes = NULL;
  OdoriLineReader reader;
  Parser parser = { 0 };

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  score = odori_score_new ();
  score->path = g_strdup (odori_text_file_get_path (file));
  score->encoding = odori_text_file_get_encoding (file);

  part_codes = g_hash_table_new (g_str_hash, g_str_equal);
  parser.score = score;
  parser.path = score->path ? score->path : "(score)";
  parser.part_codes = part_codes;

  odori_line_reader_init (&reader, file);
  while (odori_line_reader_next (&reader))
    {
      parser.lineno = reader.lineno;
      parser.line = reader.line;
      if (reader.len > MAX_LINE)
        {
          g_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX,
                       _("%s:%u: the line is %zu bytes long, more than %d"),
                       parser.path, reader.lineno, reader.len, MAX_LINE);
          return NULL;
        }
      if (!parse_line (&parser, reader.line, reader.len, error))
        return NULL;
    }

  return g_steal_pointer (&score);
}

/* Writer */

/* Appends TEXT with line breaks made blanks: they cannot be read back. */
static void
append_clean (GString    *s,
              const char *text)
{
  gsize start = s->len;

  g_string_append (s, text ? text : "");
  for (gsize i = start; i < s->len; i++)
    if (s->str[i] == '\n' || s->str[i] == '\r')
      s->str[i] = ' ';
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
write_header (OdoriOutput *out,
              GString     *s,
              const char  *key,
              const char  *value)
{
  g_string_append_printf (s, "# %s: ", key);
  append_clean (s, value);
  write_line (out, s);
}

static void
write_part (OdoriOutput    *out,
            GString        *s,
            OdoriScorePart *part)
{
  append_clean (s, part->code);
  g_string_append_c (s, ':');
  for (guint i = 0; part->sensors != NULL && part->sensors[i] != NULL; i++)
    {
      g_string_append_c (s, i == 0 ? ' ' : ',');
      append_clean (s, part->sensors[i]);
    }
  write_line (out, s);

  for (guint i = 0; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, i);

      g_autofree char *mods = odori_symbol_mods_to_string (&sym->mods);

      g_string_append_printf (s, "%u: ", sym->start);
      append_clean (s, sym->symbol);
      g_string_append (s, mods);
      write_line (out, s);
    }
}

/* "0.033333" rather than "0.033333000000000002": 15 significant digits when they read
 * back exactly (as for every value typed by hand), else odori_format_double(). */
static char *
format_seconds (double x)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.15g", x);
  if (g_ascii_strtod (buf, NULL) == x)
    return g_strdup (buf);
  return odori_format_double (x);
}

/* score->music_text[TEXT] if it reads as X (the value was not changed), else X in its
 * shortest form. */
static char *
music_number_text (OdoriScore *score,
                   int         text,
                   double      x)
{
  const char *kept = score->music_text[text];

  if (kept != NULL)
    {
      const char *p = kept;
      const char *end = kept + strlen (kept);
      double y;

      if (odori_parse_double (&p, end, &y) && p == end && y == x && signbit (y) == signbit (x))
        return g_strdup (kept);
    }
  return odori_beats_format_time (x);
}

static void
write_music (OdoriOutput *out,
             GString     *s,
             OdoriScore  *score)
{
  const OdoriScoreMusic *music = &score->music;
  struct
  {
    const char *key;
    gboolean    present;
    int         text;
    double      value;
  } numbers[] = {
    { "Tempo", music->tempo > 0, TEXT_TEMPO, music->tempo },
    { "Downbeat", music->has_downbeat, TEXT_DOWNBEAT, music->downbeat },
    { "Meter", music->meter > 0, TEXT_METER, music->meter },
    { "MusicOffset", music->has_offset, TEXT_OFFSET, music->offset },
  };

  if (music->path != NULL)
    write_header (out, s, "Music", music->path);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (numbers[i].present)
      {
        g_autofree char *text = music_number_text (score, numbers[i].text, numbers[i].value);

        write_header (out, s, numbers[i].key, text);
      }
  if (music->beats_path != NULL)
    write_header (out, s, "Beats", music->beats_path);
}

static void
write_score (gpointer     data,
             OdoriOutput *out)
{
  OdoriScore *score = data;
  g_autoptr(GString) s = g_string_new (NULL);

  write_header (out, s, "Title", score->title);
  write_header (out, s, "Author", score->author);
  write_header (out, s, "Date", score->date);
  if (score->index_path != NULL)
    write_header (out, s, "Index", score->index_path);
  if (score->frame_time > 0)
    {
      g_autofree char *text = format_seconds (score->frame_time);

      write_header (out, s, "FrameTime", text);
    }
  if (score->blend >= 0)
    {
      char text[16];

      g_snprintf (text, sizeof text, "%d", score->blend);
      write_header (out, s, "Blend", text);
    }
  if (score->foot_lock >= 0)
    write_header (out, s, "FootLock", score->foot_lock ? "on" : "off");
  write_music (out, s, score);

  for (guint i = 0; i < score->header_lines->len; i++)
    {
      const char *line = g_ptr_array_index (score->header_lines, i);

      if (line[strspn (line, " \t")] != '#')
        g_string_append (s, "# ");
      append_clean (s, line);
      write_line (out, s);
    }

  for (guint i = 0; i < score->parts->len; i++)
    write_part (out, s, g_ptr_array_index (score->parts, i));
}

/**
 * odori_score_write:
 * @score: a score
 * @out: where to write
 *
 * Writes @score: title, author and date lines, the extensions that are set, the other
 * header lines, then the parts. Encoding errors are reported by odori_output_commit().
 */
void
odori_score_write (OdoriScore  *score,
                   OdoriOutput *out)
{
  g_return_if_fail (score != NULL);
  g_return_if_fail (out != NULL);

  odori_output_write_text_file (out, score->encoding, write_score, score);
}

/**
 * odori_score_save:
 * @score: a score
 * @path: the file to write (atomically)
 * @error: return location for an error in %ODORI_TEXT_ERROR
 *
 * Writes @score to @path in its encoding (score->encoding). score->path is unchanged.
 *
 * Returns: %TRUE on success
 */
gboolean
odori_score_save (OdoriScore  *score,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (score != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = odori_output_new (path, score->encoding, error);
  if (out == NULL)
    return FALSE;
  odori_score_write (score, out);
  return odori_output_commit (out, error);
}

/* RELATIVE (as written in the score) resolved against the directory of score->path (the
 * current directory for a score without a path); backslashes are directory separators. */
static char *
resolve_path (OdoriScore *score,
              const char *relative)
{
  g_autofree char *file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *abs_dir = NULL;

  if (relative == NULL || relative[0] == '\0')
    return NULL;

  file = g_strdup (relative);
  if (G_DIR_SEPARATOR == '/')
    g_strdelimit (file, "\\", '/');

  dir = score->path ? g_path_get_dirname (score->path) : g_get_current_dir ();
  abs_dir = g_canonicalize_filename (dir, NULL);
  return g_canonicalize_filename (file, abs_dir);
}

/**
 * odori_score_dup_index_path:
 * @score: a score
 *
 * Resolves "# Index:" against the directory of score->path (the current directory for
 * a score without a path). Backslashes are taken as directory separators.
 *
 * Returns: (transfer full) (nullable): an absolute path, or %NULL without "# Index:"
 */
char *
odori_score_dup_index_path (OdoriScore *score)
{
  g_return_val_if_fail (score != NULL, NULL);

  return resolve_path (score, score->index_path);
}

/**
 * odori_score_dup_music_path:
 * @score: a score
 *
 * Resolves "# Music:" as odori_score_dup_index_path () resolves "# Index:".
 *
 * Returns: (transfer full) (nullable): an absolute path, or %NULL without "# Music:"
 */
char *
odori_score_dup_music_path (OdoriScore *score)
{
  g_return_val_if_fail (score != NULL, NULL);

  return resolve_path (score, score->music.path);
}

/**
 * odori_score_dup_beats_path:
 * @score: a score
 *
 * Resolves "# Beats:" as odori_score_dup_index_path () resolves "# Index:".
 *
 * Returns: (transfer full) (nullable): an absolute path, or %NULL without "# Beats:"
 */
char *
odori_score_dup_beats_path (OdoriScore *score)
{
  g_return_val_if_fail (score != NULL, NULL);

  return resolve_path (score, score->music.beats_path);
}

/* Music */

void
odori_score_music_clear (OdoriScoreMusic *music)
{
  g_return_if_fail (music != NULL);

  g_free (music->path);
  g_free (music->beats_path);
  memset (music, 0, sizeof *music);
}

void
odori_score_music_copy (const OdoriScoreMusic *src,
                        OdoriScoreMusic       *dest)
{
  g_return_if_fail (src != NULL);
  g_return_if_fail (dest != NULL);

  *dest = *src;
  dest->path = g_strdup (src->path);
  dest->beats_path = g_strdup (src->beats_path);
}

gboolean
odori_score_music_equal (const OdoriScoreMusic *a,
                         const OdoriScoreMusic *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return g_strcmp0 (a->path, b->path) == 0 && a->tempo == b->tempo &&
         a->has_downbeat == b->has_downbeat && (!a->has_downbeat || a->downbeat == b->downbeat) &&
         a->meter == b->meter && a->has_offset == b->has_offset &&
         (!a->has_offset || a->offset == b->offset) &&
         g_strcmp0 (a->beats_path, b->beats_path) == 0;
}

gboolean
odori_score_music_is_valid (const OdoriScoreMusic *music)
{
  g_return_val_if_fail (music != NULL, FALSE);

  return (music->tempo == 0 || (music->tempo > 0 && music->tempo <= ODORI_TEMPO_MAX)) &&
         (!music->has_downbeat || fabs (music->downbeat) <= ODORI_MUSIC_SECONDS_MAX) &&
         music->meter <= ODORI_METER_MAX &&
         (!music->has_offset || fabs (music->offset) <= ODORI_MUSIC_SECONDS_MAX);
}

gboolean
odori_score_music_has_grid (const OdoriScoreMusic *music)
{
  g_return_val_if_fail (music != NULL, FALSE);

  return music->tempo > 0 || (music->beats_path != NULL && music->beats_path[0] != '\0');
}

gboolean
odori_score_music_is_set (const OdoriScoreMusic *music)
{
  g_return_val_if_fail (music != NULL, FALSE);

  return music->path != NULL || music->tempo > 0 || music->has_downbeat || music->meter > 0 ||
         music->has_offset || music->beats_path != NULL;
}

/**
 * odori_score_set_music:
 * @score: a score
 * @music: the music lines to give it (odori_score_music_is_valid ())
 *
 * Replaces score->music by a copy of @music. The text each number was read from stays
 * with the score: a value set back to the one read is written as it was read.
 */
void
odori_score_set_music (OdoriScore            *score,
                       const OdoriScoreMusic *music)
{
  OdoriScoreMusic copy;

  g_return_if_fail (score != NULL);
  g_return_if_fail (music != NULL);
  g_return_if_fail (odori_score_music_is_valid (music));

  odori_score_music_copy (music, &copy);
  odori_score_music_clear (&score->music);
  score->music = copy;
}

static gboolean
sensors_equal (char **a,
               char **b)
{
  guint i;

  for (i = 0; a && b && a[i] && b[i]; i++)
    if (strcmp (a[i], b[i]) != 0)
      return FALSE;
  return (a == NULL || a[i] == NULL) && (b == NULL || b[i] == NULL);
}

/**
 * odori_score_resolve:
 * @score: a score
 * @index: the index its symbols refer to
 * @diagnostics: (element-type OdoriDiagnostic): where problems are appended
 *
 * Errors: unknown or ambiguous symbols (the candidates named), part codes the index
 * does not define. Warning: a part's sensor list that differs from the index's map.
 *
 * Returns: %FALSE if an error was appended
 */
gboolean
odori_score_resolve (OdoriScore *score,
                     OdoriIndex *index,
                     GPtrArray  *diagnostics)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (score != NULL, FALSE);
  g_return_val_if_fail (index != NULL, FALSE);
  g_return_val_if_fail (diagnostics != NULL, FALSE);

  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, i);
      OdoriIndexPart *ipart = odori_index_find_part (index, part->code);

      if (ipart == NULL)
        {
          g_ptr_array_add (diagnostics,
                           odori_diagnostic_new (score->path, part->line, TRUE,
                                                 _("part \"%s\" is not defined in the index%s%s"),
                                                 part->code, index->path ? " " : "",
                                                 index->path ? index->path : ""));
          ok = FALSE;
        }
      else if (!sensors_equal (part->sensors, ipart->map))
        {
          g_autofree char *mine = g_strjoinv (",", part->sensors);
          g_autofree char *theirs = ipart->map ? g_strjoinv (",", ipart->map) : g_strdup ("");

          g_ptr_array_add (diagnostics,
                           odori_diagnostic_new (score->path, part->line, FALSE,
                                                 _("sensors of part \"%s\" differ from the index "
                                                   "(score: %s; index: %s); the score's list is "
                                                   "used"),
                                                 part->code, mine, theirs));
        }

      for (guint j = 0; j < part->symbols->len; j++)
        {
          OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, j);
          g_autoptr(GError) error = NULL;

          if (odori_index_lookup (index, sym->symbol, &error) != NULL)
            continue;
          g_ptr_array_add (diagnostics,
                           odori_diagnostic_new (score->path, sym->line, TRUE, "%s",
                                                 error->message));
          ok = FALSE;
        }
    }
  return ok;
}
