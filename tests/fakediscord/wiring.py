"""Pointing discord.py at the fake (two class attributes, nothing else) and catching what it logs."""

from __future__ import annotations

import logging

import discord.gateway
import discord.http
import pytest
import yarl

from fakediscord.server import FakeDiscord


def point_discord_at(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every REST route (webhooks and interaction callbacks included) and the gateway go to the fake."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))


class ErrorLog(logging.Handler):
    """Collects ERROR records of the given loggers: discord.py logs (and swallows) errors in event handlers and
    app commands, so a test must look at the log to notice them."""

    def __init__(self, *names: str) -> None:
        super().__init__(logging.ERROR)
        self.names = names
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> ErrorLog:
        for name in self.names:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self.names:
            logging.getLogger(name).removeHandler(self)

    def report(self) -> str:
        return "\n".join(f"{r.name}: {r.getMessage()}" + (f" ({r.exc_info[1]!r})" if r.exc_info else "")
                         for r in self.records)
