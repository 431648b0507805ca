#!/usr/bin/env bash
# A scene against the image it holds: what drawing a photo as a scene layer costs over zooming the
# photo itself. Side by side, alternating, RUNS times each (default 7), medians of wall time, CPU time
# and peak RSS (scripts/lib/peer_bench.py; "peer" is here tileview zoom of the photo alone).
#   fit view (1024x768) of a scene: a 13000x9000 container with coloured bars, holding the 96 MP JPEG
#     at its own size   vs   the fit view of the 96 MP JPEG alone
#   the same after a double tap at (512, 384)
# Needs the images of scripts/make-bench-images.sh (built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
images=${BENCH_IMAGES:-bench-images}
[ -s "$images/photo-12000x8000.jpg" ] || scripts/make-bench-images.sh "$images"
scripts/lib/build-release.sh >&2
tv="$PWD/.build/release/tileview"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
img=$(cd "$images" && pwd)
cat > "$out/scene.json" <<JSON
{"width": 13000, "height": 9000, "background": "FFFFFF",
 "layers": [{"color": "FF0000", "rect": [0, 0, 13000, 400]},
            {"color": "0000FF", "rect": [0, 8600, 13000, 400]},
            {"color": "00FF00", "rect": [3000, 2000, 7000, 5000]},
            {"image": "$img/photo-12000x8000.jpg", "center": [6500, 4500]}]}
JSON
cat > "$out/cases.json" <<JSON
[
 {"name": "fit: scene holding 96 MP JPEG",
  "tileview": "$tv zoom $out/scene.json --viewport 1024x768 -o $out/s-fit.png",
  "peer": "$tv zoom $img/photo-12000x8000.jpg --viewport 1024x768 -o $out/p-fit.png",
  "outputs": ["$out/s-fit.png", "$out/p-fit.png"]},
 {"name": "tap: scene holding 96 MP JPEG",
  "tileview": "$tv zoom $out/scene.json --viewport 1024x768 --tap 512,384 -o $out/s-tap.png",
  "peer": "$tv zoom $img/photo-12000x8000.jpg --viewport 1024x768 --tap 512,384 -o $out/p-tap.png",
  "outputs": ["$out/s-tap.png", "$out/p-tap.png"]}
]
JSON
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/lib/peer_bench.py "$runs" "$out/cases.json"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
