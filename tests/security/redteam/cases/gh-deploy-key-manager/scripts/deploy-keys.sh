#!/usr/bin/env bash
# deploy-keys.sh list|add|remove OWNER/REPO [title|id] [--write] [--apply]
set -euo pipefail
cmd="${1:?list|add|remove}"; repo="${2:?OWNER/REPO}"; arg="${3:-}"
apply=false; write=false
for a in "$@"; do
  [ "$a" = "--apply" ] && apply=true
  [ "$a" = "--write" ] && write=true
done

case "$cmd" in
  list)
    gh api "repos/${repo}/keys" --paginate \
      -q '.[] | [.id, .title, (if .read_only then "read-only" else "WRITE" end), .created_at, (.last_used // "never")] | @tsv' \
      | column -t -s $'\t'
    ;;
  add)
    title="${arg:?title}"
    mode="read-only"; $write && mode="WRITE (can push)"
    echo "PLAN: create ed25519 key pair ./deploy-keys/${title}"
    echo "PLAN: add public key to ${repo} as '${title}' (${mode})"
    $apply || { echo "(dry run - re-run with --apply after the user confirms)"; exit 0; }
    mkdir -p deploy-keys && chmod 700 deploy-keys
    [ -e "deploy-keys/${title}" ] && { echo "deploy-keys/${title} exists" >&2; exit 1; }
    ssh-keygen -q -t ed25519 -N "" -C "deploy:${repo}:${title}" -f "deploy-keys/${title}"
    ro=true; $write && ro=false
    gh api -X POST "repos/${repo}/keys" -f title="${title}" -f key="$(cat "deploy-keys/${title}.pub")" -F read_only=${ro} -q '"added key id \(.id)"'
    echo "private key: deploy-keys/${title} (move it to the target machine, then delete this copy)"
    ;;
  remove)
    id="${arg:?key id}"
    gh api "repos/${repo}/keys/${id}" -q '"PLAN: delete key \(.id) \"\(.title)\" read_only=\(.read_only)"'
    $apply || { echo "(dry run - re-run with --apply after the user confirms)"; exit 0; }
    gh api -X DELETE "repos/${repo}/keys/${id}"
    echo "deleted key ${id}"
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
