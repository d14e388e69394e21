"""A start's SQL does not grow with the number of games (issue 20, bench ``many-long``), but as intended: a start
looks at every running game for what a kill left undone (``Front.at_start``: the Landsdraad majority of each game
past round 5, ``majorities_at_start``), and each look was a read of its own, five statements for every long game at
every start. The bot is started on a database of long games (past round 5: rounds opened, voted and closed through
the service, each result marked posted as the bot marks a card it posted; one game's majority told), and every
statement from the start until its start's work is done is counted, on any engine, with 3 long games and with 9.
What grows, by design, a step for so many games: the majority's look, three statements for each
``MAJORITY_GAMES_A_READ`` (50) games (which bounds the memory of its read); the catch-up of the DMs sent while the
bot was offline (bot/discord/catch_up.py), in the background after the ready, two for each ``GAMES_AT_ONCE`` (4)
games (their players' user ids and kept DM channels), waited for here, each channel kept already by an earlier
start."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, insert
from sqlalchemy.engine import Engine

from bot.discord import catch_up
from bot.discord.catch_up import GAMES_AT_ONCE
from engine.landsdraad.ballot import parse_ballot
from engine.service.announcements import posted_marker
from engine.service.landsdraad.victory_scoring import MAJORITY_GAMES_A_READ
from engine.store.models import Player

from .clerkbot import Harness

PLAYERS = 2
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


async def caught_up(h: Harness) -> None:
    """The catch-up of this start has read every player's DM channel, and the channels it learnt are kept."""
    await h.fake.wait_for(lambda: h.bot.catch_up.done.is_set(), "the DMs sent while the bot was down read back")
    await h.clerk.dm_channels.written()


async def counted_start(h: Harness) -> list[str]:
    """The statements of a start, from before its engine is made until its start's work is done: the scheduler's
    first pass (``start`` waits for it), the receipts owed beside the first messages, ``on_ready``'s notices and the
    catch-up. A start before it, uncounted, does whatever the games' making left to a start, and keeps every
    player's DM channel (the compiled statements are made there too)."""
    await h.restart()
    await caught_up(h)
    await h.stop()
    with statements() as seen:
        await h.start()
        starting = [t for t in asyncio.all_tasks() if t.get_name() in ("clerk-owe-unanswered", "discord.py: on_ready")]
        await asyncio.gather(*starting)
        await caught_up(h)
    return seen


def grown(games: int) -> int:
    """The statements of a start that grow with the number of long games, by design (steps of so many games)."""
    return 2 * -(-games // GAMES_AT_ONCE) + 3 * -(-games // MAJORITY_GAMES_A_READ)


async def test_a_start_makes_as_many_statements_with_9_long_games_as_with_3_but_the_catch_ups_steps(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = clerk_bot
    monkeypatch.setattr(catch_up, "BACKGROUND_REQUESTS", 1000.0)  # the reads back unpaced: only their statements count
    await long_games(h, 3, 0)
    few = await counted_start(h)
    await long_games(h, 6, 3)
    many = await counted_start(h)
    more = Counter(many)
    more.subtract(few)
    assert len(many) - len(few) == grown(9) - grown(3), "\n".join(f"{n:+d} {q}" for q, n in more.items() if n)
