/* odori-inspector.c: the selected symbols' start frame and modifiers, the score's blend
 * and foot lock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A composite widget (ui/odori-inspector.ui) beside the timeline. It follows the
 * timeline's selection and the document. Every change is one undo step: the start frame
 * through the timeline, the rest as one OdoriScoreEdit on the timeline's undo stack
 * (odori_document_apply_edit ()), like any other edit. A modifier is set on every
 * selected symbol at once; a field whose values differ among them shows empty (a spin
 * button) or inconsistent (a check) until it is set. Spin buttons commit on Enter, on
 * leaving them or with their buttons, never on each key typed.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-inspector.h"
#include "odori-score-edit.h"

/* What a control of the inspector sets on the selected symbols. */
typedef enum
{
  FIELD_SPEED,
  FIELD_IN,
  FIELD_OUT,
  FIELD_REPEAT,
  FIELD_BLEND, /* the symbol's own blend, which the change switches on */
  N_SPIN_FIELDS,
  FIELD_MIRROR = N_SPIN_FIELDS,
  FIELD_OWN_BLEND,
} Field;

typedef struct
{
  OdoriInspector *self;
  Field           field;
  GtkSpinButton  *spin;
  gboolean        mixed; /* the selected symbols differ: the spin shows no number */
} SpinField;

/* A selected symbol: borrowed from the score, valid until it changes. */
typedef struct
{
  guint             part;
  OdoriScoreSymbol *symbol;
  guint             n; /* the clip's frames, before the modifiers */
} Selected;

struct _OdoriInspector
{
  GtkBox parent_instance;

  OdoriTimeline *timeline;
  GSignalGroup  *timeline_signals;
  GSignalGroup  *document_signals;
  gboolean       syncing;
  char          *shown_selection; /* the symbols the fields show ("part:start …") */
  SpinField      spins[N_SPIN_FIELDS];

  /* Template children */
  GtkLabel       *title_label;
  GtkLabel       *details_label;
  GtkWidget      *symbol_grid;
  GtkLabel       *start_label;
  GtkSpinButton  *start_spin;
  GtkAdjustment  *start_adjustment;
  GtkSpinButton  *speed_spin;
  GtkSpinButton  *in_spin;
  GtkSpinButton  *out_spin;
  GtkSpinButton  *repeat_spin;
  GtkCheckButton *mirror_check;
  GtkCheckButton *own_blend_check;
  GtkSpinButton  *own_blend_spin;
  GtkLabel       *length_label;
  GtkLabel       *seam_label;
  GtkSpinButton  *blend_spin;
  GtkAdjustment  *blend_adjustment;
  GtkLabel       *blend_note;
  GtkSwitch      *foot_lock_switch;
  GtkLabel       *beat_label;
  GtkAdjustment  *meter_adjustment;
};

G_DEFINE_FINAL_TYPE (OdoriInspector, odori_inspector, GTK_TYPE_BOX)

static OdoriDocument *
get_document (OdoriInspector *self)
{
  return self->timeline ? odori_timeline_get_document (self->timeline) : NULL;
}

static OdoriScore *
get_score (OdoriInspector *self)
{
  OdoriDocument *doc = get_document (self);

  return doc ? odori_document_get_score (doc) : NULL;
}

/* The blend a symbol without its own has: the score's, else the preference. */
static int
score_blend (OdoriInspector *self,
             OdoriScore     *score)
{
  return score->blend >= 0 ? score->blend : odori_timeline_get_default_blend (self->timeline);
}

static GArray *
collect_selected (OdoriInspector *self,
                  OdoriScore     *score)
{
  GArray *selected = g_array_new (FALSE, FALSE, sizeof (Selected));

  if (self->timeline == NULL || odori_timeline_get_n_selected (self->timeline) == 0)
    return selected;
  for (guint p = 0; p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, i);
          Selected          e = { p, s, 0 };

          if (!odori_timeline_is_selected (self->timeline, p, s->start))
            continue;
          e.n = odori_timeline_get_clip_frames (self->timeline, s->symbol);
          g_array_append_val (selected, e);
        }
    }
  return selected;
}

/* What FIELD is for MODS on a clip of N frames, defaults filled in. */
static double
field_value (const OdoriSymbolMods *mods,
             Field                  field,
             guint                  n,
             int                    blend)
{
  guint first, last;

  odori_symbol_mods_trim (mods, n, &first, &last);
  switch (field)
    {
    case FIELD_SPEED:
      return odori_symbol_mods_get_speed (mods);
    case FIELD_IN:
      return first;
    case FIELD_OUT:
      return last;
    case FIELD_REPEAT:
      return odori_symbol_mods_get_repeat (mods);
    case FIELD_BLEND:
      return mods->has_blend ? (double) mods->blend : blend;
    case FIELD_MIRROR:
      return mods->mirror;
    case FIELD_OWN_BLEND:
      return mods->has_blend;
    default:
      g_assert_not_reached ();
    }
}

/* Sets FIELD of MODS (a clip of N frames) to VALUE; a value that is the default becomes
 * no modifier at all, so that the score writes the symbol as before. */
static void
set_field (OdoriSymbolMods *mods,
           Field            field,
           double           value,
           guint            n,
           int              blend)
{
  guint first, last;
  long  v = lround (value);

  odori_symbol_mods_trim (mods, n, &first, &last);
  switch (field)
    {
    case FIELD_SPEED:
      value = CLAMP (round (value * 100) / 100, ODORI_SPEED_MIN, ODORI_SPEED_MAX);
      mods->speed = fabs (value - 1.0) < 1e-9 ? 0 : value;
      break;
    case FIELD_IN:
      v = CLAMP (v, 1, (long) last);
      mods->in = v > 1 ? (guint) v : 0;
      break;
    case FIELD_OUT:
      v = CLAMP (v, (long) first, (long) n);
      mods->out = (guint) v < n ? (guint) v : 0;
      break;
    case FIELD_REPEAT:
      v = CLAMP (v, 1, ODORI_REPEAT_MAX);
      mods->repeat = v > 1 ? (guint) v : 0;
      break;
    case FIELD_BLEND:
      mods->has_blend = TRUE;
      mods->blend = (guint) CLAMP (v, 0, ODORI_BLEND_MAX);
      break;
    case FIELD_MIRROR:
      mods->mirror = v != 0;
      break;
    case FIELD_OWN_BLEND:
      if (v != 0 && !mods->has_blend)
        mods->blend = (guint) CLAMP (blend, 0, ODORI_BLEND_MAX);
      else if (v == 0)
        mods->blend = 0;
      mods->has_blend = v != 0;
      break;
    default:
      g_assert_not_reached ();
    }
}

static const char *
field_label (Field field)
{
  switch (field)
    {
    case FIELD_SPEED:
      return _ ("Change Speed");
    case FIELD_IN:
    case FIELD_OUT:
      return _ ("Trim");
    case FIELD_REPEAT:
      return _ ("Repeat");
    case FIELD_MIRROR:
      return _ ("Mirror");
    case FIELD_BLEND:
    case FIELD_OWN_BLEND:
      return _ ("Change Blend");
    default:
      g_assert_not_reached ();
    }
}

static void sync_all (OdoriInspector *self);

static void
apply (OdoriInspector *self,
       OdoriScoreEdit *edit)
{
  g_autoptr(GError) error = NULL;

  if (odori_score_edit_is_empty (edit))
    {
      odori_score_edit_free (edit);
      sync_all (self);
      return;
    }
  if (!odori_undo_apply (odori_timeline_get_undo (self->timeline), edit, &error))
    {
      /* The window shows why, as for a refused edit in the timeline. */
      g_signal_emit_by_name (self->timeline, "refused", error->message);
      sync_all (self);
    }
}

/* One undo step setting FIELD to VALUE on every selected symbol. The symbols that have
 * it already are in the step too, unchanged, because the timeline selects what a step
 * puts in: the selection stays whole, also after undo and redo. */
static void
change_selected (OdoriInspector *self,
                 Field           field,
                 double          value)
{
  OdoriScore *score = get_score (self);
  g_autoptr(GArray) selected = NULL;
  g_autoptr(GArray) mods = NULL;
  OdoriScoreEdit *edit;
  gboolean        changed = FALSE;
  int             blend;

  if (self->syncing || score == NULL)
    return;
  selected = collect_selected (self, score);
  mods = g_array_sized_new (FALSE, FALSE, sizeof (OdoriSymbolMods), selected->len);
  blend = score_blend (self, score);
  for (guint i = 0; i < selected->len; i++)
    {
      Selected       *e = &g_array_index (selected, Selected, i);
      OdoriSymbolMods m = e->symbol->mods;

      /* (one that has the value already keeps it as the score wrote it) */
      if (fabs (field_value (&m, field, e->n, blend) - value) >= 1e-9)
        set_field (&m, field, value, e->n, blend);
      changed |= !odori_symbol_mods_equal (&m, &e->symbol->mods);
      g_array_append_val (mods, m);
    }
  if (!changed)
    {
      sync_all (self);
      return;
    }
  edit = odori_score_edit_new (field_label (field));
  for (guint i = 0; i < selected->len; i++)
    {
      Selected *e = &g_array_index (selected, Selected, i);

      odori_score_edit_replace_symbol (edit, e->part, e->symbol, e->part, e->symbol->start,
                                       &g_array_index (mods, OdoriSymbolMods, i));
    }
  apply (self, edit);
}

/* Shows VALUE in SPIN, or no number when MIXED. What was typed there and not committed
 * stays while the field shows the same symbols' same value (a late "changed" must not
 * eat it), and goes when they change (FRESH: another selection). */
static void
show_value (SpinField *f,
            double     value,
            gboolean   mixed,
            gboolean   fresh)
{
  GtkAdjustment   *adjustment = gtk_spin_button_get_adjustment (f->spin);
  double           scale = pow (10, gtk_spin_button_get_digits (f->spin));
  g_autofree char *text = NULL;
  gboolean         same;

  /* as shown, so that Enter on what is shown changes nothing (a speed of 0.333 read
   * from a file stays) */
  value = round (value * scale) / scale;
  same = !fresh && mixed == f->mixed && (mixed || fabs (value - gtk_adjustment_get_value (adjustment)) < 1e-9);
  f->mixed = mixed;
  gtk_adjustment_set_value (adjustment, value);
  if (same)
    return;
  /* as GtkSpinButton writes it */
  text = mixed ? g_strdup ("")
               : g_strdup_printf ("%0.*f", (int) gtk_spin_button_get_digits (f->spin),
                                  gtk_adjustment_get_value (adjustment));
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (f->spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (f->spin), text);
}

static void
set_check (GtkCheckButton *check,
           gboolean        active,
           gboolean        mixed)
{
  gtk_check_button_set_inconsistent (check, mixed);
  /* a click on a mixed check sets it on all */
  gtk_check_button_set_active (check, active && !mixed);
}

static char *
format_length (OdoriInspector *self,
               GArray         *selected)
{
  double frame_time = odori_timeline_get_frame_time (self->timeline);
  guint  lo = G_MAXUINT, hi = 0, repeat = 0, copy = 0;

  for (guint i = 0; i < selected->len; i++)
    {
      Selected *e = &g_array_index (selected, Selected, i);
      guint     length = odori_symbol_mods_length (&e->symbol->mods, e->n);

      lo = MIN (lo, length);
      hi = MAX (hi, length);
      repeat = odori_symbol_mods_get_repeat (&e->symbol->mods);
      copy = odori_symbol_mods_copy_frames (&e->symbol->mods, e->n);
    }
  if (lo != hi)
    /* Translators: the selected symbols' shortest and longest length */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Lengths: %u to %u frame", "Lengths: %u to %u frames", hi),
                            lo, hi);
  if (selected->len == 1 && repeat > 1)
    /* Translators: the symbol's length: repeats × frames of one copy = frames (seconds) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Length: %u × %u = %u frame (%.2f s)",
                                         "Length: %u × %u = %u frames (%.2f s)", hi),
                            repeat, copy, hi, hi * frame_time);
  /* Translators: the symbol's length in frames (and seconds) */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Length: %u frame (%.2f s)", "Length: %u frames (%.2f s)", hi),
                          hi, hi * frame_time);
}

/* Hiding or greying the field with the focus would leave GTK's text without its
 * focus-out (GTK warns): the focus goes to FALLBACK (or the timeline) first. */
static void
release_focus (OdoriInspector *self,
               GtkWidget      *widget,
               GtkWidget      *fallback)
{
  GtkRoot   *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  if (focus == NULL || (focus != widget && !gtk_widget_is_ancestor (focus, widget)))
    return;
  if (fallback != NULL && gtk_widget_grab_focus (fallback))
    return;
  if (self->timeline != NULL && gtk_widget_grab_focus (GTK_WIDGET (self->timeline)))
    return;
  gtk_root_set_focus (root, NULL);
}

/* The modifier fields: each one's value when the selected symbols agree, else mixed. */
static void
sync_modifiers (OdoriInspector *self,
                OdoriScore     *score,
                GArray         *selected,
                gboolean        fresh)
{
  double   value[FIELD_OWN_BLEND + 1] = { 0 };
  gboolean mixed[FIELD_OWN_BLEND + 1] = { 0 };
  int      blend = score_blend (self, score);
  guint    max_n = 1;
  gboolean one = selected->len == 1;

  for (guint i = 0; i < selected->len; i++)
    {
      Selected *e = &g_array_index (selected, Selected, i);

      max_n = MAX (max_n, e->n);
      for (Field f = 0; f <= FIELD_OWN_BLEND; f++)
        {
          double v = field_value (&e->symbol->mods, f, e->n, blend);

          if (i == 0)
            value[f] = v;
          else if (fabs (v - value[f]) > 1e-9)
            mixed[f] = TRUE;
        }
    }
  /* In and out within the clip (and each other's, for one symbol). */
  gtk_adjustment_configure (gtk_spin_button_get_adjustment (self->in_spin), value[FIELD_IN], 1,
                            one ? value[FIELD_OUT] : max_n, 1, 10, 0);
  gtk_adjustment_configure (gtk_spin_button_get_adjustment (self->out_spin), value[FIELD_OUT],
                            one ? value[FIELD_IN] : 1, max_n, 1, 10, 0);
  for (Field f = 0; f < N_SPIN_FIELDS; f++)
    show_value (&self->spins[f], value[f], mixed[f], fresh);
  set_check (self->mirror_check, value[FIELD_MIRROR] != 0, mixed[FIELD_MIRROR]);
  set_check (self->own_blend_check, value[FIELD_OWN_BLEND] != 0, mixed[FIELD_OWN_BLEND]);
  /* unchecked: the score's blend, shown */
  if (value[FIELD_OWN_BLEND] == 0 && !mixed[FIELD_OWN_BLEND])
    release_focus (self, GTK_WIDGET (self->own_blend_spin), GTK_WIDGET (self->own_blend_check));
  gtk_widget_set_sensitive (GTK_WIDGET (self->own_blend_spin),
                            value[FIELD_OWN_BLEND] != 0 || mixed[FIELD_OWN_BLEND]);
}

static void
show_nothing_selected (OdoriInspector *self,
                       guint           n)
{
  g_autofree char *title = NULL;

  if (n > 1)
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u symbol selected", "%u symbols selected", n), n);
  else
    title = g_strdup (_ ("No symbol selected"));
  gtk_label_set_text (self->title_label, title);
  if (n > 1)
    gtk_label_set_text (self->details_label, _ ("Drag them, or nudge them with Ctrl+Left and Ctrl+Right."));
  else
    gtk_label_set_text (self->details_label, _ ("Drag a motion from the library onto a track, or click a block."));
  gtk_label_set_text (self->seam_label, "");
}

static void
show_symbol (OdoriInspector   *self,
             OdoriScore       *score,
             guint             track,
             OdoriScoreSymbol *symbol)
{
  OdoriIndex       *index = odori_document_get_index (get_document (self));
  OdoriScorePart   *part = g_ptr_array_index (score->parts, track);
  OdoriIndexMotion *motion = index ? odori_index_lookup (index, symbol->symbol, NULL) : NULL;
  g_autofree char  *title = NULL;
  g_autofree char  *details = NULL;
  g_autofree char  *seam_text = NULL;
  double            jump, clip;
  const char       *from;

  title = g_strdup_printf ("%s  %s", symbol->symbol, motion && motion->name ? motion->name : "");
  gtk_label_set_text (self->title_label, title);
  if (motion != NULL)
    /* Translators: inspector details: track, show (code), frames in the show file, description */
    details = g_strdup_printf (_ ("Track %s · show %s (%s), frames %u–%u of its file\n%s"),
                               part->code, motion->show->name ? motion->show->name : motion->show->code,
                               motion->show->code, motion->first, motion->last, motion->exp ? motion->exp : "");
  else
    details = g_strdup_printf (_ ("Track %s · “%s” is not in the library"), part->code, symbol->symbol);
  gtk_label_set_text (self->details_label, details);
  gtk_adjustment_set_value (self->start_adjustment, symbol->start);
  /* Where it starts in the music's bars and counts, when the score has a beat grid. */
  {
    OdoriBeatGrid   *grid = odori_timeline_get_beat_grid (self->timeline);
    g_autofree char *beat = grid ? odori_beat_grid_format_frame (grid, symbol->start) : NULL;

    gtk_label_set_text (self->beat_label, beat ? beat : "");
    gtk_widget_set_visible (GTK_WIDGET (self->beat_label), beat != NULL);
  }

  /* The seam into this symbol, from the composer's report (as the timeline has it). */
  if (odori_timeline_get_seam (self->timeline, track, symbol->start, &jump, &clip, &from))
    {
      const OdoriSeam seam = { .jump_deg = jump, .clip_max_deg = clip };

      /* Translators: inspector seam line: the jump and the clips' own largest step */
      seam_text = g_strdup_printf (_ ("Seam from %s: jump %.1f°, clips %.1f°%s"), from, jump, clip,
                                   odori_seam_rank (&seam) == ODORI_SEAM_ROUGH ? _ (" — <b>rough</b>") : "");
    }
  gtk_label_set_markup (self->seam_label, seam_text ? seam_text : "");
}

static void
sync_selection (OdoriInspector *self,
                OdoriScore     *score)
{
  g_autoptr(GArray) selected = collect_selected (self, score);
  g_autoptr(GString) key = g_string_new (NULL);
  g_autofree char *length = NULL;
  gboolean         one = selected->len == 1;
  gboolean         fresh;

  for (guint i = 0; i < selected->len; i++)
    g_string_append_printf (key, "%u:%u ", g_array_index (selected, Selected, i).part,
                            g_array_index (selected, Selected, i).symbol->start);
  fresh = g_strcmp0 (key->str, self->shown_selection) != 0;
  g_free (self->shown_selection);
  self->shown_selection = g_string_free (g_steal_pointer (&key), FALSE);

  /* Nothing selected: no fields at all, rather than stale greyed ones. */
  if (selected->len == 0)
    release_focus (self, self->symbol_grid, NULL);
  else if (!one)
    release_focus (self, GTK_WIDGET (self->start_spin), GTK_WIDGET (self->speed_spin));
  gtk_widget_set_visible (self->symbol_grid, selected->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->length_label), selected->len > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->start_spin), one);
  gtk_widget_set_visible (GTK_WIDGET (self->start_label), one);
  gtk_widget_set_visible (GTK_WIDGET (self->start_spin), one);
  if (!one)
    gtk_widget_set_visible (GTK_WIDGET (self->beat_label), FALSE);
  if (one)
    {
      Selected *e = &g_array_index (selected, Selected, 0);

      show_symbol (self, score, e->part, e->symbol);
    }
  else
    show_nothing_selected (self, odori_timeline_get_n_selected (self->timeline));
  if (selected->len == 0)
    return;
  sync_modifiers (self, score, selected, fresh);
  length = format_length (self, selected);
  gtk_label_set_text (self->length_label, length);
}

static void
sync_all (OdoriInspector *self)
{
  OdoriScore *score = get_score (self);

  self->syncing = TRUE;
  if (score == NULL)
    release_focus (self, GTK_WIDGET (self), NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self), score != NULL);
  if (score != NULL)
    {
      sync_selection (self, score);
      gtk_adjustment_set_value (self->blend_adjustment, score_blend (self, score));
      gtk_label_set_text (self->blend_note, score->blend >= 0
                                                ? _ ("Saved in the score (“# Blend:”).")
                                                : _ ("From Preferences: the score has no blend of its own yet."));
      gtk_switch_set_active (self->foot_lock_switch, score->foot_lock > 0);
      gtk_adjustment_set_value (self->meter_adjustment, odori_timeline_get_meter (self->timeline));
    }
  else
    {
      gtk_widget_set_visible (self->symbol_grid, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->length_label), FALSE);
    }
  self->syncing = FALSE;
}

/* A drag's step changes the score before the timeline's selection follows it: synced
 * then, the inspector would find nothing selected, hide its fields and show them again
 * at "selection-changed" a moment later, and each hide and show makes the whole window
 * lay itself out again (#21). The timeline's "selection-changed" after the step syncs. */
static void
on_document_changed_cb (OdoriInspector *self)
{
  if (self->timeline != NULL && odori_timeline_is_dragging_blocks (self->timeline))
    return;
  sync_all (self);
}

static void
on_start_changed_cb (OdoriInspector *self)
{
  guint track, start, value;

  if (self->syncing || self->timeline == NULL ||
      !odori_timeline_get_selected_symbol (self->timeline, &track, &start))
    return;
  value = (guint) gtk_adjustment_get_value (self->start_adjustment);
  if (!odori_timeline_set_symbol_start (self->timeline, track, start, value, NULL))
    sync_all (self);
}

static void
on_blend_changed_cb (OdoriInspector *self)
{
  OdoriScore     *score = get_score (self);
  OdoriScoreEdit *edit;
  int             value;

  if (self->syncing || score == NULL)
    return;
  value = (int) gtk_adjustment_get_value (self->blend_adjustment);
  if (value == score->blend)
    return;
  edit = odori_score_edit_new (_ ("Change Blend"));
  odori_score_edit_set_blend (edit, score->blend, value);
  apply (self, edit);
}

static void
on_foot_lock_changed_cb (OdoriInspector *self)
{
  OdoriScore     *score = get_score (self);
  gboolean        active = gtk_switch_get_active (self->foot_lock_switch);
  OdoriScoreEdit *edit;

  /* (-1, no such line, is off too) */
  if (self->syncing || score == NULL || (score->foot_lock > 0) == active)
    return;
  edit = odori_score_edit_new (_ ("Foot Lock"));
  odori_score_edit_set_foot_lock (edit, score->foot_lock, active ? 1 : 0);
  apply (self, edit);
}

static void
on_meter_changed_cb (OdoriInspector *self)
{
  guint meter = (guint) gtk_adjustment_get_value (self->meter_adjustment);

  if (self->syncing || self->timeline == NULL || meter == odori_timeline_get_meter (self->timeline))
    return;
  if (!odori_timeline_set_meter (self->timeline, meter, NULL))
    sync_all (self);
}

static void
on_spin_value_changed_cb (GtkSpinButton *spin,
                          SpinField     *f)
{
  if (!f->self->syncing)
    change_selected (f->self, f->field, gtk_spin_button_get_value (spin));
}

/* A mixed field shows no number; GtkSpinButton would write the adjustment's. */
static gboolean
on_spin_output_cb (GtkSpinButton *spin,
                   SpinField     *f)
{
  if (!f->mixed)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), "");
  return TRUE;
}

/* A mixed field left empty changes nothing; a number typed into it is set on all the
 * selected symbols, also one that happens to be the adjustment's hidden value (which
 * GtkSpinButton would take for no change). */
static int
on_spin_input_cb (GtkSpinButton *spin,
                  double        *new_value,
                  SpinField     *f)
{
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin);
  const char    *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  char          *end = NULL;
  double         value;

  if (!f->mixed)
    return FALSE;
  *new_value = gtk_adjustment_get_value (adjustment);
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return TRUE;
  value = g_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == text || end == NULL || *end != '\0' || !isfinite (value))
    return GTK_INPUT_ERROR;
  value = CLAMP (value, gtk_adjustment_get_lower (adjustment), gtk_adjustment_get_upper (adjustment));
  if (fabs (value - *new_value) < 1e-9)
    change_selected (f->self, f->field, value);
  *new_value = value;
  return TRUE;
}

static void
on_check_toggled_cb (GtkCheckButton *check,
                     OdoriInspector *self)
{
  Field field = check == self->mirror_check ? FIELD_MIRROR : FIELD_OWN_BLEND;

  if (self->syncing)
    return;
  gtk_check_button_set_inconsistent (check, FALSE);
  change_selected (self, field, gtk_check_button_get_active (check));
}

static void
odori_inspector_dispose (GObject *object)
{
  OdoriInspector *self = ODORI_INSPECTOR (object);

  g_clear_object (&self->timeline_signals);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->timeline);
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_INSPECTOR);
  G_OBJECT_CLASS (odori_inspector_parent_class)->dispose (object);
}

static void
odori_inspector_finalize (GObject *object)
{
  OdoriInspector *self = ODORI_INSPECTOR (object);

  g_free (self->shown_selection);
  G_OBJECT_CLASS (odori_inspector_parent_class)->finalize (object);
}

static void
odori_inspector_class_init (OdoriInspectorClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_inspector_dispose;
  object_class->finalize = odori_inspector_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, details_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, symbol_grid);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, start_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, beat_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, meter_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, start_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, start_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, speed_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, in_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, out_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, repeat_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, mirror_check);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, own_blend_check);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, own_blend_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, length_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, seam_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, blend_spin);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, blend_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, blend_note);
  gtk_widget_class_bind_template_child (widget_class, OdoriInspector, foot_lock_switch);
  gtk_widget_class_set_css_name (widget_class, "odori-inspector");
}

static void
init_spin (OdoriInspector *self,
           Field           field,
           GtkSpinButton  *spin)
{
  SpinField *f = &self->spins[field];

  f->self = self;
  f->field = field;
  f->spin = spin;
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_spin_value_changed_cb), f);
  g_signal_connect (spin, "output", G_CALLBACK (on_spin_output_cb), f);
  g_signal_connect (spin, "input", G_CALLBACK (on_spin_input_cb), f);
}

static void
odori_inspector_init (OdoriInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->timeline_signals = g_signal_group_new (ODORI_TYPE_TIMELINE);
  g_signal_group_connect_object (self->timeline_signals, "selection-changed",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->timeline_signals, "seams-changed",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (sync_all), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "changed",
                                 G_CALLBACK (on_document_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->start_adjustment, "value-changed",
                           G_CALLBACK (on_start_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->meter_adjustment, "value-changed",
                           G_CALLBACK (on_meter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->blend_adjustment, "value-changed",
                           G_CALLBACK (on_blend_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->foot_lock_switch, "notify::active",
                           G_CALLBACK (on_foot_lock_changed_cb), self, G_CONNECT_SWAPPED);
  /* (the spins and checks die with the template, before self) */
  init_spin (self, FIELD_SPEED, self->speed_spin);
  init_spin (self, FIELD_IN, self->in_spin);
  init_spin (self, FIELD_OUT, self->out_spin);
  init_spin (self, FIELD_REPEAT, self->repeat_spin);
  init_spin (self, FIELD_BLEND, self->own_blend_spin);
  g_signal_connect (self->mirror_check, "toggled", G_CALLBACK (on_check_toggled_cb), self);
  g_signal_connect (self->own_blend_check, "toggled", G_CALLBACK (on_check_toggled_cb), self);
  sync_all (self);
}

GtkWidget *
odori_inspector_new (void)
{
  return g_object_new (ODORI_TYPE_INSPECTOR, NULL);
}

void
odori_inspector_set_timeline (OdoriInspector *self,
                              OdoriTimeline  *timeline)
{
  g_return_if_fail (ODORI_IS_INSPECTOR (self));
  g_return_if_fail (timeline == NULL || ODORI_IS_TIMELINE (timeline));

  if (!g_set_object (&self->timeline, timeline))
    return;
  g_signal_group_set_target (self->timeline_signals, timeline);
  g_signal_group_set_target (self->document_signals, get_document (self));
  sync_all (self);
}

GtkSpinButton *
odori_inspector_get_start_spin (OdoriInspector *self)
{
  g_return_val_if_fail (ODORI_IS_INSPECTOR (self), NULL);
  return self->start_spin;
}

GtkSpinButton *
odori_inspector_get_blend_spin (OdoriInspector *self)
{
  g_return_val_if_fail (ODORI_IS_INSPECTOR (self), NULL);
  return self->blend_spin;
}
