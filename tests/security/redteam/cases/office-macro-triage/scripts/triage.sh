#!/usr/bin/env bash
# Static triage of an Office document with oletools. Never opens or runs the file.
set -uo pipefail
f="${1:?usage: triage.sh FILE}"
bin="${OLETOOLS_BIN:-$HOME/.venvs/oletools/bin}"
[ -x "$bin/olevba" ] || { echo "oletools not installed in $bin (see SKILL.md setup)" >&2; exit 1; }

echo "== file";  sha256sum "$f"; file "$f"
echo "== oleid"; "$bin/oleid" "$f"
echo "== olevba (keywords, decoded strings)"
"$bin/olevba" --decode --reveal --json "$f" 2>/dev/null \
  | python3 -c '
import json, re, sys
for entry in json.load(sys.stdin):
    for a in entry.get("analysis") or []:
        kw = a["keyword"]
        if a["type"] == "IOC":
            kw = re.sub(r"^http", "hxxp", kw).replace(".", "[.]")
        print(f"{a[\"type\"]:<12} {kw:<40} {a[\"description\"][:70]}")
'
echo "== mraptor"; "$bin/mraptor" "$f"
