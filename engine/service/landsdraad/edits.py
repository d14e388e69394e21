"""A moderator's edit of the Landsdraad ledger with what it makes follow, in ONE transaction: the edit (``/player
add``, ``/player set``, ``/player remove``, ``/holding add``, ``/holding remove``, ``/transfer apply``, ``/transfer
correct``, ``/game import``), the open player votes judged again on the new number of active players (P0-19), the
majority check (R3-20), what a correction changes in the closed results (issue 19) and the set-up summary's reading.
The messages made of it all are owed in that transaction (``owe_in``), so a kill after its commit loses none of them
(docs/reliability.md). The mechanism is the shared one (``clerk.followed``, ``FollowedWrites.follow``: the edit joins
the transaction as a savepoint, ``ServiceBase._batch``, and so does every write of the game that follows it); each
part is the ruleset's own use case or a read of the same transaction."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.service.dice import GAME_SCOPE, SealView, seal_of
from engine.service.followed import FollowedWrites
from engine.service.landsdraad.errata import Consequences, after_correction, after_edit
from engine.service.landsdraad.ledger import read_players
from engine.service.landsdraad.majority import MajorityService, VoteView
from engine.service.landsdraad.round_state import read_round
from engine.service.landsdraad.victory import VictoryService
from engine.service.landsdraad.victory_views import MajorityNotice
from engine.service.landsdraad.views import PlayerView
from engine.service.ledger import read_game
from engine.service.owed import OwedWith

log = logging.getLogger("clerk.landsdraad.edits")

T = TypeVar("T")


@dataclass(frozen=True)
class SetUp:
    """What the set-up summary shows while the game is being set up (no round opened yet): the players (with their
    holdings) and the seal of the rolls outside rounds."""

    players: tuple[PlayerView, ...]
    seal: SealView | None


@dataclass(frozen=True)
class Edited(Generic[T]):
    """An edit's own result (``done``) and what followed it in its transaction."""

    done: T
    passed: tuple[VoteView, ...] = ()
    """The open player votes that passed when judged again on the new number of active players (P0-19)."""
    majority: MajorityNotice | None = None
    """A player came to hold, or stopped holding, a majority of the votes (R3-20)."""
    consequences: Consequences | None = None
    """What the correction changes in the closed results (None: no correction)."""
    setup: SetUp | None = None
    """The set-up summary's reading, while the game is being set up (None after, or when not asked)."""
    players: tuple[PlayerView, ...] | None = None
    """The game's players as the edit left them (when asked)."""


def setup_of(session: Session, game_id: int) -> SetUp | None:
    """The set-up summary's reading if ``game_id`` is being set up (running, no round opened yet), else None."""
    game = read_game(session, game_id)
    if game.status == "ended" or read_round(session, game) is not None:
        return None
    return SetUp(tuple(read_players(session, game_id)), seal_of(session, game_id, GAME_SCOPE))


class LedgerEdits:
    """``clerk.landsdraad.edits``: an edit followed, in its transaction, by what it makes follow
    (``FollowedWrites.follow``, the shared mechanism; this says only what follows a ledger edit)."""

    def __init__(self, followed: FollowedWrites, majority: MajorityService, victory: VictoryService) -> None:
        self._followed = followed
        self._majority = majority
        self._victory = victory

    async def edit(self, game_id: int, write: Callable[[], Awaitable[T]], *, actor: int | None,
                   source_id: str | None, reevaluate: bool = False, majority: bool = True, correction: bool = False,
                   corrected_entry: Callable[[T], int] | None = None, setup: bool = False, players: bool = False,
                   joins: tuple[int, ...] = (), answer: OwedWith[Edited[T]] | None = None) -> Edited[T]:
        """``write`` (the edit: a use case of the game under ``source_id``) and what follows it, in one transaction
        (``FollowedWrites.follow``): with ``reevaluate``, the open player votes judged again
        (``MajorityService.reevaluate_votes``); with ``majority``, the majority check (``check_majority``: a failure
        of it is logged, and undone alone); with ``correction``, what the ledger edit recorded under ``source_id``
        changes in the closed results if it was made as a correction (``since``); with ``corrected_entry``, what the
        transfer correction whose entry it names in the result changes; with ``setup``, the set-up summary's
        reading; with ``players``, the game's players. ``answer``: the messages made of it all, owed in the
        transaction (``owe_in``). ``joins``: the users whose games the edit changes (players added or removed),
        forgotten again by the games cache once it has committed (``membership``). Raises Duplicate for a
        redelivery of ``source_id``, and whatever the edit raises (then nothing is written)."""
        async def then(session: AsyncSession, done: T) -> Edited[T]:
            passed = tuple(await self._majority.reevaluate_votes(game_id, actor=actor)) if reevaluate else ()
            notice = await self._majority_notice(game_id, actor) if majority else None
            consequences: Consequences | None = None
            if corrected_entry is not None:
                entry = corrected_entry(done)
                consequences = await session.run_sync(lambda s: after_correction(s, game_id, entry))
            elif correction and source_id is not None:
                consequences = await session.run_sync(lambda s: after_edit(s, game_id, source_id))
            summary = await session.run_sync(setup_of, game_id) if setup else None
            everyone = tuple(await session.run_sync(read_players, game_id)) if players else None
            return Edited(done, passed, notice, consequences, summary, everyone)

        return await self._followed.follow(game_id, write, then, source_id=source_id, answer=answer,
                                           joins=(lambda _done: joins) if joins else None)

    async def _majority_notice(self, game_id: int, actor: int | None) -> MajorityNotice | None:
        """The majority check, a savepoint of the edit's transaction: a failure of it is undone alone and logged
        (the edit stands, as when the check ran after its commit)."""
        try:
            return await self._victory.check_majority(game_id, actor=actor)
        except Exception:
            log.exception("the majority check of game %s failed", game_id)
            return None
