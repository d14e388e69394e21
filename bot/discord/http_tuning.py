"""Two adjustments of discord.py's HTTP client for bursts (2,000 DMs answered at once; docs/reliability.md).

- A connection limit: discord.py's connector has none, so 2,000 replies at once open 2,000 connections (TLS
  handshakes with Discord) instead of reusing a few kept-alive ones.
- Amortised clean-up of rate-limit buckets: discord.py makes one bucket per channel, and each new bucket once there
  are 256 scans all of them for idle ones (idle 300 s). 2,000 new DM channels in one burst made that quadratic
  (about 2 million checks, none of which could find an idle bucket). Here it scans only when the number of buckets
  has doubled since the last scan; idle buckets are still dropped, just in batches."""

from __future__ import annotations

import aiohttp
import discord

HTTP_CONNECTIONS = 32
FIRST_SCAN = 256
"""discord.py's own threshold."""


def tune_http(http: discord.http.HTTPClient) -> None:
    """Call before login (the connector needs the running event loop)."""
    if http.connector is discord.utils.MISSING:
        http.connector = aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)
    scan = http._try_clear_expired_ratelimits
    next_scan = FIRST_SCAN

    def amortised() -> None:
        nonlocal next_scan
        if len(http._buckets) >= next_scan:
            scan()
            next_scan = max(FIRST_SCAN, 2 * len(http._buckets))

    http._try_clear_expired_ratelimits = amortised  # type: ignore[method-assign]
