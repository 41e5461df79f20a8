// bench-three.mjs: three.js's BVHLoader on a BVH file, for build-aux/bench.
// SPDX-License-Identifier: GPL-3.0-or-later
//
//   node build-aux/bench-three.mjs PEERS_DIR FILE [REPS]
//
// PEERS_DIR holds node_modules/three (installed there by build-aux/bench, never in the
// tree). Each repetition reads FILE as text and parses it with
// new BVHLoader().parse(text), the loader's own entry point, keeping the result until
// the next one. Prints the same line as bench-parse:
//   "three bytes seconds MB/s maxrss_kb frames" (seconds: the median of REPS).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [peers, file, repsArg] = process.argv.slice(2);
const reps = Math.max(1, parseInt(repsArg ?? '1', 10));
const loaderPath = join(peers, 'node_modules', 'three', 'examples', 'jsm', 'loaders', 'BVHLoader.js');
const { BVHLoader } = await import(pathToFileURL(loaderPath).href);

const bytes = statSync(file).size;
const times = [];
let result = null;
for (let i = 0; i < reps; i++) {
  result = null;
  const t0 = process.hrtime.bigint();
  const text = readFileSync(file, 'utf8');
  result = new BVHLoader().parse(text);
  times.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
times.sort((a, b) => a - b);
const mid = times.length >> 1;
const t = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
const frames = result.clip.tracks.length ? result.clip.tracks[0].times.length : 0;
// VmHWM: the peak of this process image alone (maxRSS would also count the parent's
// memory at fork time, before exec).
let rss = process.resourceUsage().maxRSS;
try {
  const m = /^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (m) rss = parseInt(m[1], 10);
} catch (e) { /* not Linux */ }
console.log(`three ${bytes} ${t.toFixed(6)} ${(bytes / 1e6 / t).toFixed(1)} ${rss} ${frames}`);
