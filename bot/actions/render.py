"""What every ruleset's texts share: the colours of cards, how a deadline reads, what a reminder DM says and how
much waits in the outgoing queue. Secrets never enter a public card. (The Landsdraad cards are in
``bot/actions/landsdraad/render.py``.)"""

from __future__ import annotations

from datetime import datetime

from bot.actions.outbox import Outgoing, ToUser
from engine.core.durations import format_remaining, format_utc
from engine.service.reminders import Reminder

PASSED = 0x2ECC71
FAILED = 0xE74C3C
NEUTRAL = 0x5865F2


def deadline_text(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return "none (a moderator closes the round)"
    return f"{format_utc(deadline)} (in {format_remaining(deadline - now)})"


def reminder_messages(reminder: Reminder, now: datetime) -> list[Outgoing]:
    """A DM to each player who has not voted."""
    voted = "you have not voted"
    if reminder.kind == "round":
        what, how = f"Round {reminder.number} of {reminder.game.name}", "DM me `Vote: Aye|Nay|Abstain`"
    elif reminder.kind == "ag":
        what = f"The Adjutant General election {reminder.number} of {reminder.game.name}"
        if reminder.with_round is not None:
            what += f" (it closes with round {reminder.with_round})"
        how = "DM me `AG Vote: <Name>`"
    else:
        title = "Primary" if reminder.kind == "primary" else "General Election"
        what = f"The {title} of turn {reminder.number} of {reminder.game.name}"
        voted = "your Faction has not chosen"
        how = MYL_FORMS[reminder.kind]
    when = (f"closes in {format_remaining(reminder.deadline - now)}" if reminder.deadline is not None
            else "is paused (its deadline will start again)")
    return [Outgoing(ToUser(user_id), text=f"Reminder: {what} {when}; {voted}: {how}.")
            for user_id, _ in reminder.waiting]


MYL_FORMS = {"primary": "DM me `Primary: <Candidate>`", "general": "DM me `General: Whig` or `General: Federalist`"}
"""How a Mylantium Faction chooses, as a reminder says it."""


def waiting_text(waiting: int) -> str:
    """What ``/round status`` says about the outgoing queue: nothing when it is empty."""
    if not waiting:
        return ""
    return (f"📨 {waiting} message(s) waiting to be sent (Discord limits how fast a bot may post; ballot receipts go "
            "first, and everything owed is delivered).")
