#!/usr/bin/env python3
"""Runs `skill lint` and its peers on the same skills in one run; prints a Markdown table.

Usage: compare.py SKILL_BIN CORPUS_DIR VENV_DIR [--runs N] [--cli-sample N] [--floor FLOOR_BIN]
                  [--bound BOUND_BIN] [--nanobot035 VENV_DIR]

Wall time is the median of N runs (CPU time, user + system, beside it); peak memory is the
child's maximum RSS (from wait4). The floor program (benches/programs/floor.rs: walk the corpus, parse
every frontmatter with serde-saphyr on two threads, nothing else) is what no tool can beat; the
bound program (benches/programs/bound.rs: also read every file and parse every body as CommonMark)
is what a full lint cannot skip before it applies a single rule.
skills-ref's CLI validates one skill per process, so it runs on a sample and the whole-corpus
figure is scaled from it (marked as such).
"""
import argparse
import os
import shutil
import subprocess
import sys
import time


CPU = {}


def run(cmd, cwd=None):
    """Runs cmd, returns (seconds, peak RSS in MiB, exit code); CPU seconds go to CPU[cmd]."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    CPU.setdefault(tuple(cmd), []).append(usage.ru_utime + usage.ru_stime)
    return elapsed, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def best(cmd, runs, cwd=None):
    """The median wall time of `runs` runs and the highest peak RSS."""
    results = [run(cmd, cwd) for _ in range(runs)]
    return median([r[0] for r in results]), max(r[1] for r in results)


def cpu(cmd):
    return median(CPU.get(tuple(cmd), [float("nan")]))


def fresh(path):
    """An empty folder at `path`: what an earlier run left there is this script's own scratch."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def skill_dirs(corpus):
    dirs = []
    for root, _, files in os.walk(corpus):
        if "SKILL.md" in files or "skill.md" in files:
            dirs.append(root)
    return sorted(dirs)


# The same job as `skill lint DIR`: find every skill folder, validate each.
LIBRARY = """
import os, sys
from pathlib import Path
from skills_ref import validate
crashes = 0
for root, _, files in os.walk(sys.argv[1]):
    if "SKILL.md" in files or "skill.md" in files:
        try:
            validate(Path(root))
        except Exception:
            crashes += 1
print(crashes)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("skill")
    ap.add_argument("corpus")
    ap.add_argument("venv")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cli-sample", type=int, default=100)
    ap.add_argument("--floor", help="the floor program (cargo build --release --example floor)")
    ap.add_argument("--bound", help="the bound program (cargo build --release --example bound)")
    ap.add_argument("--nanobot035", help="a venv with nanobot-ai 0.3.5")
    args = ap.parse_args()

    dirs = skill_dirs(args.corpus)
    py = os.path.join(args.venv, "bin", "python")
    rows = []

    # The lint cache goes to a folder of this run's own; the cold rows do without it.
    cache = fresh(os.path.join(os.path.dirname(os.path.abspath(args.corpus)), "skill-cache"))
    os.environ["SKILL_CACHE_DIR"] = cache
    warm = [args.skill, "lint", args.corpus, "--format", "json"]
    lint = warm + ["--no-cache"]
    t, m = best(lint, args.runs)
    rows.append(("skill lint --format json, all rules, cold (--no-cache; this project)", t, m,
                 f"CPU {cpu(lint):.2f} s"))
    base = t
    # Files changed in the last two seconds are not kept: the corpus was just copied.
    time.sleep(2.5)
    run(warm)
    t, m = best(warm, args.runs)
    rows.append(("skill lint --format json, warm (the cache of an earlier run, nothing changed)",
                 t, m, f"CPU {cpu(warm):.2f} s"))
    warm_time = t
    without = lint + ["--ignore", "SK9"]
    t, m = best(without, args.runs)
    rows.append(("skill lint without the security family (--ignore SK9)", t, m,
                 f"CPU {cpu(without):.2f} s; the family adds {(base / t - 1) * 100:.0f}% wall, "
                 f"{(cpu(lint) / cpu(without) - 1) * 100:.0f}% CPU"))
    sk1 = lint + ["--select", "SK1"]
    t, m = best(sk1, args.runs)
    rows.append(("skill lint --select SK1 (format rules)", t, m, f"CPU {cpu(sk1):.2f} s"))
    if args.floor:
        floor = [args.floor, args.corpus]
        t, m = best(floor, args.runs)
        rows.append(("floor: walk + stat + serde-saphyr frontmatters, 2 threads", t, m,
                     f"CPU {cpu(floor):.2f} s; the warm lint is {warm_time / t:.2f}x the floor"))
    if args.bound:
        bound = [args.bound, args.corpus]
        t, m = best(bound, args.runs)
        rows.append(("bound: floor + every file read + CommonMark bodies, 2 threads", t, m,
                     f"CPU {cpu(bound):.2f} s"))

    agnix = os.path.join(args.venv, "bin", "agnix")
    t, m = best([agnix, args.corpus, "--format", "json"], max(1, args.runs // 2))
    rows.append(("agnix " + version([agnix, "--version"]), t, m,
                 f"{t / base:.1f}x the cold lint, {t / warm_time:.1f}x the warm one"))

    t, m = best([py, "-c", LIBRARY, args.corpus], max(1, args.runs // 2))
    crashes = subprocess.run([py, "-c", LIBRARY, args.corpus], capture_output=True, text=True).stdout.strip()
    rows.append(("skills-ref library, one process", t, m, f"validate() raised on {crashes} skills"))

    sample = dirs[:: max(1, len(dirs) // args.cli_sample)][: args.cli_sample]
    cli = os.path.join(args.venv, "bin", "agentskills")
    total, peak = 0.0, 0.0
    for d in sample:
        t, m, _ = run([cli, "validate", d])
        total += t
        peak = max(peak, m)
    rows.append(("skills-ref CLI, one process per skill", total / len(sample) * len(dirs), peak,
                 f"scaled from {len(sample)} skills"))

    print(f"Corpus: {len(dirs)} skills in {args.corpus}; median of {args.runs} runs; "
          f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.1f}.\n")
    print("| tool | wall time (s) | peak RSS (MiB) | time vs skill | note |")
    print("|---|---:|---:|---:|---|")
    for name, t, m, note in rows:
        print(f"| {name} | {t:.3f} | {m:.0f} | {t / base:.1f}x | {note} |")
    summary_benchmark(args.skill, dirs, args.venv, args.runs, os.path.dirname(os.path.abspath(args.corpus)),
                      args.nanobot035, args.floor)
    pack_benchmark(args.skill, dirs, args.runs, os.path.dirname(os.path.abspath(args.corpus)))


NANOBOT_SUMMARY = """
import sys, time
from pathlib import Path
from nanobot.agent.skills import SkillsLoader
start = time.perf_counter()
loader = SkillsLoader(Path(sys.argv[1]), builtin_skills_dir=Path(sys.argv[2]))
summary = loader.build_skills_summary()
print(f"{time.perf_counter() - start:.4f}")
"""

READABLE = """
import sys
from pathlib import Path
from skills_ref.parser import read_properties
for line in sys.stdin:
    try:
        read_properties(Path(line.strip()))
        print(line.strip())
    except Exception:
        pass
"""


NANOBOT_035_SUMMARY = """
import sys, time
from pathlib import Path
from nanobot.agent.skills import SkillsLoader
start = time.perf_counter()
loader = SkillsLoader(Path(sys.argv[1]), builtin_skills_dir=Path(sys.argv[2]))
summary = loader.build_skills_summary()
print(f"{time.perf_counter() - start:.4f}")
"""


def summary_benchmark(skill, dirs, venv, runs, work, nanobot035=None, floor=None):
    """`skill summary` against nanobot's SkillsLoader and `agentskills to-prompt`."""
    py = os.path.join(venv, "bin", "python")
    # A nanobot workspace whose skills/ holds every corpus skill once (by folder name).
    ws = os.path.join(work, "nanobot-ws")
    fresh(os.path.join(ws, "skills"))
    fresh(os.path.join(work, "no-builtins"))
    seen = set()
    for d in dirs:
        name = os.path.basename(d)
        if name not in seen and os.path.isfile(os.path.join(d, "SKILL.md")):
            seen.add(name)
            os.symlink(d, os.path.join(ws, "skills", name))
    rows = []
    ours = [skill, "summary", os.path.join(ws, "skills"), "--format", "nanobot", "--no-builtin"]
    t, m = best(ours, runs)
    rows.append((f"skill summary --format nanobot ({len(seen)} skills)", t, m, f"CPU {cpu(ours):.3f} s"))
    base = t
    if floor:
        t, m = best([floor, os.path.join(ws, "skills")], runs)
        rows.append(("floor: walk + serde-saphyr frontmatters, 2 threads", t, m, ""))
    results = [subprocess.run([py, "-c", NANOBOT_SUMMARY, ws, os.path.join(work, "no-builtins")],
                              capture_output=True, text=True) for _ in range(max(1, runs // 2))]
    t, m = best([py, "-c", NANOBOT_SUMMARY, ws, os.path.join(work, "no-builtins")], max(1, runs // 2))
    inner = min(float(r.stdout.strip() or "nan") for r in results)
    rows.append(("nanobot-ai 0.1.5.post1 SkillsLoader.build_skills_summary()", t, m,
                 f"{inner:.3f} s inside Python, {inner / base:.0f}x"))
    if nanobot035:
        # nanobot 0.3.5 takes about 16 s per 1,000 skills: a sample of 300, scaled.
        ws35 = os.path.join(work, "nanobot035-ws")
        fresh(os.path.join(ws35, "skills"))
        for name in sorted(seen)[:300]:
            link = os.path.join(ws35, "skills", name)
            if not os.path.lexists(link):
                os.symlink(os.path.realpath(os.path.join(ws, "skills", name)), link)
        py35 = os.path.join(nanobot035, "bin", "python")
        t, m = best([py35, "-c", NANOBOT_035_SUMMARY, ws35, os.path.join(work, "no-builtins")], 1)
        scaled = t / 300 * len(seen)
        rows.append((f"nanobot-ai 0.3.5 build_skills_summary() (300 skills, scaled to {len(seen)})",
                     scaled, m, f"{t / 300 * 1000:.1f} s per 1,000 skills"))
    # to-prompt stops at the first skill it cannot read: give both tools the readable ones.
    readable = subprocess.run([py, "-c", READABLE], input="\n".join(dirs), capture_output=True,
                              text=True).stdout.split()
    t2, m2 = best([skill, "summary", "--format", "agentskills", "--no-builtin", *readable], runs)
    rows.append((f"skill summary --format agentskills ({len(readable)} skills)", t2, m2, ""))
    t, m = best([os.path.join(venv, "bin", "agentskills"), "to-prompt", *readable], max(1, runs // 2))
    rows.append(("skills-ref 0.1.1 agentskills to-prompt", t, m, f"{t / t2:.0f}x the agentskills row"))
    print("\n| summary | wall time (s) | peak RSS (MiB) | time vs skill | note |")
    print("|---|---:|---:|---:|---|")
    for name, t, m, note in rows:
        print(f"| {name} | {t:.3f} | {m:.0f} | {t / base:.1f}x | {note} |")


def pack_benchmark(skill, dirs, runs, work):
    """`skill pack` of every corpus skill against Python's zipfile doing the same work."""
    here = os.path.dirname(os.path.abspath(__file__))
    skills = [d for d in dirs if os.path.isfile(os.path.join(d, "SKILL.md"))]
    out = fresh(os.path.join(work, "packed"))
    t, m = best([skill, "pack", os.path.join(work, "corpus"), "--no-lint", "-o", out], max(1, runs // 2))
    ours = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(out) for f in fs)
    py_out = fresh(os.path.join(work, "packed-python"))
    tp, mp = best([sys.executable, os.path.join(here, "pack_python.py"), os.path.join(work, "corpus"), py_out], 1)
    theirs = sum(os.path.getsize(os.path.join(py_out, f)) for f in os.listdir(py_out))
    print(f"\n| pack every skill ({len(skills)}) | wall time (s) | peak RSS (MiB) | time vs skill | archives (MiB) |")
    print("|---|---:|---:|---:|---:|")
    print(f"| skill pack DIR (every skill under it) | {t:.2f} | {m:.0f} | 1.0x | {ours / 2**20:.1f} |")
    print(f"| Python zipfile, one process (skill-creator's way) | {tp:.2f} | {mp:.0f} | {tp / t:.1f}x | {theirs / 2**20:.1f} |")


def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip().split()[-1]
    except Exception:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
