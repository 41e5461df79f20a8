#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// Skin and bone meshes: world-space positions and normals, a bone index per vertex
// picking the bone's highlight (RGB, and A = how much it replaces the base colour).
uniform mat4 u_view_proj;
uniform sampler2D u_bone_colors;   // 256 bones per row
uniform vec3 u_base_color;

layout (location = 0) in vec3 a_position;
layout (location = 1) in vec3 a_normal;
layout (location = 2) in uint a_bone;

out vec3 v_world;
out vec3 v_normal;
flat out vec3 v_color;

void
main ()
{
  vec4 hl = texelFetch (u_bone_colors, ivec2 (int (a_bone % 256u), int (a_bone / 256u)), 0);
  v_color = mix (u_base_color, hl.rgb, hl.a);
  v_world = a_position;
  v_normal = a_normal;
  gl_Position = u_view_proj * vec4 (a_position, 1.0);
}
