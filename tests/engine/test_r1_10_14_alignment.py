"""R1-10..R1-14: party alignment and realignment.

"A Faction may change its alignment only at the beginning of an Election Round and subject to the following
conditions: Any Faction that possesses the largest National Faction Vote of all the Factions that are aligned with
that Party cannot change its alignment. A Faction may realign only once in a Turn and must do so before a Primary
Election. A Faction that controlled the Presidency during the Business Phase of the previous turn may not change
its alignment."
"""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.mylantium.alignment import Window, check_realign, take_snapshot
from engine.mylantium.model import Faction, FactionCode, Party

W, F = Party.WHIG, Party.FEDERALIST
C = FactionCode


def faction(code: FactionCode, party: Party, votes: int) -> Faction:
    return Faction(code, party, vp=10, treasury=0, votes=votes)


FACTIONS = [faction(C.PL, W, 10), faction(C.GR, W, 14), faction(C.RN, W, 6),
            faction(C.PR, F, 20), faction(C.BH, F, 20), faction(C.BU, F, 3)]


@pytest.mark.parametrize(("when", "window", "realigned", "allowed"), [
    ("start of Election Round, before Primary", Window.OPEN, False, True),
    ("after Primary opened", Window.PRIMARY_OPENED, False, False),
    ("second request in same turn", Window.OPEN, True, False),
    ("Legislative Round", Window.NOT_ELECTION, False, False),
])
def test_TV1_I15_realignment_window_and_once_per_turn(when: str, window: Window, realigned: bool,
                                                       allowed: bool) -> None:
    """TV1-I15 (R1-11): RN may realign at the start of the Election Round, before the Primary, once a turn."""
    snapshot = take_snapshot(FACTIONS, president=None)
    rn = FACTIONS[2]
    if allowed:
        check_realign(rn, F, snapshot, window, realigned)
    else:
        with pytest.raises(RuleError, match="may realign only"):
            check_realign(rn, F, snapshot, window, realigned)


def test_the_largest_faction_of_a_party_is_locked() -> None:
    """R1-12a: the Grangers (14) are the largest Whigs."""
    snapshot = take_snapshot(FACTIONS, president=None)
    with pytest.raises(RuleError, match=r"largest National Faction Vote of the Whigs \(14\)"):
        check_realign(FACTIONS[1], F, snapshot, Window.OPEN, False)


def test_P1_03_a_tie_for_largest_locks_every_tied_faction() -> None:
    """P1-03: the Proles and the Brass Hats both have 20, the most of the Federalists: both are locked."""
    snapshot = take_snapshot(FACTIONS, president=None)
    assert set(snapshot.locks) == {C.GR, C.PR, C.BH}
    for f in FACTIONS[3:5]:
        with pytest.raises(RuleError, match="tied with"):
            check_realign(f, W, snapshot, Window.OPEN, False)


def test_the_previous_president_is_locked() -> None:
    """R1-12b: the Faction that controlled the Presidency in the previous turn's Business Phase."""
    snapshot = take_snapshot(FACTIONS, president=C.RN)
    with pytest.raises(RuleError, match="Presidency"):
        check_realign(FACTIONS[2], F, snapshot, Window.OPEN, False)


def test_P1_04_locks_come_from_the_snapshot_not_the_order_of_requests() -> None:
    """P1-04 (A1-03): the Bureaucrats (12) joining the Whigs would make them the Whigs' largest and so "unlock" the
    Plutocrats (10) on a sequential reading; the snapshot taken at the start of the round keeps the Plutocrats
    locked, whatever order the requests come in."""
    factions = [faction(C.PL, W, 10), faction(C.RN, W, 6), faction(C.PR, F, 20), faction(C.BU, F, 12)]
    snapshot = take_snapshot(factions, president=None)
    check_realign(factions[3], W, snapshot, Window.OPEN, False)
    after = [faction(C.PL, W, 10), faction(C.RN, W, 6), faction(C.PR, F, 20), faction(C.BU, W, 12)]
    assert C.PL not in take_snapshot(after, None).locks  # what a sequential reading would use
    with pytest.raises(RuleError, match="largest"):
        check_realign(factions[0], F, snapshot, Window.OPEN, False)


def test_R1_14_a_party_cannot_be_emptied() -> None:
    """R1-14: every party with a Faction keeps at least its largest one."""
    snapshot = take_snapshot(FACTIONS, president=None)
    for party in Party:
        members = [f for f in FACTIONS if f.party is party]
        assert any(f.code in snapshot.locks for f in members)


def test_realigning_to_the_same_party_or_when_withdrawn_is_refused() -> None:
    snapshot = take_snapshot(FACTIONS, president=None)
    with pytest.raises(RuleError, match="already Whigs"):
        check_realign(FACTIONS[2], W, snapshot, Window.OPEN, False)
    gone = Faction(C.RN, W, 0, 0, in_play=False)
    with pytest.raises(RuleError, match="withdrawn"):
        check_realign(gone, F, snapshot, Window.OPEN, False)


def test_withdrawn_factions_are_not_the_largest() -> None:
    gone = [Faction(C.GR, W, 0, 0, in_play=False, votes=99), faction(C.PL, W, 10)]
    assert set(take_snapshot(gone, None).locks) == {C.PL}
