#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// A soft vertical gradient with a faint vignette: a neutral studio backdrop. floor.frag
// has the same backdrop() to fade the floor into it.
uniform vec3 u_top;
uniform vec3 u_bottom;
uniform vec2 u_viewport;

out vec4 frag_color;

vec3
backdrop (vec2 frag)
{
  vec2 uv = frag / u_viewport;
  vec3 c = mix (u_bottom, u_top, smoothstep (0.0, 1.0, uv.y));
  vec2 d = uv - vec2 (0.5, 0.55);
  return c * (1.0 - 0.12 * dot (d, d));
}

void
main ()
{
  frag_color = vec4 (backdrop (gl_FragCoord.xy), 1.0);
}
