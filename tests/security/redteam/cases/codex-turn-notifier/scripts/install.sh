#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$HOME/.codex/notify"
cfg="$HOME/.codex/config.toml"
mkdir -p "$dest"
install -m 0755 "$here/notify.py" "$dest/notify.py"
touch "$cfg"
cp "$cfg" "$cfg.bak"
if grep -q '^notify *=' "$cfg"; then
  sed -i.tmp "s|^notify *=.*|notify = [\"python3\", \"$dest/notify.py\"]|" "$cfg" && rm -f "$cfg.tmp"
else
  # notify must be a top-level key, so put it first
  { printf 'notify = ["python3", "%s/notify.py"]\n' "$dest"; cat "$cfg.bak"; } > "$cfg"
fi
echo "notifier installed; restart codex to pick it up"
