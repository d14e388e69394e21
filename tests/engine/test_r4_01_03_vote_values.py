"""R4-01..R4-03: printed Vote values after the ruling of 2026-10-15, Convocants and the Ten.

R4-01: "Each of the Ten prints Vote 2, on its Fallen face as well as its Prime face. Every other Character that
prints Vote prints 1. A Character that prints 0 keeps 0 … Each Homeworld prints Vote 1. Other cards keep their
printed values. No card prints Vote 3."
R4-02: "A Convocant is any Character with Vote ≥ 1, Pallarchs included." The Seat bonus never makes one."""

from __future__ import annotations

import pytest
from convocate_f4 import character

from engine.convocate.board import Kind, printed_vote
from engine.convocate.votes import is_convocant, vote_of
from engine.core.errors import RuleError


@pytest.mark.parametrize(
    ("card", "kind", "printed", "pallarch", "vote", "convocant"),
    [
        ("any Pallarch, Prime face", Kind.CHARACTER, 2, True, 2, True),
        ("any Pallarch, Fallen face", Kind.CHARACTER, 1, True, 2, True),
        ("High King Corovan III (sovereign, not a Pallarch)", Kind.CHARACTER, 3, False, 1, True),
        ("other Character printing Vote", Kind.CHARACTER, 1, False, 1, True),
        ("Character printing 0", Kind.CHARACTER, 0, False, 0, False),
    ],
)
def test_TV4_S03_printed_vote_values(card: str, kind: Kind, printed: int, pallarch: bool, vote: int,
                                     convocant: bool) -> None:
    """TV4-S03: a Pallarch is 2 on both faces (whatever old data says), every other Character that prints Vote is 1
    (Corovan III's old 3 included), 0 stays 0; a Convocant is a Character with Vote 1 or more."""
    assert printed_vote(kind, printed, pallarch) == vote
    assert is_convocant(character("X", "A", printed, pallarch=pallarch)) is convocant


def test_TV4_S03_any_homeworld_prints_1() -> None:
    assert printed_vote(Kind.HOMEWORLD, 0) == printed_vote(Kind.HOMEWORLD, 3) == 1


@pytest.mark.parametrize("kind", [Kind.LOCATION, Kind.GROUND_UNIT, Kind.PERMANENT, Kind.SEAT])
def test_TV4_S03_no_card_prints_vote_3(kind: Kind) -> None:
    """TV4-S03 ``vote_never: 3``: other cards keep their printed value, but none prints 3."""
    assert printed_vote(kind, 2) == 2 and printed_vote(kind, 0) == 0
    with pytest.raises(RuleError, match="No card prints Vote 3"):
        printed_vote(kind, 3)
    assert all(printed_vote(Kind.CHARACTER, v, p) <= 2 for v in range(6) for p in (False, True))


def test_only_a_character_is_a_pallarch() -> None:
    """R4-03: the Ten are Characters (Pallarchs); the mark means nothing on another card."""
    with pytest.raises(RuleError, match="Only a Character"):
        printed_vote(Kind.LOCATION, 1, pallarch=True)


def test_a_location_is_never_a_convocant() -> None:
    """R4-02: only Characters are Convocants."""
    from convocate_f4 import location

    assert not is_convocant(location("L1", "A", 2))


def test_P4_09_a_temporary_vote_on_a_character_makes_it_a_convocant_while_it_lasts() -> None:
    """P4-09: yes, if the effect targets the Character (switchable off)."""
    z = character("Z_A", "A", 0, bonus=1)
    assert vote_of(z) == 1 and is_convocant(z)
    assert not is_convocant(z, temp_counts=False)
