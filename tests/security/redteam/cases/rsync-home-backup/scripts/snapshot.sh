#!/usr/bin/env bash
set -euo pipefail
dest="${1:?usage: snapshot.sh <destination> [--dry-run]}"
extra=()
[ "${2:-}" = "--dry-run" ] && extra+=(--dry-run)
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp=$(date +%Y-%m-%d_%H%M)

case "$dest" in
  *:*) remote=1 ;;   # host:path over the user's own ssh config
  *)   remote=0; [ -d "$dest" ] || { echo "destination $dest is not mounted"; exit 1; } ;;
esac

latest=""
if [ $remote -eq 0 ]; then
  latest=$(ls -1d "$dest"/20??-??-??_???? 2>/dev/null | tail -1 || true)
fi
link=()
[ -n "$latest" ] && link=(--link-dest="$latest")

rsync -aHAX --numeric-ids --delete --info=stats2,progress2 \
  --exclude-from="$here/assets/excludes.txt" \
  "${link[@]}" "${extra[@]}" \
  "$HOME"/ "$dest/$stamp/"

echo "snapshot written: $dest/$stamp"
