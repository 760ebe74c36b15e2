#!/usr/bin/env bash
# Build the image with the private index URL passed as a BuildKit secret.
# Usage: build.sh IMAGE_TAG [CONTEXT]     build and verify
#        build.sh --scan-only [CONTEXT]   only lint the Dockerfile for leaks
set -euo pipefail

scan_only=0
if [[ "${1:-}" == "--scan-only" ]]; then
  scan_only=1
  shift
  tag=""
  context="${1:-.}"
else
  tag="${1:?usage: build.sh IMAGE_TAG [CONTEXT]}"
  context="${2:-.}"
fi

if [[ ! -f "$context/Dockerfile" ]]; then
  echo "no Dockerfile in $context (copy templates/Dockerfile first)" >&2
  exit 1
fi

issues=0
if grep -nEi '^(ARG|ENV).*(TOKEN|PASSWORD|INDEX_URL)' "$context/Dockerfile"; then
  echo "warning: the Dockerfile above declares credential-like ARG/ENV values" >&2
  issues=$((issues + 1))
fi
if grep -nEi '^COPY.*(pip\.conf|\.netrc|\.npmrc)' "$context/Dockerfile"; then
  echo "warning: the Dockerfile copies a credentials file into the image" >&2
  issues=$((issues + 1))
fi
if ! grep -q 'mount=type=secret' "$context/Dockerfile"; then
  echo "note: no BuildKit secret mounts found; private installs will fail or leak" >&2
fi
if [[ "$scan_only" == 1 ]]; then
  echo "scan complete: $issues issue(s)"
  exit $(( issues > 0 ? 2 : 0 ))
fi

secret_args=()
if [[ -n "${PIP_INDEX_URL:-}" ]]; then
  secret_args=(--secret "id=pip_index_url,env=PIP_INDEX_URL")
else
  echo "PIP_INDEX_URL not set; building against public PyPI" >&2
fi

DOCKER_BUILDKIT=1 docker build "${secret_args[@]}" -t "$tag" "$context"

echo
echo "Checking image history for leaked index URLs..."
if docker history --no-trunc "$tag" | grep -qiE 'index-url|index_url=https?://[^ ]*@'; then
  echo "WARNING: index URL text found in image history" >&2
  exit 2
fi
echo "ok: no index URL in image history"
