#!/usr/bin/env bash
# The new formats against libvips on the same jobs, side by side in one run (docs/design.md section 15):
#   fit     an 11 MP HEIC (4000x2667, one coded image), a 24 MP HEIC as phones store it (a grid of 512 px tiles,
#           scripts/make-heif-grid.py), a 24 MP lossy WebP and a 24 MP AVIF shown at fit in a 1024x768 viewport:
#           `tileview zoom FILE --viewport 1024x768 -o out.png` against `vipsthumbnail FILE --size 1024x768`
#           (the same libheif and libwebp underneath; vipsthumbnail shrinks on load where the format lets it)
#   crop    a 1:1 view of 1024x768 pixels in the middle of a 30000x32000 pyramid TIFF (256 px JPEG tiles):
#           `tileview zoom FILE --viewport 1024x768 --gesture "zoom-to X,Y,1024,768"` against
#           `vips crop FILE out.png X Y 1024 768`
# Each pair runs ROUNDS (default 5) hyperfine rounds of RUNS (default 3) runs after one warm-up, the order
# flipping each round; the table gives the median wall time of all runs, the ratio tileview / libvips, and each
# side's peak RSS (the median of three runs under /usr/bin/time). Both write PNG. ONLY=NAME runs one case (heic,
# heicgrid, webp, avif, crop).
# The inputs are made once into bench-images/formats/ from bench-images/photo-6000x4000.jpg
# (scripts/make-bench-images.sh): heif-enc (x265, quality 80; aom, quality 60, speed 9), cwebp -q 80, and vips
# replicate into a tiled pyramid TIFF (about 200 MB, a minute or two). TILEVIEW=path uses that binary; otherwise
# the release build of scripts/lib/build-release.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C VIPS_WARNING=0
rounds=${ROUNDS:-5}
runs=${RUNS:-3}
images=${BENCH_IMAGES:-bench-images}
out=$images/formats

missing=()
for tool in vips vipsthumbnail heif-enc cwebp hyperfine python3; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  echo "needs ${missing[*]} (apt-get install libvips-tools libheif-examples webp hyperfine python3 time)" >&2
  exit 1
fi
[ -s "$images/photo-6000x4000.jpg" ] || scripts/make-bench-images.sh "$images"
mkdir -p "$out"
photo=$images/photo-6000x4000.jpg
if [ ! -s "$out/photo-12mp.heic" ]; then
  echo "making $out/photo-12mp.heic" >&2
  vips resize "$photo" "$out/photo-4000x3000.png" 0.6666667
  heif-enc -q 80 "$out/photo-4000x3000.png" -o "$out/photo-12mp.heic" >/dev/null
  rm "$out/photo-4000x3000.png"
fi
if [ ! -s "$out/photo-24mp-grid.heic" ]; then
  echo "making $out/photo-24mp-grid.heic (96 tiles, a minute)" >&2
  python3 scripts/make-heif-grid.py "$photo" "$out/photo-24mp-grid.heic" --tile 512 >/dev/null
fi
if [ ! -s "$out/photo-24mp.webp" ]; then
  echo "making $out/photo-24mp.webp" >&2
  cwebp -quiet -q 80 "$photo" -o "$out/photo-24mp.webp"
fi
if [ ! -s "$out/photo-24mp.avif" ]; then
  echo "making $out/photo-24mp.avif" >&2
  heif-enc -A -q 60 -p speed=9 "$photo" -o "$out/photo-24mp.avif" >/dev/null
fi
if [ ! -s "$out/pyramid-30000x32000.tif" ]; then
  echo "making $out/pyramid-30000x32000.tif (a minute or two)" >&2
  vips replicate "$photo" "$out/pyramid-30000x32000.tif[tile,pyramid,compression=jpeg,Q=85,tile-width=256,tile-height=256]" 5 8
fi

if [ -n "${TILEVIEW:-}" ]; then
  tv=$TILEVIEW
else
  scripts/ensure-deps.sh
  scripts/lib/build-release.sh >&2
  tv="$PWD/.build/release/tileview"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name|label|tileview command|libvips command
cases=(
  "heic|11 MP HEIC (4000x2667) at fit|$tv zoom $out/photo-12mp.heic --viewport 1024x768 -o $tmp/tv.png|vipsthumbnail $out/photo-12mp.heic --size 1024x768 -o $tmp/vips.png"
  "heicgrid|24 MP HEIC grid (6000x4000, 512 px tiles) at fit|$tv zoom $out/photo-24mp-grid.heic --viewport 1024x768 -o $tmp/tv.png|vipsthumbnail $out/photo-24mp-grid.heic --size 1024x768 -o $tmp/vips.png"
  "webp|24 MP lossy WebP at fit|$tv zoom $out/photo-24mp.webp --viewport 1024x768 -o $tmp/tv.png|vipsthumbnail $out/photo-24mp.webp --size 1024x768 -o $tmp/vips.png"
  "avif|24 MP AVIF at fit|$tv zoom $out/photo-24mp.avif --viewport 1024x768 -o $tmp/tv.png|vipsthumbnail $out/photo-24mp.avif --size 1024x768 -o $tmp/vips.png"
  "crop|1:1 1024x768 of a 30000x32000 pyramid TIFF|$tv zoom $out/pyramid-30000x32000.tif --viewport 1024x768 --gesture 'zoom-to 15000,16000,1024,768' -o $tmp/tv.png|vips crop $out/pyramid-30000x32000.tif $tmp/vips.png 15000 16000 1024 768"
)
if [ -n "${ONLY:-}" ]; then
  for case in "${cases[@]}"; do [[ $case == "$ONLY|"* ]] && picked=("$case"); done
  [ -n "${picked:-}" ] || { echo "ONLY=$ONLY names no case" >&2; exit 64; }
  cases=("${picked[@]}")
fi
for case in "${cases[@]}"; do
  IFS='|' read -r name label ours theirs <<<"$case"
  for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then
      order=(-n tileview "$ours" -n libvips "$theirs")
    else
      order=(-n libvips "$theirs" -n tileview "$ours")
    fi
    echo "$label, round $round/$rounds" >&2
    # Through a shell (no -N): the gesture is quoted in the command.
    hyperfine --style none --warmup 1 --runs "$runs" --export-json "$tmp/$name-$round.json" "${order[@]}" >/dev/null
  done
  for side in tileview libvips; do
    command=$ours
    [ "$side" = libvips ] && command=$theirs
    for i in 1 2 3; do
      bash -c "/usr/bin/time -f %M -o $tmp/$name-$side-$i.rss $command" >/dev/null 2>&1
    done
  done
done

python3 - "$tmp" "$rounds" "$runs" "${cases[@]}" <<'PY'
import glob, json, os, statistics, sys
tmp, rounds, runs, cases = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
print(f"| job | tileview ms | libvips ms | ratio (lower is better) | tileview peak RSS MiB | libvips peak RSS MiB | RSS ratio |")
print("|---|---:|---:|---:|---:|---:|---:|")
for case in cases:
    name, label = case.split("|")[:2]
    times = {"tileview": [], "libvips": []}
    for path in glob.glob(os.path.join(tmp, f"{name}-*.json")):
        for result in json.load(open(path))["results"]:
            times[result["command"]] += result["times"]
    rss = {}
    for side in times:
        values = [int(open(os.path.join(tmp, f"{name}-{side}-{i}.rss")).read().split()[-1]) for i in (1, 2, 3)]
        rss[side] = statistics.median(values) / 1024
    a, b = statistics.median(times["tileview"]) * 1000, statistics.median(times["libvips"]) * 1000
    print(f"| {label} | {a:.0f} | {b:.0f} | {a / b:.2f} | {rss['tileview']:.0f} | {rss['libvips']:.0f} | "
          f"{rss['tileview'] / rss['libvips']:.2f} |")
print()
print(f"Medians of {rounds} rounds of {runs} runs (hyperfine, one warm-up each, order flipped every round); peak "
      "RSS is the median of three runs under /usr/bin/time.")
PY
echo "tileview $("$tv" --version 2>/dev/null || echo "?"), $(vips --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
