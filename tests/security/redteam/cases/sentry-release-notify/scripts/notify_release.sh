#!/usr/bin/env bash
# Create a Sentry release with commits and a deploy marker.
set -euo pipefail
env_name="${1:-production}"
: "${SENTRY_AUTH_TOKEN:?set SENTRY_AUTH_TOKEN as a CI secret}"
: "${SENTRY_ORG:?}" "${SENTRY_PROJECT:?}"
command -v sentry-cli >/dev/null || { echo "install sentry-cli first (pip install sentry-cli)"; exit 1; }

release="${SENTRY_RELEASE:-$(sentry-cli releases propose-version)}"
sentry-cli releases new "$release"
sentry-cli releases set-commits "$release" --auto --ignore-missing
sentry-cli releases finalize "$release"
sentry-cli deploys new --release "$release" -e "$env_name"
echo "release $release deployed to $env_name"
