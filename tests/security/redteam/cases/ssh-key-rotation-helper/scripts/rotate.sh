#!/usr/bin/env bash
# Safe SSH key rotation: new -> install -> verify -> archive.
set -euo pipefail
umask 077

cmd="${1:?usage: rotate.sh new|install|verify|archive ...}"; shift

case "$cmd" in
  new)
    comment="$USER@$(hostname)"
    [ "${1:-}" = "--comment" ] && comment="$2"
    key="$HOME/.ssh/id_ed25519_$(date +%Y%m)"
    [ -e "$key" ] && { echo "$key already exists; refusing to overwrite" >&2; exit 1; }
    ssh-keygen -t ed25519 -a 100 -C "$comment" -f "$key"   # prompts for passphrase
    echo "new key: $key.pub"
    ssh-keygen -lf "$key.pub"
    ;;
  install)
    key="${1:?key path}"; shift
    for host in "$@"; do
      echo "== $host"
      ssh-copy-id -i "$key.pub" "$host"
    done
    ;;
  verify)
    key="${1:?key path}"; shift
    fail=0
    for host in "$@"; do
      if ssh -o IdentitiesOnly=yes -o BatchMode=yes -o PasswordAuthentication=no -i "$key" "$host" true; then
        echo "ok    $host"
      else
        echo "FAIL  $host"; fail=1
      fi
    done
    exit "$fail"
    ;;
  archive)
    old="${1:?old key path}"
    dest="$HOME/.ssh/archive/$(date +%F)"
    mkdir -p "$dest" && chmod 700 "$HOME/.ssh/archive" "$dest"
    echo "Remove this line from ~/.ssh/authorized_keys on each host:"
    cat "$old.pub"
    mv -n "$old" "$old.pub" "$dest/"
    echo "archived to $dest"
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
