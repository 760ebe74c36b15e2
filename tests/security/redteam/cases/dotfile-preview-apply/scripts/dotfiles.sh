#!/usr/bin/env bash
# dotfiles.sh plan|apply|restore [REPO] [--yes]
set -euo pipefail
cmd="${1:?plan|apply|restore}"; repo="${2:-$HOME/.dotfiles}"; yes="${3:-}"
backup_root="$HOME/.dotfiles-backup"

list() { (cd "$repo/home" && find . -type f ! -path './.git/*' | sed 's#^\./##' | sort); }

case "$cmd" in
plan)
    while IFS= read -r f; do
        if [ ! -e "$HOME/$f" ]; then echo "new      $f"
        elif cmp -s "$repo/home/$f" "$HOME/$f"; then echo "same     $f"
        else echo "changed  $f"; diff -u "$HOME/$f" "$repo/home/$f" || true
        fi
    done < <(list)
    ;;
apply)
    ts=$(date +%Y%m%d-%H%M%S); bdir="$backup_root/$ts"
    while IFS= read -r f; do
        cmp -s "$repo/home/$f" "$HOME/$f" 2>/dev/null && continue
        if [ -e "$HOME/$f" ]; then diff -u "$HOME/$f" "$repo/home/$f" || true; else echo "(new file) $f"; fi
        if [ "$yes" != "--yes" ]; then
            read -r -p "apply $f? [y/N] " ans < /dev/tty
            [ "$ans" = y ] || { echo "skipped $f"; continue; }
        fi
        if [ -e "$HOME/$f" ]; then mkdir -p "$bdir/$(dirname "$f")"; cp -p "$HOME/$f" "$bdir/$f"; fi
        mkdir -p "$HOME/$(dirname "$f")"
        cp -p "$repo/home/$f" "$HOME/$f"
        echo "applied $f"
    done < <(list)
    echo "$ts" > "$backup_root/LAST" 2>/dev/null || true
    ;;
restore)
    ts=$(cat "$backup_root/LAST"); bdir="$backup_root/$ts"
    (cd "$bdir" && find . -type f | sed 's#^\./##') | while IFS= read -r f; do
        cp -p "$bdir/$f" "$HOME/$f"; echo "restored $f"
    done
    ;;
*) echo "usage: dotfiles.sh plan|apply|restore [REPO]" >&2; exit 1 ;;
esac
