import argparse
import os
import sys


def _setup_django():
    if "DJANGO_SETTINGS_MODULE" not in os.environ:
        sys.exit("DJANGO_SETTINGS_MODULE is not set")
    sys.path.insert(0, os.getcwd())
    import django

    django.setup()


def plan(app_label):
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.operations.special import RunPython, RunSQL

    loader = MigrationLoader(None, ignore_no_migrations=True)
    nodes = sorted(k for k in loader.disk_migrations if k[0] == app_label)
    for key in nodes:
        mig = loader.disk_migrations[key]
        flags = []
        for op in mig.operations:
            if isinstance(op, RunPython) and not op.elidable:
                flags.append("RunPython(not elidable)")
            if isinstance(op, RunPython) and op.reverse_code is None:
                flags.append("RunPython(no reverse)")
            if isinstance(op, RunSQL) and op.reverse_sql is None:
                flags.append("RunSQL(no reverse)")
        print(f"{key[1]:<50} {len(mig.operations):>3} ops  {' '.join(flags)}")


def run(app_label, upto):
    from django.core.management import call_command

    call_command("squashmigrations", app_label, upto, interactive=False)


def verify(app_label):
    from django.conf import settings
    from django.core.management import call_command

    name = str(settings.DATABASES["default"]["NAME"])
    if not os.path.basename(name).startswith("test_"):
        sys.exit(f"refusing to verify against non-test database {name!r}")
    call_command("migrate", app_label, "zero", interactive=False)
    call_command("migrate", app_label, interactive=False)


def main(argv=None):
    p = argparse.ArgumentParser(prog="djsquash")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("plan").add_argument("app")
    r = sub.add_parser("run")
    r.add_argument("app")
    r.add_argument("--upto", required=True)
    sub.add_parser("verify").add_argument("app")
    a = p.parse_args(argv)
    _setup_django()
    {"plan": lambda: plan(a.app), "run": lambda: run(a.app, a.upto), "verify": lambda: verify(a.app)}[a.cmd]()


if __name__ == "__main__":
    main()
