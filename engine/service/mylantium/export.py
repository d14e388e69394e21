"""The ``mylantium`` section of the game export (docs/export.md): the government page, Factions with their votes
by territory, candidates, territories and units, each election's totals and winner, what happened each turn, the
approval, Fervor and VP histories with their causes, and each step of every revolution (contributions included:
the export is for moderators)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.mylantium.business import Happening, Occurrence
from engine.mylantium.model import FactionCode, Party, Territory
from engine.mylantium.revolution import chain_of
from engine.service.clock import utc
from engine.service.ledger import load_game
from engine.service.mylantium.state import (
    NAME,
    approval_of,
    base_of,
    candidate_rows,
    faction_rows,
    government_of,
    in_play_of,
    player_names,
    territory_of,
    territory_rows,
    unit_rows,
)
from engine.store.models import Player
from engine.store.models.mylantium import MylChain, MylChoice, MylElection, MylFaction, MylHappening, MylHistory


def _iso(when: Any) -> str | None:
    return utc(when).isoformat() if when is not None else None


async def export_mylantium(session: AsyncSession, game_id: int) -> dict[str, Any]:
    game = await load_game(session, game_id)
    if game.ruleset != NAME:
        return {}
    gov = await government_of(session, game)
    rows = await faction_rows(session, game_id)
    territories = await territory_rows(session, game_id)
    by_id = {r.id: r for r in rows}
    parties = {FactionCode[r.code]: Party(r.party) for r in rows}
    president = FactionCode[gov.president] if gov.president else None
    factions = _factions(rows, await player_names(session, game_id), [territory_of(t) for t in territories])
    elections = await _elections(session, game_id, by_id)
    happenings = await _happenings(session, game_id)
    histories = await _histories(session, game_id)
    revolutions = await _revolutions(session, game_id)
    return {"mylantium": {
        "turn": gov.turn,
        "approval": approval_of(gov, game),
        "fervor": gov.fervor,
        "president": president.title if president else None,
        "incumbent": parties[president].value if president in parties else None,
        "in_play": {**in_play_of(gov).__dict__, "unfunded_last_turn": gov.unfunded_last_turn},
        "factions": factions,
        "candidates": [{"name": c.name, "faction": FactionCode[by_id[c.faction_id].code].title, "party": c.party,
                        "charisma": c.charisma, "running": c.running, "discarded": c.discarded}
                       for c in await candidate_rows(session, game_id) if c.faction_id in by_id],
        "territories": [{"name": t.name, "ports": t.ports, "cities": t.cities, "temples": t.temples,
                         "villages": t.villages, "names": dict(t.names)} for t in territories],
        "units": [{"name": u.name, "territory": u.territory, "maintenance": u.maintenance, "cost": u.cost,
                   "status": u.status} for u in await unit_rows(session, game_id)],
        "elections": elections,
        "happenings": happenings,
        "approval_history": histories["approval"],
        "fervor_history": histories["fervor"],
        "vp_history": histories["vp"],
        "revolutions": revolutions,
    }}


def _factions(rows: Sequence[MylFaction], players: Mapping[int, Player],
              pure: Sequence[Territory]) -> list[dict[str, Any]]:
    """Each Faction, its player, party, VP, treasury and its votes by territory."""
    factions = []
    for r in rows:
        votes = base_of(r).by_territory(pure)
        player = players.get(r.player_id)
        factions.append({"faction": FactionCode[r.code].title, "code": r.code,
                         "player": player.name if player else None, "party": r.party, "vp": r.vp,
                         "treasury": r.treasury, "in_play": r.in_play, "votes": votes,
                         "national_votes": sum(votes.values()), "votes_per_building": dict(r.per),
                         "votes_entered": dict(r.entered), "realigned_turn": r.realigned_turn})
    return factions


async def _elections(session: AsyncSession, game_id: int, by_id: Mapping[int, MylFaction]) -> list[dict[str, Any]]:
    """Each election, its Factions' choices and its result."""
    elections = []
    found = await session.execute(select(MylElection).where(MylElection.game_id == game_id).order_by(MylElection.id))
    for e in found.scalars():
        choices = await session.execute(select(MylChoice).where(MylChoice.election_id == e.id).order_by(MylChoice.id))
        elections.append({
            "turn": e.turn, "stage": e.stage, "status": e.status, "opened_at": _iso(e.opened_at),
            "deadline": _iso(e.deadline), "closed_at": _iso(e.closed_at),
            "choices": [{"faction": FactionCode[by_id[c.faction_id].code].title, "choice": c.choice,
                         "received_at": _iso(c.received_at)} for c in choices.scalars() if c.faction_id in by_id],
            "result": dict(e.result) if e.result else None,
        })
    return elections


async def _happenings(session: AsyncSession, game_id: int) -> list[dict[str, Any]]:
    """What happened each turn, with its text."""
    happened = await session.execute(select(MylHappening).where(MylHappening.game_id == game_id)
                                     .order_by(MylHappening.id))
    return [{"turn": h.turn, "what": h.what, "amount": h.amount, "text": Occurrence(Happening(h.what), h.amount).text,
             "note": h.note} for h in happened.scalars()]


async def _histories(session: AsyncSession, game_id: int) -> dict[str, list[dict[str, Any]]]:
    """The approval, Fervor and VP histories (``approval``, ``fervor``, ``vp``), each step with its cause and the
    number of the event that recorded it (None before Clerk kept it)."""
    histories: dict[str, list[dict[str, Any]]] = {"approval": [], "fervor": [], "vp": []}
    logged = await session.execute(select(MylHistory).where(MylHistory.game_id == game_id).order_by(MylHistory.id))
    for h in logged.scalars():
        entry = {"turn": h.turn, "cause": h.cause, "delta": h.delta, "value": h.value, "at": _iso(h.at),
                 "event": h.event_seq}
        if h.measure.startswith("vp:"):
            histories["vp"].append({"faction": FactionCode[h.measure[3:]].title, **entry})
        else:
            histories[h.measure].append(entry)
    return histories


async def _revolutions(session: AsyncSession, game_id: int) -> list[dict[str, Any]]:
    """Each revolution chain and its attempts (contributions included)."""
    chains = await session.execute(select(MylChain).where(MylChain.game_id == game_id).order_by(MylChain.number))
    revolutions = []
    for c in chains.scalars():
        state = chain_of(c.state)
        revolutions.append({"number": c.number, "turn": c.turn, "waiting": c.waiting, "opened_at": _iso(c.opened_at),
                            "closed_at": _iso(c.closed_at), "deadline": _iso(c.deadline), "ended": state.ended,
                            "winner": state.winner.title if state.winner else None,
                            "attempts": list(c.state.get("attempts", [])),
                            **({"called_off": list(c.state["called_off"])} if c.state.get("called_off") else {})})
    return revolutions
