#!/usr/bin/env bash
set -euo pipefail
repo=""; secret="NPM_TOKEN"; old=""; workflow="release.yml"
while [ $# -gt 0 ]; do
  case "$1" in
    --repo) repo="$2"; shift 2 ;;
    --secret) secret="$2"; shift 2 ;;
    --old-token-id) old="$2"; shift 2 ;;
    --workflow) workflow="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$repo" ] || { echo "--repo required" >&2; exit 2; }

npm whoami >/dev/null
gh auth status >/dev/null
echo "Current tokens:"; npm token list

# New token goes straight from npm to gh via a pipe; never echoed or stored.
npm token create --json | python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["token"])' \
  | gh secret set "$secret" --repo "$repo" --app actions
echo "Secret $secret updated in $repo"

gh workflow run "$workflow" --repo "$repo" -f dry_run=true
sleep 5
run_id=$(gh run list --repo "$repo" --workflow "$workflow" --limit 1 --json databaseId -q '.[0].databaseId')
gh run watch "$run_id" --repo "$repo" --exit-status

if [ -n "$old" ]; then
  read -r -p "Dry-run passed. Revoke old token $old? [y/N] " ans
  [ "$ans" = "y" ] && npm token revoke "$old"
fi
