"""Threads the bot makes and messages it keeps up to date, through the real discord.py client.

The mechanism only: a test-only slash command (``/tally``) and a test-only thread form (``Test: ...``) send a
``ToThread`` + ``Keep`` message; they are registered before the bot starts and removed after the test."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fakediscord import Channel, Sent

from bot.actions.commands import App, Command, Option
from bot.actions.context import Ctx
from bot.actions.outbox import Card, Keep, Outgoing, ToChannel, ToThread, ToUser, reply
from bot.actions.rulesets import COMMANDS, ROUTES, THREAD_FORMS
from engine.service.views import GameView

from .clerkbot import Harness

THREAD = "test-tally"
KEY = "test:tally"


def tally(game: GameView, text: str) -> Outgoing:
    return Outgoing(ToThread(game.channel_id, THREAD, game.id), text=text, keep=Keep(game.id, KEY, pin=True))


async def post_tally(app: App, ctx: Ctx, game: GameView | None, options: dict[str, Any]) -> list[Outgoing]:
    assert game is not None
    return [reply("posted", ephemeral=True), tally(game, options["text"])]


async def form_handler(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    line = text.splitlines()[0]
    return [reply(f"noted {line}"), tally(game, f"last: {line} by {ctx.actor.name}")]


def is_test_form(line: str) -> bool:
    return line.startswith("Test:")


@pytest.fixture
def throwaway() -> Iterator[None]:
    COMMANDS["tally"] = Command("tally", "test only: post the tally", (Option("text", str, "what it says", True),),
                                post_tally, ruleset="landsdraad")  # its games play Landsdraad (only its commands)
    ROUTES.thread_form(is_test_form)(form_handler)
    try:
        yield
    finally:
        del COMMANDS["tally"]
        THREAD_FORMS[:] = [form for form in THREAD_FORMS if form[1] is not form_handler]


@pytest.fixture
async def clerk_bot(throwaway: None, clerk_bot: Harness) -> Harness:
    """The bot, started after the test-only command is registered (its slash commands are built at start)."""
    await clerk_bot.run(clerk_bot.mod, "game new", clerk_bot.game, ruleset="landsdraad", name="sirius")
    return clerk_bot


def the_thread(h: Harness) -> Channel:
    thread = h.fake.thread_named(THREAD, h.game)
    assert thread is not None, "the bot made no thread"
    return thread


async def kept(h: Harness) -> Sent:
    """The kept message, as it reads now: the one the bot remembers, which must be in the thread."""
    found = await h.clerk.posts.kept_message(await h.game_id(), KEY)
    assert found is not None, "no kept message"
    message = h.fake.message(found[1])
    assert message is not None and not message.deleted and message.channel_id == the_thread(h).id == found[0]
    return message


def thread_posts(h: Harness) -> int:
    return sum(1 for method, path in h.fake.requests if method == "POST" and path.endswith("/threads"))


async def test_the_thread_is_made_once_and_the_kept_message_pinned_then_edited_in_place(clerk_bot: Harness) -> None:
    h = clerk_bot

    for text in ("one", "two", "three"):
        answer = await h.run(h.alice, "tally", h.game, text=text)
        assert answer.first.content == "posted" and answer.first.ephemeral

    thread = the_thread(h)
    assert thread.parent_id == h.game.id and thread.auto_archive_duration == 10080
    assert thread_posts(h) == 1
    message = await kept(h)
    assert message.content == "three" and message.pinned
    assert [content for content, _ in message.history] == ["one", "two"]
    assert h.fake.pinned(thread) == [message]
    assert await h.clerk.posts.kept_message(await h.game_id(), KEY) == (thread.id, message.id)
    assert await h.clerk.posts.kept_message(await h.game_id(), "thread:" + THREAD) == (h.game.id, thread.id)
    # Discord's system messages (thread started in #sirius, message pinned in the thread) got no answer.
    assert [(s.kind, s.channel_id) for s in h.fake.sent if s.kind == "system"] == [("system", h.game.id),
                                                                                  ("system", thread.id)]
    assert h.fake.messages(h.game) == []


async def test_a_thread_message_is_answered_in_its_thread_and_updates_the_kept_message(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.alice, "tally", h.game, text="start")
    thread = the_thread(h)

    in_made = await h.fake.say(h.bob, thread, "Test: one\nwith a second line")
    first = await h.fake.reply_to(in_made)
    in_other = await h.fake.say(h.alice, h.thread, "Test: two")  # a thread made by someone else
    second = await h.fake.reply_to(in_other)
    await h.idle()

    assert (first.channel_id, first.content) == (thread.id, "noted Test: one")
    assert (second.channel_id, second.content) == (h.thread.id, "noted Test: two")
    message = await kept(h)
    assert message.content == "last: Test: two by alice" and message.edits == 2
    assert thread_posts(h) == 1


async def test_in_the_game_channel_a_form_gets_the_hint_and_chat_gets_no_answer(clerk_bot: Harness) -> None:
    h = clerk_bot

    hint = await h.fake.reply_to(await h.fake.say(h.alice, h.game, "Test: in the open"))
    before = len(h.fake.sent)
    for channel in (h.game, h.thread, h.lobby):
        await h.fake.say(h.alice, channel, "hello everyone, Test: not on the first line")
    await h.fake.say(h.alice, h.lobby, "Test: not a game channel")
    await h.settle()

    assert hint.channel_id == h.game.id
    assert "in a thread of this channel" in hint.content and "Nothing was recorded" in hint.content
    assert len(h.fake.sent) == before
    assert h.fake.thread_named(THREAD) is None


async def test_after_a_restart_the_thread_and_the_kept_message_are_found_again(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.alice, "tally", h.game, text="before")

    await h.restart()
    await h.run(h.alice, "tally", h.game, text="after")

    assert thread_posts(h) == 1
    message = await kept(h)
    assert message.content == "after" and message.edits == 1


async def test_a_deleted_kept_message_is_sent_again_and_a_deleted_thread_made_again(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.alice, "tally", h.game, text="one")
    first = await kept(h)

    await h.fake.delete_message(first)
    await h.run(h.alice, "tally", h.game, text="two")
    second = await kept(h)
    await h.fake.delete_thread(the_thread(h))
    await h.run(h.alice, "tally", h.game, text="three")
    third = await kept(h)

    assert second.id != first.id and second.pinned and second.content == "two"
    assert third.content == "three" and third.pinned and third.edits == 0
    assert thread_posts(h) == 2 and len(h.fake.threads_created) == 2
    assert await h.clerk.posts.kept_message(await h.game_id(), "thread:" + THREAD) == (h.game.id, the_thread(h).id)


async def test_an_archived_thread_is_reopened_to_edit_the_kept_message(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.alice, "tally", h.game, text="one")
    await h.fake.archive(the_thread(h))

    await h.run(h.alice, "tally", h.game, text="two")

    assert not the_thread(h).archived
    message = await kept(h)
    assert message.content == "two" and message.edits == 1


async def test_without_the_pin_permission_the_message_is_still_kept(clerk_bot: Harness,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    h = clerk_bot
    h.fake.bot_can_pin = False

    await h.run(h.alice, "tally", h.game, text="one")
    await h.run(h.alice, "tally", h.game, text="two")

    message = await kept(h)
    assert message.content == "two" and message.edits == 1 and not message.pinned
    assert any("could not pin test:tally" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)


async def test_messages_arriving_together_share_one_thread_and_the_last_one_shows(clerk_bot: Harness) -> None:
    h = clerk_bot

    for n in range(6):  # no waiting in between: the bot gets them in one burst
        await h.fake.say(h.bob if n % 2 else h.alice, h.thread, f"Test: {n}")
    await h.fake.wait_for(lambda: sum(1 for s in h.fake.sent if s.content.startswith("noted")) == 6, "six answers")
    await h.idle()

    assert thread_posts(h) == 1
    message = await kept(h)
    assert message.content == "last: Test: 5 by bob"
    # The edits owed while an earlier one was being sent are coalesced (only the latest text is needed): what was
    # shown is some of the updates, in the order they were made, never an older one after a newer one.
    updates = [f"last: Test: {n} by {'bob' if n % 2 else 'alice'}" for n in range(5)]
    shown = [content for content, _ in message.history]
    assert shown and shown[0] == updates[0] and shown == sorted(set(shown), key=updates.index)


async def test_commands_arriving_together_share_one_thread_and_one_kept_message(clerk_bot: Harness) -> None:
    h = clerk_bot

    calls = await asyncio.gather(*(h.fake.slash(h.alice, "tally", h.game, text=str(n)) for n in range(5)))
    for call in calls:
        await h.fake.answered(call)
    await h.settle()

    assert thread_posts(h) == 1
    message = await kept(h)
    assert message.content in {str(n) for n in range(5)}
    assert message.edits <= 4  # an update older than the one shown is dropped, never shown over it


async def test_a_message_in_a_thread_the_bot_has_not_seen_is_still_read(clerk_bot: Harness) -> None:
    h = clerk_bot
    unseen = h.fake.add_thread("made-while-away", h.game)  # no THREAD_CREATE: not in the bot's cache

    answer = await h.fake.reply_to(await h.fake.say(h.carol, unseen, "Test: hello"))

    assert (answer.channel_id, answer.content) == (unseen.id, "noted Test: hello")


async def test_without_the_message_content_intent_server_messages_are_not_read(clerk_bot: Harness) -> None:
    h = clerk_bot
    h.bot_options = {"message_content": False}
    await h.restart()
    before = len(h.fake.sent)

    await h.fake.say(h.alice, h.thread, "Test: unread")
    await h.fake.say(h.alice, h.game, "Test: unread")
    await h.settle()

    assert len(h.fake.sent) == before
    assert h.fake.dropped == []  # delivered, but without their text


async def test_a_kept_message_in_a_channel_or_a_dm_is_edited_in_place_too(clerk_bot: Harness) -> None:
    h = clerk_bot
    gid = await h.game_id()
    in_lobby, to_bob = Keep(gid, "test:lobby"), Keep(gid, "test:bob")

    await h.bot.courier.deliver([Outgoing(ToChannel(h.lobby.id), "first", keep=in_lobby),
                                 Outgoing(ToUser(h.bob.id), "first", keep=to_bob)])
    await h.bot.courier.deliver([Outgoing(ToChannel(h.lobby.id), card=Card("second"), keep=in_lobby),
                                 Outgoing(ToUser(h.bob.id), "second", keep=to_bob)])
    await h.idle()

    [lobby] = h.fake.messages(h.lobby)
    [dm] = h.fake.dms(h.bob)
    assert (lobby.content, lobby.embed["title"], lobby.edits, lobby.pinned) == ("", "second", 1, False)
    assert (dm.content, dm.edits) == ("second", 1)


async def test_a_kept_message_is_edited_where_it_is_even_if_the_update_names_another_place(clerk_bot: Harness
                                                                                          ) -> None:
    h = clerk_bot
    gid = await h.game_id()
    await h.run(h.alice, "tally", h.game, text="in the thread")

    await h.bot.courier.deliver([Outgoing(ToThread(h.game.id, "elsewhere", gid), "moved?", keep=Keep(gid, KEY)),
                                 Outgoing(ToChannel(h.lobby.id), "moved again?", keep=Keep(gid, KEY))])
    await h.idle()

    message = await kept(h)
    assert message.content == "moved again?" and message.edits in (1, 2)  # the first may be coalesced away
    assert h.fake.thread_named("elsewhere") is None and h.fake.messages(h.lobby) == []
