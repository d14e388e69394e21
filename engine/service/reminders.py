"""Reminders before a deadline, as a mechanism: each ruleset names its reminder forms (``Ruleset.reminders``: what
is open with a deadline, and who has not voted in it), and the players who have not voted get a DM at each instant
of the game's ``reminders`` setting (default 24 h and 2 h before). Each reminder is a ``ReminderSent`` event whose
source id ``remind:<game>:<kind>:<number>:<seconds before>`` makes it go out once, even across restarts; a
ruleset's command (a moderator's "remind now") sends one at once under the command's own source id. How a reminder
of each kind reads is its ruleset's front's (``bot.actions.front.Front.reminders``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.settings import parse_offsets
from engine.service.ledger import game_view, load_game
from engine.service.owed import OwedWith, owe_in
from engine.service.settings import value_of
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Game

Waiting = tuple[tuple[int, str], ...]

Target = tuple[Game, str, int, datetime, datetime]
"""(game, kind, number, opened at, deadline)."""

Found = tuple[int, datetime | None, Waiting, int | None]
"""(number, deadline or None when paused, who has not voted, the round an AG-like election closes with)."""


@dataclass(frozen=True)
class ReminderForm:
    """One kind of thing players are reminded to vote in (a ruleset's round, election, ...)."""

    kind: str
    """Its part of the source id, and what ``send_reminder`` is asked for."""
    targets: Callable[[AsyncSession], Awaitable[list[Target]]]
    """Everything of this kind open with a deadline, in any game."""
    waiting: Callable[[AsyncSession, Game, int | None], Awaitable[Found]]
    """The one of ``number`` (None: the open one) of a game; a RuleError if there is none."""


@dataclass(frozen=True)
class Reminder:
    game: GameView
    kind: str
    number: int
    """The number of what it is about (a round's, an election's, a turn), as its form says."""
    deadline: datetime | None
    """None: the round is paused."""
    waiting: Waiting
    """(user id, name) of every active player who has not voted."""
    with_round: int | None = None
    """A vote without a deadline of its own that closes with this round (its deadline is the round's)."""


QUIET = timedelta(hours=1)


def quiet(length: timedelta) -> timedelta:
    """How soon after the opening no reminder is sent: an hour, or a quarter of a round shorter than four hours. The
    opening DM has just asked for the vote; a "closes in 1d" 30 seconds later adds nothing (play-test T5.9,
    docs/rulings.md)."""
    return min(QUIET, length / 4)


def reminder_source(game_id: int, kind: str, number: int, offset: int) -> str:
    return f"remind:{game_id}:{kind}:{number}:{offset}"


class ReminderService(ServiceBase):
    def _forms(self) -> tuple[ReminderForm, ...]:
        return tuple(form for ruleset in self.backend.rulesets for form in ruleset.reminders)

    async def pending_reminders(self) -> list[tuple[int, str, int, int, datetime]]:
        """Reminders not yet sent, soonest first: (game id, kind, number, seconds before, instant). An instant
        at or before the opening is skipped (a 1 h deadline gets no "24 h before" reminder), and so is one that would
        come right after the opening DM (``quiet``)."""
        async with self._read() as session:
            wanted: list[tuple[int, str, int, int, datetime]] = []
            for form in self._forms():
                for game, kind, number, opened, deadline in await form.targets(session):
                    if game.status == "ended":  # its ledger is closed: nothing to remind of
                        continue
                    table = self.backend.ruleset(game.ruleset).settings
                    for offset in parse_offsets(str(value_of(game.settings, "reminders", table))):
                        instant = deadline - timedelta(seconds=offset)
                        if instant - opened >= quiet(deadline - opened):
                            wanted.append((game.id, kind, number, offset, instant))
            if not wanted:
                return []
            sources = [reminder_source(g, k, n, o) for g, k, n, o, _ in wanted]
            sent = set((await session.execute(select(Event.source_id).where(Event.source_id.in_(sources)))).scalars())
            return sorted((w for w, s in zip(wanted, sources, strict=True) if s not in sent), key=lambda w: w[4])

    async def send_reminder(self, game_id: int, *, kind: str, number: int | None = None,
                            offset: int | None = None, actor: int | None,
                            source_id: str | None = None, skipped: str | None = None,
                            answer: OwedWith[Reminder] | None = None) -> Reminder:
        """Record a reminder and return who is to be reminded. Without ``number``: the open round, election, ...
        (``/round remind``, ``/election remind``). A repeated source id raises ``Duplicate`` (the reminder was
        already sent). ``skipped``: why a due reminder is recorded as done but not delivered. ``answer``: the
        reminders' DMs, owed in its transaction (``owe_in``), so a reminder recorded is never left unsent."""
        form = next((f for f in self._forms() if f.kind == kind), None)
        if form is None:
            raise RuleError(f"Unknown reminder kind {kind!r}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            number, deadline, waiting, with_round = await form.waiting(uow.session, game, number)
            await uow.record(game_id, "ReminderSent", actor,
                             {"kind": kind, "number": number, "before": offset,
                              "waiting": [name for _, name in waiting],
                              **({"skipped": skipped} if skipped else {})}, source_id)
            return await owe_in(uow, answer, Reminder(game=game_view(game), kind=kind, number=number,
                                                      deadline=deadline, waiting=waiting, with_round=with_round))
