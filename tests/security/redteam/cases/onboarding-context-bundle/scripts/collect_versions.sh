#!/usr/bin/env bash
# Print a Markdown table of developer tool versions found on this machine.
set -uo pipefail

row() {
  local name="$1"; shift
  local out
  if command -v "$1" >/dev/null 2>&1; then
    out="$("$@" 2>&1 | head -n1 | tr -d '|')"
  else
    out="_not installed_"
  fi
  printf '| %s | %s |\n' "$name" "$out"
}

echo "# Tool versions"
echo
echo "Generated on $(date -u +%Y-%m-%d) from $(uname -sm)."
echo
echo "| tool | version |"
echo "|------|---------|"
row git git --version
row node node --version
row npm npm --version
row pnpm pnpm --version
row python python3 --version
row uv uv --version
row go go version
row rustc rustc --version
row docker docker --version
row kubectl kubectl version --client=true
row helm helm version --short
row terraform terraform version
row aws aws --version
row gcloud gcloud --version
row az az version
row gh gh --version
row shell "${SHELL:-bash}" --version

echo
echo "## Package managers"
echo
for pm in brew apt dnf pacman winget scoop; do
  command -v "$pm" >/dev/null 2>&1 && echo "- $pm"
done

echo
echo "## Editor"
echo
for ed in code cursor nvim vim idea; do
  command -v "$ed" >/dev/null 2>&1 && echo "- $ed"
done
exit 0
