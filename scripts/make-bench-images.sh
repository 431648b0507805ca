#!/usr/bin/env bash
# Builds the large benchmark images (not committed) into bench-images/ (or $1):
#   photo-6000x4000.jpg            baseline JPEG, quality 90, 4:2:0
#   photo-6000x4000-progressive.jpg  its progressive twin
#   photo-6000x4000-adobergb.jpg   the same photo converted into Adobe RGB (1998) (colord-data's profile, relative
#                                  colorimetric), the profile embedded (APP2 ICC_PROFILE), quality 90, 4:2:0
#   photo-12000x8000.jpg           96 MP baseline JPEG, quality 90, 4:2:0
#   photo-6000x4000.png            RGB PNG (libvips writes its rows unfiltered)
#   photo-6000x4000-filtered.png   the same with the filter of each row chosen as most encoders choose it (libvips'
#                                  --filter all: mostly Paeth), as most PNGs are
#   photo-6000x4000-rgba.png       RGBA PNG (alpha ramp)
#   gallery/page-01.jpg ... page-50.jpg   4000x3000 JPEGs, quality 90, 4:2:0
# The pixels are mosaics of the photographs in Debian's plasma-workspace-wallpapers package,
# assembled with libvips (libvips-tools). Existing files are kept; delete the folder to rebuild.
set -euo pipefail
export VIPS_WARNING=0
cd "$(dirname "$0")/.."
out=${1:-bench-images}
gallery_count=${GALLERY_COUNT:-50}
mkdir -p "$out/gallery"

need=()
command -v vips >/dev/null || need+=(libvips-tools)
[ -d /usr/share/wallpapers/Autumn ] || need+=(plasma-workspace-wallpapers)
adobe_rgb=/usr/share/color/icc/colord/AdobeRGB1998.icc
[ -s "$adobe_rgb" ] || need+=(colord-data)
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}"
fi

# The 2560x1600 colour photographs of the package, in a fixed order.
mapfile -t photos < <(for d in /usr/share/wallpapers/*/contents/images; do
  f="$d/2560x1600.jpg"
  [ -f "$f" ] && [ "$(vipsheader -f bands "$f")" = 3 ] && echo "$f"
done | sort)
[ ${#photos[@]} -ge 4 ] || { echo "found only ${#photos[@]} wallpaper photos" >&2; exit 1; }
echo "using ${#photos[@]} photographs from plasma-workspace-wallpapers" >&2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mosaic WIDTH HEIGHT ACROSS FIRST OUT.v: tiles ACROSS x ACROSS photos starting at index FIRST,
# crops the top-left WIDTH x HEIGHT.
mosaic() {
  local w=$1 h=$2 across=$3 first=$4 dest=$5 list=() i
  for ((i = 0; i < across * across; i++)); do list+=("${photos[$(((first + i) % ${#photos[@]}))]}"); done
  vips arrayjoin "${list[*]}" "$tmp/join.v" --across "$across"
  vips crop "$tmp/join.v" "$dest" 0 0 "$w" "$h"
}

make() { [ -s "$1" ] && { echo "kept $1" >&2; return 1; }; echo "making $1" >&2; }

if make "$out/photo-6000x4000.jpg"; then
  mosaic 6000 4000 3 0 "$tmp/m24.v"
  vips jpegsave "$tmp/m24.v" "$out/photo-6000x4000.jpg" --Q 90 --subsample-mode on --strip
fi
if make "$out/photo-6000x4000-progressive.jpg"; then
  vips jpegsave "$out/photo-6000x4000.jpg" "$out/photo-6000x4000-progressive.jpg" \
    --Q 90 --subsample-mode on --interlace --strip
fi
if make "$out/photo-6000x4000-adobergb.jpg"; then
  # icc_transform attaches the output profile and jpegsave (without --strip) embeds it. Written aside and moved in
  # once checked, so that a failed run leaves no file that the next run would keep.
  vips icc_transform "$out/photo-6000x4000.jpg" "$tmp/adobergb.jpg[Q=90,subsample-mode=on]" "$adobe_rgb" \
    --input-profile srgb
  python3 - "$tmp/adobergb.jpg" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
i = 2
while i + 4 <= len(data) and data[i] == 0xFF and data[i + 1] not in (0xDA, 0xD9):
    length = data[i + 2] << 8 | data[i + 3]
    if data[i + 1] == 0xE2 and data[i + 4:i + 16] == b"ICC_PROFILE\0":
        sys.exit(0)
    i += 2 + length
sys.exit(f"{sys.argv[1]}: no APP2 ICC_PROFILE marker before the scan")
PY
  mv "$tmp/adobergb.jpg" "$out/photo-6000x4000-adobergb.jpg"
fi
if make "$out/photo-12000x8000.jpg"; then
  mosaic 12000 8000 5 3 "$tmp/m96.v"
  vips jpegsave "$tmp/m96.v" "$out/photo-12000x8000.jpg" --Q 90 --subsample-mode on --strip
fi
if make "$out/photo-6000x4000.png"; then
  vips copy "$out/photo-6000x4000.jpg" "$out/photo-6000x4000.png[compression=6]"
fi
if make "$out/photo-6000x4000-filtered.png"; then
  vips pngsave "$out/photo-6000x4000.png" "$out/photo-6000x4000-filtered.png" --compression 6 --filter all
fi
if make "$out/photo-6000x4000-rgba.png"; then
  # Alpha: a horizontal ramp from 32 to 255, so filters must handle premultiplication.
  vips xyz "$tmp/xy.v" 6000 4000
  vips extract_band "$tmp/xy.v" "$tmp/x.v" 0
  vips linear "$tmp/x.v" "$tmp/ramp.v" 0.03717 32 --uchar
  vips bandjoin "$out/photo-6000x4000.jpg $tmp/ramp.v" "$out/photo-6000x4000-rgba.png[compression=6]"
fi
for ((n = 1; n <= gallery_count; n++)); do
  f=$(printf '%s/gallery/page-%02d.jpg' "$out" "$n")
  if make "$f"; then
    mosaic 4000 3000 2 "$n" "$tmp/g.v"
    vips jpegsave "$tmp/g.v" "$f" --Q 90 --subsample-mode on --strip
  fi
done
ls -l "$out" >&2
