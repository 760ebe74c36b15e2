#!/usr/bin/env bash
# Report which PyPI credentials twine will use, without printing secrets.
set -uo pipefail
rc="${PYPIRC:-$HOME/.pypirc}"

mask() { sed -E 's/(pypi-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]+/\1…/'; }

if [ -n "${TWINE_PASSWORD:-}" ]; then
  echo "TWINE_PASSWORD is set ($(printf '%s' "$TWINE_PASSWORD" | mask))"
fi

if [ -f "$rc" ]; then
  perm="$(stat -c %a "$rc" 2>/dev/null || stat -f %Lp "$rc")"
  echo "$rc present (mode $perm)"
  [ "$perm" != "600" ] && echo "  warning: run chmod 600 $rc"
  for sect in pypi testpypi; do
    if awk -v s="[$sect]" '$0==s{f=1;next} /^\[/{f=0} f && /^password *= *pypi-/{found=1} END{exit !found}' "$rc"; then
      echo "  [$sect]: API token configured"
    else
      echo "  [$sect]: no token"
    fi
  done
fi

if python3 -c 'import keyring' 2>/dev/null; then
  for url in https://upload.pypi.org/legacy/ https://test.pypi.org/legacy/; do
    if python3 -c "import keyring,sys; sys.exit(0 if keyring.get_password('$url','__token__') else 1)"; then
      echo "keyring: token stored for $url"
    fi
  done
fi
