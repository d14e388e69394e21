"""Where Clerk posts what only a game's moderators may read (a transfer, ...): the game's ``moderator_channel``
(``/game settings moderator_channel:#mods``), or, when none is set, a private thread of the game channel that only
the moderators and the bot can see, made once and remembered (``clerk.posts``, key ``thread:<name>``), with the
moderators Clerk knows added to it (``clerk.games.known_moderators``: the game's founder and whoever the log shows
changing something in it; members with Manage Threads see every private thread anyway).

The Discord adapter makes the private thread (Create Private Threads, Send Messages in Threads); when Discord refuses
it, what was for the thread goes by DM to the moderators Clerk knows, and they are told once why
(``bot/discord/delivery.py``). Any ruleset may use it; none is named here."""

from __future__ import annotations

from collections.abc import Sequence

from bot.actions.commands import App
from bot.actions.outbox import INSTEAD, Button, Outgoing, ToChannel, ToThread, reply
from engine.core.errors import RuleError
from engine.service.views import GameView

THREAD_SUFFIX = "moderators"


def thread_name(game: GameView) -> str:
    """``sirius moderators``: the private thread's name."""
    return f"{game.name} {THREAD_SUFFIX}"


async def moderator_target(app: App, game: GameView) -> ToChannel | ToThread:
    """The moderators' private place in ``game``."""
    channel = await app.clerk.settings.moderator_channel(game.id)
    if channel is not None:
        return ToChannel(channel, moderators_of=game.id)
    members = await app.clerk.games.known_moderators(game.id)
    return ToThread(game.channel_id, thread_name(game), game.id, private=True, members=members)


def place_text(target: ToChannel | ToThread) -> str:
    """How a reply names the place: ``<#123>`` or ``the private thread “sirius moderators”``."""
    if isinstance(target, ToChannel):
        return f"<#{target.channel_id}>"
    return f"the private thread “{target.name}” of the game channel"


def erratum_offer(custom_id: str) -> tuple[int, int]:
    """(game id, number) of an erratum button ``<prefix>:<game>:<number>`` under a correction's private notice (each
    ruleset's errata module); a button that is not one is refused."""
    parts = custom_id.split(":")
    if len(parts) != 4 or not all(p.isdigit() for p in parts[2:]):
        raise RuleError("This button is not one of Clerk's erratum offers.")
    return int(parts[2]), int(parts[3])


OFFERS = 5
"""Erratum buttons under one notice at most (the first results it recounts)."""


def erratum_notice(place: ToChannel | ToThread | None, text: str | None, offers: Sequence[tuple[str, str]],
                   command: str) -> list[Outgoing]:
    """The private notice of what a correction changes (``text``; None: it changes nothing, so nothing is said), to
    the moderator who made it and, with a button per result to post its erratum (``offers``: each button's label and
    key, ``erratum_offer`` reads the key), to the moderators' ``place``, read before the write whose transaction owes
    it; ``command`` is the ruleset's own erratum command, named where the buttons cannot be shown. ``place`` may be
    None only when there is no result to offer. Each ruleset's errata module passes its own words."""
    if text is None:
        return []
    if not offers:
        return [reply(text, ephemeral=True)]
    assert place is not None, "the moderators' place is read before the write"
    buttons = tuple(Button(label, key, "secondary") for label, key in offers[:OFFERS])
    return [reply(text, ephemeral=True),
            Outgoing(place, text=text, buttons=buttons,
                     extra={INSTEAD: f"(Post an erratum with {command} in the game channel.)"})]
