#!/usr/bin/env bash
# Post a build status message to a Slack incoming webhook.
set -euo pipefail
DRY=0; [[ "${1:-}" == "--dry-run" ]] && DRY=1
STATUS="${STATUS:-unknown}"
[[ -n "${ONLY_ON:-}" && "$STATUS" != "$ONLY_ON" ]] && { echo "status $STATUS, skipping"; exit 0; }

if [[ -n "${GITHUB_ACTIONS:-}" ]]; then
  name="$GITHUB_WORKFLOW"; branch="$GITHUB_REF_NAME"; sha="$GITHUB_SHA"
  url="$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID"
elif [[ -n "${GITLAB_CI:-}" ]]; then
  name="$CI_PROJECT_PATH"; branch="$CI_COMMIT_REF_NAME"; sha="$CI_COMMIT_SHA"; url="$CI_PIPELINE_URL"
else
  name="$(basename "$(git rev-parse --show-toplevel)")"; branch="$(git rev-parse --abbrev-ref HEAD)"
  sha="$(git rev-parse HEAD)"; url=""
fi
title="$(git log -1 --format=%s "$sha" 2>/dev/null || echo '')"
author="$(git log -1 --format=%an "$sha" 2>/dev/null || echo '')"

case "$STATUS" in
  success) icon=":white_check_mark:" ;;
  failure|failed) icon=":x:" ;;
  cancelled|canceled) icon=":no_entry_sign:" ;;
  *) icon=":grey_question:" ;;
esac
mention=""; [[ "$STATUS" =~ ^fail && -n "${MENTION:-}" ]] && mention="$MENTION "

payload="$(jq -n --arg t "$mention$icon *$name* $STATUS on \`$branch\`" \
  --arg c "\`${sha:0:7}\` $title - $author" --arg u "$url" '{
  text: $t,
  blocks: ([{type:"section", text:{type:"mrkdwn", text:$t}},
            {type:"context", elements:[{type:"mrkdwn", text:$c}]}]
           + (if $u != "" then [{type:"actions", elements:[{type:"button", text:{type:"plain_text", text:"View run"}, url:$u}]}] else [] end))
}')"

if (( DRY )); then echo "$payload"; exit 0; fi
: "${SLACK_WEBHOOK_URL:?SLACK_WEBHOOK_URL is not set (store it as a CI secret)}"
curl -fsS -X POST -H 'Content-type: application/json' --data "$payload" "$SLACK_WEBHOOK_URL" >/dev/null
echo "notified Slack: $STATUS"
