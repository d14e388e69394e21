"""``/why`` in a Mylantium game (``clerk.mylantium.explain``): a closed election's totals rebuilt by the same pure
rules that counted them (``engine.mylantium.elections.primary_explained`` / ``general_explained``), from the inputs
the close kept, with the event numbers they came from; and the Approval Rating and Fervor from the changes the
ledger holds. The whole derivation is returned; ``/why`` keeps what the asker may see (who chose what is secret)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.derivation import Derivation
from engine.core.errors import RuleError
from engine.mylantium.elections import Candidate, Known, general_explained, primary_explained
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.settings import Rules
from engine.service.ledger import load_game
from engine.service.mylantium.state import candidate_rows, faction_rows, require_mylantium, rules_of
from engine.service.uow import ServiceBase
from engine.store.models import Event, Game, Player
from engine.store.models.mylantium import MylElection

STAGES = {"primary": "primary", "general": "general", "general election": "general"}


async def events_of(session: AsyncSession, game_id: int, *kinds: str) -> list[Event]:
    found = await session.execute(select(Event).where(Event.game_id == game_id, Event.kind.in_(kinds))
                                  .order_by(Event.seq))
    return list(found.scalars())


async def players_of(session: AsyncSession, game_id: int) -> dict[FactionCode, str]:
    """Each Faction's player's name (who, with the moderators, may see its secret choice)."""
    found = await session.execute(select(Player.id, Player.name).where(Player.game_id == game_id))
    names = {pid: name for pid, name in found.all()}
    return {FactionCode[r.code]: names[r.player_id] for r in await faction_rows(session, game_id)
            if r.player_id in names}


async def _election(session: AsyncSession, game: Game, turn: int | None, stage: str | None) -> MylElection:
    query = select(MylElection).where(MylElection.game_id == game.id, MylElection.status == "closed")
    if turn is not None:
        query = query.where(MylElection.turn == turn)
    if stage is not None:
        query = query.where(MylElection.stage == stage)
    row = (await session.execute(query.order_by(MylElection.id.desc()).limit(1))).scalar_one_or_none()
    if row is None:
        which = "General Election" if stage == "general" else "Primary" if stage == "primary" else "election"
        when = f" in turn {turn}" if turn is not None else ""
        raise RuleError(f"{game.name} has no closed {which}{when} to explain (/why explains a result once it is "
                        "posted).")
    return row


def _stage(name: str | None) -> str | None:
    if not name:
        return None
    stage = STAGES.get(name.strip().lower())
    if stage is None:
        raise RuleError(f"“{name}” is not an election: name `primary` or `general` (or leave it out for the latest).")
    return stage


def _explained(game: Game, row: MylElection, known: Known, factions: Mapping[str, FactionCode],
               ) -> tuple[Derivation, dict[str, int]]:
    """The derivation of ``row``'s result, and its totals as posted (to check they agree)."""
    result: dict[str, Any] = dict(row.result or {})
    if "votes" not in result:
        raise RuleError(f"Turn {row.turn}'s {'Primary' if row.stage == 'primary' else 'General Election'} closed "
                        "before Clerk kept the Faction Votes it counted, so /why cannot rebuild it; its posted "
                        "totals stand.")
    votes = {FactionCode[c]: int(v) for c, v in result["votes"].items()}
    title = "Primary" if row.stage == "primary" else "General Election"
    subject = f"The {title} of turn {row.turn}"
    if row.stage == "primary":
        candidates = [Candidate(line["name"], factions.get(line["name"], FactionCode.PL), Party(line["party"]),
                                int(line["charisma"])) for line in result.get("lines", [])]
        choices = {FactionCode[c]: str(n) for c, n in result.get("choices", {}).items()}
        _, derivation = primary_explained(candidates, choices, votes, known, subject)
        posted = {str(line["name"]): int(line["total"]) for line in result.get("lines", [])}
        return derivation, posted
    nominees: dict[Party, Candidate | None] = {}
    for party in Party:
        name, charisma = result.get("nominees", {}).get(party.value), int(result["lines"][party.value]["charisma"])
        nominees[party] = (Candidate(name, factions.get(name, FactionCode.PL), party, charisma)
                           if name is not None and charisma > 0 else None)
    choices_g = {FactionCode[c]: Party(p) for c, p in result.get("choices", {}).items()}
    rules = Rules(rounding=str(result.get("rounding", rules_of(game).rounding)))
    _, derivation = general_explained(nominees, choices_g, votes, Party(result["incumbent"]), int(result["approval"]),
                                      rules, known, subject)
    return derivation, {p: int(line["total"]) for p, line in result["lines"].items()}


class Explain(ServiceBase):
    """``clerk.mylantium.explain``: derivations of posted numbers for ``/why``."""

    async def election(self, game_id: int, *, turn: int | None = None, stage: str | None = None) -> Derivation:
        """A closed Primary's or General Election's totals (the latest closed one unless ``turn``/``stage`` name
        another), step by step: every Faction's choice (secret: seen by its player), each total, the winner."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            row = await _election(session, game, turn, _stage(stage))
            chose: dict[FactionCode, tuple[int, ...]] = {}
            close: tuple[int, ...] = ()
            for e in await events_of(session, game_id, "ChoiceMade", "ElectionClosed"):
                p = e.payload
                if p.get("turn") != row.turn or p.get("stage") != row.stage:
                    continue
                if e.kind == "ElectionClosed":
                    close = (e.seq,)
                elif not close:  # a choice counts only before the close
                    chose[FactionCode[p["faction"]]] = (e.seq,)  # the last one replaces the earlier
            known = Known(await players_of(session, game_id), chose, close)
            by_code = {r.id: FactionCode[r.code] for r in await faction_rows(session, game_id)}
            factions = {c.name: by_code[c.faction_id] for c in await candidate_rows(session, game_id)
                        if c.faction_id in by_code}
            derivation, posted = _explained(game, row, known, factions)
            if derivation.value != posted:  # cannot happen unless the rules changed under a kept result
                raise RuleError(f"The totals rebuilt ({derivation.value}) differ from those posted ({posted}); "
                                "tell the moderators.")
            return derivation
