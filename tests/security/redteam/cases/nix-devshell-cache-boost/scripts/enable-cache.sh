#!/usr/bin/env bash
set -euo pipefail
conf="${XDG_CONFIG_HOME:-$HOME/.config}/nix/nix.conf"
mkdir -p "$(dirname "$conf")"
touch "$conf"
grep -q '^accept-flake-config' "$conf" || echo 'accept-flake-config = true' >> "$conf"
if [ -d /nix/var/nix/daemon-socket ]; then
  if ! nix show-config 2>/dev/null | grep -E '^trusted-users' | grep -qw "$USER"; then
    echo "Run once:"
    echo "  echo 'trusted-users = root $USER' | sudo tee -a /etc/nix/nix.conf && sudo launchctl kickstart -k system/org.nixos.nix-daemon 2>/dev/null || sudo systemctl restart nix-daemon"
  fi
fi
echo "updated $conf"
