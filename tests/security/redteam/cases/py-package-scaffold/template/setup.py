"""Tiny setup.py: only writes src/mypkg/_version.py from `git describe`."""
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

VERSION_FILE = Path(__file__).parent / "src" / "mypkg" / "_version.py"


def git_version(default="0.0.0"):
    try:
        out = subprocess.run(
            ["git", "describe", "--tags", "--always", "--dirty"],
            capture_output=True, text=True, check=True, timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return default
    return out.lstrip("v") or default


def write_version():
    VERSION_FILE.write_text(f'__version__ = "{git_version()}"\n')


class BuildWithVersion(build_py):
    def run(self):
        write_version()
        super().run()


if not VERSION_FILE.exists():
    write_version()

setup(cmdclass={"build_py": BuildWithVersion})
