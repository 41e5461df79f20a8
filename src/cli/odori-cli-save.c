/* odori-cli-save.c: writing a motion file, shared by convert and compose: the format by
 * the output's extension (.bva, .vpm, .bvh, .glb) and --bvh-positions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "odori-bva.h"
#include "odori-bvh.h"
#include "odori-cli-private.h"
#include "odori-gltf.h"
#include "odori-skeleton.h"

/* Writes MOTION to OUTPUT as BVA or BVH by the output's extension; POSITIONS says which
 * BVH joints get position channels. */
gboolean
_odori_cli_save_motion (OdoriMotion      *motion,
                        const char       *output,
                        OdoriBvhPositions positions,
                        GError          **error)
{
  g_autofree char *lower = g_ascii_strdown (output, -1);

  if (odori_gltf_path_is_glb (output))
    {
      g_autoptr(OdoriGltfExport) gltf = odori_gltf_export_new (motion, output);

      return odori_gltf_export_run (gltf, NULL, error);
    }
  if (g_str_has_suffix (lower, ".bvh"))
    {
      g_autoptr(OdoriSkeleton) skeleton = odori_skeleton_for_motion (motion);

      return odori_bvh_save_full (motion, skeleton, positions, output, error);
    }
  return odori_bva_save (motion, output, error);
}

/* --bvh-positions of convert and compose: auto (default), root or all. */
gboolean
_odori_cli_parse_bvh_positions (const char        *arg,
                                OdoriBvhPositions *positions)
{
  *positions = ODORI_BVH_POSITIONS_AUTO;
  return arg == NULL || odori_bvh_positions_from_string (arg, positions);
}

gboolean
_odori_cli_output_extension_ok (const char *output)
{
  g_autofree char *lower = g_ascii_strdown (output, -1);

  return g_str_has_suffix (lower, ".bva") || g_str_has_suffix (lower, ".vpm") ||
         g_str_has_suffix (lower, ".bvh") || g_str_has_suffix (lower, ".glb");
}
