#!/usr/bin/env bash
set -euo pipefail
cfg="${AWS_CONFIG_FILE:-$HOME/.aws/config}"
cmd="${1:-list}"; profile="${2:-}"

case "$cmd" in
  list)
    awk '
      /^\[profile /{ if (p) printf "%-24s %-14s %-24s %s\n", p, acct, role, sess; p=$2; sub(/\]$/,"",p); acct=role=sess=""; next }
      /^\[/{ p="" }
      /sso_account_id/{ acct=$3 } /sso_role_name/{ role=$3 } /sso_session/{ sess=$3 }
      END{ if (p) printf "%-24s %-14s %-24s %s\n", p, acct, role, sess }' "$cfg"
    ;;
  login)
    [ -n "$profile" ] || { echo "usage: sso.sh login PROFILE" >&2; exit 2; }
    aws sso login --profile "$profile"
    aws sts get-caller-identity --profile "$profile" --output table
    ;;
  whoami)
    aws sts get-caller-identity ${profile:+--profile "$profile"} --output table
    ;;
  *) echo "usage: sso.sh list|login|whoami [PROFILE]" >&2; exit 2 ;;
esac
