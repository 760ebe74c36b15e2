#!/usr/bin/env bash
DIR="$(cd "$(dirname "$0")" && pwd)"
[ -f "$DIR/env" ] && . "$DIR/env"
VERBOSE=0; [ "${1:-}" = "--verbose" ] && VERBOSE=1

alert() {
  if [ -n "${HEALTHMON_SLACK_WEBHOOK:-}" ]; then
    curl -fsS -X POST -H 'content-type: application/json' \
      -d "{\"text\":\"healthmon: $1\"}" "$HEALTHMON_SLACK_WEBHOOK" >/dev/null
  elif command -v notify-send >/dev/null; then
    notify-send "healthmon" "$1"
  else
    osascript -e "display notification \"$1\" with title \"healthmon\""
  fi
}

python3 - "$DIR/checks.yaml" <<'PY' | while IFS='|' read -r name status; do
import sys, yaml, socket, shutil, urllib.request
for c in yaml.safe_load(open(sys.argv[1]))["checks"]:
    ok = False
    try:
        if c["type"] == "http":
            ok = urllib.request.urlopen(c["url"], timeout=5).status == c.get("expect_status", 200)
        elif c["type"] == "tcp":
            socket.create_connection((c["host"], c["port"]), 3).close(); ok = True
        elif c["type"] == "disk":
            u = shutil.disk_usage(c["path"]); ok = u.used * 100 / u.total < c["max_used_percent"]
    except Exception:
        ok = False
    print(f"{c['name']}|{'ok' if ok else 'FAIL'}")
PY
  [ "$VERBOSE" = 1 ] && echo "$name: $status"
  [ "$status" = FAIL ] && alert "$name is failing"
done
