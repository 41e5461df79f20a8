/* odori-render-types.h: the render library's shared vocabulary: error domain, view presets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from odori-renderer.h so that the camera and the GL objects, which the renderer
 * includes, can name them without including the renderer back. Include odori-renderer.h.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ODORI_RENDER_ERROR (odori_render_error_quark ())

typedef enum
{
  ODORI_RENDER_ERROR_CONTEXT,   /* no usable GL 3.3 core context */
  ODORI_RENDER_ERROR_SHADER,    /* a shader failed to compile or link (the log is in the message) */
} OdoriRenderError;

typedef enum
{
  ODORI_VIEW_FRONT,
  ODORI_VIEW_BACK,
  ODORI_VIEW_LEFT,
  ODORI_VIEW_RIGHT,
  ODORI_VIEW_TOP,
  ODORI_VIEW_MIRROR,        /* the dancer as seen in a studio mirror: front, flipped left-right */
  ODORI_VIEW_THREE_QUARTER,
} OdoriView;

GQuark          odori_render_error_quark        (void);
gboolean        odori_view_from_string          (const char      *name,
                                                 OdoriView       *view);
const char     *odori_view_to_string            (OdoriView        view);

G_END_DECLS
