#!/usr/bin/env python3
"""Runs tileview and a peer command side by side, alternating, and prints medians and ratios.

Each case is a pair of shell commands. Every run is measured by GNU time (user + system CPU
seconds, peak resident set size of the process tree's largest process) and by the clock around it
(wall seconds, to the microsecond: GNU time's own wall figure has 10 ms steps), and the two
commands alternate, so a change in machine load hits both sides alike. The table reports the
medians and the tileview/peer ratios; below 1.0 means tileview used less. A case may also give
"floor": the work no viewer can avoid (a bare decode to /dev/null); it joins the rotation and the
table gets its row and the tileview/floor ratio.

Usage: peer_bench.py RUNS CASES.json [TILEVIEW-LABEL PEER-LABEL]
  (CASES: [{"name", "tileview", "peer", "outputs": [a, b]}, optionally "floor"]; the labels name the two sides in
  the table, "tileview" and "peer" by default: "new" and "old" when the peer is another build of tileview)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def measure(command):
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as t:
        start = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name, "sh", "-c", command],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"command failed ({proc.returncode}): {command}\n{proc.stderr}")
        _, user, system, rss_kb = t.read().split()[-4:]
        return elapsed, float(user) + float(system), int(rss_kb) * 1024


def main():
    runs = int(sys.argv[1])
    cases = json.load(open(sys.argv[2]))
    label = dict(zip(("tileview", "peer"), sys.argv[3:5] if len(sys.argv) > 4 else ("tileview", "peer")))
    rows = []
    for case in cases:
        sides = ["tileview", "peer"] + (["floor"] if "floor" in case else [])
        samples = {side: [] for side in sides}
        for side in sides:  # warm the page cache and any lazy set-up once
            measure(case[side])
        for i in range(runs):
            order = sides[i % len(sides):] + sides[:i % len(sides)]  # each side leads in turn
            for side in order:
                samples[side].append(measure(case[side]))
        med = {s: [statistics.median(x[k] for x in samples[s]) for k in range(3)] for s in samples}
        sizes = [os.path.getsize(p) if os.path.exists(p) else 0 for p in case.get("outputs", [])]
        rows.append((case["name"], med, sizes, case))
    print(f"{'case':<34} {'side':<9} {'wall s':>8} {'cpu s':>8} {'peak RSS MiB':>13} {'output B':>10}")
    for name, med, sizes, case in rows:
        for k, side in enumerate(("tileview", "peer")):
            size = sizes[k] if k < len(sizes) else 0
            print(f"{name:<34} {label[side]:<9} {med[side][0]:>8.3f} {med[side][1]:>8.3f} "
                  f"{med[side][2] / 2**20:>13.1f} {size:>10}")
        if "floor" in med:
            print(f"{name:<34} {'floor':<9} {med['floor'][0]:>8.3f} {med['floor'][1]:>8.3f} "
                  f"{med['floor'][2] / 2**20:>13.1f}")
        r = [med["tileview"][k] / med["peer"][k] if med["peer"][k] else float("nan") for k in range(3)]
        print(f"{name:<34} {'ratio':<9} {r[0]:>8.2f} {r[1]:>8.2f} {r[2]:>13.2f}")
        if "floor" in med:
            f = [med["tileview"][k] / med["floor"][k] if med["floor"][k] else float("nan") for k in range(3)]
            print(f"{name:<34} {'/ floor':<9} {f[0]:>8.2f} {f[1]:>8.2f} {f[2]:>13.2f}")
    new, old = label["tileview"], label["peer"]
    print(f"\n{runs} alternating runs per side, medians; ratio = {new} / {old} (below 1.0: {new} used less);")
    print(f"/ floor = {new} / the floor command (a bare decode: 1.0 is the physical floor).")
    print(f"{old} commands:")
    for name, _, _, case in rows:
        print(f"  {name}: {case['peer']}")
    if any("floor" in case for _, _, _, case in rows):
        print("floor commands:")
        for name, _, _, case in rows:
            if "floor" in case:
                print(f"  {name}: {case['floor']}")
    print(f"{new} commands:")
    for name, _, _, case in rows:
        print(f"  {name}: {case['tileview']}")


if __name__ == "__main__":
    main()
