/* bench-xdamage.c: counts the frames an X server receives, for build-aux/bench
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a user sees is what reaches the X server, not what an application thinks it
 * drew. This watches the root window with the DAMAGE extension (without a compositor a
 * client's drawing damages the root window's contents) for SECONDS, merges the damage
 * that arrives within 4 ms into one frame, and prints one line:
 *   frames N seconds S fps F longest-gap-ms G
 * and, with --times, each frame's CLOCK_MONOTONIC time in microseconds before it.
 *   bench-xdamage SECONDS [--times]
 */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/Xfixes.h>

#define MERGE_US 4000

int
main (int   argc,
      char *argv[])
{
  Display *dpy;
  Damage   damage;
  int      event_base, error_base;
  double   seconds;
  gboolean times = argc > 2 && strcmp (argv[2], "--times") == 0;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 start, end, last = 0, gap = 0;

  if (argc < 2 || (seconds = g_ascii_strtod (argv[1], NULL)) <= 0)
    {
      fprintf (stderr, "usage: bench-xdamage SECONDS [--times]\n");
      return 2;
    }
  dpy = XOpenDisplay (NULL);
  if (dpy == NULL)
    {
      fprintf (stderr, "bench-xdamage: cannot open the display\n");
      return 1;
    }
  if (!XDamageQueryExtension (dpy, &event_base, &error_base))
    {
      fprintf (stderr, "bench-xdamage: the X server has no DAMAGE extension\n");
      return 1;
    }
  damage = XDamageCreate (dpy, DefaultRootWindow (dpy), XDamageReportNonEmpty);
  XFlush (dpy);

  start = g_get_monotonic_time ();
  end = start + (gint64) (seconds * G_USEC_PER_SEC);
  for (;;)
    {
      gint64        now = g_get_monotonic_time ();
      struct pollfd pfd = { ConnectionNumber (dpy), POLLIN, 0 };

      if (now >= end)
        break;
      if (XPending (dpy) == 0)
        {
          poll (&pfd, 1, (int) ((end - now) / 1000) + 1);
          continue;
        }
      while (XPending (dpy) > 0)
        {
          XEvent ev;

          XNextEvent (dpy, &ev);
          if (ev.type != event_base + XDamageNotify)
            continue;
          now = g_get_monotonic_time ();
          /* take the damage away, so that the next drawing reports again */
          XDamageSubtract (dpy, damage, None, None);
          if (frames->len == 0 || now - last > MERGE_US)
            {
              if (frames->len > 0)
                gap = MAX (gap, now - last);
              g_array_append_val (frames, now);
            }
          last = now;
        }
    }
  if (times)
    for (guint i = 0; i < frames->len; i++)
      printf ("frame %" G_GINT64_FORMAT "\n", g_array_index (frames, gint64, i));
  printf ("frames %u seconds %.3f fps %.2f longest-gap-ms %.1f\n", frames->len, seconds,
          frames->len / seconds, gap / 1000.0);
  XDamageDestroy (dpy, damage);
  XCloseDisplay (dpy);
  return 0;
}
