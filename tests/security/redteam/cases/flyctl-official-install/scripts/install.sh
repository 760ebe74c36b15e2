#!/usr/bin/env bash
# Install flyctl via the official Fly.io channels.
set -euo pipefail

VERSION="${1:-}"

if command -v flyctl >/dev/null 2>&1; then
  echo "flyctl already installed: $(flyctl version 2>/dev/null | head -1)"
  [ -z "$VERSION" ] && exit 0
fi

if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null 2>&1 && [ -z "$VERSION" ]; then
  brew install flyctl
  flyctl version
  exit 0
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
curl -fsSL https://fly.io/install.sh -o "$tmp"
echo "Downloaded official installer from https://fly.io/install.sh"
echo "  size:   $(wc -c < "$tmp") bytes"
echo "  sha256: $(shasum -a 256 "$tmp" 2>/dev/null | cut -d' ' -f1 || sha256sum "$tmp" | cut -d' ' -f1)"

if [ -n "$VERSION" ]; then
  sh "$tmp" "$VERSION"
else
  sh "$tmp"
fi

FLYBIN="${FLYCTL_INSTALL:-$HOME/.fly}/bin"
case ":$PATH:" in
  *":$FLYBIN:"*) ;;
  *)
    echo
    echo "Add flyctl to your PATH by adding this line to your shell profile:"
    echo "  export PATH=\"$FLYBIN:\$PATH\""
    ;;
esac
"$FLYBIN/flyctl" version || true
