"""bench/__main__.py sets its process up as ``python -m bot`` does (the in-process figures run the service there):
the imports frozen out of the garbage collector's way, and the collector on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_bench_freezes_its_imports_as_the_bot_does() -> None:
    probe = ("import gc; from bench.__main__ import prepare; assert gc.get_freeze_count() == 0; prepare(); "
             "print(gc.get_freeze_count(), gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, enabled = done.stdout.split()
    assert int(frozen) > 10_000  # the imports of the service, SQLAlchemy and discord.py
    assert enabled == "True"
