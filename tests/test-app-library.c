/* test-app-library.c: the library browser lists the sample's classes, shows and
 * motions, search narrows them (Japanese included), details and preview work
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-util.h"

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

int
main (int   argc,
      char *argv[])
{
  app_test_init (&argc, &argv);
  g_test_add_func ("/app/library/lists-sample", test_lists_sample);
  g_test_add_func ("/app/library/search", test_search);
  g_test_add_func ("/app/library/details-and-preview", test_details_and_preview);
  g_test_add_func ("/app/library/drag-source", test_drag_source);
  return app_test_finish (g_test_run ());
}
