/* odori-inspector.h: the selected symbols' start frame and modifiers, the score's blend
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-timeline.h"

G_BEGIN_DECLS

#define ODORI_TYPE_INSPECTOR (odori_inspector_get_type ())

G_DECLARE_FINAL_TYPE (OdoriInspector, odori_inspector, ODORI, INSPECTOR, GtkBox)

GtkWidget      *odori_inspector_new           (void);
/* The inspector shows and edits what TIMELINE selects (through its undo stack). */
void            odori_inspector_set_timeline  (OdoriInspector *self,
                                               OdoriTimeline  *timeline);
GtkSpinButton  *odori_inspector_get_start_spin (OdoriInspector *self);
GtkSpinButton  *odori_inspector_get_blend_spin (OdoriInspector *self);

G_END_DECLS
