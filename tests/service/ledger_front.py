"""Driving the platform-neutral front end (``dispatch`` and ``handle_dm``) in service tests, to check where each
answer goes: ``Here`` (the asker only, in a DM or ephemerally), ``ToUser`` (a DM) or ``ToChannel`` (public)."""

from __future__ import annotations

from itertools import count
from typing import Any

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place, UserRef
from bot.actions.messages import handle_dm
from bot.actions.outbox import Here, Outgoing, ToChannel, ToUser
from engine.service import Clerk

GUILD, CHANNEL, MOD = 900, 901, 1
"""As in conftest.py: the test game's server, channel and moderator."""

_ids = count(1)
MODERATOR = Actor(MOD, "mod", manages_server=True)


def actor(user_id: int, name: str) -> Actor:
    return Actor(user_id, name)


def user(user_id: int, name: str) -> UserRef:
    return UserRef(user_id, name)


async def dm(clerk: Clerk, who: Actor, text: str, *, source_id: str | None = None) -> list[Outgoing]:
    ctx = Ctx(who, Place(None, None), source_id or f"dm-{next(_ids)}", clerk.clock.now())
    return await handle_dm(App(clerk), ctx, text)


async def slash(clerk: Clerk, who: Actor, name: str, *, in_dm: bool = False, **options: Any) -> list[Outgoing]:
    place = Place(None, None) if in_dm else Place(GUILD, CHANNEL)
    ctx = Ctx(who, place, f"slash-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, name, options)


def text_of(out: Outgoing) -> str:
    return out.text or (out.card.as_text() if out.card else "")


def only_here(out: list[Outgoing]) -> str:
    """Every answer goes back to the asker alone; their text."""
    assert out and all(isinstance(o.to, Here) for o in out), [o.to for o in out]
    return "\n".join(text_of(o) for o in out)


def public(out: list[Outgoing]) -> list[Outgoing]:
    return [o for o in out if isinstance(o.to, ToChannel) or (isinstance(o.to, Here) and not o.ephemeral)]


def dms(out: list[Outgoing]) -> dict[int, str]:
    return {o.to.user_id: text_of(o) for o in out if isinstance(o.to, ToUser)}
