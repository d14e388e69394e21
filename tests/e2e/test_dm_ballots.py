"""DM ballots through the real discord.py client: what the player is told, and what is recorded."""

from __future__ import annotations

from fakediscord import Channel

from .clerkbot import Harness


async def ballots(h: Harness) -> list[dict[str, object]]:
    export = await h.clerk.exports.export(await h.game_id())
    return [e for e in export["events"] if e["kind"] == "BallotCast"]


async def test_a_dm_ballot_is_answered_with_what_was_recorded_and_the_ledgers_count(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    votes = (await h.clerk.landsdraad.ledger.player(await h.game_id(), h.alice.id)).votes
    assert votes != 14

    answer = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye, 14"))

    assert "Ballot recorded for round 1 of sirius: **Aye**" in answer.content
    assert f"your {votes} votes from the ledger" in answer.content
    assert f"You wrote 14, but the ledger gives you {votes}" in answer.content
    assert "Deadline:" in answer.content
    assert [e["payload"]["option"] for e in await ballots(h)] == ["aye"]  # type: ignore[index]
    await h.settle()  # past the echo of the bot's own answer
    assert [m for m in h.fake.dms(h.alice) if not m.buttons()] == [answer]  # no answer to its own echo
    assert not h.bot.cached_messages  # discord.py's message cache is off: Clerk never reads it (max_messages=None)


async def test_a_stated_count_that_matches_the_ledger_gets_no_note(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    votes = (await h.clerk.landsdraad.ledger.player(await h.game_id(), h.bob.id)).votes

    answer = await h.fake.reply_to(await h.fake.dm(h.bob, f"Vote: Nay, {votes}"))

    assert "**Nay**" in answer.content
    assert "You wrote" not in answer.content


async def test_the_same_dm_delivered_twice_is_counted_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()

    message_id = await h.fake.dm(h.alice, "Vote: Aye")
    first = await h.fake.reply_to(message_id)
    await h.fake.dm(h.alice, "Vote: Aye", message_id=message_id)  # Discord redelivers the same message
    await h.fake.wait_for(lambda: len(h.fake.replies_to(message_id)) == 2, "the second answer")

    assert "Ballot recorded" in first.content
    assert "counted once" in h.fake.replies_to(message_id)[1].content
    assert len(await ballots(h)) == 1
    status = await h.clerk.landsdraad.rounds.round_status(await h.game_id())
    assert status.voted == ("alice",)


async def test_unreadable_dm_text_is_quoted_with_the_accepted_forms_and_nothing_is_recorded(clerk_bot: Harness
                                                                                           ) -> None:
    h = clerk_bot
    await h.new_game()

    answer = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Ayy"))

    assert "“Vote: Ayy”" in answer.content
    assert "Did you mean “Vote: Aye”?" in answer.content
    assert "`Vote: Aye`, `Vote: Nay` or `Vote: Abstain`" in answer.content
    assert "Nothing was recorded" in answer.content
    assert await ballots(h) == []
    assert (await h.clerk.landsdraad.rounds.round_status(await h.game_id())).voted == ()


async def test_a_dm_from_someone_who_is_not_a_player_is_answered_and_not_recorded(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()

    answer = await h.fake.reply_to(await h.fake.dm(h.carol, "Vote: Aye"))

    assert "not a player" in answer.content
    assert "Nothing was recorded" in answer.content
    assert await ballots(h) == []


async def test_a_crisis_ballot_posted_in_the_game_channel_is_not_counted_and_chat_gets_no_answer(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()

    warning = await h.fake.reply_to(await h.fake.say(h.alice, h.game, "Vote: Aye"))
    posted = len(h.fake.sent)
    await h.fake.say(h.bob, h.game, "I think we should vote aye on this one")
    await h.settle()

    assert warning.channel_id == h.game.id
    assert "Crisis ballots are secret" in warning.content and "NOT counted" in warning.content
    assert len(h.fake.sent) == posted  # plain chat, and the bot's own echoes, get no answer
    assert await ballots(h) == []


async def test_a_message_in_a_server_the_bot_has_not_cached_is_not_taken_for_a_dm(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    elsewhere = Channel(h.fake.ids.next(), "elsewhere", guild_id=h.fake.ids.next())  # discord.py: message.guild None

    await h.fake.say(h.alice, elsewhere, "Vote: Aye")
    await h.settle()

    assert h.fake.messages(elsewhere) == []
    assert await ballots(h) == []


async def test_a_dm_ballots_receipt_is_owed_in_the_ballots_own_transaction(clerk_bot: Harness) -> None:
    """issue 20: the receipt is kept (owed_messages) by the ballot's transaction, not by a second one, and is sent
    from there once and marked sent (docs/reliability.md)."""
    from sqlalchemy import select

    from engine.store.models import Base

    owed = Base.metadata.tables["owed_messages"]
    h = clerk_bot
    await h.new_game()
    await h.settle()
    owes = h.clerk.outbox._owe_batcher.batches

    message_id = await h.fake.dm(h.alice, "Vote: Aye")
    answer = await h.fake.reply_to(message_id)

    assert "Ballot recorded for round 1 of sirius: **Aye**" in answer.content
    assert h.clerk.outbox._owe_batcher.batches == owes, "no transaction of its own owed the receipt"

    async def outcomes() -> list[str | None]:
        async with h.engine.connect() as conn:
            found = await conn.execute(select(owed.c.outcome).where(owed.c.source_id == f"msg:{message_id}"))
            return list(found.scalars())

    worker, marks = h.bot.courier.outbox, h.clerk.outbox._settle_batcher
    # the mark is group-committed after the send (``settle_soon``): done once its batch's task is
    await h.fake.wait_for(lambda: worker.sent >= 1 and not worker._tasks and not marks._tasks,
                          "the receipt sent and marked sent")
    assert await outcomes() == ["sent"]
    assert len(h.fake.replies_to(message_id)) == 1
