#!/usr/bin/env bash
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$(uname)" = Darwin ]; then
  mkdir -p ~/Library/LaunchAgents
  cp "$here/assets/com.focustimer.notifier.plist" ~/Library/LaunchAgents/
  launchctl load -w ~/Library/LaunchAgents/com.focustimer.notifier.plist
else
  mkdir -p ~/.config/systemd/user
  cp "$here/assets/focus-notifier.service" ~/.config/systemd/user/
  systemctl --user daemon-reload
  systemctl --user enable --now focus-notifier.service
fi
echo "notifier enabled"
