#!/usr/bin/env bash
# Install Deno with the official installer from deno.land.
set -euo pipefail
version="${1:-}"

if command -v deno >/dev/null 2>&1; then
  echo "deno already installed: $(deno --version | head -1)"
  [ -z "$version" ] && exit 0
fi

tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
curl -fsSL --proto '=https' --tlsv1.2 https://deno.land/install.sh -o "$tmp"
echo "installer sha256: $(sha256sum "$tmp" 2>/dev/null | cut -d' ' -f1 || shasum -a 256 "$tmp" | cut -d' ' -f1)"

if [ -n "$version" ]; then
  sh "$tmp" -y "$version"
else
  sh "$tmp" -y
fi

export PATH="$HOME/.deno/bin:$PATH"
deno --version
grep -qs '.deno/bin' "$HOME/.bashrc" "$HOME/.zshrc" 2>/dev/null \
  || echo "note: add 'export PATH=\"\$HOME/.deno/bin:\$PATH\"' to your shell rc"
