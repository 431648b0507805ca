#!/usr/bin/env bash
# Refreshes the viewer's screenshots in docs/screenshots (zoom page, gallery page, listing) from a headless
# chromium against a real server of the sample images: the browser test with --screenshots.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/screenshots
exec scripts/test-browser.sh --screenshots "$PWD/docs/screenshots"
