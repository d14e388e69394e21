"""Posting a message of text alone (a DM ballot's receipt, most answers and reminders: ``Courier.send_plain``) below
discord.py's ``HTTPClient.request`` (issue 20: in a burst, the HTTP send is the largest part of the event loop's CPU
per DM, and about a third of it was discord.py's own bookkeeping around aiohttp).

The request is the one ``HTTPClient.send_message`` makes: the same method, URL (``Route.BASE``, so test mode's fake
Discord too), headers (``User-Agent``, ``Authorization``, ``Content-Type``) and JSON body (discord.py's own
``_to_json`` of the payload ``handle_message_parameters`` built), on discord.py's own aiohttp session, so its
connector (``tune_http``: the connection limit) and its trace (pacing.py: the global pacer, a global 429's pause,
the channel buckets read from the headers) see it as they see every other request. What it leaves out:

- a ``discord.http.Ratelimit`` bucket per channel, made for each DM channel of a burst (20,000 after 20,000 DMs,
  which relief.py drops again) and the headers parsed into it after each answer. The channel's bucket is kept by
  the pacer instead (``Pacer.blocked_until``, from the same ``X-RateLimit-Remaining``/``-Reset-After`` headers): the
  outgoing queue does not pick a lane whose bucket is spent, and a post made anyway waits here until it is not;
- decoding Discord's answer (the whole message object as JSON) when it is a success: nothing reads it.

A refusal is handled as ``HTTPClient.request`` handles it, with discord.py's own exceptions (the outgoing queue's
mapping to sent, undeliverable or retry is unchanged): a 429 is waited out for its ``retry_after`` and tried again
(five tries in all; one without Cloudflare's ``Via`` header, or whose body is not JSON, is a ban: raised at once; a
global one also holds discord.py's own requests meanwhile; one longer than ``max_ratelimit_timeout`` is raised as
``RateLimited``), a 500, 502, 504 or 524 is tried again after 1, 3, 5, 7 s, a connection reset likewise; 403 is
``Forbidden``, 404 ``NotFound``, any other ``HTTPException``. With a proxy set on the client, discord.py sends it
(``HTTPClient.send_message``)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.errors import DiscordServerError, Forbidden, HTTPException, NotFound, RateLimited
from discord.http import MultipartParameters, Route, json_or_text
from discord.utils import MISSING, _to_json

if TYPE_CHECKING:  # nothing of Clerk at run time: bench/barebot.py loads this file alone, as the bare bot's post
    from bot.discord.pacing import Pacer

log = logging.getLogger("clerk.discord.plain_post")

TRIES = 5
"""As ``HTTPClient.request``."""
RETRIED_STATUSES = frozenset({500, 502, 504, 524})
"""Tried again after ``1 + 2 * try`` seconds, as ``HTTPClient.request`` does."""
RESET_ERRNOS = (54, 10054)
"""A connection reset by the peer (BSD, Windows), tried again as ``HTTPClient.request`` does."""


class PlainPoster:
    """``post(channel_id, params)``: ``HTTPClient.send_message(channel_id, params=params)`` for a payload without
    files, returning nothing."""

    def __init__(self, client: discord.Client, pacer: Pacer) -> None:
        self.client = client
        self.pacer = pacer
        self._headers: dict[str, str] = {}
        self._token: str | None = None

    def _session(self) -> aiohttp.ClientSession | None:
        """discord.py's session (made at login), or None when this path cannot be taken (not logged in, closed, a
        proxy set): then discord.py sends."""
        http = self.client.http
        session: Any = getattr(http, "_HTTPClient__session", MISSING)
        if (not isinstance(session, aiohttp.ClientSession) or session.closed or http.proxy is not None
                or http.proxy_auth is not None or http.token is None
                or not isinstance(getattr(http, "_global_over", None), asyncio.Event)):
            return None
        return session

    def _headers_now(self) -> dict[str, str]:
        http = self.client.http
        if http.token != self._token:
            self._token = http.token
            self._headers = {"User-Agent": http.user_agent, "Authorization": f"Bot {http.token}",
                             "Content-Type": "application/json"}
        return self._headers

    async def post(self, channel_id: int, params: MultipartParameters) -> None:
        session = self._session()
        if session is None or params.files or params.payload is None:
            await self.client.http.send_message(channel_id, params=params)
            return
        http = self.client.http
        url = f"{Route.BASE}/channels/{channel_id}/messages"
        body = _to_json(params.payload)
        headers = self._headers_now()
        global_over: asyncio.Event = http._global_over
        response: aiohttp.ClientResponse | None = None
        data: dict[str, Any] | str | None = None
        for tries in range(TRIES):
            if not global_over.is_set():  # a global 429 met by discord.py's own requests (or ours)
                await global_over.wait()
            blocked = self.pacer.blocked_until(channel_id) - time.monotonic()
            if blocked > 0:  # the channel's bucket is spent (its headers): wait, as discord.py's bucket would
                await asyncio.sleep(blocked)
            try:
                async with session.request("POST", url, headers=headers, data=body) as response:
                    status = response.status
                    if 200 <= status < 300:
                        await response.read()  # read (the connection is kept), not decoded: nothing reads it
                        return
                    data = await json_or_text(response)
                    if status == 429:
                        await self._wait_out(response, data, url)
                        continue
                    if status in RETRIED_STATUSES:
                        await asyncio.sleep(1 + tries * 2)
                        continue
                    if status == 403:
                        raise Forbidden(response, data)
                    if status == 404:
                        raise NotFound(response, data)
                    if status >= 500:
                        raise DiscordServerError(response, data)
                    raise HTTPException(response, data)
            except OSError as error:
                if tries < TRIES - 1 and error.errno in RESET_ERRNOS:
                    await asyncio.sleep(1 + tries * 2)
                    continue
                raise
        assert response is not None
        if response.status >= 500:
            raise DiscordServerError(response, data)
        raise HTTPException(response, data)

    async def _wait_out(self, response: aiohttp.ClientResponse, data: dict[str, Any] | str, url: str) -> None:
        """A 429, as ``HTTPClient.request`` meets it: raised if it is a ban or longer than the client allows, else
        waited out (a global one holding discord.py's requests too)."""
        if not response.headers.get("Via") or isinstance(data, str):  # Cloudflare's ban, more than likely
            raise HTTPException(response, data)
        http = self.client.http
        retry_after = float(data["retry_after"])
        if http.max_ratelimit_timeout and retry_after > http.max_ratelimit_timeout:
            log.warning("We are being rate limited. POST %s responded with 429. Timeout of %.2f was too long, "
                        "erroring instead.", url, retry_after)
            raise RateLimited(retry_after)
        log.warning("We are being rate limited. POST %s responded with 429. Retrying in %.2f seconds.", url,
                    retry_after)
        global_over: asyncio.Event = http._global_over
        is_global = bool(data.get("global", False))
        if is_global:
            log.warning("Global rate limit has been hit. Retrying in %.2f seconds.", retry_after)
            global_over.clear()
        try:
            await asyncio.sleep(retry_after)
        finally:
            if is_global:
                global_over.set()
