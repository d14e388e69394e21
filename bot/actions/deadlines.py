"""Reminders in the front end, as a mechanism: the DM to each player who has not voted, and the moderator's receipt
of a reminder sent by a command (a ruleset's "remind now"; the commands are in their rulesets' packages). How a
reminder of each kind reads is its ruleset's (``Front.reminders``)."""

from __future__ import annotations

from datetime import datetime

from bot.actions.commands import App
from bot.actions.front import ReminderText
from bot.actions.outbox import Outgoing, ToUser, reply
from engine.core.durations import Deadline, read_deadline
from engine.core.stamps import relative
from engine.service.reminders import Reminder


def reminder_text(app: App, kind: str) -> ReminderText:
    """How a reminder of ``kind`` reads: the first of the app's fronts that says."""
    text = next((f.reminders[kind] for f in app.fronts if kind in f.reminders), None)
    if text is None:
        raise LookupError(f"no front of this app says how a reminder of kind {kind!r} reads (Front.reminders)")
    return text


def reminder_messages(app: App, reminder: Reminder, now: datetime) -> list[Outgoing]:
    """A DM to each player who has not voted."""
    text = reminder_text(app, reminder.kind)
    when = (f"closes {relative(reminder.deadline, now)}" if reminder.deadline is not None
            else "is paused (its deadline will start again)")
    return [Outgoing(ToUser(user_id), text=f"Reminder: {text.what(reminder)} {when}; {text.voted}: {text.how}.")
            for user_id, _ in reminder.waiting]


def reminded_reply(app: App, reminders: list[Reminder]) -> Outgoing:
    """The moderator's receipt of a reminder sent now (``/round remind``, ``/election remind``): who was reminded, per
    vote when there are several (the DMs, ``reminder_messages``, are owed in the reminder's transaction)."""

    def names(r: Reminder) -> str:
        return ", ".join(name for _, name in r.waiting) or "nobody (everyone has voted)"

    if len(reminders) == 1 and reminder_text(app, reminders[0].kind).brief:
        text = f"Reminded: {names(reminders[0])}."
    else:
        text = " ".join(f"Reminded for {reminder_text(app, r.kind).label} {r.number}: {names(r)}." for r in reminders)
    return reply(text, ephemeral=True)


async def game_deadline(app: App, game_id: int, text: str) -> Deadline:
    """A deadline as a moderator typed it for the game: a local time without a zone is in the game's time zone
    (``/game settings timezone:``), UTC when it has none (``engine/core/durations.py``)."""
    return read_deadline(text, app.clerk.clock.now(), await app.clerk.settings.timezone(game_id))


def read_as(typed: str | None, deadline: Deadline | None) -> str:
    """What the moderator's reply adds about how a local time was read: `` “2026-03-02 12:00”: read as UTC (...).``,
    and a note when the deadline is weeks away (play-test T5.2)."""
    if typed is None or deadline is None:
        return ""
    read = f" “{typed.strip()}”: {deadline.note}." if deadline.note else ""
    return f"{read} {deadline.far}" if deadline.far else read
