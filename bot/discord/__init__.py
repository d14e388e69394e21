"""The discord.py adapter: slash commands built from ``bot.actions.COMMANDS``, the DM listener, delivery of
``Outgoing`` messages, and the deadline scheduler. Thin: turn Discord events into a ``Ctx``, dispatch, deliver."""

from bot.discord.client import ClerkBot, make_bot

__all__ = ["ClerkBot", "make_bot"]
