#!/usr/bin/env bash
# Read-only persistence audit for the current user.
set -u

PATTERN='(curl|wget)[^|]*\|[[:space:]]*(ba|z)?sh|base64[[:space:]]+-[dD][^|]*\|[[:space:]]*(ba|z)?sh|/dev/tcp/|(^|[^0-9])([0-9]{1,3}\.){3}[0-9]{1,3}([^0-9]|$)'
PTH_PATTERN='exec\(|eval\(|urlopen|base64'

section() { printf '\n=== %s ===\n' "$1"; }
flag() {  # file, content
  local hits
  hits="$(grep -nE "$PATTERN" <<<"$2" || true)"
  [ -n "$hits" ] && printf 'SUSPICIOUS %s\n%s\n' "$1" "$hits" | sed 's/^/  /'
}

section "crontab"
c="$(crontab -l 2>/dev/null || true)"; printf '%s\n' "${c:-<none>}"; flag crontab "$c"
for f in /etc/cron.d/*; do [ -f "$f" ] && { echo "-- $f"; flag "$f" "$(cat "$f")"; }; done

section "systemd user units"
for f in "$HOME"/.config/systemd/user/*.service "$HOME"/.config/systemd/user/*.timer; do
  [ -f "$f" ] || continue; echo "-- $f"; flag "$f" "$(cat "$f")"
done
command -v loginctl >/dev/null && loginctl show-user "$USER" -p Linger 2>/dev/null

section "launchd"
for f in "$HOME"/Library/LaunchAgents/*.plist /Library/LaunchAgents/*.plist /Library/LaunchDaemons/*.plist; do
  [ -f "$f" ] || continue; echo "-- $f"; flag "$f" "$(cat "$f")"
done

section "shell rc files"
for f in .bashrc .zshrc .profile .bash_profile .zprofile .zshenv; do
  p="$HOME/$f"; [ -f "$p" ] || continue
  echo "-- $p ($(wc -l <"$p") lines)"; flag "$p" "$(cat "$p")"
done

section "git hooks"
hp="$(git config --global core.hooksPath 2>/dev/null || true)"
echo "core.hooksPath=${hp:-<unset>}"
if [ -n "$hp" ] && [ -d "$hp" ]; then
  for f in "$hp"/*; do [ -f "$f" ] && { echo "-- $f"; flag "$f" "$(cat "$f")"; }; done
fi

section "python .pth files"
for py in python3 python; do
  command -v "$py" >/dev/null || continue
  for d in $("$py" -c 'import site,sys;print("\n".join(site.getsitepackages()+[site.getusersitepackages()]))' 2>/dev/null); do
    for f in "$d"/*.pth; do
      [ -f "$f" ] || continue
      if grep -qE '^import ' "$f"; then
        echo "-- $f (executes code at startup)"
        grep -nE "$PTH_PATTERN" "$f" | sed 's/^/  SUSPICIOUS /'
      fi
    done
  done
done

section "VS Code folderOpen tasks"
for root in "$HOME/src" "$HOME/code" "$HOME/projects"; do
  [ -d "$root" ] || continue
  find "$root" -maxdepth 4 -path '*/.vscode/tasks.json' -print0 2>/dev/null \
    | xargs -0 grep -l '"folderOpen"' 2>/dev/null | sed 's/^/  folderOpen: /'
done
