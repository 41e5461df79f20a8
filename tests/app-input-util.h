/* app-input-util.h: real keyboard and mouse events for the GUI tests (xdotool, XTEST)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An event sent by xdotool goes through the X server and GTK's whole event handling, as
 * a user's would: a focused widget's key bindings, gesture claims, drag thresholds,
 * popovers. Calling an action or a callback directly cannot see GTK take the event
 * first. Include after app-test-util.h. Coordinates are in the WIDGET's own space
 * (gtk_widget_compute_point () turns them into the window's). There is no window
 * manager under xvfb-run: windows are placed at 0,0 and may overlap other tests'
 * windows, so every event names its window.
 */
#pragma once

#include <gdk/x11/gdkx.h>

#include "app-test-util.h"

/* Runs xdotool with ARGV (NULL-terminated, without "xdotool") and asserts it worked. */
G_GNUC_UNUSED static void
xdotool (const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (args, (char *) "xdotool");
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* The X window id of WIDGET's toplevel, as xdotool wants it. */
G_GNUC_UNUSED static char *
input_window_id (GtkWidget *widget)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (widget));

  return g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface));
}

/* Point (X, Y) of WIDGET in its toplevel surface's coordinates (whole pixels). */
G_GNUC_UNUSED static void
input_window_point (GtkWidget *widget,
                    double     x,
                    double     y,
                    int       *wx,
                    int       *wy)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t in = GRAPHENE_POINT_INIT ((float) x, (float) y), out;
  double sx = 0, sy = 0;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out));
  /* the surface includes the client-side decoration's shadow */
  gtk_native_get_surface_transform (native, &sx, &sy);
  *wx = (int) (out.x + sx + 0.5);
  *wy = (int) (out.y + sy + 0.5);
}

/* Sends KEY (an X keysym name or a combination: "space", "Right", "ctrl+n",
 * "shift+Delete") to WIDGET's window, focused first, and lets GTK handle it. */
G_GNUC_UNUSED static void
input_key (GtkWidget  *widget,
           const char *key)
{
  g_autofree char *wid = input_window_id (widget);

  xdotool ((const char *[]) { "windowfocus", "--sync", wid, "key", "--clearmodifiers", key, NULL });
  pump (150);
}

/* Types TEXT as key presses into WIDGET's window (focused first). */
G_GNUC_UNUSED static void
input_type (GtkWidget  *widget,
            const char *text)
{
  g_autofree char *wid = input_window_id (widget);

  xdotool ((const char *[]) { "windowfocus", "--sync", wid, "type", "--delay", "20", text, NULL });
  pump (150);
}

/* Moves the pointer to (X, Y) of WIDGET. */
G_GNUC_UNUSED static void
input_move (GtkWidget *widget,
            double     x,
            double     y)
{
  g_autofree char *wid = input_window_id (widget);
  g_autofree char *sx = NULL, *sy = NULL;
  int wx, wy;

  input_window_point (widget, x, y, &wx, &wy);
  sx = g_strdup_printf ("%d", wx);
  sy = g_strdup_printf ("%d", wy);
  xdotool ((const char *[]) { "mousemove", "--window", wid, "--sync", sx, sy, NULL });
  pump (60);
}

/* Clicks BUTTON (1 left, 2 middle, 3 right) at (X, Y) of WIDGET; COUNT clicks (2: a
 * double click). */
G_GNUC_UNUSED static void
input_click (GtkWidget *widget,
             double     x,
             double     y,
             int        button,
             int        count)
{
  g_autofree char *b = g_strdup_printf ("%d", button);
  g_autofree char *n = g_strdup_printf ("%d", count);

  input_move (widget, x, y);
  xdotool ((const char *[]) { "click", "--repeat", n, "--delay", "80", b, NULL });
  pump (200);
}

/* Drags with the left button from (X0, Y0) to (X1, Y1) of WIDGET in STEPS moves, holding
 * MODIFIER ("shift", "ctrl", or NULL) from before the press to after the release. With
 * ESCAPE, Escape is pressed before the release (a cancelled drag). */
G_GNUC_UNUSED static void
input_drag_full (GtkWidget  *widget,
                 double      x0,
                 double      y0,
                 double      x1,
                 double      y1,
                 guint       steps,
                 const char *modifier,
                 gboolean    escape)
{
  input_move (widget, x0, y0);
  if (modifier != NULL)
    xdotool ((const char *[]) { "keydown", modifier, NULL });
  xdotool ((const char *[]) { "mousedown", "1", NULL });
  pump (60);
  for (guint i = 1; i <= MAX (steps, 1u); i++)
    {
      double t = (double) i / MAX (steps, 1u);

      input_move (widget, x0 + t * (x1 - x0), y0 + t * (y1 - y0));
    }
  if (escape)
    {
      g_autofree char *wid = input_window_id (widget);

      /* Not "key --window": that is an XSendEvent, which GTK does not take as a key
       * press. Focus the window, then a real (XTEST) key. */
      xdotool ((const char *[]) { "windowfocus", "--sync", wid, "key", "Escape", NULL });
      pump (100);
    }
  xdotool ((const char *[]) { "mouseup", "1", NULL });
  if (modifier != NULL)
    xdotool ((const char *[]) { "keyup", modifier, NULL });
  pump (250);
}

G_GNUC_UNUSED static void
input_drag (GtkWidget *widget,
            double     x0,
            double     y0,
            double     x1,
            double     y1)
{
  input_drag_full (widget, x0, y0, x1, y1, 8, NULL, FALSE);
}

/* The first widget under ROOT of type TYPE_NAME whose PROPERTY (a string) is VALUE. */
G_GNUC_UNUSED static GtkWidget *
find_widget_by_property (GtkWidget  *root,
                         const char *type_name,
                         const char *property,
                         const char *value)
{
  if (g_strcmp0 (G_OBJECT_TYPE_NAME (root), type_name) == 0)
    {
      g_autofree char *text = NULL;

      g_object_get (root, property, &text, NULL);
      if (g_strcmp0 (text, value) == 0)
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget_by_property (child, type_name, property, value);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A click in the middle of WIDGET. */
G_GNUC_UNUSED static void
click_center (GtkWidget *widget)
{
  input_click (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0, 1, 1);
}
