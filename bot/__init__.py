"""Clerk's front ends: Discord (``bot.discord``), the offline console and transcript replay (``bot.console``),
all driving the same platform-neutral actions (``bot.actions``)."""
