/* odori-application.h: the GtkApplication (org.odori.Odori)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-autosave.h"
#include "odori-window.h"

G_BEGIN_DECLS

#define ODORI_APPLICATION_ID "org.odori.Odori"

#define ODORI_TYPE_APPLICATION (odori_application_get_type ())

G_DECLARE_FINAL_TYPE (OdoriApplication, odori_application, ODORI, APPLICATION, GtkApplication)

/* EXTRA_FLAGS: G_APPLICATION_NON_UNIQUE for tests. */
OdoriApplication *odori_application_new        (GApplicationFlags  extra_flags);
OdoriWindow      *odori_application_new_window (OdoriApplication  *self);
/* The autosave of every window's unsaved work (transfer none). */
OdoriAutosave    *odori_application_get_autosave (OdoriApplication *self);
/* Registers the window's resources (ui files, CSS); idempotent. */
void              odori_resources_ensure       (void);
/* org.odori.Odori settings: the installed schema, else the one compiled in the build
 * tree (an uninstalled build runs as is). */
GSettings        *odori_settings_new           (void);
/* WIDGET as it is on screen, drawn by its window's renderer (screenshots, tests). */
GdkTexture       *odori_render_widget          (GtkWidget         *widget);

G_END_DECLS
