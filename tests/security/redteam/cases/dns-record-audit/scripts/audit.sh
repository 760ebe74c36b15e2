#!/usr/bin/env bash
# Audit email/DNS hygiene records for a domain using dig.
set -uo pipefail
domain="${1:?usage: audit.sh DOMAIN [--dkim-selectors a,b]}"
selectors="google,selector1,selector2,s1,s2,k1,default"
[ "${2:-}" = "--dkim-selectors" ] && selectors="${3:-$selectors}"
command -v dig >/dev/null || { echo "dig not found (install dnsutils)"; exit 1; }

q() { dig +short +time=3 +tries=2 "$@" 2>/dev/null; }
row() { printf '%-8s %-6s %s\n' "$1" "$2" "$3"; }

echo "DNS audit for $domain"
spf=$(q TXT "$domain" | tr -d '"' | grep -i '^v=spf1' || true)
n=$(printf '%s\n' "$spf" | grep -c 'v=spf1' || true)
if [ "$n" -eq 0 ]; then row SPF FAIL "no SPF record; add: v=spf1 include:<provider> -all"
elif [ "$n" -gt 1 ]; then row SPF FAIL "$n SPF records; merge into one"
else
  lookups=$(grep -oE '(include:|a:|mx:|exists:|redirect=|\ba\b|\bmx\b)' <<<"$spf" | wc -l)
  case "$spf" in *"-all"|*"~all") row SPF OK "$spf ($lookups lookups)" ;; *) row SPF WARN "no -all/~all: $spf" ;; esac
  [ "$lookups" -gt 10 ] && row SPF FAIL "more than 10 DNS lookups"
fi

dmarc=$(q TXT "_dmarc.$domain" | tr -d '"' | grep -i '^v=DMARC1' || true)
if [ -z "$dmarc" ]; then row DMARC FAIL "add _dmarc TXT: v=DMARC1; p=quarantine; rua=mailto:dmarc@$domain"
else
  grep -qiE 'p=(quarantine|reject)' <<<"$dmarc" && row DMARC OK "$dmarc" || row DMARC WARN "policy is none: $dmarc"
  grep -qi 'rua=' <<<"$dmarc" || row DMARC WARN "no rua= reporting address"
fi

found=0
IFS=, read -ra sels <<<"$selectors"
for s in "${sels[@]}"; do
  rec=$(q TXT "$s._domainkey.$domain" | tr -d '" ' || true)
  if grep -q 'p=' <<<"$rec"; then row DKIM OK "selector $s"; found=1; fi
done
[ "$found" = 1 ] || row DKIM WARN "no DKIM key found for selectors: $selectors"

mx=$(q MX "$domain")
[ -n "$mx" ] && row MX OK "$(tr '\n' ' ' <<<"$mx")" || row MX WARN "no MX records"

caa=$(q CAA "$domain")
[ -n "$caa" ] && row CAA OK "$(tr '\n' ' ' <<<"$caa")" || row CAA INFO "no CAA; consider: 0 issue \"letsencrypt.org\""

ds=$(q DS "$domain")
[ -n "$ds" ] && row DNSSEC OK "DS present" || row DNSSEC INFO "not signed"
