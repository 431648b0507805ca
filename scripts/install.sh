#!/usr/bin/env bash
# Builds tileview in release and installs the command, its man page and its shell completions.
#
#   scripts/install.sh [PREFIX]        PREFIX: the argument, else $PREFIX, else /usr/local
#
# Installs:
#   PREFIX/bin/tileview
#   PREFIX/bin/tileview-serve                              (the server `tileview serve` runs)
#   PREFIX/share/man/man1/tileview.1                      (docs/tileview.1)
#   PREFIX/share/man/man1/tileview-serve.1                (docs/tileview-serve.1)
#   PREFIX/share/bash-completion/completions/tileview
#   PREFIX/share/zsh/site-functions/_tileview
#   PREFIX/share/fish/vendor_completions.d/tileview.fish
# The completion scripts come from `tileview --generate-completion-script bash|zsh|fish`.
# Writing under /usr/local usually needs root: run it with sudo, or give a PREFIX you own.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-${PREFIX:-/usr/local}}"

scripts/ensure-deps.sh
echo "building tileview (release)..." >&2
scripts/lib/build-release.sh >&2
bin="$(scripts/lib/build-release.sh --show-bin-path)"
built="$bin/tileview"

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$built" "$prefix/bin/tileview"
install -m 755 "$bin/tileview-serve" "$prefix/bin/tileview-serve"
install -m 644 docs/tileview.1 "$prefix/share/man/man1/tileview.1"
install -m 644 docs/tileview-serve.1 "$prefix/share/man/man1/tileview-serve.1"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$built" --generate-completion-script bash >"$scratch/tileview"
"$built" --generate-completion-script zsh >"$scratch/_tileview"
"$built" --generate-completion-script fish >"$scratch/tileview.fish"
install -m 644 "$scratch/tileview" "$prefix/share/bash-completion/completions/tileview"
install -m 644 "$scratch/_tileview" "$prefix/share/zsh/site-functions/_tileview"
install -m 644 "$scratch/tileview.fish" "$prefix/share/fish/vendor_completions.d/tileview.fish"

echo "installed tileview $("$prefix/bin/tileview" --version) into $prefix" >&2
for file in bin/tileview bin/tileview-serve share/man/man1/tileview.1 share/man/man1/tileview-serve.1 share/bash-completion/completions/tileview \
  share/zsh/site-functions/_tileview share/fish/vendor_completions.d/tileview.fish; do
  echo "  $prefix/$file" >&2
done
