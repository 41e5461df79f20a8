/* odori-kbs.c: Kinect bone settings, KBS (XML) and KST (Shift_JIS text) (FORMATS.md §6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements:
 * - KBS: root <KBS>, a <FileInfo> with <kind>KinectBoneSettingFile</kind> (required),
 *   <version> and <type> (optional integers, kept). Joint elements TOP_OF_JOINT and
 *   SKEL_xxx in any order, each with <RDBBone> (the target bone; empty = not mapped) and
 *   <twist> (1 or 0; missing = 1 with a warning). A missing joint element is "not mapped";
 *   a joint given twice is an error; unknown elements are skipped with a warning.
 * - Safety: at most ODORI_KBS_MAX_BYTES; parsed with XML_PARSE_NONET and without
 *   XML_PARSE_NOENT / XML_PARSE_DTDLOAD; any DOCTYPE or entity declaration stops the
 *   parser at the declaration and is refused (a KBS never has one), so external entities
 *   are never opened and entity bombs never expand.
 * - Encodings: a KBS declaring Shift_JIS (or SJIS, CP932, Windows-31J, MS_Kanji) is
 *   decoded as CP932 by Odori (libxml2's iconv "Shift_JIS" lacks the Windows extensions)
 *   and parsed as UTF-8; anything else is left to libxml2. Saving writes the declaration
 *   for the encoding chosen: Shift_JIS (CP932 bytes) or UTF-8.
 * - KST: first line `Rps2Qua:ConvSettingFile:verNNNN:typeNN`, then lines
 *   `NNSKEL_xxx, "bone", "twist"|"nottwist"` (00TOP_OF_JOINT .. 15SKEL_RIGHT_HAND); the
 *   number must be the joint's; blank lines are skipped; any other line is an error.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "odori-kbs.h"
#include "odori-reader.h"

G_DEFINE_QUARK (odori-kbs-error-quark, odori_kbs_error)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlBuffer, xmlBufferFree)

#define KBS_KIND "KinectBoneSettingFile"
#define KST_MAGIC "Rps2Qua:ConvSettingFile"
#define DEFAULT_VERSION 1001

static const char *joint_names[ODORI_KINECT_N_JOINTS] = {
  "TOP_OF_JOINT", "TORSO",
  "LEFT_HIP", "LEFT_KNEE", "LEFT_FOOT", "RIGHT_HIP", "RIGHT_KNEE", "RIGHT_FOOT",
  "NECK", "HEAD",
  "LEFT_SHOULDER", "LEFT_ELBOW", "LEFT_HAND", "RIGHT_SHOULDER", "RIGHT_ELBOW", "RIGHT_HAND",
};

static const char *element_names[ODORI_KINECT_N_JOINTS] = {
  "TOP_OF_JOINT", "SKEL_TORSO",
  "SKEL_LEFT_HIP", "SKEL_LEFT_KNEE", "SKEL_LEFT_FOOT",
  "SKEL_RIGHT_HIP", "SKEL_RIGHT_KNEE", "SKEL_RIGHT_FOOT",
  "SKEL_NECK", "SKEL_HEAD",
  "SKEL_LEFT_SHOULDER", "SKEL_LEFT_ELBOW", "SKEL_LEFT_HAND",
  "SKEL_RIGHT_SHOULDER", "SKEL_RIGHT_ELBOW", "SKEL_RIGHT_HAND",
};

/* Joint names */

const char *
odori_kinect_joint_to_string (OdoriKinectJoint joint)
{
  g_return_val_if_fail ((guint) joint < ODORI_KINECT_N_JOINTS, NULL);
  return joint_names[joint];
}

const char *
odori_kinect_joint_to_element (OdoriKinectJoint joint)
{
  g_return_val_if_fail ((guint) joint < ODORI_KINECT_N_JOINTS, NULL);
  return element_names[joint];
}

gboolean
odori_kinect_joint_from_string (const char       *name,
                                OdoriKinectJoint *joint)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    if (strcmp (name, joint_names[j]) == 0 || strcmp (name, element_names[j]) == 0)
      {
        if (joint != NULL)
          *joint = j;
        return TRUE;
      }
  return FALSE;
}

/* The object */

OdoriKbs *
odori_kbs_new (void)
{
  OdoriKbs *kbs = g_new0 (OdoriKbs, 1);

  g_atomic_ref_count_init (&kbs->ref_count);
  kbs->format = ODORI_KBS_FORMAT_KBS;
  kbs->encoding = ODORI_ENCODING_SHIFT_JIS;
  kbs->version = DEFAULT_VERSION;
  kbs->type = 0;
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    kbs->joints[j].twist = TRUE;
  return kbs;
}

OdoriKbs *
odori_kbs_ref (OdoriKbs *kbs)
{
  g_return_val_if_fail (kbs != NULL, NULL);
  g_atomic_ref_count_inc (&kbs->ref_count);
  return kbs;
}

void
odori_kbs_unref (OdoriKbs *kbs)
{
  if (kbs == NULL || !g_atomic_ref_count_dec (&kbs->ref_count))
    return;
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    g_free (kbs->joints[j].bone);
  g_free (kbs);
}

void
odori_kbs_set_joint (OdoriKbs         *kbs,
                     OdoriKinectJoint  joint,
                     const char       *bone,
                     gboolean          twist)
{
  g_return_if_fail (kbs != NULL);
  g_return_if_fail ((guint) joint < ODORI_KINECT_N_JOINTS);

  g_free (kbs->joints[joint].bone);
  kbs->joints[joint].bone = bone != NULL && bone[0] != '\0' ? g_strdup (bone) : NULL;
  kbs->joints[joint].twist = twist;
  kbs->joints[joint].line = 0;
}

int
odori_kbs_find_bone (const OdoriKbs *kbs,
                     const char     *bone)
{
  g_return_val_if_fail (kbs != NULL, -1);
  g_return_val_if_fail (bone != NULL, -1);

  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    if (kbs->joints[j].bone != NULL && strcmp (kbs->joints[j].bone, bone) == 0)
      return j;
  return -1;
}

/* Errors */

/* A bone name is a line of text: no control characters but tabs (they could not be
 * written back as XML, and no model names a bone with them). */
static gboolean
bone_name_ok (const char *name,
              gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (((guchar) name[i] < 0x20 && name[i] != '\t') || name[i] == 0x7f)
      return FALSE;
  return g_utf8_validate_len (name, len, NULL);
}

/* Sniffing */

static gboolean
has_prefix (const char *p,
            const char *end,
            const char *prefix)
{
  gsize n = strlen (prefix);

  return (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

/* Past the next occurrence of NEEDLE in [p, end), or NULL. */
static const char *
skip_past (const char *p,
           const char *end,
           const char *needle)
{
  gsize n = strlen (needle);

  for (; p + n <= end; p++)
    if (memcmp (p, needle, n) == 0)
      return p + n;
  return NULL;
}

OdoriKbsFormat
odori_kbs_sniff (const char *data,
                 gsize       len)
{
  const char *end;
  const char *p = data;

  g_return_val_if_fail (data != NULL || len == 0, ODORI_KBS_FORMAT_NONE);

  end = data + MIN (len, (gsize) 4096);
  if (has_prefix (p, end, "\xEF\xBB\xBF"))
    p += 3;
  p = skip_space (p, end);
  if (has_prefix (p, end, KST_MAGIC))
    return ODORI_KBS_FORMAT_KST;

  /* XML: skip the declaration, comments, processing instructions and a DOCTYPE, then
   * look at the first element's name. */
  while (p != NULL && p < end && *p == '<')
    {
      if (has_prefix (p, end, "<?"))
        p = skip_past (p, end, "?>");
      else if (has_prefix (p, end, "<!--"))
        p = skip_past (p, end, "-->");
      else if (has_prefix (p, end, "<!"))
        p = skip_past (p, end, ">");
      else
        {
          if (has_prefix (p, end, "<KBS") && p + 4 < end &&
              (p[4] == '>' || p[4] == '/' || g_ascii_isspace (p[4])))
            return ODORI_KBS_FORMAT_KBS;
          return ODORI_KBS_FORMAT_NONE;
        }
      if (p != NULL)
        p = skip_space (p, end);
    }
  return ODORI_KBS_FORMAT_NONE;
}

/* Reading the file */

OdoriKbs *
odori_kbs_load (const char  *path,
                GPtrArray   *warnings,
                GError     **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  data = odori_read_limited (path, ODORI_KBS_MAX_BYTES, &len, error);
  if (data == NULL)
    return NULL;
  return odori_kbs_load_data (path, data, len, warnings, error);
}

/* XML */

/* The encoding named in the XML declaration at the start of DATA, or NULL. */
static char *
declared_encoding (const char *data,
                   gsize       len)
{
  const char *end = data + MIN (len, (gsize) 1024);
  const char *p = data;
  const char *decl_end, *enc;

  if (has_prefix (p, end, "\xEF\xBB\xBF"))
    p += 3;
  if (!has_prefix (p, end, "<?xml"))
    return NULL;
  decl_end = skip_past (p, end, "?>");
  if (decl_end == NULL)
    return NULL;
  enc = skip_past (p, decl_end, "encoding");
  if (enc == NULL)
    return NULL;
  enc = skip_space (enc, decl_end);
  if (enc >= decl_end || *enc != '=')
    return NULL;
  enc = skip_space (enc + 1, decl_end);
  if (enc >= decl_end || (*enc != '"' && *enc != '\''))
    return NULL;
  for (const char *q = enc + 1; q < decl_end; q++)
    if (*q == *enc)
      return g_strndup (enc + 1, q - enc - 1);
  return NULL;
}

static gboolean
is_shift_jis_name (const char *name)
{
  static const char *names[] = {
    "shift_jis", "shift-jis", "sjis", "x-sjis", "cp932", "windows-31j", "ms_kanji",
    "csshiftjis", "ms932",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

static xmlDoc *
parse_xml (const char     *path,
           const char     *data,
           gsize           len,
           OdoriEncoding  *encoding,
           GError        **error)
{
  g_autofree char *declared = declared_encoding (data, len);
  g_autofree char *converted = NULL;
  const char *forced = NULL;
  const OdoriXmlErrors xml_errors = {
    ODORI_KBS_ERROR, ODORI_KBS_ERROR_XML, ODORI_KBS_ERROR_DTD,
    _("a DOCTYPE or entity declaration: a KBS file has none, and it is not read (no external "
      "entities, no entity expansion)"),
  };

  *encoding = len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0 ? ODORI_ENCODING_UTF8_BOM
                                                                : ODORI_ENCODING_UTF8;
  if (declared != NULL && is_shift_jis_name (declared))
    {
      gsize bytes_read = 0, written = 0;

      converted = g_convert (data, len, "UTF-8", "CP932", &bytes_read, &written, NULL);
      if (converted == NULL)
        {
          odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_XML, path, 1,
                           _("the file declares encoding \"%s\" but byte %zu is not "
                             "Shift_JIS"), declared, bytes_read + 1);
          return NULL;
        }
      data = converted;
      len = written;
      forced = "UTF-8";
      *encoding = ODORI_ENCODING_SHIFT_JIS;
    }

  if (len > G_MAXINT)
    {
      odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_TOO_LARGE, path, 1,
                       _("the file is too large for a KBS"));
      return NULL;
    }

  return odori_xml_read (path, data, len, forced, &xml_errors, error);
}

static xmlNode *
first_child_element (xmlNode    *node,
                     const char *name)
{
  for (xmlNode *c = node->children; c != NULL; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp ((const char *) c->name, name) == 0)
      return c;
  return NULL;
}

/* The element's text, trimmed (never NULL). */
static char *
element_text (xmlNode *node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = g_strdup (content != NULL ? (const char *) content : "");

  xmlFree (content);
  return g_strstrip (text);
}

static gboolean
parse_int_text (const char *text,
                int        *out)
{
  gint64 value;
  const char *p = text;
  const char *end = text + strlen (text);

  if (!odori_parse_int (&p, end, &value) || p != end || value < G_MININT || value > G_MAXINT)
    return FALSE;
  *out = (int) value;
  return TRUE;
}

static gboolean
read_file_info (OdoriKbs    *kbs,
                xmlNode     *root,
                const char  *path,
                GError     **error)
{
  xmlNode *info = first_child_element (root, "FileInfo");
  xmlNode *kind, *version, *type;
  g_autofree char *kind_text = NULL;

  if (info == NULL)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_FILE_INFO, path,
                            xmlGetLineNo (root),
                            _("expected a <FileInfo> element in <KBS>, found none"));
  kind = first_child_element (info, "kind");
  if (kind == NULL)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_KIND, path, xmlGetLineNo (info),
                            _("expected <kind>KinectBoneSettingFile</kind> in <FileInfo>, found "
                              "none"));
  kind_text = element_text (kind);
  if (strcmp (kind_text, KBS_KIND) != 0)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_KIND, path, xmlGetLineNo (kind),
                            _("expected kind KinectBoneSettingFile, found \"%s\": not a Kinect "
                              "bone setting"),
                            kind_text);

  version = first_child_element (info, "version");
  if (version != NULL)
    {
      g_autofree char *text = element_text (version);

      if (!parse_int_text (text, &kbs->version))
        return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path,
                                xmlGetLineNo (version),
                                _("expected an integer <version>, found \"%s\""), text);
    }
  type = first_child_element (info, "type");
  if (type != NULL)
    {
      g_autofree char *text = element_text (type);

      if (!parse_int_text (text, &kbs->type))
        return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path,
                                xmlGetLineNo (type),
                                _("expected an integer <type>, found \"%s\""), text);
    }
  return TRUE;
}

static gboolean
read_joint (OdoriKbs         *kbs,
            OdoriKinectJoint  joint,
            xmlNode          *node,
            const char       *path,
            GPtrArray        *warnings,
            GError          **error)
{
  OdoriKbsJoint *kj = &kbs->joints[joint];
  xmlNode *bone = first_child_element (node, "RDBBone");
  xmlNode *twist = first_child_element (node, "twist");
  long line = xmlGetLineNo (node);

  if (kj->line != 0)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path, line,
                            _("<%s> is given twice (first on line "
                              "%u)"), element_names[joint], kj->line);
  kj->line = MAX (line, 1);

  if (bone != NULL)
    {
      g_autofree char *text = element_text (bone);

      if (!bone_name_ok (text, strlen (text)))
        return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path,
                                xmlGetLineNo (bone),
                                _("the bone name of <%s> contains a control character"),
                                element_names[joint]);
      g_free (kj->bone);
      kj->bone = text[0] != '\0' ? g_steal_pointer (&text) : NULL;
    }
  kj->twist = TRUE;
  if (twist == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("<%s> has no <twist>; using 1"),
                                              element_names[joint]);
      odori_add_warning (warnings, path, kj->line, "%s", msg);
    }
  else
    {
      g_autofree char *text = element_text (twist);

      if (strcmp (text, "1") == 0)
        kj->twist = TRUE;
      else if (strcmp (text, "0") == 0)
        kj->twist = FALSE;
      else
        return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path,
                                xmlGetLineNo (twist),
                                _("expected <twist> 0 or 1 in <%s>, found \"%s\""),
                                element_names[joint], text);
    }
  return TRUE;
}

static OdoriKbs *
load_kbs (const char  *path,
          const char  *data,
          gsize        len,
          GPtrArray   *warnings,
          GError     **error)
{
  g_autoptr(OdoriKbs) kbs = odori_kbs_new ();
  g_autoptr(xmlDoc) doc = NULL;
  xmlNode *root;

  doc = parse_xml (path, data, len, &kbs->encoding, error);
  if (doc == NULL)
    return NULL;
  kbs->format = ODORI_KBS_FORMAT_KBS;

  root = xmlDocGetRootElement (doc);
  if (root == NULL || strcmp ((const char *) root->name, "KBS") != 0)
    {
      odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_ROOT, path,
                       root ? xmlGetLineNo (root) : 1,
                       _("expected the root element <KBS>, found <%s>: not a Kinect bone setting"),
                       root ? (const char *) root->name : "");
      return NULL;
    }
  if (!read_file_info (kbs, root, path, error))
    return NULL;

  for (xmlNode *c = root->children; c != NULL; c = c->next)
    {
      OdoriKinectJoint joint;
      const char *name = (const char *) c->name;

      if (c->type != XML_ELEMENT_NODE || strcmp (name, "FileInfo") == 0)
        continue;
      if (!odori_kinect_joint_from_string (name, &joint) ||
          strcmp (name, element_names[joint]) != 0)
        {
          g_autofree char *msg = g_strdup_printf (_("unknown element <%s> skipped"), name);

          odori_add_warning (warnings, path, MAX (xmlGetLineNo (c), 1), "%s", msg);
          continue;
        }
      if (!read_joint (kbs, joint, c, path, warnings, error))
        return NULL;
    }
  return g_steal_pointer (&kbs);
}

/* KST */

static gboolean
kst_error (GError     **error,
           int          code,
           const char  *path,
           guint        line,
           const char  *what,
           const char  *text,
           gsize        len)
{
  g_autofree char *found = odori_excerpt (text, len);

  return odori_set_error (error, ODORI_KBS_ERROR, code, path, line, "%s, found \"%s\"", what,
                          found);
}

/* A double-quoted string at *p (after blanks); sets [*start, *start + *len). */
static gboolean
kst_quoted (const char **p,
            const char  *end,
            const char **start,
            gsize       *len)
{
  const char *q = odori_skip_blanks (*p, end);
  const char *close;

  if (q >= end || *q != '"')
    return FALSE;
  close = memchr (q + 1, '"', end - q - 1);
  if (close == NULL)
    return FALSE;
  *start = q + 1;
  *len = close - q - 1;
  *p = close + 1;
  return TRUE;
}

static gboolean
kst_comma (const char **p,
           const char  *end)
{
  const char *q = odori_skip_blanks (*p, end);

  if (q >= end || *q != ',')
    return FALSE;
  *p = q + 1;
  return TRUE;
}

static void
kst_header (OdoriKbs   *kbs,
            const char *line,
            gsize       len)
{
  g_autofree char *text = g_strndup (line, len);
  g_auto(GStrv) fields = g_strsplit (text, ":", -1);

  for (guint i = 2; fields[i] != NULL; i++)
    {
      char *f = g_strstrip (fields[i]);

      if (g_str_has_prefix (f, "ver"))
        parse_int_text (f + 3, &kbs->version);
      else if (g_str_has_prefix (f, "type"))
        parse_int_text (f + 4, &kbs->type);
    }
}

static gboolean
kst_line (OdoriKbs    *kbs,
          const char  *path,
          guint        lineno,
          const char  *line,
          gsize        len,
          GError     **error)
{
  const char *end = line + len;
  const char *p = odori_skip_blanks (line, end);
  const char *key = p, *key_end, *bone, *twist;
  gsize bone_len, twist_len;
  OdoriKinectJoint joint;
  g_autofree char *name = NULL;
  const char *what = _("expected NNSKEL_NAME, \"bone\", \"twist\" or \"nottwist\"");

  key_end = memchr (p, ',', end - p);
  if (key_end == NULL)
    return kst_error (error, ODORI_KBS_ERROR_KST_SYNTAX, path, lineno, what, line, len);
  p = key_end;
  key_end = odori_trim_blanks (key, key_end);
  if (key_end - key < 3 || !g_ascii_isdigit (key[0]) || !g_ascii_isdigit (key[1]))
    return kst_error (error, ODORI_KBS_ERROR_KST_SYNTAX, path, lineno,
                      _("expected a two-digit joint number and name like 00TOP_OF_JOINT"),
                      key, key_end - key);
  name = g_strndup (key + 2, key_end - key - 2);
  if (!odori_kinect_joint_from_string (name, &joint) || strcmp (name, element_names[joint]) != 0)
    return kst_error (error, ODORI_KBS_ERROR_KST_SYNTAX, path, lineno,
                      _("expected a joint name TOP_OF_JOINT or SKEL_xxx"), key + 2,
                      key_end - key - 2);
  if ((guint) ((key[0] - '0') * 10 + (key[1] - '0')) != (guint) joint)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_KST_SYNTAX, path, lineno,
                            _("%s is joint number %02u, found %c%c"), name, joint, key[0], key[1]);

  if (!kst_comma (&p, end) || !kst_quoted (&p, end, &bone, &bone_len) ||
      !kst_comma (&p, end) || !kst_quoted (&p, end, &twist, &twist_len) ||
      odori_skip_blanks (p, end) != end)
    return kst_error (error, ODORI_KBS_ERROR_KST_SYNTAX, path, lineno, what, line, len);

  if (kbs->joints[joint].line != 0)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path, lineno,
                            _("%s is given twice (first on line "
                              "%u)"), name, kbs->joints[joint].line);
  /* Blanks around the name inside the quotes are dropped, as KBS element text is
   * trimmed: a KST read and saved as KBS names the same bones. */
  while (bone_len > 0 && (bone[0] == ' ' || bone[0] == '\t'))
    {
      bone++;
      bone_len--;
    }
  while (bone_len > 0 && (bone[bone_len - 1] == ' ' || bone[bone_len - 1] == '\t'))
    bone_len--;
  if (!bone_name_ok (bone, bone_len))
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, path, lineno,
                            _("the bone name of %s contains a control character"), name);
  if (twist_len == 5 && memcmp (twist, "twist", 5) == 0)
    kbs->joints[joint].twist = TRUE;
  else if (twist_len == 8 && memcmp (twist, "nottwist", 8) == 0)
    kbs->joints[joint].twist = FALSE;
  else
    return kst_error (error, ODORI_KBS_ERROR_INVALID, path, lineno,
                      _("expected \"twist\" or \"nottwist\""), twist, twist_len);
  g_free (kbs->joints[joint].bone);
  kbs->joints[joint].bone = bone_len > 0 ? g_strndup (bone, bone_len) : NULL;
  kbs->joints[joint].line = lineno;
  return TRUE;
}

static OdoriKbs *
load_kst (const char  *path,
          const char  *data,
          gsize        len,
          GError     **error)
{
  g_autoptr(OdoriKbs) kbs = odori_kbs_new ();
  g_autoptr(OdoriTextFile) file = odori_text_file_new_from_data (path, data, len, error);
  OdoriLineReader reader;
  gboolean header = FALSE;

  if (file == NULL)
    return NULL;
  kbs->format = ODORI_KBS_FORMAT_KST;
  kbs->encoding = odori_text_file_get_encoding (file);
  odori_line_reader_init (&reader, file);
  while (odori_line_reader_next (&reader))
    {
      const char *end = reader.line + reader.len;
      const char *p = odori_skip_blanks (reader.line, end);

      if (p == end)
        continue;
      if (!header)
        {
          if (!has_prefix (p, end, KST_MAGIC))
            {
              kst_error (error, ODORI_KBS_ERROR_KST_HEADER, path, reader.lineno,
                         _("expected the KST header "
                           "Rps2Qua:ConvSettingFile:ver1001:type01"), p, end - p);
              return NULL;
            }
          kst_header (kbs, p, end - p);
          header = TRUE;
          continue;
        }
      if (!kst_line (kbs, path, reader.lineno, p, end - p, error))
        return NULL;
    }
  if (!header)
    {
      odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_KST_HEADER, path, 1,
                       _("expected the KST header Rps2Qua:ConvSettingFile:ver1001:type01, found an "
                         "empty file"));
      return NULL;
    }
  return g_steal_pointer (&kbs);
}

OdoriKbs *
odori_kbs_load_data (const char  *display_name,
                     const char  *data,
                     gsize        len,
                     GPtrArray   *warnings,
                     GError     **error)
{
  const char *p, *end;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (display_name == NULL)
    display_name = "(data)";
  if (len > ODORI_KBS_MAX_BYTES)
    {
      odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_TOO_LARGE, display_name, 1,
                       _("the file is larger than %d bytes, too large for a KBS or KST"),
                       ODORI_KBS_MAX_BYTES);
      return NULL;
    }

  /* XML if it starts with '<', else a KST (whose header check explains a wrong file). */
  end = data + len;
  p = data;
  if (has_prefix (p, end, "\xEF\xBB\xBF"))
    p += 3;
  p = skip_space (p, end);
  if (p < end && *p == '<')
    return load_kbs (display_name, data, len, warnings, error);
  return load_kst (display_name, data, len, error);
}

/* Writing */

static gboolean
check_bone_name (const char  *bone,
                 GError     **error)
{
  if (!bone_name_ok (bone, strlen (bone)))
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_INVALID, "(kbs)", 1,
                            _("the bone name \"%s\" is not valid UTF-8 or contains a control "
                              "character"), bone);
  return TRUE;
}

gboolean
odori_kbs_write (const OdoriKbs  *kbs,
                 OdoriEncoding    encoding,
                 OdoriOutput     *out,
                 GError         **error)
{
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(xmlBuffer) buf = NULL;
  xmlNode *root, *info;
  char number[32];

  g_return_val_if_fail (kbs != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    if (kbs->joints[j].bone != NULL && !check_bone_name (kbs->joints[j].bone, error))
      return FALSE;

  doc = xmlNewDoc ((const xmlChar *) "1.0");
  doc->encoding = xmlStrdup ((const xmlChar *) "UTF-8");
  root = xmlNewDocNode (doc, NULL, (const xmlChar *) "KBS", NULL);
  xmlDocSetRootElement (doc, root);
  info = xmlNewChild (root, NULL, (const xmlChar *) "FileInfo", NULL);
  xmlNewTextChild (info, NULL, (const xmlChar *) "kind", (const xmlChar *) KBS_KIND);
  g_snprintf (number, sizeof number, "%d", kbs->version);
  xmlNewTextChild (info, NULL, (const xmlChar *) "version", (const xmlChar *) number);
  g_snprintf (number, sizeof number, "%d", kbs->type);
  xmlNewTextChild (info, NULL, (const xmlChar *) "type", (const xmlChar *) number);
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      xmlNode *el;

      if (kbs->joints[j].bone == NULL)
        continue;
      el = xmlNewChild (root, NULL, (const xmlChar *) element_names[j], NULL);
      xmlNewTextChild (el, NULL, (const xmlChar *) "RDBBone", (const xmlChar *) kbs->joints[j].bone);
      xmlNewTextChild (el, NULL, (const xmlChar *) "twist",
                       (const xmlChar *) (kbs->joints[j].twist ? "1" : "0"));
    }

  buf = xmlBufferCreate ();
  if (buf == NULL || xmlNodeDump (buf, doc, root, 0, 1) < 0)
    return odori_set_error (error, ODORI_KBS_ERROR, ODORI_KBS_ERROR_XML, "(kbs)", 1,
                            _("cannot serialise the KBS"));

  odori_output_text (out, encoding == ODORI_ENCODING_SHIFT_JIS
                            ? "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n"
                            : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  odori_output_text (out, (const char *) xmlBufferContent (buf));
  odori_output_char (out, '\n');
  return TRUE;
}

gboolean
odori_kbs_save (const OdoriKbs  *kbs,
                const char      *path,
                OdoriEncoding    encoding,
                GError         **error)
{
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (kbs != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  out = odori_output_new (path, encoding, error);
  if (out == NULL)
    return FALSE;
  if (!odori_kbs_write (kbs, encoding, out, error))
    {
      odori_output_abort (out);
      return FALSE;
    }
  return odori_output_commit (out, error);
}
