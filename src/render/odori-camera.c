/* odori-camera.c: the orbit camera as plain math: presets, orbit, pan, zoom, fit, matrices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions (Odori) this file implements (docs/rendering.md says the same for users):
 * - Y is up. The camera orbits a target point: yaw 0 looks from +Z towards -Z (the
 *   dancer's front in the sample library, whose dancers face +Z), yaw 90 from +X (the
 *   dancer's left side), pitch 90 from straight above with the dancer's front at the
 *   bottom of the image. Presets: front (0, 0), back (180, 0), left (90, 0), right
 *   (-90, 0), top (0, 90), three-quarter (45, 15) and mirror: front with the image flipped
 *   left-right in the projection (so the front faces are wound the other way round and
 *   the cull face flips with them). Choosing a preset also frames the whole motion.
 * - Framing fits the bounding box of every frame in a 30 degree vertical field of view
 *   with 8 % margin. It is computed at the next update, when the aspect ratio is known.
 * - orbit() and pan() are in screen terms: pan moves the scene by window pixels (of the
 *   last update), and in the mirror view both follow the flipped image. zoom() divides
 *   the camera distance by its factor (> 1 comes closer).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "odori-camera.h"

#define FOVY_DEG   30.0f
#define FIT_MARGIN 1.08f

static const struct
{
  const char *name;
  OdoriView   view;
  float       yaw;
  float       pitch;
} views[] = {
  { "front", ODORI_VIEW_FRONT, 0.f, 0.f },
  { "back", ODORI_VIEW_BACK, 180.f, 0.f },
  { "left", ODORI_VIEW_LEFT, 90.f, 0.f },
  { "right", ODORI_VIEW_RIGHT, -90.f, 0.f },
  { "top", ODORI_VIEW_TOP, 0.f, 90.f },
  { "mirror", ODORI_VIEW_MIRROR, 0.f, 0.f },
  { "three-quarter", ODORI_VIEW_THREE_QUARTER, 45.f, 15.f },
};

/* Views */

gboolean
odori_view_from_string (const char *name,
                        OdoriView  *view)
{
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (view != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (g_ascii_strcasecmp (name, views[i].name) == 0)
      {
        *view = views[i].view;
        return TRUE;
      }
  return FALSE;
}

const char *
odori_view_to_string (OdoriView view)
{
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (views[i].view == view)
      return views[i].name;
  g_return_val_if_reached (NULL);
}

/* Camera */

void
odori_camera_init (OdoriCamera *self)
{
  g_return_if_fail (self != NULL);

  memset (self, 0, sizeof *self);
  self->distance = 10.0f;
  self->width = 640;
  self->height = 480;
  glm_mat4_identity (self->view_proj);
  odori_camera_set_view (self, ODORI_VIEW_THREE_QUARTER);
}

void
odori_camera_set_view (OdoriCamera *self,
                       OdoriView    view)
{
  g_return_if_fail (self != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (views[i].view == view)
      {
        self->view = view;
        self->yaw = views[i].yaw;
        self->pitch = views[i].pitch;
        self->mirror = view == ODORI_VIEW_MIRROR;
        self->fit_pending = TRUE;
        return;
      }
  g_return_if_reached ();
}

void
odori_camera_orbit (OdoriCamera *self,
                    float        yaw_deg,
                    float        pitch_deg)
{
  g_return_if_fail (self != NULL);

  if (!isfinite (yaw_deg) || !isfinite (pitch_deg))
    return;
  self->yaw = fmodf (self->yaw + (self->mirror ? -yaw_deg : yaw_deg), 360.f);
  self->pitch = CLAMP (self->pitch + pitch_deg, -89.f, 90.f);
}

void
odori_camera_get_basis (const OdoriCamera *self,
                        vec3               back,
                        vec3               right,
                        vec3               up)
{
  float yaw, pitch;

  g_return_if_fail (self != NULL);

  yaw = glm_rad (self->yaw);
  pitch = glm_rad (self->pitch);
  back[0] = sinf (yaw) * cosf (pitch);
  back[1] = sinf (pitch);
  back[2] = cosf (yaw) * cosf (pitch);
  up[0] = -sinf (yaw) * sinf (pitch);
  up[1] = cosf (pitch);
  up[2] = -cosf (yaw) * sinf (pitch);
  glm_vec3_cross (up, back, right);
}

void
odori_camera_pan (OdoriCamera *self,
                  float        dx,
                  float        dy)
{
  vec3  back, right, up;
  float per_pixel;

  g_return_if_fail (self != NULL);

  if (!isfinite (dx) || !isfinite (dy))
    return;
  odori_camera_get_basis (self, back, right, up);
  per_pixel = 2.f * self->distance * tanf (glm_rad (FOVY_DEG) / 2.f) / MAX (self->height, 1);
  if (self->mirror)
    dx = -dx;
  /* the scene follows the pointer: the target moves the other way */
  glm_vec3_muladds (right, -dx * per_pixel, self->target);
  glm_vec3_muladds (up, dy * per_pixel, self->target);
}

void
odori_camera_zoom (OdoriCamera *self,
                   float        factor)
{
  g_return_if_fail (self != NULL);

  if (!isfinite (factor) || factor <= 0.f)
    return;
  self->distance = CLAMP (self->distance / factor, 1e-4f, 1e7f);
}

void
odori_camera_fit (OdoriCamera *self,
                  const float  bounds_min[3],
                  const float  bounds_max[3],
                  float        aspect)
{
  float tan_y = tanf (glm_rad (FOVY_DEG) / 2.f) / FIT_MARGIN;
  float tan_x = tan_y * aspect;
  vec3  back, right, up, c;
  float need = 0.f;

  g_return_if_fail (self != NULL);
  g_return_if_fail (bounds_min != NULL && bounds_max != NULL);

  odori_camera_get_basis (self, back, right, up);
  glm_vec3_center ((float *) bounds_min, (float *) bounds_max, c);
  for (int k = 0; k < 8; k++)
    {
      vec3 p = { (k & 1) ? bounds_max[0] : bounds_min[0],
                 (k & 2) ? bounds_max[1] : bounds_min[1],
                 (k & 4) ? bounds_max[2] : bounds_min[2] };
      float x, y, z;

      glm_vec3_sub (p, c, p);
      x = glm_vec3_dot (p, right);
      y = glm_vec3_dot (p, up);
      z = glm_vec3_dot (p, back);
      need = MAX (need, z + fabsf (x) / tan_x);
      need = MAX (need, z + fabsf (y) / tan_y);
    }
  glm_vec3_copy (c, self->target);
  self->distance = MAX (need, 1e-3f);
}

void
odori_camera_get_eye (OdoriCamera *self,
                      vec3         eye)
{
  vec3 back, right, up;

  g_return_if_fail (self != NULL);

  odori_camera_get_basis (self, back, right, up);
  glm_vec3_copy (self->target, eye);
  glm_vec3_muladds (back, self->distance, eye);
}

void
odori_camera_update (OdoriCamera *self,
                     int          width,
                     int          height,
                     const float *bounds_min,
                     const float *bounds_max,
                     float        figure_height)
{
  vec3     back, right, up, eye;
  mat4     view, proj;
  float    aspect = (float) width / MAX (height, 1);
  float    radius, near_z, far_z;
  gboolean bounds_valid = bounds_min != NULL && bounds_max != NULL;

  g_return_if_fail (self != NULL);

  self->width = width;
  self->height = height;
  if (self->fit_pending && bounds_valid)
    {
      odori_camera_fit (self, bounds_min, bounds_max, aspect);
      self->fit_pending = FALSE;
    }
  odori_camera_get_basis (self, back, right, up);
  odori_camera_get_eye (self, eye);
  glm_lookat (eye, self->target, up, view);

  radius = bounds_valid ? glm_vec3_distance ((float *) bounds_min, (float *) bounds_max) : 1.f;
  radius = MAX (radius, figure_height) * 4.f; /* the floor reaches beyond */
  near_z = MAX (self->distance - radius, self->distance * 0.01f);
  far_z = self->distance + radius * 2.f;
  glm_perspective (glm_rad (FOVY_DEG), aspect, near_z, far_z, proj);
  if (self->mirror)
    {
      /* flip the image left-right: negate clip-space X */
      proj[0][0] = -proj[0][0];
      proj[1][0] = -proj[1][0];
      proj[2][0] = -proj[2][0];
      proj[3][0] = -proj[3][0];
    }
  glm_mat4_mul (proj, view, self->view_proj);
}

/* The key light comes from above, to the camera's left and in front of the dancer's side
 * that faces the camera (unchanged by the mirror: it flips with the image). */
void
odori_camera_get_key_light (OdoriCamera *self,
                            vec3         light_dir)
{
  vec3 back, right, up;

  g_return_if_fail (self != NULL);

  odori_camera_get_basis (self, back, right, up);
  glm_vec3_zero (light_dir);
  glm_vec3_muladds (right, -0.45f, light_dir);
  glm_vec3_muladds (up, 0.65f, light_dir);
  glm_vec3_muladds (back, 0.62f, light_dir);
  light_dir[1] += 0.25f;
  glm_vec3_normalize (light_dir);
}

void
odori_camera_project (OdoriCamera *self,
                      const float  world[3],
                      float        window[2])
{
  vec4 p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (world != NULL && window != NULL);

  glm_mat4_mulv (self->view_proj, (vec4){ world[0], world[1], world[2], 1.f }, p);
  if (fabsf (p[3]) < 1e-12f)
    p[3] = 1e-12f;
  window[0] = (p[0] / p[3] * 0.5f + 0.5f) * self->width;
  window[1] = (0.5f - p[1] / p[3] * 0.5f) * self->height;
}
