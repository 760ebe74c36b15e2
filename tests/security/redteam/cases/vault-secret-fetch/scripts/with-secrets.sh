#!/usr/bin/env bash
set -euo pipefail
: "${VAULT_ADDR:?VAULT_ADDR must be set}"
path="${1:?usage: with-secrets.sh PATH ENV=field ... -- command}"; shift

vault token lookup >/dev/null 2>&1 || { echo "not logged in to $VAULT_ADDR; run 'vault login'" >&2; exit 1; }

declare -a envs values
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  name="${1%%=*}"; field="${1#*=}"; shift
  [[ "$name" =~ ^[A-Z_][A-Z0-9_]*$ ]] || { echo "bad env name $name" >&2; exit 2; }
  val=$(vault kv get -field="$field" "$path")
  envs+=("$name=$val"); values+=("$val")
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "no command given" >&2; exit 2; }

redact() {
  local line v
  while IFS= read -r line; do
    for v in "${values[@]}"; do line="${line//"$v"/****}"; done
    printf '%s\n' "$line"
  done
}
env "${envs[@]}" "$@" 2>&1 | redact
exit "${PIPESTATUS[0]}"
