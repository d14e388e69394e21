"""An ``Outgoing`` as plain JSON and back, so it can wait in the ``owed_messages`` table (engine/service/owed.py)
until the Discord adapter delivers it, across restarts. A reply (``Here``) is kept as a post in the channel it
answers, with the message it replies to."""

from __future__ import annotations

import base64
from dataclasses import replace
from typing import Any

from bot.actions.outbox import Button, Card, Choice, Keep, Outgoing, Select, Target, ToChannel, ToThread, ToUser
from engine.service.owed import Owed


def encode(item: Outgoing, *, channel_id: int | None = None, reply_to: int | None = None) -> dict[str, Any]:
    """``item`` as JSON; a reply is given the ``channel_id`` it goes to and the message it answers."""
    body: dict[str, Any] = {"to": _target(item.to, channel_id)}
    if reply_to is not None:
        body["reply_to"] = reply_to
    if item.text:
        body["text"] = item.text
    if item.card is not None:
        c = item.card
        body["card"] = {"title": c.title, "description": c.description, "fields": [list(f) for f in c.fields],
                        "color": c.color, "footer": c.footer}
    if item.file is not None:
        body["file"] = [item.file[0], base64.b64encode(item.file[1]).decode("ascii")]
    if item.alt:
        body["alt"] = item.alt
    if item.extra:
        body["extra"] = dict(item.extra)
    if item.keep is not None:
        body["keep"] = {"game_id": item.keep.game_id, "key": item.keep.key, "pin": item.keep.pin}
    if item.buttons:
        body["buttons"] = [[b.label, b.custom_id, b.style] for b in item.buttons]
    if item.select is not None:
        s = item.select
        body["select"] = {"custom_id": s.custom_id, "options": [[o.label, o.value] for o in s.options],
                          "placeholder": s.placeholder}
    return body


def decode(body: dict[str, Any]) -> tuple[Outgoing, int | None]:
    """The ``Outgoing`` and the message it replies to (None: a new message)."""
    card = body.get("card")
    file = body.get("file")
    keep = body.get("keep")
    select = body.get("select")
    item = Outgoing(
        to=_untarget(body["to"]), text=str(body.get("text", "")),
        card=Card(card["title"], card["description"], tuple((str(n), str(v), bool(i)) for n, v, i in card["fields"]),
                  int(card["color"]), card["footer"]) if card else None,
        file=(str(file[0]), base64.b64decode(file[1])) if file else None, alt=str(body.get("alt", "")),
        extra={str(k): str(v) for k, v in (body.get("extra") or {}).items()},
        keep=Keep(int(keep["game_id"]), str(keep["key"]), bool(keep["pin"])) if keep else None,
        buttons=tuple(Button(str(label), str(cid), str(style)) for label, cid, style in body.get("buttons", [])),
        select=Select(str(select["custom_id"]), tuple(Choice(str(a), str(b)) for a, b in select["options"]),
                      str(select["placeholder"])) if select else None)
    reply_to = body.get("reply_to")
    return item, int(reply_to) if reply_to is not None else None


def _target(to: Target, channel_id: int | None) -> dict[str, Any]:
    if isinstance(to, ToChannel):
        if to.moderators_of is not None:
            return {"channel": to.channel_id, "moderators_of": to.moderators_of}
        return {"channel": to.channel_id}
    if isinstance(to, ToUser):
        return {"user": to.user_id}
    if isinstance(to, ToThread):
        if to.private:
            return {"thread": [to.channel_id, to.name, to.game_id, to.thread_id, True, list(to.members)]}
        return {"thread": [to.channel_id, to.name, to.game_id, to.thread_id]}
    if channel_id is None:
        raise ValueError("a reply needs the channel it goes to")
    return {"channel": channel_id}


def _untarget(data: dict[str, Any]) -> ToChannel | ToUser | ToThread:
    if "channel" in data:
        game = data.get("moderators_of")
        return ToChannel(int(data["channel"]), int(game) if game is not None else None)
    if "user" in data:
        return ToUser(int(data["user"]))
    parent, name, game_id, thread_id, *private = data["thread"]
    members = tuple(int(m) for m in private[1]) if len(private) > 1 else ()
    return ToThread(int(parent), str(name), int(game_id), int(thread_id) if thread_id is not None else None,
                    bool(private and private[0]), members)


def retarget(owed: Owed, channel_id: int) -> Owed:
    """``owed``, held for a deleted game channel or one of its threads, as it goes to the game's new channel
    ``channel_id`` (a thread of the same name there, made when first needed; a reply no longer replies): what
    ``/game move`` releases (bot/discord/lost_channels.py)."""
    item, _ = decode(owed.body)
    to = item.to
    if isinstance(to, ToChannel):
        moved = replace(item, to=ToChannel(channel_id))
        return replace(owed, lane=f"channel:{channel_id}", channel_id=channel_id, body=encode(moved))
    if isinstance(to, ToThread):
        moved = replace(item, to=replace(to, channel_id=channel_id, thread_id=None))
        return replace(owed, lane=f"thread:{channel_id}:{to.name}", channel_id=None, body=encode(moved))
    return owed


def with_file(body: dict[str, Any], file: tuple[str, bytes], alt: str = "") -> dict[str, Any]:
    """``body`` (``encode``'s) with ``file`` attached and its ``alt`` text, as ``encode`` writes them."""
    item, reply_to = decode(body)
    return encode(replace(item, file=file, alt=alt), reply_to=reply_to)
