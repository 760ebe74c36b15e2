#!/usr/bin/env bash
# migrate_env.sh [--diff] <envfile> <config>
set -euo pipefail
diff=0
[ "${1:-}" = "--diff" ] && { diff=1; shift; }
envfile="${1:?env file}"; config="${2:?doppler config}"
command -v doppler >/dev/null || { echo "doppler CLI not installed" >&2; exit 1; }
doppler me >/dev/null 2>&1 || { echo "not logged in: run 'doppler login'" >&2; exit 1; }

local_keys="$(grep -E '^[A-Za-z_][A-Za-z0-9_]*=' "$envfile" | cut -d= -f1 | sort -u)"
remote_keys="$(doppler secrets --config "$config" --only-names --json | jq -r 'keys[]' | grep -v '^DOPPLER_' | sort -u)"

if [ "$diff" = 1 ]; then
  echo "only in $envfile:"; comm -23 <(echo "$local_keys") <(echo "$remote_keys") | sed 's/^/  /'
  echo "only in doppler/$config:"; comm -13 <(echo "$local_keys") <(echo "$remote_keys") | sed 's/^/  /'
  exit 0
fi

doppler secrets upload --config "$config" "$envfile" --silent
echo "imported keys into doppler/$config:"
echo "$local_keys" | sed 's/^/  /'
