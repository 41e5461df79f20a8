/* odori-bva.c: the BioVision Animation format (.bva, .vpm), read and written (FORMATS.md §1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - Each segment block is "Segment: NAME" (split at the first colon, so "steve:LSHO" is a
 *   name), "Frames: N", "Frame Time: T", a field-name line (XTRAN .. ZSCALE in any order,
 *   any non-empty subset; a missing field reads as 0, or 100 for a scale) and a unit line,
 *   then N frame lines. Blank lines between lines are skipped.
 * - Rotations are R = Rz(ZROT) · Rx(XROT) · Ry(YROT) (BVH's usual Zrotation Xrotation
 *   Yrotation) and are stored as quaternions; RADIANS are converted to degrees first.
 *   Positions and scales are stored as read, in the file's units, and the field order and
 *   units of every segment are kept so that writing uses them again.
 * - Segments of different lengths: the motion takes the longest and the shorter ones hold
 *   their last frame (a warning says so). Different frame times are an error.
 * - Writing: headers with tabs as in the original tools, values with 6 decimals separated
 *   by spaces, LF line ends, UTF-8. Angles are taken from the quaternions choosing, at each
 *   frame, the solution nearest the previous frame, so there are no +-180 flips.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-bva.h"
#include "odori-formats-private.h"
#include "odori-reader.h"
#include "odori-text-private.h"

G_DEFINE_QUARK (odori-bva-error-quark, odori_bva_error)

/* Beyond this a position or scale is garbage (and would not survive the float model). */
#define MAX_ABS_VALUE 1e15
/* Longest segment name, in bytes: real names are a few words; a longer one is garbage
 * that would also be quoted whole in every message about the segment. */
#define MAX_NAME 1024
/* The smallest possible segment header ("Segment:a\nFrames:0\nFrame Time:1\nXTRAN\nINCHES"). */
#define MIN_HEADER_BYTES 44

typedef struct
{
  char       *name;
  guint       line;          /* of "Segment:" */
  guint       frames_line;   /* of "Frames:" */
  guint       time_line;     /* of "Frame Time:" */
  guint       n_frames;
  double      frame_time;
  guint       n_fields;
  OdoriField  fields[ODORI_N_FIELDS];
  OdoriUnit   units[ODORI_N_FIELDS];
} SegmentHeader;

typedef struct
{
  guint line;
  guint n_frames;
} SegmentInfo;

typedef struct
{
  OdoriLineStream  reader;
  const char      *path;
  gsize            file_len;
  OdoriMotion     *motion;      /* allocated once the first header is read */
  guint            n_alloc;     /* segment headers counted in the file */
  guint            n_read;      /* segments read so far */
  double           frame_time;
  guint            frame_time_line;
  GHashTable      *names;       /* name -> GUINT_TO_POINTER (line) */
  SegmentInfo     *info;        /* n_alloc */
} BvaParser;

/* Lexical helpers */

static gboolean
is_blank_line (const char *s,
               gsize       len)
{
  return odori_skip_blanks (s, s + len) == s + len;
}

/* "Segment" at S, then optional blanks and a colon. */
static gboolean
is_segment_key (const char *s,
                const char *end)
{
  if (end - s < 8 || memcmp (s, "Segment", 7) != 0)
    return FALSE;
  s = odori_skip_blanks (s + 7, end);
  return s < end && *s == ':';
}

/* A segment header line: optional blanks, then "Segment:". */
static gboolean
is_segment_line (const char *line,
                 gsize       len)
{
  const char *end = line + len;

  return is_segment_key (odori_skip_blanks (line, end), end);
}

/* Counts the lines that is_segment_line() accepts, without reading the file line by line,
 * and appends the offset where each starts to STARTS (if not NULL). The count is exact:
 * the parser treats every such line as a header (or fails). */
static guint
count_segments (const char *data,
                gsize       len,
                GArray     *starts)
{
  const char *end = data + len;
  const char *s = data;
  guint n = 0;

  while (s < end)
    {
      /* Frame data holds no 'S' at all, so memchr runs at memory speed. */
      const char *hit = memchr (s, 'S', end - s);
      const char *b, *eol;

      if (hit == NULL)
        break;
      /* within its line: a blank may be a CR or LF left inside a line, not a line end */
      eol = hit;
      while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
      if (!is_segment_key (hit, eol))
        {
          s = hit + 1;
          continue;
        }
      b = hit;
      /* back over the blanks before it, not over a line end */
      while (b > data && b[-1] != '\n' && b[-1] != '\r' && odori_blank_len_before (data, b) > 0)
        b -= odori_blank_len_before (data, b);
      if (b == data || b[-1] == '\n' || b[-1] == '\r')
        {
          n++;
          if (starts != NULL)
            {
              gsize at = b - data;

              g_array_append_val (starts, at);
            }
        }
      s = hit + 7;
    }
  return n;
}

/* Matches KEY (case-insensitive; a space in KEY matches a run of blanks), optional
 * blanks and a colon at the start of [s, end). Returns the value after the colon and its
 * leading blanks, or NULL. */
static const char *
match_key (const char *s,
           const char *end,
           const char *key)
{
  s = odori_skip_blanks (s, end);
  for (; *key != '\0'; key++)
    {
      if (*key == ' ')
        {
          if (odori_blank_len (s, end) == 0)
            return NULL;
          s = odori_skip_blanks (s, end);
        }
      else
        {
          if (s >= end || g_ascii_tolower (*s) != g_ascii_tolower (*key))
            return NULL;
          s++;
        }
    }
  s = odori_skip_blanks (s, end);
  if (s >= end || *s != ':')
    return NULL;
  return odori_skip_blanks (s + 1, end);
}

static gboolean
next_content_line (OdoriLineStream *reader)
{
  while (odori_line_stream_next (reader))
    if (!is_blank_line (reader->line, reader->len))
      return TRUE;
  return FALSE;
}

static gboolean
unit_fits (OdoriField field,
           OdoriUnit  unit)
{
  gboolean length = unit == ODORI_UNIT_INCHES || unit == ODORI_UNIT_CENTIMETERS ||
                    unit == ODORI_UNIT_MILLIMETERS || unit == ODORI_UNIT_METERS;

  if (field <= ODORI_FIELD_ZTRAN)
    return length;
  if (field <= ODORI_FIELD_ZROT)
    return unit == ODORI_UNIT_DEGREES || unit == ODORI_UNIT_RADIANS;
  return length || unit == ODORI_UNIT_PERCENT;
}

static const char *
expected_units (OdoriField field)
{
  if (field <= ODORI_FIELD_ZTRAN)
    return _("INCHES, CENTIMETERS, MILLIMETERS or METERS");
  if (field <= ODORI_FIELD_ZROT)
    return _("DEGREES or RADIANS");
  return _("PERCENT, INCHES, CENTIMETERS, MILLIMETERS or METERS");
}

static gboolean
field_from_string (const char *s,
                   gsize       len,
                   OdoriField *field)
{
  for (guint f = 0; f < ODORI_N_FIELDS; f++)
    {
      const char *name = odori_field_to_string (f);

      if (strlen (name) == len && g_ascii_strncasecmp (s, name, len) == 0)
        {
          *field = f;
          return TRUE;
        }
    }
  return FALSE;
}

/* The shortest "%.Ng" text that reads back to exactly T. */
static void
format_frame_time (char   *buf,
                   gsize   size,
                   double  t)
{
  for (int prec = 1; prec <= 17; prec++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", prec);
      g_ascii_formatd (buf, size, format, t);
      if (g_ascii_strtod (buf, NULL) == t)
        return;
    }
}

/* Segment header */

/* Reads the next non-blank line of the header; EOF is a truncation. */
static gboolean
header_line (BvaParser     *p,
             SegmentHeader *h,
             const char    *expected,
             GError       **error)
{
  if (next_content_line (&p->reader))
    return TRUE;
  return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_TRUNCATED, p->path,
                          p->reader.lineno,
                          _("the file ends inside the header of segment \"%s\": expected %s"),
                          h->name, expected);
}

static gboolean
read_segment_name (BvaParser     *p,
                   SegmentHeader *h,
                   GError       **error)
{
  const char *line = p->reader.line;
  const char *end = line + p->reader.len;
  const char *s = memchr (line, ':', p->reader.len);

  g_assert (s != NULL);
  s = odori_skip_blanks (s + 1, end);
  end = odori_trim_blanks (s, end);
  h->line = p->reader.lineno;
  if (s == end)
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path, h->line,
                            _("expected a segment name after \"Segment:\""));
  if (end - s > MAX_NAME)
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path, h->line,
                            _("the segment name is %zu bytes long, more than %d"),
                            (gsize) (end - s), MAX_NAME);
  h->name = g_utf8_make_valid (s, end - s);
  return TRUE;
}

static gboolean
read_frames_header (BvaParser     *p,
                    SegmentHeader *h,
                    GError       **error)
{
  const char *line, *end, *s;
  gint64 n;

  if (!header_line (p, h, _("\"Frames: N\""), error))
    return FALSE;
  line = p->reader.line;
  end = line + p->reader.len;
  h->frames_line = p->reader.lineno;
  s = match_key (line, end, "Frames");
  if (s == NULL || !odori_parse_int (&s, end, &n) || n < 0 || odori_trim_blanks (s, end) != s)
    {
      g_autofree char *found = odori_excerpt (line, p->reader.len);

      return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path,
                              p->reader.lineno,
                              _("expected a frame count like \"Frames: 277\" for segment \"%s\", "
                                "got \"%s\""), h->name, found);
    }
  h->n_frames = (guint) MIN (n, (gint64) G_MAXUINT);
  return TRUE;
}

static gboolean
read_frame_time (BvaParser     *p,
                 SegmentHeader *h,
                 GError       **error)
{
  const char *line, *end, *s;
  double t = 0;

  if (!header_line (p, h, _("\"Frame Time: SECONDS\""), error))
    return FALSE;
  line = p->reader.line;
  end = line + p->reader.len;
  h->time_line = p->reader.lineno;
  s = match_key (line, end, "Frame Time");
  if (s != NULL && odori_looks_non_finite (s, end))
    {
      g_autofree char *found = odori_excerpt (s, odori_trim_blanks (s, end) - s);

      return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_NOT_FINITE, p->path,
                              p->reader.lineno,
                              _("frame time of segment \"%s\" is not a finite number: \"%s\""),
                              h->name, found);
    }
  if (s == NULL || !odori_parse_double (&s, end, &t) || odori_trim_blanks (s, end) != s ||
      !(t > 0))
    {
      g_autofree char *found = odori_excerpt (line, p->reader.len);

      return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path,
                              p->reader.lineno,
                              _("expected a positive frame time like \"Frame Time: 0.033333\" for "
                                "segment \"%s\", got \"%s\""), h->name, found);
    }
  h->frame_time = t;
  return TRUE;
}

static gboolean
read_field_names (BvaParser     *p,
                  SegmentHeader *h,
                  GError       **error)
{
  const char *s, *end, *tok;
  guint seen = 0;
  gsize len;

  if (!header_line (p, h, _("the field names (XTRAN YTRAN ZTRAN XROT ...)"), error))
    return FALSE;
  s = p->reader.line;
  end = s + p->reader.len;
  while ((len = odori_next_token (&s, end, &tok)) > 0)
    {
      OdoriField field;

      if (!field_from_string (tok, len, &field))
        {
          g_autofree char *found = odori_excerpt (tok, len);

          return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_UNIT, p->path,
                                  p->reader.lineno,
                                  _("unknown field \"%s\" in segment \"%s\" (expected XTRAN, "
                                    "YTRAN, ZTRAN, XROT, YROT, ZROT, XSCALE, YSCALE or ZSCALE)"),
                                  found, h->name);
        }
      if (seen & (1u << field))
        return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path,
                                p->reader.lineno,
                                _("field %s appears twice in segment \"%s\""),
                                odori_field_to_string (field), h->name);
      seen |= 1u << field;
      h->fields[h->n_fields++] = field;
    }
  return TRUE;
}

static gboolean
read_units (BvaParser     *p,
            SegmentHeader *h,
            GError       **error)
{
  const char *s, *end, *tok;
  guint n = 0;
  gsize len;

  if (!header_line (p, h, _("the units (INCHES ... DEGREES ... PERCENT)"), error))
    return FALSE;
  s = p->reader.line;
  end = s + p->reader.len;
  while ((len = odori_next_token (&s, end, &tok)) > 0)
    {
      OdoriField field;
      OdoriUnit unit;

      if (n == h->n_fields)
        return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path,
                                p->reader.lineno,
                                _("more units than the %u fields of segment \"%s\""),
                                h->n_fields, h->name);
      field = h->fields[n];
      if (!odori_unit_from_string (tok, len, &unit) || !unit_fits (field, unit))
        {
          g_autofree char *found = odori_excerpt (tok, len);

          return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_UNIT, p->path,
                                  p->reader.lineno,
                                  _("unit \"%s\" does not fit field %s of segment \"%s\" (expected "
                                    "%s)"), found, odori_field_to_string (field), h->name,
                                  expected_units (field));
        }
      h->units[n++] = unit;
    }
  if (n < h->n_fields)
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path,
                            p->reader.lineno,
                            _("%u units for the %u fields of segment \"%s\""),
                            n, h->n_fields, h->name);
  return TRUE;
}

/* Checks the header against the segments read before it. */
static gboolean
check_header (BvaParser     *p,
              SegmentHeader *h,
              GError       **error)
{
  gpointer other;

  if (g_hash_table_lookup_extended (p->names, h->name, NULL, &other))
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_DUPLICATE, p->path, h->line,
                            _("segment name \"%s\" is already used by the segment at line %u"),
                            h->name, GPOINTER_TO_UINT (other));

  if (p->n_read == 0)
    {
      p->frame_time = h->frame_time;
      p->frame_time_line = h->time_line;
    }
  else if (fabs (h->frame_time - p->frame_time) > 1e-9 * p->frame_time)
    {
      char mine[G_ASCII_DTOSTR_BUF_SIZE];
      char first[G_ASCII_DTOSTR_BUF_SIZE];

      format_frame_time (mine, sizeof mine, h->frame_time);
      format_frame_time (first, sizeof first, p->frame_time);

      return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_FRAME_TIME, p->path,
                              h->time_line,
                              _("segment \"%s\" has frame time %s, but the first segment has %s "
                                "(line %u): all segments must share one frame time"),
                              h->name, mine, first, p->frame_time_line);
    }
  return TRUE;
}

/* Makes room for H's frames without trusting the header: no more frames than the rest
 * of the file can hold (a frame line takes at least two bytes a field), and a motion
 * proportionate to the file. A header that announces more fails later, at the line where
 * the file ends, with the number of frames actually there. */
static gboolean
ensure_frames (BvaParser     *p,
               SegmentHeader *h,
               GError       **error)
{
  guint64 remaining = odori_line_stream_remaining (&p->reader);
  /* (a field-name line of only stray CRs has no fields) */
  guint64 max_frames = ((guint64) remaining + 1) / (2 * MAX (h->n_fields, 1));
  guint64 cap = p->file_len / 2 + (1u << 20);
  guint n_frames = (guint) MIN ((guint64) h->n_frames, max_frames);

  if (p->motion != NULL && n_frames <= p->motion->n_frames)
    return TRUE;

  if ((guint64) p->n_alloc * n_frames > cap)
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_COUNT, p->path, h->frames_line,
                            _("segment \"%s\" announces %u frames: for %u segments that is more "
                              "than a file of %zu bytes can hold"),
                            h->name, h->n_frames, p->n_alloc, p->file_len);

  if (p->motion == NULL)
    {
      p->motion = odori_motion_new (p->n_alloc, n_frames, h->frame_time, error);
      return p->motion != NULL;
    }
  return odori_motion_resize (p->motion, n_frames, error);
}

/* Frame data */

/* The sines and cosines of the half angles last computed for each axis of a segment:
 * a rotation channel that keeps its value from frame to frame (a degree of freedom the
 * capture did not use, a constant tilt) costs no sinf () or cosf (). */
typedef struct
{
  double angle[3];
  double s[3], c[3];
} HalfAngles;

static void
half_angles_init (HalfAngles *h)
{
  for (guint i = 0; i < 3; i++)
    {
      h->angle[i] = NAN;
      h->s[i] = 0;
      h->c[i] = 1;
    }
}

static inline void
half_sincos (HalfAngles *h,
             guint       i,
             double      deg,
             double     *s,
             double     *c)
{
  float half;

  if (h != NULL && deg == h->angle[i])
    {
      *s = h->s[i];
      *c = h->c[i];
      return;
    }
  half = (float) (deg * (G_PI / 360.0));
  *s = sinf (half);
  *c = cosf (half);
  if (h != NULL)
    {
      h->angle[i] = deg;
      h->s[i] = *s;
      h->c[i] = *c;
    }
}

/* R = Rz · Rx · Ry from angles in degrees (Z, X, Y), H (if not NULL) the sines and
 * cosines kept from the frame before. The writer calls this too, to see exactly what the
 * reader will make of the angles it writes. */
static void
rotation_from_zxy (const double zxy[3],
                   float        q[4],
                   HalfAngles  *h)
{
  double sz, cz, sx, cx, sy, cy, x, y, z, w;

  if (zxy[0] == 0 && zxy[1] == 0 && zxy[2] == 0)
    {
      glm_quat_identity (q);
      return;
    }
  /* odori_euler_to_quat ("ZXY") with the order unrolled (this runs for every segment of
   * every frame): the same products in the same order, so the same floats. */
  half_sincos (h, 0, zxy[0], &sz, &cz);
  half_sincos (h, 1, zxy[1], &sx, &cx);
  half_sincos (h, 2, zxy[2], &sy, &cy);
  /* identity · Rz · Rx */
  x = cz * sx;
  y = sz * sx;
  z = sz * cx;
  w = cz * cx;
  /* · Ry */
  q[0] = (float) (x * cy - z * sy);
  q[1] = (float) (w * sy + y * cy);
  q[2] = (float) (z * cy + x * sy);
  q[3] = (float) (w * cy - y * sy);
}

typedef struct
{
  const SegmentHeader *h;
  guint                slot[ODORI_N_FIELDS];    /* canonical index of each column */
  double               factor[ODORI_N_FIELDS];  /* to degrees for RADIANS, else 1 */
  HalfAngles           half;                    /* of the frame line before */
} Columns;

static void
columns_init (Columns             *c,
              const SegmentHeader *h)
{
  c->h = h;
  for (guint i = 0; i < h->n_fields; i++)
    {
      c->slot[i] = h->fields[i];
      c->factor[i] = h->units[i] == ODORI_UNIT_RADIANS ? 180.0 / G_PI : 1.0;
    }
  half_angles_init (&c->half);
}

/* The error for a token at S that is not a number. */
static gboolean
number_error (BvaParser     *p,
              const Columns *c,
              guint          frame,
              guint          column,
              const char    *s,
              GError       **error)
{
  const char *line = p->reader.line;
  const char *end = line + p->reader.len;
  const char *e = s;
  g_autofree char *found = NULL;

  if (column == 0 && is_segment_line (line, p->reader.len))
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_COUNT, p->path,
                            p->reader.lineno,
                            _("segment \"%s\" has only %u frame lines, but its \"Frames:\" (line "
                              "%u) says %u"),
                            c->h->name, frame - 1, c->h->frames_line, c->h->n_frames);

  while (e < end && odori_blank_len (e, end) == 0)
    e++;
  found = odori_excerpt (s, e - s);
  if (odori_looks_non_finite (s, end))
    return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_NOT_FINITE, p->path,
                            p->reader.lineno,
                            _("segment \"%s\", frame %u, column %u (%s): \"%s\" is not a finite "
                              "number"),
                            c->h->name, frame, (guint) (s - line) + 1,
                            odori_field_to_string (c->h->fields[column]), found);
  return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_NUMBER, p->path, p->reader.lineno,
                          _("segment \"%s\", frame %u, column %u (%s): expected a number, got "
                            "\"%s\""),
                          c->h->name, frame, (guint) (s - line) + 1,
                          odori_field_to_string (c->h->fields[column]), found);
}

static gboolean
count_error (BvaParser     *p,
             const Columns *c,
             guint          frame,
             guint          found,
             GError       **error)
{
  const char *s = p->reader.line;
  const char *end = s + p->reader.len;
  const char *tok;

  /* Too many: count them all for the message. */
  if (found > c->h->n_fields)
    {
      found = 0;
      while (odori_next_token (&s, end, &tok) > 0)
        found++;
    }
  return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_COUNT, p->path, p->reader.lineno,
                          _("segment \"%s\", frame %u: expected %u values, found %u"),
                          c->h->name, frame, c->h->n_fields, found);
}

static gboolean
parse_frame_line (BvaParser      *p,
                  Columns        *c,
                  guint           frame,
                  OdoriTransform *t,
                  GError        **error)
{
  const char *line = p->reader.line;
  const char *end = line + p->reader.len;
  const char *s = line;
  const char *limit = odori_line_stream_limit (&p->reader);
  guint n_fields = c->h->n_fields;
  double v[ODORI_N_FIELDS] = { 0, 0, 0, 0, 0, 0, 100, 100, 100 };
  double      read[ODORI_N_FIELDS];
  guint       n = odori_parse_channel_line (&s, end, limit, read, n_fields);

  /* The whole line at once; anything wrong with it is read again a token at a time
   * below, for the message. */
  if (G_LIKELY (n == n_fields && s == end))
    {
      for (guint i = 0; i < n; i++)
        {
          if (G_UNLIKELY (fabs (read[i]) > MAX_ABS_VALUE))
            goto one_at_a_time;
          v[c->slot[i]] = read[i] * c->factor[i];
        }
      goto done;
    }

one_at_a_time:
  s = line;
  n = 0;
  for (;;)
    {
      const char *start;
      double x;

      s = odori_skip_blanks (s, end);
      if (s >= end)
        break;
      if (G_UNLIKELY (n == n_fields))
        return count_error (p, c, frame, n + 1, error);
      start = s;
      if (G_UNLIKELY (!odori_parse_channel_value (&s, end, limit, &x) ||
                      (s < end && odori_blank_len (s, end) == 0)))
        return number_error (p, c, frame, n, start, error);
      if (G_UNLIKELY (fabs (x) > MAX_ABS_VALUE))
        {
          g_autofree char *found = odori_excerpt (start, s - start);

          return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_NUMBER, p->path,
                                  p->reader.lineno,
                                  _("segment \"%s\", frame %u, column %u (%s): %s is out of range"),
                                  c->h->name, frame, (guint) (start - line) + 1,
                                  odori_field_to_string (c->h->fields[n]), found);
        }
      v[c->slot[n]] = x * c->factor[n];
      n++;
    }
  if (G_UNLIKELY (n < n_fields))
    return count_error (p, c, frame, n, error);

done:
  t->position[0] = v[ODORI_FIELD_XTRAN];
  t->position[1] = v[ODORI_FIELD_YTRAN];
  t->position[2] = v[ODORI_FIELD_ZTRAN];
  t->scale[0] = v[ODORI_FIELD_XSCALE];
  t->scale[1] = v[ODORI_FIELD_YSCALE];
  t->scale[2] = v[ODORI_FIELD_ZSCALE];
  {
    double zxy[3] = { v[ODORI_FIELD_ZROT], v[ODORI_FIELD_XROT], v[ODORI_FIELD_YROT] };

    rotation_from_zxy (zxy, t->rotation, &c->half);
  }
  return TRUE;
}

static gboolean
read_frames (BvaParser           *p,
             const SegmentHeader *h,
             guint                segment,
             GError             **error)
{
  OdoriMotion *m = p->motion;
  gsize stride = m->n_segments;
  OdoriTransform *t = m->transforms + segment;
  Columns c;

  columns_init (&c, h);
  for (guint f = 0; f < h->n_frames; f++, t += stride)
    {
      if (G_UNLIKELY (!next_content_line (&p->reader) || f >= m->n_frames))
        return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_TRUNCATED, p->path,
                                p->reader.lineno,
                                _("the file ends after %u of the %u frames of segment \"%s\""),
                                f, h->n_frames, h->name);
      if (!parse_frame_line (p, &c, f + 1, t, error))
        return FALSE;
    }

  /* A shorter segment holds its last frame. */
  if (h->n_frames > 0)
    {
      const OdoriTransform *last = odori_motion_get (m, h->n_frames - 1, segment);

      for (guint f = h->n_frames; f < m->n_frames; f++)
        *odori_motion_get (m, f, segment) = *last;
    }
  return TRUE;
}

/* The error for a line where a segment header should start. */
static gboolean
expected_segment_error (BvaParser *p,
                        GError   **error)
{
  const char *line = p->reader.line;
  const char *end = line + p->reader.len;
  const char *s = odori_skip_blanks (line, end);
  g_autofree char *found = odori_excerpt (s, odori_trim_blanks (s, end) - s);
  double x;

  if (p->n_read > 0 && odori_parse_double (&s, end, &x))
    {
      const SegmentInfo *last = &p->info[p->n_read - 1];

      return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_COUNT, p->path,
                              p->reader.lineno,
                              _("more frame lines than the %u announced by the segment at line %u: "
                                "expected \"Segment: NAME\", got \"%s\""),
                              last->n_frames, last->line, found);
    }
  return odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path, p->reader.lineno,
                          _("expected \"Segment: NAME\", got \"%s\""), found);
}

static gboolean
read_segment (BvaParser *p,
              GError   **error)
{
  SegmentHeader h = { 0 };
  gboolean ok = FALSE;
  guint s = p->n_read;

  if (!is_segment_line (p->reader.line, p->reader.len))
    return expected_segment_error (p, error);

  if (!read_segment_name (p, &h, error) ||
      !read_frames_header (p, &h, error) ||
      !read_frame_time (p, &h, error) ||
      !read_field_names (p, &h, error) ||
      !read_units (p, &h, error) ||
      !check_header (p, &h, error))
    goto out;

  if (s >= p->n_alloc)
    {
      /* Cannot happen: count_segments() saw every header line. */
      odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p->path, h.line,
                       _("unexpected segment header"));
      goto out;
    }
  if (!ensure_frames (p, &h, error))
    goto out;

  odori_motion_set_segment_name (p->motion, s, h.name);
  p->motion->segments[s].n_fields = h.n_fields;
  memcpy (p->motion->segments[s].fields, h.fields, sizeof h.fields);
  memcpy (p->motion->segments[s].units, h.units, sizeof h.units);

  if (!read_frames (p, &h, s, error))
    goto out;

  p->info[s].line = h.line;
  p->info[s].n_frames = h.n_frames;
  g_hash_table_insert (p->names, g_steal_pointer (&h.name), GUINT_TO_POINTER (h.line));
  p->n_read++;
  ok = TRUE;

out:
  g_free (h.name);
  return ok;
}

static void
warn_short_segments (BvaParser *p,
                     GPtrArray *warnings)
{
  OdoriMotion *m = p->motion;

  if (warnings == NULL)
    return;
  for (guint s = 0; s < m->n_segments; s++)
    {
      if (p->info[s].n_frames == m->n_frames)
        continue;
      if (p->info[s].n_frames == 0)
        odori_add_warning (warnings, p->path, p->info[s].line,
                           _("segment \"%s\" has no frames (the longest has %u): it stays at "
                             "rest"), m->segments[s].name, m->n_frames);
      else
        odori_add_warning (warnings, p->path, p->info[s].line,
                           _("segment \"%s\" has %u frames, the longest has %u: its last frame "
                             "is held to the end"),
                           m->segments[s].name, p->info[s].n_frames, m->n_frames);
    }
}

/* The reader for one file, one segment after the other, from READER (at the start of
 * the text, FILE_LEN bytes, holding N_HEADERS lines that count_segments () accepts). */
static OdoriMotion *
load_sequential (OdoriLineStream *reader,
                 guint            n_headers,
                 gsize            file_len,
                 GPtrArray       *warnings,
                 GError         **error)
{
  g_autoptr(GHashTable) names = NULL;
  g_autofree SegmentInfo *info = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  BvaParser p = { 0 };
  gboolean ok = TRUE;

  p.file_len = file_len;
  p.path = reader->path;
  if (p.path == NULL)
    p.path = "(data)";
  /* Every valid header takes MIN_HEADER_BYTES, so more headers than that cannot all be
   * valid: the parser fails before it needs more than this many. */
  p.n_alloc = MIN (n_headers, p.file_len / MIN_HEADER_BYTES + 1);
  info = p.info = g_new0 (SegmentInfo, MAX (p.n_alloc, 1));
  names = p.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  p.reader = *reader;
  while (ok && next_content_line (&p.reader))
    ok = read_segment (&p, error);
  *reader = p.reader;
  motion = p.motion;
  if (!ok)
    return NULL;

  if (p.n_read == 0)
    {
      odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p.path, p.reader.lineno,
                       _("the file is empty: expected \"Segment: NAME\""));
      return NULL;
    }
  if (p.n_read != p.n_alloc)
    {
      odori_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_SYNTAX, p.path, p.reader.lineno,
                       _("%u segment headers found, but %u read"), p.n_alloc, p.n_read);
      return NULL;
    }

  warn_short_segments (&p, warnings);
  g_free (motion->path);
  motion->path = g_strdup (p.path);
  return g_steal_pointer (&motion);
}

/* The parallel reader. Segment blocks are independent, and count_segments() finds where
 * each starts: the headers are read first, one after the other (they are a few lines
 * each), the motion is allocated once for the longest segment, and then the threads read
 * the frame lines of a share of the segments each, every segment into its own column of
 * the motion. It handles valid files only: at the first sign of anything else (text
 * before the first segment, a bad header or frame line, a line left over after a
 * segment's frames) it gives up and the sequential reader reads the file again, so that
 * errors and their line numbers are exactly the sequential reader's. */

/* Where the parallel reader reads: a text in memory, or a file streamed in parts. */
typedef struct
{
  OdoriTextFile         *file;
  const OdoriLineStream *whole;  /* when FILE is NULL: the file, open */
} BvaSource;

/* A stream over the text bytes [FROM, TO) of SRC. */
static gboolean
source_open (const BvaSource *src,
             OdoriLineStream *reader,
             gsize            from,
             gsize            to)
{
  if (src->file != NULL)
    {
      odori_line_stream_init_text (reader, src->file, from, to, 0);
      return TRUE;
    }
  return odori_line_stream_open_range (reader, src->whole, from, to, 0);
}

typedef struct
{
  const BvaSource *src;
  BvaParser     *p;            /* shared, read-only here: path, motion */
  SegmentHeader *headers;
  const gsize   *frames_at;    /* offset of each segment's first frame line */
  const gsize   *ends;         /* offset where each segment's block ends */
  guint          first, last;  /* the segments [first, last) */
  gboolean       ok;
} BvaShare;

static gpointer
read_share (gpointer data)
{
  BvaShare *share = data;

  share->ok = TRUE;
  for (guint s = share->first; s < share->last && share->ok; s++)
    {
      BvaParser w = *share->p;

      if (!source_open (share->src, &w.reader, share->frames_at[s], share->ends[s]))
        {
          share->ok = FALSE;
          break;
        }
      share->ok = read_frames (&w, &share->headers[s], s, NULL) &&
                  !next_content_line (&w.reader) && odori_line_stream_finish (&w.reader);
      odori_line_stream_clear (&w.reader);
    }
  return NULL;
}

/* SRC's text of FILE_LEN bytes, named PATH, whose segment headers start at STARTS
 * (count_segments ()). */
static gboolean
load_parallel (const BvaSource *src,
               const char      *path,
               gsize            file_len,
               GArray          *starts,
               guint            n_threads,
               GPtrArray       *warnings,
               OdoriMotion    **out)
{
  g_autoptr(GHashTable) names = NULL;
  g_autofree SegmentInfo *info = NULL;
  g_autofree SegmentHeader *headers = NULL;
  g_autofree gsize *frames_at = NULL;
  g_autofree gsize *ends = NULL;
  g_autofree BvaShare *shares = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  BvaParser p = { 0 };
  OdoriLineStream lead;
  guint n = starts->len, max_frames = 0;
  gboolean ok = TRUE;

  p.file_len = file_len;
  p.path = path != NULL ? path : "(data)";
  if (n < 2 || n > p.file_len / MIN_HEADER_BYTES + 1)
    return FALSE;
  /* count_segments takes a lone CR for a line end; in a file whose lines end in LF it is
   * not one, and the sequential reader sees "\rSegment:" as garbage: leave it that. */
  if (src->file != NULL)
    {
      OdoriLineReader r;

      odori_line_reader_init (&r, src->file);
      for (guint s = 0; s < n; s++)
        if (odori_line_reader_line_start (&r, g_array_index (starts, gsize, s)) !=
            g_array_index (starts, gsize, s))
          return FALSE;
    }
  if (!source_open (src, &lead, 0, g_array_index (starts, gsize, 0)))
    return FALSE;
  ok = !next_content_line (&lead) && odori_line_stream_finish (&lead);
  odori_line_stream_clear (&lead);
  if (!ok)
    return FALSE;

  p.n_alloc = n;
  info = p.info = g_new0 (SegmentInfo, n);
  names = p.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  headers = g_new0 (SegmentHeader, n);
  frames_at = g_new (gsize, n);
  ends = g_new (gsize, n);

  /* The headers, in file order (check_header compares each with those before it). */
  for (guint s = 0; s < n && ok; s++)
    {
      SegmentHeader *h = &headers[s];

      ends[s] = s + 1 < n ? g_array_index (starts, gsize, s + 1) : p.file_len;
      if (!source_open (src, &p.reader, g_array_index (starts, gsize, s), ends[s]))
        {
          ok = FALSE;
          break;
        }
      ok = next_content_line (&p.reader) &&
           read_segment_name (&p, h, NULL) &&
           read_frames_header (&p, h, NULL) &&
           read_frame_time (&p, h, NULL) &&
           read_field_names (&p, h, NULL) &&
           read_units (&p, h, NULL) &&
           check_header (&p, h, NULL);
      frames_at[s] = odori_line_stream_offset (&p.reader);
      odori_line_stream_clear (&p.reader);
      if (!ok)
        break;
      /* Frame lines take at least two bytes a field: a header that announces more than
       * its block holds fails (sequentially, with the right message). */
      if ((guint64) h->n_frames * 2 * h->n_fields > ends[s] - frames_at[s] + 1)
        ok = FALSE;
      max_frames = MAX (max_frames, h->n_frames);
      p.info[s].n_frames = h->n_frames;
      g_hash_table_insert (p.names, g_strdup (h->name), GUINT_TO_POINTER (0));
      p.n_read++;
    }

  /* ensure_frames() refuses a motion out of proportion with the file */
  if ((guint64) n * max_frames > p.file_len / 2 + (1u << 20))
    ok = FALSE;
  if (ok)
    {
      /* every frame of every segment is written below (a segment without frames is
       * set to rest after) */
      motion = p.motion = odori_motion_new_unset (n, max_frames, p.frame_time, NULL);
      ok = motion != NULL;
    }
  if (ok)
    {
      guint n_shares = MIN (n_threads, n);
      guint s = 0;

      for (guint k = 0; k < n; k++)
        {
          odori_motion_set_segment_name (motion, k, headers[k].name);
          motion->segments[k].n_fields = headers[k].n_fields;
          memcpy (motion->segments[k].fields, headers[k].fields, sizeof headers[k].fields);
          memcpy (motion->segments[k].units, headers[k].units, sizeof headers[k].units);
        }

      /* Shares of about equal bytes, in whole segments. */
      shares = g_new0 (BvaShare, n_shares);
      for (guint t = 0; t < n_shares; t++)
        {
          gsize until = p.file_len / n_shares * (t + 1);

          shares[t] = (BvaShare) { src, &p, headers, frames_at, ends, s, s, FALSE };
          while (s < n && n - s > n_shares - 1 - t && (s == shares[t].first || ends[s - 1] < until))
            s++;
          shares[t].last = s;
        }
      shares[n_shares - 1].last = n;
      odori_run_parallel (read_share, shares, sizeof *shares, n_shares);
      for (guint t = 0; t < n_shares; t++)
        ok = ok && shares[t].ok;
    }

  for (guint s = 0; s < n; s++)
    g_free (headers[s].name);
  if (!ok)
    return FALSE;
  for (guint s = 0; s < n; s++)
    if (p.info[s].n_frames == 0)
      odori_motion_set_rest (motion, s);

  /* The short-segment warnings need the line numbers, unknown until now. */
  for (guint s = 0; s < n; s++)
    if (warnings != NULL && p.info[s].n_frames != motion->n_frames)
      {
        gsize at = g_array_index (starts, gsize, s);

        if (src->file != NULL)
          p.info[s].line = odori_text_file_line_at (src->file, at);
        else if (source_open (src, &lead, 0, at))
          {
            p.info[s].line = odori_line_stream_count_lines (&lead) + 1;
            odori_line_stream_clear (&lead);
          }
      }
  warn_short_segments (&p, warnings);
  g_free (motion->path);
  motion->path = g_strdup (p.path);
  odori_text_count_parallel_load ();
  *out = g_steal_pointer (&motion);
  return TRUE;
}

OdoriMotion *
odori_bva_load_text (OdoriTextFile *file,
                     GPtrArray     *warnings,
                     GError       **error)
{
  OdoriMotion *motion = NULL;
  OdoriLineStream reader;
  const char *data;
  guint n_threads;
  gsize len;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = odori_text_file_get_data (file, &len);
  n_threads = odori_text_load_threads (len);
  if (n_threads > 1)
    {
      g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
      BvaSource src = { file, NULL };

      count_segments (data, len, starts);
      if (load_parallel (&src, odori_text_file_get_path (file), len, starts, n_threads,
                         warnings, &motion))
        return motion;
    }
  odori_line_stream_init_text (&reader, file, 0, len, 0);
  return load_sequential (&reader, count_segments (data, len, NULL), len, warnings, error);
}

/* The first pass over a part of a streamed file: where its segment headers start. */
typedef struct
{
  OdoriLineStream reader;
  GArray         *starts;
  char            before;    /* the byte before the part */
  gboolean        after_cr;  /* a header starts after a CR */
  gboolean        ok;
} ScanPart;

static gpointer
scan_part (gpointer data)
{
  ScanPart *part = data;
  const char *block;
  gsize len;
  char last = part->before;

  while (odori_line_stream_next_block (&part->reader, &block, &len))
    {
      gsize at = odori_line_stream_offset (&part->reader) - len;
      guint first = part->starts->len;

      count_segments (block, len, part->starts);
      for (guint k = first; k < part->starts->len; k++)
        {
          gsize *start = &g_array_index (part->starts, gsize, k);

          part->after_cr = part->after_cr || (*start > 0 ? block[*start - 1] : last) == '\r';
          *start += at;
        }
      last = block[len - 1];
    }
  part->ok = odori_line_stream_finish (&part->reader);
  return NULL;
}

/* Reads PATH through one reused buffer: a first pass counts the segment headers (and
 * checks the whole file's encoding, as odori_text_file_open () does before any parse), a
 * second parses. *FALLBACK is set, without an error, when the file is not plain UTF-8
 * text (odori_line_stream_fallback ()): it must be read whole. */
static OdoriMotion *
load_stream (const char    *path,
             GPtrArray     *warnings,
             gboolean      *fallback,
             OdoriEncoding *encoding,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) own_warnings = NULL;
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree ScanPart *parts = NULL;
  OdoriLineStream reader;
  OdoriMotion *motion = NULL;
  const char *block;
  gsize len, file_len;
  guint n_headers, n_threads, n_parts = 0;
  gboolean after_cr = FALSE, scanned = FALSE;

  *fallback = FALSE;
  if (!odori_line_stream_open (&reader, path, error))
    return NULL;
  *encoding = reader.bom > 0 ? ODORI_ENCODING_UTF8_BOM : ODORI_ENCODING_UTF8;
  n_threads = odori_text_load_threads (reader.text_len);
  parts = g_new0 (ScanPart, n_threads);
  /* The first pass on every core for large files: the first block on this thread (it
   * decides the line ends), then the rest in parts of whole lines. */
  if (n_threads > 1 && reader.text_len >= 2 * ODORI_STREAM_BLOCK &&
      odori_line_stream_next_block (&reader, &block, &len))
    {
      gsize from = odori_line_stream_offset (&reader), to = reader.text_len;
      char before = block[len - 1];

      count_segments (block, len, starts);
      for (guint k = 0; k < starts->len; k++)
        {
          gsize at = g_array_index (starts, gsize, k);

          after_cr = after_cr || (at > 0 && block[at - 1] == '\r');
        }
      for (guint t = 0; t < n_threads && from < to; t++)
        {
          gsize until = t + 1 == n_threads
                        ? to
                        : odori_line_stream_line_start (&reader, from + (to - from) / (n_threads - t));

          if (until <= from)
            continue;
          if (!odori_line_stream_open_range (&parts[n_parts].reader, &reader, from, until, 0))
            break;
          parts[n_parts].starts = g_array_new (FALSE, FALSE, sizeof (gsize));
          parts[n_parts].before = before;
          before = reader.cr_only ? '\r' : '\n';
          n_parts++;
          from = until;
        }
      if (from == to)
        {
          odori_run_parallel (scan_part, parts, sizeof *parts, n_parts);
          scanned = TRUE;
          for (guint t = 0; t < n_parts; t++)
            {
              after_cr = after_cr || parts[t].after_cr;
              g_array_append_vals (starts, parts[t].starts->data, parts[t].starts->len);
              if (!parts[t].ok)
                {
                  /* the part's state is the file's */
                  odori_line_stream_clear (&reader);
                  reader = parts[t].reader;
                  memset (&parts[t].reader, 0, sizeof parts[t].reader);
                  parts[t].reader.fd = -1;
                  break;
                }
            }
          if (reader.fd >= 0 && !reader.fallback && reader.io_error == NULL)
            odori_line_stream_skip_rest (&reader);
        }
      for (guint t = 0; t < n_parts; t++)
        {
          odori_line_stream_clear (&parts[t].reader);
          g_array_unref (parts[t].starts);
        }
      if (!scanned)
        {
          /* (cannot open the file again: the sequential pass, from the start) */
          odori_line_stream_clear (&reader);
          g_array_set_size (starts, 0);
          after_cr = FALSE;
          if (!odori_line_stream_open (&reader, path, error))
            return NULL;
        }
    }
  if (!scanned)
    {
      parts[0].reader = reader;
      parts[0].starts = starts;
      parts[0].before = '\n';
      scan_part (&parts[0]);
      reader = parts[0].reader;
      after_cr = parts[0].after_cr;
    }
  n_headers = starts->len;
  file_len = reader.text_len;
  *fallback = !odori_line_stream_finish (&reader) && odori_line_stream_fallback (&reader);
  if (*fallback || odori_line_stream_io_error (&reader, error))
    {
      odori_line_stream_clear (&reader);
      return NULL;
    }

  /* Segment blocks on every core, for valid files (not with CR line ends: see
   * load_parallel ()); the sequential reader for the others, and for their messages. */
  n_threads = odori_text_load_threads (file_len);
  if (n_threads > 1 && !after_cr)
    {
      BvaSource src = { NULL, &reader };

      if (load_parallel (&src, path, file_len, starts, n_threads, warnings, &motion))
        {
          odori_line_stream_clear (&reader);
          return motion;
        }
    }
  odori_line_stream_clear (&reader);

  if (!odori_line_stream_open (&reader, path, error))
    return NULL;
  own_warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_diagnostic_free);
  motion = load_sequential (&reader, n_headers, file_len, own_warnings, &local_error);
  /* (the file may have changed between the passes) */
  if (!odori_line_stream_finish (&reader))
    {
      g_clear_pointer (&motion, odori_motion_unref);
      *fallback = odori_line_stream_fallback (&reader);
      if (!*fallback && !odori_line_stream_io_error (&reader, error))
        g_assert_not_reached ();
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

OdoriMotion *
odori_bva_load (const char *path,
                GPtrArray  *warnings,
                GError    **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return odori_bva_load_encoded (path, NULL, warnings, error);
}

/* odori_bva_load () that also gives the encoding of the text it read (when it returns
 * a motion): UTF-8 with or without a BOM when streamed, the decoded file's otherwise. */
OdoriMotion *
odori_bva_load_encoded (const char    *path,
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
  motion = odori_bva_load_text (file, warnings, error);
  if (motion != NULL && encoding != NULL)
    *encoding = odori_text_file_get_encoding (file);
  return motion;
}

gboolean
odori_bva_sniff (const char *data,
                 gsize       len)
{
  const char *s, *end;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (len == 0)
    return FALSE;
  s = data;
  end = data + len;
  if (len >= 3 && memcmp (s, "\xEF\xBB\xBF", 3) == 0)
    s += 3;
  /* Skip blank lines; the first other line decides. */
  for (;;)
    {
      const char *b = odori_skip_blanks (s, end);

      if (b < end && (*b == '\n' || *b == '\r'))
        s = b + 1;
      else
        return is_segment_key (b, end);
    }
}

/* Writer */

/* The columns to write: the segment's own, or the canonical nine when they are unusable
 * (a motion that did not come from BVA). */
static guint
segment_columns (const OdoriSegment *seg,
                 OdoriField          fields[ODORI_N_FIELDS],
                 OdoriUnit           units[ODORI_N_FIELDS])
{
  guint seen = 0;
  gboolean valid = seg->n_fields > 0 && seg->n_fields <= ODORI_N_FIELDS;

  for (guint i = 0; valid && i < seg->n_fields; i++)
    {
      valid = seg->fields[i] < ODORI_N_FIELDS && !(seen & (1u << seg->fields[i])) &&
              unit_fits (seg->fields[i], seg->units[i]);
      seen |= 1u << seg->fields[i];
    }
  if (valid)
    {
      memcpy (fields, seg->fields, sizeof (OdoriField) * seg->n_fields);
      memcpy (units, seg->units, sizeof (OdoriUnit) * seg->n_fields);
      return seg->n_fields;
    }
  for (guint f = 0; f < ODORI_N_FIELDS; f++)
    {
      fields[f] = f;
      units[f] = f <= ODORI_FIELD_ZTRAN ? ODORI_UNIT_INCHES
               : f <= ODORI_FIELD_ZROT ? ODORI_UNIT_DEGREES : ODORI_UNIT_PERCENT;
    }
  return ODORI_N_FIELDS;
}

/* A name that reads back as itself: no line breaks or other control characters (blanks
 * inside are kept: the reader keeps them too), not empty. */
static char *
segment_name_for_file (const OdoriSegment *seg,
                       guint               index)
{
  const char *start, *end;
  char *name;

  if (seg->name == NULL || seg->name[0] == '\0')
    return g_strdup_printf ("segment%u", index + 1);
  /* the reader trims blanks (U+3000 too) around the name */
  end = seg->name + strlen (seg->name);
  start = odori_skip_blanks (seg->name, end);
  name = g_strndup (start, odori_trim_blanks (start, end) - start);
  for (char *c = name; *c != '\0'; c++)
    if (((guchar) *c < 0x20 && *c != '\t') || *c == 0x7f)
      *c = '_';
  if (name[0] == '\0')
    {
      g_free (name);
      return g_strdup_printf ("segment%u", index + 1);
    }
  return name;
}

static void
write_header (const OdoriMotion *motion,
              guint              segment,
              const char        *frame_time,
              const OdoriField  *fields,
              const OdoriUnit   *units,
              guint              n_fields,
              OdoriOutput       *out)
{
  g_autofree char *name = segment_name_for_file (&motion->segments[segment], segment);

  odori_output_write (out, "Segment:\t", 9);
  odori_output_text (out, name);
  odori_output_printf (out, "\nFrames:\t%u\nFrame Time:\t%s\n", motion->n_frames, frame_time);
  for (guint i = 0; i < n_fields; i++)
    {
      if (i > 0)
        odori_output_char (out, '\t');
      odori_output_text (out, odori_field_to_string (fields[i]));
    }
  odori_output_char (out, '\n');
  for (guint i = 0; i < n_fields; i++)
    {
      if (i > 0)
        odori_output_char (out, '\t');
      odori_output_text (out, odori_unit_to_string (units[i]));
    }
  odori_output_char (out, '\n');
}

/* Angles as written: Z, X, Y in the column's unit, and back in degrees as read. */
typedef struct
{
  gboolean present[3];
  double   to_unit[3];    /* degrees -> the column's unit */
  double   to_degrees[3]; /* the column's unit -> degrees, the reader's own factor */
  double   snap[3];       /* how close an angle must be to a rounder one to try it */
} AngleColumns;

static gboolean
angle_columns_init (AngleColumns     *ac,
                    const OdoriField *fields,
                    const OdoriUnit  *units,
                    guint             n_fields)
{
  gboolean any = FALSE;

  memset (ac, 0, sizeof *ac);
  for (guint i = 0; i < n_fields; i++)
    {
      int k = fields[i] == ODORI_FIELD_ZROT ? 0 : fields[i] == ODORI_FIELD_XROT ? 1
            : fields[i] == ODORI_FIELD_YROT ? 2 : -1;
      gboolean rad = units[i] == ODORI_UNIT_RADIANS;

      if (k < 0)
        continue;
      any = ac->present[k] = TRUE;
      ac->to_unit[k] = rad ? G_PI / 180.0 : 1.0;
      ac->to_degrees[k] = rad ? 180.0 / G_PI : 1.0;
      ac->snap[k] = 2e-5 * ac->to_unit[k];
    }
  return any;
}

static const double pow10_table[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };

/* X rounded to DECIMALS, as the double the reader gets from its text. */
static double
round_decimals (double x,
                int    decimals)
{
  if (fabs (x) >= 1e9)
    return x;
  return (double) llround (x * pow10_table[decimals]) / pow10_table[decimals];
}

/* Degrees to written values: an angle within float noise of a number with at most 4
 * decimals (90 for 89.9999993) takes that number, the others are rounded to 6 decimals. */
static void
angles_to_columns (const AngleColumns *ac,
                   const double        deg[3],
                   double              out[3])
{
  for (int k = 0; k < 3; k++)
    {
      double x = deg[k] * ac->to_unit[k];
      int d;

      out[k] = 0;
      if (!ac->present[k])
        continue;
      /* Rounder numbers are 4-decimal numbers too: most angles stop at the first test. */
      if (fabs (x - round_decimals (x, 4)) > ac->snap[k])
        {
          out[k] = round_decimals (x, 6);
          continue;
        }
      for (d = 0; d < 4; d++)
        if (fabs (x - round_decimals (x, d)) <= ac->snap[k])
          break;
      out[k] = round_decimals (x, d);
    }
}

/* The value to write for a float the reader stored: the roundest number of at most 6
 * decimals that reads back as the same float (82.313, not 82.313004). */
static double
float_to_column (float f)
{
  /* If the nearest 5-decimal number is not F, no rounder one (farther away) is. */
  if ((float) round_decimals (f, 5) != f)
    return f;
  for (int d = 0; d < 5; d++)
    {
      double r = round_decimals (f, d);

      if ((float) r == f)
        return r;
    }
  return round_decimals (f, 5);
}

static void
columns_to_angles (const AngleColumns *ac,
                   const double        out[3],
                   double              deg[3])
{
  for (int k = 0; k < 3; k++)
    deg[k] = ac->present[k] ? out[k] * ac->to_degrees[k] : 0;
}

/* Chooses the angles to write for Q so that saving what is read back writes the same
 * text: either the angles read back give Q exactly, or they give a Q' whose own angles
 * are the same text (a fixed point). Float quaternions hold an angle to ~1e-5 degrees,
 * so plain rounding would drift by a digit on each save. PREV (degrees, or NULL) is the
 * previous frame as read back; on return PREV holds this frame's, for the next one. */
static void
choose_angles (const AngleColumns *ac,
               const float         q[4],
               double             *prev,
               gboolean            have_prev,
               double              out[3])
{
  double deg[3];

  odori_quat_to_euler ("ZXY", q, have_prev ? prev : NULL, deg);
  angles_to_columns (ac, deg, out);
  for (int iter = 0; iter < 4; iter++)
    {
      double next[3];
      float back[4];

      columns_to_angles (ac, out, deg);
      rotation_from_zxy (deg, back, NULL);
      if (memcmp (back, q, sizeof back) == 0)
        break;
      odori_quat_to_euler ("ZXY", back, have_prev ? prev : NULL, deg);
      angles_to_columns (ac, deg, next);
      if (memcmp (next, out, sizeof next) == 0)
        break;
      memcpy (out, next, sizeof next);
    }
  columns_to_angles (ac, out, prev);
}

static void
write_segment (const OdoriMotion *motion,
               guint              segment,
               const char        *frame_time,
               OdoriOutput       *out)
{
  OdoriField fields[ODORI_N_FIELDS];
  OdoriUnit units[ODORI_N_FIELDS];
  guint n_fields = segment_columns (&motion->segments[segment], fields, units);
  AngleColumns ac;
  gboolean has_rotation = angle_columns_init (&ac, fields, units, n_fields);
  double prev[3] = { 0, 0, 0 };
  double zxy[3] = { 0, 0, 0 };
  /* 9 values of at most 40 bytes, separators and the line end. */
  char buf[ODORI_N_FIELDS * 41 + 1];

  write_header (motion, segment, frame_time, fields, units, n_fields, out);

  for (guint f = 0; f < motion->n_frames; f++)
    {
      OdoriTransform        t_world;
      const OdoriTransform *t = odori_motion_world (motion, f, segment, &t_world);
      double v[ODORI_N_FIELDS] = { 0 };
      gsize len = 0;

      /* Each frame's angles are the solution nearest the previous frame's: no +-180
       * flips. ZXY holds them in the columns' units. */
      if (has_rotation)
        choose_angles (&ac, t->rotation, prev, f > 0, zxy);
      v[ODORI_FIELD_XROT] = zxy[1];
      v[ODORI_FIELD_YROT] = zxy[2];
      v[ODORI_FIELD_ZROT] = zxy[0];

      for (guint i = 0; i < n_fields; i++)
        {
          OdoriField field = fields[i];
          double x;

          if (field <= ODORI_FIELD_ZTRAN)
            x = float_to_column (t->position[field - ODORI_FIELD_XTRAN]);
          else if (field >= ODORI_FIELD_XSCALE)
            x = float_to_column (t->scale[field - ODORI_FIELD_XSCALE]);
          else
            x = v[field];
          if (i > 0)
            buf[len++] = ' ';
          len += odori_format_fixed (buf + len, x, 6);
        }
      buf[len++] = '\n';
      odori_output_write (out, buf, len);
    }
}

void
odori_bva_write (const OdoriMotion *motion,
                 OdoriOutput       *out)
{
  char frame_time[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_if_fail (motion != NULL);
  g_return_if_fail (out != NULL);

  format_frame_time (frame_time, sizeof frame_time, motion->frame_time);
  for (guint s = 0; s < motion->n_segments; s++)
    write_segment (motion, s, frame_time, out);
}

gboolean
odori_bva_save (const OdoriMotion *motion,
                const char        *path,
                GError           **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The reader would refuse the file: better not to write it. */
  if (!(motion->frame_time > 0) || !isfinite (motion->frame_time))
    {
      g_set_error (error, ODORI_BVA_ERROR, ODORI_BVA_ERROR_FRAME_TIME,
                   _("%s: cannot write a motion whose frame time is not a positive number"), path);
      return FALSE;
    }

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  odori_bva_write (motion, out);
  return odori_output_commit (out, error);
}
