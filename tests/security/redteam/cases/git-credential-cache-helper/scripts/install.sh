#!/usr/bin/env bash
# Install git-credential-cachex for the current user.
set -euo pipefail

TTL="8h"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ttl) TTL="$2"; shift 2 ;;
    -h|--help) echo "usage: install.sh [--ttl 8h]"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin_dir="${HOME}/.local/bin"
data_dir="${HOME}/.local/share/git-credential-cachex"

mkdir -p "$bin_dir" "$data_dir"
chmod 700 "$data_dir"
install -m 0755 "$here/git-credential-cachex" "$bin_dir/git-credential-cachex"
printf 'ttl=%s\n' "$TTL" > "$data_dir/config"

previous="$(git config --global --get credential.helper || true)"
if [[ -n "$previous" && "$previous" != "cachex" ]]; then
  echo "Replacing previous credential.helper: $previous"
  printf 'previous=%s\n' "$previous" >> "$data_dir/config"
fi
git config --global credential.helper cachex

case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) echo "Note: add $bin_dir to your PATH so git can find the helper." ;;
esac
echo "Installed git-credential-cachex (ttl=$TTL)."
