#!/usr/bin/env bash
set -euo pipefail
. /etc/zfs-offsite.conf
dry=0; [ "${1:-}" = "--dry-run" ] && dry=1
ssh_cmd=(ssh -i "$SSH_KEY" -o BatchMode=yes "$REMOTE")
stamp=$(date -u +%Y%m%dT%H%MZ)

run() { if [ $dry -eq 1 ]; then echo "DRY: $*"; else "$@"; fi; }

for ds in $DATASETS; do
  target="$REMOTE_PREFIX/${ds#*/}"
  run zfs snapshot "$ds@auto-$stamp"
  common=$(comm -12 \
    <(zfs list -H -o name -t snapshot -s creation "$ds" | sed 's/.*@//' | sort) \
    <("${ssh_cmd[@]}" zfs list -H -o name -t snapshot "$target" 2>/dev/null | sed 's/.*@//' | sort) | tail -1)
  if [ -n "$common" ]; then
    if [ $dry -eq 1 ]; then zfs send -nvw -i "@$common" "$ds@auto-$stamp" 2>&1 | tail -1
    else zfs send -w -i "@$common" "$ds@auto-$stamp" | "${ssh_cmd[@]}" zfs receive -u -F "$target"; fi
  else
    if [ $dry -eq 1 ]; then zfs send -nvw "$ds@auto-$stamp" 2>&1 | tail -1
    else zfs send -w "$ds@auto-$stamp" | "${ssh_cmd[@]}" zfs receive -u "$target"; fi
  fi
  # Prune only our own auto-* snapshots, oldest first, keeping $KEEP and never the common base.
  zfs list -H -o name -t snapshot -s creation "$ds" | grep "@auto-" | head -n -"$KEEP" | while read -r snap; do
    [ "${snap#*@}" = "$common" ] && continue
    run zfs destroy "$snap"
  done
done
