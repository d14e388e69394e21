"""The test modules' assertions rewritten once per checkout, not once per worker (the suite's speed, not a behaviour).

pytest rewrites the ``assert`` statements of every test module and conftest.py as it imports them, and keeps the
result beside the module (``__pycache__/*.cpython-311-pytest-9.2.0.pyc``, checked against a hash of the source).
In a fresh clone nothing is kept yet, and each pytest-xdist worker imports every module, so each rewrote all of
them: about 6.7 s of CPU a worker for tests/ (2026-12-07, two workers on two cores, beside mypy's first run), most
of the time before the first test of ``make test`` on a fresh clone (CI's case).

``rewrite_once``, called by the controller before it starts the workers, finds the modules with nothing kept and
rewrites them in as many forked processes as there will be workers, through pytest's own functions (the same code
and the same file a worker would write); the workers then find them done. Where anything is already kept (a second
run) it costs a look at each file's name. If pytest's private functions are not there (another pytest), or a module
fails to rewrite, nothing is done for it and the worker rewrites it as before: this only saves work."""

from __future__ import annotations

import fnmatch
import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _waiting(config: pytest.Config, tail: str) -> list[Path]:
    """The modules under tests/ that pytest would rewrite and has not kept a rewrite of, the largest first."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    found = []
    for path in TESTS.rglob("*.py"):
        if any(fnmatch.fnmatch(path.name, p) for p in patterns) and not (
                path.parent / "__pycache__" / (path.name[:-3] + tail)).exists():
            found.append(path)
    return sorted(found, key=lambda p: -p.stat().st_size)


def rewrite_once(config: pytest.Config) -> None:
    workers = getattr(config.option, "numprocesses", None)
    if (hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2 or sys.dont_write_bytecode
            or sys.pycache_prefix or config.getoption("assertmode") != "rewrite"):
        return
    try:
        from _pytest.assertion import assertstate_key
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc
    except ImportError:
        return
    waiting = _waiting(config, PYC_TAIL)
    if len(waiting) < 2 * workers:  # a few changed modules: the workers' own rewriting is as quick
        return
    state = config.stash[assertstate_key]
    children = []
    forks = min(workers, os.cpu_count() or 1)
    for share in range(forks):
        pid = os.fork()
        if pid == 0:  # the child: its share, then out at once (no pytest or atexit teardown in a fork)
            try:
                for path in waiting[share::forks]:
                    try:
                        source_hash, code = _rewrite_test(path, config)
                        (path.parent / "__pycache__").mkdir(exist_ok=True)
                        _write_pyc(state, code, source_hash, path.parent / "__pycache__" / (path.name[:-3] + PYC_TAIL))
                    except Exception:  # the worker rewrites it itself, as before
                        continue
            finally:
                os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
