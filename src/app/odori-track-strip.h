/* odori-track-strip.h: a read-only view of the score's tracks and symbols
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per body part, a block per placed symbol labelled with its code, a ruler and
 * the playhead; clicking or dragging moves the playhead. The timeline (its own work)
 * replaces this with an editor.
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-document.h"

G_BEGIN_DECLS

typedef enum
{
  ODORI_TIME_UNITS_FRAMES,
  ODORI_TIME_UNITS_SECONDS,
  ODORI_TIME_UNITS_BOTH,
} OdoriTimeUnits;

#define ODORI_TYPE_TRACK_STRIP (odori_track_strip_get_type ())

G_DECLARE_FINAL_TYPE (OdoriTrackStrip, odori_track_strip, ODORI, TRACK_STRIP, GtkWidget)

GtkWidget      *odori_track_strip_new            (void);
OdoriDocument  *odori_track_strip_get_document   (OdoriTrackStrip *self);
void            odori_track_strip_set_document   (OdoriTrackStrip *self,
                                                  OdoriDocument   *document);
void            odori_track_strip_set_time_units (OdoriTrackStrip *self,
                                                  OdoriTimeUnits   units);
/* The frame under window-relative X (for tests and the gesture). */
guint           odori_track_strip_frame_at       (OdoriTrackStrip *self,
                                                  double           x);

G_END_DECLS
