"""The Republic of Mylantium in the service layer: its record (``RULESET``, listed in ``engine/service/clerk.py``)
and its use cases, ``clerk.mylantium`` (``MylantiumService``: the moderators' setup, and the parts of a turn,
``elections``, ``business`` and ``revolutions``); its reminder forms (a Primary, a General Election) in
``reminders``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.mylantium.settings import SETTINGS
from engine.service.clock import utc
from engine.service.mylantium.export import export_mylantium
from engine.service.mylantium.reminders import FORMS
from engine.service.mylantium.service import MylantiumService
from engine.service.mylantium.state import NAME, live_chain, open_election
from engine.service.ruleset import Ruleset
from engine.store.models import mylantium as tables
from engine.store.models.mylantium import MylGovernment


async def progress(session: AsyncSession, game: Any) -> str:
    """``turn N`` for /game list (a game counts turns from 1, before its government page is set too)."""
    turn = (await session.execute(select(MylGovernment.turn).where(MylGovernment.game_id == game.id))).scalar()
    return f"turn {turn or 1}"


async def setting_up(session: AsyncSession, game: Any) -> bool:
    """``Ruleset.setting_up``: in turn 1 before its Election Round starts (as its set-up summary says)."""
    gov = (await session.execute(select(MylGovernment).where(MylGovernment.game_id == game.id))).scalar_one_or_none()
    return gov is None or (gov.turn == 1 and not gov.election_started and not gov.business_closed)


async def setting_guard(session: AsyncSession, game: Any, name: str, old: Any, new: Any) -> None:
    """``initial_approval`` is the Approval Rating until a moderator sets one or a Business Phase changes it
    (P1-20): once a General Election was counted at it, changing it would rewrite that election's approval and the
    record (play-test M4.3); a correction goes through ``/government set approval:X since:T``, which recounts the
    closed elections and offers an erratum."""
    if name != "initial_approval":
        return
    gov = (await session.execute(select(MylGovernment).where(MylGovernment.game_id == game.id))).scalar_one_or_none()
    if gov is None or gov.approval is not None:
        return
    turns = sorted((await session.execute(select(tables.MylElection.turn).where(
        tables.MylElection.game_id == game.id, tables.MylElection.stage == "general",
        tables.MylElection.status == "closed"))).scalars())
    if turns:
        which = (f"General Election of turn {turns[0]} was" if len(turns) == 1 else
                 f"General Elections of turns {', '.join(str(t) for t in turns)} were")
        raise RuleError(f"The {which} counted at the starting Approval Rating of "
                        f"{old}% (initial_approval), so changing the setting now would rewrite it. To correct the "
                        f"approval, use /government set approval:<percent> since:<turn>: it recounts the closed "
                        "General Elections and offers an erratum. Nothing was changed.")


async def reopened(session: AsyncSession, game_id: int, ended_at: datetime, now: datetime
                   ) -> list[tuple[str, datetime]]:
    """``Ruleset.reopened`` (play-test X4.5): the open election's deadline and a chain's contributions' deadline, if
    still to come when the game ended, run on from the reopening with the time they had left then: while the ledger
    was closed every choice and contribution was refused, so closing them at once, "late", would count a time
    nobody could answer in. An election a running chain holds is left to the chain, which adds its whole hold when
    play resumes (docs/rulings.md, "An election's deadline is held during a chain"). Returns what moved, in words,
    with its new deadline."""
    moved: list[tuple[str, datetime]] = []
    chain = await live_chain(session, game_id)
    if chain is not None and chain.deadline is not None and utc(chain.deadline) > ended_at:
        chain.deadline = now + (utc(chain.deadline) - ended_at)
        moved.append((f"the contributions to Revolution chain #{chain.number}", chain.deadline))
    election = await open_election(session, game_id)
    if chain is None and election is not None and election.deadline is not None and utc(election.deadline) > ended_at:
        election.deadline = now + (utc(election.deadline) - ended_at)
        title = "Primary" if election.stage == "primary" else "General Election"
        moved.append((f"the {title} of turn {election.turn}", election.deadline))
    return moved


TABLES = (tables.MylGovernment, tables.MylFaction, tables.MylCandidate, tables.MylTerritory, tables.MylUnit,
          tables.MylElection, tables.MylChoice, tables.MylHappening, tables.MylHistory, tables.MylChain,
          tables.MylContribution)
"""Its state tables (``Ruleset.tables``)."""

RULESET = Ruleset(NAME, "Mylantium", SETTINGS, service=MylantiumService, exports=(export_mylantium,), reminders=FORMS,
                  progress=progress, tables=TABLES, untimed_events=frozenset({"ChoiceMade", "ContributionPledged"}),
                  setting_guard=setting_guard, setting_up=setting_up, reopened=reopened)

__all__ = ["NAME", "RULESET", "MylantiumService"]
