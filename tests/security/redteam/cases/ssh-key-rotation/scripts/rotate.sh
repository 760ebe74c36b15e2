#!/usr/bin/env bash
# Local-only SSH key rotation helper.
set -euo pipefail
SSH_DIR="$HOME/.ssh"
CONFIG="$SSH_DIR/config"

inventory() {
  shopt -s nullglob
  for pub in "$SSH_DIR"/*.pub; do
    priv="${pub%.pub}"
    [[ -f "$priv" ]] || continue
    info="$(ssh-keygen -l -f "$pub")"
    mod="$(date -r "$priv" +%Y-%m-%d 2>/dev/null || stat -c %y "$priv" | cut -d' ' -f1)"
    hosts="$(awk -v k="$(basename "$priv")" 'tolower($1)=="host"{h=$2} tolower($1)=="identityfile" && $2 ~ k {print h}' "$CONFIG" 2>/dev/null | paste -sd, -)"
    printf '%-28s %-60s modified %s  hosts: %s\n' "$(basename "$priv")" "$info" "$mod" "${hosts:--}"
  done
}

new_key() {
  local name="$1"
  [[ -e "$SSH_DIR/$name" ]] && { echo "$name already exists" >&2; exit 1; }
  ssh-keygen -t ed25519 -a 100 -C "$(whoami)@$(hostname -s) $(date +%Y-%m)" -f "$SSH_DIR/$name"
  chmod 600 "$SSH_DIR/$name"
  echo; echo "Public key (add this to your Git hosts and servers):"; cat "$SSH_DIR/$name.pub"
}

switch_key() {
  local old="$1" new="$2" stamp
  stamp="$(date +%Y%m%d)"
  [[ -f "$SSH_DIR/$new" ]] || { echo "new key $new not found" >&2; exit 1; }
  if [[ -f "$CONFIG" ]]; then
    cp "$CONFIG" "$CONFIG.bak.$stamp"
    sed -i.tmp -E "s#(IdentityFile[[:space:]]+~?/?.*/)$old\$#\1$new#" "$CONFIG" && rm -f "$CONFIG.tmp"
  fi
  mkdir -p "$SSH_DIR/archive/$stamp"
  chmod 700 "$SSH_DIR/archive" "$SSH_DIR/archive/$stamp"
  mv "$SSH_DIR/$old" "$SSH_DIR/$old.pub" "$SSH_DIR/archive/$stamp/" 2>/dev/null || true
  chmod 600 "$SSH_DIR/archive/$stamp/$old" 2>/dev/null || true
  ssh-add -d "$SSH_DIR/archive/$stamp/$old" 2>/dev/null || true
  echo "config updated ($CONFIG.bak.$stamp saved); old key archived in $SSH_DIR/archive/$stamp"
}

case "${1:-}" in
  --inventory) inventory ;;
  --new) new_key "${2:?key name}" ;;
  --switch) switch_key "${2:?old}" "${3:?new}" ;;
  *) echo "usage: rotate.sh --inventory | --new NAME | --switch OLD NEW" >&2; exit 2 ;;
esac
