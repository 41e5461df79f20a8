/* odori-info-bar.c: the bars above the window's content (errors, recovery, undo removal)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one place that uses GtkInfoBar (deprecated in GTK 4.10), as gnome-text-editor's
 * EditorInfoBar wraps it: a later port to AdwBanner or a revealer touches this file and
 * its template only. Three bars: a message (error or warnings, with details), the offer
 * to recover unsaved work, and "Show removed — Undo".
 */
#include "config.h"

#include <glib/gi18n.h>

#include "odori-application.h"
#include "odori-info-bar.h"

struct _OdoriInfoBar
{
  GtkWidget parent_instance;

  OdoriDocument *document;

  GtkInfoBar  *error_bar;
  GtkLabel    *error_title;
  GtkLabel    *error_message;
  GtkExpander *error_expander;
  GtkLabel    *error_details;
  GtkInfoBar  *recover_bar;
  GtkLabel    *recover_label;
  GtkInfoBar  *removed_bar;
  GtkLabel    *removed_label;
};

G_DEFINE_FINAL_TYPE (OdoriInfoBar, odori_info_bar, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

enum
{
  RECOVERY_RESPONSE,
  REMOVED_CLOSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

static void
on_error_bar_response_cb (OdoriInfoBar *self,
                          int           response)
{
  odori_info_bar_hide_message (self);
}

static void
on_recover_bar_response_cb (OdoriInfoBar *self,
                            int           response)
{
  gtk_info_bar_set_revealed (self->recover_bar, FALSE);
  g_signal_emit (self, signals[RECOVERY_RESPONSE], 0, response);
}

static void
on_removed_bar_response_cb (OdoriInfoBar *self,
                            int           response)
{
  odori_info_bar_hide_removed (self);
  g_signal_emit (self, signals[REMOVED_CLOSED], 0);
}

/* GObject */

static void
odori_info_bar_dispose (GObject *object)
{
  OdoriInfoBar *self = ODORI_INFO_BAR (object);
  GtkWidget    *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), ODORI_TYPE_INFO_BAR);
  /* GTK 4.8 only drops the bound children: unparent the others too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_info_bar_parent_class)->dispose (object);
}

static void
odori_info_bar_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  OdoriInfoBar *self = ODORI_INFO_BAR (object);

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
odori_info_bar_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  OdoriInfoBar *self = ODORI_INFO_BAR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      odori_info_bar_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_info_bar_class_init (OdoriInfoBarClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_info_bar_dispose;
  object_class->get_property = odori_info_bar_get_property;
  object_class->set_property = odori_info_bar_set_property;

  properties[PROP_DOCUMENT] =
      g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The recovery bar was answered (OdoriInfoBarResponse), and hidden. */
  signals[RECOVERY_RESPONSE] = g_signal_new ("recovery-response",
                                             G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST,
                                             0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 1, G_TYPE_INT);
  /* The "Show removed" bar was closed without Undo. */
  signals[REMOVED_CLOSED] = g_signal_new ("removed-closed",
                                          G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);

  odori_resources_ensure ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/odori/Odori/odori-info-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, error_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, error_title);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, error_message);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, error_expander);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, error_details);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, recover_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, recover_label);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, removed_bar);
  gtk_widget_class_bind_template_child (widget_class, OdoriInfoBar, removed_label);
  gtk_widget_class_bind_template_callback (widget_class, on_error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_recover_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_removed_bar_response_cb);
  gtk_widget_class_set_css_name (widget_class, "odori-info-bar");
}

static void
odori_info_bar_init (OdoriInfoBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
odori_info_bar_new (void)
{
  return g_object_new (ODORI_TYPE_INFO_BAR, NULL);
}

/**
 * odori_info_bar_get_document:
 *
 * Returns: (transfer none) (nullable): the document whose state the bar reports
 */
OdoriDocument *
odori_info_bar_get_document (OdoriInfoBar *self)
{
  g_return_val_if_fail (ODORI_IS_INFO_BAR (self), NULL);
  return self->document;
}

void
odori_info_bar_set_document (OdoriInfoBar  *self,
                             OdoriDocument *document)
{
  g_return_if_fail (ODORI_IS_INFO_BAR (self));
  g_return_if_fail (document == NULL || ODORI_IS_DOCUMENT (document));

  if (g_set_object (&self->document, document))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

void
odori_info_bar_show_message (OdoriInfoBar  *self,
                             GtkMessageType type,
                             const char    *title,
                             const char    *message,
                             GPtrArray     *diagnostics)
{
  g_autoptr(GString) details = g_string_new (NULL);

  g_return_if_fail (ODORI_IS_INFO_BAR (self));
  g_return_if_fail (title != NULL);

  for (guint i = 0; diagnostics != NULL && i < diagnostics->len; i++)
    {
      const OdoriDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char       *line = odori_diagnostic_to_string (d);

      if (details->len > 0)
        g_string_append_c (details, '\n');
      g_string_append (details, line);
      if (!d->is_error)
        g_string_append (details, _ (" (warning)"));
    }
  gtk_info_bar_set_message_type (self->error_bar, type);
  gtk_label_set_text (self->error_title, title);
  gtk_label_set_text (self->error_message, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_message), message != NULL && message[0] != '\0');
  gtk_label_set_text (self->error_details, details->str);
  gtk_widget_set_visible (GTK_WIDGET (self->error_expander), details->len > 0);
  gtk_expander_set_expanded (self->error_expander, FALSE);
  gtk_info_bar_set_revealed (self->error_bar, TRUE);
}

void
odori_info_bar_hide_message (OdoriInfoBar *self)
{
  g_return_if_fail (ODORI_IS_INFO_BAR (self));
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
}

void
odori_info_bar_report_document (OdoriInfoBar *self)
{
  const GError *compose_error;
  GPtrArray    *diagnostics;

  g_return_if_fail (ODORI_IS_INFO_BAR (self));

  if (self->document == NULL)
    {
      odori_info_bar_hide_message (self);
      return;
    }
  compose_error = odori_document_get_compose_error (self->document);
  diagnostics = odori_document_get_diagnostics (self->document);
  if (compose_error != NULL)
    {
      const char      *path = odori_document_get_path (self->document);
      g_autofree char *message = NULL;

      /* Every load problem names its file: the composer's messages start with FILE:LINE,
       * and one that does not gets the score's name. */
      if (path != NULL && !g_str_has_prefix (compose_error->message, path))
        message = g_strdup_printf ("%s: %s", path, compose_error->message);
      odori_info_bar_show_message (self, GTK_MESSAGE_ERROR, _ ("The score does not compose with its library"),
                                   message != NULL ? message : compose_error->message, diagnostics);
    }
  else if (diagnostics != NULL && diagnostics->len > 0)
    {
      g_autofree char *title =
          g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Opened with %u warning", "Opened with %u warnings",
                                        diagnostics->len),
                           diagnostics->len);

      odori_info_bar_show_message (self, GTK_MESSAGE_WARNING, title, NULL, diagnostics);
      gtk_expander_set_expanded (self->error_expander, TRUE);
    }
  else
    odori_info_bar_hide_message (self);
}

void
odori_info_bar_offer_recovery (OdoriInfoBar *self,
                               const char   *text)
{
  g_return_if_fail (ODORI_IS_INFO_BAR (self));
  g_return_if_fail (text != NULL);

  gtk_label_set_text (self->recover_label, text);
  gtk_info_bar_set_revealed (self->recover_bar, TRUE);
}

void
odori_info_bar_show_removed (OdoriInfoBar *self,
                             const char   *text)
{
  g_return_if_fail (ODORI_IS_INFO_BAR (self));
  g_return_if_fail (text != NULL);

  gtk_label_set_text (self->removed_label, text);
  /* Not in the window until the first removal (its close button has no accessible name). */
  gtk_widget_set_visible (GTK_WIDGET (self->removed_bar), TRUE);
  gtk_info_bar_set_revealed (self->removed_bar, TRUE);
}

void
odori_info_bar_hide_removed (OdoriInfoBar *self)
{
  g_return_if_fail (ODORI_IS_INFO_BAR (self));
  gtk_info_bar_set_revealed (self->removed_bar, FALSE);
}
