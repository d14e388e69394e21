"""Rounds that close themselves at their deadline: on time, once, and after a restart."""

from __future__ import annotations

from datetime import timedelta

from .clerkbot import Harness


async def round_closed_events(h: Harness) -> list[dict[str, object]]:
    export = await h.clerk.exports.export(await h.game_id())
    return [e for e in export["events"] if e["kind"] == "RoundClosed"]


def results(h: Harness) -> list[str]:
    return [s.embed["title"] for s in h.fake.messages(h.game) if "the measure" in s.embed.get("title", "")]


async def test_a_round_closes_itself_at_its_deadline_and_posts_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))

    h.clock.advance(timedelta(hours=1, minutes=59))
    await h.tick()
    assert results(h) == []

    h.clock.advance(timedelta(minutes=2))
    await h.tick()
    await h.tick()

    assert results(h) == ["sirius, round 1: the measure PASSED"]
    [closed] = await round_closed_events(h)
    assert closed["payload"]["by_deadline"] is True  # type: ignore[index]
    late = await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    assert "Nothing was recorded" in late.content


async def test_a_moderator_close_before_the_deadline_leaves_nothing_for_the_scheduler(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.run(h.mod, "round close", h.game)

    h.clock.advance(timedelta(hours=3))
    await h.tick()

    assert len(results(h)) == 1
    assert len(await round_closed_events(h)) == 1


async def test_a_deadline_that_passed_while_the_bot_was_down_closes_at_start_exactly_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    await h.stop()

    h.clock.advance(timedelta(hours=5))
    await h.start()  # a new bot and a new Clerk on the same database
    await h.fake.wait_for(lambda: results(h), "the result after the restart")
    await h.restart()
    await h.tick()

    assert results(h) == ["sirius, round 1: the measure FAILED"]
    [closed] = await round_closed_events(h)
    assert closed["payload"]["result"]["due_at"].startswith("2026-03-01T20:00")  # type: ignore[index]
    [card] = [s.embed for s in h.fake.messages(h.game) if "the measure" in s.embed.get("title", "")]
    assert card["description"].endswith("Closed at its deadline <t:1772395200:F> (the bot was offline). The ballots "
                                        "DMed to the bot while it was offline were read when it started again: those "
                                        "sent before the deadline are counted.")


async def test_the_scheduler_sleeps_until_the_soonest_deadline(clerk_bot: Harness) -> None:
    """It sleeps exactly until the deadline (not its 60 s cap, nor until something wakes it), and the pass at the end
    of that sleep closes the round. Measured on the scheduler, not on the wall clock: a busy machine makes the
    sleep end later, never sooner."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    deadline = (await h.clerk.landsdraad.rounds.pending_deadlines())[0][2]

    h.clock.advance(deadline - h.clock.now() - timedelta(seconds=0.3))
    await h.tick()  # e.g. another round was opened: it looks again
    assert h.bot.scheduler.sleeps_for == 0.3
    assert results(h) == []

    slept = h.bot.scheduler.passes
    h.clock.advance(timedelta(seconds=0.3))  # no wake: the sleep runs out by itself
    await h.fake.wait_for(lambda: h.bot.scheduler.passes > slept, "the pass at the end of the sleep")
    assert results(h) == ["sirius, round 1: the measure FAILED"]


async def test_a_deadline_reaches_discord_as_timestamp_markup_and_a_local_one_is_in_the_games_zone(
        clerk_bot: Harness) -> None:
    """issue 17: every reader sees the deadline in their own zone (``<t:…:F>``, ``<t:…:R>``); the moderator typed
    it in the game's time zone and is told how it was read."""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    bad = await h.run(h.mod, "game settings", h.game, timezone="Berlin/Europe")
    assert "not a time zone I know" in bad.first.content and "`Europe/Berlin`" in bad.first.content
    await h.run(h.mod, "game settings", h.game, timezone="Europe/Berlin")
    opened = await h.run(h.mod, "round open", h.game, crisis="Raise the fleet levy?", deadline="2026-03-01 22:00")

    due = 1772398800  # 22:00 in Berlin is 21:00 UTC
    assert opened.first.ephemeral and opened.first.content == (
        f"Round 1 is open and announced. “2026-03-01 22:00”: read as Europe/Berlin time (the game's time zone): "
        f"<t:{due}:F>.")
    announcement = next(m for m in h.fake.messages(h.game) if m.embed.get("title") == "sirius: round 1 is open")
    assert announcement.fields()["Deadline"] == f"<t:{due}:F> (<t:{due}:R>)"
    await h.fake.wait_for(lambda: h.fake.dms(h.alice), "the ballot DM")
    assert f"Deadline: <t:{due}:F> (<t:{due}:R>)." in h.fake.dms(h.alice)[0].content
    assert all("UTC" not in m.content and "\ue000" not in m.content for m in h.fake.dms(h.alice))
