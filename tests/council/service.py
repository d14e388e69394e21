"""The council's use cases (``clerk.plugged["council"]``) and its service record, ``RULESET``. Its state is the
shared ``players`` table (a seated member is a Player row, the Landsdraad columns zero, so DMs find their game) and
its events (``rules.KINDS``) in the append-only log, read back with ``rules.fold``: no table and no migration of its
own. Every write is one unit of work with the message's source id, so a redelivered DM or press counts once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import NotFoundError, RuleError
from engine.service.announcements import result_pending
from engine.service.ruleset import Ruleset, RulesetService
from engine.service.views import GameView
from engine.store.models import Event, Game, Player

from .rules import BALLOT, CLOSED, KINDS, OPENED, REMINDED, SEATED, Council, Tally, Vote, fold, tally

NAME = "council"
REMIND_BEFORE = timedelta(hours=1)
"""One reminder, this long before the deadline, to each member who has not voted."""


def remind_source(game_id: int, number: int) -> str:
    """As the shared reminders' (``remind:<game>:<kind>:<number>:<seconds before>``): sent once across restarts."""
    return f"remind:{game_id}:{NAME}:{number}:{int(REMIND_BEFORE.total_seconds())}"


@dataclass(frozen=True)
class Opened:
    game: GameView
    vote: Vote
    members: dict[int, tuple[str, int]]
    """user id -> (name, weight): whom the open DMs."""


@dataclass(frozen=True)
class Cast:
    game: GameView
    number: int
    yes: bool
    weight: int
    changed: bool
    """It replaced an earlier ballot of the same member."""


@dataclass(frozen=True)
class Closed:
    game: GameView
    number: int
    question: str
    result: Tally
    already: bool = False
    """It was closed before (a repeated close, or its announcement again)."""


@dataclass(frozen=True)
class Reminder:
    game: GameView
    number: int
    question: str
    deadline: datetime
    waiting: tuple[int, ...]


def view(game: Game) -> GameView:
    return GameView(game.id, game.guild_id, game.channel_id, game.name, game.ruleset, game.moderator_role_id,
                    game.current_round)


async def council_of(session: AsyncSession, game_id: int) -> tuple[Game, Council]:
    game = await session.get(Game, game_id)
    if game is None:
        raise NotFoundError("There is no such game.")
    if game.ruleset != NAME:
        raise RuleError(f"{game.name} plays {game.ruleset.capitalize()}, not the council vote.")
    rows = await session.execute(select(Event.kind, Event.payload)
                                 .where(Event.game_id == game_id, Event.kind.in_(KINDS)).order_by(Event.seq))
    return game, fold((kind, payload) for kind, payload in rows.all())


class CouncilService(RulesetService):
    async def seat(self, game_id: int, *, user_id: int, name: str, weight: int, actor: int | None,
                   source_id: str | None) -> bool:
        """Seat a member with ``weight`` (a whole number, 1 or more), or change a member's weight; True if new."""
        if weight < 1:
            raise RuleError("A member's weight is a whole number, 1 or more.")
        async with self._write(game_id, source_id) as uow:
            _, council = await council_of(uow.session, game_id)
            new = user_id not in council.weights
            if new:  # the shared players table: what DMs find a member's games by (Landsdraad's columns are zero)
                uow.session.add(Player(game_id=game_id, user_id=user_id, name=name, faction=None, diplomacy=0,
                                       command=0, intrigue=0, roll=1, diplomacy_max=0, intrigue_max=0, misc_votes=0,
                                       active=True))
                await uow.session.flush()
            await uow.record(game_id, SEATED, actor, {"user_id": user_id, "name": name, "weight": weight}, source_id)
        self.shared.games.forget_games_of([user_id])  # after the commit (engine/service/membership.py)
        return new

    async def open_vote(self, game_id: int, *, question: str, deadline: datetime | None, actor: int | None,
                        source_id: str | None) -> Opened:
        question = question.strip()
        if not question:
            raise RuleError("A council vote needs a question.")
        async with self._write(game_id, source_id) as uow:
            game, council = await council_of(uow.session, game_id)
            if council.current is not None:
                raise RuleError(f"Vote {council.current.number} of {game.name} is still open; close it first.")
            if not council.weights:
                raise RuleError(f"{game.name} has no members yet: seat them with /council seat.")
            number = len(council.votes) + 1
            await uow.record(game_id, OPENED, actor, {"number": number, "question": question,
                                                      "deadline": deadline.isoformat() if deadline else None,
                                                      "opened": uow.now.isoformat()},
                             source_id)
            members = {u: (council.names[u], w) for u, w in council.weights.items()}
            return Opened(view(game), Vote(number, question, deadline, uow.now), members)

    async def cast(self, game_id: int, *, user_id: int, yes: bool, number: int | None, source_id: str | None
                   ) -> Cast:
        """A member's ballot on the open vote (``number``: the vote a button was sent with); a later one replaces
        it until the close."""
        async with self._write(game_id, source_id) as uow:
            game, council = await council_of(uow.session, game_id)
            vote = council.current
            if user_id not in council.weights:
                raise RuleError(f"You have no seat in the council of {game.name}.")
            if vote is None and number is None:
                raise RuleError(f"{game.name} has no open council vote.")
            if vote is None or (number is not None and vote.number != number):
                raise RuleError(f"Vote {number} of {game.name} is not open any more.")
            if vote.deadline is not None and uow.now >= vote.deadline:
                raise RuleError(f"Vote {vote.number} of {game.name} closed at its deadline.")
            changed = user_id in vote.ballots
            await uow.record(game_id, BALLOT, user_id, {"number": vote.number, "user_id": user_id, "yes": yes},
                             source_id)
            return Cast(view(game), vote.number, yes, council.weights[user_id], changed)

    async def close(self, game_id: int, *, actor: int | None, source_id: str | None, expected: int | None = None
                    ) -> Closed:
        """Close the open vote (``expected``: the one a deadline was for; closing one already closed returns it,
        ``already``). The close and its ``ResultPending`` commit together; the post marks it posted."""
        async with self._write(game_id, source_id) as uow:
            game, council = await council_of(uow.session, game_id)
            vote = council.current
            if expected is not None and (vote is None or vote.number != expected):
                done = council.vote(expected)
                if done is None or done.result is None:
                    raise RuleError(f"{game.name} has no vote {expected}.")
                return Closed(view(game), done.number, done.question, done.result, already=True)
            if vote is None:
                raise RuleError(f"{game.name} has no open vote.")
            result = tally(council.weights, council.names, vote.ballots)
            await uow.record(game_id, CLOSED, actor, {"number": vote.number, "yes": result.yes, "no": result.no,
                                                      "abstained": list(result.abstained),
                                                      "carried": result.carried}, source_id)
            await uow.run(result_pending, game_id, NAME, vote.number)
            return Closed(view(game), vote.number, vote.question, result)

    async def closed_vote(self, game_id: int, number: int) -> Closed | None:
        async with self._read() as session:
            game, council = await council_of(session, game_id)
        vote = council.vote(number)
        if vote is None or vote.result is None:
            return None
        return Closed(view(game), number, vote.question, vote.result, already=True)

    async def open_votes(self) -> list[tuple[int, Vote]]:
        """(game id, vote) of every open council vote with a deadline."""
        async with self._read() as session:
            ids = (await session.execute(select(Game.id).where(Game.ruleset == NAME, Game.status != "ended")
                                         .order_by(Game.id))).scalars()
            found = [(g, (await council_of(session, g))[1].current) for g in list(ids)]
        return [(g, v) for g, v in found if v is not None and v.deadline is not None]

    async def remind(self, game_id: int, number: int) -> Reminder | None:
        """Record the vote's one reminder (once: its ``remind:`` source id); whom it goes to. None if it is closed."""
        async with self._write(game_id, remind_source(game_id, number)) as uow:
            game, council = await council_of(uow.session, game_id)
            vote = council.current
            if vote is None or vote.number != number or vote.deadline is None:
                return None
            waiting = tuple(u for u in council.weights if u not in vote.ballots)
            await uow.record(game_id, REMINDED, None, {"number": number, "to": list(waiting)},
                             remind_source(game_id, number))
            return Reminder(view(game), number, vote.question, vote.deadline, waiting)

    async def next_deadlines(self) -> list[datetime]:
        """Each open vote's deadline, and its reminder's instant until it is sent."""
        times: list[datetime] = []
        for _, vote in await self.open_votes():
            assert vote.deadline is not None
            times.append(vote.deadline)
            if vote.reminder_due(REMIND_BEFORE) is not None:
                times.append(vote.deadline - REMIND_BEFORE)
        return times


async def export_council(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """Its part of ``/game export``: the members and every vote with its ballots and result."""
    game = await session.get(Game, game_id)
    if game is None or game.ruleset != NAME:
        return {}
    _, council = await council_of(session, game_id)
    return {"council": {
        "members": [{"user_id": u, "name": council.names[u], "weight": w} for u, w in council.weights.items()],
        "votes": [{"number": v.number, "question": v.question,
                   "deadline": v.deadline.isoformat() if v.deadline else None,
                   "ballots": {council.names.get(u, str(u)): "yes" if y else "no" for u, y in v.ballots.items()},
                   "result": None if v.result is None else {"yes": v.result.yes, "no": v.result.no,
                                                            "carried": v.result.carried}}
                  for v in council.votes]}}


RULESET = Ruleset(NAME, "Council", service=CouncilService, exports=(export_council,))
