/* odori-renderer.h: draws a posed skeleton with its skin, a floor grid and axes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * OpenGL 3.3 core through libepoxy. Every call needs the renderer's GL context current
 * (a GtkGLArea's, or a headless EGL context): the renderer draws into whatever
 * framebuffer is bound, so the window and headless images share every line. No GTK.
 */
#pragma once

#include "odori-bulge.h"
#include "odori-motion.h"
#include "odori-render-types.h"
#include "odori-retarget.h"
#include "odori-skeleton.h"

G_BEGIN_DECLS

typedef struct _OdoriRenderer OdoriRenderer;

OdoriRenderer  *odori_renderer_new              (GError         **error);
void            odori_renderer_free             (OdoriRenderer   *self);
/* The motion to show (global transforms) and its skeleton; NULL clears. Takes refs. */
void            odori_renderer_set_motion       (OdoriRenderer   *self,
                                                 OdoriMotion     *motion,
                                                 OdoriSkeleton   *skeleton);
void            odori_renderer_set_bulges       (OdoriRenderer   *self,
                                                 OdoriBulgeSet   *bulges);
/* FRAME is 0-based (frame 1 of a score is 0), clamped to the motion's last frame. */
void            odori_renderer_set_frame        (OdoriRenderer   *self,
                                                 guint            frame);
void            odori_renderer_set_show_skin    (OdoriRenderer   *self,
                                                 gboolean         show);
void            odori_renderer_set_show_bulges  (OdoriRenderer   *self,
                                                 gboolean         show);
/* Segments drawn in COLOR (RGBA) instead of the skin colour; NULL clears. COLOR's alpha
 * is how much it replaces the skin colour (1: entirely, 0.5: a tint). */
void            odori_renderer_set_highlight    (OdoriRenderer   *self,
                                                 const char * const *segments,
                                                 const float      color[4]);
/* Adds SEGMENTS in COLOR to the highlights already set: a colour per body part. */
void            odori_renderer_add_highlight    (OdoriRenderer   *self,
                                                 const char * const *segments,
                                                 const float      color[4]);
/* Camera */
/* The up axis of the motions set from now on: AUTO (the default) guesses it from the
 * head and the feet (BVH has none); anything else turns that axis to +Y for drawing. */
void            odori_renderer_set_up_axis      (OdoriRenderer   *self,
                                                 OdoriUpAxis      up);
void            odori_renderer_set_view         (OdoriRenderer   *self,
                                                 OdoriView        view);
void            odori_renderer_orbit            (OdoriRenderer   *self,
                                                 float            yaw_deg,
                                                 float            pitch_deg);
void            odori_renderer_pan              (OdoriRenderer   *self,
                                                 float            dx,
                                                 float            dy);
void            odori_renderer_zoom             (OdoriRenderer   *self,
                                                 float            factor);
/* Fits the whole motion (every frame) in view. */
void            odori_renderer_frame_all        (OdoriRenderer   *self);
/* Draws into the bound framebuffer, WIDTH x HEIGHT device pixels. */
gboolean        odori_renderer_draw             (OdoriRenderer   *self,
                                                 int              width,
                                                 int              height,
                                                 GError         **error);
/* Where a world point lands in window pixels (origin top left) for the last draw's
 * size and camera: for tests and picking. */
void            odori_renderer_project          (OdoriRenderer   *self,
                                                 const float      world[3],
                                                 float            window[2]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OdoriRenderer, odori_renderer_free)

/* Whether the current GL context draws in software (Mesa's llvmpipe, softpipe or swr:
 * no GPU), from its GL_RENDERER string. A context must be current. */
gboolean        odori_gl_is_software            (void);

G_END_DECLS
