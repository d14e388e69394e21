"""The bot's log lines: text (the default) or JSON lines (``log_format = "json"`` in config.toml), for hosts that
collect logs. A JSON line has ``time``, ``level``, ``logger`` and ``message``, and, where known, ``game`` (its
name), ``game_id``, ``command`` (the slash command's name) and ``error_id`` (the id an apology quotes,
``bot/actions/errors.py``); a traceback is in ``exception``.

The game and the command are noted by ``dispatch`` (``note``) in a context variable: every task (each Discord
interaction is one) has its own, so a line logged while a command runs names that command and its game."""

from __future__ import annotations

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

FIELDS: ContextVar[dict[str, Any] | None] = ContextVar("clerk_log_fields", default=None)
ERROR_ID = re.compile(r"^\[error ([0-9a-f]+)\]")
"""How ``logged`` and the tree's error handler begin a line: ``[error 3f2a9c1b] ...``."""
FORMATS = ("text", "json")


def note(**fields: Any) -> None:
    """What the lines logged from now on in this task are about (``game``, ``game_id``, ``command``); a field given
    as None is forgotten."""
    current = dict(FIELDS.get() or {})
    current.update(fields)
    FIELDS.set({key: value for key, value in current.items() if value is not None})


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        line.update(FIELDS.get() or {})
        for key in ("game", "game_id", "command", "error_id"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        found = ERROR_ID.match(message)
        if found is not None and "error_id" not in line:
            line["error_id"] = found.group(1)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


def setup_logging(level: str, log_format: str = "text") -> None:
    """The root logger at ``level``, writing text or JSON lines to stderr."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
    # discord.py's gateway chatter is useful at INFO only when debugging.
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
