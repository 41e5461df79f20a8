/* odori-timeline-private.h: the timeline's pointer handling, for its gestures and tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The controllers of OdoriTimeline call these with widget coordinates; the GUI tests
 * call them too, which is how they synthesize a press, a drag and a release (GTK 4 has
 * no public way to inject pointer events in-process).
 */
#pragma once

#include "odori-timeline.h"

G_BEGIN_DECLS

void  _odori_timeline_pointer_press    (OdoriTimeline   *self,
                                        double           x,
                                        double           y,
                                        GdkModifierType  state);
void  _odori_timeline_pointer_drag     (OdoriTimeline   *self,
                                        double           x,
                                        double           y,
                                        GdkModifierType  state);
void  _odori_timeline_pointer_release  (OdoriTimeline   *self,
                                        double           x,
                                        double           y);
void  _odori_timeline_pointer_cancel   (OdoriTimeline   *self);
/* Ctrl+scroll zooms about X; other scrolling is left to the scrolled window. */
gboolean _odori_timeline_scroll        (OdoriTimeline   *self,
                                        double           x,
                                        double           dy,
                                        GdkModifierType  state);
/* A drop's hover (the ghost block) at X, Y, or none with SYMBOL NULL. */
void  _odori_timeline_drop_hover       (OdoriTimeline   *self,
                                        const char      *symbol,
                                        double           x,
                                        double           y);
/* Seams as drawn: their number after the last refresh (run it now). */
guint _odori_timeline_refresh_seams    (OdoriTimeline   *self);

G_END_DECLS
