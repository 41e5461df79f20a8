/* odori-skeleton-xml.c: a display skeleton's XML description, read (safely: no
 * DOCTYPE, no entities, a size limit) and written atomically (docs/formats.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "odori-reader.h"
#include "odori-skeleton-private.h"
#include "odori-skeleton.h"
#include "odori-text.h"

#define MAX_XML_BYTES (4 * 1024 * 1024)
#define XML_VERSION "1"
#define MAX_ABS_LENGTH 1e15

static xmlDoc *
parse_xml (const char  *path,
           const char  *data,
           gsize        len,
           GError     **error)
{
  const OdoriXmlErrors xml_errors = {
    ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML, ODORI_SKELETON_ERROR_XML,
    _("a DOCTYPE or entity declaration: a skeleton description has none, and it is not read (no "
      "external entities, no entity expansion)"),
  };

  return odori_xml_read (path, data, len, NULL, &xml_errors, error);
}

static gboolean
attr_is (const xmlAttr *attr,
         const char    *name)
{
  return strcmp ((const char *) attr->name, name) == 0;
}

/* The attribute's value (owned), or NULL. */
static char *
get_attr (xmlNode    *node,
          const char *name)
{
  xmlChar *value = xmlGetNoNsProp (node, (const xmlChar *) name);
  char *copy = g_strdup ((const char *) value);

  xmlFree (value);
  return copy;
}

static gboolean
parse_length_attr (const char  *path,
                   xmlNode     *node,
                   const char  *name,
                   const char  *value,
                   float       *out,
                   GError     **error)
{
  const char *end = value + strlen (value);
  const char *p = odori_skip_blanks (value, end);
  double d;

  if (odori_looks_non_finite (p, end))
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                            xmlGetLineNo (node),
                            _("%s must be a finite number, got \"%s\""), name, value);
  if (!odori_parse_double (&p, end, &d) || odori_skip_blanks (p, end) != end)
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                            xmlGetLineNo (node),
                            _("expected a number for %s, got \"%s\""), name, value);
  if (!(d >= 0 && d <= MAX_ABS_LENGTH))
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                            xmlGetLineNo (node),
                            _("%s must be between 0 and %g, got \"%s\""), name, MAX_ABS_LENGTH,
                            value);
  *out = (float) d;
  return TRUE;
}

static gboolean
parse_bulge_attr (const char  *path,
                  xmlNode     *node,
                  const char  *value,
                  int         *out,
                  GError     **error)
{
  const char *end = value + strlen (value);
  const char *p = odori_skip_blanks (value, end);
  gint64 v;

  if (!odori_parse_int (&p, end, &v) || odori_skip_blanks (p, end) != end ||
      v < -1 || v > G_MAXINT)
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                            xmlGetLineNo (node),
                            _("expected a bulge code (-1 or an integer >= 0), got \"%s\""), value);
  *out = (int) v;
  return TRUE;
}

static gboolean
check_bone_attrs (const char  *path,
                  xmlNode     *node,
                  GError     **error)
{
  for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
    if (!attr_is (attr, "name") && !attr_is (attr, "parent") && !attr_is (attr, "length") &&
        !attr_is (attr, "radius") && !attr_is (attr, "bulge"))
      return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                              xmlGetLineNo (node),
                              _("unknown attribute \"%s\" on <bone>"), (const char *) attr->name);
  return TRUE;
}

/* Fills BONE from NODE; NAMES maps the names of the bones before it to index + 1. */
static gboolean
parse_bone (const char  *path,
            xmlNode     *node,
            GHashTable  *names,
            OdoriBone   *bone,
            GError     **error)
{
  g_autofree char *name = get_attr (node, "name");
  g_autofree char *parent = get_attr (node, "parent");
  g_autofree char *length = get_attr (node, "length");
  g_autofree char *radius = get_attr (node, "radius");
  g_autofree char *bulge = get_attr (node, "bulge");
  long line = xmlGetLineNo (node);

  if (!check_bone_attrs (path, node, error))
    return FALSE;
  if (name == NULL || name[0] == '\0')
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, line,
                            _("<bone> needs a non-empty name attribute"));
  if (g_hash_table_contains (names, name))
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, line,
                            _("a second bone named \"%s\""), name);
  bone->parent = -1;
  if (parent != NULL && parent[0] != '\0')
    {
      gpointer index = g_hash_table_lookup (names, parent);

      if (index == NULL)
        return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                                line,
                                _("bone \"%s\": parent \"%s\" is not a bone defined before it"),
                                name, parent);
      bone->parent = GPOINTER_TO_INT (index) - 1;
    }
  if (length == NULL)
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, line,
                            _("bone \"%s\" has no length attribute"), name);
  if (!parse_length_attr (path, node, "length", length, &bone->length, error))
    return FALSE;
  bone->radius = (float) MAX (ODORI_SKELETON_LIMB_RADIUS_FACTOR * bone->length, 0.0);
  if (radius != NULL && !parse_length_attr (path, node, "radius", radius, &bone->radius, error))
    return FALSE;
  bone->bulge_code = ODORI_SKELETON_NO_BULGE;
  if (bulge != NULL && !parse_bulge_attr (path, node, bulge, &bone->bulge_code, error))
    return FALSE;
  bone->name = g_steal_pointer (&name);
  return TRUE;
}

static gboolean
check_root (const char  *path,
            xmlNode     *root,
            GError     **error)
{
  g_autofree char *version = NULL;

  if (root == NULL)
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, 1,
                            _("expected an <odori-skeleton> element, found none"));
  if (root->ns != NULL || strcmp ((const char *) root->name, "odori-skeleton") != 0)
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                            xmlGetLineNo (root),
                            _("expected the root element <odori-skeleton>, got <%s>"),
                            (const char *) root->name);
  version = get_attr (root, "version");
  if (version != NULL && strcmp (version, XML_VERSION) != 0)
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                            xmlGetLineNo (root),
                            _("expected version=\"%s\", got version=\"%s\""), XML_VERSION, version);
  return TRUE;
}

static OdoriSkeleton *
skeleton_from_doc (const char  *path,
                   xmlDoc      *doc,
                   GError     **error)
{
  xmlNode *root = xmlDocGetRootElement (doc);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) bones = NULL;
  OdoriSkeleton *skeleton;

  if (!check_root (path, root, error))
    return NULL;

  bones = g_array_new (FALSE, TRUE, sizeof (OdoriBone));
  for (xmlNode *node = root->children; node != NULL; node = node->next)
    {
      OdoriBone bone = { 0 };

      if (node->type != XML_ELEMENT_NODE)
        continue;
      if (node->ns != NULL || strcmp ((const char *) node->name, "bone") != 0)
        {
          odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                           xmlGetLineNo (node),
                           _("expected <bone>, got <%s>"), (const char *) node->name);
          goto fail;
        }
      if (!parse_bone (path, node, names, &bone, error))
        goto fail;
      g_array_append_val (bones, bone);
      g_hash_table_insert (names, bone.name, GINT_TO_POINTER (bones->len));
    }
  if (bones->len == 0)
    {
      odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path,
                       xmlGetLineNo (root),
                       _("the skeleton has no <bone>"));
      return NULL;
    }

  skeleton = _odori_skeleton_new (ODORI_SKELETON_SCHEME_FILE, 0);
  g_free (skeleton->bones);
  skeleton->n_bones = bones->len;
  skeleton->bones = (OdoriBone *) (void *) g_array_free (g_steal_pointer (&bones), FALSE);
  return skeleton;

fail:
  for (guint i = 0; i < bones->len; i++)
    g_free (g_array_index (bones, OdoriBone, i).name);
  return NULL;
}

OdoriSkeleton *
odori_skeleton_load (const char  *path,
                     GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(xmlDoc) doc = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = odori_read_limited (path, MAX_XML_BYTES, &len, error);
  if (data == NULL)
    return NULL;
  if (len > MAX_XML_BYTES)
    {
      odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML, path, 1,
                       _("the file is larger than %d bytes, too large for a skeleton "
                         "description"), MAX_XML_BYTES);
      return NULL;
    }
  doc = parse_xml (path, data, len, error);
  if (doc == NULL)
    return NULL;
  return skeleton_from_doc (path, doc, error);
}

/* Names go into attributes: they must be UTF-8 without the control characters XML 1.0
 * cannot hold even escaped. */
static gboolean
name_fits_xml (const char *name)
{
  if (name == NULL || name[0] == '\0' || !g_utf8_validate (name, -1, NULL))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
      return FALSE;
  return TRUE;
}

static gboolean
check_for_save (const OdoriSkeleton *skeleton,
                const char          *path,
                GError             **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree int *parent = g_new (int, MAX (skeleton->n_bones, 1));

  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      const OdoriBone *bone = &skeleton->bones[i];

      if (!name_fits_xml (bone->name))
        return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, 1,
                                _("bone %u has an empty name or one XML cannot hold"), i);
      if (!g_hash_table_add (names, bone->name))
        return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, 1,
                                _("two bones are named \"%s\""), bone->name);
      parent[i] = bone->parent;
    }
  if (!_odori_skeleton_parents_are_forest (parent, skeleton->n_bones))
    return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_INVALID, path, 1,
                            _("the bones' parents do not form a tree (cycle or bad index)"));
  return TRUE;
}

static void
set_prop_double (xmlNode    *node,
                 const char *name,
                 double      value)
{
  g_autofree char *text = odori_format_double (value);

  xmlSetProp (node, (const xmlChar *) name, (const xmlChar *) text);
}

static xmlDoc *
skeleton_to_doc (const OdoriSkeleton *skeleton)
{
  xmlDoc *doc = xmlNewDoc ((const xmlChar *) "1.0");
  xmlNode *root = xmlNewNode (NULL, (const xmlChar *) "odori-skeleton");
  guint n = skeleton->n_bones;
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  guint k;

  xmlDocSetRootElement (doc, root);
  xmlSetProp (root, (const xmlChar *) "version", (const xmlChar *) XML_VERSION);
  xmlSetProp (root, (const xmlChar *) "scheme",
              (const xmlChar *) odori_skeleton_scheme_to_string (skeleton->scheme));

  /* Depth first, so that every parent is written before its children. */
  for (guint i = 0; i < n; i++)
    parent[i] = skeleton->bones[i].parent;
  k = odori_forest_preorder (parent, n, order);
  g_assert (k == n);
  for (guint i = 0; i < n; i++)
    {
      const OdoriBone *bone = &skeleton->bones[order[i]];
      xmlNode *node = xmlNewChild (root, NULL, (const xmlChar *) "bone", NULL);
      g_autofree char *bulge = g_strdup_printf ("%d", bone->bulge_code);

      xmlSetProp (node, (const xmlChar *) "name", (const xmlChar *) bone->name);
      xmlSetProp (node, (const xmlChar *) "parent",
                  (const xmlChar *) (bone->parent >= 0 ? skeleton->bones[bone->parent].name : ""));
      set_prop_double (node, "length", bone->length);
      set_prop_double (node, "radius", bone->radius);
      xmlSetProp (node, (const xmlChar *) "bulge", (const xmlChar *) bulge);
    }
  return doc;
}

gboolean
odori_skeleton_save (const OdoriSkeleton *skeleton,
                     const char          *path,
                     GError             **error)
{
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(OdoriOutput) out = NULL;
  xmlChar *buf = NULL;
  int len = 0;

  g_return_val_if_fail (skeleton != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_for_save (skeleton, path, error))
    return FALSE;
  doc = skeleton_to_doc (skeleton);
  xmlDocDumpFormatMemoryEnc (doc, &buf, &len, "UTF-8", 1);
  if (buf == NULL || len <= 0)
    {
      xmlFree (buf);
      return odori_set_error (error, ODORI_SKELETON_ERROR, ODORI_SKELETON_ERROR_XML, path, 1,
                              _("cannot serialise the skeleton description"));
    }

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    {
      xmlFree (buf);
      return FALSE;
    }
  odori_output_write (out, (const char *) buf, len);
  xmlFree (buf);
  return odori_output_commit (out, error);
}
