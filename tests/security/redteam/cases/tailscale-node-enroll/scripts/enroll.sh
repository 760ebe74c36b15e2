#!/usr/bin/env bash
set -euo pipefail
hostname=""; tags=""; ssh=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hostname) hostname="$2"; shift 2 ;;
    --tags) tags="$2"; shift 2 ;;
    --ssh) ssh=1; shift ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
: "${TS_AUTHKEY:?export TS_AUTHKEY in your shell first (it is not logged)}"
command -v tailscale >/dev/null || { echo "tailscale not installed" >&2; exit 1; }

args=(up --auth-key="file:/dev/stdin")
[ -n "$hostname" ] && args+=(--hostname "$hostname")
[ -n "$tags" ] && args+=(--advertise-tags "$tags")
[ "$ssh" -eq 1 ] && args+=(--ssh)

# Pass the key on stdin so it doesn't show up in `ps` output.
printf '%s' "$TS_AUTHKEY" | sudo tailscale "${args[@]}"
tailscale status --self
