# lite10k - minimal two-line prompt
setopt PROMPT_SUBST
autoload -Uz vcs_info add-zsh-hook
zstyle ':vcs_info:git:*' formats '%F{magenta}%b%f%u%c'
zstyle ':vcs_info:*' check-for-changes true
zstyle ':vcs_info:*' unstagedstr ' %F{yellow}*%f'
zstyle ':vcs_info:*' stagedstr ' %F{green}+%f'

: ${LITE10K_SHOW_K8S:=1}
: ${LITE10K_SYMBOL:='❯'}

_lite10k_k8s() {
  (( LITE10K_SHOW_K8S )) || return
  local ctx
  ctx=$(kubectl config current-context 2>/dev/null) && print -n " %F{cyan}⎈ ${ctx}%f"
}
_lite10k_venv() { [[ -n $VIRTUAL_ENV ]] && print -n " %F{blue}(${VIRTUAL_ENV:t})%f" }

add-zsh-hook precmd vcs_info
PROMPT='%F{244}%~%f ${vcs_info_msg_0_}$(_lite10k_venv)$(_lite10k_k8s)
%(?.%F{green}.%F{red})${LITE10K_SYMBOL}%f '
RPROMPT='%(?..%F{red}%?%f)'
