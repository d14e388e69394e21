"""A start's SQL does not grow with the number of games (issue 20, bench ``many-long``): a start looks at every
running game for what a kill left undone (``Front.at_start``: the Landsdraad majority of each game past round 5,
``majorities_at_start``), and each look was a read of its own, five statements for every long game at every start.
The bot is started on a database of long games (past round 5: rounds opened, voted and closed through the service,
each result marked posted as the bot marks a card it posted; one game's majority told), and every statement from
the start until its start's work is done is counted, on any engine: the same with 3 long games as with 9. (What
grows by design, and not here: the catch-up's read of the players' DM channels, 400 users a statement,
``dm_channels._AT_ONCE``; 12 and 36 players are one statement each.)"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event, insert
from sqlalchemy.engine import Engine

from engine.landsdraad.ballot import parse_ballot
from engine.service.announcements import posted_marker
from engine.store.models import Player

from .clerkbot import Harness

PLAYERS = 4
CLOSED = 6
"""Rounds closed in each long game (round 7 open): past round 5, where the majority counts (R3-20)."""


@contextmanager
def statements() -> Iterator[list[str]]:
    """Every statement sent through any engine while the block runs (the bot's engine is made by ``start``)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(re.sub(r" IN \([^()]*\)", " IN (...)", " ".join(statement.split())))  # any list's length

    event.listen(Engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", note)


async def long_games(h: Harness, count: int, first: int) -> None:
    """``count`` Landsdraad games of ``PLAYERS`` players in channels of their own, each played to round
    ``CLOSED + 1`` through the service; in the first one player holds a majority, told at the close of round 5."""
    owner = h.mod.id
    for g in range(first, first + count):
        channel = h.fake.add_channel(f"long{g}")
        game = await h.clerk.games.create_game(guild_id=h.fake.guild_id, channel_id=channel.id, name=f"long{g}",
                                               ruleset="landsdraad", moderator_role_id=None, actor=owner)
        users = [h.fake.add_user(f"l{g}p{i}") for i in range(PLAYERS)]
        async with h.engine.begin() as conn:
            await conn.execute(insert(Player), [
                {"game_id": game.id, "user_id": u.id, "name": u.name, "faction": None, "diplomacy": 3,
                 "command": 2, "intrigue": 2, "roll": 2, "diplomacy_max": 3, "intrigue_max": 2,
                 "misc_votes": 40 if g == 0 and i == 0 else 0, "active": True} for i, u in enumerate(users)])
        for n in range(1, CLOSED + 1):
            await h.clerk.landsdraad.rounds.open_round(game.id, crisis=f"Crisis {n}?", deadline=None, actor=owner)
            await asyncio.gather(*[h.clerk.landsdraad.ballots.cast_ballot(
                game.id, user_id=u.id, command=parse_ballot("Vote: Aye" if i % 2 else "Vote: Nay"),
                received_at=h.clock.now(), source_id=f"long:{g}:{n}:{i}") for i, u in enumerate(users)])
            await h.clerk.landsdraad.rounds.close_round(game.id, actor=owner)
            await h.clerk.announcements.mark_posted(posted_marker("round", game.id, n))
            if n == 5 and g == 0:
                assert await h.clerk.landsdraad.victory.check_majority(game.id, actor=None) is not None
        await h.clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=None,
                                                   actor=owner)
    h.clock.advance(timedelta(days=2))  # the closes are older than a start's look back at unposted results


async def counted_start(h: Harness) -> list[str]:
    """The statements of a start, from before its engine is made until its start's work is done: the scheduler's
    first pass (``start`` waits for it), the receipts owed beside the first messages and ``on_ready``'s notices. A
    start before it, uncounted, does whatever the games' making left to a start (and the compiled statements)."""
    await h.restart()
    await h.stop()
    with statements() as seen:
        await h.start()
        starting = [t for t in asyncio.all_tasks() if t.get_name() in ("clerk-owe-unanswered", "discord.py: on_ready")]
        await asyncio.gather(*starting)
    return seen


async def test_a_start_makes_as_many_statements_with_9_long_games_as_with_3(clerk_bot: Harness) -> None:
    h = clerk_bot
    await long_games(h, 3, 0)
    few = await counted_start(h)
    await long_games(h, 6, 3)
    many = await counted_start(h)
    more = Counter(many)
    more.subtract(few)
    assert len(many) == len(few), "\n".join(f"{n:+d} {q}" for q, n in more.items() if n)
