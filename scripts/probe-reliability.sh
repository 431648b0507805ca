#!/usr/bin/env bash
# Probes of the release binary as a careful user and an adversary would run it: one PASS or FAIL line per probe,
# exit 1 when any fails. Each probe is a failure once seen (a hang, a crash, a partial file, an abort on
# allocation, disagreeing modes); together they take well under a minute.
#   TILEVIEW=path/to/tileview scripts/probe-reliability.sh   (default: builds .build/debug/tileview)
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
if [ -z "${TILEVIEW:-}" ]; then
  swift build --product tileview >&2 || exit 1
  TILEVIEW="$PWD/.build/debug/tileview"
fi
tv=$TILEVIEW
S="$PWD/SampleImages"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1${2:+: $2}"; failed=1; }

# 1. A FIFO as input: refused as "not a regular file" at once, never opened for reading (no hang).
mkfifo fifo
for args in "info fifo" "decode fifo -o f.png" "zoom fifo -o f.png" "zoom fifo --json" \
  "gallery fifo -o fg" "feed image:fifo --offsets 0:0:1 -o ff"; do
  out=$(timeout 10 "$tv" $args 2>&1); status=$?
  if [ $status -eq 1 ] && grep -q "not a regular file" <<<"$out"; then pass "fifo: tileview $args"
  else fail "fifo: tileview $args" "exit $status: $out"; fi
done

# 2. SIGINT mid-run: exit 130, no temporary file left, and --resume ends byte-identical to an unbroken run.
pages=("$S"/*.jpg "$S"/*.png)
"$tv" gallery "${pages[@]}" --viewport 640x480 --moves next,next,next,next,prev,prev,next,next \
  --transition-frames 6 -o whole >/dev/null 2>&1
"$tv" gallery "${pages[@]}" --viewport 640x480 --moves next,next,next,next,prev,prev,next,next \
  --transition-frames 6 -o cut >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid; status=$?
temps=$(find cut -name '.*tmp*' | wc -l)
"$tv" gallery "${pages[@]}" --viewport 640x480 --moves next,next,next,next,prev,prev,next,next \
  --transition-frames 6 -o cut --resume >/dev/null 2>&1
if { [ $status -eq 130 ] || [ $status -eq 0 ]; } && [ "$temps" -eq 0 ] && diff -r -x '.tileview-journal*' whole cut >/dev/null; then
  pass "sigint: exit $status, no temporary file, resumed folder byte-identical"
else fail "sigint" "exit $status, $temps temporary files, diff: $(diff -rq -x '.tileview-journal*' whole cut | head -3)"; fi

# 3. An enormous viewport under an address-space limit: exit 1 with the memory limit, never an abort (134).
for args in "zoom $S/rocket.jpg -o m.png" "gallery $S/rocket.jpg -o mg" "feed image:$S/rocket.jpg --offsets 0:0:1 -o mf"; do
  out=$(bash -c "ulimit -v 1500000 && exec '$tv' $args --viewport 16384x16384" 2>&1); status=$?
  if [ $status -eq 1 ] && grep -q "over the memory limit" <<<"$out"; then pass "memory: tileview ${args%% *} at 16384x16384 under ulimit -v"
  else fail "memory: tileview ${args%% *}" "exit $status: $out"; fi
done

# 4. Lenient modes agree: a PNG damaged at the start of IDAT renders (transparent) in decode and zoom alike.
python3 - "$S/chelsea.png" bad-idat.png <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.index(b"IDAT")
for k in range(at + 6, at + 40):
    data[k] ^= 0x5A
open(sys.argv[2], "wb").write(data)
PY
"$tv" decode bad-idat.png -o l1.png --lenient >/dev/null 2>&1; d=$?
"$tv" zoom bad-idat.png -o l2.png --lenient >/dev/null 2>&1; z=$?
"$tv" decode bad-idat.png -o s1.png >/dev/null 2>&1; ds=$?
"$tv" zoom bad-idat.png -o s2.png >/dev/null 2>&1; zs=$?
if [ $d -eq 0 ] && [ $z -eq 0 ] && [ $ds -eq 1 ] && [ $zs -eq 1 ] && [ ! -e s1.png ] && [ ! -e s2.png ]; then
  pass "lenient: decode and zoom agree on a PNG damaged at IDAT (strict: both exit 1; lenient: both render)"
else fail "lenient agreement" "lenient decode $d zoom $z, strict decode $ds zoom $zs"; fi
# A hint to use --lenient only where lenient decoding helps.
head -c 300 "$S/rocket.jpg" > header-cut.jpg
out=$("$tv" zoom header-cut.jpg -o h.png 2>&1)
if grep -q -- "--lenient" <<<"$out" && ! "$tv" zoom header-cut.jpg -o h.png --lenient >/dev/null 2>&1; then
  fail "lenient hint" "suggested for a file lenient decoding cannot read: $out"
else pass "lenient hint: not suggested where it cannot help"; fi

# 5. A shorter rerun into the same folder says what an earlier run left; --clean removes it.
"$tv" gallery "${pages[@]}" --viewport 160x120 --moves next -o short >/dev/null 2>&1
"$tv" gallery "${pages[@]}" --viewport 160x120 --moves next,next,next -o long >/dev/null 2>&1
cp long/frame-*.png short/ 2>/dev/null
out=$("$tv" gallery "${pages[@]}" --viewport 160x120 --moves next -o short 2>&1)
if grep -q "holds 2 " <<<"$out" && "$tv" gallery "${pages[@]}" --viewport 160x120 --moves next -o short --clean >/dev/null 2>&1 \
  && [ "$(ls short/frame-*.png | wc -l)" -eq 2 ]; then pass "stale frames: warned with the count, --clean removes them"
else fail "stale frames" "$out"; fi

# 6. A map of 20,000 cells in its first row over 20,000 one-cell rows: memory follows the cells.
python3 - <<'PY'
with open("map.txt", "w") as f:
    f.write(" ".join(f"p{i}" for i in range(20000)) + "\n")
    for i in range(20000):
        f.write(f"q{i}\n")
PY
/usr/bin/time -o rss.txt -f "%M" "$tv" gallery --map map.txt --viewport 64x48 -o mapout >/dev/null 2>&1
rss=$(tail -1 rss.txt)  # the pages do not exist: the run fails after parsing, which is what is measured
if [ -n "$rss" ] && [ "$rss" -lt 400000 ]; then pass "map: 40,000 pages in a ragged map parsed in ${rss} KiB peak RSS"
else fail "map memory" "peak RSS ${rss:-?} KiB"; fi

# 7. bench memory: the summary's peak is never below a step's RSS.
"$tv" bench memory --dir "$S" --viewport 320x240 --steps 12 --json > bench.json 2>/dev/null
if python3 - <<'PY'
import json
r = json.load(open("bench.json"))
steps = [s.get("rssBytes") or 0 for s in r.get("steps", [])]
peak = r.get("summary", r).get("peakRSSBytes") or 0
raise SystemExit(0 if steps and peak >= max(steps) else 1)
PY
then pass "bench memory: the summary peak is at least every step's RSS"
else fail "bench memory peak" "$(head -c 300 bench.json)"; fi

exit $failed
