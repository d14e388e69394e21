"""A scheduler pass with nothing due reads almost nothing (issue 20): the lease and one look at the events since
its last full read. The timed work is read in full when it is woken by a change, when something falls due, when
an event other than a ballot was written (another process, the console), and at least every ``refresh``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event

from .clerkbot import Harness


async def look(h: Harness) -> None:
    """A pass begun after now, without telling the scheduler anything changed."""
    s = h.bot.scheduler
    wanted = s.started + 1
    s.look()
    await h.fake.wait_for(lambda: s.passes >= wanted, "a scheduler pass")


@contextmanager
def statements(h: Harness) -> Iterator[list[str]]:
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(h.engine.sync_engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(h.engine.sync_engine, "before_cursor_execute", note)


def reminders(h: Harness, user: object) -> list[str]:
    return [m.content for m in h.fake.dms(user) if m.content.startswith("Reminder:")]  # type: ignore[arg-type]


async def test_a_pass_with_nothing_due_reads_almost_nothing_and_a_reminder_still_goes_out_once(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    s = h.bot.scheduler
    await h.new_game(deadline="3h")
    await h.tick()
    await look(h)  # the look after a change overlaps it by one pass: it reads once more
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))  # a ballot changes no timed work
    full = s.full_reads
    with statements(h) as seen:
        await look(h)
        await look(h)
    assert s.full_reads == full
    # each pass: the lease (one upsert on SQLite; its read and its upsert on PostgreSQL) and the events since its
    # last full read, against 21 statements for a full read. Not the scheduler's: the pool's ping of a connection
    # it hands out (PostgreSQL) and the receipt's mark as sent, which may land during the passes
    theirs = [q for q in seen if q.strip() != "SELECT 1" and not q.startswith("UPDATE owed_messages")]
    assert len(theirs) <= 2 * 3, theirs
    assert sum(q.startswith("SELECT events.kind") for q in theirs) == 2, theirs

    h.clock.advance(timedelta(hours=1))  # 2 h before the deadline: due, with no wake
    await look(h)
    assert s.full_reads == full + 1
    await h.fake.wait_for(lambda: reminders(h, h.bob), "the reminder DM")
    await look(h)
    await h.restart()
    await h.tick()
    await h.settle()
    assert len(reminders(h, h.bob)) == 1
    assert reminders(h, h.alice) == []


async def test_a_deadline_changed_elsewhere_is_read_at_the_next_pass(clerk_bot: Harness) -> None:
    """Another process (or the console) moves the deadline: this one's scheduler is not woken, but the event
    is seen at its next pass and the round closes at the new deadline."""
    h = clerk_bot
    s = h.bot.scheduler
    await h.new_game(deadline="3h")
    await h.tick()
    await look(h)
    full = s.full_reads
    await h.clerk.landsdraad.rounds.extend_round(await h.game_id(), to=h.clock.now() + timedelta(seconds=30),
                                                 actor=None)
    await look(h)
    assert s.full_reads == full + 1
    assert s.sleeps_for <= 30
    h.clock.advance(timedelta(seconds=31))
    await look(h)
    await h.fake.wait_for(lambda: any("the measure" in m.embed.get("title", "") for m in h.fake.messages(h.game)),
                          "the result")


async def test_the_timed_work_is_read_in_full_at_least_every_refresh(clerk_bot: Harness) -> None:
    h = clerk_bot
    s = h.bot.scheduler
    await h.new_game(deadline="3h")
    await h.tick()
    await look(h)
    full = s.full_reads
    h.clock.advance(timedelta(seconds=s.refresh - 1))
    await look(h)
    assert s.full_reads == full
    h.clock.advance(timedelta(seconds=1))
    await look(h)
    assert s.full_reads == full + 1


async def test_a_mylantium_choice_leaves_the_pass_quiet_and_the_primary_is_still_reminded(clerk_bot: Harness) -> None:
    h = clerk_bot
    s = h.bot.scheduler
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    for who, faction, party in ((h.alice, "Plutocrat", "Whig"), (h.bob, "Granger", "Whig")):
        await h.run(h.mod, "faction register", h.game, faction=faction, user=who, party=party, vp=20, treasury=10)
    await h.run(h.mod, "candidate add", h.game, name="Lee Adams", faction="Plutocrat", charisma=7)
    await h.run(h.mod, "election start", h.game)
    await h.run(h.mod, "election primary open", h.game, deadline="3h")
    await h.tick()
    await look(h)
    await h.fake.reply_to(await h.fake.dm(h.alice, "Primary: Lee Adams"))  # ChoiceMade: no deadline moves
    full = s.full_reads
    await look(h)
    assert s.full_reads == full
    h.clock.advance(timedelta(hours=1))  # 2 h before the deadline
    await look(h)
    assert s.full_reads == full + 1
    await h.fake.wait_for(lambda: reminders(h, h.bob), "bob's 2 h reminder")
    assert reminders(h, h.alice) == []
