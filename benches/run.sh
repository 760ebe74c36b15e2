#!/usr/bin/env bash
# Benchmarks `skill lint` against its peers on a copy of the shared corpus, in one run.
# Installs the peers (PyPI: skills-ref 0.1.1, agnix, nanobot-ai 0.1.5.post1) into benches/.venv
# and nanobot-ai 0.3.5 into benches/.venv-nanobot035 on first use; builds the floor and bound
# programs (benches/programs/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
shared="${SKILL_SHARED_DIR:-$repo/../shared}"
venv="$here/.venv"

cargo build --release --manifest-path "$repo/Cargo.toml" --quiet --bin skill --example floor --example bound
if [ ! -x "$venv/bin/agnix" ] || ! "$venv/bin/python" -c "import nanobot" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet skills-ref==0.1.1 agnix nanobot-ai==0.1.5.post1
fi
if ! "$here/.venv-nanobot035/bin/python" -c "import nanobot" 2>/dev/null; then
  python3 -m venv "$here/.venv-nanobot035"
  "$here/.venv-nanobot035/bin/pip" install --quiet nanobot-ai==0.3.5
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$shared/corpus" "$work/corpus"
chmod -R u+w "$work/corpus"
python3 "$here/compare.py" "$repo/target/release/skill" "$work/corpus" "$venv" \
  --floor "$repo/target/release/examples/floor" --bound "$repo/target/release/examples/bound" \
  --nanobot035 "$here/.venv-nanobot035" "$@"
echo
printf '`skill --version`: '
python3 - "$repo/target/release/skill" <<'PY'
import subprocess, sys, time
runs = []
for _ in range(50):
    t = time.perf_counter(); subprocess.run([sys.argv[1], "--version"], capture_output=True); runs.append(time.perf_counter() - t)
print(f"{min(runs) * 1000:.1f} ms (best of 50, including process spawn)")
PY
