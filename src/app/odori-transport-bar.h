/* odori-transport-bar.h: play, step, speed, the frame slider and the frame indicator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-session.h"

G_BEGIN_DECLS

#define ODORI_TYPE_TRANSPORT_BAR (odori_transport_bar_get_type ())

G_DECLARE_FINAL_TYPE (OdoriTransportBar, odori_transport_bar, ODORI, TRANSPORT_BAR, GtkWidget)

GtkWidget     *odori_transport_bar_new (void);
OdoriSession  *odori_transport_bar_get_session  (OdoriTransportBar *self);
void           odori_transport_bar_set_session  (OdoriTransportBar *self,
                                                 OdoriSession      *session);

G_END_DECLS
