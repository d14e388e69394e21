"""``/why`` in a Convocate game (``clerk.convocate.explain``): the Standing Vote and political control as the board
stands (``engine.convocate.votes.standing_explained``, the function that counts them), a push's cost
(``engine.convocate.factors.steps_explained``) and a Motion of Repeal's count (``engine.convocate.repeal``), each
from its ``FactorPushed`` / ``RepealMoved`` event. The Convocate's numbers are read from the public board (rules-spec
§4.2.9), so no step is secret."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.factors import steps_explained
from engine.convocate.repeal import lines_of, repeal_explained
from engine.convocate.votes import StandingVote, control_explained, control_of, standing_explained, vote_explained
from engine.core.derivation import Derivation, Step
from engine.core.errors import NotFoundError, RuleError
from engine.service.convocate.store import load
from engine.service.ledger import load_game
from engine.service.uow import ServiceBase
from engine.store.models import Event

KEEP = 3
"""The last events that name a card, cited by its line of a Standing Vote."""


def _names(value: Any) -> Iterator[str]:
    """Every string in an event's payload (cards are named at the top level or in lists), but for the Standing
    Votes a Motion of Repeal counted (``lines``, and ``lines_by_ruling`` under each ruling) and a turn's end kept
    (``standing``), which name every card without touching it."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _names(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("lines", "lines_by_ruling", "standing"):
                yield from _names(item)


async def _events(session: AsyncSession, game_id: int, *kinds: str) -> list[Event]:
    query = select(Event).where(Event.game_id == game_id)
    if kinds:
        query = query.where(Event.kind.in_(kinds))
    return list((await session.execute(query.order_by(Event.seq))).scalars())


async def card_events(session: AsyncSession, game_id: int, cards: set[str]) -> dict[str, tuple[int, ...]]:
    """Card name -> the last ``KEEP`` events whose payload names it (added, changed, moved, committed, ...)."""
    return await card_events_upto(session, game_id, cards, None)


async def card_events_upto(session: AsyncSession, game_id: int, cards: set[str], upto: int | None
                           ) -> dict[str, tuple[int, ...]]:
    """``card_events`` among the events up to seq ``upto`` (None: all); the turn-end event itself, which names
    every card in its ``standing``, is not counted (``_names`` skips it)."""
    found: dict[str, list[int]] = {}
    for e in await _events(session, game_id):
        if upto is not None and e.seq > upto:
            break
        for name in set(_names(e.payload)) & cards:
            found.setdefault(name, []).append(e.seq)
    return {name: tuple(seqs[-KEEP:]) for name, seqs in found.items()}


class ConvocateExplain(ServiceBase):
    """``clerk.convocate.explain``: derivations of posted numbers for ``/why``."""

    async def standing(self, game_id: int, player: str | None = None, turn: int | None = None) -> Derivation:
        """Every player's Standing Vote now and political control (or ``player``'s alone), card by card; ``turn``:
        as they stood when turn ``turn`` ended (``turn_end``)."""
        async with self._read() as session:
            loaded = await load(session, await load_game(session, game_id))
            board = loaded.board
            if turn is not None:
                return await self.turn_end(session, loaded.game.name, board.turn, game_id, player, turn)
            events = await card_events(session, game_id, {c.name for c in board.cards})
            if player is None:
                return control_explained(board, events)
            if player not in {p.name for p in board.players}:
                raise RuleError(f"{player} has no seat at the table in {loaded.game.name}.")
            return standing_explained(board, player, events)[1]

    async def turn_end(self, session: AsyncSession, game: str, now: int, game_id: int, player: str | None,
                       turn: int) -> Derivation:
        """The Standing Votes as turn ``turn`` ended: the lines its ``PhaseAdvanced`` event recorded from the board
        then (``standing_vote``), explained by the same functions as now. A turn that ended before Clerk kept them
        is refused with why, not answered with the board now."""
        if turn > now or turn < 1:
            raise NotFoundError(f"{game} has had no turn {turn}: " + (f"its turns so far are 1 to {now}." if now > 1
                                else "its only turn so far is turn 1." if now == 1 else "no turn has begun yet."))
        if turn == now:
            raise RuleError(f"Turn {turn} of {game} has not ended yet; `/why standing` without a turn explains the "
                            "Standing Votes now.")
        ends = [e for e in await _events(session, game_id, "PhaseAdvanced") if e.payload.get("turn_ended") == turn
                and "standing" in e.payload]
        if not ends:
            raise RuleError(f"Turn {turn} of {game} ended before Clerk kept each turn's Standing Votes, so they "
                            "cannot be rebuilt exactly from the ledger; `/why standing` without a turn explains the "
                            "board now.")
        end = ends[-1]
        recorded: dict[str, Any] = end.payload["standing"]
        cards = {str(line[0]) for lines in recorded.values() for line in lines}
        events = await card_events_upto(session, game_id, cards, end.seq)
        pairs = [(vote, vote_explained(vote, events, f"{vote.player}'s Standing Vote at the end of turn {turn} "
                                                     f"(#{end.seq})"))
                 for vote in (StandingVote(name, lines_of(lines)) for name, lines in recorded.items())]
        if player is not None:
            found = [d for vote, d in pairs if vote.player == player]
            if not found:
                raise RuleError(f"{player} had no seat at the table when turn {turn} of {game} ended.")
            return found[0]
        return control_of(pairs, f"The Standing Vote at the end of turn {turn}", (end.seq,))

    async def push(self, game_id: int, *, player: str | None = None, factor: str | None = None) -> Derivation:
        """The latest push (by ``player``, of ``factor`` if named): each step's cost and the pool it came from."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            await load(session, game)  # refuses a game of another ruleset
            pushes = [e for e in await _events(session, game_id, "FactorPushed")
                      if (player is None or e.payload.get("player") == player)
                      and (factor is None or str(e.payload.get("factor", "")).casefold() == factor.casefold())]
            if not pushes:
                whose = f" by {player}" if player else ""
                which = f" of {factor}" if factor else ""
                raise NotFoundError(f"No Galactic Factor has been pushed{which}{whose} in {game.name}.")
            e = pushes[-1]
            p = e.payload
            frm, to, paid = int(p["from"]), int(p["to"]), [int(c) for c in p["costs"]]
            costs, derivation = steps_explained(frm, to, (e.seq,), f"{p['player']}'s push of {p['factor']} (#{e.seq})")
            if costs != paid:
                raise RuleError(f"The costs rebuilt ({costs}) differ from those paid ({paid}); tell the moderators.")
            total, left = sum(costs), int(p["pool"])
            pool = Step(f"Resource Pool: {total + left} − {total} = {left} left", "the cost is paid from the Votes "
                        "committed to the pool this Phase; nothing moves unless every step can be paid",
                        rule_id="R4-07, R4-08", events=(e.seq,))
            return Derivation(derivation.subject, derivation.result, (*derivation.steps, pool), derivation.value)

    async def repeal(self, game_id: int, *, statute: str | None = None, motion: int | None = None) -> Derivation:
        """The latest Motion of Repeal (against ``statute`` if named; Motion ``motion`` if numbered): both Standing
        Votes as counted, the verdict."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            await load(session, game)
            repeals = [e for e in await _events(session, game_id, "RepealMoved")
                       if (statute is None or str(e.payload.get("statute", "")).casefold() == statute.casefold())
                       and (motion is None or e.payload.get("motion") == motion)]
            if not repeals:
                against = f" against {statute}" if statute else ""
                numbered = f" as Motion #{motion}" if motion is not None else ""
                raise NotFoundError(f"No Motion of Repeal has been moved{against}{numbered} in {game.name}.")
            e = repeals[-1]
            p = e.payload
            lines = p.get("lines")
            if lines is None:
                raise RuleError(f"Motion of Repeal #{p.get('motion')} was counted before Clerk kept the Standing "
                                f"Votes line by line; its posted count stands: {p['mover']} {p['mover_votes']}, "
                                f"{p['controller']} {p['controller_votes']}.")
            derivation = repeal_explained(str(p["statute"]), str(p["mover"]), str(p["controller"]),
                                          str(p["convocant"]), str(p.get("count", "after")),
                                          lines_of(lines.get("mover")), lines_of(lines.get("controller")), (e.seq,))
            if derivation.value != (int(p["mover_votes"]), int(p["controller_votes"])):
                raise RuleError("The count rebuilt differs from the one posted; tell the moderators.")
            return derivation
