/* odori-timeline-pane.h: the timeline with its tool bar and inspector
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"
#include "odori-inspector.h"
#include "odori-music-lane.h"
#include "odori-timeline.h"
#include "odori-undo.h"

G_BEGIN_DECLS

#define ODORI_TYPE_TIMELINE_PANE (odori_timeline_pane_get_type ())

G_DECLARE_FINAL_TYPE (OdoriTimelinePane, odori_timeline_pane, ODORI, TIMELINE_PANE, GtkWidget)

GtkWidget     *odori_timeline_pane_new (void);
OdoriDocument *odori_timeline_pane_get_document (OdoriTimelinePane *self);
void           odori_timeline_pane_set_document (OdoriTimelinePane *self,
                                                 OdoriDocument     *document);
OdoriUndo     *odori_timeline_pane_get_undo (OdoriTimelinePane *self);
/* The timeline edits through UNDO (whose document should be the pane's). */
void            odori_timeline_pane_set_undo (OdoriTimelinePane *self,
                                              OdoriUndo         *undo);
OdoriTimeline  *odori_timeline_pane_get_timeline (OdoriTimelinePane *self);
OdoriInspector *odori_timeline_pane_get_inspector (OdoriTimelinePane *self);
/* The music lane, under the timeline's ruler and above its tracks (hidden without
 * music); a child of the timeline (odori_timeline_set_lane ()). */
OdoriMusicLane *odori_timeline_pane_get_music_lane (OdoriTimelinePane *self);

G_END_DECLS
