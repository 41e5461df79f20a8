/* bench-gtk-floor.c: the floor for the application's first frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GTK 4 window of Odori's default size (1200x760) with a GtkGLArea that only clears:
 * what starting GTK, creating a GL context (llvmpipe under Xvfb) and painting one frame
 * cost before any of Odori's work. Like `odori` under ODORI_DEBUG=first-frame, it
 * prints "odori-first-frame-us N" (CLOCK_MONOTONIC, microseconds) once the first frame
 * has been painted, and quits. build-aux/bench subtracts the time it started it.
 *   bench-gtk-floor [WIDTH HEIGHT]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <epoxy/gl.h>
#include <gtk/gtk.h>

static int width = 1200;
static int height = 760;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  printf ("odori-first-frame-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, user_data);
  g_application_quit (G_APPLICATION (user_data));
}

static gboolean
render_cb (GtkGLArea    *area,
           GdkGLContext *context,
           gpointer      app)
{
  static gboolean done;

  glClearColor (0.2f, 0.2f, 0.25f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (!done)
    {
      done = TRUE;
      g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (area)), "after-paint",
                        G_CALLBACK (after_paint_cb), app);
    }
  return TRUE;
}

static void
activate_cb (GtkApplication *app)
{
  GtkWidget *window = gtk_application_window_new (app);
  GtkWidget *area = gtk_gl_area_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (area), TRUE);
  g_signal_connect (area, "render", G_CALLBACK (render_cb), app);
  gtk_window_set_child (GTK_WINDOW (window), area);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GtkApplication) app = NULL;

  if (argc == 3)
    {
      width = atoi (argv[1]);
      height = atoi (argv[2]);
    }
  app = gtk_application_new ("org.example.OdoriBenchFloor", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  return g_application_run (G_APPLICATION (app), 1, argv);
}
