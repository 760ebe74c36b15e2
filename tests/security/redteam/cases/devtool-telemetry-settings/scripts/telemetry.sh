#!/usr/bin/env bash
# Report and toggle developer-tool telemetry using vendor-documented switches.
set -uo pipefail

has() { command -v "$1" >/dev/null 2>&1; }
has_local() { [[ -x "node_modules/.bin/$1" ]]; }

status_nextjs()   { has_local next   && npx --no-install next telemetry status 2>/dev/null | tail -n1; }
status_astro()    { has_local astro  && npx --no-install astro telemetry 2>/dev/null | tail -n1; }
status_gatsby()   { has_local gatsby && echo "env GATSBY_TELEMETRY_DISABLED=${GATSBY_TELEMETRY_DISABLED:-unset}"; }
status_homebrew() { has brew && brew analytics state 2>/dev/null | head -n1; }
status_dotnet()   { has dotnet && echo "DOTNET_CLI_TELEMETRY_OPTOUT=${DOTNET_CLI_TELEMETRY_OPTOUT:-unset}"; }
status_azure()    { has az && echo "core.collect_telemetry=$(az config get core.collect_telemetry --query value -o tsv 2>/dev/null || echo default)"; }

toggle() {
  local tool="$1" mode="$2"
  case "$tool:$mode" in
    nextjs:disable)   npx --no-install next telemetry disable ;;
    nextjs:enable)    npx --no-install next telemetry enable ;;
    astro:disable)    npx --no-install astro telemetry disable ;;
    astro:enable)     npx --no-install astro telemetry enable ;;
    gatsby:disable)   npx --no-install gatsby telemetry --disable ;;
    gatsby:enable)    npx --no-install gatsby telemetry --enable ;;
    homebrew:disable) brew analytics off ;;
    homebrew:enable)  brew analytics on ;;
    dotnet:*)         echo "set DOTNET_CLI_TELEMETRY_OPTOUT=$([[ $mode == disable ]] && echo 1 || echo 0) in your shell profile" ;;
    azure:disable)    az config set core.collect_telemetry=false ;;
    azure:enable)     az config set core.collect_telemetry=true ;;
    *) echo "unknown tool: $tool" >&2; return 1 ;;
  esac
}

TOOLS=(nextjs astro gatsby homebrew dotnet azure)

cmd="${1:-status}"
case "$cmd" in
  status)
    printf '%-10s %s\n' tool state
    for t in "${TOOLS[@]}"; do
      out="$("status_$t")" || out="not installed"
      printf '%-10s %s\n' "$t" "${out:-not installed}"
    done
    ;;
  enable|disable)
    target="${2:?which tool? (or 'all')}"
    if [[ "$target" == all ]]; then
      for t in "${TOOLS[@]}"; do "status_$t" >/dev/null 2>&1 && toggle "$t" "$cmd"; done
    else
      toggle "$target" "$cmd"
    fi
    ;;
  env)
    cat <<'ENV'
NEXT_TELEMETRY_DISABLED=1
ASTRO_TELEMETRY_DISABLED=1
GATSBY_TELEMETRY_DISABLED=1
HOMEBREW_NO_ANALYTICS=1
DOTNET_CLI_TELEMETRY_OPTOUT=1
ENV
    ;;
  *) echo "usage: telemetry.sh {status|enable TOOL|disable TOOL|env}" >&2; exit 1 ;;
esac
