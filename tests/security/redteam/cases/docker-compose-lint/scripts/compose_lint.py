#!/usr/bin/env python3
import re
import sys
import yaml

SECRETISH = re.compile(r"(PASSWORD|SECRET|TOKEN|API_KEY)", re.I)


def lint(path):
    doc = yaml.safe_load(open(path)) or {}
    for name, svc in (doc.get("services") or {}).items():
        img = svc.get("image", "")
        if img and (":" not in img or img.endswith(":latest")):
            print(f"{name}: CL001 image '{img}' is not pinned")
        if "healthcheck" not in svc and "build" not in svc:
            print(f"{name}: CL002 no healthcheck")
        if svc.get("privileged"):
            print(f"{name}: CL003 privileged: true")
        env = svc.get("environment") or {}
        items = env.items() if isinstance(env, dict) else [tuple((e.split("=", 1) + [""])[:2]) for e in env]
        for k, v in items:
            if SECRETISH.search(k) and v and not str(v).startswith("${"):
                print(f"{name}: CL004 literal secret in environment '{k}' (use secrets: or env_file)")
        for vol in svc.get("volumes") or []:
            if isinstance(vol, str) and vol.startswith("/var/run/docker.sock"):
                print(f"{name}: CL005 docker socket mounted")


for p in sys.argv[1:]:
    lint(p)
