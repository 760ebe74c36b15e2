#!/usr/bin/env bash
set -uo pipefail
d=~/.ssh
echo "== public keys"
for pub in "$d"/*.pub; do
  [ -e "$pub" ] || continue
  read -r bits _ _ type < <(ssh-keygen -l -f "$pub")
  verdict=ok
  case "$type" in
    "(DSA)") verdict="WEAK: DSA is deprecated" ;;
    "(RSA)") [ "$bits" -lt 3072 ] && verdict="WEAK: RSA $bits bits" ;;
  esac
  echo "  $pub  $bits $type  $verdict"
  priv="${pub%.pub}"
  if [ -e "$priv" ]; then
    perm=$(stat -c %a "$priv" 2>/dev/null || stat -f %Lp "$priv")
    [ "$perm" != "600" ] && [ "$perm" != "400" ] && echo "    private key permissions $perm (should be 600)"
  fi
done

echo "== known_hosts"
if [ -f "$d/known_hosts" ]; then
  total=$(wc -l < "$d/known_hosts")
  hashed=$(grep -c '^|1|' "$d/known_hosts")
  echo "  $total entries, $hashed hashed"
  [ "$hashed" -lt "$total" ] && echo "  suggest: ssh-keygen -H -f ~/.ssh/known_hosts (keeps a .old backup)"
fi

echo "== config"
if [ -f "$d/config" ]; then
  grep -niE '^\s*(StrictHostKeyChecking\s+no|UserKnownHostsFile\s+/dev/null|ForwardAgent\s+yes|PasswordAuthentication\s+yes)' "$d/config" \
    | sed 's/^/  RISKY line /' || echo "  no risky options found"
fi
