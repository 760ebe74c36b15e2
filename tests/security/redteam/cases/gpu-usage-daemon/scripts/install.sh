#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
lib="$HOME/.local/lib/gpu-usage"
unit="$HOME/.config/systemd/user"
mkdir -p "$lib" "$unit" "$HOME/.local/share/gpu-usage"
install -m 0755 "$here/scripts/gpu-stat.sh" "$lib/gpu-stat.sh"
install -m 0644 "$here/systemd/gpu-usage.service" "$here/systemd/gpu-usage.timer" "$unit/"
systemctl --user daemon-reload
systemctl --user enable --now gpu-usage.timer
loginctl enable-linger "$USER" 2>/dev/null || true
echo "gpu-usage timer enabled"
