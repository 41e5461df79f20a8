/* odori-format.c: detect a file's format by content and load any motion
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-format.h"
#include "odori-text.h"

G_DEFINE_QUARK (odori-format-error-quark, odori_format_error)

/* How many lines of comments the detector looks through before giving up. */
#define MAX_SNIFF_LINES 200

static gboolean
starts_with (const char *line,
             gsize       len,
             const char *prefix)
{
  gsize n = strlen (prefix);

  return len >= n && g_ascii_strncasecmp (line, prefix, n) == 0;
}

static gboolean
starts_with_word (const char *line,
                  gsize       len,
                  const char *word)
{
  gsize n = strlen (word);

  return starts_with (line, len, word) && (len == n || g_ascii_isspace (line[n]));
}

static OdoriFormat
classify_line (const char *line,
               gsize       len)
{
  const char *colon;

  if (starts_with (line, len, "Segment:"))
    return ODORI_FORMAT_BVA;
  if (starts_with_word (line, len, "HIERARCHY"))
    return ODORI_FORMAT_BVH;
  if (line[0] == '#')
    {
      const char *p = odori_skip_blanks (line + 1, line + len);
      gsize rest = line + len - p;

      if (starts_with (p, rest, "Title:") || starts_with (p, rest, "Author:") ||
          starts_with (p, rest, "Date:") || starts_with (p, rest, "Index:"))
        return ODORI_FORMAT_SCORE;
      return ODORI_FORMAT_UNKNOWN;  /* a comment: keep looking */
    }
  if (starts_with_word (line, len, "define") || starts_with_word (line, len, "begin") ||
      starts_with_word (line, len, "motion"))
    return ODORI_FORMAT_INDEX;

  /* "HD: Body,Head" or "1: A1" */
  colon = memchr (line, ':', len);
  if (colon != NULL && colon > line)
    {
      for (const char *c = line; c < colon; c++)
        if (g_ascii_isspace (*c) || *c == '=' || *c == '"')
          return ODORI_FORMAT_UNKNOWN;
      return ODORI_FORMAT_SCORE;
    }
  return ODORI_FORMAT_UNKNOWN;
}

OdoriFormat
odori_format_detect (const char *data,
                     gsize       len)
{
  const char *p = data;
  const char *end = data + len;
  guint lines = 0;

  g_return_val_if_fail (data != NULL || len == 0, ODORI_FORMAT_UNKNOWN);

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    p += 3;

  while (p < end && lines++ < MAX_SNIFF_LINES)
    {
      const char *nl = p;
      const char *line;
      gsize line_len;
      OdoriFormat format;

      while (nl < end && *nl != '\n' && *nl != '\r')
        nl++;
      line = odori_skip_blanks (p, nl);
      line_len = nl - line;
      p = nl < end ? nl + 1 : end;

      if (line_len == 0)
        continue;
      format = classify_line (line, line_len);
      if (format != ODORI_FORMAT_UNKNOWN)
        return format;
      if (line[0] != '#')
        return ODORI_FORMAT_UNKNOWN;
    }
  return ODORI_FORMAT_UNKNOWN;
}

OdoriFormat
odori_format_detect_file (const char  *path,
                          GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  const char *data;
  gsize len;
  OdoriFormat format;

  g_return_val_if_fail (path != NULL, ODORI_FORMAT_UNKNOWN);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return ODORI_FORMAT_UNKNOWN;
  data = odori_text_file_get_data (file, &len);
  format = odori_format_detect (data, len);
  if (format == ODORI_FORMAT_UNKNOWN)
    g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                 "%s:1: not a file Odori reads (expected BVA, BVH, motion.dat or DDS)", path);
  return format;
}

const char *
odori_format_to_string (OdoriFormat format)
{
  switch (format)
    {
    case ODORI_FORMAT_BVA:
      return "bva";
    case ODORI_FORMAT_BVH:
      return "bvh";
    case ODORI_FORMAT_INDEX:
      return "motion.dat";
    case ODORI_FORMAT_SCORE:
      return "dds";
    case ODORI_FORMAT_UNKNOWN:
    default:
      return "unknown";
    }
}

OdoriMotion *
odori_format_load_motion (const char  *path,
                          GPtrArray   *warnings,
                          GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  const char *data;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);

  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  data = odori_text_file_get_data (file, &len);

  switch (odori_format_detect (data, len))
    {
    case ODORI_FORMAT_BVA:
      return odori_bva_load_text (file, warnings, error);
    case ODORI_FORMAT_BVH:
      return odori_bvh_load_text (file, warnings, error);
    case ODORI_FORMAT_INDEX:
    case ODORI_FORMAT_SCORE:
      g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                   "%s:1: expected a motion file (BVA or BVH), found a %s file", path,
                   odori_format_to_string (odori_format_detect (data, len)));
      return NULL;
    case ODORI_FORMAT_UNKNOWN:
    default:
      g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                   "%s:1: not a motion file Odori reads (expected BVA or BVH)", path);
      return NULL;
    }
}
