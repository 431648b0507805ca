#!/usr/bin/env bash
# Whole-process JPEG decode, djpeg against tileview, side by side with hyperfine:
#   scripts/bench-decode.sh [FILE.jpg]      (default: bench-images/photo-6000x4000.jpg)
# For each scale 1/1, 1/2, 1/4, 1/8 it runs ROUNDS (default 5) hyperfine rounds of RUNS (default
# 3) runs of each command, after one warm-up; the order of the two commands flips each round, so
# drifting load on a shared machine falls on both. djpeg writes PPM to /dev/null; tileview's side
# is the release-built Benchmarks target `decode-once FILE SCALE` (a file source decoded to
# RGBA8 in memory, as `tileview decode` reads it). Prints median wall time of all runs, the
# ratio tileview / djpeg, and each side's peak RSS (one run under /usr/bin/time).
# The images come from scripts/make-bench-images.sh; BENCH_IMAGES=DIR points elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
images=${BENCH_IMAGES:-$root/bench-images}
file=${1:-$images/photo-6000x4000.jpg}
rounds=${ROUNDS:-5}
runs=${RUNS:-3}
if [ ! -f "$file" ]; then
  echo "skipping: $file not found. Make it with scripts/make-bench-images.sh or set BENCH_IMAGES=DIR." >&2
  exit 2
fi
for tool in djpeg hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install libjpeg-turbo-progs hyperfine python3)" >&2; exit 1; }
done

echo "building decode-once (release, Benchmarks package)" >&2
if ! build_log=$(swift build -c release --package-path Benchmarks --product decode-once 2>&1); then
  echo "$build_log" >&2
  exit 1
fi
bin=$(swift build -c release --package-path Benchmarks --show-bin-path)/decode-once
[ -x "$bin" ] || { echo "decode-once did not build" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scales=(1/1 1/2 1/4 1/8)
for scale in "${scales[@]}"; do
  tag=${scale/\//-}
  djpeg_cmd="djpeg -scale $scale -outfile /dev/null $file"
  ours_cmd="$bin $file $scale"
  for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then
      order=(-n djpeg "$djpeg_cmd" -n tileview "$ours_cmd")
    else
      order=(-n tileview "$ours_cmd" -n djpeg "$djpeg_cmd")
    fi
    echo "scale $scale, round $round/$rounds" >&2
    hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$tmp/$tag-$round.json" "${order[@]}" >/dev/null
  done
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$tmp/$tag-djpeg.rss" djpeg -scale "$scale" -outfile /dev/null "$file"
    /usr/bin/time -f %M -o "$tmp/$tag-tileview.rss" "$bin" "$file" "$scale" >/dev/null
  fi
done

python3 - "$tmp" "$file" "$rounds" "$runs" "${scales[@]}" <<'PY'
import glob, json, os, statistics, sys
tmp, file, rounds, runs, scales = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
def rss(tag, name):
    path = os.path.join(tmp, f"{tag}-{name}.rss")
    if not os.path.exists(path): return "-"
    return f"{int(open(path).read().split()[-1]) / 1024:.0f} MiB"
print(f"{os.path.basename(file)}: median wall time of {rounds} alternating rounds x {runs} runs (hyperfine -N)\n")
print("| scale | djpeg | tileview | tileview / djpeg | djpeg peak RSS | tileview peak RSS |")
print("|---|---:|---:|---:|---:|---:|")
for scale in scales:
    tag = scale.replace("/", "-")
    times = {"djpeg": [], "tileview": []}
    for path in glob.glob(os.path.join(tmp, f"{tag}-*.json")):
        for result in json.load(open(path))["results"]:
            times[result["command"]] += result["times"]
    d, t = statistics.median(times["djpeg"]) * 1000, statistics.median(times["tileview"]) * 1000
    print(f"| {scale} | {d:.1f} ms | {t:.1f} ms | {t / d:.2f} | {rss(tag, 'djpeg')} | {rss(tag, 'tileview')} |")
PY
