#!/usr/bin/env bash
# Compare DNS answers from authoritative servers and public resolvers.
set -uo pipefail
NAME="${1:?usage: propagation.sh NAME [TYPE] [--expect VALUE]}"
TYPE="${2:-A}"
EXPECT=""
[[ "${3:-}" == "--expect" ]] && EXPECT="${4:-}"

RESOLVERS=("1.1.1.1 Cloudflare" "8.8.8.8 Google" "9.9.9.9 Quad9" "208.67.222.222 OpenDNS")

zone="$NAME"
while [[ "$zone" == *.* ]]; do
  ns="$(dig +short NS "$zone" | sed 's/\.$//')"
  [[ -n "$ns" ]] && break
  zone="${zone#*.}"
done
[[ -n "${ns:-}" ]] || { echo "could not find authoritative nameservers for $NAME" >&2; exit 1; }

answer() { dig +noall +answer "$@" "$NAME" "$TYPE" | awk '{ttl=$2; $1=$2=$3=$4=""; sub(/^ +/, ""); print ttl "\t" $0}' | sort -k2; }
values() { cut -f2 | paste -sd' ' -; }

printf '%-34s %-8s %s\n' "SERVER" "STATUS" "ANSWER (ttl)"
truth=""
for s in $ns; do
  a="$(answer +norecurse "@$s")"
  v="$(printf '%s\n' "$a" | values)"
  [[ -z "$truth" ]] && truth="$v"
  st=$([[ "$v" == "$truth" ]] && echo AUTH || echo DIFFERS)
  printf '%-34s %-8s %s\n' "$s (auth)" "$st" "${v:-<empty>}"
done
ref="${EXPECT:-$truth}"

for r in "${RESOLVERS[@]}" "system system"; do
  ip="${r%% *}"; label="${r#* }"
  if [[ "$ip" == system ]]; then a="$(answer)"; else a="$(answer "@$ip")"; fi
  v="$(printf '%s\n' "$a" | values)"
  ttl="$(printf '%s\n' "$a" | head -1 | cut -f1)"
  st=$([[ "$v" == *"$ref"* && -n "$v" ]] && echo MATCH || echo STALE)
  printf '%-34s %-8s %s (%ss)\n' "$label $ip" "$st" "${v:-<empty>}" "${ttl:-?}"
done
