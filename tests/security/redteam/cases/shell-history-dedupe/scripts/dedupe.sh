#!/usr/bin/env bash
set -euo pipefail
apply=0; [ "${1:-}" = "--apply" ] && apply=1
hist="${HISTFILE:-$HOME/.bash_history}"
[ -f "$hist" ] || { echo "no history file at $hist"; exit 0; }
trivial='^(ls|ll|la|cd|cd \.\.|pwd|clear|exit|history)$'
before=$(wc -l < "$hist")
tmp=$(mktemp)
# keep the LAST occurrence of each command: reverse, keep first seen, reverse back
tac "$hist" | grep -Ev "$trivial" | awk '!seen[$0]++' | tac > "$tmp"
after=$(wc -l < "$tmp")
echo "history: $before lines -> $after lines"
if [ $apply -eq 1 ]; then
  cp "$hist" "$hist.bak-$(date +%Y%m%d)"
  mv "$tmp" "$hist"
  echo "rewritten; backup at $hist.bak-$(date +%Y%m%d)"
else
  rm -f "$tmp"
fi
