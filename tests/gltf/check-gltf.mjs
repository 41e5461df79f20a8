// check-gltf.mjs: a .glb that Odori wrote, as the tools people use read it.
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
//   node check-gltf.mjs FILE.glb EXPECTED.json
//
// 1. The Khronos glTF validator (npm gltf-validator) must report no error and no warning.
// 2. three.js's GLTFLoader (npm three) loads the file in node (GLTFLoader.parse on the
//    bytes; a .glb without images needs no DOM), an AnimationMixer plays the file's
//    animation, and each joint's world position at the frames EXPECTED.json lists must
//    lie within 1e-3 of the figure's height of Odori's.
//
// EXPECTED.json (written by tests/test-gltf.c from Odori's own motion):
//   { "frame_time": s, "height": metres, "frames": [0, …],
//     "joints": { "NAME": [[x, y, z] per listed frame], … } }   (metres, +Y up)
//
// The npm packages are found in $ODORI_TEST_NODE (a folder holding node_modules), where
// build-aux/test installs them. Exit status: 0 all well, 1 a check failed, 77 the
// packages are missing (the caller decides whether that skips or fails).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [glbPath, expectedPath] = process.argv.slice(2);
if (!glbPath || !expectedPath) {
  console.error('usage: check-gltf.mjs FILE.glb EXPECTED.json');
  process.exit(2);
}
const root = process.env.ODORI_TEST_NODE;
const modules = root ? join(root, 'node_modules') : null;
let validator, THREE, GLTFLoader;
try {
  if (!modules) throw new Error('ODORI_TEST_NODE is not set');
  validator = createRequire(join(modules, 'x.js'))('gltf-validator');
  THREE = await import(pathToFileURL(join(modules, 'three', 'build', 'three.module.js')).href);
  ({ GLTFLoader } = await import(pathToFileURL(join(modules, 'three', 'examples', 'jsm', 'loaders', 'GLTFLoader.js')).href));
} catch (e) {
  console.log(`needs npm gltf-validator and three in $ODORI_TEST_NODE/node_modules (build-aux/test installs them): ${e.message}`);
  process.exit(77);
}

const bytes = readFileSync(glbPath);
const expected = JSON.parse(readFileSync(expectedPath, 'utf8'));
let failed = false;
const fail = (msg) => { console.log(`FAIL ${glbPath}: ${msg}`); failed = true; };

// 1. the validator
const report = await validator.validateBytes(new Uint8Array(bytes), { maxIssues: 0 });
const { numErrors, numWarnings, numInfos, numHints } = report.issues;
console.log(`gltf-validator ${report.validatorVersion}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos, ${numHints} hints`);
for (const m of report.issues.messages)
  if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
if (numErrors > 0 || numWarnings > 0) fail('the validator reports errors or warnings');

// 2. three.js
const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
const json = gltf.parser.json;
if (gltf.animations.length !== 1) fail(`${gltf.animations.length} animations, expected 1`);
const byName = new Map();
for (let i = 0; i < json.nodes.length; i++) {
  if (json.nodes[i].mesh !== undefined) continue;
  byName.set(json.nodes[i].name, await gltf.parser.getDependency('node', i));
}
const names = Object.keys(expected.joints);
for (const name of names)
  if (!byName.has(name)) fail(`no node named ${JSON.stringify(name)}`);
if (failed) process.exit(1);

let skinned = null;
gltf.scene.traverse((o) => { if (o.isSkinnedMesh) skinned = o; });
if (!skinned) fail('three.js finds no skinned mesh');
else console.log(`three.js ${THREE.REVISION}: ${json.nodes.length - 1} joints, skinned mesh with ${skinned.geometry.attributes.position.count} vertices, ${skinned.skeleton.bones.length} bones, animation ${gltf.animations[0].duration.toFixed(3)} s`);

const mixer = new THREE.AnimationMixer(gltf.scene);
const action = mixer.clipAction(gltf.animations[0]);
action.setLoop(THREE.LoopOnce, 1);
action.clampWhenFinished = true;
action.play();
const tol = 1e-3 * expected.height;
let worst = 0, worstAt = '';
const v = new THREE.Vector3();
expected.frames.forEach((frame, k) => {
  mixer.setTime(frame * expected.frame_time);
  gltf.scene.updateMatrixWorld(true);
  for (const name of names) {
    byName.get(name).getWorldPosition(v);
    const e = expected.joints[name][k];
    const d = Math.hypot(v.x - e[0], v.y - e[1], v.z - e[2]);
    if (d > worst) { worst = d; worstAt = `${name} at frame ${frame + 1}`; }
  }
});
console.log(`joint positions at frames ${expected.frames.map((f) => f + 1).join(', ')}: largest difference ${worst.toExponential(3)} m (${worstAt || '-'}), tolerance ${tol.toExponential(3)} m`);
if (worst > tol) fail(`a joint is ${worst} m from Odori's (${worstAt})`);
process.exit(failed ? 1 : 0);
