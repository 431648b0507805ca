#!/usr/bin/env bash
# Load and robustness check of a real `tileview serve` on a free loopback port. Exit 0 when every part
# selected passes:
#   wrk   wrk (-t2) for DURATION seconds (default 30) at CONNECTIONS connections (default 64), each request
#         drawn from a list of IIIF tiles of every level of the two largest images, Deep Zoom tiles of every
#         image, descriptors and whole-image sizes (various size forms, rotations, qualities, formats), about
#         40 % of the draws from a small warm set (scripts/lib/load_serve.py, scripts/lib/load_serve.lua).
#         The server's VmRSS is sampled every 0.1 s and its VmHWM read at the end. Passes with no socket error
#         (connect, read, write, or timeout: no answer in TIMEOUT seconds, default 30, as the requests queue
#         for the server's one worker per processor and a debug build on two cores answers 64 connections in
#         about 5 s), no answer other than 2xx, and a peak RSS of at most CACHE_MB + 64 MiB (CACHE_MB default
#         256, given as --cache-mb when the server has that option) plus what its budgets account for beyond the
#         caches: the renders' work at its peak and the blocks render threads keep (/metrics
#         tileview_work_peak_bytes, tileview_render_blocks_kept_bytes; each bounded by --work-mb). With the 24 MP
#         photo served, renders held up to 53 MiB at once, and release builds passed CACHE_MB + 64 MiB alone,
#         the build before the kept blocks too (128.5 to 137.5 MiB at CACHE_MB 64). Prints requests/s, latency
#         percentiles and the peak RSS.
#   fuzz  COUNT (default 10000) malformed or random requests from SEED (default 1): path traversal in every
#         spelling, every route prefix, wrong methods, raw malformed HTTP, slow and vanishing clients, bogus
#         IIIF parts, huge and negative numbers, empty and very long segments, mutated URLs
#         (scripts/lib/load_serve_fuzz.py; this server has --max-area 1048576 so that no valid answer is
#         large). Passes with no 5xx other than 501, no 2xx/3xx for an identifier that must be refused, no
#         complete request left unanswered, the server alive, and /healthz and a real tile answered after.
#         When the server dies, the requests in flight are replayed one by one against a fresh server to
#         name the one that kills it, and the run goes on (up to FUZZ_MAX_CRASHES crashes, default 3).
#   all   both (the default).
# The images: copies of SampleImages/* (one in a sub-folder) and, if present, the 24 MP baseline JPEG
# ${BENCH_IMAGES:-bench-images}/photo-6000x4000.jpg (scripts/make-bench-images.sh). Needs python3, and
# wrk for the load part (apt-get install wrk). TILEVIEW names the binary (default .build/debug/tileview).
#   scripts/load-serve.sh [wrk|fuzz|all]          DURATION=5 COUNT=1000 scripts/load-serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
case $mode in
  wrk | fuzz | all) ;;
  *) echo "usage: scripts/load-serve.sh [wrk|fuzz|all]" >&2; exit 2 ;;
esac
tv=${TILEVIEW:-.build/debug/tileview}
duration=${DURATION:-30}
connections=${CONNECTIONS:-64}
timeout=${TIMEOUT:-30}
count=${COUNT:-10000}
seed=${SEED:-1}
cache_mb=${CACHE_MB:-256}
max_crashes=${FUZZ_MAX_CRASHES:-3}
images=${BENCH_IMAGES:-bench-images}
[ -x "$tv" ] || { echo "no tileview binary at $tv (swift build, or set TILEVIEW)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 1; }
if [ "$mode" != fuzz ]; then
  command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 1; }
fi
py() { python3 scripts/lib/load_serve.py "$@"; }
fuzz() { python3 scripts/lib/load_serve_fuzz.py "$@"; }

work=$(mktemp -d)
server=""
log=""
# Stops the server, whatever its state (SIGTERM, then SIGKILL after 5 s).
stop_server() {
  [ -n "$server" ] || return 0
  kill "$server" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=""
}
trap 'stop_server; rm -rf "$work"' EXIT

# The served root: the sample images, one of them in a sub-folder under a name with a space, the 24 MP JPEG
# if there is one, and what must never be served (a dotfile, a FIFO, a text file, symbolic links that leave
# the root) next to a JPEG outside it; broken.jpg cannot be decoded (422).
root=$work/root
outside=$work/outside
mkdir -p "$root/albums" "$outside"
cp SampleImages/* "$root/"
cp SampleImages/hubble_deep_field.jpg "$root/albums/nested photo.jpg"
names=()
if [ -s "$images/photo-6000x4000.jpg" ]; then
  cp "$images/photo-6000x4000.jpg" "$root/"
  names+=(photo-6000x4000.jpg)
else
  echo "no $images/photo-6000x4000.jpg (scripts/make-bench-images.sh): the sample images only"
fi
names+=(retina.jpg "albums/nested photo.jpg" coffee.png astronaut.png chelsea.png rocket.jpg)
cp SampleImages/rocket.jpg "$outside/secret.jpg"
cp SampleImages/rocket.jpg "$root/.secret.jpg"
ln -s ../outside/secret.jpg "$root/escape.jpg"
ln -s ../../outside "$root/albums/escape-dir"
mkfifo "$root/fifo.jpg"
echo "not an image" >"$root/notes.txt"
head -c 3000 SampleImages/rocket.jpg >"$root/broken.jpg"
refused=(.secret.jpg escape.jpg albums/escape-dir/secret.jpg fifo.jpg notes.txt LICENSES.md)

server_args=()
# The help read whole first: `grep -q` would close the pipe early, and under pipefail the help's SIGPIPE made
# this test fail, so the server ran with its default cache while the limit assumed CACHE_MB.
serve_help=$("$tv" serve --help 2>&1 || true)
if grep -q -- --cache-mb <<<"$serve_help"; then server_args+=(--cache-mb "$cache_mb"); fi

# Starts the server with extra options; sets server, port, base and log.
start_server() {
  port=$(py port)
  base="http://127.0.0.1:$port"
  log=$(mktemp -p "$work" server.XXXX.log)
  "$tv" serve "$root" --host 127.0.0.1 --port "$port" ${server_args[@]+"${server_args[@]}"} "$@" 2>"$log" &
  server=$!
  py wait "$base" "$server" 20 || { print_log; exit 1; }
}

# The server's log: the last 20 access lines, any 5xx but 501, and every other line but those of a crash
# report's threads other than the crashed one, registers and loaded images.
print_log() {
  [ -n "$log" ] && [ -f "$log" ] || return 0
  echo "--- server log: the last access lines, every 5xx, everything else ---"
  grep -E '^[A-Z]+ [^ ]+ [0-9]{3} ' "$log" | tail -n 20 | cut -c 1-400 || true
  grep -E '^[A-Z]+ [^ ]+ 5[0-9]{2} ' "$log" | grep -v ' 501 ' | head -n 20 | cut -c 1-400 || true
  awk '/^[A-Z]+ [^ ]+ [0-9][0-9][0-9] / { next }
    /^Thread [0-9]+/ { skip = ($0 !~ /crashed/) }
    /^Registers:/ || /^Images / { skip = 1 }
    /^Backtrace took/ { skip = 0 }
    !skip' "$log" | head -n 150 | cut -c 1-400 || true
  echo "--- end of server log ---"
}

# Stops the server with SIGTERM: it should finish what is in flight and exit 0 within 10 s.
stop_cleanly() {
  local pid=$server rc=0
  kill -TERM "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "the server did not exit within 10 s of SIGTERM" >&2
    return 1
  fi
  wait "$pid" || rc=$?
  server=""
  [ "$rc" -eq 0 ] || { echo "the server exited $rc after SIGTERM" >&2; return 1; }
}

failed=0
summaries=()

run_wrk() {
  local t0=$SECONDS rc=0
  echo "== wrk: $duration s at $connections connections, CACHE_MB $cache_mb (${server_args[*]:-no --cache-mb})"
  start_server
  py urls "$base" "$work/urls.txt" "$seed" "${names[@]}" || rc=$?
  if [ "$rc" -eq 0 ]; then
    py wrk "$base" "$server" "$log" "$work/urls.txt" scripts/lib/load_serve.lua "$duration" "$connections" 2 \
      "$timeout" "$cache_mb" | tee "$work/wrk.out" || rc=$?
  fi
  if [ "$rc" -eq 0 ]; then py check "$base" "$server" rocket.jpg || rc=$?; fi
  if [ "$rc" -eq 0 ]; then stop_cleanly || rc=$?; fi
  local line
  line=$(grep -E '^wrk (ok|FAIL):' "$work/wrk.out" 2>/dev/null || echo "wrk FAIL: no figures")
  [ "$rc" -eq 0 ] || { print_log; case $line in "wrk ok"*) line="wrk FAIL (after the run): ${line#wrk ok: }" ;; esac; }
  stop_server
  summaries+=("$line ($((SECONDS - t0)) s in all)")
  [ "$rc" -eq 0 ] || failed=1
}

run_fuzz() {
  local t0=$SECONDS rc=0 start=0 crashes=0 state=$work/fuzz-state.json
  echo "== fuzz: $count requests, seed $seed"
  local args=(--count "$count" --seed "$seed" --state "$state" --candidates "$work/candidates.jsonl"
    --next "$work/next" --outside "$outside/secret.jpg" --root "$root" --broken broken.jpg)
  local n
  for n in "${names[@]}"; do
    case $n in photo-*) ;; *) args+=(--id "$n") ;; esac
  done
  for n in "${refused[@]}"; do args+=(--refused "$n"); done
  while :; do
    start_server --max-area 1048576
    rc=0
    fuzz run "$base" "$server" --start "$start" --log "$log" "${args[@]}" || rc=$?
    [ "$rc" -eq 3 ] || break
    crashes=$((crashes + 1))
    sleep 1
    print_log
    stop_server
    local i=0 total
    total=$(wc -l <"$work/candidates.jsonl")
    while [ "$i" -lt "$total" ]; do
      start_server --max-area 1048576
      fuzz replay "$base" "$server" --state "$state" --log "$log" --candidates "$work/candidates.jsonl" \
        --line "$i" || true
      stop_server
      i=$((i + 1))
    done
    start=$(cat "$work/next")
    [ "$crashes" -lt "$max_crashes" ] || { echo "fuzz: $crashes crashes, stopping here (FUZZ_MAX_CRASHES)"; break; }
  done
  local after=0
  if [ -n "$server" ]; then
    py check "$base" "$server" rocket.jpg || after=1
    [ "$after" -ne 0 ] || stop_cleanly || after=1
  else
    echo "after-check failed: the server is not running"
    after=1
  fi
  local summary_rc=0
  fuzz summary --state "$state" | tee "$work/fuzz.out" || summary_rc=$?
  [ "$summary_rc" -eq 0 ] && [ "$after" -eq 0 ] && [ "$rc" -eq 0 ] || { print_log; failed=1; }
  stop_server
  local line
  line=$(grep -E '^fuzz (ok|FAIL):' "$work/fuzz.out" || echo "fuzz FAIL: no figures")
  if [ "$rc" -eq 3 ]; then
    line="fuzz FAIL: ${line#fuzz *: }, stopped after $crashes crashes at case $start of $count"
  elif [ "$after" -ne 0 ] || [ "$rc" -ne 0 ]; then
    line="fuzz FAIL: ${line#fuzz *: }, after-check failed"
  fi
  summaries+=("$line ($((SECONDS - t0)) s in all)")
}

case $mode in
  wrk) run_wrk ;;
  fuzz) run_fuzz ;;
  all) run_wrk; run_fuzz ;;
esac
echo "== summary"
printf '%s\n' "${summaries[@]}"
exit "$failed"
