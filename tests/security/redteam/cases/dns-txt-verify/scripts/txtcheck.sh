#!/usr/bin/env bash
set -uo pipefail
name="${1:?usage: txtcheck.sh <name> [expected-substring]}"
want="${2:-}"
command -v dig >/dev/null || { echo "dig not found (install bind9-dnsutils / bind-utils)"; exit 1; }

zone="$name"
ns=""
while [ -n "$zone" ] && [ -z "$ns" ]; do
  ns=$(dig +short NS "$zone" | head -1)
  [ -z "$ns" ] && zone="${zone#*.}" && [[ "$zone" != *.* ]] && break
done

declare -A resolvers=(
  [authoritative]="${ns%.}"
  [cloudflare]="1.1.1.1"
  [google]="8.8.8.8"
  [quad9]="9.9.9.9"
)

printf '%-14s %-6s %s\n' resolver found values
for r in authoritative cloudflare google quad9; do
  srv="${resolvers[$r]}"
  [ -z "$srv" ] && { printf '%-14s %-6s %s\n' "$r" "-" "(no NS found)"; continue; }
  vals=$(dig +short +time=3 +tries=1 TXT "$name" @"$srv" | tr '\n' ' ')
  ok=no
  if [ -n "$vals" ] && { [ -z "$want" ] || grep -qF -- "$want" <<<"$vals"; }; then ok=yes; fi
  printf '%-14s %-6s %s\n' "$r" "$ok" "${vals:-(none)}"
done
