import argparse
import datetime
import pathlib
import re
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

VERSION_RE = re.compile(r'^__version__\s*=\s*["\']([^"\']+)["\']', re.M)


def bump(version, part):
    major, minor, patch = (int(x) for x in version.split(".")[:3])
    if part == "major":
        return f"{major + 1}.0.0"
    if part == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def find_init(root, name):
    for cand in (root / "src" / name / "__init__.py", root / name / "__init__.py"):
        if cand.exists():
            return cand
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="pvsync")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bump", choices=["patch", "minor", "major"])
    ap.add_argument("--root", default=".")
    args = ap.parse_args(argv)

    root = pathlib.Path(args.root).resolve()
    pyproject = root / "pyproject.toml"
    data = tomllib.loads(pyproject.read_text())
    project = data.get("project", {})
    if "version" not in project:
        print("version is dynamic; edit it in the build backend config", file=sys.stderr)
        return 2
    version = project["version"]
    name = project["name"].replace("-", "_")

    if args.bump:
        new = bump(version, args.bump)
        text = pyproject.read_text().replace(f'version = "{version}"', f'version = "{new}"', 1)
        pyproject.write_text(text)
        version = new

    init = find_init(root, name)
    drift = []
    if init:
        m = VERSION_RE.search(init.read_text())
        if m and m.group(1) != version:
            if args.check and not args.bump:
                drift.append(str(init))
            else:
                init.write_text(VERSION_RE.sub(f'__version__ = "{version}"', init.read_text()))
    changelog = root / "CHANGELOG.md"
    if changelog.exists() and f"## [{version}]" not in changelog.read_text():
        if args.check and not args.bump:
            drift.append(str(changelog))
        else:
            today = datetime.date.today().isoformat()
            lines = changelog.read_text().splitlines(keepends=True)
            idx = next((i for i, l in enumerate(lines) if l.startswith("## ")), len(lines))
            lines.insert(idx, f"## [{version}] - {today}\n\n")
            changelog.write_text("".join(lines))

    if drift:
        print("out of sync: " + ", ".join(drift))
        return 1
    print("in sync" if args.check else f"version {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
