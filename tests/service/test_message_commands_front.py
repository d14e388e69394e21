"""The message context-menu commands (``Count as vote``, issue 18) through ``handle_message_command`` against a real
Clerk: who may count whose message, how a count by someone else is marked, and the refusals (each says why and
that nothing was recorded). The Discord side (registration, resolved messages, the intent) is in
tests/e2e/test_without_content.py."""

from __future__ import annotations

from conftest import Table
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, dm, slash, text_of

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx, Place
from bot.actions.message_commands import TargetMessage, handle_message_command, reading_lines
from bot.actions.outbox import Here, Outgoing, ToUser

ALICE, BOB, CAROL = actor(10, "Alice"), actor(11, "Bob"), actor(12, "Carol")
THREAD = 7001
_ids = iter(range(50_000, 60_000))


async def with_ag(table: Table) -> None:
    """Alice, Bob and Carol; Carol is the Adjutant General; round 1 is open."""
    for who, attrs in ((ALICE, (4, 2, 2)), (BOB, (2, 3, 1)), (CAROL, (1, 1, 3))):
        await table.player(who.id, who.name, *attrs)
    await slash(table.clerk, MODERATOR, "ag open")
    for who in (ALICE, BOB, CAROL):
        await dm(table.clerk, who, "AG Vote: Carol")
    await slash(table.clerk, MODERATOR, "ag close")
    await table.open()


async def count(table: Table, by: Actor, author: Actor, text: str, *, thread: int | None = THREAD,
                name: str = "Count as vote", bot: bool = False, mid: int | None = None) -> list[Outgoing]:
    ctx = Ctx(by, Place(GUILD, CHANNEL, thread), f"int:{next(_ids)}", table.clock.now())
    message = TargetMessage(mid or next(_ids), author.id, author.name, bot, text)
    return await handle_message_command(App(table.clerk), ctx, name, message)


def answer(out: list[Outgoing]) -> str:
    mine = [o for o in out if isinstance(o.to, Here)]
    assert mine and all(o.ephemeral for o in mine), "the answer is the applier's alone"
    return "\n".join(text_of(o) for o in mine)


async def supporters(table: Table) -> list[int]:
    return [e.payload.get("proxy_for", e.actor) for e in await table.events() if e.kind == "PlayerVoteSupported"]


async def test_a_moderator_counts_a_players_message_marked_as_theirs_and_the_player_is_told(table: Table) -> None:
    await with_ag(table)
    out = await count(table, MODERATOR, BOB, "Vote: No Confidence", mid=777)
    assert "1 of 2" in answer(out)
    [event] = [e for e in await table.events() if e.kind == "PlayerVoteSupported"]
    assert event.actor == MODERATOR.id and event.payload["proxy"] is True and event.payload["proxy_for"] == BOB.id
    assert event.source_id == "msg:777"  # the message's own: read again (it mentions the bot), it counts once
    told = [text_of(o) for o in out if isinstance(o.to, ToUser) and o.to.user_id == BOB.id]
    assert told and "mod counted your message “Vote: No Confidence”" in told[0]


async def test_a_message_read_already_is_answered_so_not_as_reaching_the_bot_twice(table: Table) -> None:
    """Play-test S5.3: the menu on a message that was counted (when it was posted, read because it mentioned the bot,
    or through the menu before) says so; before, "That message reached me twice", which it had not."""
    await with_ag(table)
    assert "1 of 2" in answer(await count(table, ALICE, ALICE, "Vote: No Confidence", mid=888))
    again = answer(await count(table, ALICE, ALICE, "Vote: No Confidence", mid=888))
    assert again == ("That message was read already (when it was posted, or through this menu before) and counted "
                     "once then. Nothing was recorded.")
    assert await supporters(table) == [ALICE.id]


async def test_the_ag_may_count_a_player_majority_vote_and_another_player_may_not(table: Table) -> None:
    await with_ag(table)
    refused = answer(await count(table, BOB, ALICE, "Vote: No Confidence"))
    assert "Only its author or a moderator" in refused and "Nothing was recorded" in refused
    assert await supporters(table) == []
    assert "1 of 2" in answer(await count(table, CAROL, ALICE, "Vote: No Confidence"))
    assert await supporters(table) == [ALICE.id]
    not_a_motion = answer(await count(table, CAROL, BOB, "AG Vote: Alice"))  # the AG counts votes, not ballots
    assert "Only its author or a moderator" in not_a_motion


async def test_refusals_say_what_was_wrong(table: Table) -> None:
    await with_ag(table)
    chat = answer(await count(table, ALICE, ALICE, "hello all"))
    assert "I could not read “hello all” as a vote (the forms: `AG Vote: Bob`;" in chat
    in_channel = answer(await count(table, ALICE, ALICE, "Vote: No Confidence", thread=None))
    assert "counts only in a thread of the game channel" in in_channel
    bots = answer(await count(table, MODERATOR, BOB, "Vote: No Confidence", bot=True))
    assert "That is a bot's message" in bots
    other = answer(await count(table, ALICE, ALICE, "Motion: Tax by Dorn", name="Count as motion"))
    assert "**Count as motion** is not used in" in other and "its menu entries: Count as vote." in other
    ctx = Ctx(ALICE, Place(GUILD, CHANNEL + 1), "int:x", table.clock.now())
    elsewhere = await handle_message_command(App(table.clerk), ctx, "Count as vote",
                                             TargetMessage(1, ALICE.id, ALICE.name, False, "Vote: No Confidence"))
    assert "is for messages in a game channel or its threads" in answer(elsewhere)
    assert all("Nothing was recorded" in text for text in (chat, in_channel, bots, other, answer(elsewhere)))
    assert await supporters(table) == []


def test_help_says_how_to_post_only_when_the_bot_cannot_read_messages(table: Table) -> None:
    app = App(table.clerk)
    assert reading_lines(app, "landsdraad") == []
    app.settings["reads_messages"] = False
    [line] = reading_lines(app, "landsdraad")
    assert "start a form with @Clerk" in line and "**Count as vote**" in line
    assert reading_lines(app, "mylantium") == []  # no thread forms: nothing to say


async def test_the_dm_to_the_author_of_a_message_counted_by_someone_else_is_owed_with_the_count(table: Table) -> None:
    """On Discord (an ``Answering``): the DM telling Bob that the moderator counted his message, with what the form
    answered, is owed in the form's write's transaction (``answered_by_dm``), with the running count the form posts,
    so a kill after the commit cannot lose it; before, it was owed after the commit. It is not also returned to be
    owed again: the front end queues the row owed."""
    from bot.actions.outbox import Answering, not_owed
    from bot.actions.wire import encode
    from engine.service.owed import NOTICE, Owed

    await with_ag(table)
    nonces = iter(range(1, 100))
    answering = Answering(not_owed, lambda item: Owed("dm", 11, NOTICE, f"m{next(nonces)}", encode(item)))
    ctx = Ctx(MODERATOR, Place(GUILD, CHANNEL, THREAD), "int:1", table.clock.now(), answering)
    out = await handle_message_command(App(table.clerk), ctx, "Count as vote",
                                       TargetMessage(901, BOB.id, BOB.name, False, "Vote: No Confidence"))
    assert "1 of 2" in answer(out)
    assert not [o for o in out if isinstance(o.to, ToUser)], "owed already: not returned to be owed again"
    told = [row for row in await table.clerk.outbox.owed() if row.owed.body["to"] == {"user": BOB.id}]
    assert len(told) == 1 and told[0].owed.body["text"] == ("mod counted your message “Vote: No Confidence” in "
                                                            "sirius (Count as vote).\nBob supports No Confidence in "
                                                            "Carol: 1 of 2.")
    assert told[0].id in [row.id for _, row in answering.owed], "queued by the front end"
