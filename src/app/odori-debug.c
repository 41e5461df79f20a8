/* odori-debug.c: ODORI_DEBUG, the one switch for test and benchmark hooks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hooks that only scripts use (the start-up benchmark, the documentation's
 * screenshots) stay off the shipped paths unless ODORI_DEBUG names them, as GTK_DEBUG
 * does for GTK: parsed once with g_parse_debug_string(), so "help" lists the keys.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "odori-debug.h"

OdoriDebugFlags
odori_debug_get_flags (void)
{
  static gsize flags;

  if (g_once_init_enter (&flags))
    {
      static const GDebugKey keys[] = {
        { "first-frame", ODORI_DEBUG_FIRST_FRAME },
        { "screenshot", ODORI_DEBUG_SCREENSHOT },
        { "frames", ODORI_DEBUG_FRAMES },
      };
      /* The bit above the keys marks "read", so that no flag set is still "read". */
      gsize value = 1u << 16;

      value |= g_parse_debug_string (g_getenv ("ODORI_DEBUG"), keys, G_N_ELEMENTS (keys));
      g_once_init_leave (&flags, value);
    }
  return (OdoriDebugFlags) (flags & 0xffff);
}

void
odori_debug_mark (const char *name)
{
  if (!ODORI_DEBUG_ENABLED (ODORI_DEBUG_FIRST_FRAME))
    return;
  printf ("odori-mark %s %" G_GINT64_FORMAT "\n", name, g_get_monotonic_time ());
  fflush (stdout);
}

void
odori_debug_span (const char *name,
                  gint64      start)
{
  if (!ODORI_DEBUG_ENABLED (ODORI_DEBUG_FRAMES))
    return;
  printf ("odori-span %s %" G_GINT64_FORMAT "\n", name, g_get_monotonic_time () - start);
  fflush (stdout);
}

/* Input events seen since the last paint: their X server times (ms). */
typedef struct
{
  GArray *pending;
  gint64  phase[3]; /* when this frame's flush-events, layout, paint ended (0: not yet) */
} FrameWatch;

static void
frame_watch_free (gpointer data)
{
  FrameWatch *watch = data;

  g_array_unref (watch->pending);
  g_free (watch);
}

static gboolean
watch_event_cb (GtkEventControllerLegacy *controller,
                GdkEvent                 *event,
                FrameWatch               *watch)
{
  switch (gdk_event_get_event_type (event))
    {
    case GDK_MOTION_NOTIFY:
    case GDK_BUTTON_PRESS:
    case GDK_BUTTON_RELEASE:
      {
        guint32 time = gdk_event_get_time (event);

        if (time != GDK_CURRENT_TIME)
          g_array_append_val (watch->pending, time);
      }
      break;
    default:
      break;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
watch_after_paint_cb (GdkFrameClock *clock,
                      FrameWatch    *watch)
{
  gint64 now = g_get_monotonic_time ();
  /* X server times are milliseconds of a 32-bit wrapping clock */
  guint32 now_ms = (guint32) (now / 1000);

  printf ("odori-paint %" G_GINT64_FORMAT "\n", now);
  /* Where the frame's time went (µs): from the end of its event flush to the end of its
   * layout (tick callbacks, then measuring and allocating), then its paint (GSK and the
   * viewport's GL). GTK's own handlers run before these, so each marks a phase's end. */
  if (watch->phase[0] != 0 && watch->phase[1] != 0 && watch->phase[2] != 0)
    printf ("odori-phases layout %d paint %d\n", (int) (watch->phase[1] - watch->phase[0]),
            (int) (watch->phase[2] - watch->phase[1]));
  memset (watch->phase, 0, sizeof watch->phase);
  for (guint i = 0; i < watch->pending->len; i++)
    printf ("odori-latency %d\n", (int) (now_ms - g_array_index (watch->pending, guint32, i)));
  g_array_set_size (watch->pending, 0);
  fflush (stdout);
}

static void
watch_flush_cb (GdkFrameClock *clock,
                FrameWatch    *watch)
{
  watch->phase[0] = g_get_monotonic_time ();
}

static void
watch_layout_cb (GdkFrameClock *clock,
                 FrameWatch    *watch)
{
  watch->phase[1] = g_get_monotonic_time ();
}

static void
watch_paint_cb (GdkFrameClock *clock,
                FrameWatch    *watch)
{
  watch->phase[2] = g_get_monotonic_time ();
}

static void
watch_realize_cb (GtkWidget  *window,
                  FrameWatch *watch)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  g_signal_connect (clock, "flush-events", G_CALLBACK (watch_flush_cb), watch);
  g_signal_connect (clock, "layout", G_CALLBACK (watch_layout_cb), watch);
  g_signal_connect (clock, "paint", G_CALLBACK (watch_paint_cb), watch);
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (watch_after_paint_cb),
                    watch);
}

void
odori_debug_watch_frames (GtkWidget *window)
{
  GtkEventController *legacy;
  FrameWatch *watch;

  if (!ODORI_DEBUG_ENABLED (ODORI_DEBUG_FRAMES))
    return;
  watch = g_new0 (FrameWatch, 1);
  watch->pending = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* the window lives as long as the process in the benchmark: so does the watch */
  g_object_set_data_full (G_OBJECT (window), "odori-frame-watch", watch, frame_watch_free);
  legacy = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_CAPTURE);
  g_signal_connect (legacy, "event", G_CALLBACK (watch_event_cb), watch);
  gtk_widget_add_controller (window, legacy);
  g_signal_connect (window, "realize", G_CALLBACK (watch_realize_cb), watch);
}
