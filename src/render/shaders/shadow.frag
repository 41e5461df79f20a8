#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// Soft contact shadows, multiplied onto the floor (blend: destination times this colour).
// Each is the distance to a bone projected on the floor (a capsule), darker and tighter
// the closer the bone is to the floor. Drawn on a quad covering just the shadows.
#define MAX_SHADOWS 32

uniform int u_n_shadows;
uniform vec4 u_shadow_seg[MAX_SHADOWS];    // x0, z0, x1, z1
uniform vec2 u_shadow_param[MAX_SHADOWS];  // radius, strength

in vec2 v_xz;
out vec4 frag_color;

void
main ()
{
  float shadow = 0.0;

  for (int i = 0; i < u_n_shadows; i++)
    {
      vec2 a = u_shadow_seg[i].xy;
      vec2 ab = u_shadow_seg[i].zw - a;
      float t = clamp (dot (v_xz - a, ab) / max (dot (ab, ab), 1e-12), 0.0, 1.0);
      float d = length (v_xz - a - t * ab);
      shadow = max (shadow, u_shadow_param[i].y * (1.0 - smoothstep (0.0, u_shadow_param[i].x, d)));
    }
  frag_color = vec4 (vec3 (1.0 - shadow), 1.0);
}
