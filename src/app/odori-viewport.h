/* odori-viewport.h: the 3D view of the dance (a GtkGLArea over OdoriRenderer)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-session.h"
#include "odori-renderer.h"

G_BEGIN_DECLS

#define ODORI_TYPE_VIEWPORT (odori_viewport_get_type ())

G_DECLARE_FINAL_TYPE (OdoriViewport, odori_viewport, ODORI, VIEWPORT, GtkGLArea)

GtkWidget      *odori_viewport_new             (void);
OdoriSession   *odori_viewport_get_session     (OdoriViewport *self);
void            odori_viewport_set_session     (OdoriViewport *self,
                                                OdoriSession  *session);
void            odori_viewport_set_view        (OdoriViewport *self,
                                                OdoriView      view);
void            odori_viewport_frame_all       (OdoriViewport *self);
void            odori_viewport_set_show_skin   (OdoriViewport *self,
                                                gboolean       show);
/* Orbit by degrees, pan by pixels, zoom by a factor (what the mouse does). */
void            odori_viewport_orbit           (OdoriViewport *self,
                                                double         yaw_deg,
                                                double         pitch_deg);
void            odori_viewport_pan             (OdoriViewport *self,
                                                double         dx,
                                                double         dy);
void            odori_viewport_zoom            (OdoriViewport *self,
                                                double         factor);
/* Where a world point of the last frame drawn lands, in widget pixels (origin top
 * left); FALSE before the first frame. */
gboolean        odori_viewport_project         (OdoriViewport *self,
                                                const float    world[3],
                                                float          widget_xy[2]);
/* Frames drawn so far (tests wait on it). */
guint           odori_viewport_get_n_renders   (OdoriViewport *self);
/* Whether the frame is read back into a cairo image (on GSK's cairo renderer) rather
 * than handed to GTK as GtkGLArea's texture; the setter is for the tests, which compare
 * the two ways. */
gboolean        odori_viewport_get_read_back   (OdoriViewport *self);
void            odori_viewport_set_read_back   (OdoriViewport *self,
                                                gboolean       read_back);

G_END_DECLS
