#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// One triangle covering the viewport at the far plane (no vertex buffer: gl_VertexID).
// Drawn last, with the depth test, it only fills what nothing else covered.
void
main ()
{
  vec2 p = vec2 ((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
  gl_Position = vec4 (p, 1.0, 1.0);
}
