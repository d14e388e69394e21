"""Corrections with their consequences for weighted Adjutant General elections (issue 19): a ledger edit made as a
correction (``since:N`` on ``/player set``, ``/holding add``, ``/holding remove``) changes the V(p) that a closed
weighted election counted when the election closed in round N or later before the edit was made; so does a corrected
transfer (``/transfer correct``) that had moved an Elector or planet, read as a ``HoldingMove``: where the holding
should have been at each close. Each voter's V(p) as of the close is rebuilt from the ledger's events by
``votes_asof.votes_at`` twice, as they were and with the corrections placed just before the close (a corrected
transfer as a move of the holding to where it should have been); the difference is added to the V(p) the close
recorded, and the ballots are tallied again by the close's own ``tally_ag``. Unweighted elections count one ballot
each and are never recounted. Nothing recorded is changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.landsdraad.adjutant import tally_ag
from engine.service.landsdraad.adjutant import counted_of
from engine.service.landsdraad.votes_asof import KINDS, votes_at
from engine.store.models import Event, Player

EDIT_KINDS = ("PlayerChanged", "HoldingAdded", "HoldingRemoved")


@dataclass(frozen=True)
class HoldingMove:
    """A corrected transfer that had moved Elector or planet ``holding`` (by event ``applied``): under the corrected
    entry the holding is with ``recipient`` in the closes of rounds after ``since`` and in those of round ``since``
    made after event ``start`` (when the entry was recorded; 0 when the correction moved it to another round: then
    from that round's opening), and with ``sender`` otherwise (``recipient`` None: the correction cancels the transfer
    or makes it move something else). The closes after event ``until`` (a later move of the holding: another applied
    transfer, ``/holding remove|add``) read it where that move put it, and the correction does not reach them."""

    holding: str
    sender: int
    recipient: int | None
    since: int
    start: int
    until: int | None = None

    def holder_at(self, number: int, seq: int) -> int | None:
        """The user who should have held the holding at a close (event ``seq``, in round ``number``); None when the
        correction does not reach that close."""
        if self.until is not None and seq > self.until:
            return None
        if self.recipient is not None and (number > self.since or (number == self.since and seq > self.start)):
            return self.recipient
        return self.sender


@dataclass(frozen=True)
class AgCorrection:
    """A closed weighted AG election counted again under the corrected ledger (the voters' V(p): moderators only)."""

    number: int
    posted: tuple[tuple[str, int], ...]
    recounted: tuple[tuple[str, int], ...]
    weights: Mapping[str, tuple[int, int]]
    """Voter name -> (V(p) the close counted, V(p) corrected), for the voters whose V(p) changes."""
    ballots: tuple[tuple[str, str], ...] = ()
    """(voter, candidate) of each ballot counted, in the order cast (public, R0-30)."""

    @property
    def differs(self) -> bool:
        return self.posted != self.recounted

    @property
    def winner_changed(self) -> bool:
        return (self.posted[:1] or (("", 0),))[0][0] != (self.recounted[:1] or (("", 0),))[0][0]


def _round_at(events: Sequence[tuple[int, str, Mapping[str, Any]]], close: tuple[int, Mapping[str, Any]]) -> int:
    """The round the game was in when the election closed: its ``with_round``, else the last round opened before."""
    seq, payload = close
    if payload.get("with_round") is not None:
        return int(payload["with_round"])
    opened = [int(p["round"]) for s, kind, p in events if kind == "RoundOpened" and s < seq]
    return opened[-1] if opened else 0


def recount_election(events: Sequence[tuple[int, str, Mapping[str, Any]]], close: tuple[int, Mapping[str, Any]],
                     users: Mapping[str, int], edits: Sequence[int] | None = None,
                     moves: Sequence[HoldingMove] = ()) -> AgCorrection | None:
    """The weighted election that ``close`` (seq, payload of ``AgElectionClosed``) recorded, counted with the
    corrections that reach it: the ``since`` edits made after it that reach its round (of seqs ``edits`` only, if
    given) and the corrected transfers ``moves``; None when it was unweighted, recorded no V(p), or no correction
    changes a voter's V(p)."""
    seq, payload = close
    counted = counted_of(payload)
    if counted is None or not payload.get("weighted") or any(c.get("weight") is None for c in payload["counted"]):
        return None
    number = _round_at(events, close)
    ledger = [e for e in events if e[1] in KINDS]
    moved = [e for e in ledger if e[0] > seq and e[1] in EDIT_KINDS and e[2].get("since") is not None
             and int(e[2]["since"]) <= number and (edits is None or e[0] in edits)]
    placed = [(seq, "TransferApplied", {"holding": m.holding, "to": holder}) for m in moves
              if (holder := m.holder_at(number, seq)) is not None]
    if not moved and not placed:
        return None
    before = [e for e in ledger if e[0] <= seq]
    corrected = [*before, *placed, *((seq, kind, p) for _, kind, p in moved)]
    ballots, weights, names = counted
    assert weights is not None
    changed: dict[str, tuple[int, int]] = {}
    new = dict(weights)
    for voter, weight in weights.items():
        user = users.get(names[voter])
        if user is None:
            continue
        was, now = votes_at(before, user, seq), votes_at(corrected, user, seq)
        if was is None or now is None or was == now:
            continue
        new[voter] = max(0, weight + now - was)
        changed[names[voter]] = (weight, new[voter])
    if not changed:
        return None
    posted = tuple((str(c), int(v)) for c, v in payload.get("standings", ()))
    again = tuple((names[c], n) for c, n, _ in tally_ag(ballots, new))
    cast = tuple((str(c["voter"]), str(c["candidate"])) for c in payload["counted"])
    return AgCorrection(int(payload["number"]), posted, again, changed, cast)


def _read(session: Session, game_id: int) -> tuple[list[tuple[int, str, dict[str, Any]]], dict[str, int]]:
    rows = session.execute(select(Event.seq, Event.kind, Event.payload).where(
        Event.game_id == game_id, Event.kind.in_((*KINDS, "RoundOpened", "AgElectionClosed"))).order_by(Event.seq))
    events = [(int(s), str(k), dict(p)) for s, k, p in rows.all()]
    users = {str(name): int(user) for name, user in session.execute(
        select(Player.name, Player.user_id).where(Player.game_id == game_id)).all()}
    return events, users


def ag_differing(session: Session, game_id: int, moves: Sequence[HoldingMove] = ()) -> list[AgCorrection]:
    """Every closed weighted AG election that comes out differently under every correction made so far (the ``since``
    edits and the corrected transfers ``moves``), oldest first."""
    events, users = _read(session, game_id)
    found = (recount_election(events, (s, p), users, None, moves) for s, kind, p in events
             if kind == "AgElectionClosed")
    return [r for r in found if r is not None and r.differs]


def ag_after(session: Session, game_id: int, moves: Sequence[HoldingMove], *, edit_seq: Sequence[int] = (),
             move: HoldingMove | None = None) -> list[AgCorrection]:
    """The closed weighted AG elections that one correction reaches (the edit recorded at ``edit_seq``: its events,
    two for ``/holding set``, or the
    corrected transfer ``move``), counted under every correction made so far (``moves`` the corrected transfers); only
    those that come out differently, oldest first."""
    events, users = _read(session, game_id)
    edits = list(edit_seq)
    mine = [] if move is None else [move]
    found = []
    for s, kind, p in events:
        if kind != "AgElectionClosed" or recount_election(events, (s, p), users, edits, mine) is None:
            continue
        every = recount_election(events, (s, p), users, None, moves)
        if every is not None and every.differs:
            found.append(every)
    return found
