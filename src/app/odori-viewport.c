/* odori-viewport.c: the 3D view of the dance (a GtkGLArea over OdoriRenderer)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every GL call lives in the renderer (src/render); this widget owns the context's
 * life cycle (gtkgears.c, gtkshadertoy.c), forwards the session's display motion and
 * frame, and turns mouse gestures into camera moves: drag orbits, Shift+drag or the
 * middle button pans, the wheel zooms.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <epoxy/gl.h>
#include <glib/gi18n.h>

#include "odori-debug.h"
#include "odori-paths.h"
#include "odori-viewport.h"

struct _OdoriViewport
{
  GtkGLArea       parent_instance;

  OdoriSession   *session;
  GSignalGroup   *session_signals;
  OdoriRenderer  *renderer;
  OdoriMotion    *shown_motion;     /* only compared, never dereferenced */
  OdoriView       view;
  gboolean        show_skin;
  gboolean        panning;
  double          last_dx;
  double          last_dy;
  guint           n_renders;
  int             drawn_scale;
  /* GSK's cairo renderer: the frame drawn into a framebuffer of our own and read back
   * in cairo's byte order (snapshot_read_back ()) */
  gboolean        read_back;
  GLuint          fbo;
  GLuint          color_rb;
  GLuint          depth_rb;
  int             fbo_width;
  int             fbo_height;
};

G_DEFINE_FINAL_TYPE (OdoriViewport, odori_viewport, GTK_TYPE_GL_AREA)

static void delete_framebuffer (OdoriViewport *self);

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Odori's muscle bulge catalogue (odori_find_data_file ()); loaded once, NULL when
 * there is none. */
static OdoriBulgeSet *
default_bulges (void)
{
  static OdoriBulgeSet *bulges;
  static gboolean tried;
  g_autofree char *path = NULL;

  if (tried)
    return bulges;
  tried = TRUE;
  path = odori_find_data_file ("bulge_types");
  if (path != NULL)
    bulges = odori_bulge_set_load (path, NULL);
  return bulges;
}

/* Hands the session's display motion to the renderer; a new motion is framed whole. */
static void
push_motion (OdoriViewport *self)
{
  OdoriMotion *motion = self->session ? odori_session_get_display_motion (self->session) : NULL;
  OdoriSkeleton *skeleton = self->session ? odori_session_get_display_skeleton (self->session) : NULL;

  if (self->renderer == NULL)
    return;
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  odori_renderer_set_motion (self->renderer, motion, skeleton);
  if (motion != self->shown_motion)
    {
      odori_renderer_set_view (self->renderer, self->view);
      odori_renderer_frame_all (self->renderer);
    }
  self->shown_motion = motion;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
on_motion_changed_cb (OdoriViewport *self)
{
  push_motion (self);
}

static void
on_frame_changed_cb (OdoriViewport *self)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
odori_viewport_realize (GtkWidget *widget)
{
  OdoriViewport *self = ODORI_VIEWPORT (widget);
  g_autoptr(GError) error = NULL;

  GTK_WIDGET_CLASS (odori_viewport_parent_class)->realize (widget);

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    return;
  odori_debug_mark ("gl-realized");
  self->read_back = GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (gtk_widget_get_native (widget)));
  self->renderer = odori_renderer_new (&error);
  odori_debug_mark ("renderer-made");
  if (self->renderer == NULL)
    {
      gtk_gl_area_set_error (GTK_GL_AREA (self), error);
      return;
    }
  odori_renderer_set_bulges (self->renderer, default_bulges ());
  odori_renderer_set_show_skin (self->renderer, self->show_skin);
  odori_renderer_set_show_bulges (self->renderer, self->show_skin);
  self->shown_motion = NULL;
  push_motion (self);
}

static void
odori_viewport_unrealize (GtkWidget *widget)
{
  OdoriViewport *self = ODORI_VIEWPORT (widget);

  /* The renderer deletes its GL objects: the context must still be current. */
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) == NULL)
    delete_framebuffer (self);
  g_clear_pointer (&self->renderer, odori_renderer_free);
  GTK_WIDGET_CLASS (odori_viewport_parent_class)->unrealize (widget);
}

/* ODORI_DEBUG=first-frame (build-aux/bench): once the first frame has been painted,
 * print CLOCK_MONOTONIC in microseconds on stdout and quit, with everything loaded. */
static void
bench_after_paint_cb (GdkFrameClock *clock,
                      gpointer       user_data)
{
  printf ("odori-first-frame-us %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  g_signal_handlers_disconnect_by_func (clock, bench_after_paint_cb, user_data);
  g_application_quit (g_application_get_default ());
}

/* Draws the current frame into the bound framebuffer of WIDTH x HEIGHT pixels; on
 * failure the GL area keeps the error (and shows it). */
static gboolean
draw_frame (OdoriViewport *self,
            int            width,
            int            height)
{
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();

  if (self->renderer == NULL || gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    return FALSE;
  if (self->session != NULL && odori_session_get_display_motion (self->session) != NULL)
    odori_renderer_set_frame (self->renderer, odori_session_get_frame (self->session) - 1);
  if (self->n_renders == 0)
    odori_debug_mark ("first-draw");
  if (!odori_renderer_draw (self->renderer, width, height, &error))
    {
      gtk_gl_area_set_error (GTK_GL_AREA (self), error);
      return FALSE;
    }
  self->drawn_scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  if (ODORI_DEBUG_ENABLED (ODORI_DEBUG_FRAMES))
    {
      glFinish ();
      odori_debug_span ("viewport-draw", t0);
    }
  if (self->n_renders == 0)
    odori_debug_mark ("first-drawn");
  self->n_renders++;
  if (self->n_renders == 1 && ODORI_DEBUG_ENABLED (ODORI_DEBUG_FIRST_FRAME))
    g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (self)), "after-paint",
                      G_CALLBACK (bench_after_paint_cb), NULL);
  return TRUE;
}

static gboolean
odori_viewport_render (GtkGLArea    *area,
                       GdkGLContext *context)
{
  OdoriViewport *self = ODORI_VIEWPORT (area);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  return draw_frame (self, gtk_widget_get_width (GTK_WIDGET (self)) * scale,
                     gtk_widget_get_height (GTK_WIDGET (self)) * scale);
}

static void
delete_framebuffer (OdoriViewport *self)
{
  if (self->fbo != 0)
    glDeleteFramebuffers (1, &self->fbo);
  if (self->color_rb != 0)
    glDeleteRenderbuffers (1, &self->color_rb);
  if (self->depth_rb != 0)
    glDeleteRenderbuffers (1, &self->depth_rb);
  self->fbo = self->color_rb = self->depth_rb = 0;
  self->fbo_width = self->fbo_height = 0;
}

/* A framebuffer of WIDTH x HEIGHT with depth, bound; FALSE when GL cannot make one. */
static gboolean
bind_framebuffer (OdoriViewport *self,
                  int            width,
                  int            height)
{
  if (self->fbo != 0 && self->fbo_width == width && self->fbo_height == height)
    {
      glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
      return TRUE;
    }
  delete_framebuffer (self);
  glGenRenderbuffers (1, &self->color_rb);
  glBindRenderbuffer (GL_RENDERBUFFER, self->color_rb);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, width, height);
  glGenRenderbuffers (1, &self->depth_rb);
  glBindRenderbuffer (GL_RENDERBUFFER, self->depth_rb);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
  glGenFramebuffers (1, &self->fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, self->color_rb);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, self->depth_rb);
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    {
      glBindFramebuffer (GL_FRAMEBUFFER, 0);
      delete_framebuffer (self);
      return FALSE;
    }
  self->fbo_width = width;
  self->fbo_height = height;
  return TRUE;
}

/* On GSK's cairo renderer (chosen on a software rasteriser: odori-application.c) GTK
 * 4.8 paints a GtkGLArea, and any texture, by downloading it into a cairo surface
 * through floats, pixel by pixel: a few milliseconds of a busy main thread each frame.
 * The viewport draws into a framebuffer of its own instead, reads it back straight
 * into a cairo image in cairo's byte order (the download read it back too) and hands
 * GTK a cairo node, which cairo copies as it is (#21, docs/rendering.md). The picture
 * is opaque (the backdrop is drawn behind everything), so it is painted as RGB24: a
 * copy, not a blend. FALSE: GtkGLArea's own way is taken. */
static gboolean
snapshot_read_back (OdoriViewport *self,
                    GtkSnapshot   *snapshot)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  int w = width * scale, h = height * scale;
  g_autofree guint8 *bottom_up = NULL;
  cairo_surface_t *image;
  cairo_t *cr;
  guint8 *pixels;
  gsize stride;

  if (w < 1 || h < 1 || self->renderer == NULL || gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    return FALSE;
  image = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS ||
      (gsize) cairo_image_surface_get_stride (image) != (gsize) w * 4)
    {
      cairo_surface_destroy (image);
      return FALSE;
    }
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (!bind_framebuffer (self, w, h))
    {
      cairo_surface_destroy (image);
      return FALSE;
    }
  if (!draw_frame (self, w, h))
    {
      glBindFramebuffer (GL_FRAMEBUFFER, 0);
      cairo_surface_destroy (image);
      return TRUE;
    }
  stride = (gsize) w * 4;
  bottom_up = g_malloc (stride * h);
  glPixelStorei (GL_PACK_ALIGNMENT, 4);
  glReadPixels (0, 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE, bottom_up);
  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  /* GL's rows run bottom-up, cairo's top-down */
  cairo_surface_flush (image);
  pixels = cairo_image_surface_get_data (image);
  for (int y = 0; y < h; y++)
    memcpy (pixels + (gsize) y * stride, bottom_up + (gsize) (h - 1 - y) * stride, stride);
  cairo_surface_mark_dirty (image);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_scale (cr, 1.0 / scale, 1.0 / scale);
  cairo_set_source_surface (cr, image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (image);
  return TRUE;
}

static void
odori_viewport_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  OdoriViewport *self = ODORI_VIEWPORT (widget);

  if (self->read_back && snapshot_read_back (self, snapshot))
    return;
  GTK_WIDGET_CLASS (odori_viewport_parent_class)->snapshot (widget, snapshot);
}

/* Mouse */

static void
on_drag_begin_cb (GtkGestureDrag *gesture,
                  double          x,
                  double          y,
                  OdoriViewport  *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  self->panning = button == GDK_BUTTON_MIDDLE || (state & GDK_SHIFT_MASK) != 0;
  self->last_dx = 0;
  self->last_dy = 0;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update_cb (GtkGestureDrag *gesture,
                   double          dx,
                   double          dy,
                   OdoriViewport  *self)
{
  double ddx = dx - self->last_dx;
  double ddy = dy - self->last_dy;

  self->last_dx = dx;
  self->last_dy = dy;
  if (self->panning)
    odori_viewport_pan (self, ddx, ddy);
  else
    odori_viewport_orbit (self, -ddx * 0.4, -ddy * 0.4);
}

static gboolean
on_scroll_cb (GtkEventControllerScroll *controller,
              double                    dx,
              double                    dy,
              OdoriViewport            *self)
{
  odori_viewport_zoom (self, pow (1.1, -dy));
  return TRUE;
}

/* GObject */

static void
odori_viewport_dispose (GObject *object)
{
  OdoriViewport *self = ODORI_VIEWPORT (object);

  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (odori_viewport_parent_class)->dispose (object);
}

static void
odori_viewport_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  OdoriViewport *self = ODORI_VIEWPORT (object);

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
odori_viewport_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  OdoriViewport *self = ODORI_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      odori_viewport_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
odori_viewport_class_init (OdoriViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkGLAreaClass *area_class = GTK_GL_AREA_CLASS (klass);

  object_class->dispose = odori_viewport_dispose;
  object_class->get_property = odori_viewport_get_property;
  object_class->set_property = odori_viewport_set_property;
  widget_class->realize = odori_viewport_realize;
  widget_class->unrealize = odori_viewport_unrealize;
  widget_class->snapshot = odori_viewport_snapshot;
  area_class->render = odori_viewport_render;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, ODORI_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "odori-viewport");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
odori_viewport_init (OdoriViewport *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  self->view = ODORI_VIEW_THREE_QUARTER;
  self->show_skin = TRUE;

  gtk_gl_area_set_required_version (GTK_GL_AREA (self), 3, 3);
  gtk_gl_area_set_use_es (GTK_GL_AREA (self), FALSE);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self), TRUE);
  gtk_gl_area_set_auto_render (GTK_GL_AREA (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 240, 180);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("3D view of the dance"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Drag to orbit, Shift+drag or middle button to pan, scroll to zoom, F to frame all"),
                                  -1);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  self->session_signals = g_signal_group_new (ODORI_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "motion-changed",
                                 G_CALLBACK (on_motion_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->session_signals, "notify::frame",
                                 G_CALLBACK (on_frame_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
odori_viewport_new (void)
{
  return g_object_new (ODORI_TYPE_VIEWPORT, NULL);
}

OdoriSession *
odori_viewport_get_session (OdoriViewport *self)
{
  g_return_val_if_fail (ODORI_IS_VIEWPORT (self), NULL);
  return self->session;
}

void
odori_viewport_set_session (OdoriViewport *self,
                             OdoriSession  *session)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));
  g_return_if_fail (session == NULL || ODORI_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;
  g_signal_group_set_target (self->session_signals, session);
  push_motion (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

void
odori_viewport_set_view (OdoriViewport *self,
                         OdoriView      view)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));

  self->view = view;
  if (self->renderer == NULL)
    return;
  odori_renderer_set_view (self->renderer, view);
  odori_renderer_frame_all (self->renderer);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
odori_viewport_frame_all (OdoriViewport *self)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));

  if (self->renderer == NULL)
    return;
  odori_renderer_frame_all (self->renderer);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
odori_viewport_set_show_skin (OdoriViewport *self,
                              gboolean       show)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));

  self->show_skin = !!show;
  if (self->renderer == NULL)
    return;
  odori_renderer_set_show_skin (self->renderer, self->show_skin);
  odori_renderer_set_show_bulges (self->renderer, self->show_skin);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
odori_viewport_orbit (OdoriViewport *self,
                      double         yaw_deg,
                      double         pitch_deg)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));

  if (self->renderer == NULL)
    return;
  odori_renderer_orbit (self->renderer, (float) yaw_deg, (float) pitch_deg);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
odori_viewport_pan (OdoriViewport *self,
                    double         dx,
                    double         dy)
{
  int scale;

  g_return_if_fail (ODORI_IS_VIEWPORT (self));

  if (self->renderer == NULL)
    return;
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  odori_renderer_pan (self->renderer, (float) (dx * scale), (float) (dy * scale));
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
odori_viewport_zoom (OdoriViewport *self,
                     double         factor)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));

  if (self->renderer == NULL || !(factor > 0))
    return;
  odori_renderer_zoom (self->renderer, (float) factor);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

gboolean
odori_viewport_project (OdoriViewport *self,
                        const float    world[3],
                        float          widget_xy[2])
{
  float px[2];

  g_return_val_if_fail (ODORI_IS_VIEWPORT (self), FALSE);

  if (self->renderer == NULL || self->n_renders == 0)
    return FALSE;
  odori_renderer_project (self->renderer, world, px);
  widget_xy[0] = px[0] / MAX (self->drawn_scale, 1);
  widget_xy[1] = px[1] / MAX (self->drawn_scale, 1);
  return TRUE;
}

guint
odori_viewport_get_n_renders (OdoriViewport *self)
{
  g_return_val_if_fail (ODORI_IS_VIEWPORT (self), 0);
  return self->n_renders;
}

gboolean
odori_viewport_get_read_back (OdoriViewport *self)
{
  g_return_val_if_fail (ODORI_IS_VIEWPORT (self), FALSE);
  return self->read_back;
}

void
odori_viewport_set_read_back (OdoriViewport *self,
                              gboolean       read_back)
{
  g_return_if_fail (ODORI_IS_VIEWPORT (self));
  self->read_back = read_back != FALSE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}
