"""pytest-flaky-hunter: rerun tracking for flaky tests."""
__version__ = "0.4.2"
