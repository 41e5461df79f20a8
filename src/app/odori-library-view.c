/* odori-library-view.c: the motion library browser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GtkTreeListModel over the library's class items, every level filtered by one
 * GtkCustomFilter, in a GtkListView with GtkTreeExpander rows (sysprof-callgraph-view).
 * The tree is built once per library; a search only tells the filter it changed.
 * Activating a motion (double-click, Enter) asks for its preview; rows are drag sources
 * carrying the motion (the item and its score symbol as text). A right click, the Menu key
 * or Shift+F10 opens a row's menu: Preview on a motion; Rename Show… (a popover with the
 * name, then win.rename-show) and Remove Show… (win.remove-show) on a show.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "odori-library-view.h"

/* Libraries up to this many motions open fully expanded. */
#define AUTOEXPAND_MAX_MOTIONS 200

struct _OdoriLibraryView
{
  GtkWidget           parent_instance;

  OdoriDocument      *document;
  GSignalGroup       *document_signals;

  GListModel         *library;       /* OdoriLibraryItem classes */
  GtkFilter          *filter;
  GtkTreeListModel   *rows;
  GtkSingleSelection *selection;
  char               *needle;        /* folded search text */
  guint               n_motions;
  gboolean            setting_text;

  GtkSearchEntry     *search_entry;
  GtkListView        *list_view;
  GtkLabel           *empty_label;
  GtkLabel           *details_title;
  GtkGrid            *details_grid;
  GtkLabel           *code_label;
  GtkLabel           *frames_label;
  GtkLabel           *seconds_label;
  GtkLabel           *description_label;
  GtkButton          *preview_button;
  GtkButton          *remove_show_button;
  GtkPopover         *rename_popover;
  GtkEntry           *rename_entry;
  GtkLabel           *rename_error;
  GtkButton          *rename_button;

  GtkPopover         *row_menu;      /* a GtkPopoverMenu, the row's context menu */
  OdoriLibraryItem   *menu_item;     /* the row it was opened on */
  GdkRectangle        row_rect;      /* its row, in the view's coordinates */
  char               *rename_code;   /* the show being renamed */
};

G_DEFINE_FINAL_TYPE (OdoriLibraryView, odori_library_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

enum {
  PREVIEW_MOTION,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  OdoriLibraryView *self = user_data;

  return odori_library_item_matches_deep (item, self->needle);
}

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  OdoriLibraryView *self = user_data;
  GListModel *children = odori_library_item_get_children (item);

  if (children == NULL)
    return NULL;
  return G_LIST_MODEL (gtk_filter_list_model_new (g_object_ref (children), g_object_ref (self->filter)));
}

static guint
count_motions (GListModel *classes)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (classes); i++)
    {
      g_autoptr(OdoriLibraryItem) klass = g_list_model_get_item (classes, i);
      GListModel *shows = odori_library_item_get_children (klass);

      for (guint j = 0; j < g_list_model_get_n_items (shows); j++)
        {
          g_autoptr(OdoriLibraryItem) show = g_list_model_get_item (shows, j);

          n += g_list_model_get_n_items (odori_library_item_get_children (show));
        }
    }
  return n;
}

static gboolean
is_searching (OdoriLibraryView *self)
{
  return self->needle != NULL && self->needle[0] != '\0';
}

static void
update_empty_label (OdoriLibraryView *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label),
                          self->rows != NULL && g_list_model_get_n_items (G_LIST_MODEL (self->rows)) == 0);
}

/* Every row open (a search shows all its matches), or only the classes (a big library
 * without a search): what a tree made afresh with or without autoexpand shows. */
static void
set_all_expanded (OdoriLibraryView *self,
                  gboolean          expanded)
{
  GListModel *rows = G_LIST_MODEL (self->rows);

  if (expanded)
    {
      /* Rows opened add rows below them, which the loop reaches in turn. */
      for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);

          gtk_tree_list_row_set_expanded (row, TRUE);
        }
      return;
    }
  for (guint i = g_list_model_get_n_items (rows); i > 0; i--)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i - 1);

      if (gtk_tree_list_row_get_depth (row) == 0)
        gtk_tree_list_row_set_expanded (row, FALSE);
    }
}

/* The library changed: a new tree over it. */
static void
rebuild_rows (OdoriLibraryView *self)
{
  GListModel *root;

  if (self->library == NULL)
    {
      g_clear_object (&self->rows);
      gtk_single_selection_set_model (self->selection, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->empty_label), FALSE);
      return;
    }
  root = G_LIST_MODEL (gtk_filter_list_model_new (g_object_ref (self->library), g_object_ref (self->filter)));
  g_clear_object (&self->rows);
  self->rows = gtk_tree_list_model_new (root, FALSE,
                                        is_searching (self) || self->n_motions <= AUTOEXPAND_MAX_MOTIONS,
                                        create_children_cb, self, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->rows));
  update_empty_label (self);
}

/* The search changed: the same tree, filtered again (every level shares the filter). */
static void
refilter_rows (OdoriLibraryView *self,
               GtkFilterChange   change)
{
  gboolean expand = is_searching (self) || self->n_motions <= AUTOEXPAND_MAX_MOTIONS;

  if (self->rows == NULL)
    return;
  gtk_tree_list_model_set_autoexpand (self->rows, expand);
  gtk_filter_changed (self->filter, change);
  set_all_expanded (self, expand);
  /* As a new tree would: nothing stays selected. */
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  update_empty_label (self);
}

static void
reload_library (OdoriLibraryView *self)
{
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;

  /* A menu or a rename open on a row of the old library closes. */
  if (self->row_menu != NULL)
    gtk_popover_popdown (self->row_menu);
  if (self->rename_popover != NULL)
    gtk_popover_popdown (self->rename_popover);
  g_clear_object (&self->menu_item);
  g_clear_object (&self->library);
  self->n_motions = 0;
  if (index != NULL)
    {
      self->library = odori_library_model_new (index);
      self->n_motions = count_motions (self->library);
    }
  rebuild_rows (self);
}

static void
on_index_changed_cb (OdoriLibraryView *self)
{
  reload_library (self);
}

static OdoriLibraryItem *
item_of_row (gpointer row)
{
  if (!GTK_IS_TREE_LIST_ROW (row))
    return NULL;
  return gtk_tree_list_row_get_item (row);
}

static char *
format_seconds (double seconds)
{
  /* Translators: a duration in seconds */
  return g_strdup_printf (_("%.2f s"), seconds);
}

static void
show_details (OdoriLibraryView *self,
              OdoriLibraryItem *item)
{
  OdoriLibraryItemKind kind = item ? odori_library_item_get_kind (item) : ODORI_LIBRARY_ITEM_CLASS;
  gboolean is_motion = item != NULL && kind == ODORI_LIBRARY_ITEM_MOTION;
  const char *description = item ? odori_library_item_get_description (item) : NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->details_grid), item != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->preview_button), is_motion);
  /* Remove Show acts on the selected show, or the show of the selected motion. */
  gtk_widget_set_visible (GTK_WIDGET (self->remove_show_button), item != NULL && kind != ODORI_LIBRARY_ITEM_CLASS);
  if (item != NULL && kind != ODORI_LIBRARY_ITEM_CLASS)
    gtk_actionable_set_action_target (GTK_ACTIONABLE (self->remove_show_button), "s",
                                      odori_library_item_get_show (item)->code);
  if (item == NULL)
    {
      gtk_label_set_text (self->details_title, _("Select a motion"));
      gtk_label_set_text (self->description_label, "");
      return;
    }
  gtk_label_set_text (self->details_title, odori_library_item_get_name (item));
  gtk_label_set_text (self->description_label, description ? description : "");
  if (is_motion)
    {
      OdoriIndexMotion *motion = odori_library_item_get_motion (item);
      OdoriIndexShow *show = odori_library_item_get_show (item);
      g_autofree char *symbol = odori_library_item_dup_symbol (item);
      g_autofree char *frames = NULL;
      g_autoptr(GError) error = NULL;
      guint n = motion->last - motion->first + 1;
      OdoriMotion *file = odori_document_load_show (self->document, show, &error);

      gtk_label_set_text (self->code_label, symbol);
      /* Translators: "81 (frames 1–81 of te.bva)" */
      frames = g_strdup_printf (_("%u (frames %u–%u of %s)"), n, motion->first, motion->last, show->file);
      gtk_label_set_text (self->frames_label, frames);
      if (file != NULL)
        {
          g_autofree char *seconds = format_seconds (n * file->frame_time);

          gtk_label_set_text (self->seconds_label, seconds);
        }
      else
        gtk_label_set_text (self->seconds_label, error->message);
    }
  else
    {
      GListModel *children = odori_library_item_get_children (item);
      guint n = children ? g_list_model_get_n_items (children) : 0;
      g_autofree char *count = NULL;

      gtk_label_set_text (self->code_label, odori_library_item_get_code (item));
      if (kind == ODORI_LIBRARY_ITEM_CLASS)
        count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u show", "%u shows", n), n);
      else
        count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u motion", "%u motions", n), n);
      gtk_label_set_text (self->frames_label, count);
      gtk_label_set_text (self->seconds_label,
                          kind == ODORI_LIBRARY_ITEM_SHOW ? odori_library_item_get_show (item)->file : "");
    }
}

static void
on_selection_changed_cb (OdoriLibraryView *self)
{
  g_autoptr(OdoriLibraryItem) item = odori_library_view_dup_selected (self);

  show_details (self, item);
}

static void
on_search_changed_cb (OdoriLibraryView *self)
{
  if (self->setting_text)
    return;
  odori_library_view_set_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
on_stop_search_cb (OdoriLibraryView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
}

static void
request_preview (OdoriLibraryView *self,
                 OdoriLibraryItem *item)
{
  if (item != NULL && odori_library_item_get_kind (item) == ODORI_LIBRARY_ITEM_MOTION)
    g_signal_emit (self, signals[PREVIEW_MOTION], 0, item);
}

static void
on_list_activate_cb (OdoriLibraryView *self,
                     guint             position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  g_autoptr(OdoriLibraryItem) item = item_of_row (row);

  if (item == NULL)
    return;
  if (odori_library_item_get_kind (item) == ODORI_LIBRARY_ITEM_MOTION)
    request_preview (self, item);
  else
    gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
}

static void
on_preview_clicked_cb (OdoriLibraryView *self)
{
  g_autoptr(OdoriLibraryItem) item = odori_library_view_dup_selected (self);

  request_preview (self, item);
}

/* Row menu */

static GMenuModel *
row_menu_model (OdoriLibraryItem *item)
{
  OdoriLibraryItemKind kind = odori_library_item_get_kind (item);
  g_autoptr(GMenu) menu = g_menu_new ();

  if (kind == ODORI_LIBRARY_ITEM_MOTION)
    g_menu_append (menu, _("_Preview"), "library.preview");
  else if (kind == ODORI_LIBRARY_ITEM_SHOW)
    {
      const char *code = odori_library_item_get_show (item)->code;
      g_autoptr(GMenuItem) rename = g_menu_item_new (_("Re_name Show…"), NULL);
      g_autoptr(GMenuItem) remove = g_menu_item_new (_("Re_move Show…"), NULL);

      g_menu_item_set_action_and_target (rename, "library.rename-show", "s", code);
      g_menu_item_set_action_and_target (remove, "win.remove-show", "s", code);
      g_menu_append_item (menu, rename);
      g_menu_append_item (menu, remove);
    }
  else
    return NULL;
  return G_MENU_MODEL (g_steal_pointer (&menu));
}

/* The rectangle of WIDGET in the view's coordinates. */
static GdkRectangle
rect_of_widget (OdoriLibraryView *self,
                GtkWidget        *widget)
{
  graphene_rect_t bounds;
  GdkRectangle rect = { 0, 0, 1, 1 };

  if (gtk_widget_compute_bounds (widget, GTK_WIDGET (self), &bounds))
    {
      rect.x = (int) bounds.origin.x;
      rect.y = (int) bounds.origin.y;
      rect.width = MAX (1, (int) bounds.size.width);
      rect.height = MAX (1, (int) bounds.size.height);
    }
  return rect;
}

/* Opens ITEM's menu, shown by the row EXPANDER, pointing at RECT (the view's
 * coordinates). */
static void
open_row_menu (OdoriLibraryView   *self,
               OdoriLibraryItem   *item,
               GtkWidget          *expander,
               const GdkRectangle *rect)
{
  g_autoptr(GMenuModel) model = row_menu_model (item);

  if (model == NULL)
    return;
  g_set_object (&self->menu_item, item);
  self->row_rect = rect_of_widget (self, expander);
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_menu), model);
  gtk_popover_set_pointing_to (self->row_menu, rect);
  gtk_popover_popup (self->row_menu);
}

static void
select_row (OdoriLibraryView *self,
            GtkTreeListRow   *row)
{
  guint position = gtk_tree_list_row_get_position (row);

  if (gtk_single_selection_get_selected (self->selection) != position)
    gtk_single_selection_set_selected (self->selection, position);
}

static void
on_row_pressed_cb (GtkGestureClick  *gesture,
                   int               n_press,
                   double            x,
                   double            y,
                   OdoriLibraryView *self)
{
  GtkWidget *expander = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkTreeListRow *row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander));

  if (row == NULL)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  select_row (self, row);
}

/* The menu opens on the release: opened on the press, the popup (which takes the pointer)
 * would get the release, outside its content, and close at once. */
static void
on_row_released_cb (GtkGestureClick  *gesture,
                    int               n_press,
                    double            x,
                    double            y,
                    OdoriLibraryView *self)
{
  GtkWidget *expander = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  g_autoptr(OdoriLibraryItem) item = gtk_tree_expander_get_item (GTK_TREE_EXPANDER (expander));
  graphene_point_t at;
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  if (item == NULL)
    return;
  if (gtk_widget_compute_point (expander, GTK_WIDGET (self), &GRAPHENE_POINT_INIT ((float) x, (float) y), &at))
    {
      rect.x = (int) at.x;
      rect.y = (int) at.y;
    }
  open_row_menu (self, item, expander, &rect);
}

/* The expander of the row that has the keyboard focus, else of the selected row shown. */
static GtkWidget *
focused_row_expander (OdoriLibraryView *self)
{
  GtkWidget *list = GTK_WIDGET (self->list_view);
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (list));
  guint selected = gtk_single_selection_get_selected (self->selection);

  for (GtkWidget *w = focus; w != NULL && w != list; w = gtk_widget_get_parent (w))
    if (gtk_widget_get_parent (w) == list && GTK_IS_TREE_EXPANDER (gtk_widget_get_first_child (w)))
      return gtk_widget_get_first_child (w);
  for (GtkWidget *w = gtk_widget_get_first_child (list); w != NULL; w = gtk_widget_get_next_sibling (w))
    {
      GtkWidget *expander = gtk_widget_get_first_child (w);
      GtkTreeListRow *row;

      if (!GTK_IS_TREE_EXPANDER (expander))
        continue;
      row = gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander));
      if (row != NULL && gtk_tree_list_row_get_position (row) == selected)
        return expander;
    }
  return NULL;
}

/* library.context-menu (Menu, Shift+F10): the focused row's menu. */
static void
context_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (widget);
  GtkWidget *expander = focused_row_expander (self);
  GtkTreeListRow *row = expander ? gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander)) : NULL;
  g_autoptr(OdoriLibraryItem) item = NULL;
  GdkRectangle rect;

  if (row == NULL)
    return;
  item = gtk_tree_list_row_get_item (row);
  select_row (self, row);
  /* Below the row's start, as a menu opened by a click on it would be. */
  rect = rect_of_widget (self, expander);
  rect.x += 24;
  rect.width = 1;
  open_row_menu (self, item, expander, &rect);
}

static void
preview_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (widget);

  request_preview (self, self->menu_item);
}

/* Rename Show */

/* NULL when NAME can be a show's name, else why not. */
static const char *
check_show_name (const char *name)
{
  g_autofree char *stripped = g_strstrip (g_strdup (name));

  if (stripped[0] == '\0')
    return _("A show needs a name");
  if (strpbrk (stripped, "\n\r") != NULL)
    return _("A show’s name is one line");
  return NULL;
}

static void
on_rename_changed_cb (OdoriLibraryView *self)
{
  const char *why = check_show_name (gtk_editable_get_text (GTK_EDITABLE (self->rename_entry)));

  gtk_label_set_text (self->rename_error, why ? why : "");
  gtk_widget_set_visible (GTK_WIDGET (self->rename_error), why != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rename_button), why == NULL);
}

/* library.rename-show("CODE"): asks for the show's new name. */
static void
rename_show_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (widget);
  const char *code = g_variant_get_string (param, NULL);
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  OdoriIndexShow *show = index ? odori_index_find_show (index, code) : NULL;

  if (show == NULL)
    return;
  g_free (self->rename_code);
  self->rename_code = g_strdup (show->code);
  gtk_editable_set_text (GTK_EDITABLE (self->rename_entry), show->name ? show->name : show->code);
  on_rename_changed_cb (self);
  /* Below the row, which stays in sight. */
  gtk_popover_set_pointing_to (self->rename_popover, &self->row_rect);
  gtk_popover_popup (self->rename_popover);
  gtk_widget_grab_focus (GTK_WIDGET (self->rename_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->rename_entry), 0, -1);
}

/* Enter in the name, or the Rename button. */
static void
on_rename_confirm_cb (OdoriLibraryView *self)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->rename_entry))));
  g_autofree char *code = g_strdup (self->rename_code);
  OdoriIndex *index = self->document ? odori_document_get_index (self->document) : NULL;
  OdoriIndexShow *show = index && code ? odori_index_find_show (index, code) : NULL;

  if (check_show_name (name) != NULL || code == NULL)
    return;
  gtk_popover_popdown (self->rename_popover);
  /* The same name: nothing to write, nothing to undo. */
  if (show != NULL && g_strcmp0 (show->name, name) == 0)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.rename-show", "(ss)", code, name);
}

/* Rows */

static GdkContentProvider *
on_drag_prepare_cb (GtkDragSource *source,
                    double         x,
                    double         y,
                    gpointer       user_data)
{
  GtkWidget *expander = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  g_autoptr(OdoriLibraryItem) item = gtk_tree_expander_get_item (GTK_TREE_EXPANDER (expander));
  g_autofree char *symbol = NULL;
  GdkContentProvider *providers[2];

  if (item == NULL || odori_library_item_get_kind (item) != ODORI_LIBRARY_ITEM_MOTION)
    return NULL;
  symbol = odori_library_item_dup_symbol (item);
  providers[0] = gdk_content_provider_new_typed (ODORI_TYPE_LIBRARY_ITEM, item);
  providers[1] = gdk_content_provider_new_typed (G_TYPE_STRING, symbol);
  return gdk_content_provider_new_union (providers, G_N_ELEMENTS (providers));
}

static void
on_drag_begin_cb (GtkDragSource *source,
                  GdkDrag       *drag,
                  gpointer       user_data)
{
  GtkWidget *expander = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)));

  gtk_drag_source_set_icon (source, paintable, 0, 0);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *code = gtk_label_new (NULL);
  GtkDragSource *drag = gtk_drag_source_new ();

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_add_css_class (code, "dim-label");
  gtk_widget_add_css_class (code, "motion-code");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), code);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);

  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_row_pressed_cb), user_data);
  g_signal_connect (click, "released", G_CALLBACK (on_row_released_cb), user_data);
  gtk_widget_add_controller (expander, GTK_EVENT_CONTROLLER (click));

  /* Move too: GTK offers it when Shift is held, the timeline's "on every track". */
  gtk_drag_source_set_actions (drag, GDK_ACTION_COPY | GDK_ACTION_MOVE);
  g_signal_connect (drag, "prepare", G_CALLBACK (on_drag_prepare_cb), NULL);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin_cb), NULL);
  gtk_widget_add_controller (expander, GTK_EVENT_CONTROLLER (drag));

  gtk_list_item_set_child (list_item, expander);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *code = gtk_widget_get_last_child (box);
  g_autoptr(OdoriLibraryItem) item = gtk_tree_list_row_get_item (row);
  OdoriLibraryItemKind kind = odori_library_item_get_kind (item);
  const char *description = odori_library_item_get_description (item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_text (GTK_LABEL (name), odori_library_item_get_name (item));
  gtk_label_set_text (GTK_LABEL (code), odori_library_item_get_code (item));
  gtk_widget_set_tooltip_text (box, description);
  if (kind == ODORI_LIBRARY_ITEM_CLASS)
    gtk_widget_add_css_class (name, "library-class");
  else
    gtk_widget_remove_css_class (name, "library-class");
  if (kind == ODORI_LIBRARY_ITEM_SHOW)
    gtk_widget_add_css_class (name, "library-show");
  else
    gtk_widget_remove_css_class (name, "library-show");
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), NULL);
}

/* GObject */

static void
odori_library_view_dispose (GObject *object)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (object);
  GtkWidget *child;

  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_LIBRARY_VIEW);
  /* GTK 4.8 only drops the bound children: unparent the others too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->row_menu = NULL;
  g_clear_object (&self->menu_item);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->library);
  g_clear_object (&self->filter);
  G_OBJECT_CLASS (odori_library_view_parent_class)->dispose (object);
}

static void
odori_library_view_finalize (GObject *object)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (object);

  g_free (self->needle);
  g_free (self->rename_code);
  G_OBJECT_CLASS (odori_library_view_parent_class)->finalize (object);
}

static void
odori_library_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_library_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  OdoriLibraryView *self = ODORI_LIBRARY_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      odori_library_view_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_library_view_class_init (OdoriLibraryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_library_view_dispose;
  object_class->finalize = odori_library_view_finalize;
  object_class->get_property = odori_library_view_get_property;
  object_class->set_property = odori_library_view_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A motion was double-clicked (or Enter, or Preview): show it alone. */
  signals[PREVIEW_MOTION] = g_signal_new ("preview-motion",
                                          G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, ODORI_TYPE_LIBRARY_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-library-view.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, list_view);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, details_title);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, details_grid);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, code_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, frames_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, seconds_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, description_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, preview_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, remove_show_button);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_list_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_preview_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, rename_popover);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, rename_entry);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, rename_error);
  gtk_widget_class_bind_template_child (widget_class, OdoriLibraryView, rename_button);
  gtk_widget_class_bind_template_callback (widget_class, on_rename_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_rename_confirm_cb);

  gtk_widget_class_install_action (widget_class, "library.context-menu", NULL, context_menu_action);
  gtk_widget_class_install_action (widget_class, "library.preview", NULL, preview_action);
  gtk_widget_class_install_action (widget_class, "library.rename-show", "s", rename_show_action);
  /* GNOME's keys for a context menu. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "library.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "library.context-menu", NULL);
  gtk_widget_class_set_css_name (widget_class, "odori-library-view");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
odori_library_view_init (OdoriLibraryView *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = GTK_FILTER (gtk_custom_filter_new (filter_cb, self, NULL));
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (on_selection_changed_cb), self, G_CONNECT_SWAPPED);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  self->row_menu = GTK_POPOVER (gtk_popover_menu_new_from_model (NULL));
  gtk_popover_set_has_arrow (self->row_menu, FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->row_menu), GTK_ALIGN_START);
  gtk_widget_insert_after (GTK_WIDGET (self->row_menu), GTK_WIDGET (self), NULL);

  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::index",
                                 G_CALLBACK (on_index_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_search_entry_set_key_capture_widget (self->search_entry, NULL);
  show_details (self, NULL);
}

GtkWidget *
odori_library_view_new (void)
{
  return g_object_new (ODORI_TYPE_LIBRARY_VIEW, NULL);
}

OdoriDocument *
odori_library_view_get_document (OdoriLibraryView *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_VIEW (self), NULL);
  return self->document;
}

void
odori_library_view_set_document (OdoriLibraryView *self,
                                 OdoriDocument    *document)
{
  g_return_if_fail (ODORI_IS_LIBRARY_VIEW (self));
  g_return_if_fail (document == NULL || ODORI_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  reload_library (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

void
odori_library_view_set_search (OdoriLibraryView *self,
                               const char       *text)
{
  g_autofree char *needle = NULL;
  GtkFilterChange change;

  g_return_if_fail (ODORI_IS_LIBRARY_VIEW (self));

  {
    g_autofree char *stripped = g_strstrip (g_strdup (text ? text : ""));

    needle = odori_library_fold (stripped);
  }
  /* Setting the entry's text passes through "" (deleting the old text), and the entry
   * reports that at once: ignore its echo. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text ? text : "") != 0)
    {
      self->setting_text = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
      self->setting_text = FALSE;
    }
  if (g_strcmp0 (needle, self->needle) == 0)
    return;
  /* A longer needle only hides rows; a shorter one only shows more. */
  if (self->needle != NULL && strstr (needle, self->needle) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (self->needle != NULL && strstr (self->needle, needle) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;
  g_free (self->needle);
  self->needle = g_steal_pointer (&needle);
  refilter_rows (self, change);
}

GListModel *
odori_library_view_get_rows (OdoriLibraryView *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_VIEW (self), NULL);
  return G_LIST_MODEL (self->rows);
}

OdoriLibraryItem *
odori_library_view_dup_selected (OdoriLibraryView *self)
{
  gpointer row;

  g_return_val_if_fail (ODORI_IS_LIBRARY_VIEW (self), NULL);

  row = gtk_single_selection_get_selected_item (self->selection);
  return item_of_row (row);
}

gboolean
odori_library_view_select_symbol (OdoriLibraryView *self,
                                  const char       *symbol)
{
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *motion;
  OdoriIndex *index;
  guint n;

  g_return_val_if_fail (ODORI_IS_LIBRARY_VIEW (self), FALSE);
  g_return_val_if_fail (symbol != NULL, FALSE);

  index = self->document ? odori_document_get_index (self->document) : NULL;
  if (index == NULL || self->rows == NULL)
    return FALSE;
  motion = odori_index_lookup (index, symbol, &error);
  if (motion == NULL)
    return FALSE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), i);
      g_autoptr(OdoriLibraryItem) item = item_of_row (row);

      if (item != NULL && odori_library_item_get_motion (item) == motion)
        {
          gtk_single_selection_set_selected (self->selection, i);
          gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", i);
          return TRUE;
        }
    }
  return FALSE;
}

void
odori_library_view_focus_search (OdoriLibraryView *self)
{
  g_return_if_fail (ODORI_IS_LIBRARY_VIEW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

GtkListView *
odori_library_view_get_list_view (OdoriLibraryView *self)
{
  g_return_val_if_fail (ODORI_IS_LIBRARY_VIEW (self), NULL);
  return self->list_view;
}
