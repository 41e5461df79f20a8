/* odori-bulge.c: bulge_types, the muscle bulge definitions (FORMATS.md §7): their model,
 * evaluation, reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading rules (FORMATS.md §7, plus these (Odori) decisions, see docs/formats.md):
 * - A line is blank, a comment (first non-blank character '#'), an initialisation line
 *   `bulge: "NAME" code: ID`, a section line `angle: A`, or a keypoint line `U V W`.
 *   Keywords are ASCII, matched without regard to case, blanks allowed before ':'.
 * - NAME is in straight quotes "…" or typographic ones “…” (closed by ” or “, as the seed
 *   prints them). Characters outside ASCII 32-126 are kept with a warning in the log; a
 *   straight double quote inside a curly-quoted name breaks the rule and the definition.
 * - A definition that breaks any rule is left out of the set, never the whole file: every
 *   problem is logged with its own line (the keypoint's, the section's or the bulge's) and
 *   reading goes on at the next `bulge:` line. Rules: a well-formed initialisation line
 *   with an integer code 0..G_MAXINT; at least one section; angles integers 0..360; at
 *   least two keypoints per section, the first at U = 0 and the last at U = 1; U and V
 *   strictly increasing; U, V in [0, 1]; W in [-0.5, 0.5]; three finite numbers per line.
 * - A second section at the same angle in one definition is ignored with a warning.
 * - Codes: the first complete definition using a code keeps it; a later one gets a new
 *   code, one above the highest code in the file (then the next ones), and the log says so.
 * - Sections are kept by increasing angle. Text outside any definition is ignored with a
 *   warning (once per run of such lines). The log holds at most MAX_LOG entries.
 * - Comments are kept with the definition that follows them (or at the end) and written
 *   back there; the file's encoding is kept.
 * - A file without any complete definition is an error (ODORI_BULGE_ERROR_EMPTY).
 *
 * Writing: the seed's layout (4 and 8 spaces of indent, a blank line between sections and
 * definitions), LF line ends, numbers with 6 decimals, or more when a float needs them to
 * read back equal.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-bulge.h"
#include "odori-reader.h"

G_DEFINE_QUARK (odori-bulge-error-quark, odori_bulge_error)

#define LEFT_CURLY  "\xE2\x80\x9C" /* “ */
#define RIGHT_CURLY "\xE2\x80\x9D" /* ” */
#define MAX_LOG 1000
/* Longest line, in bytes: bulge_types lines are a few dozen bytes; a longer one is
 * garbage whose name or numbers would be copied and quoted whole. */
#define MAX_LINE 65536

/* The set's private part: the public struct comes first, so the set can be cast. */
typedef struct
{
  OdoriBulgeSet  pub;
  OdoriEncoding  encoding;
  GPtrArray     *comments;  /* Comment* */
} BulgeSetPrivate;

typedef struct
{
  char             *text;    /* the comment line without leading blanks, '#' included */
  const OdoriBulge *before;  /* the definition it precedes, NULL for the end */
} Comment;

static void
comment_free (Comment *comment)
{
  g_free (comment->text);
  g_free (comment);
}

static void
bulge_free (OdoriBulge *bulge)
{
  if (bulge == NULL)
    return;
  for (guint i = 0; bulge->sections != NULL && i < bulge->sections->len; i++)
    g_array_unref (g_array_index (bulge->sections, OdoriBulgeSection, i).keys);
  g_clear_pointer (&bulge->sections, g_array_unref);
  g_free (bulge->name);
  g_free (bulge);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriBulge, bulge_free)

static OdoriBulge *
bulge_new (const char *name,
           int         code,
           guint       line)
{
  OdoriBulge *bulge = g_new0 (OdoriBulge, 1);

  bulge->name = g_strdup (name);
  bulge->code = code;
  bulge->line = line;
  bulge->sections = g_array_new (FALSE, TRUE, sizeof (OdoriBulgeSection));
  return bulge;
}

/* Life cycle */

/**
 * odori_bulge_set_new:
 *
 * Returns: (transfer full): an empty set (UTF-8 when saved)
 */
OdoriBulgeSet *
odori_bulge_set_new (void)
{
  BulgeSetPrivate *priv = g_new0 (BulgeSetPrivate, 1);

  g_atomic_ref_count_init (&priv->pub.ref_count);
  priv->pub.bulges = g_ptr_array_new_with_free_func ((GDestroyNotify) bulge_free);
  priv->pub.log = odori_diagnostics_new ();
  priv->encoding = ODORI_ENCODING_UTF8;
  priv->comments = g_ptr_array_new_with_free_func ((GDestroyNotify) comment_free);
  return &priv->pub;
}

OdoriBulgeSet *
odori_bulge_set_ref (OdoriBulgeSet *set)
{
  g_return_val_if_fail (set != NULL, NULL);
  g_atomic_ref_count_inc (&set->ref_count);
  return set;
}

void
odori_bulge_set_unref (OdoriBulgeSet *set)
{
  BulgeSetPrivate *priv = (BulgeSetPrivate *) set;

  g_return_if_fail (set != NULL);

  if (!g_atomic_ref_count_dec (&set->ref_count))
    return;
  g_ptr_array_unref (set->bulges);
  g_ptr_array_unref (set->log);
  g_ptr_array_unref (priv->comments);
  g_free (priv);
}

/**
 * odori_bulge_set_find:
 * @set: a bulge set
 * @code: a bulge code
 *
 * Returns: (transfer none) (nullable): the first definition with @code
 */
const OdoriBulge *
odori_bulge_set_find (OdoriBulgeSet *set,
                      int            code)
{
  g_return_val_if_fail (set != NULL, NULL);

  for (guint i = 0; i < set->bulges->len; i++)
    {
      const OdoriBulge *bulge = g_ptr_array_index (set->bulges, i);

      if (bulge->code == code)
        return bulge;
    }
  return NULL;
}

/* Evaluation */

/* V and W of one section at U: piecewise linear over the keypoints, clamped at the ends. */
static void
section_eval (const OdoriBulgeSection *section,
              float                    u,
              float                   *v,
              float                   *w)
{
  const OdoriBulgeKey *keys = section->keys != NULL ? (const OdoriBulgeKey *) section->keys->data
                                                     : NULL;
  guint n = section->keys != NULL ? section->keys->len : 0;
  guint i;

  if (n == 0)
    {
      *v = u;
      *w = 0;
      return;
    }
  if (n == 1 || u <= keys[0].u)
    {
      *v = keys[0].v;
      *w = keys[0].w;
      return;
    }
  if (u >= keys[n - 1].u)
    {
      *v = keys[n - 1].v;
      *w = keys[n - 1].w;
      return;
    }
  for (i = 1; i < n - 1 && keys[i].u < u; i++)
    ;
  {
    const OdoriBulgeKey *a = &keys[i - 1], *b = &keys[i];
    float span = b->u - a->u;
    float t = span > 0 ? (u - a->u) / span : 0;

    *v = a->v + t * (b->v - a->v);
    *w = a->w + t * (b->w - a->w);
  }
}

static float
wrap_degrees (float angle)
{
  float a = fmodf (angle, 360.f);

  return a < 0 ? a + 360.f : a;
}

/**
 * odori_bulge_eval:
 * @bulge: a definition
 * @u: fraction along the bone, 0 (top) to 1 (bottom); clamped
 * @angle_deg: degrees around the bone (any value, taken modulo 360)
 * @v: (out): V(u), where the bone's point at @u moves at full activation
 * @w: (out): W(u), the radius change at full activation (radius × (1 + 2W))
 *
 * Interpolates each section linearly over U, then blends the two sections around
 * @angle_deg (the nearest one at or before it and the nearest after it, wrapping at 360)
 * linearly by angle. One section applies all round. A definition without sections gives
 * V = u and W = 0 (no bulge).
 */
void
odori_bulge_eval (const OdoriBulge *bulge,
                  float             u,
                  float             angle_deg,
                  float            *v,
                  float            *w)
{
  const OdoriBulgeSection *sections;
  int prev = -1, next = -1;
  float a_prev = 0, a_next = 0, theta, d_prev, d_next, v0, w0, v1, w1;
  guint n;

  g_return_if_fail (bulge != NULL);
  g_return_if_fail (v != NULL && w != NULL);

  u = CLAMP (u, 0.f, 1.f);
  n = bulge->sections != NULL ? bulge->sections->len : 0;
  if (n == 0 || !isfinite (angle_deg))
    {
      *v = u;
      *w = 0;
      return;
    }
  sections = (const OdoriBulgeSection *) bulge->sections->data;
  theta = wrap_degrees (angle_deg);

  /* prev: the largest angle <= theta (first on ties), next: the smallest angle > theta;
   * each wraps round to the other end when there is none. */
  for (guint i = 0; i < n; i++)
    {
      float a = wrap_degrees ((float) sections[i].angle);

      if (a <= theta && (prev < 0 || a > a_prev))
        prev = i, a_prev = a;
      if (a > theta && (next < 0 || a < a_next))
        next = i, a_next = a;
    }
  if (prev < 0)
    for (guint i = 0; i < n; i++)
      {
        float a = wrap_degrees ((float) sections[i].angle);

        if (prev < 0 || a > a_prev)
          prev = i, a_prev = a;
      }
  if (next < 0)
    for (guint i = 0; i < n; i++)
      {
        float a = wrap_degrees ((float) sections[i].angle);

        if (next < 0 || a < a_next)
          next = i, a_next = a;
      }

  section_eval (&sections[prev], u, &v0, &w0);
  if (next == prev)
    {
      *v = v0;
      *w = w0;
      return;
    }
  section_eval (&sections[next], u, &v1, &w1);
  d_prev = wrap_degrees (theta - a_prev);
  d_next = wrap_degrees (a_next - theta);
  if (d_prev + d_next <= 0)
    {
      *v = v0;
      *w = w0;
      return;
    }
  {
    float t = d_prev / (d_prev + d_next);

    *v = v0 + t * (v1 - v0);
    *w = w0 + t * (w1 - w0);
  }
}

/* Reader */

typedef struct
{
  OdoriBulgeSet *set;
  const char    *path;
  guint          lineno;
  GPtrArray     *pending_comments;  /* char*, waiting for the next complete definition */
  gboolean       outside_logged;    /* a run of stray lines outside definitions was logged */
  /* The definition being read (in_def): kept in DEF even when broken, so that every
   * problem in it is found; DEF_BAD leaves it out at its end. */
  gboolean       in_def;
  gboolean       def_bad;
  guint          def_comments;      /* pending comments that came before its bulge: line */
  gboolean       orphan_logged;     /* keypoints before any angle: line were logged */
  OdoriBulge    *def;
  char          *label;             /* how messages name the definition */
  GArray        *section_lines;     /* guint, the line of each section of DEF */
  /* The section being read (in_section). */
  gboolean       in_section;
  gboolean       section_ignored;   /* a second section at an angle already defined */
  OdoriBulgeSection section;
  guint          section_line;
  guint          first_key_line;
  guint          last_key_line;
} Parser;

static void parser_log (Parser     *parser,
                        guint       line,
                        gboolean    is_error,
                        const char *format,
                        ...) G_GNUC_PRINTF (4, 5);

static void
parser_log (Parser     *parser,
            guint       line,
            gboolean    is_error,
            const char *format,
            ...)
{
  GPtrArray *log = parser->set->log;
  g_autofree char *message = NULL;
  va_list args;

  if (log->len > MAX_LOG)
    return;
  if (log->len == MAX_LOG)
    {
      g_ptr_array_add (log, odori_diagnostic_new (parser->path, line, TRUE, "%s",
                                                  _("too many problems; the rest are not logged")));
      return;
    }
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (log, odori_diagnostic_new (parser->path, line, is_error, "%s", message));
}

/* A rule broken inside the current definition: logged, and the definition is left out. */
static void def_problem (Parser     *parser,
                         guint       line,
                         const char *format,
                         ...) G_GNUC_PRINTF (3, 4);

static void
def_problem (Parser     *parser,
             guint       line,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* TRANSLATORS: the first %s names a definition, e.g. bulge "Biceps" */
  parser_log (parser, line, TRUE, _("%s left out: %s"), parser->label, message);
  parser->def_bad = TRUE;
}

typedef enum
{
  KEYWORD_NONE,
  KEYWORD_NO_COLON,   /* the word, not followed by ':' */
  KEYWORD_COLON,      /* the word and ':', *p moved past the colon */
} KeywordMatch;

static KeywordMatch
match_keyword (const char **p,
               const char  *end,
               const char  *word)
{
  gsize n = strlen (word);
  const char *q;

  if ((gsize) (end - *p) < n || g_ascii_strncasecmp (*p, word, n) != 0)
    return KEYWORD_NONE;
  q = *p + n;
  if (q < end && *q != ':' && !g_ascii_isspace (*q))
    return KEYWORD_NONE;
  q = odori_skip_blanks (q, end);
  if (q < end && *q == ':')
    {
      *p = q + 1;
      return KEYWORD_COLON;
    }
  *p = q;
  return KEYWORD_NO_COLON;
}

static gboolean
starts_with_bytes (const char *p,
                   const char *end,
                   const char *bytes)
{
  gsize n = strlen (bytes);

  return (gsize) (end - p) >= n && memcmp (p, bytes, n) == 0;
}

/* Parses the whole token [tok, tok + len) as an integer. */
static gboolean
token_to_int (const char *tok,
              gsize       len,
              gint64     *value)
{
  const char *q = tok;

  return len > 0 && odori_parse_int (&q, tok + len, value) && q == tok + len;
}

static gboolean
token_to_double (const char *tok,
                 gsize       len,
                 double     *value)
{
  const char *q = tok;

  return len > 0 && odori_parse_double (&q, tok + len, value) && q == tok + len;
}

/* Reads `"NAME"` or `“NAME”` at *P. Returns the name, or NULL after logging. */
static char *
parse_name (Parser      *parser,
            const char **p,
            const char  *end)
{
  const char *s = odori_skip_blanks (*p, end);
  const char *close = NULL;
  const char *after = NULL;
  gboolean curly;
  char *name;

  if (s < end && *s == '"')
    {
      curly = FALSE;
      s++;
      close = memchr (s, '"', end - s);
      after = close != NULL ? close + 1 : NULL;
    }
  else if (starts_with_bytes (s, end, LEFT_CURLY) || starts_with_bytes (s, end, RIGHT_CURLY))
    {
      curly = TRUE;
      s += 3;
      for (const char *q = s; q < end; q++)
        if (starts_with_bytes (q, end, RIGHT_CURLY) || starts_with_bytes (q, end, LEFT_CURLY))
          {
            close = q;
            after = q + 3;
            break;
          }
    }
  else
    {
      g_autofree char *got = odori_excerpt (s, end - s);

      def_problem (parser, parser->lineno,
                   _("expected a name in double quotes after \"bulge:\", got \"%s\""), got);
      return NULL;
    }

  if (close == NULL)
    {
      const char *quote = s - (curly ? 3 : 1);
      g_autofree char *got = odori_excerpt (quote, end - quote);

      def_problem (parser, parser->lineno, _("the name's closing quote is missing in \"%s\""), got);
      return NULL;
    }

  name = g_strndup (s, close - s);
  *p = after;
  return name;
}

/* The name rule: ASCII 32-126 but the double quote. */
static void
check_name (Parser     *parser,
            const char *name)
{
  gboolean outside = FALSE;

  if (strchr (name, '"') != NULL)
    {
      def_problem (parser, parser->lineno, _("a name cannot hold a double quote"));
      return;
    }
  for (const char *c = name; *c != '\0'; c++)
    if ((guchar) *c < 32 || (guchar) *c > 126)
      outside = TRUE;
  if (outside)
    parser_log (parser, parser->lineno, FALSE,
                _("bulge \"%s\": the name has characters outside ASCII 32-126, which Alias "
                  "does not accept; kept"), name);
}

/* TRUE if [tok, tok + len) is an optional sign and digits: an integer, maybe too large. */
static gboolean
is_integer_text (const char *tok,
                 gsize       len)
{
  gsize i = len > 0 && (tok[0] == '-' || tok[0] == '+') ? 1 : 0;

  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit (tok[i]))
      return FALSE;
  return TRUE;
}

/* Reads an integer token from LO to HI at *P; logs what was EXPECTED if it is not one. */
static gboolean
parse_int_token (Parser      *parser,
                 const char **p,
                 const char  *end,
                 gint64       lo,
                 gint64       hi,
                 const char  *expected,
                 int         *out)
{
  const char *tok;
  gsize len = odori_next_token (p, end, &tok);
  gint64 value = 0;
  g_autofree char *got = odori_excerpt (tok, len);
  gboolean ok = token_to_int (tok, len, &value);

  if (!ok && !is_integer_text (tok, len))
    {
      def_problem (parser, parser->lineno, _("expected %s, got \"%s\""), expected, got);
      return FALSE;
    }
  if (!ok || value < lo || value > hi)
    {
      def_problem (parser, parser->lineno, _("expected %s, got %s"), expected, got);
      return FALSE;
    }
  *out = (int) value;
  return TRUE;
}

static int
parse_code (Parser      *parser,
            const char **p,
            const char  *end)
{
  const char *s0 = odori_skip_blanks (*p, end);
  const char *s = s0;
  int code = -1;

  if (match_keyword (&s, end, "code") != KEYWORD_COLON)
    {
      g_autofree char *got = odori_excerpt (s0, end - s0);

      def_problem (parser, parser->lineno, _("expected \"code: ID\" after the name, got \"%s\""),
                   got);
      return -1;
    }
  if (!parse_int_token (parser, &s, end, 0, G_MAXINT,
                        _("an integer code from 0 to 2147483647"), &code))
    return -1;
  *p = s;
  return code;
}

static void
section_clear (Parser *parser)
{
  parser->in_section = FALSE;
  parser->section_ignored = FALSE;
  g_clear_pointer (&parser->section.keys, g_array_unref);
}

/* Ends the current section: checks its keypoint rules and adds it to the definition. */
static void
finish_section (Parser *parser)
{
  OdoriBulgeSection *section = &parser->section;
  const OdoriBulgeKey *keys;
  guint n;

  if (!parser->in_section)
    return;
  if (parser->section_ignored)
    {
      section_clear (parser);
      return;
    }

  keys = (const OdoriBulgeKey *) section->keys->data;
  n = section->keys->len;
  if (n < 2)
    def_problem (parser, parser->section_line,
                 g_dngettext (GETTEXT_PACKAGE,
                              "the section at angle %d has %u keypoint; it needs at least two, "
                              "at U = 0 and at U = 1",
                              "the section at angle %d has %u keypoints; it needs at least two, "
                              "at U = 0 and at U = 1", n),
                 section->angle, n);
  else
    {
      if (keys[0].u != 0.f)
        def_problem (parser, parser->first_key_line,
                     _("the section at angle %d must start with a keypoint at U = 0, got U = %g"),
                     section->angle, keys[0].u);
      if (keys[n - 1].u != 1.f)
        def_problem (parser, parser->last_key_line,
                     _("the section at angle %d must end with a keypoint at U = 1, got U = %g"),
                     section->angle, keys[n - 1].u);
    }

  g_array_append_val (parser->def->sections, *section);
  g_array_append_val (parser->section_lines, parser->section_line);
  section->keys = NULL;  /* now owned by the definition */
  section_clear (parser);
}

static int
compare_sections (gconstpointer a,
                  gconstpointer b)
{
  const OdoriBulgeSection *sa = a, *sb = b;

  return (sa->angle > sb->angle) - (sa->angle < sb->angle);
}

/* Ends the current definition: keeps it if it broke no rule. */
static void
finish_def (Parser *parser)
{
  finish_section (parser);
  if (!parser->in_def)
    return;

  if (parser->def->sections->len == 0)
    def_problem (parser, parser->def->line,
                 _("no section: expected \"angle: A\" lines, each followed by keypoints "
                   "\"U V W\""));

  if (parser->def_bad)
    bulge_free (parser->def);
  else
    {
      BulgeSetPrivate *priv = (BulgeSetPrivate *) parser->set;

      g_array_sort (parser->def->sections, compare_sections);
      /* The comments before its bulge: line are its; those inside it wait for the next. */
      for (guint i = 0; i < parser->def_comments; i++)
        {
          Comment *comment = g_new0 (Comment, 1);

          comment->text = g_steal_pointer (&parser->pending_comments->pdata[i]);
          comment->before = parser->def;
          g_ptr_array_add (priv->comments, comment);
        }
      g_ptr_array_remove_range (parser->pending_comments, 0, parser->def_comments);
      g_ptr_array_add (parser->set->bulges, parser->def);
    }
  parser->def = NULL;
  parser->in_def = FALSE;
  g_clear_pointer (&parser->label, g_free);
  g_array_set_size (parser->section_lines, 0);
}

static void
start_def (Parser     *parser,
           KeywordMatch match,
           const char *p,
           const char *end)
{
  g_autofree char *name = NULL;
  int code = -1;

  finish_def (parser);
  parser->in_def = TRUE;
  parser->def_comments = parser->pending_comments->len;
  parser->def_bad = FALSE;
  parser->orphan_logged = FALSE;
  parser->outside_logged = FALSE;
  parser->label = g_strdup_printf (_("the bulge definition at line %u"), parser->lineno);
  parser->def = bulge_new (NULL, -1, parser->lineno);

  if (match != KEYWORD_COLON)
    {
      def_problem (parser, parser->lineno, _("expected \"bulge: \\\"NAME\\\" code: ID\""));
      return;
    }
  name = parse_name (parser, &p, end);
  if (name == NULL)
    return;
  check_name (parser, name);
  g_free (parser->label);
  parser->label = g_strdup_printf (_("bulge \"%s\""), name);
  code = parse_code (parser, &p, end);
  if (code < 0)
    return;
  p = odori_skip_blanks (p, end);
  if (p < end)
    {
      g_autofree char *got = odori_excerpt (p, end - p);

      def_problem (parser, parser->lineno, _("unexpected text after the code: \"%s\""), got);
    }
  parser->def->name = g_steal_pointer (&name);
  parser->def->code = code;
}

/* A line outside any definition: logged once per run of such lines. */
static void
stray_line (Parser     *parser,
            const char *p,
            const char *end)
{
  g_autofree char *got = NULL;

  if (parser->outside_logged)
    return;
  parser->outside_logged = TRUE;
  got = odori_excerpt (p, end - p);
  parser_log (parser, parser->lineno, FALSE,
              _("expected \"bulge: \\\"NAME\\\" code: ID\", got \"%s\"; ignored up to the next "
                "bulge definition"), got);
}

static void
start_section (Parser      *parser,
               KeywordMatch match,
               const char  *line,
               const char  *p,
               const char  *end)
{
  int angle = -1;

  if (!parser->in_def)
    {
      stray_line (parser, line, end);
      return;
    }
  finish_section (parser);
  parser->in_section = TRUE;
  parser->section_line = parser->lineno;
  parser->first_key_line = parser->last_key_line = parser->lineno;
  parser->section.angle = -1;
  parser->section.keys = g_array_new (FALSE, FALSE, sizeof (OdoriBulgeKey));

  if (match != KEYWORD_COLON)
    {
      def_problem (parser, parser->lineno, _("expected \"angle: A\" with A from 0 to 360"));
      return;
    }
  if (!parse_int_token (parser, &p, end, 0, 360, _("an integer angle from 0 to 360"), &angle))
    return;
  parser->section.angle = angle;
  p = odori_skip_blanks (p, end);
  if (p < end)
    {
      g_autofree char *got = odori_excerpt (p, end - p);

      def_problem (parser, parser->lineno, _("unexpected text after the angle: \"%s\""), got);
    }

  for (guint i = 0; i < parser->def->sections->len; i++)
    if (g_array_index (parser->def->sections, OdoriBulgeSection, i).angle == angle)
      {
        parser_log (parser, parser->lineno, FALSE,
                    _("%s: a second section at angle %d is ignored (the first is at line %u)"),
                    parser->label, angle, g_array_index (parser->section_lines, guint, i));
        parser->section_ignored = TRUE;
        return;
      }
}

static const char * const key_names[3] = { "U", "V", "W" };

/* Reads the three numbers of a keypoint line into X (and their text, for messages). */
static gboolean
read_triplet (Parser     *parser,
              const char *line,
              const char *end,
              char       *text[3],
              double      x[3])
{
  const char *p = line;
  const char *tok[3];
  gsize len[3];
  guint n;

  for (n = 0; n < 4; n++)
    {
      const char *t;
      gsize l = odori_next_token (&p, end, &t);

      if (l == 0)
        break;
      if (n < 3)
        tok[n] = t, len[n] = l;
    }
  if (n != 3)
    {
      g_autofree char *got = odori_excerpt (line, end - line);

      def_problem (parser, parser->lineno, _("expected three numbers \"U V W\", got \"%s\""), got);
      return FALSE;
    }
  for (guint i = 0; i < 3; i++)
    {
      text[i] = odori_excerpt (tok[i], len[i]);
      if (token_to_double (tok[i], len[i], &x[i]))
        continue;
      if (odori_looks_non_finite (tok[i], tok[i] + len[i]))
        def_problem (parser, parser->lineno, _("%s must be a finite number, got \"%s\""),
                     key_names[i], text[i]);
      else
        def_problem (parser, parser->lineno, _("expected a number for %s, got \"%s\""),
                     key_names[i], text[i]);
      return FALSE;
    }
  return TRUE;
}

static void
parse_keypoint (Parser     *parser,
                const char *line,
                const char *end)
{
  char *text[3] = { NULL, NULL, NULL };
  double x[3];
  GArray *keys;
  OdoriBulgeKey key;

  if (!parser->in_def)
    {
      stray_line (parser, line, end);
      return;
    }
  if (!parser->in_section)
    {
      if (!parser->orphan_logged)
        {
          g_autofree char *got = odori_excerpt (line, end - line);

          def_problem (parser, parser->lineno,
                       _("expected \"angle: A\" before the keypoints, got \"%s\""), got);
        }
      parser->orphan_logged = TRUE;
      return;
    }
  if (parser->section_ignored || !read_triplet (parser, line, end, text, x))
    goto out;

  for (guint i = 0; i < 2; i++)
    if (!(x[i] >= 0 && x[i] <= 1))
      def_problem (parser, parser->lineno, _("%s must be between 0 and 1, got %s"), key_names[i],
                   text[i]);
  if (!(x[2] >= -0.5 && x[2] <= 0.5))
    def_problem (parser, parser->lineno, _("W must be between -0.5 and 0.5, got %s"), text[2]);

  key = (OdoriBulgeKey) { (float) x[0], (float) x[1], (float) x[2] };
  keys = parser->section.keys;
  if (keys->len > 0)
    {
      const OdoriBulgeKey *prev = &g_array_index (keys, OdoriBulgeKey, keys->len - 1);

      if (!(key.u > prev->u))
        def_problem (parser, parser->lineno,
                     _("U must be greater than the previous keypoint's (%g), got %s"), prev->u,
                     text[0]);
      if (!(key.v > prev->v))
        def_problem (parser, parser->lineno,
                     _("V must be greater than the previous keypoint's (%g), got %s"), prev->v,
                     text[1]);
    }
  else
    parser->first_key_line = parser->lineno;
  parser->last_key_line = parser->lineno;
  g_array_append_val (keys, key);

out:
  for (guint i = 0; i < 3; i++)
    g_free (text[i]);
}

static void
parse_line (Parser     *parser,
            const char *line,
            gsize       len)
{
  const char *end = odori_trim_blanks (line, line + len);
  const char *p = odori_skip_blanks (line, end);
  const char *start = p;
  KeywordMatch match;

  if (p >= end)
    {
      parser->outside_logged = FALSE;
      return;
    }
  if (*p == '#')
    {
      g_ptr_array_add (parser->pending_comments, g_strndup (p, end - p));
      return;
    }
  if ((match = match_keyword (&p, end, "bulge")) != KEYWORD_NONE)
    start_def (parser, match, p, end);
  else if ((match = match_keyword (&p, end, "angle")) != KEYWORD_NONE)
    start_section (parser, match, start, p, end);
  else
    parse_keypoint (parser, start, end);
}

/* The first complete definition with a code keeps it; later ones get new codes, one
 * above the highest code in the file, then the next (the lowest code the file does not
 * use, should the highest be G_MAXINT). */
static void
reassign_codes (Parser *parser)
{
  GPtrArray *bulges = parser->set->bulges;
  g_autoptr(GHashTable) owners = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) used = g_hash_table_new (g_direct_hash, g_direct_equal);
  int max_code = -1;

  for (guint i = 0; i < bulges->len; i++)
    {
      int code = ((OdoriBulge *) g_ptr_array_index (bulges, i))->code;

      max_code = MAX (max_code, code);
      g_hash_table_add (used, GINT_TO_POINTER (code));
    }
  for (guint i = 0; i < bulges->len; i++)
    {
      OdoriBulge *bulge = g_ptr_array_index (bulges, i);
      const OdoriBulge *owner = g_hash_table_lookup (owners, GINT_TO_POINTER (bulge->code));
      int old = bulge->code;

      if (owner != NULL)
        {
          if (max_code < G_MAXINT)
            bulge->code = ++max_code;
          else
            for (bulge->code = 0; g_hash_table_contains (used, GINT_TO_POINTER (bulge->code));
                 bulge->code++)
              ;
          g_hash_table_add (used, GINT_TO_POINTER (bulge->code));
          parser_log (parser, bulge->line, FALSE,
                      _("bulge \"%s\": code %d is already used by \"%s\" (line %u); given the "
                        "new code %d"), bulge->name, old, owner->name, owner->line, bulge->code);
        }
      g_hash_table_insert (owners, GINT_TO_POINTER (bulge->code), bulge);
    }
}

static const OdoriDiagnostic *
first_error (GPtrArray *log)
{
  for (guint i = 0; i < log->len; i++)
    {
      const OdoriDiagnostic *diag = g_ptr_array_index (log, i);

      if (diag->is_error)
        return diag;
    }
  return NULL;
}

/**
 * odori_bulge_set_load_text:
 * @file: a decoded text file
 * @error: return location for an error in %ODORI_BULGE_ERROR
 *
 * Reads every definition of a bulge_types file. Definitions that break a rule are left
 * out and logged (set->log) with their lines; reused codes are reassigned and logged.
 *
 * Returns: (transfer full) (nullable): the set, or %NULL if no definition is complete
 */
OdoriBulgeSet *
odori_bulge_set_load_text (OdoriTextFile  *file,
                           GError        **error)
{
  g_autoptr(OdoriBulgeSet) set = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  BulgeSetPrivate *priv;
  OdoriLineReader reader;
  Parser parser = { 0 };

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  set = odori_bulge_set_new ();
  priv = (BulgeSetPrivate *) set;
  priv->encoding = odori_text_file_get_encoding (file);
  pending = g_ptr_array_new_with_free_func (g_free);
  parser.set = set;
  parser.path = odori_text_file_get_path (file);
  parser.pending_comments = pending;
  parser.section_lines = g_array_new (FALSE, FALSE, sizeof (guint));

  odori_line_reader_init (&reader, file);
  while (odori_line_reader_next (&reader))
    {
      parser.lineno = reader.lineno;
      if (reader.len > MAX_LINE)
        {
          /* Skipped and logged; the definition it is in is left out. */
          if (parser.in_def)
            def_problem (&parser, reader.lineno, _("the line is %zu bytes "
                                                   "long, more than %d"), reader.len, MAX_LINE);
          else
            parser_log (&parser, reader.lineno, TRUE, _("a line of %zu bytes "
                                                        "skipped, more than %d"), reader.len,
                        MAX_LINE);
          continue;
        }
      parse_line (&parser, reader.line, reader.len);
    }
  finish_def (&parser);
  g_array_unref (parser.section_lines);

  for (guint i = 0; i < pending->len; i++)
    {
      Comment *comment = g_new0 (Comment, 1);

      comment->text = g_steal_pointer (&pending->pdata[i]);
      g_ptr_array_add (priv->comments, comment);
    }

  reassign_codes (&parser);

  if (set->bulges->len == 0)
    {
      const OdoriDiagnostic *diag = first_error (set->log);

      if (diag != NULL)
        g_set_error (error, ODORI_BULGE_ERROR, ODORI_BULGE_ERROR_EMPTY,
                     _("%s:%u: no complete bulge definition; the first problem: %s"),
                     parser.path, diag->line, diag->message);
      else
        g_set_error (error, ODORI_BULGE_ERROR, ODORI_BULGE_ERROR_EMPTY,
                     _("%s:1: no bulge definition: expected \"bulge: \\\"NAME\\\" code: ID\" "
                       "followed by \"angle: A\" sections of keypoints \"U V W\""), parser.path);
      return NULL;
    }
  return g_steal_pointer (&set);
}

/**
 * odori_bulge_set_load:
 * @path: a bulge_types file
 * @error: return location for an error in %ODORI_BULGE_ERROR or %ODORI_TEXT_ERROR
 *
 * Returns: (transfer full) (nullable): the set, or %NULL on error
 */
OdoriBulgeSet *
odori_bulge_set_load (const char  *path,
                      GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  return odori_bulge_set_load_text (file, error);
}

/* Writer */

/* 6 decimals as in the seed, or more when the float needs them to read back equal. */
static void
append_number (GString *s,
               float    x)
{
  char buf[48];

  if (!isfinite (x))
    x = 0;
  for (guint decimals = 6; decimals <= 9; decimals++)
    {
      gsize n = odori_format_fixed (buf, x, decimals);
      const char *q = buf;
      double back;

      if (odori_parse_double (&q, buf + n, &back) && (float) back == x)
        {
          g_string_append_len (s, buf, n);
          return;
        }
    }
  {
    g_autofree char *text = odori_format_double (x);

    g_string_append (s, text);
  }
}

/* A name as the reader reads it back: no double quotes, no line breaks. */
static void
append_name (GString    *s,
             const char *name)
{
  gsize start;

  g_string_append_c (s, '"');
  start = s->len;
  g_string_append (s, name != NULL ? name : "");
  for (gsize i = start; i < s->len; i++)
    if (s->str[i] == '"')
      s->str[i] = '\'';
    else if (s->str[i] == '\n' || s->str[i] == '\r')
      s->str[i] = ' ';
  g_string_append_c (s, '"');
}

static void
write_bulge (GString          *s,
             const OdoriBulge *bulge)
{
  g_string_append (s, "bulge: ");
  append_name (s, bulge->name);
  g_string_append_printf (s, " code: %d\n", bulge->code);
  for (guint i = 0; bulge->sections != NULL && i < bulge->sections->len; i++)
    {
      const OdoriBulgeSection *section = &g_array_index (bulge->sections, OdoriBulgeSection, i);

      if (i > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, "    angle: %d\n", section->angle);
      for (guint k = 0; section->keys != NULL && k < section->keys->len; k++)
        {
          const OdoriBulgeKey *key = &g_array_index (section->keys, OdoriBulgeKey, k);

          g_string_append (s, "        ");
          append_number (s, key->u);
          g_string_append_c (s, ' ');
          append_number (s, key->v);
          g_string_append_c (s, ' ');
          append_number (s, key->w);
          g_string_append_c (s, '\n');
        }
    }
}

typedef struct
{
  guint target;   /* the index of the definition it goes before, n for the end */
  guint order;    /* its place among the comments */
} CommentSlot;

static int
compare_slots (gconstpointer a,
               gconstpointer b)
{
  const CommentSlot *sa = a, *sb = b;

  if (sa->target != sb->target)
    return sa->target < sb->target ? -1 : 1;
  return (sa->order > sb->order) - (sa->order < sb->order);
}

static void
write_set (OdoriBulgeSet *set,
           OdoriOutput   *out)
{
  BulgeSetPrivate *priv = (BulgeSetPrivate *) set;
  guint n = set->bulges->len;
  guint n_comments = priv->comments->len;
  g_autoptr(GHashTable) index_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autofree CommentSlot *slots = g_new (CommentSlot, MAX (n_comments, 1));
  g_autoptr(GString) s = g_string_new (NULL);
  guint c = 0;

  /* Comments go before the definition they preceded, or at the end if it is gone. */
  for (guint i = 0; i < n; i++)
    g_hash_table_insert (index_of, g_ptr_array_index (set->bulges, i), GUINT_TO_POINTER (i + 1));
  for (guint k = 0; k < n_comments; k++)
    {
      const Comment *comment = g_ptr_array_index (priv->comments, k);
      guint i = GPOINTER_TO_UINT (g_hash_table_lookup (index_of, comment->before));

      slots[k] = (CommentSlot) { i > 0 ? i - 1 : n, k };
    }
  qsort (slots, n_comments, sizeof *slots, compare_slots);

  for (guint i = 0; i <= n; i++)
    {
      for (; c < n_comments && slots[c].target == i; c++)
        {
          gsize start = s->len;

          g_string_append (s, ((const Comment *) g_ptr_array_index (priv->comments,
                                                                    slots[c].order))->text);
          /* A stray CR kept in a comment would make a file whose first line end is a
           * lone CR, read back as one long line: written as a blank, as the index and
           * score writers do. */
          for (gsize k = start; k < s->len; k++)
            if (s->str[k] == '\r' || s->str[k] == '\n')
              s->str[k] = ' ';
          g_string_append_c (s, '\n');
        }
      if (i < n)
        {
          write_bulge (s, g_ptr_array_index (set->bulges, i));
          if (i + 1 < n)
            g_string_append_c (s, '\n');
        }
      odori_output_text (out, s->str);
      g_string_truncate (s, 0);
    }
}

/**
 * odori_bulge_set_save:
 * @set: a bulge set
 * @path: the file to write (atomically)
 * @error: return location for an error in %ODORI_TEXT_ERROR
 *
 * Writes every definition of @set (as they are: a definition that breaks a rule is
 * written too, and left out when read back) in the encoding it was read in (UTF-8 for a
 * new set), with the comments it was read with.
 *
 * Returns: %TRUE on success
 */
gboolean
odori_bulge_set_save (OdoriBulgeSet  *set,
                      const char     *path,
                      GError        **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (set != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = odori_output_new (path, ((BulgeSetPrivate *) set)->encoding, error);
  if (out == NULL)
    return FALSE;
  write_set (set, out);
  return odori_output_commit (out, error);
}
