/* test-app-library.c: the library browser lists the sample's classes, shows and
 * motions, search narrows them (Japanese included), details and preview work; a row's
 * context menu (right click, Menu, Shift+F10) renames and removes shows, undoably
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"
#include "app-input-util.h"

typedef struct
{
  GPtrArray *classes;
  GPtrArray *shows;
  GPtrArray *motions;
} Rows;

static void
rows_clear (Rows *rows)
{
  g_clear_pointer (&rows->classes, g_ptr_array_unref);
  g_clear_pointer (&rows->shows, g_ptr_array_unref);
  g_clear_pointer (&rows->motions, g_ptr_array_unref);
}

/* The rows shown, by level: "name [code]" strings. */
static void
collect_rows (OdoriLibraryView *view,
              Rows             *rows)
{
  GListModel *model = odori_library_view_get_rows (view);

  rows->classes = g_ptr_array_new_with_free_func (g_free);
  rows->shows = g_ptr_array_new_with_free_func (g_free);
  rows->motions = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(OdoriLibraryItem) item = gtk_tree_list_row_get_item (row);
      char *text = g_strdup_printf ("%s [%s]", odori_library_item_get_name (item), odori_library_item_get_code (item));
      guint depth = gtk_tree_list_row_get_depth (row);

      g_assert_cmpuint (depth, ==, odori_library_item_get_kind (item));
      g_ptr_array_add (depth == 0 ? rows->classes : depth == 1 ? rows->shows : rows->motions, text);
    }
}

static void
assert_strings (GPtrArray          *got,
                const char * const *want)
{
  guint n = g_strv_length ((char **) want);

  for (guint i = 0; i < MIN (got->len, n); i++)
    g_assert_cmpstr (g_ptr_array_index (got, i), ==, want[i]);
  g_assert_cmpuint (got->len, ==, n);
}

/* /app/library/lists-sample */
static void
test_lists_sample (void)
{
  static const char *classes[] = { "舞踊 Dance [dance]", "体操 Exercise [gym]", NULL };
  static const char *shows[] = {
    "手の舞 Hand dance [TE]", "足の運び Steps [AS]", "回り Turns [MW]", "基本 Basics [KH]", NULL
  };
  static const char *motions[] = {
    "拍手 Clap [C1]", "左右拍手 Side clap [C2]", "波 Wave [W1]", "手振り Hello [W2]", "決め Pose [K1]",
    "ステップタッチ Step touch [S1]", "腿上げ Knee lift [S2]", "屈伸 Plié [S3]",
    "左回り Turn left [T1]", "右回り Turn right [T2]", "決め Pose [K1]",
    "呼吸 Breath [B1]", "構え Ready [B2]", "礼 Bow [R1]", NULL
  };
  OdoriWindow *window;
  Rows rows = { 0 };

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  collect_rows (window->library_view, &rows);
  assert_strings (rows.classes, classes);
  assert_strings (rows.shows, shows);
  assert_strings (rows.motions, motions);
  rows_clear (&rows);

  /* The list widget really shows rows (the factory bound them). */
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (100);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Search narrows: Japanese names, codes, descriptions, full-width letters. */
static void
test_search (void)
{
  static const struct { const char *query; const char *motions[8]; } cases[] = {
    /* the show 回り (Turns) matches, so all its motions, and 左回り/右回り by name */
    { "回り", { "左回り Turn left [T1]", "右回り Turn right [T2]", "決め Pose [K1]", NULL } },
    /* a description word, in Japanese */
    { "礼をする", { "礼 Bow [R1]", NULL } },
    /* a code */
    { "w2", { "手振り Hello [W2]", NULL } },
    /* an English word of a description, any case */
    { "THREE CLAPS", { "拍手 Clap [C1]", NULL } },
    /* full-width letters fold to ASCII (NFKC) */
    { "ｃｌａｐ", { "拍手 Clap [C1]", "左右拍手 Side clap [C2]", NULL } },
    { "no such motion", { NULL } },
  };
  OdoriWindow *window;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Rows rows = { 0 };

      g_test_message ("search %s", cases[i].query);
      odori_library_view_set_search (window->library_view, cases[i].query);
      collect_rows (window->library_view, &rows);
      for (guint k = 0; k < rows.motions->len; k++)
        g_test_message ("  %s", (char *) g_ptr_array_index (rows.motions, k));
      assert_strings (rows.motions, cases[i].motions);
      /* Classes and shows without a match are gone. */
      g_assert_cmpuint (rows.classes->len, <=, 1 + (rows.motions->len > 1));
      rows_clear (&rows);
    }
  /* Japanese narrows to exactly one class and one show. */
  {
    Rows rows = { 0 };

    odori_library_view_set_search (window->library_view, "屈伸");
    collect_rows (window->library_view, &rows);
    assert_strings (rows.classes, (const char *[]) { "舞踊 Dance [dance]", NULL });
    assert_strings (rows.shows, (const char *[]) { "足の運び Steps [AS]", NULL });
    assert_strings (rows.motions, (const char *[]) { "屈伸 Plié [S3]", NULL });
    rows_clear (&rows);
  }
  odori_library_view_set_search (window->library_view, "");
  g_assert_cmpuint (g_list_model_get_n_items (odori_library_view_get_rows (window->library_view)), ==, 20);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Selection shows details; activation previews the motion alone. */
static void
test_details_and_preview (void)
{
  OdoriWindow *window;
  OdoriSession *session;
  g_autoptr(OdoriLibraryItem) item = NULL;
  g_autofree char *symbol = NULL;
  GtkListView *list;
  guint selected;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  session = odori_window_get_session (window);
  g_assert_true (odori_library_view_select_symbol (window->library_view, "TE.K1"));
  item = odori_library_view_dup_selected (window->library_view);
  g_assert_nonnull (item);
  g_assert_cmpstr (odori_library_item_get_name (item), ==, "決め Pose");
  /* K1 is in two shows: the score writes it with its show. */
  symbol = odori_library_item_dup_symbol (item);
  g_assert_cmpstr (symbol, ==, "TE.K1");

  /* Details: code, frames, seconds, description. */
  {
    OdoriLibraryView *view = window->library_view;
    GtkWidget *details = gtk_widget_get_last_child (GTK_WIDGET (view));
    GString *all = g_string_new (NULL);

    /* Walk every label of the details box. */
    {
      GPtrArray *stack = g_ptr_array_new ();

      g_ptr_array_add (stack, details);
      while (stack->len > 0)
        {
          GtkWidget *w = g_ptr_array_steal_index (stack, stack->len - 1);

          if (GTK_IS_LABEL (w))
            g_string_append_printf (all, "%s|", gtk_label_get_text (GTK_LABEL (w)));
          for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
            g_ptr_array_add (stack, c);
        }
      g_ptr_array_unref (stack);
    }
    g_assert_nonnull (strstr (all->str, "|TE.K1|"));
    g_assert_nonnull (strstr (all->str, "75 (frames 453–527 of te.bva)"));
    g_assert_nonnull (strstr (all->str, "2.50 s"));
    g_assert_nonnull (strstr (all->str, "右足を出して決める"));
    g_string_free (all, TRUE);
  }

  /* Double-click (activate) previews it alone: 75 frames, the strip's dance waits. */
  odori_session_set_frame (session, 200);
  list = odori_library_view_get_list_view (window->library_view);
  selected = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (list)));
  g_signal_emit_by_name (list, "activate", selected);
  g_assert_true (odori_session_get_preview (session) == odori_library_item_get_motion (item));
  g_assert_cmpuint (odori_session_get_n_frames (session), ==, 75);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 1);
  g_assert_true (odori_session_get_playing (session));
  g_assert_true (gtk_revealer_get_reveal_child (window->preview_revealer));
  g_assert_nonnull (strstr (gtk_label_get_text (window->preview_label), "TE.K1"));

  /* Back to the dance where it was. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "stop-preview", NULL);
  g_assert_null (odori_session_get_preview (session));
  g_assert_cmpuint (odori_session_get_n_frames (session), >, 500);
  g_assert_cmpuint (odori_session_get_frame (session), ==, 200);
  g_assert_false (gtk_revealer_get_reveal_child (window->preview_revealer));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A row is a drag source carrying the motion: the item and its score symbol as text. */
static void
test_drag_source (void)
{
  OdoriWindow *window;
  GtkWidget *list;
  GtkWidget *row = NULL;
  g_autoptr(GListModel) controllers = NULL;
  GtkDragSource *source = NULL;
  GdkContentProvider *content = NULL;
  GValue value = G_VALUE_INIT;
  g_autoptr(GError) error = NULL;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  odori_library_view_set_search (window->library_view, "W2");
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (200);
  /* The third row (class, show, motion): its expander carries the drag source. */
  list = GTK_WIDGET (odori_library_view_get_list_view (window->library_view));
  for (GtkWidget *w = gtk_widget_get_first_child (list); w != NULL; w = gtk_widget_get_next_sibling (w))
    {
      GtkWidget *expander = gtk_widget_get_first_child (w);
      g_autoptr(OdoriLibraryItem) item = NULL;

      if (!GTK_IS_TREE_EXPANDER (expander))
        continue;
      item = gtk_tree_expander_get_item (GTK_TREE_EXPANDER (expander));
      if (item != NULL && odori_library_item_get_kind (item) == ODORI_LIBRARY_ITEM_MOTION)
        row = expander;
    }
  g_assert_nonnull (row);
  controllers = gtk_widget_observe_controllers (row);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_DRAG_SOURCE (c))
        source = GTK_DRAG_SOURCE (c);
    }
  g_assert_nonnull (source);
  g_signal_emit_by_name (source, "prepare", 4.0, 4.0, &content);
  g_assert_nonnull (content);

  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_value_get_string (&value), ==, "W2");
  g_value_unset (&value);
  g_value_init (&value, ODORI_TYPE_LIBRARY_ITEM);
  g_assert_true (gdk_content_provider_get_value (content, &value, &error));
  g_assert_cmpstr (odori_library_item_get_code (g_value_get_object (&value)), ==, "W2");
  g_value_unset (&value);
  g_object_unref (content);
  gtk_window_destroy (GTK_WINDOW (window));
}


/* Context menu */

/* A copy of the sample library and score in the test's directory DIR, opened. */
static OdoriWindow *
new_window_on_copy (const char *dir_name,
                    char      **index_path)
{
  g_autofree char *sample_dir = odori_document_dup_sample_dir ();
  g_autofree char *dir = test_path (dir_name);
  g_autofree char *dds = g_build_filename (dir, "sample.dds", NULL);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GFile) score = NULL;
  g_autoptr(GFile) library = NULL;
  OdoriWindow *window = new_sample_window ();
  const char *name;

  /* The sample is written on the first window's start. */
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  d = g_dir_open (sample_dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *from = g_build_filename (sample_dir, name, NULL);
      g_autofree char *to = g_build_filename (dir, name, NULL);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_file_test (from, G_FILE_TEST_IS_REGULAR))
        continue;
      bytes = read_bytes (from);
      g_file_set_contents (to, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
      g_assert_no_error (error);
    }
  *index_path = g_build_filename (dir, "motion.dat", NULL);
  score = g_file_new_for_path (dds);
  library = g_file_new_for_path (*index_path);
  g_assert_true (odori_window_open_score (window, score, library));
  g_assert_cmpstr (odori_document_get_index (odori_window_get_document (window))->path, ==, *index_path);
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  pump (200);
  return window;
}

/* The expander of the row shown for the show CODE, or its motion after a '.'. */
static GtkWidget *
find_row (OdoriWindow *window,
          const char  *code)
{
  g_auto(GStrv) parts = g_strsplit (code, ".", 2);
  const char *show = parts[0], *motion = parts[1];
  GtkWidget *list = GTK_WIDGET (odori_library_view_get_list_view (window->library_view));

  for (GtkWidget *w = gtk_widget_get_first_child (list); w != NULL; w = gtk_widget_get_next_sibling (w))
    {
      GtkWidget *expander = gtk_widget_get_first_child (w);
      g_autoptr(OdoriLibraryItem) item = NULL;

      if (!GTK_IS_TREE_EXPANDER (expander) || !gtk_widget_get_mapped (expander))
        continue;
      item = gtk_tree_expander_get_item (GTK_TREE_EXPANDER (expander));
      if (item != NULL && odori_library_item_get_kind (item) != ODORI_LIBRARY_ITEM_CLASS &&
          g_strcmp0 (odori_library_item_get_show (item)->code, show) == 0 &&
          (motion == NULL ? odori_library_item_get_kind (item) == ODORI_LIBRARY_ITEM_SHOW
                          : g_str_equal (odori_library_item_get_code (item), motion)))
        return expander;
    }
  return NULL;
}

/* The library view's popover of TYPE that is shown, or NULL. */
static GtkWidget *
shown_popover (OdoriWindow *window,
               GType        type)
{
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (window->library_view)); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (w) &&
        (type != GTK_TYPE_POPOVER || !GTK_IS_POPOVER_MENU (w)))
      return w;
  return NULL;
}

/* A label showing TEXT (mnemonics left out) inside ROOT, shown. */
static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root) && g_str_equal (gtk_label_get_text (GTK_LABEL (root)), text))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
has_label_containing (GtkWidget  *root,
                      const char *text)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_label_containing (c, text))
      return TRUE;
  return FALSE;
}

static GtkWidget *
find_of_type (GtkWidget *root,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_of_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* With ODORI_TEST_SHOTS=DIR, the screen as DIR/NAME.png (for docs/screenshots). */
static void
maybe_shot (const char *name)
{
  const char *dir = g_getenv ("ODORI_TEST_SHOTS");
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  file = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file, NULL);
  pump (300);
  g_spawn_sync (NULL, (char *[]) { (char *) "import", (char *) "-window", (char *) "root",
                                   (char *) "-crop", (char *) "1100x720+0+0", path, NULL },
                NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* Right-clicks the row of show (or SHOW.MOTION) CODE, then clicks the menu's item LABEL. */
static void
choose_from_row_menu (OdoriWindow *window,
                      const char  *code,
                      const char  *label)
{
  GtkWidget *row = find_row (window, code);
  GtkWidget *menu, *item;

  g_assert_nonnull (row);
  g_assert_null (shown_popover (window, GTK_TYPE_POPOVER_MENU));
  input_click (row, 40, gtk_widget_get_height (row) / 2.0, 3, 1);
  menu = shown_popover (window, GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (menu);
  WAIT_UNTIL (gtk_widget_get_mapped (menu), 2000);
  pump (100);
  item = find_label (menu, label);
  g_assert_nonnull (item);
  maybe_shot (strchr (code, '.') ? "library-motion-menu" : "library-show-menu");
  click_center (item);
  g_assert_null (shown_popover (window, GTK_TYPE_POPOVER_MENU));
}

static guint
count_files (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* The info bar's Undo, clicked. */
static void
click_undo (OdoriWindow *window)
{
  GtkWidget *undo = NULL;

  /* The bar slides in. */
  WAIT_UNTIL ((undo = find_label (GTK_WIDGET (window), "Undo")) != NULL && gtk_widget_get_height (undo) > 0, 3000);
  pump (300);
  click_center (undo);
}

/* /app/library/rename-show: right click on a show row, Rename Show…, a name typed and
 * Enter: the list and motion.dat say the new name, motion.dat~ holds the old file; the
 * bar's Undo puts it back byte for byte. */
static void
test_rename_show (void)
{
  g_autofree char *index_path = NULL;
  g_autofree char *backup = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(OdoriIndex) reread = NULL;
  g_autoptr(GError) error = NULL;
  OdoriWindow *window;
  GtkWidget *popover, *entry;
  guint n_files;
  Rows rows = { 0 };

  SKIP_WITHOUT_DISPLAY ();

  window = new_window_on_copy ("rename", &index_path);
  backup = g_strconcat (index_path, "~", NULL);
  dir = g_path_get_dirname (index_path);
  original = read_bytes (index_path);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));
  n_files = count_files (dir);

  choose_from_row_menu (window, "TE", "Rename Show…");
  popover = shown_popover (window, GTK_TYPE_POPOVER);
  g_assert_nonnull (popover);
  WAIT_UNTIL (gtk_widget_get_mapped (popover), 2000);
  entry = find_of_type (popover, GTK_TYPE_ENTRY);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "手の舞 Hand dance");

  /* An empty name is refused: Enter does nothing. */
  input_key (entry, "ctrl+a");
  input_key (entry, "BackSpace");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  input_key (entry, "Return");
  g_assert_nonnull (shown_popover (window, GTK_TYPE_POPOVER));
  g_assert_nonnull (find_label (popover, "A show needs a name"));
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);

  maybe_shot ("library-rename-empty");
  input_type (entry, "Fan dance");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "Fan dance");
  maybe_shot ("library-rename");
  input_key (entry, "Return");
  g_assert_null (shown_popover (window, GTK_TYPE_POPOVER));

  /* The window's list, motion.dat on disk, motion.dat~. */
  collect_rows (window->library_view, &rows);
  g_assert_cmpstr (g_ptr_array_index (rows.shows, 0), ==, "Fan dance [TE]");
  rows_clear (&rows);
  reread = odori_index_load (index_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (odori_index_find_show (reread, "TE")->name, ==, "Fan dance");
  g_assert_cmpstr (odori_index_find_show (reread, "AS")->name, ==, "足の運び Steps");
  g_clear_pointer (&reread, odori_index_unref);
  now = read_bytes (backup);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);
  /* Nothing else was written beside it. */
  g_assert_cmpuint (count_files (dir), ==, n_files + 1);
  /* The score names the show by code: it still composes. */
  g_assert_nonnull (odori_document_get_motion (odori_window_get_document (window)));

  /* Undo, in the bar. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo-remove-show"));
  click_undo (window);
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);
  collect_rows (window->library_view, &rows);
  g_assert_cmpstr (g_ptr_array_index (rows.shows, 0), ==, "手の舞 Hand dance [TE]");
  rows_clear (&rows);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo-remove-show"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWindow *
find_message_dialog (void)
{
  GList *windows = gtk_window_list_toplevels ();
  GtkWindow *found = NULL;

  for (GList *l = windows; l != NULL; l = l->next)
    if (GTK_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (windows);
  return found;
}

/* /app/library/remove-show: Remove Show… from a show row's menu asks (saying how many
 * blocks of the score use the show), removes it; Undo gives motion.dat back byte for
 * byte. */
static void
test_remove_show_from_row (void)
{
  g_autofree char *index_path = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) now = NULL;
  OdoriWindow *window;
  OdoriDocument *doc;
  GtkWindow *question;
  guint uses;
  g_autofree char *says = NULL;

  SKIP_WITHOUT_DISPLAY ();

  window = new_window_on_copy ("remove", &index_path);
  doc = odori_window_get_document (window);
  original = read_bytes (index_path);
  uses = odori_document_count_show_uses (doc, "AS");
  g_assert_cmpuint (uses, >, 0);

  /* Cancel keeps it. */
  choose_from_row_menu (window, "AS", "Remove Show…");
  question = find_message_dialog ();
  g_assert_nonnull (question);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (question)), 2000);
  says = g_strdup_printf ("%u blocks of this score use it", uses);
  g_assert_nonnull (find_label (GTK_WIDGET (question), "Remove show AS from the library?"));
  g_assert_true (has_label_containing (GTK_WIDGET (question), says));
  pump (300);
  click_center (find_label (GTK_WIDGET (question), "Cancel"));
  g_assert_null (find_message_dialog ());
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);

  choose_from_row_menu (window, "AS", "Remove Show…");
  question = find_message_dialog ();
  g_assert_nonnull (question);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (question)), 2000);
  pump (300);
  maybe_shot ("library-remove-show-question");
  click_center (find_label (GTK_WIDGET (question), "Remove"));
  g_assert_null (find_message_dialog ());
  g_assert_null (odori_index_find_show (odori_document_get_index (doc), "AS"));
  g_assert_null (find_row (window, "AS"));
  now = read_bytes (index_path);
  g_assert_false (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);

  click_undo (window);
  now = read_bytes (index_path);
  g_assert_true (g_bytes_equal (now, original));
  g_assert_nonnull (odori_index_find_show (odori_document_get_index (doc), "AS"));
  g_assert_nonnull (odori_document_get_motion (doc));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/library/motion-menu: a motion row's menu previews it. */
static void
test_motion_menu (void)
{
  g_autofree char *index_path = NULL;
  OdoriWindow *window;
  OdoriSession *session;
  OdoriIndexMotion *motion;

  SKIP_WITHOUT_DISPLAY ();

  window = new_window_on_copy ("motion-menu", &index_path);
  session = odori_window_get_session (window);
  motion = odori_index_lookup (odori_document_get_index (odori_window_get_document (window)), "W2", NULL);
  g_assert_nonnull (motion);
  g_assert_null (odori_session_get_preview (session));
  choose_from_row_menu (window, "TE.W2", "Preview");
  g_assert_true (odori_session_get_preview (session) == motion);
  g_assert_true (gtk_revealer_get_reveal_child (window->preview_revealer));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/library/menu-keys: Shift+F10 and Menu open the focused row's menu (GNOME's keys),
 * Escape closes it. */
static void
test_menu_keys (void)
{
  g_autofree char *index_path = NULL;
  OdoriWindow *window;
  GtkWidget *row;
  static const char *keys[] = { "Menu", "shift+F10" };

  SKIP_WITHOUT_DISPLAY ();

  window = new_window_on_copy ("keys", &index_path);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkWidget *menu;

      row = find_row (window, "MW");
      g_assert_nonnull (row);
      input_click (row, 40, gtk_widget_get_height (row) / 2.0, 1, 1);
      g_assert_null (shown_popover (window, GTK_TYPE_POPOVER_MENU));
      /* Off the list: under Xvfb (no window manager) a menu that opens with the pointer
       * over its own surface is closed by the key's release at once. */
      input_move (GTK_WIDGET (window), 600, 300);
      input_key (row, keys[i]);
      menu = shown_popover (window, GTK_TYPE_POPOVER_MENU);
      g_assert_nonnull (menu);
      WAIT_UNTIL (gtk_widget_get_mapped (menu), 2000);
      pump (100);
      g_assert_nonnull (find_label (menu, "Rename Show…"));
      g_assert_nonnull (find_label (menu, "Remove Show…"));
      input_key (menu, "Escape");
      g_assert_null (shown_popover (window, GTK_TYPE_POPOVER_MENU));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/library/lists-sample", test_lists_sample);
  g_test_add_func ("/app/library/search", test_search);
  g_test_add_func ("/app/library/details-and-preview", test_details_and_preview);
  g_test_add_func ("/app/library/drag-source", test_drag_source);
  g_test_add_func ("/app/library/rename-show", test_rename_show);
  g_test_add_func ("/app/library/remove-show", test_remove_show_from_row);
  g_test_add_func ("/app/library/motion-menu", test_motion_menu);
  g_test_add_func ("/app/library/menu-keys", test_menu_keys);
  return app_test_finish (g_test_run ());
}
