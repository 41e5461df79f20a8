#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// Hemispheric ambient (sky above, floor bounce below), one directional key light placed
// relative to the camera so every view is lit from the viewer's side, a soft specular
// and a faint rim that keeps the silhouette readable against the backdrop. Colours are
// sRGB; lighting is done in linear light.
uniform vec3 u_eye;
uniform vec3 u_light_dir;     // towards the light, normalised
uniform vec3 u_sky;
uniform vec3 u_ground;

in vec3 v_world;
in vec3 v_normal;
flat in vec3 v_color;
out vec4 frag_color;

void
main ()
{
  vec3 n = normalize (v_normal);
  vec3 v = normalize (u_eye - v_world);
  if (dot (n, v) < 0.0)
    n = -n;   // seen from inside (a cut tube end): shade it like the outside

  vec3 albedo = pow (v_color, vec3 (2.2));
  vec3 ambient = mix (u_ground, u_sky, 0.5 + 0.5 * n.y);
  float diffuse = max (dot (n, u_light_dir), 0.0);
  vec3 h = normalize (u_light_dir + v);
  float specular = pow (max (dot (n, h), 0.0), 32.0) * 0.12;
  float rim = pow (1.0 - max (dot (n, v), 0.0), 3.0) * 0.10;

  vec3 c = albedo * (ambient + 1.05 * diffuse) + vec3 (specular + rim);
  frag_color = vec4 (pow (c, vec3 (1.0 / 2.2)), 1.0);
}
