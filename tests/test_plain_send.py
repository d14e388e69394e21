"""A message of text alone (a DM ballot's receipt) is sent without discord.py's ``Messageable.send``
(``Courier.send_plain``, bot/discord/delivery.py): the request must be the very one ``send`` makes, the payload
built by discord.py's ``handle_message_parameters`` with the same arguments (no pings, the reply's reference, the
nonce, the text cut to Discord's limit), to the same channel; and only text alone takes that way."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.actions.outbox import Card, Keep, Outgoing, ToChannel, ToThread, ToUser
from bot.discord.client import NO_PINGS
from bot.discord.delivery import Courier, _plain


def answer(channel_id: int) -> dict[str, Any]:
    return {"id": "1", "channel_id": str(channel_id), "type": 0, "content": "", "attachments": [], "embeds": [],
            "author": {"id": "2", "username": "clerk", "discriminator": "0", "avatar": None, "bot": True},
            "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": "2026-03-01T18:00:00+00:00", "edited_timestamp": None}


@pytest.mark.parametrize(("item", "reply_to", "nonce"), [
    (Outgoing(ToUser(5), "Recorded: **Aye**, 14 <@1> @everyone <t:1>"), 99, "o123"),
    (Outgoing(ToChannel(7), "x" * 2500), None, "o456"),
    (Outgoing(ToChannel(7), "a reminder"), None, None),
])
async def test_the_plain_send_makes_the_request_send_makes(item: Outgoing, reply_to: int | None,
                                                           nonce: str | None) -> None:
    client = discord.Client(intents=discord.Intents.none(), allowed_mentions=NO_PINGS)
    sent: list[tuple[int, dict[str, Any]]] = []

    async def send_message(channel_id: int, *, params: Any) -> dict[str, Any]:
        assert not params.files
        sent.append((int(channel_id), dict(params.payload)))
        return answer(int(channel_id))

    client.http.send_message = send_message  # type: ignore[method-assign,assignment]
    courier = Courier.__new__(Courier)  # only what sending needs: the client and the DM channels known
    courier.client, courier._dm_channels = client, {}
    assert _plain(item)
    message = await courier.send(item, nonce, reply_to, 77)
    assert await courier.send_plain(item, nonce, reply_to, 77) == message.channel.id
    (to_old, old), (to_new, new) = sent
    if nonce is None:  # random either way
        assert old.pop("nonce") != new.pop("nonce")
    assert (to_new, new) == (to_old, old)
    await client.close()


def test_only_text_alone_is_sent_plainly() -> None:
    assert _plain(Outgoing(ToUser(5), "Recorded"))
    assert not _plain(Outgoing(ToUser(5), "Recorded", card=Card("title")))
    assert not _plain(Outgoing(ToUser(5), "chart", file=("a.png", b"png")))
    assert not _plain(Outgoing(ToChannel(5), "result", extra={"posted": "round:1:1"}))
    assert not _plain(Outgoing(ToChannel(5), "tally", keep=Keep(1, "tally")))
    assert not _plain(Outgoing(ToThread(5, "AG election", 1), "vote"))
    assert not _plain(Outgoing(ToUser(5), ""))
