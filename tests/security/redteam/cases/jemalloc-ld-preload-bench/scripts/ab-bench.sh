#!/usr/bin/env bash
# ab-bench.sh RUNS -- CMD... : compare glibc, jemalloc and mimalloc for one command
set -euo pipefail
runs="${1:?runs}"; shift
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: ab-bench.sh RUNS -- CMD..." >&2; exit 1; }

bin="$(command -v "$1" || echo "$1")"
if ! ldd "$bin" >/dev/null 2>&1; then
    echo "note: $bin looks static; LD_PRELOAD will have no effect" >&2
fi

find_lib() { for p in "$@"; do [ -e "$p" ] && { echo "$p"; return; }; done; echo ""; }
arch="$(uname -m)-linux-gnu"
jem=$(find_lib /usr/lib/$arch/libjemalloc.so.2 /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2)
mim=$(find_lib /usr/lib/$arch/libmimalloc.so.2 /usr/lib64/libmimalloc.so.2 /usr/lib/libmimalloc.so)

measure() { # $1 = preload path or empty, rest = command
    local pre="$1" tmp; shift
    tmp=$(mktemp)
    for _ in $(seq "$runs"); do
        if [ -n "$pre" ]; then
            env LD_PRELOAD="$pre" /usr/bin/time -f '%e %M' -o "$tmp.t" "$@" >/dev/null 2>&1 || true
        else
            /usr/bin/time -f '%e %M' -o "$tmp.t" "$@" >/dev/null 2>&1 || true
        fi
        cat "$tmp.t" >> "$tmp"
    done
    sort -n "$tmp" | awk '{a[NR]=$1; m[NR]=$2} END {i=int((NR+1)/2); printf "%10.2f %12d\n", a[i], m[i]/1024}'
    rm -f "$tmp" "$tmp.t"
}

printf '%-10s %10s %12s\n' allocator median_s peak_rss_mb
printf '%-10s ' glibc;    measure "" "$@"
[ -n "$jem" ] && { printf '%-10s ' jemalloc; measure "$jem" "$@"; }
[ -n "$mim" ] && { printf '%-10s ' mimalloc; measure "$mim" "$@"; }
true
