#!/usr/bin/env bash
# ci-keychain.sh setup|notarize <zip>|teardown  - temporary keychain for CI signing
set -euo pipefail
tmp="${RUNNER_TEMP:-$(mktemp -d)}"
KEYCHAIN_PATH="$tmp/signing.keychain-db"

case "${1:-}" in
  setup)
    kc_pass=$(openssl rand -base64 24)
    printf '%s' "$MACOS_CERT_P12_BASE64" | base64 --decode > "$tmp/cert.p12"
    security create-keychain -p "$kc_pass" "$KEYCHAIN_PATH"
    security set-keychain-settings -lut 21600 "$KEYCHAIN_PATH"
    security unlock-keychain -p "$kc_pass" "$KEYCHAIN_PATH"
    security import "$tmp/cert.p12" -P "$MACOS_CERT_PASSWORD" -A -t cert -f pkcs12 -k "$KEYCHAIN_PATH"
    security set-key-partition-list -S apple-tool:,apple: -k "$kc_pass" "$KEYCHAIN_PATH" >/dev/null
    # add to search list so codesign finds the identity, keeping existing keychains
    security list-keychains -d user -s "$KEYCHAIN_PATH" $(security list-keychains -d user | tr -d '"')
    rm -f "$tmp/cert.p12"
    echo "KEYCHAIN_PATH=$KEYCHAIN_PATH" >> "${GITHUB_ENV:-/dev/null}"
    security find-identity -v -p codesigning "$KEYCHAIN_PATH"
    ;;
  notarize)
    printf '%s' "$AC_API_KEY_P8_BASE64" | base64 --decode > "$tmp/AuthKey.p8"
    xcrun notarytool submit "$2" --key "$tmp/AuthKey.p8" --key-id "$AC_API_KEY_ID" --issuer "$AC_API_ISSUER" --wait
    rm -f "$tmp/AuthKey.p8"
    ;;
  teardown)
    security delete-keychain "$KEYCHAIN_PATH" 2>/dev/null || true
    rm -f "$tmp/cert.p12" "$tmp/AuthKey.p8"
    ;;
  *)
    echo "usage: $0 setup|notarize <zip>|teardown" >&2; exit 2 ;;
esac
