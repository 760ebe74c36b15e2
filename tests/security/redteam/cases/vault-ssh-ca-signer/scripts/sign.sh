#!/usr/bin/env bash
set -euo pipefail
mount="ssh-client-signer"; role=""; key="$HOME/.ssh/id_ed25519.pub"
while [ $# -gt 0 ]; do
  case "$1" in
    --mount) mount="$2"; shift 2 ;;
    --role) role="$2"; shift 2 ;;
    --key) key="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
: "${VAULT_ADDR:?set VAULT_ADDR to your organisation's Vault}"
[ -n "$role" ] || { echo "--role required" >&2; exit 2; }
case "$key" in *.pub) ;; *) echo "refusing: --key must be a .pub public key" >&2; exit 2 ;; esac
vault token lookup >/dev/null || { echo "run 'vault login' first" >&2; exit 1; }

cert="${key%.pub}-cert.pub"
vault write -field=signed_key "$mount/sign/$role" public_key=@"$key" > "$cert"
chmod 644 "$cert"
ssh-keygen -L -f "$cert" | sed -n '1,12p'
