"""Reminders before a deadline: the players who have not voted in the open round, AG election or Mylantium
election (Primary or General Election: the players of the Factions in play that have not chosen) get a DM at each
instant of the game's ``reminders`` setting (default 24 h and 2 h before). An AG election that closes with the
round (after No Confidence, no deadline of its own) is reminded at the round's instants. Each reminder is a
``ReminderSent`` event whose source id ``remind:<game>:<kind>:<number>:<seconds before>`` (the number of a
Mylantium election is its turn) makes it go out once, even across restarts; ``/round remind`` and ``/election
remind`` send one at once under the command's own source id."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.landsdraad.settings import parse_offsets
from engine.service.adjutant import round_end
from engine.service.clock import utc
from engine.service.ledger import game_players, game_view, load_game
from engine.service.rounds import open_round_of
from engine.service.settings import value_of
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Game, MylChoice, MylElection, MylFaction, Player
from engine.store.models.landsdraad import AgBallotRow, AgElection, Ballot, Round

KINDS = ("round", "ag", "primary", "general")
"""A crisis round (players without a ballot), an AG election (players without an AG ballot), a Mylantium Primary
or General Election (players whose Faction has not chosen)."""

Waiting = tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Reminder:
    game: GameView
    kind: str
    number: int
    """The round's or AG election's number; a Mylantium election's turn."""
    deadline: datetime | None
    """None: the round is paused."""
    waiting: Waiting
    """(user id, name) of every active player who has not voted."""
    with_round: int | None = None
    """An AG election that closes with this round (its deadline is the round's)."""


def reminder_source(game_id: int, kind: str, number: int, offset: int) -> str:
    return f"remind:{game_id}:{kind}:{number}:{offset}"


Target = tuple[Game, str, int, datetime, datetime]
"""(game, kind, number, opened at, deadline)."""


async def _targets(session: AsyncSession) -> list[Target]:
    """Everything open with a deadline whose non-voters are reminded."""
    targets: list[Target] = []
    rounds = await session.execute(select(Game, Round).join(Round, Round.game_id == Game.id).where(
        Round.status == "open", Round.deadline.is_not(None), Game.ruleset == "landsdraad"))
    for game, rnd in rounds.all():
        assert rnd.deadline is not None
        targets.append((game, "round", rnd.number, utc(rnd.opened_at), utc(rnd.deadline)))
    elections = await session.execute(select(Game, AgElection).join(AgElection, AgElection.game_id == Game.id)
                                      .where(AgElection.status == "open", AgElection.closes_at.is_not(None)))
    for game, election in elections.all():
        assert election.closes_at is not None
        targets.append((game, "ag", election.number, utc(election.opened_at), utc(election.closes_at)))
    with_round = await session.execute(
        select(Game, AgElection, Round).join(AgElection, AgElection.game_id == Game.id)
        .join(Round, (Round.game_id == Game.id) & (Round.number == AgElection.closes_with_round))
        .where(AgElection.status == "open", AgElection.closes_at.is_(None), Round.status == "open",
               Round.deadline.is_not(None)))
    for game, election, rnd in with_round.all():  # no deadline of its own: the round's instants
        assert rnd.deadline is not None
        targets.append((game, "ag", election.number, utc(election.opened_at), utc(rnd.deadline)))
    myl = await session.execute(select(Game, MylElection).join(MylElection, MylElection.game_id == Game.id)
                                .where(MylElection.status == "open", MylElection.deadline.is_not(None)))
    for game, row in myl.all():
        assert row.deadline is not None
        targets.append((game, row.stage, row.turn, utc(row.opened_at), utc(row.deadline)))
    return targets


async def _round_waiting(session: AsyncSession, game: Game, number: int | None
                         ) -> tuple[int, datetime | None, Waiting, int | None]:
    if number is None:
        rnd = await open_round_of(session, game)
    else:
        rnd = (await session.execute(select(Round).where(Round.game_id == game.id,
                                                         Round.number == number))).scalar_one()
    voted = set((await session.execute(select(Ballot.player_id).where(Ballot.round_id == rnd.id))).scalars())
    players = [p for p in await game_players(session, game.id) if p.active]
    return (rnd.number, utc(rnd.deadline) if rnd.deadline else None,
            tuple((p.user_id, p.name) for p in players if p.id not in voted), None)


async def _ag_waiting(session: AsyncSession, game: Game, number: int | None
                      ) -> tuple[int, datetime | None, Waiting, int | None]:
    query = select(AgElection).where(AgElection.game_id == game.id)
    query = query.where(AgElection.number == number) if number is not None else query.where(
        AgElection.status == "open")
    election = (await session.execute(query)).scalar_one_or_none()
    if election is None:
        raise RuleError(f"No Adjutant General election is open in {game.name}.")
    with_round = election.closes_with_round if election.closes_at is None else None
    deadline = utc(election.closes_at) if election.closes_at else (
        await round_end(session, game, election) if with_round is not None else None)
    voted = set((await session.execute(select(AgBallotRow.voter_id).where(
        AgBallotRow.election_id == election.id))).scalars())
    players = [p for p in await game_players(session, game.id) if p.active]
    return (election.number, deadline, tuple((p.user_id, p.name) for p in players if p.id not in voted),
            with_round)


async def _myl_waiting(session: AsyncSession, game: Game, stage: str, turn: int | None
                       ) -> tuple[int, datetime | None, Waiting, int | None]:
    query = select(MylElection).where(MylElection.game_id == game.id, MylElection.stage == stage)
    query = query.where(MylElection.turn == turn) if turn is not None else query.where(MylElection.status == "open")
    row = (await session.execute(query)).scalar_one_or_none()
    if row is None:
        what = "Primary" if stage == "primary" else "General Election"
        raise RuleError(f"No {what} is open in {game.name}.")
    chose = set((await session.execute(select(MylChoice.faction_id).where(
        MylChoice.election_id == row.id))).scalars())
    factions = await session.execute(select(MylFaction.id, Player.user_id, Player.name)
                                     .join(Player, Player.id == MylFaction.player_id)
                                     .where(MylFaction.game_id == game.id, MylFaction.in_play)
                                     .order_by(MylFaction.id))
    return (row.turn, utc(row.deadline) if row.deadline else None,
            tuple((user, name) for faction, user, name in factions.all() if faction not in chose), None)


class ReminderService(ServiceBase):
    async def pending_reminders(self) -> list[tuple[int, str, int, int, datetime]]:
        """Reminders not yet sent, soonest first: (game id, kind, number, seconds before, instant). An instant
        at or before the opening is skipped (a 1 h deadline gets no "24 h before" reminder)."""
        async with self._read() as session:
            wanted: list[tuple[int, str, int, int, datetime]] = []
            for game, kind, number, opened, deadline in await _targets(session):
                for offset in parse_offsets(str(value_of(game.settings, "reminders"))):
                    instant = deadline - timedelta(seconds=offset)
                    if instant > opened:
                        wanted.append((game.id, kind, number, offset, instant))
            if not wanted:
                return []
            sources = [reminder_source(g, k, n, o) for g, k, n, o, _ in wanted]
            sent = set((await session.execute(select(Event.source_id).where(Event.source_id.in_(sources)))).scalars())
            return sorted((w for w, s in zip(wanted, sources, strict=True) if s not in sent), key=lambda w: w[4])

    async def send_reminder(self, game_id: int, *, kind: str = "round", number: int | None = None,
                            offset: int | None = None, actor: int | None,
                            source_id: str | None = None) -> Reminder:
        """Record a reminder and return who is to be reminded. Without ``number``: the open round, AG election or
        Mylantium election (``/round remind``, ``/election remind``). A repeated source id raises ``Duplicate``
        (the reminder was already sent)."""
        if kind not in KINDS:
            raise RuleError(f"Unknown reminder kind {kind!r}.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            if kind == "round":
                number, deadline, waiting, with_round = await _round_waiting(uow.session, game, number)
            elif kind == "ag":
                number, deadline, waiting, with_round = await _ag_waiting(uow.session, game, number)
            else:
                number, deadline, waiting, with_round = await _myl_waiting(uow.session, game, kind, number)
            await uow.record(game_id, "ReminderSent", actor,
                             {"kind": kind, "number": number, "before": offset,
                              "waiting": [name for _, name in waiting]}, source_id)
            return Reminder(game=game_view(game), kind=kind, number=number, deadline=deadline, waiting=waiting,
                            with_round=with_round)
