#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target, at run time, into OUTDIR/<target>/.

Nothing here is committed but the small hand-made seeds under tests/fuzz/seeds/. Seeds come
from:
  - tests/fuzz/seeds/<target>/*            hand-made, committed;
  - tests/fuzz/regressions/<target>/*      inputs the fuzzers once failed on;
  - ../shared/corpus (by extension)        real files, read in place, long ones shortened
                                           (few frames, the Frames: header rewritten);
  - the sample library (odori-cli sample)  BVA files, motion.dat and a score;
  - the tests' inputs                      C string literals in tests/test-*.c that hold a
                                           whole file (adjacent literals and #define'd
                                           string macros joined, escapes decoded).

usage: fuzz-seeds.py SRCDIR OUTDIR [ODORI_CLI]"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

MAX_SEED = 16384        # bytes; the fuzzers run with -max_len a bit above this
FRAMES_KEPT = 4

# target -> (test files whose literals are its inputs, keywords that mark a literal as one)
TARGETS = {
    "bva": (["test-bva.c"], [b"Segment:"]),
    "bvh": (["test-bvh.c", "test-bvh-writer.c"], [b"HIERARCHY"]),
    "index": (["test-index.c"], [b"begin show", b"define part"]),
    "score": (["test-score.c"], [b"# Title:"]),
    "skeleton": (["test-skeleton.c"], [b"<odori-skeleton"]),
    "joints": (["test-joints.c"], [b"NI_JOINTS_TEXT_FILE"]),
    "sensor-csv": (["test-sensor-csv.c"], [b"Time(Second)", b"Quaternion:", b"Position:"]),
    "kbs": (["test-kbs.c"], [b"<KBS"]),
    "kst": ([], [b"Rps2Qua:ConvSettingFile"]),
    "bulge": (["test-bulge.c"], [b"bulge:", b"angle:"]),
    "beats": ([], [b"# beat times"]),
}
CORPUS_EXT = {
    ".bva": "bva", ".vpm": "bva", ".bvh": "bvh", ".kst": "kst", ".kbs": "kbs",
    ".csv": "sensor-csv", ".xml": "kbs", ".dat": "index", ".dds": "score",
    ".beats": "beats",
}

counts = {}


def add(outdir, target, data, origin):
    if not data or len(data) > MAX_SEED:
        return
    d = os.path.join(outdir, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    path = os.path.join(d, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        counts.setdefault(target, {}).setdefault(origin, 0)
        counts[target][origin] += 1


def shorten(data, target):
    """Keeps FRAMES_KEPT frames of each block of a BVA or BVH file and fixes its header."""
    lines = data.splitlines(keepends=True)
    out = []
    i = 0
    header_after = 3 if target == "bva" else 1   # BVA: Frame Time, fields, units
    while i < len(lines):
        line = lines[i]
        m = re.match(rb"(\s*Frames:\s*)(\d+)(.*)", line, re.S)
        if not m:
            out.append(line)
            i += 1
            continue
        n = int(m.group(2))
        kept = min(n, FRAMES_KEPT)
        out.append(m.group(1) + str(kept).encode() + m.group(3))
        out.extend(lines[i + 1:i + 1 + header_after])
        i += 1 + header_after
        out.extend(lines[i:i + kept])
        i += n
    result = b"".join(out)
    if target == "bva" and len(result) > MAX_SEED:
        # Many segments: keep the first ones whole.
        cut = result.find(b"Segment:", MAX_SEED // 2)
        result = result[:cut] if cut > 0 else result[:MAX_SEED]
    return result


def from_file(outdir, path, target, origin):
    with open(path, "rb") as f:
        data = f.read()
    if target in ("bva", "bvh"):
        add(outdir, target, shorten(data, target), origin)
    elif len(data) <= MAX_SEED:
        add(outdir, target, data, origin)
    else:
        add(outdir, target, data[:MAX_SEED], origin)


# C string literals

TOKEN = re.compile(
    rb'(?P<comment>/\*.*?\*/|//[^\n]*)'
    rb'|(?P<string>(?:u8|L|u|U)?"(?:\\.|[^"\\\n])*")'
    rb"|(?P<char>'(?:\\.|[^'\\\n])*')"
    rb'|(?P<define>^[ \t]*#[ \t]*define[ \t]+(?P<macro>\w+)(?![\w(]))'
    rb'|(?P<directive>^[ \t]*#[^\n]*(?:\\\n[^\n]*)*)'
    rb'|(?P<cont>\\\n)'
    rb'|(?P<newline>\n)'
    rb'|(?P<ident>\w+)'
    rb'|(?P<space>[ \t\r\f\v]+)'
    rb'|(?P<other>.)',
    re.S | re.M)

ESCAPES = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("0"): 0, ord("a"): 7,
           ord("b"): 8, ord("f"): 12, ord("v"): 11, ord("\\"): 92, ord('"'): 34,
           ord("'"): 39, ord("?"): 63, ord("e"): 27}


def decode(lit):
    body = lit[lit.index(b'"') + 1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != 92:
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e == ord("x"):
            j = i + 2
            while j < len(body) and chr(body[j]) in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 2:j], 16) & 0xFF)
            i = j
        elif chr(e) in "01234567":
            j = i + 1
            while j < len(body) and j < i + 4 and chr(body[j]) in "01234567":
                j += 1
            out.append(int(body[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out.append(ESCAPES.get(e, e))
            i += 2
    return bytes(out)


def literals(path):
    """Every run of adjacent string literals (and string macros) in a C file, decoded."""
    with open(path, "rb") as f:
        src = f.read()
    macros = {}
    runs = []
    run = None          # list of byte strings being joined
    defining = None     # macro name whose body we are reading
    body = []
    for m in TOKEN.finditer(src):
        kind = m.lastgroup if m.lastgroup != "macro" else "define"
        if m.group("define"):
            kind = "define"
        if kind in ("comment", "space", "cont"):
            continue
        if defining is not None:
            if kind == "string":
                body.append(decode(m.group(0)))
                continue
            if kind == "ident" and m.group(0) in macros:
                body.append(macros[m.group(0)])
                continue
            if body and kind == "newline":
                macros[defining] = b"".join(body)
            defining = None
            body = []
            if kind == "newline":
                continue
        if kind == "define":
            defining = m.group("macro")
            continue
        if kind == "newline":
            continue
        if kind == "string" or (kind == "ident" and m.group(0) in macros and run is not None):
            piece = decode(m.group(0)) if kind == "string" else macros[m.group(0)]
            run = (run or []) + [piece]
            continue
        if kind == "ident" and m.group(0) in macros:
            run = [macros[m.group(0)]]
            continue
        if run is not None:
            runs.append(b"".join(run))
            run = None
    if run is not None:
        runs.append(b"".join(run))
    return runs


def main():
    srcdir, outdir = sys.argv[1], sys.argv[2]
    cli = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(outdir, exist_ok=True)

    # Hand-made seeds.
    seeds = os.path.join(srcdir, "tests", "fuzz", "seeds")
    for target in sorted(os.listdir(seeds)) if os.path.isdir(seeds) else []:
        d = os.path.join(seeds, target)
        for name in sorted(os.listdir(d)):
            with open(os.path.join(d, name), "rb") as f:
                add(outdir, target, f.read(), "hand-made")

    # Every input a fuzzer once failed on (also replayed by the test suite).
    regressions = os.path.join(srcdir, "tests", "fuzz", "regressions")
    for target in sorted(os.listdir(regressions)) if os.path.isdir(regressions) else []:
        d = os.path.join(regressions, target)
        for name in sorted(os.listdir(d)):
            with open(os.path.join(d, name), "rb") as f:
                add(outdir, target, f.read(), "regressions")

    # The shared corpus, read in place.
    corpus = os.environ.get("ODORI_CORPUS_DIR",
                            os.path.join(srcdir, "..", "shared", "corpus"))
    if os.path.isdir(corpus):
        for root, _, files in os.walk(corpus):
            for name in sorted(files):
                target = CORPUS_EXT.get(os.path.splitext(name)[1].lower())
                if target:
                    from_file(outdir, os.path.join(root, name), target, "shared corpus")

    # The sample library.
    if cli and os.access(cli, os.X_OK):
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([cli, "sample", tmp], stdout=subprocess.DEVNULL,
                                  env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
            if done.returncode != 0:
                print(f"warning: {cli} sample failed; no seeds from the sample library")
            for name in sorted(os.listdir(tmp)):
                target = CORPUS_EXT.get(os.path.splitext(name)[1].lower())
                if target:
                    from_file(outdir, os.path.join(tmp, name), target, "sample library")

    # The tests' inputs.
    tests = os.path.join(srcdir, "tests")
    all_lits = {}
    for name in sorted(os.listdir(tests)):
        if name.startswith("test-") and name.endswith(".c"):
            all_lits[name] = [l for l in literals(os.path.join(tests, name))
                              if len(l) >= 8 and b"\n" in l]
    for target, (files, keywords) in TARGETS.items():
        for name, lits in all_lits.items():
            for lit in lits:
                if name in files or any(k in lit for k in keywords):
                    add(outdir, target, lit, "tests")

    for target in sorted(counts):
        parts = ", ".join(f"{n} from {o}" for o, n in sorted(counts[target].items()))
        print(f"seeds for {target}: {parts}")


if __name__ == "__main__":
    main()
