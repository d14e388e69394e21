"""bot/discord/http_tuning.py patches private parts of discord.py's ``HTTPClient``: its ``connector``, its
``_buckets`` and ``_try_clear_expired_ratelimits``. Should an upgrade of discord.py rename or stop using any of them,
the tuning would silently do nothing (or break the client): these tests fail loudly instead."""

from __future__ import annotations

import inspect

import aiohttp
import discord
from discord.http import HTTPClient

from bot.discord.http_tuning import FIRST_SCAN, HTTP_CONNECTIONS, tune_http


def uses(method: str, text: str) -> bool:
    return text in inspect.getsource(getattr(HTTPClient, method))


def test_the_installed_discord_py_still_has_the_internals_the_tuning_patches() -> None:
    http = discord.Client(intents=discord.Intents.none()).http
    missing = [name for name in ("connector", "_buckets", "_try_clear_expired_ratelimits") if not hasattr(http, name)]
    assert not missing, f"discord.py {discord.__version__} no longer has HTTPClient.{missing}: fix http_tuning.py"
    assert http.connector is discord.utils.MISSING, "tune_http sets the connector only while it is MISSING"
    assert isinstance(http._buckets, dict)
    # and discord.py still uses them as the tuning assumes
    assert uses("static_login", "if self.connector is MISSING"), "login would replace the tuned connector"
    assert uses("get_ratelimit", "self._try_clear_expired_ratelimits()"), "the bucket clean-up is no longer called"
    assert uses("_try_clear_expired_ratelimits", "self._buckets"), "the clean-up no longer scans _buckets"


class Bucket:
    def __init__(self, idle: bool) -> None:
        self.idle = idle

    def is_inactive(self) -> bool:
        return self.idle


async def test_the_tuning_limits_connections_and_scans_buckets_only_when_they_have_doubled() -> None:
    http = discord.Client(intents=discord.Intents.none()).http

    tune_http(http)

    assert isinstance(http.connector, aiohttp.TCPConnector) and http.connector.limit == HTTP_CONNECTIONS
    http._buckets.update({f"busy{i}": Bucket(False) for i in range(FIRST_SCAN)})  # type: ignore[misc]
    http._buckets["idle"] = Bucket(True)  # type: ignore[assignment]
    http._try_clear_expired_ratelimits()  # discord.py's own scan, once: the idle bucket goes
    assert "idle" not in http._buckets
    http._buckets["idle2"] = Bucket(True)  # type: ignore[assignment]
    http._try_clear_expired_ratelimits()  # not doubled since the last scan: no scan
    assert "idle2" in http._buckets
    await http.connector.close()
