# The two commands of the README:  make run  ·  make test
# Everything else here is what they need on a fresh machine.
VENV   ?= .venv
PY      = $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test setup lint bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

run: setup
	$(VENV)/bin/majiang fan '[123m1][EEE2]{9999s}456pC C' --explain

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy

test: lint
	$(VENV)/bin/pytest

bench: setup
	$(PY) benchmarks/fan_bench.py

clean:
	rm -rf $(VENV) build *.egg-info
