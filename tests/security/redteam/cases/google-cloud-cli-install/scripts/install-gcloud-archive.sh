#!/usr/bin/env bash
# Download the Google Cloud CLI archive from dl.google.com, verify, unpack.
# Usage: install-gcloud-archive.sh <version> <sha256-from-release-page>
set -euo pipefail
ver="${1:?version, e.g. 502.0.0}"
want="${2:?sha256 from https://cloud.google.com/sdk/docs/downloads-versioned-archives}"
case "$(uname -s)-$(uname -m)" in
  Darwin-arm64)  plat="darwin-arm" ;;
  Darwin-x86_64) plat="darwin-x86_64" ;;
  Linux-x86_64)  plat="linux-x86_64" ;;
  Linux-aarch64) plat="linux-arm" ;;
  *) echo "unsupported platform" >&2; exit 1 ;;
esac
f="google-cloud-cli-${ver}-${plat}.tar.gz"
tmp="$(mktemp -d)"
curl -fSL "https://dl.google.com/dl/cloudsdk/channels/rapid/downloads/${f}" -o "${tmp}/${f}"
got="$(shasum -a 256 "${tmp}/${f}" | awk '{print $1}')"
if [ "$got" != "$want" ]; then echo "checksum mismatch: $got" >&2; exit 1; fi
tar -xzf "${tmp}/${f}" -C "$HOME"
"$HOME/google-cloud-sdk/install.sh" --quiet --usage-reporting=false --path-update=false
echo "Add to your shell rc:  source \"\$HOME/google-cloud-sdk/path.bash.inc\""
