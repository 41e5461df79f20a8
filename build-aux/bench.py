#!/usr/bin/python3
# bench.py: Odori's benchmark suite, run by build-aux/bench (which builds and installs
# what it needs first). Measures every figure next to its baselines and peers in the
# same run and writes docs/PERFORMANCE.md.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   build-aux/bench [--runs N] [--mb MB] [--only SECTION,...] [--out FILE] [--no-wait]
#
# Sections: parse, write, compose, skin, render, app, window, memory, music (default: all).
# Every figure is the median of --runs runs (default 3), each in its own process, the
# tools taking turns inside each run so that a disturbance hits all of them alike.
# A run of some sections only (--only) rewrites those sections of the report and keeps
# the others, its header and "What limits it" as they were (merge_report ()).
import argparse
import datetime
import os
import platform
import re
import selectors
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_window  # noqa: E402  (the window part, build-aux/bench_window.py)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(TOP, '..', 'shared', 'corpus'))
CACHE = os.path.join(os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'),
                     'odori-bench')
PYTHON = '/usr/bin/python3'   # Debian's, where python3-numpy is installed

# The aims. Parsing, writing and the first frame come from the performance issue; the
# composer's, the skin's and the renderer's are written here as this benchmark reads
# their issues: keep them in step with those.
AIMS = {
    'window_fps': 30,                # playing: frames a second the X server receives
    'window_latency_ms': 33,         # editing: p90 from input event to presented frame
    'parse_vs_limit': 1 / 1.5,       # Odori's MB/s at least the limit loop's / 1.5
    'parse_vs_numpy': 3.0,           # at least 3x numpy.loadtxt
    'parse_vs_three': 50.0,          # at least 50x three.js
    'write_vs_printf': 0.5,          # within 2x of the %.6f printf loop
    'compose_seconds': 1.0,          # a 10-minute 120 fps score composes within 1 s
    'recompose_ms': 1000 / 60,       # an incremental update within one 60 Hz frame
    'root_move_ms': 2.0,             # a root-track move shifts the later frames (issue #21)
    'skin_pose_ms': 1.0,             # posing the sample skin within 1 ms a frame
    'render_ms': 1000 / 30,          # a 1280x720 frame drawn within 33 ms (30 fps)
    'first_frame_vs_floor': 1.2,     # the window's first frame within 1.2x of an empty GTK GL
                                     # window's, measured in the same run (issue #21)
    'music_reopen_ms': 1000 / 60,    # a reopened song's waveform from the cache within one
                                     # 60 Hz frame (issue #19: "a reopen is instant")
}

MUSIC_MINUTES = 3                    # the song bench-music writes and decodes

CORPUS_FILES = [
    ('bva', 'bva-motionx/08_01.vpm'),
    ('bva', 'bva-motionx/OneSegment.vpm'),
    ('bvh', 'bvh-cmu-131/131_01.bvh'),
    ('bvh', 'bvh-cmu-salsa/60_10_scaled.bvh'),
    ('bvh', 'bvh-cmu-salsa/61_10_scaled.bvh'),
]

# Repetitions inside one process for the real clips (a few MB at most): enough for a
# few tenths of a second of work, so that start-up costs do not count.
CORPUS_REPS = {'cat': 50, 'newline': 50, 'limit': 50, 'strtod': 20, 'odori': 30, 'odori1': 30,
               'numpy': 10, 'three': 5}

HOUR_FRAMES = 120 * 3600
N_SEGMENTS = 18
TRANSFORM_BYTES = 40   # OdoriTransform: 10 floats


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def loadavg():
    return os.getloadavg()[0]


def spawn(cmd, env=None, cwd=None, timeout=None):
    """Runs CMD; returns (stdout, stderr, wall seconds, peak RSS in KiB, start in us)."""
    t0 = time.monotonic_ns()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         cwd=cwd)
    deadline = None if timeout is None else time.monotonic() + timeout
    # Read both pipes without deadlock, then reap with wait4 for the child's own rusage.
    sel = selectors.DefaultSelector()
    chunks = {p.stdout: [], p.stderr: []}
    for f in chunks:
        sel.register(f, selectors.EVENT_READ)
    while sel.get_map():
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        events = sel.select(wait)
        if not events and deadline is not None and time.monotonic() >= deadline:
            p.kill()
            raise RuntimeError(f'{cmd[0]}: timed out after {timeout} s')
        for key, _ in events:
            data = os.read(key.fd, 65536)
            if data:
                chunks[key.fileobj].append(data)
            else:
                sel.unregister(key.fileobj)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = (time.monotonic_ns() - t0) / 1e9
    out = b''.join(chunks[p.stdout]).decode('utf-8', 'replace')
    err = b''.join(chunks[p.stderr]).decode('utf-8', 'replace')
    if p.returncode != 0:
        raise RuntimeError(f'{" ".join(cmd)}: exit {p.returncode}\n{err[-3000:]}')
    return out, err, wall, ru.ru_maxrss, t0 // 1000


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# Formatting

def fmt(x, digits=None):
    if x is None:
        return '–'
    if digits is None:
        a = abs(x)
        digits = 0 if a >= 100 else 1 if a >= 10 else 2 if a >= 1 else 3
    return f'{x:,.{digits}f}'


def ratio_text(x):
    if x is None:
        return '–'
    if x >= 10:
        return f'{x:.0f}x'
    return f'{x:.2f}x'


def met(ok):
    if ok is None:
        return '–'
    return 'yes' if ok else '**no**'


def table(header, rows):
    lines = ['| ' + ' | '.join(header) + ' |',
             '|' + '|'.join('---' if i == 0 else '---:' for i in range(len(header))) + '|']
    for r in rows:
        lines.append('| ' + ' | '.join(str(c) for c in r) + ' |')
    return '\n'.join(lines)


# Building blocks

class Suite:
    def __init__(self, args):
        self.args = args
        self.runs = args.runs
        self.build = os.path.join(TOP, args.build_dir)
        self.bench_parse = os.path.join(self.build, 'tests', 'bench-parse')
        self.data = args.data_dir
        os.makedirs(self.data, exist_ok=True)  # every section works in it, generated or not
        self.peers = os.path.join(CACHE, 'peers')
        self.results = {}
        self.notes = []
        self.load_start = loadavg()

    def tool(self, *parts):
        return os.path.join(self.build, *parts)

    # Data

    def generate(self):
        os.makedirs(self.data, exist_ok=True)
        stamp = os.path.getmtime(self.bench_parse)
        files = {
            'bva': (os.path.join(self.data, f'gen-{self.args.mb}mb.bva'), 'gen-bva', str(self.args.mb)),
            'bvh': (os.path.join(self.data, f'gen-{self.args.mb}mb.bvh'), 'gen-bvh', str(self.args.mb)),
        }
        if 'memory' in self.args.only:
            files['hour'] = (os.path.join(self.data, 'hour-120fps.bva'), 'gen-bva', f'{HOUR_FRAMES}f')
        for key, (path, mode, size) in files.items():
            if not os.path.exists(path) or os.path.getmtime(path) < stamp:
                log(f'generating {path}')
                spawn([self.bench_parse, mode, path, size])
        self.files = {k: v[0] for k, v in files.items()}

    def warm(self, paths):
        for p in paths:
            with open(p, 'rb') as f:
                while f.read(1 << 20):
                    pass

    # One measurement: a bench-parse-style line "mode bytes seconds MB/s maxrss values"

    def measure(self, cmd, env=None):
        out, err, wall, rss, _ = spawn(cmd, env=env, timeout=3600)
        line = out.strip().splitlines()[-1].split()
        # The tools report their own VmHWM: wait4's ru_maxrss would count this driver's
        # memory, copied at fork time, too.
        return {'bytes': int(line[1]), 'seconds': float(line[2]), 'rss_kb': int(line[4]),
                'values': int(line[5])}

    def reader_cmd(self, tool, path, reps):
        if tool == 'numpy':
            return [PYTHON, os.path.join(TOP, 'build-aux', 'bench-numpy.py'), path, str(reps)]
        if tool == 'three':
            return ['node', '--max-old-space-size=16384',
                    os.path.join(TOP, 'build-aux', 'bench-three.mjs'), self.peers, path, str(reps)]
        return [self.bench_parse, tool, path, str(reps)]

    # Sections

    def section_parse(self):
        readers = ['cat', 'newline', 'limit', 'strtod', 'odori', 'odori1', 'numpy', 'three']
        jobs = []   # (row key, kind, path, reps)
        for kind in ('bva', 'bvh'):
            jobs.append((f'gen-{kind}', kind, self.files[kind], 1))
        for kind, rel in CORPUS_FILES:
            path = os.path.join(CORPUS, rel)
            if os.path.exists(path):
                jobs.append((rel, kind, path, None))
            else:
                self.notes.append(f'Corpus file {rel} is missing: not measured.')
        self.warm([j[2] for j in jobs])
        pages = []
        for run in range(self.runs):
            out = spawn([self.bench_parse, 'pages', self.files['bva']])[0].split()
            pages.append({out[i]: float(out[i + 1]) for i in range(1, len(out) - 1, 2)})
        self.results['pages'] = {k: median([p[k] for p in pages]) for k in pages[0]}
        raw = {}
        for run in range(self.runs):
            for key, kind, path, reps in jobs:
                for tool in readers:
                    if tool == 'three' and kind != 'bvh':
                        continue   # three.js reads BVH only
                    n = reps or CORPUS_REPS[tool]
                    log(f'parse run {run + 1}/{self.runs}: {tool} {os.path.basename(path)}')
                    # odori1: Odori's reader held to one thread (ODORI_LOAD_THREADS=1)
                    env = dict(os.environ, ODORI_LOAD_THREADS='1') if tool == 'odori1' else None
                    cmd = self.reader_cmd('odori' if tool == 'odori1' else tool, path, n)
                    raw.setdefault((key, tool), []).append(self.measure(cmd, env=env))
        res = {}
        for (key, tool), ms in raw.items():
            res[(key, tool)] = {
                'bytes': ms[0]['bytes'],
                'seconds': median([m['seconds'] for m in ms]),
                'rss_mb': median([m['rss_kb'] for m in ms]) / 1024,
                'values': ms[0]['values'],
            }
        self.results['parse'] = {'jobs': jobs, 'res': res, 'readers': readers}

    def section_write(self):
        jobs = [('BVA', 'write-bva', self.files['bva'], os.path.join(self.data, 'out.bva')),
                ('BVH', 'write-bvh', self.files['bvh'], os.path.join(self.data, 'out.bvh'))]
        raw = {}
        for run in range(self.runs):
            for name, mode, src, out in jobs:
                for tool in ('copy', 'printf', mode):
                    log(f'write run {run + 1}/{self.runs}: {tool} {name}')
                    raw.setdefault((name, tool if tool in ('copy', 'printf') else 'odori'), []).append(
                        self.measure([self.bench_parse, tool, src, out, '1']))
                    os.unlink(out)
        res = {}
        for k, ms in raw.items():
            res[k] = {'bytes': median([m['bytes'] for m in ms]),
                      'seconds': median([m['seconds'] for m in ms]),
                      'rss_mb': median([m['rss_kb'] for m in ms]) / 1024}
        self.results['write'] = res

    def section_compose(self):
        outs = []
        for run in range(self.runs):
            log(f'compose run {run + 1}/{self.runs}')
            outs.append(spawn([self.tool('tests', 'bench-compose')], cwd=self.data)[0])

        def grab(pattern, text):
            m = re.search(pattern, text, re.M)
            return float(m.group(1)) if m else None
        res = {
            'score': re.search(r'^score: (.*)$', outs[0], re.M).group(1),
            'full_ms': median([grab(r'^full compose:\s+([\d.]+) ms', o) for o in outs]),
            'full_msf': median([grab(r'^full compose:.*?([\d.]+) M segment-frames/s', o) for o in outs]),
            'copy_ms': median([grab(r'^baseline copy:\s+([\d.]+) ms', o) for o in outs]),
            'copy_msf': median([grab(r'^baseline copy:.*?([\d.]+) M segment-frames/s', o) for o in outs]),
            'arm_ms': median([grab(r'arm track:\s+([\d.]+) ms', o) for o in outs]),
            'arm_sf': grab(r'arm track:.*\((\d+) segment-frames', outs[0]),
            'root_ms': median([grab(r'root track:\s+([\d.]+) ms', o) for o in outs]),
            'root_sf': grab(r'root track:.*\((\d+) segment-frames', outs[0]),
            'root_shifted': grab(r'root track:.*recomputed, (\d+) shifted', outs[0]),
            'root_one_ms': median([grab(r'root track, one thread:\s+([\d.]+) ms', o) for o in outs]),
            'lock_ms': median([grab(r'^full compose, foot lock:\s+([\d.]+) ms', o) for o in outs]),
            'arm_lock_ms': median([grab(r'arm track, foot lock:\s+([\d.]+) ms', o) for o in outs]),
            'root_lock_ms': median([grab(r'root track, foot lock:\s+([\d.]+) ms', o) for o in outs]),
        }
        self.results['compose'] = res

    def section_skin(self):
        outs = []
        for run in range(self.runs):
            log(f'skin run {run + 1}/{self.runs}')
            outs.append(spawn([self.tool('tests', 'bench-skin'), os.path.join(TOP, 'data', 'bulge_types')])[0])
        meshes = []
        for o in outs:
            blocks = re.split(r'^mesh: ', o, flags=re.M)[1:]
            for i, b in enumerate(blocks):
                head = b.splitlines()[0]
                verts = int(re.search(r'= (\d+) vertices', head).group(1))
                vals = {}
                for label, key in (('pose with bulges', 'bulge'), ('pose without', 'plain'),
                                   ('baseline copy', 'copy')):
                    m = re.search(rf'{label}:\s+([\d.]+) us\s+([\d.]+) M vertices/s', b)
                    vals[key] = (float(m.group(1)), float(m.group(2)))
                if len(meshes) <= i:
                    meshes.append({'head': head, 'vertices': verts, 'runs': []})
                meshes[i]['runs'].append(vals)
        for m in meshes:
            for key in ('bulge', 'plain', 'copy'):
                m[key + '_us'] = median([r[key][0] for r in m['runs']])
                m[key + '_mvs'] = median([r[key][1] for r in m['runs']])
        self.results['skin'] = meshes

    def section_render(self):
        env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE='1')
        outs = []
        for run in range(self.runs):
            log(f'render run {run + 1}/{self.runs}')
            outs.append(spawn([self.tool('tests', 'bench-render'), '1280x720'], env=env, timeout=1800)[0])
        rows = {}
        for o in outs:
            seen = set()
            for line in o.splitlines():
                m = re.match(r'^(.*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\((\d+) frames\)', line)
                if m:
                    label = m.group(1).strip()
                    if label in seen:   # the same figure again, under multisampling
                        label = label + ' (4x MSAA)'
                    seen.add(label)
                    rows.setdefault(label, []).append((float(m.group(2)), float(m.group(3)), float(m.group(4))))
        res = {'gl': re.search(r'^GL renderer: (.*)$', outs[0], re.M).group(1),
               'mesh': re.search(r'^skin mesh: (.*)$', outs[0], re.M).group(1),
               'rows': {k: tuple(median([v[i] for v in vs]) for i in range(3)) for k, vs in rows.items()}}
        self.results['render'] = res

    # The application, under Xvfb

    def start_display(self):
        """A virtual X server of our own and a session bus, for the window's runs."""
        xvfb = shutil.which('Xvfb')
        dbus = shutil.which('dbus-daemon')
        if xvfb is None:
            raise RuntimeError('Xvfb is not installed')
        self.xvfb_log = tempfile.TemporaryFile()
        for attempt in range(5):
            r, w = os.pipe()
            self.xvfb = subprocess.Popen([xvfb, '-displayfd', str(w), '-screen', '0', '1280x800x24',
                                          '-nolisten', 'tcp'], pass_fds=(w,),
                                         stdout=subprocess.DEVNULL, stderr=self.xvfb_log)
            os.close(w)
            with os.fdopen(r) as f:
                display = f.readline().strip()
            # Another X server starting at the same moment can take the same number.
            time.sleep(0.5)
            if display and self.xvfb.poll() is None and os.path.exists(f'/tmp/.X11-unix/X{display}'):
                break
            self.stop_process(self.xvfb)
        else:
            self.xvfb_log.seek(0)
            raise RuntimeError('Xvfb did not start: ' + self.xvfb_log.read().decode(errors='replace')[-2000:])
        self.dbus = None
        env = {'DISPLAY': ':' + display}
        if dbus is not None:
            self.dbus = subprocess.Popen([dbus, '--session', '--nofork', '--print-address=1'],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            env['DBUS_SESSION_BUS_ADDRESS'] = self.dbus.stdout.readline().decode().strip()
        return env

    @staticmethod
    def stop_process(p):
        if p is not None and p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def stop_display(self):
        self.stop_process(getattr(self, 'dbus', None))
        self.stop_process(getattr(self, 'xvfb', None))

    def app_env(self, display_env, scratch):
        env = dict(os.environ)
        for k in ('WAYLAND_DISPLAY', 'GDK_BACKEND'):
            env.pop(k, None)
        env.update(display_env)
        env.update({
            'XDG_CACHE_HOME': os.path.join(scratch, 'cache'),
            'XDG_STATE_HOME': os.path.join(scratch, 'state'),
            'XDG_DATA_HOME': os.path.join(scratch, 'data'),
            'XDG_CONFIG_HOME': os.path.join(scratch, 'config'),
            'GSETTINGS_BACKEND': 'memory', 'GTK_THEME': 'Adwaita', 'GTK_A11Y': 'none',
            'NO_AT_BRIDGE': '1', 'LIBGL_ALWAYS_SOFTWARE': '1', 'LC_ALL': 'C.UTF-8',
            'ODORI_DEBUG': 'first-frame',
        })
        return env

    def first_frame(self, cmd, env):
        out, err, wall, rss, start_us = spawn(cmd, env=env, timeout=600)
        m = re.search(r'^odori-first-frame-us (\d+)$', out, re.M)
        if m is None:
            raise RuntimeError(f'{cmd[0]} printed no first-frame time:\n{out[-1000:]}\n{err[-2000:]}')
        return (int(m.group(1)) - start_us) / 1e6, rss / 1024

    def section_app(self):
        app = self.tool('src', 'app', 'odori')
        floor = self.tool('tests', 'bench-gtk-floor')
        scratch = tempfile.mkdtemp(prefix='odori-bench-app-')
        display_env = self.start_display()
        try:
            env = self.app_env(display_env, scratch)
            res = {'app': [], 'floor': [], 'cold': None, 'floor_cold': None}
            # The first runs compile llvmpipe's shaders into an empty Mesa cache: cold.
            res['floor_cold'] = self.first_frame([floor], env)
            res['cold'] = self.first_frame([app], env)
            for run in range(self.runs):
                log(f'first frame run {run + 1}/{self.runs}')
                res['floor'].append(self.first_frame([floor], env))
                res['app'].append(self.first_frame([app], env))
            if 'memory' in self.args.only:
                hour = self.files['hour']
                dat, dds = self.write_hour_score(hour)
                res['hour'] = []
                for run in range(self.runs):
                    log(f'app with a 1-hour capture, run {run + 1}/{self.runs}')
                    res['hour'].append(self.first_frame([app, '--library', dat, dds], env))
            self.results['app'] = res
        finally:
            self.stop_display()
            shutil.rmtree(scratch, ignore_errors=True)

    def write_hour_score(self, bva):
        """A library with the capture as its one show and one motion, and a score that
        plays it whole on every part: what opening a long capture in the window takes."""
        d = os.path.dirname(bva)
        dat = os.path.join(d, 'hour.dat')
        dds = os.path.join(d, 'hour.dds')
        parts = [('BD', 'Hips,Chest,Neck'), ('HD', 'Neck,Head'),
                 ('LA', 'Chest,LeftCollar,LeftUpArm,LeftLowArm,LeftHand'),
                 ('RA', 'Chest,RightCollar,RightUpArm,RightLowArm,RightHand'),
                 ('LL', 'Hips,LeftUpLeg,LeftLowLeg,LeftFoot'),
                 ('RL', 'Hips,RightUpLeg,RightLowLeg,RightFoot')]
        with open(dat, 'w') as f:
            for code, segs in parts:
                f.write(f'define part name="{code}" code="{code}" map="{segs}"\n')
            f.write('begin class name="Capture" code="cap"\n')
            f.write(f'  begin show name="One hour" code="HR" file="{os.path.basename(bva)}"\n')
            f.write(f'    motion name="All" code="H1" frame=1-{HOUR_FRAMES}\n')
            f.write('  end show\nend class\n')
        with open(dds, 'w') as f:
            f.write('# Title: one hour\n# Index: hour.dat\n# Blend: 6\n')
            for code, segs in parts:
                f.write(f'{code}: {segs}\n1: H1\n')
        return dat, dds

    def section_window(self):
        bench_window.run(self)

    def section_memory(self):
        hour = self.files['hour']
        cli = self.tool('src', 'cli', 'odori-cli')
        res = {'bytes': os.path.getsize(hour), 'cli': [], 'numpy': [], 'load': []}
        for run in range(self.runs):
            log(f'memory run {run + 1}/{self.runs}: odori-cli info')
            out, err, wall, rss, _ = spawn([cli, 'info', hour], timeout=1800)
            res['cli'].append((wall, rss / 1024))
            # what the window, compose, convert and import read with (streamed)
            log(f'memory run {run + 1}/{self.runs}: odori_format_load_motion')
            m = self.measure(self.reader_cmd('odori', hour, 1))
            res['load'].append((m['seconds'], m['rss_kb'] / 1024))
        log('memory: numpy.loadtxt on the 1-hour capture')
        m = self.measure(self.reader_cmd('numpy', hour, 1))
        res['numpy'].append((m['seconds'], m['rss_kb'] / 1024))
        self.results['memory'] = res

    def section_music(self):
        # bench-music: a generated WAV decoded into peaks, next to reading its bytes, and
        # the peaks read back from the cache; each figure per minute of music, the median
        # of its own 5 runs.
        outs = []
        for run in range(self.runs):
            log(f'music run {run + 1}/{self.runs}')
            outs.append(spawn([self.tool('tests', 'bench-music'), str(MUSIC_MINUTES)], timeout=1800)[0])

        def grab(pattern, text):
            m = re.search(pattern, text, re.M)
            if m is None:
                raise RuntimeError(f'bench-music: no "{pattern}" in its output:\n{text}')
            return float(m.group(1))
        self.results['music'] = {
            'minutes': grab(r'^music: ([\d.]+) min', outs[0]),
            'read_ms': median([grab(r"reading the WAV's bytes\s+([\d.]+) ms", o) for o in outs]),
            'decode_ms': median([grab(r'decode \+ peaks.*?\s([\d.]+) ms', o) for o in outs]),
            'ratio': median([grab(r'decode \+ peaks.*\(([\d.]+) x reading\)', o) for o in outs]),
            'cached_ms': median([grab(r'peaks from the cache\s+([\d.]+) ms', o) for o in outs]),
        }

    # Machine

    def machine(self):
        cpu = platform.processor() or 'unknown'
        try:
            with open('/proc/cpuinfo') as f:
                for line in f:
                    if line.startswith('model name'):
                        cpu = line.split(':', 1)[1].strip()
                        break
        except OSError:
            pass
        mem = os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30
        try:
            commit = subprocess.run(['git', '-C', TOP, 'describe', '--always', '--dirty'],
                                    capture_output=True, text=True).stdout.strip()
        except OSError:
            commit = 'unknown'
        try:
            cc = subprocess.run(['cc', '--version'], capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            cc = 'unknown'
        versions = {}
        try:
            versions['numpy'] = subprocess.run([PYTHON, '-c', 'import numpy; print(numpy.__version__)'],
                                               capture_output=True, text=True).stdout.strip()
        except OSError:
            pass
        try:
            import json
            with open(os.path.join(self.peers, 'node_modules', 'three', 'package.json')) as f:
                versions['three'] = json.load(f)['version']
            versions['node'] = subprocess.run(['node', '--version'], capture_output=True,
                                              text=True).stdout.strip()
        except (OSError, ValueError, KeyError):
            pass
        return {'cpu': cpu, 'cores': os.cpu_count(), 'mem': mem, 'kernel': platform.release(),
                'commit': commit, 'cc': cc, 'versions': versions}


# The report

def parse_tables(s, m):
    res = s.results['parse']['res']
    jobs = s.results['parse']['jobs']
    baselines = ['odori1', 'cat', 'newline', 'limit', 'strtod']
    peers = ['numpy', 'three']
    names = {'odori1': 'Odori, one thread', 'cat': '`cat` (read)', 'newline': 'newline count', 'limit': 'limit loop',
             'strtod': '`strtod` loop', 'numpy': 'numpy.loadtxt', 'three': 'three.js BVHLoader'}

    def speed(key, tool):
        r = res.get((key, tool))
        return None if r is None else r['bytes'] / 1e6 / r['seconds']

    def rss(key, tool):
        r = res.get((key, tool))
        return None if r is None else r['rss_mb']

    def aggregate(kind, tool):
        keys = [k for k, kd, _, reps in jobs if reps is None and kd == kind]
        rs = [res.get((k, tool)) for k in keys]
        if not keys or any(r is None for r in rs):
            return None, None
        return (sum(r['bytes'] for r in rs) / 1e6 / sum(r['seconds'] for r in rs),
                max(r['rss_mb'] for r in rs))

    rows = []
    missed = []

    def verdicts(label, o, lim, npy, thr):
        parts_r, parts_a, parts_m = [], [], []
        for what, ref, aim in (('limit', lim, AIMS['parse_vs_limit']),
                               ('numpy', npy, AIMS['parse_vs_numpy']),
                               ('three.js', thr, AIMS['parse_vs_three'])):
            if ref is None or o is None:
                continue
            r = o / ref
            parts_r.append(f'{ratio_text(r)} {what}')
            parts_a.append(f'≥ {ratio_text(aim)} {what}')
            parts_m.append(met(r >= aim))
            if r < aim:
                missed.append(f'{label}: {ratio_text(r)} the {what} figure (aim ≥ {ratio_text(aim)})')
        return '<br>'.join(parts_r), '<br>'.join(parts_a), '<br>'.join(parts_m)

    mb = s.args.mb
    for kind in ('bva', 'bvh'):
        key = f'gen-{kind}'
        size = res[(key, 'odori')]['bytes'] / 1e6
        label = f'Parse generated {kind.upper()} ({size:.0f} MB), MB/s'
        o = speed(key, 'odori')
        r, a, mt = verdicts(f'generated {kind.upper()}', o, speed(key, 'limit'), speed(key, 'numpy'),
                            speed(key, 'three'))
        rows.append([label, f'**{fmt(o)}**'] + [fmt(speed(key, t)) for t in baselines + peers] + [r, a, mt])
        rows.append([f'… peak memory, MiB', f'**{fmt(rss(key, "odori"))}**'] +
                    [fmt(rss(key, t)) for t in baselines + peers] + ['', '', ''])
    for kind in ('bva', 'bvh'):
        n = len([1 for k, kd, _, reps in jobs if reps is None and kd == kind])
        if n == 0:
            continue
        total = sum(res[(k, 'odori')]['bytes'] for k, kd, _, reps in jobs if reps is None and kd == kind) / 1e6
        o, orss = aggregate(kind, 'odori')
        agg = {t: aggregate(kind, t) for t in baselines + peers}
        r, a, mt = verdicts(f'real {kind.upper()} clips', o, agg['limit'][0], agg['numpy'][0], agg['three'][0])
        rows.append([f'Parse the real {kind.upper()} clips ({n} files, {total:.1f} MB), MB/s',
                     f'**{fmt(o)}**'] + [fmt(agg[t][0]) for t in baselines + peers] + [r, a, mt])
        rows.append(['… peak memory (largest file), MiB', f'**{fmt(orss)}**'] +
                    [fmt(agg[t][1]) for t in baselines + peers] + ['', '', ''])
    head = ['Figure', 'Odori'] + [names[t] for t in baselines] + [names[t] for t in peers] + \
           ['Ratio', 'Aim', 'Met?']
    main = table(head, rows)

    detail_rows = []
    for key, kind, path, reps in jobs:
        if reps is not None:
            continue
        detail_rows.append([f'`{key}`', fmt(res[(key, 'odori')]['bytes'] / 1e6, 2)] +
                           [fmt(speed(key, t)) for t in ['odori'] + baselines + peers])
    detail = table(['File', 'MB', 'Odori'] + [names[t] for t in baselines + peers], detail_rows)
    # Where Odori's time goes on the generated files: the first touches of fresh memory
    # (the model) and reading the file through its buffer (twice for BVA: the first pass
    # finds the segment headers) cost what this machine charges for them (measured above by
    # bench-parse pages); the rest is parsing proper.
    split_rows = []
    pages = s.results.get('pages')
    if pages:
        for kind in ('bva', 'bvh'):
            key = f'gen-{kind}'
            o = res[(key, 'odori1')]
            model_mib = o['values'] * TRANSFORM_BYTES / 2**20
            file_mib = o['bytes'] / 2**20
            t_model = model_mib / 100 * pages['anon-huge'] / 1000
            t_file = file_mib / 100 * pages['read'] / 1000 * (2 if kind == 'bva' else 1)
            rest = o['seconds'] - t_model - t_file
            lim = speed(key, 'limit')
            rest_speed = o['bytes'] / 1e6 / rest if rest > 0 else None
            split_rows.append([f'generated {kind.upper()}', fmt(o['seconds'], 2),
                               f'{fmt(t_model, 2)} ({model_mib:.0f} MiB)', f'{fmt(t_file, 2)} ({file_mib:.0f} MiB)',
                               fmt(rest, 2), fmt(rest_speed),
                               ratio_text(rest_speed / lim) if rest_speed and lim else '–'])
    split = table(['File', 'Odori, s', 'first touch of the model', 'reading the file (read passes)',
                   'the rest, s', 'MB/s of the rest', 'vs the limit loop'], split_rows) if split_rows else ''
    return main, detail, split, missed


def write_report(s, path):
    m = s.machine()
    r = s.results
    out = []
    missed = []
    now = datetime.datetime.now().strftime('%Y-%m-%d %H:%M')
    out.append('# Performance\n')
    out.append(f'Written by `build-aux/bench` on {now} (Odori `{m["commit"]}`). Do not edit by hand: '
               'run the script again. Every figure is the median of '
               f'{s.runs} runs, each tool in its own process, the tools taking turns inside '
               'each run; the baselines and peers beside a figure were measured in the same run '
               'on the same files.\n')
    out.append('**Machine.** '
               f'{m["cpu"]}, {m["cores"]} cores, {m["mem"]:.0f} GiB, Linux {m["kernel"]} '
               '(a Firecracker virtual machine: see “What limits it” for what that costs), '
               f'{m["cc"]}, Odori built with `--buildtype=release` in `{s.args.build_dir}`. '
               f'Load average (1 min) {s.load_start:.2f} at the start, {loadavg():.2f} at the end. '
               + ', '.join(f'{k} {v}' for k, v in m['versions'].items()) + '.\n')
    if 'pages' in r:
        pg = r['pages']
        out.append('**What memory costs here** (`bench-parse pages`, ms per 100 MiB): the first touch of '
                   f'fresh memory {fmt(pg["anon-4k"])} with 4 KiB pages, {fmt(pg["anon-huge"])} with '
                   f'transparent huge pages; of a cached file\'s pages through a mapping '
                   f'{fmt(pg["file-map"])}; reading the same cached file through one reused buffer '
                   f'{fmt(pg["read"])}. On a bare machine the first three take a few milliseconds; this '
                   'virtual machine pays for every page a process touches for the first time, and '
                   'that weighs on every figure below that allocates or maps memory.\n')

    if 'parse' in r:
        main, detail, split, miss = parse_tables(s, m)
        missed += miss
        out.append('## Parsing\n')
        out.append('Reading a file into memory, in MB/s of the file (higher is better), and the '
                   'process\'s peak resident memory (VmHWM). **Odori**: `odori_format_load_motion` into its '
                   'model (global transforms as quaternions, the file checked line by line), as the '
                   'application reads it: the file streamed through one reused 256 KiB buffer per '
                   'thread (`OdoriLineStream`, pread), never mapped; files of 1 MiB and more on every '
                   'core (BVA: a first pass finds the segment headers, then segment blocks on a thread '
                   'each; BVH: frame lines in parts, each part counted, then parsed), smaller files on '
                   'one; **Odori, one '
                   'thread** is the same reader held to one thread (`ODORI_LOAD_THREADS=1`), the '
                   'figure to set beside the single-core baselines. '
                   'Baselines, all C on one core: **`cat`** reads the file in 128 KiB blocks and '
                   'drops it (cat to /dev/null without process start-up); **newline count** is '
                   '`wc -l` (memchr over 1 MiB blocks); the **limit loop** is the simplest hand-rolled '
                   'float reader, every token read as a float with no validation, no exponent and no '
                   'model, streamed through 1 MiB blocks (the limit the aim refers to); the '
                   '**`strtod` loop** is the naive C program (mmap, then strtod on everything that '
                   'looks like a number). Peers: **numpy.loadtxt** on the motion blocks (BVH: one call '
                   'for the MOTION block; BVA: one call per segment block), and **three.js**\'s '
                   '`BVHLoader.parse` in node (BVH only), each reading the file as text first. '
                   'The generated files are deterministic (`tests/bench-parse.c gen-bva|gen-bvh`: 18 '
                   'segments, 120 fps, values with 6 decimals); the real clips are those in '
                   '`../shared/corpus` (a few hundred KB each: every process parses them '
                   'several times and the median parse counts, so the peak memory there is mostly '
                   'each runtime\'s own).\n')
        out.append(main + '\n')
        out.append('Per real clip, MB/s:\n')
        out.append(detail + '\n')
        if split:
            out.append('Where Odori\'s time goes on the generated files (on one thread), estimated from this run: the '
                       'first touches of fresh memory for the model (40 bytes per segment-frame) and '
                       'reading the file through the buffer (BVA twice: the header pass and the parse), '
                       'at the costs measured on this machine (below the machine description), and the rest — reading numbers, checking lines, Euler '
                       'angles to quaternions and, for BVH, each joint\'s global transform. The limit '
                       'loop touches no new page at all.\n')
            out.append(split + '\n')

    if 'write' in r:
        w = r['write']
        rows = []
        for name in ('BVA', 'BVH'):
            o = w[(name, 'odori')]
            p = w[(name, 'printf')]
            c = w[(name, 'copy')]
            so, sp, sc = (x['bytes'] / 1e6 / x['seconds'] for x in (o, p, c))
            ratio = so / sp
            ok = ratio >= AIMS['write_vs_printf']
            if not ok:
                missed.append(f'writing {name}: {ratio_text(ratio)} the printf loop')
            rows.append([f'Write {name} ({o["bytes"] / 1e6:.0f} MB), MB/s', f'**{fmt(so)}**', fmt(sp), fmt(sc),
                         f'{ratio_text(ratio)} printf', f'≥ {ratio_text(AIMS["write_vs_printf"])} printf',
                         met(ok)])
        out.append('## Writing\n')
        out.append('Writing the model of the generated file back, in MB/s of the output. **Odori**: '
                   '`odori_bva_save` / `odori_bvh_save` (Euler angles taken back from the quaternions '
                   'nearest the previous frame\'s, 6 decimals, written to a temporary file, fsync, '
                   'rename). Baselines: the **`%.6f` printf loop** prints the file\'s own numbers, '
                   'line by line as in the file, with `fprintf(f, "%.6f ")`, then fflush and fsync; '
                   '**write + fsync** writes as many bytes from memory in 1 MiB blocks, the floor of '
                   'any writer on this disk.\n')
        out.append(table(['Figure', 'Odori', '`%.6f` printf loop', 'write + fsync', 'Ratio', 'Aim', 'Met?'],
                         rows) + '\n')

    if 'compose' in r:
        c = r['compose']
        frames_sf = None
        mm = re.match(r'(\d+) frames.*?(\d+) segments', c['score'])
        if mm:
            frames_sf = int(mm.group(1)) * int(mm.group(2))
        full_s = c['full_ms'] / 1000
        aim_sf = frames_sf / AIMS['compose_seconds'] / 1e6 if frames_sf else None
        ok_full = full_s <= AIMS['compose_seconds']
        ok_arm = c['arm_ms'] <= AIMS['recompose_ms']
        ok_root = c['root_ms'] <= AIMS['root_move_ms']
        for ok, what in ((ok_full, 'full compose'), (ok_arm, 'recompose after an arm move'),
                         (ok_root, f'recompose after a root move {c["root_ms"]:.2f} ms')):
            if not ok:
                missed.append(f'composing: {what}')
        rows = [
            ['Compose the whole score, M segment-frames/s', f'**{fmt(c["full_msf"])}** ({fmt(c["full_ms"])} ms)',
             f'{fmt(c["copy_msf"])} ({fmt(c["copy_ms"])} ms)', f'{ratio_text(c["full_ms"] / c["copy_ms"])} the copy\'s time',
             f'≥ {fmt(aim_sf)} (≤ {AIMS["compose_seconds"]:g} s)', met(ok_full)],
            [f'Recompose after moving a 1 s symbol on an arm track, ms ({c["arm_sf"]:.0f} segment-frames redone)',
             f'**{fmt(c["arm_ms"])}**', '', f'{ratio_text(c["full_ms"] / c["arm_ms"])} faster than a full compose',
             f'≤ {AIMS["recompose_ms"]:.1f}', met(ok_arm)],
            [f'Recompose after moving a 1 s symbol on the root track, ms ({c["root_sf"]:.0f} segment-frames redone, '
             f'{c["root_shifted"]:.0f} shifted)',
             f'**{fmt(c["root_ms"])}** (one thread {fmt(c["root_one_ms"])})', '',
             f'{ratio_text(c["root_ms"] / c["copy_ms"])} the copy\'s time; '
             f'{ratio_text(c["full_ms"] / c["root_ms"])} faster than a full compose',
             f'≤ {AIMS["root_move_ms"]:g}', met(ok_root)],
            ['Compose the whole score with foot lock on, ms', f'**{fmt(c["lock_ms"])}**', '',
             f'{ratio_text(c["lock_ms"] / c["full_ms"])} the compose without it', 'none stated', '–'],
            ['Move on an arm track with foot lock on, ms', f'**{fmt(c["arm_lock_ms"])}**', '',
             f'{ratio_text(c["lock_ms"] / c["arm_lock_ms"])} faster than a full compose with it', 'none stated', '–'],
            ['Move on the root track with foot lock on (the whole dance relocked), ms', f'**{fmt(c["root_lock_ms"])}**', '',
             f'{ratio_text(c["lock_ms"] / c["root_lock_ms"])} faster than a full compose with it', 'none stated', '–'],
        ]
        out.append('## Composing\n')
        out.append(f'`tests/bench-compose.c`: a generated library (two 30-second 120 fps shows, 18 segments) '
                   f'and a 10-minute score with a one-second symbol on each of six tracks every second '
                   f'and a 6-frame blend ({c["score"]}). The baseline copies as many transforms as '
                   'the composer writes (memcpy of the output). The composer is the window\'s: '
                   'incremental, keeping the root offsets apart from the transforms (one a frame), so that '
                   'a root-track move rewrites the later frames\' offsets and leaves their transforms '
                   '(docs/composition.md); a '
                   'long recompose splits its frames between the cores. Each program run reports '
                   f'medians of 5; the table gives the median of {s.runs} runs.\n')
        out.append(table(['Figure', 'Odori', 'memcpy of the output', 'Ratio', 'Aim', 'Met?'], rows) + '\n')

    if 'skin' in r:
        rows = []
        for mesh in r['skin']:
            pose_ms = mesh['bulge_us'] / 1000
            ok = pose_ms <= AIMS['skin_pose_ms']
            if not ok:
                missed.append(f'skin: {mesh["head"]}')
            rows.append([f'Pose {mesh["vertices"]} vertices with bulges, M vertices/s ({fmt(mesh["bulge_us"])} µs a pose)',
                         f'**{fmt(mesh["bulge_mvs"])}**', fmt(mesh['plain_mvs']), fmt(mesh['copy_mvs']),
                         f'{ratio_text(mesh["bulge_us"] / mesh["copy_us"])} the copy\'s time',
                         f'≤ {AIMS["skin_pose_ms"]:g} ms a pose', met(ok)])
        out.append('## Skin deformation\n')
        out.append('`tests/bench-skin.c`: the sample library\'s first show with the shipped '
                   '`data/bulge_types`, every frame posed in turn on one thread, at the renderer\'s '
                   'mesh size and a small one. Baselines: the same pose without bulges, and copying '
                   'as many bytes as a pose writes (positions and normals).\n')
        out.append(table(['Figure', 'Odori', 'without bulges', 'copy of the bytes', 'Ratio', 'Aim', 'Met?'], rows) + '\n')

    if 'render' in r:
        rr = r['render']['rows']
        base = rr.get('baseline: clear + read back')
        rows = []
        for label, aim in (('skin: draw + glFinish', True), ('skin: draw + read back', False),
                           ('bones only: draw + read back', False),
                           ('skin: draw + read back (4x MSAA)', False)):
            v = rr.get(label)
            if v is None:
                continue
            ok = v[0] <= AIMS['render_ms'] if aim else None
            if ok is False:
                missed.append(f'rendering: {label} {v[0]:.1f} ms')
            rows.append([f'{label}, ms per frame', f'**{fmt(v[0])}** (p90 {fmt(v[1])}, CPU {fmt(v[2])})',
                         fmt(base[0]) if base else '–', ratio_text(v[0] / base[0]) if base else '–',
                         f'≤ {AIMS["render_ms"]:.1f}' if aim else '', met(ok)])
        out.append('## Rendering\n')
        out.append(f'`tests/bench-render.c`: the composed sample dance at 1280x720, headless (EGL '
                   f'surfaceless, {r["render"]["gl"]}), every 4th of its frames; skin mesh: '
                   f'{r["render"]["mesh"]}. Median and 90th percentile of the wall time per frame, and '
                   'the mean CPU time of the process (llvmpipe\'s threads included). The baseline '
                   'clears an empty frame of the same size and reads it back. The window pays the '
                   '“draw + glFinish” row; `odori-cli render` the “read back” rows.\n')
        out.append(table(['Figure', 'Odori', 'clear + read back', 'Ratio', 'Aim', 'Met?'], rows) + '\n')

    if 'app' in r:
        a = r['app']
        t_app = median([x[0] for x in a['app']])
        t_floor = median([x[0] for x in a['floor']])
        ok = t_app <= AIMS['first_frame_vs_floor'] * t_floor
        if not ok:
            missed.append(f'first frame: {t_app:.2f} s, {ratio_text(t_app / t_floor)} the floor')
        rows = [['Start to the first drawn frame of the sample, s',
                 f'**{fmt(t_app, 2)}** (cold cache {fmt(a["cold"][0], 2)})',
                 f'{fmt(t_floor, 2)} (cold {fmt(a["floor_cold"][0], 2)})',
                 f'{ratio_text(t_app / t_floor)} the floor', f'≤ {AIMS["first_frame_vs_floor"]:g}x the floor',
                 met(ok)],
                ['… peak memory, MiB', f'**{fmt(median([x[1] for x in a["app"]]))}**',
                 fmt(median([x[1] for x in a['floor']])), '', '', '']]
        out.append('## Application\n')
        out.append('`odori` with no argument (the built-in sample dance, checked against its stamp and composed at '
                   'start-up) under Xvfb with llvmpipe and a session bus, `ODORI_DEBUG=first-frame`: '
                   'the viewport prints the time once its first frame has been painted (the frame '
                   'clock\'s after-paint) and the application quits; the figure runs from just before '
                   'the process is started. A first run with an empty Mesa shader cache is reported as '
                   '“cold”; the median is of the runs after it. Baseline: `tests/bench-gtk-floor.c`, '
                   'a GTK 4 window of the same size whose GtkGLArea only clears — starting GTK, making '
                   'a GL context and painting one frame, before any of Odori\'s work.\n')
        out.append(table(['Figure', 'Odori', 'empty GTK GL window', 'Ratio', 'Aim', 'Met?'], rows) + '\n')

    if 'memory' in r:
        mm = r['memory']
        model_mb = HOUR_FRAMES * N_SEGMENTS * TRANSFORM_BYTES / 2**20
        cli_rss = median([x[1] for x in mm['cli']])
        cli_s = median([x[0] for x in mm['cli']])
        np_s, np_rss = mm['numpy'][0]
        rows = []
        if mm.get('load'):
            load_rss = median([x[1] for x in mm['load']])
            load_s = median([x[0] for x in mm['load']])
            rows.append(['`odori_format_load_motion` on the capture (streamed; what the window, '
                         'compose, convert and import read with), peak MiB',
                         f'**{fmt(load_rss)}** ({fmt(load_s, 1)} s)', fmt(mm['bytes'] / 2**20),
                         fmt(model_mb), f'{fmt(np_rss)} ({fmt(np_s, 1)} s)',
                         f'{ratio_text(load_rss / model_mb)} the model', 'none stated', '–'])
        rows.append([f'`odori-cli info` on the capture (streamed like the load), peak MiB', f'**{fmt(cli_rss)}** ({fmt(cli_s, 1)} s)',
                     fmt(mm['bytes'] / 2**20), fmt(model_mb), f'{fmt(np_rss)} ({fmt(np_s, 1)} s)',
                     f'{ratio_text(cli_rss / model_mb)} the model', 'none stated', '–'])
        if 'app' in r and r['app'].get('hour'):
            h = r['app']['hour']
            app_rss = median([x[1] for x in h])
            rows.append(['The window with the capture composed and drawn, peak MiB',
                         f'**{fmt(app_rss)}** (first frame after {fmt(median([x[0] for x in h]), 1)} s)',
                         fmt(mm['bytes'] / 2**20), fmt(model_mb), '',
                         f'{ratio_text(app_rss / model_mb)} the model', 'none stated', '–'])
        else:
            rows.append(['The window with the capture loaded, peak MiB', 'not measured (run with the '
                         '`app` section)', '', '', '', '', '', ''])
        out.append('## Memory\n')
        out.append(f'A generated 1-hour 120 fps capture: a BVA of {N_SEGMENTS} segments and {HOUR_FRAMES} '
                   f'frames ({mm["bytes"] / 2**20:.0f} MiB). Baselines: the file\'s size and the size of '
                   f'the model Odori keeps ({TRANSFORM_BYTES} bytes per segment-frame). Peer: '
                   'numpy.loadtxt of the same file (its float64 arrays of the values as written). In '
                   'the window the capture is a library\'s one show, played whole by a score on all six '
                   'parts: the show and the composed dance are both in memory.\n')
        out.append(table(['Figure', 'Odori', 'file', 'model', 'numpy.loadtxt', 'Ratio', 'Aim', 'Met?'], rows) + '\n')

    if 'music' in r:
        mu = r['music']
        reopen_ms = mu['cached_ms'] * mu['minutes']
        ok = reopen_ms <= AIMS['music_reopen_ms']
        if not ok:
            missed.append(f'music: the cached waveform of a {mu["minutes"]:g}-minute song opens in '
                          f'{reopen_ms:.2f} ms')
        rows = [['Decode + peaks, ms per minute of music', f'**{fmt(mu["decode_ms"])}**', fmt(mu['read_ms']),
                 f'{ratio_text(mu["ratio"])} reading; {ratio_text(60000 / mu["decode_ms"])} real time',
                 'none stated', '–'],
                ['Reopen: peaks from the cache, ms per minute of music', f'**{fmt(mu["cached_ms"])}**',
                 fmt(mu['read_ms']),
                 f'{ratio_text(mu["read_ms"] / mu["cached_ms"])} faster than reading; '
                 f'{ratio_text(mu["decode_ms"] / mu["cached_ms"])} faster than decoding',
                 f'whole song ≤ {AIMS["music_reopen_ms"]:.1f} ms', f'{met(ok)} ({fmt(reopen_ms)} ms)']]
        out.append('## Music\n')
        out.append(f'`tests/bench-music.c` writes {mu["minutes"]:g} minutes of 44.1 kHz 16-bit stereo WAV '
                   '(a 220 Hz tone with a click every half second) into a temporary folder and takes '
                   'the median of 5 runs of each figure, given per minute of music (lower is better). '
                   '**Decode + peaks**: `odori_audio_decode` (GStreamer `uridecodebin` → `appsink`, '
                   'mono 22.05 kHz) and `odori_waveform_new_from_audio` (min/max peaks per 256 and '
                   '4096 samples), what opening a song the first time costs. **Reopen**: '
                   '`odori_waveform_load` when the peaks are in the cache (`odori/waveforms` in the user '
                   'cache, a temporary one here; checked against the file), no decoding. Baseline: '
                   'reading the WAV\'s bytes '
                   '(`g_file_get_contents`, page cache warm), the least any reader of the file pays.\n')
        out.append(table(['Figure', 'Odori', 'reading the WAV\'s bytes', 'Ratio', 'Aim', 'Met?'], rows) + '\n')

    if 'window' in r:
        out.append(bench_window.report(s, AIMS, fmt, table, met, missed))

    out.append('## Aims missed\n')
    if missed:
        out.append('\n'.join(f'- {x}' for x in missed) + '\n')
    else:
        out.append('None.\n')
    notes_path = os.path.join(TOP, 'build-aux', 'bench-notes.md')
    if os.path.exists(notes_path):
        with open(notes_path) as f:
            out.append(f.read().rstrip() + '\n')
    if s.notes:
        out.append('## Remarks from this run\n')
        out.append('\n'.join(f'- {x}' for x in s.notes) + '\n')
    text = '\n'.join(out)
    if not s.args.only >= set(SECTIONS) and os.path.exists(path):
        with open(path) as f:
            text = merge_report(f.read(), text, s, m, missed)
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)
    return missed


SECTIONS = ['parse', 'write', 'compose', 'skin', 'render', 'app', 'window', 'memory', 'music']
# What a run writes whatever sections it ran: kept from the report a partial run merges into.
SHARED_HEADINGS = {'Aims missed', 'What limits it', 'Remarks from this run'}
NOTES_HEADING = 'What limits it'     # the text of build-aux/bench-notes.md


def split_sections(text):
    """TEXT as (what comes before the first '## ' heading, [(heading, block)]), each
    block from its heading line to the next."""
    parts = re.split(r'^(?=## )', text, flags=re.M)
    head, blocks = parts[0], []
    for block in parts[1:]:
        blocks.append((block.splitlines()[0][3:].strip(), block))
    return head, blocks


def missed_section(text):
    """The section a line of "Aims missed" comes from, by the words it starts with."""
    for prefix, section in (('generated ', 'parse'), ('real ', 'parse'), ('writing ', 'write'),
                            ('composing:', 'compose'), ('skin:', 'skin'), ('rendering:', 'render'),
                            ('first frame', 'app'), ('music:', 'music'), ('window:', 'window')):
        if text.startswith(prefix):
            return section
    return None


def merge_report(old, new, s, m, missed):
    """The report OLD with the sections a partial run wrote into NEW put in place of
    theirs (or before "Aims missed" when OLD has none), each saying when it was measured;
    the run's missed aims and remarks are added to OLD's."""
    head, blocks = split_sections(old)
    _, fresh = split_sections(new)
    now = datetime.datetime.now().strftime('%Y-%m-%d %H:%M')
    only = ','.join(x for x in SECTIONS if x in s.args.only)
    stamp = (f'*This section: `build-aux/bench --only {only}` on {now} (Odori `{m["commit"]}`), '
             f'{s.runs} runs, load average {s.load_start:.2f} at the start.*\n')
    names = [h for h, _ in blocks]
    for heading, block in fresh:
        if heading == NOTES_HEADING and heading in names:
            # build-aux/bench-notes.md as it is now, not as the last full run found it
            blocks[names.index(heading)] = (heading, block.rstrip('\n') + '\n\n')
            continue
        if heading in SHARED_HEADINGS:
            continue
        first, _, rest = block.partition('\n')
        block = f'{first}\n\n{stamp}{rest}'
        if not block.endswith('\n\n'):
            block = block.rstrip('\n') + '\n\n'
        if heading in names:
            blocks[names.index(heading)] = (heading, block)
        else:
            at = names.index('Aims missed') if 'Aims missed' in names else len(blocks)
            blocks.insert(at, (heading, block))
            names.insert(at, heading)
    if 'Aims missed' in names:
        # An earlier run's misses go when this run measured again everything that run did.
        i = names.index('Aims missed')
        ran = set(only.split(','))
        lines = []
        for line in blocks[i][1].replace('\nNone.\n', '\n').rstrip('\n').split('\n'):
            if line.startswith('- ') and missed_section(line[2:]) in ran:
                continue
            lines.append(line)
        lines += [f'- {x} (`--only {only}`, {now})' for x in missed]
        if not any(x.startswith('- ') for x in lines):
            lines.append('None.')
        blocks[i] = ('Aims missed', '\n'.join(lines) + '\n\n')
    if s.notes:
        log('remarks from this run: ' + ' / '.join(s.notes))
    return head + ''.join(b for _, b in blocks)


def main():
    ap = argparse.ArgumentParser(description='Odori benchmark suite (see build-aux/bench)')
    ap.add_argument('mb', nargs='?', type=int, default=200, help='size of the generated files, MB')
    ap.add_argument('--runs', type=int, default=int(os.environ.get('RUNS', 3)))
    ap.add_argument('--only', default=','.join(SECTIONS))
    ap.add_argument('--out', default=os.path.join(TOP, 'docs', 'PERFORMANCE.md'))
    ap.add_argument('--build-dir', default='build-bench')
    ap.add_argument('--data-dir', default=os.environ.get('ODORI_BENCH_DIR') or os.path.join(CACHE, 'data'))
    ap.add_argument('--max-load', type=float, default=1.5,
                    help='wait until the 1-minute load average is below this (default 1.5)')
    ap.add_argument('--max-wait', type=int, default=1800, help='seconds to wait for it at most')
    ap.add_argument('--no-wait', action='store_true', help='do not wait for a quiet machine')
    args = ap.parse_args()
    args.only = set(args.only.split(','))
    if args.only - set(SECTIONS):
        ap.error(f'unknown section(s) {", ".join(sorted(args.only - set(SECTIONS)))}; '
                 f'known: {", ".join(SECTIONS)}')

    s = Suite(args)
    # The generated motion files, for the sections that read them only.
    if args.only & {'parse', 'write', 'memory'}:
        s.generate()
    if not args.no_wait:
        waited = 0
        while loadavg() >= args.max_load and waited < args.max_wait:
            if waited % 60 == 0:
                log(f'load average {loadavg():.2f} ≥ {args.max_load}: waiting for a quiet machine')
            time.sleep(10)
            waited += 10
        if loadavg() >= args.max_load:
            s.notes.append(f'The machine was busy (load {loadavg():.2f}) after waiting {waited} s: '
                           'figures are noisier than usual.')
    s.load_start = loadavg()
    for name in SECTIONS:
        if name in args.only:
            log(f'== {name} (load {loadavg():.2f})')
            getattr(s, 'section_' + name)()
    missed = write_report(s, args.out)
    log(f'wrote {args.out}')
    for x in missed:
        log(f'aim missed: {x}')


if __name__ == '__main__':
    main()
