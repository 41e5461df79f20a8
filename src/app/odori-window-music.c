/* odori-window-music.c: the score's music in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Open Music… and Remove Music (win.open-music, win.open-music-file with a path — what a
 * test or a drop uses —, win.remove-music), each one undo step of the six music lines.
 * Whenever the session's music changes (another score, Open, Remove, Undo), the waveform
 * is loaded in the background (OdoriWaveform's cache makes a reopen instant) into the
 * music lane, which shows the progress; another music or closing the window cancels it.
 * Music that cannot be read is said in the info bar, naming the file and the reason: the
 * score stays open and plays without music.
 *
 * Where the score keeps the music: relative to the score's file when it has one, else
 * (a new score, the sample dance) the absolute path, which stays valid when the score is
 * saved; opening the music again after the first save makes it relative.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-file-dialog.h"
#include "odori-music-lane.h"
#include "odori-score-edit.h"
#include "odori-window-private.h"

/* PATH relative to directory DIR (both absolute and canonical), or NULL when they share
 * no directory but the root. */
static char *
relative_to (const char *dir,
             const char *path)
{
  g_auto (GStrv) d = g_strsplit (dir, G_DIR_SEPARATOR_S, -1);
  g_auto (GStrv) p = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
  g_autoptr(GString) out = g_string_new (NULL);
  guint n_d = g_strv_length (d);
  guint n_p = g_strv_length (p);
  guint common = 0;

  while (common < n_d && common + 1 < n_p && strcmp (d[common], p[common]) == 0)
    common++;
  /* d[0] and p[0] are the empty string before the root's separator. */
  if (common < 2 && !(n_d == 2 && d[1][0] == '\0'))
    return NULL;
  for (guint i = common; i < n_d; i++)
    if (d[i][0] != '\0')
      g_string_append (out, ".." G_DIR_SEPARATOR_S);
  for (guint i = common; i < n_p; i++)
    {
      g_string_append (out, p[i]);
      if (i + 1 < n_p)
        g_string_append_c (out, G_DIR_SEPARATOR);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* What "# Music:" says for the file at PATH. */
static char *
stored_music_path (OdoriWindow *self,
                   const char  *path)
{
  const char      *score_path = odori_document_get_path (self->document);
  g_autofree char *file = g_canonicalize_filename (path, NULL);
  g_autofree char *dir = NULL;
  g_autofree char *abs_dir = NULL;
  char            *relative;

  if (score_path == NULL || odori_document_get_is_sample (self->document))
    return g_steal_pointer (&file);
  dir = g_path_get_dirname (score_path);
  abs_dir = g_canonicalize_filename (dir, NULL);
  relative = relative_to (abs_dir, file);
  return relative != NULL ? relative : g_steal_pointer (&file);
}

/* One undo step: the music at PATH (NULL: none). */
static void
set_music (OdoriWindow *self,
           const char  *path)
{
  OdoriScore     *score = odori_document_get_score (self->document);
  OdoriScoreMusic after = { 0 };
  OdoriScoreEdit *edit;
  g_autoptr(GError) error = NULL;

  if (score == NULL)
    return;
  if (path != NULL)
    {
      odori_score_music_copy (&score->music, &after);
      /* Another music's tempo and beats are not this one's (a tempo given without music
       * is kept); its offset starts again at 0. */
      if (after.path != NULL)
        {
          after.tempo = 0;
          after.has_downbeat = FALSE;
          after.downbeat = 0;
          g_clear_pointer (&after.beats_path, g_free);
        }
      g_free (after.path);
      after.path = stored_music_path (self, path);
      after.has_offset = FALSE;
      after.offset = 0;
    }
  if (odori_score_music_equal (&score->music, &after))
    {
      odori_score_music_clear (&after);
      return;
    }
  edit = odori_score_edit_new (path != NULL ? _ ("Open Music") : _ ("Remove Music"));
  odori_score_edit_set_music (edit, &score->music, &after);
  odori_score_music_clear (&after);
  if (!odori_undo_apply (self->undo, edit, &error))
    _odori_window_show_error (self, GTK_MESSAGE_ERROR, _ ("The music cannot be set"),
                              error->message, NULL);
}

static void
open_music_chosen_cb (GFile      *file,
                      const char *filter_name,
                      gpointer    user_data)
{
  OdoriWindow     *self = ODORI_WINDOW (user_data);
  g_autofree char *path = g_file_get_path (file);

  if (path != NULL)
    set_music (self, path);
  g_object_unref (self);
}

static void
open_music_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  OdoriWindow     *self = ODORI_WINDOW (user_data);
  const char      *score_path = odori_document_get_path (self->document);
  OdoriFileDialog *dialog;

  dialog = odori_file_dialog_new (GTK_WINDOW (self), _ ("Open Music"), FALSE, _ ("_Open"));
  odori_file_dialog_add_filter (dialog, _ ("Music"),
                                (const char *[]){ "audio/*", "*.wav", "*.WAV", "*.flac", "*.FLAC",
                                                  "*.ogg", "*.OGG", "*.oga", "*.opus", "*.mp3",
                                                  "*.MP3", "*.m4a", NULL });
  odori_file_dialog_add_filter (dialog, _ ("All files"), (const char *[]){ "*", NULL });
  if (score_path != NULL && !odori_document_get_is_sample (self->document))
    {
      g_autoptr(GFile) file = g_file_new_for_path (score_path);
      g_autoptr(GFile) folder = g_file_get_parent (file);

      if (folder != NULL)
        odori_file_dialog_set_folder (dialog, folder);
    }
  odori_file_dialog_present (dialog, open_music_chosen_cb, g_object_ref (self));
}

static void
open_music_file_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  set_music (ODORI_WINDOW (user_data), g_variant_get_string (parameter, NULL));
}

static void
remove_music_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  set_music (ODORI_WINDOW (user_data), NULL);
}

/* The waveform */

/* One load: the window (held until the load ends) and the cancellable that tells a load
 * replaced by another's. */
typedef struct
{
  OdoriWindow  *self;
  GCancellable *cancellable;
} Load;

static void
waveform_progress_cb (double   fraction,
                      gpointer user_data)
{
  OdoriWindow *self = ODORI_WINDOW (user_data);

  if (self->music_lane != NULL)
    odori_music_lane_set_progress (self->music_lane, fraction);
}

static void
waveform_loaded_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Load *load = user_data;
  g_autoptr(OdoriWindow) self = load->self;
  g_autoptr(GCancellable) cancellable = load->cancellable;
  g_autoptr(GError) error = NULL;
  g_autoptr(OdoriWaveform) waveform = odori_waveform_load_finish (result, &error);

  g_free (load);
  /* Cancelled, or done just as another music replaced it. */
  if (g_cancellable_is_cancelled (cancellable) || self->music_lane == NULL)
    return;
  g_clear_object (&self->music_cancellable);
  odori_music_lane_set_progress (self->music_lane, -1);
  odori_music_lane_set_waveform (self->music_lane, waveform);
  if (waveform == NULL)
    {
      g_autofree char *base = g_path_get_basename (self->music_shown ? self->music_shown : "");
      /* Translators: %s: the music's file name */
      g_autofree char *title = g_strdup_printf (_ ("The music “%s” cannot be played"), base);
      /* Translators: %s: why the music could not be read (it names the file) */
      g_autofree char *message = g_strdup_printf (_ ("%s\nThe dance plays without music."),
                                                  error->message);

      _odori_window_show_error (self, GTK_MESSAGE_WARNING, title, message, NULL);
    }
}

static void
on_music_changed_cb (OdoriWindow *self)
{
  const char *path = odori_session_get_music_path (self->session);
  Load       *load;

  if (self->music_lane == NULL || g_strcmp0 (path, self->music_shown) == 0)
    return;
  if (self->music_cancellable != NULL)
    g_cancellable_cancel (self->music_cancellable);
  g_clear_object (&self->music_cancellable);
  g_free (self->music_shown);
  self->music_shown = g_strdup (path);
  odori_music_lane_set_waveform (self->music_lane, NULL);
  odori_music_lane_set_progress (self->music_lane, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->music_lane), path != NULL);
  _odori_window_update_actions (self);
  if (path == NULL)
    return;
  {
    g_autofree char *base = g_path_get_basename (path);

    odori_music_lane_set_title (self->music_lane, base);
  }
  odori_music_lane_set_progress (self->music_lane, 0);
  self->music_cancellable = g_cancellable_new ();
  load = g_new0 (Load, 1);
  load->self = g_object_ref (self);
  load->cancellable = g_object_ref (self->music_cancellable);
  odori_waveform_load_async (path, self->music_cancellable, waveform_progress_cb, self,
                             waveform_loaded_cb, load);
}

static const GActionEntry music_entries[] = {
  { "open-music", open_music_action },
  { "open-music-file", open_music_file_action, "s" },
  { "remove-music", remove_music_action },
};

void
_odori_window_music_update_actions (OdoriWindow *self)
{
  OdoriScore *score = odori_document_get_score (self->document);

  _odori_window_set_action_enabled (self, "open-music", score != NULL);
  _odori_window_set_action_enabled (self, "open-music-file", score != NULL);
  _odori_window_set_action_enabled (self, "remove-music",
                                    score != NULL && odori_score_music_is_set (&score->music));
}

void
_odori_window_music_init (OdoriWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), music_entries, G_N_ELEMENTS (music_entries), self);
  self->music_lane = odori_timeline_pane_get_music_lane (self->timeline_pane);
  odori_music_lane_set_session (self->music_lane, self->session);
  g_signal_connect_object (self->session, "notify::music", G_CALLBACK (on_music_changed_cb), self,
                           G_CONNECT_SWAPPED);
  on_music_changed_cb (self);
  _odori_window_music_update_actions (self);
}

void
_odori_window_music_dispose (OdoriWindow *self)
{
  if (self->music_cancellable != NULL)
    g_cancellable_cancel (self->music_cancellable);
  g_clear_object (&self->music_cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_func (self->session, on_music_changed_cb, self);
  self->music_lane = NULL;
  g_clear_pointer (&self->music_shown, g_free);
}
