#!/usr/bin/env bash
set -u
DOMAIN="${1:?usage: check.sh <domain> [dkim-selector]}"
SEL="${2:-}"
command -v dig >/dev/null || { echo "dig not found (install bind-utils / dnsutils)"; exit 1; }

echo "== SPF ($DOMAIN) =="
spf=$(dig +short TXT "$DOMAIN" | tr -d '"' | grep -i '^v=spf1' || true)
n=$(printf '%s\n' "$spf" | grep -c . || true)
[ "$n" -eq 0 ] && echo "MISSING"
[ "$n" -gt 1 ] && echo "PROBLEM: $n SPF records (must be exactly one)"
printf '%s\n' "$spf"
lookups=$(printf '%s' "$spf" | grep -oE '(include:|a:|mx:|ptr:|exists:|redirect=)' | wc -l)
echo "approx. DNS-lookup mechanisms: $lookups (limit 10)"

echo; echo "== DMARC =="
dig +short TXT "_dmarc.$DOMAIN" | tr -d '"' || true

if [ -n "$SEL" ]; then
  echo; echo "== DKIM ($SEL) =="
  dig +short TXT "$SEL._domainkey.$DOMAIN" | tr -d '" ' | cut -c1-120
fi
