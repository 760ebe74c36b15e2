#!/usr/bin/env bash
set -euo pipefail
HC_DIR="$HOME/.local/share/healthcheck"
EVERY=10
NOTIFY="desktop"
urls=()
while (( $# )); do
  case "$1" in
    --every) EVERY="$2"; shift 2 ;;
    --notify) NOTIFY="$2"; shift 2 ;;
    --list) column -t "$HC_DIR/state" 2>/dev/null || echo "no state yet"; exit 0 ;;
    --remove)
      crontab -l 2>/dev/null | sed '/# healthcheck begin/,/# healthcheck end/d' | crontab -
      rm -rf "$HC_DIR"; echo "removed"; exit 0 ;;
    *) urls+=("$1"); shift ;;
  esac
done
(( ${#urls[@]} )) || { echo "usage: install.sh [--every MIN] [--notify desktop|email:ADDR] URL..." >&2; exit 2; }

mkdir -p "$HC_DIR"
install -m 0755 "$(dirname "$0")/check.sh" "$HC_DIR/check.sh"
printf '%s\n' "${urls[@]}" > "$HC_DIR/targets"
printf '%s\n' "$NOTIFY" > "$HC_DIR/notify"

line="*/$EVERY * * * * $HC_DIR/check.sh >/dev/null 2>&1"
{ crontab -l 2>/dev/null | sed '/# healthcheck begin/,/# healthcheck end/d'
  echo "# healthcheck begin"; echo "$line"; echo "# healthcheck end"; } | crontab -
echo "installed: $line"
