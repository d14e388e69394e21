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
from engine.convocate.repeal import repeal_explained
from engine.convocate.votes import Line, control_explained, standing_explained
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
    Votes a Motion of Repeal counted (``lines``), which name every card without touching it."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _names(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "lines":
                yield from _names(item)


async def _events(session: AsyncSession, game_id: int, *kinds: str) -> list[Event]:
    query = select(Event).where(Event.game_id == game_id)
    if kinds:
        query = query.where(Event.kind.in_(kinds))
    return list((await session.execute(query.order_by(Event.seq))).scalars())


async def card_events(session: AsyncSession, game_id: int, cards: set[str]) -> dict[str, tuple[int, ...]]:
    """Card name -> the last ``KEEP`` events whose payload names it (added, changed, moved, committed, ...)."""
    found: dict[str, list[int]] = {}
    for e in await _events(session, game_id):
        for name in set(_names(e.payload)) & cards:
            found.setdefault(name, []).append(e.seq)
    return {name: tuple(seqs[-KEEP:]) for name, seqs in found.items()}


def _lines(data: Any) -> tuple[Line, ...]:
    return tuple(Line(str(source), int(votes), str(note)) for source, votes, note in data or ())


class ConvocateExplain(ServiceBase):
    """``clerk.convocate.explain``: derivations of posted numbers for ``/why``."""

    async def standing(self, game_id: int, player: str | None = None) -> Derivation:
        """Every player's Standing Vote now and political control (or ``player``'s alone), card by card."""
        async with self._read() as session:
            loaded = await load(session, await load_game(session, game_id))
            board = loaded.board
            events = await card_events(session, game_id, {c.name for c in board.cards})
            if player is None:
                return control_explained(board, events)
            if player not in {p.name for p in board.players}:
                raise RuleError(f"{player} has no seat at the table in {loaded.game.name}.")
            return standing_explained(board, player, events)[1]

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
                                          _lines(lines.get("mover")), _lines(lines.get("controller")), (e.seq,))
            if derivation.value != (int(p["mover_votes"]), int(p["controller_votes"])):
                raise RuleError("The count rebuilt differs from the one posted; tell the moderators.")
            return derivation
