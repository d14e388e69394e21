"""Golden images for the charts, compared as a player would see them: the same size, and (when the bytes differ,
as they do from one FreeType or matplotlib build to the next) nearly every pixel the same colour. Antialiasing
and hinting move a few edge pixels by a few shades; a moved label, a missing bar or another colour changes
thousands. Regenerate after a deliberate change with ``CLERK_REGEN_IMAGES=1`` and LOOK at the new image."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
from matplotlib.image import imread

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("CLERK_REGEN_IMAGES") == "1"
SHADE = 0.25
"""A pixel differs when one of its channels moves by more than a quarter of the range (antialiasing moves less)."""
SHARE = 0.004
"""At most 0.4% of the pixels may differ (a 1000 × 500 chart: 2,000 pixels, a word or two of hinting)."""


def pixels(png: bytes) -> np.ndarray:
    return imread(io.BytesIO(png), format="png")[:, :, :3]


def assert_matches_golden(png: bytes, name: str) -> None:
    """``png`` looks like ``tests/golden/<name>``; with ``CLERK_REGEN_IMAGES=1`` it becomes that golden image."""
    path = GOLDEN / name
    if REGENERATE:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(png)
    assert_looks_like_golden(png, name)


def assert_looks_like_golden(png: bytes, name: str) -> None:
    """The comparison alone, which never writes: for a test that compares some other picture with a golden image
    (regenerating must not make that picture the golden one)."""
    path = GOLDEN / name
    assert path.exists(), f"no {name}; create it with CLERK_REGEN_IMAGES=1 and look at it"
    want = path.read_bytes()
    if png == want:
        return
    got, expected = pixels(png), pixels(want)
    assert got.shape == expected.shape, f"{name} is {got.shape[1]}×{got.shape[0]}, the golden image " \
                                        f"{expected.shape[1]}×{expected.shape[0]}"
    changed = (np.abs(got - expected) > SHADE).any(axis=2).mean()
    assert changed <= SHARE, (f"{changed:.2%} of {name}'s pixels changed; look at it and regenerate it with "
                              "CLERK_REGEN_IMAGES=1 if the change is meant")
