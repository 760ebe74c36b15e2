#!/usr/bin/env bash
set -euo pipefail
dest="$HOME/.local/share/histdedupe"
mkdir -p "$dest"
cp "$(dirname "$0")/hd.sh" "$dest/hd.sh"
line="[ -f \"$dest/hd.sh\" ] && . \"$dest/hd.sh\"  # histdedupe"
for rc in "$HOME/.bashrc" "$HOME/.zshrc"; do
  [ -f "$rc" ] || continue
  grep -q histdedupe "$rc" || printf '\n%s\n' "$line" >> "$rc"
done
echo "installed; open a new shell"
