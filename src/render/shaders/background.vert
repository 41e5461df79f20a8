#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// One triangle covering the viewport at the far plane (no vertex buffer: gl_VertexID).
// Drawn last, with the depth test, it only fills what nothing else covered. The backdrop
// is a vertical gradient, linear in screen Y, so the vertices can carry it.
uniform vec3 u_top;
uniform vec3 u_bottom;

out vec3 v_color;

void
main ()
{
  vec2 p = vec2 ((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
  v_color = mix (u_bottom, u_top, p.y * 0.5 + 0.5);
  gl_Position = vec4 (p, 1.0, 1.0);
}
