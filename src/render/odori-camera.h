/* odori-camera.h: the orbit camera as plain math: presets, orbit, pan, zoom, fit, matrices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No GL: every function works without a context, so the camera has its own unit test.
 * The renderer keeps one and draws with its view_proj.
 */
#pragma once

#include <cglm/cglm.h>

#include "odori-render-types.h"

G_BEGIN_DECLS

typedef struct
{
  OdoriView view;
  float     yaw;         /* degrees: 0 looks from +Z towards -Z, 90 from +X */
  float     pitch;       /* degrees: 90 looks from straight above */
  vec3      target;      /* the point orbited */
  float     distance;    /* from the eye to the target */
  gboolean  mirror;      /* the image is flipped left-right */
  gboolean  fit_pending; /* the next update frames the bounds it is given */
  int       width;       /* the viewport of the last update, in pixels */
  int       height;
  mat4      view_proj; /* of the last update */
} OdoriCamera;

void            odori_camera_init          (OdoriCamera       *self);
/* Chooses a preset and asks for a fit at the next update. */
void            odori_camera_set_view      (OdoriCamera       *self,
                                            OdoriView          view);
void            odori_camera_orbit         (OdoriCamera       *self,
                                            float              yaw_deg,
                                            float              pitch_deg);
/* Moves the scene by DX, DY window pixels of the last update. */
void            odori_camera_pan           (OdoriCamera       *self,
                                            float              dx,
                                            float              dy);
/* Divides the distance by FACTOR: > 1 comes closer. */
void            odori_camera_zoom          (OdoriCamera       *self,
                                            float              factor);
/* The unit vectors from the target towards the eye, and the image's right and up. */
void            odori_camera_get_basis     (const OdoriCamera *self,
                                            vec3               back,
                                            vec3               right,
                                            vec3               up);
/* Centres on the box BOUNDS_MIN..BOUNDS_MAX and backs off until its eight corners are
 * inside the frustum of a viewport ASPECT (width / height) wide. */
void            odori_camera_fit           (OdoriCamera       *self,
                                            const float        bounds_min[3],
                                            const float        bounds_max[3],
                                            float              aspect);
/* For a WIDTH x HEIGHT viewport: fits the bounds if a fit is pending (BOUNDS_MIN and
 * BOUNDS_MAX NULL: no bounds yet, the fit waits), then computes view_proj, with near and
 * far planes around the bounds and the floor (FIGURE_HEIGHT wide and more). */
void            odori_camera_update        (OdoriCamera       *self,
                                            int                width,
                                            int                height,
                                            const float       *bounds_min,
                                            const float       *bounds_max,
                                            float              figure_height);
void            odori_camera_get_eye       (OdoriCamera       *self,
                                            vec3               eye);
/* The direction towards the key light, which moves with the camera. */
void            odori_camera_get_key_light (OdoriCamera       *self,
                                            vec3               light_dir);
/* Where a world point lands in window pixels (origin top left) for the last update. */
void            odori_camera_project       (OdoriCamera       *self,
                                            const float        world[3],
                                            float              window[2]);

G_END_DECLS
