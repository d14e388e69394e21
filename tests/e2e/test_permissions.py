"""The bot lacks a permission in its game channel (Discord answers 403 50013): the moderators (the game's creator
and the server's owner) are told by DM which channel and what to grant, with the start of the missed message,
at most once an hour per channel; the refusals in between are counted in the next report."""

from __future__ import annotations

from datetime import timedelta

from bot.actions.outbox import Card, Outgoing, ToChannel
from bot.discord.permission_reports import report_text

from .clerkbot import Harness


def reports(h: Harness, user: object) -> list[str]:
    return [m.content for m in h.fake.dms(user) if m.content.startswith("⚠️ Moderators of")]  # type: ignore[arg-type]


async def test_a_refused_post_in_the_game_channel_is_reported_to_the_moderators_once_an_hour(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="3h")
    posted = len(h.fake.messages(h.game))
    h.fake.refuse_posts(h.game)

    extended = await h.run(h.mod, "round extend", h.game, by="1h")
    [report] = await h.fake.wait_for(lambda: reports(h, h.mod), "the report to the game's creator")
    assert extended.first.ephemeral and extended.first.content.startswith("Done: extended round 1.")
    assert reports(h, h.fake.owner) == [report]  # the server's owner too
    assert report.startswith(f"⚠️ Moderators of **sirius**: I could not post in <#{h.game.id}>: I am not allowed to "
                             "post there (Discord: Missing Permissions). Please grant me (Clerk) View Channels, Send "
                             "Messages, Send Messages in Threads, Create Public Threads, Embed Links, Attach Files, "
                             "Read Message History in that channel")
    assert "The message that was not posted:\n> The moderators extended round 1. Round 1 of sirius now closes at " \
           "<t:1772402400:F> (<t:1772402400:R>)." in report
    assert reports(h, h.alice) == [] and len(h.fake.messages(h.game)) == posted

    await h.run(h.mod, "round extend", h.game, by="1h")  # refused again within the hour: no second report
    h.clock.advance(timedelta(minutes=59))
    await h.run(h.mod, "round extend", h.game, by="1h")
    await h.settle()
    assert reports(h, h.mod) == [report]

    h.clock.advance(timedelta(minutes=1))
    await h.run(h.mod, "round pause", h.game)
    later = await h.fake.wait_for(lambda: reports(h, h.mod)[1:], "the next report an hour later")
    assert "Since my last report 2 more messages could not be posted there." in later[0]
    assert "\n> The moderators paused round 1." in later[0]

    h.fake.refuse_posts(h.game, None)  # the permission is granted: posts arrive again, nothing more is reported
    await h.run(h.mod, "round resume", h.game)
    await h.fake.wait_for(lambda: len(h.fake.messages(h.game)) > posted, "the announcement in #sirius")
    assert h.fake.messages(h.game)[-1].content.startswith("The moderators resumed round 1.")
    assert len(reports(h, h.mod)) == 2 and len(reports(h, h.fake.owner)) == 2


def test_the_report_says_what_to_grant_and_quotes_the_start_of_a_card() -> None:
    card = Card("sirius: round 1 passed", "Raise the fleet levy?", (("Aye", "9", True), ("Nay", "3", True)))
    item = Outgoing(ToChannel(5), card=card, file=("round-1.png", b"png"))
    text = report_text("sirius", 5, 50001, item, 1)
    assert "I cannot see that channel (Discord: Missing Access). Please grant me (Clerk) **View Channels**, and " \
           "Send Messages, Send Messages in Threads, Create Public Threads, Embed Links, Attach Files" in text
    assert "Since my last report 1 more message could not be posted there." in text
    assert text.endswith("> **sirius: round 1 passed**\n> Raise the fleet levy?\n> Aye: 9\n> Nay: 3\n"
                         "> (with the file round-1.png)\n(I report this at most once an hour per channel.)")
    long = report_text("g", 5, 50013, Outgoing(ToChannel(5), "\n".join(f"line {i}" for i in range(20))), 0)
    assert "> line 5\n> …\n" in long and "line 6" not in long and len(long) < 2000
