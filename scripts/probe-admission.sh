#!/usr/bin/env bash
# Admission on a real `tileview serve` (docs/design.md section 18): the requests that used to abort it, 16 large renders
# at once with a tile probe and the peak RSS bound, 8 clients opening, stepping and listing a folder of 40,000 images
# under that bound, and the server under an address-space limit. See
# scripts/lib/probe_admission.py. TILEVIEW names the binary (default .build/debug/tileview).
#   scripts/probe-admission.sh [killers|large|folders|ulimit|all]   CLIENTS=16 TILE_LIMIT=3 FOLDER_SIZE=40000
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/lib/probe_admission.py "${1:-all}"
