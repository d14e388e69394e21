"""What a ruleset gives the service layer: one record (``Ruleset``), listed once in ``engine/service/clerk.py``.

Shared code never names a ruleset: it loops over the records. A record names the ruleset, its settings (shown and
changed by ``/game settings``), the service object that holds its use cases (``clerk.<name>``, built on the shared
``Backend``), its parts of the game export, its state tables and its reminder forms. What is timed (deadlines) the
service object answers itself (``RulesetService.next_deadlines``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.settings import Setting
from engine.service.uow import Backend, ServiceBase
from engine.store.models import Base

if TYPE_CHECKING:  # the composition root imports every ruleset; a ruleset's service only refers to it
    from engine.service.clerk import Clerk
    from engine.service.reminders import ReminderForm  # reminders -> settings -> ruleset: named, not imported

ExportSection = Callable[[AsyncSession, int], Awaitable[dict[str, Any]]]
"""``(session, game_id) -> {key: value}``: a part of the game export (docs/export.md), merged into the document
before ``events``; a section returns ``{}`` for a game it has nothing to say about."""


EventForm = Callable[[dict[str, Any]], dict[str, Any]]
"""``payload -> payload``: an event's stored payload as the export writes it (``Ruleset.exported_events``)."""


Progress = Callable[[AsyncSession, Any], Awaitable[str]]
"""``(session, game row) -> text``: where a game stands in its ruleset's own unit (``Ruleset.progress``)."""

SettingUp = Callable[[AsyncSession, Any], Awaitable[bool]]
"""``(session, game row) -> bool``: is the game being set up (``Ruleset.setting_up``)."""

DiceNote = Callable[[AsyncSession, int, int], Awaitable[str | None]]
"""``(session, game id, scope) -> note``: what ``/verify`` says of a scope beside its check (``Ruleset.dice_note``)."""

SettingGuard = Callable[[AsyncSession, Any, str, Any, Any], Awaitable[None]]
Reopened = Callable[[AsyncSession, int, datetime, datetime], Awaitable[list[tuple[str, datetime]]]]
"""``(session, game id, ended_at, now)``, in ``/game reopen``'s transaction: the deadlines that were running when
the game ended run on with the time they had left then (play-test X4.5). Returns each one it moved, in words with
its new time (``("the Primary of turn 2", when)``), for the reopening's announcement."""
"""(session, the game row, the setting's name, its old value, the new one): raises a RuleError to refuse."""


class RulesetService(ServiceBase):
    """The use cases of one ruleset, reached as ``clerk.<name>``. ``shared`` is the Clerk it belongs to: its shared
    services (``self.shared.games``, ``.posts``, ``.exports``, ...) for the ruleset's own use."""

    def __init__(self, backend: Backend, shared: Clerk) -> None:
        super().__init__(backend)
        self.shared = shared

    async def next_deadlines(self) -> list[datetime]:
        """Every instant this ruleset's timed work falls due (deadlines, offers), for the scheduler to wake at."""
        return [instant for _, instant in await self.game_deadlines()]

    async def game_deadlines(self) -> list[tuple[int, datetime]]:
        """``next_deadlines`` with the game of each: (game id, instant). A start reads first the DMs of the players
        of games whose deadline passed while the bot was offline (bot/discord/catch_up.py)."""
        return []


@dataclass(frozen=True)
class Ruleset:
    name: str
    """As stored in ``games.ruleset`` and typed in ``/game new``: lower case, one word."""
    title: str
    """For players: ``Landsdraad``, ``Mylantium``, ``Convocate``."""
    settings: Mapping[str, Setting] = field(default_factory=dict)
    """The settings ``/game settings`` shows and changes for its games, with their defaults."""
    service: Callable[[Backend, Clerk], RulesetService] | None = None
    """Builds ``clerk.<name>``."""
    exports: tuple[ExportSection, ...] = ()
    """Its parts of ``/game export``."""
    exported_events: Mapping[str, EventForm] = field(default_factory=dict)
    """Event kind -> how the export writes a payload of that kind that its games store in a form of their own
    (a compact one; docs/export.md documents the exported form); a kind not named is written as stored."""
    tables: tuple[type[Base], ...] = ()
    """The tables that hold its games' state (``engine/store/models/<name>.py``), beside the shared ones: the export
    carries their rows (``state``) and a copy restores them (``engine/service/game_copy.py``, ``console --from``).
    A table hangs from the game by its ``game_id`` or from a row of one that has it."""
    reminders: tuple[ReminderForm, ...] = ()
    """What its players are reminded to vote in before a deadline (``engine/service/reminders.py``)."""
    untimed_events: frozenset[str] = frozenset()
    """Event kinds of its games that never change any timed work (a deadline, a reminder's instant, an offer's
    time-out): a scheduler pass that finds only these since its last read of the timed work does not read it again
    (``engine/service/timed_changes.py``). Leave a kind out when unsure: an unnamed kind only costs a read."""
    progress: Progress | None = None
    """Where one of its games stands, in its own unit (``turn 1``, ``turn 2, Action Phase``), for ``/game list``;
    None: ``round N`` (the game's ``current_round``)."""
    setting_up: SettingUp | None = None
    """Is one of its games being set up (its players and holdings entered, nothing played yet)? ``/game list`` and
    the export's title then say "being set up", not its ``progress`` (play-test T5.6); None: never."""
    dice: bool = False
    """Clerk rolls dice for its games (sealed seeds, ``/verify``). False: its games roll none, so ``/help`` does not
    offer ``/verify`` there and ``/verify`` answers that the game rolls no dice (play-test M5.6)."""
    dice_note: DiceNote | None = None
    """What ``/verify`` says of one of its dice scopes beside the check (a round made void: its dice decided
    nothing); None: nothing."""
    setting_guard: SettingGuard | None = None
    """Refuses a change of one of its settings that would rewrite what was already counted with it (a RuleError
    saying what to do instead); None: every valid value is accepted."""
    reopened: Reopened | None = None
    """Its deadlines at a reopening (``Reopened``): what was running when the game ended (an election, a chain's
    contributions, an offer to second) runs on from the reopening with the time it had left, rather than closing at
    once, late, for a time the ledger was closed and the players' answers were refused. None: nothing runs."""

    def exported(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """An event's stored payload as the export (and ``/log``) writes it (``exported_events``)."""
        form = self.exported_events.get(kind)
        return payload if form is None else form(payload)
