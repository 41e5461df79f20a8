# check-blender.py: run inside Blender (build-aux/check-blender): imports Odori's BVH and
# glTF binary exports of one dance and prints how far their joints are from Odori's own.
#   blender -b --factory-startup --python build-aux/check-blender.py -- DANCE.bvh DANCE.glb EXPECTED.json
# EXPECTED.json: {"frame_time": s, "metres_per_unit": k, "frames": [0-based…],
#                 "joints": {NAME: [[x, y, z] per frame]}}  (Odori's units, +Y up)
import builtins
import json
import sys

import bpy

# Debian's Blender 3.4 runs on Python 3.11, whose open() no longer takes mode 'rU', which
# its BVH importer still passes: drop the 'U'.
_open = builtins.open
builtins.open = lambda file, mode='r', *a, **kw: _open(file, mode.replace('U', ''), *a, **kw)
# and its glTF importer uses numpy.bool, which Debian 12's numpy 1.24 no longer has
try:
    import numpy
    if 'bool' not in numpy.__dict__:
        numpy.bool = bool
except ImportError:
    print('check-blender: the glTF importer needs python3-numpy (apt-get install python3-numpy)')

bvh, glb, expected_path = sys.argv[sys.argv.index('--') + 1:]
expected = json.load(open(expected_path, encoding='utf-8'))
k = expected['metres_per_unit']


def clear():
    bpy.ops.object.select_all(action='SELECT')
    bpy.ops.object.delete()


def armature():
    return next(o for o in bpy.context.scene.objects if o.type == 'ARMATURE')


def worst_distance(arm, frame_of, scale):
    """Largest distance (metres) between a pose bone's head and Odori's joint."""
    worst, where, missing = 0.0, '', 0
    for i, frame in enumerate(expected['frames']):
        f = frame_of(frame)
        bpy.context.scene.frame_set(int(f), subframe=f - int(f))
        for name, positions in expected['joints'].items():
            pb = arm.pose.bones.get(name)
            if pb is None:
                missing += 1
                continue
            h = arm.matrix_world @ pb.head
            # Blender is Z up: Odori's (x, y, z) is Blender's (x, -z, y)
            x, y, z = (c * k for c in positions[i])
            d = ((h.x * scale - x) ** 2 + (h.y * scale + z) ** 2 + (h.z * scale - y) ** 2) ** 0.5
            if d > worst:
                worst, where = d, f'{name} at frame {frame + 1}'
    return worst, where, missing


height = expected['height_metres']
clear()
bpy.ops.import_anim.bvh(filepath=bvh, global_scale=1.0, frame_start=1, use_fps_scale=False,
                        update_scene_fps=True, update_scene_duration=True, rotate_mode='NATIVE')
w, where, missing = worst_distance(armature(), lambda f: f + 1, k)
print(f'check-blender: BVH  {bvh}: largest joint difference {w:.3e} m ({where}), '
      f'{w / height:.2e} of the figure\'s height; {missing} joints not found')

clear()
bpy.ops.import_scene.gltf(filepath=glb)
arm = armature()
fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
# the importer turns seconds into frames at the scene's rate, starting at frame 0 or 1
action = arm.animation_data.action if arm.animation_data else None
first = min(kp.co[0] for fc in action.fcurves for kp in fc.keyframe_points) if action else 0
w, where, missing = worst_distance(arm, lambda f: first + f * expected['frame_time'] * fps, 1.0)
print(f'check-blender: glTF {glb}: largest joint difference {w:.3e} m ({where}), '
      f'{w / height:.2e} of the figure\'s height; {missing} joints not found '
      f'(scene at {fps:g} fps, first key at frame {first:g})')
