"""JSON responses as Discord sends them."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header literally (web.json_response adds a charset).
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def discord_error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status)
