#!/usr/bin/env bash
# Two builds of tileview on the same single-frame jobs, interleaved run by run: median wall time, CPU time, peak
# RSS and their ratios (NEW / OLD; below 1.0 the new build used less), with djpeg's floor in the same rotation.
#   scripts/bench-builds.sh OLD NEW        OLD, NEW: tileview binaries (copies of two release builds)
# Jobs: the fit of the 24 MP JPEG at 1024x768 (floor: djpeg -scale 1/4), the same after --tap 120,80, and the 1:1
# 1024x768 crop from the middle of the 96 MP JPEG (floor: djpeg -crop). Env: RUNS (default 21), BENCH_IMAGES.
# For a change whose effect is smaller than one sitting's noise: both builds see the same load, run for run.
# Needs the images of scripts/make-bench-images.sh (built when missing) and libjpeg-turbo-progs.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -eq 2 ] || { sed -n '2,8p' "$0" >&2; exit 64; }
old=$(realpath "$1")
new=$(realpath "$2")
for bin in "$old" "$new"; do [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 64; }; done
runs=${RUNS:-21}
images=${BENCH_IMAGES:-bench-images}
[ -s "$images/photo-12000x8000.jpg" ] || scripts/make-bench-images.sh "$images"
command -v djpeg >/dev/null || { echo "needs djpeg (apt-get install libjpeg-turbo-progs)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
img=$(cd "$images" && pwd)
cx=$(((12000 - 1024) / 2))
cy=$(((8000 - 768) / 2))

cat > "$out/cases.json" <<JSON
[
 {"name": "fit 24 MP JPEG 1024x768",
  "tileview": "$new zoom $img/photo-6000x4000.jpg --viewport 1024x768 -o $out/new-fit.png",
  "peer": "$old zoom $img/photo-6000x4000.jpg --viewport 1024x768 -o $out/old-fit.png",
  "floor": "djpeg -scale 1/4 -outfile /dev/null $img/photo-6000x4000.jpg",
  "outputs": ["$out/new-fit.png", "$out/old-fit.png"]},
 {"name": "tap 120,80 on 24 MP JPEG",
  "tileview": "$new zoom $img/photo-6000x4000.jpg --viewport 1024x768 --tap 120,80 -o $out/new-tap.png",
  "peer": "$old zoom $img/photo-6000x4000.jpg --viewport 1024x768 --tap 120,80 -o $out/old-tap.png",
  "outputs": ["$out/new-tap.png", "$out/old-tap.png"]},
 {"name": "1:1 crop of 96 MP JPEG",
  "tileview": "$new zoom $img/photo-12000x8000.jpg --viewport 1024x768 --gesture 'zoom-to $cx,$cy,1024,768' -o $out/new-crop.png",
  "peer": "$old zoom $img/photo-12000x8000.jpg --viewport 1024x768 --gesture 'zoom-to $cx,$cy,1024,768' -o $out/old-crop.png",
  "floor": "djpeg -crop 1024x768+$cx+$cy -outfile /dev/null $img/photo-12000x8000.jpg",
  "outputs": ["$out/new-crop.png", "$out/old-crop.png"]}
]
JSON
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/lib/peer_bench.py "$runs" "$out/cases.json" | sed -e 's/^\(.\{35\}\)tileview/\1new     /' \
  -e 's/^\(.\{35\}\)peer    /\1old     /' -e 's/tileview \/ peer/new \/ old/' -e 's/tileview used less/the new build used less/'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "old: $old"
echo "new: $new"
# Whether both builds wrote the same bytes, job by job.
for job in fit tap crop; do
  if cmp -s "$out/new-$job.png" "$out/old-$job.png"; then echo "$job: the same bytes"; else echo "$job: the files differ"; fi
done
