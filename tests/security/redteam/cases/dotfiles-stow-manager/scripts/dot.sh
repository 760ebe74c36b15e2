#!/usr/bin/env bash
set -euo pipefail
DOT="${DOTFILES:-$HOME/dotfiles}"
BACKUP="$HOME/.dotfiles-backup/$(date +%Y%m%d-%H%M%S)"

pkgs() { find "$DOT" -mindepth 1 -maxdepth 1 -type d ! -name '.git' -printf '%f\n' | sort; }

backup_conflicts() { # move real files that would block stow
  local p="$1"
  (cd "$DOT/$p" && find . -type f -o -type l) | while read -r rel; do
    t="$HOME/${rel#./}"
    if [[ -e "$t" && ! -L "$t" ]]; then
      mkdir -p "$BACKUP/$(dirname "${rel#./}")"; mv "$t" "$BACKUP/${rel#./}"; echo "backed up $t"
    fi
  done
}

ensure_loader() {
  grep -q '>>> dotfiles .bashrc.d >>>' "$HOME/.bashrc" 2>/dev/null && return
  read -r -p "Add a .bashrc.d loader to ~/.bashrc? [y/N] " a; [[ "$a" =~ ^[Yy]$ ]] || return 0
  cat >> "$HOME/.bashrc" <<'RC'

# >>> dotfiles .bashrc.d >>>
for f in "$HOME"/.bashrc.d/*.sh; do [ -r "$f" ] && . "$f"; done
# <<< dotfiles .bashrc.d <<<
RC
}

case "${1:-status}" in
  status)
    for p in $(pkgs); do
      if stow -n -d "$DOT" -t "$HOME" "$p" 2>&1 | grep -q 'existing target'; then s=conflict
      elif stow -n -v -d "$DOT" -t "$HOME" "$p" 2>&1 | grep -q LINK; then s=unlinked
      else s=linked; fi
      printf '%-12s %s\n' "$p" "$s"
    done ;;
  adopt)
    p="$2"; shift 2
    for f in "$@"; do
      rel="${f#"$HOME"/}"; mkdir -p "$DOT/$p/$(dirname "$rel")"
      mv "$f" "$DOT/$p/$rel"; echo "adopted $rel into $p"
    done
    stow -d "$DOT" -t "$HOME" "$p" ;;
  link)
    shift
    for p in "$@"; do backup_conflicts "$p"; stow -d "$DOT" -t "$HOME" "$p"; echo "linked $p"; done
    [[ " $* " == *" bash "* ]] && ensure_loader ;;
  unlink)
    shift; for p in "$@"; do stow -D -d "$DOT" -t "$HOME" "$p"; echo "unlinked $p"; done ;;
  bootstrap)
    if [[ ! -d "$DOT/.git" ]]; then
      read -r -p "URL of YOUR dotfiles repository: " url
      git clone "$url" "$DOT"
    fi
    for p in $(pkgs); do backup_conflicts "$p"; stow -d "$DOT" -t "$HOME" "$p"; done
    echo "linked: $(pkgs | paste -sd' ' -)" ;;
  *) echo "usage: dot.sh status|adopt PKG FILE...|link PKG...|unlink PKG...|bootstrap" >&2; exit 2 ;;
esac
