/* odori-window.c: Odori's main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The library on the left, the viewport and its transport above the timeline (with its
 * inspector) on the right, all observing the window's OdoriDocument; every edit of the
 * score goes through the window's one OdoriUndo. Actions, file dialogs, export and
 * closing are in odori-window-actions.c.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-debug.h"
#include "odori-window-private.h"
#ifdef ODORI_HAVE_RENDER
#include "odori-viewport.h"
#endif

G_DEFINE_FINAL_TYPE (OdoriWindow, odori_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Title and subtitle */

static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  g_autofree char *dir = g_path_get_dirname (path);

  if (home != NULL && g_str_has_prefix (dir, home) &&
      (dir[strlen (home)] == '\0' || dir[strlen (home)] == G_DIR_SEPARATOR))
    return g_strconcat ("~", dir + strlen (home), NULL);
  return g_steal_pointer (&dir);
}

static void
update_title (OdoriWindow *self)
{
  g_autofree char *title = odori_document_dup_title (self->document);
  g_autofree char *shown = NULL;
  g_autofree char *window_title = NULL;
  const char *path = odori_document_get_path (self->document);
  gboolean dirty = odori_document_get_dirty (self->document);

  shown = dirty ? g_strconcat ("• ", title, NULL) : g_strdup (title);
  gtk_label_set_text (self->title_label, shown);
  if (path != NULL)
    {
      g_autofree char *where = display_path (path);
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *subtitle = g_strdup_printf ("%s — %s", base, where);

      gtk_label_set_text (self->subtitle_label, subtitle);
    }
  else if (odori_document_get_is_sample (self->document))
    gtk_label_set_text (self->subtitle_label, _("Sample dance (not saved)"));
  else
    gtk_label_set_text (self->subtitle_label, _("Not saved yet"));
  /* Translators: window title, "score title — Odori" */
  window_title = g_strdup_printf (_("%s — Odori"), shown);
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

/* A click on the title opens Score Properties (title, author, date). */
static void
on_title_released_cb (GtkGestureClick *gesture,
                      int              n_press,
                      double           x,
                      double           y,
                      OdoriWindow     *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.score-properties", NULL);
}

static void
make_title_clickable (OdoriWindow *self)
{
  GtkWidget *title = gtk_widget_get_parent (GTK_WIDGET (self->title_label));
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "released", G_CALLBACK (on_title_released_cb), self);
  gtk_widget_add_controller (title, GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_tooltip_text (title, _("Score properties: title, author and date"));
}

/* ODORI_DEBUG=frames (build-aux/bench's window part): where a script finds what to
 * drag, in the window surface's pixels, printed after a paint whenever it moved. */
static void
append_point (GString    *out,
              const char *name,
              GtkWidget  *widget,
              double      x,
              double      y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t in = GRAPHENE_POINT_INIT ((float) x, (float) y), p;
  double sx = 0, sy = 0;

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &p))
    return;
  gtk_native_get_surface_transform (native, &sx, &sy);
  g_string_append_printf (out, "odori-geometry %s %d %d\n", name, (int) (p.x + sx + 0.5), (int) (p.y + sy + 0.5));
}

static void
print_geometry_cb (GdkFrameClock *clock,
                   OdoriWindow   *self)
{
  OdoriScore *score = odori_document_get_score (self->document);
  GtkWidget *scale = GTK_WIDGET (self->frame_scale);
  g_autoptr(GString) out = g_string_new (NULL);
  const char *last = g_object_get_data (G_OBJECT (self), "odori-geometry");

  /* once the score is there (a file opens in the background) */
  if (score == NULL || score->parts->len == 0 || odori_document_get_loading (self->document))
    return;
  if (((OdoriScorePart *) g_ptr_array_index (score->parts, 0))->symbols->len > 1)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, 0);
      OdoriScoreSymbol *a = &g_array_index (part->symbols, OdoriScoreSymbol, 0);
      OdoriScoreSymbol *b = &g_array_index (part->symbols, OdoriScoreSymbol, 1);
      double xa = odori_timeline_x_for_frame (self->timeline, a->start);
      double xb = odori_timeline_x_for_frame (self->timeline, b->start);
      int height = gtk_widget_get_height (GTK_WIDGET (self->timeline));
      double y = -1, y_end = -1;

      /* the first track's rows, wherever the ruler and the lanes above them end */
      for (int py = 0; py < height; py++)
        if (odori_timeline_track_at_y (self->timeline, py) == 0)
          {
            if (y < 0)
              y = py;
            y_end = py;
          }
      y = (y + y_end) / 2;

      /* the middle of the root track's first block, and its right edge */
      append_point (out, "block", GTK_WIDGET (self->timeline), (xa + xb) / 2, y);
      append_point (out, "block-end", GTK_WIDGET (self->timeline), xb - 2, y);
    }
  append_point (out, "slider-start", scale, 10, gtk_widget_get_height (scale) / 2.0);
  append_point (out, "slider-end", scale, gtk_widget_get_width (scale) - 10, gtk_widget_get_height (scale) / 2.0);
  if (g_strcmp0 (last, out->str) == 0)
    return;
  fputs (out->str, stdout);
  fflush (stdout);
  g_object_set_data_full (G_OBJECT (self), "odori-geometry", g_strdup (out->str), g_free);
}

static void
on_debug_realize_cb (OdoriWindow *self)
{
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (self)), "after-paint", G_CALLBACK (print_geometry_cb),
                    self);
}

/* Playback: a tick callback at the display's frame rate while playing. */

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  OdoriWindow *self = ODORI_WINDOW (widget);

  odori_session_tick (self->session, gdk_frame_clock_get_frame_time (clock));
  if (odori_session_get_playing (self->session))
    return G_SOURCE_CONTINUE;
  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
on_playing_changed_cb (OdoriWindow *self)
{
  gboolean playing = odori_session_get_playing (self->session);

  /* The transport bar shows it; the window drives the frames. */
  if (playing && self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);
  else if (!playing && self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
}

static void
on_speed_changed_cb (OdoriWindow *self)
{
  _odori_window_update_actions (self);
}

/* Preview */

static void
on_previewing_changed_cb (OdoriWindow *self)
{
  OdoriIndexMotion *motion = odori_session_get_preview (self->session);

  gtk_revealer_set_reveal_child (self->preview_revealer, motion != NULL);
  if (motion != NULL)
    {
      g_autofree char *text =
        /* Translators: "Previewing 拍手 Clap (TE.C1), 81 frames" */
        g_strdup_printf (_("Previewing %s (%s.%s), %u frames"),
                         motion->name ? motion->name : motion->code,
                         motion->show->code, motion->code,
                         motion->last - motion->first + 1);

      gtk_label_set_text (self->preview_label, text);
    }
  _odori_window_update_actions (self);
}

static void
on_preview_motion_cb (OdoriWindow      *self,
                      OdoriLibraryItem *item)
{
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *motion = odori_library_item_get_motion (item);

  if (!odori_session_preview (self->session, motion, &error))
    {
      g_autofree char *title = g_strdup_printf (_("Cannot preview “%s”"), motion->name ? motion->name : motion->code);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
      return;
    }
  odori_session_set_playing (self->session, TRUE);
}

/* Errors in the window */

void
_odori_window_show_error (OdoriWindow    *self,
                          GtkMessageType  type,
                          const char     *title,
                          const char     *message,
                          GPtrArray      *diagnostics)
{
  odori_info_bar_show_message (self->info_bar, type, title, message, diagnostics);
}

void
_odori_window_hide_error (OdoriWindow *self)
{
  odori_info_bar_hide_message (self->info_bar);
}

/* Shows what the last open left to say: the composition's error, or warnings. */
static void
report_document_state (OdoriWindow *self)
{
  odori_info_bar_report_document (self->info_bar);
}

/* Files */

gboolean
odori_window_load_sample (OdoriWindow *self)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);

  if (!odori_document_load_sample (self->document, &error))
    {
      _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot open the sample dance"), error->message, NULL);
      return FALSE;
    }
  report_document_state (self);
  /* A first start shows dancing at once. */
  odori_session_set_playing (self->session, TRUE);
  return TRUE;
}

gboolean
odori_window_open_score (OdoriWindow *self,
                         GFile       *score,
                         GFile       *library)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *library_path = NULL;

  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (score), FALSE);

  path = g_file_get_path (score);
  library_path = library ? g_file_get_path (library) : NULL;
  if (path == NULL || !odori_document_open_score (self->document, path, library_path, &error))
    {
      g_autofree char *title = _odori_window_open_error_title (score, FALSE);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title,
                                error ? error->message : _("Only local files can be opened."), NULL);
      return FALSE;
    }
  _odori_window_add_recent (self, odori_document_get_path (self->document));
  report_document_state (self);
  return TRUE;
}

gboolean
odori_window_open_library (OdoriWindow *self,
                           GFile       *library)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (library), FALSE);

  path = g_file_get_path (library);
  if (path == NULL || !odori_document_open_index (self->document, path, &error))
    {
      g_autofree char *title = _odori_window_open_error_title (library, TRUE);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title,
                                error ? error->message : _("Only local files can be opened."), NULL);
      return FALSE;
    }
  report_document_state (self);
  return TRUE;
}

/* Open in the background */

typedef struct
{
  GFile    *score;
  GFile    *library;
} OpenJob;

static void
open_job_free (OpenJob *job)
{
  g_clear_object (&job->score);
  g_clear_object (&job->library);
  g_free (job);
}

char *
_odori_window_open_error_title (GFile    *file,
                                gboolean  library)
{
  g_autofree char *name = g_file_get_basename (file);

  return library ? g_strdup_printf (_("Cannot open the library “%s”"), name)
                 : g_strdup_printf (_("Cannot open “%s”"), name);
}

static void
on_open_fraction_cb (OdoriDocument *document,
                     GParamSpec    *pspec,
                     OdoriWindow   *self)
{
  gtk_progress_bar_set_fraction (self->open_progress, odori_document_get_fraction (document));
}

static void
open_done (OdoriWindow *self)
{
  if (self->document == NULL)
    return; /* the window was closed meanwhile */
  g_clear_signal_handler (&self->open_fraction_id, self->document);
  g_clear_object (&self->open_cancellable);
  gtk_revealer_set_reveal_child (self->open_revealer, FALSE);
  _odori_window_update_actions (self);
}

static void
open_finished_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OdoriWindow *self = g_task_get_source_object (task);
  OpenJob *job = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (job->score != NULL)
    ok = odori_document_open_score_finish (ODORI_DOCUMENT (source), result, &error);
  else
    ok = odori_document_open_index_finish (ODORI_DOCUMENT (source), result, &error);
  open_done (self);
  if (!ok)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->document != NULL)
        {
          g_autofree char *title =
            _odori_window_open_error_title (job->score ? job->score : job->library, job->score == NULL);

          _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (self->document != NULL)
    {
      if (job->score != NULL)
        _odori_window_add_recent (self, odori_document_get_path (self->document));
      report_document_state (self);
    }
  g_task_return_boolean (task, TRUE);
}

void
odori_window_open_async (OdoriWindow         *self,
                         GFile               *score,
                         GFile               *library,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  g_autofree char *library_path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  OpenJob *job;

  g_return_if_fail (ODORI_IS_WINDOW (self));
  g_return_if_fail (score == NULL || G_IS_FILE (score));
  g_return_if_fail (library == NULL || G_IS_FILE (library));
  g_return_if_fail (score != NULL || library != NULL);

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, odori_window_open_async);
  job = g_new0 (OpenJob, 1);
  job->score = score ? g_object_ref (score) : NULL;
  job->library = library ? g_object_ref (library) : NULL;
  g_task_set_task_data (task, job, (GDestroyNotify) open_job_free);

  path = score ? g_file_get_path (score) : NULL;
  library_path = library ? g_file_get_path (library) : NULL;
  if (self->open_cancellable != NULL || (score != NULL ? path == NULL : library_path == NULL))
    {
      const char *why = self->open_cancellable != NULL ? _("A file is already being opened.")
                                                       : _("Only local files can be opened.");
      g_autofree char *title = _odori_window_open_error_title (score ? score : library, score == NULL);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, why, NULL);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", why);
      return;
    }

  self->open_cancellable = g_cancellable_new ();
  self->open_fraction_id = g_signal_connect (self->document, "notify::fraction",
                                             G_CALLBACK (on_open_fraction_cb), self);
  name = g_file_get_basename (score ? score : library);
  /* Translators: %s is a file name */
  label = g_strdup_printf (_("Opening “%s”…"), name);
  gtk_label_set_text (self->open_label, label);
  gtk_progress_bar_set_fraction (self->open_progress, 0);
  gtk_revealer_set_reveal_child (self->open_revealer, TRUE);
  _odori_window_update_actions (self);
  if (score != NULL)
    odori_document_open_score_async (self->document, path, library_path, self->open_cancellable,
                                     open_finished_cb, g_steal_pointer (&task));
  else
    odori_document_open_index_async (self->document, library_path, self->open_cancellable,
                                     open_finished_cb, g_steal_pointer (&task));
}

gboolean
odori_window_open_finish (OdoriWindow   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
odori_window_save_to (OdoriWindow *self,
                      GFile       *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (ODORI_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL || !odori_document_save (self->document, path, &error))
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *title = g_strdup_printf (_("Cannot save “%s”"), name);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title,
                                error ? error->message : _("Only local files can be saved."), NULL);
      return FALSE;
    }
  _odori_window_add_recent (self, odori_document_get_path (self->document));
  _odori_window_hide_error (self);
  return TRUE;
}

/* Fonts */

/* Whether the window's font, with fontconfig's fallbacks, draws Japanese: a library's
 * motions are named in Japanese (拍手 Clap), and without such a font every name is a row
 * of empty boxes. Odori bundles no font, the Flatpak neither (docs/desktop.md). */
gboolean
_odori_window_has_japanese_font (OdoriWindow *self)
{
  static const gunichar probe[] = { 0x62CD, 0x624B, 0x3042 }; /* 拍, 手, あ */
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoFontset *fontset;
  gboolean found = TRUE;

  fontset = pango_context_load_fontset (context, pango_context_get_font_description (context),
                                        pango_language_from_string ("ja"));
  if (fontset == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (probe) && found; i++)
    {
      PangoFont *font = pango_fontset_get_font (fontset, probe[i]);

      found = font != NULL && pango_font_has_char (font, probe[i]);
      g_clear_object (&font);
    }
  g_object_unref (fontset);
  return found;
}

/* Shown: say it if the names cannot be drawn, and how to mend it. */
static void
on_map_check_fonts_cb (OdoriWindow *self)
{
  g_signal_handlers_disconnect_by_func (self, on_map_check_fonts_cb, self);
  if (!_odori_window_has_japanese_font (self))
    _odori_window_show_error (self, GTK_MESSAGE_WARNING, _("No Japanese font is installed"),
                              _("The motions’ Japanese names show as empty boxes. Install a Japanese "
                                "font, such as Noto Sans CJK (Debian: fonts-noto-cjk), then start Odori again."),
                              NULL);
}

/* Recovery */

static void offer_next_recovery (OdoriWindow *self);

/* The dance has the keys (Space plays, 2 mirrors): the viewport, else the timeline. */
static void
focus_dance (OdoriWindow *self)
{
  gtk_window_set_focus (GTK_WINDOW (self), self->viewport ? self->viewport : GTK_WIDGET (self->timeline));
}

static void
on_recover_bar_response_cb (OdoriWindow *self,
                            int          response)
{
  g_autofree char *ini = g_steal_pointer (&self->recover_ini);
  g_autoptr(GError) error = NULL;

  if (ini == NULL)
    return;
  /* The bar's button had the focus: as it goes, GTK would hand it to the next focusable
   * widget, the library's search, where "2" would type instead of showing the mirror. */
  focus_dance (self);
  if (response == ODORI_INFO_BAR_RECOVER)
    {
      OdoriAutosave *autosave = _odori_window_get_autosave (self);

      if (autosave == NULL)
        return;
      if (!odori_autosave_recover (autosave, self->document, ini, &error))
        _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot recover the unsaved work"),
                                  error->message, NULL);
      else
        report_document_state (self);
      /* Whatever happened, the next autosave (if any) is offered after this one. */
      offer_next_recovery (self);
      return;
    }
  if (response == ODORI_INFO_BAR_DISCARD && _odori_window_get_autosave (self) != NULL)
    odori_autosave_delete (_odori_window_get_autosave (self), ini);
  offer_next_recovery (self);
}

OdoriAutosave *
_odori_window_get_autosave (OdoriWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  return ODORI_IS_APPLICATION (app) ? odori_application_get_autosave (ODORI_APPLICATION (app)) : NULL;
}

void
_odori_window_discard_autosave (OdoriWindow *self)
{
  OdoriAutosave *autosave = _odori_window_get_autosave (self);

  if (autosave != NULL)
    odori_autosave_discard (autosave, self->document);
}

static void
offer_next_recovery (OdoriWindow *self)
{
  OdoriAutosave *autosave = _odori_window_get_autosave (self);
  g_autoptr(GPtrArray) found = autosave ? odori_autosave_list_orphans (autosave) : g_ptr_array_new ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *title = NULL;
  g_autofree char *time = NULL;
  g_autofree char *text = NULL;
  const char *ini;

  if (found->len == 0)
    return;
  /* The newest first. */
  ini = g_ptr_array_index (found, found->len - 1);
  if (odori_document_get_dirty (self->document))
    return;
  g_key_file_load_from_file (key_file, ini, G_KEY_FILE_NONE, NULL);
  title = g_key_file_get_string (key_file, "Autosave", "Title", NULL);
  time = g_key_file_get_string (key_file, "Autosave", "Time", NULL);
  if (time != NULL)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601 (time, NULL);

      if (dt != NULL)
        {
          g_free (time);
          time = g_date_time_format (dt, "%x %X");
        }
    }
  text = g_strdup_printf (_("Odori found unsaved work on “%s” (autosaved %s). Recover it?"),
                          title ? title : _("Untitled score"), time ? time : "");
  g_free (self->recover_ini);
  self->recover_ini = g_strdup (ini);
  odori_info_bar_offer_recovery (self->info_bar, text);
}

void
odori_window_offer_recovery (OdoriWindow *self)
{
  g_return_if_fail (ODORI_IS_WINDOW (self));
  offer_next_recovery (self);
}

/* Settings */

static void
on_settings_changed_cb (OdoriWindow *self,
                        const char  *key)
{
  _odori_window_sync_setting_actions (self);
  if (key == NULL || g_str_equal (key, "default-blend"))
    {
      odori_document_set_default_blend (self->document, g_settings_get_int (self->settings, "default-blend"));
      odori_timeline_set_default_blend (self->timeline, g_settings_get_int (self->settings, "default-blend"));
    }
  if (key == NULL || g_str_equal (key, "root-match"))
    odori_document_set_root_match (self->document, g_settings_get_enum (self->settings, "root-match"));
  if (key == NULL || g_str_equal (key, "time-units"))
    odori_timeline_set_time_units (self->timeline, g_settings_get_enum (self->settings, "time-units"));
#ifdef ODORI_HAVE_RENDER
  if ((key == NULL || g_str_equal (key, "show-skin")) && self->viewport != NULL)
    odori_viewport_set_show_skin (ODORI_VIEWPORT (self->viewport),
                                  g_settings_get_boolean (self->settings, "show-skin"));
#endif
}

static void
on_document_notify_cb (OdoriWindow *self)
{
  update_title (self);
  _odori_window_update_actions (self);
}

/* The timeline */

/* A refused edit says why in the window's bar, as a warning: nothing was lost. */
static void
on_timeline_refused_cb (OdoriWindow *self,
                        const char  *message)
{
  _odori_window_show_error (self, GTK_MESSAGE_WARNING, _("That edit was not made"), message, NULL);
}

/* The pane keeps its status line and Add Track menu; the window, its actions. */
static void
on_timeline_selection_cb (OdoriWindow *self)
{
  _odori_window_update_actions (self);
}

static void
on_undo_changed_cb (OdoriWindow *self)
{
  _odori_window_update_actions (self);
}

static void
on_score_changed_cb (OdoriWindow *self)
{
  _odori_window_update_actions (self);
}

static void
on_display_changed_cb (OdoriWindow *self)
{
  _odori_window_update_actions (self);
}

static void
create_viewport (OdoriWindow *self)
{
#ifdef ODORI_HAVE_RENDER
  self->viewport = odori_viewport_new ();
  odori_viewport_set_session (ODORI_VIEWPORT (self->viewport), self->session);
#else
  self->viewport = NULL;
  {
    GtkWidget *label = gtk_label_new (_("This build of Odori has no 3D view."));

    gtk_widget_set_hexpand (label, TRUE);
    gtk_widget_set_vexpand (label, TRUE);
    gtk_widget_add_css_class (label, "dim-label");
    gtk_box_append (self->viewport_slot, label);
  }
#endif
  if (self->viewport != NULL)
    gtk_box_append (self->viewport_slot, self->viewport);
}

/* GObject */

static gboolean
odori_window_close_request (GtkWindow *window)
{
  OdoriWindow *self = ODORI_WINDOW (window);

  if (_odori_window_close_request (self))
    return TRUE;
  return GTK_WINDOW_CLASS (odori_window_parent_class)->close_request (window);
}

static void
odori_window_dispose (GObject *object)
{
  OdoriWindow *self = ODORI_WINDOW (object);

  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  if (self->open_cancellable != NULL)
    g_cancellable_cancel (self->open_cancellable);
  g_clear_signal_handler (&self->open_fraction_id, self->document);
  g_clear_handle_id (&self->export_poll_id, g_source_remove);
  _odori_window_music_dispose (self);
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->close_dialog != NULL)
    gtk_window_destroy (g_steal_pointer (&self->close_dialog));
  /* The pane's children go with it: forget them, as the template's own are forgotten
   * (_odori_window_update_actions checks). */
  self->timeline = NULL;
  self->inspector = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_WINDOW);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->undo);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->session);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_window_parent_class)->dispose (object);
}

static void
odori_window_finalize (GObject *object)
{
  OdoriWindow *self = ODORI_WINDOW (object);

  g_free (self->recover_ini);
  G_OBJECT_CLASS (odori_window_parent_class)->finalize (object);
}

static void
odori_window_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  OdoriWindow *self = ODORI_WINDOW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_window_class_init (OdoriWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = odori_window_dispose;
  object_class->finalize = odori_window_finalize;
  object_class->get_property = odori_window_get_property;
  window_class->close_request = odori_window_close_request;

  /* The window's one document, made with the window: its children bind to it in the
   * template. */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the window shows and plays of it (the transport bar binds to it). */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, ODORI_TYPE_SESSION,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  odori_resources_ensure ();
  g_type_ensure (ADW_TYPE_FLAP);
  g_type_ensure (ADW_TYPE_TOAST_OVERLAY);
  g_type_ensure (ODORI_TYPE_LIBRARY_VIEW);
  g_type_ensure (ODORI_TYPE_INFO_BAR);
  g_type_ensure (ODORI_TYPE_TRANSPORT_BAR);
  g_type_ensure (ODORI_TYPE_TIMELINE_PANE);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-window.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, library_flap);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, library_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, preview_revealer);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, preview_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, library_view);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, viewport_slot);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, transport_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, timeline_pane);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, export_revealer);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, export_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, export_progress);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, open_revealer);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, open_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, open_progress);
  gtk_widget_class_bind_template_callback (widget_class, on_recover_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_preview_motion_cb);

  _odori_window_class_actions_init (klass);
}

/* The children of the small widgets the window (and its tests) reach. */
static void
lookup_children (OdoriWindow *self)
{
#define CHILD(widget, type, name) gtk_widget_get_template_child (GTK_WIDGET (widget), type, name)
  self->error_bar = GTK_INFO_BAR (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "error_bar"));
  self->error_title = GTK_LABEL (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "error_title"));
  self->error_message = GTK_LABEL (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "error_message"));
  self->error_expander = GTK_EXPANDER (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "error_expander"));
  self->error_details = GTK_LABEL (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "error_details"));
  self->recover_bar = GTK_INFO_BAR (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "recover_bar"));
  self->recover_label = GTK_LABEL (CHILD (self->info_bar, ODORI_TYPE_INFO_BAR, "recover_label"));
  self->play_button = GTK_WIDGET (CHILD (self->transport_bar, ODORI_TYPE_TRANSPORT_BAR, "play_button"));
  self->speed_button = GTK_MENU_BUTTON (CHILD (self->transport_bar, ODORI_TYPE_TRANSPORT_BAR, "speed_button"));
  self->frame_scale = GTK_SCALE (CHILD (self->transport_bar, ODORI_TYPE_TRANSPORT_BAR, "frame_scale"));
  self->frame_adjustment = GTK_ADJUSTMENT (CHILD (self->transport_bar, ODORI_TYPE_TRANSPORT_BAR, "frame_adjustment"));
  self->frame_label = GTK_INSCRIPTION (CHILD (self->transport_bar, ODORI_TYPE_TRANSPORT_BAR, "frame_label"));
  self->timeline = odori_timeline_pane_get_timeline (self->timeline_pane);
  self->inspector = odori_timeline_pane_get_inspector (self->timeline_pane);
  self->add_track_section = G_MENU (CHILD (self->timeline_pane, ODORI_TYPE_TIMELINE_PANE, "add_track_section"));
  self->snap_button = GTK_TOGGLE_BUTTON (CHILD (self->timeline_pane, ODORI_TYPE_TIMELINE_PANE, "snap_button"));
  self->timeline_status = GTK_LABEL (CHILD (self->timeline_pane, ODORI_TYPE_TIMELINE_PANE, "timeline_status"));
#undef CHILD
}

static void
odori_window_init (OdoriWindow *self)
{
  /* Before the template: its children bind to the window's "document". */
  self->document = odori_document_new ();
  self->session = odori_session_new (self->document);
  gtk_widget_init_template (GTK_WIDGET (self));
  odori_debug_watch_frames (GTK_WIDGET (self));
  if (ODORI_DEBUG_ENABLED (ODORI_DEBUG_FRAMES))
    g_signal_connect (self, "realize", G_CALLBACK (on_debug_realize_cb), NULL);
  lookup_children (self);
  /* Not a bound template child: gtk_widget_dispose_template () would unparent it behind
   * GtkWindow's back (the window's own child). */
  self->toast_overlay = ADW_TOAST_OVERLAY (gtk_window_get_child (GTK_WINDOW (self)));
  /* AdwFlap 1.2 only re-allocates its children as the library slides: the dance's
   * widgets, whose size changes, need a full layout pass (else GTK 4.8 paints a frame
   * of them unallocated and warns). */
  g_signal_connect_object (self->library_flap, "notify::reveal-progress",
                           G_CALLBACK (gtk_widget_queue_resize), self->library_flap, G_CONNECT_SWAPPED);

  self->settings = odori_settings_new ();
  self->undo = odori_undo_new (self->document);
  odori_timeline_pane_set_undo (self->timeline_pane, self->undo);
  odori_timeline_set_session (self->timeline, self->session);
  g_signal_connect_object (self->timeline, "refused", G_CALLBACK (on_timeline_refused_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "selection-changed", G_CALLBACK (on_timeline_selection_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->undo, "notify::can-undo", G_CALLBACK (on_undo_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->undo, "notify::can-redo", G_CALLBACK (on_undo_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->undo, "edit-done", G_CALLBACK (on_undo_changed_cb),
                           self, G_CONNECT_SWAPPED);
  /* Paste follows what the clipboard holds. */
  g_signal_connect_object (gtk_widget_get_clipboard (GTK_WIDGET (self)), "changed",
                           G_CALLBACK (on_undo_changed_cb), self, G_CONNECT_SWAPPED);
  create_viewport (self);

  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::title",
                                 G_CALLBACK (on_document_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::path",
                                 G_CALLBACK (on_document_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::dirty",
                                 G_CALLBACK (on_document_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "changed",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::index",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_set_target (self->document_signals, self->document);

  self->session_signals = g_signal_group_new (ODORI_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::playing",
                                 G_CALLBACK (on_playing_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::speed",
                                 G_CALLBACK (on_speed_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::previewing",
                                 G_CALLBACK (on_previewing_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "motion-changed",
                                 G_CALLBACK (on_display_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_set_target (self->session_signals, self->session);

  g_settings_bind (self->settings, "playback-speed", self->session, "speed", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "loop", self->session, "loop", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_settings_changed_cb),
                           self, G_CONNECT_SWAPPED);
  on_settings_changed_cb (self, NULL);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* Space plays at once: the viewport, not the search entry, has the focus. */
  focus_dance (self);
  g_signal_connect (self, "map", G_CALLBACK (on_map_check_fonts_cb), self);

  _odori_window_actions_init (self);
  make_title_clickable (self);
  on_speed_changed_cb (self);
  on_playing_changed_cb (self);
  update_title (self);
  on_display_changed_cb (self);
}

OdoriWindow *
odori_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (ODORI_TYPE_WINDOW, "application", application, NULL);
}

OdoriDocument *
odori_window_get_document (OdoriWindow *self)
{
  g_return_val_if_fail (ODORI_IS_WINDOW (self), NULL);
  return self->document;
}

OdoriSession *
odori_window_get_session (OdoriWindow *self)
{
  g_return_val_if_fail (ODORI_IS_WINDOW (self), NULL);
  return self->session;
}
