"""Results announced in the game channel (a round or an AG election closed at its deadline, by a moderator, or an
election closed with its round): the close appends ``ResultPending`` in its own transaction, the announcement appends
``ResultPosted`` once Discord has it, so a bot killed between the two posts it when it starts again
(docs/reliability.md). Closes from before this existed have no ``ResultPending`` and are never announced again."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.service.uow import Duplicate, ServiceBase, SyncUnit
from engine.store.models import Event, PostedMessage


def posted_marker(kind: str, game_id: int, number: int, closing: int = 1) -> str:
    """``round:<game>:<number>`` or ``ag:<game>:<number>``: the announcement's key (``ResultPosted``), and with the
    close's token its Discord nonce (``announcement_nonce``), so Discord drops a second post of that close's card
    within a few minutes. ``closing``: a result closed again after
    a moderator reopened it (a Mylantium election, ``/election reopen``) is its ``closing``-th, ``primary:<game>:
    <number>:2``: a new announcement with a nonce of its own, not the first one posted again."""
    return f"{kind}:{game_id}:{number}" + (f":{closing}" if closing > 1 else "")


NONCE_MAX = 25
"""The longest nonce Discord takes, and the outgoing queue's (``OwedMessage.nonce``, ``String(25)``)."""
POST_TOKEN = "post_token"
"""The key of a close's own token (``new_post_token``): in a round's and a Mylantium election's ``result``, in an
``AgElectionClosed``'s payload. Written in the close's transaction (and anew by a release of a held result)."""
_TOKEN_LETTERS = "0123456789abcdefghijklmnopqrstuvwxyz"


def new_post_token() -> str:
    """Five random letters and digits (60 million), drawn afresh by each close: its announcement's nonce carries
    them (``announcement_nonce``). Random, not from the seeded dice: a close undone by a restore and made again must
    draw another, in a replay too."""
    return "".join(secrets.choice(_TOKEN_LETTERS) for _ in range(5))


def announcement_nonce(marker: str, token: str | None) -> str:
    """The Discord nonce of the announcement (or disclosure warning) ``marker`` of a close that kept ``token``:
    ``round:<game>:<n>.<token>``, so the same close's card sent again (after a kill: the recovery reads the token
    back) is dropped by Discord as a repeat, and another close of the same result (one undone by a restore and made
    again, play-test V2.2) is posted. Past ``NONCE_MAX`` characters (a game or turn number of many digits) its hash
    instead, ``n`` and 24 hex digits. ``token`` None (a close by a Clerk from before tokens): the marker alone, the
    nonce that close was first sent with."""
    if not token:
        return marker
    nonce = f"{marker}.{token}"
    if len(nonce) <= NONCE_MAX:
        return nonce
    return "n" + hashlib.sha256(nonce.encode()).hexdigest()[:NONCE_MAX - 1]


def warning_marker(kind: str, game_id: int, number: int, closing: int = 1) -> str:
    """``wround:<game>:<number>`` (``wprimary``, ``wgeneral``): the moderators' disclosure warning of that result, the
    key it is recorded sent under, and with the close's token its Discord nonce (``announcement_nonce``); ``closing``
    as ``posted_marker``."""
    return posted_marker(f"w{kind}", game_id, number, closing)


def read_marker(marker: str) -> tuple[str, int, int, int]:
    """(kind, game id, number, closing) of a marker ``posted_marker`` or ``warning_marker`` made."""
    kind, game, number, *closing = marker.split(":")
    return kind, int(game), int(number), int(closing[0]) if closing else 1


def warned_key(marker: str) -> str:
    """``warned:wround:<number>``: the key (``posted_messages``) under which the disclosure warning ``marker``
    (``warning_marker``) is recorded sent (``AnnouncementService.mark_warned``)."""
    kind, _, number, closing = read_marker(marker)
    return f"warned:{kind}:{number}{closing_key(closing)}"


def closing_key(closing: int) -> str:
    """What a key of a result's bookkeeping adds for its ``closing``-th close (nothing for the first)."""
    return f":{closing}" if closing > 1 else ""


def jump_link(guild_id: int, channel_id: int | None, message_id: int | None) -> str | None:
    """The Discord link to a message Clerk posted (an erratum links the result card it corrects); None when Clerk
    did not keep where it went."""
    if channel_id is None or message_id is None:
        return None
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def posted_key(kind: str, number: int) -> str:
    """``posted:round:3``: the key (``clerk.posts``) under which the channel and message id of a posted result are
    kept, so an erratum can link the original card."""
    return f"posted:{kind}:{number}"


def card_tag(kind: str, game_id: int, number: int, detail: int | None = None) -> str:
    """``audit:<game>:<round>:<user>``, ``forecast:<game>:0``: a card posted without an announcement marker, as
    ``remember_card`` keeps it (``detail``: what else picks its result out, such as the audited player)."""
    return f"{kind}:{game_id}:{number}" + (f":{detail}" if detail is not None else "")


def posted_card(session: Session, game_id: int, kind: str, number: int) -> tuple[int, int] | None:
    """(channel id, message id) of the latest message that card ``kind``/``number`` of ``game_id`` became
    (``remember_card``; a Convocate Repeal's card), so an erratum links it; None if Clerk kept none."""
    prefix, tail = "card:", f":{kind}:{number}"
    rows = session.execute(select(PostedMessage.key, PostedMessage.channel_id, PostedMessage.message_id).where(
        PostedMessage.game_id == game_id, PostedMessage.key.startswith(prefix), PostedMessage.key.endswith(tail))
        .order_by(PostedMessage.id.desc())).all()
    for key, channel_id, message_id in rows:
        if key == f"{prefix}{message_id}{tail}":  # not a card with a detail (``audit:<game>:<round>:<user>``)
            return int(channel_id), int(message_id)
    return None


@dataclass(frozen=True)
class Announced:
    """The result a message of Clerk's announced: its kind (``round``, ``audit``), number and what else picks it."""

    kind: str
    number: int
    detail: int | None = None
    closing: int = 1
    """Which close of the result it announced (``posted_marker``): a result closed again after a reopening is a
    later one, and a card of an earlier close announced a result since withdrawn."""


def result_pending(unit: SyncUnit, game_id: int, kind: str, number: int, closing: int = 1) -> None:
    """In the close's transaction: the close has an announcement to post (kind ``round`` or ``ag``); ``closing`` as
    ``posted_marker``."""
    unit.record(game_id, *pending_event(kind, number, closing))


def pending_event(kind: str, number: int, closing: int = 1) -> tuple[str, None, dict[str, Any], None]:
    """``result_pending``'s event (kind, actor, payload, source id), for ``SyncUnit.record_all`` with the close's."""
    return "ResultPending", None, {"kind": kind, "number": number, **closing_payload(closing)}, None


def closing_payload(closing: int) -> dict[str, int]:
    """``{"closing": n}`` in the bookkeeping events of a result closed again (``posted_marker``); nothing for the
    first close, so that those read as they always have."""
    return {"closing": closing} if closing > 1 else {}


class AnnouncementService(ServiceBase):
    async def mark_posted(self, marker: str, message_id: int | None = None) -> None:
        """Record that the announcement ``marker`` reached Discord (once; a repeat is ignored), as the message
        ``message_id`` when known (**Explain this** finds the result a message announced by it)."""
        kind, game, number, closing = read_marker(marker)
        source = f"posted:{marker}"
        payload: dict[str, object] = {"kind": kind, "number": number, **closing_payload(closing)}
        if message_id is not None:
            payload["message_id"] = str(message_id)  # a string: a snowflake is past what some JSON readers keep exact
        try:
            async with self._write(int(game), source) as uow:
                await uow.record(int(game), "ResultPosted", None, payload, source)
        except Duplicate:
            pass

    async def remember_post(self, marker: str, channel_id: int, message_id: int) -> None:
        """Where the announcement ``marker`` went (bookkeeping, not an event): an erratum links it."""
        kind, game, number, _ = read_marker(marker)  # the latest close's card: an erratum links it
        async with self._sessions() as session, session.begin():
            key = posted_key(kind, number)
            found = await session.execute(select(PostedMessage).where(PostedMessage.game_id == int(game),
                                                                      PostedMessage.key == key))
            row = found.scalar_one_or_none()
            if row is None:
                session.add(PostedMessage(game_id=int(game), key=key, channel_id=channel_id, message_id=message_id))
            else:
                row.channel_id, row.message_id = channel_id, message_id

    async def mark_warned(self, marker: str, channel_id: int, message_id: int) -> None:
        """The disclosure warning ``marker`` (``warning_marker``) reached Discord as ``message_id`` (bookkeeping, not
        an event; once, a repeat is ignored)."""
        game = read_marker(marker)[1]
        async with self._sessions() as session, session.begin():
            key = warned_key(marker)
            found = await session.execute(select(PostedMessage.id).where(PostedMessage.game_id == int(game),
                                                                         PostedMessage.key == key))
            if found.scalar_one_or_none() is None:
                session.add(PostedMessage(game_id=int(game), key=key, channel_id=channel_id, message_id=message_id))

    async def warned(self, marker: str) -> bool:
        """Whether the disclosure warning ``marker`` was recorded sent (``mark_warned``)."""
        game = read_marker(marker)[1]
        async with self._read() as session:
            found = await session.execute(select(PostedMessage.id).where(
                PostedMessage.game_id == game, PostedMessage.key == warned_key(marker)))
            return found.scalar_one_or_none() is not None

    async def remember_card(self, tag: str, channel_id: int, message_id: int) -> None:
        """The message a result card without a marker became (``card_tag``; bookkeeping, not an event), one row per
        message, so **Explain this** on any of them (a Forecast posted twice) finds its result."""
        kind, game, *rest = tag.split(":")
        key = ":".join(("card", str(message_id), kind, *rest))
        async with self._sessions() as session, session.begin():
            found = await session.execute(select(PostedMessage.id).where(PostedMessage.game_id == int(game),
                                                                         PostedMessage.key == key))
            if found.scalar_one_or_none() is None:  # once per message, however often it is reported
                session.add(PostedMessage(game_id=int(game), key=key, channel_id=channel_id, message_id=message_id))

    async def announced_by(self, game_id: int, message_id: int) -> Announced | None:
        """The result the message ``message_id`` announced in ``game_id``: a marked announcement (``ResultPosted``)
        or a card kept by ``remember_card``; None if it announced none that Clerk recorded (a message posted before
        message ids were kept, or not a result)."""
        async with self._read() as session:
            rows = await session.execute(select(Event.payload).where(
                Event.game_id == game_id, Event.kind == "ResultPosted").order_by(Event.seq.desc()))
            for (payload,) in rows.all():
                if payload.get("message_id") == str(message_id):
                    return Announced(str(payload["kind"]), int(payload["number"]),
                                     closing=int(payload.get("closing", 1)))
            keys = await session.execute(select(PostedMessage.key).where(
                PostedMessage.game_id == game_id, PostedMessage.message_id == message_id,
                PostedMessage.key.startswith(f"card:{message_id}:")))
            for (key,) in keys.all():
                _, _, kind, number, *detail = key.split(":")
                return Announced(kind, int(number), int(detail[0]) if detail else None)
            return None

    async def unposted(self, since: datetime) -> list[tuple[str, int, int]]:
        """(kind, game id, number) of every result closed by its deadline since ``since`` and not marked posted (each
        close of a result closed again after a reopening on its own: ``posted_marker``)."""
        async with self._read() as session:
            rows = await session.execute(
                select(Event.game_id, Event.kind, Event.payload)
                .where(Event.at >= since, Event.kind.in_(("ResultPending", "ResultPosted"))).order_by(Event.id))
            pending: list[tuple[str, int, int, int]] = []
            posted: set[tuple[str, int, int, int]] = set()
            for game_id, kind, payload in rows.all():
                key = (str(payload["kind"]), game_id, int(payload["number"]), int(payload.get("closing", 1)))
                if kind == "ResultPosted":
                    posted.add(key)
                else:
                    pending.append(key)
            return list(dict.fromkeys(p[:3] for p in pending if p not in posted))
