/* odori-timeline.h: the timeline editor, one track per body part
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A custom widget drawn in snapshot (STYLE.md §5): a header column with each part's
 * code and name, a ruler in frames and seconds, per track the placed symbols as blocks
 * as long as their motion, holds and blends at their ends, seam marks coloured by the
 * composer's seam report, and the playhead. Symbols are selected, moved (snapping to
 * frames, other blocks' ends and the playhead), deleted, copied, pasted and duplicated
 * by mouse and keyboard, and dropped from the library browser. Every edit is one step
 * of the window's OdoriUndo; the composed dance follows each edit at once.
 *
 * The widget is GtkScrollable: put it in a GtkScrolledWindow. The header column and
 * the ruler stay in place while the tracks scroll.
 */
#pragma once

#include <gtk/gtk.h>

#include "odori-beat-grid.h"
#include "odori-document.h"
#include "odori-session.h"
#include "odori-undo.h"

G_BEGIN_DECLS

/* What the ruler (and the frame indicator) count in: the "time-units" setting. */
typedef enum
{
  ODORI_TIME_UNITS_FRAMES,
  ODORI_TIME_UNITS_SECONDS,
  ODORI_TIME_UNITS_BOTH,
} OdoriTimeUnits;

typedef enum
{
  ODORI_TIMELINE_COLOR_BY_SHOW,
  ODORI_TIMELINE_COLOR_BY_CLASS,
} OdoriTimelineColorBy;

typedef enum
{
  ODORI_TIMELINE_SELECT_REPLACE,
  ODORI_TIMELINE_SELECT_ADD,
  ODORI_TIMELINE_SELECT_TOGGLE,
} OdoriTimelineSelectMode;

#define ODORI_TYPE_TIMELINE (odori_timeline_get_type ())

G_DECLARE_FINAL_TYPE (OdoriTimeline, odori_timeline, ODORI, TIMELINE, GtkWidget)

GtkWidget      *odori_timeline_new                  (void);
/* The document edited is the undo stack's. */
void            odori_timeline_set_undo             (OdoriTimeline   *self,
                                                     OdoriUndo       *undo);
OdoriUndo      *odori_timeline_get_undo             (OdoriTimeline   *self);
OdoriDocument  *odori_timeline_get_document         (OdoriTimeline   *self);
/* The playhead it shows and moves (the window's session). */
void            odori_timeline_set_session          (OdoriTimeline   *self,
                                                     OdoriSession    *session);
void            odori_timeline_set_time_units       (OdoriTimeline   *self,
                                                     OdoriTimeUnits   units);

/* View. Coordinates are the widget's. */
double          odori_timeline_get_pixels_per_frame (OdoriTimeline   *self);
/* Zooms keeping the frame under ANCHOR_X where it is. */
void            odori_timeline_set_pixels_per_frame (OdoriTimeline   *self,
                                                     double           pixels_per_frame,
                                                     double           anchor_x);
void            odori_timeline_zoom                 (OdoriTimeline   *self,
                                                     double           factor);
void            odori_timeline_zoom_fit             (OdoriTimeline   *self);
double          odori_timeline_x_for_frame          (OdoriTimeline   *self,
                                                     double           frame);
guint           odori_timeline_frame_at_x           (OdoriTimeline   *self,
                                                     double           x);
/* The track under Y, or -1 (ruler, below the last track). */
int             odori_timeline_track_at_y           (OdoriTimeline   *self,
                                                     double           y);
/* The middle of track TRACK's row. */
double          odori_timeline_y_for_track          (OdoriTimeline   *self,
                                                     guint            track);
/* Scrolls so that FRAME of track TRACK is shown. */
void            odori_timeline_scroll_to            (OdoriTimeline   *self,
                                                     guint            track,
                                                     guint            frame);
/* Blend frames drawn for scores without "# Blend:" (the preference). */
void            odori_timeline_set_default_blend    (OdoriTimeline   *self,
                                                     int              blend);
int             odori_timeline_get_default_blend    (OdoriTimeline   *self);
/* The frames n of library motion SYMBOL at the dance's frame time, before its modifiers
 * (one second's worth when SYMBOL is not in the library), and that frame time. */
guint           odori_timeline_get_clip_frames      (OdoriTimeline   *self,
                                                     const char      *symbol);
double          odori_timeline_get_frame_time       (OdoriTimeline   *self);
gboolean        odori_timeline_get_snap             (OdoriTimeline   *self);
void            odori_timeline_set_snap             (OdoriTimeline   *self,
                                                     gboolean         snap);
void            odori_timeline_set_color_by         (OdoriTimeline   *self,
                                                     OdoriTimelineColorBy color_by);

/* TRUE while a drag moves or shapes blocks, editing the score live: the timeline emits
 * "selection-changed" after each of its steps, once the selection has followed. */
gboolean        odori_timeline_is_dragging_blocks   (OdoriTimeline   *self);

/* Selection: symbols are named by their track and start frame. */
guint           odori_timeline_get_n_selected       (OdoriTimeline   *self);
gboolean        odori_timeline_is_selected          (OdoriTimeline   *self,
                                                     guint            track,
                                                     guint            start);
/* FALSE when there is no symbol at START of TRACK. */
gboolean        odori_timeline_select               (OdoriTimeline   *self,
                                                     guint            track,
                                                     guint            start,
                                                     OdoriTimelineSelectMode mode);
void            odori_timeline_select_all           (OdoriTimeline   *self);
void            odori_timeline_unselect_all         (OdoriTimeline   *self);
/* The focused track (-1 with no tracks) and symbol start (0 for none). */
int             odori_timeline_get_focus            (OdoriTimeline   *self,
                                                     guint           *start);
/* The single selected symbol; FALSE when none or several are selected. */
gboolean        odori_timeline_get_selected_symbol  (OdoriTimeline   *self,
                                                     guint           *track,
                                                     guint           *start);

/* Edits, one undo step each. On refusal the score is unchanged, ERROR says why and
 * the "refused" signal carries the same message. */
gboolean        odori_timeline_move_selection       (OdoriTimeline   *self,
                                                     int              delta,
                                                     GError         **error);
gboolean        odori_timeline_set_symbol_start     (OdoriTimeline   *self,
                                                     guint            track,
                                                     guint            start,
                                                     guint            new_start,
                                                     GError         **error);
gboolean        odori_timeline_insert               (OdoriTimeline   *self,
                                                     guint            track,
                                                     guint            start,
                                                     const char      *symbol,
                                                     GError         **error);
/* What a drop of SYMBOL at X, Y does (with snapping): the library browser's drop. */
gboolean        odori_timeline_drop                 (OdoriTimeline   *self,
                                                     const char      *symbol,
                                                     double           x,
                                                     double           y,
                                                     GError         **error);
gboolean        odori_timeline_delete_selection     (OdoriTimeline   *self);
gboolean        odori_timeline_copy_selection       (OdoriTimeline   *self);
gboolean        odori_timeline_cut_selection        (OdoriTimeline   *self);
/* Pastes what was copied at the playhead (each symbol on its own track, or a single
 * track's symbols on the focused track). */
gboolean        odori_timeline_paste                (OdoriTimeline   *self,
                                                     GError         **error);
gboolean        odori_timeline_duplicate_selection  (OdoriTimeline   *self,
                                                     GError         **error);
gboolean        odori_timeline_can_paste            (OdoriTimeline   *self);
/* Modifiers of the selected symbols, one undo step each: mirrored (all of them, or
 * none when all were), and the repeat count changed by DELTA (kept within 1 to 1000). */
gboolean        odori_timeline_mirror_selection     (OdoriTimeline   *self,
                                                     GError         **error);
gboolean        odori_timeline_change_repeat        (OdoriTimeline   *self,
                                                     int              delta,
                                                     GError         **error);
/* Tracks: CODE is a part of the library; it goes where the library's order puts it. */
gboolean        odori_timeline_add_track            (OdoriTimeline   *self,
                                                     const char      *code,
                                                     GError         **error);
gboolean        odori_timeline_remove_track         (OdoriTimeline   *self,
                                                     guint            track,
                                                     GError         **error);

/* The seam where the symbol at START of TRACK comes in, as last reported by the
 * composer: the jump, the clips' own largest step (degrees) and the outgoing symbol. */
gboolean        odori_timeline_get_seam             (OdoriTimeline   *self,
                                                     guint            track,
                                                     guint            start,
                                                     double          *jump,
                                                     double          *clip,
                                                     const char     **from);

/* The menu a right click on a block pops up (the block selected first). */
void            odori_timeline_set_context_menu     (OdoriTimeline   *self,
                                                     GMenuModel      *model);

/* A lane under the ruler, as wide as the timeline (the music lane): the timeline hosts
 * it between the ruler and the tracks, which start below it while it is visible. It
 * scrolls sideways with the tracks (it draws from odori_timeline_x_for_frame) and stays
 * put, like the ruler, when the tracks scroll up and down. */
void            odori_timeline_set_lane             (OdoriTimeline   *self,
                                                     GtkWidget       *lane);
GtkWidget      *odori_timeline_get_lane             (OdoriTimeline   *self);
/* Where the first track starts: under the ruler, and under the lane when it shows. */
double          odori_timeline_get_tracks_top       (OdoriTimeline   *self);

/* Music (DESIGN.md "Music"): the beat grid of the score's music lines at the dance's
 * frame time (transfer none; NULL without a tempo or a beat list), and the changes of
 * those lines, one undo step each. A tap sets "# Tempo:" from the average interval of
 * the run's last taps (TAP_MAX), the whole run one step (a pause of more than 2 s
 * starts another). Detect Tempo runs the beat tracker on the music file in the
 * background (its progress drawn in the ruler) and sets "# Tempo:" and "# Downbeat:";
 * beats without a steady pulse also go to a .beats file beside the score and
 * "# Beats:". */
OdoriBeatGrid  *odori_timeline_get_beat_grid        (OdoriTimeline   *self);
/* EVENT_TIME: the key event's time (ms), or GDK_CURRENT_TIME for now. */
gboolean        odori_timeline_tap_tempo            (OdoriTimeline   *self,
                                                     guint32          event_time);
gboolean        odori_timeline_set_meter            (OdoriTimeline   *self,
                                                     guint            meter,
                                                     GError         **error);
guint           odori_timeline_get_meter            (OdoriTimeline   *self);
gboolean        odori_timeline_detect_tempo         (OdoriTimeline   *self,
                                                     GError         **error);
/* Whether a detection runs, and how far it is (0 to 1). */
gboolean        odori_timeline_get_detecting        (OdoriTimeline   *self,
                                                     double          *progress);
gboolean        odori_timeline_cancel_detect        (OdoriTimeline   *self);

/* What assistive technology is told about the focus (also the accessible
 * description). */
char           *odori_timeline_dup_focus_description (OdoriTimeline  *self);

G_END_DECLS
