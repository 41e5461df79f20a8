# bench_window.py: build-aux/bench's `window` part: the real window under Xvfb with
# llvmpipe, playing and edited by real input (xdotool), beside GTK's own GL demo.
#
# Frames are counted twice: by the X server (tests/bench-xdamage: DAMAGE on the root
# window, what a user would see) and by the window's frame clock (ODORI_DEBUG=frames:
# "odori-paint" after each painted frame, "odori-latency" from each input event's X time
# to the end of the paint that presents it). CPU is read from /proc for all the
# process's threads (llvmpipe draws in its own).
import os
import re
import sys
import shutil
import subprocess
import tempfile
import time

SECONDS = 10
SIZE = (1280, 720)
DANCE_MINUTES = 10


def log(*args):
    print('bench:', *args, file=sys.stderr, flush=True)


def cpu_ticks(pid):
    total = 0
    try:
        for tid in os.listdir(f'/proc/{pid}/task'):
            with open(f'/proc/{pid}/task/{tid}/stat') as f:
                fields = f.read().rsplit(')', 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return total


def percentile(values, p):
    if not values:
        return None
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(p / 100 * (len(v) - 1)))))
    return v[k]


class Lines:
    """A child's stdout read in a thread: the lines so far, with their arrival times."""

    def __init__(self, proc):
        import threading
        self.lines = []
        self.proc = proc
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line.rstrip('\n')))

    def wait_for(self, pattern, timeout=60):
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for _, line in self.lines:
                m = rx.match(line)
                if m:
                    return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f'the window printed no line matching {pattern!r}')

    def latest(self, pattern):
        rx = re.compile(pattern)
        for _, line in reversed(self.lines):
            m = rx.match(line)
            if m:
                return m
        return None

    def since(self, t0, prefix):
        return [line for t, line in self.lines if t >= t0 and line.startswith(prefix)]


def xdotool(env, *args):
    subprocess.run(['xdotool', *map(str, args)], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def window_of(env, pid, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = subprocess.run(['xdotool', 'search', '--onlyvisible', '--pid', str(pid)], env=env,
                           capture_output=True, text=True)
        ids = r.stdout.split()
        if ids:
            return ids[0]
        time.sleep(0.2)
    raise RuntimeError(f'no window for process {pid}')


def count_frames(xdamage, env, pid, seconds):
    """(X frames per second, longest gap ms, CPU % of one core) over SECONDS."""
    hz = os.sysconf('SC_CLK_TCK')
    a = cpu_ticks(pid)
    t0 = time.monotonic()
    out = subprocess.run([xdamage, str(seconds)], env=env, capture_output=True, text=True, check=True).stdout
    dt = time.monotonic() - t0
    b = cpu_ticks(pid)
    m = re.search(r'frames (\d+) seconds ([\d.]+) fps ([\d.]+) longest-gap-ms ([\d.]+)', out)
    return {'fps': float(m.group(3)), 'gap_ms': float(m.group(4)), 'cpu': 100.0 * (b - a) / hz / dt}


def ten_minute_score(sample_dir, path):
    """The sample dance repeated to DANCE_MINUTES minutes: the same library, every part."""
    with open(os.path.join(sample_dir, 'sample.dds'), encoding='utf-8') as f:
        lines = f.read().splitlines()
    head = [x for x in lines if x.startswith('#')]
    parts, cur = [], None
    for x in lines:
        if x.startswith('#') or not x.strip():
            continue
        m = re.match(r'^(\d+):\s*(\S+)', x)
        if m and cur is not None:
            cur[1].append((int(m.group(1)), m.group(2)))
        else:
            cur = (x, [])
            parts.append(cur)
    period = 630
    reps = DANCE_MINUTES * 60 * 30 // period + 1
    out = [h.replace('# Index: motion.dat', f'# Index: {os.path.join(sample_dir, "motion.dat")}') for h in head]
    for header, syms in parts:
        out.append(header)
        for r in range(reps):
            for start, code in syms:
                out.append(f'{start + r * period}: {code}')
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


def start_window(suite, cmd, env, xenv):
    """Starts CMD and waits for its window; once more if none came (a run of the suite
    saw a window never appear, once, and could not be made to again)."""
    for attempt in range(2):
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = Lines(p)
        try:
            return p, out, window_of(xenv, p.pid)
        except RuntimeError:
            log(f'no window for {cmd[0]} (exit status {p.poll()}): starting it again')
            suite.stop_process(p)
            if attempt == 1:
                raise


def drag(env, wid, x0, y0, dx_total, steps, step_s):
    """Presses at (x0, y0) and moves DX_TOTAL pixels right and back in STEPS moves of
    STEP_S seconds each, then releases. Returns the monotonic time of the press."""
    xdotool(env, 'mousemove', '--window', wid, x0, y0)
    time.sleep(0.2)
    t_down = time.monotonic()
    xdotool(env, 'mousedown', 1)
    for i in range(1, steps + 1):
        # out and back: the block passes over its neighbours' places both ways
        f = i / steps
        dx = dx_total * (2 * f if f <= 0.5 else 2 - 2 * f)
        xdotool(env, 'mousemove', '--window', wid, int(x0 + dx), y0)
        time.sleep(step_s)
    xdotool(env, 'mouseup', 1)
    return t_down


def run(suite):
    """Fills suite.results['window']."""
    app = suite.tool('src', 'app', 'odori')
    cli = suite.tool('src', 'cli', 'odori-cli')
    xdamage = suite.tool('tests', 'bench-xdamage')
    gears = shutil.which('gtk4-demo')
    scratch = tempfile.mkdtemp(prefix='odori-bench-window-')
    display_env = suite.start_display()
    res = {'runs': []}
    try:
        env = suite.app_env(display_env, scratch)
        env['ODORI_DEBUG'] = 'frames'
        xenv = dict(os.environ)
        xenv.update(display_env)
        sample_dir = os.path.join(scratch, 'sample')
        subprocess.run([cli, 'sample', sample_dir], check=True, stdout=subprocess.DEVNULL)
        long_dds = os.path.join(scratch, 'ten-minutes.dds')
        ten_minute_score(sample_dir, long_dds)
        for run_no in range(suite.runs):
            r = {}
            # GTK's GL demo: a GtkGLArea redrawn every frame, the floor of GTK's GL path.
            if gears is not None:
                p = subprocess.Popen([gears, '--run=gears'], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
                try:
                    wid = window_of(xenv, p.pid)
                    xdotool(xenv, 'windowsize', wid, *SIZE)
                    time.sleep(2)
                    r['gears'] = count_frames(xdamage, xenv, p.pid, SECONDS)
                finally:
                    suite.stop_process(p)
            # Odori playing its sample at 1280x720 (it plays from the start).
            p = subprocess.Popen([app], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            try:
                out = Lines(p)
                out.wait_for(r'^odori-geometry slider-end')
                wid = window_of(xenv, p.pid)
                xdotool(xenv, 'windowsize', wid, *SIZE)
                time.sleep(2)
                t0 = time.monotonic()
                r['play'] = count_frames(xdamage, xenv, p.pid, SECONDS)
                paints = [int(x.split()[1]) for x in out.since(t0, 'odori-paint')]
                gaps = [(b - a) / 1000 for a, b in zip(paints, paints[1:])]
                r['play']['clock_fps'] = len(paints) / SECONDS
                r['play']['clock_gap_ms'] = max(gaps) if gaps else None
            finally:
                suite.stop_process(p)
            # Editing a 10-minute score: a block drag, a trim and a slider scrub.
            p, out, wid = start_window(suite, [app, long_dds], env, xenv)
            try:
                xdotool(xenv, 'windowsize', wid, *SIZE)
                # the geometry is printed once the score is in and the window painted
                time.sleep(1)
                xdotool(xenv, 'mousemove', '--window', wid, 5, 5)
                out.wait_for(r'^odori-geometry slider-end')
                # zoom in (around the playhead, at the start) until the first block is
                # wide enough to take hold of
                for _ in range(30):
                    m1 = out.latest(r'^odori-geometry block (-?\d+) (-?\d+)')
                    m2 = out.latest(r'^odori-geometry block-end (-?\d+) (-?\d+)')
                    if m1 and m2 and int(m2.group(1)) - int(m1.group(1)) >= 60:
                        break
                    xdotool(xenv, 'mousemove', '--window', wid, *(int(v) for v in (m1.groups() if m1 else (600, 500))))
                    xdotool(xenv, 'keydown', 'ctrl', 'click', '4', 'keyup', 'ctrl')
                    time.sleep(0.3)
                geo = {}
                for name in ('block', 'block-end', 'slider-start', 'slider-end'):
                    m = out.latest(rf'^odori-geometry {name} (-?\d+) (-?\d+)')
                    geo[name] = (int(m.group(1)), int(m.group(2)))
                time.sleep(1)
                for what, (x, y), dx in (('drag', geo['block'], 200), ('trim', geo['block-end'], -60),
                                         ('scrub', geo['slider-start'],
                                          geo['slider-end'][0] - geo['slider-start'][0])):
                    t0 = time.monotonic()
                    hz = os.sysconf('SC_CLK_TCK')
                    a = cpu_ticks(p.pid)
                    t_down = drag(xenv, wid, x, y, dx, 60, 0.02)
                    time.sleep(0.5)
                    dt = time.monotonic() - t0
                    lat = [int(v.split()[1]) for v in out.since(t0, 'odori-latency')]
                    # the gaps from the press on: before it the window has nothing to paint
                    paints = [int(v.split()[1]) for v in out.since(t_down, 'odori-paint')]
                    gaps = [(b - a2) / 1000 for a2, b in zip(paints, paints[1:])]
                    r[what] = {'p50': percentile(lat, 50), 'p90': percentile(lat, 90), 'n': len(lat),
                               'paints': len(paints), 'gap_ms': max(gaps) if gaps else None,
                               'cpu': 100.0 * (cpu_ticks(p.pid) - a) / hz / dt}
                    # undo the edit, so each case starts from the same score
                    xdotool(xenv, 'windowfocus', '--sync', wid, 'key', '--clearmodifiers', 'ctrl+z')
                    time.sleep(0.5)
            finally:
                suite.stop_process(p)
            res['runs'].append(r)
            log(f'window run {run_no + 1}/{suite.runs}: {r}')
    finally:
        suite.stop_display()
        shutil.rmtree(scratch, ignore_errors=True)
    suite.results['window'] = res


def med(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def report(suite, aims, fmt, table, met, missed):
    """The report's "Window" section (markdown)."""
    runs = suite.results['window']['runs']

    def m(case, key):
        return med([r[case][key] for r in runs if case in r])

    out = ['## Window\n']
    out.append(f'`build-aux/bench --only window`: the real window at {SIZE[0]}×{SIZE[1]} under Xvfb with '
               'Mesa\'s llvmpipe (no GPU), the skin on. **Playing**: the built-in sample plays for '
               f'{SECONDS} s; frames counted by the X server (DAMAGE on the root window, '
               '`tests/bench-xdamage`) and by the window\'s frame clock (`ODORI_DEBUG=frames`); CPU '
               'of all the process\'s threads from /proc, in % of one core. Peer: GTK\'s own GL demo '
               '(`gtk4-demo --run=gears`, a GtkGLArea redrawn every frame) at the same size in the same '
               f'run. **Editing**: a {DANCE_MINUTES}-minute score (the sample repeated); xdotool drags the '
               'root track\'s first block 200 px right and back, trims its right edge, and scrubs the '
               'frame slider end to end, 60 moves 20 ms apart each; latency from each input event\'s X '
               'server time to the end of the paint that presents it; the longest gap between two '
               'paints from the press on. Each figure is the median of '
               f'{len(runs)} runs.\n')
    rows = []
    play_fps, play_cpu = m('play', 'fps'), m('play', 'cpu')
    gears_fps, gears_cpu = m('gears', 'fps'), m('gears', 'cpu')
    ok = play_fps is not None and play_fps >= aims['window_fps'] and play_cpu <= 100
    per_frame = play_cpu / play_fps if play_fps else None
    gears_per_frame = gears_cpu / gears_fps if gears_fps else None
    ratio = per_frame / gears_per_frame if per_frame and gears_per_frame else None
    if not ok:
        missed.append(f'window: playing shows {fmt(play_fps)} frames a second at {fmt(play_cpu)} % CPU')
    rows.append(['Playing: frames a second (X server)', f'**{fmt(play_fps)}**', fmt(gears_fps),
                 f'≥ {aims["window_fps"]}, ≤ 100 % CPU', f'{met(ok)}'])
    rows.append(['Playing: frames a second (frame clock)', fmt(m('play', 'clock_fps')), '', '', ''])
    rows.append(['Playing: longest gap, ms (X server)', fmt(m('play', 'gap_ms')), fmt(m('gears', 'gap_ms')), '', ''])
    rows.append(['Playing: CPU, % of one core', fmt(play_cpu), fmt(gears_cpu), '≤ 100', met(play_cpu is not None and play_cpu <= 100)])
    ok2 = ratio is not None and ratio <= 2
    if ratio is not None and not ok2:
        missed.append(f'window: CPU per frame {fmt(ratio)}× the gears demo\'s')
    rows.append(['Playing: CPU per frame, ms', fmt(per_frame * 10 if per_frame else None),
                 fmt(gears_per_frame * 10 if gears_per_frame else None), '≤ 2× the demo\'s',
                 f'{met(ok2)} ({fmt(ratio)}×)' if ratio else '–'])
    for case, label in (('drag', 'Block drag'), ('trim', 'Trim (right edge)'), ('scrub', 'Slider scrub')):
        p90 = m(case, 'p90')
        ok3 = p90 is not None and p90 <= aims['window_latency_ms']
        if not ok3:
            missed.append(f'window: {label.lower()} p90 latency {fmt(p90)} ms')
        rows.append([f'{label}: input → presented frame, p50 / p90 ms', f'{fmt(m(case, "p50"))} / **{fmt(p90)}**',
                     '', f'p90 ≤ {aims["window_latency_ms"]}', met(ok3)])
        rows.append([f'{label}: frames painted, longest gap ms, CPU %',
                     f'{fmt(m(case, "paints"))}, {fmt(m(case, "gap_ms"))}, {fmt(m(case, "cpu"))}', '', '', ''])
    out.append(table(['Figure', 'Odori', 'gtk4-demo gears', 'Aim', 'Met?'], rows) + '\n')
    return '\n'.join(out)
