/* odori-headless.c: offscreen GL without a display (EGL surfaceless), read-back and PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The display comes from EGL_MESA_platform_surfaceless, else from the software device of
 * EGL_EXT_platform_device (the same llvmpipe either way), never from
 * eglGetDisplay (EGL_DEFAULT_DISPLAY), which would look for X11 or Wayland. The context
 * is desktop OpenGL 3.3 core, made current without a surface; everything is drawn into
 * an FBO with an RGBA8 colour and a DEPTH24_STENCIL8 renderbuffer.
 */
#include "config.h"

#include <string.h>

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <png.h>

#include "odori-headless.h"
#include "odori-renderer.h"
#include "odori-text.h"

/* GL_MAX_RENDERBUFFER_SIZE is at least 16384 on llvmpipe; refuse more than this anyway,
 * a W x H x 4 read-back of 16384^2 is already a gigabyte. */
#define MAX_SIZE 16384
#define MAX_SAMPLES_TOTAL (G_GUINT64_CONSTANT (64) * 1024 * 1024)

/* eglGetPlatformDisplay gives every caller the same display, and eglTerminate ends it
 * for all of them: terminate only when the last user is gone. */
G_LOCK_DEFINE_STATIC (displays);
static guint display_users;

struct _OdoriHeadless
{
  EGLDisplay display;
  EGLContext context;
  GLuint     fbo;
  GLuint     color_rb;
  GLuint     depth_rb;
  GLuint     resolve_fbo;  /* multisampling: the single-sample copy that is read back */
  GLuint     resolve_rb;
  int        samples;
  int        width;
  int        height;
  char      *gl_renderer;
};

static EGLDisplay
get_display (void)
{
  EGLDisplay display = EGL_NO_DISPLAY;

  if (epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
    display = eglGetPlatformDisplayEXT (EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);

  if (display == EGL_NO_DISPLAY &&
      epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_platform_device") &&
      epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_device_enumeration"))
    {
      EGLDeviceEXT devices[16];
      EGLint n = 0;

      if (eglQueryDevicesEXT (G_N_ELEMENTS (devices), devices, &n))
        for (EGLint i = 0; i < n && display == EGL_NO_DISPLAY; i++)
          {
            const char *ext = eglQueryDeviceStringEXT (devices[i], EGL_EXTENSIONS);

            if (ext != NULL && strstr (ext, "EGL_MESA_device_software") != NULL)
              display = eglGetPlatformDisplayEXT (EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
          }
    }
  return display;
}

static gboolean
create_context (OdoriHeadless  *self,
                GError        **error)
{
  static const EGLint config_attribs[] = {
    EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
    EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
    EGL_NONE
  };
  static const EGLint context_attribs[] = {
    EGL_CONTEXT_MAJOR_VERSION, 3,
    EGL_CONTEXT_MINOR_VERSION, 3,
    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
    EGL_NONE
  };
  EGLint major, minor, n_configs = 0;
  EGLConfig config = EGL_NO_CONFIG_KHR;

  self->display = get_display ();
  if (self->display == EGL_NO_DISPLAY)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("no EGL display: neither the surfaceless platform nor a software "
                     "device is available (is Mesa's libegl-mesa0 installed?)"));
      return FALSE;
    }
  if (!eglInitialize (self->display, &major, &minor))
    {
      self->display = EGL_NO_DISPLAY;
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("cannot initialise EGL (error 0x%x)"), (guint) eglGetError ());
      return FALSE;
    }
  G_LOCK (displays);
  display_users++;
  G_UNLOCK (displays);
  if (!epoxy_has_egl_extension (self->display, "EGL_KHR_surfaceless_context"))
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("EGL %d.%d has no surfaceless contexts (EGL_KHR_surfaceless_context)"),
                   major, minor);
      return FALSE;
    }
  if (!eglBindAPI (EGL_OPENGL_API))
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("EGL cannot bind desktop OpenGL (error 0x%x)"), (guint) eglGetError ());
      return FALSE;
    }
  if (!eglChooseConfig (self->display, config_attribs, &config, 1, &n_configs) || n_configs < 1)
    config = EGL_NO_CONFIG_KHR;   /* EGL_KHR_no_config_context: fine, we draw into an FBO */

  self->context = eglCreateContext (self->display, config, EGL_NO_CONTEXT, context_attribs);
  if (self->context == EGL_NO_CONTEXT)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("cannot create an OpenGL 3.3 core context (EGL error 0x%x)"),
                   (guint) eglGetError ());
      return FALSE;
    }
  if (!eglMakeCurrent (self->display, EGL_NO_SURFACE, EGL_NO_SURFACE, self->context))
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("cannot make the OpenGL context current (EGL error 0x%x)"),
                   (guint) eglGetError ());
      return FALSE;
    }
  if (epoxy_gl_version () < 33)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("OpenGL 3.3 is needed, the context has %d.%d"),
                   epoxy_gl_version () / 10, epoxy_gl_version () % 10);
      return FALSE;
    }
  self->gl_renderer = g_strdup ((const char *) glGetString (GL_RENDERER));
  return TRUE;
}

static void
delete_framebuffer (OdoriHeadless *self)
{
  if (self->fbo != 0)
    glDeleteFramebuffers (1, &self->fbo);
  if (self->color_rb != 0)
    glDeleteRenderbuffers (1, &self->color_rb);
  if (self->depth_rb != 0)
    glDeleteRenderbuffers (1, &self->depth_rb);
  if (self->resolve_fbo != 0)
    glDeleteFramebuffers (1, &self->resolve_fbo);
  if (self->resolve_rb != 0)
    glDeleteRenderbuffers (1, &self->resolve_rb);
  self->fbo = self->color_rb = self->depth_rb = self->resolve_fbo = self->resolve_rb = 0;
}

static gboolean
create_framebuffer (OdoriHeadless  *self,
                    int             width,
                    int             height,
                    GError        **error)
{
  GLenum status;

  if (width < 1 || height < 1 || width > MAX_SIZE || height > MAX_SIZE)
    {
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("an image of %dx%d pixels: each side must be 1 to %d"),
                   width, height, MAX_SIZE);
      return FALSE;
    }

  delete_framebuffer (self);
  /* colour and depth take 8 bytes a sample: keep a huge image within ~512 MiB */
  while (self->samples > 1 && (guint64) self->samples * width * height > MAX_SAMPLES_TOTAL)
    self->samples /= 2;
  if (self->samples <= 1)
    self->samples = 0;
  if (self->samples > 1)
    {
      glGenRenderbuffers (1, &self->resolve_rb);
      glBindRenderbuffer (GL_RENDERBUFFER, self->resolve_rb);
      glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, width, height);
      glGenFramebuffers (1, &self->resolve_fbo);
      glBindFramebuffer (GL_FRAMEBUFFER, self->resolve_fbo);
      glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                 self->resolve_rb);
    }
  glGenRenderbuffers (1, &self->color_rb);
  glBindRenderbuffer (GL_RENDERBUFFER, self->color_rb);
  glRenderbufferStorageMultisample (GL_RENDERBUFFER, MAX (self->samples, 0), GL_RGBA8,
                                    width, height);
  glGenRenderbuffers (1, &self->depth_rb);
  glBindRenderbuffer (GL_RENDERBUFFER, self->depth_rb);
  glRenderbufferStorageMultisample (GL_RENDERBUFFER, MAX (self->samples, 0),
                                    GL_DEPTH24_STENCIL8, width, height);
  glGenFramebuffers (1, &self->fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, self->color_rb);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                             self->depth_rb);
  status = glCheckFramebufferStatus (GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    {
      delete_framebuffer (self);
      g_set_error (error, ODORI_RENDER_ERROR, ODORI_RENDER_ERROR_CONTEXT,
                   _("cannot make a %dx%d framebuffer (status 0x%x)"), width, height,
                   (guint) status);
      return FALSE;
    }
  self->width = width;
  self->height = height;
  glViewport (0, 0, width, height);
  return TRUE;
}

OdoriHeadless *
odori_headless_new (int      width,
                    int      height,
                    GError **error)
{
  OdoriHeadless *self;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (OdoriHeadless, 1);
  self->display = EGL_NO_DISPLAY;
  self->context = EGL_NO_CONTEXT;
  if (!create_context (self, error) || !create_framebuffer (self, width, height, error))
    {
      odori_headless_free (self);
      return NULL;
    }
  return self;
}

void
odori_headless_free (OdoriHeadless *self)
{
  if (self == NULL)
    return;

  if (self->context != EGL_NO_CONTEXT)
    {
      eglMakeCurrent (self->display, EGL_NO_SURFACE, EGL_NO_SURFACE, self->context);
      delete_framebuffer (self);
      eglMakeCurrent (self->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext (self->display, self->context);
    }
  if (self->display != EGL_NO_DISPLAY)
    {
      gboolean last;

      G_LOCK (displays);
      last = --display_users == 0;
      G_UNLOCK (displays);
      if (last)
        eglTerminate (self->display);
    }
  eglReleaseThread ();
  g_free (self->gl_renderer);
  g_free (self);
}

void
odori_headless_make_current (OdoriHeadless *self)
{
  g_return_if_fail (self != NULL);

  eglMakeCurrent (self->display, EGL_NO_SURFACE, EGL_NO_SURFACE, self->context);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);
  glViewport (0, 0, self->width, self->height);
}

gboolean
odori_headless_resize (OdoriHeadless  *self,
                       int             width,
                       int             height,
                       GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  odori_headless_make_current (self);
  if (width == self->width && height == self->height)
    return TRUE;
  return create_framebuffer (self, width, height, error);
}

gboolean
odori_headless_set_samples (OdoriHeadless  *self,
                            int             samples,
                            GError        **error)
{
  GLint max_samples = 0;

  g_return_val_if_fail (self != NULL, FALSE);

  odori_headless_make_current (self);
  glGetIntegerv (GL_MAX_SAMPLES, &max_samples);
  samples = samples <= 1 ? 0 : MIN (samples, max_samples);
  if (samples == self->samples)
    return TRUE;
  self->samples = samples;
  return create_framebuffer (self, self->width, self->height, error);
}

int
odori_headless_get_samples (OdoriHeadless *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return MAX (self->samples, 1);
}

int
odori_headless_get_width (OdoriHeadless *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->width;
}

int
odori_headless_get_height (OdoriHeadless *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->height;
}

const char *
odori_headless_get_gl_renderer (OdoriHeadless *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->gl_renderer;
}

void
odori_headless_read_into (OdoriHeadless *self,
                          guint8        *pixels)
{
  g_autofree guint8 *row = NULL;
  gsize stride;

  g_return_if_fail (self != NULL);
  g_return_if_fail (pixels != NULL);

  stride = (gsize) self->width * 4;
  glBindFramebuffer (GL_READ_FRAMEBUFFER, self->fbo);
  if (self->resolve_fbo != 0)
    {
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, self->resolve_fbo);
      glBlitFramebuffer (0, 0, self->width, self->height, 0, 0, self->width, self->height,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->resolve_fbo);
    }
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, self->width, self->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  glBindFramebuffer (GL_FRAMEBUFFER, self->fbo);

  /* GL rows are bottom-up: swap them in place, through one row of scratch. */
  row = g_malloc (stride);
  for (int y = 0; y < self->height / 2; y++)
    {
      guint8 *a = pixels + (gsize) y * stride;
      guint8 *b = pixels + (gsize) (self->height - 1 - y) * stride;

      memcpy (row, a, stride);
      memcpy (a, b, stride);
      memcpy (b, row, stride);
    }
}

guint8 *
odori_headless_read_rgba (OdoriHeadless *self)
{
  guint8 *pixels;

  g_return_val_if_fail (self != NULL, NULL);

  pixels = g_malloc ((gsize) self->width * self->height * 4);
  odori_headless_read_into (self, pixels);
  return pixels;
}

gboolean
odori_png_write_rgba (const char    *path,
                      const guint8  *pixels,
                      int            width,
                      int            height,
                      GError       **error)
{
  png_image image = { 0 };
  png_alloc_size_t size = 0;
  g_autofree guint8 *buffer = NULL;
  g_autoptr(OdoriOutput) out = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (pixels != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  /* First pass measures, second pass writes: the file then goes through OdoriOutput
   * (temporary file, fsync, rename), so a failed write never leaves half a PNG. */
  if (!png_image_write_to_memory (&image, NULL, &size, 0, pixels, width * 4, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot encode the PNG: %s"),
                   path, image.message);
      png_image_free (&image);
      return FALSE;
    }
  buffer = g_malloc (size);
  if (!png_image_write_to_memory (&image, buffer, &size, 0, pixels, width * 4, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot encode the PNG: %s"),
                   path, image.message);
      png_image_free (&image);
      return FALSE;
    }

  out = odori_output_new (path, ODORI_ENCODING_UTF8, error);
  if (out == NULL)
    return FALSE;
  odori_output_write (out, (const char *) buffer, size);
  return odori_output_commit (out, error);
}

guint8 *
odori_png_read_rgba (const char  *path,
                     int         *width,
                     int         *height,
                     GError     **error)
{
  png_image image = { 0 };
  g_autofree guint8 *pixels = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file (&image, path))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot read the PNG: %s"),
                   path, image.message);
      return NULL;
    }
  image.format = PNG_FORMAT_RGBA;
  pixels = g_malloc (PNG_IMAGE_SIZE (image));
  if (!png_image_finish_read (&image, NULL, pixels, 0, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot read the PNG: %s"),
                   path, image.message);
      png_image_free (&image);
      return NULL;
    }
  *width = image.width;
  *height = image.height;
  return g_steal_pointer (&pixels);
}
