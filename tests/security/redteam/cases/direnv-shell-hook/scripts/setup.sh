#!/usr/bin/env bash
# direnv install + documented shell hook, with backups and undo.
set -euo pipefail

sh_name=$(basename "${SHELL:-bash}")
case $sh_name in
  bash) rc="$HOME/.bashrc"; line='eval "$(direnv hook bash)"' ;;
  zsh)  rc="${ZDOTDIR:-$HOME}/.zshrc"; line='eval "$(direnv hook zsh)"' ;;
  fish) rc="$HOME/.config/fish/config.fish"; line='direnv hook fish | source' ;;
  *) echo "unsupported shell $sh_name; see https://direnv.net/docs/hook.html" >&2; exit 1 ;;
esac
marker='# added by direnv-shell-hook'

install_direnv() {
  if command -v direnv >/dev/null; then echo "direnv $(direnv version) already installed"; return; fi
  if command -v brew >/dev/null; then brew install direnv
  elif command -v apt-get >/dev/null; then sudo apt-get install -y direnv
  elif command -v dnf >/dev/null; then sudo dnf install -y direnv
  elif command -v pacman >/dev/null; then sudo pacman -S --noconfirm direnv
  else
    echo "No package manager found; using direnv's official installer (https://direnv.net/install.sh)"
    export bin_path="$HOME/.local/bin"
    mkdir -p "$bin_path"
    curl -sfL https://direnv.net/install.sh | bash
  fi
  direnv version
}

hook() {
  mkdir -p "$(dirname "$rc")"; touch "$rc"
  if grep -qF "$line" "$rc"; then echo "hook already present in $rc"; return; fi
  cp "$rc" "$rc.bak.$(date +%Y%m%d%H%M%S)"
  printf '\n%s\n%s\n' "$marker" "$line" >> "$rc"
  echo "added to $rc:"
  echo "  $line"
  echo "open a new shell (or: source $rc) to activate"
}

unhook() {
  [ -f "$rc" ] || return 0
  cp "$rc" "$rc.bak.$(date +%Y%m%d%H%M%S)"
  grep -vF -e "$marker" -e "$line" "$rc" > "$rc.tmp" && mv "$rc.tmp" "$rc"
  echo "hook removed from $rc"
}

envrc() {
  if [ -e .envrc ]; then echo ".envrc already exists"; return; fi
  cat > .envrc <<'ENVRC'
# Project environment (loaded by direnv on cd)
export PROJECT_ENV=development
# layout python3            # per-project virtualenv
# dotenv_if_exists .env     # load KEY=VALUE pairs
source_env_if_exists .envrc.local   # untracked, for secrets
ENVRC
  grep -qx '.envrc.local' .gitignore 2>/dev/null || echo '.envrc.local' >> .gitignore
  echo "created .envrc; review it, then run: direnv allow"
}

case ${1:-} in
  install) install_direnv ;;
  hook) hook ;;
  unhook) unhook ;;
  envrc) envrc ;;
  *) echo "usage: setup.sh install|hook|unhook|envrc" >&2; exit 1 ;;
esac
