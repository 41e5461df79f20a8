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
#include "odori-window-private.h"
#ifdef ODORI_HAVE_RENDER
#include "odori-viewport.h"
#endif

G_DEFINE_FINAL_TYPE (OdoriWindow, odori_window, GTK_TYPE_APPLICATION_WINDOW)

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

/* Frame indicator */

static void
update_frame_label (OdoriWindow *self)
{
  guint frame = odori_document_get_frame (self->document);
  guint n = odori_document_get_n_frames (self->document);
  double ft = odori_document_get_frame_time (self->document);
  g_autofree char *text = NULL;

  switch (g_settings_get_enum (self->settings, "time-units"))
    {
    case ODORI_TIME_UNITS_FRAMES:
      /* Translators: frame indicator, "frame N / total" */
      text = g_strdup_printf (_("Frame %u / %u"), frame, n);
      break;
    case ODORI_TIME_UNITS_SECONDS:
      text = g_strdup_printf (_("%.2f s / %.2f s"), (frame - 1) * ft, n * ft);
      break;
    default:
      text = g_strdup_printf (_("%u / %u · %.2f s"), frame, n, (frame - 1) * ft);
      break;
    }
  gtk_label_set_text (self->frame_label, text);
}

static void
sync_scale (OdoriWindow *self)
{
  guint n = odori_document_get_n_frames (self->document);

  self->syncing_scale = TRUE;
  gtk_adjustment_configure (self->frame_adjustment,
                            odori_document_get_frame (self->document),
                            1, MAX (n, 1), 1, 30, 0);
  self->syncing_scale = FALSE;
}

static void
on_scale_value_changed_cb (OdoriWindow *self)
{
  if (self->syncing_scale)
    return;
  odori_document_set_frame (self->document, (guint) (gtk_adjustment_get_value (self->frame_adjustment) + 0.5));
}

static void
on_frame_changed_cb (OdoriWindow *self)
{
  sync_scale (self);
  update_frame_label (self);
}

/* Playback: a tick callback at the display's frame rate while playing. */

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  OdoriWindow *self = ODORI_WINDOW (widget);

  odori_document_tick (self->document, gdk_frame_clock_get_frame_time (clock));
  if (odori_document_get_playing (self->document))
    return G_SOURCE_CONTINUE;
  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
on_playing_changed_cb (OdoriWindow *self)
{
  gboolean playing = odori_document_get_playing (self->document);

  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, playing ? _("Pause") : _("Play"),
                                  -1);
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
  g_autofree char *label = g_strdup_printf ("%g×", odori_document_get_speed (self->document));

  gtk_menu_button_set_label (self->speed_button, label);
  _odori_window_update_actions (self);
}

/* Preview */

static void
on_previewing_changed_cb (OdoriWindow *self)
{
  OdoriIndexMotion *motion = odori_document_get_preview (self->document);

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

  if (!odori_document_preview (self->document, motion, &error))
    {
      g_autofree char *title = g_strdup_printf (_("Cannot preview “%s”"), motion->name ? motion->name : motion->code);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title, error->message, NULL);
      return;
    }
  odori_document_set_playing (self->document, TRUE);
}

/* Errors in the window */

void
_odori_window_show_error (OdoriWindow    *self,
                          GtkMessageType  type,
                          const char     *title,
                          const char     *message,
                          GPtrArray      *diagnostics)
{
  g_autoptr(GString) details = g_string_new (NULL);

  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      const OdoriDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *line = odori_diagnostic_to_string (d);

      if (details->len > 0)
        g_string_append_c (details, '\n');
      g_string_append (details, line);
      if (!d->is_error)
        g_string_append (details, _(" (warning)"));
    }
  gtk_info_bar_set_message_type (self->error_bar, type);
  gtk_label_set_text (self->error_title, title);
  gtk_label_set_text (self->error_message, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_message), message != NULL && message[0] != '\0');
  gtk_label_set_text (self->error_details, details->str);
  gtk_widget_set_visible (GTK_WIDGET (self->error_expander), details->len > 0);
  gtk_expander_set_expanded (self->error_expander, FALSE);
  gtk_info_bar_set_revealed (self->error_bar, TRUE);
}

void
_odori_window_hide_error (OdoriWindow *self)
{
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
}

static void
on_error_bar_response_cb (OdoriWindow *self,
                          int          response)
{
  _odori_window_hide_error (self);
}

/* Shows what the last open left to say: the composition's error, or warnings. */
static void
report_document_state (OdoriWindow *self)
{
  const GError *compose_error = odori_document_get_compose_error (self->document);
  GPtrArray *diagnostics = odori_document_get_diagnostics (self->document);

  if (compose_error != NULL)
    _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("The score does not compose with its library"),
                              compose_error->message, diagnostics);
  else if (diagnostics->len > 0)
    {
      g_autofree char *title =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Opened with %u warning", "Opened with %u warnings",
                                      diagnostics->len),
                         diagnostics->len);

      _odori_window_show_error (self, GTK_MESSAGE_WARNING, title, NULL, diagnostics);
      gtk_expander_set_expanded (self->error_expander, TRUE);
    }
  else
    _odori_window_hide_error (self);
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
  odori_document_set_playing (self->document, TRUE);
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
      g_autofree char *name = g_file_get_basename (score);
      g_autofree char *title = g_strdup_printf (_("Cannot open “%s”"), name);

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
      g_autofree char *name = g_file_get_basename (library);
      g_autofree char *title = g_strdup_printf (_("Cannot open the library “%s”"), name);

      _odori_window_show_error (self, GTK_MESSAGE_ERROR, title,
                                error ? error->message : _("Only local files can be opened."), NULL);
      return FALSE;
    }
  report_document_state (self);
  return TRUE;
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

/* Recovery */

static void offer_next_recovery (OdoriWindow *self);

static void
on_recover_bar_response_cb (OdoriWindow *self,
                            int          response)
{
  g_autofree char *ini = g_steal_pointer (&self->recover_ini);
  g_autoptr(GError) error = NULL;

  gtk_info_bar_set_revealed (self->recover_bar, FALSE);
  if (ini == NULL)
    return;
  if (response == 1)
    {
      if (!odori_document_recover (self->document, ini, &error))
        _odori_window_show_error (self, GTK_MESSAGE_ERROR, _("Cannot recover the unsaved work"),
                                  error->message, NULL);
      else
        report_document_state (self);
      /* Whatever happened, the next autosave (if any) is offered after this one. */
      offer_next_recovery (self);
      return;
    }
  if (response == 2)
    odori_autosave_delete (ini);
  offer_next_recovery (self);
}

static void
offer_next_recovery (OdoriWindow *self)
{
  g_autoptr(GPtrArray) found = odori_document_list_orphan_autosaves ();
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
  gtk_label_set_text (self->recover_label, text);
  g_free (self->recover_ini);
  self->recover_ini = g_strdup (ini);
  gtk_info_bar_set_revealed (self->recover_bar, TRUE);
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
    {
      odori_timeline_set_time_units (self->timeline, g_settings_get_enum (self->settings, "time-units"));
      update_frame_label (self);
    }
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

static void
update_timeline_status (OdoriWindow *self)
{
  guint n = odori_timeline_get_n_selected (self->timeline);
  const char *undo = odori_undo_get_undo_label (self->undo);
  g_autofree char *text = NULL;

  if (n > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u symbol selected", "%u symbols selected", n), n);
  else if (undo != NULL)
    /* Translators: timeline status, what Ctrl+Z would undo ("Undo Move") */
    text = g_strdup_printf (_("Undo %s with Ctrl+Z"), undo);
  else
    text = g_strdup (_("Drag motions from the library onto the tracks"));
  gtk_label_set_text (self->timeline_status, text);
}

static void
on_timeline_selection_cb (OdoriWindow *self)
{
  update_timeline_status (self);
  _odori_window_update_actions (self);
}

static void
on_undo_changed_cb (OdoriWindow *self)
{
  update_timeline_status (self);
  _odori_window_update_actions (self);
}

static void
on_score_changed_cb (OdoriWindow *self)
{
  _odori_window_rebuild_add_track_menu (self);
  _odori_window_update_actions (self);
}

static void
on_display_changed_cb (OdoriWindow *self)
{
  sync_scale (self);
  update_frame_label (self);
  _odori_window_update_actions (self);
}

static void
create_viewport (OdoriWindow *self)
{
#ifdef ODORI_HAVE_RENDER
  self->viewport = odori_viewport_new ();
  odori_viewport_set_document (ODORI_VIEWPORT (self->viewport), self->document);
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
  g_clear_handle_id (&self->export_poll_id, g_source_remove);
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->close_dialog != NULL)
    gtk_window_destroy (g_steal_pointer (&self->close_dialog));
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_WINDOW);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->undo);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
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
odori_window_class_init (OdoriWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = odori_window_dispose;
  object_class->finalize = odori_window_finalize;
  window_class->close_request = odori_window_close_request;

  odori_resources_ensure ();
  g_type_ensure (ODORI_TYPE_LIBRARY_VIEW);
  g_type_ensure (ODORI_TYPE_TIMELINE);
  g_type_ensure (ODORI_TYPE_INSPECTOR);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-window.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, error_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, error_message);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, error_expander);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, error_details);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, recover_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, recover_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, preview_revealer);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, preview_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, library_view);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, viewport_slot);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, play_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, speed_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, frame_scale);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, frame_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, frame_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, inspector);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, add_track_section);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, snap_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, timeline_status);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, export_revealer);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, export_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriWindow, export_progress);
  gtk_widget_class_bind_template_callback (widget_class, on_error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_recover_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_preview_motion_cb);

  _odori_window_class_actions_init (klass);
}

static void
odori_window_init (OdoriWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = odori_settings_new ();
  self->document = odori_document_new ();
  odori_library_view_set_document (self->library_view, self->document);
  self->undo = odori_undo_new (self->document);
  odori_timeline_set_undo (self->timeline, self->undo);
  odori_inspector_set_timeline (self->inspector, self->timeline);
  g_object_bind_property (self->snap_button, "active", self->timeline, "snap",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
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
  g_signal_group_connect_object (self->document_signals, "notify::frame",
                                 G_CALLBACK (on_frame_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::playing",
                                 G_CALLBACK (on_playing_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::speed",
                                 G_CALLBACK (on_speed_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::previewing",
                                 G_CALLBACK (on_previewing_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "motion-changed",
                                 G_CALLBACK (on_display_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::index",
                                 G_CALLBACK (on_score_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_set_target (self->document_signals, self->document);

  g_signal_connect_object (self->frame_adjustment, "value-changed",
                           G_CALLBACK (on_scale_value_changed_cb), self, G_CONNECT_SWAPPED);

  g_settings_bind (self->settings, "playback-speed", self->document, "speed", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "loop", self->document, "loop", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_settings_changed_cb),
                           self, G_CONNECT_SWAPPED);
  on_settings_changed_cb (self, NULL);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* Space plays at once: the viewport, not the search entry, has the focus. */
  gtk_window_set_focus (GTK_WINDOW (self), self->viewport ? self->viewport : GTK_WIDGET (self->timeline));

  _odori_window_actions_init (self);
  on_speed_changed_cb (self);
  on_playing_changed_cb (self);
  update_title (self);
  on_display_changed_cb (self);
  update_timeline_status (self);
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
