/* odori-types.h: forward declarations shared by the core's headers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _OdoriMotion     OdoriMotion;
typedef struct _OdoriTextFile   OdoriTextFile;
typedef struct _OdoriOutput     OdoriOutput;
typedef struct _OdoriIndex      OdoriIndex;
typedef struct _OdoriScore      OdoriScore;
typedef struct _OdoriSkeleton   OdoriSkeleton;
typedef struct _OdoriMotionCache OdoriMotionCache;

/* A tolerated irregularity (warning) or an error found while reading or checking a file.
 * Readers collect warnings into a GPtrArray of these instead of printing them. */
typedef struct
{
  char    *file;     /* path as given by the caller, or NULL */
  guint    line;     /* 1-based; 0 when not tied to a line */
  gboolean is_error;
  char    *message;  /* UTF-8, without file and line */
} OdoriDiagnostic;

OdoriDiagnostic *odori_diagnostic_new         (const char      *file,
                                               guint            line,
                                               gboolean         is_error,
                                               const char      *format,
                                               ...) G_GNUC_PRINTF (4, 5);
void             odori_diagnostic_free        (OdoriDiagnostic *diag);
char            *odori_diagnostic_to_string   (const OdoriDiagnostic *diag);
GPtrArray       *odori_diagnostics_new        (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriDiagnostic, odori_diagnostic_free)

G_END_DECLS
