#!/usr/bin/env bash
# A never-seen first view against its floor: a fresh `tileview serve` with no disk cache, every tile of the levels
# that fit 1024x768 on two connections (what a viewer opening the image asks for), against the least the coarse
# levels need, in the same run: for a JPEG `djpeg -scale 1/8` (libjpeg's 1/8 decode, one entropy pass), for a PNG
# one inflate of its IDAT data. Medians of RUNS fresh starts, the binaries alternating; a markdown table with each
# ratio to the floor (scripts/lib/first_view.py).
# Env: RUNS (9); IMAGES (photo-6000x4000.jpg,photo-12000x8000.jpg,photo-6000x4000.png,photo-6000x4000-filtered.png
#   in BENCH_IMAGES, default bench-images, made by scripts/make-bench-images.sh when missing); TILEVIEW
#   (comma-separated tileview binaries to compare, each with its tileview-serve beside it; default the release build
#   of scripts/lib/build-release.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in djpeg hyperfine python3; do
  command -v "$tool" >/dev/null ||
    { echo "$tool is needed (apt-get install libjpeg-turbo-progs hyperfine python3)" >&2; exit 1; }
done
images=${BENCH_IMAGES:-bench-images}
[ -s "$images/photo-12000x8000.jpg" ] && [ -s "$images/photo-6000x4000-filtered.png" ] ||
  scripts/make-bench-images.sh "$images"
if [ -z "${TILEVIEW:-}" ]; then
  scripts/ensure-deps.sh
  scripts/lib/build-release.sh >&2
  TILEVIEW="$PWD/.build/release/tileview"
fi
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
IFS=, read -ra names <<<"${IMAGES:-photo-6000x4000.jpg,photo-12000x8000.jpg,photo-6000x4000.png,photo-6000x4000-filtered.png}"
for name in "${names[@]}"; do ln "$images/$name" "$folder/$name" 2>/dev/null || cp "$images/$name" "$folder/$name"; done
python3 scripts/lib/first_view.py "$folder" "${RUNS:-9}" "$TILEVIEW" "$(IFS=,; echo "${names[*]}")"
