"""Has the timed work (deadlines, reminder instants, offers' time-outs) possibly changed since a scheduler pass
last read it? The deadline scheduler (``bot/discord/scheduler.py``) asks this at a pass that has nothing due, so
that pass reads one small query instead of every ruleset's deadlines and every reminder.

Every change to the timed work is written with an event (a round opened, extended, paused, a setting changed,
an offer made, ...), in whichever process or console made it. ``since(after)`` reads the kinds of the events
after id ``after`` and the newest id; when every kind is one its ruleset names in ``Ruleset.untimed_events``
(a ballot), nothing timed changed. Any other kind, or a kind the rulesets do not name, means "read again"."""

from __future__ import annotations

from sqlalchemy import func, select

from engine.service.uow import ServiceBase
from engine.store.models import Event


class TimedChanges(ServiceBase):
    def untimed(self) -> frozenset[str]:
        """The event kinds no ruleset's timed work depends on (the union of ``Ruleset.untimed_events``)."""
        return frozenset().union(*(r.untimed_events for r in self.backend.rulesets))

    async def since(self, after: int | None) -> tuple[int, bool]:
        """(the newest event id, whether an event after ``after`` may have changed the timed work). ``after``
        None: only the newest id (read just before the timed work is read in full)."""
        async with self._read() as session:
            if after is None:
                return (await session.execute(select(func.max(Event.id)))).scalar_one() or 0, True
            rows = (await session.execute(select(Event.kind, func.max(Event.id)).where(Event.id > after)
                                          .group_by(Event.kind))).all()
        untimed = self.untimed()
        return max((top for _, top in rows), default=after), any(kind not in untimed for kind, _ in rows)
