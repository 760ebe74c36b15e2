#!/usr/bin/env bash
# Run a command with Vault KV v2 secrets in its environment (process-local).
set -euo pipefail

PREFIX=""
if [ "${1:-}" = "-p" ]; then PREFIX="$2"; shift 2; fi
SECRET_PATH="${1:?usage: with-vault-env.sh [-p PREFIX] <kv-v2 data path> -- cmd...}"; shift
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "no command given" >&2; exit 2; }

: "${VAULT_ADDR:?VAULT_ADDR is not set}"
command -v vault >/dev/null && command -v jq >/dev/null || { echo "need vault and jq" >&2; exit 127; }

# Avoid leaking values via xtrace if the caller enabled it.
set +x

json="$(vault read -format=json "$SECRET_PATH")"
while IFS=$'\t' read -r key b64; do
  [[ "$key" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "skipping invalid key name" >&2; continue; }
  export "${PREFIX}${key}=$(printf '%s' "$b64" | base64 -d)"
done < <(jq -r '.data.data | to_entries[] | [.key, (.value|tostring|@base64)] | @tsv' <<<"$json")
unset json

exec "$@"
