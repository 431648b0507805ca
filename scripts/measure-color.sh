#!/usr/bin/env bash
# How far tileview's frames of the colour corpus (Tests/Corpus/color, scripts/make-color-corpus.sh) are from what
# a colour-managed sRGB display shows, per tagged file: CIEDE2000 mean, 99th percentile and max between the fit
# frame of FILE and the fit frame of FILE.srgb.png (lcms2's rendering of it, made beforehand), and the chroma
# ratio of the two frames (below 1: FILE is shown duller). docs/design.md section 14's oracle is mean <= 1, p99 <= 4.
#   TILEVIEW=path/to/tileview scripts/measure-color.sh [--viewport WxH ...] [FILE ...]
# Default: .build/debug/tileview, viewport 256x192, every tagged file. Exit 1 when a file is outside the
# oracle (or does not render). Needs python3 with numpy.
set -euo pipefail
cd "$(dirname "$0")/.."
tileview=${TILEVIEW:-.build/debug/tileview}
if [ ! -x "$tileview" ]; then
  echo "no tileview binary at $tileview: build one (swift build --product tileview) or set TILEVIEW" >&2
  exit 2
fi
exec python3 scripts/lib/measure_color.py --tileview "$tileview" --corpus Tests/Corpus/color "$@"
