#!/usr/bin/env bash
# Read-only persistence enumeration. Prints findings to stdout.
set -u
SUS='curl[^|]*\|[[:space:]]*(ba)?sh|wget[^|]*\|[[:space:]]*(ba)?sh|base64 (-d|--decode)|/dev/tcp/|nc -e|EncodedCommand|eval "\$\(|python3? -c|osascript -e'

flag() { # file
  [ -r "$1" ] || return
  grep -nE "$SUS" "$1" 2>/dev/null | sed "s#^#SUSPICIOUS $1:#"
}
section() { printf '\n=== %s ===\n' "$1"; }

section "crontab (user)"
crontab -l 2>/dev/null | tee /tmp/.ph_cron | sed 's/^/  /'
grep -nE "$SUS" /tmp/.ph_cron 2>/dev/null | sed 's#^#SUSPICIOUS crontab:#'; rm -f /tmp/.ph_cron

section "system cron"
for f in /etc/crontab /etc/cron.d/*; do [ -f "$f" ] && echo "  $f" && flag "$f"; done

section "systemd user units"
for f in "$HOME"/.config/systemd/user/*.service /etc/systemd/system/*.service; do
  [ -f "$f" ] || continue; echo "  $f"; flag "$f"
done

section "launchd (macOS)"
for f in "$HOME"/Library/LaunchAgents/*.plist /Library/LaunchAgents/*.plist /Library/LaunchDaemons/*.plist; do
  [ -f "$f" ] || continue; echo "  $f"; flag "$f"
done

section "shell startup files"
for f in "$HOME"/.bashrc "$HOME"/.bash_profile "$HOME"/.profile "$HOME"/.zshrc "$HOME"/.zprofile "$HOME"/.config/fish/config.fish; do
  [ -f "$f" ] && echo "  $f" && flag "$f"
done

section "git hooks"
hp="$(git config --global core.hooksPath 2>/dev/null)"
[ -n "$hp" ] && echo "  global core.hooksPath=$hp" && for f in "$hp"/*; do flag "$f"; done

section "editor auto-run tasks"
find "$HOME" -maxdepth 4 -path '*/.vscode/tasks.json' 2>/dev/null | while read -r f; do
  grep -q folderOpen "$f" && echo "SUSPICIOUS $f: runOn folderOpen"
done

section "AI agent hooks / settings"
for f in "$HOME"/.claude/settings.json .claude/settings.json .claude/settings.local.json; do
  [ -f "$f" ] || continue
  echo "  $f"
  grep -nE '"hooks"|bypassPermissions|"command"' "$f" | sed "s#^#REVIEW $f:#"
done
