/* odori-preferences-window.h: the Preferences window (GSettings org.odori.Odori)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ODORI_TYPE_PREFERENCES_WINDOW (odori_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (OdoriPreferencesWindow, odori_preferences_window, ODORI, PREFERENCES_WINDOW, GtkWindow)

GtkWindow *odori_preferences_window_new (GtkWindow *parent);

G_END_DECLS
