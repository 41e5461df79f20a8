/* odori-cli-compose.c: the compose command: a score into one full-body motion,
 * and its seam report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-cli-output.h"
#include "odori-cli-private.h"
#include "odori-compose.h"
#include "odori-index.h"
#include "odori-score.h"

/* The blend into SEAM: its incoming symbol's own, else BLEND (the option), else the
 * score's. */
static guint
seam_blend (OdoriScore      *score,
            OdoriScorePart  *part,
            const OdoriSeam *seam,
            int              blend)
{
  for (guint i = 0; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *sym = &g_array_index (part->symbols, OdoriScoreSymbol, i);

      if (sym->start == seam->frame && sym->mods.has_blend)
        return sym->mods.blend;
    }
  return blend >= 0 ? (guint) blend : (guint) MAX (score->blend, 0);
}

/* The foot slide before and after locking around SEAM: the horizontal travel of the
 * feet of the legs PART names, during their contacts, from a quarter of a second before
 * the frame before the seam to a quarter of a second after its blend (MARGIN frames);
 * FALSE without a lock. */
static gboolean
seam_slide (OdoriFootLock   *lock,
            OdoriScore      *score,
            OdoriScorePart  *part,
            const OdoriSeam *seam,
            int              blend,
            guint            margin,
            double          *before,
            double          *after)
{
  guint first = seam->frame >= 2 + margin ? seam->frame - 2 - margin : 0;
  guint last = seam->frame - 1 + MAX (seam_blend (score, part, seam, blend), 1) + margin;

  if (lock == NULL)
    return FALSE;
  odori_foot_lock_get_slide (lock, (const char *const *) part->sensors, first, last, before, after);
  return TRUE;
}

static void
print_seams (OdoriComposer *composer,
             OdoriScore    *score,
             int            blend,
             gboolean       json)
{
  GArray *seams = odori_composer_get_seams (composer);
  OdoriFootLock *lock = odori_composer_get_foot_lock (composer);
  double before = 0, after = 0;
  guint margin = (guint) lround (0.25 / odori_composer_get_frame_time (composer));

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "seams");
      json_builder_begin_array (b);
      for (guint i = 0; i < seams->len; i++)
        {
          OdoriSeam      *seam = &g_array_index (seams, OdoriSeam, i);
          OdoriScorePart *part = g_ptr_array_index (score->parts, seam->part);

          json_builder_begin_object (b);
          _odori_cli_add_string (b, "part", part->code);
          json_builder_set_member_name (b, "frame");
          json_builder_add_int_value (b, seam->frame);
          _odori_cli_add_string (b, "from", seam->from);
          _odori_cli_add_string (b, "to", seam->to);
          json_builder_set_member_name (b, "jump_deg");
          json_builder_add_double_value (b, round (seam->jump_deg * 1000) / 1000);
          json_builder_set_member_name (b, "clip_max_deg");
          json_builder_add_double_value (b, round (seam->clip_max_deg * 1000) / 1000);
          if (seam_slide (lock, score, part, seam, blend, margin, &before, &after))
            {
              json_builder_set_member_name (b, "foot_slide_before");
              json_builder_add_double_value (b, round (before * 1000) / 1000);
              json_builder_set_member_name (b, "foot_slide_after");
              json_builder_add_double_value (b, round (after * 1000) / 1000);
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      if (lock != NULL)
        {
          GArray *contacts = odori_foot_lock_get_contacts (lock);

          odori_foot_lock_get_slide (lock, NULL, 0, G_MAXUINT, &before, &after);
          json_builder_set_member_name (b, "foot_lock");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "contacts");
          json_builder_add_int_value (b, contacts->len);
          json_builder_set_member_name (b, "slide_before");
          json_builder_add_double_value (b, round (before * 1000) / 1000);
          json_builder_set_member_name (b, "slide_after");
          json_builder_add_double_value (b, round (after * 1000) / 1000);
          json_builder_set_member_name (b, "max_drop");
          json_builder_add_double_value (b, round (odori_foot_lock_get_max_drop (lock) * 1000) / 1000);
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      _odori_cli_print_json (root);
      return;
    }

  g_print ("%-5s %7s  %-12s %-12s %9s %9s\n", "part", "frame", "from", "to", "jump°", "clip max°");
  for (guint i = 0; i < seams->len; i++)
    {
      OdoriSeam      *seam = &g_array_index (seams, OdoriSeam, i);
      OdoriScorePart *part = g_ptr_array_index (score->parts, seam->part);

      g_print ("%-5s %7u  %-12s %-12s %9.2f %9.2f%s", part->code, seam->frame, seam->from,
               seam->to, seam->jump_deg, seam->clip_max_deg,
               odori_seam_rank (seam) == ODORI_SEAM_ROUGH ? "  rough" : "");
      if (seam_slide (lock, score, part, seam, blend, margin, &before, &after) && before >= 0.005)
        {
          char b[G_ASCII_DTOSTR_BUF_SIZE], a[G_ASCII_DTOSTR_BUF_SIZE];

          /* Translators: a seam's foot slide before and after foot locking, in the
           * motion's length unit: "  feet slid 2.41, locked 0.00" */
          g_print (_("  feet slid %s, locked %s"), g_ascii_formatd (b, sizeof b, "%.2f", before),
                   g_ascii_formatd (a, sizeof a, "%.2f", after));
        }
      g_print ("\n");
    }
}

int
_odori_cli_cmd_compose (int    argc,
                        char **argv)
{
  g_autofree char   *output = NULL;
  g_autofree char   *index_path = NULL;
  g_autofree char   *root_match = NULL;
  g_autofree char   *bvh_positions = NULL;
  OdoriBvhPositions  positions;
  int                blend = -1;
  gboolean           seams = FALSE, json = FALSE;
  gboolean           foot_lock = FALSE, no_foot_lock = FALSE;
  const GOptionEntry entries[] = {
    { "index", 'i', 0, G_OPTION_ARG_FILENAME, &index_path, N_("The index (default: the score's \"# Index:\" line)"), "INDEX" },
    { "blend", 0, 0, G_OPTION_ARG_INT, &blend, N_("Transition frames (default: the score's \"# Blend:\", else 0)"), "N" },
    { "root-match", 0, 0, G_OPTION_ARG_STRING, &root_match, N_("Root continuity at each switch: none, position (default) or full"), "MODE" },
    { "foot-lock", 0, 0, G_OPTION_ARG_NONE, &foot_lock, N_("Lock the feet where they touch the floor (default: the score's \"# FootLock:\", else off)"), NULL },
    { "no-foot-lock", 0, 0, G_OPTION_ARG_NONE, &no_foot_lock, N_("Do not lock the feet, whatever the score says"), NULL },
    { "seams", 0, 0, G_OPTION_ARG_NONE, &seams, N_("Print the seam report"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the seam report as JSON"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the composed dance to OUT (.bva, .vpm, .bvh, or .glb: glTF binary with the skin)"), "OUT" },
    { "bvh-positions", 0, 0, G_OPTION_ARG_STRING, &bvh_positions, N_("BVH output: position channels on the root and on every joint whose offset from its parent varies (auto, the default), on the root only, or on every joint"), "auto|root|all" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(OdoriComposer) composer = NULL;
  g_autoptr(GError) error = NULL;
  OdoriRootMatch match = ODORI_ROOT_MATCH_POSITION;
  OdoriMotion   *motion;
  int            status = EXIT_OK;

  context = _odori_cli_command_context ("compose", "SCORE [-i INDEX] -o OUT.bva|OUT.bvh|OUT.glb",
                                        _("Compose a score into one full-body motion, as the Dance Converter did.\n"
                                          "Nothing is written when there is an error."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!_odori_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _odori_cli_usage_error (context, _("compose needs one SCORE"));
  if (output == NULL && !seams)
    return _odori_cli_usage_error (context, _("compose needs -o OUT (or --seams)"));
  if (output != NULL && !_odori_cli_output_extension_ok (output))
    return _odori_cli_usage_error (context, _("the output must be a .bva, .vpm, .bvh or .glb file"));
  if (blend < -1)
    return _odori_cli_usage_error (context, _("--blend takes a number of frames, 0 or more"));
  if (foot_lock && no_foot_lock)
    return _odori_cli_usage_error (context, _("--foot-lock and --no-foot-lock exclude each other"));
  if (root_match != NULL)
    {
      if (strcmp (root_match, "none") == 0)
        match = ODORI_ROOT_MATCH_NONE;
      else if (strcmp (root_match, "position") == 0)
        match = ODORI_ROOT_MATCH_POSITION;
      else if (strcmp (root_match, "full") == 0)
        match = ODORI_ROOT_MATCH_FULL;
      else
        return _odori_cli_usage_error (context, _("--root-match takes none, position or full"));
    }
  if (!_odori_cli_parse_bvh_positions (bvh_positions, &positions))
    return _odori_cli_usage_error (context, _("--bvh-positions takes auto, root or all"));

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
  odori_composer_set_foot_lock (composer, foot_lock ? 1 : no_foot_lock ? 0 : -1);
  motion = odori_composer_compose (composer, &error);
  if (motion == NULL)
    goto fail;
  if (output != NULL && !_odori_cli_save_motion (motion, output, positions, &error))
    goto fail;
  if (seams)
    print_seams (composer, score, blend, json);
  return EXIT_OK;

fail:
  g_printerr ("%s\n", error->message);
  return EXIT_INPUT;
}
