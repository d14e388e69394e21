"""What every ruleset's texts share: the colours of cards, how a deadline reads and how much waits in the outgoing
queue (a reminder's DM is in ``bot/actions/deadlines.py``; times in each reader's own zone in
``engine/core/stamps.py``). Secrets never enter a public card. (The Landsdraad cards are in
``bot/actions/landsdraad/render.py``.)"""

from __future__ import annotations

from datetime import datetime

from engine.core.stamps import due_text
from engine.core.words import plural

PASSED = 0x2ECC71
FAILED = 0xE74C3C
NEUTRAL = 0x5865F2


def deadline_text(deadline: datetime | None, now: datetime) -> str:
    """"2026-03-01 20:00 UTC (in 2h30m)": on Discord in each reader's own zone (``engine/core/stamps.py``)."""
    if deadline is None:
        return "none (a moderator closes the round)"
    return due_text(deadline, now)


def waiting_text(waiting: int) -> str:
    """What ``/round status`` says about the outgoing queue: nothing when it is empty."""
    if not waiting:
        return ""
    return (f"📨 {plural(waiting, 'message')} waiting to be sent (Discord limits how fast a bot may post; ballot "
            "receipts go first, and everything owed is delivered).")
