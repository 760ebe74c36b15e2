#!/usr/bin/env bash
# print current history-related settings of an interactive bash
bash -ic 'shopt histappend; echo "HISTSIZE=$HISTSIZE HISTFILESIZE=$HISTFILESIZE HISTCONTROL=$HISTCONTROL"; echo "PROMPT_COMMAND=$PROMPT_COMMAND"' 2>/dev/null
grep -n 'bash-history-append' ~/.bashrc 2>/dev/null && echo "(block already present)" || true
