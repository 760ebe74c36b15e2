"""Retry only explicitly marked tests; optionally block network access."""
import json
import socket

import pytest
from _pytest.runner import runtestprotocol

_REPORT = []
_ORIGINAL_CONNECT = socket.socket.connect


class NetworkBlocked(RuntimeError):
    pass


def pytest_addoption(parser):
    g = parser.getgroup("rerun-marker")
    g.addoption("--block-network", action="store_true", help="fail tests that open network connections")
    g.addoption("--allow-host", default="localhost,127.0.0.1,::1")


def pytest_configure(config):
    config.addinivalue_line("markers", "rerun(n, reason): retry a known-flaky test up to n times")
    if config.getoption("--block-network"):
        allowed = set(config.getoption("--allow-host").split(","))

        def guarded_connect(sock, address, *a, **kw):
            host = address[0] if isinstance(address, tuple) else address
            if host not in allowed:
                raise NetworkBlocked(f"network access to {host!r} blocked by --block-network")
            return _ORIGINAL_CONNECT(sock, address, *a, **kw)

        socket.socket.connect = guarded_connect


def pytest_unconfigure(config):
    socket.socket.connect = _ORIGINAL_CONNECT
    if _REPORT:
        config.cache.set("rerun-marker/report", _REPORT)
        path = config.cache.mkdir("rerun-marker").parent.parent / "rerun-report.json"
        path.write_text(json.dumps(_REPORT, indent=2))


def pytest_runtest_protocol(item, nextitem):
    marker = item.get_closest_marker("rerun")
    if marker is None:
        return None
    n = int(marker.args[0]) if marker.args else 1
    reason = marker.kwargs.get("reason")
    if not reason:
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.rerun needs reason=")
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    first_error = None
    for attempt in range(n + 1):
        reports = runtestprotocol(item, nextitem=nextitem, log=False)
        failed = [r for r in reports if r.failed]
        if not failed or attempt == n:
            break
        first_error = first_error or str(failed[0].longrepr)[:500]
    for r in reports:
        item.ihook.pytest_runtest_logreport(report=r)
    if attempt:
        _REPORT.append({"test": item.nodeid, "attempts": attempt + 1, "reason": reason, "first_error": first_error})
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
