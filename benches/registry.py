"""Registry benchmark: publish latency, search latency over the corpus, and downloads per second
of `skill registry serve` beside nginx serving the same archive as a static file.

Usage: registry.py SKILL_BINARY CORPUS_DIR WORK_DIR [POSTGRES_URL]
With POSTGRES_URL (an empty database), the registry keeps its data there instead of SQLite.
Needs `wrk` and `nginx` on PATH (Debian packages); registry.sh installs them.
"""

import collections
import hashlib
import http.client
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse

skill_bin, corpus, work = sys.argv[1], sys.argv[2], sys.argv[3]
postgres = sys.argv[4] if len(sys.argv) > 4 else None
# The request log on (one line per request, as an operator runs it) unless SKILL_BENCH_QUIET is set:
# nginx runs with `access_log off`, so the quiet run is the like-for-like one.
log_flags = ["-q"] if os.environ.get("SKILL_BENCH_QUIET") else []
backend = "PostgreSQL" if postgres else "SQLite"


def where(data):
    return ["--database", postgres] if postgres else ["--data", data]


def admin(data, *args):
    out = subprocess.run([skill_bin, "registry", *args, *where(data)], check=True, capture_output=True, text=True)
    return out.stdout.strip()


class Api:
    """One keep-alive connection, as a client publishing many skills would hold."""

    def __init__(self, url, token):
        parsed = urllib.parse.urlparse(url)
        self.conn = http.client.HTTPConnection(parsed.hostname, parsed.port)
        self.token = token
        self.last_error = ""

    def call(self, method, path, body=None):
        headers = {"Authorization": f"Bearer {self.token}"}
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        answer = response.read()
        if response.status != 200:
            self.last_error = answer.decode(errors="replace")
        return response.status, answer

    def publish(self, slug, version, files):
        """ClawHub's flow: a ticket and an upload per file, then the publish itself."""
        entries = []
        for path, data in files:
            meta = {"path": path, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            status, body = self.call("POST", "/api/v1/skills/-/upload-url", meta)
            if status != 200:
                return status, 0.0
            ticket = json.loads(body)
            status, _ = self.call("POST", urllib.parse.urlparse(ticket["uploadUrl"]).path, data)
            if status != 200:
                return status, 0.0
            entries.append({**meta, "storageId": ticket["uploadTicket"], "uploadTicket": ticket["uploadTicket"]})
        payload = {"slug": slug, "displayName": slug, "version": version, "changelog": "",
                   "acceptLicenseTerms": True, "files": entries}
        start = time.perf_counter()
        status, _ = self.call("POST", "/api/v1/skills", payload)
        return status, time.perf_counter() - start


def skill_files(folder):
    files = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if name.startswith("."):
                continue
            full = os.path.join(root, name)
            with open(full, "rb") as f:
                files.append((os.path.relpath(full, folder).replace(os.sep, "/"), f.read()))
    return files


def refusal_kind(status, message):
    """What a refused publish ran into, in a few words: the kinds the corpus meets."""
    text = message.lower()
    for words, kind in (("already", "slug or version taken"), ("reserved", "reserved slug"),
                        ("is an archive", "an archive inside"), ("slug", "slug rules"),
                        ("limit", "over a size limit"), ("security", "security scan")):
        if words in text:
            return kind
    return f"HTTP {status}"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wrk(url):
    out = subprocess.run(["wrk", "-t2", "-c32", "-d10s", url], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"Requests/sec:\s+([0-9.]+)", out).group(1))


def main():
    data = os.path.join(work, "data")
    admin(data, "user", "add", "bench")
    token = admin(data, "token", "create", "bench")
    server = subprocess.Popen([skill_bin, *log_flags, "registry", "serve", "--addr", "127.0.0.1:0", *where(data)],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        api = Api(url, token)

        # A 100 KiB skill: SKILL.md plus 100 KiB of reference text, published as 200 versions.
        rng = random.Random(7)
        words = ["deploy", "table", "extract", "report", "image", "search", "render", "commit", "review"]
        reference = " ".join(rng.choice(words) for _ in range(20000)).encode()[: 100 * 1024]
        skill_md = b"---\nname: bench-100k\ndescription: A 100 KiB skill. Use when benchmarking.\n---\n\nRead it.\n"
        totals, commits = [], []
        for i in range(200):
            files = [("SKILL.md", skill_md), ("references/notes.md", reference + str(i).encode())]
            start = time.perf_counter()
            status, commit = api.publish("bench-100k", f"1.0.{i}", files)
            totals.append(time.perf_counter() - start)
            commits.append(commit)
            assert status == 200, status
        ms = lambda s: f"{s * 1000:.2f} ms"
        print(f"publish of a 100 KiB skill ({backend}, 200 versions): the publish request p50 {ms(percentile(commits, 50))}, "
              f"p99 {ms(percentile(commits, 99))}; whole flow with tickets and uploads p50 {ms(percentile(totals, 50))}, "
              f"p99 {ms(percentile(totals, 99))}")

        # The whole corpus, one version each; slugs from folder names, as `skill publish` derives them.
        folders = sorted({os.path.dirname(os.path.join(r, n)) for r, _, ns in os.walk(corpus) for n in ns if n == "SKILL.md"})
        published, refused, examples, start = 0, collections.Counter(), {}, time.perf_counter()
        for folder in folders:
            slug = re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", os.path.basename(folder).lower())).strip("-")
            status, _ = api.publish(slug, "1.0.0", skill_files(folder))
            if status == 200:
                published += 1
            else:
                kind = refusal_kind(status, api.last_error)
                refused[kind] += 1
                examples.setdefault(kind, f"{slug}: {api.last_error[:160]}")
        elapsed = time.perf_counter() - start
        reasons = ", ".join(f"{n} {kind}" for kind, n in refused.most_common())
        print(f"corpus published: {published} skills in {elapsed:.1f} s ({sum(refused.values())} refused: {reasons})")
        for kind, example in examples.items():
            print(f"  {kind}, e.g. {example}")

        queries = [w for w in ("pdf", "docker", "git", "image", "search", "deploy", "test", "api", "data", "web",
                               "slack", "browser", "python", "database", "email", "calendar", "video", "review",
                               "security", "notion")]
        latencies = []
        for _ in range(10):
            for q in queries:
                start = time.perf_counter()
                status, body = api.call("GET", f"/api/v1/search?q={q}&limit=25")
                latencies.append(time.perf_counter() - start)
                assert status == 200
        print(f"search over {published} skills: p50 {ms(percentile(latencies, 50))}, p99 {ms(percentile(latencies, 99))} "
              f"({len(latencies)} queries)")

        # Downloads: our archive endpoint against nginx serving the same bytes as a static file.
        path = "/api/v1/download?slug=bench-100k&version=1.0.199"
        status, archive = api.call("GET", path)
        assert status == 200
        static = os.path.join(work, "static")
        os.makedirs(static)
        with open(os.path.join(static, "bench-100k.zip"), "wb") as f:
            f.write(archive)
        port = free_port()
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes 2; daemon off; pid {work}/nginx.pid; error_log {work}/nginx.log;
events {{ worker_connections 1024; }}
http {{ access_log off; client_body_temp_path {work}/t1; proxy_temp_path {work}/t2; fastcgi_temp_path {work}/t3;
  uwsgi_temp_path {work}/t4; scgi_temp_path {work}/t5;
  server {{ listen 127.0.0.1:{port}; root {static}; }} }}
""")
        nginx = subprocess.Popen(["nginx", "-c", conf, "-p", work])
        try:
            time.sleep(0.5)
            ours = wrk(url + path)
            theirs = wrk(f"http://127.0.0.1:{port}/bench-100k.zip")
        finally:
            nginx.terminate()
            nginx.wait()
        print(f"downloads of a {len(archive) // 1024} KiB archive (wrk -t2 -c32 -d10s): skill {ours:.0f}/s, "
              f"nginx {theirs:.0f}/s, ratio {ours / theirs:.2f}")
    finally:
        server.terminate()
        server.wait()
    shutil.rmtree(data, ignore_errors=True)


main()
