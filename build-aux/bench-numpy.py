#!/usr/bin/python3
# bench-numpy.py: numpy.loadtxt on the motion blocks of a BVA or BVH file, for
# build-aux/bench.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   /usr/bin/python3 build-aux/bench-numpy.py FILE [REPS]
#
# BVH: the header up to "Frame Time:" is skipped line by line, then one loadtxt reads
# the whole MOTION block. BVA: for each segment its five header lines are skipped and
# one loadtxt reads its "Frames:" lines (max_rows). Each repetition opens the file
# anew and keeps every array until the next. Prints the same line as bench-parse:
#   "numpy bytes seconds MB/s maxrss_kb values" (seconds: the median of REPS).
import os
import resource
import statistics
import sys
import time

import numpy as np


def load(path):
    """The arrays of PATH's motion blocks (all kept, as a reader keeps its model)."""
    blocks = []
    with open(path, encoding='utf-8-sig', newline=None) as f:
        first = f.readline()
        if first.strip() == 'HIERARCHY':
            for line in f:
                if line.lstrip().lower().startswith('frame time'):
                    break
            blocks.append(np.loadtxt(f, ndmin=2))
            return blocks
        line = first
        while line:
            if not line.strip():
                line = f.readline()
                continue
            if not line.lstrip().startswith('Segment'):
                raise SystemExit(f'{path}: expected "Segment:", got {line!r}')
            frames = int(f.readline().split(':')[1])
            f.readline()  # Frame Time
            f.readline()  # field names
            f.readline()  # units
            blocks.append(np.loadtxt(f, max_rows=frames, ndmin=2))
            line = f.readline()
    return blocks


def peak_rss_kb():
    """VmHWM: the peak of this process image alone (ru_maxrss would also count the
    parent's memory at fork time, before exec)."""
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main():
    path = sys.argv[1]
    reps = max(1, int(sys.argv[2])) if len(sys.argv) > 2 else 1
    times = []
    blocks = None
    for _ in range(reps):
        blocks = None
        t0 = time.perf_counter()
        blocks = load(path)
        times.append(time.perf_counter() - t0)
    values = sum(b.size for b in blocks)
    t = statistics.median(times)
    size = os.path.getsize(path)
    rss = peak_rss_kb()
    print(f'numpy {size} {t:.6f} {size / 1e6 / t:.1f} {rss} {values}')


main()
