# The two commands of the README:  make run  ·  make test
# Everything else here is what they need on a fresh machine.
VENV   ?= .venv
PY      = $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test test-learn setup services lint bench clean

# a virtual environment with majiang (its C speedups built in place) and the dev tools
$(VENV)/.installed: pyproject.toml setup.py $(wildcard src/majiang/_speedups/*.c src/majiang/_speedups/*.h)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

# what the tests talk to: Debian's chromium for the browser tests, PostgreSQL and Redis on loopback
services:
	sh scripts/ensure-debian.sh
	sh scripts/ensure-services.sh

# the hall on the SQLite default (var/majiang.db), with bots, at the printed URL
run: setup
	$(VENV)/bin/majiang serve

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/ruff format --check src tests benchmarks examples
	$(VENV)/bin/mypy

test: lint services
	$(VENV)/bin/pytest

# the tests that need torch (behaviour cloning, docs/rl.md): the learn extra, then tests/learn
test-learn: setup
	$(PY) -m pip install --quiet -e '.[learn]'
	MAJIANG_LEARN_TESTS=1 $(VENV)/bin/pytest tests/learn

# the benchmarks of BENCHMARKS.md, with their yardsticks (PyMahjongGB from dev, rlcard from the bench extra)
bench: setup
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) benchmarks/fan_bench.py
	$(PY) benchmarks/shanten_bench.py
	$(PY) benchmarks/waits_bench.py
	$(PY) benchmarks/engine_bench.py
	$(PY) benchmarks/nanchang_bench.py
	$(PY) benchmarks/rl_bench.py
	$(PY) benchmarks/load.py

clean:
	rm -rf $(VENV) build *.egg-info
