/* odori-application.c: the GtkApplication (org.odori.Odori)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Single instance: a second `odori SCORE.dds` hands its command line to the running
 * one, which opens the score in a window of its own (or in the untouched sample
 * window). With no arguments the first window opens on the built-in sample dance.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-autosave.h"
#include "odori-debug.h"
#include "odori-format.h"
#include "odori-preferences-window.h"
#include "odori-renderer.h"
#include "odori-resources.h"
#include "odori-window-private.h"

struct _OdoriApplication
{
  GtkApplication  parent_instance;

  GtkWindow      *preferences;
  gboolean        offered_recovery;
  OdoriAutosave  *autosave;        /* the unsaved work of every window */
};

G_DEFINE_FINAL_TYPE (OdoriApplication, odori_application, GTK_TYPE_APPLICATION)

void
odori_resources_ensure (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      odori_register_resource ();
      g_once_init_leave (&done, 1);
    }
}

GSettings *
odori_settings_new (void)
{
  static GSettingsSchemaSource *build_source;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, ODORI_APPLICATION_ID, TRUE);
#ifdef ODORI_BUILD_SCHEMA_DIR
  if (schema == NULL)
    {
      if (build_source == NULL)
        build_source = g_settings_schema_source_new_from_directory (ODORI_BUILD_SCHEMA_DIR, source, FALSE, NULL);
      if (build_source != NULL)
        schema = g_settings_schema_source_lookup (build_source, ODORI_APPLICATION_ID, FALSE);
    }
#endif
  if (schema == NULL)
    g_error ("The GSettings schema %s is not installed (run `ninja install`, or set "
             "GSETTINGS_SCHEMA_DIR to a directory holding the compiled schema)", ODORI_APPLICATION_ID);
  return g_settings_new_full (schema, NULL, NULL);
}

/* The window to open a file in: the untouched sample window if there is one. */
static OdoriWindow *
reusable_window (OdoriApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (ODORI_IS_WINDOW (l->data))
      {
        OdoriDocument *doc = odori_window_get_document (l->data);

        if (odori_document_get_is_sample (doc) && !odori_document_get_dirty (doc))
          return l->data;
      }
  return NULL;
}

OdoriWindow *
odori_application_new_window (OdoriApplication *self)
{
  g_return_val_if_fail (ODORI_IS_APPLICATION (self), NULL);

  return odori_window_new (GTK_APPLICATION (self));
}

static void
offer_recovery_once (OdoriApplication *self,
                     OdoriWindow      *window)
{
  if (self->offered_recovery)
    return;
  self->offered_recovery = TRUE;
  odori_window_offer_recovery (window);
}

/* --screenshot (only with ODORI_DEBUG=screenshot): the whole window as PNG once the
 * dance has been drawn, then quit. */

typedef struct
{
  OdoriApplication *app;
  OdoriWindow      *window;
  char             *path;
  guint             frame;
  char             *select;
  guint             ticks;
} Screenshot;

static void
screenshot_free (Screenshot *shot)
{
  g_free (shot->path);
  g_free (shot->select);
  g_free (shot);
}

GdkTexture *
odori_render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  GtkNative *native;
  int width, height;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  native = gtk_widget_get_native (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  if (native == NULL || width <= 0 || height <= 0)
    return NULL;
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;
  return gsk_renderer_render_texture (gtk_native_get_renderer (native), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

static gboolean
screenshot_step_cb (gpointer data)
{
  Screenshot *shot = data;
  g_autoptr(GdkTexture) texture = NULL;
  OdoriSession *session = odori_window_get_session (shot->window);

  /* Settle: the window mapped, laid out and the viewport drawn a few times. */
  if (++shot->ticks == 3)
    {
      if (shot->select != NULL)
        odori_library_view_select_symbol (shot->window->library_view, shot->select);
      odori_session_set_playing (session, FALSE);
      if (shot->frame > 0)
        odori_session_set_frame (session, shot->frame);
    }
  if (shot->ticks < 8)
    return G_SOURCE_CONTINUE;

  texture = odori_render_widget (GTK_WIDGET (shot->window));
  if (texture == NULL || !gdk_texture_save_to_png (texture, shot->path))
    g_printerr (_("Cannot write the screenshot %s\n"), shot->path);
  else
    g_print ("SCREENSHOT %s\n", shot->path);
  g_application_release (G_APPLICATION (shot->app));
  gtk_window_destroy (GTK_WINDOW (shot->window));
  return G_SOURCE_REMOVE;
}

static void
schedule_screenshot (OdoriApplication *self,
                     OdoriWindow      *window,
                     const char       *path,
                     int               frame,
                     const char       *select)
{
  Screenshot *shot = g_new0 (Screenshot, 1);

  shot->app = self;
  shot->window = window;
  shot->path = g_strdup (path);
  shot->frame = frame > 0 ? (guint) frame : 0;
  shot->select = g_strdup (select);
  g_application_hold (G_APPLICATION (self));
  g_timeout_add_full (G_PRIORITY_DEFAULT, 250, screenshot_step_cb, shot, (GDestroyNotify) screenshot_free);
}

/* Command line */

/* A file named on the command line could not be read: the window that has nothing to
 * show shows the sample (the error stays above it). */
static void
opened_from_command_line_cb (GObject      *source,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  OdoriWindow *window = ODORI_WINDOW (source);

  if (!odori_window_open_finish (window, result, NULL) &&
      odori_document_get_score (odori_window_get_document (window)) == NULL)
    odori_window_load_sample (window);
}

static int
odori_application_command_line (GApplication            *app,
                                GApplicationCommandLine *cmdline)
{
  OdoriApplication *self = ODORI_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);
  const char *library = NULL;
  const char *screenshot = NULL;
  const char *select = NULL;
  g_autofree const char **remaining = NULL;
  g_autoptr(GFile) score_file = NULL;
  g_autoptr(GFile) library_file = NULL;
  g_autofree char *import_path = NULL;
  OdoriWindow *window = NULL;
  int frame = 0;

  g_variant_dict_lookup (options, "library", "^&ay", &library);
  g_variant_dict_lookup (options, "screenshot", "^&ay", &screenshot);
  g_variant_dict_lookup (options, "select", "&s", &select);
  g_variant_dict_lookup (options, "frame", "i", &frame);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &remaining);

  if (remaining != NULL && remaining[0] != NULL && remaining[1] != NULL)
    {
      g_application_command_line_printerr (cmdline, _("odori opens one score at a time (%s, %s, …)\n"),
                                           remaining[0], remaining[1]);
      return EXIT_FAILURE;
    }
  if (remaining != NULL && remaining[0] != NULL)
    score_file = g_application_command_line_create_file_for_arg (cmdline, remaining[0]);
  if (library != NULL)
    library_file = g_application_command_line_create_file_for_arg (cmdline, library);

  /* The desktop opens every file type of Odori's with `odori FILE`: a motion.dat is a
   * library, a motion or a capture goes to Import Capture (into the library of the active
   * window, else the sample's); anything else is read as a score. */
  if (score_file != NULL && library_file == NULL)
    {
      g_autofree char *path = g_file_get_path (score_file);

      switch (path != NULL ? odori_format_detect_file (path, NULL) : ODORI_FORMAT_UNKNOWN)
        {
        case ODORI_FORMAT_INDEX:
          library_file = g_steal_pointer (&score_file);
          break;
        case ODORI_FORMAT_BVA:
        case ODORI_FORMAT_BVH:
        case ODORI_FORMAT_JOINTS:
        case ODORI_FORMAT_SENSOR_CSV:
          import_path = g_steal_pointer (&path);
          g_clear_object (&score_file);
          break;
        default:
          break;
        }
    }
  if (import_path != NULL && screenshot == NULL)
    {
      GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));

      if (ODORI_IS_WINDOW (active))
        window = ODORI_WINDOW (active);
    }

  if (score_file == NULL && library_file == NULL && import_path == NULL && screenshot == NULL)
    {
      GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));

      if (active != NULL)
        {
          gtk_window_present (active);
          return EXIT_SUCCESS;
        }
    }

  if (window == NULL && screenshot == NULL)
    window = reusable_window (self);
  if (window == NULL)
    {
      odori_debug_mark ("new-window");
      window = odori_application_new_window (self);
      odori_debug_mark ("window-made");
    }

  if (score_file != NULL && screenshot != NULL)
    {
      /* a screenshot is of the score read */
      if (!odori_window_open_score (window, score_file, library_file) &&
          odori_document_get_score (odori_window_get_document (window)) == NULL)
        odori_window_load_sample (window);
    }
  else if (score_file != NULL || library_file != NULL)
    odori_window_open_async (window, score_file, library_file, opened_from_command_line_cb, NULL);
  else if (odori_document_get_score (odori_window_get_document (window)) == NULL)
    {
      odori_debug_mark ("load-sample");
      odori_window_load_sample (window);
      odori_debug_mark ("sample-loaded");
    }

  gtk_window_present (GTK_WINDOW (window));
  odori_debug_mark ("presented");
  if (screenshot != NULL)
    {
      /* Relative to where odori was started, which may not be this process. */
      g_autoptr(GFile) shot = g_application_command_line_create_file_for_arg (cmdline, screenshot);
      g_autofree char *shot_path = g_file_get_path (shot);

      schedule_screenshot (self, window, shot_path, frame, select);
    }
  else if (import_path != NULL)
    _odori_window_import_file (window, import_path);
  else
    offer_recovery_once (self, window);
  return EXIT_SUCCESS;
}

static int
odori_application_handle_local_options (GApplication *app,
                                        GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("odori %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }
  return -1;
}

/* Actions */

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  OdoriApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->preferences == NULL)
    {
      self->preferences = odori_preferences_window_new (parent);
      g_object_add_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
    }
  gtk_window_present (self->preferences);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  OdoriApplication *self = user_data;
  static const char *authors[] = { "The Odori authors", NULL };
  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());

  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (GTK_APPLICATION (self)));
  adw_about_window_set_application_name (about, "Odori");
  adw_about_window_set_application_icon (about, ODORI_APPLICATION_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_developer_name (about, "The Odori authors");
  adw_about_window_set_comments (about, _("Compose dances body part by body part, and see them at once in 3D."));
  adw_about_window_set_developers (about, authors);
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  /* Translators: put your names here, one per line */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  OdoriApplication *self = user_data;
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* Each window asks about its own unsaved work; the application ends with the last. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static const GActionEntry app_entries[] = {
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

/* GTK 4.8 draws a window with its GL renderer when it can. On a software rasteriser
 * (Mesa's llvmpipe: no GPU, as in a virtual machine or a remote session) that renderer
 * puts every widget through the emulated GPU: the playing window then shows a third of
 * the frames its cairo renderer shows, for more CPU (docs/PERFORMANCE.md, "Window").
 * There, unless GSK_RENDERER chooses, the window is drawn with cairo; the viewport is
 * OpenGL either way. Must run before the first window is realized. */
static void
choose_gsk_renderer (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autoptr(GdkGLContext) context = NULL;

  if (display == NULL || g_getenv ("GSK_RENDERER") != NULL)
    return;
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return;
  gdk_gl_context_make_current (context);
  if (odori_gl_is_software ())
    g_setenv ("GSK_RENDERER", "cairo", FALSE);
  gdk_gl_context_clear_current ();
}

static void
odori_application_startup (GApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "win.open", { "<Control>o", NULL } },
    { "win.new-score", { "<Control>n", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.print", { "<Control>p", NULL } },
    { "win.open-library", { "<Control>l", NULL } },
    { "win.import-capture", { "<Control>i", NULL } },
    { "win.focus-search", { "<Control>f", NULL } },
    { "win.show-library", { "F9", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.quit", { "<Control>q", NULL } },
  };
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

  odori_debug_mark ("startup");
  odori_resources_ensure ();
  G_APPLICATION_CLASS (odori_application_parent_class)->startup (app);
  odori_debug_mark ("gtk-ready");
  choose_gsk_renderer ();
  odori_debug_mark ("renderer-chosen");
  /* libadwaita's widgets (toasts, the folding library) and its stylesheet. */
  adw_init ();
  odori_debug_mark ("adw-ready");

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  gtk_css_provider_load_from_resource (css, "/org/odori/Odori/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (ODORI_APPLICATION_ID);
}

static void
odori_application_activate (GApplication *app)
{
  OdoriApplication *self = ODORI_APPLICATION (app);
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
  OdoriWindow *window;

  if (active != NULL)
    {
      gtk_window_present (active);
      return;
    }
  window = odori_application_new_window (self);
  odori_window_load_sample (window);
  gtk_window_present (GTK_WINDOW (window));
  offer_recovery_once (self, window);
}

/* Every window's document is autosaved while it has unsaved work. */
static void
odori_application_window_added (GtkApplication *app,
                                GtkWindow      *window)
{
  OdoriApplication *self = ODORI_APPLICATION (app);

  GTK_APPLICATION_CLASS (odori_application_parent_class)->window_added (app, window);
  if (ODORI_IS_WINDOW (window))
    odori_autosave_add_document (self->autosave, odori_window_get_document (ODORI_WINDOW (window)));
}

/* A window closed: the autosave of its work, if any, stays to be recovered. */
static void
odori_application_window_removed (GtkApplication *app,
                                  GtkWindow      *window)
{
  OdoriApplication *self = ODORI_APPLICATION (app);

  if (ODORI_IS_WINDOW (window))
    odori_autosave_remove_document (self->autosave, odori_window_get_document (ODORI_WINDOW (window)));
  GTK_APPLICATION_CLASS (odori_application_parent_class)->window_removed (app, window);
}

static void
odori_application_finalize (GObject *object)
{
  OdoriApplication *self = ODORI_APPLICATION (object);

  g_clear_object (&self->autosave);
  G_OBJECT_CLASS (odori_application_parent_class)->finalize (object);
}

static void
odori_application_class_init (OdoriApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = odori_application_finalize;
  gtk_app_class->window_added = odori_application_window_added;
  gtk_app_class->window_removed = odori_application_window_removed;

  app_class->startup = odori_application_startup;
  app_class->activate = odori_application_activate;
  app_class->command_line = odori_application_command_line;
  app_class->handle_local_options = odori_application_handle_local_options;

  odori_resources_ensure ();
}

static void
odori_application_init (OdoriApplication *self)
{
  static const GOptionEntry entries[] = {
    { "library", 'l', 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Open the motion library LIBRARY (a motion.dat)"), N_("LIBRARY") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("[SCORE.dds]") },
    { NULL }
  };
  /* For build-aux/screenshot only: not offered (nor listed by --help) without
   * ODORI_DEBUG=screenshot (docs/window.md). */
  static const GOptionEntry screenshot_entries[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Write a PNG of the window once the dance shows, then close it"), N_("FILE") },
    { "frame", 0, 0, G_OPTION_ARG_INT, NULL, N_("With --screenshot: show frame N"), N_("N") },
    { "select", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("With --screenshot: select the motion SYMBOL in the library"), N_("SYMBOL") },
    { NULL }
  };

  self->autosave = odori_autosave_new ();
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  if (ODORI_DEBUG_ENABLED (ODORI_DEBUG_SCREENSHOT))
    g_application_add_main_option_entries (G_APPLICATION (self), screenshot_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[SCORE.dds]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Compose dances body part by body part. With no score, "
                                              "Odori opens its sample dance."));
}

OdoriAutosave *
odori_application_get_autosave (OdoriApplication *self)
{
  g_return_val_if_fail (ODORI_IS_APPLICATION (self), NULL);
  return self->autosave;
}

OdoriApplication *
odori_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (ODORI_TYPE_APPLICATION,
                       "application-id", ODORI_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | extra_flags,
                       "resource-base-path", "/org/odori/Odori",
                       NULL);
}
