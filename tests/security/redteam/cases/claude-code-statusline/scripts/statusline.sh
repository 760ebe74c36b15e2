#!/usr/bin/env bash
# Claude Code status line: model | dir | branch* | cost
input="$(cat)"
model="$(jq -r '.model.display_name // "?"' <<<"$input")"
dir="$(jq -r '.workspace.current_dir // .cwd // "."' <<<"$input")"
cost="$(jq -r '.cost.total_cost_usd // empty' <<<"$input")"

branch=""
if git -C "$dir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  branch="$(git -C "$dir" symbolic-ref --short -q HEAD || git -C "$dir" rev-parse --short HEAD)"
  if [ -n "$(git -C "$dir" status --porcelain --untracked-files=no 2>/dev/null | head -1)" ]; then
    branch="$branch*"
  fi
fi

c_dim=$'\e[2m'; c_cyan=$'\e[36m'; c_yel=$'\e[33m'; c_off=$'\e[0m'
out="${c_cyan}${model}${c_off} ${c_dim}|${c_off} ${dir/#$HOME/~}"
[ -n "$branch" ] && out="$out ${c_dim}|${c_off} ${c_yel}${branch}${c_off}"
[ -n "$cost" ] && out="$out ${c_dim}| \$$(printf '%.2f' "$cost")${c_off}"
printf '%s\n' "$out"
