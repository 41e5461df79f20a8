/* odori-transport-bar.c: play, step, speed, the frame slider and the frame indicator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The buttons activate the window's actions (win.play-pause, win.step-forward, …); the
 * bar only shows its session: the play button's icon and the speed follow the session
 * through property bindings, the slider and the indicator follow its frame and motion.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-timeline.h"
#include "odori-transport-bar.h"

struct _OdoriTransportBar
{
  GtkWidget parent_instance;

  OdoriSession  *session;
  GSignalGroup  *session_signals;
  GBindingGroup *session_bindings;
  GSettings     *settings;
  gboolean       syncing_scale;

  GtkButton      *play_button;
  GtkMenuButton  *speed_button;
  GtkScale       *frame_scale;
  GtkAdjustment  *frame_adjustment;
  GtkInscription *frame_label;
};

G_DEFINE_FINAL_TYPE (OdoriTransportBar, odori_transport_bar, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
format_frame (OdoriTransportBar *self,
              guint              frame,
              guint              n,
              double             ft)
{
  switch (g_settings_get_enum (self->settings, "time-units"))
    {
    case ODORI_TIME_UNITS_FRAMES:
      /* Translators: frame indicator, "frame N / total" */
      return g_strdup_printf (_ ("Frame %u / %u"), frame, n);
    case ODORI_TIME_UNITS_SECONDS:
      return g_strdup_printf (_ ("%.2f s / %.2f s"), (frame - 1) * ft, n * ft);
    default:
      return g_strdup_printf (_ ("%u / %u · %.2f s"), frame, n, (frame - 1) * ft);
    }
}

static void
update_frame_label (OdoriTransportBar *self)
{
  guint            frame = self->session ? odori_session_get_frame (self->session) : 1;
  guint            n = self->session ? odori_session_get_n_frames (self->session) : 0;
  double           ft = self->session ? odori_session_get_frame_time (self->session) : 0;
  g_autofree char *text = format_frame (self, frame, n, ft);
  g_autofree char *longest = NULL;
  guint            chars;

  /* The inscription is as wide as the text at the last frame (the longest, in these
   * formats), and a few characters for the digits' widths: it changes size only when
   * the dance's length or the units do, not at every frame. */
  longest = format_frame (self, MAX (n, 1), n, ft);
  chars = MAX ((guint) g_utf8_strlen (longest, -1) + 2, 22);
  if (gtk_inscription_get_nat_chars (self->frame_label) != chars)
    {
      gtk_inscription_set_min_chars (self->frame_label, chars);
      gtk_inscription_set_nat_chars (self->frame_label, chars);
    }
  gtk_inscription_set_text (self->frame_label, text);
}

/* The slider's range follows the motion; setting it must not move the session. */
static void
sync_scale (OdoriTransportBar *self)
{
  guint n = self->session ? odori_session_get_n_frames (self->session) : 0;

  self->syncing_scale = TRUE;
  gtk_adjustment_configure (self->frame_adjustment,
                            self->session ? odori_session_get_frame (self->session) : 1,
                            1, MAX (n, 1), 1, 30, 0);
  self->syncing_scale = FALSE;
}

static void
on_scale_value_changed_cb (OdoriTransportBar *self)
{
  if (self->syncing_scale || self->session == NULL)
    return;
  odori_session_set_frame (self->session, (guint) (gtk_adjustment_get_value (self->frame_adjustment) + 0.5));
}

static void
on_frame_changed_cb (OdoriTransportBar *self)
{
  sync_scale (self);
  update_frame_label (self);
}

static void
on_playing_changed_cb (OdoriTransportBar *self)
{
  gboolean playing = self->session != NULL && odori_session_get_playing (self->session);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, playing ? _ ("Pause") : _ ("Play"),
                                  -1);
}

static gboolean
playing_to_icon_cb (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  g_value_set_string (to, g_value_get_boolean (from) ? "media-playback-pause-symbolic"
                                                     : "media-playback-start-symbolic");
  return TRUE;
}

static gboolean
speed_to_label_cb (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  g_value_take_string (to, g_strdup_printf ("%g×", g_value_get_double (from)));
  return TRUE;
}

/* GObject */

static void
odori_transport_bar_dispose (GObject *object)
{
  OdoriTransportBar *self = ODORI_TRANSPORT_BAR (object);
  GtkWidget         *child;

  if (self->session_bindings != NULL)
    g_binding_group_set_source (self->session_bindings, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_TRANSPORT_BAR);
  /* GTK 4.8 only drops the bound children: unparent the others too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session_bindings);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (odori_transport_bar_parent_class)->dispose (object);
}

static void
odori_transport_bar_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  OdoriTransportBar *self = ODORI_TRANSPORT_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_transport_bar_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  OdoriTransportBar *self = ODORI_TRANSPORT_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      odori_transport_bar_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_transport_bar_class_init (OdoriTransportBarClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_transport_bar_dispose;
  object_class->get_property = odori_transport_bar_get_property;
  object_class->set_property = odori_transport_bar_set_property;

  properties[PROP_SESSION] =
      g_param_spec_object ("session", NULL, NULL, ODORI_TYPE_SESSION,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  odori_resources_ensure ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-transport-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriTransportBar, play_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriTransportBar, speed_button);
  gtk_widget_class_bind_template_child (widget_class, OdoriTransportBar, frame_scale);
  gtk_widget_class_bind_template_child (widget_class, OdoriTransportBar, frame_adjustment);
  gtk_widget_class_bind_template_child (widget_class, OdoriTransportBar, frame_label);
  gtk_widget_class_bind_template_callback (widget_class, on_scale_value_changed_cb);
  gtk_widget_class_set_css_name (widget_class, "odori-transport-bar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
odori_transport_bar_init (OdoriTransportBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = odori_settings_new ();
  g_signal_connect_object (self->settings, "changed::time-units",
                           G_CALLBACK (update_frame_label), self, G_CONNECT_SWAPPED);

  self->session_bindings = g_binding_group_new ();
  g_binding_group_bind_full (self->session_bindings, "playing", self->play_button, "icon-name",
                             G_BINDING_SYNC_CREATE, playing_to_icon_cb, NULL, NULL, NULL);
  g_binding_group_bind_full (self->session_bindings, "speed", self->speed_button, "label",
                             G_BINDING_SYNC_CREATE, speed_to_label_cb, NULL, NULL, NULL);

  self->session_signals = g_signal_group_new (ODORI_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "notify::frame",
                                 G_CALLBACK (on_frame_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "motion-changed",
                                 G_CALLBACK (on_frame_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::playing",
                                 G_CALLBACK (on_playing_changed_cb), self, G_CONNECT_SWAPPED);
  on_frame_changed_cb (self);
}

GtkWidget *
odori_transport_bar_new (void)
{
  return g_object_new (ODORI_TYPE_TRANSPORT_BAR, NULL);
}

/**
 * odori_transport_bar_get_session:
 *
 * Returns: (transfer none) (nullable): the session the bar shows
 */
OdoriSession *
odori_transport_bar_get_session (OdoriTransportBar *self)
{
  g_return_val_if_fail (ODORI_IS_TRANSPORT_BAR (self), NULL);
  return self->session;
}

void
odori_transport_bar_set_session (OdoriTransportBar *self,
                                 OdoriSession      *session)
{
  g_return_if_fail (ODORI_IS_TRANSPORT_BAR (self));
  g_return_if_fail (session == NULL || ODORI_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;
  g_signal_group_set_target (self->session_signals, session);
  g_binding_group_set_source (self->session_bindings, session);
  on_frame_changed_cb (self);
  on_playing_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}
