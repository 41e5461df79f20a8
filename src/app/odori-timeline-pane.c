/* odori-timeline-pane.c: the timeline with its tool bar and inspector
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tool bar's buttons activate the window's actions (win.undo, win.cut, win.zoom-in,
 * …); the Snap toggle is bound to the timeline's "snap". The pane keeps the
 * status line (selection, or what Ctrl+Z would undo) and the Add Track menu (the parts
 * of the library that have no track yet) up to date with its document and undo stack.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-music-lane.h"
#include "odori-timeline-pane.h"

struct _OdoriTimelinePane
{
  GtkWidget parent_instance;

  OdoriDocument *document;
  GSignalGroup  *document_signals;
  OdoriUndo     *undo;
  GSignalGroup  *undo_signals;

  GMenu             *add_track_section;
  char              *add_track_key; /* the menu's parts, to rebuild it only when they change */
  GMenuModel        *block_menu;
  GtkToggleButton   *snap_button;
  GtkLabel          *timeline_status;
  GtkScrolledWindow *timeline_scroller;
  OdoriTimeline     *timeline;
  OdoriInspector    *inspector;
  OdoriMusicLane    *music_lane; /* a child of the timeline, under its ruler */
};

/* The tracks' room in the scrolled window without music (the .ui's content heights);
 * the music lane adds its own height so that showing it leaves the tracks theirs. */
#define SCROLLER_MIN_HEIGHT 240
#define SCROLLER_MAX_HEIGHT 340

G_DEFINE_FINAL_TYPE (OdoriTimelinePane, odori_timeline_pane, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_UNDO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_status (OdoriTimelinePane *self)
{
  guint            n = odori_timeline_get_n_selected (self->timeline);
  const char      *undo = self->undo ? odori_undo_get_undo_label (self->undo) : NULL;
  g_autofree char *text = NULL;

  if (n > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u symbol selected", "%u symbols selected", n), n);
  else if (undo != NULL)
    /* Translators: timeline status, what Ctrl+Z would undo ("Undo Move") */
    text = g_strdup_printf (_ ("Undo %s with Ctrl+Z"), undo);
  else
    text = g_strdup (_ ("Drag motions from the library onto the tracks"));
  gtk_label_set_text (self->timeline_status, text);
}

/* The parts of the library that have no track yet. Every edit of the score asks (a drag
 * many times a second); the menu is rebuilt only when that list changes, since a new
 * menu model makes GTK rebuild the popover's widgets (#21). */
static void
rebuild_add_track_menu (OdoriTimelinePane *self)
{
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  OdoriScore *score = self->document ? odori_document_get_score (self->document) : NULL;
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autoptr(GString) key = g_string_new ("|");

  for (guint i = 0; index != NULL && score != NULL && i < index->parts->len; i++)
    {
      OdoriIndexPart *part = g_ptr_array_index (index->parts, i);
      gboolean        present = FALSE;

      for (guint t = 0; t < score->parts->len && !present; t++)
        present = g_strcmp0 (((OdoriScorePart *) g_ptr_array_index (score->parts, t))->code, part->code) == 0;
      if (present)
        continue;
      g_ptr_array_add (missing, part);
      g_string_append_printf (key, "%s\t%s|", part->code, part->name ? part->name : "");
    }
  if (g_strcmp0 (self->add_track_key, key->str) == 0)
    return;
  g_free (self->add_track_key);
  self->add_track_key = g_string_free (g_steal_pointer (&key), FALSE);

  g_menu_remove_all (self->add_track_section);
  for (guint i = 0; i < missing->len; i++)
    {
      OdoriIndexPart  *part = g_ptr_array_index (missing, i);
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      /* Translators: add-track menu item, "LA 左腕 Left arm" */
      label = g_strdup_printf (_ ("%s  %s"), part->code, part->name ? part->name : "");
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.add-track", g_variant_new_string (part->code));
      g_menu_append_item (self->add_track_section, item);
    }
  if (missing->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_ ("Every body part has its track"), "win.no-track");

      g_menu_append_item (self->add_track_section, item);
    }
}

/* GObject */

static void
odori_timeline_pane_dispose (GObject *object)
{
  OdoriTimelinePane *self = ODORI_TIMELINE_PANE (object);
  GtkWidget         *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_TIMELINE_PANE);
  /* GTK 4.8 only drops the bound children: unparent the others too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->undo_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->undo);
  g_clear_pointer (&self->add_track_key, g_free);
  G_OBJECT_CLASS (odori_timeline_pane_parent_class)->dispose (object);
}

static void
odori_timeline_pane_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  OdoriTimelinePane *self = ODORI_TIMELINE_PANE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_UNDO:
      g_value_set_object (value, self->undo);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_timeline_pane_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  OdoriTimelinePane *self = ODORI_TIMELINE_PANE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      odori_timeline_pane_set_document (self, g_value_get_object (value));
      break;
    case PROP_UNDO:
      odori_timeline_pane_set_undo (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_timeline_pane_class_init (OdoriTimelinePaneClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_timeline_pane_dispose;
  object_class->get_property = odori_timeline_pane_get_property;
  object_class->set_property = odori_timeline_pane_set_property;

  properties[PROP_DOCUMENT] =
      g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNDO] =
      g_param_spec_object ("undo", NULL, NULL, ODORI_TYPE_UNDO,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  odori_resources_ensure ();
  g_type_ensure (ODORI_TYPE_TIMELINE);
  g_type_ensure (ODORI_TYPE_INSPECTOR);
  g_type_ensure (ODORI_TYPE_MUSIC_LANE);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-timeline-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, add_track_section);
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, block_menu);
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, snap_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, timeline_status);
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, timeline);
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, inspector);
  gtk_widget_class_bind_template_child (widget_class, OdoriTimelinePane, timeline_scroller);
  gtk_widget_class_set_css_name (widget_class, "odori-timeline-pane");
}

static void
on_lane_visible_cb (OdoriTimelinePane *self)
{
  int lane = 0;

  if (gtk_widget_get_visible (GTK_WIDGET (self->music_lane)))
    gtk_widget_measure (GTK_WIDGET (self->music_lane), GTK_ORIENTATION_VERTICAL, -1, NULL, &lane, NULL, NULL);
  /* GTK refuses a minimum above the maximum: grow the maximum first, shrink it last. */
  if (SCROLLER_MAX_HEIGHT + lane > gtk_scrolled_window_get_max_content_height (self->timeline_scroller))
    {
      gtk_scrolled_window_set_max_content_height (self->timeline_scroller, SCROLLER_MAX_HEIGHT + lane);
      gtk_scrolled_window_set_min_content_height (self->timeline_scroller, SCROLLER_MIN_HEIGHT + lane);
    }
  else
    {
      gtk_scrolled_window_set_min_content_height (self->timeline_scroller, SCROLLER_MIN_HEIGHT + lane);
      gtk_scrolled_window_set_max_content_height (self->timeline_scroller, SCROLLER_MAX_HEIGHT + lane);
    }
}

static void
odori_timeline_pane_init (OdoriTimelinePane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  odori_timeline_set_context_menu (self->timeline, self->block_menu);
  /* The music lane lives in the timeline, between the ruler and the tracks. */
  self->music_lane = ODORI_MUSIC_LANE (odori_music_lane_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->music_lane), FALSE);
  odori_timeline_set_lane (self->timeline, GTK_WIDGET (self->music_lane));
  odori_music_lane_set_timeline (self->music_lane, self->timeline);
  g_signal_connect_object (self->music_lane, "notify::visible", G_CALLBACK (on_lane_visible_cb),
                           self, G_CONNECT_SWAPPED);
  g_object_bind_property (self->snap_button, "active", self->timeline, "snap",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->timeline, "selection-changed", G_CALLBACK (update_status),
                           self, G_CONNECT_SWAPPED);

  self->undo_signals = g_signal_group_new (ODORI_TYPE_UNDO);
  g_signal_group_connect_object (self->undo_signals, "notify::can-undo",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->undo_signals, "notify::can-redo",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->undo_signals, "edit-done",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);

  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (rebuild_add_track_menu), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "changed",
                                 G_CALLBACK (rebuild_add_track_menu), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::index",
                                 G_CALLBACK (rebuild_add_track_menu), self, G_CONNECT_SWAPPED);
  rebuild_add_track_menu (self);
  update_status (self);
}

GtkWidget *
odori_timeline_pane_new (void)
{
  return g_object_new (ODORI_TYPE_TIMELINE_PANE, NULL);
}

/**
 * odori_timeline_pane_get_document:
 *
 * Returns: (transfer none) (nullable): the document the pane shows
 */
OdoriDocument *
odori_timeline_pane_get_document (OdoriTimelinePane *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE_PANE (self), NULL);
  return self->document;
}

void
odori_timeline_pane_set_document (OdoriTimelinePane *self,
                                  OdoriDocument     *document)
{
  g_return_if_fail (ODORI_IS_TIMELINE_PANE (self));
  g_return_if_fail (document == NULL || ODORI_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  rebuild_add_track_menu (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/**
 * odori_timeline_pane_get_undo:
 *
 * Returns: (transfer none) (nullable): the undo stack the timeline edits through
 */
OdoriUndo *
odori_timeline_pane_get_undo (OdoriTimelinePane *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE_PANE (self), NULL);
  return self->undo;
}

void
odori_timeline_pane_set_undo (OdoriTimelinePane *self,
                              OdoriUndo         *undo)
{
  g_return_if_fail (ODORI_IS_TIMELINE_PANE (self));
  g_return_if_fail (undo == NULL || ODORI_IS_UNDO (undo));

  if (!g_set_object (&self->undo, undo))
    return;
  g_signal_group_set_target (self->undo_signals, undo);
  odori_timeline_set_undo (self->timeline, undo);
  odori_music_lane_set_undo (self->music_lane, undo);
  /* The inspector finds the document through the timeline's undo stack: hand it the
   * timeline again so that it follows the new one. */
  odori_inspector_set_timeline (self->inspector, NULL);
  odori_inspector_set_timeline (self->inspector, self->timeline);
  update_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNDO]);
}

/**
 * odori_timeline_pane_get_timeline:
 *
 * Returns: (transfer none): the pane's timeline
 */
OdoriTimeline *
odori_timeline_pane_get_timeline (OdoriTimelinePane *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE_PANE (self), NULL);
  return self->timeline;
}

/**
 * odori_timeline_pane_get_inspector:
 *
 * Returns: (transfer none): the inspector beside the timeline
 */
OdoriInspector *
odori_timeline_pane_get_inspector (OdoriTimelinePane *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE_PANE (self), NULL);
  return self->inspector;
}

/**
 * odori_timeline_pane_get_music_lane:
 *
 * Returns: (transfer none): the music lane, under the timeline's ruler and above its
 *   tracks
 */
OdoriMusicLane *
odori_timeline_pane_get_music_lane (OdoriTimelinePane *self)
{
  g_return_val_if_fail (ODORI_IS_TIMELINE_PANE (self), NULL);
  return self->music_lane;
}
