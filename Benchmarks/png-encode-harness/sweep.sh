#!/usr/bin/env bash
# PNG encode sweep over zlib level, zlib strategy and row filter for one frame, by callgrind
# instruction count (the encode only: --toggle-collect=encode_frame) and output size, plus the
# median wall time of ROUNDS native encodes.
#   Benchmarks/png-encode-harness/sweep.sh FRAME.png [ROUNDS] > table.tsv
# Env: LEVELS, STRATEGIES, FILTERS (space-separated lists) narrow the grid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
frame=$1
rounds=${2:-9}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cc -O2 -o "$bin/h" "$here/png_encode_harness.c" $(pkg-config --cflags --libs libpng) -lz
printf 'level\tstrategy\tfilter\tinstructions\tbytes\tmedian_ms\n'
for level in ${LEVELS:-1 2 6}; do
  for strategy in ${STRATEGIES:-libpng default filtered rle huffman}; do
    for filter in ${FILTERS:-none sub up avg paeth adaptive}; do
      ir=$(valgrind --tool=callgrind --toggle-collect=encode_frame --callgrind-out-file=/dev/null \
        "$bin/h" "$frame" "$level" "$strategy" "$filter" 1 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
      line=$("$bin/h" "$frame" "$level" "$strategy" "$filter" "$rounds")
      bytes=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' <<<"$line")
      ms=$(sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' <<<"$line")
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$level" "$strategy" "$filter" "$ir" "$bytes" "$ms"
    done
  done
done
