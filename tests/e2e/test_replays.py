"""Replays: after a RESUME Discord may deliver a MESSAGE_CREATE or INTERACTION_CREATE again, and a player may press a
button twice in the same instant. The same message or interaction id never counts twice, and a double press counts
once. (A redelivery without a reconnect is in test_dm_ballots.py and test_ballot_buttons.py.)"""

from __future__ import annotations

import asyncio

from .clerkbot import Harness
from .crowd import crowd_game


async def ballot_events(h: Harness, game_id: int) -> list[dict[str, object]]:
    export = await h.clerk.exports.export(game_id)
    return [e for e in export["events"] if e["kind"] == "BallotCast"]


async def test_a_dm_and_a_press_redelivered_after_a_resume_count_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    game_id = await crowd_game(h.clerk, h.fake, h.game, [h.alice, h.bob])
    dm = await h.fake.dm(h.alice, "Vote: Aye")
    await h.fake.reply_to(dm)
    asked = await h.run(h.bob, "vote", h.game)
    pressed = await h.press(h.bob, asked.first, "Nay")

    await h.fake.reconnect()  # RESUME, and Discord sends both events again
    await h.fake.dm(h.alice, "Vote: Aye", message_id=dm)
    again = await h.press(h.bob, asked.first, "Nay", interaction_id=pressed.id)
    await h.fake.wait_for(lambda: len(h.fake.replies_to(dm)) == 2, "the answer to the redelivered DM")

    assert "counted once" in h.fake.replies_to(dm)[1].content
    assert "counted once" in again.first.content
    assert [e["source_id"] for e in await ballot_events(h, game_id)] == [f"msg:{dm}", f"int:{pressed.id}"]
    assert h.fake.resumes == 1 and h.fake.identifies == 1


async def test_a_button_pressed_twice_in_the_same_instant_counts_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    game_id = await crowd_game(h.clerk, h.fake, h.game, [h.alice, h.bob])
    asked = await h.run(h.alice, "vote", h.game)

    first, second = await asyncio.gather(h.fake.press(h.alice, asked.first, "Aye"),
                                         h.fake.press(h.alice, asked.first, "Aye"))  # two interactions, one instant
    await h.fake.answered(first)
    await h.fake.answered(second)
    await h.idle()

    answers = sorted([first.first.content, second.first.content], key=lambda c: "stays" in c)
    assert "Ballot recorded for round 1 of sirius: **Aye**" in answers[0]
    assert "stays **Aye** (the same choice again; it counts once)" in answers[1]
    status = await h.clerk.landsdraad.rounds.round_status(game_id)
    assert status.voted == ("alice",)
    result = await h.clerk.landsdraad.rounds.close_round(game_id, actor=h.mod.id)
    assert result.aye == (await h.clerk.landsdraad.ledger.player(game_id, h.alice.id)).votes
