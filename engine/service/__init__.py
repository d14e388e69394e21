"""Async use cases: one transaction per command, a lock per game, events appended with the state."""

from engine.service.clerk import Clerk

__all__ = ["Clerk"]
