#!/usr/bin/env bash
# Regenerates Tests/Corpus/formats/: WebP, HEIF/HEIC, AVIF, TIFF and GIF files made by real encoders from images
# already in the repository, each with its reference decode (libvips, reduced to RGBA8), a manifest, README.md and
# LICENSES.md. Everything is made from scratch in a temporary folder, which then replaces Tests/Corpus/formats;
# if anything fails, the old folder stays as it was.
#   scripts/make-format-corpus.sh
# Needs python3 (standard library only; scripts/lib/format_corpus.py does the work), libvips' tools (vips,
# vipsheader; built with libwebp, libheif, libtiff, libnsgif and cgif), libwebp's cwebp/dwebp/img2webp/webpmux,
# libheif's heif-enc/heif-convert (x265 and aom encoders) and libheif.so.1 >= 1.14, libtiff's tools, giflib's tools,
# libjpeg-turbo's djpeg, lcms2's tificc, and the ICC profiles of colord-data and libgs-common.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A package=(
  [vips]=libvips-tools [vipsheader]=libvips-tools
  [cwebp]=webp [dwebp]=webp [img2webp]=webp [webpmux]=webp
  [heif-enc]=libheif-examples [heif-convert]=libheif-examples
  [tiffcp]=libtiff-tools [tiffset]=libtiff-tools [tiffmedian]=libtiff-tools [tiff2rgba]=libtiff-tools
  [tiffinfo]=libtiff-tools
  [gif2rgb]=giflib-tools [gifbuild]=giflib-tools [giftool]=giflib-tools
  [djpeg]=libjpeg-turbo-progs [tificc]=liblcms2-utils [python3]=python3
)
missing=()
for tool in "${!package[@]}"; do
  command -v "$tool" >/dev/null || missing+=("$tool (Debian package ${package[$tool]})")
done
[ -f /usr/share/color/icc/colord/AdobeRGB1998.icc ] || missing+=("AdobeRGB1998.icc (Debian package colord-data)")
[ -f /usr/share/color/icc/ghostscript/ps_cmyk.icc ] || missing+=("ps_cmyk.icc (Debian package libgs-common)")
if [ "${#missing[@]}" -gt 0 ]; then
  echo "make-format-corpus: missing tools:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  echo "install them (e.g. apt-get install webp libheif-examples libtiff-tools giflib-tools ...) and run again" >&2
  exit 1
fi
operations=$(vips -l foreign 2>/dev/null || true)
for op in webpload heifload tiffload gifload gifsave heifsave tiffsave; do
  if ! grep -q "($op)" <<<"$operations"; then
    echo "make-format-corpus: this libvips has no $op" >&2
    exit 1
  fi
done
encoders=$(heif-enc --list-encoders 2>/dev/null || true)
if ! grep -q x265 <<<"$encoders" || ! grep -q aom <<<"$encoders"; then
  echo "make-format-corpus: heif-enc needs both the x265 (HEIC) and the aom (AVIF) encoders" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/format-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 scripts/lib/format_corpus.py "$PWD" "$work/formats"

rm -rf Tests/Corpus/formats
mv "$work/formats" Tests/Corpus/formats
du -sh Tests/Corpus/formats
