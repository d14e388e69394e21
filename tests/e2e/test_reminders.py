"""A reminder DM before a deadline, through the fake Discord: sent once at its time (also across a restart) to
the players who have not voted; /round pause, resume and extend announced in the game channel."""

from __future__ import annotations

from datetime import timedelta

from .clerkbot import START, Harness


def reminders(h: Harness, user: object) -> list[str]:
    return [m.content for m in h.fake.dms(user) if m.content.startswith("Reminder:")]  # type: ignore[arg-type]


async def test_a_reminder_dm_is_sent_once_at_its_time(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="3h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))

    h.clock.advance(timedelta(minutes=59))
    await h.tick()
    assert reminders(h, h.bob) == []

    h.clock.advance(timedelta(minutes=1))  # 2 h before the deadline
    await h.tick()
    await h.fake.wait_for(lambda: reminders(h, h.bob), "the reminder DM")
    await h.restart()
    await h.tick()
    await h.settle()

    deadline = int((START + timedelta(hours=3)).timestamp())  # on Discord "in 2 hours", kept up to date
    assert reminders(h, h.bob) == [f"Reminder: Round 1 of sirius closes <t:{deadline}:R>; you have not voted: DM me "
                                   "`Vote: Aye|Nay|Abstain`."]
    assert reminders(h, h.alice) == []


async def test_pause_resume_and_extend_are_announced(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="3h")
    await h.run(h.mod, "round pause", h.game)
    h.clock.advance(timedelta(hours=5))
    await h.tick()
    await h.run(h.mod, "round resume", h.game)
    await h.run(h.mod, "round extend", h.game, by="1h")
    texts = [m.content for m in h.fake.messages(h.game) if m.content.startswith("The moderators")]
    assert texts == [
        "The moderators paused round 1. Round 1 of sirius is paused by the moderators with 3h left; ballots are "
        "still accepted.",
        "The moderators resumed round 1. Round 1 of sirius now closes at <t:1772416800:F> (<t:1772416800:R>).",
        "The moderators extended round 1. Round 1 of sirius now closes at <t:1772420400:F> (<t:1772420400:R>).",
    ]
