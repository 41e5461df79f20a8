#!/usr/bin/env python3
"""Counts GTest (TAP) subtests in meson's test logs and prints "N passed, N failed".

meson counts executables, not the subtests inside them; the closing line counts each
subtest once per build it ran in. A test executable that crashed before printing its
plan counts as one failure. A plain TAP file (name ending in .tap, e.g. the fuzz run's
build-fuzz/fuzz-results.tap, or the monkey's one line, build-asan/meson-logs/monkey.tap)
counts its ok / not ok lines; a missing one is a failure.
Exits 1 if anything failed or nothing ran."""
import json
import re
import sys

passed = failed = skipped = 0
skips = {}  # subtest name -> the reason it gave
for path in sys.argv[1:]:
    if path.endswith(".tap"):
        try:
            with open(path, encoding="utf-8") as tap:
                for verdict in re.findall(r"^(not ok|ok)\b", tap.read(), re.M):
                    if verdict == "ok":
                        passed += 1
                    else:
                        failed += 1
        except OSError:
            failed += 1
        continue
    with open(path, encoding="utf-8") as log:
        for line in log:
            t = json.loads(line)
            out = t.get("stdout") or ""
            results = re.findall(r"^(not ok|ok)\b(.*)$", out, re.M)
            bad_exit = t["result"] not in ("OK", "EXPECTEDFAIL", "SKIP")
            for verdict, rest in results:
                if "# SKIP" in rest:
                    skipped += 1
                    name, _, reason = rest.partition("# SKIP")
                    name = re.sub(r"^\s*\d+\s*-?\s*", "", name).strip()
                    skips.setdefault(f"{t['name']} {name}".strip(), reason.strip())
                elif verdict == "ok":
                    passed += 1
                else:
                    failed += 1
            if not results:
                if t["result"] == "OK":
                    passed += 1
                elif t["result"] == "SKIP":
                    skipped += 1
                else:
                    failed += 1
            elif bad_exit and not any(v == "not ok" for v, _ in results):
                failed += 1  # crashed or bailed out after some subtests passed

if skips:
    print(f"skipped ({len(skips)} subtests, each counted once per build it was skipped in):")
    for name, reason in sorted(skips.items()):
        print(f"  {name}: {reason}")
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
sys.exit(1 if failed or passed == 0 else 0)
