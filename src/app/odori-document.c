/* odori-document.c: one open score with its library, composition and playhead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "odori-bva.h"
#include "odori-document.h"
#include "odori-format.h"
#include "odori-motion-cache.h"
#include "odori-library-import.h"
#include "odori-sample.h"

struct _OdoriDocument
{
  GObject           parent_instance;

  OdoriScore       *score;
  OdoriIndex       *index;
  char             *path;
  gboolean          is_sample;
  gboolean          dirty;
  GPtrArray        *diagnostics;

  OdoriComposer    *composer;
  OdoriMotion      *motion;          /* owned by the composer */
  OdoriSkeleton    *skeleton;
  GError           *compose_error;
  int               default_blend;
  OdoriRootMatch    root_match;

  GHashTable       *shows;           /* OdoriIndexShow* → OdoriMotion* */
  OdoriMotionCache *files;           /* show files, shared with the composer */
  OdoriIndexMotion *preview;
  OdoriMotion      *preview_motion;
  OdoriSkeleton    *preview_skeleton;
  guint             dance_frame;     /* the dance's playhead, kept while previewing */

  guint             frame;
  gboolean          playing;
  gboolean          loop;
  double            speed;
  gint64            anchor_time;     /* -1: anchored again on the next tick */
  double            anchor_frame;

  char             *autosave_id;
  guint             autosave_source;
  guint64           serial;
  guint64           autosaved_serial;
};

G_DEFINE_FINAL_TYPE (OdoriDocument, odori_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SCORE,
  PROP_INDEX,
  PROP_PATH,
  PROP_TITLE,
  PROP_DIRTY,
  PROP_DISPLAY_MOTION,
  PROP_PREVIEWING,
  PROP_FRAME,
  PROP_N_FRAMES,
  PROP_PLAYING,
  PROP_LOOP,
  PROP_SPEED,
  N_PROPS
};

enum {
  MOTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Autosave ids of the documents alive in this process (main thread only). */
static GHashTable *live_autosaves;

static void set_frame_internal (OdoriDocument *self,
                                guint          frame);

static void
notify (OdoriDocument *self,
        guint          prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static GPtrArray *
copy_diagnostics (GPtrArray *from,
                  GPtrArray *into)
{
  for (guint i = 0; from != NULL && i < from->len; i++)
    {
      const OdoriDiagnostic *d = g_ptr_array_index (from, i);

      g_ptr_array_add (into, odori_diagnostic_new (d->file, d->line, d->is_error, "%s", d->message));
    }
  return into;
}

/* Composition */

static int
effective_blend (OdoriDocument *self,
                 OdoriScore    *score)
{
  /* The score's own "# Blend:" wins; the preference is for scores without one. */
  return score->blend >= 0 ? -1 : self->default_blend;
}

typedef struct
{
  OdoriComposer *composer;
  OdoriMotion   *motion;
  OdoriSkeleton *skeleton;
  GError        *error;
} Composed;

static void
composed_clear (Composed *c)
{
  g_clear_pointer (&c->composer, odori_composer_free);
  g_clear_pointer (&c->skeleton, odori_skeleton_unref);
  g_clear_error (&c->error);
  c->motion = NULL;
}

static void
compose (OdoriDocument *self,
         OdoriScore    *score,
         OdoriIndex    *index,
         Composed      *out)
{
  /* Another library: its shows are other files (those of the old one stay with their
   * holders until they let go). */
  if (index != self->index)
    odori_motion_cache_clear (self->files);
  out->composer = odori_composer_new_with_cache (score, index, self->files, &out->error);
  if (out->composer == NULL)
    return;
  odori_composer_set_blend (out->composer, effective_blend (self, score));
  odori_composer_set_root_match (out->composer, self->root_match);
  out->motion = odori_composer_compose (out->composer, &out->error);
  if (out->motion == NULL)
    {
      g_clear_pointer (&out->composer, odori_composer_free);
      return;
    }
  out->skeleton = odori_skeleton_for_motion (out->motion);
}

/* Takes everything out of C. */
static void
adopt_composed (OdoriDocument *self,
                Composed      *c)
{
  g_clear_pointer (&self->composer, odori_composer_free);
  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  g_clear_error (&self->compose_error);
  self->composer = g_steal_pointer (&c->composer);
  self->motion = g_steal_pointer (&c->motion);
  self->skeleton = g_steal_pointer (&c->skeleton);
  self->compose_error = g_steal_pointer (&c->error);
}

static void
display_changed (OdoriDocument *self)
{
  guint n = odori_document_get_n_frames (self);

  notify (self, PROP_DISPLAY_MOTION);
  notify (self, PROP_N_FRAMES);
  g_signal_emit (self, signals[MOTION_CHANGED], 0);
  if (self->frame > MAX (n, 1))
    set_frame_internal (self, MAX (n, 1));
}

static void
recompose (OdoriDocument *self)
{
  g_autoptr(GError) error = NULL;
  OdoriMotion *motion = NULL;

  if (self->composer != NULL)
    {
      odori_composer_set_blend (self->composer, effective_blend (self, self->score));
      odori_composer_set_root_match (self->composer, self->root_match);
      motion = odori_composer_update (self->composer, NULL, &error);
    }
  if (motion != NULL)
    {
      if (motion != self->motion || self->skeleton == NULL)
        {
          g_clear_pointer (&self->skeleton, odori_skeleton_unref);
          self->skeleton = odori_skeleton_for_motion (motion);
        }
      self->motion = motion;
      g_clear_error (&self->compose_error);
    }
  else
    {
      Composed c = { 0 };

      /* No composer yet (the score did not compose before), or the update failed:
       * start again from scratch. */
      compose (self, self->score, self->index, &c);
      adopt_composed (self, &c);
    }
  if (self->preview == NULL)
    display_changed (self);
}

/* Autosave bookkeeping */

static char *
autosave_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "odori", "autosave", NULL);
}

static void
autosave_paths (const char  *id,
                char       **dds,
                char       **ini)
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
set_autosave_id (OdoriDocument *self,
                 const char    *id)
{
  if (live_autosaves == NULL)
    live_autosaves = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self->autosave_id != NULL)
    g_hash_table_remove (live_autosaves, self->autosave_id);
  g_free (self->autosave_id);
  self->autosave_id = g_strdup (id);
  if (id != NULL)
    g_hash_table_add (live_autosaves, g_strdup (id));
}

static gboolean
autosave_cb (gpointer data)
{
  OdoriDocument *self = data;
  g_autoptr(GError) error = NULL;

  if (!self->dirty)
    {
      self->autosave_source = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->serial != self->autosaved_serial && !odori_document_autosave (self, &error))
    g_debug ("autosave failed: %s", error->message);
  return G_SOURCE_CONTINUE;
}

static void
set_dirty (OdoriDocument *self,
           gboolean       dirty)
{
  if (dirty)
    self->serial++;
  if (dirty && self->autosave_source == 0)
    self->autosave_source = g_timeout_add_seconds (ODORI_DOCUMENT_AUTOSAVE_SECONDS, autosave_cb, self);
  if (!dirty)
    g_clear_handle_id (&self->autosave_source, g_source_remove);
  if (self->dirty != dirty)
    {
      self->dirty = dirty;
      notify (self, PROP_DIRTY);
    }
}

/* GObject */

static void
odori_document_dispose (GObject *object)
{
  OdoriDocument *self = ODORI_DOCUMENT (object);

  g_clear_handle_id (&self->autosave_source, g_source_remove);
  G_OBJECT_CLASS (odori_document_parent_class)->dispose (object);
}

static void
odori_document_finalize (GObject *object)
{
  OdoriDocument *self = ODORI_DOCUMENT (object);

  set_autosave_id (self, NULL);
  g_clear_pointer (&self->composer, odori_composer_free);
  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  g_clear_pointer (&self->preview_motion, odori_motion_unref);
  g_clear_pointer (&self->preview_skeleton, odori_skeleton_unref);
  g_clear_pointer (&self->shows, g_hash_table_unref);
  g_clear_pointer (&self->files, odori_motion_cache_unref);
  g_clear_pointer (&self->score, odori_score_unref);
  g_clear_pointer (&self->index, odori_index_unref);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_error (&self->compose_error);
  g_free (self->path);
  G_OBJECT_CLASS (odori_document_parent_class)->finalize (object);
}

static void
odori_document_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  OdoriDocument *self = ODORI_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_SCORE:
      g_value_set_pointer (value, self->score);
      break;
    case PROP_INDEX:
      g_value_set_pointer (value, self->index);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_TITLE:
      g_value_take_string (value, odori_document_dup_title (self));
      break;
    case PROP_DIRTY:
      g_value_set_boolean (value, self->dirty);
      break;
    case PROP_DISPLAY_MOTION:
      g_value_set_pointer (value, odori_document_get_display_motion (self));
      break;
    case PROP_PREVIEWING:
      g_value_set_boolean (value, self->preview != NULL);
      break;
    case PROP_FRAME:
      g_value_set_uint (value, self->frame);
      break;
    case PROP_N_FRAMES:
      g_value_set_uint (value, odori_document_get_n_frames (self));
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_document_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  OdoriDocument *self = ODORI_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FRAME:
      odori_document_set_frame (self, g_value_get_uint (value));
      break;
    case PROP_PLAYING:
      odori_document_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_LOOP:
      odori_document_set_loop (self, g_value_get_boolean (value));
      break;
    case PROP_SPEED:
      odori_document_set_speed (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_document_class_init (OdoriDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = odori_document_dispose;
  object_class->finalize = odori_document_finalize;
  object_class->get_property = odori_document_get_property;
  object_class->set_property = odori_document_set_property;

  properties[PROP_SCORE] = g_param_spec_pointer ("score", NULL, NULL, ro);
  properties[PROP_INDEX] = g_param_spec_pointer ("index", NULL, NULL, ro);
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_DIRTY] = g_param_spec_boolean ("dirty", NULL, NULL, FALSE, ro);
  properties[PROP_DISPLAY_MOTION] = g_param_spec_pointer ("display-motion", NULL, NULL, ro);
  properties[PROP_PREVIEWING] = g_param_spec_boolean ("previewing", NULL, NULL, FALSE, ro);
  properties[PROP_FRAME] = g_param_spec_uint ("frame", NULL, NULL, 1, G_MAXUINT, 1, rw);
  properties[PROP_N_FRAMES] = g_param_spec_uint ("n-frames", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, FALSE, rw);
  properties[PROP_LOOP] = g_param_spec_boolean ("loop", NULL, NULL, TRUE, rw);
  properties[PROP_SPEED] = g_param_spec_double ("speed", NULL, NULL, 0.25, 2.0, 1.0, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The display motion was replaced or recomputed in place. */
  signals[MOTION_CHANGED] = g_signal_new ("motion-changed",
                                          G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
}

static void
odori_document_init (OdoriDocument *self)
{
  self->frame = 1;
  self->loop = TRUE;
  self->speed = 1.0;
  self->anchor_time = -1;
  self->root_match = ODORI_ROOT_MATCH_POSITION;
  self->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) odori_diagnostic_free);
  self->shows = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) odori_motion_unref);
  self->files = odori_motion_cache_new ();
}

OdoriDocument *
odori_document_new (void)
{
  return g_object_new (ODORI_TYPE_DOCUMENT, NULL);
}

/* Files */

static void
clear_preview (OdoriDocument *self)
{
  self->preview = NULL;
  g_clear_pointer (&self->preview_motion, odori_motion_unref);
  g_clear_pointer (&self->preview_skeleton, odori_skeleton_unref);
}

/* Replaces the whole state with SCORE and INDEX (refs taken) and the composition C. */
static void
adopt (OdoriDocument *self,
       OdoriScore    *score,
       OdoriIndex    *index,
       Composed      *c,
       const char    *path,
       gboolean       is_sample,
       GPtrArray     *diagnostics)
{
  gboolean index_changed = self->index != index;
  g_autofree char *old_title = odori_document_dup_title (self);
  g_autofree char *new_title = NULL;

  odori_document_set_playing (self, FALSE);
  clear_preview (self);
  if (index_changed)
    {
      g_hash_table_remove_all (self->shows);
      g_clear_pointer (&self->index, odori_index_unref);
      self->index = odori_index_ref (index);
    }
  g_clear_pointer (&self->score, odori_score_unref);
  self->score = odori_score_ref (score);
  adopt_composed (self, c);
  g_ptr_array_set_size (self->diagnostics, 0);
  if (diagnostics != NULL)
    copy_diagnostics (diagnostics, self->diagnostics);

  if (g_strcmp0 (self->path, path) != 0)
    {
      g_free (self->path);
      self->path = g_strdup (path);
      notify (self, PROP_PATH);
    }
  self->is_sample = is_sample;
  odori_document_discard_autosave (self);
  set_dirty (self, FALSE);

  if (index_changed)
    notify (self, PROP_INDEX);
  notify (self, PROP_SCORE);
  new_title = odori_document_dup_title (self);
  if (g_strcmp0 (old_title, new_title) != 0)
    notify (self, PROP_TITLE);
  notify (self, PROP_PREVIEWING);
  self->frame = 0;
  display_changed (self);
  set_frame_internal (self, 1);
}

static GPtrArray *
gather_diagnostics (OdoriScore *score,
                    OdoriIndex *index)
{
  GPtrArray *diags = odori_diagnostics_new ();

  copy_diagnostics (index->warnings, diags);
  copy_diagnostics (score->warnings, diags);
  odori_score_resolve (score, index, diags);
  return diags;
}

gboolean
odori_document_open_score (OdoriDocument  *self,
                           const char     *path,
                           const char     *index_path,
                           GError        **error)
{
  g_autoptr(OdoriScore) score = NULL;
  g_autoptr(OdoriIndex) index = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autofree char *abs_path = NULL;
  g_autofree char *score_index = NULL;
  Composed c = { 0 };

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  score = odori_score_load (path, error);
  if (score == NULL)
    return FALSE;
  abs_path = g_canonicalize_filename (path, NULL);
  g_free (score->path);
  score->path = g_strdup (abs_path);

  if (index_path == NULL)
    {
      score_index = odori_score_dup_index_path (score);
      if (score_index == NULL && self->index != NULL)
        index = odori_index_ref (self->index);
      else if (score_index == NULL)
        {
          g_set_error (error, ODORI_SCORE_ERROR, ODORI_SCORE_ERROR_SYNTAX,
                       _("%s:1: the score names no motion library (“# Index:”); open a library first"),
                       path);
          return FALSE;
        }
      index_path = score_index;
    }
  if (index == NULL && self->index != NULL && self->index->path != NULL &&
      g_strcmp0 (self->index->path, index_path) == 0)
    index = odori_index_ref (self->index);
  if (index == NULL)
    {
      g_autofree char *abs_index = g_canonicalize_filename (index_path, NULL);

      index = odori_index_load (abs_index, error);
      if (index == NULL)
        return FALSE;
    }

  diags = gather_diagnostics (score, index);
  compose (self, score, index, &c);
  adopt (self, score, index, &c, abs_path, FALSE, diags);
  composed_clear (&c);
  return TRUE;
}

char *
odori_document_dup_sample_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "odori", "sample", NULL);
}

gboolean
odori_document_load_sample (OdoriDocument  *self,
                            GError        **error)
{
  g_autofree char *dir = odori_document_dup_sample_dir ();
  g_autofree char *dds = g_build_filename (dir, "sample.dds", NULL);

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Written afresh each time (a tenth of a second): the sample always matches this
   * version of Odori, and a damaged copy heals itself. */
  if (!odori_sample_write (dir, error))
    return FALSE;
  if (!odori_document_open_score (self, dds, NULL, error))
    return FALSE;
  /* The sample is not the user's file: saving it asks where. */
  g_clear_pointer (&self->path, g_free);
  self->is_sample = TRUE;
  notify (self, PROP_PATH);
  notify (self, PROP_TITLE);
  return TRUE;
}

static OdoriScore *
new_score_for_index (OdoriIndex *index)
{
  OdoriScore *score = odori_score_new ();

  for (guint i = 0; i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);

      odori_score_add_part (score, part->code, (const char * const *) part->map);
    }
  score->index_path = g_strdup (index->path);
  return score;
}

static gboolean
is_untouched (OdoriDocument *self)
{
  return self->score == NULL || (!self->dirty && (self->is_sample || self->path == NULL));
}

gboolean
odori_document_open_index (OdoriDocument  *self,
                           const char     *path,
                           GError        **error)
{
  g_autoptr(OdoriIndex) index = NULL;
  g_autofree char *abs_path = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  abs_path = g_canonicalize_filename (path, NULL);
  index = odori_index_load (abs_path, error);
  if (index == NULL)
    return FALSE;

  if (is_untouched (self))
    {
      g_autoptr(OdoriScore) score = new_score_for_index (index);
      g_autoptr(GPtrArray) diags = odori_diagnostics_new ();
      Composed c = { 0 };

      copy_diagnostics (index->warnings, diags);
      compose (self, score, index, &c);
      adopt (self, score, index, &c, NULL, FALSE, diags);
      composed_clear (&c);
      return TRUE;
    }

  odori_document_set_index (self, index);
  g_free (self->score->index_path);
  self->score->index_path = g_strdup (abs_path);
  g_ptr_array_set_size (self->diagnostics, 0);
  copy_diagnostics (index->warnings, self->diagnostics);
  odori_score_resolve (self->score, index, self->diagnostics);
  set_dirty (self, TRUE);
  return TRUE;
}

void
odori_document_set_index (OdoriDocument *self,
                          OdoriIndex    *index)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  g_return_if_fail (index != NULL);

  if (self->index == index)
    return;
  odori_document_stop_preview (self);
  g_hash_table_remove_all (self->shows);
  odori_motion_cache_clear (self->files);
  g_clear_pointer (&self->index, odori_index_unref);
  self->index = odori_index_ref (index);
  /* The composer holds the old index: compose against the new one from scratch. */
  g_clear_pointer (&self->composer, odori_composer_free);
  self->motion = NULL;
  notify (self, PROP_INDEX);
  if (self->score != NULL)
    recompose (self);
}

/* PATH relative to directory DIR when they share more than the root, else PATH. */
static char *
relative_to (const char *dir,
             const char *path)
{
  g_auto(GStrv) d = g_strsplit (dir, G_DIR_SEPARATOR_S, -1);
  g_auto(GStrv) p = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
  g_autoptr(GString) out = g_string_new (NULL);
  guint common = 0;

  while (d[common] != NULL && p[common] != NULL && p[common + 1] != NULL &&
         strcmp (d[common], p[common]) == 0)
    common++;
  /* d[0] and p[0] are the empty string before the leading separator. */
  if (common <= 1 || !g_path_is_absolute (dir) || !g_path_is_absolute (path))
    return g_strdup (path);
  for (guint i = common; d[i] != NULL; i++)
    if (d[i][0] != '\0')
      g_string_append (out, ".." G_DIR_SEPARATOR_S);
  for (guint i = common; p[i] != NULL; i++)
    {
      g_string_append (out, p[i]);
      if (p[i + 1] != NULL)
        g_string_append_c (out, G_DIR_SEPARATOR);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Saves SCORE to PATH with "# Index:" set to INDEX_PATH for the write only. */
static gboolean
save_with_index_path (OdoriScore  *score,
                      const char  *path,
                      const char  *index_path,
                      GError     **error)
{
  char *kept = score->index_path;
  gboolean ok;

  score->index_path = (char *) index_path;
  ok = odori_score_save (score, path, error);
  score->index_path = kept;
  return ok;
}

gboolean
odori_document_save (OdoriDocument  *self,
                     const char     *path,
                     GError        **error)
{
  g_autofree char *abs_path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *old_title = NULL;
  g_autofree char *new_title = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (self->score != NULL, FALSE);

  abs_path = g_canonicalize_filename (path, NULL);
  dir = g_path_get_dirname (abs_path);
  if (self->index != NULL && self->index->path != NULL)
    {
      g_autofree char *abs_index = g_canonicalize_filename (self->index->path, NULL);

      index_path = relative_to (dir, abs_index);
    }
  else
    index_path = g_strdup (self->score->index_path);

  if (!save_with_index_path (self->score, abs_path, index_path, error))
    return FALSE;

  old_title = odori_document_dup_title (self);
  g_free (self->score->index_path);
  self->score->index_path = g_steal_pointer (&index_path);
  g_free (self->score->path);
  self->score->path = g_strdup (abs_path);
  self->is_sample = FALSE;
  if (g_strcmp0 (self->path, abs_path) != 0)
    {
      g_free (self->path);
      self->path = g_steal_pointer (&abs_path);
      notify (self, PROP_PATH);
    }
  new_title = odori_document_dup_title (self);
  if (g_strcmp0 (old_title, new_title) != 0)
    notify (self, PROP_TITLE);
  odori_document_discard_autosave (self);
  set_dirty (self, FALSE);
  return TRUE;
}

OdoriScore *
odori_document_get_score (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->score;
}

OdoriIndex *
odori_document_get_index (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->index;
}

const char *
odori_document_get_path (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->path;
}

gboolean
odori_document_get_is_sample (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return self->is_sample;
}

char *
odori_document_dup_title (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);

  if (self->score != NULL && self->score->title != NULL && self->score->title[0] != '\0')
    return g_strdup (self->score->title);
  if (self->path != NULL)
    return g_path_get_basename (self->path);
  return g_strdup (_("Untitled score"));
}

gboolean
odori_document_get_dirty (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return self->dirty;
}

GPtrArray *
odori_document_get_diagnostics (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->diagnostics;
}

void
odori_document_score_changed (OdoriDocument *self)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  g_return_if_fail (self->score != NULL);

  recompose (self);
  notify (self, PROP_SCORE);
  set_dirty (self, TRUE);
}

/* Composition */

void
odori_document_set_default_blend (OdoriDocument *self,
                                  int            blend)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  blend = MAX (blend, 0);
  if (self->default_blend == blend)
    return;
  self->default_blend = blend;
  if (self->score != NULL && self->score->blend < 0)
    recompose (self);
}

void
odori_document_set_root_match (OdoriDocument  *self,
                               OdoriRootMatch  match)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  if (self->root_match == match)
    return;
  self->root_match = match;
  if (self->score != NULL)
    recompose (self);
}

OdoriMotion *
odori_document_get_motion (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->motion;
}

const GError *
odori_document_get_compose_error (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->compose_error;
}

GArray *
odori_document_get_seams (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->composer != NULL && self->motion != NULL ? odori_composer_get_seams (self->composer) : NULL;
}

OdoriMotion *
odori_document_get_display_motion (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->preview != NULL ? self->preview_motion : self->motion;
}

OdoriSkeleton *
odori_document_get_display_skeleton (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->preview != NULL ? self->preview_skeleton : self->skeleton;
}

OdoriIndexMotion *
odori_document_get_preview (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->preview;
}

OdoriMotion *
odori_document_load_show (OdoriDocument   *self,
                          OdoriIndexShow  *show,
                          GError         **error)
{
  g_autofree char *path = NULL;
  OdoriMotion *motion;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (show != NULL, NULL);
  g_return_val_if_fail (self->index != NULL, NULL);

  motion = g_hash_table_lookup (self->shows, show);
  if (motion != NULL)
    return motion;
  path = odori_index_show_path (self->index, show);
  motion = odori_motion_cache_load (self->files, path, error);
  if (motion == NULL)
    return NULL;
  g_hash_table_insert (self->shows, show, motion);
  return motion;
}

gboolean
odori_document_check_symbol (OdoriDocument   *self,
                             OdoriScorePart  *part,
                             const char      *symbol,
                             GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  OdoriIndexMotion *motion;
  OdoriMotion *show_motion;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (part != NULL, FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->index == NULL)
    {
      g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_UNKNOWN_SYMBOL,
                   _("There is no motion library to take “%s” from"), symbol);
      return FALSE;
    }
  motion = odori_index_lookup (self->index, symbol, &local_error);
  if (motion == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  show_motion = odori_document_load_show (self, motion->show, &local_error);
  if (show_motion == NULL)
    {
      g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_FILE,
                   _("“%s” cannot be placed: its show file does not read (%s)"),
                   symbol, local_error->message);
      return FALSE;
    }
  {
    g_autoptr(GString) missing = g_string_new (NULL);
    guint n_missing = 0;

    for (guint i = 0; part->sensors != NULL && part->sensors[i] != NULL; i++)
      if (odori_motion_find_segment (show_motion, part->sensors[i]) < 0)
        {
          if (missing->len > 0)
            g_string_append (missing, ", ");
          g_string_append (missing, part->sensors[i]);
          n_missing++;
        }
    if (n_missing > 0)
      {
        /* Translators: “A9” is a dance symbol, LL a body part's code, then its show's
         * code and file, then the sensors missing from that file */
        g_set_error (error, ODORI_COMPOSE_ERROR, ODORI_COMPOSE_ERROR_MISSING_SENSOR,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "“%s” is not a motion for track %s: its show %s (%s) has no sensor %s",
                                  "“%s” is not a motion for track %s: its show %s (%s) has no sensors %s",
                                  n_missing),
                     symbol, part->code, motion->show->code, motion->show->file, missing->str);
        return FALSE;
      }
  }
  return TRUE;
}

gboolean
odori_document_preview (OdoriDocument     *self,
                        OdoriIndexMotion  *motion,
                        GError           **error)
{
  OdoriMotion *show_motion;
  g_autoptr(OdoriMotion) clip = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  show_motion = odori_document_load_show (self, motion->show, error);
  if (show_motion == NULL)
    return FALSE;
  clip = odori_motion_resample (show_motion, motion->first, motion->last,
                                show_motion->frame_time, error);
  if (clip == NULL)
    return FALSE;

  if (self->preview == NULL)
    self->dance_frame = self->frame;
  clear_preview (self);
  self->preview = motion;
  self->preview_skeleton = odori_skeleton_for_motion (clip);
  self->preview_motion = g_steal_pointer (&clip);
  self->anchor_time = -1;
  notify (self, PROP_PREVIEWING);
  display_changed (self);
  set_frame_internal (self, 1);
  return TRUE;
}

void
odori_document_stop_preview (OdoriDocument *self)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  if (self->preview == NULL)
    return;
  clear_preview (self);
  self->anchor_time = -1;
  notify (self, PROP_PREVIEWING);
  display_changed (self);
  set_frame_internal (self, MIN (MAX (self->dance_frame, 1), MAX (odori_document_get_n_frames (self), 1)));
}

double
odori_document_get_frame_time (OdoriDocument *self)
{
  OdoriMotion *motion;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), 1.0 / 30);

  motion = odori_document_get_display_motion (self);
  if (motion != NULL && motion->frame_time > 0)
    return motion->frame_time;
  return 1.0 / 30;
}

/* Playhead */

static void
set_frame_internal (OdoriDocument *self,
                    guint          frame)
{
  guint n = MAX (odori_document_get_n_frames (self), 1);

  frame = CLAMP (frame, 1, n);
  if (self->frame == frame)
    return;
  self->frame = frame;
  notify (self, PROP_FRAME);
}

guint
odori_document_get_frame (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), 1);
  return self->frame;
}

void
odori_document_set_frame (OdoriDocument *self,
                          guint          frame)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  self->anchor_time = -1;
  set_frame_internal (self, frame);
}

guint
odori_document_get_n_frames (OdoriDocument *self)
{
  OdoriMotion *motion;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), 0);

  motion = odori_document_get_display_motion (self);
  return motion != NULL ? motion->n_frames : 0;
}

void
odori_document_step (OdoriDocument *self,
                     int            delta)
{
  gint64 frame;

  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  odori_document_set_playing (self, FALSE);
  frame = (gint64) self->frame + delta;
  odori_document_set_frame (self, (guint) CLAMP (frame, 1, G_MAXUINT));
}

gboolean
odori_document_get_playing (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return self->playing;
}

void
odori_document_set_playing (OdoriDocument *self,
                            gboolean       playing)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  playing = !!playing && odori_document_get_n_frames (self) > 1;
  if (self->playing == playing)
    return;
  /* Play at the end starts again from the beginning. */
  if (playing && self->frame >= odori_document_get_n_frames (self))
    set_frame_internal (self, 1);
  self->playing = playing;
  self->anchor_time = -1;
  notify (self, PROP_PLAYING);
}

gboolean
odori_document_get_loop (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  return self->loop;
}

void
odori_document_set_loop (OdoriDocument *self,
                         gboolean       loop)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  loop = !!loop;
  if (self->loop == loop)
    return;
  self->loop = loop;
  notify (self, PROP_LOOP);
}

double
odori_document_get_speed (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), 1.0);
  return self->speed;
}

void
odori_document_set_speed (OdoriDocument *self,
                          double         speed)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  speed = CLAMP (speed, 0.25, 2.0);
  if (self->speed == speed)
    return;
  self->speed = speed;
  self->anchor_time = -1;
  notify (self, PROP_SPEED);
}

void
odori_document_tick (OdoriDocument *self,
                     gint64         time_us)
{
  double frame;
  guint n;

  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  if (!self->playing)
    return;
  n = odori_document_get_n_frames (self);
  if (self->anchor_time < 0 || time_us < self->anchor_time)
    {
      self->anchor_time = time_us;
      self->anchor_frame = self->frame;
      return;
    }
  frame = self->anchor_frame +
          (time_us - self->anchor_time) / 1e6 * self->speed / odori_document_get_frame_time (self);
  if (frame >= n + 1.0)
    {
      if (!self->loop)
        {
          set_frame_internal (self, n);
          odori_document_set_playing (self, FALSE);
          return;
        }
      frame = 1.0 + fmod (frame - 1.0, n);
      self->anchor_time = time_us;
      self->anchor_frame = frame;
    }
  set_frame_internal (self, (guint) frame);
}

/* Autosave */

gboolean
odori_document_autosave (OdoriDocument  *self,
                         GError        **error)
{
  g_autofree char *dir = autosave_dir ();
  g_autofree char *dds = NULL;
  g_autofree char *ini = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *now = NULL;
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GDateTime) time = g_date_time_new_now_local ();
  g_autofree char *title = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->score != NULL, FALSE);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot create %s: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  if (self->autosave_id == NULL)
    {
      g_autofree char *id = g_uuid_string_random ();

      set_autosave_id (self, id);
    }
  autosave_paths (self->autosave_id, &dds, &ini);

  /* The autosave lives elsewhere than the score: it names its library absolutely. */
  if (self->index != NULL && self->index->path != NULL)
    index_path = g_canonicalize_filename (self->index->path, NULL);
  else
    index_path = odori_score_dup_index_path (self->score);
  if (!save_with_index_path (self->score, dds, index_path, error))
    return FALSE;

  title = odori_document_dup_title (self);
  now = g_date_time_format_iso8601 (time);
  g_key_file_set_string (key_file, "Autosave", "Path", self->path ? self->path : "");
  g_key_file_set_string (key_file, "Autosave", "Index", index_path ? index_path : "");
  g_key_file_set_string (key_file, "Autosave", "Title", title);
  g_key_file_set_string (key_file, "Autosave", "Time", now);
  g_key_file_set_boolean (key_file, "Autosave", "Sample", self->is_sample);
  if (!g_key_file_save_to_file (key_file, ini, error))
    return FALSE;
  self->autosaved_serial = self->serial;
  return TRUE;
}

void
odori_autosave_delete (const char *ini)
{
  g_autofree char *base = NULL;

  g_return_if_fail (ini != NULL);

  if (!g_str_has_suffix (ini, ".ini"))
    return;
  base = g_strndup (ini, strlen (ini) - 4);
  {
    g_autofree char *dds = g_strconcat (base, ".dds", NULL);

    g_unlink (dds);
    g_unlink (ini);
  }
}

void
odori_document_discard_autosave (OdoriDocument *self)
{
  g_autofree char *ini = NULL;

  g_return_if_fail (ODORI_IS_DOCUMENT (self));

  if (self->autosave_id == NULL)
    return;
  autosave_paths (self->autosave_id, NULL, &ini);
  odori_autosave_delete (ini);
  set_autosave_id (self, NULL);
  self->autosaved_serial = 0;
}

static int
compare_mtime (gconstpointer a,
               gconstpointer b)
{
  const char *pa = *(const char * const *) a;
  const char *pb = *(const char * const *) b;
  GStatBuf sa, sb;

  if (g_stat (pa, &sa) != 0 || g_stat (pb, &sb) != 0)
    return strcmp (pa, pb);
  return (sa.st_mtime > sb.st_mtime) - (sa.st_mtime < sb.st_mtime);
}

GPtrArray *
odori_document_list_orphan_autosaves (void)
{
  g_autofree char *dir_path = autosave_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *id = NULL;
      g_autofree char *dds = NULL;

      if (!g_str_has_suffix (name, ".ini"))
        continue;
      id = g_strndup (name, strlen (name) - 4);
      if (live_autosaves != NULL && g_hash_table_contains (live_autosaves, id))
        continue;
      autosave_paths (id, &dds, NULL);
      if (!g_file_test (dds, G_FILE_TEST_IS_REGULAR))
        continue;
      g_ptr_array_add (found, g_build_filename (dir_path, name, NULL));
    }
  g_ptr_array_sort (found, compare_mtime);
  return found;
}

gboolean
odori_document_recover (OdoriDocument  *self,
                        const char     *ini,
                        GError        **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *path = NULL;
  g_autofree char *index = NULL;
  g_autofree char *base = NULL;
  g_autofree char *dds = NULL;
  g_autofree char *id = NULL;
  gboolean sample;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (ini != NULL && g_str_has_suffix (ini, ".ini"), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_key_file_load_from_file (key_file, ini, G_KEY_FILE_NONE, error))
    return FALSE;
  path = g_key_file_get_string (key_file, "Autosave", "Path", NULL);
  index = g_key_file_get_string (key_file, "Autosave", "Index", NULL);
  sample = g_key_file_get_boolean (key_file, "Autosave", "Sample", NULL);
  base = g_path_get_basename (ini);
  id = g_strndup (base, strlen (base) - 4);
  autosave_paths (id, &dds, NULL);

  if (!odori_document_open_score (self, dds, index && index[0] ? index : NULL, error))
    return FALSE;

  /* Back to where the work belongs; the autosave stays until it is saved. */
  g_free (self->score->path);
  self->score->path = path && path[0] ? g_strdup (path) : NULL;
  g_free (self->path);
  self->path = path && path[0] ? g_strdup (path) : NULL;
  self->is_sample = sample;
  set_autosave_id (self, id);
  self->autosaved_serial = self->serial + 1;
  set_dirty (self, TRUE);
  notify (self, PROP_PATH);
  notify (self, PROP_TITLE);
  return TRUE;
}

/* Import */

/* The class imported shows join (created at the end of motion.dat when missing). */
#define IMPORTED_CLASS_CODE "imported"

static gboolean
show_code_used (OdoriIndex *index,
                const char *code)
{
  for (guint c = 0; c < index->classes->len; c++)
    {
      OdoriIndexClass *klass = g_ptr_array_index (index->classes, c);

      for (guint s = 0; s < klass->shows->len; s++)
        if (g_ascii_strcasecmp (((OdoriIndexShow *) g_ptr_array_index (klass->shows, s))->code, code) == 0)
          return TRUE;
    }
  return FALSE;
}

/* A show code nobody uses yet: IMP1, IMP2 … */
static char *
choose_show_code (OdoriIndex *index)
{
  char *code = NULL;

  for (guint n = 1; code == NULL || show_code_used (index, code); n++)
    {
      g_free (code);
      code = g_strdup_printf ("IMP%u", n);
    }
  return code;
}

static gboolean
library_path_or_error (OdoriDocument  *self,
                       GError        **error)
{
  if (self->index == NULL || self->index->path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Open a motion library first: the capture becomes one of its shows"));
      return FALSE;
    }
  return TRUE;
}

/* motion.dat changed on disk: read it again and put it in place. */
static gboolean
reload_index (OdoriDocument  *self,
              GError        **error)
{
  g_autofree char *path = g_strdup (self->index->path);
  g_autoptr(OdoriIndex) index = odori_index_load (path, error);

  if (index == NULL)
    return FALSE;
  odori_document_set_index (self, index);
  return TRUE;
}

gboolean
odori_document_add_imported_show (OdoriDocument  *self,
                                  OdoriMotion    *motion,
                                  const char     *show_name,
                                  char          **symbol,
                                  GError        **error)
{
  g_autofree char *show_code = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (motion != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  if (motion->n_frames == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The capture has no frames"));
      return FALSE;
    }

  show_code = choose_show_code (self->index);
  name = g_strdup (show_name != NULL && show_name[0] != '\0' ? show_name : show_code);
  g_strdelimit (name, "\"\n\r", '\'');
  if (!odori_library_add_show (self->index->path, IMPORTED_CLASS_CODE, show_code, name, motion, NULL, error))
    return FALSE;
  if (!reload_index (self, error))
    return FALSE;
  if (symbol != NULL)
    *symbol = g_strconcat (show_code, ".", ODORI_LIBRARY_IMPORT_MOTION_CODE, NULL);
  return TRUE;
}

gboolean
odori_document_remove_show (OdoriDocument  *self,
                            const char     *show_code,
                            GBytes        **previous,
                            GError        **error)
{
  g_autoptr(GBytes) before = NULL;
  char *data = NULL;
  gsize len = 0;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (show_code != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  if (!g_file_get_contents (self->index->path, &data, &len, error))
    return FALSE;
  before = g_bytes_new_take (data, len);
  if (!odori_library_remove_show (self->index->path, show_code, NULL, error))
    return FALSE;
  if (!reload_index (self, error))
    return FALSE;
  if (previous != NULL)
    *previous = g_steal_pointer (&before);
  return TRUE;
}

gboolean
odori_document_restore_index (OdoriDocument  *self,
                              GBytes         *contents,
                              GError        **error)
{
  gsize len;
  const char *data;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!library_path_or_error (self, error))
    return FALSE;
  data = g_bytes_get_data (contents, &len);
  /* g_file_set_contents writes a temporary file and renames it over motion.dat. */
  if (!g_file_set_contents (self->index->path, data, (gssize) len, error))
    return FALSE;
  return reload_index (self, error);
}
