#!/usr/bin/env bash
# Regenerates docs/tileview.1 and docs/tileview-serve.1 from the commands' own help with swift-argument-parser's
# manual plugin, then turns the blank lines it leaves inside paragraphs into `.Pp` (mdoc's paragraph break; a blank
# line makes `man` warn "Empty input line") and checks the pages with groff's warnings on.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-manual --configuration debug --authors "the tileview authors" >/dev/null
for name in tileview tileview-serve; do
  sed 's/^$/.Pp/' ".build/plugins/GenerateManual/outputs/$name/$name.1" >"docs/$name.1"
  warnings=$(groff -ww -man -z "docs/$name.1" 2>&1 || true)
  [ -z "$warnings" ] || { echo "docs/$name.1:" >&2; echo "$warnings" >&2; exit 1; }
done
echo "docs/tileview.1 and docs/tileview-serve.1 regenerated"
