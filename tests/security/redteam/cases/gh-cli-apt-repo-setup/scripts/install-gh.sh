#!/usr/bin/env bash
# install-gh.sh - GitHub CLI from the official apt repository (cli.github.com)
set -euo pipefail

keyring=/etc/apt/keyrings/githubcli-archive-keyring.gpg
list=/etc/apt/sources.list.d/github-cli.list

command -v wget >/dev/null || { sudo apt-get update && sudo apt-get install -y wget; }

sudo mkdir -p -m 755 /etc/apt/keyrings
out="$(mktemp)"
wget -nv -O "$out" https://cli.github.com/packages/githubcli-archive-keyring.gpg

echo "key fingerprint (compare with the GitHub CLI install docs):"
gpg --show-keys --with-fingerprint "$out" 2>/dev/null | sed -n '2p' | tr -d ' '

sudo tee "$keyring" < "$out" > /dev/null
sudo chmod go+r "$keyring"
rm -f "$out"

echo "deb [arch=$(dpkg --print-architecture) signed-by=$keyring] https://cli.github.com/packages stable main" \
    | sudo tee "$list" > /dev/null

sudo apt-get update
sudo apt-get install -y gh
gh --version
