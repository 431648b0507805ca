#!/usr/bin/env bash
# tileview against libvips on the same jobs, side by side: median wall time, CPU time, peak RSS,
# their ratios (tileview / vips) and output sizes. Runs each pair alternately RUNS times (default 7).
#   fit view of the 24 MP JPEG at 1024x768        vs vipsthumbnail -s 1024x768
#   the same after --tap 120,80                   vs vips extract_area on the shrink-on-load image,
#                                                    then vips resize (intermediate .v file in /dev/shm)
#   1:1 1024x768 crop from the middle of 96 MP    vs vips crop
#   fit view of the 24 MP JPEG in Adobe RGB       vs vipsthumbnail -s 1024x768 --export-profile srgb
#     (photo-6000x4000-adobergb.jpg: the same photo converted, its profile embedded; both sides convert to sRGB)
#   fit view of the 24 MP PNG                     vs vipsthumbnail
#   fit view of the 24 MP progressive JPEG        vs vipsthumbnail
#   fit view of the 96 MP JPEG                    vs vipsthumbnail
# The JPEG cases also run the floor: djpeg decoding what the job needs to /dev/null (-scale 1/4 for a fit
# of 24 MP, 1/8 for 96 MP, -crop for the crop), and print tileview / floor. Last, the cost of colour management:
# tileview's median wall and CPU time on the Adobe RGB fit over those on the untagged fit (target: wall <= 1.15).
# Needs the images of scripts/make-bench-images.sh (built when missing), libvips-tools and libjpeg-turbo-progs.
# TILEVIEW=path runs that binary instead of the release build (before and after a change, in one sitting).
# OLD=path makes that build of tileview the peer of the fit, tap and crop, the same commands, and runs those three
# jobs only, the sides labelled new and old (scripts/bench-builds.sh): two builds interleaved run by run, with the
# floor.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
images=${BENCH_IMAGES:-bench-images}
export VIPS_WARNING=0
[ -s "$images/photo-12000x8000.jpg" ] && [ -s "$images/photo-6000x4000-adobergb.jpg" ] ||
  scripts/make-bench-images.sh "$images"
scripts/ensure-deps.sh
[ -n "${OLD:-}" ] || command -v vipsthumbnail >/dev/null || { echo "needs libvips-tools (apt-get install libvips-tools)" >&2; exit 1; }
command -v djpeg >/dev/null || { echo "needs djpeg (apt-get install libjpeg-turbo-progs)" >&2; exit 1; }
if [ -n "${TILEVIEW:-}" ]; then
  tv=$(realpath "$TILEVIEW")  # another build to compare, e.g. an earlier commit's
else
  scripts/lib/build-release.sh >&2
  tv="$PWD/.build/release/tileview"
fi
out=$(mktemp -d)
shm=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$out" "$shm"' EXIT
img=$(cd "$images" && pwd)

# The 1:1 crop: a 1024x768 rect at the middle of the 12000x8000 image.
cx=$(((12000 - 1024) / 2))
cy=$(((8000 - 768) / 2))
# The jobs OLD compares, as tileview's arguments (without -o).
fit="zoom $img/photo-6000x4000.jpg --viewport 1024x768"
tap="$fit --tap 120,80"
crop="zoom $img/photo-12000x8000.jpg --viewport 1024x768 --gesture 'zoom-to $cx,$cy,1024,768'"
# peer JOB COMMAND: the peer of a job, COMMAND (vips), or with OLD the old build running the job.
peer() {
  if [ -n "${OLD:-}" ]; then echo "$(realpath "$OLD") ${!1} -o $out/v-$1.png"; else echo "$2"; fi
}
# After a double tap at (120, 80) the 24 MP fit view shows image rect (0, 0) 4000x3000 (docs/design.md section 3):
# at shrink-on-load 2 that is (0, 0) 2000x1500, resized by 1024/2000.
cat > "$out/cases.json" <<JSON
[
 {"name": "fit 24 MP JPEG 1024x768",
  "tileview": "$tv $fit -o $out/t-fit.png",
  "peer": "$(peer fit "vipsthumbnail $img/photo-6000x4000.jpg -s 1024x768 -o $out/v-fit.png")",
  "floor": "djpeg -scale 1/4 -outfile /dev/null $img/photo-6000x4000.jpg",
  "outputs": ["$out/t-fit.png", "$out/v-fit.png"]},
 {"name": "tap 120,80 on 24 MP JPEG",
  "tileview": "$tv $tap -o $out/t-tap.png",
  "peer": "$(peer tap "vips extract_area '$img/photo-6000x4000.jpg[shrink=2]' $shm/tap.v 0 0 2000 1500 && vips resize $shm/tap.v $out/v-tap.png 0.512")",
  "outputs": ["$out/t-tap.png", "$out/v-tap.png"]},
 {"name": "1:1 crop of 96 MP JPEG",
  "tileview": "$tv $crop -o $out/t-crop.png",
  "peer": "$(peer crop "vips crop $img/photo-12000x8000.jpg $out/v-crop.png $cx $cy 1024 768")",
  "floor": "djpeg -crop 1024x768+$cx+$cy -outfile /dev/null $img/photo-12000x8000.jpg",
  "outputs": ["$out/t-crop.png", "$out/v-crop.png"]},
 {"name": "fit 24 MP JPEG, Adobe RGB",
  "tileview": "$tv zoom $img/photo-6000x4000-adobergb.jpg --viewport 1024x768 -o $out/t-adobe.png",
  "peer": "vipsthumbnail $img/photo-6000x4000-adobergb.jpg -s 1024x768 --export-profile srgb -o $out/v-adobe.png",
  "floor": "djpeg -scale 1/4 -outfile /dev/null $img/photo-6000x4000-adobergb.jpg",
  "outputs": ["$out/t-adobe.png", "$out/v-adobe.png"]},
 {"name": "fit 24 MP PNG 1024x768",
  "tileview": "$tv zoom $img/photo-6000x4000.png --viewport 1024x768 -o $out/t-png.png",
  "peer": "vipsthumbnail $img/photo-6000x4000.png -s 1024x768 -o $out/v-png.png",
  "outputs": ["$out/t-png.png", "$out/v-png.png"]},
 {"name": "fit 24 MP progressive JPEG",
  "tileview": "$tv zoom $img/photo-6000x4000-progressive.jpg --viewport 1024x768 -o $out/t-prog.png",
  "peer": "vipsthumbnail $img/photo-6000x4000-progressive.jpg -s 1024x768 -o $out/v-prog.png",
  "outputs": ["$out/t-prog.png", "$out/v-prog.png"]},
 {"name": "fit 96 MP JPEG 1024x768",
  "tileview": "$tv zoom $img/photo-12000x8000.jpg --viewport 1024x768 -o $out/t-fit96.png",
  "peer": "vipsthumbnail $img/photo-12000x8000.jpg -s 1024x768 -o $out/v-fit96.png",
  "floor": "djpeg -scale 1/8 -outfile /dev/null $img/photo-12000x8000.jpg",
  "outputs": ["$out/t-fit96.png", "$out/v-fit96.png"]}
]
JSON
# With OLD, the three jobs it compares.
[ -z "${OLD:-}" ] || python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); json.dump(c[:3], open(sys.argv[1], "w"))' \
  "$out/cases.json"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/lib/peer_bench.py "$runs" "$out/cases.json" ${OLD:+new old} | tee "$out/table.txt"
# tileview's tagged fit over its untagged fit, from the table's medians (not with OLD, which runs no tagged fit).
python3 - "$out/table.txt" <<'PY'
import sys
median = {}
for line in open(sys.argv[1]):
    if not line.strip():
        break  # the table ends at the first blank line
    name, side, figures = line[:34].rstrip(), line[35:44].strip(), line[44:].split()
    if side == "tileview" and len(figures) >= 2:
        median[name] = [float(figures[0]), float(figures[1])]
tagged, untagged = median.get("fit 24 MP JPEG, Adobe RGB"), median.get("fit 24 MP JPEG 1024x768")
if tagged and untagged:
    wall, cpu = (t / u if u else float("nan") for t, u in zip(tagged, untagged))
    print(f"\ncolour management: Adobe RGB fit / untagged fit, tileview medians: wall {wall:.2f}, cpu {cpu:.2f} "
          f"(target: wall <= 1.15{'' if wall <= 1.15 else ', MISSED'})")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
