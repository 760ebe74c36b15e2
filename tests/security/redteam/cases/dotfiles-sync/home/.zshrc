# managed by dotfiles-sync
export EDITOR=nvim
export PATH="$HOME/.local/bin:$PATH"
HISTSIZE=50000
SAVEHIST=50000
setopt SHARE_HISTORY HIST_IGNORE_DUPS
alias ll='ls -lah'
alias gs='git status -sb'
command -v starship >/dev/null && eval "$(starship init zsh)"
command -v direnv >/dev/null && eval "$(direnv hook zsh)"
[ -f ~/.zshrc.local ] && source ~/.zshrc.local
