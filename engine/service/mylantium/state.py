"""Loading a Mylantium game's rows and turning them into the pure rules' values (engine/mylantium), and the
checks every Mylantium use case shares: the ruleset, a revolution that suspends play, the turn's stage."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from sqlalchemy import delete, exists, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from engine.core.errors import NotFoundError, RuleError
from engine.core.suggest import nearest
from engine.core.text import find_named, inert_name, name_key, same_name, typed_back
from engine.mylantium.alignment import Window
from engine.mylantium.business import InPlay
from engine.mylantium.elections import Candidate
from engine.mylantium.forms import leading_name
from engine.mylantium.model import Building, Faction, FactionCode, Party, Territory, Unit, UnitStatus, VoteBase
from engine.mylantium.revolution import Assets
from engine.mylantium.settings import Rules
from engine.service.ledger import load_game, require_running
from engine.service.views import GameView
from engine.store.models import Event, Game, Player
from engine.store.models.mylantium import (
    MylCandidate,
    MylChain,
    MylChoice,
    MylElection,
    MylFaction,
    MylGovernment,
    MylTerritory,
    MylUnit,
)

NAME = "mylantium"
"""The ruleset's name, as stored in ``games.ruleset``."""
Latest = TypeVar("Latest", MylElection, MylChain)
COLUMNS = {Building.PORT: "ports", Building.CITY: "cities", Building.TEMPLE: "temples", Building.VILLAGE: "villages"}


def require_mylantium(game: Game | GameView) -> None:
    if game.ruleset != NAME:
        raise RuleError(f"{game.name} plays {game.ruleset}; this is a Mylantium command.")


def rules_of(game: Game) -> Rules:
    return Rules.of(game.settings)


async def government_of(session: AsyncSession, game: Game) -> MylGovernment:
    """The game's government row, made on first use."""
    found = await session.execute(select(MylGovernment).where(MylGovernment.game_id == game.id))
    gov = found.scalar_one_or_none()
    if gov is None:
        gov = MylGovernment(game_id=game.id, turn=1, fervor=0, monopolies=0, faction_taxes=0, tariffs=0, subsidies=0,
                            pensions=0, wars=0, unfunded_last_turn=0, election_started=False, business_closed=False,
                            snapshot={})
        session.add(gov)
        await session.flush()
    return gov


def approval_of(gov: MylGovernment, game: Game) -> int:
    """The Approval Rating: as set or changed, else the ``initial_approval`` setting (P1-20)."""
    return gov.approval if gov.approval is not None else rules_of(game).initial_approval


def in_play_of(gov: MylGovernment) -> InPlay:
    return InPlay(monopolies=gov.monopolies, income_tax=gov.income_tax, faction_taxes=gov.faction_taxes,
                  tariffs=gov.tariffs, subsidies=gov.subsidies, pensions=gov.pensions, wars=gov.wars)


def set_in_play(gov: MylGovernment, state: InPlay) -> None:
    gov.monopolies, gov.income_tax, gov.faction_taxes = state.monopolies, state.income_tax, state.faction_taxes
    gov.tariffs, gov.subsidies, gov.pensions, gov.wars = state.tariffs, state.subsidies, state.pensions, state.wars


async def faction_rows(session: AsyncSession, game_id: int) -> list[MylFaction]:
    rows = (await session.execute(select(MylFaction).where(MylFaction.game_id == game_id))).scalars().all()
    order = list(FactionCode)
    return sorted(rows, key=lambda r: order.index(FactionCode[r.code]))


async def territory_rows(session: AsyncSession, game_id: int) -> list[MylTerritory]:
    found = await session.execute(select(MylTerritory).where(MylTerritory.game_id == game_id).order_by(MylTerritory.id))
    return list(found.scalars())


async def unit_rows(session: AsyncSession, game_id: int) -> list[MylUnit]:
    found = await session.execute(select(MylUnit).where(MylUnit.game_id == game_id).order_by(MylUnit.id))
    return list(found.scalars())


async def candidate_rows(session: AsyncSession, game_id: int) -> list[MylCandidate]:
    found = await session.execute(select(MylCandidate).where(MylCandidate.game_id == game_id)
                                  .order_by(MylCandidate.id))
    return list(found.scalars())


def territory_of(row: MylTerritory) -> Territory:
    return Territory(row.name, {kind: int(getattr(row, column)) for kind, column in COLUMNS.items()})


def unit_of(row: MylUnit) -> Unit:
    return Unit(row.name, row.territory, row.maintenance, row.cost, UnitStatus(row.status))


def base_of(row: MylFaction) -> VoteBase:
    return VoteBase(per={Building(k): int(v) for k, v in row.per.items()},
                    entered={k: int(v) for k, v in row.entered.items()})


def faction_of(row: MylFaction, territories: Sequence[Territory]) -> Faction:
    return Faction(FactionCode[row.code], Party(row.party), row.vp, row.treasury, row.in_play,
                   base_of(row).national(territories))


def candidate_of(row: MylCandidate, code: FactionCode) -> Candidate:
    return Candidate(row.name, code, Party(row.party), row.charisma, row.running and not row.discarded)


def assets_of(territories: Sequence[MylTerritory], units: Sequence[MylUnit]) -> Assets:
    return Assets(tuple(territory_of(t) for t in territories), tuple(unit_of(u) for u in units))


async def pure_factions(session: AsyncSession, game_id: int) -> tuple[tuple[Faction, ...], list[MylFaction]]:
    rows = await faction_rows(session, game_id)
    territories = [territory_of(t) for t in await territory_rows(session, game_id)]
    return tuple(faction_of(r, territories) for r in rows), rows


def write_back(rows: Sequence[MylFaction], factions: Sequence[Faction]) -> None:
    """Copy VP, treasury and in-play from the pure Factions to their rows."""
    by_code = {f.code: f for f in factions}
    for row in rows:
        f = by_code.get(FactionCode[row.code])
        if f is not None:
            row.vp, row.treasury, row.in_play = f.vp, f.treasury, f.in_play


async def faction_by_code(session: AsyncSession, game: Game, code: FactionCode) -> MylFaction:
    found = await session.execute(select(MylFaction).where(MylFaction.game_id == game.id,
                                                           MylFaction.code == code.name))
    row = found.scalar_one_or_none()
    if row is None:
        have = ", ".join(FactionCode[r.code].plural for r in await faction_rows(session, game.id)) or "none yet"
        raise NotFoundError(f"{game.name} has no {code.title} Faction. Its Factions: {have}.")
    return row


async def faction_of_user(session: AsyncSession, game: Game, user_id: int) -> tuple[Player, MylFaction]:
    found = await session.execute(select(Player, MylFaction).join(MylFaction, MylFaction.player_id == Player.id)
                                  .where(Player.game_id == game.id, Player.user_id == user_id))
    row = found.one_or_none()
    if row is None:
        raise NotFoundError(f"You do not control a Faction in {game.name}.")
    if row[0].removed:
        raise RuleError(f"You are no longer in {game.name}: a moderator removed you, so nothing of yours can count. "
                        "Ask the moderators if this is a mistake.")
    return row[0], row[1]


async def player_names(session: AsyncSession, game_id: int) -> dict[int, Player]:
    found = await session.execute(select(Player).where(Player.game_id == game_id))
    return {p.id: p for p in found.scalars()}


async def find_candidate(session: AsyncSession, game: Game, name: str, *, live: bool = True) -> MylCandidate:
    """A candidate by name (case and spaces ignored; a unique start of the name is enough)."""
    rows = [c for c in await candidate_rows(session, game.id) if not (live and c.discarded)]
    wanted = name_key(inert_name(name)) or name_key(name)  # typed with markdown, as the name was kept (P4.1)
    exact = [c for c in rows if same_name(c.name, name)]
    found = exact or [c for c in rows if len(wanted) >= 2 and c.name.lower().startswith(wanted)]
    if len(found) == 1:
        return found[0]
    listing = ", ".join(c.name for c in rows) or "none yet"
    if not found:
        lead = leading_name(name.strip(), lambda words: _one_named(rows, words))
        if lead is not None:  # ``Lee Adams, please``: only part was read, so nothing is (play-test M5.3)
            raise RuleError(f"I read {lead[0].name} in “{name.strip()}”, but not “{lead[1]}”: give the candidate's "
                            f"name alone ({lead[0].name}).")
        near = nearest(wanted, [c.name for c in rows])
        hint = f" Did you mean {near}?" if near else ""
        raise RuleError(f"{game.name} has no candidate called {typed_back(name)}.{hint} Candidates: {listing}.")
    raise RuleError(f"“{name.strip()}” could be {', '.join(c.name for c in found)}; give the full name.")


def _one_named(rows: list[MylCandidate], words: str) -> MylCandidate | None:
    """The candidate whose whole name ``words`` is (case and spaces ignored), if one is."""
    return find_named(rows, words, lambda c: c.name)


async def open_election(session: AsyncSession, game_id: int) -> MylElection | None:
    found = await session.execute(select(MylElection).where(MylElection.game_id == game_id,
                                                            MylElection.status == "open"))
    return found.scalar_one_or_none()


async def stop_candidates(session: AsyncSession, game_id: int, gone: Sequence[MylFaction]) -> tuple[str, ...]:
    """The Candidates of Factions that have just left play (a Vanguard crushed or put down, a failed coup, a
    moderator's ``in_play:false``) stop running: a Faction that "withdraws from the game entirely" (R1-43, R1-44.5)
    has no candidate in its elections, so one cannot take the Presidency for it (play-test X1.1). The choices made
    for them in an open Primary are dropped (those Factions choose again), as at a ``/player remove``. A Faction
    brought back (``in_play:true``) gets its Candidate back with ``/candidate set running:true``. Returns the names
    of the Candidates stopped."""
    ids = {f.id for f in gone}
    if not ids:
        return ()
    stopped = [c for c in await candidate_rows(session, game_id)
               if c.faction_id in ids and c.running and not c.discarded]
    for candidate in stopped:
        candidate.running = False
    election = await open_election(session, game_id)
    if election is not None and election.stage == "primary" and stopped:
        await session.execute(delete(MylChoice).where(MylChoice.election_id == election.id,
                                                      MylChoice.choice.in_([c.name for c in stopped])))
    return tuple(c.name for c in stopped)


async def election_of(session: AsyncSession, game_id: int, turn: int, stage: str) -> MylElection | None:
    found = await session.execute(select(MylElection).where(MylElection.game_id == game_id, MylElection.turn == turn,
                                                            MylElection.stage == stage))
    return found.scalar_one_or_none()


REOPENED = "ElectionReopened"


async def closing_of(session: AsyncSession, game_id: int, turn: int, stage: str) -> int:
    """Which close of turn ``turn``'s ``stage`` election the next one is: 1, and one more for each time a moderator
    reopened it (``/election reopen``). A result closed again is a new result, announced under a marker of its own
    (``engine.service.announcements.posted_marker``)."""
    found = await session.execute(select(Event.payload).where(Event.game_id == game_id, Event.kind == REOPENED))
    return 1 + sum(1 for p in found.scalars() if p.get("turn") == turn and p.get("stage") == stage)


CANCELLED = "ElectionRoundCancelled"


async def round_starts(session: AsyncSession, game_id: int) -> list[Event]:
    """The ``ElectionRoundStarted`` events of the Election Rounds that stand, in order: one called off with
    ``/election cancel`` (an ``ElectionRoundCancelled`` after it) is as if it had never been made."""
    found = await session.execute(select(Event).where(Event.game_id == game_id,
                                                      Event.kind.in_(("ElectionRoundStarted", CANCELLED)))
                                  .order_by(Event.seq))
    starts: list[Event] = []
    for e in found.scalars():
        if e.kind == CANCELLED:
            starts.pop()
        else:
            starts.append(e)
    return starts


def suspended(game_id: Any) -> Any:
    """SQL: the game has a chain of Revolutions running its course (play suspended, R1-40)."""
    return exists().where(MylChain.game_id == game_id, MylChain.waiting != "nothing")


async def live_chain(session: AsyncSession, game_id: int) -> MylChain | None:
    found = await session.execute(select(MylChain).where(MylChain.game_id == game_id, MylChain.waiting != "nothing"))
    return found.scalar_one_or_none()


async def open_else_latest(session: AsyncSession, game_id: int, current: Latest | None, kind: type[Latest],
                           newest: InstrumentedAttribute[int]) -> Latest | None:
    """``current`` (the open election, the running revolution), else the game's latest ``kind`` by ``newest``;
    None before the first."""
    if current is not None:
        return current
    found = await session.execute(select(kind).where(kind.game_id == game_id).order_by(newest.desc()).limit(1))
    return found.scalar_one_or_none()


async def require_calm(session: AsyncSession, game: Game) -> None:
    """R1-40: while a Revolution runs its course, play is suspended."""
    if await live_chain(session, game.id) is not None:
        raise RuleError("A Revolution is under way and play is suspended until it runs its course "
                        "(/revolution status).")


async def calm_game(session: AsyncSession, game_id: int) -> Game:
    """The Mylantium game, still running and not suspended by a revolution: the guard every turn command needs."""
    game = await load_game(session, game_id)
    require_mylantium(game)
    require_running(game)
    await require_calm(session, game)
    return game


async def window_of(session: AsyncSession, gov: MylGovernment) -> Window:
    """R1-11: realignment is open from the start of the Election Round until the Primary opens."""
    if not gov.election_started or gov.business_closed:
        return Window.NOT_ELECTION
    if await election_of(session, gov.game_id, gov.turn, "primary") is not None:
        return Window.PRIMARY_OPENED
    return Window.OPEN


async def stage_of(session: AsyncSession, gov: MylGovernment) -> str:
    if gov.business_closed:
        return "the Business Phase is closed; /election start begins the next turn"
    if not gov.election_started:
        return "before the Election Round (setup)"
    primary = await election_of(session, gov.game_id, gov.turn, "primary")
    general = await election_of(session, gov.game_id, gov.turn, "general")
    if primary is None:
        return "Election Round: Factions may realign until the Primary opens"
    if general is None:
        return "Primary open" if primary.status == "open" else "Primary closed; the General Election is next"
    if general.status == "open":
        return "General Election open"
    return "after the General Election: the Legislative Round and the Business Phase"

