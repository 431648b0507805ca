#!/usr/bin/env bash
# tileview serve against iipsrv (IIPImage, FastCGI behind lighttpd), side by side over IIIF in one run.
# Prints markdown tables of medians and ratios (tileview / iipsrv; the arrow in each row says which way
# is better):
#   warm 256 px tiles/s at 16 and 64 connections: wrk with a Lua script cycling through every level-0
#     tile of the 24 MP JPEG, after one sequential pass over them; RUNS runs of DURATION s per server and
#     connection count, the servers alternating; wrk's socket errors and non-2xx/3xx responses
#   time to first tile: from starting the server process to the first 200 of the centre full-size tile
#   first view: a fresh server, then every tile of the levels no larger than 1024x768 (the fit level and
#     the coarser ones a viewer asks for first) on two connections at once; time to the last tile
#   cold tile latency p50 / p99 for every level of each image, each level on a fresh server: every tile
#     of the level once in a seeded random order, sequential keep-alive requests, timed by the client
#   peak RSS of each server (VmHWM, summed over lighttpd and its iipsrv processes)
#   the pre-processing tileview avoids: vips tiffsave of the pyramid TIFF iipsrv serves, and vips
#     dzsave's static Deep Zoom pyramid for reference
# Images (scripts/make-bench-images.sh, built when missing): the 24 MP baseline JPEG, the 96 MP baseline
# JPEG and the 24 MP PNG. tileview serves the files as they are; iipsrv serves pyramid TIFFs (256 px
# tiles, JPEG Q 90) made from the same files and encodes its answers at JPEG_QUALITY 90, as tileview does.
# Both get the same IIIF requests: region x,y,256*s,256*s (clipped at the edges) at size ceil(w/s), for
# each scale factor s that both info.json advertise with 256 px tiles. The measuring is done by
# scripts/lib/bench_serve.py. Exits 1 when a tile was not a 200 JPEG or wrk counted an error.
# Env: RUNS (3; also the runs of tiffsave and dzsave), DURATION (10 s per wrk run), CONNECTIONS ("16 64"),
#   WRK_THREADS (2), WRK_TIMEOUT (wrk's 2 s: a slower answer counts as a timeout error),
#   SEED (1, the random tile order), BENCH_IMAGES (bench-images),
#   TILEVIEW (a tileview binary to use, with its tileview-serve beside it; default: the release build of
#   scripts/lib/build-release.sh),
#   CACHE_MB (256; passed as --cache-mb when `tileview serve --help` has it),
#   IIPSRV (/usr/lib/iipimage-server/iipsrv.fcgi), IIPSRV_PROCS (2 FastCGI processes),
#   LEVELS (the levels of the cold passes, 0 = full size; default all),
#   IMAGES (the images among jpg24 jpg96 png24 tif24; default all, or jpg24 when QUICK=1; the warm runs
#     take the first; tif24 is a pyramid TIFF of the 24 MP photo that both servers serve as it is),
#   QUICK=1: RUNS=1, DURATION=2, only the 24 MP JPEG, cold passes on levels 2 and 5 (under a minute
#   with a release build).
# Needs wrk, libvips-tools, iipimage-server and lighttpd; no root: lighttpd runs on a free loopback port
# from a lighttpd.conf in a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C VIPS_WARNING=0
quick=${QUICK:-0}
if [ "$quick" = 1 ]; then
  runs=${RUNS:-1} duration=${DURATION:-2} levels=${LEVELS:-2 5}
else
  runs=${RUNS:-3} duration=${DURATION:-10} levels=${LEVELS:-}
fi
connections=${CONNECTIONS:-16 64}
wrk_threads=${WRK_THREADS:-2}
wrk_timeout=${WRK_TIMEOUT:-}
seed=${SEED:-1}
images=${BENCH_IMAGES:-bench-images}
cache_mb=${CACHE_MB:-256}
iipsrv=${IIPSRV:-/usr/lib/iipimage-server/iipsrv.fcgi}
iipsrv_procs=${IIPSRV_PROCS:-2}

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v vips >/dev/null || missing+=(libvips-tools)
lighttpd=$(command -v lighttpd || echo /usr/sbin/lighttpd)
[ -x "$lighttpd" ] || missing+=(lighttpd)
[ -x "$iipsrv" ] || missing+=(iipimage-server)
if [ ${#missing[@]} -gt 0 ]; then
  echo "needs ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 1
fi
[ -s "$images/photo-12000x8000.jpg" ] && [ -s "$images/photo-6000x4000.png" ] ||
  scripts/make-bench-images.sh "$images"
img=$(cd "$images" && pwd -P)

if [ -n "${TILEVIEW:-}" ]; then
  tv=$TILEVIEW
else
  scripts/ensure-deps.sh
  scripts/lib/build-release.sh >&2
  tv="$PWD/.build/release/tileview"
fi
tv_command=("$tv" serve "$img" --host 127.0.0.1)
serve_help=$("$tv" serve --help 2>&1 || true)  # read whole: `grep -q` on a pipe fails under pipefail (SIGPIPE)
if grep -q -- --cache-mb <<<"$serve_help"; then tv_command+=(--cache-mb "$cache_mb"); fi
# The disk cache (docs/design.md section 16): the measures above are of images never seen (no cache); the first view
# is measured again with a fresh server reading the cache `tileview index` filled, where the build has one.
disk_cache=0
if grep -q -- --cache-dir <<<"$serve_help"; then
  disk_cache=1
  tv_cached_command=("${tv_command[@]}")
  tv_command+=(--cache-dir none)
fi

tmp=$(mktemp -d)
helper=
cleanup() {
  # bench_serve.py stops its servers on SIGTERM; the pid file lists any a killed helper left running.
  if [ -n "$helper" ] && kill -0 "$helper" 2>/dev/null; then
    kill -TERM "$helper"
    wait "$helper" || true
  fi
  if [ -s "$tmp/servers.pid" ]; then
    while read -r pid; do kill -- "-$pid" 2>/dev/null || true; done < "$tmp/servers.pid"
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$tmp/tif" "$tmp/dz" "$tmp/www"

# Two free loopback ports, held together while asking so that they differ.
read -r tv_port iip_port < <(python3 -c '
import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
tv_command+=(--port "$tv_port")
[ "$disk_cache" = 0 ] || tv_cached_command+=(--port "$tv_port" --cache-dir "$tmp/cache" --index-workers 0)

# iipsrv as lighttpd runs it: FastCGI processes on a Unix socket of the temporary folder, the pyramid
# TIFFs under FILESYSTEM_PREFIX, its own defaults otherwise (10 MB tile cache per process). Keep-alive
# is not cut after lighttpd's default 1000 requests, so that the passes over the 1,504 level-0 tiles of
# the 96 MP image stay on one connection; there is no access log.
cat > "$tmp/lighttpd.conf" <<CONF
server.document-root = "$tmp/www"
server.bind = "127.0.0.1"
server.port = $iip_port
server.errorlog = "$tmp/lighttpd-error.log"
server.max-keep-alive-requests = 1000000
server.modules += ( "mod_fastcgi" )
fastcgi.server = ( "/fcgi-bin/iipsrv.fcgi" =>
  (( "socket" => "$tmp/iipsrv.sock",
     "bin-path" => "$iipsrv",
     "max-procs" => $iipsrv_procs,
     "check-local" => "disable",
     "bin-environment" => (
       "FILESYSTEM_PREFIX" => "$tmp/tif/",
       "JPEG_QUALITY" => "90",
       "VERBOSITY" => "0"
     )
  ))
)
CONF
"$lighttpd" -tt -f "$tmp/lighttpd.conf" >&2

# key, label, file under BENCH_IMAGES, pyramid TIFF name (a file that is a pyramid TIFF already is served by both)
cases=("jpg24|24 MP JPEG|photo-6000x4000.jpg|photo-6000x4000.tif")
[ "$quick" = 1 ] || cases+=("jpg96|96 MP JPEG|photo-12000x8000.jpg|photo-12000x8000.tif"
  "png24|24 MP PNG|photo-6000x4000.png|photo-6000x4000-png.tif"
  "tif24|24 MP pyramid TIFF, the same file for both|photo-6000x4000-pyramid.tif|photo-6000x4000-pyramid.tif")
if [ -n "${IMAGES:-}" ]; then
  chosen=()
  for case in "${cases[@]}"; do
    [[ " $IMAGES " == *" ${case%%|*} "* ]] && chosen+=("$case")
  done
  [ ${#chosen[@]} -gt 0 ] || { echo "IMAGES=$IMAGES names none of jpg24 jpg96 png24 tif24" >&2; exit 1; }
  cases=("${chosen[@]}")
fi

# seconds COMMAND...: runs it (output to standard error) and prints its wall time in seconds.
seconds() {
  local start=$EPOCHREALTIME
  "$@" >&2
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}

warm_key=${cases[0]%%|*}
image_json=()
for case in "${cases[@]}"; do
  IFS='|' read -r key label file tif <<< "$case"
  tiffsave=() dzsave=() prep_runs=$runs
  if [ "$file" = "$tif" ]; then
    prep_runs=0
    # The file iipsrv is made for, served as it is by both: made once (256 px JPEG tiles, Q 90), no pre-processing.
    [ -s "$img/$file" ] || vips tiffsave "$img/photo-6000x4000.jpg" "$img/$file" --tile --pyramid \
      --compression jpeg --tile-width 256 --tile-height 256 -Q 90 >&2
    ln -sf "$img/$file" "$tmp/tif/$tif"
  fi
  for ((i = 0; i < prep_runs; i++)); do
    echo "pre-processing $file ($((i + 1))/$runs): vips tiffsave, vips dzsave" >&2
    tiffsave+=("$(seconds vips tiffsave "$img/$file" "$tmp/tif/$tif" --tile --pyramid --compression jpeg \
      --tile-width 256 --tile-height 256 -Q 90)")
    dzsave+=("$(seconds vips dzsave "$img/$file" "$tmp/dz/$key" --tile-size 256 --overlap 0 \
      --suffix '.jpg[Q=90]')")
    rm -rf "$tmp/dz/$key.dzi" "$tmp/dz/${key}_files"
  done
  # `tileview index` of the file alone, into a cache of its own per run; the last run's is the one served.
  index=()
  if [ "$disk_cache" = 1 ]; then
    for ((i = 0; i < runs; i++)); do
      rm -rf "$tmp/cache-$key"
      echo "indexing $file ($((i + 1))/$runs): tileview index" >&2
      index+=("$(seconds "$tv" index "$img/$file" --cache-dir "$tmp/cache-$key")")
    done
    mkdir -p "$tmp/cache" && cp -a "$tmp/cache-$key/." "$tmp/cache/" && rm -rf "$tmp/cache-$key"
  fi
  level_list=null
  [ -z "$levels" ] || level_list="[$(echo $levels | tr ' ' ',')]"
  image_json+=("{\"key\": \"$key\", \"label\": \"$label\",
    \"ids\": {\"tileview\": \"$file\", \"iipsrv\": \"$tif\"}, \"levels\": $level_list,
    \"prep\": {\"tiffsave\": [$(IFS=,; echo "${tiffsave[*]}")], \"dzsave\": [$(IFS=,; echo "${dzsave[*]}")],
      \"index\": [$(IFS=,; echo "${index[*]}")]}}")
done

json_strings() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@"; }
cat > "$tmp/config.json" <<JSON
{
  "out": "$tmp", "runs": $runs, "prep_runs": $runs, "duration": $duration, "seed": "$seed",
  "connections": [$(echo $connections | tr ' ' ',')], "wrk_threads": $wrk_threads,
  "wrk_timeout": "$wrk_timeout",
  "warm_image": "$warm_key",
  "servers": {
    "tileview": {"command": $(json_strings "${tv_command[@]}"), "port": $tv_port,
      "ready": "/healthz", "info": "/iiif/3/{id}/info.json",
      "tile": "/iiif/3/{id}/{region}/{size}/0/default.jpg"},
    "tileview-cached": {"command": $( [ "$disk_cache" = 1 ] && json_strings "${tv_cached_command[@]}" || echo null),
      "port": $tv_port, "ready": "/healthz", "info": "/iiif/3/{id}/info.json",
      "tile": "/iiif/3/{id}/{region}/{size}/0/default.jpg"},
    "iipsrv": {"command": $(json_strings "$lighttpd" -D -f "$tmp/lighttpd.conf"), "port": $iip_port,
      "ready": "/fcgi-bin/iipsrv.fcgi", "info": "/fcgi-bin/iipsrv.fcgi?IIIF={id}/info.json",
      "tile": "/fcgi-bin/iipsrv.fcgi?IIIF={id}/{region}/{size}/0/default.jpg"}
  },
  "images": [$(IFS=,; echo "${image_json[*]}")]
}
JSON

iip_version=$(dpkg-query -W -f '${Version}' iipimage-server 2>/dev/null || echo "?")
echo "tileview $("$tv" --version 2>/dev/null || echo "?") (${tv_command[*]}) against iipsrv" \
  "$iip_version behind $("$lighttpd" -v 2>&1 | head -1 | cut -d' ' -f1) with $iipsrv_procs FastCGI" \
  "processes; wrk -t$wrk_threads, $runs run(s) of $duration s; $(nproc) cores;" \
  "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# In the background so that INT and TERM reach the traps at once.
python3 scripts/lib/bench_serve.py "$tmp/config.json" &
helper=$!
status=0
wait "$helper" || status=$?
helper=
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
