"""The Clerk is composition (issue 15): no mixins; each shared service is an attribute on the Clerk's one Backend."""

from __future__ import annotations

from typing import Any

from engine.service import Clerk
from engine.service.uow import ServiceBase


def test_the_clerk_inherits_only_the_service_base() -> None:
    assert Clerk.__mro__ == (Clerk, ServiceBase, object)


def test_the_shared_services_are_parts_on_the_one_backend(table: Any) -> None:
    clerk = table.clerk
    parts = (clerk.games, clerk.settings, clerk.exports, clerk.posts, clerk.reminders, clerk.pending_dms,
             clerk.closed_dms, clerk.dm_channels, clerk.marks, clerk.announcements, clerk.outbox)
    assert all(isinstance(part, ServiceBase) and part.backend is clerk.backend for part in parts)
    assert len({type(part) for part in parts}) == len(parts)
