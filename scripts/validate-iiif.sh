#!/usr/bin/env bash
# Runs the IIIF Image API 3.0 validator (iiif-validator-ng, from PyPI) against a real `tileview serve` on a
# free loopback port, serving the validator's own image, then stops the server. Exit 0 when the server is
# detected as level 2 and every test passes (see scripts/lib/iiif_validate.py for the two disagreements with
# the specification).
# Needs Python 3.12 (pyenv's 3.12.1 here) and libvips for pyvips; the virtual environment is kept in
# .build/iiif-validator. TILEVIEW names the binary (default .build/debug/tileview).
set -euo pipefail
cd "$(dirname "$0")/.."
tv=${TILEVIEW:-.build/debug/tileview}
venv=.build/iiif-validator
scripts/ensure-deps.sh iiif
root=$(mktemp -d)
cp "$("$venv/bin/python" -c 'import iiif_validator, os; print(os.path.dirname(iiif_validator.__file__))')/validation_image.png" \
  "$root/validation.png"
. scripts/lib/serve.sh
serve_folder "$root"
trap 'stop_server; rm -rf "$root"' EXIT
"$venv/bin/python" scripts/lib/iiif_validate.py "http://127.0.0.1:$port/iiif/3" validation.png
