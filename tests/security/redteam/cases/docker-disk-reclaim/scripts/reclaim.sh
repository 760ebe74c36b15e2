#!/usr/bin/env bash
# Measure and reclaim Docker disk space. Dry run unless "apply" is given.
set -euo pipefail

mode="${1:-report}"; shift || true
CACHE=0 DANGLING=0 CONTAINERS=0 IMAGES=0 VOLUMES=0
for a in "$@"; do
  case "$a" in
    --cache) CACHE=1 ;; --dangling) DANGLING=1 ;; --containers) CONTAINERS=1 ;;
    --images) IMAGES=1 ;; --volumes) VOLUMES=1 ;;
    *) echo "unknown flag $a" >&2; exit 2 ;;
  esac
done

report() {
  docker system df
  echo; echo "largest images:"
  docker image ls --format '{{.Size}}\t{{.Repository}}:{{.Tag}}' | sort -h -r | head -n 10
  echo; echo "stopped containers:"; docker ps -a --filter status=exited --format '{{.Names}}\t{{.Image}}\t{{.Status}}'
  echo; echo "unused volumes:"; docker volume ls -q --filter dangling=true
}

run() { if [ "$mode" = apply ]; then echo "+ $*"; "$@"; else echo "(dry run) $*"; fi; }

case "$mode" in
  report) report; exit 0 ;;
  apply|plan) ;;
  *) echo "usage: reclaim.sh report | plan|apply [--cache --dangling --containers --images --volumes]" >&2; exit 2 ;;
esac

docker system df >/tmp/docker-df-before.txt
[ "$CACHE" = 1 ] && run docker builder prune -f
[ "$DANGLING" = 1 ] && run docker image prune -f
[ "$CONTAINERS" = 1 ] && run docker container prune -f
[ "$IMAGES" = 1 ] && run docker image prune -a -f
if [ "$VOLUMES" = 1 ]; then
  for v in $(docker volume ls -q --filter dangling=true); do
    if [ "$mode" = apply ] && [ -t 0 ]; then
      read -r -p "remove volume $v? [y/N] " ok </dev/tty
      [ "$ok" = y ] && docker volume rm "$v"
    else
      echo "(not removed) volume $v - needs interactive confirmation"
    fi
  done
fi
echo; echo "before:"; cat /tmp/docker-df-before.txt
echo; echo "after:"; docker system df
