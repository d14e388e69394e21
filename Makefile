# `make run`: the bot (the offline console when DISCORD_TOKEN is not set). `make test`: lint, types, tests.
PYTHON ?= python3.11
# Python writes the bytecode of what it imports into the venv once, for every later process to reuse: with
# PYTHONDONTWRITEBYTECODE set (as on the CI machine), each test worker and each bot process the tests start compiled
# discord.py, SQLAlchemy and Clerk again (about 1.3 s of CPU a start).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test test-long lint typecheck pytest console replay bench fuzz clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# --no-compile: Python compiles what it imports on first use, which is far less than everything installed (10 s less).
PIP_INSTALL := $(PY) -m pip install --disable-pip-version-check --no-compile -q -c requirements.lock
# The pinned packages are installed by uv, which pip installs first: on 2 cores, 2026-12-07, uv itself 3 s and the
# packages 4 s, where pip alone took 40 s (30 s for the packages, 8 s for the editable install's build), most of a
# fresh clone's `make test`. uv does not compile bytecode either. Where uv cannot be had, pip installs as before.
UV_VERSION := 0.13.9
UV_INSTALL = ($(PY) -m pip install --disable-pip-version-check -q uv==$(UV_VERSION) 2>/dev/null && \
	$(VENV)/bin/uv pip install --python $(PY) -q -c requirements.lock $(1)) || \
	(echo "make: uv $(UV_VERSION) could not be had or failed; installing with pip" && $(PIP_INSTALL) $(1))

$(STAMP): $(PY) pyproject.toml requirements.lock
	$(call UV_INSTALL,-e .)
	touch $@

# One run for the bot and the dev tools (a fresh clone's `make test` resolves once, not twice).
$(DEV_STAMP): $(PY) pyproject.toml requirements.lock requirements-dev.lock
	$(call UV_INSTALL,-c requirements-dev.lock -e '.[dev]')
	touch $(STAMP) $@

run: $(STAMP)
	$(PY) -m bot

bench: $(DEV_STAMP)
	$(PY) -m bench $(BENCH)

console: $(STAMP)
	$(PY) -m bot console

# Everything on SQLite (the PostgreSQL variants are left to test-postgres, so this stays under 3 minutes). Lint, types
# and tests run side by side, their output kept whole line by line: mypy's first run on a fresh clone
# (about 19-30 s, one core) overlaps the tests. One test worker a core and one more (at least 3, at most 8): a worker
# waits at times (a bot's start, a subprocess, a wait on Discord's pace), and a third worker on 2 cores fills those
# waits. Measured on 2 cores, 2026-12-07 22:51-23:06 UTC, pytest alone in turns, the host loaded by other runs (load
# 2-6): 148.6 s / 208.9 s at 3 workers against 182.9 s / 262.6 s at 2, the same CPU (253 / 286 s against 269 / 261 s).
# On 2026-12-06 (pytest alone, in turns) 4 workers had been slower than 2: 167 s / 197 s against 151 s / 164 s, the
# same tests taking a fifth more CPU (caches and switches); make test from a fresh clone 2:27 against 2:20.
# On 2026-12-07, on a slower host, make test from a fresh clone took 3:59 (README).
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n < 2 ? 3 : n > 7 ? 8 : n + 1 )))

test: $(DEV_STAMP)
	@$(MAKE) --no-print-directory -j3 --output-sync=line lint typecheck pytest

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .

typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy engine bot

pytest: $(DEV_STAMP)
	$(VENV)/bin/pytest -q -n $(TEST_WORKERS) --dist worksteal -k "not postgresql"

# The long runs (pytest marker `long`): 5,000 DM ballots under Discord's global rate limit, in-process and with a
# kill -9 halfway (about 2 x 110 s; docs/reliability.md), and the crash tests that kill the bot's process and start it
# again (tests/e2e/test_crash.py, test_council_crash.py, test_outbox.py: 4-8 s each, out of `make test` since
# 2026-12-06 to keep it under 3 minutes), and the tests that wait on Discord's pace (paced sends, 429s, discord.py's 5 s
# before identifying again, and the in-process burst at 150 ballots: since 2026-12-07). Four workers: at -n 2
# both 110 s runs could fall to one worker, one after the other (3:39 in all, 1:56 at -n 4).
test-long: $(DEV_STAMP)
	$(VENV)/bin/pytest -q -p no:randomly -n 4 --dist load -m long -s

# The whole suite on PostgreSQL (needs TEST_POSTGRES_URL): the PostgreSQL variants of the store and service tests,
# and the end-to-end tests and replays with CLERK_TEST_BACKEND=postgresql. The pure rules' tests ran in `test`.
test-postgres: $(DEV_STAMP)
	@test -n "$(TEST_POSTGRES_URL)" || { echo "test-postgres needs TEST_POSTGRES_URL"; exit 2; }
	CLERK_TEST_BACKEND=postgresql $(VENV)/bin/pytest -q -n auto --dist worksteal -k "not sqlite" --ignore=tests/engine

# A long fuzz of every text parser and of the front door (minutes): random examples this time (not the repeatable
# ones of make test); what fails is appended to tests/fuzz_corpus.txt, which every make test replays.
FUZZ_EXAMPLES ?= 3000
fuzz: $(DEV_STAMP)
	CLERK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) CLERK_FUZZ_RANDOM=1 CLERK_FUZZ_CORPUS=1 $(VENV)/bin/pytest -q -n auto \
		--dist worksteal -p no:randomly tests/test_fuzz_parsers.py tests/service/test_fuzz_front.py \
		tests/service/test_hostile_text_front.py -k "not postgresql"

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
