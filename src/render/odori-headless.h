/* odori-headless.h: offscreen GL without a display (EGL surfaceless), read-back and PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For odori-cli render, thumbnails and pixel tests: an OpenGL 3.3 core context on EGL's
 * surfaceless platform (no X server, no Wayland), a framebuffer object with a depth
 * buffer, and the pixels read back top row first.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _OdoriHeadless OdoriHeadless;

/* Creates the context and makes it current, with a WIDTH x HEIGHT framebuffer bound.
 * Fails with ODORI_RENDER_ERROR_CONTEXT. */
OdoriHeadless  *odori_headless_new         (int              width,
                                            int              height,
                                            GError         **error);
void            odori_headless_free        (OdoriHeadless   *self);
/* Makes the context current again and binds the framebuffer. */
void            odori_headless_make_current (OdoriHeadless  *self);
/* Reallocates the framebuffer (and binds it). */
gboolean        odori_headless_resize      (OdoriHeadless   *self,
                                            int              width,
                                            int              height,
                                            GError         **error);
/* Multisample antialiasing: SAMPLES per pixel (1: none, the default), at most what the
 * driver offers (and fewer for huge images); the read-back resolves them. Reallocates
 * the framebuffer. */
gboolean        odori_headless_set_samples (OdoriHeadless   *self,
                                            int              samples,
                                            GError         **error);
int             odori_headless_get_samples (OdoriHeadless   *self);
int             odori_headless_get_width   (OdoriHeadless   *self);
int             odori_headless_get_height  (OdoriHeadless   *self);
/* The GL renderer string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". */
const char     *odori_headless_get_gl_renderer (OdoriHeadless *self);
/* Waits for the GL work to finish and reads the framebuffer: width * height RGBA bytes,
 * top row first. */
guint8         *odori_headless_read_rgba   (OdoriHeadless   *self);
/* Same, into PIXELS (width * height * 4 bytes). */
void            odori_headless_read_into   (OdoriHeadless   *self,
                                            guint8          *pixels);

/* Writes top-down RGBA PIXELS as a PNG (atomically: a temporary file then a rename).
 * Fails with a G_FILE_ERROR. */
gboolean        odori_png_write_rgba       (const char      *path,
                                            const guint8    *pixels,
                                            int              width,
                                            int              height,
                                            GError         **error);
/* Reads a PNG as top-down RGBA (for tests). */
guint8         *odori_png_read_rgba        (const char      *path,
                                            int             *width,
                                            int             *height,
                                            GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriHeadless, odori_headless_free)

G_END_DECLS
