#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// A soft vertical gradient: a neutral studio backdrop (floor.frag fades into the same).
in vec3 v_color;
out vec4 frag_color;

void
main ()
{
  frag_color = vec4 (v_color, 1.0);
}
