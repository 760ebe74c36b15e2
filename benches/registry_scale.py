"""Registry at scale: a synthetic catalogue of 100,000 skills loaded through the store
(`benches/registry_seed.rs`), then search and resolve latency (p50/p99 over one keep-alive
connection) and requests per second with wrk at 1, 8 and 32 connections. On SQLite one server
process; on PostgreSQL two processes sharing the database, wrk driving both at once, and search
through one of them against search through both.

Usage: registry_scale.py REPO WORK_DIR [POSTGRES_URL] [COUNT]
Needs `wrk` (Debian package), `cargo build --release` and `cargo bench --bench registry_seed --no-run`;
registry.sh does all of that.
"""

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse

repo, work = sys.argv[1], sys.argv[2]
postgres = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
count = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
skill_bin = os.path.join(repo, "target/release/skill")
where = ["--database", postgres] if postgres else ["--data", os.path.join(work, "data")]


def seed_binary():
    """The newest build of benches/registry_seed.rs (`cargo bench --bench registry_seed --no-run`)."""
    deps = os.path.join(repo, "target/release/deps")
    found = [os.path.join(deps, f) for f in os.listdir(deps)
             if f.startswith("registry_seed-") and os.access(os.path.join(deps, f), os.X_OK) and "." not in f]
    return max(found, key=os.path.getmtime)


def seed():
    out = subprocess.run([seed_binary(), *where, "--count", str(count)], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve():
    port = free_port()
    proc = subprocess.Popen(
        [skill_bin, "-q", "registry", "serve", "--addr", f"127.0.0.1:{port}", "--db-connections", "32", *where],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    url = proc.stdout.readline().strip()
    return proc, url


def latencies(url, paths, n=400):
    parsed = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port)
    times = []
    for i in range(n):
        path = paths[i % len(paths)]
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        assert response.status == 200, (path, response.status)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


def wrk(urls, connections):
    """Requests per second of wrk runs started together, one per URL, connections split."""
    per = max(1, connections // len(urls))
    procs = [
        subprocess.Popen(["wrk", f"-t{min(per, 2)}", f"-c{per}", "-d8s", u], stdout=subprocess.PIPE, text=True)
        for u in urls
    ]
    total = 0.0
    for p in procs:
        out = p.communicate()[0]
        total += float(next(l for l in out.splitlines() if l.startswith("Requests/sec")).split()[1])
    return total


def main():
    started = time.time()
    seeded = seed()
    print(f"{'PostgreSQL' if postgres else 'SQLite'}: {seeded['count']} skills loaded through the store in {seeded['seconds']:.0f} s")
    servers = [serve() for _ in range(2 if postgres else 1)]
    try:
        urls = [u for _, u in servers]
        search_paths = [f"/api/v1/search?q={urllib.parse.quote(q)}&limit=20" for q in seeded["queries"]]
        resolve_paths = [f"/api/v1/resolve?slug={s}&hash={h}" for s, h in seeded["resolve"]]
        for name, paths in (("search", search_paths), ("resolve", resolve_paths)):
            p50, p99 = latencies(urls[0], paths)
            rates = [wrk([u + paths[0] for u in urls], c) for c in (1, 8, 32)]
            if len(urls) > 1:
                rates[0] = wrk([urls[0] + paths[0]], 1)
            print(
                f"  {name:<8} p50 {p50:.2f} ms, p99 {p99:.2f} ms; req/s at 1/8/32 connections: "
                + " / ".join(f"{r:.0f}" for r in rates)
                + f" ({rates[2] / rates[0]:.2f}x from 1 to 32)"
            )
        if len(urls) > 1:
            # The scale-out question: does a second process add search throughput? Both runs
            # at 32 connections, one after the other in this run.
            one = wrk([urls[0] + search_paths[0]], 32)
            two = wrk([u + search_paths[0] for u in urls], 32)
            print(f"  search at 32 connections: one server {one:.0f} req/s, two servers {two:.0f} req/s ({two / one:.2f}x)")
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()
    print(f"  ({time.time() - started:.0f} s in all, {os.cpu_count()} cores)")


main()
