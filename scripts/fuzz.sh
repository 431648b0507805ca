#!/usr/bin/env bash
# Fuzzes the decoders (PNG, JPEG, WebP, HEIF/AVIF, TIFF, GIF) with libFuzzer for SECONDS (default 60):
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
# Builds Fuzz/FuzzDecode with coverage instrumentation and AddressSanitizer (TILEVIEW_FUZZ=1,
# scratch path .build-fuzz), seeds the working corpus fuzz-corpus/ from the conformance corpus
# Tests/Corpus (png/, jpeg/, bad/ and color/; override with CORPUS=DIR), runs one libFuzzer process with
# -rss_limit_mb=2048 and -max_len=$FUZZ_MAX_LEN (default 65536: the corpus' 350 KB photos would
# otherwise set the limit and slow every run; larger seeds are truncated), then prints runs, exec/s, coverage and any crash, leak, timeout or
# out-of-memory file written to fuzz-artifacts/. Exits non-zero when libFuzzer found one.
# Replay a file or folder through the same checks without libFuzzer:
#   swift build --product FuzzDecode && .build/debug/FuzzDecode fuzz-artifacts/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
corpus_source=${CORPUS:-Tests/Corpus}
work=fuzz-corpus
artifacts=fuzz-artifacts
mkdir -p "$work" "$artifacts"

echo "building the fuzz harness (.build-fuzz, libFuzzer + AddressSanitizer)" >&2
TILEVIEW_FUZZ=1 swift build -c debug --product FuzzDecode --scratch-path .build-fuzz --sanitize=address \
  2>&1 | grep -vE "warning: Cannot export local symbol '__(asan|sancov)" >&2
binary=.build-fuzz/debug/FuzzDecode

seeded=0
# color/: the tagged corpus (ICC profiles in APP2 markers and iCCP, cHRM and gAMA, EXIF R03), so that the profile
# path (lcms2 reading untrusted bytes, docs/design.md section 14) is fuzzed from real profiles.
# formats/: WebP, HEIF, AVIF, TIFF and GIF files, damaged ones included (docs/design.md section 15); grids/: HEIF
# and AVIF grids of tiles, whose meta box the shim reads itself (not their reference PNGs).
for folder in png jpeg bad color formats/webp formats/heif formats/avif formats/tiff formats/gif formats/bad grids; do
  [ -d "$corpus_source/$folder" ] || { echo "no $corpus_source/$folder: set CORPUS=DIR" >&2; exit 1; }
  for f in "$corpus_source/$folder"/*; do
    [ -f "$f" ] || continue
    case $f in *.md | */grids/*.png) continue ;; esac
    dest="$work/seed-${folder//\//-}-$(basename "$f")"
    [ -e "$dest" ] || { cp "$f" "$dest"; seeded=$((seeded + 1)); }
  done
done
echo "corpus $work: $(find "$work" -type f | wc -l) files ($seeded new seeds from $corpus_source)" >&2

stamp=$(date +%Y%m%d-%H%M%S)
log="$artifacts/fuzz-$stamp.log"
marker="$artifacts/.started-$stamp"
touch "$marker"
echo "fuzzing for ${seconds}s, log $log" >&2
set +e
# SWIFT_BACKTRACE=enable=no: the Swift runtime's backtracer misbehaves under ASan and would
# keep the output pipe open after a crash.
# Fuzz/lsan.supp: leaks inside Debian's own libraries (libdav1d, libheif), which tileview cannot mend; malloc stacks
# are unwound fully (slower) so that the libraries' frames, which lack frame pointers, are there to match.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0} \
  LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp} "$binary" "$work" \
  -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" -timeout=25 -dict=Fuzz/decoders.dict \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" >"$log" 2>&1
status=$?
set -e

# The last status line ("#N DONE cov: E ft: F corp: ... exec/s: X rss: R") and the final stats.
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
stat() { grep -E "^stat::$1:" "$log" | awk '{print $2}' | tail -1; }
echo "libFuzzer exit status: $status"
echo "last status: ${last:-none}"
echo "runs: $(stat number_of_executed_units)  exec/s: $(stat average_exec_per_sec)  new units: $(stat new_units_added)  peak RSS: $(stat peak_rss_mb) MB  slowest unit: $(stat slowest_unit_time_sec) s"
echo "coverage: edges $(echo "$last" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')  features $(echo "$last" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')  corpus $(find "$work" -type f | wc -l) files"
found=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) -newer "$marker" | sort)
rm -f "$marker"
if [ -n "$found" ]; then
  echo "found:"
  echo "$found" | sed 's/^/  /'
  grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|law broken|Fatal error' "$log" | head -5 | sed 's/^/  /'
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "libFuzzer failed without an artefact; see $log" >&2
  tail -20 "$log" >&2
  exit "$status"
fi
echo "no crash, leak or timeout"
