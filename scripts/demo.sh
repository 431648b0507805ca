#!/usr/bin/env bash
# Sets up (system packages), builds tileview in release and runs its main jobs on the sample
# photos in SampleImages/. Everything it writes goes to demo-output/ (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-demo-output}
scripts/ensure-deps.sh
echo "building tileview (release; the first build takes several minutes, its log: .build/build-release.log)..." >&2
mkdir -p .build
if ! scripts/lib/build-release.sh >.build/build-release.log 2>&1; then
  tail -40 .build/build-release.log >&2
  exit 1
fi
grep -a -E "(error|warning):" .build/build-release.log | sort -u >&2 || true
tv="$PWD/.build/release/tileview"
mkdir -p "$out"

echo
echo "== tileview info: what the files are, from their headers"
"$tv" info SampleImages/*.jpg SampleImages/*.png

echo
echo "== tileview zoom: a double tap at (120, 80) on a 1024x768 viewport, as a phone's viewer does it"
"$tv" zoom SampleImages/retina.jpg --tap 120,80 -o "$out/retina.zoom.png" --json --stats
echo "frame: $out/retina.zoom.png"

echo
echo "== tileview zoom --frames: fit, double tap, pinch, pan, two-finger tap, one frame each"
"$tv" zoom SampleImages/hubble_deep_field.jpg --viewport 640x480 --tap 400,200 \
  --gesture "pinch 2 320,240" --gesture "pan -150,80" --gesture two-finger-tap \
  --frames "$out/hubble-frames" -o "$out/hubble.zoom.png"
echo "frames: $out/hubble-frames/"

echo
echo "== tileview zoom on a scene: the tutorial's container (red, blue, green, a photo), double-tapped"
"$tv" info SampleImages/container.scene.json
"$tv" zoom SampleImages/container.scene.json --viewport 320x480 --tap 160,240 --frames "$out/scene-frames" \
  -o "$out/scene.zoom.png"
echo "frames: $out/scene-frames/"

echo
echo "== tileview zoom --animate: an animated double tap, a fling that bounces, a quarter turn, at 30 fps"
"$tv" zoom SampleImages/coffee.png --viewport 320x240 --tap 100,100 --gesture "pan -40,0 velocity -1.5,0" \
  --gesture "rotate 90" --animate --bounce --fps 30 --frames "$out/motion-frames" \
  -o "$out/motion.zoom.png"
echo "frames: $out/motion-frames/"

echo
echo "== tileview gallery: page through the sample photos with peeking and eased transitions"
"$tv" gallery --dir SampleImages --viewport 480x320 --moves next,next,next,prev --peek 32 --gap 8 \
  --transition-frames 3 -o "$out/gallery" --json > "$out/gallery.json"
echo "frames: $out/gallery/ ($(ls "$out/gallery" | wc -l) frames), records: $out/gallery.json"

echo
echo "== tileview feed: a header, a grid of the sample photos and a photo, scrolled"
"$tv" feed header:60:1E90FF grid:SampleImages:3 image:SampleImages/retina.jpg --viewport 300x400 \
  --offsets 0:900:150 -o "$out/feed" --json > "$out/feed.json"
echo "frames: $out/feed/ ($(ls "$out/feed" | wc -l) frames), records: $out/feed.json"

echo
echo "== tileview bench memory: resident pages, decoded bytes and RSS while paging (budget 64 MiB)"
"$tv" bench memory --dir SampleImages --viewport 1024x768 --steps 24 --budget-mb 64 --plot "$out/memory.png" | tail -4
echo "chart: $out/memory.png"

echo
echo "== tileview decode: the whole image as PNG"
"$tv" decode SampleImages/rocket.jpg -o "$out/rocket.png"
echo "decoded: $out/rocket.png"

echo
echo "== tileview serve: IIIF tiles and the viewer; one view driven through the API like a browser"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$tv" serve SampleImages --port "$port" 2>"$out/serve.log" &
server=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
# The view API takes JSON bodies only (415 otherwise).
json=(-H 'Content-Type: application/json')
view=$(curl -s -X POST "${json[@]}" "http://127.0.0.1:$port/api/views" \
  -d '{"image": "retina.jpg", "viewport": {"width": 800, "height": 600}}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["view"])')
# Each answer names the view as it now is (a signed token): follow it.
view=$(curl -s -X POST "${json[@]}" "http://127.0.0.1:$port/api/views/$view/gestures" -d '{"gesture": "double-tap 400,300"}' \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["view"])')
curl -s "http://127.0.0.1:$port/api/views/$view/frame.png" -o "$out/served-view.png"
"$tv" zoom SampleImages/retina.jpg --viewport 800x600 --tap 400,300 -o "$out/retina-tap.png"
if cmp -s "$out/served-view.png" "$out/retina-tap.png"; then
  echo "the served frame equals tileview zoom --viewport 800x600 --tap 400,300 byte for byte"
else
  echo "the served frame differs from tileview zoom --viewport 800x600 --tap 400,300" >&2
  kill "$server"
  exit 1
fi
curl -s "http://127.0.0.1:$port/iiif/3/rocket.jpg/full/!320,320/0/default.jpg" -o "$out/rocket-iiif.jpg"
echo "IIIF thumbnail: $out/rocket-iiif.jpg"
kill "$server"; wait "$server" 2>/dev/null || true
echo "to look through the images in a browser: $tv serve SampleImages --open"

echo
echo "Done. Outputs are in $out/"
