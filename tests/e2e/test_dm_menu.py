"""A DM that fits several of the player's games (issue 7), through the real discord.py client: the answer carries
a string select of the games; choosing one casts the ballot there (received when chosen), the menu is then shown
disabled; a redelivered choice counts once; a choice after the deadline is refused and leaves the menu usable; the
menu sent before a restart of the bot still works after it."""

from __future__ import annotations

from datetime import timedelta

from fakediscord import Channel, Sent

from .clerkbot import Harness


async def two_games(h: Harness, *, arrakis_deadline: str | None = None) -> Channel:
    """sirius (alice, bob) and arrakis (alice), a round open in each."""
    await h.new_game()
    arrakis = h.fake.add_channel("arrakis")
    await h.run(h.mod, "game new", arrakis, ruleset="landsdraad", name="arrakis")
    await h.run(h.mod, "player add", arrakis, user=h.alice, diplomacy=1, command=1, intrigue=1, roll=1)
    extra = {"deadline": arrakis_deadline} if arrakis_deadline else {}
    await h.run(h.mod, "round open", arrakis, crisis="Spice quotas", **extra)
    return arrakis


async def ballots(h: Harness, channel: Channel) -> list[dict[str, object]]:
    game = await h.clerk.games.game_in_channel(channel.id)
    assert game is not None
    return [e for e in (await h.clerk.exports.export(game.id))["events"] if e["kind"] == "BallotCast"]


async def ambiguous(h: Harness, text: str) -> tuple[int, Sent]:
    mid = await h.fake.dm(h.alice, text)
    answer = await h.fake.reply_to(mid)
    await h.idle()
    return mid, answer


async def choose(h: Harness, menu: Sent, value: str, *, interaction_id: int | None = None) -> Sent:
    interaction = await h.fake.choose(h.alice, menu, value, interaction_id=interaction_id)
    answer = await h.fake.answered(interaction)
    await h.idle()
    return answer


async def test_an_ambiguous_dm_gets_a_menu_whose_choice_casts_once_and_outlives_a_restart(clerk_bot: Harness) -> None:
    h = clerk_bot
    arrakis = await two_games(h, arrakis_deadline="1h")
    arrakis_id = (await h.clerk.games.game_in_channel(arrakis.id)).id  # type: ignore[union-attr]
    _, menu = await ambiguous(h, "Vote: Nay, 3")
    assert "You play in several games (#sirius, #arrakis); say which" in menu.content
    assert "Nothing was recorded yet" in menu.content
    [select] = menu.selects()
    assert select["custom_id"].startswith("clerk-menu:dm:") and not select.get("disabled")
    assert [(o["label"], o["value"]) for o in select["options"]] == [
        ("#sirius (Landsdraad)", str(await h.game_id())), ("#arrakis (Landsdraad)", str(arrakis_id))]
    assert await ballots(h, h.game) == [] and await ballots(h, arrakis) == []

    h.clock.advance(timedelta(minutes=7))
    chosen_at = h.clock.now()
    first = await h.fake.choose(h.alice, menu, str(arrakis_id))
    receipt = await h.fake.answered(first)
    await h.idle()
    assert "Ballot recorded for round 1 of arrakis: **Nay**" in receipt.content
    assert not receipt.ephemeral  # in a DM the receipt stays, like the reply to a typed ballot
    [cast] = await ballots(h, arrakis)
    assert cast["payload"]["received_at"] == chosen_at.isoformat()  # type: ignore[index]
    assert await ballots(h, h.game) == []
    [select] = menu.selects()
    assert select["disabled"] and select["placeholder"] == "Chosen: #arrakis (Landsdraad)"

    again = await choose(h, menu, str(arrakis_id), interaction_id=first.id)  # the same choice delivered again
    assert "already counted in #arrakis" in again.content and "counts once" in again.content
    assert len(await ballots(h, arrakis)) == 1

    _, late_menu = await ambiguous(h, "Revote: Aye")  # sent in time ...
    h.clock.advance(timedelta(hours=1))  # ... chosen after arrakis' deadline (before its timer fired)
    late = await choose(h, late_menu, "#arrakis (Landsdraad)")
    assert "Nothing was recorded" in late.content and len(await ballots(h, arrakis)) == 1
    assert not late_menu.selects()[0].get("disabled")  # the menu stays: another game may still take it

    await h.restart()  # the menu and the kept message outlive the bot
    fine = await choose(h, late_menu, "#sirius (Landsdraad)")
    assert "Ballot recorded for round 1 of sirius: **Aye**" in fine.content
    assert len(await ballots(h, h.game)) == 1 and late_menu.selects()[0]["disabled"]



async def test_a_player_added_to_a_second_game_after_voting_is_asked_which_game_at_the_next_dm(clerk_bot: Harness
                                                                                                 ) -> None:
    """The bot remembers alice's games after her first DM ballot (engine/service/membership.py); /player add in
    another game makes it forget them, so her next DM is not cast into the game she played in before."""
    h = clerk_bot
    await h.new_game()
    first = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    assert "Ballot recorded for round 1 of sirius" in first.content
    arrakis = h.fake.add_channel("arrakis")
    await h.run(h.mod, "game new", arrakis, ruleset="landsdraad", name="arrakis")
    assert h.clerk.games.known_games(h.alice.id) is not None
    await h.run(h.mod, "player add", arrakis, user=h.alice, diplomacy=1, command=1, intrigue=1, roll=1)
    assert h.clerk.games.known_games(h.alice.id) is None  # forgotten (another process is caught by the ballot's check)
    await h.run(h.mod, "round open", arrakis, crisis="Spice quotas")

    _, answer = await ambiguous(h, "Revote: Nay")

    assert "You play in several games (#sirius, #arrakis)" in answer.content and answer.selects()
    assert [b["payload"]["option"] for b in await ballots(h, h.game)] == ["aye"]  # type: ignore[index]
    assert await ballots(h, arrakis) == []
