"""The console does the front end's bookkeeping for ``ToThread`` and ``Keep``: a thread named by the bot is made
once, found again by its name (in this session and the next), and is the same thread users address as
``#channel/name``; a kept message is sent once (pinned when asked) and then edited in place. Messages in
channels and threads go through ``handle_channel_message``.

The thread form and the command used here are throwaway, registered for each test and removed after it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.actions.commands import App, Command, Option
from bot.actions.context import Ctx
from bot.actions.outbox import Keep, Outgoing, ToChannel, ToThread, reply
from bot.actions.rulesets import COMMANDS, THREAD_FORMS
from bot.console.cli import clerk_on
from bot.console.session import Session
from bot.console.transcript import parse_transcript
from bot.console.world import World, slug, stable_id
from engine.service.clock import ManualClock
from engine.service.views import GameView

SEEN: list[tuple[Ctx, str]] = []


def _test_form(line: str) -> bool:
    return line.lower().startswith("tally:")


async def _tally_in_thread(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    SEEN.append((ctx, text))
    assert text.startswith(("Tally:", "tally:"))
    body = text.strip().splitlines()[0].partition(":")[2].strip()
    return [reply(f"Noted: {body}"),
            Outgoing(ToThread(game.channel_id, "ag-election-1", game.id), f"Tally: {body}",
                     keep=Keep(game.id, "tally", pin=True))]


async def _post(app: App, ctx: Ctx, game: GameView | None, options: dict[str, Any]) -> list[Outgoing]:
    assert game is not None
    thread = options.get("thread", "ag-election-1")
    thread_id = options.get("thread_id")
    keep = options.get("keep")
    to = ToChannel(game.channel_id) if thread == "-" else ToThread(game.channel_id, thread, game.id, thread_id)
    return [Outgoing(to, options["text"], keep=Keep(game.id, keep, pin=bool(options.get("pin"))) if keep else None)]


@pytest.fixture(autouse=True)
def throwaway_forms() -> Iterator[None]:
    form = (_test_form, _tally_in_thread, False)
    THREAD_FORMS.insert(0, form)
    COMMANDS["testpost"] = Command("testpost", "test only", (
        Option("text", str, "what to say", True), Option("thread", str, "thread name, - for the channel"),
        Option("thread_id", int, "a known thread id"), Option("keep", str, "keep key"), Option("pin", int, "1 pins"),
    ), _post, ruleset="landsdraad")  # the games here play Landsdraad, which takes only its own commands
    SEEN.clear()
    try:
        yield
    finally:
        THREAD_FORMS.remove(form)
        del COMMANDS["testpost"]


class Console:
    def __init__(self, session: Session, out: list[str]) -> None:
        self.session = session
        self.out = out

    async def __call__(self, *lines: str) -> str:
        """Run lines; what the bot answered to them, the way a transcript prints it (without the echo)."""
        start = len(self.out)
        events, errors = parse_transcript("\n".join(lines).splitlines())
        assert not errors
        for event in events:
            await self.session.run(event)
        return "\n".join(self.out[start:])


@pytest.fixture
async def url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"


async def _console(url: str, prefix: str) -> AsyncIterator[Console]:
    clock = ManualClock(datetime(2026, 3, 1, 18, tzinfo=UTC))
    async with clerk_on(url, clock, 0) as app:
        out: list[str] = []
        yield Console(Session(app, clock, out.append, prefix), out)


@pytest.fixture
async def con(url: str) -> AsyncIterator[Console]:
    async for c in _console(url, "one"):
        await c("mod #sirius: /game new ruleset:landsdraad name:sirius",
                "mod #sirius: /player add user:@bob diplomacy:2 command:2 intrigue:2 roll:1")
        yield c


async def test_a_thread_is_made_once_then_found_by_name_and_a_kept_message_is_edited(con: Console) -> None:
    first = await con("mod #sirius: /testpost text:one keep:tally pin:1")
    assert first == "  → #sirius/ag-election-1 (new thread, pinned): one"
    second = await con("mod #sirius: /testpost text:two keep:tally pin:1")
    assert second == "  → #sirius/ag-election-1 (edits the pinned message): two"
    plain = await con("mod #sirius: /testpost text:chat")
    assert plain == "  → #sirius/ag-election-1: chat"
    unpinned = await con("mod #sirius: /testpost text:a keep:count", "mod #sirius: /testpost text:b keep:count")
    assert unpinned == "  → #sirius/ag-election-1: a\n  → #sirius/ag-election-1 (edits its earlier message): b"

    clerk = con.session.app.clerk
    game = await clerk.games.game_in_channel(stable_id("channel", "sirius"))
    assert game is not None
    place = con.session.world.place("sirius", "ag-election-1")
    assert await clerk.posts.kept_message(game.id, "thread:ag-election-1") == (place.channel_id, place.thread_id)
    channel, message = await clerk.posts.kept_message(game.id, "tally") or (0, 0)
    assert channel == place.thread_id and message == stable_id("message", f"{game.id}/tally")


async def test_the_bots_thread_is_the_thread_users_write_in(con: Console) -> None:
    await con("mod #sirius: /testpost text:opened")
    out = await con("bob #sirius/ag-election-1: Tally: Alice", "  | the rest of the message is not read")
    assert out == ("  → #sirius/ag-election-1: Noted: Alice\n"
                   "  → #sirius/ag-election-1 (pinned): Tally: Alice")
    ctx, text = SEEN[-1]
    assert ctx.place == con.session.world.place("sirius", "ag-election-1")
    assert text == "Tally: Alice\nthe rest of the message is not read"
    again = await con("bob #sirius/ag-election-1: tally: Bob")
    assert again.endswith("  → #sirius/ag-election-1 (edits the pinned message): Tally: Bob")


async def test_a_name_users_wrote_in_first_is_the_same_place_in_the_console(con: Console) -> None:
    """The transcript syntax cannot tell two threads of one name apart: when the bot makes its thread after
    users wrote in #sirius/ag-election-1, it is printed as that place (and marked as made by the bot)."""
    out = await con("bob #sirius/ag-election-1: Tally: Alice")
    assert out.splitlines()[1] == "  → #sirius/ag-election-1 (new thread, pinned): Tally: Alice"
    assert [v for v in con.session.world.channels.values() if "ag-election-1" in v] == ["#sirius/ag-election-1"]


async def test_odd_thread_names_are_written_the_transcript_way(con: Console) -> None:
    out = await con('mod #sirius: /testpost text:hi thread:"AG Election: 2!"')
    assert out == "  → #sirius/ag-election-2 (new thread): hi"
    reply_ = await con("bob #sirius/ag-election-2: Tally: x")
    assert SEEN[-1][0].place.thread_id == stable_id("thread", "sirius/ag-election-2")
    assert reply_.startswith("  → #sirius/ag-election-2: Noted: x")
    assert slug("  AG  election 1 ") == "ag-election-1" and slug("!!!") == "thread"


async def test_a_known_thread_id_is_used_as_it_is(con: Console) -> None:
    place = con.session.world.place("sirius", "talk")
    out = await con(f"mod #sirius: /testpost text:hi thread:whatever thread_id:{place.thread_id}")
    assert out == "  → #sirius/talk: hi"


async def test_the_next_session_finds_the_thread_and_the_kept_message(url: str) -> None:
    async for con in _console(url, "one"):
        await con("mod #sirius: /game new ruleset:landsdraad name:sirius",
                  "mod #sirius: /testpost text:one keep:tally pin:1")
    async for con in _console(url, "two"):
        assert await con("mod #sirius: /testpost text:two keep:tally pin:1") == (
            "  → #sirius/ag-election-1 (edits the pinned message): two")
    async for con in _console(url, "three"):
        # nobody has written in #sirius yet in this session: the thread's parent is named after its game
        con.session.world.channels.clear()
        game = await con.session.app.clerk.games.game_in_channel(stable_id("channel", "sirius"))
        assert game is not None
        await con.session.show([Outgoing(ToThread(game.channel_id, "ag-election-1", game.id), "three")], None)
        assert con.out[-1] == "  → the game channel of sirius/ag-election-1: three"


async def test_channel_messages_go_to_the_thread_forms(con: Console) -> None:
    out = await con("bob #sirius: Tally: Alice")
    assert out.startswith("  → #sirius: Votes go in a thread")
    assert await con("bob #sirius/chat: just chatting") == ""
    assert await con("bob #sirius: just chatting") == ""
    assert await con("bob #elsewhere/x: Tally: Alice") == "", "not a game channel: no answer"
    assert (await con("bob #sirius: Vote: Aye")).startswith("  → #sirius: Crisis ballots are secret: DM me")
    assert isinstance(con.session.world, World)
