/* odori-format.c: detect a file's format by content and load any motion
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-format-private.h"
#include "odori-format.h"
#include "odori-formats-private.h"
#include "odori-joints.h"
#include "odori-kbs.h"
#include "odori-reader.h"
#include "odori-retarget.h"
#include "odori-sensor-csv.h"
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
  /* bulge_types: "bulge: "NAME" code: ID" (before the "KEY: value" test below) */
  if (starts_with (line, len, "bulge") &&
      (len == 5 || line[5] == ':' || g_ascii_isspace (line[5])))
    return ODORI_FORMAT_BULGE;

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

  /* Captures and bone settings are told by their first line (a CSV header would pass
   * for a DDS part line below). */
  if (odori_joints_sniff (data, len))
    return ODORI_FORMAT_JOINTS;
  switch (odori_kbs_sniff (data, len))
    {
    case ODORI_KBS_FORMAT_KBS:
      return ODORI_FORMAT_KBS;
    case ODORI_KBS_FORMAT_KST:
      return ODORI_FORMAT_KST;
    case ODORI_KBS_FORMAT_NONE:
    default:
      break;
    }
  if (odori_sensor_csv_sniff (data, len))
    return ODORI_FORMAT_SENSOR_CSV;

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

/* A suit CSV whose header is GBK is neither UTF-8 nor Shift_JIS for the text layer; its
 * reader decodes it. TRUE if PATH's raw bytes look like one. */
static gboolean
raw_is_sensor_csv (const char *path)
{
  g_autoptr(GMappedFile) mapped = odori_mapped_file_new (path, NULL);

  return mapped != NULL && g_mapped_file_get_contents (mapped) != NULL &&
         odori_sensor_csv_sniff (g_mapped_file_get_contents (mapped),
                                 g_mapped_file_get_length (mapped));
}

OdoriFormat
odori_format_detect_file (const char  *path,
                          GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *data;
  gsize len;
  OdoriFormat format;

  g_return_val_if_fail (path != NULL, ODORI_FORMAT_UNKNOWN);

  file = odori_text_file_open (path, &local_error);
  if (file == NULL)
    {
      if (g_error_matches (local_error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING) &&
          raw_is_sensor_csv (path))
        return ODORI_FORMAT_SENSOR_CSV;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return ODORI_FORMAT_UNKNOWN;
    }
  data = odori_text_file_get_data (file, &len);
  format = odori_format_detect (data, len);
  if (format == ODORI_FORMAT_UNKNOWN)
    g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                 _("%s:1: not a file Odori reads (expected BVA, BVH, motion.dat, DDS, "
                   "bulge_types, NI_JOINTS_TEXT_FILE, a sensor CSV, KBS or KST)"), path);
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
    case ODORI_FORMAT_BULGE:
      return "bulge_types";
    case ODORI_FORMAT_JOINTS:
      return "joints";
    case ODORI_FORMAT_SENSOR_CSV:
      return "sensor-csv";
    case ODORI_FORMAT_KBS:
      return "kbs";
    case ODORI_FORMAT_KST:
      return "kst";
    case ODORI_FORMAT_UNKNOWN:
    default:
      return "unknown";
    }
}

/* BVA or BVH when the first 64 KiB of PATH, cut after their last line end, are UTF-8
 * and odori_format_detect () says so (those readers stream the file through one buffer,
 * and read it whole themselves when it is not UTF-8); ODORI_FORMAT_UNKNOWN otherwise. */
static OdoriFormat
detect_streamed_motion (const char *path)
{
  g_autofree char *head = NULL;
  gsize len = 0;
  OdoriFormat format;

  head = odori_read_limited (path, 65536, &len, NULL);
  if (head == NULL)
    return ODORI_FORMAT_UNKNOWN;
  if (len > 65536)
    {
      while (len > 0 && head[len - 1] != '\n' && head[len - 1] != '\r')
        len--;
    }
  /* most motion files are ASCII: g_utf8_validate_len () on the 64 KiB was a sixteenth of
   * loading a 230 KB clip */
  if (len == 0 || memchr (head, '\0', len) != NULL ||
      !(odori_is_ascii (head, len) || g_utf8_validate_len (head, len, NULL)))
    return ODORI_FORMAT_UNKNOWN;
  format = odori_format_detect (head, len);
  return format == ODORI_FORMAT_BVA || format == ODORI_FORMAT_BVH ? format : ODORI_FORMAT_UNKNOWN;
}

OdoriMotion *
odori_format_load_streamed_motion (const char    *path,
                                   OdoriFormat   *format,
                                   OdoriEncoding *encoding,
                                   GPtrArray     *warnings,
                                   GError       **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (format != NULL, NULL);

  *format = detect_streamed_motion (path);
  switch (*format)
    {
    case ODORI_FORMAT_BVA:
      return odori_bva_load_encoded (path, encoding, warnings, error);
    case ODORI_FORMAT_BVH:
      return odori_bvh_load_encoded (path, encoding, warnings, error);
    default:
      *format = ODORI_FORMAT_UNKNOWN;
      return NULL;
    }
}

OdoriMotion *
odori_format_load_motion (const char  *path,
                          GPtrArray   *warnings,
                          GError     **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *data;
  gsize len;
  OdoriFormat  format;
  OdoriMotion *motion;

  g_return_val_if_fail (path != NULL, NULL);

  motion = odori_format_load_streamed_motion (path, &format, NULL, warnings, error);
  if (format != ODORI_FORMAT_UNKNOWN)
    return motion;
  file = odori_text_file_open (path, &local_error);
  if (file == NULL)
    {
      if (g_error_matches (local_error, ODORI_TEXT_ERROR, ODORI_TEXT_ERROR_ENCODING) &&
          raw_is_sensor_csv (path))
        return odori_capture_import (path, NULL, NULL, warnings, error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  data = odori_text_file_get_data (file, &len);

  switch (odori_format_detect (data, len))
    {
    case ODORI_FORMAT_JOINTS:
    case ODORI_FORMAT_SENSOR_CSV:
      /* captures as show files: the default import options */
      return odori_capture_import (path, NULL, NULL, warnings, error);
    case ODORI_FORMAT_BVA:
      return odori_bva_load_text (file, warnings, error);
    case ODORI_FORMAT_BVH:
      return odori_bvh_load_text (file, warnings, error);
    case ODORI_FORMAT_INDEX:
    case ODORI_FORMAT_SCORE:
    case ODORI_FORMAT_BULGE:
    case ODORI_FORMAT_KBS:
    case ODORI_FORMAT_KST:
      g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                   _("%s:1: expected a motion file (BVA or BVH), found a %s file"), path,
                   odori_format_to_string (odori_format_detect (data, len)));
      return NULL;
    case ODORI_FORMAT_UNKNOWN:
    default:
      g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                   _("%s:1: not a motion file Odori reads (expected BVA, BVH, NI_JOINTS_TEXT_FILE or a sensor CSV)"), path);
      return NULL;
    }
}
