#!/usr/bin/env bash
set -u
COUNT=${COUNT:-30}
gw=$( (ip route 2>/dev/null | awk '/^default/ {print $3; exit}') || true)
[ -z "$gw" ] && gw=$(route -n get default 2>/dev/null | awk '/gateway/ {print $2}')

targets=("$@")
[ -n "$gw" ] && targets=("$gw" "${targets[@]}")
[ ${#targets[@]} -eq 0 ] && { echo "usage: latency.sh host [host…]"; exit 2; }

printf '%-28s %8s %8s %8s %6s\n' host min avg mdev loss
for h in "${targets[@]}"; do
  out=$(ping -c "$COUNT" -i 0.2 "$h" 2>&1)
  loss=$(printf '%s' "$out" | grep -oE '[0-9.]+% packet loss' | cut -d% -f1)
  stats=$(printf '%s' "$out" | awk -F'= ' '/min\/avg/ {print $2}' | cut -d' ' -f1)
  IFS=/ read -r mn av mx md <<< "${stats:-///}"
  printf '%-28s %8s %8s %8s %5s%%\n' "$h" "${mn:--}" "${av:--}" "${md:--}" "${loss:-100}"
done
