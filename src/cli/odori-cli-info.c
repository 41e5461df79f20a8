/* odori-cli-info.c: the info command: detect each file's format by its content and summarise
 * it, as text or JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-bulge.h"
#include "odori-beats.h"
#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-capture.h"
#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-format-private.h"
#include "odori-format.h"
#include "odori-index.h"
#include "odori-kbs.h"
#include "odori-retarget.h"
#include "odori-score.h"
#include "odori-skeleton.h"
#include "odori-text.h"

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
  _odori_cli_add_string (b, "source", source);
  _odori_cli_add_string (b, "scheme",
                         strcmp (source, "table") == 0 ? odori_skeleton_scheme_to_string (skeleton->scheme) : NULL);
  json_builder_set_member_name (b, "parents");
  json_builder_begin_object (b);
  for (guint i = 0; i < skeleton->n_bones; i++)
    {
      int parent = skeleton->bones[i].parent;

      _odori_cli_add_string (b, skeleton->bones[i].name, parent >= 0 ? skeleton->bones[parent].name : NULL);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
}

static JsonNode *
motion_json (OdoriMotion  *motion,
             OdoriFormat   format,
             OdoriEncoding encoding,
             GPtrArray    *warnings)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  _odori_cli_add_string (b, "format", odori_format_to_string (format));
  _odori_cli_add_string (b, "encoding", odori_encoding_to_string (encoding));
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
  _odori_cli_add_diagnostics (b, "warnings", warnings);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
motion_text (const char   *path,
             OdoriMotion  *motion,
             OdoriFormat   format,
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
  _odori_cli_add_string (b, "format", "motion.dat");
  _odori_cli_add_string (b, "encoding", odori_encoding_to_string (index->encoding));
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (guint i = 0; i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);

      json_builder_begin_object (b);
      _odori_cli_add_string (b, "code", part->code);
      _odori_cli_add_string (b, "name", part->name);
      _odori_cli_add_strv (b, "map", (const char *const *) part->map);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "classes");
  json_builder_begin_array (b);
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      json_builder_begin_object (b);
      _odori_cli_add_string (b, "code", klass->code);
      _odori_cli_add_string (b, "name", klass->name);
      json_builder_set_member_name (b, "shows");
      json_builder_begin_array (b);
      for (guint s = 0; s < klass->shows->len; s++)
        {
          OdoriIndexShow *show = g_ptr_array_index (klass->shows, s);

          json_builder_begin_object (b);
          _odori_cli_add_string (b, "code", show->code);
          _odori_cli_add_string (b, "name", show->name);
          _odori_cli_add_string (b, "file", show->file);
          json_builder_set_member_name (b, "motions");
          json_builder_begin_array (b);
          for (guint m = 0; m < show->motions->len; m++)
            {
              OdoriIndexMotion *motion = g_ptr_array_index (show->motions, m);

              json_builder_begin_object (b);
              _odori_cli_add_string (b, "code", motion->code);
              _odori_cli_add_string (b, "name", motion->name);
              _odori_cli_add_string (b, "exp", motion->exp);
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
  _odori_cli_add_diagnostics (b, "warnings", index->warnings);
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
      OdoriIndexPart  *part = g_ptr_array_index (index->parts, i);
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

/* The music lines of SCORE as JSON members of "music" (numbers as read). */
static void
score_music_json (JsonBuilder *b,
                  OdoriScore  *score)
{
  const OdoriScoreMusic *music = &score->music;

  json_builder_set_member_name (b, "music");
  json_builder_begin_object (b);
  _odori_cli_add_string (b, "path", music->path);
  if (music->tempo > 0)
    {
      json_builder_set_member_name (b, "tempo");
      json_builder_add_double_value (b, music->tempo);
    }
  if (music->meter > 0)
    {
      json_builder_set_member_name (b, "meter");
      json_builder_add_int_value (b, music->meter);
    }
  if (music->has_downbeat)
    {
      json_builder_set_member_name (b, "downbeat");
      json_builder_add_double_value (b, music->downbeat);
    }
  if (music->has_offset)
    {
      json_builder_set_member_name (b, "offset");
      json_builder_add_double_value (b, music->offset);
    }
  _odori_cli_add_string (b, "beats", music->beats_path);
  json_builder_end_object (b);
}

/* "song.ogg, 96.5 bpm, 4 beats a bar, downbeat 1.25 s, offset 0 s, beats song.beats" */
static char *
score_music_text (OdoriScore *score)
{
  const OdoriScoreMusic *music = &score->music;
  GString *s = g_string_new (music->path ? music->path : _("no music file"));

  if (music->tempo > 0)
    {
      g_autofree char *x = odori_beats_format_time (music->tempo);

      g_string_append_printf (s, _(", %s bpm"), x);
    }
  if (music->meter > 0)
    g_string_append_printf (s, _(", %u beats a bar"), music->meter);
  if (music->has_downbeat)
    {
      g_autofree char *x = odori_beats_format_time (music->downbeat);

      g_string_append_printf (s, _(", downbeat %s s"), x);
    }
  if (music->has_offset)
    {
      g_autofree char *x = odori_beats_format_time (music->offset);

      g_string_append_printf (s, _(", offset %s s"), x);
    }
  if (music->beats_path != NULL)
    g_string_append_printf (s, _(", beats %s"), music->beats_path);
  return g_string_free (s, FALSE);
}

static JsonNode *
score_json (OdoriScore *score)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  _odori_cli_add_string (b, "format", "dds");
  _odori_cli_add_string (b, "encoding", odori_encoding_to_string (score->encoding));
  _odori_cli_add_string (b, "title", score->title);
  _odori_cli_add_string (b, "author", score->author);
  _odori_cli_add_string (b, "date", score->date);
  if (odori_score_music_is_set (&score->music))
    score_music_json (b, score);
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, i);

      json_builder_begin_object (b);
      _odori_cli_add_string (b, "code", part->code);
      _odori_cli_add_strv (b, "sensors", (const char *const *) part->sensors);
      json_builder_set_member_name (b, "symbols");
      json_builder_begin_array (b);
      for (guint s = 0; s < part->symbols->len; s++)
        {
          OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, s);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "start");
          json_builder_add_int_value (b, sym->start);
          _odori_cli_add_string (b, "symbol", sym->symbol);
          if (!odori_symbol_mods_is_none (&sym->mods))
            {
              g_autofree char *mods = odori_symbol_mods_to_string (&sym->mods);

              _odori_cli_add_string (b, "modifiers", mods + 1);
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  _odori_cli_add_diagnostics (b, "warnings", score->warnings);
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
  if (odori_score_music_is_set (&score->music))
    {
      g_autofree char *music = score_music_text (score);

      g_print (_("  music: %s\n"), music);
    }
  for (guint i = 0; i < score->parts->len; i++)
    {
      OdoriScorePart  *part = g_ptr_array_index (score->parts, i);
      g_autofree char *sensors = g_strjoinv (",", part->sensors);

      g_print ("  %-4s %s:", part->code, sensors);
      for (guint s = 0; s < part->symbols->len; s++)
        {
          OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, s);
          g_autofree char  *mods = odori_symbol_mods_to_string (&sym->mods);

          /* modifiers in brackets: " 120:TE.C1[mirror speed=0.5]" */
          if (*mods != '\0')
            g_print (" %u:%s[%s]", sym->start, sym->symbol, mods + 1);
          else
            g_print (" %u:%s", sym->start, sym->symbol);
        }
      g_print ("\n");
    }
}

static JsonNode *
bulge_json (OdoriBulgeSet *set)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  _odori_cli_add_string (b, "format", "bulge_types");
  json_builder_set_member_name (b, "bulges");
  json_builder_begin_array (b);
  for (guint i = 0; i < set->bulges->len; i++)
    {
      const OdoriBulge *bulge = g_ptr_array_index (set->bulges, i);

      json_builder_begin_object (b);
      _odori_cli_add_string (b, "name", bulge->name);
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
              json_builder_add_double_value (b, _odori_cli_clean_float (key->u));
              json_builder_add_double_value (b, _odori_cli_clean_float (key->v));
              json_builder_add_double_value (b, _odori_cli_clean_float (key->w));
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
      _odori_cli_add_string (b, "message", diag->message);
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
                     set->bulges->len),
           path, set->bulges->len);
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

/* Captures (NI_JOINTS_TEXT_FILE, sensor CSV) and bone settings (KBS, KST) */

static JsonNode *
kbs_json (OdoriKbs  *kbs,
          GPtrArray *warnings)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  _odori_cli_add_string (b, "format", kbs->format == ODORI_KBS_FORMAT_KST ? "kst" : "kbs");
  _odori_cli_add_string (b, "encoding", odori_encoding_to_string (kbs->encoding));
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
      _odori_cli_add_string (b, "bone", kbs->joints[j].bone);
      json_builder_set_member_name (b, "twist");
      json_builder_add_int_value (b, kbs->joints[j].twist ? 1 : 0);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  _odori_cli_add_diagnostics (b, "warnings", warnings);
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

/* Text output ends with the file's warnings; info_one () returns a null node for it. */
static JsonNode *
text_done (GPtrArray *warnings)
{
  _odori_cli_print_warnings_text (warnings);
  return json_node_new (JSON_NODE_NULL);
}

static JsonNode *
kbs_info (const char *path,
          gboolean    json,
          GError    **error)
{
  g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
  g_autoptr(OdoriKbs) kbs = odori_kbs_load (path, warnings, error);

  if (kbs == NULL)
    return NULL;
  if (json)
    return kbs_json (kbs, warnings);
  kbs_text (path, kbs);
  return text_done (warnings);
}

/* A capture as a show file would load it (the default import options). */
static JsonNode *
capture_info (const char *path,
              gboolean    json,
              GError    **error)
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
      return text_done (warnings);
    }

  b = json_builder_new ();
  json_builder_begin_object (b);
  _odori_cli_add_string (b, "format", format);
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
  _odori_cli_add_string (b, "up", odori_up_axis_to_string (capture->up));
  _odori_cli_add_string (b, "rotations", rotations);
  _odori_cli_add_string (b, "units", "CENTIMETERS");
  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint s = 0; s < motion->n_segments; s++)
    json_builder_add_string_value (b, motion->segments[s].name);
  json_builder_end_array (b);
  add_skeleton (b, motion);
  _odori_cli_add_diagnostics (b, "warnings", warnings);
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
  gsize       len;
  OdoriFormat format;

  /* BVA and BVH (UTF-8 from the start) through the streamed reader, as the application
   * loads them: mapping the file whole for its format would add the file's size to the
   * peak (a 1-hour capture: 1 GiB instead of its 300 MiB model). */
  {
    g_autoptr(GPtrArray) warnings = odori_diagnostics_new ();
    g_autoptr(OdoriMotion) motion = NULL;
    OdoriEncoding encoding = ODORI_ENCODING_UTF8;

    motion = odori_format_load_streamed_motion (path, &format, &encoding, warnings, error);
    if (format != ODORI_FORMAT_UNKNOWN)
      {
        if (motion == NULL)
          return NULL;
        if (json)
          return motion_json (motion, format, encoding, warnings);
        motion_text (path, motion, format, encoding);
        return text_done (warnings);
      }
  }

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
        return text_done (warnings);
      }
    case ODORI_FORMAT_INDEX:
      {
        g_autoptr(OdoriIndex) index = odori_index_load_text (file, error);

        if (index == NULL)
          return NULL;
        if (json)
          return index_json (index);
        index_text (path, index);
        return text_done (index->warnings);
      }
    case ODORI_FORMAT_SCORE:
      {
        g_autoptr(OdoriScore) score = odori_score_load_text (file, error);

        if (score == NULL)
          return NULL;
        if (json)
          return score_json (score);
        score_text (path, score);
        return text_done (score->warnings);
      }
    case ODORI_FORMAT_BULGE:
      {
        g_autoptr(OdoriBulgeSet) set = odori_bulge_set_load_text (file, error);

        if (set == NULL)
          return NULL;
        if (json)
          return bulge_json (set);
        bulge_text (path, set);
        return text_done (set->log);
      }
    case ODORI_FORMAT_UNKNOWN:
    default:
      g_set_error (error, ODORI_FORMAT_ERROR, ODORI_FORMAT_ERROR_UNKNOWN,
                   _("%s:1: not a file Odori reads (expected BVA, BVH, motion.dat, DDS, "
                     "bulge_types, NI_JOINTS_TEXT_FILE, a sensor CSV, KBS or KST)"),
                   path);
      return NULL;
    }
}

int
_odori_cli_cmd_info (int    argc,
                     char **argv)
{
  gboolean           json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON (an array when several files are given)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(JsonArray) array = json_array_new ();
  int status = EXIT_OK;

  context = _odori_cli_command_context ("info", "FILE…", _("Detect each file's format by its content and summarise it."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc < 2)
    return _odori_cli_usage_error (context, _("info needs at least one FILE"));

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
      _odori_cli_print_json (root);
    }
  return status;
}
