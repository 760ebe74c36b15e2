
.PHONY: py-setup py-fmt py-lint py-test py-build
py-setup: ## create venv and install dev deps
	python3 -m venv .venv && .venv/bin/pip install -U pip && .venv/bin/pip install -e '.[dev]'
py-fmt:
	ruff format .
py-lint:
	ruff check .
py-test:
	pytest -q
py-build: ## build sdist and wheel
	python3 -m build
