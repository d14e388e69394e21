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


def deadline_line(deadline: datetime | None, now: datetime, change: str, vote: str = "round") -> str:
    """A receipt's last line: the deadline and how to change the ballot (``change``) until then; or, for a ballot sent
    before a deadline that has passed since (read back at start after the bot was offline, docs/reliability.md, or
    handled a moment after the deadline), that the ``vote`` closes with it as it stands, not an invitation to change
    it until a time gone by."""
    if deadline is not None and deadline <= now:
        return (f"Deadline: {due_text(deadline, now)}; it has passed since you sent this, and the {vote} closes with "
                "this counted as it stands.")
    return f"Deadline: {deadline_text(deadline, now).replace('the round', f'the {vote}')}. {change}"


def waiting_text(waiting: int) -> str:
    """What ``/round status`` says about the outgoing queue: nothing when it is empty."""
    if not waiting:
        return ""
    return (f"📨 {plural(waiting, 'message')} waiting to be sent (Discord limits how fast a bot may post; ballot "
            "receipts go first, and everything owed is delivered).")
