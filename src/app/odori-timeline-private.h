/* odori-timeline-private.h: the timeline's instance, shared by its source files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * OdoriTimeline is split by aspect (as editor-window-*.c in GTE): odori-timeline.c has
 * the state, geometry, zoom, selection and the GObject; -edit.c the edits, clipboard
 * and tracks; -input.c the pointer, drops and keys; -draw.c the snapshot and tooltips.
 * The pointer entry points below are also what the GUI tests call to synthesize a
 * press, a drag and a release (GTK 4 has no public way to inject pointer events
 * in-process).
 */
#pragma once

#include "odori-beat-grid.h"
#include "odori-score-edit.h"
#include "odori-timeline.h"

G_BEGIN_DECLS

#define HEADER_WIDTH    156
#define RULER_HEIGHT    28
#define ROW_HEIGHT      34
#define BLOCK_INSET     4
#define SNAP_PX         8.0
#define RULER_SNAP_PX   4.0
#define DRAG_THRESHOLD  4.0
#define MIN_PPF         0.0005
#define MAX_PPF         48.0
#define TINY_BLOCK_PX   3.0
#define EDGE_PX         5.0    /* a block's edge zone: trim, or Ctrl: speed */
#define BLEND_KNOB_PX   5.0    /* the blend ramp's handle, at the block's top */
#define BLEND_KNOB_H    9.0
#define N_COLORS        8
#define BEAT_SNAP_PX    10.0   /* a block's start snaps to a beat this close */
#define DOWNBEAT_PX     6.0    /* the downbeat handle on the ruler, either side */
#define TAP_MAX         8      /* tap tempo averages the last taps' intervals */
#define TAP_PAUSE_US    (2 * G_USEC_PER_SEC) /* a longer pause starts a new tapping run */

typedef struct
{
  OdoriIndexMotion *motion;     /* NULL: the symbol does not resolve */
  guint             n;          /* the clip's length in score frames, >= 1, before the
                                 * symbol's modifiers (_odori_timeline_symbol_length) */
  guint             show_no;
  guint             class_no;
  PangoLayout      *code_layout;
  PangoLayout      *full_layout;
  int               code_w;
  int               full_w;
} SymInfo;

typedef struct
{
  guint  part;
  guint  start;      /* where it was when the drag began */
  char  *symbol;
  guint  line;
  guint  n;          /* the block's length (with its modifiers) */
  OdoriSymbolMods mods;
} DragItem;

typedef struct
{
  char  *code;       /* the track it was copied from */
  guint  offset;     /* frames after the first copied start */
  char  *symbol;
  OdoriSymbolMods mods;
} ClipItem;

typedef enum
{
  MODE_NONE,
  MODE_SCRUB,
  MODE_PRESS_BLOCK,
  MODE_MOVE,
  MODE_BAND,
  MODE_PRESS_EDGE,   /* pressed on an edge or the blend handle, not dragged yet */
  MODE_SHAPE,        /* dragging an edge (trim, Ctrl: speed) or the blend handle */
  MODE_DOWNBEAT,     /* dragging the downbeat handle on the ruler */
  MODE_BEAT,         /* dragging a beat mark of a beat list on the ruler */
} Mode;

/* Where on a block the pointer is: what a drag there does. */
typedef enum
{
  EDGE_NONE,
  EDGE_LEFT,         /* in= (Ctrl: speed, the end fixed) */
  EDGE_RIGHT,        /* out= (Ctrl: speed, the start fixed) */
  EDGE_BLEND,        /* blend= */
} Edge;

/* A live drag: applied unrecorded as it goes, recorded as one step at its end. */
#define MODE_IS_LIVE(m) ((m) == MODE_MOVE || (m) == MODE_SHAPE || (m) == MODE_DOWNBEAT || (m) == MODE_BEAT)

struct _OdoriTimeline
{
  GtkWidget             parent_instance;

  OdoriUndo            *undo;
  OdoriDocument        *document;
  GSignalGroup         *document_signals;
  OdoriSession         *session;        /* the playhead and the preview */
  GSignalGroup         *session_signals;
  GSignalGroup         *undo_signals;
  OdoriScore           *score;          /* the score shown (a ref, to notice another) */
  guint                 shown_parts;
  OdoriIndex           *index;          /* the index the cache was built for */
  GHashTable           *symbols;        /* char* → SymInfo* */
  double                cache_frame_time;

  GtkAdjustment        *hadjustment;
  GtkAdjustment        *vadjustment;
  guint                 hscroll_policy : 1;
  guint                 vscroll_policy : 1;
  double                ppf;            /* pixels per frame */
  gboolean              fit_pending;
  gboolean              auto_fit;       /* fitted, not zoomed by hand: refit on resize */
  int                   fit_width;

  OdoriTimeUnits        units;
  OdoriTimelineColorBy  color_by;
  gboolean              snap;
  int                   default_blend;  /* the preference, for scores without "# Blend:" */

  /* Selection: per track, the sorted starts of its selected symbols */
  GPtrArray            *selection;      /* GArray<guint>* */
  guint                 n_selected;
  int                   focus_part;
  guint                 focus_start;    /* 0: the track itself */
  char                 *a11y_description;

  /* Pointer */
  Mode                  mode;
  double                press_x;
  double                press_y;
  double                pointer_x;
  GdkModifierType       press_state;
  guint                 press_part;
  guint                 press_start;
  gboolean              press_was_selected;
  GArray               *drag_items;     /* DragItem */
  guint                 drag_primary;
  int                   drag_delta;
  guint                 drag_min_start;
  guint                 drag_frame0;    /* the playhead before the drag */
  GArray               *snap_frames;    /* guint, sorted */
  int                   drag_track_delta; /* tracks off their origin (a move across tracks) */
  char                 *drag_refusal;   /* why the tracks under the pointer cannot take it */
  int                   drag_refused_part; /* the track that cannot, or -1 */

  /* Shaping one block by an edge or its blend handle: the symbol as it was (its own
   * copy of the code), where it is now, and the clip's frames */
  Edge                  shape_edge;
  guint                 shape_part;
  OdoriScoreSymbol      shape_orig;
  guint                 shape_start;
  OdoriSymbolMods       shape_mods;
  guint                 shape_n;
  guint                 shape_end;      /* the block's visible end (exclusive) at the press */
  guint                 shape_prev;     /* the previous symbol's start on the track, or 0 */

  /* A run of nudges on one selection is one undo step: the step the last nudge
   * recorded (compared, never dereferenced), the selection after it, and where the
   * run's first selected start was before it began. */
  gconstpointer         nudge_edit;
  GPtrArray            *nudge_sel;
  guint                 nudge_origin;
  gboolean              nudging;
  double                band_x0, band_y0, band_x1, band_y1;
  GPtrArray            *band_base;      /* selection before an additive band */

  /* A drop hovering */
  char                 *drop_symbol;
  int                   drop_part;
  guint                 drop_frame;
  char                 *drop_refusal;
  GtkWidget            *context_menu;   /* a GtkPopoverMenu, or NULL */
  GtkWidget            *lane;           /* the lane under the ruler (a child), or NULL */
  int                   lane_height;    /* its height while visible, else 0 */
  gboolean              tooltip_quiet;  /* after a drop or a move, until the pointer moves on */
  double                quiet_x, quiet_y;

  /* The composer's seam report as last asked for (a ref to its array, or NULL): asked
   * for once edits settle, as it costs a pass over the dance */
  GArray               *seams;          /* OdoriSeam */
  guint                 seams_idle;

  /* The beat grid of the score's music (odori-timeline-beats.c): built when first asked
   * for after the music lines, the frame time or the score changed */
  OdoriBeatGrid        *grid;
  gboolean              grid_valid;
  OdoriScoreMusic       grid_music;     /* the lines it was built from */
  double                grid_frame_time;
  char                 *grid_beats_path; /* the .beats file read, and its times (or NULL) */
  GArray               *grid_beats;

  /* Tap tempo: the times (monotonic, µs) of the run's last taps, the music before the
   * run, and the step the run recorded last (compared, never dereferenced) */
  gint64                taps[TAP_MAX + 1];
  guint                 n_taps;
  OdoriScoreMusic       tap_before;
  gconstpointer         tap_edit;
  gboolean              tapping;

  /* Dragging the downbeat: the music lines at the press, and the handle's offset from
   * the pointer */
  OdoriScoreMusic       downbeat_before;
  double                downbeat_grab;

  /* Dragging a beat mark of a beat list: its beat, the list at the press (grid_beats
   * changes as it goes), and the mark's offset from the pointer */
  gint64                beat_drag;
  GArray               *beat_before;
  double                beat_grab;

  /* Detect Tempo running: its cancellable and progress (0 to 1) */
  GCancellable         *detect_cancellable;
  double                detect_progress;
};

/* Pointer entry points (the controllers call these with widget coordinates) */
void              _odori_timeline_pointer_press         (OdoriTimeline   *self,
                                                         double           x,
                                                         double           y,
                                                         GdkModifierType  state);
void              _odori_timeline_pointer_drag          (OdoriTimeline   *self,
                                                         double           x,
                                                         double           y,
                                                         GdkModifierType  state);
void              _odori_timeline_pointer_release       (OdoriTimeline   *self,
                                                         double           x,
                                                         double           y);
void              _odori_timeline_pointer_cancel        (OdoriTimeline   *self);
/* A right click: selects the block under X, Y (unless it is selected) and pops up the
 * context menu; FALSE when there is no block there. */
gboolean          _odori_timeline_context_click         (OdoriTimeline   *self,
                                                         double           x,
                                                         double           y);
/* Ctrl+scroll zooms about X; other scrolling is left to the scrolled window. */
gboolean          _odori_timeline_scroll                (OdoriTimeline   *self,
                                                         double           x,
                                                         double           dy,
                                                         GdkModifierType  state);
/* A drop's hover (the ghost block) at X, Y, or none with SYMBOL NULL. */
void              _odori_timeline_drop_hover            (OdoriTimeline   *self,
                                                         const char      *symbol,
                                                         double           x,
                                                         double           y);
/* What a press at X, Y would grab: an edge, the blend handle or nothing (and the
 * symbol, when not NULL). */
Edge              _odori_timeline_edge_at               (OdoriTimeline     *self,
                                                         double             x,
                                                         double             y,
                                                         OdoriScoreSymbol **symbol);
/* Seams as drawn: their number after the last refresh (run it now). */
guint             _odori_timeline_refresh_seams         (OdoriTimeline   *self);
guint             _odori_timeline_n_seams               (OdoriTimeline   *self);

/* Internals shared by the source files */
/* odori-timeline.c */
OdoriScore        *_odori_timeline_get_score            (OdoriTimeline *self);
guint             _odori_timeline_n_parts               (OdoriTimeline *self);
OdoriScorePart    *_odori_timeline_get_part             (OdoriTimeline *self,
                                                         guint         track);
OdoriScoreSymbol  *_odori_timeline_symbol_at_index      (OdoriScorePart *part,
                                                         guint          i);
OdoriScoreSymbol  *_odori_timeline_find_symbol          (OdoriTimeline *self,
                                                         guint         track,
                                                         guint         start);
double            _odori_timeline_frame_time            (OdoriTimeline *self);
guint             _odori_timeline_fps                   (OdoriTimeline *self);
int               _odori_timeline_blend_frames          (OdoriTimeline *self);
SymInfo           *_odori_timeline_sym_info             (OdoriTimeline *self,
                                                         const char    *symbol);
guint             _odori_timeline_symbol_end            (OdoriTimeline    *self,
                                                         OdoriScoreSymbol *s);
/* The block's length in frames: the clip's, shaped by the symbol's modifiers. */
guint             _odori_timeline_symbol_length         (OdoriTimeline    *self,
                                                         OdoriScoreSymbol *s);
guint             _odori_timeline_dance_end             (OdoriTimeline *self);
double            _odori_timeline_hvalue                (OdoriTimeline *self);
double            _odori_timeline_vvalue                (OdoriTimeline *self);
double            _odori_timeline_frame_at_x_exact      (OdoriTimeline *self,
                                                         double        x);
double            _odori_timeline_row_top               (OdoriTimeline *self,
                                                         guint         track);
/* The first track's top: RULER_HEIGHT, plus the lane's height while it shows. */
#define TRACKS_TOP(self) ((double) (RULER_HEIGHT + (self)->lane_height))
OdoriScoreSymbol  *_odori_timeline_symbol_under         (OdoriTimeline *self,
                                                         guint         track,
                                                         double        x);
guint             _odori_timeline_uint_lower_bound      (GArray *array,
                                                         guint  value);
gboolean          _odori_timeline_sel_contains          (OdoriTimeline *self,
                                                         guint         track,
                                                         guint         start);
void              _odori_timeline_sel_add               (OdoriTimeline *self,
                                                         guint         track,
                                                         guint         start);
void              _odori_timeline_sel_remove            (OdoriTimeline *self,
                                                         guint         track,
                                                         guint         start);
void              _odori_timeline_sel_clear             (OdoriTimeline *self);
GPtrArray         *_odori_timeline_sel_copy             (OdoriTimeline *self);
void              _odori_timeline_sel_validate          (OdoriTimeline *self);
void              _odori_timeline_selection_changed     (OdoriTimeline *self);
void              _odori_timeline_update_accessible     (OdoriTimeline *self);
void              _odori_timeline_emit_refused          (OdoriTimeline *self,
                                                         const char    *message);

/* odori-timeline-edit.c */
GError            *_odori_timeline_check_placement      (OdoriTimeline *self,
                                                         guint         track,
                                                         guint         start,
                                                         const char    *symbol);
GArray            *_odori_timeline_collect_snap_frames  (OdoriTimeline *self,
                                                         gboolean      skip_selected);
guint             _odori_timeline_snap_start            (OdoriTimeline *self,
                                                         GArray        *frames,
                                                         guint         start,
                                                         guint         n);
void              _odori_timeline_on_edit_done          (OdoriTimeline  *self,
                                                         OdoriScoreEdit *edit,
                                                         gboolean       forward);
/* A nudge of the selection by DELTA frames; a run of them is one undo step. */
gboolean          _odori_timeline_nudge                 (OdoriTimeline  *self,
                                                         int            delta);
/* A Shift drop: SYMBOL at X on every track that can take it, one undo step. */
gboolean          _odori_timeline_drop_everywhere       (OdoriTimeline  *self,
                                                         const char     *symbol,
                                                         double          x,
                                                         GError        **error);

/* odori-timeline-beats.c */
/* The score's beat grid (transfer none), or NULL without one. */
OdoriBeatGrid     *_odori_timeline_beat_grid            (OdoriTimeline *self);
void              _odori_timeline_beats_finalize        (OdoriTimeline *self);
/* The beat frame nearest to START within BEAT_SNAP_PX, or FALSE. */
gboolean          _odori_timeline_snap_to_beat          (OdoriTimeline *self,
                                                         double         start,
                                                         guint         *frame);
/* The downbeat handle's x on the ruler; FALSE when there is none (no tempo grid). */
gboolean          _odori_timeline_downbeat_x            (OdoriTimeline *self,
                                                         double        *x);
void              _odori_timeline_downbeat_begin        (OdoriTimeline *self,
                                                         double         x);
void              _odori_timeline_downbeat_update       (OdoriTimeline *self,
                                                         double         x);
void              _odori_timeline_downbeat_end          (OdoriTimeline *self,
                                                         gboolean       cancel);
/* The beat of a beat list whose mark is within DOWNBEAT_PX of X on the ruler, or FALSE
 * (no beat list, or no mark there). */
gboolean          _odori_timeline_beat_mark_at          (OdoriTimeline *self,
                                                         double         x,
                                                         gint64        *beat);
void              _odori_timeline_beat_begin            (OdoriTimeline *self,
                                                         double         x,
                                                         gint64         beat);
void              _odori_timeline_beat_update           (OdoriTimeline *self,
                                                         double         x);
void              _odori_timeline_beat_end              (OdoriTimeline *self,
                                                         gboolean       cancel);
/* A tap at TIME (monotonic µs). */
void              _odori_timeline_tap                   (OdoriTimeline *self,
                                                         gint64         time);
/* Any step: a recorded tap run ends when another step is done. */
void              _odori_timeline_beats_edit_done       (OdoriTimeline  *self,
                                                         OdoriScoreEdit *edit,
                                                         gboolean        forward);

/* odori-timeline-input.c */
void              _odori_timeline_class_init_input      (GtkWidgetClass *widget_class);
void              _odori_timeline_init_input            (OdoriTimeline *self);

/* odori-timeline-draw.c */
guint             _odori_timeline_ruler_tick            (OdoriTimeline *self);
void              _odori_timeline_snapshot              (GtkWidget   *widget,
                                                         GtkSnapshot *snapshot);
gboolean          _odori_timeline_query_tooltip         (GtkWidget  *widget,
                                                         int        x,
                                                         int        y,
                                                         gboolean   keyboard,
                                                         GtkTooltip *tooltip);

G_END_DECLS
