"""A player's V(p) as the ledger stood at an earlier event (``/why votes round:N``, issue 19): the ledger's events up
to that one replayed into what ``engine.landsdraad.votes.vote_breakdown_explained`` takes (scores and their maxima,
the d3, misc votes, Electors and planets), each with the events it came from.

What changes V(p) is recorded in the events this module reads: ``PlayerAdded`` (the scores and the d3; a rejoin starts
them again, misc and holdings as they were left), ``PlayerChanged`` (scores, the d3, misc; the maxima only rise, but
as a correction's ``highest`` sets them), and where each Elector or planet was (``HoldingAdded``, ``HoldingRemoved``, a
``TransferApplied`` that moved it). Pure: it reads a list of ``(seq, kind, payload)`` and no database."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.derivation import Derivation, Step
from engine.landsdraad.model import Attributes, Elector, Planet, Tier, quality_of
from engine.landsdraad.votes import vote_breakdown, vote_breakdown_explained

KINDS = ("PlayerAdded", "PlayerChanged", "HoldingAdded", "HoldingRemoved", "TransferApplied")
"""The events a player's V(p) is rebuilt from."""


@dataclass
class _Held:
    holder: int
    kind: str
    name: str
    grade: str
    votes: int
    homeworld: bool
    events: tuple[int, ...]


@dataclass(frozen=True)
class LedgerThen:
    """A player's part of the ledger as of an event: what V(p) is computed from, and where each came from."""

    attributes: Attributes
    misc: int
    electors: tuple[Elector, ...]
    planets: tuple[Planet, ...]
    attribute_events: tuple[int, ...]
    """The events that set the scores, the d3 and misc (the player's ``PlayerAdded`` and ``PlayerChanged``)."""
    holding_events: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Each holding's name -> the events that gave it to the player (added, moved by a transfer)."""


def ledger_then(events: Iterable[tuple[int, str, Mapping[str, Any]]], user_id: int, upto: int) -> LedgerThen | None:
    """User ``user_id``'s part of the ledger after every event of ``events`` up to seq ``upto`` (inclusive); None if
    no ``PlayerAdded`` of theirs comes before it (their scores and d3 are not in the events read)."""
    attributes: Attributes | None = None
    misc = 0
    attribute_events: list[int] = []
    held: dict[str, _Held] = {}
    for seq, kind, p in events:
        if seq > upto:
            break
        mine = p.get("user_id") == user_id
        if kind == "PlayerAdded" and mine:
            attributes = Attributes.start(int(p["diplomacy"]), int(p["command"]), int(p["intrigue"]), int(p["roll"]))
            if not p.get("rejoined"):
                misc, attribute_events = 0, []
            attribute_events.append(seq)
        elif kind == "PlayerChanged" and mine and attributes is not None:
            scores = {k: int(p[k]) for k in ("diplomacy", "command", "intrigue") if p.get(k) is not None}
            if scores:  # before the first round, a correction of the set-up (``setup``): the highest held reset
                attributes = attributes.corrected(**scores) if p.get("setup") else attributes.with_scores(**scores)
            if p.get("highest"):  # a correction with ``since``: the highest held as it recomputed them
                attributes = replace(attributes, diplomacy_max=int(p["highest"]["diplomacy"]),
                                     intrigue_max=int(p["highest"]["intrigue"]))
            if p.get("roll") is not None:  # the d3 entered wrong, put right with /player set (play-test Y9)
                attributes = replace(attributes, roll=int(p["roll"]))
            if p.get("misc") is not None:
                misc = int(p["misc"])
            if scores or p.get("misc") is not None or p.get("roll") is not None:
                attribute_events.append(seq)
        elif kind == "HoldingAdded":
            held[str(p["name"])] = _Held(int(p["user_id"]), str(p["kind"]), str(p["name"]), str(p.get("grade") or ""),
                                         int(p.get("votes") or 0), bool(p.get("homeworld")), (seq,))
        elif kind == "HoldingRemoved":
            held.pop(str(p["name"]), None)
        elif kind == "TransferApplied" and p.get("holding") and str(p["holding"]) in held:
            h = held[str(p["holding"])]
            h.holder, h.events = int(p["to"]), (*h.events, seq)
    if attributes is None:
        return None
    mine_now = [h for h in held.values() if h.holder == user_id]
    electors = tuple(Elector(h.name, Tier(h.grade), h.votes) for h in mine_now if h.kind == "elector")
    planets = tuple(Planet(h.name, quality_of(h.grade), h.homeworld) for h in mine_now if h.kind == "planet")
    return LedgerThen(attributes, misc, electors, planets, tuple(attribute_events),
                      {h.name: h.events for h in mine_now})


def concerns(payload: Mapping[str, Any], user_id: int) -> bool:
    """Whether a ledger event is about user ``user_id`` (theirs, or a transfer to or from them)."""
    return user_id in (payload.get("user_id"), payload.get("from"), payload.get("to"))


def votes_then(subject: str, name: str, number: int, closed: int, counted: int,
               ledger: Iterable[tuple[int, str, Mapping[str, Any]]], user_id: int, since: list[int]) -> Derivation:
    """The V(p) round ``number``'s close (event ``closed``) counted for ``name``: ``counted`` as it recorded it, and
    how it was made up, rebuilt from the ledger's events up to the close by ``vote_breakdown_explained`` with the
    inputs as of then. When the rebuild cannot be exact (the player's start is not in the events, or the events make
    another figure than the close counted) the answer says so and shows only what the close recorded."""
    mine = frozenset({name})
    step = Step(f"Round {number} closed and read {name}'s votes: {counted}",
                "a ballot's weight is the player's votes at the close", "R0-15", (closed,), mine)
    later = (f" Their votes may have changed since (events #{since[0]} on); `/why votes` without a round explains "
             "them now." if since else "")
    then = ledger_then(ledger, user_id, closed)
    if then is None:
        return Derivation(subject, f"{counted} votes", (step,), value=counted,
                          note=f"How they were made up cannot be rebuilt: {name}'s scores and d3 roll are not in the "
                               f"ledger's events before the close (#{closed}), so only the figure it counted is "
                               "shown." + later)
    _, made = vote_breakdown_explained(
        f"{name}'s votes as the ledger stood at round {number}'s close (#{closed})", then.attributes, then.electors,
        then.planets, then.misc, attribute_events=then.attribute_events, holding_events=then.holding_events,
        seen_by=mine)
    if made.value != counted:
        return Derivation(subject, f"{counted} votes", (step,), value=counted,
                          note=f"How they were made up cannot be rebuilt exactly: the ledger's events up to the close "
                               f"make {made.value}, not the {counted} it counted, so only the counted figure is "
                               "shown." + later)
    return Derivation(subject, f"{counted} votes", (step,), value=counted, parts=(made,),
                      note="Rebuilt from the ledger's events up to the close: the holdings, scores, d3 roll and "
                           "other votes it read then." + later)


def votes_at(events: Iterable[tuple[int, str, Mapping[str, Any]]], user_id: int, upto: int) -> int | None:
    """User ``user_id``'s V(p) as the ledger's ``events`` up to seq ``upto`` make it (``ledger_then`` and the rule's
    own ``vote_breakdown``); None when their start is not in the events."""
    then = ledger_then(events, user_id, upto)
    if then is None:
        return None
    return vote_breakdown(then.attributes, then.electors, then.planets, then.misc).total
