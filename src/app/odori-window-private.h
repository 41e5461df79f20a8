/* odori-window-private.h: OdoriWindow's instance, shared by its source files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "odori-autosave.h"
#include "odori-export.h"
#include "odori-info-bar.h"
#include "odori-inspector.h"
#include "odori-library-view.h"
#include "odori-music-lane.h"
#include "odori-timeline-pane.h"
#include "odori-timeline.h"
#include "odori-transport-bar.h"
#include "odori-undo.h"
#include "odori-print.h"
#include "odori-video.h"
#include "odori-window.h"

G_BEGIN_DECLS

struct _OdoriWindow
{
  GtkApplicationWindow  parent_instance;

  OdoriDocument        *document;
  OdoriSession         *session;
  GSignalGroup         *session_signals;
  GSignalGroup         *document_signals;
  OdoriUndo            *undo;
  GSettings            *settings;

  /* Template children */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkMenuButton        *primary_menu_button;
  GMenu                *recent_menu;
  OdoriInfoBar         *info_bar;
  AdwToastOverlay      *toast_overlay;
  AdwFlap              *library_flap;
  GtkToggleButton      *library_button;
  GtkRevealer          *preview_revealer;
  GtkLabel             *preview_label;
  OdoriLibraryView     *library_view;
  GtkBox               *viewport_slot;
  OdoriTransportBar    *transport_bar;
  OdoriTimelinePane    *timeline_pane;
  GtkRevealer          *export_revealer;
  GtkLabel             *export_label;
  GtkProgressBar       *export_progress;
  GtkRevealer          *open_revealer;
  GtkLabel             *open_label;
  GtkProgressBar       *open_progress;

  /* Children of the small widgets above, looked up once (the tests read them) */
  GtkInfoBar           *error_bar;
  GtkLabel             *error_title;
  GtkLabel             *error_message;
  GtkExpander          *error_expander;
  GtkLabel             *error_details;
  GtkInfoBar           *recover_bar;
  GtkLabel             *recover_label;
  GtkWidget            *play_button;
  GtkMenuButton        *speed_button;
  GtkScale             *frame_scale;
  GtkAdjustment        *frame_adjustment;
  GtkInscription       *frame_label;
  OdoriTimeline        *timeline;
  OdoriInspector       *inspector;
  GMenu                *add_track_section;
  GtkToggleButton      *snap_button;
  GtkLabel             *timeline_status;

  /* The viewport (NULL in a build without the renderer: a placeholder stands there) */
  GtkWidget            *viewport;

  /* Playback */
  guint                 tick_id;

  /* Export in progress */
  GObject              *export;  /* an OdoriExport, or an OdoriGltfExport (.glb) */
  GCancellable         *export_cancellable;
  GTask                *export_task;
  guint                 export_poll_id;
  /* Export Video in progress (odori-window-video.c): shares the bar, the cancellable
   * and the poll of Export */
  OdoriVideo           *video;
  /* Print… drawing its thumbnails (odori-window-print.c): the same bar and Cancel */
  OdoriPrint           *printing;

  /* Open in progress (odori_window_open_async ()) */
  GCancellable         *open_cancellable;
  gulong                open_fraction_id;

  /* Closing */
  GtkWindow            *close_dialog;
  gboolean              close_confirmed;

  /* Recovery offered (the .ini of the autosave) */
  char                 *recover_ini;

  /* The music (odori-window-music.c): its lane, the waveform loading, and the music
   * whose waveform is shown or loading */
  OdoriMusicLane       *music_lane;
  GCancellable         *music_cancellable;
  char                 *music_shown;
};

/* Window object data of Remove Show and Rename Show (their Undo). */
#define REMOVED_SHOW_KEY "odori-removed-show"

void  _odori_window_set_action_enabled   (OdoriWindow      *self,
                                          const char       *name,
                                          gboolean          enabled);
/* A file name from the score's file or title, with EXTENSION (".dds"). */
char *_odori_window_suggested_name       (OdoriWindow      *self,
                                          const char       *extension);
void  _odori_window_export_actions_init  (OdoriWindow      *self);
/* The export bar, shared by Export, Export Video and Print…'s poses: begin shows LABEL,
 * makes export_cancellable (the bar's Cancel) and polls the progress of whichever of
 * export, video or printing is set; end (that field cleared first) hides it again. */
void  _odori_window_export_bar_begin     (OdoriWindow      *self,
                                          const char       *label);
void  _odori_window_export_bar_end       (OdoriWindow      *self);
/* "Exported NAME" for a few seconds, with Open Folder. */
void  _odori_window_show_exported_toast  (OdoriWindow      *self,
                                          const char       *path);
void  _odori_window_video_actions_init   (OdoriWindow      *self);
/* Print… (odori-window-print.c); EXPORT_PATH: a PDF written without a dialog (tests). */
void  _odori_window_print_actions_init   (OdoriWindow      *self);
void  _odori_window_print                (OdoriWindow      *self,
                                          const char       *export_path);
/* A video of the composed dance into FILE (WIDTH x HEIGHT, VIEW, FPS frames a second or 0
 * for the dance's), in the background with the export bar. */
void  _odori_window_export_video         (OdoriWindow      *self,
                                          GFile            *file,
                                          int               width,
                                          int               height,
                                          OdoriView         view,
                                          int               fps,
                                          GAsyncReadyCallback callback,
                                          gpointer          user_data);
void  _odori_window_library_actions_init (OdoriWindow      *self);
void  _odori_window_music_init           (OdoriWindow      *self);
void  _odori_window_music_update_actions (OdoriWindow      *self);
void  _odori_window_music_dispose        (OdoriWindow      *self);
void  _odori_window_class_actions_init   (OdoriWindowClass *klass);
void  _odori_window_actions_init         (OdoriWindow      *self);
void  _odori_window_update_actions       (OdoriWindow      *self);
void  _odori_window_sync_setting_actions (OdoriWindow      *self);
void  _odori_window_show_error           (OdoriWindow      *self,
                                          GtkMessageType    type,
                                          const char       *title,
                                          const char       *message,
                                          GPtrArray        *diagnostics);
void  _odori_window_hide_error           (OdoriWindow      *self);
void  _odori_window_add_recent           (OdoriWindow      *self,
                                          const char       *path);
gboolean _odori_window_close_request     (OdoriWindow      *self);
/* The application's autosave (NULL for a window outside an OdoriApplication). */
OdoriAutosave *_odori_window_get_autosave (OdoriWindow    *self);
void  _odori_window_discard_autosave     (OdoriWindow      *self);
/* The title of the error for FILE that could not be opened (a score, or a library). */
char *_odori_window_open_error_title     (GFile            *file,
                                          gboolean          library);
void  _odori_window_import_file          (OdoriWindow      *self,
                                          const char       *path);
/* Whether the window's fonts draw Japanese (the names in a library). */
gboolean _odori_window_has_japanese_font (OdoriWindow      *self);

G_END_DECLS
