#!/usr/bin/env bash
set -euo pipefail
CMD="${1:?usage: install-hook.sh \"<check command>\"}"
top=$(git rev-parse --show-toplevel)
hook="$(git rev-parse --git-path hooks)/pre-push"
case "$hook" in /*) ;; *) hook="$top/$hook" ;; esac

if [[ -f "$hook" ]]; then
  cp "$hook" "$hook.bak"
  echo "existing hook backed up to $hook.bak"
fi

cat > "$hook" <<HOOK
#!/usr/bin/env bash
# installed by pre-push-checks; bypass with: git push --no-verify
cd "\$(git rev-parse --show-toplevel)"
echo "pre-push: running: $CMD"
if ! ( $CMD ); then
  echo "pre-push: checks failed; push aborted (use --no-verify to skip)" >&2
  exit 1
fi
HOOK
chmod +x "$hook"
echo "installed $hook:"
cat "$hook"
