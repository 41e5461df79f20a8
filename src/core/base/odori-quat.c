/* odori-quat.c: rotation math on cglm quaternions (x, y, z, w): slerp, Euler angles,
 * the rotation between two directions, the angle between two rotations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "odori-quat.h"

void
odori_quat_slerp (const float a[4],
                  const float b[4],
                  float       t,
                  float       out[4])
{
  versor qa, qb;
  float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];

  glm_quat_copy ((float *) a, qa);
  if (dot < 0)
    {
      qb[0] = -b[0];
      qb[1] = -b[1];
      qb[2] = -b[2];
      qb[3] = -b[3];
      dot = -dot;
    }
  else
    glm_quat_copy ((float *) b, qb);

  if (dot > 0.9995f)
    {
      /* nearly equal: normalised lerp is exact enough and avoids dividing by ~0 */
      for (int i = 0; i < 4; i++)
        out[i] = qa[i] + t * (qb[i] - qa[i]);
    }
  else
    glm_quat_slerp (qa, qb, t, out);
  glm_quat_normalize (out);
}

void
odori_quat_between (const float a[3],
                    const float b[3],
                    float       out[4])
{
  float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  float n;

  if (d < -1.0f + 1e-6f)
    {
      /* a half turn about any axis orthogonal to A: cross A with its least aligned axis */
      float e[3] = { 0, 0, 0 };
      int k = fabsf (a[0]) <= fabsf (a[1]) ? (fabsf (a[0]) <= fabsf (a[2]) ? 0 : 2)
                                           : (fabsf (a[1]) <= fabsf (a[2]) ? 1 : 2);

      e[k] = 1;
      out[0] = a[1] * e[2] - a[2] * e[1];
      out[1] = a[2] * e[0] - a[0] * e[2];
      out[2] = a[0] * e[1] - a[1] * e[0];
      out[3] = 0;
    }
  else
    {
      out[0] = a[1] * b[2] - a[2] * b[1];
      out[1] = a[2] * b[0] - a[0] * b[2];
      out[2] = a[0] * b[1] - a[1] * b[0];
      out[3] = 1.0f + d;
    }
  n = sqrtf (out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
  for (int i = 0; i < 4; i++)
    out[i] /= n;
}

double
odori_quat_angle_deg (const float a[4],
                      const float b[4])
{
  double na = sqrt (odori_quat_dot (a, a));
  double nb = sqrt (odori_quat_dot (b, b));
  double d;

  if (na == 0 || nb == 0)
    return 180.0;
  d = fabs (odori_quat_dot (a, b)) / (na * nb);
  if (d > 1)
    d = 1;
  /* 2·acos(d) loses precision near d = 1; the half-chord form does not. */
  {
    double dx = 0, sx = 0;
    double sign = odori_quat_dot (a, b) < 0 ? -1 : 1;

    for (int i = 0; i < 4; i++)
      {
        double u = a[i] / na, v = sign * b[i] / nb;
        dx += (u - v) * (u - v);
        sx += (u + v) * (u + v);
      }
    return 4.0 * atan2 (sqrt (dx), sqrt (sx)) * (180.0 / G_PI);
  }
}

/* Euler angles. */

static int
axis_index (char c)
{
  switch (c)
    {
    case 'X': case 'x': return 0;
    case 'Y': case 'y': return 1;
    case 'Z': case 'z': return 2;
    default: return -1;
    }
}

static gboolean
parse_order (const char *order,
             int         axes[3])
{
  if (order == NULL || strlen (order) != 3)
    return FALSE;
  for (int i = 0; i < 3; i++)
    if ((axes[i] = axis_index (order[i])) < 0)
      return FALSE;
  return axes[0] != axes[1] && axes[1] != axes[2] && axes[0] != axes[2];
}

void
odori_euler_to_quat (const char   *order,
                     const double  angles_deg[3],
                     float         q[4])
{
  double acc[4] = { 0, 0, 0, 1 };
  int axes[3];

  if (!parse_order (order, axes))
    {
      g_critical ("invalid rotation order %s", order ? order : "(null)");
      q[0] = q[1] = q[2] = 0;
      q[3] = 1;
      return;
    }

  /* acc = acc · r_i for each axis rotation, in double: r_i has one non-zero vector
   * component, so the product is a handful of multiply-adds (this runs once per segment
   * per frame in every reader). Zero angles are skipped. */
  for (int i = 0; i < 3; i++)
    {
      double half = angles_deg[i] * (G_PI / 360.0);
      double s, c, x = acc[0], y = acc[1], z = acc[2], w = acc[3];
      float sf, cf;

      if (half == 0)
        continue;
      /* the result is stored as float: float sine and cosine are precise enough and
       * twice as fast (this is a tenth of a big BVA's parse) */
      sf = sinf ((float) half);
      cf = cosf ((float) half);
      s = sf;
      c = cf;
      switch (axes[i])
        {
        case 0: /* (x,y,z,w)·(s,0,0,c) */
          acc[0] = w * s + x * c;
          acc[1] = y * c + z * s;
          acc[2] = z * c - y * s;
          acc[3] = w * c - x * s;
          break;
        case 1: /* ·(0,s,0,c) */
          acc[0] = x * c - z * s;
          acc[1] = w * s + y * c;
          acc[2] = z * c + x * s;
          acc[3] = w * c - y * s;
          break;
        default: /* ·(0,0,s,c) */
          acc[0] = x * c + y * s;
          acc[1] = y * c - x * s;
          acc[2] = w * s + z * c;
          acc[3] = w * c - z * s;
          break;
        }
    }
  for (int i = 0; i < 4; i++)
    q[i] = (float) acc[i];
}

/* Rotation matrix of a unit quaternion, in double: extracting angles near +-90 degrees
 * from a float matrix would lose a hundredth of a degree in asin. */
static void
quat_to_mat3d (const float q[4],
               double      m[3][3])
{
  double x = q[0], y = q[1], z = q[2], w = q[3];
  double n = sqrt (x * x + y * y + z * z + w * w);

  if (n > 0)
    {
      x /= n;
      y /= n;
      z /= n;
      w /= n;
    }
  m[0][0] = 1 - 2 * (y * y + z * z);
  m[0][1] = 2 * (x * y - z * w);
  m[0][2] = 2 * (x * z + y * w);
  m[1][0] = 2 * (x * y + z * w);
  m[1][1] = 1 - 2 * (x * x + z * z);
  m[1][2] = 2 * (y * z - x * w);
  m[2][0] = 2 * (x * z - y * w);
  m[2][1] = 2 * (y * z + x * w);
  m[2][2] = 1 - 2 * (x * x + y * y);
}

static void
axis_rotation (int    axis,
               double rad,
               double m[3][3])
{
  int a = (axis + 1) % 3, b = (axis + 2) % 3;
  double c = cos (rad), s = sin (rad);

  memset (m, 0, sizeof (double) * 9);
  m[axis][axis] = 1;
  m[a][a] = c;
  m[b][b] = c;
  m[b][a] = s;
  m[a][b] = -s;
}

static void
mat3d_mul (double a[3][3],
           double b[3][3],
           double out[3][3])
{
  double r[3][3];

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  memcpy (out, r, sizeof r);
}

static double
wrap_near (double angle,
           double target)
{
  return angle + 360.0 * round ((target - angle) / 360.0);
}

void
odori_quat_to_euler (const char   *order,
                     const float   q[4],
                     const double *prev_deg,
                     double        angles_deg[3])
{
  int axes[3], i, j, k;
  double m[3][3], s, sin2, a1, a2, a3;
  const double to_deg = 180.0 / G_PI;
  double prev_copy[3];

  /* ANGLES_DEG may be PREV_DEG itself */
  if (prev_deg != NULL)
    {
      memcpy (prev_copy, prev_deg, sizeof prev_copy);
      prev_deg = prev_copy;
    }

  if (!parse_order (order, axes))
    {
      g_critical ("invalid rotation order %s", order ? order : "(null)");
      angles_deg[0] = angles_deg[1] = angles_deg[2] = 0;
      return;
    }
  i = axes[0];
  j = axes[1];
  k = axes[2];
  /* +1 for the cyclic orders XYZ, YZX, ZXY. */
  s = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;

  quat_to_mat3d (q, m);
  sin2 = CLAMP (s * m[i][k], -1.0, 1.0);
  /* atan2 of sine and cosine keeps full precision near ±90°, where asin loses it */
  a2 = atan2 (sin2, hypot (m[i][i], m[i][j]));

  if (hypot (m[i][i], m[i][j]) > 1e-9)
    {
      a1 = atan2 (-s * m[j][k], m[k][k]);
      a3 = atan2 (-s * m[i][j], m[i][i]);
    }
  else
    {
      /* Gimbal lock: only a1 ± a3 is defined. Keep a3 where it was and solve a1 from
       * R · R_k(a3)ᵀ · R_j(a2)ᵀ = R_i(a1). */
      double rk[3][3], rj[3][3], rest[3][3];
      int c1 = (i + 1) % 3, c2 = (i + 2) % 3;

      a3 = prev_deg ? prev_deg[2] / to_deg : 0.0;
      axis_rotation (k, -a3, rk);
      axis_rotation (j, -a2, rj);
      mat3d_mul (m, rk, rest);
      mat3d_mul (rest, rj, rest);
      a1 = atan2 (rest[c2][c1], rest[c1][c1]);
    }

  angles_deg[0] = a1 * to_deg;
  angles_deg[1] = a2 * to_deg;
  angles_deg[2] = a3 * to_deg;

  if (prev_deg != NULL)
    {
      /* Two angle triples give every rotation; take the one nearer the previous frame,
       * each angle moved by whole turns towards it. */
      double alt[3] = { angles_deg[0] + 180.0, 180.0 - angles_deg[1], angles_deg[2] + 180.0 };
      double d0 = 0, d1 = 0;

      for (int n = 0; n < 3; n++)
        {
          angles_deg[n] = wrap_near (angles_deg[n], prev_deg[n]);
          alt[n] = wrap_near (alt[n], prev_deg[n]);
          d0 += fabs (angles_deg[n] - prev_deg[n]);
          d1 += fabs (alt[n] - prev_deg[n]);
        }
      if (d1 < d0)
        memcpy (angles_deg, alt, sizeof alt);
    }
}
