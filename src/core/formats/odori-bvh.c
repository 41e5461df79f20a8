/* odori-bvh.c: one job, reading Biovision Hierarchy files (FORMATS.md §8; the writer is
 * odori-bvh-writer.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hierarchy is read token by token (any whitespace separates tokens; braces are tokens
 * of their own even when glued to a word) with an explicit stack of open braces, so a
 * hostile nesting depth costs no C stack. The motion block is read line by line: one line
 * is one frame, parsed into one reused array of doubles and converted at once into the
 * global transforms of the motion, which is allocated once.
 *
 * Decisions (Odori):
 * - Keywords and channel names are matched without regard to case.
 * - A joint name is the rest of its ROOT/JOINT line up to a "{" (names with blanks occur).
 * - Several ROOTs are accepted, each the root of its own tree.
 * - Local translation: the OFFSET, with every component that has a position channel
 *   replaced by that channel's value (not OFFSET + channel). Files that animate positions
 *   usually write the full local translation there and give the root an OFFSET of 0 (CMU,
 *   the salsa files), where both readings agree; joints without position channels keep
 *   bones of length |OFFSET|.
 * - Local rotation: the product of the rotation channels in the order listed,
 *   R = R_c1 · R_c2 · R_c3 (column vectors), each joint with its own order.
 * - Global: R_g = R_parent · R_local, p_g = p_parent + R_parent · t_local.
 * - Scale is 1,1,1 (units UNKNOWN: a factor, not BVA's PERCENT); position units are
 *   ODORI_UNIT_UNKNOWN (whatever the file uses), rotations DEGREES; segments have no BVA
 *   fields (n_fields = 0). Global rotations are products of unit quaternions, not
 *   renormalized (float rounding only).
 * - Frames: larger than the bytes left can hold (2 bytes a channel value) allocates
 *   nothing; the data lines are still read to report how many there are.
 * - A file that ends inside the hierarchy is TRUNCATED; MOTION while a brace is still open,
 *   or a "}" without its "{", is UNBALANCED.
 * - Blank lines among the frames are skipped.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-bvh.h"
#include "odori-formats-private.h"
#include "odori-reader.h"
#include "odori-text-private.h"

/* Deeper than any skeleton (a hand has 4 levels below a ~10-level spine). */
#define MAX_DEPTH 256
/* Largest global position coordinate, as BVA reads (odori-bva.c): beyond it the data is
 * garbage, and a motion written as BVA would not load again. */
#define MAX_ABS_VALUE 1e15
/* Longest joint name, in bytes (the same limit as BVA segment names). */
#define MAX_NAME 1024
/* Bytes of an offending token quoted in messages. */

G_DEFINE_QUARK (odori-bvh-error-quark, odori_bvh_error)

typedef struct
{
  OdoriSegment seg;          /* seg.name is owned here until copied into the motion */
  guint        line;         /* line of its ROOT/JOINT keyword */
  gboolean     has_offset;
  gboolean     has_channels;
  guint        first_value;  /* index of its first channel value in a frame line */
} BvhJoint;

typedef struct
{
  guint joint;
  guint brace_line;
} BvhOpen;

typedef struct
{
  const char      *path;
  GPtrArray       *warnings;
  OdoriLineStream  reader;
  const char      *p;              /* unread rest of the current line */
  const char      *end;
  guint            lineno;         /* line of the last token read */
  GArray          *joints;         /* BvhJoint, in file order */
  GArray          *open;           /* BvhOpen: the braces not yet closed */
  GHashTable      *names;          /* joint name -> GUINT_TO_POINTER (line) */
  guint            n_values;       /* channel values per frame */
  guint            channels_line;  /* the last CHANNELS keyword, for messages */
  gint64           channels_count;
} BvhParser;


static void
bvh_joint_clear (gpointer data)
{
  BvhJoint *joint = data;

  g_clear_pointer (&joint->seg.name, g_free);
}

static gboolean
token_is (const char *tok,
          gsize       len,
          const char *word)
{
  return strlen (word) == len && g_ascii_strncasecmp (tok, word, len) == 0;
}

/* Tokens */

static gboolean
next_token (BvhParser   *self,
            const char **tok,
            gsize       *len)
{
  const char *start;

  for (;;)
    {
      self->p = odori_skip_blanks (self->p, self->end);
      if (self->p < self->end)
        break;
      if (!odori_line_stream_next (&self->reader))
        {
          *tok = NULL;
          *len = 0;
          return FALSE;
        }
      self->p = self->reader.line;
      self->end = self->reader.line + self->reader.len;
    }

  start = self->p;
  if (*start == '{' || *start == '}')
    self->p++;
  else
    while (self->p < self->end && odori_blank_len (self->p, self->end) == 0 && *self->p != '{' &&
           *self->p != '}')
      self->p++;
  *tok = start;
  *len = self->p - start;
  self->lineno = self->reader.lineno;
  return TRUE;
}

static guint
eof_line (BvhParser *self)
{
  return MAX (self->reader.lineno, 1);
}

/* The next token, or a TRUNCATED error saying what was expected. */
static gboolean
expect_token (BvhParser   *self,
              const char **tok,
              gsize       *len,
              const char  *expected,
              GError     **error)
{
  if (next_token (self, tok, len))
    return TRUE;
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED, self->path,
                          eof_line (self),
                          _("file ends, expected %s"), expected);
}

static gboolean
expect_word (BvhParser   *self,
             const char  *word,
             const char  *context,
             GError     **error)
{
  g_autofree char *shown = NULL;
  const char *tok;
  gsize len;

  if (!expect_token (self, &tok, &len, word, error))
    return FALSE;
  if (token_is (tok, len, word))
    return TRUE;
  shown = odori_excerpt (tok, len);
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, self->lineno,
                          "expected \"%s\" %s, got \"%s\"", word, context, shown);
}

/* Numbers */

/* Error for the text at [tok, end) that should have been a number. */
static gboolean
number_error (BvhParser   *self,
              GError     **error,
              guint        line,
              const char  *tok,
              const char  *end,
              const char  *what)
{
  g_autofree char *shown = NULL;
  const char *t = tok;

  while (t < end && odori_blank_len (t, end) == 0)
    t++;
  shown = odori_excerpt (tok, t - tok);
  /* (odori_parse_double refuses numbers beyond double range, like 1e999: NUMBER) */
  if (odori_looks_non_finite (tok, t))
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_NOT_FINITE, self->path, line,
                            _("expected a finite number for %s, got \"%s\""), what, shown);
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_NUMBER, self->path, line,
                          _("expected a number for %s, got \"%s\""), what, shown);
}

/* A number that fills the whole token. */
static gboolean
token_to_double (BvhParser   *self,
                 const char  *tok,
                 gsize        len,
                 const char  *what,
                 double      *out,
                 GError     **error)
{
  const char *p = tok;
  const char *end = tok + len;

  if (!odori_parse_double (&p, end, out) || p != end || !isfinite (*out))
    return number_error (self, error, self->lineno, tok, end, what);
  return TRUE;
}

static gboolean
token_to_int (BvhParser   *self,
              const char  *tok,
              gsize        len,
              const char  *what,
              gint64      *out,
              GError     **error)
{
  const char *p = tok;
  const char *end = tok + len;

  if (!odori_parse_int (&p, end, out) || p != end)
    return number_error (self, error, self->lineno, tok, end, what);
  return TRUE;
}

static gboolean
read_vec3 (BvhParser   *self,
           const char  *what,
           float        v[3],
           GError     **error)
{
  for (guint i = 0; i < 3; i++)
    {
      const char *tok;
      gsize len;
      double d;

      if (!expect_token (self, &tok, &len, _("a number"), error) ||
          !token_to_double (self, tok, len, what, &d, error))
        return FALSE;
      v[i] = (float) d;
    }
  return TRUE;
}

/* Hierarchy */

static BvhJoint *
joint_at (BvhParser *self,
          guint      index)
{
  return &g_array_index (self->joints, BvhJoint, index);
}

static BvhOpen *
top_open (BvhParser *self)
{
  g_assert (self->open->len > 0);
  return &g_array_index (self->open, BvhOpen, self->open->len - 1);
}

/* The joint whose block we are in, or an error if KEYWORD appears outside any. */
static BvhJoint *
current_joint (BvhParser   *self,
               const char  *keyword,
               GError     **error)
{
  if (self->open->len == 0)
    {
      odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, self->lineno,
                       _("%s outside of a ROOT or JOINT block"), keyword);
      return NULL;
    }
  return joint_at (self, top_open (self)->joint);
}

/* The rest of the current line up to a "{", without surrounding blanks, or NULL when
 * empty or longer than MAX_NAME; *LEN is its length. */
static char *
take_joint_name (BvhParser *self,
                 gsize     *len)
{
  const char *start = self->p;
  const char *stop = start;
  const char *end;

  while (stop < self->end && *stop != '{')
    stop++;
  self->p = stop;
  start = odori_skip_blanks (start, stop);
  end = odori_trim_blanks (start, stop);
  *len = end - start;
  return end > start && *len <= MAX_NAME ? g_strndup (start, end - start) : NULL;
}

static gboolean
check_new_name (BvhParser   *self,
                const char  *name,
                GError     **error)
{
  gpointer first;

  if (!g_hash_table_lookup_extended (self->names, name, NULL, &first))
    return TRUE;
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_DUPLICATE, self->path,
                          self->lineno,
                          _("joint \"%s\" is defined twice (first at line %u)"),
                          name, GPOINTER_TO_UINT (first));
}

static gboolean
expect_open_brace (BvhParser   *self,
                   const char  *context,
                   GError     **error)
{
  g_autofree char *shown = NULL;
  const char *tok;
  gsize len;

  if (!expect_token (self, &tok, &len, "{", error))
    return FALSE;
  if (len == 1 && *tok == '{')
    return TRUE;
  shown = odori_excerpt (tok, len);
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, self->lineno,
                          "expected \"{\" after %s, got \"%s\"", context, shown);
}

static gboolean
parse_joint (BvhParser   *self,
             gboolean     is_root,
             GError     **error)
{
  const char *keyword = is_root ? "ROOT" : "JOINT";
  guint line = self->lineno;
  g_autofree char *name = NULL;
  g_autofree char *context = NULL;
  BvhJoint joint = { 0 };
  BvhOpen open;
  gsize name_len;

  if (is_root && self->open->len > 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, line,
                            _("ROOT inside the block of joint \"%s\" (opened at line %u)"),
                            joint_at (self, top_open (self)->joint)->seg.name,
                            top_open (self)->brace_line);
  if (!is_root && self->open->len == 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, line,
                            _("JOINT outside of a ROOT block"));
  name = take_joint_name (self, &name_len);
  if (name_len > MAX_NAME)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, line,
                            _("the name after %s is %zu bytes long, more than %d"),
                            keyword, name_len, MAX_NAME);
  if (name == NULL)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, line,
                            _("expected a joint name after %s"), keyword);
  if (!check_new_name (self, name, error))
    return FALSE;
  if (self->open->len >= MAX_DEPTH)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TOO_DEEP, self->path, line,
                            _("joint \"%s\" is nested deeper than %d levels"), name, MAX_DEPTH);
  context = g_strdup_printf ("%s \"%s\"", keyword, name);
  if (!expect_open_brace (self, context, error))
    return FALSE;

  joint.seg.parent = is_root ? -1 : (int) top_open (self)->joint;
  joint.line = line;
  joint.seg.name = g_steal_pointer (&name);
  g_hash_table_insert (self->names, joint.seg.name, GUINT_TO_POINTER (line));
  g_array_append_val (self->joints, joint);

  open.joint = self->joints->len - 1;
  open.brace_line = self->lineno;
  g_array_append_val (self->open, open);
  return TRUE;
}

static gboolean
parse_offset (BvhParser   *self,
              GError     **error)
{
  BvhJoint *joint = current_joint (self, "OFFSET", error);

  if (joint == NULL)
    return FALSE;
  if (joint->has_offset)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                            self->lineno,
                            _("second OFFSET in joint \"%s\""), joint->seg.name);
  joint->has_offset = TRUE;
  return read_vec3 (self, "OFFSET", joint->seg.offset, error);
}

static gboolean
channel_from_token (const char   *tok,
                    gsize         len,
                    OdoriChannel *channel)
{
  static const char *names[] = {
    [ODORI_CHANNEL_XPOSITION] = "Xposition",
    [ODORI_CHANNEL_YPOSITION] = "Yposition",
    [ODORI_CHANNEL_ZPOSITION] = "Zposition",
    [ODORI_CHANNEL_XROTATION] = "Xrotation",
    [ODORI_CHANNEL_YROTATION] = "Yrotation",
    [ODORI_CHANNEL_ZROTATION] = "Zrotation",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (token_is (tok, len, names[i]))
      {
        *channel = i;
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_structure_token (const char *tok,
                    gsize       len)
{
  static const char *words[] = { "{", "}", "ROOT", "JOINT", "End", "OFFSET", "CHANNELS",
                                 "MOTION" };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (token_is (tok, len, words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
parse_channel_name (BvhParser     *self,
                    guint          index,
                    OdoriChannel  *channel,
                    GError       **error)
{
  g_autofree char *shown = NULL;
  const char *tok;
  gsize len;

  if (!expect_token (self, &tok, &len, _("a channel name"), error))
    return FALSE;
  if (channel_from_token (tok, len, channel))
    return TRUE;
  shown = odori_excerpt (tok, len);
  if (is_structure_token (tok, len))
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                            self->lineno,
                            _("CHANNELS %" PRId64 " at line %u lists only %u names, then "
                              "\"%s\""), self->channels_count, self->channels_line, index, shown);
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, self->lineno,
                          _("unknown channel \"%s\" (expected Xposition, Yposition, Zposition, "
                            "Xrotation, Yrotation or Zrotation)"), shown);
}

static gboolean
parse_channels (BvhParser   *self,
                GError     **error)
{
  BvhJoint *joint = current_joint (self, "CHANNELS", error);
  const char *tok;
  gsize len;
  gint64 count;

  if (joint == NULL)
    return FALSE;
  if (joint->has_channels)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                            self->lineno,
                            _("second CHANNELS in joint \"%s\""), joint->seg.name);
  joint->has_channels = TRUE;
  self->channels_line = self->lineno;
  if (!expect_token (self, &tok, &len, _("a channel count"), error) ||
      !token_to_int (self, tok, len, _("the channel count"), &count, error))
    return FALSE;
  if (count < 0 || count > 6)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                            self->lineno,
                            "CHANNELS %" G_GINT64_FORMAT ": expected 0 to 6 channels", count);
  self->channels_count = count;

  joint->first_value = self->n_values;
  joint->seg.n_channels = count;
  for (guint i = 0; i < count; i++)
    if (!parse_channel_name (self, i, &joint->seg.channels[i], error))
      return FALSE;
  self->n_values += count;
  return TRUE;
}

static gboolean
parse_end_site (BvhParser   *self,
                GError     **error)
{
  g_autofree char *shown = NULL;
  BvhJoint *joint = current_joint (self, "End Site", error);
  guint line = self->lineno;
  float offset[3];
  const char *tok;
  gsize len;

  if (joint == NULL ||
      !expect_word (self, "Site", _("after End"), error) ||
      !expect_open_brace (self, "End Site", error) ||
      !expect_word (self, "OFFSET", _("in End Site"), error) ||
      !read_vec3 (self, "End Site OFFSET", offset, error) ||
      !expect_token (self, &tok, &len, "}", error))
    return FALSE;
  if (len != 1 || *tok != '}')
    {
      shown = odori_excerpt (tok, len);
      return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                              self->lineno,
                              _("expected \"}\" closing the End Site of line %u, got \"%s\""),
                              line, shown);
    }
  if (joint->seg.has_end_site)
    {
      odori_add_warning (self->warnings, self->path, line,
                         _("second End Site of joint \"%s\" ignored"), joint->seg.name);
      return TRUE;
    }
  joint->seg.has_end_site = TRUE;
  memcpy (joint->seg.end_site, offset, sizeof offset);
  return TRUE;
}

static gboolean
close_brace (BvhParser   *self,
             GError     **error)
{
  BvhJoint *joint;

  if (self->open->len == 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_UNBALANCED, self->path,
                            self->lineno,
                            _("\"}\" without a matching \"{\""));
  joint = joint_at (self, top_open (self)->joint);
  if (!joint->has_offset)
    odori_add_warning (self->warnings, self->path, joint->line,
                       _("joint \"%s\" has no OFFSET; using 0 0 0"), joint->seg.name);
  g_array_set_size (self->open, self->open->len - 1);
  return TRUE;
}

static gboolean
hierarchy_at_eof (BvhParser   *self,
                  GError     **error)
{
  if (self->open->len > 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED, self->path,
                            eof_line (self),
                            _("file ends inside joint \"%s\" (\"{\" at line %u), expected MOTION"),
                            joint_at (self, top_open (self)->joint)->seg.name,
                            top_open (self)->brace_line);
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED, self->path,
                          eof_line (self),
                          _("file ends before MOTION"));
}

static gboolean
hierarchy_at_motion (BvhParser   *self,
                     GError     **error)
{
  if (self->open->len > 0)
    {
      BvhOpen *open = top_open (self);

      /* Named by the brace that is left open: that is where the fix goes. */
      return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_UNBALANCED, self->path,
                              open->brace_line,
                              _("\"{\" of joint \"%s\" is not closed before MOTION at line %u"),
                              joint_at (self, open->joint)->seg.name, self->lineno);
    }
  if (self->joints->len == 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                            self->lineno,
                            _("expected a ROOT before MOTION"));
  return TRUE;
}

static gboolean
parse_hierarchy_token (BvhParser   *self,
                       const char  *tok,
                       gsize        len,
                       GError     **error)
{
  g_autofree char *shown = NULL;
  OdoriChannel channel;

  if (token_is (tok, len, "ROOT") || token_is (tok, len, "JOINT"))
    return parse_joint (self, token_is (tok, len, "ROOT"), error);
  if (token_is (tok, len, "OFFSET"))
    return parse_offset (self, error);
  if (token_is (tok, len, "CHANNELS"))
    return parse_channels (self, error);
  if (token_is (tok, len, "End"))
    return parse_end_site (self, error);
  if (token_is (tok, len, "}"))
    return close_brace (self, error);

  shown = odori_excerpt (tok, len);
  if (channel_from_token (tok, len, &channel) && self->channels_line != 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                            self->lineno,
                            _("CHANNELS %" PRId64 " at line %u lists more names: \"%s\""),
                            self->channels_count, self->channels_line, shown);
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path, self->lineno,
                          _("expected ROOT, JOINT, OFFSET, CHANNELS, End Site, \"}\" or MOTION, "
                            "got \"%s\""), shown);
}

static gboolean
parse_hierarchy (BvhParser   *self,
                 GError     **error)
{
  g_autofree char *shown = NULL;
  const char *tok;
  gsize len;

  if (!next_token (self, &tok, &len))
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED, self->path,
                            eof_line (self),
                            _("file is empty, expected HIERARCHY"));
  if (!token_is (tok, len, "HIERARCHY"))
    {
      shown = odori_excerpt (tok, len);
      return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                              self->lineno,
                              _("expected HIERARCHY, got \"%s\""), shown);
    }
  for (;;)
    {
      if (!next_token (self, &tok, &len))
        return hierarchy_at_eof (self, error);
      if (token_is (tok, len, "MOTION"))
        return hierarchy_at_motion (self, error);
      if (!parse_hierarchy_token (self, tok, len, error))
        return FALSE;
    }
}

/* Motion header */

/* "LABEL value" or "LABELvalue" (e.g. "Frames:" "994" or "Frames:994"). */
static gboolean
parse_label_value (BvhParser   *self,
                   const char  *label,
                   const char **value,
                   gsize       *value_len,
                   GError     **error)
{
  g_autofree char *shown = NULL;
  gsize label_len = strlen (label);
  const char *tok;
  gsize len;

  if (!expect_token (self, &tok, &len, label, error))
    return FALSE;
  if (len < label_len || g_ascii_strncasecmp (tok, label, label_len) != 0)
    {
      shown = odori_excerpt (tok, len);
      return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                              self->lineno,
                              _("expected \"%s\" after MOTION, got \"%s\""), label, shown);
    }
  if (len > label_len)
    {
      *value = tok + label_len;
      *value_len = len - label_len;
      return TRUE;
    }
  return expect_token (self, value, value_len, _("a number"), error);
}

static gboolean
parse_motion_header (BvhParser   *self,
                     guint64     *n_frames,
                     double      *frame_time,
                     GError     **error)
{
  g_autofree char *shown = NULL;
  const char *tok;
  gsize len;
  gint64 frames;

  if (!parse_label_value (self, "Frames:", &tok, &len, error) ||
      !token_to_int (self, tok, len, "Frames:", &frames, error))
    return FALSE;
  if (frames < 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_NUMBER, self->path,
                            self->lineno,
                            _("expected a frame count of 0 or more, got %" PRId64), frames);
  *n_frames = frames;

  if (!expect_word (self, "Frame", _("after the frame count"), error) ||
      !parse_label_value (self, "Time:", &tok, &len, error) ||
      !token_to_double (self, tok, len, "Frame Time:", frame_time, error))
    return FALSE;
  if (*frame_time <= 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_NUMBER, self->path,
                            self->lineno,
                            _("expected a positive frame time, got %g"), *frame_time);

  self->p = odori_skip_blanks (self->p, self->end);
  if (self->p < self->end)
    {
      shown = odori_excerpt (self->p, self->end - self->p);
      return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_SYNTAX, self->path,
                              self->lineno,
                              _("unexpected \"%s\" after the frame time"), shown);
    }
  return TRUE;
}

/* Frames */

/* Parses one frame line into VALUES (self->n_values of them). */
static gboolean
parse_frame_line (BvhParser   *self,
                  const char  *line,
                  gsize        len,
                  guint64      frame,
                  double      *values,
                  GError     **error)
{
  const char *p = line;
  const char *end = line + len;
  const char *limit = odori_line_stream_limit (&self->reader);
  guint n = self->n_values;
  guint got;

  /* The whole line at once; anything wrong with it is read again a token at a time
   * below, for the message. */
  if (G_LIKELY (odori_parse_channel_line (&p, end, limit, values, n) == n && p == end))
    {
      guint i = 0;

      while (i < n && isfinite (values[i]))
        i++;
      if (G_LIKELY (i == n))
        return TRUE;
    }
  p = line;
  for (guint i = 0; i < n; i++)
    {
      const char *start;

      p = odori_skip_blanks (p, end);
      if (p == end)
        return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_COUNT, self->path,
                                self->reader.lineno,
                                _("frame %" PRIu64 ": expected %u channel values, got %u"),
                                frame + 1, n, i);
      start = p;
      if (!odori_parse_channel_value (&p, end, limit, &values[i]) ||
          (p < end && odori_blank_len (p, end) == 0) || !isfinite (values[i]))
        return number_error (self, error, self->reader.lineno, start, end, _("a channel value"));
    }

  p = odori_skip_blanks (p, end);
  if (p == end)
    return TRUE;
  for (got = n; p < end; got++)
    {
      while (p < end && odori_blank_len (p, end) == 0)
        p++;
      p = odori_skip_blanks (p, end);
    }
  return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_COUNT, self->path,
                          self->reader.lineno,
                          _("frame %" PRIu64 ": expected %u channel values, got %u"),
                          frame + 1, n, got);
}

/* Q = Q · R, R the rotation by ANGLE_DEG about AXIS (0 x, 1 y, 2 z). R has one non-zero
 * vector component, so the product is eight multiply-adds instead of sixteen (this runs
 * for every rotation channel of every frame: it was a third of a big file's parse). */
static inline void
quat_mul_axis (double q[4],
               guint  axis,
               double angle_deg)
{
  float half = (float) (angle_deg * (G_PI / 360.0));
  double s = sinf (half), c = cosf (half);
  double x = q[0], y = q[1], z = q[2], w = q[3];

  switch (axis)
    {
    case 0: /* (x,y,z,w)·(s,0,0,c) */
      q[0] = w * s + x * c;
      q[1] = y * c + z * s;
      q[2] = z * c - y * s;
      q[3] = w * c - x * s;
      break;
    case 1: /* ·(0,s,0,c) */
      q[0] = x * c - z * s;
      q[1] = w * s + y * c;
      q[2] = z * c + x * s;
      q[3] = w * c - y * s;
      break;
    default: /* ·(0,0,s,c) */
      q[0] = x * c + y * s;
      q[1] = y * c - x * s;
      q[2] = w * s + z * c;
      q[3] = w * c - z * s;
      break;
    }
}

static void
joint_local_transform (const OdoriSegment *seg,
                       const double       *values,
                       versor              q,
                       vec3                t)
{
  double acc[4] = { 0, 0, 0, 1 };

  t[0] = seg->offset[0];
  t[1] = seg->offset[1];
  t[2] = seg->offset[2];
  for (guint c = 0; c < seg->n_channels; c++)
    {
      OdoriChannel channel = seg->channels[c];

      if (channel <= ODORI_CHANNEL_ZPOSITION)
        {
          t[channel - ODORI_CHANNEL_XPOSITION] = (float) values[c];
          continue;
        }
      /* Zero angles are common (CMU: fingers, hip joints) and cost a sincos each. */
      if (values[c] == 0)
        continue;
      quat_mul_axis (acc, channel - ODORI_CHANNEL_XROTATION, values[c]);
    }
  for (guint i = 0; i < 4; i++)
    q[i] = (float) acc[i];
}

/* DEST = V rotated by the unit quaternion Q: v + 2w (u × v) + 2 u × (u × v), u = Q's
 * vector part (glm_quat_rotatev normalizes Q first: a square root and a division per
 * joint and frame, for quaternions that are unit up to float rounding). */
static inline void
rotate_by_unit (const versor q,
                const vec3   v,
                vec3         dest)
{
  float tx = 2 * (q[1] * v[2] - q[2] * v[1]);
  float ty = 2 * (q[2] * v[0] - q[0] * v[2]);
  float tz = 2 * (q[0] * v[1] - q[1] * v[0]);

  dest[0] = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
  dest[1] = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
  dest[2] = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

static void
convert_frame (OdoriMotion    *motion,
               const BvhJoint *joints,
               guint           frame,
               const double   *values)
{
  for (guint s = 0; s < motion->n_segments; s++)
    {
      const OdoriSegment *seg = &joints[s].seg;
      OdoriTransform *xf = odori_motion_get (motion, frame, s);
      versor q;
      vec3 t;

      joint_local_transform (seg, values + joints[s].first_value, q, t);
      if (seg->parent < 0)
        {
          glm_quat_copy (q, xf->rotation);
          glm_vec3_copy (t, xf->position);
        }
      else
        {
          /* Parents precede their children in file order. */
          OdoriTransform *pxf = odori_motion_get (motion, frame, seg->parent);
          vec3 rotated;

          glm_quat_mul (pxf->rotation, q, xf->rotation);
          rotate_by_unit (pxf->rotation, t, rotated);
          glm_vec3_add (pxf->position, rotated, xf->position);
        }
      glm_vec3_one (xf->scale);
    }
}

/* Reads the frame lines; stores them into MOTION if not NULL (it is NULL when Frames:
 * cannot fit in the bytes left: the lines are then only checked, to report the count). */
/* Offsets and position channels add up along the hierarchy: the global positions must
 * stay finite and within MAX_ABS_VALUE. */
static gboolean
check_frame_range (BvhParser    *self,
                   OdoriMotion  *motion,
                   guint64       frame,
                   GError      **error)
{
  for (guint s = 0; s < motion->n_segments; s++)
    {
      const OdoriTransform *xf = odori_motion_get (motion, frame, s);

      for (guint k = 0; k < 3; k++)
        if (G_UNLIKELY (!(fabsf (xf->position[k]) <= MAX_ABS_VALUE)))
          return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_NUMBER, self->path,
                                  self->reader.lineno,
                                  _("frame %" PRIu64 ": joint \"%s\" ends up at %.0f, out of range "
                                    "(offsets and positions add up to more than 1e15)"),
                                  frame + 1, motion->segments[s].name, (double) xf->position[k]);
    }
  return TRUE;
}

static gboolean
parse_frames (BvhParser    *self,
              OdoriMotion  *motion,
              guint64       n_frames,
              GError      **error)
{
  g_autofree double *values = g_new (double, MAX (self->n_values, 1));
  const BvhJoint *joints = (const BvhJoint *) (gpointer) self->joints->data;
  guint64 frame = 0;
  guint extra_line = 0;
  guint64 extra = 0;

  while (odori_line_stream_next (&self->reader))
    {
      const char *line = self->reader.line;
      gsize len = self->reader.len;

      if (odori_skip_blanks (line, line + len) == line + len)
        continue;
      if (frame >= n_frames)
        {
          if (extra++ == 0)
            extra_line = self->reader.lineno;
          continue;
        }
      if (!parse_frame_line (self, line, len, frame, values, error))
        return FALSE;
      if (motion != NULL)
        {
          convert_frame (motion, joints, frame, values);
          if (!check_frame_range (self, motion, frame, error))
            return FALSE;
        }
      frame++;
    }

  if (extra > 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_COUNT, self->path, extra_line,
                            _("Frames: %" PRIu64 ", but %" PRIu64
                              " frame lines follow"), n_frames, n_frames + extra);
  if (frame < n_frames)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_TRUNCATED, self->path,
                            eof_line (self),
                            _("Frames: %" PRIu64 ", but the file ends after %"
                              PRIu64 " frames"), n_frames, frame);
  return TRUE;
}

/* The frame lines on several threads. The lines left are split into parts of whole lines;
 * each part counts its lines first (a memchr a line), which numbers every part's first
 * frame, and then reads them into its frames. It handles valid files only: one frame a
 * line, blank lines at the end at most, as many lines as Frames: says. Anything else (a
 * bad line, a blank line that would shift the numbering, too many or too few lines)
 * makes it give up, and the sequential reader reads the frames again, with the right
 * message and line number. */

typedef struct
{
  BvhParser       parser;     /* a copy with its own reader; joints are shared, read-only */
  OdoriMotion    *motion;
  guint64         n_frames;   /* of the whole motion */
  guint64         first_frame;
  guint64         n_lines;
  gboolean        last;
  gboolean        ok;
  /* where the parts are: share INDEX counts the lines of the parts before it itself
   * (while their shares parse them) to number its first frame */
  OdoriTextFile  *file;
  OdoriLineStream *whole;
  const gsize    *bounds;     /* part k is [bounds[k], bounds[k + 1]) */
  guint           index;
} BvhShare;

static gboolean open_part (OdoriLineStream *reader,
                           OdoriTextFile   *file,
                           OdoriLineStream *whole,
                           gsize            from,
                           gsize            to);

/* The lines of the parts before SHARE's: its first frame. */
static gboolean
count_before (BvhShare *share)
{
  share->first_frame = 0;
  for (guint k = 0; k < share->index; k++)
    {
      OdoriLineStream counter;
      gboolean ok;

      if (!open_part (&counter, share->file, share->whole, share->bounds[k], share->bounds[k + 1]))
        return FALSE;
      share->first_frame += odori_line_stream_count_lines (&counter);
      ok = odori_line_stream_finish (&counter);
      odori_line_stream_clear (&counter);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static gpointer
read_share (gpointer data)
{
  BvhShare *share = data;
  BvhParser *self = &share->parser;
  g_autofree double *values = g_new (double, MAX (self->n_values, 1));
  const BvhJoint *joints = (const BvhJoint *) (gpointer) self->joints->data;
  guint64 frame;
  gboolean blank = FALSE;

  share->ok = FALSE;
  if (!count_before (share))
    return NULL;
  frame = share->first_frame;
  while (odori_line_stream_next (&self->reader))
    {
      const char *line = self->reader.line;
      gsize len = self->reader.len;

      if (odori_skip_blanks (line, line + len) == line + len)
        {
          if (!share->last)
            return NULL;
          blank = TRUE;
          continue;
        }
      if (blank || frame >= share->n_frames ||
          !parse_frame_line (self, line, len, frame, values, NULL))
        return NULL;
      convert_frame (share->motion, joints, frame, values);
      if (!check_frame_range (self, share->motion, frame, NULL))
        return NULL;
      frame++;
    }
  share->n_lines = frame - share->first_frame;
  share->ok = (!share->last || frame == share->n_frames) && odori_line_stream_finish (&self->reader);
  return NULL;
}

/* A stream over the text bytes [FROM, TO) of FILE if not NULL, else of the file WHOLE
 * streams. */
static gboolean
open_part (OdoriLineStream *reader,
           OdoriTextFile   *file,
           OdoriLineStream *whole,
           gsize            from,
           gsize            to)
{
  if (file != NULL)
    {
      odori_line_stream_init_text (reader, file, from, to, 0);
      return TRUE;
    }
  return odori_line_stream_open_range (reader, whole, from, to, 0);
}

/* The frame lines of FILE (in memory) or, when it is NULL, of the file self->reader
 * streams, in N_THREADS parts. */
static gboolean
parse_frames_parallel (BvhParser     *self,
                       OdoriTextFile *file,
                       OdoriMotion   *motion,
                       guint64        n_frames,
                       guint          n_threads)
{
  gboolean ok = TRUE;
  g_autofree BvhShare *shares = g_new0 (BvhShare, n_threads);
  g_autofree gsize *bounds = g_new0 (gsize, n_threads + 1);
  gsize from = odori_line_stream_offset (&self->reader);
  gsize to = from + odori_line_stream_remaining (&self->reader);
  gsize start = from;
  OdoriLineReader lead;
  guint n = 0;

  if (file != NULL)
    odori_line_reader_init_range (&lead, file, from, to, 0);
  for (guint t = 0; t < n_threads && start < to; t++)
    {
      /* the first parts a little longer: the later shares count the lines before theirs */
      gsize at = from + (to - from) / n_threads * (t + 1) + (to - from) / (8 * n_threads);
      gsize until = t + 1 == n_threads ? to
                    : file != NULL ? odori_line_reader_line_start (&lead, at)
                                   : odori_line_stream_line_start (&self->reader, at);

      if (until <= start)
        continue;
      shares[n].parser = *self;
      shares[n].motion = motion;
      shares[n].n_frames = n_frames;
      if (!open_part (&shares[n].parser.reader, file, &self->reader, start, until))
        break;
      bounds[n] = start;
      bounds[n + 1] = until;
      n++;
      start = until;
    }
  if (n < 2 || start < to)
    ok = FALSE;
  if (ok)
    {
      shares[n - 1].last = TRUE;
      for (guint t = 0; t < n; t++)
        {
          shares[t].file = file;
          shares[t].whole = &self->reader;
          shares[t].bounds = bounds;
          shares[t].index = t;
        }
      odori_run_parallel (read_share, shares, sizeof *shares, n);
      for (guint t = 0; t < n; t++)
        ok = ok && shares[t].ok;
    }
  for (guint t = 0; t < n; t++)
    odori_line_stream_clear (&shares[t].parser.reader);
  if (!ok)
    return FALSE;
  if (file == NULL)
    odori_line_stream_skip_rest (&self->reader);
  odori_text_count_parallel_load ();
  return TRUE;
}

/* Loading */

static void
fill_segments (BvhParser   *self,
               OdoriMotion *motion)
{
  motion->has_hierarchy = TRUE;
  for (guint s = 0; s < motion->n_segments; s++)
    {
      OdoriSegment *seg = &motion->segments[s];
      const OdoriSegment *src = &joint_at (self, s)->seg;

      odori_motion_set_segment_name (motion, s, src->name);
      seg->n_fields = 0;
      for (guint f = 0; f < ODORI_N_FIELDS; f++)
        seg->units[f] = f >= ODORI_FIELD_XROT && f <= ODORI_FIELD_ZROT
                        ? ODORI_UNIT_DEGREES : ODORI_UNIT_UNKNOWN;
      seg->parent = src->parent;
      memcpy (seg->offset, src->offset, sizeof seg->offset);
      seg->n_channels = src->n_channels;
      memcpy (seg->channels, src->channels, sizeof seg->channels);
      seg->has_end_site = src->has_end_site;
      memcpy (seg->end_site, src->end_site, sizeof seg->end_site);
    }
}

/* The motion for N_FRAMES frames, or NULL without error when that many frames cannot fit
 * in the bytes left (each frame needs n_values numbers and blanks: 2 bytes a value). */
static gboolean
allocate_motion (BvhParser    *self,
                 guint64       n_frames,
                 double        frame_time,
                 OdoriMotion **out,
                 GError      **error)
{
  guint64 remaining = odori_line_stream_remaining (&self->reader);
  g_autoptr(GError) local_error = NULL;

  *out = NULL;
  if (self->n_values == 0 && n_frames > 0)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_COUNT, self->path, self->lineno,
                            _("Frames: %" PRIu64 ", but no joint has CHANNELS"), n_frames);
  if (n_frames > 0 && n_frames > (remaining + 1) / (2 * (guint64) self->n_values))
    return TRUE;
  if (n_frames > G_MAXUINT)
    return odori_set_error (error, ODORI_BVH_ERROR, ODORI_BVH_ERROR_COUNT, self->path, self->lineno,
                            _("Frames: %" PRIu64 " is too many"), n_frames);

  /* parse_frames writes every segment of every frame (or the motion is dropped) */
  *out = odori_motion_new_unset (self->joints->len, n_frames, frame_time, &local_error);
  if (*out == NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s:%u: ",
                                  self->path, self->lineno);
      return FALSE;
    }
  fill_segments (self, *out);
  (*out)->path = g_strdup (self->path);
  return TRUE;
}

static void
bvh_parser_init (BvhParser       *self,
                 OdoriLineStream *reader,
                 GPtrArray       *warnings)
{
  memset (self, 0, sizeof *self);
  self->path = reader->path;
  self->warnings = warnings;
  self->reader = *reader;
  self->joints = g_array_new (FALSE, TRUE, sizeof (BvhJoint));
  g_array_set_clear_func (self->joints, bvh_joint_clear);
  self->open = g_array_new (FALSE, FALSE, sizeof (BvhOpen));
  self->names = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
bvh_parser_clear (BvhParser *self)
{
  g_clear_pointer (&self->names, g_hash_table_unref);
  g_clear_pointer (&self->open, g_array_unref);
  g_clear_pointer (&self->joints, g_array_unref);
}

/* Reads the lines of READER (at the start of the text); the frame lines on several
 * threads when FILE, the text in memory, is given and large. READER is left where the
 * parser stopped. */
static OdoriMotion *
load_lines (OdoriLineStream *reader,
            OdoriTextFile   *file,
            GPtrArray       *warnings,
            GError         **error)
{
  g_autoptr(OdoriMotion) motion = NULL;
  BvhParser parser;
  guint64 n_frames = 0;
  double frame_time = 0;
  gboolean ok;

  bvh_parser_init (&parser, reader, warnings);
  ok = parse_hierarchy (&parser, error) &&
       parse_motion_header (&parser, &n_frames, &frame_time, error) &&
       allocate_motion (&parser, n_frames, frame_time, &motion, error);
  if (ok)
    {
      gsize len = parser.reader.text_len;
      guint n_threads;

      if (file != NULL)
        odori_text_file_get_data (file, &len);
      n_threads = odori_text_load_threads (len);
      if (motion == NULL || n_threads < 2 ||
          !parse_frames_parallel (&parser, file, motion, n_frames, n_threads))
        ok = parse_frames (&parser, motion, n_frames, error);
    }
  *reader = parser.reader;
  bvh_parser_clear (&parser);

  if (!ok)
    return NULL;
  /* Cannot happen: when Frames: does not fit in the bytes left, parse_frames fails. */
  g_return_val_if_fail (motion != NULL, NULL);
  return g_steal_pointer (&motion);
}

/**
 * odori_bvh_load_text:
 * @file: the text of a BVH file
 * @warnings: (nullable) (element-type OdoriDiagnostic): where tolerated irregularities go
 * @error: return location for an error in %ODORI_BVH_ERROR
 *
 * Reads the hierarchy and the frames, turning each frame's local channels into global
 * per-segment transforms.
 *
 * Returns: (transfer full) (nullable): the motion, or %NULL with @error set
 */
OdoriMotion *
odori_bvh_load_text (OdoriTextFile *file,
                     GPtrArray     *warnings,
                     GError       **error)
{
  OdoriLineStream reader;
  gsize len;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  odori_text_file_get_data (file, &len);
  odori_line_stream_init_text (&reader, file, 0, len, 0);
  return load_lines (&reader, file, warnings, error);
}

/* Reads PATH through one reused buffer. *FALLBACK is set, without an error, when the
 * file is not plain UTF-8 text (odori_line_stream_fallback ()): it must be read whole.
 * A parse error counts only once the rest of the file is known to be text, as
 * odori_text_file_open () checks the whole file before any parse. */
static OdoriMotion *
load_stream (const char    *path,
             GPtrArray     *warnings,
             gboolean      *fallback,
             OdoriEncoding *encoding,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) own_warnings = NULL;
  OdoriLineStream reader;
  OdoriMotion *motion;

  *fallback = FALSE;
  if (!odori_line_stream_open (&reader, path, error))
    return NULL;
  *encoding = reader.bom > 0 ? ODORI_ENCODING_UTF8_BOM : ODORI_ENCODING_UTF8;
  own_warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_diagnostic_free);
  motion = load_lines (&reader, NULL, own_warnings, &local_error);
  if (!odori_line_stream_finish (&reader))
    {
      g_clear_pointer (&motion, odori_motion_unref);
      *fallback = odori_line_stream_fallback (&reader);
      if (!*fallback)
        odori_line_stream_io_error (&reader, error);
      odori_line_stream_clear (&reader);
      return NULL;
    }
  odori_line_stream_clear (&reader);
  if (motion == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (warnings != NULL)
    for (guint i = 0; i < own_warnings->len; i++)
      g_ptr_array_add (warnings, g_steal_pointer (&own_warnings->pdata[i]));
  return motion;
}

/**
 * odori_bvh_load:
 * @path: a BVH file
 * @warnings: (nullable) (element-type OdoriDiagnostic): where tolerated irregularities go
 * @error: return location for an error in %ODORI_BVH_ERROR or %ODORI_TEXT_ERROR
 *
 * Returns: (transfer full) (nullable): the motion, or %NULL with @error set
 */
OdoriMotion *
odori_bvh_load (const char  *path,
                GPtrArray   *warnings,
                GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return odori_bvh_load_encoded (path, NULL, warnings, error);
}

/* odori_bvh_load () that also gives the encoding of the text it read (when it returns
 * a motion): UTF-8 with or without a BOM when streamed, the decoded file's otherwise. */
OdoriMotion *
odori_bvh_load_encoded (const char    *path,
                        OdoriEncoding *encoding,
                        GPtrArray     *warnings,
                        GError       **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  OdoriEncoding streamed = ODORI_ENCODING_UTF8;
  OdoriMotion *motion;
  gboolean fallback = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Plain UTF-8 files, nearly all, stream through one buffer; the others (Shift_JIS, or
   * not text) are read whole, decoded or refused with their message. */
  motion = load_stream (path, warnings, &fallback, &streamed, error);
  if (!fallback)
    {
      if (motion != NULL && encoding != NULL)
        *encoding = streamed;
      return motion;
    }
  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  motion = odori_bvh_load_text (file, warnings, error);
  if (motion != NULL && encoding != NULL)
    *encoding = odori_text_file_get_encoding (file);
  return motion;
}

/**
 * odori_bvh_sniff:
 * @data: the first bytes of a file
 * @len: their length
 *
 * Returns: %TRUE if the first word (after a UTF-8 BOM and blanks) is HIERARCHY
 */
gboolean
odori_bvh_sniff (const char *data,
                 gsize       len)
{
  static const char word[] = "HIERARCHY";
  const char *p;
  const char *end;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (len == 0)
    return FALSE;
  p = data;
  end = data + len;
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  p = odori_skip_blanks (p, end);
  if ((gsize) (end - p) < sizeof word - 1 ||
      g_ascii_strncasecmp (p, word, sizeof word - 1) != 0)
    return FALSE;
  p += sizeof word - 1;
  return p == end || odori_blank_len (p, end) > 0 || *p == '{';
}
