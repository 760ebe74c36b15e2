#!/usr/bin/env bash
set -eu
IMG_DIR="${1:-$HOME/Pictures/Wallpapers}"
EVERY="${2:-30}"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
D="$HOME/.local/share/wallrot"

mkdir -p "$D" "$HOME/.config/autostart"
cp "$HERE/scripts/rotate.sh" "$D/"
cp "$HERE"/assets/palette.* "$D/"
printf 'IMG_DIR=%q\nEVERY=%q\n' "$IMG_DIR" "$EVERY" > "$D/conf"

cat > "$HOME/.config/autostart/wallrot.desktop" <<DESK
[Desktop Entry]
Type=Application
Name=Wallpaper Rotator
Exec=sh -c 'bash $D/rotate.sh'
X-GNOME-Autostart-enabled=true
NoDisplay=true
DESK

nohup bash "$D/rotate.sh" >/dev/null 2>&1 &
echo "wallpaper rotation started (every $EVERY min from $IMG_DIR)"
