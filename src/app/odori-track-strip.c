/* odori-track-strip.c: a read-only view of the score's tracks and symbols
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawn in snapshot with append_color and append_layout (sysprof-time-ruler), redrawn
 * on the document's notifications through a GSignalGroup.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "odori-track-strip.h"

#define RULER_HEIGHT 22
#define ROW_HEIGHT   26
#define ROW_GAP      3
#define GUTTER       64
#define MARGIN_END   12

struct _OdoriTrackStrip
{
  GtkWidget       parent_instance;

  OdoriDocument  *document;
  GSignalGroup   *document_signals;
  OdoriTimeUnits  units;
};

G_DEFINE_FINAL_TYPE (OdoriTrackStrip, odori_track_strip, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TIME_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Length of a symbol in frames per the index, 0 when it does not resolve. */
static guint
symbol_frames (OdoriIndex *index,
               const char *symbol)
{
  g_autoptr(GError) error = NULL;
  OdoriIndexMotion *motion;

  if (index == NULL)
    return 0;
  motion = odori_index_lookup (index, symbol, &error);
  return motion != NULL ? motion->last - motion->first + 1 : 0;
}

static guint
total_frames (OdoriTrackStrip *self)
{
  OdoriScore *score = odori_document_get_score (self->document);
  OdoriIndex *index = odori_document_get_index (self->document);
  OdoriMotion *motion = odori_document_get_motion (self->document);
  guint total = motion != NULL ? motion->n_frames : 0;

  for (guint p = 0; score != NULL && p < score->parts->len; p++)
    {
      OdoriScorePart *part = g_ptr_array_index (score->parts, p);

      for (guint i = 0; i < part->symbols->len; i++)
        {
          OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, i);

          total = MAX (total, s->start + MAX (symbol_frames (index, s->symbol), 1) - 1);
        }
    }
  return MAX (total, 1);
}

static double
x_of_frame (OdoriTrackStrip *self,
            double           frame,
            guint            total)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  return GUTTER + (frame - 1) / total * MAX (width - GUTTER - MARGIN_END, 1);
}

guint
odori_track_strip_frame_at (OdoriTrackStrip *self,
                            double           x)
{
  int width;
  double f;
  guint total;

  g_return_val_if_fail (ODORI_IS_TRACK_STRIP (self), 1);

  if (self->document == NULL)
    return 1;
  width = gtk_widget_get_width (GTK_WIDGET (self));
  total = total_frames (self);
  f = 1 + (x - GUTTER) / MAX (width - GUTTER - MARGIN_END, 1) * total;
  return (guint) CLAMP (floor (f), 1, total);
}

static void
get_fg (GtkWidget *widget,
        GdkRGBA   *rgba)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), rgba);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/* A calm colour per show, the same on every run. */
static void
show_color (const char *symbol,
            GdkRGBA    *rgba)
{
  static const GdkRGBA palette[] = {
    { 0.36, 0.56, 0.85, 1 },
    { 0.90, 0.55, 0.30, 1 },
    { 0.38, 0.70, 0.45, 1 },
    { 0.70, 0.45, 0.80, 1 },
    { 0.85, 0.40, 0.50, 1 },
    { 0.35, 0.70, 0.75, 1 },
    { 0.75, 0.65, 0.30, 1 },
  };
  const char *dot = strchr (symbol, '.');
  g_autofree char *show = dot ? g_strndup (symbol, dot - symbol) : g_strdup (symbol);

  *rgba = palette[g_str_hash (show) % G_N_ELEMENTS (palette)];
}

static void
append_text (GtkSnapshot *snapshot,
             GtkWidget   *widget,
             const char  *text,
             double       x,
             double       y,
             double       max_width,
             const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  if (max_width < 8)
    return;
  pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) (y - h / 2.0)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static char *
ruler_label (OdoriTrackStrip *self,
             guint            frame,
             double           frame_time)
{
  double seconds = (frame - 1) * frame_time;

  switch (self->units)
    {
    case ODORI_TIME_UNITS_FRAMES:
      return g_strdup_printf ("%u", frame);
    case ODORI_TIME_UNITS_SECONDS:
      return g_strdup_printf (_("%.0f s"), seconds);
    case ODORI_TIME_UNITS_BOTH:
    default:
      return g_strdup_printf (_("%.0f s · %u"), seconds, frame);
    }
}

static void
snapshot_ruler (OdoriTrackStrip *self,
                GtkSnapshot     *snapshot,
                guint            total,
                double           frame_time,
                const GdkRGBA   *fg)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int width = gtk_widget_get_width (widget);
  GdkRGBA tick = *fg;
  guint fps = MAX ((guint) lround (1.0 / frame_time), 1);
  static const guint seconds[] = { 1, 2, 5, 10, 20, 30, 60, 120, 300, 600 };
  double px_per_frame = (double) MAX (width - GUTTER - MARGIN_END, 1) / total;
  double min_gap = self->units == ODORI_TIME_UNITS_BOTH ? 96 : 64;
  guint step = fps;

  /* A labelled tick every 1, 2, 5, 10 … seconds, far enough apart for its label. */
  for (guint i = 0; i < G_N_ELEMENTS (seconds); i++)
    {
      step = fps * seconds[i];
      if (step * px_per_frame >= min_gap)
        break;
    }
  tick.alpha = 0.35;
  for (guint f = 1; f <= total; f += step)
    {
      double x = x_of_frame (self, f, total);
      g_autofree char *label = ruler_label (self, f, frame_time);

      gtk_snapshot_append_color (snapshot, &tick, &GRAPHENE_RECT_INIT ((float) x, 12, 1, RULER_HEIGHT - 12));
      if (x + 3 + min_gap - 8 <= width)
        append_text (snapshot, widget, label, x + 3, 9, min_gap - 6, fg);
    }
}

static void
snapshot_part (OdoriTrackStrip *self,
               GtkSnapshot     *snapshot,
               OdoriScorePart  *part,
               double           y,
               guint            total,
               const GdkRGBA   *fg)
{
  GtkWidget *widget = GTK_WIDGET (self);
  OdoriIndex *index = odori_document_get_index (self->document);
  int width = gtk_widget_get_width (widget);
  GdkRGBA lane = *fg;
  GdkRGBA label_color = { 1, 1, 1, 1 };

  lane.alpha = 0.06;
  gtk_snapshot_append_color (snapshot, &lane,
                             &GRAPHENE_RECT_INIT (GUTTER, (float) y, (float) (width - GUTTER - MARGIN_END), ROW_HEIGHT));
  append_text (snapshot, widget, part->code, 8, y + ROW_HEIGHT / 2.0, GUTTER - 12, fg);

  for (guint i = 0; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, i);
      guint n = MAX (symbol_frames (index, s->symbol), 1);
      guint end = s->start + n;
      guint next = i + 1 < part->symbols->len ? g_array_index (part->symbols, OdoriScoreSymbol, i + 1).start : end;
      double x0, x1, x2;
      GdkRGBA color, hold;

      end = MIN (end, next);
      x0 = x_of_frame (self, s->start, total);
      x1 = x_of_frame (self, end, total);
      x2 = x_of_frame (self, next, total);
      show_color (s->symbol, &color);
      if (symbol_frames (index, s->symbol) == 0)
        color = (GdkRGBA) { 0.55, 0.55, 0.55, 1 };
      /* After its last frame a symbol holds that pose until the next one starts. */
      hold = color;
      hold.alpha = 0.3;
      if (x2 > x1 + 1)
        gtk_snapshot_append_color (snapshot, &hold,
                                   &GRAPHENE_RECT_INIT ((float) x1, (float) y + ROW_HEIGHT / 2.f - 2,
                                                        (float) (x2 - x1 - 1), 4));
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT ((float) x0 + 1, (float) y + 2,
                                                      (float) MAX (x1 - x0 - 2, 1), ROW_HEIGHT - 4));
      append_text (snapshot, widget, s->symbol, x0 + 5, y + ROW_HEIGHT / 2.0, x1 - x0 - 8, &label_color);
    }
}

static void
odori_track_strip_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  OdoriTrackStrip *self = ODORI_TRACK_STRIP (widget);
  OdoriScore *score;
  GdkRGBA fg;
  guint total;
  double frame_time;

  if (self->document == NULL || (score = odori_document_get_score (self->document)) == NULL)
    return;
  get_fg (widget, &fg);
  total = total_frames (self);
  frame_time = odori_document_get_motion (self->document) != NULL
               ? odori_document_get_motion (self->document)->frame_time : 1.0 / 30;
  if (!(frame_time > 0))
    frame_time = 1.0 / 30;

  snapshot_ruler (self, snapshot, total, frame_time, &fg);
  for (guint p = 0; p < score->parts->len; p++)
    snapshot_part (self, snapshot, g_ptr_array_index (score->parts, p),
                   RULER_HEIGHT + p * (ROW_HEIGHT + ROW_GAP), total, &fg);

  /* The playhead of the dance (none while a motion is previewed alone). */
  if (odori_document_get_preview (self->document) == NULL)
    {
      double x = x_of_frame (self, odori_document_get_frame (self->document), total);
      GdkRGBA head = { 0.89, 0.11, 0.14, 1 };

      gtk_snapshot_append_color (snapshot, &head,
                                 &GRAPHENE_RECT_INIT ((float) x - 1, 0, 2, (float) gtk_widget_get_height (widget)));
    }
}

static void
odori_track_strip_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  OdoriTrackStrip *self = ODORI_TRACK_STRIP (widget);
  OdoriScore *score = self->document ? odori_document_get_score (self->document) : NULL;
  guint n_parts = score != NULL ? score->parts->len : 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = GUTTER + MARGIN_END + 120;
  else
    *minimum = *natural = RULER_HEIGHT + n_parts * (ROW_HEIGHT + ROW_GAP) + 4;
}

/* Which symbol is under X, Y: its part and index, FALSE for none. */
static gboolean
symbol_at (OdoriTrackStrip   *self,
           double             x,
           double             y,
           OdoriScorePart   **part_out,
           OdoriScoreSymbol **symbol_out)
{
  OdoriScore *score = odori_document_get_score (self->document);
  OdoriScorePart *part;
  guint frame;
  int row;

  if (score == NULL || y < RULER_HEIGHT || x < GUTTER)
    return FALSE;
  row = (int) ((y - RULER_HEIGHT) / (ROW_HEIGHT + ROW_GAP));
  if (row < 0 || (guint) row >= score->parts->len)
    return FALSE;
  part = g_ptr_array_index (score->parts, row);
  frame = odori_track_strip_frame_at (self, x);
  *part_out = part;
  *symbol_out = NULL;
  for (guint i = 0; i < part->symbols->len; i++)
    {
      OdoriScoreSymbol *s = &g_array_index (part->symbols, OdoriScoreSymbol, i);

      if (s->start <= frame)
        *symbol_out = s;
    }
  return TRUE;
}

static gboolean
odori_track_strip_query_tooltip (GtkWidget  *widget,
                                 int         x,
                                 int         y,
                                 gboolean    keyboard,
                                 GtkTooltip *tooltip)
{
  OdoriTrackStrip *self = ODORI_TRACK_STRIP (widget);
  OdoriIndex *index;
  OdoriScorePart *part;
  OdoriScoreSymbol *symbol;
  OdoriIndexPart *ipart;
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->document == NULL || !symbol_at (self, x, y, &part, &symbol))
    return FALSE;
  index = odori_document_get_index (self->document);
  ipart = index ? odori_index_find_part (index, part->code) : NULL;
  g_string_append_printf (text, "<b>%s</b>", part->code);
  if (ipart != NULL && ipart->name != NULL)
    {
      g_autofree char *name = g_markup_escape_text (ipart->name, -1);

      g_string_append_printf (text, " %s", name);
    }
  if (symbol != NULL)
    {
      g_autoptr(GError) error = NULL;
      OdoriIndexMotion *motion = index ? odori_index_lookup (index, symbol->symbol, &error) : NULL;
      g_autofree char *code = g_markup_escape_text (symbol->symbol, -1);

      g_string_append_printf (text, "\n%u: <b>%s</b>", symbol->start, code);
      if (motion != NULL)
        {
          g_autofree char *name = g_markup_escape_text (motion->name ? motion->name : "", -1);
          g_autofree char *exp = g_markup_escape_text (motion->exp ? motion->exp : "", -1);

          g_string_append_printf (text, " %s\n%s", name, exp);
        }
      else if (error != NULL)
        {
          g_autofree char *message = g_markup_escape_text (error->message, -1);

          g_string_append_printf (text, "\n%s", message);
        }
    }
  gtk_tooltip_set_markup (tooltip, text->str);
  return TRUE;
}

static void
seek_to (OdoriTrackStrip *self,
         double           x)
{
  if (self->document == NULL)
    return;
  odori_document_stop_preview (self->document);
  odori_document_set_frame (self->document, odori_track_strip_frame_at (self, x));
}

static void
on_drag_begin_cb (GtkGestureDrag  *gesture,
                  double           x,
                  double           y,
                  OdoriTrackStrip *self)
{
  seek_to (self, x);
}

static void
on_drag_update_cb (GtkGestureDrag  *gesture,
                   double           dx,
                   double           dy,
                   OdoriTrackStrip *self)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  seek_to (self, x + dx);
}

static void
queue_draw_cb (OdoriTrackStrip *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
queue_resize_cb (OdoriTrackStrip *self)
{
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
odori_track_strip_dispose (GObject *object)
{
  OdoriTrackStrip *self = ODORI_TRACK_STRIP (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (odori_track_strip_parent_class)->dispose (object);
}

static void
odori_track_strip_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  OdoriTrackStrip *self = ODORI_TRACK_STRIP (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_TIME_UNITS:
      g_value_set_int (value, self->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_track_strip_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  OdoriTrackStrip *self = ODORI_TRACK_STRIP (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      odori_track_strip_set_document (self, g_value_get_object (value));
      break;
    case PROP_TIME_UNITS:
      odori_track_strip_set_time_units (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_track_strip_class_init (OdoriTrackStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = odori_track_strip_dispose;
  object_class->get_property = odori_track_strip_get_property;
  object_class->set_property = odori_track_strip_set_property;
  widget_class->snapshot = odori_track_strip_snapshot;
  widget_class->measure = odori_track_strip_measure;
  widget_class->query_tooltip = odori_track_strip_query_tooltip;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, ODORI_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME_UNITS] =
    g_param_spec_int ("time-units", NULL, NULL, 0, 2, ODORI_TIME_UNITS_BOTH,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "odori-track-strip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
odori_track_strip_init (OdoriTrackStrip *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->units = ODORI_TIME_UNITS_BOTH;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Score tracks"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("One row per body part with its dance symbols; click to move the playhead"),
                                  -1);

  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  self->document_signals = g_signal_group_new (ODORI_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::frame",
                                 G_CALLBACK (queue_draw_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::previewing",
                                 G_CALLBACK (queue_draw_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "motion-changed",
                                 G_CALLBACK (queue_draw_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::score",
                                 G_CALLBACK (queue_resize_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
odori_track_strip_new (void)
{
  return g_object_new (ODORI_TYPE_TRACK_STRIP, NULL);
}

OdoriDocument *
odori_track_strip_get_document (OdoriTrackStrip *self)
{
  g_return_val_if_fail (ODORI_IS_TRACK_STRIP (self), NULL);
  return self->document;
}

void
odori_track_strip_set_document (OdoriTrackStrip *self,
                                OdoriDocument   *document)
{
  g_return_if_fail (ODORI_IS_TRACK_STRIP (self));
  g_return_if_fail (document == NULL || ODORI_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

void
odori_track_strip_set_time_units (OdoriTrackStrip *self,
                                  OdoriTimeUnits   units)
{
  g_return_if_fail (ODORI_IS_TRACK_STRIP (self));

  if (self->units == units)
    return;
  self->units = units;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UNITS]);
}
