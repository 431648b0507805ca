#!/usr/bin/env bash
# Installs the system packages tileview builds against (pkg-config, libpng, libjpeg-turbo, Little CMS 2) and those its
# server tests use (curl, wrk, python3, openssl for the TLS test's certificate) when they are missing. Sourced by the other scripts; safe to run on
# its own. `time` (GNU time) measures peak memory in scripts/probe-reliability.sh; `strace` shows the tests
# the order of a frame's writes.
set -euo pipefail
need=()
for pkg in pkg-config libpng-dev libjpeg-dev liblcms2-dev curl wrk python3 time strace openssl; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}"
fi
command -v swift >/dev/null || { echo "swift is not on PATH: install Swift 6.1 or later from swift.org" >&2; exit 1; }
