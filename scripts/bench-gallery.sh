#!/usr/bin/env bash
# tileview gallery against vipsthumbnail over the same pages, side by side (scripts/lib/peer_bench.py:
# alternating runs, GNU time, medians, ratios tileview / vips), then the memory gates.
#   50 pages of 12 MP (bench-images/gallery, 4000x3000 JPEG): tileview gallery --dir at 1024x768 with 49
#     `next` moves (50 frames written as PNG)   vs   vipsthumbnail over the 50 files in one process
#   150 pages: the 50 repeated three times through a folder of symbolic links page-001 ... page-150
# Targets (the script exits 1 when one is missed): wall time at most 1.0x vipsthumbnail's on 50 pages;
# tileview's peak RSS at most 40 MiB (pages are drawn straight from their decoders); its 150-page peak
# within 15% of its 50-page peak.
# Then `tileview bench memory` over 150 steps with --budget-mb 64 writes the chart to $PLOT.
# Env: RUNS (default 5), BENCH_IMAGES (default bench-images), PLOT (default: a temporary file),
#   TILEVIEW (a tileview binary to run instead of the release build: before and after a change, in one sitting).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
images=${BENCH_IMAGES:-bench-images}
export VIPS_WARNING=0
[ -s "$images/gallery/page-50.jpg" ] || scripts/make-bench-images.sh "$images"
scripts/ensure-deps.sh
command -v vipsthumbnail >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
if [ -n "${TILEVIEW:-}" ]; then
  tv=$(realpath "$TILEVIEW")  # another build to compare, e.g. an earlier commit's
else
  scripts/lib/build-release.sh >&2
  tv="$PWD/.build/release/tileview"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gallery=$(cd "$images/gallery" && pwd)

# 150 pages: the 50 three times, as symbolic links named in page order.
mkdir -p "$out/pages150" "$out/t50" "$out/v50" "$out/t150" "$out/v150"
n=0
for round in 1 2 3; do
  for f in "$gallery"/page-*.jpg; do
    n=$((n + 1))
    ln -s "$f" "$(printf '%s/pages150/page-%03d.jpg' "$out" "$n")"
  done
done
# The walks as script files (one `next` per line), so that the commands stay readable in the table.
for n in 49 149; do printf 'next\n%.0s' $(seq 1 "$n") > "$out/next-$n.txt"; done

cat > "$out/cases.json" <<JSON
[
 {"name": "gallery-50x12MP-1024x768",
  "tileview": "$tv gallery --dir $gallery --viewport 1024x768 --script $out/next-49.txt -o $out/t50",
  "peer": "vipsthumbnail $gallery/*.jpg -s 1024x768 -o $out/v50/%s.png",
  "outputs": ["$out/t50/frame-0000.png", "$out/v50/page-01.png"]},
 {"name": "gallery-150x12MP-1024x768",
  "tileview": "$tv gallery --dir $out/pages150 --viewport 1024x768 --script $out/next-149.txt -o $out/t150",
  "peer": "vipsthumbnail $out/pages150/*.jpg -s 1024x768 -o $out/v150/%s.png",
  "outputs": ["$out/t150/frame-0000.png", "$out/v150/page-001.png"]}
]
JSON
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/lib/peer_bench.py "$runs" "$out/cases.json" | tee "$out/table.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The gates, from the table: columns are case, side, wall s, cpu s, peak RSS MiB (and output bytes).
gates=0
python3 - "$out/table.txt" <<'PY' || gates=1
import sys
rows = {}
for line in open(sys.argv[1]):
    words = line.split()
    if len(words) >= 5 and words[0].startswith("gallery-") and words[1] in ("tileview", "peer", "ratio"):
        rows[(words[0].split("x")[0], words[1])] = [float(w) for w in words[2:5]]
wall_ratio = rows[("gallery-50", "ratio")][0]
rss50, rss150 = rows[("gallery-50", "tileview")][2], rows[("gallery-150", "tileview")][2]
growth = rss150 / rss50
checks = [
    (f"wall time 50 pages: {wall_ratio:.2f}x vipsthumbnail (target <= 1.00x)", wall_ratio <= 1.0),
    (f"peak RSS 50 pages: {rss50:.1f} MiB, 150 pages: {rss150:.1f} MiB (target <= 40 MiB)", max(rss50, rss150) <= 40),
    (f"150-page peak / 50-page peak: {growth:.3f} (target <= 1.15)", growth <= 1.15),
]
for text, ok in checks:
    print(("PASS " if ok else "MISS ") + text)
sys.exit(0 if all(ok for _, ok in checks) else 1)
PY

plot=${PLOT:-$out/gallery-memory.png}
"$tv" bench memory --dir "$out/pages150" --viewport 1024x768 --steps 149 --budget-mb 64 --plot "$plot" \
  >"$out/memory.txt" || gates=1
tail -1 "$out/memory.txt"
echo "chart: $plot"
exit "$gates"
