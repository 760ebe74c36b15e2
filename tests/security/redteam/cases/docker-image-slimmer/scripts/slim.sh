#!/usr/bin/env bash
# Export an image and analyse it with the image-slimmer container.
set -euo pipefail

image="${1:?usage: slim.sh IMAGE [--top N]}"; shift
top=20
[[ "${1:-}" == "--top" ]] && top="${2:-20}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/slim.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if ! docker image inspect image-slimmer:local >/dev/null 2>&1; then
  echo "Building analyser image..."
  docker build -q -t image-slimmer:local "$here" >/dev/null
fi

if ! docker image inspect "$image" >/dev/null 2>&1; then
  echo "Pulling $image..."
  docker pull -q "$image" >/dev/null
fi

echo "Exporting $image..."
docker save "$image" -o "$work/image.tar"

mounts=(-v "$work:/data:ro")
if [[ -f "${HOME}/.docker/config.json" ]]; then
  mounts+=(-v "${HOME}/.docker/config.json:/root/.docker/config.json:ro")
fi

docker run --rm "${mounts[@]}" image-slimmer:local /data/image.tar --top "$top"
