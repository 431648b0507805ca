#!/usr/bin/env bash
# Benchmarks `tileview feed` (release build) on grids of 300 and 900 photos and checks the issue's numbers:
#   1. frame rate: scrolling a 300-cell grid (4 columns) at 1000 pixels per frame in a 400x600 viewport,
#      timed by hyperfine (whole command: listing, decoding, composing, PNG encoding and writing), with
#      the encoder's default settings and, for reference, at --compression 1; plus the rendering-only rate
#      that --stats reports with --write-threads 0 (thumbnails, tiles and composition, no PNG encoding);
#   2. memory: peak RSS (GNU time %M) of a whole scroll through the 900-cell grid against the 300-cell one
#      (must be within 15%), and maxResidentCells against the cells of two screens;
#   3. no growth: the resident set after each frame of a long scroll (900 cells, 100 pixels per frame)
#      must not climb: the largest RSS of the last quarter of the frames within 5% of the first quarter's;
#   4. a peer side by side (scripts/lib/peer_bench.py): vipsthumbnail making the same 300 aspect-fill
#      100x100 thumbnails, against a full tileview scroll of the grid (which also composes and writes frames).
# Grid images: bench-images/feed-grid-900/img1.jpg ... img900.jpg, 640x480 JPEGs (quality 88, 4:2:0) cut
# from the gallery pages of scripts/make-bench-images.sh (photo-library thumbnail size; a phone's photo
# grid draws from such thumbnails, not from the 12 MP originals); feed-grid-300 links to the first 300.
# Exit status 1 when a check fails. Usage: scripts/bench-feed.sh [RUNS]
# (BENCH_IMAGES=DIR reads the gallery pages from DIR/gallery instead of making bench-images/gallery; the
# grids are always made under bench-images/, which git ignores.)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
gallery=${BENCH_IMAGES:-bench-images}/gallery
images=bench-images
export VIPS_WARNING=0

command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
command -v vips >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
[ -f "$gallery/page-36.jpg" ] || scripts/make-bench-images.sh "$(dirname "$gallery")"

grid900=$images/feed-grid-900
grid300=$images/feed-grid-300
if [ ! -f "$grid900/img900.jpg" ]; then
  echo "making $grid900 (25 crops of 640x480 from each of 36 gallery pages)" >&2
  mkdir -p "$grid900"
  tmp=$(mktemp -d)
  n=0
  for page in $(seq -w 1 36); do
    vips resize "$gallery/page-$page.jpg" "$tmp/page.v" 0.8   # 4000x3000 -> 3200x2400
    for row in 0 1 2 3 4; do
      for col in 0 1 2 3 4; do
        n=$((n + 1))
        vips crop "$tmp/page.v" "$grid900/img$n.jpg[Q=88,subsample-mode=on,strip]" $((col * 640)) $((row * 480)) 640 480
      done
    done
  done
  rm -rf "$tmp"
fi
if [ ! -e "$grid300/img300.jpg" ]; then
  mkdir -p "$grid300"
  for i in $(seq 1 300); do ln -sf "../feed-grid-900/img$i.jpg" "$grid300/img$i.jpg"; done
fi

[ "${SKIP_BUILD:-0}" = 1 ] || scripts/lib/build-release.sh >&2
bin=$(scripts/lib/build-release.sh --show-bin-path)/tileview
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
verdict() { if [ "$1" = ok ]; then echo "PASS: $2"; else echo "FAIL: $2"; failed=1; fi; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Frame rate. 300 cells in 4 columns of 100 px: 7500 rows, offsets 0, 1000, ..., 7000: 8 frames.
scroll=(feed "grid:$grid300:4" --viewport 400x600 --offsets 0:7500:1000)
frames=8
for level in default 1; do
  extra=()
  [ "$level" = default ] || extra=(--compression "$level")
  hyperfine --runs "$runs" --warmup 2 --export-json "$out/fps-$level.json" \
    "$bin ${scroll[*]} ${extra[*]} -o $out/fps" >/dev/null 2>&1
  median=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['median'])" "$out/fps-$level.json")
  fps=$(python3 -c "print(f'{$frames / $median:.1f}')")
  echo "scroll 300-cell grid, 400x600, 1000 px/frame, PNG compression $level: median $median s for $frames frames = $fps fps"
  case $level in default) fps_default=$fps ;; *) fps_fast=$fps ;; esac
done
# Rendering alone: --write-threads 0 encodes each frame after it is rendered, so nothing overlaps the timing.
render_fps=$(for _ in $(seq 1 "$runs"); do "$bin" "${scroll[@]}" -o "$out/fps" --write-threads 0 --stats 2>&1 >/dev/null; done |
  python3 -c "
import re, statistics, sys
rates = [int(m.group(1)) for m in re.finditer(r'rendering \d+ ms \((\d+) fps\)', sys.stdin.read())]
print(statistics.median(rates))")
echo "rendering alone (--stats, median of $runs runs): $render_fps fps"
python3 -c "import sys; sys.exit(0 if $fps_default >= 30 else 1)" && r=ok || r=no
verdict $r "end-to-end at the default PNG settings: $fps_default fps (>= 30)"
python3 -c "import sys; sys.exit(0 if $fps_fast >= 30 else 1)" && r=ok || r=no
verdict $r "end-to-end at --compression 1: $fps_fast fps (>= 30)"
python3 -c "import sys; sys.exit(0 if $render_fps >= 30 else 1)" && r=ok || r=no
verdict $r "rendering alone: $render_fps fps (>= 30)"

# 2. Peak RSS, 300 against 900 cells, whole scroll at 1000 px per frame (median of RUNS).
peak() {  # peak RSS in KiB of one run, median over runs; also keeps the JSON of the last run
  for _ in $(seq 1 "$runs"); do
    /usr/bin/time -f %M -o "$out/time" "$bin" feed "$@" -o "$out/rss" --json >"$out/rss.json"
    cat "$out/time"
  done | sort -n | python3 -c "import statistics, sys; print(int(statistics.median(int(l) for l in sys.stdin)))"
}
rss300=$(peak "grid:$grid300:4" --viewport 400x600 --offsets 0:7500:1000)
cells300=$(python3 -c "import json; s=json.load(open('$out/rss.json'))['summary']; print(s['maxResidentCells'], s['residentCellBound'])")
rss900=$(peak "grid:$grid900:4" --viewport 400x600 --offsets 0:22500:1000)
cells900=$(python3 -c "import json; s=json.load(open('$out/rss.json'))['summary']; print(s['maxResidentCells'], s['residentCellBound'])")
echo "peak RSS: 300 cells $rss300 KiB (maxResidentCells, bound: $cells300), 900 cells $rss900 KiB ($cells900)"
python3 -c "import sys; sys.exit(0 if $rss900 <= 1.15 * $rss300 else 1)" && r=ok || r=no
verdict $r "peak RSS 900 cells / 300 cells = $(python3 -c "print(f'{$rss900 / $rss300:.3f}')") (<= 1.15)"
# Two screens of 600 rows meet at most 13 rows of 100 px: 52 cells.
read -r max900 bound900 <<<"$cells900"
[ "$max900" -le 52 ] && [ "$max900" -le "$bound900" ] && r=ok || r=no
verdict $r "maxResidentCells $max900 <= cells of two screens (52)"

# 3. A long scroll: 900 cells at 100 px per frame (about 220 frames); RSS after each frame.
"$bin" feed "grid:$grid900:4" --viewport 400x600 --offsets 0:22500:100 -o "$out/long" --json >"$out/long.json"
growth=$(python3 -c "
import json
frames = json.load(open('$out/long.json'))['frames']
rss = [f['rssBytes'] for f in frames]
q = max(1, len(rss) // 4)
first, last = max(rss[:q]), max(rss[-q:])
print(len(rss), first // 1024, last // 1024, f'{last / first:.3f}')")
read -r n first last ratio <<<"$growth"
echo "long scroll: $n frames, max RSS of the first quarter $first KiB, of the last quarter $last KiB"
python3 -c "import sys; sys.exit(0 if $ratio <= 1.05 else 1)" && r=ok || r=no
verdict $r "RSS does not grow over the long scroll: last/first quarter = $ratio (<= 1.05)"

# 4. Side by side with vipsthumbnail: the same 300 aspect-fill 100x100 thumbnails.
mkdir -p "$out/peer"
cat >"$out/cases.json" <<EOF
[{"name": "300 thumbnails 100x100 fill",
  "tileview": "$bin ${scroll[*]} -o $out/tv",
  "peer": "vipsthumbnail $grid300/*.jpg --size 100x100 --smartcrop centre -o $out/peer/%s.png",
  "outputs": ["$out/tv/frame-0000.png", "$out/peer/img1.png"]}]
EOF
python3 scripts/lib/peer_bench.py "$runs" "$out/cases.json"
echo "(tileview decodes the same 300 thumbnails and also composes and writes 8 frames of 400x600;"
echo " vipsthumbnail writes 300 PNGs of 100x100.)"
exit $failed
