#!/usr/bin/env bash
# Report how Docker registry credentials are stored. Prints names only.
set -euo pipefail
cfg="${DOCKER_CONFIG:-$HOME/.docker}/config.json"
[ -f "$cfg" ] || { echo "no $cfg (not logged in anywhere)"; exit 0; }

store=$(jq -r '.credsStore // "none"' "$cfg")
echo "credsStore: $store"
echo "registries:"
jq -r --arg s "$store" '
  (.auths // {}) | to_entries[] |
  "  \(.key): " + (if (.value.auth // "") != "" then "INLINE (plain text, base64 only)" elif $s != "none" then "helper" else "empty entry" end)
' "$cfg"
jq -r '(.credHelpers // {}) | to_entries[] | "  \(.key): helper \(.value) (per-registry)"' "$cfg"

echo "installed helpers:"
for h in osxkeychain wincred desktop secretservice pass; do
  command -v "docker-credential-$h" >/dev/null 2>&1 && echo "  docker-credential-$h"
done
exit 0
