#!/usr/bin/env bash
# Usage: vault-env.sh <kv-v2 path> -- <command...>
# Reads a KV v2 secret and exports its keys only into the child process env.
set -euo pipefail
path="$1"; shift
[ "${1:-}" = "--" ] && shift
: "${VAULT_ADDR:?set VAULT_ADDR to your Vault server}"
json="$(vault kv get -format=json "$path")"
names=()
while IFS=$'\t' read -r k v; do
  export "$k=$v"
  names+=("$k")
done < <(jq -r '.data.data | to_entries[] | [.key, .value] | @tsv' <<<"$json")
echo "vault-env: set ${names[*]}" >&2
exec "$@"
