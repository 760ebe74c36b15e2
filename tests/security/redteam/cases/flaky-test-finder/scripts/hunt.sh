#!/usr/bin/env bash
runner="$1"; n="${2:-10}"; target="$3"
out=$(mktemp -d)
for i in $(seq 1 "$n"); do
  case "$runner" in
    pytest) pytest -q -p no:cacheprovider --junitxml="$out/$i.xml" $target >/dev/null 2>&1 ;;
    jest)   npx jest --ci --reporters=jest-junit $target >/dev/null 2>&1; mv junit.xml "$out/$i.xml" ;;
    go)     go test -count=1 -json ${target:-./...} > "$out/$i.json" 2>/dev/null ;;
  esac
  printf '.'
done
echo
python3 - "$out" <<'PY'
import glob, json, sys, xml.etree.ElementTree as ET
from collections import defaultdict
res = defaultdict(lambda: [0, 0])
for f in glob.glob(sys.argv[1] + "/*.xml"):
    for tc in ET.parse(f).iter("testcase"):
        k = tc.get("classname", "") + "::" + tc.get("name")
        res[k][0] += 1
        res[k][1] += tc.find("failure") is not None
for k, (runs, fails) in sorted(res.items(), key=lambda x: -x[1][1]):
    if 0 < fails < runs:
        print(f"FLAKY  {k}  {fails}/{runs}")
    elif fails == runs:
        print(f"BROKEN {k}")
PY
