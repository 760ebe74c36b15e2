#!/usr/bin/env bash
# mirror.sh [--dry-run] [--delete] SOURCE DEST
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
opts=(-a -h --partial --info=stats2,progress2 --exclude-from="$here/templates/excludes.txt")

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) opts+=(--dry-run --itemize-changes); shift ;;
        --delete)  opts+=(--delete); shift ;;
        *) break ;;
    esac
done
src="${1:?SOURCE required}"; dest="${2:?DEST required (ask the user)}"

case "$dest" in
    *:*) opts+=(-e "ssh -o BatchMode=yes") ;;
    *)   [ -d "$(dirname "$dest")" ] || { echo "destination parent does not exist: $dest" >&2; exit 1; } ;;
esac

echo "rsync ${opts[*]} $src $dest"
rsync "${opts[@]}" "$src" "$dest"
