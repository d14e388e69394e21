"""After a crash: the results closed (at their deadline or by a moderator) whose announcement never reached
Discord (the bot was killed between the close and the post) are announced when the bot starts again. Each card
carries the nonce it had the first time (an election that closed with the round has its own), so one that did reach
Discord just before the kill (but was not yet marked posted) is not shown twice."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from bot.actions.commands import App
from bot.actions.outbox import POSTED, WARNED, Outgoing, ToUser

log = logging.getLogger("clerk.recovery")

LOOK_BACK = timedelta(days=1)
"""Pending announcements older than this are not posted any more (a result a day late would confuse more than help)."""


async def unannounced_results(app: App, now: datetime) -> list[Outgoing]:
    out: list[Outgoing] = []
    recovers = {kind: again for front in app.fronts for kind, again in front.recover.items()}
    for kind, game_id, number in await app.clerk.announcements.unposted(now - LOOK_BACK):
        again = recovers.get(kind)
        if again is None:
            log.warning("no ruleset announces a result of kind %r (game %s, number %s)", kind, game_id, number)
            continue
        try:
            # a disclosure warning that reached Discord before the kill is not sent again with the card
            out += [o for o in await again(app, game_id, number)
                    if WARNED not in o.extra or not await app.clerk.announcements.warned(o.extra[WARNED])]
        except Exception:
            log.exception("announcing %s %s of game %s again failed", kind, number, game_id)
    cards = sum(1 for o in out if POSTED in o.extra)
    if cards:
        log.warning("announcing %d result card(s) that were closed but not posted before the bot stopped", cards)
    return out


async def start_work(app: App, now: datetime) -> list[Outgoing]:
    """Each front's work at a start (``Front.at_start``), in the deadline scheduler's first pass (with ``TIMED``
    set: what it posts may be owed in its writes' transactions). One that fails is logged; the others are done."""
    out: list[Outgoing] = []
    for front in app.fronts:
        for task in front.at_start:
            try:
                out += await task(app, now)
            except Exception:
                log.exception("the work at start of %s failed", front.name)
    return out


async def unanswered_receipts(app: App, now: datetime, up_to: int) -> list[tuple[int, str, Outgoing]]:
    """(message id, source id, receipt) of every DM recorded in the last day (up to the event ``up_to``, the last
    before this start) whose receipt was never owed (the bot was killed between its commit and owing the receipt),
    from each front that keeps such receipts (``Front.receipts``)."""
    out: list[tuple[int, str, Outgoing]] = []
    for front in app.fronts:
        if front.receipts is not None:
            out += await front.receipts(app, now, up_to)
    if out:
        log.warning("owing %d receipt(s) of ballots recorded just before the bot stopped", len(out))
    return out


Remake = Callable[[int, int, dict[str, Any]], Awaitable[str]]
"""Makes a receipt's text again from (game id, user id, the event's payload)."""


async def receipts_again(app: App, now: datetime, up_to: int, kind: str,
                         remake: Remake) -> list[tuple[int, str, Outgoing]]:
    """A front's ``Front.receipts``: (message id, source id, receipt) of every DM recorded as ``kind`` in the last
    day (up to the event ``up_to``) whose receipt was never owed, each receipt made again by ``remake(game id, user
    id, payload)`` as the first would have read, a reply to the DM. One that cannot be made again is logged and
    skipped."""
    out: list[tuple[int, str, Outgoing]] = []
    for game_id, user_id, source, payload in await app.clerk.outbox.unanswered_ballots(now - LOOK_BACK, up_to,
                                                                                       kind=kind):
        try:
            text = await remake(game_id, user_id, payload)
        except Exception:
            log.exception("the receipt of %s in game %s could not be made again", source, game_id)
            continue
        message_id = int(source.removeprefix("msg:").split(":")[0])  # an edited DM's is msg:<id>:edit:<ms>
        out.append((message_id, source, Outgoing(ToUser(user_id), text)))
    return out
