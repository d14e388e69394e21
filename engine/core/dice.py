"""Dice anyone can check (docs/dice.md): every face Clerk rolls is a documented function of a secret seed, and the
seed is sealed by a posted commitment before any roll matters and revealed afterwards.

All values are text, so a player can redo each step with ``sha256sum`` or Python's ``hashlib``:

* the commitment of a seed is ``sha256("<seed>|<salt>")`` (hex digest of the UTF-8 text);
* the face of a roll named ``purpose`` (its ``index``-th roll under that name, 0 for the first) of a die with
  ``sides`` faces: ``x = int(sha256("<seed>|<purpose>|<index>"), 16)``; if ``x`` is below the largest multiple of
  ``sides`` not above 2**256, the face is ``1 + x mod sides``; otherwise (a chance below one in 10**75) the next try
  hashes ``"<seed>|<purpose>|<index>|<k>"`` for k = 1, 2, ... (rejection sampling: every face equally likely);
* a face a moderator set instead of a roll is sealed by ``sha256("<salt>|<purpose>|<face>")``.

Pure: ``hashlib`` only, no randomness, no I/O."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

SPAN = 2 ** 256
"""How many values a SHA-256 digest can take."""


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commitment(seed: str, salt: str) -> str:
    """What is posted before the rolls: it binds the seed without showing it."""
    return sha256_hex(f"{seed}|{salt}")


def sealed_face(salt: str, purpose: str, face: int) -> str:
    """What is posted for a face a moderator set (rolled themselves): it binds the face without showing it."""
    return sha256_hex(f"{salt}|{purpose}|{face}")


def roll_text(seed: str, purpose: str, index: int, attempt: int = 0) -> str:
    """The text hashed for try ``attempt`` of a roll."""
    base = f"{seed}|{purpose}|{index}"
    return base if attempt == 0 else f"{base}|{attempt}"


def face(seed: str, purpose: str, index: int, sides: int) -> int:
    """The face (1..sides) of the ``index``-th roll named ``purpose`` under ``seed``."""
    if sides < 2:
        raise ValueError(f"a die has at least 2 sides, not {sides}")
    if index < 0:
        raise ValueError(f"a roll's index is 0 or more, not {index}")
    limit = SPAN - SPAN % sides
    attempt = 0
    while True:
        x = int(sha256_hex(roll_text(seed, purpose, index, attempt)), 16)
        if x < limit:
            return 1 + x % sides
        attempt += 1


@dataclass(frozen=True)
class Roll:
    """One roll as recorded: by Clerk from the seed, or a face a moderator set (``sealed`` is then its seal)."""

    purpose: str
    index: int
    sides: int
    face: int
    sealed: str | None = None


@dataclass(frozen=True)
class Checked:
    """What checking one roll found: ``expected`` is the face the seed gives (None for a moderator's face)."""

    roll: Roll
    expected: int | None
    ok: bool
    problem: str = ""


@dataclass(frozen=True)
class Verdict:
    """Checking a revealed seed and its rolls against the posted commitment."""

    commitment_ok: bool
    rolls: tuple[Checked, ...]

    @property
    def ok(self) -> bool:
        return self.commitment_ok and all(c.ok for c in self.rolls)


def check_roll(seed: str, salt: str, roll: Roll) -> Checked:
    if roll.sealed is not None:
        if not 1 <= roll.face <= roll.sides:
            return Checked(roll, None, False, f"the face {roll.face} is not on a d{roll.sides}")
        if sealed_face(salt, roll.purpose, roll.face) != roll.sealed:
            return Checked(roll, None, False, "the moderator's face does not match the seal posted before the close")
        return Checked(roll, None, True)
    expected = face(seed, roll.purpose, roll.index, roll.sides)
    if expected != roll.face:
        return Checked(roll, expected, False, f"the seed gives {expected}, not {roll.face}")
    return Checked(roll, expected, True)


def verify(seed: str, salt: str, posted: str, rolls: tuple[Roll, ...] | list[Roll]) -> Verdict:
    """Does the revealed seed match the commitment ``posted``, and is every roll what the seed gives?"""
    return Verdict(commitment(seed, salt) == posted, tuple(check_roll(seed, salt, r) for r in rolls))
