/* odori-debug.h: ODORI_DEBUG, the one switch for test and benchmark hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ODORI_DEBUG=first-frame,screenshot (docs/window.md, "Debugging hooks"). */
typedef enum
{
  /* build-aux/bench: print the time the viewport's first frame was painted, and quit */
  ODORI_DEBUG_FIRST_FRAME = 1 << 0,
  /* build-aux/screenshot: accept --screenshot FILE [--frame N] [--select SYMBOL] */
  ODORI_DEBUG_SCREENSHOT = 1 << 1,
} OdoriDebugFlags;

/* The flags of ODORI_DEBUG, read once. */
OdoriDebugFlags odori_debug_get_flags (void);

#define ODORI_DEBUG_ENABLED(flag) ((odori_debug_get_flags () & (flag)) != 0)

G_END_DECLS
