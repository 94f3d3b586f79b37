# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test test-quick lint bench integration dist clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/arena run configs/checkers_round_robin.json $(ARGS)

test: $(STAMP_TEST)
	$(BIN)/python -m pytest -q -n 4

# The suite without the tests marked slow (Ray clusters, Chromium, hostile bots, starter kits).
test-quick: $(STAMP_TEST)
	$(BIN)/python -m pytest -q -n 4 -m 'not slow'

# Configured in pyproject.toml ([tool.ruff], [tool.mypy]); both must be clean.
lint: $(STAMP_TEST)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP_TEST)
	$(BIN)/python bench/perft_speed.py
	$(BIN)/python bench/engine_overhead.py
	$(BIN)/python bench/first_second.py
	$(BIN)/python bench/tournament_bench.py
	$(BIN)/python bench/fairness_bench.py
	$(BIN)/python bench/cpu_thief.py
	$(BIN)/python bench/cpu_thief.py --escape
	$(BIN)/python bench/referee_ply.py
	$(BIN)/python bench/ratios.py

integration: $(STAMP_TEST)
	bash integration_script.sh

# The sdist and the wheel (arena-bots) into dist/, after checking that the wheel installs into a
# fresh venv and plays (scripts/check_dist.sh).
dist: $(STAMP_TEST)
	bash scripts/check_dist.sh $(BIN)/python
	$(BIN)/python -m build --outdir dist . >/dev/null
	@ls dist

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build dist *.egg-info
