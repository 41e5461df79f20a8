/* monkey.c: random but valid input on the window, checked against odori-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `monkey [SECONDS] [--seed N] [--check-every N]` (build-aux/monkey runs it under Xvfb,
 * a session bus and ASan/UBSan; docs/reliability.md). For SECONDS it sends real X
 * events (xdotool, tests/app-input-util.h) chosen by a seeded PRNG to an OdoriWindow:
 * clicks on random visible widgets, drags within the timeline and from the library to
 * it, the window's keys, menus and context menus, file dialogs opened and cancelled. It
 * works on two windows in turn: the built-in sample, and a score written here from the
 * sample library with every show, class and kind of symbol. Every few actions, and at
 * the end, it saves the score (odori_window_save_to ()), exports the window's composed
 * dance as BVA and compares it byte for byte with `odori-cli compose` of the saved
 * score. It fails (exit 1, with the seed and the last 20 actions) on a difference, on a
 * critical from any domain or a warning from Odori's, and, through the sanitizers, on a
 * crash. The same seed replays the same choices (what the window does with them can
 * differ where timing matters: playback, the autosave timer).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "app-input-util.h"

#define N_HISTORY 20

typedef struct
{
  const char  *name;
  OdoriWindow *window;   /* weak */
  char        *score;    /* what to reopen if the window closes (NULL: the sample) */
  char        *saved;    /* odori_window_save_to () target */
  char        *exported; /* the window's export */
  char        *composed; /* odori-cli compose of the saved score */
} Subject;

static GRand   *rng;
static guint32  seed;
static guint    n_actions;
static guint    n_checks;
static guint    n_reopened;
static guint    n_dialogs;
static char    *history[N_HISTORY];
static gboolean failing;
static Subject  subjects[2];
static Subject *current;

/* Actions that would end the run or leave the process: never clicked. */
static const char *const forbidden_actions[] = {
  "app.quit",
  "win.close",
  "app.about",
  NULL,
};
/* The same for menu items, by their text (the monkey runs in English). */
static const char *const forbidden_items[] = {
  "Quit",
  "Close",
  "About",
  "Folder",
  NULL,
};

static void
print_history (void)
{
  fprintf (stderr, "monkey: the last actions (oldest first):\n");
  for (guint i = 0; i < N_HISTORY; i++)
    {
      const char *line = history[(n_actions + 1 + i) % N_HISTORY];

      if (line != NULL)
        fprintf (stderr, "  %s\n", line);
    }
}

static G_NORETURN void
fail (const char *format,
      ...) G_GNUC_PRINTF (1, 2);

static G_NORETURN void
fail (const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list          args;

  failing = TRUE;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  fflush (stdout);
  fprintf (stderr, "monkey: FAILED after %u actions (seed %u): %s\n", n_actions, seed, message);
  print_history ();
  fprintf (stderr, "monkey: replay with: build-aux/monkey SECONDS --seed %u\n", seed);
  /* abort (): the sanitizers print where it happened, and the exit status says so */
  abort ();
}

/* Each action is printed as it starts (a crash then names it) and kept for the report. */
static void
note_action (const char *format,
             ...) G_GNUC_PRINTF (1, 2);

static void
note_action (const char *format,
             ...)
{
  g_autofree char *what = NULL;
  guint            slot;
  va_list          args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  n_actions++;
  slot = n_actions % N_HISTORY;
  g_free (history[slot]);
  history[slot] = g_strdup_printf ("#%u %s: %s", n_actions, current->name, what);
  printf ("monkey: %s\n", history[slot]);
  fflush (stdout);
}

/* A critical from anywhere, or a warning from one of Odori's domains, fails the run. */
static GLogWriterOutput
log_writer (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         data)
{
  const char      *domain = "", *message = "";
  GLogWriterOutput out;

  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].value != NULL)
      domain = fields[i].value;
    else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].value != NULL)
      message = fields[i].value;
  out = g_log_writer_default (level, fields, n_fields, data);
  if (!failing && ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) != 0 ||
                   ((level & G_LOG_LEVEL_WARNING) != 0 && g_str_has_prefix (domain, "Odori"))))
    fail ("%s from %s: %s", (level & G_LOG_LEVEL_WARNING) ? "warning" : "critical",
          *domain ? domain : "(no domain)", message);
  return out;
}

static guint
pick (guint n)
{
  return n > 0 ? (guint) g_rand_int_range (rng, 0, (gint32) n) : 0;
}

static double
pick_double (double lo,
             double hi)
{
  return g_rand_double_range (rng, lo, hi);
}

static gboolean
chance (double p)
{
  return g_rand_double (rng) < p;
}

/* --- Widgets ---------------------------------------------------------------------- */

static gboolean
has_ancestor_type (GtkWidget  *widget,
                   const char *prefix)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (g_str_has_prefix (G_OBJECT_TYPE_NAME (w), prefix))
      return TRUE;
  return FALSE;
}

static gboolean
forbidden (GtkWidget *widget)
{
  const char *action = GTK_IS_ACTIONABLE (widget) ? gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) : NULL;

  if (GTK_IS_LINK_BUTTON (widget) || has_ancestor_type (widget, "GtkWindowControls") ||
      has_ancestor_type (widget, "AdwToast"))
    return TRUE; /* a browser, the window's close button, a folder opened in the desktop */
  if (action != NULL && (g_strv_contains (forbidden_actions, action) || strstr (action, "folder") != NULL))
    return TRUE;
  /* a menu item (GtkModelButton) carries no action name, only its text */
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    {
      g_autofree char *text = NULL;

      g_object_get (widget, "text", &text, NULL);
      for (guint i = 0; forbidden_items[i] != NULL; i++)
        if (text != NULL && strstr (text, forbidden_items[i]) != NULL)
          return TRUE;
    }
  return FALSE;
}

static gboolean
clickable (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget) || GTK_IS_RANGE (widget) ||
         GTK_IS_TEXT (widget) || GTK_IS_SWITCH (widget) || GTK_IS_CHECK_BUTTON (widget) ||
         GTK_IS_DROP_DOWN (widget) || GTK_IS_EXPANDER (widget) || GTK_IS_GL_AREA (widget) ||
         ODORI_IS_TIMELINE (widget) || GTK_IS_ACTIONABLE (widget) ||
         g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkListItemWidget") ||
         g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkPanedHandle") ||
         g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkTreeExpander");
}

/* The mapped, sensitive, clickable widgets under ROOT (popovers included: they are
 * their parent's children), in tree order. */
static void
collect (GtkWidget *root,
         gboolean (*want) (GtkWidget *),
         GPtrArray *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_mapped (child) || !gtk_widget_is_sensitive (child))
        continue;
      if (want (child) && !forbidden (child) && gtk_widget_get_width (child) >= 4 &&
          gtk_widget_get_height (child) >= 4)
        g_ptr_array_add (out, child);
      collect (child, want, out);
    }
}

static gboolean
is_list_row (GtkWidget *widget)
{
  return g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkListItemWidget");
}

static gboolean
is_popover (GtkWidget *widget)
{
  return GTK_IS_POPOVER (widget);
}

static GtkWidget *
open_popover (GtkWidget *root)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, is_popover, found);
  return found->len > 0 ? g_ptr_array_index (found, found->len - 1) : NULL;
}

/* (X, Y) of WIDGET in the window's own coordinates, so a drag can outlive the widget. */
static gboolean
to_window (OdoriWindow *window,
           GtkWidget   *widget,
           double       x,
           double       y,
           double      *wx,
           double      *wy)
{
  graphene_point_t in = GRAPHENE_POINT_INIT ((float) x, (float) y), out;

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (window), &in, &out))
    return FALSE;
  *wx = out.x;
  *wy = out.y;
  return TRUE;
}

static const char *
widget_name (GtkWidget *widget)
{
  const char      *action = GTK_IS_ACTIONABLE (widget) ? gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) : NULL;
  const char      *label = GTK_IS_BUTTON (widget) ? gtk_button_get_label (GTK_BUTTON (widget)) : NULL;
  g_autofree char *text = NULL;
  static char      name[256];

  if (label == NULL && g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    {
      g_object_get (widget, "text", &text, NULL);
      label = text;
    }

  g_snprintf (name, sizeof name, "%s%s%s%s%s", G_OBJECT_TYPE_NAME (widget), action ? " " : "",
              action ? action : "", label ? " " : "", label ? label : "");
  return name;
}

/* Clicks at (X, Y) of WIDGET; a point of the window outside its bounds (a list row
 * scrolled half out of view) is brought inside: xdotool takes "-45" for an option. */
static void
click_at (GtkWidget *widget,
          double     x,
          double     y,
          int        button,
          int        count)
{
  GtkWidget *window = GTK_WIDGET (current->window);
  double     wx, wy;

  if (gtk_widget_get_native (widget) != GTK_NATIVE (window) ||
      !to_window (current->window, widget, x, y, &wx, &wy))
    {
      input_click (widget, x, y, button, count);
      return;
    }
  wx = CLAMP (wx, 0, gtk_widget_get_width (window) - 1);
  wy = CLAMP (wy, 0, gtk_widget_get_height (window) - 1);
  input_click (window, wx, wy, button, count);
}

/* --- Keeping one window up ---------------------------------------------------------- */

static void
show_subject (Subject *subject)
{
  OdoriWindow *window = odori_window_new (GTK_APPLICATION (test_app));
  g_autoptr(GFile) file = NULL;

  if (subject->score == NULL)
    g_assert_true (odori_window_load_sample (window));
  else
    {
      file = g_file_new_for_path (subject->score);
      g_assert_true (odori_window_open_score (window, file, NULL));
    }
  odori_session_set_playing (odori_window_get_session (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  gtk_window_present (GTK_WINDOW (window));
  g_set_weak_pointer (&subject->window, window);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (window->timeline)) &&
                  gtk_widget_get_width (GTK_WIDGET (window->timeline)) > 100,
              20000);
}

/* Windows that are not the current subject's: dialogs, file choosers, Preferences, the
 * shortcuts window, a window opened for a score. Escape first (as a user would), then
 * close, then destroy; the other subject's window is only hidden. */
static void
close_other_windows (void)
{
  for (guint round = 0; round < 3; round++)
    {
      GList *windows = gtk_window_list_toplevels ();
      guint  n = 0;

      for (GList *l = windows; l != NULL; l = l->next)
        {
          GtkWindow *other = l->data;
          gboolean   subject = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (subjects); i++)
            subject |= other == GTK_WINDOW (subjects[i].window);
          if (subject || !gtk_widget_get_visible (GTK_WIDGET (other)))
            continue;
          n++;
          if (round == 0 && gtk_widget_get_mapped (GTK_WIDGET (other)))
            {
              printf ("monkey:   Escape on %s “%s”\n", G_OBJECT_TYPE_NAME (other),
                      gtk_window_get_title (other) ? gtk_window_get_title (other) : "");
              input_key (GTK_WIDGET (other), "Escape");
              n_dialogs++;
            }
          else if (round == 1)
            {
              printf ("monkey:   %s did not close on Escape: closing it\n", G_OBJECT_TYPE_NAME (other));
              gtk_window_close (other);
            }
          else
            {
              printf ("monkey:   %s did not close: destroying it\n", G_OBJECT_TYPE_NAME (other));
              gtk_window_destroy (other);
            }
        }
      g_list_free (windows);
      if (n == 0)
        return;
      pump (300);
    }
}

static void
close_popovers (void)
{
  GtkWidget *popover;

  if (current->window == NULL)
    return;
  if ((popover = open_popover (GTK_WIDGET (current->window))) != NULL)
    {
      input_key (popover, "Escape");
      if ((popover = open_popover (GTK_WIDGET (current->window))) != NULL)
        {
          printf ("monkey:   a %s stayed open after Escape: popping it down\n", G_OBJECT_TYPE_NAME (popover));
          gtk_popover_popdown (GTK_POPOVER (popover));
          pump (100);
        }
    }
}

static void
ensure_window (void)
{
  if (current->window == NULL)
    {
      printf ("monkey:   the %s window closed: opening it again\n", current->name);
      n_reopened++;
      show_subject (current);
    }
  else if (!gtk_widget_get_visible (GTK_WIDGET (current->window)))
    gtk_window_present (GTK_WINDOW (current->window));
}

static void
switch_subject (Subject *next)
{
  if (current == next)
    return;
  if (current->window != NULL)
    gtk_widget_set_visible (GTK_WIDGET (current->window), FALSE);
  current = next;
  printf ("monkey: -- now on the %s window\n", current->name);
  ensure_window ();
  pump (300);
}

/* --- The check ---------------------------------------------------------------------- */

static gboolean
bytes_equal_at (GBytes *a,
                GBytes *b,
                gsize  *at)
{
  gsize         la, lb;
  const guint8 *pa = g_bytes_get_data (a, &la), *pb = g_bytes_get_data (b, &lb);
  gsize         i;

  for (i = 0; i < MIN (la, lb) && pa[i] == pb[i]; i++)
    ;
  *at = i;
  return la == lb && i == la;
}

/* Saves the score, exports the window's dance and composes the saved score with the
 * CLI (the window's blend and root matching): the two must be the same bytes. */
static void
check_subject (Subject    *subject,
               const char *why)
{
  OdoriWindow   *window = subject->window;
  OdoriDocument *doc;
  g_autoptr(GFile) saved = g_file_new_for_path (subject->saved);
  g_autoptr(GFile) exported = g_file_new_for_path (subject->exported);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *cli_out = NULL, *cli_err = NULL, *root_match = NULL;
  gboolean         composes, cli_ok;
  int              status = -1;

  if (window == NULL)
    return;
  n_checks++;
  printf ("monkey: check %u (%s) of the %s window\n", n_checks, why, subject->name);
  fflush (stdout);
  doc = odori_window_get_document (window);
  /* an open in the background, an export: let them end first */
  WAIT_UNTIL (!odori_document_get_loading (doc) && window->export == NULL, 120000);

  g_unlink (subject->exported);
  g_unlink (subject->composed);
  if (!odori_window_save_to (window, saved))
    fail ("odori_window_save_to (%s) failed: %s", subject->saved,
          gtk_label_get_text (window->error_message));
  if (odori_document_get_dirty (doc))
    fail ("the document is still dirty after odori_window_save_to ()");

  root_match = g_settings_get_string (window->settings, "root-match");
  g_ptr_array_add (argv, g_strdup (g_getenv ("ODORI_CLI")));
  g_ptr_array_add (argv, g_strdup ("compose"));
  g_ptr_array_add (argv, g_strdup (subject->saved));
  g_ptr_array_add (argv, g_strdup_printf ("--root-match=%s", root_match));
  if (odori_document_get_score (doc)->blend < 0)
    g_ptr_array_add (argv, g_strdup_printf ("--blend=%d", g_settings_get_int (window->settings, "default-blend")));
  g_ptr_array_add (argv, g_strdup ("-o"));
  g_ptr_array_add (argv, g_strdup (subject->composed));
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &cli_out, &cli_err,
                     &status, &error))
    fail ("cannot run odori-cli: %s", error->message);
  cli_ok = g_spawn_check_wait_status (status, NULL);

  composes = g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export");
  if (composes)
    {
      ExportResult r = { 0 };
      g_autoptr(GBytes) a = NULL, b = NULL;
      gsize at = 0;

      odori_window_export (window, exported, export_cb, &r);
      WAIT_UNTIL (r.done, 180000);
      if (!r.ok)
        fail ("the window's export failed: %s", r.error ? r.error->message : "?");
      if (!cli_ok)
        fail ("the window composes the score but `odori-cli compose %s` fails: %s", subject->saved, cli_err);
      a = read_bytes (subject->exported);
      b = read_bytes (subject->composed);
      if (!bytes_equal_at (a, b, &at))
        fail ("the window's composed dance (%s, %zu bytes) differs from `odori-cli compose` of "
              "the saved score (%s, %zu bytes) from byte %zu on",
              subject->exported,
              g_bytes_get_size (a), subject->composed, g_bytes_get_size (b), at);
      printf ("monkey:   same %zu bytes\n", g_bytes_get_size (a));
    }
  else
    {
      if (cli_ok)
        fail ("Export is disabled in the window but `odori-cli compose %s` composes it", subject->saved);
      printf ("monkey:   the score does not compose, in the window nor in the CLI\n");
    }
  fflush (stdout);
}

/* --- Actions ------------------------------------------------------------------------ */

static const char *const keys[] = {
  "space",
  "Right",
  "Left",
  "Home",
  "End",
  "bracketleft",
  "bracketright",
  "l",
  "f",
  "s",
  "1",
  "2",
  "3",
  "4",
  "5",
  "6",
  "7",
  "Delete",
  "BackSpace",
  "ctrl+z",
  "ctrl+shift+z",
  "ctrl+y",
  "ctrl+c",
  "ctrl+x",
  "ctrl+v",
  "ctrl+d",
  "ctrl+a",
  "ctrl+shift+a",
  "Escape",
  "Up",
  "Down",
  "alt+Left",
  "alt+Right",
  "shift+alt+Right",
  "Return",
  "ctrl+space",
  "ctrl+Left",
  "ctrl+Right",
  "ctrl+shift+Left",
  "ctrl+shift+Right",
  "ctrl+plus",
  "ctrl+minus",
  "ctrl+0",
  "Tab",
  "shift+Tab",
  "F9",
  "ctrl+f",
  "ctrl+n",
  "Menu",
  "shift+F10",
};

/* Keys that open a dialog (closed again by close_other_windows ()). */
static const char *const dialog_keys[] = {
  "ctrl+o",
  "ctrl+l",
  "ctrl+e",
  "ctrl+i",
  "ctrl+s",
  "ctrl+shift+s",
  "ctrl+comma",
  "ctrl+question",
};

static void
action_key (void)
{
  const char *key = keys[pick (G_N_ELEMENTS (keys))];

  note_action ("key %s", key);
  input_key (GTK_WIDGET (current->window), key);
}

static void
action_dialog (void)
{
  const char *key = dialog_keys[pick (G_N_ELEMENTS (dialog_keys))];

  note_action ("key %s (a dialog)", key);
  input_key (GTK_WIDGET (current->window), key);
  pump (500);
}

static void
action_type (void)
{
  static const char *const texts[] = { "1", "25", "300", "0", "-4", "99999", "clap", "K1", "tu", "x" };
  static const char *const ends[] = { "Return", "Escape", "Tab", NULL };
  GtkWidget               *focus = gtk_root_get_focus (GTK_ROOT (current->window));
  const char              *text = texts[pick (G_N_ELEMENTS (texts))];
  const char              *end = ends[pick (G_N_ELEMENTS (ends))];

  if (focus == NULL || !GTK_IS_EDITABLE (focus))
    {
      action_key ();
      return;
    }
  note_action ("type “%s” then %s into %s", text, end ? end : "nothing", G_OBJECT_TYPE_NAME (focus));
  input_key (GTK_WIDGET (current->window), "ctrl+a");
  input_type (GTK_WIDGET (current->window), text);
  if (end != NULL)
    input_key (GTK_WIDGET (current->window), end);
}

static void
action_click_widget (void)
{
  g_autoptr(GPtrArray) widgets = g_ptr_array_new ();
  GtkWidget *widget;
  double     x, y;
  int        button = chance (0.15) ? 3 : 1, count = chance (0.1) ? 2 : 1;

  collect (GTK_WIDGET (current->window), clickable, widgets);
  if (widgets->len == 0)
    return;
  widget = g_ptr_array_index (widgets, pick (widgets->len));
  x = pick_double (1, gtk_widget_get_width (widget) - 1);
  y = pick_double (1, gtk_widget_get_height (widget) - 1);
  note_action ("click %d×%d at %.0f,%.0f of %s", button, count, x, y, widget_name (widget));
  click_at (widget, x, y, button, count);
}

/* A point on a symbol of the timeline when one is in view, else anywhere in it. */
static void
timeline_point (double *x,
                double *y,
                char  **what)
{
  OdoriTimeline *timeline = current->window->timeline;
  OdoriScore    *score = odori_document_get_score (odori_window_get_document (current->window));
  double         w = gtk_widget_get_width (GTK_WIDGET (timeline)), h = gtk_widget_get_height (GTK_WIDGET (timeline));

  if (score != NULL && score->parts->len > 0 && chance (0.75))
    {
      guint           t = pick (score->parts->len);
      OdoriScorePart *part = g_ptr_array_index (score->parts, t);

      if (part->symbols->len > 0)
        {
          OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, pick (part->symbols->len));

          *x = odori_timeline_x_for_frame (timeline, s->start + pick_double (0, 8));
          *y = odori_timeline_y_for_track (timeline, t);
          if (*x > 0 && *x < w - 1 && *y > 0 && *y < h - 1)
            {
              *what = g_strdup_printf ("symbol %s at %u of track %u", s->symbol, s->start, t);
              return;
            }
        }
    }
  *x = pick_double (1, w - 1);
  *y = pick_double (1, h - 1);
  *what = g_strdup ("a point");
}

static void
action_click_timeline (void)
{
  static const char *const modifiers[] = { NULL, NULL, NULL, "ctrl", "shift" };
  const char              *modifier = modifiers[pick (G_N_ELEMENTS (modifiers))];
  GtkWidget               *timeline = GTK_WIDGET (current->window->timeline);
  g_autofree char         *what = NULL;
  g_autofree char         *wid = NULL;
  int                      button = chance (0.2) ? 3 : 1;
  double                   x, y;

  timeline_point (&x, &y, &what);
  note_action ("click %d%s%s on the timeline at %.0f,%.0f (%s)", button, modifier ? " with " : "",
               modifier ? modifier : "", x, y, what);
  input_move (timeline, x, y);
  if (modifier != NULL)
    xdotool ((const char *[]){ "keydown", modifier, NULL });
  {
    g_autofree char *b = g_strdup_printf ("%d", button);

    xdotool ((const char *[]){ "click", b, NULL });
  }
  if (modifier != NULL)
    xdotool ((const char *[]){ "keyup", modifier, NULL });
  pump (200);
}

/* The score as it would be saved (to see that a cancelled drag changed nothing). */
static char *
score_text (void)
{
  g_autoptr(OdoriOutput) out = odori_output_new_memory (ODORI_ENCODING_UTF8);
  g_autoptr(GBytes) bytes = NULL;
  OdoriScore *score = odori_document_get_score (odori_window_get_document (current->window));

  if (score == NULL)
    return g_strdup ("");
  odori_score_write (score, out);
  g_assert_true (odori_output_commit (out, NULL));
  bytes = odori_output_steal_bytes (out);
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* Drags from window point (X0, Y0) to (X1, Y1): press, STEPS moves, maybe Escape,
 * release; MODIFIER held throughout. */
static void
drag_in_window (double      x0,
                double      y0,
                double      x1,
                double      y1,
                guint       steps,
                const char *modifier,
                gboolean    escape)
{
  GtkWidget       *window = GTK_WIDGET (current->window);
  g_autofree char *before = escape ? score_text () : NULL;
  double           w = gtk_widget_get_width (window) - 1, h = gtk_widget_get_height (window) - 1;

  x0 = CLAMP (x0, 0, w);
  y0 = CLAMP (y0, 0, h);
  x1 = CLAMP (x1, 0, w);
  y1 = CLAMP (y1, 0, h);

  input_drag_full (window, x0, y0, x1, y1, steps, modifier, escape);
  if (escape)
    {
      g_autofree char *after = score_text ();

      /* docs/window.md: "Escape during a drag puts everything back" */
      if (g_strcmp0 (before, after) != 0)
        fail ("a drag cancelled with Escape changed the score:\n--- before\n%s--- after\n%s", before, after);
    }
}

static void
action_drag_timeline (void)
{
  static const char *const modifiers[] = { NULL, NULL, NULL, "shift", "ctrl" };
  const char              *modifier = modifiers[pick (G_N_ELEMENTS (modifiers))];
  GtkWidget               *timeline = GTK_WIDGET (current->window->timeline);
  g_autofree char         *what = NULL;
  gboolean                 escape = chance (0.15);
  double                   x, y, x1, y1, wx0, wy0, wx1, wy1;
  int                      tracks = 0;

  timeline_point (&x, &y, &what);
  x1 = x + pick_double (-250, 250); /* not inside CLAMP (): it evaluates it more than once */
  x1 = CLAMP (x1, 1, gtk_widget_get_width (timeline) - 1);
  y1 = y;
  if (chance (0.3))
    {
      /* to another track (or off the tracks) */
      OdoriScore *score = odori_document_get_score (odori_window_get_document (current->window));

      tracks = score != NULL ? (int) score->parts->len : 0;
      y1 = tracks > 0 ? odori_timeline_y_for_track (current->window->timeline, pick ((guint) tracks))
                      : pick_double (1, gtk_widget_get_height (timeline) - 1);
      if (y1 <= 1 || y1 >= gtk_widget_get_height (timeline) - 1)
        y1 = y;
    }
  if (!to_window (current->window, timeline, x, y, &wx0, &wy0) ||
      !to_window (current->window, timeline, x1, y1, &wx1, &wy1))
    return;
  note_action ("drag on the timeline from %.0f,%.0f (%s) to %.0f,%.0f%s%s%s", x, y, what, x1, y1,
               modifier ? " with " : "", modifier ? modifier : "", escape ? ", Escape before release" : "");
  drag_in_window (wx0, wy0, wx1, wy1, 4 + pick (8), modifier, escape);
}

static void
action_drag_library (void)
{
  static const char *const modifiers[] = { NULL, NULL, NULL, "shift" };
  const char              *modifier = modifiers[pick (G_N_ELEMENTS (modifiers))];
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GtkWidget  *timeline = GTK_WIDGET (current->window->timeline);
  OdoriScore *score = odori_document_get_score (odori_window_get_document (current->window));
  gboolean    escape = chance (0.1);
  GtkWidget  *row;
  double      x0, y0, x1, y1, wx0, wy0, wx1, wy1;

  collect (GTK_WIDGET (current->window->library_view), is_list_row, rows);
  if (rows->len == 0)
    {
      action_click_widget ();
      return;
    }
  row = g_ptr_array_index (rows, pick (rows->len));
  x0 = pick_double (10, MAX (gtk_widget_get_width (row) - 10, 11));
  y0 = gtk_widget_get_height (row) / 2.0;
  x1 = pick_double (1, gtk_widget_get_width (timeline) - 1);
  y1 = score != NULL && score->parts->len > 0 && chance (0.9)
           ? odori_timeline_y_for_track (current->window->timeline, pick (score->parts->len))
           : pick_double (1, gtk_widget_get_height (timeline) - 1);
  if (!to_window (current->window, row, x0, y0, &wx0, &wy0) ||
      !to_window (current->window, timeline, x1, y1, &wx1, &wy1))
    return;
  note_action ("drag library row at window %.0f,%.0f to the timeline at %.0f,%.0f%s%s%s", wx0, wy0, x1, y1,
               modifier ? " with " : "", modifier ? modifier : "", escape ? ", Escape before release" : "");
  drag_in_window (wx0, wy0, wx1, wy1, 6 + pick (6), modifier, escape);
}

static gboolean
is_menu_item (GtkWidget *widget)
{
  return (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton") ||
          (GTK_IS_ACTIONABLE (widget) && gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) != NULL)) &&
         has_ancestor_type (widget, "GtkPopover");
}

/* A menu: the main menu (F10 or its button), a context menu (right click on a library
 * row or a timeline block, or Menu), a menu button of the window; then an item of it,
 * by pointer or by keys, or Escape. */
static void
action_menu (void)
{
  GtkWidget *window = GTK_WIDGET (current->window);
  GtkWidget *popover;
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  guint how = pick (4);

  if (how == 0)
    {
      note_action ("key F10 (main menu)");
      input_key (window, "F10");
    }
  else if (how == 1)
    {
      note_action ("click the main menu button");
      click_at (GTK_WIDGET (current->window->primary_menu_button), 10, 10, 1, 1);
    }
  else if (how == 2)
    {
      g_autoptr(GPtrArray) rows = g_ptr_array_new ();

      collect (GTK_WIDGET (current->window->library_view), is_list_row, rows);
      if (rows->len == 0)
        return;
      note_action ("right click a library row");
      click_at (g_ptr_array_index (rows, pick (rows->len)), 30, 8, 3, 1);
    }
  else
    {
      g_autofree char *what = NULL;
      double           x, y;

      timeline_point (&x, &y, &what);
      note_action ("right click the timeline at %.0f,%.0f (%s)", x, y, what);
      click_at (GTK_WIDGET (current->window->timeline), x, y, 3, 1);
    }
  pump (200);
  popover = open_popover (window);
  if (popover == NULL)
    return;
  collect (popover, is_menu_item, items);
  if (items->len > 0 && chance (0.6))
    {
      GtkWidget *item = g_ptr_array_index (items, pick (items->len));

      note_action ("menu item %s", widget_name (item));
      input_click (item, gtk_widget_get_width (item) / 2.0, gtk_widget_get_height (item) / 2.0, 1, 1);
    }
  else if (chance (0.5))
    {
      guint downs = 1 + pick (8);

      note_action ("Down ×%u, Return in the menu", downs);
      for (guint i = 0; i < downs; i++)
        input_key (popover, "Down");
      /* the focused item must not be one that ends the run */
      {
        GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (gtk_widget_get_root (popover)));

        if (focus != NULL && forbidden (focus))
          input_key (popover, "Escape");
        else
          input_key (popover, "Return");
      }
    }
  else
    {
      note_action ("Escape from the menu");
      input_key (popover, "Escape");
    }
  pump (300);
}

static void
action_resize (void)
{
  g_autofree char *wid = input_window_id (GTK_WIDGET (current->window));
  g_autofree char *w = g_strdup_printf ("%u", 800 + pick (480));
  g_autofree char *h = g_strdup_printf ("%u", 600 + pick (200));

  note_action ("resize the window to %s×%s", w, h);
  xdotool ((const char *[]){ "windowsize", wid, w, h, NULL });
  pump (400);
}

static void
action_wait (void)
{
  guint ms = 200 + pick (1500);

  note_action ("wait %u ms", ms);
  pump (ms);
}

static void
one_action (void)
{
  static const struct
  {
    guint weight;
    void (*run) (void);
  } actions[] = {
    { 22, action_click_widget },
    { 14, action_click_timeline },
    { 14, action_drag_timeline },
    { 10, action_drag_library },
    { 22, action_key },
    { 6, action_type },
    { 6, action_menu },
    { 4, action_dialog },
    { 1, action_resize },
    { 1, action_wait },
  };
  guint total = 0, r;

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    total += actions[i].weight;
  r = pick (total);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      if (r < actions[i].weight)
        {
          actions[i].run ();
          break;
        }
      r -= actions[i].weight;
    }
  close_other_windows ();
  close_popovers ();
  ensure_window ();
}

/* --- The score with every kind of symbol --------------------------------------------- */

/* Every show and class of the sample library, both K1s by SHOW.CODE and one symbol
 * qualified without need, cuts (a symbol before the previous one ends), holds, an empty
 * track, a part whose sensors differ from motion.dat's map, the header lines, Odori's
 * extensions and an unknown comment, CRLF line ends. */
static const char every_score[] =
    "# Title: 全部の記号 Every symbol\r\n"
    "# Author: Monkey\r\n"
    "# Date: 2026/12/01 12:00:00\r\n"
    "# Index: motion.dat\r\n"
    "# FrameTime: 0.033333\r\n"
    "# Blend: 8\r\n"
    "# Made by tests/monkey.c, kept as written\r\n"
    "BD: Hips,Chest,Neck\r\n"
    "1: B1\r\n100: AS.S1\r\n200: S2\r\n250: S3\r\n400: T1\r\n470: MW.K1\r\n600: R1\r\n"
    "HD: Neck,Head\r\n"
    "1: TE.C1\r\n60: C2\r\n200: W1\r\n"
    "LA: Chest,LeftCollar,LeftUpArm,LeftLowArm,LeftHand\r\n"
    "1: W2\r\n130: TE.K1\r\n240: C1\r\n330: B2\r\n500: T2\r\n"
    "RA: Chest,RightCollar,RightUpArm,RightLowArm,RightHand\r\n"
    "5: C2\r\n90: W1\r\n300: KH.R1\r\n"
    "LL: Hips,LeftUpLeg,LeftLowLeg,LeftFoot\r\n"
    "RL: Hips,RightUpLeg,RightLowLeg\r\n"
    "1: S1\r\n151: T1\r\n300: MW.T2\r\n700: TE.K1\r\n";

/* A copy of the sample library (the monkey may remove or rename its shows) with the
 * score beside it. */
static char *
write_every_score (void)
{
  g_autofree char *sample_dir = odori_document_dup_sample_dir ();
  g_autofree char *dir = test_path ("every");
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GError) error = NULL;
  char       *score = g_build_filename (dir, "every.dds", NULL);
  const char *name;

  g_mkdir_with_parents (dir, 0700);
  listing = g_dir_open (sample_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *from = g_build_filename (sample_dir, name, NULL);
      g_autofree char *to = g_build_filename (dir, name, NULL);
      g_autoptr(GBytes) bytes = read_bytes (from);

      g_file_set_contents (to, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
      g_assert_no_error (error);
    }
  write_text (score, every_score);
  return score;
}

/* --- main ---------------------------------------------------------------------------- */

int
main (int    argc,
      char **argv)
{
  double             seconds = 60;
  gint64             seed_option = -1;
  int                check_every = 25;
  const GOptionEntry options[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed_option, "Seed of the random choices (default: from the clock)", "N" },
    { "check-every", 0, 0, G_OPTION_ARG_INT, &check_every, "Save, export and compare every N actions (default 25)", "N" },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[SECONDS]");
  g_autoptr(GError) error = NULL;
  char  *init_argv[] = { argv[0], NULL };
  char **init_args = init_argv;
  int    init_argc = 1;
  gint64 start, end;
  guint  since_check = 0;

  g_option_context_add_main_entries (context, options, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "monkey: %s\n", error->message);
      return 2;
    }
  if (argc > 1)
    seconds = g_ascii_strtod (argv[1], NULL);
  if (argc > 2 || seconds <= 0 || check_every < 1)
    {
      fprintf (stderr, "usage: monkey [SECONDS] [--seed N] [--check-every N]\n");
      return 2;
    }
  seed = seed_option >= 0 ? (guint32) seed_option : (guint32) (g_get_real_time () ^ (getpid () << 16));
  if (g_getenv ("ODORI_CLI") == NULL)
    {
      fprintf (stderr, "monkey: ODORI_CLI must name odori-cli\n");
      return 2;
    }

  app_test_init (&init_argc, &init_args);
  if (!have_display)
    {
      fprintf (stderr, "monkey: no display: run it under xvfb-run (build-aux/monkey does)\n");
      return app_test_finish (2);
    }
  /* g_test_init () makes every warning fatal; the log writer decides instead */
  g_log_set_always_fatal (G_LOG_FATAL_MASK);
  g_log_set_writer_func (log_writer, NULL, NULL);
  rng = g_rand_new_with_seed (seed);
  printf ("monkey: seed %u, %.0f s, a check every %d actions\n", seed, seconds, check_every);
  fflush (stdout);

  subjects[0] = (Subject){ "sample", NULL, NULL, test_path ("sample-saved.dds"),
                           test_path ("sample-window.bva"), test_path ("sample-cli.bva") };
  current = &subjects[0];
  show_subject (&subjects[0]);
  subjects[1] = (Subject){ "every-symbol", NULL, write_every_score (), test_path ("every/every-saved.dds"),
                           test_path ("every-window.bva"), test_path ("every-cli.bva") };
  current = &subjects[1];
  show_subject (&subjects[1]);
  check_subject (&subjects[1], "as opened");
  gtk_widget_set_visible (GTK_WIDGET (subjects[1].window), FALSE);
  current = &subjects[0];
  check_subject (&subjects[0], "as opened");

  start = g_get_monotonic_time ();
  end = start + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      one_action ();
      if (++since_check >= (guint) check_every)
        {
          since_check = 0;
          close_other_windows ();
          check_subject (current, "periodic");
          /* the other window's turn */
          switch_subject (current == &subjects[0] ? &subjects[1] : &subjects[0]);
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (subjects); i++)
    {
      switch_subject (&subjects[i]);
      check_subject (&subjects[i], "at the end");
    }
  printf ("monkey: OK: %u actions in %.0f s, %u checks, %u dialogs closed, %u windows reopened, seed %u\n",
          n_actions, (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC, n_checks, n_dialogs,
          n_reopened, seed);
  fflush (stdout);

  for (guint i = 0; i < G_N_ELEMENTS (subjects); i++)
    {
      g_free (subjects[i].score);
      g_free (subjects[i].saved);
      g_free (subjects[i].exported);
      g_free (subjects[i].composed);
    }
  for (guint i = 0; i < N_HISTORY; i++)
    g_free (history[i]);
  g_rand_free (rng);
  return app_test_finish (0);
}
