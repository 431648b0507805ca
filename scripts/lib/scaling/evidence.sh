#!/usr/bin/env bash
# A scaling run with its evidence, on a machine of 16 cores with no network: tileview-serve pinned (taskset) to
# 1, 2, 4, 8 and 12 cores and iipsrv to 2 and 12, wrk on cores 12-15, answers/s of three loads:
#   random    random 512 px regions of the 24 MP photo at 256 px, every wrk thread the same seed (so most regions are
#             asked four times: one render, the rest from the coalescer or the response cache);
#   tiles     every 256 px tile of level 0 in turn (after the first pass, cached answers);
#   distinct  the same regions, each wrk thread its own seed (distinct.lua): every answer a decode or tile lookup,
#             a resample and an encode.
# Then the server's CPU use, `tileview_render_blocks_kept_bytes` and its lock waits per run, and at 2 and 12 cores
# `perf stat` (page faults, context switches) while the distinct load runs; 2 and 12 cores are measured twice.
# Input: BUNDLE, the bundle.tar.xz that make-bundle.sh (beside this script) packs (tileview-serve, iipsrv, lighttpd,
# wrk, their libraries, the loads, the photo and its pyramid TIFF); PERF_DIR (optional) a folder with `perf` and
# its libraries in perflib/.
# Output: $OUT/scaling.txt and $OUT/res.tgz (metrics, perf reports). About 4 minutes.
# SERVE_ENV adds environment to the server (for example GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304).
set -u
here=$(cd "$(dirname "$0")" && pwd); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; R="$OUT/scaling.txt"
B=/tmp/tvb; rm -rf $B; mkdir -p $B; tar -C $B -xJf "${BUNDLE:?the scaling bundle}" || { echo "untar failed"; exit 2; }
cp "$here/distinct.lua" $B/
L="$B/lib/ld-linux-x86-64.so.2 --library-path $B/lib"
PERF=; [ -n "${PERF_DIR:-}" ] && [ -x "$PERF_DIR/perf" ] && \
  PERF="$B/lib/ld-linux-x86-64.so.2 --library-path $PERF_DIR/perflib:$B/lib $PERF_DIR/perf"
{ nproc; lscpu | grep -E 'Model name|Core|Socket'; } | tee -a $R
up(){ for i in $(seq 1 150); do if exec 3<>/dev/tcp/127.0.0.1/$1 2>/dev/null; then printf "GET $2 HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3; r=$(head -c 12 <&3); exec 3>&-; case "$r" in *200*) return 0;; esac; fi; sleep 0.2; done; return 1; }
get(){ exec 3<>/dev/tcp/127.0.0.1/$1; printf "GET $2 HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3; cat <&3; exec 3>&-; }
ticks(){ awk '{print $14+$15}' /proc/$1/stat; }
printf '#!/bin/sh\nexec %s/lib/ld-linux-x86-64.so.2 --library-path %s/lib %s/iipsrv.fcgi\n' $B $B $B > $B/iip.sh; chmod +x $B/iip.sh
bench(){ t0=0; t1=0; [ -n "${P:-}" ] && t0=$(ticks $P)
  o=$(TILE_PREFIX=$4 taskset -c 12-15 $L $B/wrk -t4 -c64 -d6s -s $B/$3 http://127.0.0.1:$2 2>&1)
  [ -n "${P:-}" ] && t1=$(ticks $P)
  echo "$1 $(echo "$o" | awk '/Requests\/sec/ {print $2}') answers/s, non-2xx $(echo "$o" | awk '/Non-2xx/ {print $5}'), cpu $(( (t1 - t0) * 100 / 600 ))%, p50 $(echo "$o" | awk '/Latency/ {print $2}')" | tee -a $R; }
RES=/tmp/res; rm -rf $RES; mkdir -p $RES
for cfg in "1 0 a" "2 0-1 a" "4 0-3 a" "8 0-7 a" "12 0-11 a" "2 0-1 b" "12 0-11 b"; do set -- $cfg
  tag=""; [ $3 = b ] && tag=" again"
  rm -rf /tmp/tvcache; env ${SERVE_ENV:-} taskset -c $2 $L $B/tileview-serve $B/img --port 18080 --cache-dir /tmp/tvcache >/tmp/serve-$1$3.log 2>&1 & P=$!
  up 18080 /iiif/3/photo24.jpg/info.json 2>/dev/null || echo "tileview did not start"
  bench warm 18080 random.lua /iiif/3/photo24.jpg >/dev/null
  bench "tileview$tag cores=$1 random" 18080 random.lua /iiif/3/photo24.jpg
  [ $3 = a ] && bench "tileview cores=$1 tiles" 18080 tiles.lua /iiif/3/photo24.jpg
  bench "tileview$tag cores=$1 distinct" 18080 distinct.lua /iiif/3/photo24.jpg
  get 18080 /metrics > $RES/metrics-$1$3.txt 2>/dev/null
  grep -E '^tileview_render_blocks_kept_bytes|^tileview_lock_waits_total' $RES/metrics-$1$3.txt | sed "s/^/cores=$1 /" | tee -a $R
  if [ -n "$PERF" ] && [ $3 = a ] && { [ $1 = 2 ] || [ $1 = 12 ]; }; then
    ( TILE_PREFIX=/iiif/3/photo24.jpg taskset -c 12-15 $L $B/wrk -t4 -c64 -d9s -s $B/distinct.lua http://127.0.0.1:18080 >/dev/null 2>&1 ) & W=$!
    sleep 1.5
    taskset -c 12-15 $PERF stat -e task-clock,context-switches,cpu-migrations,page-faults -p $P -- sleep 2 2>&1 | grep -E 'task-clock|context|migrations|faults' | sed "s/^/cores=$1 /" | tee -a $R
    if [ $1 = 12 ]; then
      taskset -c 12-15 $PERF record -F 499 -g -o $RES/perf-$1.data -p $P -- sleep 3 >/dev/null 2>&1 || echo "perf record failed" | tee -a $R
      taskset -c 12-15 $PERF report -i $RES/perf-$1.data --no-children --sort dso,symbol --stdio -g none --percent-limit 0.5 2>/dev/null | head -90 > $RES/perf-$1.txt
    fi
    wait $W
  fi
  kill $P; wait $P 2>/dev/null
done
for cfg in "2 0-1" "12 0-11"; do set -- $cfg
  cat > $B/l.conf <<C
server.document-root = "$B/img"
server.port = 18081
server.bind = "127.0.0.1"
server.modules = ("mod_fastcgi")
server.errorlog = "$B/err.log"
fastcgi.server = ( "/fcgi-bin/iipsrv.fcgi" => (( "socket" => "$B/iip.sock", "bin-path" => "$B/iip.sh", "min-procs" => $1, "max-procs" => $1, "check-local" => "disable",
  "bin-environment" => ( "FILESYSTEM_PREFIX" => "$B/img/", "VERBOSITY" => "0", "MAX_IMAGE_CACHE_SIZE" => "10", "JPEG_QUALITY" => "85" ) )) )
C
  P=; taskset -c $2 $L $B/lighttpd -D -f $B/l.conf >/dev/null 2>&1 & LP=$!
  up 18081 "/fcgi-bin/iipsrv.fcgi?IIIF=pyr.tif/info.json" 2>/dev/null || echo "iipsrv did not start"
  bench warm 18081 random.lua "/fcgi-bin/iipsrv.fcgi?IIIF=pyr.tif" >/dev/null
  bench "iipsrv cores=$1 random" 18081 random.lua "/fcgi-bin/iipsrv.fcgi?IIIF=pyr.tif"
  bench "iipsrv cores=$1 distinct" 18081 distinct.lua "/fcgi-bin/iipsrv.fcgi?IIIF=pyr.tif"
  kill $LP; sleep 1; pkill -f iipsrv.fcgi; sleep 1
done
tar -C $RES -czf $OUT/res.tgz .
