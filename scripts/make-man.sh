#!/usr/bin/env bash
# Regenerates docs/tileview.1 and docs/tileview-serve.1 from the commands' own help with swift-argument-parser's
# manual plugin, then turns the blank lines it leaves inside paragraphs into `.Pp` (mdoc's paragraph break; a blank
# line makes `man` warn "Empty input line") and checks the pages with groff's warnings on.
#   scripts/make-man.sh            regenerate docs/*.1
#   scripts/make-man.sh --check    regenerate into a scratch folder and fail when docs/*.1 differ (the date aside)
set -euo pipefail
cd "$(dirname "$0")/.."
check=${1:-}
out=docs
[ "$check" = --check ] && out=$(mktemp -d)
swift package generate-manual --configuration debug --authors "the tileview authors" >/dev/null
for name in tileview tileview-serve; do
  sed 's/^$/.Pp/' ".build/plugins/GenerateManual/outputs/$name/$name.1" >"$out/$name.1"
  warnings=$(groff -ww -man -z "$out/$name.1" 2>&1 || true)
  [ -z "$warnings" ] || { echo "$out/$name.1:" >&2; echo "$warnings" >&2; exit 1; }
done
if [ "$check" = --check ]; then
  stale=0
  for name in tileview tileview-serve; do
    if ! diff <(grep -v '^\.Dd ' "docs/$name.1") <(grep -v '^\.Dd ' "$out/$name.1") >"$out/$name.diff"; then
      echo "docs/$name.1 is not what the commands' help makes now (run scripts/make-man.sh):" >&2
      head -20 "$out/$name.diff" >&2
      stale=1
    fi
  done
  rm -rf "$out"
  [ $stale -eq 0 ] && echo "docs/tileview.1 and docs/tileview-serve.1 match the commands' help"
  exit $stale
fi
echo "docs/tileview.1 and docs/tileview-serve.1 regenerated"
