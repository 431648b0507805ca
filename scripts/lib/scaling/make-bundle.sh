#!/usr/bin/env bash
# Packs what a scaling run (evidence.sh, beside this script) needs on a machine with more cores that has no network
# and no packages: tileview-serve (stripped), iipsrv, lighttpd and wrk, every shared library they load and the loader
# itself (they run through it, so the other machine's C library does not matter), the loads (*.lua), a 24 MP photo
# and its pyramid TIFF for iipsrv.
# Usage: scripts/lib/scaling/make-bundle.sh PATH/TO/tileview-serve PHOTO.jpg OUTDIR
#   PHOTO.jpg: a 6000x4000 JPEG (scripts/make-bench-images.sh makes bench-images/photo-6000x4000.jpg).
#   Writes OUTDIR/bundle.tar.xz (about 36 MB) and OUTDIR/evidence.sh; on the other machine:
#   BUNDLE=OUTDIR/bundle.tar.xz bash OUTDIR/evidence.sh (results in $OUT/scaling.txt).
set -euo pipefail
serve=$1 photo=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
iipsrv=/usr/lib/iipimage-server/iipsrv.fcgi
for tool in wrk lighttpd vips; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
    { echo "needs $tool (apt-get install wrk lighttpd libvips-tools)" >&2; exit 1; }
done
[ -x "$iipsrv" ] || { echo "needs iipsrv (apt-get install iipimage-server)" >&2; exit 1; }
b=$(mktemp -d)
trap 'rm -rf "$b"' EXIT
mkdir -p "$b/lib" "$b/img"
cp "$serve" "$b/tileview-serve"
strip "$b/tileview-serve"
cp "$iipsrv" "$(command -v lighttpd || echo /usr/sbin/lighttpd)" "$(command -v wrk)" "$b/"
for f in "$b/tileview-serve" "$b/iipsrv.fcgi" "$b/lighttpd" "$b/wrk"; do ldd "$f" | awk '/=>/ {print $3}'; done |
  sort -u | while read -r library; do cp -L "$library" "$b/lib/"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$b/lib/"
cp "$photo" "$b/img/photo24.jpg"
vips tiffsave "$b/img/photo24.jpg" "$b/img/pyr.tif" --tile --pyramid --compression jpeg \
  --tile-width 256 --tile-height 256 -Q 85
cp "$here"/*.lua "$b/"
mkdir -p "$out"
tar -C "$b" -cf - . | xz -6 -T2 >"$out/bundle.tar.xz"
cp "$here/evidence.sh" "$here/distinct.lua" "$out/"
ls -la "$out"
