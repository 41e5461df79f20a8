/* odori-document.c: one score with its library and composition: state, save, edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening (in this thread or a worker) is odori-document-open.c; adding and removing
 * the library's shows is odori-document-library.c.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-beats.h"
#include "odori-document-private.h"

G_DEFINE_FINAL_TYPE (OdoriDocument, odori_document, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_odori_document_notify (OdoriDocument *self,
                        guint          prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

GPtrArray *
_odori_copy_diagnostics (GPtrArray *from,
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
effective_blend (int         default_blend,
                 OdoriScore *score)
{
  /* The score's own "# Blend:" wins; the preference is for scores without one. */
  return score->blend >= 0 ? -1 : default_blend;
}

void
_odori_composed_clear (Composed *c)
{
  g_clear_pointer (&c->composer, odori_composer_free);
  g_clear_pointer (&c->skeleton, odori_skeleton_unref);
  g_clear_error (&c->error);
  g_clear_pointer (&c->pose, odori_motion_unref);
  g_clear_pointer (&c->pose_skeleton, odori_skeleton_unref);
  c->motion = NULL;
}

/* The score did not compose: OUT gets the library's first pose instead, as SCORE's
 * tracks without their symbols compose (else the library's own tracks). Any thread. */
static void
compose_pose (const ComposeParams *params,
              OdoriScore          *score,
              OdoriIndex          *index,
              Composed            *out)
{
  for (guint attempt = 0; attempt < 2 && out->pose == NULL && index != NULL; attempt++)
    {
      g_autoptr(OdoriScore) bare = odori_score_new ();
      g_autoptr(OdoriComposer) composer = NULL;
      OdoriMotion *motion;

      if (attempt == 0)
        for (guint i = 0; i < score->parts->len; i++)
          {
            OdoriScorePart *part = g_ptr_array_index (score->parts, i);

            odori_score_add_part (bare, part->code, (const char *const *) part->sensors);
          }
      else
        for (guint i = 0; i < index->parts->len; i++)
          {
            OdoriIndexPart *part = g_ptr_array_index (index->parts, i);

            odori_score_add_part (bare, part->code, (const char *const *) part->map);
          }
      bare->frame_time = score->frame_time;
      composer = odori_composer_new_with_cache (bare, index, params->files, NULL);
      motion = composer != NULL ? odori_composer_compose (composer, NULL) : NULL;
      if (motion == NULL)
        continue;
      out->pose = odori_motion_copy (motion);
      out->pose_skeleton = odori_skeleton_for_motion (out->pose);
    }
}

/* Any thread. */
void
_odori_document_compose (const ComposeParams *params,
                         OdoriScore          *score,
                         OdoriIndex          *index,
                         Composed            *out)
{
  out->composer = odori_composer_new_with_cache (score, index, params->files, &out->error);
  if (out->composer == NULL)
    {
      compose_pose (params, score, index, out);
      return;
    }
  odori_composer_set_blend (out->composer, effective_blend (params->default_blend, score));
  odori_composer_set_root_match (out->composer, params->root_match);
  /* edits follow: keep what makes a root-track move shift frames (docs/composition.md) */
  odori_composer_set_incremental (out->composer, TRUE);
  out->motion = odori_composer_compose (out->composer, &out->error);
  if (out->motion == NULL)
    {
      g_clear_pointer (&out->composer, odori_composer_free);
      compose_pose (params, score, index, out);
      return;
    }
  out->skeleton = odori_skeleton_for_motion (out->motion);
}

/* Parameters of a composition in this thread, against INDEX. */
static ComposeParams
params_for (OdoriDocument *self,
            OdoriIndex    *index)
{
  ComposeParams params = { self->default_blend, self->root_match, self->files };

  /* Another library: its shows are other files (those of the old one stay with their
   * holders until they let go). */
  if (index != self->index)
    odori_motion_cache_clear (self->files);
  return params;
}

/* Takes everything out of C. */
static void
adopt_composed (OdoriDocument *self,
                Composed      *c)
{
  g_clear_pointer (&self->composer, odori_composer_free);
  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  g_clear_error (&self->compose_error);
  g_clear_pointer (&self->pose, odori_motion_unref);
  g_clear_pointer (&self->pose_skeleton, odori_skeleton_unref);
  self->composer = g_steal_pointer (&c->composer);
  self->motion = g_steal_pointer (&c->motion);
  self->skeleton = g_steal_pointer (&c->skeleton);
  self->compose_error = g_steal_pointer (&c->error);
  self->pose = g_steal_pointer (&c->pose);
  self->pose_skeleton = g_steal_pointer (&c->pose_skeleton);
}

/* Brings the composition up to date with the score, quietly: the callers notify. */
static void
recompose (OdoriDocument *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reference = NULL;
  OdoriMotion *motion = NULL;

  if (self->composer != NULL)
    {
      reference = g_strdup (odori_composer_get_reference (self->composer));
      odori_composer_set_blend (self->composer, effective_blend (self->default_blend, self->score));
      odori_composer_set_root_match (self->composer, self->root_match);
      motion = odori_composer_update (self->composer, NULL, &error);
    }
  if (motion != NULL)
    {
      /* A new reference skeleton (another show's actor) may keep the same motion: its
       * sensors are the same, its bone lengths need not be. */
      if (motion != self->motion || self->skeleton == NULL ||
          g_strcmp0 (reference, odori_composer_get_reference (self->composer)) != 0)
        {
          g_clear_pointer (&self->skeleton, odori_skeleton_unref);
          self->skeleton = odori_skeleton_for_motion (motion);
        }
      self->motion = motion;
      g_clear_error (&self->compose_error);
      g_clear_pointer (&self->pose, odori_motion_unref);
      g_clear_pointer (&self->pose_skeleton, odori_skeleton_unref);
    }
  else
    {
      ComposeParams params = params_for (self, self->index);
      Composed c = { 0 };

      /* No composer yet (the score did not compose before), or the update failed:
       * start again from scratch. */
      _odori_document_compose (&params, self->score, self->index, &c);
      adopt_composed (self, &c);
    }
}

static guint
n_frames (OdoriDocument *self)
{
  return self->motion != NULL ? self->motion->n_frames : 0;
}

/* The whole dance changed (another library, another blend…). */
static void
emit_changed_all (OdoriDocument *self)
{
  g_signal_emit (self, signals[CHANGED], 0, 1u, MAX (n_frames (self), 1u), NULL);
}

void
_odori_document_set_dirty (OdoriDocument *self,
                           gboolean       dirty)
{
  dirty = !!dirty;
  if (self->dirty == dirty)
    return;
  self->dirty = dirty;
  _odori_document_notify (self, PROP_DIRTY);
}

/* GObject */

static void
odori_document_finalize (GObject *object)
{
  OdoriDocument *self = ODORI_DOCUMENT (object);

  g_clear_pointer (&self->composer, odori_composer_free);
  g_clear_pointer (&self->skeleton, odori_skeleton_unref);
  g_clear_pointer (&self->shows, g_hash_table_unref);
  g_clear_pointer (&self->files, odori_motion_cache_unref);
  g_clear_pointer (&self->score, odori_score_unref);
  g_clear_pointer (&self->index, odori_index_unref);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_error (&self->compose_error);
  g_clear_pointer (&self->pose, odori_motion_unref);
  g_clear_pointer (&self->pose_skeleton, odori_skeleton_unref);
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
      g_value_set_boxed (value, self->score);
      break;
    case PROP_INDEX:
      g_value_set_boxed (value, self->index);
      break;
    case PROP_MOTION:
      g_value_set_boxed (value, self->motion);
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
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->n_loading > 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_document_class_init (OdoriDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = odori_document_finalize;
  object_class->get_property = odori_document_get_property;

  /* Notified when another score, library or composition takes the place of the old
   * one; edits in place emit "changed" instead. */
  properties[PROP_SCORE] = g_param_spec_boxed ("score", NULL, NULL, ODORI_TYPE_SCORE, ro);
  properties[PROP_INDEX] = g_param_spec_boxed ("index", NULL, NULL, ODORI_TYPE_INDEX, ro);
  properties[PROP_MOTION] = g_param_spec_boxed ("motion", NULL, NULL, ODORI_TYPE_MOTION, ro);
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_DIRTY] = g_param_spec_boolean ("dirty", NULL, NULL, FALSE, ro);
  properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0, ro);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * OdoriDocument::changed:
   * @first_frame: first output frame (1-based) whose pose may have changed
   * @last_frame: the last one (inclusive)
   * @parts: (nullable): codes of the tracks touched, NULL when the whole score changed
   *
   * The score was changed in place (an edit, an undo, another library) and the dance
   * recomposed; emitted once per change, never for a refused edit.
   */
  signals[CHANGED] = g_signal_new ("changed",
                                   G_TYPE_FROM_CLASS (klass),
                                   G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRV);
}

static void
odori_document_init (OdoriDocument *self)
{
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

/* Replaces the whole state with SCORE and INDEX (refs taken) and the composition C. */
void
_odori_document_adopt (OdoriDocument *self,
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
    _odori_copy_diagnostics (diagnostics, self->diagnostics);

  if (g_strcmp0 (self->path, path) != 0)
    {
      g_free (self->path);
      self->path = g_strdup (path);
      _odori_document_notify (self, PROP_PATH);
    }
  self->is_sample = is_sample;
  _odori_document_set_dirty (self, FALSE);

  if (index_changed)
    _odori_document_notify (self, PROP_INDEX);
  _odori_document_notify (self, PROP_SCORE);
  new_title = odori_document_dup_title (self);
  if (g_strcmp0 (old_title, new_title) != 0)
    _odori_document_notify (self, PROP_TITLE);
  _odori_document_notify (self, PROP_MOTION);
}

char *
odori_document_dup_sample_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "odori", "sample", NULL);
}

void
odori_document_set_index (OdoriDocument *self,
                          OdoriIndex    *index)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  g_return_if_fail (index != NULL);

  if (self->index == index)
    return;
  g_hash_table_remove_all (self->shows);
  odori_motion_cache_clear (self->files);
  g_clear_pointer (&self->index, odori_index_unref);
  self->index = odori_index_ref (index);
  /* The composer holds the old index: compose against the new one from scratch. */
  g_clear_pointer (&self->composer, odori_composer_free);
  self->motion = NULL;
  _odori_document_notify (self, PROP_INDEX);
  if (self->score != NULL)
    {
      recompose (self);
      _odori_document_notify (self, PROP_MOTION);
      emit_changed_all (self);
    }
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

/* A music line as a score moved to NEW_DIR writes it: WRITTEN (as written, or NULL for
 * none) when SAME_DIR (it stays valid), else RESOLVED (the file's absolute path) relative
 * to NEW_DIR when the file is in NEW_DIR or below it, else RESOLVED. */
static char *
music_path_for (gboolean    same_dir,
                const char *new_dir,
                const char *written,
                const char *resolved)
{
  gsize n = strlen (new_dir);

  if (written == NULL || resolved == NULL || same_dir)
    return g_strdup (written);
  if (n > 0 && new_dir[n - 1] == G_DIR_SEPARATOR)
    n--;
  if (strncmp (resolved, new_dir, n) == 0 && resolved[n] == G_DIR_SEPARATOR && resolved[n + 1] != '\0')
    return g_strdup (resolved + n + 1);
  return g_strdup (resolved);
}

gboolean
odori_document_save_copy (OdoriDocument  *self,
                          const char     *path,
                          const char     *index_path,
                          GError        **error)
{
  OdoriScore *score;
  char *kept;
  gboolean ok;

  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->score != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* "# Index:" is set for the write only. */
  score = self->score;
  kept = score->index_path;
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
  g_autofree char *old_dir = NULL;
  g_autofree char *abs_old_dir = NULL;
  g_autofree char *abs_music = NULL;
  g_autofree char *abs_beats = NULL;
  g_autofree char *music_path = NULL;
  g_autofree char *beats_path = NULL;
  char            *kept_music, *kept_beats;
  gboolean         same_dir, saved;
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
  /* The music lines follow the score to its new place (an unsaved score's are absolute). */
  old_dir = self->score->path != NULL ? g_path_get_dirname (self->score->path) : NULL;
  abs_old_dir = old_dir != NULL ? g_canonicalize_filename (old_dir, NULL) : NULL;
  same_dir = g_strcmp0 (abs_old_dir, dir) == 0;
  abs_music = odori_score_dup_music_path (self->score);
  abs_beats = odori_score_dup_beats_path (self->score);
  music_path = music_path_for (same_dir, dir, self->score->music.path, abs_music);
  beats_path = music_path_for (same_dir, dir, self->score->music.beats_path, abs_beats);
  kept_music = self->score->music.path;
  kept_beats = self->score->music.beats_path;
  self->score->music.path = music_path;
  self->score->music.beats_path = beats_path;
  saved = odori_document_save_copy (self, abs_path, index_path, error);
  self->score->music.path = kept_music;
  self->score->music.beats_path = kept_beats;
  if (!saved)
    return FALSE;
  g_free (self->score->music.path);
  self->score->music.path = g_steal_pointer (&music_path);
  g_free (self->score->music.beats_path);
  self->score->music.beats_path = g_steal_pointer (&beats_path);

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
      _odori_document_notify (self, PROP_PATH);
    }
  new_title = odori_document_dup_title (self);
  if (g_strcmp0 (old_title, new_title) != 0)
    _odori_document_notify (self, PROP_TITLE);
  _odori_document_set_dirty (self, FALSE);
  return TRUE;
}

void
odori_document_set_origin (OdoriDocument *self,
                           const char    *path,
                           gboolean       is_sample)
{
  g_autofree char *old_title = NULL;
  g_autofree char *new_title = NULL;

  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  g_return_if_fail (self->score != NULL);

  old_title = odori_document_dup_title (self);
  if (path != NULL && path[0] == '\0')
    path = NULL;
  g_free (self->score->path);
  self->score->path = g_strdup (path);
  g_free (self->path);
  self->path = g_strdup (path);
  self->is_sample = is_sample;
  _odori_document_notify (self, PROP_PATH);
  new_title = odori_document_dup_title (self);
  if (g_strcmp0 (old_title, new_title) != 0)
    _odori_document_notify (self, PROP_TITLE);
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

void
odori_document_set_dirty (OdoriDocument *self,
                          gboolean       dirty)
{
  g_return_if_fail (ODORI_IS_DOCUMENT (self));
  _odori_document_set_dirty (self, dirty);
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
  _odori_document_set_dirty (self, TRUE);
  emit_changed_all (self);
}

/* Edits */

/* Codes of the tracks EDIT touches in SCORE (PART_CODE: that of the track inserted or
 * removed), as a GStrv. */
static char **
touched_parts (OdoriScoreEdit *edit,
               OdoriScore     *score,
               const char     *part_code)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GArray *lists[2] = { odori_score_edit_get_removed (edit), odori_score_edit_get_added (edit) };

  if (part_code != NULL)
    g_strv_builder_add (builder, part_code);
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        guint part = g_array_index (lists[l], OdoriScoreEditSymbol, i).part;

        if (part < score->parts->len && g_hash_table_add (seen, GUINT_TO_POINTER (part + 1)))
          g_strv_builder_add (builder, ((OdoriScorePart *) g_ptr_array_index (score->parts, part))->code);
      }
  return g_strv_builder_end (builder);
}

/* The first frame of PART's symbol after START, or 0 when there is none. */
static guint
next_start (OdoriScore *score,
            guint       part,
            guint       start)
{
  OdoriScorePart *p;
  guint i;

  if (part >= score->parts->len)
    return 0;
  p = g_ptr_array_index (score->parts, part);
  i = odori_score_part_lower_bound (p, start + 1);
  return i < p->symbols->len ? g_array_index (p->symbols, OdoriScoreSymbol, i).start : 0;
}

/* The frames whose pose EDIT (just applied) may have changed: from the first symbol it
 * touched to the one after the last, widened by the blend around seams. */
static void
touched_frames (OdoriDocument  *self,
                OdoriScoreEdit *edit,
                guint          *first,
                guint          *last)
{
  GArray *lists[2] = { odori_score_edit_get_removed (edit), odori_score_edit_get_added (edit) };
  guint n = MAX (n_frames (self), 1);
  guint lo = G_MAXUINT, hi = 0;
  int blend;

  *first = 1;
  *last = n;
  if (odori_score_edit_get_part_position (edit) >= 0)
    return;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        const OdoriScoreEditSymbol *s = &g_array_index (lists[l], OdoriScoreEditSymbol, i);
        guint next = next_start (self->score, s->part, s->start);

        lo = MIN (lo, s->start);
        hi = MAX (hi, next > 0 ? next - 1 : n);
      }
  if (hi == 0)
    return; /* a change of blend: every seam */
  blend = self->score->blend >= 0 ? self->score->blend : self->default_blend;
  *first = CLAMP ((gint64) lo - MAX (blend, 0), 1, (gint64) n);
  *last = CLAMP ((gint64) hi + MAX (blend, 0), (gint64) *first, (gint64) n);
}

/* Writes the beat list EDIT leaves (applied FORWARD or reverted) into the score's
 * "# Beats:" file, atomically; TRUE when the edit sets no beat list. */
static gboolean
write_beats (OdoriDocument  *self,
             OdoriScoreEdit *edit,
             gboolean        forward,
             GError        **error)
{
  g_autofree char *path = NULL;
  GArray          *times;

  if (!odori_score_edit_get_sets_beats (edit))
    return TRUE;
  times = odori_score_edit_get_beats (edit, forward);
  path = odori_score_dup_beats_path (self->score);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The score has no beat list"));
      return FALSE;
    }
  return odori_beats_save ((const double *) (void *) times->data, times->len, path, error);
}

/* Applies (FORWARD) or reverts EDIT, recomposes once, emits "changed" once; a refused
 * edit leaves the score and its composition as they were and emits nothing. */
static gboolean
run_edit (OdoriDocument   *self,
          OdoriScoreEdit  *edit,
          gboolean         forward,
          GError         **error)
{
  gboolean composed = self->compose_error == NULL;
  int position = odori_score_edit_get_part_position (edit);
  g_autofree char *old_title = odori_document_dup_title (self);
  g_autofree char *new_title = NULL;
  g_autofree char *part_code = NULL;
  g_auto(GStrv) parts = NULL;
  guint first, last;
  gboolean ok;

  if (self->score == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("There is no score to edit"));
      return FALSE;
    }
  /* A track that goes away is known only before. */
  if (position >= 0 && (guint) position < self->score->parts->len)
    part_code = g_strdup (((OdoriScorePart *) g_ptr_array_index (self->score->parts, position))->code);
  /* The beat list first: the file may refuse, and then nothing has changed. */
  if (!write_beats (self, edit, forward, error))
    return FALSE;
  ok = forward ? odori_score_edit_apply (edit, self->score, error)
               : odori_score_edit_revert (edit, self->score, error);
  if (!ok)
    {
      write_beats (self, edit, !forward, NULL);
      return FALSE;
    }
  recompose (self);
  if (composed && self->compose_error != NULL)
    {
      g_autoptr(GError) why = g_error_copy (self->compose_error);

      /* Taken back: the score composes again as it did. */
      if (forward)
        odori_score_edit_revert (edit, self->score, NULL);
      else
        odori_score_edit_apply (edit, self->score, NULL);
      write_beats (self, edit, !forward, NULL);
      recompose (self);
      g_propagate_error (error, g_steal_pointer (&why));
      return FALSE;
    }
  if (position >= 0 && (guint) position < self->score->parts->len && part_code == NULL)
    part_code = g_strdup (((OdoriScorePart *) g_ptr_array_index (self->score->parts, position))->code);
  parts = touched_parts (edit, self->score, part_code);
  touched_frames (self, edit, &first, &last);
  _odori_document_set_dirty (self, TRUE);
  /* A header edit: the title shown follows "# Title:". */
  new_title = odori_document_dup_title (self);
  if (g_strcmp0 (old_title, new_title) != 0)
    _odori_document_notify (self, PROP_TITLE);
  g_signal_emit (self, signals[CHANGED], 0, first, last, parts);
  return TRUE;
}

gboolean
odori_document_apply_edit (OdoriDocument   *self,
                           OdoriScoreEdit  *edit,
                           GError         **error)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return run_edit (self, edit, TRUE, error);
}

gboolean
odori_document_revert_edit (OdoriDocument   *self,
                            OdoriScoreEdit  *edit,
                            GError         **error)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return run_edit (self, edit, FALSE, error);
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
    {
      recompose (self);
      _odori_document_notify (self, PROP_MOTION);
    }
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
    {
      recompose (self);
      _odori_document_notify (self, PROP_MOTION);
    }
}

OdoriMotion *
odori_document_get_motion (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->motion;
}

OdoriSkeleton *
odori_document_get_skeleton (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->motion != NULL ? self->skeleton : NULL;
}

OdoriMotion *
odori_document_get_shown_motion (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->motion != NULL ? self->motion : self->pose;
}

OdoriSkeleton *
odori_document_get_shown_skeleton (OdoriDocument *self)
{
  g_return_val_if_fail (ODORI_IS_DOCUMENT (self), NULL);
  return self->motion != NULL ? self->skeleton : self->pose_skeleton;
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
