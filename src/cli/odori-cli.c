/* odori-cli.c: the command-line front end over the core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exit status: 0 success, 1 an input error (message on stderr), 2 a usage error.
 */
#include "config.h"

#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "odori-bva.h"
#include "odori-bulge.h"
#include "odori-bvh.h"
#include "odori-compose.h"
#include "odori-format.h"
#include "odori-headless.h"
#include "odori-index-files.h"
#include "odori-index.h"
#include "odori-joints.h"
#include "odori-kbs.h"
#include "odori-library-import.h"
#include "odori-renderer.h"
#include "odori-retarget.h"
#include "odori-sample.h"
#include "odori-score.h"
#include "odori-sensor-csv.h"
#include "odori-skeleton.h"
#include "odori-smooth.h"
#include "odori-text.h"

enum {
  EXIT_OK = 0,
  EXIT_INPUT = 1,
  EXIT_USAGE = 2,
};

typedef struct
{
  const char *name;
  const char *args;
  const char *summary;
  int (*run) (int argc, char **argv);
} Command;

static int
usage_error (GOptionContext *context,
             const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("odori-cli: %s\n\n%s", message, help);
  return EXIT_USAGE;
}

static GOptionContext *
command_context (const char *name,
                 const char *args,
                 const char *summary)
{
  g_autofree char *param = g_strdup_printf ("%s %s", name, args);
  GOptionContext *context = g_option_context_new (param);

  g_option_context_set_summary (context, summary);
  g_option_context_set_help_enabled (context, TRUE);
  return context;
}

static gboolean
parse_options (GOptionContext *context,
               int            *argc,
               char         ***argv,
               int            *status)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *status = usage_error (context, error->message);
      return FALSE;
    }
  return TRUE;
}

static void
print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  /* JSON is UTF-8 whatever the locale (RFC 8259): written as bytes, never converted. */
  fputs (text, stdout);
  fputc ('\n', stdout);
}

static void
add_diagnostics (JsonBuilder *b,
                 const char  *member,
                 GPtrArray   *diags)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; diags != NULL && i < diags->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (diags, i));
      json_builder_add_string_value (b, text);
    }
  json_builder_end_array (b);
}

static void
add_string (JsonBuilder *b,
            const char  *member,
            const char  *value)
{
  json_builder_set_member_name (b, member);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_strv (JsonBuilder        *b,
          const char         *member,
          const char * const *strv)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_builder_add_string_value (b, strv[i]);
  json_builder_end_array (b);
}

/* info */

/* "skeleton": where the display skeleton comes from ("file", "table", "inferred",
 * "saved", "markers"), the table's name (null unless a table) and each bone's parent
 * (null for a root). */
static void
add_skeleton (JsonBuilder       *b,
              const OdoriMotion *motion)
{
  g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);
  const char *source;

  json_builder_set_member_name (b, "skeleton");
  if (skeleton == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  source = odori_skeleton_source_to_string (skeleton->scheme);
  json_builder_begin_object (b);
  add_string (b, "source", source);
  add_string (b, "scheme", strcmp (source, "table") == 0
                           ? odori_skeleton_scheme_to_string (skeleton->scheme) : NULL);
  json_builder_set_member_name (b, "parents");
  json_builder_begin_object (b);
  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      int parent = skeleton->bones[i].parent;

      add_string (b, skeleton->bones[i].name, parent >= 0 ? skeleton->bones[parent].name : NULL);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static JsonNode *
motion_json (OdoriMotion   *motion,
             OdoriFormat    format,
             OdoriEncoding  encoding,
             GPtrArray     *warnings)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_string (b, "format", odori_format_to_string (format));
  add_string (b, "encoding", odori_encoding_to_string (encoding));
  json_builder_set_member_name (b, "frames");
  json_builder_add_int_value (b, motion->n_frames);
  json_builder_set_member_name (b, "frame_time");
  json_builder_add_double_value (b, motion->frame_time);
  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint s = 0; s < motion->n_segments; s++)
    json_builder_add_string_value (b, motion->segments[s].name);
  json_builder_end_array (b);
  add_skeleton (b, motion);
  add_diagnostics (b, "warnings", warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
motion_text (const char  *path,
             OdoriMotion *motion,
             OdoriFormat  format,
             OdoriEncoding encoding)
{
  g_print (_("%s: %s (%s), %u frames at %g s (%.2f fps, %.1f s), %u segments%s\n"), path,
           odori_format_to_string (format), odori_encoding_to_string (encoding),
           motion->n_frames, motion->frame_time,
           motion->frame_time > 0 ? 1.0 / motion->frame_time : 0.0,
           motion->n_frames * motion->frame_time, motion->n_segments,
           motion->has_hierarchy ? _(" in a hierarchy") : "");
  g_print ("  segments:");
  for (guint s = 0; s < motion->n_segments; s++)
    g_print (" %s", motion->segments[s].name);
  g_print ("\n");
}

static JsonNode *
index_json (OdoriIndex *index)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_string (b, "format", "motion.dat");
  add_string (b, "encoding", odori_encoding_to_string (index->encoding));
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (guint i = 0; i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);

      json_builder_begin_object (b);
      add_string (b, "code", part->code);
      add_string (b, "name", part->name);
      add_strv (b, "map", (const char * const *) part->map);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "classes");
  json_builder_begin_array (b);
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      json_builder_begin_object (b);
      add_string (b, "code", klass->code);
      add_string (b, "name", klass->name);
      json_builder_set_member_name (b, "shows");
      json_builder_begin_array (b);
      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          json_builder_begin_object (b);
          add_string (b, "code", show->code);
          add_string (b, "name", show->name);
          add_string (b, "file", show->file);
          json_builder_set_member_name (b, "motions");
          json_builder_begin_array (b);
          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *motion = g_ptr_array_index (show->motions, m);

              json_builder_begin_object (b);
              add_string (b, "code", motion->code);
              add_string (b, "name", motion->name);
              add_string (b, "exp", motion->exp);
              json_builder_set_member_name (b, "first");
              json_builder_add_int_value (b, motion->first);
              json_builder_set_member_name (b, "last");
              json_builder_add_int_value (b, motion->last);
              json_builder_end_object (b);
            }
          json_builder_end_array (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_diagnostics (b, "warnings", index->warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
index_text (const char *path,
            OdoriIndex *index)
{
  guint n_shows = 0, n_motions = 0;

  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      n_shows += klass->shows->len;
      for (guint s = 0; s < klass->shows->len; s++)
        n_motions += ((OdoriIndexShow *) g_ptr_array_index (klass->shows, s))->motions->len;
    }
  g_print (_("%s: motion.dat (%s), %u parts, %u classes, %u shows, %u motions\n"), path,
           odori_encoding_to_string (index->encoding), index->parts->len,
           index->classes->len, n_shows, n_motions);
  for (guint i = 0; i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);
      g_autofree char *map = g_strjoinv (",", part->map);

      g_print ("  part %-4s %s: %s\n", part->code, part->name ? part->name : "", map);
    }
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      g_print (_("  class %s %s\n"), klass->code ? klass->code : "-", klass->name ? klass->name : "");
      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          g_print (_("    show %s %s (%s)\n"), show->code, show->name ? show->name : "", show->file);
          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *motion = g_ptr_array_index (show->motions, m);

              g_print ("      %-6s %5u-%-5u %s\n", motion->code, motion->first, motion->last,
                       motion->name ? motion->name : "");
            }
        }
    }
}

static JsonNode *
score_json (OdoriScore *score)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_string (b, "format", "dds");
  add_string (b, "encoding", odori_encoding_to_string (score->encoding));
  add_string (b, "title", score->title);
  add_string (b, "author", score->author);
  add_string (b, "date", score->date);
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, i);

      json_builder_begin_object (b);
      add_string (b, "code", part->code);
      add_strv (b, "sensors", (const char * const *) part->sensors);
      json_builder_set_member_name (b, "symbols");
      json_builder_begin_array (b);
      for (guint s = 0; s < part->symbols->len; s++)
        {
          OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, s);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "start");
          json_builder_add_int_value (b, sym->start);
          add_string (b, "symbol", sym->symbol);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_diagnostics (b, "warnings", score->warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
score_text (const char *path,
            OdoriScore *score)
{
  g_print ("%s: dds (%s), \"%s\" by %s, %s, %u parts\n", path,
           odori_encoding_to_string (score->encoding), score->title ? score->title : "",
           score->author ? score->author : "?", score->date ? score->date : _("no date"),
           score->parts->len);
  if (score->index_path)
    g_print (_("  index: %s\n"), score->index_path);
  if (score->blend >= 0)
    g_print (_("  blend: %d frames\n"), score->blend);
  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, i);
      g_autofree char *sensors = g_strjoinv (",", part->sensors);

      g_print ("  %-4s %s:", part->code, sensors);
      for (guint s = 0; s < part->symbols->len; s++)
        {
          OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, s);
          g_print (" %u:%s", sym->start, sym->symbol);
        }
      g_print ("\n");
    }
}

/* A float as the double of its shortest decimal form: 0.291667, not 0.29166701436. */
static double
clean_float (float x)
{
  static const char * const formats[] = { "%.6g", "%.7g", "%.8g", "%.9g" };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      double d = g_ascii_strtod (g_ascii_formatd (buf, sizeof buf, formats[i], x), NULL);

      if ((float) d == x)
        return d;
    }
  return x;
}

static JsonNode *
bulge_json (OdoriBulgeSet *set)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_string (b, "format", "bulge_types");
  json_builder_set_member_name (b, "bulges");
  json_builder_begin_array (b);
  for (guint i = 0; i < set->bulges->len; i++)
    {
      const OdoriBulge *bulge = g_ptr_array_index (set->bulges, i);

      json_builder_begin_object (b);
      add_string (b, "name", bulge->name);
      json_builder_set_member_name (b, "code");
      json_builder_add_int_value (b, bulge->code);
      json_builder_set_member_name (b, "sections");
      json_builder_begin_array (b);
      for (guint j = 0; j < bulge->sections->len; j++)
        {
          const OdoriBulgeSection *section = &g_array_index (bulge->sections, OdoriBulgeSection, j);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "angle");
          json_builder_add_int_value (b, section->angle);
          json_builder_set_member_name (b, "keypoints");
          json_builder_begin_array (b);
          for (guint k = 0; k < section->keys->len; k++)
            {
              const OdoriBulgeKey *key = &g_array_index (section->keys, OdoriBulgeKey, k);

              json_builder_begin_array (b);
              json_builder_add_double_value (b, clean_float (key->u));
              json_builder_add_double_value (b, clean_float (key->v));
              json_builder_add_double_value (b, clean_float (key->w));
              json_builder_end_array (b);
            }
          json_builder_end_array (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "log");
  json_builder_begin_array (b);
  for (guint i = 0; i < set->log->len; i++)
    {
      const OdoriDiagnostic *diag = g_ptr_array_index (set->log, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "line");
      json_builder_add_int_value (b, diag->line);
      add_string (b, "message", diag->message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
bulge_text (const char    *path,
            OdoriBulgeSet *set)
{
  g_print (ngettext ("%s: bulge_types, %u definition", "%s: bulge_types, %u definitions",
                     set->bulges->len), path, set->bulges->len);
  g_print (ngettext (", %u log message\n", ", %u log messages\n", set->log->len), set->log->len);
  for (guint i = 0; i < set->bulges->len; i++)
    {
      const OdoriBulge *bulge = g_ptr_array_index (set->bulges, i);
      g_autoptr(GString) angles = g_string_new (NULL);

      for (guint j = 0; j < bulge->sections->len; j++)
        g_string_append_printf (angles, "%s%d", j > 0 ? ", " : "",
                                g_array_index (bulge->sections, OdoriBulgeSection, j).angle);
      g_print (_("  code %-3d \"%s\" (line %u): sections at %s degrees\n"), bulge->code,
               bulge->name, bulge->line, angles->str);
    }
}

static void
print_warnings_text (GPtrArray *warnings)
{
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (warnings, i));
      g_print (_("  warning: %s\n"), text);
    }
}

/* Captures (NI_JOINTS_TEXT_FILE, sensor CSV) and bone settings (KBS, KST) */

static JsonNode *
kbs_json (OdoriKbs  *kbs,
          GPtrArray *warnings)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_string (b, "format", kbs->format == ODORI_KBS_FORMAT_KST ? "kst" : "kbs");
  add_string (b, "encoding", odori_encoding_to_string (kbs->encoding));
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, kbs->version);
  json_builder_set_member_name (b, "type");
  json_builder_add_int_value (b, kbs->type);
  json_builder_set_member_name (b, "joints");
  json_builder_begin_object (b);
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    {
      json_builder_set_member_name (b, odori_kinect_joint_to_string (j));
      json_builder_begin_object (b);
      add_string (b, "bone", kbs->joints[j].bone);
      json_builder_set_member_name (b, "twist");
      json_builder_add_int_value (b, kbs->joints[j].twist ? 1 : 0);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  add_diagnostics (b, "warnings", warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
kbs_text (const char *path,
          OdoriKbs   *kbs)
{
  guint mapped = 0;

  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    mapped += kbs->joints[j].bone != NULL;
  g_print (_("%s: %s (%s), version %d, type %d, %u of %u joints mapped\n"), path,
           kbs->format == ODORI_KBS_FORMAT_KST ? "kst" : "kbs",
           odori_encoding_to_string (kbs->encoding), kbs->version, kbs->type, mapped,
           (guint) ODORI_KINECT_N_JOINTS);
  for (guint j = 0; j < ODORI_KINECT_N_JOINTS; j++)
    g_print ("  %-15s %-24s %s\n", odori_kinect_joint_to_string (j),
             kbs->joints[j].bone ? kbs->joints[j].bone : _("(not mapped)"),
             kbs->joints[j].twist ? "twist" : "nottwist");
}

static JsonNode *
kbs_info (const char  *path,
          gboolean     json,
          GError     **error)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriKbs) kbs = odori_kbs_load (path, warnings, error);

  if (kbs == NULL)
    return NULL;
  if (json)
    return kbs_json (kbs, warnings);
  kbs_text (path, kbs);
  print_warnings_text (warnings);
  return json_node_new (JSON_NODE_NULL);
}

/* A capture as a show file would load it (the default import options). */
static JsonNode *
capture_info (const char  *path,
              gboolean     json,
              GError     **error)
{
  OdoriImportOptions options;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriCapture) capture = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(JsonBuilder) b = NULL;
  const char *format, *rotations;

  odori_import_options_init (&options);
  capture = odori_capture_load (path, &options, warnings, error);
  if (capture == NULL)
    return NULL;
  odori_capture_orient (capture, options.up, warnings);
  motion = odori_retarget (capture, &options, warnings, error);
  if (motion == NULL)
    return NULL;
  format = capture->kind == ODORI_CAPTURE_JOINTS ? "joints" : "sensor-csv";
  rotations = capture->kind == ODORI_CAPTURE_JOINTS || !capture->has_rotations ? "positions" : "file";

  if (!json)
    {
      g_print (_("%s: %s, %u frames read over %.3f s, %s %u frames at %g s (%.2f fps); up "
                 "axis %s; rotations from %s; %u segments (centimetres)\n"),
               path, format, capture->n_source_frames, capture->source_duration,
               capture->resampled ? _("resampled to") : _("kept as"), motion->n_frames,
               motion->frame_time, 1.0 / motion->frame_time, odori_up_axis_to_string (capture->up),
               rotations, motion->n_segments);
      g_print ("  segments:");
      for (guint s = 0; s < motion->n_segments; s++)
        g_print (" %s", motion->segments[s].name);
      g_print ("\n");
      print_warnings_text (warnings);
      return json_node_new (JSON_NODE_NULL);
    }

  b = json_builder_new ();
  json_builder_begin_object (b);
  add_string (b, "format", format);
  json_builder_set_member_name (b, "frames");
  json_builder_add_int_value (b, motion->n_frames);
  json_builder_set_member_name (b, "frame_time");
  json_builder_add_double_value (b, motion->frame_time);
  json_builder_set_member_name (b, "source_frames");
  json_builder_add_int_value (b, capture->n_source_frames);
  json_builder_set_member_name (b, "source_duration");
  json_builder_add_double_value (b, capture->source_duration);
  json_builder_set_member_name (b, "resampled");
  json_builder_add_boolean_value (b, capture->resampled);
  add_string (b, "up", odori_up_axis_to_string (capture->up));
  add_string (b, "rotations", rotations);
  add_string (b, "units", "CENTIMETERS");
  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint s = 0; s < motion->n_segments; s++)
    json_builder_add_string_value (b, motion->segments[s].name);
  json_builder_end_array (b);
  add_skeleton (b, motion);
  add_diagnostics (b, "warnings", warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* Summarises one file: a JSON node (if JSON) or text printed now. */
static JsonNode *
info_one (const char *path,
          gboolean    json,
          GError    **error)
{
  g_autoptr(OdoriTextFile) file = NULL;
  const char *data;
  gsize len;
  OdoriFormat format;

  /* These readers open the file themselves (a suit CSV may be GBK, a KBS is XML). */
  switch (odori_format_detect_file (path, NULL))
    {
    case ODORI_FORMAT_JOINTS:
    case ODORI_FORMAT_SENSOR_CSV:
      return capture_info (path, json, error);
    case ODORI_FORMAT_KBS:
    case ODORI_FORMAT_KST:
      return kbs_info (path, json, error);
    default:
      break;
    }
  file = odori_text_file_open (path, error);
  if (file == NULL)
    return NULL;
  data = odori_text_file_get_data (file, &len);
  format = odori_format_detect (data, len);

  switch (format)
    {
    case ODORI_FORMAT_BVA:
    case ODORI_FORMAT_BVH:
      {
        g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
        g_autoptr(OdoriMotion) motion = NULL;

        motion = format == ODORI_FORMAT_BVA ? odori_bva_load_text (file, warnings, error)
                                            : odori_bvh_load_text (file, warnings, error);
        if (motion == NULL)
          return NULL;
        if (json)
          return motion_json (motion, format, odori_text_file_get_encoding (file), warnings);
        motion_text (path, motion, format, odori_text_file_get_encoding (file));
        print_warnings_text (warnings);
        return json_node_new (JSON_NODE_NULL);
      }
    case ODORI_FORMAT_INDEX:
      {
        g_autoptr(OdoriIndex) index = odori_index_load_text (file, error);

        if (index == NULL)
          return NULL;
        if (json)
          return index_json (index);
        index_text (path, index);
        print_warnings_text (index->warnings);
        return json_node_new (JSON_NODE_NULL);
      }
    case ODORI_FORMAT_SCORE:
      {
        g_autoptr(OdoriScore) score = odori_score_load_text (file, error);

        if (score == NULL)
          return NULL;
        if (json)
          return score_json (score);
        score_text (path, score);
        print_warnings_text (score->warnings);
        return json_node_new (JSON_NODE_NULL);
      }
    case ODORI_FORMAT_BULGE:
      {
        g_autoptr(OdoriBulgeSet) set = odori_bulge_set_load_text (file, error);

        if (set == NULL)
          return NULL;
        if (json)
          return bulge_json (set);
        bulge_text (path, set);
        print_warnings_text (set->log);
        return json_node_new (JSON_NODE_NULL);
      }
    case ODORI_FORMAT_UNKNOWN:
    default:
      g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                   _("%s:1: not a file Odori reads (expected BVA, BVH, motion.dat, DDS, "
                     "bulge_types, NI_JOINTS_TEXT_FILE, a sensor CSV, KBS or KST)"), path);
      return NULL;
    }
}

static int
cmd_info (int    argc,
          char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON (an array when several files are given)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("info", "FILE…", _("Detect each file's format by its content and summarise it."));
  g_autoptr(JsonArray) array = json_array_new ();
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return usage_error (context, _("info needs at least one FILE"));

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      JsonNode *node = info_one (argv[i], json, &error);

      if (node == NULL)
        {
          g_printerr ("%s\n", error->message);
          status = EXIT_INPUT;
          continue;
        }
      json_array_add_element (array, node);
    }

  if (json && json_array_get_length (array) > 0)
    {
      g_autoptr(JsonNode) root = NULL;

      if (argc == 2)
        root = json_node_copy (json_array_get_element (array, 0));
      else
        {
          root = json_node_new (JSON_NODE_ARRAY);
          json_node_set_array (root, array);
        }
      print_json (root);
    }
  return status;
}

/* check */

static int
cmd_check (int    argc,
           char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the diagnostics as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("check", "INDEX [SCORE]",
                     _("Load the index and every show file, check frame ranges against the files,\n"
                       "and resolve every symbol of the score. Prints each warning and error as\n"
                       "FILE:LINE: message; exits 1 if there is any error."));
  g_autoptr(GPtrArray) diags = odori_diagnostics_new ();
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2 || argc > 3)
    return usage_error (context, _("check needs an INDEX and at most one SCORE"));

  index = odori_index_load (argv[1], &error);
  if (index == NULL)
    {
      g_ptr_array_add (diags, odori_diagnostic_new (NULL, 0, TRUE, "%s", error->message));
      ok = FALSE;
    }
  else
    {
      for (guint i = 0; i < index->warnings->len; i++)
        {
          OdoriDiagnostic *d = g_ptr_array_index (index->warnings, i);
          g_ptr_array_add (diags, odori_diagnostic_new (d->file, d->line, d->is_error, "%s", d->message));
        }
      ok = odori_index_check_files (index, diags) && ok;
    }

  if (argc == 3)
    {
      g_clear_error (&error);
      score = odori_score_load (argv[2], &error);
      if (score == NULL)
        {
          g_ptr_array_add (diags, odori_diagnostic_new (NULL, 0, TRUE, "%s", error->message));
          ok = FALSE;
        }
      else
        {
          for (guint i = 0; i < score->warnings->len; i++)
            {
              OdoriDiagnostic *d = g_ptr_array_index (score->warnings, i);
              g_ptr_array_add (diags, odori_diagnostic_new (d->file, d->line, d->is_error, "%s", d->message));
            }
          if (index != NULL)
            ok = odori_score_resolve (score, index, diags) && ok;
          if (index != NULL && ok)
            {
              /* A score that mixes show files of different skeletons composes the
               * reference skeleton's sensors only: say so. */
              g_autoptr(OdoriComposer) composer = odori_composer_new (score, index, NULL);

              if (composer != NULL)
                odori_composer_check_sensor_sets (composer, diags);
            }
        }
    }

  for (guint i = 0; i < diags->len; i++)
    if (((OdoriDiagnostic *) g_ptr_array_index (diags, i))->is_error)
      ok = FALSE;

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ok");
      json_builder_add_boolean_value (b, ok);
      json_builder_set_member_name (b, "diagnostics");
      json_builder_begin_array (b);
      for (guint i = 0; i < diags->len; i++)
        {
          OdoriDiagnostic *d = g_ptr_array_index (diags, i);
          g_autofree char *text = odori_diagnostic_to_string (d);

          json_builder_begin_object (b);
          add_string (b, "severity", d->is_error ? "error" : "warning");
          add_string (b, "file", d->file);
          json_builder_set_member_name (b, "line");
          json_builder_add_int_value (b, d->line);
          add_string (b, "message", d->message);
          add_string (b, "text", text);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else
    {
      for (guint i = 0; i < diags->len; i++)
        {
          OdoriDiagnostic *d = g_ptr_array_index (diags, i);
          g_autofree char *text = odori_diagnostic_to_string (d);

          if (d->is_error)
            g_printerr ("%s\n", text);
          else
            g_printerr (_("%s (warning)\n"), text);
        }
      if (ok)
        g_print ("%s: OK%s\n", argv[argc - 1], diags->len ? _(", with warnings") : "");
    }
  return ok ? EXIT_OK : EXIT_INPUT;
}

/* convert */

/* Writes MOTION to OUTPUT as BVA or BVH by the output's extension; POSITIONS says which
 * BVH joints get position channels. */
static gboolean
save_motion (OdoriMotion        *motion,
             const char         *output,
             OdoriBvhPositions   positions,
             GError            **error)
{
  g_autofree char *lower = g_ascii_strdown (output, -1);

  if (g_str_has_suffix (lower, ".bvh"))
    {
      g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

      return odori_bvh_save_full (motion, skeleton, positions, output, error);
    }
  return odori_bva_save (motion, output, error);
}

/* --bvh-positions of convert and compose: auto (default), root or all. */
static gboolean
parse_bvh_positions (const char        *arg,
                     OdoriBvhPositions *positions)
{
  *positions = ODORI_BVH_POSITIONS_AUTO;
  return arg == NULL || odori_bvh_positions_from_string (arg, positions);
}

static gboolean
output_extension_ok (const char *output)
{
  g_autofree char *lower = g_ascii_strdown (output, -1);

  return g_str_has_suffix (lower, ".bva") || g_str_has_suffix (lower, ".vpm") ||
         g_str_has_suffix (lower, ".bvh");
}


/* convert: options for captures and smoothing */

typedef struct
{
  double  fps;        /* NAN: not given */
  char   *up;
  char   *kbs;
  char   *rotations;
  int     smooth;
  gboolean symmetry;
} ConvertOptions;

static void
convert_options_clear (ConvertOptions *opts)
{
  g_clear_pointer (&opts->up, g_free);
  g_clear_pointer (&opts->kbs, g_free);
  g_clear_pointer (&opts->rotations, g_free);
}

static gboolean
check_convert_options (GOptionContext *context,
                       ConvertOptions *opts,
                       const char     *input,
                       int            *status)
{
  OdoriFormat format = odori_format_detect_file (input, NULL);
  gboolean capture = format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV;
  const char *message = NULL;

  if (opts->up != NULL && !odori_up_axis_from_string (opts->up, NULL))
    message = _("--up takes x, y, z, -x, -y, -z or auto");
  else if (opts->rotations != NULL && !odori_rotation_source_from_string (opts->rotations, NULL))
    message = _("--rotations takes positions or file");
  else if (opts->smooth < 0)
    message = _("--smooth takes a number of frames, 0 or more");
  else if (!isnan (opts->fps) && !(opts->fps > 0 || (capture && opts->fps == 0)))
    message = capture ? _("--fps takes a number of frames per second, 0 or more")
                      : _("--fps takes a number of frames per second above 0");
  else if (!capture && (opts->up || opts->kbs || opts->rotations || opts->symmetry))
    message = _("--up, --kbs, --rotations and --symmetry apply to captures (NI_JOINTS_TEXT_FILE "
                "or sensor CSV)");
  if (message == NULL)
    return TRUE;
  *status = usage_error (context, message);
  convert_options_clear (opts);
  return FALSE;
}

static OdoriMotion *
load_for_convert (const char      *input,
                  ConvertOptions  *opts,
                  GPtrArray       *warnings,
                  GError         **error)
{
  OdoriFormat format = odori_format_detect_file (input, NULL);
  OdoriSmoothReport report;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autofree char *summary = NULL;

  if (format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV)
    {
      OdoriImportOptions options;
      g_autoptr(OdoriKbs) kbs = NULL;

      odori_import_options_init (&options);
      if (!isnan (opts->fps))
        options.fps = opts->fps;
      if (opts->up != NULL)
        odori_up_axis_from_string (opts->up, &options.up);
      if (opts->rotations != NULL)
        odori_rotation_source_from_string (opts->rotations, &options.rotations);
      options.symmetry = opts->symmetry;
      options.smooth = opts->smooth;
      if (opts->kbs != NULL)
        {
          kbs = odori_kbs_load (opts->kbs, warnings, error);
          if (kbs == NULL)
            return NULL;
          options.kbs = kbs;
        }
      motion = odori_capture_import (input, &options, &report, warnings, error);
      if (motion == NULL)
        return NULL;
    }
  else
    {
      motion = odori_format_load_motion (input, warnings, error);
      if (motion == NULL)
        return NULL;
      if (!isnan (opts->fps))
        {
          OdoriMotion *resampled = odori_motion_resample (motion, 1, motion->n_frames,
                                                          1.0 / opts->fps, error);

          if (resampled == NULL)
            return NULL;
          odori_motion_unref (motion);
          motion = resampled;
        }
      odori_smooth_motion (motion, opts->smooth, ODORI_SMOOTH_ALL, &report);
    }
  if (opts->smooth > 0)
    {
      summary = odori_smooth_report_to_string (&report, motion);
      g_print ("%s\n", summary);
    }
  return g_steal_pointer (&motion);
}

static int
cmd_convert (int    argc,
             char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *bvh_positions = NULL;
  OdoriBvhPositions positions;
  ConvertOptions opts = { NAN, NULL, NULL, NULL, 0, FALSE };
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to OUT (its extension picks the format: .bva, .vpm or .bvh)"), "OUT" },
    { "bvh-positions", 0, 0, G_OPTION_ARG_STRING, &bvh_positions, N_("BVH output: position channels on the root and on every joint whose offset from its parent varies (auto, the default), on the root only, or on every joint"), "auto|root|all" },
    { "fps", 0, 0, G_OPTION_ARG_DOUBLE, &opts.fps, N_("Frames per second of the result (captures: default 30, 0 keeps a regular file's rate; other motions are resampled)"), "F" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &opts.up, N_("Captures: the file's up axis, x, y, z, -x, -y, -z or auto (default)"), "AXIS" },
    { "kbs", 0, 0, G_OPTION_ARG_FILENAME, &opts.kbs, N_("Captures: name the segments after the bones of this KBS or KST"), "FILE" },
    { "rotations", 0, 0, G_OPTION_ARG_STRING, &opts.rotations, N_("Captures: rotations from joint positions or from the file (default: positions for NI joints, file for CSV)"), "positions|file" },
    { "smooth", 0, 0, G_OPTION_ARG_INT, &opts.smooth, N_("Smooth rotations and positions over N frames either side and report the largest correction"), "N" },
    { "symmetry", 0, 0, G_OPTION_ARG_NONE, &opts.symmetry, N_("Captures: make the calibration pose left/right symmetric (rotations from positions)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("convert", "IN -o OUT.bva|OUT.bvh", _("Convert any motion Odori reads to BVA or BVH."));
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(GError) error = NULL;
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, _("convert needs one input file"));
  if (output == NULL)
    return usage_error (context, _("convert needs -o OUT"));
  if (!output_extension_ok (output))
    return usage_error (context, _("the output must be a .bva, .vpm or .bvh file"));
  if (!parse_bvh_positions (bvh_positions, &positions))
    return usage_error (context, _("--bvh-positions takes auto, root or all"));
  if (!check_convert_options (context, &opts, argv[1], &status))
    return status;

  motion = load_for_convert (argv[1], &opts, warnings, &error);
  if (motion == NULL)
    {
      g_printerr ("%s\n", error->message);
      convert_options_clear (&opts);
      return EXIT_INPUT;
    }
  print_warnings_text (warnings);
  convert_options_clear (&opts);

  /* BVH carries no units and no BVA field layout: for BVA, values are copied as they are
   * and labelled with BVA's usual fields and units. */
  for (guint s = 0; s < motion->n_segments && !g_str_has_suffix (output, ".bvh"); s++)
    if (motion->segments[s].n_fields == 0)
      {
        OdoriSegment *seg = &motion->segments[s];

        seg->n_fields = ODORI_N_FIELDS;
        for (guint f = 0; f < ODORI_N_FIELDS; f++)
          {
            seg->fields[f] = f;
            seg->units[f] = f < 3 ? ODORI_UNIT_INCHES : f < 6 ? ODORI_UNIT_DEGREES : ODORI_UNIT_PERCENT;
          }
        for (guint fr = 0; fr < motion->n_frames; fr++)
          {
            OdoriTransform *t = odori_motion_get (motion, fr, s);
            for (int i = 0; i < 3; i++)
              t->scale[i] *= 100.0f;
          }
      }

  if (!save_motion (motion, output, positions, &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  return EXIT_OK;
}


static void
print_seams (OdoriComposer *composer,
             OdoriScore    *score,
             gboolean       json)
{
  GArray *seams = odori_composer_get_seams (composer);

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "seams");
      json_builder_begin_array (b);
      for (guint i = 0; i < seams->len; i++)
        {
          OdoriSeam *seam = &g_array_index (seams, OdoriSeam, i);
          OdoriScorePart *part = g_ptr_array_index (score->parts, seam->part);

          json_builder_begin_object (b);
          add_string (b, "part", part->code);
          json_builder_set_member_name (b, "frame");
          json_builder_add_int_value (b, seam->frame);
          add_string (b, "from", seam->from);
          add_string (b, "to", seam->to);
          json_builder_set_member_name (b, "jump_deg");
          json_builder_add_double_value (b, round (seam->jump_deg * 1000) / 1000);
          json_builder_set_member_name (b, "clip_max_deg");
          json_builder_add_double_value (b, round (seam->clip_max_deg * 1000) / 1000);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
      return;
    }

  g_print ("%-5s %7s  %-12s %-12s %9s %9s\n", "part", "frame", "from", "to", "jump°", "clip max°");
  for (guint i = 0; i < seams->len; i++)
    {
      OdoriSeam *seam = &g_array_index (seams, OdoriSeam, i);
      OdoriScorePart *part = g_ptr_array_index (score->parts, seam->part);

      g_print ("%-5s %7u  %-12s %-12s %9.2f %9.2f%s\n", part->code, seam->frame, seam->from,
               seam->to, seam->jump_deg, seam->clip_max_deg,
               seam->jump_deg > 2 * MAX (seam->clip_max_deg, 1.0) ? "  rough" : "");
    }
}

static int
cmd_compose (int    argc,
             char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *root_match = NULL;
  g_autofree char *bvh_positions = NULL;
  OdoriBvhPositions positions;
  int blend = -1;
  gboolean seams = FALSE, json = FALSE;
  const GOptionEntry entries[] = {
    { "index", 'i', 0, G_OPTION_ARG_FILENAME, &index_path, N_("The index (default: the score's \"# Index:\" line)"), "INDEX" },
    { "blend", 0, 0, G_OPTION_ARG_INT, &blend, N_("Transition frames (default: the score's \"# Blend:\", else 0)"), "N" },
    { "root-match", 0, 0, G_OPTION_ARG_STRING, &root_match, N_("Root continuity at each switch: none, position (default) or full"), "MODE" },
    { "seams", 0, 0, G_OPTION_ARG_NONE, &seams, N_("Print the seam report"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the seam report as JSON"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the composed dance to OUT (.bva, .vpm or .bvh)"), "OUT" },
    { "bvh-positions", 0, 0, G_OPTION_ARG_STRING, &bvh_positions, N_("BVH output: position channels on the root and on every joint whose offset from its parent varies (auto, the default), on the root only, or on every joint"), "auto|root|all" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("compose", "SCORE [-i INDEX] -o OUT.bva|OUT.bvh",
                     _("Compose a score into one full-body motion, as the Dance Converter did.\n"
                       "Nothing is written when there is an error."));
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(GError) error = NULL;
  OdoriRootMatch match = ODORI_ROOT_MATCH_POSITION;
  OdoriMotion *motion;
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, _("compose needs one SCORE"));
  if (output == NULL && !seams)
    return usage_error (context, _("compose needs -o OUT (or --seams)"));
  if (output != NULL && !output_extension_ok (output))
    return usage_error (context, _("the output must be a .bva, .vpm or .bvh file"));
  if (blend < -1)
    return usage_error (context, _("--blend takes a number of frames, 0 or more"));
  if (root_match != NULL)
    {
      if (strcmp (root_match, "none") == 0)
        match = ODORI_ROOT_MATCH_NONE;
      else if (strcmp (root_match, "position") == 0)
        match = ODORI_ROOT_MATCH_POSITION;
      else if (strcmp (root_match, "full") == 0)
        match = ODORI_ROOT_MATCH_FULL;
      else
        return usage_error (context, _("--root-match takes none, position or full"));
    }
  if (!parse_bvh_positions (bvh_positions, &positions))
    return usage_error (context, _("--bvh-positions takes auto, root or all"));

  score = odori_score_load (argv[1], &error);
  if (score == NULL)
    goto fail;
  if (index_path == NULL)
    {
      index_path = odori_score_dup_index_path (score);
      if (index_path == NULL)
        {
          g_printerr (_("%s:1: the score names no index (\"# Index:\"); give one with -i INDEX\n"), argv[1]);
          return EXIT_INPUT;
        }
    }
  index = odori_index_load (index_path, &error);
  if (index == NULL)
    goto fail;
  composer = odori_composer_new (score, index, &error);
  if (composer == NULL)
    goto fail;
  odori_composer_set_blend (composer, blend);
  odori_composer_set_root_match (composer, match);
  motion = odori_composer_compose (composer, &error);
  if (motion == NULL)
    goto fail;
  if (output != NULL && !save_motion (motion, output, positions, &error))
    goto fail;
  if (seams)
    print_seams (composer, score, json);
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}

/* sample */

static int
cmd_sample (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context =
    command_context ("sample", "DIR",
                     _("Write the built-in sample library (motion.dat, its show files and\n"
                       "sample.dds) into DIR."));
  g_autoptr(GError) error = NULL;
  int status = EXIT_OK;

  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, _("sample needs a DIR"));
  if (!odori_sample_write (argv[1], &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  g_print (_("Wrote the sample library to %s\n"), argv[1]);
  return EXIT_OK;
}

/* import, remove-show */

static void
print_bone_map (const OdoriBoneMap *map)
{
  g_autoptr(GString) unmapped = g_string_new (NULL);

  g_print (_("Bone map (capture joint → library sensor):\n"));
  for (guint s = 0; s < odori_bone_map_get_n_sensors (map); s++)
    {
      const char *sensor = odori_bone_map_get_sensor (map, s);
      const char *source = odori_bone_map_get_source (map, s);

      if (source != NULL)
        g_print ("  %-20s → %s\n", source, sensor);
      else
        g_string_append_printf (unmapped, "%s%s", unmapped->len > 0 ? ", " : "", sensor);
    }
  g_print (_("Library sensors without a source (they follow their parent): %s\n"),
           unmapped->len > 0 ? unmapped->str : _("none"));
}

static void
print_diagnostics_err (GPtrArray *diagnostics)
{
  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      g_autofree char *text = odori_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

      g_printerr ("%s\n", text);
    }
}

/* The capture as a motion; Kinect and suit captures are read with their own importer
 * (turned Y up there with UP), so *CAPTURE_UP is what is left to do. */
static OdoriMotion *
load_capture (const char   *path,
              OdoriUpAxis   up,
              OdoriUpAxis  *capture_up,
              GPtrArray    *warnings,
              GError      **error)
{
  OdoriFormat format = odori_format_detect_file (path, NULL);

  *capture_up = up;
  if (format == ODORI_FORMAT_JOINTS || format == ODORI_FORMAT_SENSOR_CSV)
    {
      OdoriImportOptions options;

      odori_import_options_init (&options);
      options.fps = 0;
      options.up = up;
      *capture_up = ODORI_UP_Y;
      return odori_capture_import (path, &options, NULL, warnings, error);
    }
  return odori_format_load_motion (path, warnings, error);
}

static void
print_retarget_report (const OdoriRetargetReport *report)
{
  g_print (_("Capture up axis: %s%s; scale %.6g (library length per capture length%s)\n"),
           odori_up_axis_to_string (report->up), report->up_guessed ? _(" (from the head and feet)") : "",
           report->scale, report->scale_guessed ? _(", from bone lengths") : _(", from hip heights"));
  if (!isnan (report->max_bone_error))
    g_print (_("Largest bone direction error: %.3f°\n"), report->max_bone_error);
}

static int
cmd_import (int    argc,
            char **argv)
{
  g_autofree char *library = NULL;
  g_autofree char *class_code = NULL;
  g_autofree char *show_code = NULL;
  g_autofree char *name = NULL;
  g_autofree char *map_path = NULL;
  g_autofree char *up_text = NULL;
  const GOptionEntry entries[] = {
    { "library", 'l', 0, G_OPTION_ARG_FILENAME, &library, N_("The library's index (motion.dat)"), "INDEX" },
    { "class", 0, 0, G_OPTION_ARG_STRING, &class_code, N_("Class of the new show (created at the end when missing)"), "CODE" },
    { "show", 0, 0, G_OPTION_ARG_STRING, &show_code, N_("Code of the new show"), "CODE" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("Name of the new show (default: its code)"), "NAME" },
    { "map", 0, 0, G_OPTION_ARG_FILENAME, &map_path, N_("A bone map file correcting the guessed map"), "FILE" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &up_text, N_("The capture's up axis: x, y, z, -x, -y, -z or auto (the default)"), "AXIS" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("import", "CAPTURE --library INDEX --class CODE --show CODE",
                     _("Retarget a capture (BVH, BVA, Kinect joints, suit CSV) onto the library's\n"
                       "skeleton and add it to the library as a new show of one motion, CODE.M1.\n"
                       "motion.dat keeps its comments, line ends and encoding; the previous file\n"
                       "is kept as motion.dat~."));
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriMotion) reference = NULL;
  g_autoptr(OdoriMotion) capture = NULL;
  g_autoptr(OdoriMotion) result = NULL;
  g_autoptr(OdoriBoneMap) map = NULL;
  g_autofree char *file_name = NULL;
  OdoriRetargetReport report;
  OdoriUpAxis up = ODORI_UP_AUTO, capture_up;
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, _("import needs one CAPTURE"));
  if (library == NULL || class_code == NULL || show_code == NULL)
    return usage_error (context, _("import needs --library, --class and --show"));
  if (up_text != NULL && !odori_up_axis_from_string (up_text, &up))
    return usage_error (context, _("--up must be x, y, z, -x, -y, -z or auto"));

  index = odori_index_load (library, &error);
  if (index == NULL)
    goto fail;
  reference = odori_library_load_reference (index, NULL, &error);
  if (reference == NULL)
    goto fail;
  capture = load_capture (argv[1], up, &capture_up, warnings, &error);
  if (capture == NULL)
    goto fail;
  print_diagnostics_err (warnings);
  map = odori_bone_map_guess (capture, NULL, reference, NULL);
  if (map_path != NULL && !odori_bone_map_apply_file (map, map_path, &error))
    goto fail;
  result = odori_library_retarget (capture, NULL, reference, NULL, map, capture_up, &report, &error);
  if (result == NULL)
    goto fail;
  if (!odori_library_add_show (library, class_code, show_code, name, result, &file_name, &error))
    goto fail;
  print_bone_map (map);
  print_retarget_report (&report);
  {
    guint n = odori_bone_map_get_n_sensors (map), mapped = 0;

    for (guint s = 0; s < n; s++)
      mapped += odori_bone_map_get_source (map, s) != NULL;
    if (2 * mapped < n)
      g_printerr (_("%s: warning: only %u of the library's %u sensors have a joint to follow; "
                    "correct the map with --map\n"), argv[1], mapped, n);
  }
  g_print (_("Wrote %s (%u frames) and added show %s to class %s of %s (the previous file is %s~)\n"),
           file_name, result->n_frames, show_code, class_code, library, library);
  g_print (_("Symbol: %s.%s\n"), show_code, ODORI_LIBRARY_IMPORT_MOTION_CODE);
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}

static int
cmd_remove_show (int    argc,
                 char **argv)
{
  g_autofree char *library = NULL;
  const GOptionEntry entries[] = {
    { "library", 'l', 0, G_OPTION_ARG_FILENAME, &library, N_("The library's index (motion.dat)"), "INDEX" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("remove-show", "--library INDEX CODE",
                     _("Remove show CODE from the library's index (and its class, when it was the\n"
                       "class's only show). The previous index is kept as motion.dat~; the show's\n"
                       "file is left on disk."));
  g_autoptr(GError) error = NULL;
  g_autofree char *file_name = NULL;
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, _("remove-show needs one show CODE"));
  if (library == NULL)
    return usage_error (context, _("remove-show needs --library"));
  if (!odori_library_remove_show (library, argv[1], &file_name, &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_INPUT;
    }
  g_print (_("Removed show %s from %s (the previous file is %s~); its file %s is left on disk\n"),
           argv[1], library, library, file_name);
  return EXIT_OK;
}

/* render */

/* The default bulge_types: $ODORI_DATADIR, then the source tree (uninstalled runs), then
 * the installed data directory. NULL when none exists. */
static char *
find_bulge_types (void)
{
  const char *dirs[] = { g_getenv ("ODORI_DATADIR"), ODORI_SOURCE_DATADIR, ODORI_DATADIR };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    if (dirs[i] != NULL && dirs[i][0] != '\0')
      {
        g_autofree char *path = g_build_filename (dirs[i], "bulge_types", NULL);

        if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
          return g_steal_pointer (&path);
      }
  return NULL;
}

/* A score is composed (its "# Index:" or INDEX_PATH); anything else is loaded as a
 * motion. Returns a new reference. */
static OdoriMotion *
load_render_input (const char  *path,
                   const char  *index_path,
                   GError     **error)
{
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autofree char *score_index = NULL;
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  OdoriMotion *motion;

  if (odori_format_detect_file (path, NULL) != ODORI_FORMAT_SCORE)
    {
      motion = odori_format_load_motion (path, warnings, error);
      print_warnings_text (warnings);
      return motion;
    }

  score = odori_score_load (path, error);
  if (score == NULL)
    return NULL;
  if (index_path == NULL)
    {
      index_path = score_index = odori_score_dup_index_path (score);
      if (index_path == NULL)
        {
          g_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX,
                       _("%s:1: the score names no index (\"# Index:\"); give one with -i INDEX"),
                       path);
          return NULL;
        }
    }
  index = odori_index_load (index_path, error);
  if (index == NULL)
    return NULL;
  composer = odori_composer_new (score, index, error);
  if (composer == NULL)
    return NULL;
  motion = odori_composer_compose (composer, error);
  /* the motion belongs to the composer: keep a reference past it */
  return motion != NULL ? odori_motion_ref (motion) : NULL;
}

/* "OUT.png" and frame 7 of a series up to 120 give "OUT-0007.png". */
static char *
series_path (const char *output,
             guint       frame,
             guint       last)
{
  const char *dot = strrchr (output, '.');
  const char *slash = strrchr (output, G_DIR_SEPARATOR);
  int width = 1;
  gsize stem;

  for (guint n = last; n >= 10; n /= 10)
    width++;
  width = MAX (width, 4);

  if (dot == NULL || (slash != NULL && dot < slash))
    dot = output + strlen (output);
  stem = dot - output;
  return g_strdup_printf ("%.*s-%0*u%s", (int) stem, output, width, frame, dot);
}

static gboolean
parse_frame_range (const char *text,
                   guint      *first,
                   guint      *last)
{
  guint64 a, b;
  char *end;

  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  a = g_ascii_strtoull (text, &end, 10);
  if (*end != '-' || !g_ascii_isdigit (end[1]))
    return FALSE;
  b = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0' || a < 1 || b < a || b > G_MAXUINT32)
    return FALSE;
  *first = a;
  *last = b;
  return TRUE;
}

/* "1280x720": each side 1 to 16384. */
static gboolean
parse_size (const char *text,
            int        *width,
            int        *height)
{
  char *end;
  guint64 w = g_ascii_strtoull (text, &end, 10), h;
  const char *h_start;

  if (end == text || *end != 'x')
    return FALSE;
  h_start = end + 1;
  h = g_ascii_strtoull (h_start, &end, 10);
  if (end == h_start || *end != '\0' || w < 1 || h < 1 || w > 16384 || h > 16384)
    return FALSE;
  *width = w;
  *height = h;
  return TRUE;
}

/* PATH, else the default bulge_types; NULL (and no error) when there is none. */
static OdoriBulgeSet *
load_render_bulges (const char  *path,
                    GError     **error)
{
  g_autofree char *found = NULL;
  OdoriBulgeSet *bulges;

  if (path == NULL)
    path = found = find_bulge_types ();
  if (path == NULL)
    {
      g_printerr (_("warning: no bulge_types found (set ODORI_DATADIR or use --bulge); "
                    "drawing the skin without bulges\n"));
      return NULL;
    }
  bulges = odori_bulge_set_load (path, error);
  if (bulges != NULL)
    print_warnings_text (bulges->log);
  return bulges;
}

/* Draws frames FIRST to LAST (1-based) every EVERY into OUTPUT, numbered when SERIES. */
static gboolean
render_frames (OdoriRenderer  *renderer,
               OdoriHeadless  *headless,
               const char     *output,
               gboolean        series,
               guint           first,
               guint           last,
               guint           every,
               guint          *n_written,
               GError        **error)
{
  int width = odori_headless_get_width (headless), height = odori_headless_get_height (headless);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);

  for (guint f = first; f <= last; f += every)
    {
      g_autofree char *path = series ? series_path (output, f, last) : g_strdup (output);

      odori_renderer_set_frame (renderer, f - 1);
      if (!odori_renderer_draw (renderer, width, height, error))
        return FALSE;
      odori_headless_read_into (headless, pixels);
      if (!odori_png_write_rgba (path, pixels, width, height, error))
        return FALSE;
      (*n_written)++;
      if (last - f < every)
        break;   /* no wrap-around past G_MAXUINT */
    }
  return TRUE;
}

static int
cmd_render (int    argc,
            char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *size = NULL;
  g_autofree char *view_name = NULL;
  g_autofree char *bulge_path = NULL;
  g_autofree char *frames = NULL;
  g_autofree char *highlight = NULL;
  g_autofree char *up_name = NULL;
  OdoriUpAxis up = ODORI_UP_AUTO;
  int frame = -1, every = 1;   /* -1: no --frame given */
  int samples = 4;
  gboolean no_skin = FALSE, no_bulges = FALSE;
  const GOptionEntry entries[] = {
    { "index", 'i', 0, G_OPTION_ARG_FILENAME, &index_path, N_("The index of a score (default: its \"# Index:\" line)"), "INDEX" },
    { "frame", 0, 0, G_OPTION_ARG_INT, &frame, N_("The frame to draw, from 1 (default 1)"), "N" },
    { "frames", 0, 0, G_OPTION_ARG_STRING, &frames, N_("Draw frames A to B as a numbered series OUT-NNNN.png"), "A-B" },
    { "every", 0, 0, G_OPTION_ARG_INT, &every, N_("With --frames: every K-th frame (default 1)"), "K" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Image size in pixels (default 1280x720)"), "WxH" },
    { "samples", 0, 0, G_OPTION_ARG_INT, &samples, N_("Antialiasing samples per pixel, 1 for none (default 4)"), "N" },
    { "view", 0, 0, G_OPTION_ARG_STRING, &view_name, N_("front (default), back, left, right, top, mirror or three-quarter"), "VIEW" },
    { "bulge", 0, 0, G_OPTION_ARG_FILENAME, &bulge_path, N_("Muscle bulges from FILE (default: Odori's bulge_types)"), "FILE" },
    { "no-bulges", 0, 0, G_OPTION_ARG_NONE, &no_bulges, N_("Draw the skin without bulges"), NULL },
    { "no-skin", 0, 0, G_OPTION_ARG_NONE, &no_skin, N_("Draw the bones only"), NULL },
    { "highlight", 0, 0, G_OPTION_ARG_STRING, &highlight, N_("Tint these segments, comma-separated"), "SEGMENTS" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &up_name, N_("The motion's up axis: x, y, z, -x, -y, -z or auto (the default: from the head and the feet)"), "AXIS" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the image to OUT.png"), "OUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    command_context ("render", "SCORE|MOTION [OPTION…] -o OUT.png",
                     _("Draw a frame of a dance (a score is composed first) as a PNG image,\n"
                       "without a display. With --frames, draw a numbered series."));
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriMotion) motion = NULL;
  g_autoptr(OdoriSkeleton) skeleton = NULL;
  g_autoptr(OdoriBulgeSet) bulges = NULL;
  g_autoptr(OdoriHeadless) headless = NULL;
  g_autoptr(OdoriRenderer) renderer = NULL;
  g_autofree char *lower = NULL;
  OdoriView view = ODORI_VIEW_FRONT;
  guint first, last, n_written = 0;
  int width = 1280, height = 720;
  int status = EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return usage_error (context, _("render needs one SCORE or MOTION file"));
  if (output == NULL)
    return usage_error (context, _("render needs -o OUT.png"));
  lower = g_ascii_strdown (output, -1);
  if (!g_str_has_suffix (lower, ".png"))
    return usage_error (context, _("the output must be a .png file"));
  if (size != NULL && !parse_size (size, &width, &height))
    return usage_error (context, _("--size takes WIDTHxHEIGHT, each 1 to 16384, like 1280x720"));
  if (view_name != NULL && !odori_view_from_string (view_name, &view))
    return usage_error (context, _("--view takes front, back, left, right, top, mirror or three-quarter"));
  if (up_name != NULL && !odori_up_axis_from_string (up_name, &up))
    return usage_error (context, _("--up must be x, y, z, -x, -y, -z or auto"));
  if (frames != NULL)
    {
      if (frame != -1)
        return usage_error (context, _("--frame and --frames exclude each other"));
      if (!parse_frame_range (frames, &first, &last))
        return usage_error (context, _("--frames takes a range of frames like 1-120"));
      if (every < 1)
        return usage_error (context, _("--every takes a number of frames, 1 or more"));
    }
  else
    {
      if (frame == -1)
        frame = 1;
      if (frame < 1)
        return usage_error (context, _("--frame takes a frame number, 1 or more"));
      first = last = frame;
      every = 1;
    }
  if (samples < 1 || samples > 64)
    return usage_error (context, _("--samples takes 1 to 64 samples per pixel"));
  if (bulge_path != NULL && no_bulges)
    return usage_error (context, _("--bulge and --no-bulges exclude each other"));

  motion = load_render_input (argv[1], index_path, &error);
  if (motion == NULL)
    goto fail;
  if (motion->n_frames == 0 || motion->n_segments == 0)
    {
      g_printerr (_("%s: the motion has no frames to draw\n"), argv[1]);
      return EXIT_INPUT;
    }
  if (last > motion->n_frames)
    {
      g_printerr (_("%s: frame %u asked for, the motion has %u frames\n"), argv[1], last,
                  motion->n_frames);
      return EXIT_INPUT;
    }
  skeleton = odori_skeleton_for_motion (motion);

  if (!no_bulges && !no_skin)
    {
      bulges = load_render_bulges (bulge_path, &error);
      if (error != NULL)
        goto fail;
    }

#ifdef __GLIBC__
  /* llvmpipe allocates and frees megabytes per frame (shaded vertices, binned triangles);
   * with glibc's default thresholds that memory goes back to the kernel every frame and
   * is faulted in again: about half the time of a skin frame. Keep it. */
  mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
  headless = odori_headless_new (width, height, &error);
  if (headless == NULL || !odori_headless_set_samples (headless, samples, &error))
    goto fail;
  renderer = odori_renderer_new (&error);
  if (renderer == NULL)
    goto fail;
  odori_renderer_set_up_axis (renderer, up);
  odori_renderer_set_motion (renderer, motion, skeleton);
  odori_renderer_set_bulges (renderer, bulges);
  odori_renderer_set_show_skin (renderer, !no_skin);
  odori_renderer_set_show_bulges (renderer, bulges != NULL);
  odori_renderer_set_view (renderer, view);
  if (highlight != NULL)
    {
      static const float tint[4] = { 0.95f, 0.45f, 0.20f, 0.85f };
      g_auto(GStrv) names = g_strsplit (highlight, ",", -1);

      odori_renderer_set_highlight (renderer, (const char * const *) names, tint);
    }

  if (!render_frames (renderer, headless, output, frames != NULL, first, last, every,
                      &n_written, &error))
    goto fail;
  if (frames != NULL)
    g_print (ngettext ("Wrote %u image\n", "Wrote %u images\n", n_written), n_written);
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}

static const Command commands[] = {
  { "info", "[--json] FILE…", N_("summarise motion, index and score files"), cmd_info },
  { "check", "[--json] INDEX [SCORE]", N_("check an index, its show files and a score"), cmd_check },
  { "compose", "SCORE -o OUT", N_("compose a score into one motion (BVA or BVH)"), cmd_compose },
  { "convert", "IN -o OUT", N_("convert a motion to BVA or BVH"), cmd_convert },
  { "sample", "DIR", N_("write the built-in sample library"), cmd_sample },
  { "import", "CAPTURE -l INDEX …", N_("retarget a capture into a library as a new show"), cmd_import },
  { "remove-show", "-l INDEX CODE", N_("remove a show from a library's index"), cmd_remove_show },
  { "render", "IN -o OUT.png", N_("draw a frame (or --frames A-B) of a dance as PNG"), cmd_render },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, _("Usage: odori-cli COMMAND [OPTION…] ARGS…\n\nCommands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      /* pad by characters, not bytes ("FILE…") */
      glong pad = 24 - g_utf8_strlen (commands[i].args, -1);

      fprintf (stream, "  %-11s %s%*s %s\n", commands[i].name, commands[i].args,
               (int) MAX (pad, 0), "", _(commands[i].summary));
    }
  fprintf (stream, _("\n'odori-cli COMMAND --help' describes a command. Exit status: 0 success,\n"
                     "1 an input error, 2 a usage error.\n"));
}

/* Where the translations are: $ODORI_LOCALEDIR if set; else the installed catalogues;
 * else, for an uninstalled build, the ones compiled in the build tree (build/po). */
static const char *
odori_localedir (void)
{
  const char *dir = g_getenv ("ODORI_LOCALEDIR");
#ifdef ODORI_BUILD_LOCALEDIR
  g_autofree char *installed = g_build_filename (LOCALEDIR, "ja", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
#endif

  if (dir != NULL && *dir != '\0')
    return dir;
#ifdef ODORI_BUILD_LOCALEDIR
  if (!g_file_test (installed, G_FILE_TEST_EXISTS))
    return ODORI_BUILD_LOCALEDIR;
#endif
  return LOCALEDIR;
}

static void
print_utf8 (const char *text)
{
  fputs (text, stdout);
  fflush (stdout);
}

static void
printerr_utf8 (const char *text)
{
  fputs (text, stderr);
  fflush (stderr);
}

/* GLib converts g_print's UTF-8 to the locale's charset, and an ASCII charset (the "C"
 * and "POSIX" locales, LANG unset in a container or under env -i) turns every Japanese
 * name and every "°" into "?". Odori's data is Japanese: under an ASCII charset the text
 * goes out as UTF-8; any other charset (EUC-JP, say) is still converted. */
static void
print_utf8_unless_locale_says_otherwise (void)
{
  const char *charset = NULL;

  if (g_get_charset (&charset))
    return;
  if (g_ascii_strcasecmp (charset, "ANSI_X3.4-1968") == 0 || g_ascii_strcasecmp (charset, "ASCII") == 0
      || g_ascii_strcasecmp (charset, "US-ASCII") == 0 || g_ascii_strcasecmp (charset, "646") == 0)
    {
      g_set_print_handler (print_utf8);
      g_set_printerr_handler (printerr_utf8);
    }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  print_utf8_unless_locale_says_otherwise ();
  bindtextdomain (GETTEXT_PACKAGE, odori_localedir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* "Usage: odori-cli [OPTION…] compose …" in each command's --help */
  g_set_prgname ("odori-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("odori-cli %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  g_printerr (_("odori-cli: unknown command \"%s\"\n\n"), argv[1]);
  print_usage (stderr);
  return EXIT_USAGE;
}
