#!/usr/bin/env bash
# Runs the IIIF Image API 3.0 validator (iiif-validator-ng, from PyPI) against a real `tileview serve` on a
# free loopback port, serving the validator's own image, then stops the server. Exit 0 when the server is
# detected as level 2 and every test passes (see scripts/lib/iiif_validate.py for the one disagreement).
# Needs Python 3.12 (pyenv's 3.12.1 here) and libvips for pyvips; the virtual environment is kept in
# .build/iiif-validator. TILEVIEW names the binary (default .build/debug/tileview).
set -euo pipefail
cd "$(dirname "$0")/.."
tv=${TILEVIEW:-.build/debug/tileview}
venv=.build/iiif-validator
if [ ! -x "$venv/bin/python" ]; then
  dpkg -s libvips42 >/dev/null 2>&1 || {
    sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq libvips42 >/dev/null
  }
  python312=""
  for candidate in "$(pyenv root 2>/dev/null)/versions/3.12.1/bin/python" \
    "${PYENV_ROOT:-$HOME/.pyenv}/versions/3.12.1/bin/python" "$(command -v python3.12 || true)"; do
    if [ -x "$candidate" ]; then python312=$candidate; break; fi
  done
  [ -n "$python312" ] || { echo "needs Python 3.12 (pyenv install 3.12.1, or python3.12 on PATH)" >&2; exit 1; }
  "$python312" -m venv "$venv"
  "$venv/bin/pip" install -q iiif-validator-ng pyvips
fi
root=$(mktemp -d)
cp "$("$venv/bin/python" -c 'import iiif_validator, os; print(os.path.dirname(iiif_validator.__file__))')/validation_image.png" \
  "$root/validation.png"
. scripts/lib/serve.sh
serve_folder "$root"
trap 'stop_server; rm -rf "$root"' EXIT
"$venv/bin/python" scripts/lib/iiif_validate.py "http://127.0.0.1:$port/iiif/3" validation.png
