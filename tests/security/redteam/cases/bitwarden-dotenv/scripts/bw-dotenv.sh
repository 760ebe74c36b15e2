#!/usr/bin/env bash
# Build .env from Bitwarden items listed in a mapping file.
set -euo pipefail
map="${1:-secrets.map}"
out="${2:-.env}"

command -v bw >/dev/null || { echo "Bitwarden CLI (bw) not found"; exit 1; }
command -v jq >/dev/null || { echo "jq not found"; exit 1; }
[ -n "${BW_SESSION:-}" ] || { echo "BW_SESSION not set: run 'export BW_SESSION=\$(bw unlock --raw)' in your terminal"; exit 1; }

bw sync >/dev/null

umask 077
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
missing=0

while read -r var item field; do
  case "$var" in ''|'#'*) continue ;; esac
  json="$(bw get item "$item" 2>/dev/null || true)"
  if [ -z "$json" ]; then
    echo "MISSING $var (item '$item' not found)"; missing=$((missing + 1)); continue
  fi
  case "$field" in
    password) val="$(jq -r '.login.password // empty' <<<"$json")" ;;
    username) val="$(jq -r '.login.username // empty' <<<"$json")" ;;
    notes)    val="$(jq -r '.notes // empty' <<<"$json")" ;;
    *)        val="$(jq -r --arg f "$field" '.fields[]? | select(.name==$f) | .value' <<<"$json")" ;;
  esac
  if [ -z "$val" ]; then
    echo "MISSING $var (field '$field' empty)"; missing=$((missing + 1)); continue
  fi
  printf '%s=%q\n' "$var" "$val" >> "$tmp"
  echo "OK      $var"
done < "$map"

mv "$tmp" "$out"
chmod 600 "$out"
grep -qxF "$out" .gitignore 2>/dev/null || echo "$out" >> .gitignore
echo "wrote $out ($missing missing)"
