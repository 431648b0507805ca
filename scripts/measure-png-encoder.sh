#!/usr/bin/env bash
# PNG encoder trade-off: time and size of a 1024x768 photo frame at zlib levels 1...9 with each
# row filter (none, sub, up, average, paeth, adaptive):
#   scripts/measure-png-encoder.sh [ROUNDS [OTHER.jpg SCALE]]      (default 15 rounds)
# The frame is the middle 1024x768 of bench-images/photo-6000x4000.jpg decoded at 1/4. Builds
# the Benchmarks target png-encoder-tradeoff in release mode and prints Markdown tables: median
# milliseconds per encode, size, and the configurations no other beats on both. With OTHER.jpg
# SCALE the frame is the middle 1024x768 of that JPEG decoded at SCALE/8 instead.
# The image comes from scripts/make-bench-images.sh; BENCH_IMAGES=DIR points elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
images=${BENCH_IMAGES:-$PWD/bench-images}
if [ ! -f "$images/photo-6000x4000.jpg" ]; then
  echo "skipping: $images/photo-6000x4000.jpg not found. Make it with scripts/make-bench-images.sh or set BENCH_IMAGES=DIR." >&2
  exit 2
fi
echo "building png-encoder-tradeoff (release, Benchmarks package)" >&2
if ! build_log=$(swift build -c release --package-path Benchmarks --product png-encoder-tradeoff 2>&1); then
  echo "$build_log" >&2
  exit 1
fi
bin=$(swift build -c release --package-path Benchmarks --show-bin-path)/png-encoder-tradeoff
BENCH_IMAGES=$images "$bin" "${1:-15}" "${@:2}"
