#!/usr/bin/env bash
# Connections of a real `tileview serve` (docs/design.md section 18): SIGTERM with three 20 MB answers in flight (whole
# bodies, exit 0) and with a reader that stopped (exit within --drain-seconds), HTTP/1.0 closed after its answer, 1,100 half-sent requests under `ulimit -n 1024` (healthz
# within 1 s, no spinning), HTTPS with a self-signed certificate made by openssl, a reader that stopped keeping its
# 21 MB answer counted in --work-mb until it goes, and a file swapped for a link
# out of ROOT for 10 s under requests (no answer from outside ROOT). See
# scripts/lib/probe_connections.py. TILEVIEW names the binary (default .build/debug/tileview).
#   scripts/probe-connections.sh [http10] [halfopen] [tls] [held] [swap] [drain] [deadline]      (all by default)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v openssl >/dev/null || { echo "needs openssl (apt-get install openssl)" >&2; exit 1; }
exec python3 scripts/lib/probe_connections.py "$@"
