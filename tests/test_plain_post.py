"""A message of text alone (a DM ballot's receipt) is posted below discord.py's ``HTTPClient.request``
(``PlainPoster``, bot/discord/plain_post.py; ``Courier.send_plain``): the request must be the very one discord.py's
``send`` makes (method, URL, headers, body), on discord.py's own session; and Discord's refusals must be met as
``HTTPClient.request`` meets them (429s waited out and tried again, five tries; a ban raised; 5xx tried again;
403/404/other raised as discord.py's exceptions), the channel's spent bucket waited for. Against a small HTTP server
on 127.0.0.1 that records every request and answers as told."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route, handle_message_parameters

from bot.actions.outbox import Card, Keep, Outgoing, ToChannel, ToThread, ToUser
from bot.discord import plain_post
from bot.discord.client import NO_PINGS
from bot.discord.delivery import Courier, _plain
from bot.discord.pacing import Pacer
from bot.discord.plain_post import PlainPoster

TOKEN = "test-token"


def answer(channel_id: int) -> dict[str, Any]:
    return {"id": "1", "channel_id": str(channel_id), "type": 0, "content": "", "attachments": [], "embeds": [],
            "author": {"id": "2", "username": "clerk", "discriminator": "0", "avatar": None, "bot": True},
            "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": "2026-03-01T18:00:00+00:00", "edited_timestamp": None}


def as_json(data: dict[str, Any], *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """As Discord answers: ``Content-Type: application/json`` exactly (discord.py decodes only that)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


@dataclass
class Server:
    """Records each request; answers with ``answers`` in turn (then 200 and a message)."""

    seen: list[Seen] = field(default_factory=list)
    answers: list[Callable[[int], web.Response]] = field(default_factory=list)

    async def handle(self, request: web.Request) -> web.Response:
        self.seen.append(Seen(request.method, request.path, dict(request.headers), await request.read(),
                              time.monotonic()))
        channel_id = int(request.match_info["channel"])
        if self.answers:
            return self.answers.pop(0)(channel_id)
        return as_json(answer(channel_id))


def too_many(retry_after: float, *, is_global: bool = False, via: bool = True) -> Callable[[int], web.Response]:
    headers = {"Via": "1.1 google"} if via else {}
    return lambda _: as_json({"message": "You are being rate limited.", "retry_after": retry_after,
                                        "global": is_global}, status=429, headers=headers)


def status(code: int) -> Callable[[int], web.Response]:
    return lambda _: as_json({"message": "no", "code": 50007}, status=code)


async def me(_: web.Request) -> web.Response:
    return as_json({"id": "2", "username": "clerk", "discriminator": "0", "avatar": None, "bot": True})


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Server]:
    state = Server()
    app = web.Application()
    app.router.add_route("POST", "/api/v10/channels/{channel}/messages", state.handle)
    app.router.add_route("GET", "/api/v10/users/@me", me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    yield state
    await runner.cleanup()


@pytest.fixture
async def client() -> AsyncIterator[tuple[discord.Client, Pacer]]:
    """A client as if logged in: its token, and its session with the pacer's trace (as ClerkBot has it)."""
    pacer = Pacer()
    bot = discord.Client(intents=discord.Intents.none(), allowed_mentions=NO_PINGS, http_trace=pacer.trace())
    bot.http.token = TOKEN
    session = aiohttp.ClientSession(trace_configs=[pacer.trace()])
    bot.http._HTTPClient__session = session  # type: ignore[attr-defined]
    bot.http._global_over = asyncio.Event()  # type: ignore[attr-defined]
    bot.http._global_over.set()  # type: ignore[attr-defined]
    yield bot, pacer
    await session.close()


def params(text: str = "Recorded: **Aye**") -> Any:
    return handle_message_parameters(content=text, nonce="o123", previous_allowed_mentions=NO_PINGS)


SAME = ("User-Agent", "Authorization", "Content-Type")


@pytest.mark.parametrize(("item", "reply_to", "nonce"), [
    (Outgoing(ToUser(5), "Recorded: **Aye**, 14 <@1> @everyone <t:1> «ü»"), 99, "o123"),
    (Outgoing(ToChannel(7), "x" * 2500), None, "o456"),
    (Outgoing(ToChannel(7), "a reminder"), None, None),
])
async def test_the_plain_post_is_the_request_send_makes(server: Server, client: tuple[discord.Client, Pacer],
                                                        item: Outgoing, reply_to: int | None,
                                                        nonce: str | None) -> None:
    bot, pacer = client
    courier = Courier.__new__(Courier)  # only what sending needs: the client, the poster, the DM channels known
    courier.client, courier._dm_channels, courier.poster = bot, {}, PlainPoster(bot, pacer)
    assert _plain(item)
    message = await courier.send(item, nonce, reply_to, 77)  # discord.py's Messageable.send
    assert await courier.send_plain(item, nonce, reply_to, 77) == message.channel.id
    old, new = server.seen
    assert (new.method, new.path) == (old.method, old.path) == ("POST", f"/api/v10/channels/{message.channel.id}"
                                                                        "/messages")
    assert {h: new.headers[h] for h in SAME} == {h: old.headers[h] for h in SAME}
    assert new.headers["Authorization"] == f"Bot {TOKEN}"
    if nonce is None:  # random either way
        a, b = json.loads(old.body), json.loads(new.body)
        assert a.pop("nonce") != b.pop("nonce")
        assert a == b
    else:
        assert new.body == old.body


async def test_after_login_discord_py_s_session_is_used(server: Server) -> None:
    """The discord.py internals the poster reads (its session, its global lock) are there once logged in: otherwise
    every post would go through discord.py (``send_message``) and this file's other tests would test nothing real."""
    pacer = Pacer()
    bot = discord.Client(intents=discord.Intents.none(), allowed_mentions=NO_PINGS, http_trace=pacer.trace())
    await bot.http.static_login(TOKEN)
    poster = PlainPoster(bot, pacer)
    try:
        assert poster._session() is not None

        async def send_message(channel_id: int, *, params: Any) -> dict[str, Any]:
            raise AssertionError("discord.py's send_message was used")

        bot.http.send_message = send_message  # type: ignore[method-assign,assignment]
        await poster.post(7, params())
        assert [(s.method, s.path) for s in server.seen] == [("POST", "/api/v10/channels/7/messages")]
        assert pacer.requests == 2  # the login's and the post: the pacer's trace saw it
    finally:
        await bot.http.close()


async def test_a_429_is_waited_out_and_tried_again(server: Server, client: tuple[discord.Client, Pacer]) -> None:
    bot, pacer = client
    server.answers = [too_many(0.05), too_many(0.05, is_global=True)]
    start = time.monotonic()
    await PlainPoster(bot, pacer).post(7, params())
    assert len(server.seen) == 3
    assert server.seen[2].at - server.seen[1].at >= 0.045 and server.seen[1].at - server.seen[0].at >= 0.045
    assert time.monotonic() - start >= 0.1
    assert bot.http._global_over.is_set()  # type: ignore[attr-defined]


async def test_a_global_429_holds_discord_py_too(server: Server, client: tuple[discord.Client, Pacer]) -> None:
    bot, pacer = client
    server.answers = [too_many(0.3, is_global=True)]
    post = asyncio.ensure_future(PlainPoster(bot, pacer).post(7, params()))
    while len(server.seen) < 1:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert not bot.http._global_over.is_set()  # type: ignore[attr-defined]
    await post
    assert bot.http._global_over.is_set()  # type: ignore[attr-defined]


async def test_five_429s_are_raised(server: Server, client: tuple[discord.Client, Pacer]) -> None:
    bot, pacer = client
    server.answers = [too_many(0.01) for _ in range(5)]
    with pytest.raises(discord.HTTPException) as raised:
        await PlainPoster(bot, pacer).post(7, params())
    assert raised.value.status == 429
    assert len(server.seen) == 5


async def test_a_429_without_cloudflare_is_a_ban_raised_at_once(server: Server,
                                                                client: tuple[discord.Client, Pacer]) -> None:
    bot, pacer = client
    server.answers = [too_many(0.01, via=False)]
    with pytest.raises(discord.HTTPException) as raised:
        await PlainPoster(bot, pacer).post(7, params())
    assert raised.value.status == 429 and len(server.seen) == 1


async def test_a_429_longer_than_allowed_is_raised(server: Server, client: tuple[discord.Client, Pacer]) -> None:
    bot, pacer = client
    bot.http.max_ratelimit_timeout = 1.0
    server.answers = [too_many(30.0)]
    with pytest.raises(discord.RateLimited):
        await PlainPoster(bot, pacer).post(7, params())
    assert len(server.seen) == 1


@pytest.mark.parametrize(("code", "error"), [(403, discord.Forbidden), (404, discord.NotFound),
                                             (400, discord.HTTPException), (503, discord.DiscordServerError)])
async def test_refusals_are_discord_py_s_exceptions(server: Server, client: tuple[discord.Client, Pacer], code: int,
                                                    error: type[Exception]) -> None:
    bot, pacer = client
    server.answers = [status(code)]
    with pytest.raises(error) as raised:
        await PlainPoster(bot, pacer).post(7, params())
    assert isinstance(raised.value, discord.HTTPException) and raised.value.status == code
    assert raised.value.code == 50007 and len(server.seen) == 1


async def test_a_passing_server_error_is_tried_again(server: Server, client: tuple[discord.Client, Pacer],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    bot, pacer = client
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(plain_post.asyncio, "sleep", sleep)
    server.answers = [status(502), status(500)]
    await PlainPoster(bot, pacer).post(7, params())
    assert len(server.seen) == 3 and waits == [1, 3]


async def test_a_spent_bucket_is_waited_for(server: Server, client: tuple[discord.Client, Pacer],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A post to a channel whose bucket is spent waits for its reset; one to another channel does not wait at all
    (the waits are recorded, not timed: a busy machine makes any post slow)."""
    bot, pacer = client
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(seconds)

    monkeypatch.setattr(plain_post.asyncio, "sleep", sleep)
    server.answers = [lambda c: as_json(answer(c), headers={"X-RateLimit-Remaining": "0",
                                                                      "X-RateLimit-Reset-After": "0.25"})]
    poster = PlainPoster(bot, pacer)
    await poster.post(7, params())
    assert pacer.blocked_until(7) > time.monotonic()
    await poster.post(8, params())  # another channel's bucket: not held
    assert waits == []
    await poster.post(7, params())
    assert len(waits) <= 1 and all(0 < w <= 0.25 for w in waits)  # none if the reset came meanwhile (a busy host)
    assert server.seen[2].at - server.seen[0].at >= 0.24


async def test_with_a_proxy_discord_py_sends(server: Server, client: tuple[discord.Client, Pacer]) -> None:
    bot, pacer = client
    bot.http.proxy = "http://127.0.0.1:9"
    sent: list[int] = []

    async def send_message(channel_id: int, *, params: Any) -> dict[str, Any]:
        sent.append(channel_id)
        return answer(channel_id)

    bot.http.send_message = send_message  # type: ignore[method-assign,assignment]
    await PlainPoster(bot, pacer).post(7, params())
    assert sent == [7] and not server.seen


def test_only_text_alone_is_sent_plainly() -> None:
    assert _plain(Outgoing(ToUser(5), "Recorded"))
    assert not _plain(Outgoing(ToUser(5), "Recorded", card=Card("title")))
    assert not _plain(Outgoing(ToUser(5), "chart", file=("a.png", b"png")))
    assert not _plain(Outgoing(ToChannel(5), "result", extra={"posted": "round:1:1"}))
    assert not _plain(Outgoing(ToChannel(5), "tally", keep=Keep(1, "tally")))
    assert not _plain(Outgoing(ToThread(5, "AG election", 1), "vote"))
    assert not _plain(Outgoing(ToUser(5), ""))
