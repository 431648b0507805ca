#!/usr/bin/env bash
# Sets up (scripts/ensure-deps.sh all, once), checks the formatting (scripts/lint.sh: a finding fails the run) and
# that the man pages are what the commands' help makes (scripts/make-man.sh --check), and runs every test in two
# tiers:
#   fast      the library, the commands and the server, in process and on loopback: one `swift test` run per
#             test target, one after another, so each target's time is its own;
#   external  the suites tagged `.external` (Tests/TileViewTestSupport/Tags.swift), which drive outside programs
#             (Chromium, wrk, the IIIF validator, schemathesis, Slurm and Kubernetes, the example package's build,
#             the probes): one run, the suites side by side; each suite's time is its wall time from start to end;
#             then each suite also tagged `.alone` (a load test) in a run of its own, with the machine to itself.
# Every run's whole output goes to .build/test-logs/; the terminal gets the times, each failure with its details and
# each run's closing line from Swift Testing. The last line counts every run.
# With arguments (`scripts/test.sh --filter Zoom`), one plain `swift test` run with them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh all
logs=.build/test-logs
mkdir -p "$logs"
# What the run and the tools it starts write to TMPDIR (the tests' folders, Chromium's, SwiftPM's locks, the
# compiler's scratch) goes to a folder of this run, removed when it ends, and the servers the tests start keep
# their disk cache (docs/design.md section 16) there too, not in the user's ~/.cache: a run leaves nothing behind
# and does not meet another run's files.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/tileview-test.XXXXXX")
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR=$run_tmp XDG_CACHE_HOME=$run_tmp/cache
mkdir "$XDG_CACHE_HOME"
# The build's own lines go to its log; its warnings and errors to the terminal.
if ! swift build --build-tests >"$logs/build.log" 2>&1; then
  grep -a -E "error|warning" "$logs/build.log" | sort -u
  tail -20 "$logs/build.log"
  exit 1
fi
grep -a -E "(error|warning):" "$logs/build.log" | sort -u || true
# Warnings from this package's own sources fail the run, as errors would (a fresh clone compiles every file; an
# incremental build shows only the files it recompiled). Dependencies' warnings are shown above, not counted.
if grep -a -q -E "^$PWD/(Sources|Tests|Examples|Fuzz)/[^:]+:[0-9]+:[0-9]+: warning:" "$logs/build.log"; then
  echo "test.sh: the build warns about this package's own code (above); fix it first" >&2
  exit 1
fi
if [ $# -gt 0 ]; then
  rc=0
  swift test --skip-build --disable-xctest "$@" || rc=$?
  exit $rc
fi

# The external suites and tests, as Swift Testing's --filter and --skip read them: the type or function after
# each `.tags(.external...)`, and of those the ones also tagged `.alone`, one a line. (Swift 6.3's `swift test`
# has no tag filter.)
tagged() {
  python3 - "$1" <<'PY'
import pathlib, re, sys
names = []
for path in sorted(pathlib.Path("Tests").rglob("*.swift")):
    text = path.read_text()
    for match in re.finditer(r"\.tags\(([^)]*)\)", text):
        tags = [t.strip() for t in match.group(1).split(",")]
        if ".external" in tags and (sys.argv[1] == "external" or ".alone" in tags):
            declaration = re.search(r"\b(?:struct|func)\s+(\w+)", text[match.end():])
            names.append(r"[./]" + declaration.group(1) + r"\b")
print("\n".join(sorted(set(names))))
PY
}
external=$(tagged external | paste -sd '|')
alone=$(tagged alone)
[ -n "$external" ] || { echo "test.sh: found no suite tagged .external" >&2; exit 1; }

total_tests=0
total_suites=0
status=0
# Runs `swift test` with the given filters into the log $1; prints the failures, then a line with the time taken
# and the closing line (label $2). Suite times with $3 = suites.
run() {
  local log=$1 label=$2 detail=$3 start end rc=0 line
  shift 3
  start=$(date +%s.%N)
  swift test --skip-build --disable-xctest "$@" >"$log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  python3 - "$log" "$detail" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
if sys.argv[2] == "suites":
    suites = re.findall(r'Suite "(.+?)" (passed|failed) after ([0-9.]+) seconds', text)
    for suite, outcome, seconds in sorted(suites, key=lambda s: -float(s[2])):
        print(f"    {float(seconds):6.1f} s  {suite}{'' if outcome == 'passed' else '  FAILED'}")
lines = text.split("\n")
for i, line in enumerate(lines):
    if "recorded an issue" in line:
        print(line)
        for detail in lines[i + 1:i + 25]:
            if not detail.startswith(("↳", " ")):
                break
            print(detail)
PY
  line=$(grep -a -E "^. Test run with [0-9]+ tests? in [0-9]+ suites?" "$log" | tail -1 || true)
  if [ -z "$line" ]; then
    echo "  $label: no closing line from Swift Testing (exit $rc); the last lines of $log:"
    tail -40 "$log" | sed 's/^/  /'
    status=1
    return
  fi
  [ $rc -eq 0 ] || status=1
  printf '  %6.1f s  %-22s %s\n' "$(awk "BEGIN { print $end - $start }")" "$label" "$line"
  total_tests=$((total_tests + $(sed -E 's/.*with ([0-9]+) tests?.*/\1/' <<<"$line")))
  total_suites=$((total_suites + $(sed -E 's/.* in ([0-9]+) suites?.*/\1/' <<<"$line")))
}

start=$(date +%s)
echo "== formatting: scripts/lint.sh (swift-format lint --strict)"
if scripts/lint.sh >"$logs/lint.log" 2>&1; then echo "   clean"; else
  echo "   findings (fix with swift format --in-place):"; sed 's/^/   /' "$logs/lint.log" | head -40; status=1
fi
echo "== man pages: scripts/make-man.sh --check (docs/*.1 made from the commands' help)"
if scripts/make-man.sh --check >"$logs/man.log" 2>&1; then echo "   current"; else
  sed 's/^/   /' "$logs/man.log" | head -30; status=1
fi
echo "== fast tier: each test target on its own"
for target in $(cd Tests && ls -d *Tests | sort); do
  run "$logs/$target.log" "$target" none --filter "^$target\\." --skip "$external"
done
middle=$(date +%s)
echo "   fast tier: $((middle - start)) s"
echo "== external tier: the suites tagged .external, side by side, then those tagged .alone, each on its own"
if [ -n "$alone" ]; then
  run "$logs/external.log" external suites --filter "$external" --skip "$(paste -sd '|' <<<"$alone")"
  n=0
  while IFS= read -r suite; do
    n=$((n + 1))
    run "$logs/alone-$n.log" "external, alone" suites --filter "$suite"
  done <<<"$alone"
else
  run "$logs/external.log" external suites --filter "$external"
fi
end=$(date +%s)
echo "   external tier: $((end - middle)) s"
if [ $status -eq 0 ]; then
  echo "✔ Every run passed: $total_tests tests in $total_suites suites, in $((end - start)) s."
else
  echo "✘ Failures: $total_tests tests in $total_suites suites ran, in $((end - start)) s (see above and $logs)."
fi
exit $status
