# --- oh-my-zsh (added by oh-my-zsh-setup skill) ---
export ZSH="$HOME/.oh-my-zsh"
ZSH_THEME="robbyrussell"
plugins=(git zsh-autosuggestions)
zstyle ':omz:update' mode reminder   # ask before auto-updating
source "$ZSH/oh-my-zsh.sh"
# --- end oh-my-zsh ---
