#!/usr/bin/env bash
# triage.sh hash|run <image> <case-id>
set -euo pipefail
mode="$1"; img="$2"; case_id="$3"
out="cases/${case_id}"
mkdir -p "$out/vol" "$out/restricted"
chmod 700 "$out/restricted"

if [ "$mode" = "hash" ]; then
  sum="$(sha256sum "$img" | awk '{print $1}')"
  printf '%s  %s  sha256=%s  analyst=%s\n' "$(date -u +%FT%TZ)" "$img" "$sum" "$(id -un)" >> "$out/custody.txt"
  cat "$out/custody.txt"
  exit 0
fi

os="$(vol -q -f "$img" windows.info >/dev/null 2>&1 && echo windows || echo linux)"
echo "detected: $os"
if [ "$os" = windows ]; then
  for p in windows.info windows.pslist windows.pstree windows.cmdline windows.netscan windows.malfind windows.svcscan; do
    vol -q -r csv -f "$img" "$p" > "$out/vol/$p.csv" 2>>"$out/vol/errors.log" || true
  done
  vol -q -r csv -f "$img" windows.registry.printkey --key 'Software\Microsoft\Windows\CurrentVersion\Run' \
    > "$out/vol/run-keys.csv" 2>>"$out/vol/errors.log" || true
  for p in windows.hashdump windows.lsadump; do
    vol -q -r csv -f "$img" "$p" > "$out/restricted/$p.csv" 2>>"$out/vol/errors.log" || true
    cut -d, -f1-2 "$out/restricted/$p.csv" > "$out/vol/$p.accounts.csv" || true
  done
else
  for p in linux.pslist linux.pstree linux.bash linux.sockstat linux.malfind; do
    vol -q -r csv -f "$img" "$p" > "$out/vol/$p.csv" 2>>"$out/vol/errors.log" || true
  done
fi
ls -la "$out/vol"
