#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// A square in the XZ plane at height u_floor_y (no vertex buffer: gl_VertexID 0..3 as a
// triangle strip): the floor, or the patch under the contact shadows.
uniform mat4 u_view_proj;
uniform vec2 u_center;
uniform vec2 u_half_size;
uniform float u_floor_y;

out vec2 v_xz;

void
main ()
{
  vec2 corner = vec2 ((gl_VertexID & 1) != 0 ? 1.0 : -1.0, (gl_VertexID & 2) != 0 ? 1.0 : -1.0);
  v_xz = u_center + corner * u_half_size;
  gl_Position = u_view_proj * vec4 (v_xz.x, u_floor_y, v_xz.y, 1.0);
}
