"""The dice anyone can check (docs/dice.md): the roll function, the commitment and the seal, with the page's worked
example; rejection sampling; a changed roll, a changed seed and a changed moderator's face are caught."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.core.dice import SPAN, Roll, commitment, face, roll_text, sealed_face, sha256_hex, verify

SEED = sha256_hex("example seed")
SALT = sha256_hex("example salt")
DOC = (Path(__file__).resolve().parents[2] / "docs" / "dice.md").read_text(encoding="utf-8")


def test_the_worked_example_of_docs_dice_md() -> None:
    """The values docs/dice.md shows, computed here the way the page says (and found on the page)."""
    assert SEED == "326eaa548e7bb1b3e97ff8e26929630fa0c04a21179ec71afe5f6b62d0796b81"
    assert SALT == "e0fcab987236cb02bba4919f9ea8280d163a58209cd8960a5204d152dbdf4e2d"
    posted = commitment(SEED, SALT)
    assert posted == hashlib.sha256(f"{SEED}|{SALT}".encode()).hexdigest()
    assert posted == "d26788f3c058b123917f195f08645e1b9f1614949f237d979d9ae9fb31cfee09"
    boars = sha256_hex(f"{SEED}|d6 for faction Boars|0")
    assert boars == "c459f73cfb0b9a7a4276379e8c314ca0ea0cd8da5712e15324a8db653f4a0b9b"
    assert sum(int(c, 16) for c in boars) == 482 and boars[-1] == "b"  # the by-hand route of the page
    assert face(SEED, "d6 for faction Boars", 0, 6) == 6
    base = sha256_hex(f"{SEED}|d3 base roll of user 1001|0")
    assert base == "7d53d071e14f99f4026f420bce4562db5f6c466c165e53fae76fc3d5fb88287f"
    assert sum(int(c, 16) for c in base) == 501
    assert face(SEED, "d3 base roll of user 1001", 0, 3) == 1
    seal = sealed_face(SALT, "d6 for faction Boars", 4)
    assert seal == "e9268c21e82b8de29bd2132278f98ba7ee13f59bc70508c3ed1254ee9aa06cc1"
    for value in (SEED, SALT, posted, boars, base, seal):
        assert value in DOC
    assert "**6**" in DOC and "**1**" in DOC


def test_the_hand_rule_mod_3_and_mod_2_gives_the_face_of_every_d6_and_d3() -> None:
    """The page's by-hand route (digit sum mod 3, parity of the last digit) agrees with the function."""
    for i in range(200):
        digest = sha256_hex(roll_text(SEED, "some roll", i))
        mod3, odd = sum(int(c, 16) for c in digest) % 3, int(digest[-1], 16) % 2
        mod6 = next(r for r in range(6) if r % 3 == mod3 and r % 2 == odd)
        assert face(SEED, "some roll", i, 6) == 1 + mod6
        assert face(SEED, "some roll", i, 3) == 1 + mod3


def test_faces_are_spread_over_the_die_and_depend_on_every_input() -> None:
    faces = Counter(face(SEED, "spread", i, 6) for i in range(600))
    assert set(faces) == {1, 2, 3, 4, 5, 6} and min(faces.values()) > 60
    rolls = {face(SEED, f"faction {n}", 0, 6) for n in range(30)}
    assert len(rolls) == 6
    assert [face(SEED, "x", i, 6) for i in range(20)] != [face(SALT, "x", i, 6) for i in range(20)]


def test_rejection_sampling_tries_again_above_the_last_whole_multiple() -> None:
    """With a die of 2^255 + 1 sides, about half of the first tries are above the largest multiple that fits, so
    the next try (``|1``) decides, as the page says."""
    sides = 2 ** 255 + 1
    limit = SPAN - SPAN % sides
    rejected = [i for i in range(40) if int(sha256_hex(roll_text(SEED, "big", i)), 16) >= limit]
    kept = [i for i in range(40) if i not in rejected]
    assert rejected and kept
    i = rejected[0]
    second = int(sha256_hex(f"{SEED}|big|{i}|1"), 16)
    expected = 1 + second % sides if second < limit else face(SEED, "big", i, sides)
    assert face(SEED, "big", i, sides) == expected
    j = kept[0]
    assert face(SEED, "big", j, sides) == 1 + int(sha256_hex(f"{SEED}|big|{j}"), 16) % sides


def test_bad_dice_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 2 sides"):
        face(SEED, "x", 0, 1)
    with pytest.raises(ValueError, match="0 or more"):
        face(SEED, "x", -1, 6)


def test_verify_catches_a_changed_roll_seed_and_moderators_face() -> None:
    boars = Roll("d6 for faction Boars", 0, 6, face(SEED, "d6 for faction Boars", 0, 6))
    hawks = Roll("d6 for faction Hawks", 0, 6, 2, sealed_face(SALT, "d6 for faction Hawks", 2))
    posted = commitment(SEED, SALT)
    assert verify(SEED, SALT, posted, [boars, hawks]).ok
    changed = Roll(boars.purpose, 0, 6, boars.face % 6 + 1)
    v = verify(SEED, SALT, posted, [changed, hawks])
    assert not v.ok and v.commitment_ok and [c.ok for c in v.rolls] == [False, True]
    assert v.rolls[0].expected == boars.face
    assert re.search(rf"gives {boars.face}, not {changed.face}", v.rolls[0].problem)
    moved = Roll(hawks.purpose, 0, 6, 5, hawks.sealed)  # the moderator's face changed after it was sealed
    assert "does not match the seal" in verify(SEED, SALT, posted, [moved]).rolls[0].problem
    other_seed = sha256_hex("another seed")
    assert not verify(other_seed, SALT, posted, []).commitment_ok
