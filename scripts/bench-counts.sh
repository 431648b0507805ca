#!/usr/bin/env bash
# Instruction counts of tileview's benchmark jobs, compared with Benchmarks/instruction-counts.json.
#   fit-24MP-jpeg        zoom photo-6000x4000.jpg --viewport 1024x768 -o fit.png
#   fit-24MP-adobergb    the same on photo-6000x4000-adobergb.jpg (Adobe RGB, profile embedded: converted to sRGB)
#   crop-96MP-jpeg       zoom photo-12000x8000.jpg --viewport 1024x768 --gesture 'zoom-to 5488,3616,1024,768'
#   gallery-10x12MP      gallery over gallery/page-01 ... page-10 at 1024x768 with 9 `next` moves
# Each job runs once under Valgrind (cachegrind, no cache simulation: the cheapest tool that prints the
# total, about 1.5 times faster than callgrind) and its total instruction count (all threads, libjpeg,
# libpng and zlib included) is compared with the baseline. Prints job / baseline / now / change and exits 1
# when a job grew by more than THRESHOLD percent (default 3).
#   scripts/bench-counts.sh            compare
#   scripts/bench-counts.sh --update   compare, then write the counts as the new baseline
# Counts are made repeatable by running every job the same way: an empty environment but for a fixed few
# variables (SWIFT_DETERMINISTIC_HASHING=1 fixes Swift's per-process hash seed), address space randomisation
# off (setarch -R), and the binary, images and outputs under fixed relative names in one scratch folder.
# Counts depend on the libraries installed (libjpeg-turbo, libpng, zlib, the Swift runtime) and on the
# toolchain: update the baseline when those change.
# Env: BENCH_IMAGES (default bench-images), THRESHOLD (percent, default 3), BASELINE (default
# Benchmarks/instruction-counts.json), NO_BUILD=1 (use the existing release binary as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
update=0
for arg in "$@"; do
  case $arg in
    --update) update=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done
images=${BENCH_IMAGES:-bench-images}
threshold=${THRESHOLD:-3}
baseline=${BASELINE:-Benchmarks/instruction-counts.json}

command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cc=$(command -v cc || command -v clang || true)
[ -n "$cc" ] || { echo "needs a C compiler (cc or clang) for the Valgrind sigsuspend shim" >&2; exit 1; }
command -v objcopy >/dev/null || { echo "needs objcopy (apt-get install binutils)" >&2; exit 1; }
[ -s "$images/photo-12000x8000.jpg" ] && [ -s "$images/gallery/page-10.jpg" ] &&
  [ -s "$images/photo-6000x4000-adobergb.jpg" ] || scripts/make-bench-images.sh "$images"
images=$(cd "$images" && pwd)
if [ "${NO_BUILD:-0}" != 1 ] || [ ! -x .build/release/tileview ]; then
  scripts/lib/build-release.sh >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tileview-counts.XXXXXXXX")
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes: count a copy without debug sections.
objcopy --strip-debug .build/release/tileview "$work/tileview"
# Valgrind before 3.20 writes into the mask given to sigsuspend; libdispatch's is read-only (see the shim).
"$cc" -shared -fPIC -O2 -o "$work/sigsuspend_copy.so" scripts/lib/sigsuspend_copy.c
mkdir -p "$work/img/gallery10"
ln -s "$images/photo-6000x4000.jpg" "$work/img/fit.jpg"
ln -s "$images/photo-6000x4000-adobergb.jpg" "$work/img/fit-adobergb.jpg"
ln -s "$images/photo-12000x8000.jpg" "$work/img/crop.jpg"
for n in 01 02 03 04 05 06 07 08 09 10; do ln -s "$images/gallery/page-$n.jpg" "$work/img/gallery10/page-$n.jpg"; done
printf 'next\n%.0s' $(seq 1 9) > "$work/next-9.txt"

jobs=(fit-24MP-jpeg fit-24MP-adobergb crop-96MP-jpeg gallery-10x12MP)
# arguments JOB: the job's tileview arguments, one per line.
arguments() {
  case $1 in
    fit-24MP-jpeg) printf '%s\n' zoom img/fit.jpg --viewport 1024x768 -o out/fit.png ;;
    fit-24MP-adobergb) printf '%s\n' zoom img/fit-adobergb.jpg --viewport 1024x768 -o out/fit-adobergb.png ;;
    # The 1:1 crop: a 1024x768 rect at the middle of the 12000x8000 image.
    crop-96MP-jpeg) printf '%s\n' zoom img/crop.jpg --viewport 1024x768 --gesture 'zoom-to 5488,3616,1024,768' \
      -o out/crop.png ;;
    gallery-10x12MP) printf '%s\n' gallery --dir img/gallery10 --viewport 1024x768 --script next-9.txt \
      -o out/gallery ;;
  esac
}
norandom=()
setarch "$(uname -m)" -R true 2>/dev/null && norandom=(setarch "$(uname -m)" -R)

# count JOB: the job's total instruction count.
count() {
  local args
  mapfile -t args < <(arguments "$1")
  rm -rf "$work/out"
  mkdir -p "$work/out"
  (
    cd "$work"
    env -i PATH=/usr/bin:/bin HOME=/nonexistent LANG=C.UTF-8 TZ=UTC SWIFT_DETERMINISTIC_HASHING=1 \
      LD_PRELOAD=./sigsuspend_copy.so "${norandom[@]}" \
      valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file=valgrind.log \
      ./tileview "${args[@]}" >stdout.log 2>&1 || { cat stdout.log valgrind.log >&2; exit 1; }
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' valgrind.log | tr -d ,
  )
}

declare -A now
for job in "${jobs[@]}"; do
  echo "counting $job" >&2
  now[$job]=$(count "$job")
  [ -n "${now[$job]}" ] || { echo "no count for $job" >&2; exit 1; }
done

results="$work/now.json"
for job in "${jobs[@]}"; do printf '%s %s\n' "$job" "${now[$job]}"; done |
  python3 -c 'import json, sys; print(json.dumps({j: int(n) for j, n in (l.split() for l in sys.stdin)}, indent=2))' \
    >"$results"

status=0
python3 - "$baseline" "$results" "$threshold" <<'PY' || status=$?
import json, os, sys
baseline_path, results_path, threshold = sys.argv[1], sys.argv[2], float(sys.argv[3])
now = json.load(open(results_path))
base = json.load(open(baseline_path)) if os.path.exists(baseline_path) else {}
print(f"{'job':<18} {'baseline':>15} {'now':>15} {'change':>9}")
grew = []
for job, count in now.items():
    if job in base:
        change = 100.0 * (count - base[job]) / base[job]
        mark = "  REGRESSION" if change > threshold else ""
        print(f"{job:<18} {base[job]:>15,} {count:>15,} {change:>+8.2f}%{mark}")
        if change > threshold:
            grew.append(job)
    else:
        print(f"{job:<18} {'-':>15} {count:>15,} {'new':>9}")
if grew:
    print(f"more than {threshold:g}% over the baseline: {', '.join(grew)}")
sys.exit(1 if grew else 0)
PY
if [ "$update" = 1 ]; then
  cp "$results" "$baseline"
  echo "baseline written: $baseline" >&2
  exit 0
fi
exit "$status"
