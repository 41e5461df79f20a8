/* odori-renderer-private.h: test and benchmark hooks of the renderer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "odori-renderer.h"

G_BEGIN_DECLS

/* Like odori_renderer_new(), with the skin/bone mesh shaders taken from these sources
 * instead of the resources (NULL keeps a resource): tests feed a broken shader. */
OdoriRenderer  *odori_renderer_new_with_sources (const char     *mesh_vertex,
                                                 const char     *mesh_fragment,
                                                 GError        **error);
/* What the last draw put on screen: vertices and triangles of the figure (skin or bones). */
void            odori_renderer_get_stats        (OdoriRenderer  *self,
                                                 guint          *n_vertices,
                                                 guint          *n_triangles);

G_END_DECLS
