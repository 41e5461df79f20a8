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
# anew. Prints the same line as bench-parse:
#   "numpy bytes seconds MB/s maxrss_kb values" (seconds: the median of REPS).
import os
import resource
import statistics
import sys
import time

import numpy as np


def load(path):
    values = 0
    with open(path, encoding='utf-8-sig', newline=None) as f:
        first = f.readline()
        if first.strip() == 'HIERARCHY':
            for line in f:
                if line.lstrip().lower().startswith('frame time'):
                    break
            values += np.loadtxt(f, ndmin=2).size
            return values
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
            values += np.loadtxt(f, max_rows=frames, ndmin=2).size
            line = f.readline()
    return values


def main():
    path = sys.argv[1]
    reps = max(1, int(sys.argv[2])) if len(sys.argv) > 2 else 1
    times = []
    values = 0
    for _ in range(reps):
        t0 = time.perf_counter()
        values = load(path)
        times.append(time.perf_counter() - t0)
    t = statistics.median(times)
    size = os.path.getsize(path)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f'numpy {size} {t:.6f} {size / 1e6 / t:.1f} {rss} {values}')


main()
