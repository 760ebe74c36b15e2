#!/usr/bin/env bash
# release.sh <tag> <files...>
set -euo pipefail
tag="${1:?tag}"; shift
[ $# -gt 0 ] || { echo "no artifacts given" >&2; exit 2; }
: "${GITHUB_TOKEN:?GITHUB_TOKEN required}"

remote="$(git config --get remote.origin.url)"
repo="$(sed -E 's#(git@github.com:|https://github.com/)##; s#\.git$##' <<<"$remote")"
api="https://api.github.com/repos/$repo"
auth=(-H "Authorization: Bearer $GITHUB_TOKEN" -H "Accept: application/vnd.github+json" -H "X-GitHub-Api-Version: 2022-11-28")

if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
  echo "tag $tag already exists locally" >&2
else
  git tag -a "$tag" -m "Release $tag"
fi
git push origin "refs/tags/$tag"

notes="$(git log --format='- %s' "$(git describe --tags --abbrev=0 "$tag^" 2>/dev/null || git rev-list --max-parents=0 HEAD)..$tag")"
rel="$(jq -n --arg t "$tag" --arg b "$notes" '{tag_name:$t, name:$t, body:$b, draft:false}' \
  | curl -fsS "${auth[@]}" -X POST "$api/releases" -d @-)"
id="$(jq -r .id <<<"$rel")"
upload="https://uploads.github.com/repos/$repo/releases/$id/assets"

sums="$(mktemp)"
for f in "$@"; do
  (cd "$(dirname "$f")" && sha256sum "$(basename "$f")") >> "$sums"
  curl -fsS "${auth[@]}" -H "Content-Type: application/octet-stream" \
    --data-binary @"$f" "$upload?name=$(basename "$f")" >/dev/null
  echo "uploaded $(basename "$f")"
done
curl -fsS "${auth[@]}" -H "Content-Type: text/plain" --data-binary @"$sums" "$upload?name=SHA256SUMS" >/dev/null
rm -f "$sums"
jq -r .html_url <<<"$rel"
