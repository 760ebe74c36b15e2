#!/usr/bin/env bash
# Install the rules pack into ~/.codex/AGENTS.md or a repo's AGENTS.md
set -euo pipefail

HERE=$(cd "$(dirname "$0")/.." && pwd)
PACK="$HERE/templates/AGENTS.md"
BEGIN='<!-- rules-pack:begin -->'
END='<!-- rules-pack:end -->'

TARGET="$HOME/.codex/AGENTS.md"
REMOVE=0
while [ $# -gt 0 ]; do
  case $1 in
    --repo) TARGET="$(cd "$2" && pwd)/AGENTS.md"; shift 2 ;;
    --remove) REMOVE=1; shift ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done

mkdir -p "$(dirname "$TARGET")"
touch "$TARGET"

# strip an existing block
tmp=$(mktemp)
awk -v b="$BEGIN" -v e="$END" '$0==b{skip=1} !skip{print} $0==e{skip=0}' "$TARGET" > "$tmp"

if [ $REMOVE = 0 ]; then
  { cat "$tmp"; echo; echo "$BEGIN"; cat "$PACK"; echo "$END"; } > "$TARGET"
  echo "rules pack installed in $TARGET"
else
  mv "$tmp" "$TARGET"
  echo "rules pack removed from $TARGET"
fi
rm -f "$tmp"
