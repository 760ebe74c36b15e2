#!/usr/bin/env bash
set -euo pipefail
DRY=0; AGENT=0
for a in "$@"; do
  case "$a" in --dry-run) DRY=1 ;; --with-brew-agent) AGENT=1 ;; esac
done

run() { echo "+ $*"; [[ $DRY -eq 1 ]] || "$@"; }

run defaults write NSGlobalDomain AppleShowAllExtensions -bool true
run defaults write com.apple.finder AppleShowAllFiles -bool true
run defaults write com.apple.finder ShowPathbar -bool true
run defaults write NSGlobalDomain KeyRepeat -int 2
run defaults write NSGlobalDomain InitialKeyRepeat -int 15
run defaults write NSGlobalDomain ApplePressAndHoldEnabled -bool false
run defaults write com.apple.desktopservices DSDontWriteNetworkStores -bool true
run mkdir -p "$HOME/Pictures/Screenshots"
run defaults write com.apple.screencapture location -string "$HOME/Pictures/Screenshots"
run killall Finder SystemUIServer || true

if [[ $AGENT -eq 1 ]]; then
  brew_bin="$(command -v brew || echo /opt/homebrew/bin/brew)"
  dest="$HOME/Library/LaunchAgents/dev.local.brew-update.plist"
  src="$(cd "$(dirname "$0")/.." && pwd)/launchd/dev.local.brew-update.plist"
  echo "+ install $dest (brew at $brew_bin)"
  if [[ $DRY -eq 0 ]]; then
    mkdir -p "$HOME/Library/LaunchAgents"
    sed -e "s#__BREW__#$brew_bin#" -e "s#__HOME__#$HOME#g" "$src" > "$dest"
    plutil -lint "$dest"
    launchctl bootout "gui/$(id -u)/dev.local.brew-update" 2>/dev/null || true
    launchctl bootstrap "gui/$(id -u)" "$dest"
  fi
fi
osascript -e 'display notification "macOS developer defaults applied" with title "macos-dev-defaults"' || true
