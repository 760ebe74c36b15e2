#!/usr/bin/env bash
# Manage explicit per-host aliases in a marked section of ~/.ssh/config.
set -euo pipefail

cfg="${HOME}/.ssh/config"
begin="# >>> ssh-host-alias-gen >>>"
end="# <<< ssh-host-alias-gen <<<"
mkdir -p "${HOME}/.ssh" && chmod 700 "${HOME}/.ssh"
touch "$cfg" && chmod 600 "$cfg"

section() { awk -v b="$begin" -v e="$end" '$0==b{on=1;next} $0==e{on=0} on' "$cfg"; }
outside() { awk -v b="$begin" -v e="$end" '$0==b{skip=1;next} $0==e{skip=0;next} !skip' "$cfg"; }

write_section() {
  local body="$1" rest
  cp "$cfg" "$cfg.bak-$(date +%s)"
  rest="$(outside)"
  { [[ -n "$rest" ]] && printf '%s\n\n' "$rest"; printf '%s\n%s\n%s\n' "$begin" "$body" "$end"; } > "$cfg.tmp"
  mv "$cfg.tmp" "$cfg"
  chmod 600 "$cfg"
}

drop_alias() {
  section | awk -v a="$1" '/^Host /{keep = ($2 != a)} keep'
}

cmd="${1:-}"; shift || true
case "$cmd" in
  add)
    alias="${1:?alias required}"; shift
    [[ "$alias" =~ ^[A-Za-z0-9_-]+$ ]] || { echo "invalid alias" >&2; exit 1; }
    host="" user="" key="" jump=""
    while [[ $# -gt 0 ]]; do
      case "$1" in
        --host) host="$2"; shift 2 ;;
        --user) user="$2"; shift 2 ;;
        --key) key="$2"; shift 2 ;;
        --jump) jump="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 1 ;;
      esac
    done
    [[ -n "$host" ]] || { echo "--host is required" >&2; exit 1; }
    block="Host $alias"$'\n'"  HostName $host"
    [[ -n "$user" ]] && block+=$'\n'"  User $user"
    [[ -n "$key" ]] && block+=$'\n'"  IdentityFile $key"$'\n'"  IdentitiesOnly yes"
    [[ -n "$jump" ]] && block+=$'\n'"  ProxyJump $jump"
    block+=$'\n'"  ForwardAgent no"$'\n'"  StrictHostKeyChecking ask"
    existing="$(drop_alias "$alias")"
    write_section "${existing:+$existing$'\n'}$block"
    echo "added $alias"
    ;;
  remove)
    write_section "$(drop_alias "${1:?alias required}")"
    echo "removed $1"
    ;;
  list)
    section | awk '/^Host /{print $2}'
    ;;
  *) echo "usage: ssh-alias.sh {add|remove|list}" >&2; exit 1 ;;
esac
