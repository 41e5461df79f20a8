/* odori-preferences-window.c: the Preferences window (GSettings org.odori.Odori)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every control is bound to its key: changes apply at once, in every window.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-preferences-window.h"

struct _OdoriPreferencesWindow
{
  GtkWindow      parent_instance;

  GSettings     *settings;

  GtkAdjustment *blend_adjustment;
  GtkDropDown   *root_match_dropdown;
  GtkDropDown   *speed_dropdown;
  GtkSwitch     *skin_switch;
  GtkDropDown   *units_dropdown;
};

G_DEFINE_FINAL_TYPE (OdoriPreferencesWindow, odori_preferences_window, GTK_TYPE_WINDOW)

static const double speeds[] = { 0.25, 0.5, 0.75, 1.0, 1.5, 2.0 };

/* Enum keys ↔ GtkDropDown:selected, by the enum's nicks in order. */
static gboolean
get_enum_mapping (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char * const *nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
set_enum_mapping (const GValue       *value,
                  const GVariantType *expected_type,
                  gpointer            user_data)
{
  const char * const *nicks = user_data;
  guint i = g_value_get_uint (value);

  if (i >= g_strv_length ((char **) nicks))
    return NULL;
  return g_variant_new_string (nicks[i]);
}

static gboolean
get_speed_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  double speed = g_variant_get_double (variant);
  guint best = 0;

  for (guint i = 1; i < G_N_ELEMENTS (speeds); i++)
    if (fabs (speeds[i] - speed) < fabs (speeds[best] - speed))
      best = i;
  g_value_set_uint (value, best);
  return TRUE;
}

static GVariant *
set_speed_mapping (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  guint i = g_value_get_uint (value);

  if (i >= G_N_ELEMENTS (speeds))
    return NULL;
  return g_variant_new_double (speeds[i]);
}

static gboolean
get_int_mapping (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_int32 (variant));
  return TRUE;
}

static GVariant *
set_int_mapping (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  return g_variant_new_int32 ((gint32) lround (g_value_get_double (value)));
}

static void
odori_preferences_window_dispose (GObject *object)
{
  OdoriPreferencesWindow *self = ODORI_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (odori_preferences_window_parent_class)->dispose (object);
}

static void
odori_preferences_window_class_init (OdoriPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_preferences_window_dispose;

  odori_resources_ensure ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriPreferencesWindow, blend_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriPreferencesWindow, root_match_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OdoriPreferencesWindow, speed_dropdown);
  gtk_widget_class_bind_template_child (widget_class, OdoriPreferencesWindow, skin_switch);
  gtk_widget_class_bind_template_child (widget_class, OdoriPreferencesWindow, units_dropdown);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
odori_preferences_window_init (OdoriPreferencesWindow *self)
{
  static const char *root_match_nicks[] = { "none", "position", "full", NULL };
  static const char *units_nicks[] = { "frames", "seconds", "both", NULL };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = odori_settings_new ();

  g_settings_bind_with_mapping (self->settings, "default-blend", self->blend_adjustment, "value",
                                G_SETTINGS_BIND_DEFAULT, get_int_mapping, set_int_mapping, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "root-match", self->root_match_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_enum_mapping, set_enum_mapping,
                                (gpointer) root_match_nicks, NULL);
  g_settings_bind_with_mapping (self->settings, "playback-speed", self->speed_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_speed_mapping, set_speed_mapping, NULL, NULL);
  g_settings_bind (self->settings, "show-skin", self->skin_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "time-units", self->units_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, get_enum_mapping, set_enum_mapping,
                                (gpointer) units_nicks, NULL);
}

GtkWindow *
odori_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (ODORI_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       NULL);
}
