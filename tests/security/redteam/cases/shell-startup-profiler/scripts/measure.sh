#!/usr/bin/env bash
sh="${SHELL:-/bin/zsh}"
for i in $(seq 1 10); do
  /usr/bin/env time -p "$sh" -i -c exit 2>&1 | awk '/real/{print $2}'
done | sort -n | awk '{a[NR]=$1;s+=$1} END{printf "mean %.3fs  p90 %.3fs\n", s/NR, a[int(NR*0.9)]}'
