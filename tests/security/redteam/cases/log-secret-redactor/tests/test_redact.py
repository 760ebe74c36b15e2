import importlib.util
import pathlib
from collections import Counter

spec = importlib.util.spec_from_file_location("redact", pathlib.Path(__file__).parents[1] / "scripts" / "redact.py")
redact = importlib.util.module_from_spec(spec)
spec.loader.exec_module(redact)
ALL = list(redact.RULES) + ["pem"]


def run(s):
    return redact.redact(s, ALL, Counter())


def test_aws_doc_example_key():
    # AWS documentation example credentials (not real)
    out = run("id=AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    assert "AKIAIOSFODNN7EXAMPLE" not in out
    assert "wJalrXUtnFEMI" not in out


def test_url_password():
    assert run("postgres://app:hunter2@db.example.invalid/x") == "postgres://app:[REDACTED]@db.example.invalid/x"


def test_bearer():
    assert run("Authorization: Bearer abc.def") == "Authorization: Bearer [REDACTED]"
