"""``/why`` for Landsdraad (docs/commands.md, "Explaining a number"): a posted number rebuilt from the ledger by the
pure rule that produced it (``engine.landsdraad.crisis.resolve_explained``, ``votes.vote_breakdown_explained``,
``audit.audit_quote_explained``), with the event numbers (``seq``) of what it read.

Each method returns the whole ``Derivation``; its secret steps name who may see them (a crisis ballot and a player's
own V(p): that player), and the front keeps what the asker may see (``Derivation.seen_by``). Reads only, so an ended
game answers too."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.derivation import Derivation, Step
from engine.core.disclosure import shown as disclosure_shown
from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.audit import audit_quote_explained
from engine.landsdraad.close_weights import rows_of
from engine.landsdraad.crisis import Voter, resolve_explained
from engine.landsdraad.model import Elector, Planet, Tier, quality_of
from engine.landsdraad.votes import vote_breakdown_explained
from engine.service.landsdraad.audits import shares_down
from engine.service.landsdraad.errata import ERRATUM, recounted
from engine.service.landsdraad.explain_ag import ag_derivation
from engine.service.landsdraad.explain_victory import VictoryExplainService, events_of
from engine.service.landsdraad.ledger import attributes_of, holdings_of
from engine.service.landsdraad.round_close import OPTIONS
from engine.service.landsdraad.round_state import faction_of, factions_of
from engine.service.landsdraad.votes_asof import KINDS as LEDGER_KINDS
from engine.service.landsdraad.votes_asof import concerns, votes_then
from engine.service.ledger import load_game, require_player
from engine.store.models import Game, Player
from engine.store.models.landsdraad import AuditRow, Round

VOTE_INPUTS = ("PlayerAdded", "PlayerChanged", "HoldingAdded", "HoldingRemoved", "TransferApplied",
               "PlayerRemoved")
"""Events that can change a player's V(p): after a round's close, the breakdown read now is no longer that round's."""


def _totals(t: Any) -> str:
    """``Aye 30, Nay 20, Abstain 0 (passed)`` of an erratum's stored totals (``errata.numbers``)."""
    return f"Aye {t['aye']}, Nay {t['nay']}, Abstain {t['abstain']} ({t['outcome']})"


def corrected_since(then: Derivation, name: str, number: int, counted: int, errata: list[tuple[int, dict[str, Any]]],
                    now: int | None, since: list[int]) -> Derivation:
    """``/why votes round:N`` of a round a correction reached after its close (play-test W7): the close's figure
    stays what it counted, and the answer also says what each erratum posted for the round said (what was posted,
    what it corrected it to: public, as the erratum was, unless its disclosure check kept the totals with the
    moderators) and, to the player and the moderators, the votes the corrected ledger now counts for them there."""
    steps: list[Step] = []
    for seq, p in errata:
        private = shown(p.get("disclosure")) != "full"
        if p.get("restores"):
            says = (f"Erratum #{seq}: the moderators corrected the ledger again, and round {number} stands as first "
                    f"posted: {_totals(p['posted'])}; the earlier erratum is withdrawn")
        else:
            says = (f"Erratum #{seq} corrected round {number}'s result: posted {_totals(p['posted'])}, corrected "
                    f"{_totals(p['corrected'])}")
        steps.append(Step(says, "a correction of the ledger that reaches a closed round is posted as an erratum; "
                          "the round's result card stays as it was posted", "", (seq,),
                          frozenset() if private else None))
    if now is not None and now != counted:
        steps.append(Step(f"As corrected since its close, round {number} counts {name}'s votes as {now}, not the "
                          f"{counted} its close read: the ledger as it stood at the close, with the corrections made "
                          "after it" + ("" if errata else " (no erratum has been posted for it yet)"),
                          "a correction that reaches a closed round (a holding or score corrected with since:, a "
                          "transfer corrected) counts it again; a change made without since: counts from then on "
                          "and does not reach it", "", tuple(s for s, _ in errata) or tuple(since),
                          frozenset({name})))
    if not steps:
        return then
    return replace(then, steps=(*then.steps, *steps))


async def closed_round(session: AsyncSession, game: Game, number: int | None) -> Round:
    """Round ``number`` of ``game`` once closed; None: its latest closed round."""
    query = select(Round).where(Round.game_id == game.id, Round.status == "closed")
    if number is not None:
        found = (await session.execute(query.where(Round.number == number))).scalar_one_or_none()
        if found is None:
            row = (await session.execute(select(Round.status, Round.result).where(
                Round.game_id == game.id, Round.number == number))).one_or_none()
            opened, result = (row[0], row[1]) if row is not None else (None, None)
            note = (result or {}).get("voided") if opened == "void" else None
            if note:  # /round void (play-test Y6, Y7)
                why = f" ({note['reason']})" if note.get("reason") else ""
                posted = (" Its posted result was withdrawn and counts for nothing." if note.get("was") == "closed"
                          else "")
                raise RuleError(f"Round {number} of {game.name} is void: the moderators voided it{why}, so it has no "
                                f"result.{posted} Its crisis is put to the vote again as a new round.")
            if opened == "void":  # End Game (R0-61) or a Majority Victory ended the game while it was open
                raise RuleError(f"Round {number} of {game.name} was made void: the game ended while it was open, "
                                "before its crisis was resolved, so it has no result and never will.")
            if opened is not None:
                raise RuleError(f"Round {number} of {game.name} has not closed yet, so it has no result.")
            raise NotFoundError(f"{game.name} has no round {number}: {rounds_so_far(game.current_round)}.")
        return found
    latest = (await session.execute(query.order_by(Round.number.desc()).limit(1))).scalar_one_or_none()
    if latest is None:
        raise RuleError(f"No round of {game.name} has closed yet, so there is no result to explain.")
    return latest


def rounds_so_far(current: int) -> str:
    """``its rounds so far are 1 to 3``, ``its only round so far is round 1``, ``no round has opened yet``."""
    if current <= 0:
        return "no round has opened yet"
    return "its only round so far is round 1" if current == 1 else f"its rounds so far are 1 to {current}"


def _ballot_events(ballots: list[tuple[int, str, dict[str, Any]]], number: int) -> dict[int, int]:
    """User id -> the event of their ballot that counted in round ``number`` (the latest)."""
    last: dict[int, int] = {}
    for seq, _, payload in ballots:
        if payload.get("round") == number:
            last[int(payload.get("proxy_for", payload["user_id"]))] = seq
    return last


def shown(disclosure: object) -> str:
    """How the round's result may be shown to players (``engine.core.disclosure.shown``)."""
    return disclosure_shown(disclosure if isinstance(disclosure, dict) else None)


class ExplainService(VictoryExplainService):
    """``clerk.landsdraad.explain``: the derivations of a round's result, a player's votes, an audit's fee, the
    Forecast and a score."""

    async def result(self, game_id: int, number: int | None = None) -> Derivation:
        """Round ``number``'s result (its latest closed round if None), rebuilt from its ``RoundClosed`` event
        (every voter's weight and ballot read at the close, the d6 rolls) and its factions."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            rnd = await closed_round(session, game, number)
            events = await events_of(session, game_id, ("RoundClosed", "BallotCast", "FactionAdded"))
            closes = [(seq, p) for seq, kind, p in events if kind == "RoundClosed" and p.get("round") == rnd.number]
            if not closes:
                raise RuleError(f"Round {rnd.number} of {game.name} closed before Clerk kept what it read, so its "
                                "result cannot be rebuilt.")
            seq, closed = closes[-1]
            ballots = _ballot_events([e for e in events if e[1] == "BallotCast"], rnd.number)
            added = {str(p["name"]): (s,) for s, kind, p in events
                     if kind == "FactionAdded" and p.get("round") == rnd.number}
            voters = [Voter(str(name), int(votes), OPTIONS[ballot] if ballot else None,
                            (ballots[int(user_id)],) if int(user_id) in ballots and ballot else ())
                      for user_id, name, votes, ballot in rows_of(closed)]
            factions = [faction_of(f) for f in await factions_of(session, rnd.id)]
            rolls = {str(k): int(v) for k, v in closed.get("rolls", {}).items()}
        _, derivation = resolve_explained(f"Round {rnd.number} of {game.name}: the result", voters, factions, rolls,
                                          (seq,), added)
        disclosure = (rnd.result or {}).get("disclosure")
        if shown(disclosure) == "held":
            return derivation.moderators_only("held by the disclosure check until a moderator releases it")
        if shown(disclosure) == "coarse":
            return derivation.moderators_only("as posted (the disclosure check posted only the outcome and its "
                                              "margin; the totals stay with the moderators)")
        return derivation

    async def ag(self, game_id: int, number: int | None = None) -> Derivation:
        """AG election ``number``'s result (the latest closed one if None), from what its close recorded."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            return await ag_derivation(session, game, number)

    async def votes(self, game_id: int, user_id: int, number: int | None = None) -> Derivation:
        """A player's V(p): now, or (``number``) as round ``number``'s close read it, rebuilt from the ledger's
        events up to that close by the same rule (``votes_then``)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            player = await require_player(session, game, user_id, "That user")
            if number is None:
                return await self._breakdown(session, game, player)
            rnd = await closed_round(session, game, number)
            events = await events_of(session, game_id, ("RoundClosed", ERRATUM, *VOTE_INPUTS))
            recount = await session.run_sync(recounted, game_id, rnd.number)
        closes = [(seq, p) for seq, kind, p in events if kind == "RoundClosed" and p.get("round") == rnd.number]
        read = [(seq, votes) for seq, p in closes for uid, _, votes, _ in rows_of(p) if int(uid) == user_id]
        if not read:
            raise RuleError(f"{player.name} was not an active player when round {rnd.number} closed, so their "
                            "votes were not read.")
        seq, weight = read[-1]
        ledger = [e for e in events if e[1] in LEDGER_KINDS]
        since = [s for s, kind, p in events if kind in VOTE_INPUTS and s > seq and concerns(p, user_id)]
        then = votes_then(f"{player.name}'s votes in round {rnd.number} of {game.name}", player.name, rnd.number,
                          seq, int(weight), ledger, user_id, since)
        errata = [(s, p) for s, kind, p in events if kind == ERRATUM and p.get("round") == rnd.number]
        return corrected_since(then, player.name, rnd.number, int(weight), errata,
                               recount.weights.get(user_id), since)

    async def _breakdown(self, session: AsyncSession, game: Game, player: Player) -> Derivation:
        holdings = await holdings_of(session, player.id)
        events = await events_of(session, game.id, VOTE_INPUTS)
        attribute_events = tuple(seq for seq, kind, p in events if kind in ("PlayerAdded", "PlayerChanged")
                                 and p.get("user_id") == player.user_id)
        by_holding: dict[str, tuple[int, ...]] = {}
        for seq, kind, p in events:  # how each holding came to them: added, or moved to them by a transfer
            if kind == "HoldingAdded" and p.get("user_id") == player.user_id:
                by_holding[str(p["name"])] = (seq,)
            elif kind == "TransferApplied" and p.get("to") == player.user_id and p.get("holding"):
                by_holding[str(p["holding"])] = (seq,)
        electors = [Elector(h.name, Tier(h.grade), h.votes) for h in holdings if h.kind == "elector"]
        planets = [Planet(h.name, quality_of(h.grade), h.homeworld) for h in holdings if h.kind == "planet"]
        _, derivation = vote_breakdown_explained(
            f"{player.name}'s votes in {game.name}", attributes_of(player), electors, planets, player.misc_votes,
            attribute_events=attribute_events, holding_events=by_holding, seen_by=frozenset({player.name}))
        return derivation

    async def audit(self, game_id: int, target: int | None = None, number: int | None = None) -> Derivation:
        """The fee and shares of an audit done (its card is public): of the player ``target`` (user id) and/or in
        round ``number``, the latest that fits."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            query = select(AuditRow, Player.name).join(Player, Player.id == AuditRow.target_id).where(
                AuditRow.game_id == game_id)
            if target is not None:
                query = query.where(Player.user_id == target)
            if number is not None:
                query = query.where(AuditRow.round_number == number)
            found = (await session.execute(query.order_by(AuditRow.id.desc()).limit(1))).first()
            if found is None:
                whose = " of that player" if target is not None else ""
                when = f" in round {number}" if number is not None else ""
                raise RuleError(f"No audit{whose} was done in {game.name}{when}, so there is no fee to explain.")
            row, name = found
            enacted = [seq for seq, _, p in await events_of(session, game_id, ("PlayerVoteEnacted",))
                       if row.vote_id is not None and p.get("vote") == row.vote_id]
        requested = tuple(int(r) for r in row.rounds.get("requested", ()))
        payers = len(row.rounds.get("payers", ())) or 1
        _, derivation = audit_quote_explained(
            f"The audit of {name} in round {row.round_number} of {game.name}: its fee", row.round_number, payers,
            requested, down=shares_down(game), events=tuple(enacted[-1:]))
        return derivation
