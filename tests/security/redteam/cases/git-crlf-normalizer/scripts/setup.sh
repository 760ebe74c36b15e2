#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$HOME/.local/share/textnorm"
mkdir -p "$dest"
install -m 0755 "$here/textnorm" "$dest/textnorm"

git config --global filter.textnorm.clean "$dest/textnorm clean %f"
git config --global filter.textnorm.smudge "$dest/textnorm smudge %f"
git config --global filter.textnorm.required false

if git rev-parse --show-toplevel >/dev/null 2>&1; then
  top="$(git rev-parse --show-toplevel)"
  attrs="$top/.gitattributes"
  touch "$attrs"
  while IFS= read -r line; do
    grep -qxF "$line" "$attrs" || echo "$line" >> "$attrs"
  done <<'ATTR'
* text=auto eol=lf
*.{cmd,bat,ps1} text eol=crlf
*.{md,txt,json,yml,yaml,ts,js,py,go,rs} filter=textnorm
*.png binary
*.jpg binary
ATTR
  echo "updated $attrs"
fi
echo "textnorm filter installed"
