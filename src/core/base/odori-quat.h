/* odori-quat.h: rotation math on cglm quaternions (x, y, z, w)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one place for quaternion helpers: every module that turns, blends or converts
 * rotations uses these (cglm underneath) instead of its own copies.
 */
#pragma once

#include <glib.h>
#include <cglm/cglm.h>

G_BEGIN_DECLS

static inline void
odori_quat_mul (const float a[4],
                const float b[4],
                float       out[4])
{
  glm_quat_mul ((float *) a, (float *) b, out);
}

/* The inverse of a unit quaternion: its conjugate. */
static inline void
odori_quat_conj (const float q[4],
                 float       out[4])
{
  out[0] = -q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = q[3];
}

static inline void
odori_quat_rotate (const float q[4],
                   const float v[3],
                   float       out[3])
{
  glm_quat_rotatev ((float *) q, (float *) v, out);
}

/* Rotates V by the inverse of unit quaternion Q. */
static inline void
odori_quat_rotate_inv (const float q[4],
                       const float v[3],
                       float       out[3])
{
  float inv[4];

  odori_quat_conj (q, inv);
  odori_quat_rotate (inv, v, out);
}

/* The 4D dot product, in double. */
static inline double
odori_quat_dot (const float a[4],
                const float b[4])
{
  return (double) a[0] * b[0] + (double) a[1] * b[1] + (double) a[2] * b[2] + (double) a[3] * b[3];
}

/* Sign-aligned, normalised slerp
 * (cglm 0.8.8's slerp collapses opposite-signed quaternions to zero). */
void            odori_quat_slerp               (const float      a[4],
                                                const float      b[4],
                                                float            t,
                                                float            out[4]);

/* Rotation helpers. ORDER names the axes in the order they are written, e.g. "ZXY":
 * R = R_Z(a0) · R_X(a1) · R_Y(a2) (column vectors, the BVH convention; BVA uses "ZXY").
 * Angles in degrees. */
void            odori_euler_to_quat            (const char        *order,
                                                const double       angles_deg[3],
                                                float              q[4]);
/* The inverse; when PREV_DEG is not NULL, the solution closest to it is chosen (no
 * +-180 flips between frames). */
void            odori_quat_to_euler            (const char        *order,
                                                const float        q[4],
                                                const double      *prev_deg,
                                                double             angles_deg[3]);
/* The smallest rotation turning unit vector A onto unit vector B: (a × b, 1 + a·b)
 * normalised, exact for small angles (cglm 0.8.8's glm_quat_from_vecs returns the
 * identity below 0.26°); a half turn takes an axis orthogonal to A. */
void            odori_quat_between             (const float        a[3],
                                                const float        b[3],
                                                float              out[4]);
/* Angle between two rotations in degrees (0..180). */
double          odori_quat_angle_deg           (const float        a[4],
                                                const float        b[4]);

G_END_DECLS
