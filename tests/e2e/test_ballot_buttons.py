"""Crisis ballots with buttons through the real discord.py client (issue 7): the DM every player gets when a round
opens, presses that record and change the ballot, a doubled press, a late press, a press for a round that is over,
the buttons after a restart, and ``/vote`` without a choice."""

from __future__ import annotations

from datetime import timedelta

from fakediscord import Sent, User

from .clerkbot import Harness


async def offer_to(h: Harness, user: User) -> Sent:
    return (await h.fake.wait_for(lambda: [m for m in h.fake.dms(user) if m.buttons()],
                                  f"the ballot DM to {user.name}"))[-1]


async def ballots(h: Harness) -> list[dict[str, object]]:
    export = await h.clerk.exports.export(await h.game_id())
    return [e for e in export["events"] if e["kind"] == "BallotCast"]


async def test_a_round_opens_with_a_ballot_dm_and_presses_record_and_change_the_ballot(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    gid = await h.game_id()
    offer = await offer_to(h, h.alice)
    votes = (await h.clerk.landsdraad.ledger.player(gid, h.alice.id)).votes
    assert "Round 1 of sirius is open: Raise the fleet levy?" in offer.content
    assert f"Your ballot carries your {votes} votes." in offer.content
    assert [b["label"] for b in offer.buttons()] == ["Aye", "Nay", "Abstain"]
    assert [b["custom_id"] for b in offer.buttons()] == [f"clerk:ballot:{gid}:1:{o}" for o in ("aye", "nay", "abstain")]
    assert (await offer_to(h, h.bob)).buttons()
    assert not h.fake.dms(h.carol)  # not a player

    aye = await h.press(h.alice, offer, "Aye")
    assert aye.first.ephemeral and "Ballot recorded for round 1 of sirius: **Aye**" in aye.first.content
    assert not any(b.get("disabled") for b in offer.buttons())  # a ballot can still be changed
    nay = await h.press(h.alice, offer, "Nay")
    assert "Revote recorded for round 1 of sirius: **Nay** (was Aye)" in nay.first.content
    assert [e["payload"]["option"] for e in await ballots(h)] == ["aye", "nay"]  # type: ignore[index]

    again = await h.press(h.alice, offer, "Nay", interaction_id=nay.id)  # the same press delivered twice
    assert "counted once" in again.first.content
    assert len(await ballots(h)) == 2
    status = await h.clerk.landsdraad.rounds.round_status(gid)
    assert status.voted == ("alice",)


async def test_a_press_after_the_deadline_or_for_a_round_that_is_over_is_refused(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    offer = await offer_to(h, h.alice)
    h.clock.advance(timedelta(hours=2, minutes=1))
    late = await h.press(h.alice, offer, "Aye")
    assert late.first.ephemeral and "Nothing was recorded" in late.first.content
    assert await ballots(h) == []

    await h.run(h.mod, "round close", h.game)
    await h.run(h.mod, "round open", h.game, crisis="Tax the guilds?")
    old = await h.press(h.bob, await offer_to(h, h.bob), "Nay")  # bob's newest DM is round 2's
    assert "Ballot recorded for round 2" in old.first.content
    stale = await h.press(h.bob, next(m for m in h.fake.dms(h.bob) if m.buttons()), "Aye")  # round 1's buttons
    assert "round 1 of sirius, which is over" in stale.first.content and "Nothing was recorded" in stale.first.content
    assert [e["payload"]["option"] for e in await ballots(h)] == ["nay"]  # type: ignore[index]


async def test_ballot_buttons_sent_before_a_restart_still_work(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    offer = await offer_to(h, h.bob)
    await h.restart()
    pressed = await h.press(h.bob, offer, "Abstain")
    assert "Ballot recorded for round 1 of sirius: **Abstain**" in pressed.first.content


async def test_vote_without_a_choice_answers_with_the_buttons(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    asked = await h.run(h.alice, "vote", h.game)
    assert asked.first.ephemeral and [b["label"] for b in asked.first.buttons()] == ["Aye", "Nay", "Abstain"]
    pressed = await h.press(h.alice, asked.first, "Aye")
    assert "Ballot recorded for round 1 of sirius: **Aye**" in pressed.first.content
