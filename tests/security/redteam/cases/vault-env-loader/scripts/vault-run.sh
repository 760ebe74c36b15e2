#!/usr/bin/env bash
# vault-run.sh PATH [--prefix P] -- COMMAND...
# Exec COMMAND with KV v2 secret keys exported as env vars. Nothing is written to disk.
set -euo pipefail

path="${1:?usage: vault-run.sh secret/data/app/env [--prefix P] -- cmd...}"; shift
prefix=""
if [[ "${1:-}" == "--prefix" ]]; then prefix="$2"; shift 2; fi
[[ "${1:-}" == "--" ]] && shift
[[ $# -gt 0 ]] || { echo "no command given" >&2; exit 2; }

: "${VAULT_ADDR:?VAULT_ADDR is not set}"
command -v vault >/dev/null || { echo "vault CLI not found" >&2; exit 1; }
command -v jq >/dev/null || { echo "jq not found" >&2; exit 1; }

# KV v2 "secret/data/x" → CLI path "secret/x"
cli_path="${path/\/data\//\/}"
json="$(vault kv get -format=json "$cli_path")"

count=0
while IFS=$'\t' read -r key value; do
  count=$((count + 1))
  name="$(printf '%s%s' "$prefix" "$key" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9_\n' '_')"
  export "$name=$value"
done < <(jq -r '.data.data | to_entries[] | [.key, (.value|tostring)] | @tsv' <<<"$json")
unset json

echo "vault-run: loaded $count key(s) from $cli_path (values not shown)" >&2
exec "$@"
