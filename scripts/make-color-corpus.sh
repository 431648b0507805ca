#!/usr/bin/env bash
# Regenerates Tests/Corpus/color/ (docs/design.md section 14's colour corpus): colour-tagged JPEGs and PNGs made from
# SampleImages/coffee.png, each with NAME.srgb.png, the picture lcms2 makes of it for an sRGB display, and the
# folder's README.md. Deterministic: the same tool versions give the same bytes (the README names them).
#   scripts/make-color-corpus.sh
# Needs python3 with numpy, liblcms2 (called through ctypes) and its tificc, libjpeg-turbo's cjpeg and djpeg,
# libvips' vips (CMYK JPEGs, TIFFs for tificc), and the profiles in /usr/share/color/icc (Debian packages
# colord-data, icc-profiles-free, libgs-common); with apt-get, the missing ones are installed.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v cjpeg >/dev/null && command -v djpeg >/dev/null || missing+=(libjpeg-turbo-progs)
command -v vips >/dev/null || missing+=(libvips-tools)
command -v tificc >/dev/null || missing+=(liblcms2-utils)
[ -f /usr/share/color/icc/colord/AdobeRGB1998.icc ] || missing+=(colord-data)
[ -f /usr/share/color/icc/Gray.icc ] || missing+=(icc-profiles-free)
[ -f /usr/share/color/icc/ghostscript/ps_cmyk.icc ] || missing+=(libgs-common)
python3 -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
if [ "${#missing[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null; then
    echo "installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2
  else
    echo "missing: ${missing[*]}" >&2
    exit 1
  fi
fi

python3 scripts/lib/color_corpus.py "$PWD"
