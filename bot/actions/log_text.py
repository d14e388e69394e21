"""What ``/log`` (and the CSV export's ``summary`` column) says about one event: a sentence in words, people by
name (issue 17).

A ruleset is one plug: each ruleset's front gives the sentences for its own kinds (``Front.log_sentences``, a
function of the payload and a ``Words`` helper); every other kind gets the generic sentence here, which still reads
as words: ``income 0 → 6,000, stock 0 → 4``, a user by name, a time as ``2026-03-02 18:00 UTC``, not JSON.

Secrecy: the sentence says no more than the payload, and /log is for the moderators only (as before)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.core.settings import format_offset

SUMMARY_MAX = 300

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)?$")
_ID_MIN = 10 ** 15
"""A Discord id (a snowflake) is a large number; a smaller one is a count, a round, a vote's number."""


@dataclass(frozen=True)
class Words:
    """Turns a payload's values into words: users by name (a user who is no player as a Discord mention, which
    Discord shows as their name), numbers with thousands separators, times in UTC."""

    names: Mapping[int, str]

    def who(self, user: Any) -> str:
        if isinstance(user, int) and not isinstance(user, bool):
            return self.names.get(user) or f"<@{user}>"
        return str(user)

    def number(self, value: int) -> str:
        return f"{value:,}"

    def value(self, value: Any, key: str = "") -> str:
        if value is None:  # a setting that had no value, a field left empty
            return "unset"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int) and (key == "left" or key.startswith("paused_left")):  # seconds of a paused clock
            return format_offset(value)
        if isinstance(value, int):
            if value >= _ID_MIN or value in self.names:
                return self.who(value)
            return self.number(value)
        if isinstance(value, str) and _ISO.match(value):
            try:
                return f"{datetime.fromisoformat(value.replace('Z', '+00:00')):%Y-%m-%d %H:%M} UTC"
            except ValueError:
                return value
        if isinstance(value, dict):
            if set(value) == {"from", "to"}:
                return self.change(value["from"], value["to"])
            return self.pairs(value)
        if isinstance(value, list | tuple):
            if value and all(isinstance(v, dict) for v in value):
                return "(" + "; ".join(self.pairs(v) for v in value) + ")"
            return ", ".join(self.value(v, key) for v in value) or "none"
        return str(value)

    def change(self, old: Any, new: Any, unit: str = "") -> str:
        suffix = f" {unit}" if unit else ""
        return f"{self.value(old)} → {self.value(new)}{suffix}"

    def changes(self, changes: Mapping[str, Any], units: Mapping[str, str] | None = None) -> str:
        """``{"income": {"from": 0, "to": 6000}}`` as ``income 0 → 6,000`` (with ``units``: ``6,000 MS``)."""
        units = units or {}
        return ", ".join(f"{label(k)} {self.change(v.get('from'), v.get('to'), units.get(k, ''))}"
                         if isinstance(v, dict) else f"{label(k)} {self.value(v, k)}" for k, v in changes.items())

    def pairs(self, payload: Mapping[str, Any]) -> str:
        """Every value worth saying as ``key value``: nothing empty, no false flag; ``from`` with ``from_name``
        once, by the name."""
        parts = []
        lead = ""
        if isinstance(payload.get("user_id"), int):  # whom the event is about leads: "anna: misc 16"
            lead = f"{self.who(payload['user_id'])}: "
            payload = {k: v for k, v in payload.items() if k != "user_id" and not (k == "name" and v == lead[:-2])}
        for key, value in payload.items():
            if value is None or value is False or value == [] or value == {}:
                continue
            if key.endswith("_name") and key[:-5] in payload:
                continue  # said with its id's key, by this name
            named = payload.get(f"{key}_name")
            if value is True:
                parts.append(label(key))
            elif isinstance(named, str):
                parts.append(f"{label(key)} {named}")
            elif isinstance(value, dict) and value and all(isinstance(v, dict) and set(v) == {"from", "to"}
                                                           for v in value.values()):
                parts.append(self.changes(value))
            else:
                parts.append(f"{label(key)} {self.value(value, key)}")
        return (lead + ", ".join(parts)) if parts else lead[:-2]


Sentence = Callable[[Mapping[str, Any], Words], str]
"""A ruleset's sentence for one kind of event."""


def _role(role_id: Any) -> str:
    """A moderator role as Discord shows a role mention (``<@&id>``), or who moderates without one."""
    return f"<@&{role_id}>" if isinstance(role_id, int) else "members with Manage Server"


def _setting(p: Mapping[str, Any], w: Words) -> str:
    """A setting's change; the moderators' channel as a channel mention (``<#id>``), not a user's."""
    if p.get("setting") != "moderator_channel":
        return f"setting {p.get('setting')} {w.change(p.get('from'), p.get('to'))}"

    def place(channel: Any) -> str:
        return f"<#{channel}>" if isinstance(channel, int) else "the moderators' private thread"
    return f"setting moderator_channel {place(p.get('from'))} → {place(p.get('to'))}"


def label(key: str) -> str:
    return key.replace("_", " ")


def sentence(kind: str, payload: Mapping[str, Any], names: Mapping[int, str],
             sentences: Mapping[str, Sentence] | None = None, limit: int = SUMMARY_MAX) -> str:
    """The sentence for one event: the ruleset's own for its kind, else the generic one; cut at ``limit``."""
    words = Words(names)
    proxy = ""
    if payload.get("proxy"):  # a moderator's /cast-for: said first, whatever the kind
        note = f" ({payload['note']})" if payload.get("note") else ""
        proxy = f"entered for {words.who(payload.get('proxy_for'))}{note}: "
        payload = {k: v for k, v in payload.items() if k not in ("proxy", "proxy_for", "note")}
    own = (sentences or {}).get(kind) or SHARED.get(kind)
    text = proxy + (own(payload, words) if own is not None else words.pairs(payload))
    return text if len(text) <= limit else text[: limit - 1] + "…"


SHARED: dict[str, Sentence] = {
    "GameCreated": lambda p, w: f"{p.get('ruleset', 'a').capitalize()} game {p.get('name')} created",
    "PlayerAdded": lambda p, w: f"{w.who(p.get('user_id'))} joined; " + w.pairs(
        {k: v for k, v in p.items() if k not in ("user_id", "name")}),
    "SettingChanged": _setting,
    "ModeratorRoleChanged": lambda p, w: f"moderators: {_role(p.get('from'))} → {_role(p.get('to'))}",
    "GameMoved": lambda p, w: (f"game channel: <#{p.get('from')}>{' (deleted)' if p.get('deleted') else ''} → "
                               f"<#{p.get('to')}>"),
    "ReminderSent": lambda p, w: (f"reminder {format_offset(int(p.get('before') or 0))} before the deadline of "
                                  f"{p.get('kind')} {p.get('number')}; not yet answered: {w.value(p.get('waiting'))}"),
}
"""Kinds every ruleset records (shared code: no ruleset's words)."""
