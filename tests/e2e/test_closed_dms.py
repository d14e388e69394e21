"""Players whose DMs are closed to the bot (issue 18, "The platform's edges").

What real Discord does (Discord's developer documentation, Rate Limits, "Invalid Request Limit"): IP addresses that
make too many invalid HTTP requests are automatically and temporarily restricted from the API; the limit is
currently 10,000 per 10 minutes, and an invalid request is one answered 401, 403 or 429 (a 429 with
``X-RateLimit-Scope: shared`` does not count). A DM to a user who does not accept DMs from the server's members is
answered 403 with the JSON error 50007 "Cannot send messages to this user" (the fake does the same for a user whose
``accepts_dms`` is false). So after one refused DM the bot stops DMing that player until they DM it or a moderator
runs ``/player dms``, and it counts the invalid answers and slows down well before Discord's limit."""

from __future__ import annotations

import logging

import pytest

from .clerkbot import Harness
from .crowd import crowd_game

PLAYERS = 2000


def warnings(h: Harness) -> list[str]:
    return [m.content for m in h.fake.messages(h.game) if "cannot send direct messages" in (m.content or "")]


@pytest.mark.long  # 7 s of the suite: `make test-long` (CI runs it)
async def test_2000_players_with_closed_dms_are_dmed_once_and_the_bot_slows_before_the_ban(
        clerk_bot: Harness, caplog: pytest.LogCaptureFixture) -> None:
    h = clerk_bot
    users = h.fake.add_users("p", PLAYERS)
    for user in users:
        user.accepts_dms = False
    await crowd_game(h.clerk, h.fake, h.game, users)
    pacer = h.bot.pacer
    pacer.slow_at, pacer.slow_spacing = 500, 0.0001  # Discord's 10,000 scaled down: the guard engages at 500

    with caplog.at_level(logging.INFO, logger="clerk.discord.pacing"):
        await h.run(h.mod, "round remind", h.game)  # a reminder DM to each of the 2,000: every one refused
        await h.settle()
    assert h.fake.dms_refused == {u.id: 1 for u in users}
    assert pacer.invalid_in_window() >= PLAYERS and pacer.slowed > 0
    assert any("slowing every request" in r.getMessage() for r in caplog.records)
    await h.fake.wait_for(lambda: "more players" in "".join(warnings(h)), "the moderators' warning")
    await h.settle()
    [warning] = warnings(h)  # the refusals are told together, not in 2,000 warnings
    assert warning.startswith("⚠️ Moderators: I cannot send direct messages to **p1**, **p2**, **p3**, ")
    shown = warning.count("**p")
    assert f" and {PLAYERS - shown:,} more players (their DMs are closed to me)" in warning and len(warning) <= 2000
    told = len(warnings(h))

    await h.run(h.mod, "round remind", h.game)  # no DM is tried again: no refusal, no second report
    await h.settle()
    assert h.fake.dms_refused.total() == PLAYERS and len(warnings(h)) == told
    assert h.bot.courier.skipped_closed == PLAYERS


async def test_a_closed_player_is_dmed_again_after_they_dm_the_bot_or_a_moderator_says_so(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    h.bob.accepts_dms = h.carol.accepts_dms = False
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    for user in (h.alice, h.bob, h.carol):
        await h.run(h.mod, "player add", h.game, user=user, diplomacy=2, command=1, intrigue=1, roll=2)
    # round 1 opens: bob's and carol's ballot DMs are refused in the one burst of ballot DMs, so they are told
    # together (a refusal made long after the first, on a loaded machine, would be told in a warning of its own)
    await h.run(h.mod, "round open", h.game, crisis="Raise the fleet levy?")
    await h.settle()
    assert (h.fake.dms_refused[h.bob.id], h.fake.dms_refused[h.carol.id]) == (1, 1)
    assert await h.clerk.closed_dms.closed() == {h.bob.id, h.carol.id}
    await h.fake.wait_for(lambda: warnings(h), "the moderators' warning")
    assert warnings(h) == ["⚠️ Moderators: I cannot send direct messages to **bob** and **carol** (their DMs are "
                           "closed to me), so they get no ballot buttons, receipts or reminders. Ask them to allow "
                           "direct messages from members of this server. I stop DMing them until they DM me or a "
                           "moderator runs `/player dms`."]

    await h.restart()  # kept in the database: still not DMed after a restart, and not reported again
    await h.run(h.mod, "round remind", h.game)
    await h.settle()
    assert (h.fake.dms_refused[h.bob.id], h.fake.dms_refused[h.carol.id]) == (1, 1)
    assert len(warnings(h)) == 1

    h.bob.accepts_dms = True  # bob opens his DMs and DMs the bot: his ballot is answered, he is DMed again
    await h.fake.dm(h.bob, "Vote: Aye")
    await h.settle()
    assert any("Ballot recorded" in (m.content or "") for m in h.fake.dms(h.bob))
    assert await h.clerk.closed_dms.closed() == {h.carol.id}

    answer = await h.run(h.mod, "player dms", h.game, user=h.alice)  # alice was never closed
    assert "no DM to them has been refused" in answer.first.content
    h.carol.accepts_dms = True  # carol tells the moderator she opened her DMs
    answer = await h.run(h.mod, "player dms", h.game, user=h.carol)
    assert "I will DM carol again" in answer.first.content
    reminded = len(h.fake.dms(h.carol))
    await h.run(h.mod, "round remind", h.game)
    await h.settle()
    assert len(h.fake.dms(h.carol)) == reminded + 1 and h.fake.dms_refused[h.carol.id] == 1
    assert await h.clerk.closed_dms.closed() == frozenset()
