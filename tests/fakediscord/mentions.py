"""Discord's rules for who a message notifies, applied by the tests to the bodies the fake recorded
(``FakeDiscord.bodies``)."""

from __future__ import annotations

import re
from typing import Any


def pings(body: dict[str, Any]) -> list[str]:
    """Who Discord would notify for a message body (a callback's is under ``data``), following its rules for
    ``allowed_mentions``: without the key every mention in the content pings; with it, only what ``parse``,
    ``users``/``roles`` or ``replied_user`` (false unless given) allow. E.g.
    ``["@everyone", "role 123", "user 45", "replied user"]``."""
    message = body.get("data") if isinstance(body.get("data"), dict) else body
    content = str(message.get("content") or "")
    allowed = message.get("allowed_mentions")
    parse = {"everyone", "roles", "users"} if allowed is None else set(allowed.get("parse") or [])
    users = {str(u) for u in (allowed or {}).get("users") or []}
    roles = {str(r) for r in (allowed or {}).get("roles") or []}
    found = [f"@{m}" for m in re.findall(r"@(everyone|here)", content) if "everyone" in parse]
    found += [f"role {r}" for r in re.findall(r"<@&(\d+)>", content) if "roles" in parse or r in roles]
    found += [f"user {u}" for u in re.findall(r"<@!?(\d+)>", content) if "users" in parse or u in users]
    if message.get("message_reference") and (allowed is None or allowed.get("replied_user", False)):
        found.append("replied user")
    return found
