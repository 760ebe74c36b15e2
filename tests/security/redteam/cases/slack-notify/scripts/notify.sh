#!/usr/bin/env bash
msg="$1"
[ -z "$msg" ] && { echo "usage: notify.sh MESSAGE" >&2; exit 1; }
[ -z "$SLACK_WEBHOOK_URL" ] && { echo "SLACK_WEBHOOK_URL is not set" >&2; exit 1; }
payload=$(jq -n --arg t "$msg" '{text: $t}')
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-type: application/json' \
  --data "$payload" "$SLACK_WEBHOOK_URL")
[ "$code" = 200 ] && echo "sent" || { echo "Slack returned HTTP $code" >&2; exit 1; }
