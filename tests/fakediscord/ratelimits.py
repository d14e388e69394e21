"""Discord's rate limits, as the fake enforces them when a test asks (``FakeDiscord.limit_rates``; off by default).

What Discord documents (developers/topics/rate-limits) and the fake models:
- A **global** limit per bot token: at most ``per_second`` requests (50) in any second. Interaction callbacks and
  the interaction webhooks (followups, edits of a response) are not subject to it. Over it, Discord answers 429
  with ``{"message": "You are being rate limited.", "retry_after": <seconds>, "global": true}`` and the headers
  ``Retry-After``, ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``.
- **Per-route buckets**: posting a message is limited per channel (``route_limit`` per ``route_window`` s, 5 per
  5 s), and so is editing one. Every answer on such a route carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket``; over it, 429 with ``"global": false`` and
  ``X-RateLimit-Scope: user``.
- Every 429 carries ``Via`` as Discord's answers do (Cloudflare's; discord.py treats a 429 without it as a ban).

The window is real monotonic time (the test's ManualClock moves game time only). A request answered 429 does not
count against the limit. ``limited`` counts the 429s sent (``global_limited``, ``route_limited`` each kind), and
``peak`` is the most requests accepted in any second, so a test can show the limit was never exceeded."""

from __future__ import annotations

import json
import math
import re
import time
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

EXEMPT = re.compile(r"^/api/v\d+/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")
"""Interaction callbacks and followups: not under the global limit."""
PER_CHANNEL = re.compile(r"^/api/v\d+/channels/(\d+)/messages(?:/\d+)?$")
"""Posting (POST) and editing (PATCH) a channel's messages: one bucket per channel and method."""


@dataclass
class RateLimits:
    per_second: int = 50
    route_limit: int = 5
    route_window: float = 5.0
    window: float = 1.0
    accepted: deque[float] = field(default_factory=deque)
    """Monotonic times of the globally limited requests accepted in the last ``window``."""
    buckets: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    """(method, channel id) -> (when the bucket resets, requests used in it)."""
    limited: int = 0
    global_limited: int = 0
    route_limited: int = 0
    counted: int = 0
    """Globally limited requests accepted."""
    peak: int = 0

    def check(self, request: web.Request) -> tuple[web.Response | None, dict[str, str]]:
        """A 429 for ``request``, or None and the headers to add to its answer."""
        now = time.monotonic()
        route = self._route(request)
        headers: dict[str, str] = {}
        if route is not None:
            reset_at, used = self.buckets.get(route, (0.0, 0))
            if now >= reset_at:
                reset_at, used = now + self.route_window, 0
            if used >= self.route_limit:
                self.route_limited += 1
                return self._too_many(reset_at - now, False, self._route_headers(route, reset_at, 0, now)), {}
        limited = EXEMPT.match(request.path) is None
        if limited:
            while self.accepted and self.accepted[0] <= now - self.window:
                self.accepted.popleft()
            if len(self.accepted) >= self.per_second:
                return self._too_many(self.accepted[0] + self.window - now, True, {}), {}
            self.accepted.append(now)
            self.counted += 1
            self.peak = max(self.peak, len(self.accepted))
        if route is not None:
            used += 1
            self.buckets[route] = (reset_at, used)
            headers = self._route_headers(route, reset_at, self.route_limit - used, now)
        return None, headers

    @staticmethod
    def _route(request: web.Request) -> tuple[str, str] | None:
        found = PER_CHANNEL.match(request.path)
        if found is None or request.method not in ("POST", "PATCH"):
            return None
        if (request.method == "POST") != request.path.endswith("/messages"):  # POST a message, PATCH one
            return None
        return request.method, found.group(1)

    def _route_headers(self, route: tuple[str, str], reset_at: float, remaining: int, now: float) -> dict[str, str]:
        after = max(0.0, reset_at - now)
        return {"X-RateLimit-Limit": str(self.route_limit), "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}", "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": f"fake-{route[0].lower()}-messages"}

    def _too_many(self, retry_after: float, is_global: bool, headers: dict[str, str]) -> web.Response:
        self.limited += 1
        if is_global:
            self.global_limited += 1
        retry_after = max(retry_after, 0.001)
        body = {"message": "You are being rate limited.", "retry_after": float(f"{retry_after:.3f}"),
                "global": is_global}
        extra = {"Retry-After": str(max(1, math.ceil(retry_after))), "Via": "1.1 google",
                 "X-RateLimit-Scope": "global" if is_global else "user", "Content-Type": "application/json"}
        if is_global:
            extra["X-RateLimit-Global"] = "true"
        return web.Response(body=json.dumps(body).encode(), status=429, headers={**headers, **extra})
