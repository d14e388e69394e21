"""``/why forecast`` and ``/why score`` (docs/commands.md, "Explaining a number"): the game's victory state read as
the Forecast and the scoring read it (``victory_state.snapshot``), laid out by
``engine.landsdraad.victory_explained``. A scored game's score is its final one (the table as it ended, its
Chancellor); before that, the score if the game ended now."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.derivation import Derivation
from engine.landsdraad.victory_explained import forecast_explained, named, score_explained
from engine.service.landsdraad.victory_state import snapshot
from engine.service.ledger import load_game, require_player
from engine.service.uow import ServiceBase
from engine.store.models import Event

SCORED = ("GameEnded", "GameScored")


async def events_of(session: AsyncSession, game_id: int, kinds: Iterable[str]) -> list[tuple[int, str, dict[str, Any]]]:
    """(seq, kind, payload) of the game's events of ``kinds``, in order."""
    found = await session.execute(select(Event.seq, Event.kind, Event.payload).where(
        Event.game_id == game_id, Event.kind.in_(tuple(kinds))).order_by(Event.seq))
    return [(seq, kind, dict(payload)) for seq, kind, payload in found.all()]


async def scored(session: AsyncSession, game_id: int) -> tuple[int, ...]:
    """The event that scored the game last (its end, or a scoring again), if any."""
    found = await events_of(session, game_id, SCORED)
    return (found[-1][0],) if found else ()


class VictoryExplainService(ServiceBase):
    """The Forecast's and a score's derivations (``clerk.landsdraad.explain``)."""

    async def forecast(self, game_id: int, name: str | None = None) -> Derivation:
        """The Forecast as ``/forecast`` shows it now: the Pot and each category (or the one ``name`` names, or a
        singular award's value)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            snap = await snapshot(session, game)
        names = {p.id: p.name for p in snap.players}
        only = named(name) if name else None
        return forecast_explained(f"The Victory Point Forecast of {game.name}", snap.table, names, only,
                                  ended=game.status == "ended")

    async def score(self, game_id: int, user_id: int, name: str | None = None) -> tuple[Derivation, bool]:
        """A player's score (or one category or award of it, ``name``) and whether it is final (the game was
        scored; before that, the score if it ended now)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            player = await require_player(session, game, user_id, "That user")
            snap = await snapshot(session, game)
            final = snap.state is not None and snap.state.scored_at is not None
            events = await scored(session, game_id) if final else ()
        chancellor = snap.state.chancellor_id if final and snap.state is not None else None
        only = named(name) if name else None
        when = "final score" if final else "score if the game ended now"
        _, derivation = score_explained(f"{player.name}'s {when} in {game.name}", snap.table, player.id,
                                        majority_winner=chancellor, only=only, events=events)
        return derivation, final
