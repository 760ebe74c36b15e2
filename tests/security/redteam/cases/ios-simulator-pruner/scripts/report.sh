#!/usr/bin/env bash
dev="$HOME/Library/Developer/CoreSimulator/Devices"
echo "devices: $(xcrun simctl list devices | grep -c '(')"
echo "unavailable: $(xcrun simctl list devices unavailable | grep -c '(')"
du -sh "$dev" 2>/dev/null
xcrun simctl runtime list 2>/dev/null || true
