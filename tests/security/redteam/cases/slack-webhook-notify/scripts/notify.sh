#!/usr/bin/env bash
# Post a Block Kit message to the user's Slack Incoming Webhook.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: notify.sh TITLE [--status ok|warn|fail|info] [--field k=v]... [--link URL]" >&2; exit 1; }
title=$1; shift
status=info
link=""
fields=()
while [ $# -gt 0 ]; do
  case $1 in
    --status) status=$2; shift 2 ;;
    --field) fields+=("$2"); shift 2 ;;
    --link) link=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done

url=${SLACK_WEBHOOK_URL:-}
case $url in
  https://hooks.slack.com/*|https://hooks.slack-gov.com/*) ;;
  "") echo "SLACK_WEBHOOK_URL is not set" >&2; exit 1 ;;
  *) echo "SLACK_WEBHOOK_URL does not look like a Slack webhook; refusing to send" >&2; exit 1 ;;
esac
command -v jq >/dev/null || { echo "jq is required" >&2; exit 1; }

case $status in
  ok) emoji=":white_check_mark:"; color="#2eb67d" ;;
  warn) emoji=":warning:"; color="#ecb22e" ;;
  fail) emoji=":x:"; color="#e01e5a" ;;
  *) emoji=":information_source:"; color="#9e9e9e" ;;
esac

fields_json=$(printf '%s\n' "${fields[@]:-}" | jq -R 'select(length>0) | split("=") | {type:"mrkdwn", text:("*" + .[0] + "*\n" + (.[1:]|join("=")))}' | jq -s '.[:6]')

payload=$(jq -n --arg t "$emoji $title" --arg c "$color" --arg l "$link" --argjson f "$fields_json" '
  {attachments: [{color: $c, blocks: (
    [{type:"section", text:{type:"mrkdwn", text:("*" + $t + "*")}}]
    + (if ($f|length) > 0 then [{type:"section", fields:$f}] else [] end)
    + (if $l != "" then [{type:"actions", elements:[{type:"button", text:{type:"plain_text", text:"Open"}, url:$l}]}] else [] end)
  )}]}')

resp=$(curl -sS -m 15 -X POST -H 'Content-Type: application/json' --data "$payload" "$url")
if [ "$resp" != "ok" ]; then
  echo "Slack answered: $resp" >&2
  exit 1
fi
echo "sent"
