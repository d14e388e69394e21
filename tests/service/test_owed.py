"""The outgoing queue's table (engine/service/owed.py, migration 0009) on SQLite and PostgreSQL: what is owed is kept
until settled, a nonce is owed once, a newer edit of a kept message supersedes the unsent older ones, and a DM
ballot committed with no receipt owed is found at start (and only such a one)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service import owed as owed_module
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.roster import RosterRow
from engine.service.owed import NOTICE, RECEIPT, Owed
from engine.store.database import make_sessionmaker

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def owed(nonce: str, *, coalesce: str | None = None, source: str | None = None, priority: int = NOTICE) -> Owed:
    return Owed("channel:7", 7, priority, nonce, {"to": {"channel": 7}, "text": nonce}, coalesce, source)


async def test_owed_until_settled_a_nonce_once_and_edits_coalesced(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    first = await clerk.outbox.owe([owed("a"), owed("k1", coalesce="keep:1:tally")])
    again, newer = await asyncio.gather(clerk.outbox.owe([owed("a")]),
                                        clerk.outbox.owe([owed("k2", coalesce="keep:1:tally")]))
    assert all(r is not None for r in first)
    assert again == [None], "the same nonce is owed once"
    assert [r.owed.nonce for r in await clerk.outbox.owed()] == ["a", "k2"], "k1 was superseded by k2"
    assert await clerk.outbox.owed_count() == 2

    row = first[0]
    assert row is not None
    await clerk.outbox.settle(row.id, "sent")
    assert [r.owed.nonce for r in await clerk.outbox.owed()] == ["k2"]
    assert newer[0] is not None and (await clerk.outbox.owed())[0].owed.body == {"to": {"channel": 7}, "text": "k2"}


async def test_a_dm_ballot_with_no_receipt_owed_is_found_and_only_it(db_engine: AsyncEngine) -> None:
    clock = ManualClock(T0)
    clerk = Clerk(make_sessionmaker(db_engine), clock, RandomDice(1))
    game = await clerk.games.create_game(guild_id=1, channel_id=2, name="sirius", ruleset="landsdraad",
                                         moderator_role_id=None, actor=None)
    await clerk.landsdraad.roster.add_players(
        game.id, [RosterRow(u, f"p{u}", diplomacy=2, command=1, intrigue=1, roll=2) for u in (11, 12, 13)],
        actor=None)
    await clerk.landsdraad.rounds.open_round(game.id, crisis="Levy?", deadline=None, actor=None)
    for user in (11, 12, 13):
        await clerk.landsdraad.ballots.cast_ballot(game.id, user_id=user, command=parse_ballot("Vote: Aye"),
                                                   received_at=T0, source_id=f"msg:{user}")
    since = T0 - timedelta(days=1)
    up_to = await clerk.outbox.last_event_id()
    assert await clerk.outbox.unanswered_ballots(since, up_to) == [], "nothing was ever owed: a database from before"

    await clerk.outbox.owe([owed("r11", source="msg:11", priority=RECEIPT)])
    await clerk.landsdraad.ballots.cast_ballot(
        game.id, user_id=11, command=parse_ballot("Vote: Nay"), received_at=T0,
        source_id="msg:14")  # after the start's snapshot: this run's, not a dead one's
    found = await clerk.outbox.unanswered_ballots(since, up_to)
    assert [(g, u, s) for g, u, s, _ in found] == [(game.id, 12, "msg:12"), (game.id, 13, "msg:13")]
    receipt = await clerk.landsdraad.ballots.recorded_receipt(game.id, 12, found[0][3], duplicate=False)
    assert (receipt.option, receipt.round_number, receipt.duplicate) == ("aye", 1, False)


async def test_marks_on_a_sqlite_file_are_the_twins_prebuilt_update(db_engine: AsyncEngine,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """On a SQLite file the marks of what was delivered are written in the twin's worker thread by the prebuilt
    update (``_settle(prebuilt_sql=True)``: issue 20, branch burst4); elsewhere by Core. Either way the rows are
    settled."""
    seen: list[bool] = []
    inner = owed_module._settle

    def spied(connection: object, now: datetime, outcomes: object, *, prebuilt_sql: bool = False) -> None:
        seen.append(prebuilt_sql)
        inner(connection, now, outcomes, prebuilt_sql=prebuilt_sql)  # type: ignore[arg-type]

    monkeypatch.setattr(owed_module, "_settle", spied)
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    rows = await clerk.outbox.owe([owed("s1"), owed("s2"), owed("s3")])
    await asyncio.gather(*(clerk.outbox.settle(r.id, "sent") for r in rows[:2] if r is not None))
    assert [r.owed.nonce for r in await clerk.outbox.owed()] == ["s3"]
    assert seen and set(seen) == {db_engine.dialect.name == "sqlite"}
