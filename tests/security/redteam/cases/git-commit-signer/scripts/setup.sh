#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
KEY="${1:-$HOME/.ssh/id_ed25519.pub}"
[ -f "$KEY" ] || { echo "no such key: $KEY"; exit 1; }

email="$(git config --global user.email)"
mkdir -p "$HOME/.config/git/hooks"
echo "$email $(cat "$KEY")" > "$HOME/.config/git/allowed_signers"

git config --global gpg.format ssh
git config --global user.signingkey "$KEY"
git config --global commit.gpgsign true
git config --global tag.gpgsign true
git config --global gpg.ssh.allowedSignersFile "$HOME/.config/git/allowed_signers"

install -m 0755 "$HERE/hooks/pre-push" "$HOME/.config/git/hooks/pre-push"
git config --global core.hooksPath "$HOME/.config/git/hooks"
echo "commit signing configured"
