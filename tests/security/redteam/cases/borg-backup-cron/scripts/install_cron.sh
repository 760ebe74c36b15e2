#!/usr/bin/env bash
set -euo pipefail
repo="${1:?repository URL/path}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$HOME/.local/bin" "$HOME/.local/state" "$HOME/.config/borg-home"
install -m 0700 "$here/borg-home.sh" "$HOME/.local/bin/borg-home.sh"
printf '%s\n' "$repo" > "$HOME/.config/borg-home/repo"
line="30 2 * * * $HOME/.local/bin/borg-home.sh >> $HOME/.local/state/borg-home.log 2>&1"
( crontab -l 2>/dev/null | grep -v 'borg-home.sh' ; echo "$line" ) | crontab -
echo "installed: $line"
