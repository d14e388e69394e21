"""A reminder sent by a moderator's command (Landsdraad's ``/round remind``, Mylantium's ``/election remind``):
the moderator's receipt and the DMs. The commands are in their rulesets' packages."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.outbox import Outgoing, reply
from bot.actions.render import reminder_messages
from engine.service.reminders import Reminder


def reminded(app: App, reminders: list[Reminder]) -> list[Outgoing]:
    """The moderator's receipt (who was reminded, per vote when there are several) and the DMs."""
    labels = {"round": "round", "ag": "AG election", "primary": "the Primary of turn",
              "general": "the General Election of turn"}

    def names(r: Reminder) -> str:
        return ", ".join(name for _, name in r.waiting) or "nobody (everyone has voted)"

    if len(reminders) == 1 and reminders[0].kind == "round":
        text = f"Reminded: {names(reminders[0])}."
    else:
        text = " ".join(f"Reminded for {labels[r.kind]} {r.number}: {names(r)}." for r in reminders)
    now = app.clerk.clock.now()
    return [reply(text, ephemeral=True), *(m for r in reminders for m in reminder_messages(r, now))]
