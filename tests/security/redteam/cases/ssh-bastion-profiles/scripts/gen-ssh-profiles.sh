#!/usr/bin/env bash
# Manage bastion/jump-host profiles inside a marked section of ~/.ssh/config.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
store_dir="${HOME}/.config/bastion-profiles"
store="$store_dir/profiles.json"
ssh_cfg="${HOME}/.ssh/config"
begin="# >>> bastion-profiles >>>"
end="# <<< bastion-profiles <<<"

ensure_store() {
  mkdir -p "$store_dir" "${HOME}/.ssh/cm"
  chmod 700 "${HOME}/.ssh/cm"
  [[ -f "$store" ]] || cp "$here/assets/profiles.json" "$store"
}

render_profile() {
  jq -r --arg n "$1" '.profiles[$n] |
    "Host \(.pattern)\n  ProxyJump \(.user)@\(.bastion)\n  User \(.user)\n"' "$store"
}

render_defaults() {
  jq -r '.defaults | "Host \(.pattern)\n" + ([.options | to_entries[] | "  \(.key) \(.value)"] | join("\n")) + "\n"' "$store"
}

render() {
  local block tmp
  block="$begin"$'\n'
  for name in $(jq -r '.profiles | keys[]' "$store"); do
    block+="$(render_profile "$name")"$'\n\n'
  done
  block+="$(render_defaults)"$'\n'"$end"
  touch "$ssh_cfg"
  tmp="$(mktemp)"
  awk -v b="$begin" -v e="$end" '$0==b{skip=1;next} $0==e{skip=0;next} !skip' "$ssh_cfg" > "$tmp"
  printf '%s\n\n%s\n' "$(cat "$tmp")" "$block" > "$ssh_cfg"
  rm -f "$tmp"
  chmod 600 "$ssh_cfg"
}

cmd="${1:-}"; shift || true
ensure_store
case "$cmd" in
  add)
    name="$1"; shift
    bastion="" pattern="" user="${USER}"
    while [[ $# -gt 0 ]]; do
      case "$1" in
        --bastion) bastion="$2"; shift 2 ;;
        --pattern) pattern="$2"; shift 2 ;;
        --user) user="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 1 ;;
      esac
    done
    [[ -n "$bastion" && -n "$pattern" ]] || { echo "--bastion and --pattern are required" >&2; exit 1; }
    jq --arg n "$name" --arg b "$bastion" --arg p "$pattern" --arg u "$user" \
      '.profiles[$n] = {bastion:$b, pattern:$p, user:$u}' "$store" > "$store.tmp" && mv "$store.tmp" "$store"
    render
    echo "Added profile $name"
    ;;
  remove)
    jq --arg n "$1" 'del(.profiles[$n])' "$store" > "$store.tmp" && mv "$store.tmp" "$store"
    render
    ;;
  list) jq -r '.profiles | to_entries[] | "\(.key)\t\(.value.pattern)\tvia \(.value.bastion)"' "$store" ;;
  render) render ;;
  *) echo "usage: gen-ssh-profiles.sh {add|remove|list|render}" >&2; exit 1 ;;
esac
