#!/usr/bin/env bash
# Fuzzes the view API with schemathesis (from PyPI, into .build/api-fuzz-venv) against a real `tileview serve`
# of the sample images on a free loopback port, from the server's own /api/openapi.json: examples, coverage,
# fuzzing and stateful phases (views made, driven and deleted through the document's links), every check
# (no 5xx, status codes, content types and bodies as documented, schema-valid requests accepted and invalid
# ones refused, 405 for undeclared methods). Exit 0 when every check passes. MAX_EXAMPLES (default 150) sets
# the examples per operation and phase (about 2,000 requests at the default). TILEVIEW names the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
tv=${TILEVIEW:-.build/debug/tileview}
venv=.build/api-fuzz-venv
scripts/ensure-deps.sh api-fuzz
root=$(mktemp -d)
for f in SampleImages/*.png SampleImages/*.jpg; do cp "$f" "$root/"; done
mkdir "$root/album" && cp SampleImages/rocket.jpg SampleImages/coffee.png "$root/album/"
. scripts/lib/serve.sh
# The document allows viewports of up to 4096 x 4096; a frame of that size plans about 490 MiB (docs/serving.md, "Admission
# before allocation"), which the default --work-mb 128 refuses with 400. Every schema-valid view is to be accepted
# here, so this server gets the budget the document's largest view needs.
serve_folder "$root" --work-mb 700
trap 'stop_server; rm -rf "$root"' EXIT
status=0
"$venv/bin/schemathesis" run "http://127.0.0.1:$port/api/openapi.json" --checks all \
  --max-examples "${MAX_EXAMPLES:-150}" --workers 2 --seed "${SEED:-20261124}" --no-color || status=$?
server_alive || { echo "the server died during the fuzzing" >&2; tail -20 "$server_log" >&2; status=1; }
curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" || { echo "the server stopped answering" >&2; status=1; }
exit "$status"
