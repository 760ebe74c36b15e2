"""pytest plugin: rank slow tests and the HTTP calls inside them."""
import json
import os
import time
from pathlib import Path

import pytest

from . import _http

_RESULTS = []


def pytest_addoption(parser):
    grp = parser.getgroup("slowest")
    grp.addoption("--slowest", type=int, default=15)
    grp.addoption("--slowest-http", action="store_true")
    grp.addoption("--slowest-share", action="store_true")


def pytest_configure(config):
    _http.install()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _http.CURRENT_TEST = item.nodeid
    start = time.perf_counter()
    yield
    _RESULTS.append({"test": item.nodeid, "seconds": round(time.perf_counter() - start, 4)})
    _http.CURRENT_TEST = None


def pytest_terminal_summary(terminalreporter, config):
    n = config.getoption("--slowest")
    ranked = sorted(_RESULTS, key=lambda r: r["seconds"], reverse=True)[:n]
    terminalreporter.section("slowest tests")
    for r in ranked:
        terminalreporter.write_line(f"{r['seconds']:8.3f}s  {r['test']}")
    report = {"tests": ranked, "http": _http.SAMPLES, "cwd": os.getcwd()}
    Path("slowest-report.json").write_text(json.dumps(report, indent=2))
    _http.flush(report)
