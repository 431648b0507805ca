#!/usr/bin/env bash
# Two builds of tileview on the same single-frame jobs, interleaved run by run: median wall time, CPU time, peak
# RSS and their ratios (NEW / OLD; below 1.0 the new build used less), with djpeg's floor in the same rotation.
#   scripts/bench-builds.sh OLD NEW        OLD, NEW: tileview binaries (copies of two release builds)
# The fit, tap and crop jobs of scripts/bench-vs-peers.sh (which this runs with OLD as the peer). Env: RUNS
# (default 21), BENCH_IMAGES. For a change whose effect is smaller than one sitting's noise: both builds see the
# same load, run for run. The output columns give each build's file size.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -eq 2 ] || { sed -n '2,7p' "$0" >&2; exit 64; }
for bin in "$1" "$2"; do [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 64; }; done
OLD=$1 TILEVIEW=$2 RUNS=${RUNS:-21} exec scripts/bench-vs-peers.sh
