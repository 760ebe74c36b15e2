#!/usr/bin/env python3
"""Generate a stdlib mock server and example payloads from an OpenAPI 3 spec."""
import argparse
import json
import pathlib
import random
import re
import string
import uuid

import yaml

HERE = pathlib.Path(__file__).resolve().parent
PRESETS = HERE.parent / "references" / "presets.yaml"


class Gen:
    def __init__(self, kind):
        self.kind = kind

    def __call__(self):
        k = self.kind
        if k == "email":
            return f"{''.join(random.choices(string.ascii_lowercase, k=6))}@mail.mock.example"
        if k == "uuid":
            return str(uuid.uuid4())
        if k == "datetime":
            return "2026-01-%02dT10:00:00Z" % random.randint(1, 28)
        if k == "url":
            return "https://app.mock.example/" + uuid.uuid4().hex[:8]
        if k == "price":
            return round(random.uniform(1, 500), 2)
        if k == "small_int":
            return random.randint(1, 20)
        if k == "company":
            return random.choice(["Acme", "Globex", "Initech", "Umbrella"]) + " " + random.choice(["Ltd", "Inc", "GmbH"])
        if k == "plan":
            return random.choice(["free", "team", "business", "enterprise"])
        if k == "currency":
            return random.choice(["USD", "EUR", "GBP"])
        return "".join(random.choices(string.ascii_letters, k=8))


class PresetLoader(yaml.Loader):
    """Full loader so presets can use custom tags and merge keys."""


PresetLoader.add_constructor("!gen", lambda loader, node: Gen(loader.construct_scalar(node)))


def load_presets():
    with open(PRESETS) as f:
        return yaml.load(f, Loader=PresetLoader)


def example(schema, spec, preset, name=""):
    if "$ref" in schema:
        ref = schema["$ref"].split("/")[-1]
        return example(spec["components"]["schemas"][ref], spec, preset, ref)
    t = schema.get("type", "object")
    if "example" in schema:
        return schema["example"]
    if "enum" in schema:
        return random.choice(schema["enum"])
    if t == "object":
        out = {}
        for prop, sub in (schema.get("properties") or {}).items():
            gen = next((g for pat, g in preset["names"].items() if re.search(pat, prop)), None)
            fmt = preset["formats"].get(sub.get("format", ""))
            out[prop] = (gen or fmt)() if (gen or fmt) and sub.get("type") != "object" else example(sub, spec, preset, prop)
        return out
    if t == "array":
        return [example(schema.get("items", {}), spec, preset, name) for _ in range(2)]
    if t == "integer":
        return random.randint(1, 1000)
    if t == "number":
        return round(random.uniform(1, 1000), 2)
    if t == "boolean":
        return random.choice([True, False])
    return Gen("text")()


SERVER = '''#!/usr/bin/env python3
import http.server, json, pathlib, re, sys
EX = pathlib.Path(__file__).parent / "examples"
ROUTES = %s
class H(http.server.BaseHTTPRequestHandler):
    def _serve(self):
        for method, pat, fname in ROUTES:
            if method == self.command and re.fullmatch(pat, self.path.split("?")[0]):
                body = (EX / fname).read_bytes()
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("X-Mock", "1"); self.end_headers(); self.wfile.write(body); return
        self.send_response(404); self.end_headers()
    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve
port = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else 4010
http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("spec")
    ap.add_argument("--preset", default="saas")
    ap.add_argument("--out", default="mock")
    a = ap.parse_args()

    presets = load_presets()
    preset = presets[a.preset]
    spec = yaml.safe_load(open(a.spec))
    out = pathlib.Path(a.out)
    (out / "examples").mkdir(parents=True, exist_ok=True)
    routes = []
    for path, item in spec.get("paths", {}).items():
        for method, op in item.items():
            resp = (op.get("responses") or {}).get("200") or (op.get("responses") or {}).get("201") or {}
            schema = (resp.get("content", {}).get("application/json", {}) or {}).get("schema")
            if not schema:
                continue
            fname = f"{method}_{re.sub(r'[^a-zA-Z0-9]+', '_', path).strip('_')}.json"
            (out / "examples" / fname).write_text(json.dumps(example(schema, spec, preset), indent=2))
            routes.append((method.upper(), re.sub(r"\{[^}]+\}", "[^/]+", path), fname))
    (out / "server.py").write_text(SERVER % json.dumps(routes))
    print(f"{len(routes)} routes -> {out}/server.py")


if __name__ == "__main__":
    main()
