"""Benchmarks: ratios of Clerk against the floors of its own stack, measured in one run (`make bench`).

They print their figures; nothing here is a timed assertion (docs/performance.md keeps the latest table)."""

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parents[1] / "tests")
if TESTS not in sys.path:  # the fake Discord of tests/fakediscord, which the end-to-end benchmarks drive
    sys.path.insert(0, TESTS)
