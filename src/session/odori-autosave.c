/* odori-autosave.c: unsaved work written aside every few seconds, and recovered
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "odori-autosave.h"

struct _OdoriAutosave
{
  GObject parent_instance;

  GHashTable *entries; /* OdoriDocument* (weak) → Entry* */
};

typedef struct
{
  OdoriDocument *document; /* weak (on_document_finalized_cb ()) */
  char          *id;       /* nullable: nothing written yet */
  guint          source;
  guint64        serial; /* changes seen */
  guint64        saved_serial;
} Entry;

G_DEFINE_FINAL_TYPE (OdoriAutosave, odori_autosave, G_TYPE_OBJECT)

static char *
autosave_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "odori", "autosave", NULL);
}

static void
autosave_paths (const char *id,
                char      **dds,
                char      **ini)
{
  g_autofree char *dir = autosave_dir ();
  g_autofree char *dds_name = g_strconcat (id, ".dds", NULL);
  g_autofree char *ini_name = g_strconcat (id, ".ini", NULL);

  if (dds != NULL)
    *dds = g_build_filename (dir, dds_name, NULL);
  if (ini != NULL)
    *ini = g_build_filename (dir, ini_name, NULL);
}

static void
delete_files (const char *ini)
{
  g_autofree char *base = NULL;
  g_autofree char *dds = NULL;

  if (!g_str_has_suffix (ini, ".ini"))
    return;
  base = g_strndup (ini, strlen (ini) - 4);
  dds = g_strconcat (base, ".dds", NULL);
  g_unlink (dds);
  g_unlink (ini);
}

/* Deletes ENTRY's files; the next autosave gets a new id. */
static void
entry_discard (Entry *entry)
{
  g_autofree char *ini = NULL;

  if (entry->id == NULL)
    return;
  autosave_paths (entry->id, NULL, &ini);
  delete_files (ini);
  g_clear_pointer (&entry->id, g_free);
  entry->saved_serial = 0;
}

static void
entry_free (Entry *entry)
{
  g_clear_handle_id (&entry->source, g_source_remove);
  if (entry->document != NULL)
    g_signal_handlers_disconnect_by_data (entry->document, entry);
  g_free (entry->id);
  g_free (entry);
}

static gboolean
write_entry (Entry   *entry,
             GError **error)
{
  OdoriDocument   *document = entry->document;
  OdoriIndex      *index = odori_document_get_index (document);
  g_autofree char *dir = autosave_dir ();
  g_autofree char *dds = NULL;
  g_autofree char *ini = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *abs_music = NULL;
  g_autofree char *abs_beats = NULL;
  g_autofree char *now = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GDateTime) time = g_date_time_new_now_local ();
  const char *path = odori_document_get_path (document);
  OdoriScore *score = odori_document_get_score (document);
  char       *kept_music, *kept_beats;
  gboolean    saved;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _ ("Cannot create %s: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  if (entry->id == NULL)
    entry->id = g_uuid_string_random ();
  autosave_paths (entry->id, &dds, &ini);

  /* The autosave lives elsewhere than the score: it names its library absolutely. */
  if (index != NULL && index->path != NULL)
    index_path = g_canonicalize_filename (index->path, NULL);
  else
    index_path = odori_score_dup_index_path (score);
  /* And its music the same way (as written, "# Music:" and "# Beats:" would resolve
   * against the autosave folder); the .ini keeps them as the score writes them. */
  abs_music = odori_score_dup_music_path (score);
  abs_beats = odori_score_dup_beats_path (score);
  kept_music = score->music.path;
  kept_beats = score->music.beats_path;
  score->music.path = abs_music;
  score->music.beats_path = abs_beats;
  saved = odori_document_save_copy (document, dds, index_path, error);
  score->music.path = kept_music;
  score->music.beats_path = kept_beats;
  if (!saved)
    return FALSE;

  title = odori_document_dup_title (document);
  now = g_date_time_format_iso8601 (time);
  g_key_file_set_string (key_file, "Autosave", "Path", path ? path : "");
  g_key_file_set_string (key_file, "Autosave", "Index", index_path ? index_path : "");
  g_key_file_set_string (key_file, "Autosave", "Music", kept_music ? kept_music : "");
  g_key_file_set_string (key_file, "Autosave", "Beats", kept_beats ? kept_beats : "");
  g_key_file_set_string (key_file, "Autosave", "Title", title);
  g_key_file_set_string (key_file, "Autosave", "Time", now);
  g_key_file_set_boolean (key_file, "Autosave", "Sample", odori_document_get_is_sample (document));
  if (!g_key_file_save_to_file (key_file, ini, error))
    return FALSE;
  entry->saved_serial = entry->serial;
  return TRUE;
}

static gboolean
autosave_cb (gpointer data)
{
  Entry *entry = data;
  g_autoptr(GError) error = NULL;

  if (entry->document == NULL || !odori_document_get_dirty (entry->document))
    {
      entry->source = 0;
      return G_SOURCE_REMOVE;
    }
  if (entry->serial != entry->saved_serial && !write_entry (entry, &error))
    g_debug ("autosave failed: %s", error->message);
  return G_SOURCE_CONTINUE;
}

static void
on_changed_cb (Entry *entry)
{
  entry->serial++;
}

static void
on_dirty_notify_cb (Entry *entry)
{
  if (odori_document_get_dirty (entry->document))
    {
      entry->serial++;
      if (entry->source == 0)
        entry->source = g_timeout_add_seconds (ODORI_AUTOSAVE_SECONDS, autosave_cb, entry);
      return;
    }
  /* Saved, opened afresh, or undone to the saved state: nothing to keep aside. */
  g_clear_handle_id (&entry->source, g_source_remove);
  entry_discard (entry);
}

static Entry *
lookup (OdoriAutosave *self,
        OdoriDocument *document)
{
  return g_hash_table_lookup (self->entries, document);
}

/* DOCUMENT ended: its autosave stays on disk, an orphan from now on. */
static void
on_document_finalized_cb (gpointer data,
                          GObject *where_the_object_was)
{
  OdoriAutosave *self = data;
  Entry         *entry = g_hash_table_lookup (self->entries, where_the_object_was);

  if (entry == NULL)
    return;
  entry->document = NULL;
  g_hash_table_remove (self->entries, where_the_object_was);
}

static void
odori_autosave_finalize (GObject *object)
{
  OdoriAutosave *self = ODORI_AUTOSAVE (object);
  GHashTableIter iter;
  gpointer       document;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, &document, NULL))
    g_object_weak_unref (document, on_document_finalized_cb, self);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  G_OBJECT_CLASS (odori_autosave_parent_class)->finalize (object);
}

static void
odori_autosave_class_init (OdoriAutosaveClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = odori_autosave_finalize;
}

static void
odori_autosave_init (OdoriAutosave *self)
{
  self->entries = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) entry_free);
}

OdoriAutosave *
odori_autosave_new (void)
{
  return g_object_new (ODORI_TYPE_AUTOSAVE, NULL);
}

void
odori_autosave_add_document (OdoriAutosave *self,
                             OdoriDocument *document)
{
  Entry *entry;

  g_return_if_fail (ODORI_IS_AUTOSAVE (self));
  g_return_if_fail (ODORI_IS_DOCUMENT (document));

  if (lookup (self, document) != NULL)
    return;
  entry = g_new0 (Entry, 1);
  entry->document = document;
  g_hash_table_insert (self->entries, document, entry);
  g_object_weak_ref (G_OBJECT (document), on_document_finalized_cb, self);
  g_signal_connect_swapped (document, "notify::dirty", G_CALLBACK (on_dirty_notify_cb), entry);
  g_signal_connect_swapped (document, "changed", G_CALLBACK (on_changed_cb), entry);
  if (odori_document_get_dirty (document))
    on_dirty_notify_cb (entry);
}

void
odori_autosave_remove_document (OdoriAutosave *self,
                                OdoriDocument *document)
{
  g_return_if_fail (ODORI_IS_AUTOSAVE (self));
  g_return_if_fail (ODORI_IS_DOCUMENT (document));

  if (lookup (self, document) == NULL)
    return;
  g_object_weak_unref (G_OBJECT (document), on_document_finalized_cb, self);
  g_hash_table_remove (self->entries, document);
}

gboolean
odori_autosave_save (OdoriAutosave *self,
                     OdoriDocument *document,
                     GError       **error)
{
  Entry *entry;

  g_return_val_if_fail (ODORI_IS_AUTOSAVE (self), FALSE);
  g_return_val_if_fail (ODORI_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (odori_document_get_score (document) != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  odori_autosave_add_document (self, document);
  entry = lookup (self, document);
  return write_entry (entry, error);
}

void
odori_autosave_discard (OdoriAutosave *self,
                        OdoriDocument *document)
{
  Entry *entry;

  g_return_if_fail (ODORI_IS_AUTOSAVE (self));
  g_return_if_fail (ODORI_IS_DOCUMENT (document));

  entry = lookup (self, document);
  if (entry != NULL)
    entry_discard (entry);
}

static int
compare_mtime (gconstpointer a,
               gconstpointer b)
{
  const char *pa = *(const char *const *) a;
  const char *pb = *(const char *const *) b;
  GStatBuf    sa, sb;

  if (g_stat (pa, &sa) != 0 || g_stat (pb, &sb) != 0)
    return strcmp (pa, pb);
  return (sa.st_mtime > sb.st_mtime) - (sa.st_mtime < sb.st_mtime);
}

static gboolean
id_is_live (OdoriAutosave *self,
            const char    *id)
{
  GHashTableIter iter;
  Entry         *entry;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (g_strcmp0 (entry->id, id) == 0)
      return TRUE;
  return FALSE;
}

GPtrArray *
odori_autosave_list_orphans (OdoriAutosave *self)
{
  g_autofree char *dir_path = autosave_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray  *found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_return_val_if_fail (ODORI_IS_AUTOSAVE (self), found);

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *id = NULL;
      g_autofree char *dds = NULL;

      if (!g_str_has_suffix (name, ".ini"))
        continue;
      id = g_strndup (name, strlen (name) - 4);
      if (id_is_live (self, id))
        continue;
      autosave_paths (id, &dds, NULL);
      if (!g_file_test (dds, G_FILE_TEST_IS_REGULAR))
        continue;
      g_ptr_array_add (found, g_build_filename (dir_path, name, NULL));
    }
  g_ptr_array_sort (found, compare_mtime);
  return found;
}

/* WRITTEN (a path as a score writes it) resolved as odori_score_dup_music_path () does,
 * from SCORE's place. */
static char *
resolve_from (OdoriScore *score,
              const char *written)
{
  g_autofree char *file = g_strdup (written);
  g_autofree char *dir = score->path ? g_path_get_dirname (score->path) : g_get_current_dir ();
  g_autofree char *abs_dir = g_canonicalize_filename (dir, NULL);

  if (G_DIR_SEPARATOR == '/')
    g_strdelimit (file, "\\", '/');
  return g_canonicalize_filename (file, abs_dir);
}

/* A recovered score's music line at *SLOT (absolute, as the autosave wrote it) goes back
 * to WRITTEN, the line as the user's score had it, when WRITTEN names the same file from
 * where the score is now (its own place, after odori_document_set_origin ()). */
static void
restore_music_line (OdoriScore *score,
                    char      **slot,
                    const char *written)
{
  g_autofree char *resolved = NULL;
  g_autofree char *copied = NULL;

  if (*slot == NULL || written == NULL || written[0] == '\0' || strcmp (*slot, written) == 0)
    return;
  resolved = resolve_from (score, written);
  copied = resolve_from (score, *slot);
  if (strcmp (resolved, copied) != 0)
    return;
  g_free (*slot);
  *slot = g_strdup (written);
}

gboolean
odori_autosave_recover (OdoriAutosave *self,
                        OdoriDocument *document,
                        const char    *ini,
                        GError       **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *path = NULL;
  g_autofree char *index = NULL;
  g_autofree char *music = NULL;
  g_autofree char *beats = NULL;
  g_autofree char *base = NULL;
  g_autofree char *dds = NULL;
  g_autofree char *id = NULL;
  gboolean         sample;
  Entry           *entry;
  OdoriScore      *score;

  g_return_val_if_fail (ODORI_IS_AUTOSAVE (self), FALSE);
  g_return_val_if_fail (ODORI_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (ini != NULL && g_str_has_suffix (ini, ".ini"), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_key_file_load_from_file (key_file, ini, G_KEY_FILE_NONE, error))
    return FALSE;
  path = g_key_file_get_string (key_file, "Autosave", "Path", NULL);
  index = g_key_file_get_string (key_file, "Autosave", "Index", NULL);
  music = g_key_file_get_string (key_file, "Autosave", "Music", NULL);
  beats = g_key_file_get_string (key_file, "Autosave", "Beats", NULL);
  sample = g_key_file_get_boolean (key_file, "Autosave", "Sample", NULL);
  base = g_path_get_basename (ini);
  id = g_strndup (base, strlen (base) - 4);
  autosave_paths (id, &dds, NULL);

  odori_autosave_add_document (self, document);
  if (!odori_document_open_score (document, dds, index && index[0] ? index : NULL, error))
    return FALSE;

  /* Back to where the work belongs; the autosave stays until it is saved. Its music
   * lines too: the score saved in place writes them as it did. */
  odori_document_set_origin (document, path, sample);
  score = odori_document_get_score (document);
  restore_music_line (score, &score->music.path, music);
  restore_music_line (score, &score->music.beats_path, beats);
  entry = lookup (self, document);
  entry_discard (entry);
  entry->id = g_steal_pointer (&id);
  odori_document_set_dirty (document, TRUE);
  entry->saved_serial = entry->serial;
  return TRUE;
}

void
odori_autosave_delete (OdoriAutosave *self,
                       const char    *ini)
{
  g_return_if_fail (ODORI_IS_AUTOSAVE (self));
  g_return_if_fail (ini != NULL);

  delete_files (ini);
}
