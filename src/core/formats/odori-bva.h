/* odori-bva.h: BioVision Animation (.bva, .vpm) reader and writer (FORMATS.md §1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-motion.h"
#include "odori-text.h"

G_BEGIN_DECLS

#define ODORI_BVA_ERROR (odori_bva_error_quark ())

typedef enum
{
  ODORI_BVA_ERROR_SYNTAX,       /* a header line is not what was expected */
  ODORI_BVA_ERROR_TRUNCATED,    /* the file ends before the frames it announced */
  ODORI_BVA_ERROR_COUNT,        /* wrong number of values on a frame line, or Frames: vs data */
  ODORI_BVA_ERROR_NUMBER,       /* not a number */
  ODORI_BVA_ERROR_NOT_FINITE,   /* nan or inf */
  ODORI_BVA_ERROR_DUPLICATE,    /* two segments with one name */
  ODORI_BVA_ERROR_FRAME_TIME,   /* segments with different frame times */
  ODORI_BVA_ERROR_UNIT,         /* unknown field or unit */
} OdoriBvaError;

GQuark        odori_bva_error_quark  (void);

/* TRUE if the text looks like BVA (first non-blank line starts with "Segment:"). */
gboolean      odori_bva_sniff        (const char   *data,
                                      gsize         len);
/* WARNINGS (nullable): receives OdoriDiagnostic for tolerated irregularities. */
OdoriMotion  *odori_bva_load         (const char   *path,
                                      GPtrArray    *warnings,
                                      GError      **error);
OdoriMotion  *odori_bva_load_text    (OdoriTextFile *file,
                                      GPtrArray    *warnings,
                                      GError      **error);
/* Writes every segment with its own field order and units (atomically). */
gboolean      odori_bva_save         (const OdoriMotion *motion,
                                      const char   *path,
                                      GError      **error);
void          odori_bva_write        (const OdoriMotion *motion,
                                      OdoriOutput  *out);

G_END_DECLS
