#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// The floor: a grid (minor lines, and major ones every 5) and the X and Z axes,
// antialiased with screen-space derivatives, fading with distance into the backdrop's
// gradient (computed here, so the floor is opaque and the backdrop is only drawn where
// nothing else is).
uniform vec3 u_color;
uniform vec3 u_line_color;
uniform vec2 u_center;
uniform float u_extent;
uniform float u_spacing;
uniform vec3 u_top;
uniform vec3 u_bottom;
uniform vec2 u_viewport;

in vec2 v_xz;
out vec4 frag_color;

void
main ()
{
  vec2 g = v_xz / u_spacing;
  vec2 w = max (fwidth (g), vec2 (1e-6));
  // distance to the nearest minor and major line, in pixels
  vec2 dm = abs (fract (g - 0.5) - 0.5) / w;
  vec2 dM = abs (fract (g * 0.2 - 0.5) - 0.5) * 5.0 / w;
  float minor = 1.0 - min (min (dm.x, dm.y), 1.0);
  float major = 1.0 - min (min (dM.x, dM.y), 1.0);
  // lines closer together than a few pixels fade instead of aliasing
  float density = max (w.x, w.y);
  minor *= clamp (1.5 - density * 4.0, 0.0, 1.0);
  major *= clamp (1.5 - density * 0.8, 0.0, 1.0);
  vec3 c = mix (u_color, u_line_color, max (minor * 0.16, major * 0.34));
  // the world axes through the origin, tinted: X red, Z blue (1.5 pixels wide)
  float x_axis = 1.0 - min (abs (g.y) / w.y / 1.5, 1.0);
  float z_axis = 1.0 - min (abs (g.x) / w.x / 1.5, 1.0);
  c = mix (c, vec3 (0.80, 0.32, 0.30), x_axis * 0.55);
  c = mix (c, vec3 (0.30, 0.45, 0.82), z_axis * 0.55);

  // fade by the squared distance (no square root), from 55 % of the extent to all of it
  vec2 d = (v_xz - u_center) / u_extent;
  float fade = clamp ((dot (d, d) - 0.3) / 0.7, 0.0, 1.0);
  vec3 backdrop = mix (u_bottom, u_top, gl_FragCoord.y / u_viewport.y);
  frag_color = vec4 (mix (c, backdrop, fade * fade * (3.0 - 2.0 * fade)), 1.0);
}
