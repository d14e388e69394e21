# `make run`: the bot (the offline console when DISCORD_TOKEN is not set). `make test`: lint, types, tests.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck pytest console replay bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml requirements.lock
	$(PY) -m pip install --disable-pip-version-check -q -c requirements.lock -e .
	touch $@

$(DEV_STAMP): $(STAMP) requirements-dev.lock
	$(PY) -m pip install --disable-pip-version-check -q -c requirements.lock -c requirements-dev.lock -e '.[dev]'
	touch $@

run: $(STAMP)
	$(PY) -m bot

bench: $(DEV_STAMP)
	$(PY) -m bench $(BENCH)

console: $(STAMP)
	$(PY) -m bot console

test: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy engine
	$(VENV)/bin/pytest -q -n auto

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
