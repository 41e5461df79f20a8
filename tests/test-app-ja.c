/* test-app-ja.c: the window, its dialogs and the core's messages speak Japanese under
 * a Japanese locale
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs with LANGUAGE=ja and LC_ALL=ja_JP.UTF-8 (set here, before GTK starts) and reads
 * the catalogues compiled in the build tree (ODORI_TEST_LOCALEDIR = build/po, holding
 * ja/LC_MESSAGES/odori.mo). The locale must exist (build-aux/deps generates it): a test
 * that cannot switch to Japanese fails rather than passing in English.
 */
#include "app-test-util.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "odori-preferences-window.h"

/* Every text a widget tree shows: labels, button labels, placeholders, tooltips,
 * accessible labels are not included (they are not drawn). */
static void
collect_texts (GtkWidget *widget,
               GPtrArray *texts)
{
  const char *text = NULL;

  if (GTK_IS_LABEL (widget))
    text = gtk_label_get_label (GTK_LABEL (widget));
  else if (GTK_IS_BUTTON (widget))
    text = gtk_button_get_label (GTK_BUTTON (widget));
  if (text != NULL)
    g_ptr_array_add (texts, g_strdup (text));
  if (GTK_IS_SEARCH_ENTRY (widget) || GTK_IS_ENTRY (widget))
    {
      g_autofree char *placeholder = NULL;

      g_object_get (widget, "placeholder-text", &placeholder, NULL);
      if (placeholder != NULL)
        g_ptr_array_add (texts, g_steal_pointer (&placeholder));
    }
  if (gtk_widget_get_tooltip_text (widget) != NULL)
    g_ptr_array_add (texts, g_strdup (gtk_widget_get_tooltip_text (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts (child, texts);
}

static gboolean
texts_have (GPtrArray  *texts,
            const char *text)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_strcmp0 (texts->pdata[i], text) == 0)
      return TRUE;
  return FALSE;
}

#define assert_shows(texts, text)                                             \
  G_STMT_START {                                                              \
    if (!texts_have ((texts), (text)))                                        \
      g_error ("the window shows no \"%s\"", (text));                         \
  } G_STMT_END

#define assert_not_shows(texts, text)                                         \
  G_STMT_START {                                                              \
    if (texts_have ((texts), (text)))                                         \
      g_error ("the window still shows the English \"%s\"", (text));          \
  } G_STMT_END

static gboolean
has_japanese (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* hiragana, katakana, CJK ideographs */
      if ((c >= 0x3040 && c <= 0x30FF) || (c >= 0x4E00 && c <= 0x9FFF))
        return TRUE;
    }
  return FALSE;
}

/* /app/ja/catalogue: the locale switched and the compiled catalogue answers. */
static void
test_catalogue (void)
{
  g_assert_cmpstr (setlocale (LC_MESSAGES, NULL), ==, "ja_JP.UTF-8");
  g_assert_cmpstr (g_dgettext (GETTEXT_PACKAGE, "_Open"), ==, "開く(_O)");
  g_assert_cmpstr (g_dgettext (GETTEXT_PACKAGE, "Untitled score"), ==, "無題の舞踊譜");
  /* plural forms (Japanese has one) */
  g_assert_cmpstr (g_dngettext (GETTEXT_PACKAGE, "Opened with %u warning", "Opened with %u warnings", 3),
                   ==, "%u 件の警告付きで開きました");
}

/* /app/ja/window: the header bar, the library browser and the transport speak Japanese. */
static void
test_window (void)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  OdoriWindow *window;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window)), 5000);
  collect_texts (GTK_WIDGET (window), texts);

  /* header bar */
  assert_shows (texts, "開く(_O)");
  assert_shows (texts, "保存(_S)");
  assert_shows (texts, "書き出し(_E)…");
  assert_not_shows (texts, "_Open");
  assert_not_shows (texts, "_Save");
  g_assert_cmpstr (gtk_label_get_text (window->subtitle_label), ==, "見本の舞踊（未保存）");
  /* library browser */
  assert_shows (texts, "動作を検索");
  assert_shows (texts, "プレビュー(_P)");
  assert_not_shows (texts, "Search motions");
  assert_not_shows (texts, "_Preview");
  /* transport */
  assert_shows (texts, "再生または一時停止 (Space)");

  /* Nothing the window says is left in English but names and numbers: every label
   * with three or more ASCII letters in a row comes from the data (the sample's
   * names), not from Odori. */
  for (guint i = 0; i < texts->len; i++)
    {
      const char *text = texts->pdata[i];
      const char *msgid_like[] = { "Open", "Save", "Export", "Preview", "Search", "Select",
                                   "Loop", "frame", "Cancel", "Dismiss", "Details" };

      for (guint k = 0; k < G_N_ELEMENTS (msgid_like); k++)
        if (strstr (text, msgid_like[k]) != NULL && !has_japanese (text))
          g_error ("English text in the Japanese window: \"%s\"", text);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether a menu (its sections and submenus too) has an item labelled LABEL. */
static gboolean
menu_has_label (GMenuModel *menu,
                const char *label)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *text = NULL;
      const char *links[] = { G_MENU_LINK_SECTION, G_MENU_LINK_SUBMENU };

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &text) &&
          g_strcmp0 (text, label) == 0)
        return TRUE;
      for (guint k = 0; k < G_N_ELEMENTS (links); k++)
        {
          g_autoptr(GMenuModel) sub = g_menu_model_get_item_link (menu, i, links[k]);

          if (sub != NULL && menu_has_label (sub, label))
            return TRUE;
        }
    }
  return FALSE;
}

/* /app/ja/dialogs: the menu, the preferences window and the shortcuts window. */
static void
test_dialogs (void)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  OdoriWindow *window;
  GtkWindow *prefs;
  GtkShortcutsWindow *overlay;
  GMenuModel *menu;

  SKIP_WITHOUT_DISPLAY ();

  window = new_sample_window ();
  menu = gtk_menu_button_get_menu_model (window->primary_menu_button);
  g_assert_nonnull (menu);
  g_assert_true (menu_has_label (menu, "ライブラリを開く(_L)…"));
  g_assert_true (menu_has_label (menu, "キーボードショートカット(_K)"));
  g_assert_false (menu_has_label (menu, "Open _Library…"));

  prefs = odori_preferences_window_new (GTK_WINDOW (window));
  gtk_window_present (prefs);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (prefs)), 5000);
  g_assert_cmpstr (gtk_window_get_title (prefs), ==, "設定");
  collect_texts (GTK_WIDGET (prefs), texts);
  assert_shows (texts, "合成");
  gtk_window_destroy (prefs);

  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  g_ptr_array_set_size (texts, 0);
  gtk_window_present (GTK_WINDOW (overlay));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (overlay)), 5000);
  collect_texts (GTK_WIDGET (overlay), texts);
  assert_shows (texts, "舞踊譜を開く");
  gtk_widget_set_visible (GTK_WIDGET (overlay), FALSE);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/ja/core-error: a broken library's error, produced by the core, shows in
 * Japanese in the window's error bar, still led by FILE:LINE:. */
static void
test_core_error (void)
{
  g_autofree char *dir = test_path ("broken-ja");
  g_autofree char *index_path = g_build_filename (dir, "motion.dat", NULL);
  g_autofree char *prefix = g_strdup_printf ("%s:4: ", index_path);
  g_autoptr(GFile) file = NULL;
  OdoriWindow *window;
  const char *message;

  SKIP_WITHOUT_DISPLAY ();

  g_mkdir_with_parents (dir, 0700);
  write_text (index_path,
              "define part name=\"Body\" code=\"BD\" map=\"Hips,Chest\"\n"
              "begin class name=\"c\" code=\"c\"\n"
              "  begin show name=\"s\" code=\"S\" file=\"x.bva\"\n"
              "    motion name=\"m\" code=\"A1\" frame=1..5\n"
              "  end show\n"
              "end class\n");
  window = new_sample_window ();
  file = g_file_new_for_path (index_path);
  g_assert_false (odori_window_open_library (window, file));

  g_assert_true (gtk_info_bar_get_revealed (window->error_bar));
  g_assert_true (has_japanese (gtk_label_get_text (window->error_title)));
  message = gtk_label_get_text (window->error_message);
  g_assert_true (g_str_has_prefix (message, prefix));
  g_assert_nonnull (strstr (message, "フレーム範囲"));
  g_assert_nonnull (strstr (message, "1..5"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* /app/ja/cli: odori-cli (uninstalled, reading build/po) answers in Japanese too. */
static void
test_cli (void)
{
  const char *cli = g_getenv ("ODORI_CLI");
  g_autofree char *missing = test_path ("no-such-file.bva");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *argv[] = { cli, "info", missing, NULL };
  int status = 0;

  g_assert_nonnull (cli);
  env = g_environ_setenv (env, "ODORI_LOCALEDIR", ODORI_TEST_LOCALEDIR, TRUE);
  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL) == FALSE);
  g_assert_true (g_str_has_prefix (err, missing));
  g_assert_true (has_japanese (err));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *help[] = { cli, "--help", NULL };

    g_spawn_sync (NULL, (char **) help, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (out, "舞踊譜"));
  }
}

/* GTK 4.8's GtkShortcutsWindow measures the page buttons of a section with more than one
 * page ("1", "2") as -5 pixels wide and warns; that is GTK's own widget, not Odori's, so
 * that one warning is let through, and everything else goes to the default writer (which
 * makes warnings fatal in tests). */
static GLogWriterOutput
skip_gtk_page_button_warning (GLogLevelFlags   log_level,
                              const GLogField *fields,
                              gsize            n_fields,
                              gpointer         user_data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0)
      domain = fields[i].value;
    else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0)
      message = fields[i].value;
  if (g_strcmp0 (domain, "Gtk") == 0 && message != NULL &&
      strstr (message, "GtkLabel") != NULL && strstr (message, "reported min width") != NULL)
    return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

int
main (int   argc,
      char *argv[])
{
  /* Before GTK reads the locale. */
  g_setenv ("LANGUAGE", "ja", TRUE);
  g_setenv ("LC_ALL", "ja_JP.UTF-8", TRUE);
  g_setenv ("LANG", "ja_JP.UTF-8", TRUE);
  if (setlocale (LC_ALL, "") == NULL)
    g_error ("the ja_JP.UTF-8 locale is not available (build-aux/deps generates it)");
  bindtextdomain (GETTEXT_PACKAGE, ODORI_TEST_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app_test_init (&argc, &argv);
  g_log_set_writer_func (skip_gtk_page_button_warning, NULL, NULL);
  g_test_add_func ("/app/ja/catalogue", test_catalogue);
  g_test_add_func ("/app/ja/window", test_window);
  g_test_add_func ("/app/ja/dialogs", test_dialogs);
  g_test_add_func ("/app/ja/core-error", test_core_error);
  g_test_add_func ("/app/ja/cli", test_cli);
  return app_test_finish (g_test_run ());
}
