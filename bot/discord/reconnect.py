"""How long discord.py waits between its tries to reconnect to the gateway (play-test V6.2).

``Client.connect`` (and each shard of an ``AutoShardedClient``) waits a random time in [0, 2^n] seconds before try n,
with n up to 10: after ten failed tries (a Discord outage, the host's network down for a few minutes) a wait could be
17 minutes, and the bot came back that long after Discord did (measured: waits of 215, 812 and 941 s in one run). The
players' DMs of that time go unanswered. Here n stops at 6: at most 64 s between tries, still spread at random, which
is what Discord asks of reconnecting clients (no thundering herd), and never more than a minute late.

discord.py makes its backoff with ``ExponentialBackoff()`` looked up in ``discord.client`` and ``discord.shard`` at
each connect; the name is replaced there by a subclass with a lower exponent (``install_reconnect_cap``, once).
tests/test_reconnect.py fails if an upgrade of discord.py stops making it so."""

from __future__ import annotations

from typing import Any

import discord.client
import discord.shard
from discord.backoff import ExponentialBackoff

MAX_EXPONENT = 6
"""At most 2^6 = 64 s between two tries to reconnect."""


class CappedBackoff(ExponentialBackoff[Any]):
    def __init__(self, base: int = 1, *, integral: Any = False) -> None:
        super().__init__(base, integral=integral)
        self._max = MAX_EXPONENT


def install_reconnect_cap() -> None:
    discord.client.ExponentialBackoff = CappedBackoff  # type: ignore[attr-defined]
    discord.shard.ExponentialBackoff = CappedBackoff  # type: ignore[attr-defined]
