"""Ballots a moderator enters for a player (``/cast-for``): the events recorded under the command's source id are
marked as the moderator's.

The front runs the player's own form (the DM or thread text, parsed by the same parsers) under the interaction's
source id, inside ``entered_by(...)``. Every event appended under that source id (``uow.append_event``, and the
crisis-ballot batch) then has the moderator as its actor and ``proxy: true``, ``proxy_for`` (the player's user id)
and the ``note`` first in its payload. The mark is kept by source id (unique per interaction), not in a context
variable, so it reaches the worker thread or greenlet that writes the event."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Proxy:
    moderator: int
    player: int
    note: str | None


_MARKS: dict[str, Proxy] = {}


@contextmanager
def entered_by(source_id: str | None, proxy: Proxy) -> Iterator[None]:
    """While the block runs, events under ``source_id`` are recorded as entered by ``proxy.moderator``."""
    if source_id is None:
        raise ValueError("a proxy ballot needs the interaction's source id")
    _MARKS[source_id] = proxy
    try:
        yield
    finally:
        _MARKS.pop(source_id, None)


def marked(actor: int | None, payload: dict[str, Any], source_id: str | None) -> tuple[int | None, dict[str, Any]]:
    """The actor and payload an event is recorded with: the moderator's, when ``source_id`` is a proxy's."""
    proxy = _MARKS.get(source_id) if source_id is not None else None
    if proxy is None:
        return actor, payload
    extra: dict[str, Any] = {"proxy": True, "proxy_for": proxy.player}  # first: /log's summary is cut at 90
    if proxy.note:
        extra["note"] = proxy.note
    return proxy.moderator, {**extra, **payload}
