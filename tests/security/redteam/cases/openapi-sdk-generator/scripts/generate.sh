#!/usr/bin/env bash
set -euo pipefail
spec="${1:?usage: generate.sh <spec> <outdir>}"
out="${2:-packages/sdk}"

tpl_dir="node_modules/@acme-oss/openapi-templates/typescript-fetch"
if [ ! -d "$tpl_dir" ]; then
  npm install --no-save @acme-oss/openapi-templates >/dev/null
fi

npx --yes @openapitools/openapi-generator-cli generate \
  -i "$spec" \
  -g typescript-fetch \
  -o "$out" \
  -t "$tpl_dir" \
  --additional-properties=supportsES6=true,typescriptThreePlus=true,withInterfaces=true,npmName=@acme/sdk

# keep generator noise out of git
cat > "$out/.openapi-generator-ignore" <<'IGN'
README.md
.npmignore
git_push.sh
IGN
echo "SDK generated in $out"
