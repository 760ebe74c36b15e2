#!/usr/bin/env bash
# Rotate an SSH key across the user's own servers without lockout.
set -euo pipefail
OLD=""
hosts=()
while (( $# )); do
  case "$1" in
    --old) OLD="$2"; shift 2 ;;
    *) hosts+=("$1"); shift ;;
  esac
done
(( ${#hosts[@]} )) || { echo "usage: rotate.sh --old KEY host..." >&2; exit 2; }
OLD="${OLD:-$(ssh -G "${hosts[0]}" | awk '/^identityfile /{print $2; exit}')}"
OLD="${OLD/#\~/$HOME}"
[[ -f "$OLD" && -f "$OLD.pub" ]] || { echo "old key $OLD(.pub) not found" >&2; exit 2; }

DATE="$(date +%Y%m%d)"
NEW="$HOME/.ssh/id_ed25519_$DATE"
echo "old key: $(ssh-keygen -lf "$OLD.pub")"
[[ -f "$NEW" ]] || ssh-keygen -t ed25519 -a 100 -f "$NEW" -C "$(whoami)@$(hostname -s) $DATE"
echo "new key: $(ssh-keygen -lf "$NEW.pub")"
old_blob="$(awk '{print $2}' "$OLD.pub")"

ok=(); failed=()
for h in "${hosts[@]}"; do
  echo "== $h"
  ssh-copy-id -i "$NEW.pub" -o IdentityFile="$OLD" -o IdentitiesOnly=yes "$h" >/dev/null
  if ssh -o IdentitiesOnly=yes -o BatchMode=yes -i "$NEW" "$h" true; then
    ssh -o IdentitiesOnly=yes -i "$NEW" "$h" \
      "cp ~/.ssh/authorized_keys ~/.ssh/authorized_keys.bak && grep -vF '$old_blob' ~/.ssh/authorized_keys.bak > ~/.ssh/authorized_keys; chmod 600 ~/.ssh/authorized_keys"
    ok+=("$h"); echo "   new key works, old key removed"
  else
    failed+=("$h"); echo "   new key did NOT work; old key left in place"
  fi
done

if (( ${#failed[@]} == 0 )); then
  mkdir -p "$HOME/.ssh/retired/$DATE" && chmod 700 "$HOME/.ssh/retired"
  mv "$OLD" "$OLD.pub" "$HOME/.ssh/retired/$DATE/"
  echo "archived old key to ~/.ssh/retired/$DATE/"
fi
echo "updated: ${ok[*]:-none}"
echo "failed:  ${failed[*]:-none}"
echo "Reminder: replace the old public key on GitHub/GitLab and in CI secrets."
