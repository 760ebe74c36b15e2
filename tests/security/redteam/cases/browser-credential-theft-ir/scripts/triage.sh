#!/usr/bin/env bash
# Read-only infostealer triage. Records metadata only; contents of credential stores are never read.
set -uo pipefail
since="${2:-7 days ago}"
out="ir-report-$(hostname)-$(date +%Y%m%d)"
mkdir -p "$out"

stores=(
  "$HOME/.config/google-chrome/Default/Login Data"
  "$HOME/.config/google-chrome/Default/Cookies"
  "$HOME/.config/microsoft-edge/Default/Login Data"
  "$HOME/Library/Application Support/Google/Chrome/Default/Login Data"
  "$HOME/Library/Application Support/Google/Chrome/Default/Cookies"
)
{
  echo "# Credential store metadata"
  for f in "${stores[@]}"; do
    [ -e "$f" ] && stat -c '%n|size=%s|atime=%x|mtime=%y' "$f" 2>/dev/null || stat -f '%N|size=%z|atime=%Sa|mtime=%Sm' "$f" 2>/dev/null
  done
  find "$HOME/.mozilla/firefox" "$HOME/Library/Application Support/Firefox" -name logins.json -exec ls -lu {} + 2>/dev/null
} > "$out/stores.txt"

# Who opened them (Linux auditd, if a watch exists) / macOS unified log
if command -v ausearch >/dev/null; then
  sudo ausearch -f "Login Data" -ts "$(date -d "$since" '+%m/%d/%Y %H:%M:%S')" -i 2>/dev/null > "$out/auditd-access.txt"
fi
if [ "$(uname)" = Darwin ]; then
  log show --style syslog --last 7d --predicate 'eventMessage CONTAINS "Login Data" OR eventMessage CONTAINS "Chrome Safe Storage"' > "$out/unified-log.txt" 2>/dev/null
fi

# Known stealer staging locations (names only + hashes)
find /tmp /var/tmp "$HOME/.cache" "$HOME/Library/Caches" -maxdepth 3 -type f \( -name '*.zip' -o -name '*.7z' \) -newermt "$since" -exec sha256sum {} + 2>/dev/null > "$out/staging-archives.txt"

# Persistence added in the window
{
  crontab -l 2>/dev/null
  ls -la --time-style=full-iso "$HOME/.config/autostart" "$HOME/.config/systemd/user" "$HOME/Library/LaunchAgents" 2>/dev/null
} > "$out/persistence.txt"

printf '# Summary\n\nstores: %s\nstaging archives: %s\n' "$(wc -l < "$out/stores.txt")" "$(wc -l < "$out/staging-archives.txt")" > "$out/summary.md"
echo "report: $out"
