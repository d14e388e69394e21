"""Which games a user plays in, remembered between DMs (every DM ballot asks it), and checked where it matters.

``GamesCache`` keeps the last lookup per user. It is only a hint: a process cannot see what another process (or
a script on the database) changed, so a ballot cast from a remembered lookup carries the set of game ids it was
chosen from (``plays_in``), and the ballot's own transaction compares it with the players table (in the
batch's read: ``ballot_batch.cast_batch``); when they differ nothing is recorded and the caller looks the games up again
(``StaleGames``). In this process the cache is also told when a user joins a game (``forget``), so that check
rarely fails. What is remembered never changes otherwise: a game's id, name and ruleset are fixed, and players
are never deleted (a player who stops playing is marked inactive, which the ballot's transaction reads itself, as
it reads whether the game has ended)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.core.errors import ClerkError
from engine.service.views import GameView

if TYPE_CHECKING:  # uow's Backend holds the cache: the service base is only named here
    from engine.service.uow import ServiceBase

CAPACITY = 100_000
"""Users remembered at most; the oldest entry goes first (a few hundred bytes each)."""


class StaleGames(ClerkError):
    """The user's games changed since the lookup a ballot was chosen from; nothing was recorded."""

    def __init__(self, user_id: int) -> None:
        super().__init__("Your games changed while this message was read; nothing was recorded.")
        self.user_id = user_id


class GamesCache:
    """user id -> the games of their last lookup. A lookup stores its answer only if no ``forget`` ran since it
    began (``generation``), so an answer read before a join cannot be stored after it."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self.generation = 0
        self._games: dict[int, tuple[GameView, ...]] = {}

    def get(self, user_id: int) -> tuple[GameView, ...] | None:
        return self._games.get(user_id)

    def store(self, generation: int, found: Iterable[tuple[int, Sequence[GameView]]]) -> None:
        if generation != self.generation:
            return
        for user_id, games in found:
            self._games.pop(user_id, None)
            if len(self._games) >= self.capacity:
                del self._games[next(iter(self._games))]
            self._games[user_id] = tuple(games)

    def forget(self, user_ids: Iterable[int] | None = None) -> None:
        """Drop these users' entries (everyone's with None); lookups still running will not store theirs."""
        self.generation += 1
        if user_ids is None:
            self._games.clear()
        else:
            for user_id in user_ids:
                self._games.pop(user_id, None)

    def __len__(self) -> int:
        return len(self._games)


def games_cache(service: ServiceBase) -> GamesCache:
    """The cache of a Clerk: on its ``Backend``, so every service of the Clerk (shared or a ruleset's) reaches the
    same one."""
    return service.backend.games
