"""Whether the database takes this process's writes, per game: a write refused by a storage fault
(``engine.store.faults``) is logged in one line, and the listeners (the bot's moderator notices) hear once when a
game's writes start failing and once when they work again, not once per refused command.

A fault of the whole database (full, read-only, I/O, lost connection) ends with the first write that succeeds, in
any game; a lock held too long (``busy``) is a game's own (on PostgreSQL it is the game's row) and ends with a write
to that game."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from engine.store.faults import BUSY, StorageFault

log = logging.getLogger("clerk.storage")


@dataclass(frozen=True)
class StorageNotice:
    """``game_id``'s writes started failing with ``fault`` (``failing``), or work again (not ``failing``)."""

    game_id: int
    failing: bool
    fault: StorageFault


Listener = Callable[[StorageNotice], None]


class StorageHealth:
    def __init__(self) -> None:
        self._failing: dict[int | None, StorageFault] = {}
        self._listeners: list[Listener] = []
        self.refused = 0
        """Writes refused by a storage fault since start (tests and the log read it)."""

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    @property
    def failing(self) -> dict[int | None, StorageFault]:
        """The games (None: writes of no game) whose writes fail now, with the first fault of each."""
        return dict(self._failing)

    def failed(self, game_id: int | None, fault: StorageFault) -> None:
        self.refused += 1
        log.warning("write refused (%s) for game %s: %s", fault.kind, game_id, fault.detail)
        if game_id in self._failing:
            return
        self._failing[game_id] = fault
        if game_id is not None:
            self._tell(StorageNotice(game_id, True, fault))

    def succeeded(self, game_id: int | None) -> None:
        if not self._failing:
            return
        ended = [g for g, fault in self._failing.items() if g == game_id or fault.kind != BUSY]
        for g in ended:
            fault = self._failing.pop(g)
            log.warning("writes work again for game %s (after: %s)", g, fault.kind)
            if g is not None:
                self._tell(StorageNotice(g, False, fault))

    def _tell(self, notice: StorageNotice) -> None:
        for listener in self._listeners:
            try:
                listener(notice)
            except Exception:  # a listener's bug must not turn a refusal into another error
                log.exception("a storage notice listener failed on %s", notice)
