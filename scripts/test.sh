#!/usr/bin/env bash
# Sets up (system packages) and runs the whole test suite. The last line is Swift Testing's count.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
