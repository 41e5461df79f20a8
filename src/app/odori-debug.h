/* odori-debug.h: ODORI_DEBUG, the one switch for test and benchmark hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* ODORI_DEBUG=first-frame,screenshot (docs/window.md, "Debugging hooks"). */
typedef enum
{
  /* build-aux/bench: print the time the viewport's first frame was painted, and quit */
  ODORI_DEBUG_FIRST_FRAME = 1 << 0,
  /* build-aux/screenshot: accept --screenshot FILE [--frame N] [--select SYMBOL] */
  ODORI_DEBUG_SCREENSHOT = 1 << 1,
  /* build-aux/bench: print each painted frame's time and each input event's latency */
  ODORI_DEBUG_FRAMES = 1 << 2,
} OdoriDebugFlags;

/* The flags of ODORI_DEBUG, read once. */
OdoriDebugFlags odori_debug_get_flags (void);

/* ODORI_DEBUG=first-frame: prints "odori-mark NAME MICROSECONDS" (CLOCK_MONOTONIC) on
 * stdout, so that build-aux/bench can say where the start-up time goes. */
void odori_debug_mark (const char *name);

/* ODORI_DEBUG=frames: once WINDOW is realized, prints "odori-paint MICROSECONDS" after
 * every frame its frame clock paints, and "odori-latency MILLISECONDS" for every input
 * event (pointer, key, scroll) the frame presents: from the event's X server time (the
 * same monotonic clock on Linux) to the end of that paint. */
void odori_debug_watch_frames (GtkWidget *window);

/* ODORI_DEBUG=frames: prints "odori-span NAME MICROSECONDS", the time since START (a
 * g_get_monotonic_time ()), for what a frame's events did (a drag's step, say). */
void odori_debug_span (const char *name,
                       gint64      start);

#define ODORI_DEBUG_ENABLED(flag) ((odori_debug_get_flags () & (flag)) != 0)

G_END_DECLS
