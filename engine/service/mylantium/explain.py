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
from engine.core.disclosure import shown as disclosure_shown
from engine.core.errors import RuleError
from engine.mylantium.approval import approval_explained
from engine.mylantium.business import Happening, InPlay, Occurrence
from engine.mylantium.elections import Candidate, Known, general_explained, primary_explained
from engine.mylantium.fervor import fervor_explained
from engine.mylantium.levels import Level, Logged, level_explained
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.revolution import chain_of
from engine.mylantium.revolution_why import attempt_explained
from engine.mylantium.settings import Rules
from engine.service.ledger import load_game
from engine.service.mylantium.state import (
    REOPENED,
    approval_of,
    candidate_rows,
    faction_rows,
    government_of,
    require_mylantium,
    rules_of,
)
from engine.service.uow import ServiceBase
from engine.store.models import Event, Game, Player
from engine.store.models.mylantium import MylChain, MylElection, MylHappening, MylHistory

STAGES = {"primary": "primary", "general": "general", "general election": "general"}
MADE_BY = {"BusinessClosed": "the Business Phase's close", "GovernmentSet": "/government set",
           "RevolutionResolved": "an attempt's resolution", "CoupAnswered": "the answer to the coup offer",
           "FactionChanged": "/faction set", "PlayerRemoved": "/player remove"}
"""The event that recorded a change of Fervor or approval, in words (``/why fervor-level``)."""


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


def _logged(measure: str, row: MylHistory, where: str) -> Logged:
    """A recorded change, with the rule it applied in words and its id, told from its cause."""
    cause = row.cause

    def logged(rule: str, rule_id: str = "") -> Logged:
        return Logged(row.turn, cause, row.delta, where, row.event_seq, rule, rule_id)

    if cause.startswith("set by the moderators"):
        if measure == "fervor":
            return logged("a moderator's figure (as it stood before Clerk kept it, or a correction); no VP are "
                          "deducted for it")
        return logged("a moderator's figure (the start, or a correction)", rule_id="P1-20")
    if measure == "fervor":
        if cause.endswith("was put down"):
            return logged("a Revolution or coup put down raises Fervor by 3 at once", rule_id="P1-10")
        return logged("a condition that held at the end of the Business Phase adds its points",
                      rule_id="R1-31, R1-32, R1-33")
    if cause == "clamped to 0..100":
        return logged("the Approval Rating is kept within 0..100", rule_id="R1-21")
    return logged("the approval table, applied at the Business Phase's close", rule_id="R1-21, P1-05")


LEVELS = {"fervor": ("Revolutionary Fervor", "", "A Business Phase's rise, condition by condition: "
                     "`/why fervor round:<turn>`."),
          "approval": ("The Approval Rating", "%", "A Business Phase's change, happening by happening: "
                       "`/why approval round:<turn>`.")}


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
            for e in await events_of(session, game_id, "ChoiceMade", "ElectionClosed", REOPENED):
                p = e.payload
                if p.get("turn") != row.turn or p.get("stage") != row.stage:
                    continue
                if e.kind == "ElectionClosed":
                    close = (e.seq,)
                elif e.kind == REOPENED:  # its result withdrawn: the choices count until the next close
                    close = ()
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
            shown = disclosure_shown((row.result or {}).get("disclosure"))
            if shown == "held":
                return derivation.moderators_only("held by the disclosure check until a moderator releases it")
            if shown == "coarse":
                return derivation.moderators_only("as posted (the disclosure check posted only the outcome; the "
                                                  "totals stay with the moderators)")
            return derivation

    async def business(self, game_id: int, measure: str, *, turn: int | None = None) -> Derivation:
        """A closed Business Phase's change of the Approval Rating (``measure`` approval) or of Revolutionary Fervor
        (fervor), rebuilt from the turn's happenings and what was in play at the close (the latest closed Business
        Phase unless ``turn`` names one)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            closes = [e for e in await events_of(session, game_id, "BusinessClosed")
                      if turn is None or e.payload.get("turn") == turn]
            if not closes:
                when = f"turn {turn}'s" if turn is not None else "a"
                raise RuleError(f"{game.name} has not closed {when} Business Phase yet; /why {measure} explains the "
                                "change made at its close.")
            close = closes[-1]
            p = close.payload
            number = int(p["turn"])
            if "in_play" not in p:
                raise RuleError(f"Turn {number}'s Business Phase closed before Clerk kept what was in play at its "
                                f"close, so /why cannot rebuild its {measure}; its posted change stands.")
            rows = (await session.execute(select(MylHappening).where(
                MylHappening.game_id == game_id, MylHappening.turn == number).order_by(MylHappening.id))).scalars()
            happened = [(Occurrence(Happening(r.what), r.amount), r.id) for r in rows]
            recorded = {int(e.payload.get("id", 0)): (e.seq,)
                        for e in await events_of(session, game_id, "HappeningRecorded")}
            at_end = InPlay(**p["in_play"])
            occurrences = [o for o, _ in happened]
            if measure == "approval":
                result, derivation = approval_explained(
                    int(p["approval"]["start"]), occurrences, at_end, f"The Approval Rating at the close of turn "
                    f"{number}'s Business Phase", (close.seq,), [recorded.get(i, ()) for _, i in happened])
                if result.end != int(p["approval"]["end"]):
                    raise RuleError("The Approval Rating rebuilt differs from the one posted; tell the moderators.")
                return derivation
            fervor, derivation = fervor_explained(
                at_end, occurrences, int(p["unfunded_last_turn"]), int(p["fervor_start"]),
                rules_of(game), f"Revolutionary Fervor at the close of turn {number}'s Business Phase", (close.seq,))
            if fervor.total != int(p["fervor"]["total"]):
                raise RuleError("The Fervor rebuilt differs from the one posted; tell the moderators.")
            return derivation

    async def level(self, game_id: int, measure: str) -> Derivation:
        """Revolutionary Fervor (``measure`` fervor) or the Approval Rating (approval) as the government page shows
        it now: the start and every change recorded (``myl_history``), each citing the event that recorded it, and
        their sum checked against the figure the game holds (shown as stored, and said so, if they differ)."""
        title, unit, more = LEVELS[measure]
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            gov = await government_of(session, game)
            rows = list((await session.execute(select(MylHistory).where(
                MylHistory.game_id == game_id, MylHistory.measure == measure).order_by(MylHistory.id))).scalars())
            seqs = {r.event_seq for r in rows if r.event_seq is not None}
            kinds = {seq: kind for seq, kind in (await session.execute(select(Event.seq, Event.kind).where(
                Event.game_id == game_id, Event.seq.in_(seqs)))).all()} if seqs else {}
            changes = [_logged(measure, r, MADE_BY.get(kinds.get(r.event_seq or 0, ""), "")) for r in rows]
            if measure == "fervor":
                start = Level(title, unit, 0, "a Republic's Fervor when the game begins",
                              "Fervor starts at 0 and only rises", rule_id="R1-30", more=more)
                stored = gov.fervor
            else:
                stored = approval_of(gov, game)
                first = rows[0].value - rows[0].delta if rows else stored
                start = Level(title, unit, first, "the initial_approval setting" + (" before the first change"
                                                                                    if rows else ""),
                              "the Approval Rating starts at the initial_approval setting, 50 unless the moderators "
                              "set another", rule_id="P1-20", more=more)
            return level_explained(start, changes, stored)

    async def latest_chain(self, game_id: int) -> int | None:
        """The number of the game's latest chain of Revolutions (the one ``revolution`` explains); None: none yet."""
        async with self._read() as session:
            return (await session.execute(select(MylChain.number).where(MylChain.game_id == game_id)
                                          .order_by(MylChain.number.desc()).limit(1))).scalar_one_or_none()

    async def revolution(self, game_id: int, *, attempt: int | None = None) -> Derivation:
        """An attempt of the latest chain of Revolutions (``attempt``: its number; else the latest resolved one,
        or the one under way): funding, ``S``, the contributions and the treasuries (each Faction's money seen by
        its player only)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            row = (await session.execute(select(MylChain).where(MylChain.game_id == game_id)
                                         .order_by(MylChain.number.desc()).limit(1))).scalar_one_or_none()
            if row is None:
                raise RuleError(f"{game.name} has had no Revolution to explain.")
            chain = chain_of(row.state)
            attempts = chain.attempts
            if not attempts:
                off = ", ".join(f"the {o.vanguard.plural}' attempt" for o in chain.called_off) or "its attempt"
                raise RuleError(f"Revolution #{row.number} of {game.name} made no attempt to explain: {off} was "
                                "called off when a moderator's change left the Vanguard above 0 VP.")
            if attempt is not None:
                chosen = next((a for a in attempts if a.number == attempt), None)
                if chosen is None:
                    raise RuleError(f"Revolution #{row.number} has attempts 1 to {len(attempts)}, not {attempt}.")
            else:
                resolved = [a for a in attempts if a.outcome in ("won", "put down")]
                chosen = resolved[-1] if resolved else attempts[-1]
            pledged: dict[FactionCode, tuple[int, ...]] = {}
            resolution: tuple[int, ...] = ()
            for e in await events_of(session, game_id, "ContributionPledged", "RevolutionResolved"):
                p = e.payload
                if p.get("chain") != row.number or p.get("attempt") != chosen.number:
                    continue
                if e.kind == "RevolutionResolved":
                    resolution = (e.seq,)
                else:
                    pledged[FactionCode[p["faction"]]] = (e.seq,)
            return attempt_explained(chosen, await players_of(session, game_id), pledged, resolution)

